"""scripts/soak.py: its stderr scanner and verdict on canned input, and its phases and
hostile mix (scripts/hostile.py) against an in-process server on trio's mock clock. (The
whole soak, with a real server process, needs real time: run the script.)"""

from __future__ import annotations

import io
import logging
import sys
import traceback
from argparse import Namespace
from pathlib import Path

import pytest
import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import hostile  # noqa: E402
import soak  # noqa: E402

from server_helpers import serve  # noqa: E402

from pidor.games import GAME_IDS  # noqa: E402

# The format of ``pidor serve``'s log lines (pidor/server/command.py).
SERVER_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def server_log() -> tuple[io.StringIO, logging.Handler]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(SERVER_FORMAT))
    return out, handler


def logged(fn) -> str:
    """What the server's stderr holds after ``fn(loggers)``: real log lines, real tracebacks."""
    out, handler = server_log()
    loggers = {}
    for name in ("pidor.server.runner", "pidor.server.connection", "pidor.server.game_log"):
        log = loggers[name.rsplit(".", 1)[1]] = logging.getLogger(f"soaktest.{name}")
        log.handlers, log.propagate, log.level = [handler], False, logging.INFO
    fn(loggers)
    return out.getvalue().replace("soaktest.", "")


def crash_in_table(log, table: int) -> None:
    try:
        {}[[table]] = 1  # TypeError: unhashable type: 'list'
    except Exception:
        log.exception("table %s failed; closing it", table)


def test_a_logged_exception_counts_once_per_incident_grouped_by_its_error():
    def run(logs):
        logs["connection"].info("player 1 (p) connected from 127.0.0.1:5")
        crash_in_table(logs["runner"], 7)
        logs["connection"].warning("<Connection 127.0.0.2:4 player=3> dropped: the peer is gone")
        crash_in_table(logs["runner"], 12)
        logs["connection"].warning("<Connection 127.0.0.2:9 player=8> dropped: the peer is gone")

    scan = soak.scan_stderr(logged(run))
    assert scan["exceptions"] == 2
    assert scan["kinds"] == [{"count": 2, "logger": "pidor.server.runner",
                              "error": "TypeError: unhashable type: 'list'", "example": "table 7 failed; closing it"}]
    assert scan["levels"] == {"INFO": 1, "WARNING": 2, "ERROR": 2}
    assert {"count": 2, "level": "WARNING", "logger": "pidor.server.connection",
            "message": "<Connection> dropped: the peer is gone"} in scan["loudest"]


def test_a_chain_of_exceptions_counts_once_with_the_last_error():
    def run(logs):
        try:
            try:
                raise OSError("database or disk is full")
            except OSError:
                raise RuntimeError("cannot close the table")
        except RuntimeError:
            logs["connection"].exception("<Connection 127.0.0.1:1 player=1> failed")

    text = logged(run)
    assert "During handling of the above exception" in text
    scan = soak.scan_stderr(text)
    assert scan["exceptions"] == 1
    assert scan["kinds"][0]["error"] == "RuntimeError: cannot close the table"


def test_an_exception_group_reaching_the_top_counts_once():
    try:
        raise ExceptionGroup("Exceptions from Trio nursery", [OverflowError("int too big to convert")])
    except ExceptionGroup as group:
        text = "".join(traceback.format_exception(group))
    scan = soak.scan_stderr("2026-01-01 00:00:00,000 INFO pidor.server: listening\n" + text)
    assert scan["exceptions"] == 1
    assert scan["kinds"][0]["logger"] is None
    assert scan["kinds"][0]["error"] == "OverflowError: int too big to convert"


def test_a_bare_traceback_after_log_lines_is_not_blamed_on_them():
    def run(logs):
        logs["connection"].warning("<Connection 127.0.0.2:4 player=3> dropped: the peer is gone")

    try:
        raise MemoryError()
    except MemoryError as e:
        crash = "".join(traceback.format_exception(e))
    scan = soak.scan_stderr(logged(run) + crash)
    assert scan["exceptions"] == 1
    assert scan["kinds"][0]["logger"] is None and scan["kinds"][0]["error"] == "MemoryError"


def test_warnings_and_reported_errors_are_not_exceptions_but_a_failure_without_traceback_is():
    def run(logs):
        logs["connection"].warning("<Connection 127.0.0.2:4 player=3> dropped: over 1048576 bytes wait to be sent")
        logs["game_log"].error("table 3, game 1: disk full; the game goes on, its log stays unfinished")
        logs["runner"].error("table 4 failed; closing it")

    scan = soak.scan_stderr(logged(run))
    assert scan["exceptions"] == 1
    assert scan["kinds"] == [{"count": 1, "logger": "pidor.server.runner", "error": "(no traceback)",
                              "example": "table 4 failed; closing it"}]


def canned(**changes) -> dict:
    """A soak result as ``soak()`` returns it, clean unless ``changes`` say otherwise."""
    phase = {"seconds": 3.0, "moves": 3000, "moves_per_s": 1000.0, "games": 10,
             "act_ms": {"p50": 1.0, "p99": 5.0, "max": 9.0}, "refused": {}, "tables_without_moves": 0,
             "server_cpu_share": 0.3, "client_cpu_share": 0.3, "server_rss_peak_kib": 31000}
    step = {"rss_kib": 30000, "open_files": 14, "cpu_s": 1.0, "open_tables": 20}
    out = {"args": {"seconds": 30.0, "tables": 20, "hostile": 50, "players": 4, "game": "pidor", "seed": 1,
                    "warmup": 2.0, "quiet": 3.0, "settle": 5.0, "max_rss": 2048, "list_flood": 10.0,
                    "list_clients": 30, "list_depth": 4, "lobby_tables": 100},
           "port": 7777, "steps": {"start": step, "tables": step, "hostile_end": step, "after": step},
           "phases": {"quiet": phase, "lists": phase, "hostile": phase, "after": phase},
           "lists": {"pages": 139, "refused": {"rate_limited": 600}, "bytes": 6 * 2**20, "no_hello": 0},
           "memory": {"games": 1000, "seconds": 40.0, "games_per_s": 25.0, "moves": 50000, "growth": 0.009,
                      "samples": [{"games": 100 * k, "rss_kib": 34000 + 30 * k} for k in range(1, 11)]},
           "hostile": {"deep": {"runs": 3, "codes": {"too_deep": 3}, "notes": {"closed by the server": 3}}},
           "crash": None, "stop": {"exit_status": 0, "in_time": True, "seconds": 0.1},
           "stderr": soak.scan_stderr(""), "stderr_tail": []}
    out.update(changes)
    return out


def test_a_clean_soak_passes():
    out = canned()
    assert soak.failures(out) == []
    out["failures"] = []
    text = soak.report(out)
    assert text.splitlines()[-1] == "PASS: no crash, no unhandled exception, a clean stop, flat memory"
    assert "deep" in text and "3 too_deep" in text
    assert "1000: 33.5; growth +0.9%" in text
    assert ("list flood: 30 connections x 4 lists in flight for 10 s, 100 tables listed: 139 pages served, refused "
            "600 rate_limited; 6.0 MiB read; act round trip p99 5.0 ms, max 9.0 ms") in text


def test_memory_that_grows_with_the_games_fails():
    memory = canned()["memory"]
    memory["growth"] = 0.25
    assert soak.failures(canned(memory=memory)) == [
        "the server's RSS grew 25% from 100 to 1000 games (at most 10% allowed): something of each game stays"]


def test_a_crash_an_exception_and_an_unclean_stop_each_fail():
    scan = soak.scan_stderr(logged(lambda logs: crash_in_table(logs["runner"], 5)))
    assert soak.failures(canned(stderr=scan)) == ["1 unhandled exceptions in the server's stderr"]
    unclean = canned(stop={"exit_status": -9, "in_time": False, "seconds": 15.0})
    assert len(soak.failures(unclean)) == 1 and "did not exit 0" in soak.failures(unclean)[0]
    crashed = canned(crash={"exit_status": 1, "phases_done": ["quiet"], "cause": None},
                     stop={"exit_status": 1, "in_time": True, "seconds": 0.0},
                     stderr_tail=["Traceback (most recent call last):", "MemoryError"])
    crashed["failures"] = soak.failures(crashed)
    assert crashed["failures"] == ["the server died during the soak (exit status 1)"]
    text = soak.report(crashed)
    assert "CRASH" in text and "  MemoryError" in text
    assert text.splitlines()[-1] == "FAIL: the server died during the soak (exit status 1)"


@pytest.mark.slow
async def test_every_hostile_behaviour_runs_and_meets_the_framing_errors(autojump_clock):
    async with serve() as (server, port):
        tallies = await hostile.hostile_mix(port, len(hostile.BEHAVIOURS), 20.0, seed=7)
    assert set(tallies) == set(hostile.BEHAVIOURS)
    assert all(t["runs"] >= 1 for t in tallies.values()), tallies
    # Refused at the framing layer (or, past the per-address cap, at the door).
    door = {"server_full", "rate_limited"}
    assert set(tallies["oversized"]["codes"]) - door <= {"frame_too_large", "too_large"}
    assert tallies["oversized"]["codes"].get("frame_too_large", 0) + tallies["oversized"]["codes"].get("too_large", 0) >= 1
    assert set(tallies["deep"]["codes"]) - door == {"too_deep"}
    assert "hello_timeout" in tallies["idle"]["codes"]


class Watch:
    """A stand-in for the server process: it dies at ``dies_at`` (mock clock); from
    ``grows_at`` its RSS is 3 GiB."""

    exit_status = -9

    def __init__(self, dies_at: float = float("inf"), grows_at: float = float("inf")) -> None:
        self.dies_at, self.grows_at = dies_at, grows_at
        self.killed = False

    def alive(self) -> bool:
        return trio.current_time() < self.dies_at and not self.killed

    def kill(self) -> None:
        self.killed = True

    def sample(self) -> dict:
        rss = 3 * 1024 * 1024 if trio.current_time() >= self.grows_at else 30000
        return {"rss_kib": rss, "open_files": 12, "cpu_s": trio.current_time() / 10}


ARGS = Namespace(games=0, list_flood=0, tables=0, players=3, game="pidor", warmup=1.0, quiet=2.0, seconds=10.0,
                 settle=3.0, max_rss=2048)


async def hostile_for(seconds: float) -> dict:
    await trio.sleep(seconds)
    return {"idle": {"runs": 1, "codes": {}, "notes": {}}}


async def test_the_phases_run_in_turn_and_sample_the_server(autojump_clock):
    async with serve() as (server, port):
        t0 = trio.current_time()
        out = await soak.run_phases(port, ARGS, Watch(), lambda: hostile_for(6.0))
    assert list(out["phases"]) == ["quiet", "hostile", "after"]
    assert [p["seconds"] for p in out["phases"].values()] == [2.0, 6.0, 3.0]
    assert trio.current_time() - t0 < 13
    assert list(out["steps"]) == ["start", "tables", "hostile_peak", "hostile_end", "after"]
    assert out["steps"]["after"]["open_tables"] == 0 and out["steps"]["after"]["rss_kib"] == 30000
    assert out["phases"]["hostile"]["server_cpu_share"] == 0.1
    assert out["hostile"] == {"idle": {"runs": 1, "codes": {}, "notes": {}}} and out["crash"] is None


@pytest.mark.slow
async def test_the_games_phase_plays_each_game_at_a_fresh_table_and_samples_the_rss(autojump_clock):
    """Phase 0: every game at a table of its own, from an address of its own, which closes
    after it; the server's RSS after each tenth of the games."""
    async with serve() as (server, port):
        out = await soak.memory_phase(port, Namespace(games=20, game_clients=3), Watch())
        assert server.lobby.tables == {}
        games = server.store.db.execute("SELECT COUNT(*) FROM games WHERE ended IS NOT NULL").fetchone()[0]
    assert games == 20 and out["games"] == 20 and out["moves"] > 20
    assert out["samples"] == [{"games": 2 * k, "rss_kib": 30000} for k in range(1, 11)]
    assert out["growth"] == 0.0
    assert {soak.game_setup(k)[0] for k in range(20)} == set(GAME_IDS)
    assert len({soak.game_address(k) for k in range(100_000)}) == 100_000


async def test_the_lists_phase_lists_a_lobby_of_tables_while_the_flood_runs(autojump_clock):
    async with serve() as (server, port):
        args = Namespace(**{**vars(ARGS), "list_flood": 4.0, "lobby_tables": 3})
        out = await soak.run_phases(port, args, Watch(), lambda: hostile_for(6.0), lambda: hostile_for(4.0))
    assert list(out["phases"]) == ["quiet", "lists", "hostile", "after"]
    assert out["phases"]["lists"]["seconds"] == 4.0
    assert out["steps"]["lobby"]["open_tables"] == 3 and out["steps"]["after"]["open_tables"] == 0
    assert out["lists"] == {"idle": {"runs": 1, "codes": {}, "notes": {}}}


async def test_the_list_flood_keeps_lists_in_flight_and_meets_the_rates(autojump_clock):
    """hostile.py --list-flood: each greedy connection keeps its lists in flight; the
    server serves a connection's and an address's pages a minute, refuses the rest."""
    async with serve() as (server, port):
        out = await hostile.list_flood(port, 3, 4, 20.0)
    limits = server.limits
    assert out["no_hello"] == 0 and set(out["refused"]) == {"rate_limited"}
    assert 3 * limits.CONNECTION_LISTS_PER_MINUTE <= out["pages"] <= 3 * limits.CONNECTION_LISTS_PER_MINUTE * 4 / 3 + 3
    assert out["bytes"] > 0


async def test_a_server_that_dies_is_a_crash_and_ends_the_soak_at_once(autojump_clock):
    async with serve() as (server, port):
        t0 = trio.current_time()
        out = await soak.run_phases(port, ARGS, Watch(dies_at=t0 + 5.0), lambda: hostile_for(6.0))
    assert out["crash"] == {"exit_status": -9, "phases_done": ["quiet"], "cause": None}
    assert 5.0 <= trio.current_time() - t0 < 5.5
    assert "hostile" not in out["phases"] and out["hostile"] is None


async def test_a_server_whose_memory_runs_away_is_killed_and_fails_the_soak(autojump_clock):
    async with serve() as (server, port):
        t0 = trio.current_time()
        watch = Watch(grows_at=t0 + 7.0)
        out = await soak.run_phases(port, ARGS, watch, lambda: hostile_for(6.0))
    assert watch.killed and 7.0 <= trio.current_time() - t0 < 7.5
    assert out["crash"] == {"exit_status": -9, "phases_done": ["quiet"],
                            "cause": "killed by the soak: its RSS passed 2048 MiB"}
    out.update(stop={"exit_status": -9, "in_time": True, "seconds": 0.0}, stderr=soak.scan_stderr(""))
    assert soak.failures(out) == ["the server was killed by the soak: its RSS passed 2048 MiB"]
