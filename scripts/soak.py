#!/usr/bin/env python3
"""Soak the match server: its memory over many games, then a hostile mix of clients while
normal tables play.

Starts ``pidor serve`` in a subprocess (a fresh data directory, a free port, its warnings
and errors to a file) and runs these phases:

0. games (``--games N``, 0 to skip): N games one after another (``--game-clients`` at
   once), each at a fresh table that closes after it: one remote seat (hello
   ``may_call: false``, random honest play) and built-in bots, the games and seat counts
   in turn. The server's RSS after every tenth of them: a server that keeps something of
   each game grows with them (the goal: RSS after N games within 10% of RSS after N/10);

then it opens ``--tables`` normal tables of remote seats (bench_server.py's clients:
random honest play, every ``act`` timed to its reply) and runs:

1. quiet (``--quiet`` s, after ``--warmup`` s): the normal tables alone, a baseline;
2. lists (``--list-flood`` s, 0 to skip): a lobby of ``--lobby-tables`` waiting six-seat
   tables (pages of 48 KiB), then ``--list-clients`` greedy connections from one address
   each keep ``--list-depth`` ``list`` requests in flight (hostile.py ``--list-flood``, in a
   child process): the normal tables' act round trip under it (the goal: p99 at most
   50 ms, never over 1 s);
3. hostile (``--seconds``): ``--hostile`` hostile clients at once (hostile.py: fuzzed
   frames and requests, oversized and deep frames, slowloris, idle connections, slow
   readers, request floods, connection churn, lobby floods, abrupt disconnects), in a
   child process so that their CPU does not slow the normal tables' clients;
4. after (``--settle`` s): the normal tables alone again, the hostile clients gone.

Then SIGTERM: the server must exit 0 within 15 s. Printed (``--json``: one JSON object):
crashes (the server exited during the soak), unhandled exceptions in its stderr (each
traceback once, grouped by the error), the server's RSS over the games, its RSS, open
files and tables at each step, the normal tables' moves/s and act round trip per phase,
and for each hostile behaviour the error codes its clients received. Exit status 1 and a
FAIL line on a crash, an unhandled exception, an unclean stop or memory that grew with
the games. A server whose RSS passes ``--max-rss`` MiB is killed at once (a failure
too), so that a runaway server cannot take the machine's memory.

The hostile clients connect from 127.0.0.2, the greedy ones from 127.0.0.3, each normal
table from an address of its own in 127.0.1.0/24, each game of phase 0 from one of its own
in 127.3.0.0/16 and each table of the lists phase's lobby from one in 127.4.0.0/16 (all
loopback on Linux), so per-address limits meet only the attacker.

    python scripts/soak.py --seconds 30
    python scripts/soak.py --games 5000 --seconds 0 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import trio

from hostile import BEHAVIOUR_SECONDS
from server_load import (Seat, Stats, cpu_seconds, free_port, latency_ms, rss_kib, run_table, start_server,
                         stop_server, wait_listening)

from pidor import wire  # server_load put the repository on sys.path
from pidor.engine.table import TABLE_DEFAULTS
from pidor.games import GAME_IDS, spec
from pidor.server.testing import Client

#: The lists phase's goal: the normal tables' act round trip p99 (ms) under the flood.
LIST_FLOOD_P99_MS = 50
#: Seconds the server has to exit after SIGTERM.
STOP_SECONDS = 15.0
#: Seconds the normal tables have to sit down before the soak starts.
SETUP_SECONDS = 30.0


async def hostile_child(port: int, args) -> dict:
    """hostile.py in a child process: its tallies."""
    return await _child(port, ["--clients", str(args.hostile), "--seconds", str(args.seconds),
                               "--seed", str(args.seed)], args.seconds + BEHAVIOUR_SECONDS, "hostile clients'")


async def list_flood_child(port: int, args) -> dict:
    """hostile.py's list flood in a child process: its tallies."""
    return await _child(port, ["--list-flood", "--clients", str(args.list_clients), "--depth", str(args.list_depth),
                               "--seconds", str(args.list_flood)], args.list_flood + 10, "list flood's")


async def _child(port: int, options: list[str], seconds: float, whose: str) -> dict:
    cmd = [sys.executable, str(Path(__file__).with_name("hostile.py")), "--port", str(port), *options]
    with trio.move_on_after(seconds):
        done = await trio.run_process(cmd, capture_stdout=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the {whose} process failed (exit status {done.returncode})")
        return json.loads(done.stdout)
    raise SystemExit(f"the {whose} process did not end within {seconds:g} s")


# --- the lists phase: a lobby of large pages ------------------------------------------------------

#: The name of the person at each table of the lists phase's lobby: 32 Cyrillic letters
#: (64 bytes), at tables of six seats (the others bots), so that a page of tables is as
#: large as a page gets (48 KiB).
LOBBY_NAME = "Ж" * 32


async def fill_lobby(port: int, tables: int, game: str) -> list[Client]:
    """``tables`` waiting tables of ``game``, as many seats as it takes (6 at most), each
    of a person of its own (from an address of its own, 127.4.0.0/16) and bots; the
    people's connections (close them to close the tables)."""
    people = []
    for k in range(tables):
        c = Client(await trio.open_tcp_stream("127.0.0.1", port, local_address=f"127.4.{k // 250}.{k % 250 + 1}"))
        people.append(c)
        welcome = await c.hello(LOBBY_NAME)
        assert welcome["type"] == "welcome", welcome
        for players in range(6, 1, -1):  # (the most seats the game takes)
            joined = await c.request({"type": "create", "options": {"game": game, "players": players,
                                                                    "bots": players - 1}})
            if joined.get("code") != "bad_options":
                break
        assert joined["type"] == "joined", joined
    return people


# --- phase 0: memory over many games ------------------------------------------------------------

#: Phase 0's goal: RSS after all its games at most this much above RSS after a tenth of them.
MEMORY_GROWTH = 0.10
#: Seconds one game of phase 0 may take.
GAME_SECONDS = 60.0


def game_address(k: int) -> str:
    """The loopback address game ``k`` of phase 0 comes from: one of its own, as players
    come from many places (one address may create only so many tables a minute)."""
    block = k // 250
    return f"127.{3 + block // 256}.{block % 256}.{k % 250 + 1}"


def game_setup(k: int) -> tuple[str, int]:
    """Game ``k``'s game and seat count: every game in turn, 2 to 4 seats in turn (those of
    them the game takes; a game that takes none: its fewest)."""
    game = GAME_IDS[k % len(GAME_IDS)]
    counts = [n for n in (2, 3, 4) if n in spec(game).players] or [min(spec(game).players)]
    return game, counts[(k // len(GAME_IDS)) % len(counts)]


async def one_game(port: int, k: int, token: str | None, stats: Stats) -> str:
    """Game ``k`` at a fresh table: hello (``may_call: false``; the player's ``token``
    after the first game), create with bots, start, play to the results, leave (the table
    closes). Returns the token."""
    game, players = game_setup(k)
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=game_address(k))
    seat = Seat(stream, stats, random.Random(k))
    with trio.fail_after(GAME_SECONDS):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(seat.reader)
            hello = {"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "soak", "may_call": False}
            if token is not None:
                hello["token"] = token
            welcome = await seat.request(hello)
            assert welcome["type"] == "welcome", welcome
            options = {"game": game, "players": players, "bots": players - 1, "turn_timeout": None}
            joined = await seat.request({"type": "create", "options": options})
            assert joined["type"] == "joined", joined
            seat.seat = joined["seat"]
            started = await seat.request({"type": "start"})
            assert started["type"] == "ok", started
            await seat.game_over.wait()
            left = await seat.request({"type": "leave"})
            assert left["type"] == "ok", left
            await stream.aclose()
            nursery.cancel_scope.cancel()
    return welcome.get("token", token)


async def memory_phase(port: int, args, watch) -> dict:
    """``args.games`` games, ``args.game_clients`` at once; the server's RSS after every
    tenth of them (``watch.sample``), and its growth from the first sample to the last."""
    n = args.games
    every = max(1, n // 10)
    samples: list[dict] = []
    stats = Stats()
    next_game = 0
    done = 0
    t0 = time.perf_counter()

    async def client() -> None:
        nonlocal next_game, done
        token = None
        while next_game < n:
            k, next_game = next_game, next_game + 1
            token = await one_game(port, k, token, stats)
            done += 1
            if done % every == 0 or done == n:
                samples.append({"games": done, "rss_kib": watch.sample().get("rss_kib")})

    async with trio.open_nursery() as nursery:
        for _ in range(min(args.game_clients, n)):
            nursery.start_soon(client)
    seconds = time.perf_counter() - t0
    first, last = samples[0]["rss_kib"], samples[-1]["rss_kib"]
    return {"games": n, "seconds": round(seconds, 1), "games_per_s": round(n / seconds, 1), "moves": stats.moves,
            "samples": samples, "growth": round(last / first - 1, 4) if first and last else None}


# --- the soak ---------------------------------------------------------------------------------


class ServerWatch:
    """The server process: alive, and its RSS, open files and CPU time."""

    def __init__(self, proc) -> None:
        self.proc = proc

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        self.proc.kill()

    @property
    def exit_status(self) -> int | None:
        return self.proc.poll()

    def sample(self) -> dict:
        pid = self.proc.pid
        try:
            return {"rss_kib": rss_kib(pid), "open_files": len(os.listdir(f"/proc/{pid}/fd")),
                    "cpu_s": cpu_seconds(pid)}
        except OSError:  # it just exited
            return {}


async def open_tables(observer: Client | None) -> int | None:
    """The server's count of open tables (``list``'s ``total``), or None."""
    if observer is None:
        return None
    with trio.move_on_after(10):
        try:
            r = await observer.request({"type": "list"})
        except (EOFError, trio.BrokenResourceError, OSError):
            return None
        return r.get("total")
    return None


async def run_phases(port: int, args, watch, hostile, lists=None) -> dict:
    """The normal tables and the phases against a server on ``port``; ``watch``: its
    process (``alive``, ``exit_status``, ``sample``, ``kill``); ``hostile()``: runs the
    hostile mix and returns its tallies; ``lists()``, the list flood (if
    ``args.list_flood``). A server that dies stops everything at once."""
    out: dict = {"steps": {}, "phases": {}, "memory": None, "lists": None, "hostile": None, "crash": None}
    stats = Stats()
    ready, go, done = trio.Semaphore(0), trio.Event(), trio.Event()
    observer = None

    async def step(name: str) -> None:
        out["steps"][name] = {**watch.sample(), "open_tables": await open_tables(observer)}

    async def phase(name: str, seconds: float, until: trio.Event | None = None) -> None:
        stats.reset()
        cpu0, own0, t0 = watch.sample().get("cpu_s"), time.process_time(), trio.current_time()
        peak = 0
        for _ in range(int(seconds / 0.5) + 2):
            left = seconds - (trio.current_time() - t0)
            if left <= 0 or (until is not None and until.is_set()):
                break
            with trio.move_on_after(min(0.5, left)):
                await (trio.sleep_forever() if until is None else until.wait())
            peak = max(peak, watch.sample().get("rss_kib", 0))
        elapsed = trio.current_time() - t0
        cpu1 = watch.sample().get("cpu_s")
        out["phases"][name] = {
            "seconds": round(elapsed, 2), "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
            "games": stats.games, "act_ms": latency_ms(stats.rtt), "refused": dict(stats.errors.most_common()),
            "tables_without_moves": args.tables - len(stats.table_moves),
            "server_cpu_share": round((cpu1 - cpu0) / elapsed, 2) if cpu0 is not None and cpu1 is not None else None,
            "client_cpu_share": round((time.process_time() - own0) / elapsed, 2), "server_rss_peak_kib": peak}

    async def watchdog(cancel: trio.CancelScope) -> None:
        cause = None
        while watch.alive():
            if watch.sample().get("rss_kib", 0) > args.max_rss * 1024:
                cause = f"killed by the soak: its RSS passed {args.max_rss} MiB"
                watch.kill()  # before it takes the machine's memory
                break
            await trio.sleep(0.2)
        for _ in range(50):  # a killed process is reaped at once
            if not watch.alive():
                break
            await trio.sleep(0.02)
        out["crash"] = {"exit_status": watch.exit_status, "phases_done": list(out["phases"]), "cause": cause}
        cancel.cancel()

    async def run(what: str, fn, finished: trio.Event) -> None:
        out[what] = await fn()
        finished.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watchdog, nursery.cancel_scope)
        observer = Client(await trio.open_tcp_stream("127.0.0.1", port))
        await observer.hello("soak-observer")
        await step("start")
        if args.games:
            out["memory"] = await memory_phase(port, args, watch)
            await step("games")
        for k in range(args.tables):
            nursery.start_soon(run_table, port, k, args, stats, ready, go, done, nursery)
        with trio.fail_after(SETUP_SECONDS):
            for _ in range(args.tables):
                await ready.acquire()
        go.set()
        await trio.sleep(args.warmup)  # every table starts its first game at once
        await phase("quiet", args.quiet)
        await step("tables")
        if lists is not None and args.list_flood:
            people = await fill_lobby(port, args.lobby_tables, args.game)
            await step("lobby")
            finished = trio.Event()
            nursery.start_soon(run, "lists", lists, finished)
            await phase("lists", args.list_flood + 10, until=finished)
            await finished.wait()
            await step("lists_end")
            for c in people:
                await c.aclose()
        finished = trio.Event()
        nursery.start_soon(run, "hostile", hostile, finished)
        await phase("hostile", args.seconds + BEHAVIOUR_SECONDS, until=finished)
        await finished.wait()
        out["steps"]["hostile_peak"] = {"rss_kib": out["phases"]["hostile"]["server_rss_peak_kib"]}
        await step("hostile_end")
        await phase("after", args.settle)
        await step("after")
        done.set()
        nursery.cancel_scope.cancel()
    return out


# --- the server's stderr ------------------------------------------------------------------------

LOG_LINE = re.compile(r"^\S+ \S+ (?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?P<logger>\S+): (?P<msg>.*)$")
TRACEBACK = re.compile(r"^(Traceback|  \+ Exception Group Traceback) \(most recent call last\):")
CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
GROUP_PREFIX = re.compile(r"^(?: *\| ?)+")  # the left margin of an exception group's members


def shape(text: str) -> str:
    """A message with its numbers and connection names folded, to group alike lines."""
    return re.sub(r"\d+", "N", re.sub(r"<Connection [^>]*>", "<Connection>", text))


def scan_stderr(text: str) -> dict:
    """Unhandled exceptions in the server's stderr: each traceback once (a chain, or a
    group, of them counts once), with the log line it follows and its final error line;
    an ERROR line saying "failed" with no traceback counts too. Also the log lines per
    level and the most common warnings and errors."""
    incidents: list[dict] = []
    levels: Counter = Counter()
    loud: Counter = Counter()
    current = None  # the incident whose traceback is being read
    last_log = None  # the latest log line: (level, logger, message), and whether a traceback followed it
    prev = ""  # the previous non-blank line (group margins removed)
    prev_was_log = False

    def unexplained_failure() -> None:
        if last_log and not last_log[3] and last_log[0] in ("ERROR", "CRITICAL") and "failed" in last_log[2]:
            incidents.append({"logger": last_log[1], "where": last_log[2], "error": "(no traceback)"})

    for raw in text.splitlines():
        m = LOG_LINE.match(raw)
        if m:
            unexplained_failure()
            current = None
            level = m["level"]
            levels[level] += 1
            if level in ("WARNING", "ERROR", "CRITICAL"):
                loud[level, m["logger"], shape(m["msg"])] += 1
            last_log = [level, m["logger"], m["msg"], False]
            prev, prev_was_log = raw, True
            continue
        line = GROUP_PREFIX.sub("", raw)
        if TRACEBACK.match(raw):
            if current is None or not prev.startswith(CHAINED):
                # log.exception() writes an ERROR line, then the traceback
                follows_log = prev_was_log and last_log[0] in ("ERROR", "CRITICAL")
                if follows_log:
                    last_log[3] = True
                current = {"logger": last_log[1] if follows_log else None,
                           "where": last_log[2] if follows_log else (prev or None), "error": None}
                incidents.append(current)
        elif current is not None and line.strip() and not line[0].isspace() \
                and not line.startswith(("+", "Traceback", "Exception Group Traceback", *CHAINED)):
            current["error"] = line.strip()
        if line.strip():
            prev, prev_was_log = line, False
    unexplained_failure()
    kinds: dict[tuple, dict] = {}
    for inc in incidents:
        key = (inc["logger"], shape(inc["error"] or "?"))
        kind = kinds.setdefault(key, {"count": 0, "logger": inc["logger"], "error": inc["error"],
                                      "example": inc["where"]})
        kind["count"] += 1
    return {"exceptions": len(incidents),
            "kinds": sorted(kinds.values(), key=lambda k: -k["count"]),
            "levels": dict(levels),
            "loudest": [{"count": n, "level": lv, "logger": lg, "message": msg}
                        for (lv, lg, msg), n in loud.most_common(8)]}


# --- verdict and report -------------------------------------------------------------------------


def failures(out: dict) -> list[str]:
    """Why the soak failed: a crash, memory that grows with the games, unhandled
    exceptions, an unclean stop ([] if none)."""
    bad = []
    crash = out["crash"]
    if crash:
        bad.append(f"the server was {crash['cause']}" if crash["cause"] else
                   f"the server died during the soak (exit status {crash['exit_status']})")
    memory = out["memory"]
    if memory and memory["growth"] is not None and memory["growth"] > MEMORY_GROWTH:
        first, last = memory["samples"][0], memory["samples"][-1]
        bad.append(f"the server's RSS grew {memory['growth']:.0%} from {first['games']} to {last['games']} games "
                   f"(at most {MEMORY_GROWTH:.0%} allowed): something of each game stays")
    if out["stderr"]["exceptions"]:
        bad.append(f"{out['stderr']['exceptions']} unhandled exceptions in the server's stderr")
    stop = out["stop"]
    if not crash and (not stop["in_time"] or stop["exit_status"] != 0):
        bad.append(f"the server did not exit 0 within {STOP_SECONDS:g} s of SIGTERM "
                   f"(exit status {stop['exit_status']}, {'in time' if stop['in_time'] else 'killed'})")
    return bad


def _codes(counts: dict) -> str:
    return ", ".join(f"{n} {code}" for code, n in counts.items()) or "none"


def report(out: dict) -> str:
    """The readable summary."""
    a = out["args"]
    lines = [f"soak: {a['hostile']} hostile clients for {a['seconds']:g} s against {a['tables']} tables of "
             f"{a['game']} x{a['players']} (seed {a['seed']}, port {out['port']})"]
    memory = out.get("memory")
    if memory:
        rss = ", ".join(f"{s['games']}: {s['rss_kib'] / 1024:.1f}" for s in memory["samples"])
        growth = "?" if memory["growth"] is None else f"{memory['growth']:+.1%}"
        lines.append(f"games at fresh tables: {memory['games']} in {memory['seconds']} s "
                     f"({memory['games_per_s']} a second); server RSS MiB after games {rss}; growth {growth} "
                     f"(goal: at most {MEMORY_GROWTH:+.0%})")
    names = [n for n in ("quiet", "lists", "hostile", "after") if n in out["phases"]]
    ph = [out["phases"][n] for n in names]
    rows = [("seconds", "seconds"), ("moves/s", "moves_per_s"), ("games", "games"),
            ("tables without a move", "tables_without_moves"), ("server CPU share", "server_cpu_share"),
            ("soak clients' CPU share", "client_cpu_share")]
    lines.append("normal tables".ljust(26) + "".join(n.rjust(12) for n in names))
    for label, key in rows:
        lines.append(f"  {label:<24}" + "".join(f"{p[key]!s:>12}" for p in ph))
    for q in ("p50", "p99", "max"):
        lines.append(f"  {'act round trip ' + q + ' ms':<24}" + "".join(f"{p['act_ms'][q]!s:>12}" for p in ph))
    for n, p in zip(names, ph):
        lines.append(f"  refused in {n}: {_codes(p['refused'])}")
    steps = out["steps"]
    lines.append("server".ljust(26) + "".join(s.rjust(13) for s in steps))
    for label, key in (("RSS KiB", "rss_kib"), ("open files", "open_files"), ("open tables", "open_tables")):
        lines.append(f"  {label:<24}" + "".join(f"{steps[s].get(key, '')!s:>13}" for s in steps))
    if out.get("lists"):
        f = out["lists"]
        lines.append(f"list flood: {a['list_clients']} connections x {a['list_depth']} lists in flight for "
                     f"{a['list_flood']:g} s, {a['lobby_tables']} tables listed: {f['pages']} pages served, refused "
                     f"{_codes(f['refused'])}; {f['bytes'] / 2**20:.1f} MiB read; act round trip p99 "
                     f"{out['phases']['lists']['act_ms']['p99']} ms, max {out['phases']['lists']['act_ms']['max']} ms "
                     f"(goal: p99 at most {LIST_FLOOD_P99_MS} ms, max 1000 ms)")
    if out["hostile"]:
        lines.append("hostile behaviours: runs; error codes received; notes")
        for name, t in out["hostile"].items():
            notes = ", ".join(f"{n} {note}" for note, n in t["notes"].items())
            lines.append(f"  {name:<13} {t['runs']:>5}; {_codes(t['codes'])}" + (f"; {notes}" if notes else ""))
    err = out["stderr"]
    lines.append(f"server stderr: {err['exceptions']} unhandled exceptions; log lines {_codes(err['levels'])}")
    for k in err["kinds"]:
        lines.append(f"  {k['count']}x {k['logger'] or '(no log line)'}: {k['error']}   e.g. after: {k['example']}")
    for w in err["loudest"]:
        lines.append(f"  {w['count']}x {w['level']} {w['logger']}: {w['message']}")
    stop = out["stop"]
    if out["crash"]:
        why = out["crash"]["cause"] or f"exited with status {out['crash']['exit_status']}"
        lines.append(f"CRASH: the server {why}; stderr ends:")
        lines += ["  " + t for t in out["stderr_tail"]]
    else:
        lines.append(f"server stop: exit status {stop['exit_status']} "
                     f"{'within' if stop['in_time'] else 'killed after'} {stop['seconds']} s of SIGTERM")
    if out.get("data"):
        lines.append(f"data kept in {out['data']}")
    lines += [f"FAIL: {why}" for why in out["failures"]] or ["PASS: no crash, no unhandled exception, a clean stop"
                                                               + (", flat memory" if memory else "")]
    return "\n".join(lines)


async def soak(args) -> dict:
    data = tempfile.mkdtemp(prefix="pidor-soak-")
    try:
        out = await soak_in(data, args)
    finally:
        if not args.keep_data:
            shutil.rmtree(data, ignore_errors=True)
    if args.keep_data:
        out["data"] = data
    return out


async def soak_in(data: str, args) -> dict:
    """The soak with the server's store, logs and stderr in ``data``."""
    port = args.port or free_port()
    err_path = Path(data) / "server.stderr"
    with open(err_path, "w") as err:
        proc = start_server(port, data, stderr=err)
    try:
        if not await wait_listening(proc, port):
            raise SystemExit(f"the server did not start:\n{err_path.read_text(errors='replace')}")
        out = await run_phases(port, args, ServerWatch(proc), lambda: hostile_child(port, args),
                               lambda: list_flood_child(port, args))
    finally:
        t0 = time.monotonic()
        in_time = stop_server(proc, STOP_SECONDS)
        stop = {"exit_status": proc.returncode, "in_time": in_time, "seconds": round(time.monotonic() - t0, 2)}
    text = err_path.read_text(errors="replace")
    out.update(args={k: getattr(args, k) for k in ("games", "game_clients", "list_flood", "list_clients", "list_depth",
                                                     "lobby_tables", "seconds", "tables", "hostile", "players", "game",
                                                     "seed", "warmup", "quiet", "settle", "max_rss")},
               port=port, stop=stop, stderr=scan_stderr(text), stderr_tail=text.splitlines()[-20:])
    out["failures"] = failures(out)
    out["ok"] = not out["failures"]
    return out


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000,
                    help="phase 0: games at fresh tables, the server's RSS after each tenth (0: skip it)")
    ap.add_argument("--game-clients", type=int, default=4, help="phase 0: games at once")
    ap.add_argument("--list-flood", type=float, default=10.0, metavar="SECONDS",
                    help="the lists phase: greedy clients keep list requests in flight (0: skip it)")
    ap.add_argument("--list-clients", type=int, default=30, help="the lists phase: connections from one address")
    ap.add_argument("--list-depth", type=int, default=4, help="the lists phase: lists in flight on each connection")
    ap.add_argument("--lobby-tables", type=int, default=100, help="the lists phase: waiting tables to list")
    ap.add_argument("--seconds", type=float, default=30.0, help="the hostile phase")
    ap.add_argument("--tables", type=int, default=20, help="normal tables")
    ap.add_argument("--hostile", type=int, default=50, help="hostile clients at once")
    ap.add_argument("--players", type=int, default=4, help="seats of a normal table")
    ap.add_argument("--game", default=TABLE_DEFAULTS["game"], choices=GAME_IDS, help="the normal tables' game")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of normal tables, not measured")
    ap.add_argument("--quiet", type=float, default=3.0, help="seconds of normal tables alone before")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds of normal tables alone after")
    ap.add_argument("--max-rss", type=int, default=2048, metavar="MIB",
                    help="kill the server (a failure) if its RSS passes this many MiB")
    ap.add_argument("--port", type=int, default=0, help="server port (0: pick a free one)")
    ap.add_argument("--seed", type=int, default=None, help="seed of the hostile mix (default: random)")
    ap.add_argument("--keep-data", action="store_true", help="keep the server's data directory (store, logs, stderr)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.games < 0 or args.game_clients < 1:
        ap.error("--games must be 0 or more, --game-clients 1 or more")
    if args.list_flood < 0 or args.list_clients < 1 or args.list_depth < 1 or args.lobby_tables < 0:
        ap.error("--list-flood must be 0 or more; --list-clients and --list-depth 1 or more, --lobby-tables 0 or more")
    if args.seed is None:
        args.seed = random.randrange(2**32)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    out = trio.run(soak, args)
    print(json.dumps(out) if args.json else report(out))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
