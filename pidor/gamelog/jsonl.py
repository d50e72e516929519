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

import json

import msgpack

from .format import ZERO, LogFile, Problem, chain, structure_problem

__all__ = ["export_jsonl", "read_jsonl", "record_line"]


def record_line(body: dict, h: bytes | None) -> str:
    obj = dict(body)
    if h is not None:
        obj["h"] = h.hex()
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def export_jsonl(log: LogFile) -> str:
    """The JSON Lines text of the whole records of ``log`` (one ``\\n``-ended line each)."""
    return "".join(record_line(body, h) + "\n" for body, h in zip(log.records, log.hashes))


def read_jsonl(data: bytes | str) -> LogFile:
    """Read the JSON Lines form. Like :func:`~pidor.gamelog.format.read_msgpack` it never
    raises on bad content; ``problem`` names the first bad line (as a record index)."""
    text = data.decode("utf-8-sig", errors="replace") if isinstance(data, (bytes, bytearray)) else data
    log = LogFile(source="jsonl")
    lines = text.split("\n")
    ended = text.endswith("\n")
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    head = ZERO
    with_h: bool | None = None
    for n, (lineno, line) in enumerate(numbered):
        index = len(log.records)
        last = n == len(numbered) - 1
        try:
            body = json.loads(line)
        except ValueError as e:
            if last and not ended:
                log.problem = Problem("unfinished", index, f"line {lineno} is cut short ({e})")
            else:
                log.problem = Problem("corrupt", index, f"line {lineno} is not JSON: {e}")
            return log
        if not isinstance(body, dict):
            log.problem = Problem("corrupt", index, f"line {lineno} is not a JSON object")
            return log
        h_text = body.pop("h", None)
        if with_h is None:
            with_h = h_text is not None
        elif with_h != (h_text is not None):
            log.problem = Problem("corrupt", index, f"line {lineno}: 'h' must be on every line or on none")
            return log
        try:
            packed = msgpack.packb(body, use_bin_type=True)
        except (TypeError, ValueError, OverflowError) as e:
            log.problem = Problem("corrupt", index, f"line {lineno}: {e}")
            return log
        head = chain(head, packed)
        h = None
        if with_h:
            try:
                h = bytes.fromhex(h_text) if isinstance(h_text, str) else None
            except ValueError:
                h = None
            if h != head:
                log.problem = Problem("corrupt", index, f"hash chain broken at record {index} (line {lineno})")
                return log
        why = structure_problem(log.records, index, body)
        if why:
            log.problem = Problem("corrupt", index, f"record {index} (line {lineno}): {why}")
            return log
        log.records.append(body)
        log.hashes.append(h if with_h else head)
    log.chained = bool(with_h)
    if log.footer is None:
        log.problem = Problem("unfinished", len(log.records), f"no footer after {len(log.records)} whole records")
    return log
