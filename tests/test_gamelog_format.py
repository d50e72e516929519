"""The log format: records, the hash chain, the writer, the reader, JSON Lines, and every
kind of damage (changed bytes, reordered / removed / inserted records, a crash)."""

from __future__ import annotations

import io
import json

import msgpack
import pytest

from pidor.gamelog.format import (
    ZERO,
    LogError,
    LogWriteError,
    LogWriter,
    chain,
    frame,
    plain,
    read_msgpack,
)
from pidor.gamelog.jsonl import export_jsonl, read_jsonl
from pidor.gamelog.reader import read_log, sniff
from pidor.match import run_match


def frames(data: bytes) -> list[tuple[bytes, bytes]]:
    return [tuple(x) for x in msgpack.Unpacker(io.BytesIO(data))]


def join(items, rechain: bool = False) -> bytes:
    out, head = [], ZERO
    for body, h in items:
        if rechain:
            head = chain(head, body)
            h = head
        out.append(frame(body, h))
    return b"".join(out)


def small_log() -> bytes:
    buf = io.BytesIO()
    w = LogWriter(buf, {"game": "pidor", "note": "ёлка"})
    w.record("act", {"seat": 1, "action": {"type": "draw"}, "now": 0.5, "events": [{"type": "x", "_private": {"1": {"card": "Th"}}}]})
    w.record("pass", {"passed": {"seats": [0, 2], "now": 1.0}, "events": []})
    w.close({"status": "over", "result": None})
    return buf.getvalue()


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> bytes:
    """A real «пидор» game with cheats, calls and court sessions."""
    d = tmp_path_factory.mktemp("logs")
    r = run_match("pidor", 3, 1, seed="format", logs=d,
                  specs=["builtin:random:cheat=0.2,attention=0.6,false_call=0.05"] * 3)
    data = open(r.logs[0], "rb").read()
    bodies = [msgpack.unpackb(b) for b, _ in frames(data)]
    assert {"header", "start", "act", "call", "vote", "end"} <= {r["kind"] for r in bodies}
    assert any("passed" in r for r in bodies)
    return data


def test_round_trip_of_records_and_chain():
    data = small_log()
    log = read_msgpack(data)
    assert log.problem is None
    kinds = [r["kind"] for r in log.records]
    assert kinds == ["header", "act", "pass", "end"]
    header = log.records[0]
    assert (header["format"], header["version"], header["game"], header["note"]) == ("pidor-log", 3, "pidor", "ёлка")
    assert log.records[2]["passed"] == {"seats": [0, 2], "now": 1.0}
    assert log.records[1]["events"][0]["_private"] == {"1": {"card": "Th"}}
    assert log.records[1]["now"] == 0.5
    # The chain: h_i = SHA-256(h_{i-1} ‖ body_i), from 32 zero bytes.
    head = ZERO
    for (body, h), got in zip(frames(data), log.hashes):
        head = chain(head, body)
        assert h == head == got
    footer = log.records[-1]
    assert footer["records"] == 4 and footer["head"] == log.hashes[2].hex()


def test_plain_makes_seat_keys_strings_and_tuples_lists():
    assert plain({"a": (1, 2), "_private": {0: {"c": ("Th",)}}}) == {"a": [1, 2], "_private": {"0": {"c": ["Th"]}}}


def test_writer_refuses_unknown_kinds_and_writing_after_close():
    w = LogWriter(io.BytesIO(), {})
    with pytest.raises(ValueError):
        w.record("end", {})
    with pytest.raises(ValueError):
        w.record("nonsense", {})
    w.close({"status": "over"})
    with pytest.raises(LogError):
        w.record("tick", {"now": 0.0, "events": []})


class FullDisk(io.BytesIO):
    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, b) -> int:
        if self.tell() + len(b) > self.room:
            raise OSError(28, "No space left on device")
        return super().write(b)


def test_a_write_error_is_a_clear_exception_and_leaves_an_unfinished_log():
    disk = FullDisk(room=400)
    w = LogWriter(disk, {"game": "pidor"})
    with pytest.raises(LogWriteError, match="No space left"):
        for _ in range(100):
            w.record("tick", {"now": 0.0, "events": [{"type": "x" * 20}]})
    with pytest.raises(LogWriteError, match="unusable"):
        w.record("tick", {"now": 0.0, "events": []})
    w.close({"status": "over"})  # no footer after an error, and no exception either
    log = read_msgpack(disk.getvalue())
    assert log.problem.kind == "unfinished"
    assert len(log.records) >= 2


def test_writer_creates_files_and_reports_bad_paths(tmp_path):
    with pytest.raises(LogWriteError, match="cannot create"):
        LogWriter(tmp_path / "no" / "such" / "dir" / "x.plog", {})
    path = tmp_path / "x.plog"
    with LogWriter(path, {"game": "pidor"}, fsync=True) as w:
        w.record("tick", {"now": 0.0, "events": []})
    # Leaving the with-block without close(footer) leaves an unfinished log.
    log = read_log(path)
    assert [r["kind"] for r in log.records] == ["header", "tick"]
    assert log.problem.kind == "unfinished" and "no footer" in log.problem.reason


@pytest.mark.slow
def test_unfinished_log_cut_anywhere_in_a_record_reads_up_to_the_last_whole_record(game_log):
    items = frames(game_log)
    whole = join(items[:-3])
    cut_record = frame(*items[-3])
    for cut in range(0, len(cut_record)):
        log = read_msgpack(whole + cut_record[:cut])
        assert log.problem is not None and log.problem.kind == "unfinished", cut
        assert len(log.records) == len(items) - 3
        assert log.problem.index == len(items) - 3
    assert read_msgpack(b"").problem.kind == "unfinished"


@pytest.mark.slow
def test_every_changed_byte_is_detected(game_log):
    """Flip each byte of the header, of a middle record and of the footer."""
    items = frames(game_log)
    offsets = []
    pos = 0
    for k, item in enumerate(items):
        size = len(frame(*item))
        if k in (0, len(items) // 2, len(items) - 1):
            offsets += range(pos, pos + size)
        pos += size
    for off in offsets:
        data = bytearray(game_log)
        data[off] ^= 0x01
        log = read_log(bytes(data))
        assert log.problem is not None, f"byte {off} changed and not noticed"


def test_reordered_removed_and_inserted_records_break_the_chain(game_log):
    items = frames(game_log)
    n = len(items)
    cases = {
        "swap": items[:5] + [items[6], items[5]] + items[7:],
        "remove": items[:5] + items[6:],
        "insert": items[:5] + [items[3]] + items[5:],
        "remove_footer": items[:-1],
        "duplicate_footer": items + [items[-1]],
    }
    for name, case in cases.items():
        log = read_msgpack(join(case))
        assert log.problem is not None, name
        if name != "remove_footer":
            assert log.problem.kind == "corrupt", name
    assert read_msgpack(join(cases["swap"])).problem.index == 5
    assert read_msgpack(join(cases["remove_footer"])).problem.kind == "unfinished"
    # Even with the chain recomputed the structure rules catch a second footer or header.
    assert read_msgpack(join(cases["duplicate_footer"], rechain=True)).problem.index == n
    assert "second header" in read_msgpack(join(items[:2] + [items[0]] + items[2:], rechain=True)).problem.reason


def test_garbage_is_corrupt_not_a_crash():
    for data in (b"\x92\xc4\x01", b"\x93\x01\x02\x03", b"\x92\xc4\x02ab\xc4\x20" + bytes(32), b"\xc1\xc1\xc1"):
        log = read_msgpack(data)
        assert log.problem is not None
        assert log.records == []


def test_jsonl_round_trip_is_byte_exact(game_log):
    log = read_msgpack(game_log)
    text = export_jsonl(log)
    lines = text.splitlines()
    assert len(lines) == len(log.records)
    first = json.loads(lines[0])
    assert list(first)[0] == "kind" and list(first)[-1] == "h"
    back = read_jsonl(text)
    assert back.problem is None and back.chained
    assert back.records == log.records and back.hashes == log.hashes
    # Each line packs back to the very bytes the chain was computed over.
    for line, (body, _) in zip(lines, frames(game_log)):
        obj = json.loads(line)
        del obj["h"]
        assert msgpack.packb(obj) == body
    # read_log tells the two forms apart by themselves.
    assert read_log(text.encode()).records == log.records


def test_the_reader_tells_the_two_forms_apart(game_log):
    text = export_jsonl(read_msgpack(game_log)).encode()
    assert sniff(game_log) == "msgpack" and sniff(text) == "jsonl"
    assert sniff(b"") == "msgpack"  # a log cut short before its header
    assert sniff(b"\xef\xbb\xbf\n  " + text) == "jsonl"  # a BOM and blank space first
    assert sniff(b"PK\x03\x04: a zip file") is None
    assert read_log(text).source == "jsonl" and read_log(game_log).source == "msgpack"


def test_jsonl_tampering_and_cut_lines(game_log):
    text = export_jsonl(read_msgpack(game_log))
    lines = text.splitlines(keepends=True)
    changed = text.replace('"seat": 1', '"seat": 2', 1)
    assert read_jsonl(changed).problem.kind == "corrupt"
    assert read_jsonl("".join(lines[:3] + lines[4:])).problem.kind == "corrupt"
    cut = "".join(lines[:10]) + lines[10][:25]
    log = read_jsonl(cut)
    assert log.problem.kind == "unfinished" and len(log.records) == 10
    assert read_jsonl("".join(lines[:10])).problem.kind == "unfinished"
    # "h" on some lines only is refused; on none it is an unchained (hand-written) log.
    partly = "".join(lines[:2]) + lines[2].replace(', "h": ', ', "x": ')
    assert "every line or on none" in read_jsonl(partly).problem.reason
    bare = "".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "h"}) + "\n\n" for line in lines)
    log = read_jsonl(bare)
    assert log.problem is None and not log.chained and len(log.records) == len(lines)


def test_recorder_write_errors_never_lose_the_tables_events():
    from pidor.bots import RandomBot
    from pidor.driver import Driver
    from pidor.engine.seeds import Rng
    from pidor.engine.table import Table
    from pidor.gamelog.record import Recorder

    def drive(rec, t, steps):
        driver = Driver(rec, [RandomBot(s, b"disk") for s in range(3)], Rng(b"disk", b"driver"))
        got = []
        for _ in range(steps):
            seat = t.to_act()[0]
            try:
                got.append(rec.act(seat, driver.decide(seat)))
            except LogWriteError as e:
                got.append(e.events)
            driver.feed(got[-1])
            for o in t.waiting_answers():
                rec.answer(o, False)
        return got

    # Without on_error: the error is raised once, carrying the events; then nothing is written.
    t = Table({"game": "pidor", "players": 3})
    rec = Recorder(t, FullDisk(room=1500), server_seed=bytes(32))
    rec.start()
    got = drive(rec, t, 12)
    assert all(batch and batch[0]["type"] == "action" for batch in got)
    assert rec.error is not None and rec.writer is None
    # With on_error: reported once, the game goes on.
    errors = []
    t = Table({"game": "pidor", "players": 3})
    disk = FullDisk(room=1500)
    rec = Recorder(t, disk, server_seed=bytes(32), on_error=errors.append)
    rec.start()
    got = drive(rec, t, 12)
    assert len(errors) == 1 and "No space left" in str(errors[0])
    assert len(got) == 12 and all(batch[0]["type"] == "action" for batch in got)
    log = read_msgpack(disk.getvalue())
    assert log.problem.kind == "unfinished" and len(log.records) >= 3


def test_integer_keys_outside_private_cannot_slip_into_a_log_unnoticed():
    buf = io.BytesIO()
    w = LogWriter(buf, {"game": "pidor"})
    w.record("tick", {"now": 0.0, "events": [{"type": "x", "odd": {1: "a"}}]})
    w.close({"status": "over"})
    log = read_msgpack(buf.getvalue())
    assert log.problem.kind == "corrupt" and log.problem.index == 1


def test_reading_pauses_the_garbage_collector_and_restores_it(game_log):
    import gc

    from pidor.gamelog.verify import verify_data

    assert gc.isenabled()
    runs = []
    gc.callbacks.append(lambda phase, info: runs.append(phase))
    try:
        # Thousands of maps and lists (without the pause the collector runs several times),
        # and at most the one collection that the first allocation after it sets off.
        log = read_msgpack(game_log)
        assert log.problem is None and runs.count("start") <= 1
        runs.clear()
        assert verify_data(game_log).ok and runs.count("start") <= 1
        assert gc.isenabled()
        gc.disable()  # a caller that paused it itself keeps it paused
        read_msgpack(game_log)
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.callbacks.pop()
