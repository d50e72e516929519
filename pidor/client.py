"""A blocking client for the pidor match protocol ``pidor/2`` (protocol/PROTOCOL.md).

This is the one implementation of the client side; ``pidor play`` uses it, and
``clients/python/pidor_client.py`` re-exports it for bot writers. It needs only the
standard library and ``msgpack`` and imports nothing else from ``pidor``, so the file can
be copied alone next to a bot (as ``pidor_client.py``).

Three layers, each usable alone:

- :class:`Connection`: frames over a blocking socket (4-byte length + one msgpack map),
  with the document's limits checked both ways (:class:`ProtocolError`).
- :class:`Client`: hello/token, lobby requests, game requests; every received message is
  folded into :class:`TableState` (the seat's latest snapshot, the events after it by
  ``seq``, the table's live status) before it is handed out.
- :class:`Bot`: a loop that calls your callbacks (turn, call window, court, payment,
  game over) and sends what they return.
"""

from __future__ import annotations

import collections
import itertools
import math
import os
import select
import socket
import struct
import sys
import time

import msgpack

__all__ = [
    "GAME_REQUESTS", "MAX_ARRAY", "MAX_BIN", "MAX_DEPTH", "MAX_FRAME", "MAX_MAP", "MAX_STR", "PROTOCOL_VERSION",
    "Bot", "Client", "Connection", "ConnectionClosed", "PidorError", "ProtocolError",
    "ServerError", "TableClosed", "TableState", "Traffic", "decode_body", "encode",
]

PROTOCOL_VERSION = "pidor/2"

# PROTOCOL.md §1, for frames in either direction.
MAX_FRAME = 65536
MAX_DEPTH = 16
MAX_ARRAY = 1024
MAX_MAP = 256
MAX_STR = 16384
MAX_BIN = 4096

#: replies carry the request's ``id``; everything else the server sends is a push.
REPLIES = frozenset({"welcome", "tables", "joined", "watching", "pong", "rules", "ok", "error"})
#: requests that name the ``seq`` they were decided on (§5 "Acting on what you saw")
GAME_REQUESTS = frozenset({"act", "call", "pass", "vote"})
#: fatal errors after which coming back with the token makes no sense
FINAL_ERRORS = frozenset({"replaced", "version_mismatch", "unknown_token"})


class PidorError(Exception):
    """Base of every error raised here."""


class ProtocolError(PidorError):
    """A frame breaks the framing rules of §1. ``code`` is the document's code
    (``frame_too_large``, ``too_large``, ``too_deep``, ``bad_frame``); ``local`` is true
    when it is a frame *we* were about to send (our bug, nothing was sent)."""

    def __init__(self, code: str, message: str, *, local: bool = False) -> None:
        super().__init__(f"{code}: {message}" + (" (not sent)" if local else " (from the server)"))
        self.code, self.message, self.local = code, message, local


class ServerError(PidorError):
    """The server answered ``error``. ``request`` is the request it refused, when known."""

    def __init__(self, msg: dict, request: dict | None = None) -> None:
        self.msg = msg
        self.code = msg.get("code")
        self.message = msg.get("message", "")
        self.rule = msg.get("rule")
        self.fatal = bool(msg.get("fatal"))
        self.request = request
        what = f" (refused: {request.get('type')})" if request else ""
        rule = f" [rule {self.rule}]" if self.rule else ""
        super().__init__(f"{self.code}: {self.message}{rule}{what}")


class ConnectionClosed(PidorError):
    """The connection is gone. ``error`` is the fatal :class:`ServerError` the server sent
    before closing, or ``None`` when the stream just ended."""

    def __init__(self, message: str, error: ServerError | None = None) -> None:
        super().__init__(message if error is None else f"{message}: {error}")
        self.error = error


class TableClosed(PidorError):
    """A ``closed`` push: the table closed under us (``reason``: empty, shutdown, internal_error)."""

    def __init__(self, msg: dict) -> None:
        self.reason = msg.get("reason")
        super().__init__(f"table {msg.get('table')} closed: {self.reason}")


# --- framing and codec (§1) ------------------------------------------------------------------


class _Ext(Exception):
    pass


def _no_ext(code, data):
    raise _Ext(code)


#: Strings this short are within MAX_STR bytes whatever their characters (UTF-8: ≤ 4 each).
_SHORT = MAX_STR // 4


def _plain(v) -> bool:
    """A value that needs no check: an int, a bool, nil or a short string (most of a
    message: checked inline, without a call per value)."""
    t = type(v)
    return t is int or t is bool or v is None or (t is str and len(v) <= _SHORT)


def _check(value, depth: int, local: bool) -> None:
    if isinstance(value, dict):
        if depth > MAX_DEPTH:
            raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH}", local=local)
        if len(value) > MAX_MAP:
            raise ProtocolError("too_large", f"a map of {len(value)} pairs; the limit is {MAX_MAP}", local=local)
        for k, v in value.items():
            if not isinstance(k, str):
                raise ProtocolError("bad_frame", f"a map key is not a string: {k!r}", local=local)
            if len(k) > _SHORT:
                _check(k, depth, local)
            if not _plain(v):
                _check(v, depth + 1, local)
    elif isinstance(value, (list, tuple)):
        if depth > MAX_DEPTH:
            raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH}", local=local)
        if len(value) > MAX_ARRAY:
            raise ProtocolError("too_large", f"an array of {len(value)} elements; the limit is {MAX_ARRAY}", local=local)
        for v in value:
            if not _plain(v):
                _check(v, depth + 1, local)
    elif isinstance(value, str):
        if len(value) > _SHORT and len(value.encode("utf-8")) > MAX_STR:
            raise ProtocolError("too_large", f"a string over {MAX_STR} bytes", local=local)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ProtocolError("bad_frame", "NaN and infinite floats are not allowed", local=local)
    elif isinstance(value, (bytes, bytearray)):
        if len(value) > MAX_BIN:
            raise ProtocolError("too_large", f"a bin value over {MAX_BIN} bytes", local=local)
    elif value is not None and not isinstance(value, (bool, int)):
        raise ProtocolError("bad_frame", f"cannot send a {type(value).__name__}", local=local)


_LENGTH = struct.Struct(">I")  # a frame's length prefix


def encode(msg: dict) -> bytes:
    """One frame: the 4-byte big-endian length and the msgpack map."""
    if not isinstance(msg, dict):
        raise ProtocolError("bad_frame", "a message is a map", local=True)
    _check(msg, 1, True)
    body = msgpack.packb(msg, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ProtocolError("frame_too_large", f"a body of {len(body)} bytes; the limit is {MAX_FRAME}", local=True)
    return _LENGTH.pack(len(body)) + body


def _check_received(value, depth: int) -> None:
    """What msgpack's own limits leave to check in a decoded message (§1): string map keys,
    the nesting depth and finite floats. Only containers are descended into (decoding
    already capped every length), so a message costs a call per map or array."""
    if depth > MAX_DEPTH:
        raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH}")
    if type(value) is dict:
        for k in value:
            if type(k) is not str:
                raise ProtocolError("bad_frame", f"a map key is not a string: {k!r}")
        value = value.values()
    for v in value:
        t = type(v)
        if t is dict or t is list:
            _check_received(v, depth + 1)
        elif t is float and not math.isfinite(v):
            raise ProtocolError("bad_frame", "NaN and infinite floats are not allowed")


#: msgpack's options for a frame's body: its own checks of §1's limits
_UNPACK = dict(raw=False, strict_map_key=False, use_list=True, ext_hook=_no_ext, max_str_len=MAX_STR,
               max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY, max_map_len=MAX_MAP)


def _unpacker() -> msgpack.Unpacker:
    return msgpack.Unpacker(max_buffer_size=MAX_FRAME, **_UNPACK)


def decode_body(body: bytes, unpacker: msgpack.Unpacker | None = None) -> dict:
    """Decode one frame's body, refusing what §1 forbids (raises :class:`ProtocolError`).
    A :class:`Connection` passes its own ``unpacker`` (one for all its frames costs less
    than a call of ``unpackb`` per frame); after a refusal it is spent."""
    try:
        if unpacker is None:
            msg = msgpack.unpackb(body, **_UNPACK)
        else:
            start = unpacker.tell()
            unpacker.feed(body)
            msg = unpacker.unpack()
            if unpacker.tell() - start != len(body):
                raise msgpack.ExtraData(msg, b"")
    except _Ext:
        raise ProtocolError("bad_frame", "ext types are not allowed") from None
    except msgpack.ExtraData:
        raise ProtocolError("bad_frame", "bytes after the map") from None
    except msgpack.OutOfData:
        raise ProtocolError("bad_frame", "not msgpack: the value ends before the frame") from None
    except UnicodeDecodeError:
        raise ProtocolError("bad_frame", "a string is not valid UTF-8") from None
    except msgpack.StackError:
        raise ProtocolError("too_deep", f"nesting deeper than {MAX_DEPTH}") from None
    except ValueError as e:
        if "exceeds max_" in str(e):
            raise ProtocolError("too_large", str(e)) from None
        raise ProtocolError("bad_frame", f"not msgpack: {e or type(e).__name__}") from None
    except Exception as e:  # noqa: BLE001  (anything else msgpack may raise on garbage)
        raise ProtocolError("bad_frame", f"not msgpack: {e or type(e).__name__}") from None
    if type(msg) is not dict:
        raise ProtocolError("bad_frame", f"the body is not a map but a {type(msg).__name__}")
    _check_received(msg, 1)
    return msg


#: The longest a ``recv`` blocks (``SO_RCVTIMEO``, where a socket can be told so): a wait
#: with a deadline further off than this is then one system call per message that comes,
#: rather than a ``select`` and a ``recv``.
WAIT_STEP = 1
_WAIT_STEP_OPTION = None if sys.platform == "win32" else struct.pack("ll", WAIT_STEP, 0)  # a struct timeval


class Traffic:
    """Frames and bytes each way (length prefixes included), over one or more connections."""

    __slots__ = ("frames_in", "bytes_in", "frames_out", "bytes_out")

    def __init__(self) -> None:
        self.frames_in = self.bytes_in = self.frames_out = self.bytes_out = 0

    def __str__(self) -> str:
        return (f"received {self.frames_in} frames ({self.bytes_in} bytes), "
                f"sent {self.frames_out} frames ({self.bytes_out} bytes)")


class Connection:
    """Frames over one blocking socket. ``send`` may be called from another thread than
    ``receive`` (the socket's own timeout is never changed; a wait with a deadline blocks
    in ``recv`` for at most :data:`WAIT_STEP` seconds at a time, or uses ``select``).
    ``traffic`` counts the frames each way."""

    def __init__(self, sock: socket.socket, traffic: Traffic | None = None) -> None:
        self.sock = sock
        self._buf = bytearray()
        self._pos = 0  # where the next frame in ``_buf`` starts
        self._unpacker = _unpacker()
        self.eof = False
        self.traffic = Traffic() if traffic is None else traffic
        self._stepped = False  # recv blocks for WAIT_STEP seconds at most
        if _WAIT_STEP_OPTION is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _WAIT_STEP_OPTION)
                self._stepped = True
            except OSError:
                pass

    @classmethod
    def open(cls, host: str, port: int, timeout: float = 10.0, traffic: Traffic | None = None) -> Connection:
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock, traffic)

    def send(self, msg: dict) -> None:
        frame = encode(msg)
        try:
            self.sock.sendall(frame)
        except OSError as e:
            raise ConnectionClosed(f"cannot send: {e}") from None
        self.traffic.frames_out += 1
        self.traffic.bytes_out += len(frame)

    def receive(self, timeout: float | None = None) -> dict | None:
        """The next message; ``None`` if none arrived within ``timeout`` seconds."""
        msg = self._next()  # (a frame read with an earlier one: no clock, no system call)
        if msg is not None:
            return msg
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self.eof:
                raise ConnectionClosed("the server closed the connection")
            if deadline is not None:
                left = deadline - time.monotonic()
                near = not (self._stepped and left >= WAIT_STEP)  # (a far one: recv waits, a step at most)
                if near and not select.select([self.sock], [], [], max(0.0, left))[0]:
                    return None
            self._read()
            msg = self._next()
            if msg is not None:
                return msg

    def _read(self) -> None:
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:  # WAIT_STEP went by without a byte
            return
        except OSError as e:
            raise ConnectionClosed(f"connection lost: {e}") from None
        if self._pos:
            del self._buf[:self._pos]
            self._pos = 0
        if not data:
            self.eof = True
            if self._buf:
                raise ConnectionClosed(f"the server closed the connection inside a frame ({len(self._buf)} bytes left)")
        self._buf += data

    def _next(self) -> dict | None:
        buf, pos = self._buf, self._pos
        if len(buf) - pos < 4:
            return None
        (n,) = _LENGTH.unpack_from(buf, pos)
        if n > MAX_FRAME:
            raise ProtocolError("frame_too_large", f"a frame of {n} bytes announced; the limit is {MAX_FRAME}")
        end = pos + 4 + n
        if len(buf) < end:
            return None
        self._pos = end
        self.traffic.frames_in += 1
        self.traffic.bytes_in += 4 + n
        try:
            return decode_body(buf[pos + 4:end], self._unpacker)
        except ProtocolError:
            self._unpacker = _unpacker()
            raise

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in recv
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


# --- what one seat knows (§5, §6) --------------------------------------------------------------


class TableState:
    """The seat's table, kept current from the messages the client received.

    - ``view``: the game as the seat saw it in the latest ``snapshot`` (exact as of
      ``view_seq``); ``events``: the ``(seq, event)`` received after it, in order.
    - ``seq``: the last event applied. An event with ``seq <= seq`` is a repeat and is
      dropped; a jump sets ``gap`` (the client should ``resync``; :class:`Bot` does), but
      not when ``windows`` is False (hello ``windows: false``: the ``window`` and
      ``window_closed`` events never come, and ``seq`` skips them).
    - ``status``: the table layer's public state (``state``, ``mark``, ``number``,
      ``window``, ``court``, ``honest_only``), from the snapshot and then kept live by the
      table events (``window``, ``call``, ``court``, ``vote``, ``verdict``, ``mark``, ...).
    - ``turn``: the latest ``turn`` message while nothing happened since; ``hint`` likewise.
    """

    def __init__(self, windows: bool = True) -> None:
        self.windows = windows
        self.reset()

    def reset(self) -> None:
        self.table: int | None = None
        self.seat: int | None = None
        self.info: dict | None = None
        self.view: dict | None = None
        self.view_seq: int | None = None
        self.seq: int | None = None
        self.events: list[tuple[int, dict]] = []
        self.status: dict = {"state": "idle", "mark": None, "number": 0, "window": None, "court": None,
                             "honest_only": []}
        self.turn: dict | None = None
        self.turn_expires: float | None = None  # time.monotonic() when the turn clock runs out
        self.hint: dict | None = None
        self.result: dict | None = None  # the last game_over result
        self.last_action: dict | None = None  # the latest ``action`` event (what a window is about)
        self.gap = False

    @property
    def game(self) -> str | None:
        return (self.info or {}).get("game") or (self.view or {}).get("game")

    @property
    def is_host(self) -> bool:
        return self.info is not None and self.seat is not None and self.info.get("host") == self.seat

    def absorb(self, msg: dict) -> bool:
        """Fold one received message in. Returns False for a repeated event (already in)."""
        kind = msg.get("type")
        if kind == "event":
            return self._event(msg)
        if kind == "snapshot":
            self.table, self.seat = msg.get("table"), msg.get("seat")
            self.info = msg.get("info", self.info)
            self.view, self.view_seq = msg.get("view"), msg.get("seq")
            self.seq, self.events, self.gap = self.view_seq, [], False
            self.status = dict((self.view or {}).get("status") or self.status)
            self.result = (self.view or {}).get("result")
            if self.turn is not None and self.turn.get("seq") != self.seq:
                self.turn = self.hint = None
        elif kind == "turn":
            if msg.get("seat") == self.seat or self.seat is None:
                self.turn = msg
                d = msg.get("deadline")
                self.turn_expires = None if d is None else time.monotonic() + d
        elif kind == "hint":
            self.hint = msg
        elif kind in ("joined", "watching"):  # watching: a spectator's, seat None (§4 watch)
            if (msg.get("table") or {}).get("id") != self.table:
                self.reset()
            self.info = msg.get("table")
            self.table, self.seat = self.info.get("id"), msg.get("seat")
        elif kind == "table":
            info = msg.get("table") or {}
            if self.table is None or info.get("id") == self.table:
                self.info, self.table = info, info.get("id")
        elif kind == "welcome":
            if msg.get("table") != self.table:
                self.reset()
                self.table = msg.get("table")
        elif kind == "closed":
            self.reset()
        return True

    def _event(self, msg: dict) -> bool:
        seq = msg.get("seq")
        if self.seq is not None and isinstance(seq, int):
            if seq <= self.seq:
                return False
            if seq > self.seq + 1 and self.windows:
                self.gap = True
        self.seq = seq
        e = msg.get("event") or {}
        self.events.append((seq, e))
        self.turn = self.hint = None  # something happened: a fresh turn will follow if we still act
        s = self.status
        t = e.get("type")
        if t == "game_start":
            s.update(state="play", number=e.get("number", s.get("number", 0)), window=None, court=None, honest_only=[])
            self.result = None
        elif t == "action":
            self.last_action = e
            s.update(state="play", window=None)  # an action means no window is open any more
        elif t == "window":
            s.update(state="window", window={k: e.get(k) for k in ("seat", "owing", "deadline")})
        elif t in ("call", "window_closed"):
            s["window"] = None
        elif t == "court":
            s.update(state="court", window=None, court={**{k: v for k, v in e.items() if k != "type"}, "votes": {}})
        elif t == "vote" and s.get("court"):
            # (a snapshot's court has no votes yet: those cast before it are not shown)
            s["court"].setdefault("votes", {})[e.get("seat")] = e.get("guilty")
        elif t == "verdict":
            s.update(state="play", court=None)
        elif t == "honest_only":  # who must play honestly now (T6, D11)
            s["honest_only"] = list(e.get("seats") or [])
        elif t == "mark":
            s["mark"] = e.get("seat")
        elif t == "game_over":
            s.update(state="over", window=None, court=None)
            self.result = e.get("result")
        return True


# --- the client (§2–§5, §9) ------------------------------------------------------------------


class Client:
    """One player's connection: ``connect()`` says hello (with ``token`` if given, to be
    the same player again), then lobby and game requests.

    ``request``-style methods (``create``, ``join``, ``start``, ...) block until their
    reply and raise :class:`ServerError` on ``error``; pushes that arrive meanwhile are kept
    for :meth:`receive`. Game methods (``act``, ``call``, ``pass_``, ``vote``) do not wait:
    an ``error`` they cause comes out of :meth:`receive` with its ``request``.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 7777, name: str = "bot", token: str | None = None,
                 *, timeout: float = 30.0, may_call: bool = True, windows: bool = True) -> None:
        self.host, self.port, self.name, self.token = host, port, name, token
        # hello's may_call (§3): False says this client never calls «пидор!», and its tables
        # pass every call window for it at once (Bot.run then answers no window itself)
        self.may_call = may_call
        # hello's windows (§3, minor 2; only with may_call False): False asks for no window
        # and window_closed events (their seq numbers are then missing from the stream)
        if may_call and not windows:
            raise ValueError("windows=False needs may_call=False: a client that may call answers windows")
        self.windows = windows
        self.timeout = timeout  # for connecting and for each blocking request's reply
        self.conn: Connection | None = None
        self.traffic = Traffic()  # over every connection of this client
        self.state = TableState(windows)
        self.player: int | None = None
        self.welcome: dict | None = None
        self.last_sent = time.monotonic()
        self._ids = itertools.count(1)
        self._inbox: collections.deque[dict] = collections.deque()
        self._posted: dict[int, dict] = {}  # id -> request sent without waiting
        self._fatal: ServerError | None = None

    @classmethod
    def from_env(cls, name: str = "bot", **kwargs) -> Client:
        """A client for the seat ``pidor match`` or ``pidor conform`` launched this program
        for: ``PIDOR_HOST``, ``PIDOR_PORT`` and ``PIDOR_TOKEN`` from the environment (where
        unset: 127.0.0.1, 7777 and a new player). With the token, ``connect()``'s welcome
        names the table it is seated at: no ``join``."""
        env = os.environ
        return cls(env.get("PIDOR_HOST") or "127.0.0.1", int(env.get("PIDOR_PORT") or 7777), name,
                   env.get("PIDOR_TOKEN") or None, **kwargs)

    # -- connection --

    def connect(self) -> dict:
        """Open the connection and say hello; returns ``welcome``. A new player's token is in
        ``self.token`` afterwards: keep it to come back (§3)."""
        self.close()
        self.conn = Connection.open(self.host, self.port, self.timeout, self.traffic)
        self._fatal = None
        self._posted.clear()
        hello = {"version": PROTOCOL_VERSION, "name": self.name}
        if self.token is not None:
            hello["token"] = self.token
        if not self.may_call:
            hello["may_call"] = False
        if not self.windows:
            hello["windows"] = False
        welcome = self.request("hello", **hello)
        self.welcome = welcome
        self.player = welcome.get("player")
        self.token = welcome.get("token", self.token)
        self.state.absorb(welcome)
        return welcome

    def reconnect(self, attempts: int = 5, delay: float = 1.0) -> dict:
        """Connect again with the token (§9): the seat comes back and a ``snapshot`` follows."""
        if self.token is None:
            raise PidorError("no token to come back with: connect() first")
        for i in range(attempts):
            try:
                return self.connect()
            except (OSError, ConnectionClosed):
                if i == attempts - 1:
                    raise
                time.sleep(delay)
        raise PidorError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    # -- sending --

    def _conn(self) -> Connection:
        if self.conn is None:
            raise ConnectionClosed("not connected: call connect()", self._fatal)
        return self.conn

    def send(self, type_: str, **fields) -> None:
        """Send a request without ``id``: no ``ok`` comes back; a failure is an ``error`` with
        ``"id": null`` (§2). For ``pass`` and ``vote``."""
        self._conn().send({"type": type_, **fields})
        self.last_sent = time.monotonic()

    def post(self, type_: str, **fields) -> int:
        """Send a request with a fresh ``id`` and do not wait; its ``ok`` is dropped, its
        ``error`` comes out of :meth:`receive` (with ``request`` set)."""
        rid = next(self._ids)
        msg = {"type": type_, "id": rid, **fields}
        self._conn().send(msg)
        self.last_sent = time.monotonic()
        self._posted[rid] = msg
        return rid

    def request(self, type_: str, **fields) -> dict:
        """Send and wait for the reply (raises :class:`ServerError` on ``error``)."""
        rid = next(self._ids)
        msg = {"type": type_, "id": rid, **fields}
        conn = self._conn()
        conn.send(msg)
        self.last_sent = time.monotonic()
        deadline = time.monotonic() + self.timeout
        while True:
            got = self._read(conn, max(0.0, deadline - time.monotonic()))
            if got is None:
                raise PidorError(f"no reply to {type_!r} within {self.timeout} s")
            if got.get("id") == rid and got.get("type") in REPLIES:
                if got["type"] == "error":
                    raise ServerError(got, msg)
                return got
            self._inbox.append(got)

    def _read(self, conn: Connection, timeout: float | None) -> dict | None:
        try:
            msg = conn.receive(timeout)
        except ConnectionClosed as e:
            self.conn = None
            conn.close()
            raise ConnectionClosed(str(e), self._fatal) from None
        if msg is not None and msg.get("type") == "error" and msg.get("fatal"):
            self._fatal = ServerError(msg)
        return msg

    # -- receiving --

    def read(self, timeout: float | None = None) -> dict | None:
        """One message off the wire, not yet folded in: for a reader thread, which hands
        it to :meth:`handle` in the thread that owns the state. Messages kept back by a
        blocking request come first."""
        if self._inbox:
            return self._inbox.popleft()
        return self._read(self._conn(), timeout)

    def receive(self, timeout: float | None = None) -> dict | None:
        """The next message for the application, folded into ``self.state`` first;
        ``None`` after ``timeout`` seconds without one. Replies to :meth:`post` are matched
        here: ``ok`` is dropped, ``error`` is returned with ``"request"`` added. Repeated
        events (``seq`` already applied) are skipped."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._inbox:
                msg = self._inbox.popleft()
            else:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                msg = self._read(self._conn(), left)
                if msg is None:
                    return None
            out = self.handle(msg)
            if out is not None:
                return out

    def handle(self, msg: dict) -> dict | None:
        """Fold one message (read elsewhere, e.g. by a reader thread) into the state; returns
        what :meth:`receive` would return for it, or ``None`` if it is to be skipped."""
        rid = msg.get("id")
        if rid is not None and msg.get("type") in REPLIES and rid in self._posted:
            request = self._posted.pop(rid)
            if msg["type"] == "ok":
                return None
            return {**msg, "request": request}
        if not self.state.absorb(msg):
            return None
        return msg

    # -- lobby (§4) --

    def ping(self) -> dict:
        return self.request("ping")

    def list_tables(self, game: str | None = None, open: bool | None = None, after: int | None = None,
                    limit: int | None = None) -> dict:
        """One page: ``{"tables": [TABLE, ...], "total": n, "next": id or None}``; pass
        ``next`` as ``after`` for the next page."""
        given = {"game": game, "open": open, "after": after, "limit": limit}
        return self.request("list", **{k: v for k, v in given.items() if v is not None})

    def rules(self, game: str | None = None) -> list[dict]:
        """Every rule id with its texts (§4 ``rules``), of one game if given."""
        fields = {} if game is None else {"game": game}
        return self.request("rules", **fields)["rules"]

    def create(self, **options) -> dict:
        """Create a table and sit at seat 0 (``joined``). Options of §4: ``game``,
        ``players``, ``deck``, ``bots`` (a count or a list of specs), clocks, ``tutorial``."""
        reply = self.request("create", options=options)
        self.state.absorb(reply)
        return reply

    def join(self, table: int, seat: int | None = None) -> dict:
        fields = {"table": table}
        if seat is not None:
            fields["seat"] = seat
        reply = self.request("join", **fields)
        self.state.absorb(reply)
        return reply

    def leave(self) -> dict:
        reply = self.request("leave")
        self.state.reset()
        return reply

    def watch(self, table: int) -> dict:
        """Watch a table as a spectator (§4 ``watch``): the public view, seat ``None``, no
        hidden card; ``state`` follows it from the ``snapshot`` and events that come through
        :meth:`receive` (held back ``delay`` seconds if the table sets ``watch_delay``).
        Returns ``watching``; ``ServerError`` ``spectators_full``, ``no_table``,
        ``already_seated`` (you sit at that table). Watching another table stops this."""
        reply = self.request("watch", table=table)
        self.state.absorb(reply)
        return reply

    def unwatch(self) -> dict:
        """Stop watching."""
        reply = self.request("unwatch")
        self.state.reset()
        return reply

    def start(self) -> dict:
        return self.request("start")

    def seed(self, data: bytes | str | None) -> dict:
        """T10: your part of the next deal (§4 ``seed``): ``bytes`` (sent as bin) or a hex
        string, at most 64 bytes; ``None`` takes back the seed you gave. A new seed replaces
        the last; sent during a game it counts for the game after. Waits for the ``ok``
        (``ServerError`` ``bad_seed`` for bad hex or over 64 bytes, ``not_seated`` without a
        seat). After the game the ``results`` event reveals it, as hex, in
        ``deal["seat_seeds"][seat]``."""
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        if data is not None and not isinstance(data, (bytes, str)):
            raise TypeError(f"a seed is bytes, a hex string or None, not {type(data).__name__}")
        return self.request("seed", seed=data)

    def resync(self) -> int:
        """Ask for a ``snapshot`` (it comes through :meth:`receive`)."""
        return self.post("resync")

    def tutorial_off(self) -> int:
        return self.post("tutorial_off")

    # -- at the table (§5) --

    # Each names ``seq``: the event it was decided on (§5 "Acting on what you saw");
    # by default the latest one this client has taken in. The server refuses it as
    # ``stale`` if the game moved on after that event.

    def _seen(self, seq: int | None) -> int:
        return seq if seq is not None else (self.state.seq or 0)

    def act(self, action: dict, seq: int | None = None) -> int:
        """Play an action (a map with ``type``, §7) chosen at ``seq`` (the ``turn``'s).
        Does not wait; returns the request id."""
        return self.post("act", action=action, seq=self._seen(seq))

    def call(self, seq: int | None = None) -> int:
        """«Пидор!»: call the action in the open window (``seq``: the ``window`` event's)."""
        return self.post("call", seq=self._seen(seq))

    def pass_(self, seq: int | None = None) -> None:
        """Let the action in the open window go (no round trip)."""
        self.send("pass", seq=self._seen(seq))

    def vote(self, guilty: bool, seq: int | None = None) -> None:
        """In a sitting court (``seq``: the ``court`` event's): True «пидор», False «чист»
        (no round trip)."""
        self.send("vote", guilty=bool(guilty), seq=self._seen(seq))


# --- the bot loop ------------------------------------------------------------------------------


class Bot:
    """Subclass and override the ``on_*`` callbacks, then ``Bot().run(client)``.

    The callbacks run in the loop's thread, one message at a time; ``self.client`` and
    ``self.state`` (:class:`TableState`) are there to look at. Set ``want_view = True`` to
    have ``self.state.view`` fresh on every turn (one ``resync`` round trip per turn).
    """

    want_view = False
    ping_every = 60.0  # send a ping after this many seconds without sending (idle limit: 600 s)

    def __init__(self) -> None:
        self.client: Client | None = None
        self.results: list[dict] = []

    @property
    def state(self) -> TableState:
        return self.client.state

    @property
    def seat(self) -> int | None:
        return self.client.state.seat

    # -- callbacks: return what to do --

    def on_turn(self, options: list[dict], turn: dict) -> dict | None:
        """Your turn: ``options`` are your honest actions (may be empty in durak). Return an
        action to play (any action: one outside ``options`` is a cheat, T1), or None."""
        return options[0] if options else None

    def on_payment(self, options: list[dict], turn: dict) -> dict | None:
        """A turn whose options are all ``give``: choose the card to pay with."""
        return self.on_turn(options, turn)

    def on_window(self, event: dict) -> bool:
        """A call window you owe an answer in: the ``window`` event (``seat`` acted,
        ``owing``, ``deadline``) plus ``action``, what that seat did (from the ``action``
        event before it). True calls «пидор!». Not asked when the client said
        ``may_call=False``: the server has passed for you."""
        return False

    def may_call(self) -> bool:
        """Whether :meth:`on_window` can ever answer True (by default: whether the class
        overrides it). Pass it to :class:`Client` (``Client(..., may_call=bot.may_call())``):
        a bot that never calls then costs its tables no round trip per action; with
        ``windows=bot.may_call()`` too it is not sent the window events either (unless it
        reads them in :meth:`on_event`)."""
        return type(self).on_window is not Bot.on_window

    def on_court(self, event: dict) -> bool | None:
        """A court where you vote: True «пидор», False «чист», None abstains."""
        return True

    # -- callbacks: notices --

    def on_message(self, msg: dict) -> None:
        """Every message, before the specific callbacks."""

    def on_event(self, event: dict, seq: int) -> None:
        """Every new event, in ``seq`` order."""

    def on_hint(self, hint: dict) -> None:
        """T11 tutorial: the rule in force and the honest options."""

    def on_snapshot(self, snapshot: dict) -> None:
        """A fresh snapshot is in ``self.state.view``."""

    def on_game_over(self, result: dict) -> None:
        """``{"loser", "draw", "order"}``"""

    def on_results(self, event: dict) -> None:
        """The last event of a game: ``number``, ``result``, ``mark``, ``names``."""

    def on_table(self, info: dict) -> None:
        """The table changed (a seat, the host, the state)."""

    def on_error(self, error: ServerError) -> None:
        """A refused request; after a refused action a new ``turn`` follows."""

    # -- the loop --

    def run(self, client: Client, games: int | None = 1, *, start: bool = True, reconnect: int = 3) -> list[dict]:
        """Play until ``games`` games have ended (``None``: until the table closes). With
        ``start``, the host starts each game as soon as every seat is taken. A dropped
        connection is resumed with the token up to ``reconnect`` times. Returns the
        ``results`` events of this run (``self.results`` keeps those of every run)."""
        self.client = client
        self._acted_seq = None  # seq of the turn we answered (a repeated turn is not answered twice)
        self._pending = None  # a turn waiting for a fresh view
        self._resyncing = False
        self._started = None  # the table's game count when we sent start
        first = len(self.results)
        done = 0
        kind = None  # of the last message (an event or a turn leaves the table's info as it was)
        while games is None or done < games:
            try:
                if kind not in ("event", "turn"):
                    self._maybe_start(start, games, done)
                idle = time.monotonic() - client.last_sent
                msg = client.receive(timeout=max(0.0, self.ping_every - idle))
                if msg is None:
                    client.post("ping")
                    continue
                kind = msg.get("type")
                done += self._dispatch(msg)
            except ConnectionClosed as e:
                if reconnect <= 0 or (e.error is not None and e.error.code in FINAL_ERRORS):
                    raise
                reconnect -= 1
                self._pending, self._resyncing, self._acted_seq = None, False, None
                kind = None
                client.reconnect()
        return self.results[first:]

    def _maybe_start(self, start: bool, games: int | None, done: int) -> None:
        st, info = self.client.state, self.client.state.info
        if info is None:
            return
        if not start or not st.is_host or info.get("state") != "waiting":
            return
        if any(s.get("kind") == "vacant" for s in info.get("seats", [])) or self._started == info.get("games"):
            return
        if games is not None and done >= games:  # counted from the results this run saw
            return
        self._started = info.get("games")
        self.client.post("start")

    def _dispatch(self, msg: dict) -> int:
        client, st = self.client, self.client.state
        self.on_message(msg)
        kind = msg.get("type")
        if kind == "event":
            e = msg["event"]
            self.on_event(e, msg["seq"])
            if st.gap and not self._resyncing:
                self._resyncing = True
                client.resync()
            t = e.get("type")
            if t == "window" and client.may_call and st.seat in e.get("owing", ()) and e.get("seat") != st.seat:
                last = st.last_action or {}
                about = last.get("action") if last.get("seat") == e.get("seat") else None
                if self.on_window({**e, "action": about}):
                    client.call(msg["seq"])
                else:
                    client.pass_(msg["seq"])
            elif t == "court" and st.seat in e.get("voters", ()):
                guilty = self.on_court(e)
                if guilty is not None:
                    client.vote(guilty, msg["seq"])
            elif t == "game_over":
                self.on_game_over(e.get("result"))
            elif t == "results":
                self.results.append(e)
                self.on_results(e)
                return 1
        elif kind == "turn":
            if msg.get("seat") != st.seat or msg.get("seq") == self._acted_seq:
                return 0
            if self.want_view and (st.view_seq is None or st.view_seq < msg.get("seq", 0)):
                self._pending = msg
                if not self._resyncing:
                    self._resyncing = True
                    client.resync()
                return 0
            self._turn(msg)
        elif kind == "snapshot":
            self._resyncing = False
            self.on_snapshot(msg)
            pending, self._pending = self._pending, None
            if pending is not None and pending.get("seq") == msg.get("seq"):
                self._turn(pending)
        elif kind == "hint":
            self.on_hint(msg)
        elif kind == "table":
            self.on_table(msg.get("table"))
        elif kind == "closed":
            raise TableClosed(msg)
        elif kind == "error":
            error = ServerError(msg, msg.get("request"))
            refused = error.request or {}
            if refused.get("type") == "act" and refused.get("seq") == self._acted_seq:
                # our last action was refused (``stale`` included): the turn that follows is
                # answered again. The refusal of an older one (sent before a newer turn came)
                # changes nothing: the newer one stands.
                self._acted_seq = None
            if error.fatal:
                client._fatal = error
            self.on_error(error)
        return 0

    def _turn(self, turn: dict) -> None:
        options = turn.get("options") or []
        if options and all(o.get("type") == "give" for o in options):
            action = self.on_payment(options, turn)
        else:
            action = self.on_turn(options, turn)
        if action is not None:
            self._acted_seq = turn.get("seq")
            self.client.act(action, turn.get("seq"))
