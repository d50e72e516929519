"""Issue 8, items 4, 11 and 12: a write that fails (a full disk) stays inside its table or
its request and the server goes on; games a crash left open are closed at the next start;
a game whose log cannot be created is not started (``no_log``). No filesystem is mounted:
the failures are injected where the server meets the disk (the SQLite connection, the
log file), or made real in a child process (``RLIMIT_FSIZE``, a path that is a file)."""

from __future__ import annotations

import errno
import logging
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner
from server_helpers import is_event, play_until, seated_client, serve

from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.server import app, command, game_log
from pidor.server.app import Server
from pidor.server.store import Store, StoreError
from pidor.server.testing import connect

is_results = is_event("results")


class Disk:
    """One disk under the store and the game logs. ``full = True`` fills it: every write
    fails as it does on a full disk (SQLite: ``database or disk is full``; a log file:
    ``ENOSPC``, nothing written); reads go on."""

    def __init__(self) -> None:
        self.full = False

    def store(self, store: Store) -> Store:
        store.db = _Connection(store.db, self)
        return store

    def open(self, path, mode="r", *args, **kwargs):
        return _File(open(path, mode, *args, **kwargs), self)  # noqa: SIM115 - the log closes it


class _Connection:
    def __init__(self, db: sqlite3.Connection, disk: Disk) -> None:
        self.db, self.disk = db, disk

    def execute(self, sql: str, args=()):
        if self.disk.full and not sql.startswith("SELECT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, args)

    def __getattr__(self, name):
        return getattr(self.db, name)


class _File:
    def __init__(self, f, disk: Disk) -> None:
        self.f, self.disk, self.name = f, disk, f.name

    def write(self, data: bytes) -> int:
        if self.disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.f.write(data)

    def flush(self) -> None:
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def errors(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- item 4: a full disk under a running server -------------------------------------------


async def test_a_full_disk_stops_no_table_and_no_request(tmp_path, autojump_clock, monkeypatch, caplog):
    """Two games run when the disk fills: both end normally (their logs unfinished, their
    ends lost from the index), a table closes, new players and tables are refused with
    ``unavailable`` on open connections; one ERROR line for the store and one per log, no
    traceback. Once the disk has room, the next game is logged and indexed in full."""
    disk = Disk()
    monkeypatch.setattr(game_log, "open", disk.open, raising=False)
    caplog.set_level(logging.INFO, logger="pidor.server")
    async with serve(seeds="full-disk", logs=tmp_path) as (server, port):
        store = disk.store(server.store)
        a = await seated_client(port, "a", options={"game": "pidor", "players": 3, "bots": 2})
        b = await seated_client(port, "b", options={"game": "podkidnoy", "players": 2, "bots": 1})
        for c in (a, b):
            assert (await c.request({"type": "start"}))["type"] == "ok"
        await play_until(a, lambda m: m["type"] == "turn")
        disk.full = True

        ends = {}

        async def play(c):
            ends[c.table] = (await play_until(c, is_results))["event"]

        async with trio.open_nursery() as nursery:
            for c in (a, b):
                nursery.start_soon(play, c)
        for c in (a, b):  # the games ended as games do, with the reveal
            assert ends[c.table]["result"] is not None and ends[c.table]["deal"]["server_seed"]
            row = store.games_of(c.table)[0]
            assert row["started"] is not None and row["ended"] is None  # its end was lost
            data = Path(row["log"]).read_bytes()
            report = verify(read_log(data))
            assert report.status == "unfinished" and report.records >= 1, report  # not "failed"

        # Requests that need a write are refused; the connection stays open.
        late = await connect(port)
        r = await late.hello("late")
        assert r["type"] == "error" and r["code"] == "unavailable", r
        assert "database or disk is full" in r["message"] and "try later" in r["message"]
        assert (await a.request({"type": "leave"}))["type"] == "ok"  # table a closes (index: lost)
        r = await a.request({"type": "create", "options": {"game": "pidor", "players": 3, "bots": 2}})
        assert r["code"] == "unavailable"
        with trio.fail_after(60):
            while a.table in server.lobby.tables:
                await trio.sleep(0.01)
        assert store.table_row(a.table)["closed"] is None  # lost, and nothing raised
        assert server.lobby.tables.keys() == {b.table}
        again = await connect(port)
        assert (await again.hello("a", token=a.token))["player"] == a.player  # a known player: no write needed

        stored = [r for r in errors(caplog) if r.name == "pidor.server.store"]
        logs = [r for r in errors(caplog) if r.name == "pidor.server.game_log"]
        assert len(stored) == 1 and "database or disk is full" in stored[0].getMessage()
        assert len(logs) == 2 and all("No space left on device" in r.getMessage() for r in logs)
        assert not any(r.exc_info for r in caplog.records)  # no traceback anywhere

        # The disk has room again: the store says so, and the next game is whole.
        disk.full = False
        assert (await late.hello("late"))["type"] == "welcome"  # on the same connection
        assert any(r.levelno == logging.WARNING and "writes again" in r.getMessage() for r in caplog.records)
        assert (await b.request({"type": "start"}))["type"] == "ok"
        end = (await play_until(b, is_results))["event"]
        row = store.games_of(b.table)[1]
        assert row["result"] == end["result"] and row["log_error"] is None
        assert verify(read_log(Path(row["log"]).read_bytes())).status == "verified"
        assert len(errors(caplog)) == 3


def test_one_error_line_per_failure_episode(caplog):
    """Failed writes are reported once until a write succeeds; a later failure is a new
    episode. Bookkeeping writes return quietly; a write a request needs raises."""
    disk = Disk()
    store = disk.store(Store(":memory:"))
    caplog.set_level(logging.INFO, logger="pidor.server.store")
    table = store.new_table("pidor", {}, None)
    disk.full = True
    assert store.game_started(table, 1, []) is None
    store.game_ended(None, {"loser": 0})  # a game without a row: nothing to do
    store.close_table(table)
    assert store.close_open_tables() == 0 and store.close_crashed_games() == 0
    with pytest.raises(StoreError) as refused:
        store.new_player("x")
    assert refused.value.code == "unavailable"
    with pytest.raises(StoreError):
        store.new_table("pidor", {}, None)
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    disk.full = False
    store.seen(1, "x")
    disk.full = True
    store.seen(1, "x")
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING", "ERROR"]
    assert "after 6 failed writes" in caplog.records[1].getMessage()
    assert store.player_count() == 0 and store.games_of(table) == []


# --- item 11: games a crash left open -------------------------------------------------------


def test_games_a_crash_left_open_are_aborted_crash_at_the_next_start(tmp_path, caplog):
    store = Store.in_dir(tmp_path)
    table = store.new_table("pidor", {"players": 3}, None)
    over = store.game_started(table, 1, [], log="1.plog")
    store.game_ended(over, {"loser": 2})
    cut = store.game_started(table, 2, [], log="2.plog")
    store.game_aborted(cut, "shutdown")
    store.game_started(table, 3, [], log="3.plog")  # then kill -9: nothing more is written
    store.close()

    caplog.set_level(logging.INFO, logger="pidor.server")
    restarted = time.time()
    server = Server(Store.in_dir(tmp_path))
    rows = server.store.games_of(table)
    assert [r["aborted"] for r in rows] == [None, "shutdown", "crash"]
    assert rows[0]["result"] == {"loser": 2} and rows[2]["result"] is None
    assert rows[2]["ended"] >= restarted
    assert server.store.table_row(table)["closed"] >= restarted
    assert any("1 games an earlier run left open" in r.getMessage() for r in caplog.records)
    assert server.store.close_crashed_games() == 0  # nothing left open
    server.store.close()


# --- item 12: a game that cannot be logged ---------------------------------------------------


@pytest.mark.parametrize("cause", ["Not a directory", "Too many open files"])
async def test_a_game_that_cannot_be_logged_is_not_started(tmp_path, autojump_clock, monkeypatch, cause):
    """``start`` gets ``no_log`` and changes nothing: the table waits with the same
    commitment and seeds, no game counted, no index row, no event. When logs can be
    written again, the same committed deal is played and logged."""
    good, not_a_directory = tmp_path / "logs", tmp_path / "file"
    not_a_directory.write_bytes(b"")
    out_of_files = False

    def open_log(path, mode="r", *args, **kwargs):
        if out_of_files:
            raise OSError(errno.EMFILE, "Too many open files")
        return open(path, mode, *args, **kwargs)  # noqa: SIM115 - the log closes it

    monkeypatch.setattr(game_log, "open", open_log, raising=False)

    async with serve(seeds="no-log", logs=good) as (server, port):

        def logs_fail(yes: bool) -> None:
            nonlocal out_of_files
            if cause == "Not a directory":
                server.logs = not_a_directory if yes else good
            else:
                out_of_files = yes

        c = await seated_client(port, "host", options={"game": "podkidnoy", "players": 2, "bots": 1})
        assert (await c.request({"type": "seed", "seed": "ab"}))["type"] == "ok"
        runner = server.lobby.tables[c.table]
        for number in (1, 2):
            await c.request({"type": "resync"})  # the table info as it is now
            before = runner.info()
            seq = runner.seq
            logs_fail(True)
            r = await c.request({"type": "start"})
            assert r["type"] == "error" and r["code"] == "no_log", r
            assert cause in r["message"] and "not started" in r["message"]
            assert runner.info() == before and before["state"] == "waiting" and runner.seq == seq
            assert len(server.store.games_of(c.table)) == number - 1
            assert not any(m["type"] == "event" and m["seq"] > seq for m in c.messages)

            logs_fail(False)
            assert (await c.request({"type": "start"}))["type"] == "ok"
            end = (await play_until(c, is_results))["event"]
            assert end["number"] == number and end["deal"]["commitment"] == before["commitment"]
            if number == 1:  # the seed given before the refused start counted for this deal
                assert end["deal"]["seat_seeds"][c.seat] == "ab"
            row = server.store.games_of(c.table)[number - 1]
            assert row["commitment"] == before["commitment"]
            assert verify(read_log(Path(row["log"]).read_bytes())).status == "verified"
        assert sorted(p.name for p in good.iterdir()) == [f"table-{c.table}-game-{n}.plog" for n in (1, 2)]


# --- item 4: pidor serve on a data directory it cannot use -----------------------------------


def full_disk() -> None:
    """In the child: every write that grows a file fails (EFBIG), as on a full disk
    (Python ignores SIGXFSZ, so the write returns an error)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def serve_fails(data: Path, preexec_fn=None) -> list[str]:
    """``pidor serve --data DATA`` in a child process: it must exit 1; its stderr lines."""
    env = {**os.environ, "PIDOR_DATA": ""}
    proc = subprocess.run([sys.executable, "-m", "pidor.cli", "serve", "--port", "0", "--data", str(data)],
                          capture_output=True, text=True, env=env, timeout=60, preexec_fn=preexec_fn)
    assert proc.returncode == 1, proc
    return proc.stderr.splitlines()


def test_serve_on_a_full_disk_says_so_in_one_line(tmp_path):
    [line] = serve_fails(tmp_path / "fresh", full_disk)
    assert line.startswith("Error: cannot keep the store in ") and "disk I/O error" in line
    Store.in_dir(tmp_path / "used").close()  # an existing store: still no start
    [line] = serve_fails(tmp_path / "used", full_disk)
    assert line.startswith("Error: cannot keep the store in ")


def test_serve_where_the_store_or_the_log_directory_cannot_be_made_says_so_in_one_line(tmp_path):
    (tmp_path / "file").write_bytes(b"")
    data = tmp_path / "file" / "data"
    [line] = serve_fails(data)
    assert line == f"Error: cannot keep the store in {data}: Not a directory; give a writable directory with --data (or PIDOR_DATA)"
    (tmp_path / "data" / "pidor.sqlite3").mkdir(parents=True)
    [line] = serve_fails(tmp_path / "data")
    assert line == f"Error: cannot keep the store in {tmp_path / 'data'}: unable to open database file; give a writable directory with --data (or PIDOR_DATA)"
    (tmp_path / "other" / "logs").parent.mkdir()
    (tmp_path / "other" / "logs").write_bytes(b"")
    [line] = serve_fails(tmp_path / "other")
    logs = tmp_path / "other" / "logs"
    assert line == f"Error: cannot write game logs in {logs}: File exists; give a writable directory with --data (or PIDOR_DATA)"


def serve_in_process(monkeypatch, data: Path) -> str:
    """``pidor serve --data DATA`` here (CliRunner): it must stop with exit status 1 before
    the server starts; its stderr."""

    def started(*args, **kwargs):
        raise AssertionError("the server started")

    monkeypatch.setattr(app, "Server", started)
    result = CliRunner().invoke(command.serve, ["--port", "0", "--data", str(data)])
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1, result
    return result.stderr


def test_serve_on_a_store_that_opens_read_only_says_so_in_one_line(tmp_path, monkeypatch):
    """SQLite opens a file it may not write (a read-only file or disk) read-only, and
    reads work: only a write finds out. Permissions do not stop root, who runs the tests,
    so the test opens the file read-only itself."""
    Store.in_dir(tmp_path).close()
    connect_rw = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda path, **kw: connect_rw(f"file:{path}?mode=ro", uri=True, **kw))
    stderr = serve_in_process(monkeypatch, tmp_path)
    assert stderr == f"Error: cannot keep the store in {tmp_path}: attempt to write a readonly database; give a writable directory with --data (or PIDOR_DATA)\n"


def test_serve_where_logs_cannot_be_written_says_so_in_one_line(tmp_path, monkeypatch):
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    stderr = serve_in_process(monkeypatch, tmp_path)
    assert stderr == f"Error: cannot write game logs in {tmp_path / 'logs'}: Read-only file system; give a writable directory with --data (or PIDOR_DATA)\n"
