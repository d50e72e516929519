"""The JSON Lines form of a game log: one JSON object per line, one line per record.

Each line is the record's body (the same map as in the binary log, ``"kind"`` first)
plus one more key at the end, ``"h"``: the record's chain value in hex. Converting the
body back to msgpack (``msgpack.packb``, keys in the order given) gives the exact bytes
the chain was computed over, so an exported log verifies like the binary one.

People may write logs by hand in this form (test cases): then ``"h"`` may be left out
of *every* line. Such a log is *unchained*; ``verify`` says so and checks everything else.
Blank lines are ignored.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import BinaryIO

import msgpack

from .format import MAX_RECORD, ZERO, LogFile, Problem, chain, structure_problem

__all__ = ["export_jsonl", "read_jsonl", "jsonl_records", "record_line"]


def record_line(body: dict, h: bytes | None) -> str:
    obj = dict(body)
    if h is not None:
        obj["h"] = h.hex()
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def export_jsonl(log: LogFile) -> str:
    """The JSON Lines text of the whole records of ``log`` (one ``\\n``-ended line each)."""
    return "".join(record_line(body, h) + "\n" for body, h in zip(log.records, log.hashes))


def read_jsonl(data: bytes | str) -> LogFile:
    """Read the JSON Lines form from its text or bytes (see :func:`jsonl_records`)."""
    log = LogFile()
    return log.keep(jsonl_records(io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data), log))


def jsonl_records(f: BinaryIO, log: LogFile, *, size: int | None = None) -> Iterator[tuple[dict, bytes]]:
    """The whole records of a JSON Lines log, read line by line from ``f`` (at most ``size``
    bytes), as ``(body, h)``. Like :func:`~pidor.gamelog.format.msgpack_records` it never
    raises on bad content: ``log.problem`` names the first bad line (as a record index); a
    line longer than :data:`~pidor.gamelog.format.MAX_RECORD` is one, and is not read to its
    end. ``log.chained`` says whether the lines carry ``"h"``."""
    log.source, log.chained = "jsonl", False
    head = ZERO
    with_h: bool | None = None
    ended = False  # the footer was read
    index = 0
    lineno = 0
    left = size
    while left is None or left > 0:
        line = f.readline(MAX_RECORD + 1 if left is None else min(MAX_RECORD + 1, left))
        if not line:
            break
        if left is not None:
            left -= len(line)
        lineno += 1
        whole = line.endswith(b"\n")  # else the last line of the file, or a longer one
        if len(line) > MAX_RECORD and not whole:
            log.problem = Problem("corrupt", index, f"line {lineno} is longer than {MAX_RECORD:,} bytes, the most "
                                                    "a record may be (a game's records are a few KB)")
            return
        text = line.decode("utf-8-sig" if lineno == 1 else "utf-8", errors="replace")
        if not text.strip():
            continue
        try:
            body = json.loads(text)
        except (ValueError, RecursionError) as e:  # RecursionError: arrays nested too deep
            if whole:
                log.problem = Problem("corrupt", index, f"line {lineno} is not JSON: {e}")
            else:
                log.problem = Problem("unfinished", index, f"line {lineno} is cut short ({e})")
            return
        if not isinstance(body, dict):
            log.problem = Problem("corrupt", index, f"line {lineno} is not a JSON object")
            return
        h_text = body.pop("h", None)
        if with_h is None:
            with_h = log.chained = h_text is not None
        elif with_h != (h_text is not None):
            log.problem = Problem("corrupt", index, f"line {lineno}: 'h' must be on every line or on none")
            return
        try:
            packed = msgpack.packb(body, use_bin_type=True)
        except (TypeError, ValueError, OverflowError) as e:
            log.problem = Problem("corrupt", index, f"line {lineno}: {e}")
            return
        head = chain(head, packed)
        if with_h:
            try:
                h = bytes.fromhex(h_text) if isinstance(h_text, str) else None
            except ValueError:
                h = None
            if h != head:
                log.problem = Problem("corrupt", index, f"hash chain broken at record {index} (line {lineno})")
                return
        why = structure_problem(ended, index, body)
        if why:
            log.problem = Problem("corrupt", index, f"record {index} (line {lineno}): {why}")
            return
        ended = body["kind"] == "end"
        yield body, head
        index += 1
    if not ended:
        log.problem = Problem("unfinished", index, f"no footer after {index} whole records")
