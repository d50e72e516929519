"""``verify`` compares a record's events packed (issue 29, goal 3): the reader leaves an input
record's ``events`` as the bytes of its body (``packed_events``), the verifier packs the
events the engine produces and compares bytes, decoding only when they differ. These tests
check that this reads what the plain reader reads, and that a log that does not verify is
told exactly as the plain reader's verify tells it."""

from __future__ import annotations

import io

import msgpack
import pytest

from pidor.gamelog.format import ZERO, PackedEvents, chain, frame, unpack_events
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify, verify_data, verify_file
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.3,attention=0.6,false_call=0.05"


@pytest.fixture(scope="module")
def log_bytes(tmp_path_factory) -> bytes:
    d = tmp_path_factory.mktemp("packed")
    r = run_match("pidor", 4, 1, seed="packed-events", specs=[CHEATY] * 4, logs=d)
    return open(r.logs[0], "rb").read()


def bodies(data: bytes) -> list[bytes]:
    return [b for b, _ in msgpack.Unpacker(io.BytesIO(data))]


def reframe(packed: list[bytes]) -> bytes:
    """A log of these bodies with its chain computed afresh, the footer's head too (a forger
    can do this)."""
    out, head = [], ZERO
    for body in packed:
        if b"\xa4kind\xa3end" in body[:12]:  # (the footer: "kind" is its first key)
            rec = msgpack.unpackb(body)
            body = msgpack.packb({**rec, "head": head.hex()})
        head = chain(head, body)
        out.append(frame(body, head))
    return b"".join(out)


def plain_report(data: bytes):
    """What ``verify`` says of a log read with every record decoded (as before)."""
    return verify(read_log(data, shared=True), "test")


def test_packed_events_read_as_the_plain_reader_reads_them(log_bytes):
    plain, packed = read_log(log_bytes), read_log(log_bytes, packed_events=True)
    assert packed.problem is None and len(packed.records) == len(plain.records)
    kinds = set()
    for a, b in zip(plain.records, packed.records):
        if type(b.get("events")) is PackedEvents:
            kinds.add(b["kind"])
            b = dict(b, events=unpack_events(b["events"]))
        assert a == b
    assert {"start", "act", "call", "vote"} <= kinds  # every input record with events (T2, T4)
    assert type(packed.records[0].get("events")) is not PackedEvents  # the header, the footer: decoded
    assert verify_data(log_bytes, "test").ok


def test_events_not_last_or_the_key_inside_a_string_decode_whole(log_bytes):
    body = msgpack.unpackb(bodies(log_bytes)[3])
    assert list(body)[-1] == "events"
    moved = {"events": body["events"], **{k: v for k, v in body.items() if k != "events"}}
    tricky = {**body, "note": "events"}  # (the key's bytes after the events)
    data = reframe([msgpack.packb(moved), msgpack.packb(tricky)])
    for rec in read_log(data, packed_events=True).records:
        assert type(rec["events"]) is list


def test_events_that_do_not_decode_fail_as_the_plain_reader_says(log_bytes):
    packed = bodies(log_bytes)
    k = 5
    packed[k] += b"\xc0"  # a nil after the events: the body is not one value
    data = reframe(packed)
    report = verify_data(data, "test")
    assert not report.ok and report == plain_report(data)
    assert report.record == k and "does not decode" in report.reason


def test_a_changed_event_fails_at_its_record_with_the_plain_readers_reason(log_bytes, tmp_path):
    packed = bodies(log_bytes)
    k = next(i for i, b in enumerate(packed) if i > 2 and msgpack.unpackb(b)["kind"] == "act")
    body = msgpack.unpackb(packed[k])
    event = next(e for e in body["events"] if e["type"] == "action")
    event["seat"] = (event["seat"] + 1) % 4
    packed[k] = msgpack.packb(body)
    data = reframe(packed)
    path = tmp_path / "forged.plog"
    path.write_bytes(data)
    report = verify_file(str(path))
    assert report.status == "failed" and report.record == k
    assert report == verify_data(data, str(path)) and report.to_dict() == plain_report(data).to_dict() | {
        "path": str(path)}


def test_a_float_written_as_an_int_still_verifies(log_bytes):
    """Packed differently but decoded equal (``2`` for ``2.0``): the comparison falls back
    to the decoded events, which are equal, as before."""
    packed = bodies(log_bytes)
    k = next(i for i, b in enumerate(packed) if b"deadline\xcb" in b)
    body = msgpack.unpackb(packed[k])
    window = next(e for e in body["events"] if e["type"] == "window")
    window["deadline"] = int(window["deadline"])
    packed[k] = msgpack.packb(body)
    assert packed[k] != bodies(log_bytes)[k]
    data = reframe(packed)
    assert verify_data(data, "test").ok and plain_report(data).ok
