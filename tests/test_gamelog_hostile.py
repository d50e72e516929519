"""Hostile files given to the commands that read logs (issue 21, item 7): a FIFO, a symbolic
link to /dev/zero, a 4 GiB sparse file, a 1.2 GB one-line JSON Lines file, a log over
100 MiB. Each is reported in one line (exit status 2 for a file that is no log, 1 for a log
that breaks off), the other files of a directory go on, with ``--jobs`` too, and a reader
never holds more than :data:`~pidor.gamelog.format.BUFFER` bytes of a file.

The commands run in a child process with a bound on its memory and a time limit: a
regression fails the test instead of filling the machine's memory or hanging it."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import tracemalloc

import msgpack
import pytest
from helpers import first_fast, players_of

from pidor.games import GAME_IDS
from pidor.gamelog import verify as verify_module
from pidor.gamelog.format import BUFFER, CHUNK, MAX_RECORD, ZERO, LogFile, chain, frame
from pidor.gamelog.reader import READ_WHOLE, read_log, records
from pidor.gamelog.verify import verify, verify_file
from pidor.match import run_match

GIB = 1 << 30


class Lazy(io.RawIOBase):
    """A file of ``size`` bytes made as it is read: ``prefix``, then ``fill`` repeated.
    ``pos`` is how much of it a reader took."""

    def __init__(self, prefix: bytes, size: int, fill: bytes = b"a") -> None:
        self.prefix, self.size, self.fill, self.pos = prefix, size, fill, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = min(len(b), self.size - self.pos)
        head = self.prefix[self.pos:self.pos + n]
        b[:len(head)] = head
        b[len(head):n] = self.fill * (n - len(head))
        self.pos += n
        return n


def read_lazily(prefix: bytes, size: int, fill: bytes = b"a") -> tuple[LogFile, list, Lazy]:
    source = Lazy(prefix, size, fill)
    log = LogFile()
    got = list(records(io.BufferedReader(source, CHUNK), log))
    return log, got, source


@pytest.fixture(scope="module")
def game_logs(tmp_path_factory) -> dict[str, bytes]:
    """A log of every game."""
    d = tmp_path_factory.mktemp("logs")
    return {game: open(run_match(game, players_of(game), 1, seed=f"hostile-{game}", logs=d / game,
                                 specs=["builtin:random:cheat=0.2,attention=0.6"] * players_of(game)).logs[0], "rb").read()
            for game in GAME_IDS}


def test_a_huge_jsonl_line_is_read_no_further_than_the_longest_record():
    log, got, source = read_lazily(b'{"kind": "header", "pad": "', 1200 * 2**20)  # a 1.2 GB line
    assert got == [] and log.problem.kind == "corrupt" and log.problem.index == 0
    assert log.problem.reason.startswith(f"line 1 is longer than {MAX_RECORD:,} bytes")
    assert source.pos <= BUFFER


@pytest.mark.parametrize("prefix, reason", [
    (b"\x92\xc6" + (3 * GIB).to_bytes(4, "big"), "record 0 is longer than"),  # a 3 GiB body
    (b"\x92\xc4\x00\xdb" + (4 * GIB - 1).to_bytes(4, "big"), "record 0 is longer than"),  # a 4 GiB hash
    (b"\xdd\xff\xff\xff\xff", "undecodable bytes in record 0"),  # an array of 4 billion
])
def test_a_huge_binary_record_is_read_no_further_than_the_longest_record(prefix, reason):
    log, got, source = read_lazily(prefix, 4 * GIB, b"\x00")
    assert got == [] and log.problem.kind == "corrupt" and log.problem.reason.startswith(reason), log.problem
    assert source.pos <= BUFFER


def test_a_long_log_is_read_with_the_same_bound(game_logs):
    """A whole log, then 4 GiB of zeros: every record is read, a chunk at a time."""
    data = game_logs["pidor"]
    log, got, source = read_lazily(data, 4 * GIB, b"\x00")
    assert len(got) == len(read_log(data).records)
    assert log.problem.reason == f"record {len(got)} is not [body, hash]"
    assert source.pos <= len(data) + CHUNK


def hostile_dir(tmp_path, good: bytes):
    d = tmp_path / "logs"
    d.mkdir()
    (d / "a-good.plog").write_bytes(good)
    os.mkfifo(d / "b-fifo.plog")
    (d / "c-zero.plog").symlink_to("/dev/zero")
    with open(d / "d-sparse.plog", "wb") as f:
        f.truncate(4 * GIB)  # a hole: nothing on the disk
    with open(d / "e-line.jsonl", "wb") as f:
        f.write(b'{"kind": "header", "pad": "')
        f.truncate(1200 * 2**20)  # one line of 1.2 GB
    with open(d / "f-big.plog", "wb") as f:
        f.write(good)
        f.truncate(120 * 2**20)  # a log over 100 MiB (then zeros)
    (d / "g-good.plog").write_bytes(good)
    return d


EXPECTED = [("a-good.plog", "verified", None), ("b-fifo.plog", "unusable", "not a regular file (a FIFO)"),
            ("c-zero.plog", "unusable", "not a regular file (a character device)"),
            ("d-sparse.plog", "unusable", "not a game log (neither a msgpack log nor JSON Lines)"),
            ("e-line.jsonl", "failed", f"line 1 is longer than {MAX_RECORD:,} bytes"),
            ("f-big.plog", "failed", "is not [body, hash]"), ("g-good.plog", "verified", None)]


def pidor(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """``pidor ARGS`` in a child process with at most 1 GiB of address space (2 GiB with
    ``--jobs``: each worker has its own) and a minute to finish."""
    def bound() -> None:
        limit = (2 if "--jobs" in args else 1) * GIB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([sys.executable, "-m", "pidor.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, preexec_fn=bound)


@first_fast
@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_verify_reports_each_hostile_file_in_one_line_and_goes_on(tmp_path, game_logs, jobs):
    d = hostile_dir(tmp_path, game_logs["pidor"])
    r = pidor("verify", str(d), "--json", *jobs)
    assert r.returncode == 2 and r.stderr == "", r.stderr
    got = [(os.path.basename(x["path"]), x["status"], x["reason"]) for x in json.loads(r.stdout)["logs"]]
    assert [(name, status) for name, status, _ in got] == [(name, status) for name, status, _ in EXPECTED]
    for (_, _, reason), (name, _, expected) in zip(got, EXPECTED):
        assert expected is None and reason is None or expected in reason, (name, reason)
    r = pidor("verify", str(d), *jobs)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 5 and r.stdout.splitlines()[-1] == "2 verified, 2 failed, 3 unusable"


@first_fast
@pytest.mark.parametrize("name", ["b-fifo.plog", "c-zero.plog", "d-sparse.plog"])
def test_replay_and_export_refuse_what_is_no_log_in_one_line(tmp_path, game_logs, name):
    d = hostile_dir(tmp_path, game_logs["pidor"])
    reason = dict((n, why) for n, _, why in EXPECTED)[name]
    for args in (["replay", name], ["export", name, "-o", "out.jsonl"]):
        r = pidor(*args, cwd=d)
        assert r.returncode == 2 and r.stdout == "" and r.stderr == f"Error: {name}: {reason}\n", (args, r.stderr)
    assert not (d / "out.jsonl").exists()


def test_replay_and_export_of_a_log_that_breaks_off(tmp_path, game_logs):
    d = hostile_dir(tmp_path, game_logs["pidor"])
    records_ = len(read_log(game_logs["pidor"]).records)
    r = pidor("export", "f-big.plog", "-o", "out.jsonl", cwd=d)
    assert r.returncode == 1 and r.stderr.endswith(f"exported the {records_} whole records before it\n"), r.stderr
    assert (d / "out.jsonl").read_bytes().count(b"\n") == records_
    r = pidor("replay", "f-big.plog", cwd=d)
    assert r.returncode == 2 and r.stderr == (  # replay keeps the whole game
        "Error: f-big.plog: 120 MiB: more than the 4 MiB of a log read whole (a game's log is well under 1 MiB; "
        "pidor verify and export read a log of any size)\n")
    r = pidor("export", "e-line.jsonl", cwd=d)
    assert r.returncode == 1 and f"line 1 is longer than {MAX_RECORD:,} bytes" in r.stderr and r.stdout == ""


def test_standings_skips_what_it_cannot_read_counts_the_rest_and_exits_2(tmp_path, game_logs):
    d = hostile_dir(tmp_path, game_logs["pidor"])
    r = pidor("standings", str(d), "--json")
    assert r.returncode == 2, r.stderr
    sources = json.loads(r.stdout)["sources"]
    assert sources["logs"] == 2
    assert [(os.path.basename(s["path"]), s["status"]) for s in sources["skipped"]] == [
        ("b-fifo.plog", "unusable"), ("c-zero.plog", "unusable"), ("f-big.plog", "failed")]
    # neither a log nor a results file: zeros, and a first line that is no JSON record within 256 KiB
    assert sources["ignored"] == 2
    r = pidor("standings", str(d / "b-fifo.plog"))
    assert r.returncode == 2 and r.stderr == f"Error: {d / 'b-fifo.plog'}: not a regular file (a FIFO)\n"


def padded(data: bytes, ticks: int) -> bytes:
    """The log ``data`` with ``ticks`` clock records (each changing nothing) after its deal,
    chained again: a valid log as long as one likes."""
    bodies = [msgpack.unpackb(b) for b, _ in msgpack.Unpacker(io.BytesIO(data))]
    now = bodies[1]["now"]
    recs = bodies[:2] + [{"kind": "tick", "now": now + k * 1e-9, "events": []} for k in range(ticks)] + bodies[2:]
    out, head = [], ZERO
    for rec in recs:
        if rec["kind"] == "end":
            rec = dict(rec, records=len(recs), head=head.hex())
        body = msgpack.packb(rec)
        head = chain(head, body)
        out.append(frame(body, head))
    return b"".join(out)


@pytest.mark.slow
def test_a_log_larger_than_read_whole_is_read_twice_with_the_same_reports(tmp_path, game_logs, monkeypatch):
    """A log over READ_WHOLE is read twice, keeping no record: the same report as from one
    reading, for every game, both forms, and a log that fails, is cut short or changes
    between the readings."""
    from pidor.gamelog.jsonl import export_jsonl

    files = []
    for game, data in game_logs.items():
        files.append((tmp_path / f"{game}.plog", data))
        files.append((tmp_path / f"{game}.jsonl", export_jsonl(read_log(data)).encode()))
        flipped = bytearray(data)
        flipped[len(data) // 2] ^= 0x10
        files.append((tmp_path / f"{game}-flipped.plog", bytes(flipped)))
        files.append((tmp_path / f"{game}-cut.plog", data[:-100]))
    for path, data in files:
        path.write_bytes(data)
    once = [verify_file(str(path)) for path, _ in files]
    seen_once = []
    for path, _ in files[:2]:
        verify_file(str(path), visit=seen_once.append)
    monkeypatch.setattr(verify_module, "READ_WHOLE", 0)
    twice = [verify_file(str(path)) for path, _ in files]
    assert twice == once
    assert [r.status for r in once[:4]] == ["verified", "verified", "failed", "unfinished"]
    seen_twice = []
    for path, _ in files[:2]:
        verify_file(str(path), visit=seen_twice.append)
    assert seen_twice == seen_once == read_log(files[0][1]).records * 2

    # the file changes between the readings: the footer's chain value read first is not met again
    path, data = files[0]

    def change(body: dict) -> None:
        if body["kind"] == "header":
            path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))

    report = verify_file(str(path), visit=change)
    assert (report.status, report.reason) == ("failed", "the file changed while it was verified")


@pytest.mark.slow
def test_a_log_read_twice_holds_no_record(tmp_path, game_logs):
    """A valid log of 100,000 distinct records (7 MB, over READ_WHOLE): verified in a fixed
    amount of memory, as traced by Python (read whole, its records would take 50 MB)."""
    path = tmp_path / "long.plog"
    path.write_bytes(padded(game_logs["podkidnoy"], 100_000))
    assert path.stat().st_size > READ_WHOLE
    tracemalloc.start()
    try:
        report = verify_file(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.ok and report.records == 100_000 + len(read_log(game_logs["podkidnoy"]).records)
    assert peak < 2 * BUFFER, peak


def test_the_padded_log_verifies_read_whole_too(game_logs):
    """(The padding of the test above is a valid log, so its report means something.)"""
    assert verify(read_log(padded(game_logs["podkidnoy"], 50))).ok
