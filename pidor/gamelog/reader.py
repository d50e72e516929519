"""Reading a game log in either form: it tells the binary form (:mod:`.format`) from the
JSON Lines form (:mod:`.jsonl`) by its first byte and hands the bytes to that form's reader.

It sits above both forms, so neither form's module needs the other.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .format import LogFile, read_msgpack

__all__ = ["read_log", "sniff", "looks_like_jsonl", "walk"]


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


def read_log(source: str | os.PathLike | bytes, *, shared: bool = False) -> LogFile:
    """Read a log from a path or from bytes, in either form (msgpack or JSON Lines).
    Raises ``OSError`` when a path cannot be read; bad content is reported in ``problem``.
    ``shared``: see :func:`~pidor.gamelog.format.read_msgpack` (a binary log only)."""
    data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    if looks_like_jsonl(data):
        from .jsonl import read_jsonl  # (here: a binary log is read without json)

        return read_jsonl(data)
    return read_msgpack(bytes(data), shared=shared)


def sniff(data: bytes) -> str | None:
    """``msgpack``, ``jsonl``, or ``None`` when the bytes cannot be a game log at all
    (an empty file is a log cut short before its header: ``msgpack``)."""
    if not data or data[:1] == b"\x92":
        return "msgpack"
    if looks_like_jsonl(data):
        return "jsonl"
    return None


def looks_like_jsonl(data: bytes) -> bool:
    """A JSON Lines log starts with ``{`` (after blank space); a binary log with ``0x92``."""
    return data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] == b"{"
