"""Reading a game log in either form: it tells the binary form (:mod:`.format`) from the
JSON Lines form (:mod:`.jsonl`) by its first bytes and reads the records with that form's
reader, one by one.

It sits above both forms, so neither form's module needs the other. A log file is opened
with :func:`open_log`: only a regular file, and never blocking (a FIFO is refused, not
waited on). Reading holds at most :data:`~pidor.gamelog.format.BUFFER` bytes of a file at
a time; :func:`read_log` keeps every record, so it reads a file of at most
:data:`READ_WHOLE` bytes (``pidor verify`` reads a larger one twice instead:
:func:`~pidor.gamelog.verify.verify_file`).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from io import BufferedReader, BytesIO
from pathlib import Path
from typing import Any

from .format import CHUNK, LogFile, gc_paused, msgpack_records

__all__ = ["READ_WHOLE", "Refused", "unreadable", "open_file", "open_log", "read_log", "read_whole", "records",
           "sniff", "looks_like_jsonl", "first_json", "is_log", "walk"]

#: The largest log file read whole, every record kept in memory (a game's log is 20-200 KB;
#: its records take about 8 times its size in memory, a replay of it 80 times).
READ_WHOLE = 4 << 20


class Refused(OSError):
    """A path not read: it names no regular file (a FIFO, a device, a directory…), or a
    file larger than a reader keeps whole."""


def unreadable(e: OSError) -> str:
    """Why a log file was not read, in a few words."""
    return str(e) if isinstance(e, Refused) else f"cannot read: {e.strerror or e}"


def _natural(path: Path) -> list:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(path))]


def walk(paths) -> list[tuple[Path, bool]]:
    """(file, named on the command line) for every path, each directory searched through
    (its files in natural order: ``game-2`` before ``game-10``)."""
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            found = [Path(root) / f for root, _, names in os.walk(p) for f in names]
            out += [(f, False) for f in sorted(found, key=_natural)]
        else:
            out.append((p, True))
    return out


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def open_file(path: str | os.PathLike) -> tuple[BufferedReader, int]:
    """The file at ``path`` open for reading, and its size. Raises ``OSError`` when it
    cannot be opened, and :class:`Refused` when it is no regular file (a symbolic link
    is followed): it is opened without blocking, so a FIFO with no writer is refused at
    once instead of waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd)
        if not stat.S_ISREG(mode.st_mode):
            what = next((name for test, name in _KINDS if test(mode.st_mode)), "a special file")
            raise Refused(f"not a regular file ({what})")
        return os.fdopen(fd, "rb"), mode.st_size
    except BaseException:
        os.close(fd)
        raise


def open_log(path: str | os.PathLike) -> tuple[BufferedReader, int]:
    """:func:`open_file`, and :class:`Refused` when the file does not start like a log in
    either form (:func:`sniff`)."""
    f, size = open_file(path)
    try:
        if sniff(f.peek(CHUNK)) is None:
            raise Refused("not a game log (neither a msgpack log nor JSON Lines)")
    except BaseException:
        f.close()
        raise
    return f, size


def records(f: BufferedReader, log: LogFile, *, shared: bool = False,
            size: int | None = None) -> Iterator[tuple[Any, bytes]]:
    """The whole records of the log in ``f`` (either form, told by its first bytes; at most
    ``size`` bytes), as ``(body, h)``: see :func:`~pidor.gamelog.format.msgpack_records`.
    ``shared`` applies to the binary form only."""
    if looks_like_jsonl(f.peek(CHUNK)):
        from .jsonl import jsonl_records  # (here: a binary log is read without json)

        return jsonl_records(f, log, size=size)
    return msgpack_records(f, log, shared=shared, size=size)


def read_log(source: str | os.PathLike | bytes, *, shared: bool = False) -> LogFile:
    """Read a log, every record, from a path or from bytes, in either form (msgpack or
    JSON Lines). Raises ``OSError`` when a path cannot be read, :class:`Refused` when it
    names no log file (:func:`open_log`) or one larger than :data:`READ_WHOLE`; bad
    content is reported in ``problem``. ``shared``: see :func:`~pidor.gamelog.format.msgpack_records`."""
    if isinstance(source, (bytes, bytearray)):
        return read_whole(BufferedReader(BytesIO(source)), shared=shared)
    f, size = open_log(source)
    with f:
        if size > READ_WHOLE:
            raise Refused(f"{size / 2**20:.0f} MiB: more than the {READ_WHOLE >> 20} MiB of a log read whole (a "
                          "game's log is well under 1 MiB; pidor verify and export read a log of any size)")
        return read_whole(f, shared=shared, size=size)


def read_whole(f: BufferedReader, *, shared: bool = False, size: int | None = None) -> LogFile:
    """The log in ``f`` (at most ``size`` bytes), every record kept (:func:`records`)."""
    log = LogFile()
    with gc_paused():
        return log.keep(records(f, log, shared=shared, size=size))


def sniff(data: bytes) -> str | None:
    """``msgpack``, ``jsonl``, or ``None`` when the bytes (a file's first bytes) cannot be a
    game log at all (an empty file is a log cut short before its header: ``msgpack``)."""
    if not data or data[:1] == b"\x92":
        return "msgpack"
    if looks_like_jsonl(data):
        return "jsonl"
    return None


def looks_like_jsonl(data: bytes) -> bool:
    """A JSON Lines log starts with ``{`` (after blank space); a binary log with ``0x92``."""
    return data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] == b"{"


def first_json(data: bytes):
    """The JSON value on the first line of ``data`` (a file's first bytes), or ``None``."""
    import json  # (here: a binary log is read without json)

    first = data.lstrip(b" \t\r\n\xef\xbb\xbf").split(b"\n", 1)[0]
    try:
        return json.loads(first)
    except ValueError:
        return None


def is_log(data: bytes) -> bool:
    """Whether a file whose first bytes are ``data`` is a game log: binary, or JSON Lines
    whose first record is the header (an empty file is not: more likely a bot's empty
    stderr beside the logs than a log cut before its header)."""
    if not data:
        return False
    if sniff(data) == "msgpack":
        return True
    head = first_json(data) if looks_like_jsonl(data) else None
    return isinstance(head, dict) and head.get("kind") == "header"
