"""The game log: append-only msgpack records linked by a SHA-256 hash chain.

On disk a log is a plain sequence of msgpack values, one per record, each a 2-element
array ``[body, h]``:

* ``body`` (msgpack ``bin``): the record itself, a msgpack map packed once, when it was
  written. Its first key is ``"kind"``. Bodies hold only maps with string keys, arrays,
  strings, integers, floats, booleans and nil, so a log converts to JSON Lines and back
  byte for byte (:mod:`pidor.gamelog.jsonl`).
* ``h`` (``bin``, 32 bytes): ``h_i = SHA-256(h_{i-1} ‖ body_i)``, with ``h_{-1}`` 32 zero bytes.

Record 0 is the ``header``; the last record of a finished log is the footer (``end``).
Every record is written and flushed as one piece (:class:`LogWriter`); a log cut short by a
crash reads back up to its last whole record and is *unfinished*, not corrupt
(:func:`~pidor.gamelog.reader.read_log`). ``protocol/LOGS.md`` is the full specification.
"""

from __future__ import annotations

import gc
import hashlib
import io
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgpack

__all__ = [
    "FORMAT",
    "VERSION",
    "READS",
    "ZERO",
    "INPUT_KINDS",
    "LogError",
    "LogWriteError",
    "LogWriter",
    "LogFile",
    "Problem",
    "plain",
    "log_events",
    "chain",
    "frame",
    "read_msgpack",
    "msgpack_records",
    "structure_problem",
    "MAX_RECORD",
    "CHUNK",
    "BUFFER",
]

FORMAT = "pidor-log"
VERSION = 3
#: Format versions this reader understands: version 3 only added the ``abstain`` record
#: (a version 2 reader would call it an unknown kind), so a version 2 log reads as is;
#: version 1 wrote a window's passes as a ``pass`` record of their own (``seats``, ``now``),
#: where version 2 folds them into the next record (``passed``).
READS = (1, 2, 3)
ZERO = bytes(32)
#: Record kinds that carry one input to the table (what ``verify`` re-runs).
INPUT_KINDS = ("start", "act", "call", "pass", "vote", "abstain", "tick")
_KINDS = ("header", *INPUT_KINDS, "end")
#: The longest record a reader takes: its body in the binary form, its line in the JSON Lines
#: form (a game's records are a few KB). A longer one is corrupt, so a reader holds at most
#: one such record and one chunk of the file, whatever the file.
MAX_RECORD = 1 << 20
#: Bytes read from a log file at a time.
CHUNK = 1 << 18
_FRAMING = 40  # the bytes around a body in a binary record: array, bin headers, the hash
#: The most of a log file a reader holds at a time.
BUFFER = MAX_RECORD + _FRAMING + CHUNK


class LogError(Exception):
    """Anything wrong with writing or reading a game log."""


class LogWriteError(LogError, OSError):
    """The log could not be written (disk full, file gone…). The game itself is not
    affected; the log is unfinished from the last record that was written."""


def plain(x: Any) -> Any:
    """Events as the log stores them: tuples become lists and integer map keys become
    strings (``_private`` is keyed by seat). Everything else stays as it is."""
    t = type(x)
    if t is dict:
        out = {}
        for k, v in x.items():
            tv = type(v)
            if tv is dict or tv is list or tv is tuple:
                v = plain(v)
            out[str(k) if type(k) is int else k] = v
        return out
    if t is list or t is tuple:
        return [plain(v) if type(v) in _CONTAINERS else v for v in x]
    return x


_CONTAINERS = (dict, list, tuple)


def log_events(events: list[dict]) -> list[dict]:
    """Events ready to pack: :func:`plain` on the events that carry ``_private`` (the only
    maps the engine keys by seat, see ``pidor/engine/game.py``); the rest pack as they are
    (msgpack writes tuples as arrays, like lists). The reader refuses integer keys, so an
    event breaking that convention could not go unnoticed."""
    out = events
    for i, e in enumerate(events):
        if "_private" in e:
            if out is events:
                out = list(events)
            out[i] = plain(e)
    return out


def chain(previous: bytes, body: bytes) -> bytes:
    """``h_i = SHA-256(h_{i-1} ‖ body_i)``."""
    return hashlib.sha256(previous + body).digest()


def _bin_header(n: int) -> bytes:
    if n < 256:
        return b"\xc4" + bytes((n,))
    if n < 65536:
        return b"\xc5" + n.to_bytes(2, "big")
    return b"\xc6" + n.to_bytes(4, "big")


def frame(body: bytes, h: bytes) -> bytes:
    """The bytes of one record on disk: msgpack ``[bin body, bin h]``."""
    return b"\x92" + _bin_header(len(body)) + body + b"\xc4\x20" + h


def _pack(data: dict) -> bytes:
    return msgpack.packb(data, use_bin_type=True)


class LogWriter:
    """Writes one game log: ``LogWriter(path_or_binary_file, header)``, then
    :meth:`record` for every record and :meth:`close` with the footer.

    Each record is written with one ``write`` and flushed at once (``fsync=True`` also
    syncs it to the disk). Any I/O failure raises :class:`LogWriteError`; after one the
    writer refuses further records (the log would have a gap) and the file stays an
    unfinished log. ``head`` is the current chain head (the server may show it to seats).
    """

    def __init__(self, target: str | os.PathLike | BinaryIO, header: dict, *, fsync: bool = False) -> None:
        self.fsync = fsync
        self.head = ZERO
        self.count = 0
        self.closed = False
        self._broken: str | None = None
        if isinstance(target, (str, os.PathLike)):
            self.path = str(target)
            try:
                self._file = open(target, "wb")
            except OSError as e:
                raise LogWriteError(f"cannot create game log {self.path}: {e.strerror or e}") from e
            self._own = True
        else:
            self.path = getattr(target, "name", "<stream>")
            self._file = target
            self._own = False
        body = {"kind": "header", "format": FORMAT, "version": VERSION}
        body.update((k, v) for k, v in header.items() if k not in body)
        self._write(body)

    def record(self, kind: str, data: dict) -> bytes:
        """Append one record (``kind`` first, then ``data``); returns its chain value."""
        if self.closed:
            raise LogError(f"game log {self.path} is closed")
        if kind not in _KINDS or kind in ("header", "end"):
            raise ValueError(f"unknown record kind {kind!r}")
        body = {"kind": kind}
        body.update(data)
        return self._write(body)

    def close(self, footer: dict | None = None) -> None:
        """Write the footer (``None``: leave the log unfinished) and close the file."""
        if self.closed:
            return
        try:
            if footer is not None and self._broken is None:
                body = {"kind": "end"}
                body.update(footer)
                body["records"] = self.count + 1
                body["head"] = self.head.hex()
                self._write(body)
        finally:
            self.closed = True
            if self._own:
                try:
                    self._file.close()
                except OSError as e:
                    raise LogWriteError(f"cannot close game log {self.path}: {e.strerror or e}") from e

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close(None)

    def _write(self, body: dict) -> bytes:
        if self._broken is not None:
            raise LogWriteError(f"game log {self.path} is unusable after an earlier error: {self._broken}")
        packed = _pack(body)
        h = chain(self.head, packed)
        try:
            self._file.write(frame(packed, h))
            self._file.flush()
            if self.fsync:
                os.fsync(self._file.fileno())
        except (OSError, ValueError) as e:  # ValueError: the file was closed under us
            self._broken = str(getattr(e, "strerror", None) or e)
            raise LogWriteError(f"cannot write game log {self.path}: {self._broken}") from e
        self.head = h
        self.count += 1
        return h


# ---------------------------------------------------------------------------
# Reading


@dataclass
class Problem:
    """What stops a log from reading cleanly: ``corrupt`` (bad bytes, a broken chain) or
    ``unfinished`` (cut short: no footer). ``index`` is the first bad record."""

    kind: str
    index: int
    reason: str


@dataclass
class LogFile:
    """A log as read: the record bodies (decoded), their chain values, and the first
    problem found while reading (``None``: every record is whole and chained)."""

    records: list[dict] = field(default_factory=list)
    hashes: list[bytes | None] = field(default_factory=list)
    problem: Problem | None = None
    source: str = "msgpack"  # or "jsonl"
    chained: bool = True  # False: a hand-written JSON Lines log without "h"

    @property
    def header(self) -> dict | None:
        return self.records[0] if self.records and self.records[0].get("kind") == "header" else None

    def keep(self, stream: Iterable[tuple[Any, bytes]]) -> "LogFile":
        """This log with every record of ``stream`` (a reader reporting to this log, such as
        :func:`msgpack_records`) kept."""
        records, hashes = self.records, self.hashes
        for body, h in stream:
            records.append(body)
            hashes.append(h)
        return self

    @property
    def footer(self) -> dict | None:
        return self.records[-1] if len(self.records) > 1 and self.records[-1].get("kind") == "end" else None


def structure_problem(ended: bool, index: int, body: Any) -> str | None:
    """Why a decoded body cannot be record ``index`` of a log (``ended``: after its footer;
    ``None``: it can): the one structural check both forms (binary and JSON Lines) make on
    each record."""
    if ended:
        return "a record after the footer"
    if type(body) is not dict or not isinstance(body.get("kind"), str):
        return "not a log record (a map with a 'kind')"
    kind = body["kind"]
    if kind not in _KINDS:
        return f"unknown record kind {kind!r}"
    if index == 0 and kind != "header":
        return "the first record must be the header"
    if index > 0 and kind == "header":
        return "a second header"
    return None


@contextmanager
def gc_paused():
    """Pause Python's cyclic garbage collector. Decoded records hold no reference cycles,
    yet building them (thousands of maps and lists per log) sets the collector off again
    and again to walk them; reading a log without it takes a fifth less time."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def read_msgpack(data: bytes, *, shared: bool = False) -> LogFile:
    """Read a binary log from its bytes (see :func:`msgpack_records`)."""
    log = LogFile()
    with gc_paused():
        return log.keep(msgpack_records(io.BytesIO(data), log, shared=shared))


def msgpack_records(f: BinaryIO, log: LogFile, *, shared: bool = False,
                    size: int | None = None) -> Iterator[tuple[Any, bytes]]:
    """The whole records of a binary log, read from ``f`` (at most ``size`` bytes), as
    ``(body, h)`` in order: each framed, chained and in its place. Never raises on bad
    content: at the first problem, or at the end, it sets ``log.problem`` and stops. It
    reads :data:`CHUNK` bytes at a time and never holds more than :data:`BUFFER` of the
    file: a record longer than :data:`MAX_RECORD` is corrupt.

    ``shared=True``, for a reader that changes no record (``verify``): records packed alike
    decode once and share one object. A log of ``pidor match``, whose clock stands still,
    repeats about half of its records (a third with cheating, calling bots). The objects
    are kept for the whole log: only for a log read whole (:data:`~pidor.gamelog.reader.READ_WHOLE`)."""
    # msgpack's defaults (raw=False, strict_map_key=True); its buffer holds at most BUFFER bytes
    unpacker = msgpack.Unpacker(max_buffer_size=BUFFER)
    unpackb, sha256, middle = msgpack.unpackb, hashlib.sha256, INPUT_KINDS
    decoded: dict[bytes, Any] | None = {} if shared else None
    head = ZERO
    index = 0
    fed = 0  # bytes read from f
    end = 0  # where the last whole record ends (tell() is not reliable after a cut record)
    ended = False  # the footer was read
    while True:
        chunk = f.read(CHUNK if size is None else min(CHUNK, size - fed))
        if not chunk:
            break
        unpacker.feed(chunk)
        fed += len(chunk)
        try:
            for item in unpacker:
                if type(item) is not list or len(item) != 2:
                    log.problem = Problem("corrupt", index, f"record {index} is not [body, hash]")
                    return
                body_bytes, h = item
                if type(body_bytes) is not bytes or type(h) is not bytes:
                    log.problem = Problem("corrupt", index, f"record {index} is not [body, hash]")
                    return
                if len(body_bytes) > MAX_RECORD:
                    log.problem = _too_long(index)
                    return
                head = sha256(head + body_bytes).digest()
                if h != head:
                    log.problem = Problem("corrupt", index, f"hash chain broken at record {index}: recorded "
                                                            f"{h.hex()[:16]}…, computed {head.hex()[:16]}…")
                    return
                body = None if decoded is None else decoded.get(body_bytes)
                if body is None:
                    try:
                        body = unpackb(body_bytes)
                    except Exception as e:  # noqa: BLE001 - any decoding error is corruption
                        log.problem = Problem("corrupt", index,
                                              f"record {index} does not decode: {e or type(e).__name__}")
                        return
                    # The common case first: an input record in the middle of the log.
                    if ended or not index or type(body) is not dict or body.get("kind") not in middle:
                        why = structure_problem(ended, index, body)
                        if why:
                            log.problem = Problem("corrupt", index, f"record {index}: {why}")
                            return
                        ended = body["kind"] == "end"
                    elif decoded is not None:  # (only input records: one seen again passed this check)
                        decoded[body_bytes] = body
                elif ended:  # (an input record seen before, now after the footer)
                    log.problem = Problem("corrupt", index, f"record {index}: {structure_problem(ended, index, body)}")
                    return
                end = unpacker.tell()
                yield body, h
                index += 1
        except Exception as e:  # noqa: BLE001 - undecodable framing
            log.problem = Problem("corrupt", index, f"undecodable bytes in record {index}: {e or type(e).__name__}")
            return
        if fed - end > MAX_RECORD + _FRAMING:
            log.problem = _too_long(index)
            return
    rest = fed - end
    if rest:
        log.problem = Problem("unfinished", index, f"the log ends inside record {index} ({rest} bytes of it)")
    elif not ended:
        log.problem = Problem("unfinished", index, f"no footer after {index} whole records")


def _too_long(index: int) -> Problem:
    return Problem("corrupt", index, f"record {index} is longer than {MAX_RECORD:,} bytes, the most a record "
                                     "may be (a game's records are a few KB)")
