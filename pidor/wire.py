"""Framing and codec of the match protocol, sans-IO (h11 style): no sockets, no clock.

A frame is a 4-byte big-endian unsigned length ``n`` followed by ``n`` bytes: exactly
one msgpack map whose keys are strings (``protocol/PROTOCOL.md``)::

    decoder = Decoder()
    decoder.receive_data(chunk)           # bytes from the socket, any split
    while (message := decoder.next_message()) is not None:
        handle(message)                    # a dict
    sock.send(encode({"type": "ping"}))

Every size is bounded by a named constant below. The decoder raises
:class:`RemoteProtocolError` (the peer broke the protocol) with a wire error ``code``;
:func:`encode` raises :class:`LocalProtocolError` (we tried to break it). After a
``RemoteProtocolError`` the byte stream cannot be trusted: the server reports the error
and closes the connection.

Unknown fields in a message are ignored (forward compatibility); unknown message types
are an error reply, not a protocol violation.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import msgpack

__all__ = [
    "PROTOCOL_VERSION",
    "PROTOCOL_MINOR",
    "MAX_FRAME",
    "MAX_DEPTH",
    "MAX_ARRAY",
    "MAX_MAP",
    "MAX_STR",
    "MAX_BIN",
    "ProtocolError",
    "RemoteProtocolError",
    "LocalProtocolError",
    "Decoder",
    "encode",
    "pack",
    "encode_packed",
    "decode_frame",
    "split_frames",
]

#: Sent in ``hello`` and ``welcome``; a client with another version is refused.
PROTOCOL_VERSION = "pidor/2"
#: What the server adds within ``pidor/2`` without breaking a client written for it, counted
#: (the ``welcome``'s ``minor``; PROTOCOL.md): 1, the public ``honest_only`` event; 2, hello's
#: ``windows: false`` (a client that never calls gets no ``window``/``window_closed`` frames).
PROTOCOL_MINOR = 2

#: Largest frame body (the msgpack map) in bytes, not counting the 4-byte length.
MAX_FRAME = 64 * 1024
#: Deepest nesting of maps and arrays (the top-level map is depth 1).
MAX_DEPTH = 16
#: Most elements in one array.
MAX_ARRAY = 1024
#: Most key/value pairs in one map.
MAX_MAP = 256
#: Longest string, in bytes of UTF-8.
MAX_STR = 16 * 1024
#: Longest bin value (a seat's deal seed is at most 64 bytes; the limit bounds what a peer may send).
MAX_BIN = 4 * 1024

_HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """A broken protocol rule; ``code`` is the wire error code (``PROTOCOL.md``)."""

    code = "protocol_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class RemoteProtocolError(ProtocolError):
    """The peer sent something the protocol forbids."""


class LocalProtocolError(ProtocolError):
    """We were about to send something the protocol forbids (a bug on our side)."""


def _no_ext(code: int, data: bytes) -> Any:
    raise RemoteProtocolError(f"msgpack ext types are not allowed (got ext type {code})", "bad_frame")


def _check_tree(obj: Any, depth: int = 1, isfinite=math.isfinite) -> None:
    """Nesting depth, string map keys and finite floats, everywhere in a message. (The
    unpacker makes plain ``dict``, ``list``, ``str``, ``float``...: exact type tests, the
    cheapest, on every request a server reads.)"""
    if depth > MAX_DEPTH:
        raise RemoteProtocolError(f"message nested deeper than {MAX_DEPTH} levels", "too_deep")
    if type(obj) is dict:
        for key, value in obj.items():
            if type(key) is not str:
                raise RemoteProtocolError("map keys must be strings", "bad_frame")
            t = type(value)
            if t is dict or t is list:
                _check_tree(value, depth + 1)
            elif t is float and not isfinite(value):
                raise RemoteProtocolError("floats must be finite (no NaN or infinity)", "bad_frame")
    elif type(obj) is list:
        for value in obj:
            t = type(value)
            if t is dict or t is list:
                _check_tree(value, depth + 1)
            elif t is float and not isfinite(value):
                raise RemoteProtocolError("floats must be finite (no NaN or infinity)", "bad_frame")


def decode_frame(body: bytes) -> dict:
    """Decode one frame body (without its length header) into a message map."""
    if len(body) > MAX_FRAME:
        raise RemoteProtocolError(f"frame of {len(body)} bytes is over the limit of {MAX_FRAME}", "frame_too_large")
    try:
        obj = msgpack.unpackb(
            body,
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_no_ext,
            max_str_len=MAX_STR,
            max_bin_len=MAX_BIN,
            max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP,
            max_ext_len=0,
        )
    except RemoteProtocolError:
        raise
    except msgpack.ExtraData:
        raise RemoteProtocolError("a frame holds exactly one msgpack value; extra bytes follow it", "bad_frame") from None
    except (msgpack.StackError, RecursionError):
        raise RemoteProtocolError(f"message nested deeper than {MAX_DEPTH} levels", "too_deep") from None
    except (ValueError, TypeError, msgpack.UnpackException) as e:
        # Truncated data, invalid UTF-8, reserved bytes, over-long containers...
        text = str(e) or type(e).__name__
        if "max_ext_len" in text:
            raise RemoteProtocolError("msgpack ext types are not allowed", "bad_frame") from None
        code = "too_large" if "exceeds max" in text else "bad_frame"
        raise RemoteProtocolError(f"undecodable frame: {text}", code) from None
    if not isinstance(obj, dict):
        raise RemoteProtocolError(f"a frame must hold a map, not {type(obj).__name__}", "bad_frame")
    _check_tree(obj)
    return obj


class Decoder:
    """Turns a byte stream into messages. Feed with :meth:`receive_data`, pull with
    :meth:`next_message` until it returns ``None`` (more data needed)."""

    __slots__ = ("_buf", "_eof")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._eof = False

    def receive_data(self, data: bytes) -> None:
        """Bytes from the peer; ``b""`` means the peer closed its side."""
        if not data:
            self._eof = True
            return
        self._buf += data
        # Fail fast on an oversized frame, before its body arrives.
        if len(self._buf) >= 4:
            (n,) = _HEADER.unpack_from(self._buf)
            if n > MAX_FRAME:
                raise RemoteProtocolError(
                    f"frame of {n} bytes announced; the limit is {MAX_FRAME}", "frame_too_large")

    @property
    def buffered(self) -> int:
        return len(self._buf)

    def next_frame(self) -> bytes | None:
        """The next complete frame body (not decoded), or ``None`` when more bytes are
        needed. At end of stream with a partial frame left, raises ``RemoteProtocolError``."""
        buf = self._buf
        if len(buf) < 4:
            if self._eof and buf:
                raise RemoteProtocolError("connection closed in the middle of a frame header", "bad_frame")
            return None
        (n,) = _HEADER.unpack_from(buf)
        if n > MAX_FRAME:
            raise RemoteProtocolError(f"frame of {n} bytes announced; the limit is {MAX_FRAME}", "frame_too_large")
        if len(buf) < 4 + n:
            if self._eof:
                raise RemoteProtocolError("connection closed in the middle of a frame", "bad_frame")
            return None
        body = bytes(buf[4:4 + n])
        del buf[:4 + n]
        return body

    def next_message(self) -> dict | None:
        """The next complete message, or ``None`` when more bytes are needed."""
        body = self.next_frame()
        return None if body is None else decode_frame(body)

    @property
    def closed(self) -> bool:
        """The peer closed its side and every complete frame has been read."""
        return self._eof and not self._buf


_packer_default = msgpack.Packer(use_bin_type=True, autoreset=True)
# The parts of an event frame (encode_event) that never change: a map of four, its keys.
_EVENT_HEAD = (_packer_default.pack_map_header(4) + _packer_default.pack("type") + _packer_default.pack("event")
               + _packer_default.pack("table"))
_SEQ_KEY = _packer_default.pack("seq")
_EVENT_KEY = _packer_default.pack("event")


def encode(message: dict) -> bytes:
    """One frame: the length header and the msgpack map. Raises ``LocalProtocolError``
    when the message is not a map or is over :data:`MAX_FRAME`."""
    if not isinstance(message, dict):
        raise LocalProtocolError(f"a message is a map, not {type(message).__name__}")
    return _frame(_packer_default.pack(message))


def encode_event(table: int, seq: int, event: dict) -> bytes:
    """``encode({"type": "event", "table": table, "seq": seq, "event": event})``, the same
    bytes, with the map's constant part packed once (the server sends many of these)."""
    body = _EVENT_HEAD + _packer_default.pack(table) + _SEQ_KEY + _packer_default.pack(seq) + _EVENT_KEY \
        + _packer_default.pack(event)
    n = len(body)
    if n > MAX_FRAME:
        raise LocalProtocolError(f"message of {n} bytes is over the frame limit of {MAX_FRAME}", "too_large")
    return _HEADER.pack(n) + body


def pack(value: Any) -> bytes:
    """One value in msgpack, as :func:`encode` writes it inside a frame (for
    :func:`encode_packed`)."""
    return _packer_default.pack(value)


def encode_packed(message: dict, key: str) -> bytes:
    """One frame like :func:`encode`, where ``message[key]`` is a list of values already
    packed (:func:`pack`): written as the array of them, the same bytes as
    ``encode`` of the values, without packing them again (a reply made of cached parts)."""
    packer = _packer_default
    parts = [packer.pack_map_header(len(message))]
    for k, v in message.items():
        parts.append(packer.pack(k))
        if k == key:
            parts.append(packer.pack_array_header(len(v)))
            parts += v
        else:
            parts.append(packer.pack(v))
    return _frame(b"".join(parts))


def _frame(body: bytes) -> bytes:
    if len(body) > MAX_FRAME:
        raise LocalProtocolError(f"message of {len(body)} bytes is over the frame limit of {MAX_FRAME}", "too_large")
    return _HEADER.pack(len(body)) + body


def split_frames(data: bytes) -> list[bytes]:
    """The frame bodies in a byte string of whole frames (for test vectors and tools)."""
    out = []
    pos = 0
    while pos < len(data):
        if pos + 4 > len(data):
            raise RemoteProtocolError("truncated frame header", "bad_frame")
        (n,) = _HEADER.unpack_from(data, pos)
        if pos + 4 + n > len(data):
            raise RemoteProtocolError("truncated frame", "bad_frame")
        out.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    return out
