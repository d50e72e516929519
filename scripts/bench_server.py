#!/usr/bin/env python3
"""Benchmark the match server: N concurrent tables, every seat a remote client over TCP.

Starts ``pidor serve`` in a subprocess (a fresh data directory, a free port) and
``--client-procs`` client processes that share ``--tables`` tables of ``--players``
seats each among them, every seat a protocol client playing random honest options,
passing every call window. Each table plays games back to back for ``--seconds`` after
a warm-up. Two loads:

* closed loop (the default): a seat acts the moment its turn comes, so the tables move
  as fast as the server answers: the server's capacity (moves/s). The round trip then
  grows with the tables (each waits its turn behind the others): it is no latency figure.
* paced (``--move-every S``): a seat thinks 0.5..1.5 × S seconds (uniform) before each
  act, as bots with a think time or people would; each table makes about one move every
  S seconds. The round trip is then the server's latency under that load.

Printed (``--json``: one JSON object):

* moves/s: accepted ``act`` requests per second, all tables together;
* action round trip: from sending ``act`` to receiving its ``ok`` (p50, p99, max), ms;
* server CPU per move: the server process's CPU time (user + system, ``/proc/PID/stat``)
  over the moves, in µs: the figure that depends least on what else the machine runs
  (the clients and other work share its cores; see the load average);
* server memory per table: (server RSS while every table plays − RSS of the idle
  server) / tables, from ``/proc/PID/status`` (VmRSS; includes the tables' connections).

    python scripts/bench_server.py --tables 100 --seconds 20
    python scripts/bench_server.py --tables 1000 --client-procs 2 --move-every 2 --json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import trio

from server_load import (Stats, cpu_seconds, free_port, latency_ms, rss_kib, run_table, start_server, stop_server,
                         wait_listening)

from pidor.engine.table import TABLE_DEFAULTS
from pidor.games import GAME_IDS, spec


#: ``python -c PROFILE FILE -m pidor.cli serve ...``: the server under cProfile, timed by
#: the process's CPU clock (a wall clock would charge it the time other processes ran).
PROFILE = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], sys.argv[3:]
profiler = cProfile.Profile(time.process_time)
try:
    profiler.runcall(runpy.run_module, sys.argv[0], run_name="__main__", alter_sys=True)
finally:
    profiler.dump_stats(out)
"""


# --- a client process: its share of the tables, driven by lines on stdin ---------------------


async def worker(args) -> None:
    """Tables ``args.worker`` .. ``args.worker + args.tables - 1``. Prints ``ready`` once
    every seat sits; then reads ``go`` (play), ``reset`` (the measurement starts) and
    ``stop`` (print the figures as one JSON line and end)."""
    stats = Stats()
    ready = trio.Semaphore(0)
    go, done = trio.Event(), trio.Event()

    async def line() -> str:
        return (await trio.to_thread.run_sync(sys.stdin.readline)).strip()

    async with trio.open_nursery() as nursery:
        for k in range(args.worker, args.worker + args.tables):
            nursery.start_soon(run_table, args.port, k, args, stats, ready, go, done, nursery)
        for _ in range(args.tables):
            await ready.acquire()
        print("ready", flush=True)
        await line()  # go
        go.set()
        await line()  # reset
        stats.reset()
        cpu0 = time.process_time()
        await line()  # stop
        print(json.dumps({"moves": stats.moves, "games": stats.games, "errors": dict(stats.errors),
                          "rtt": stats.rtt, "cpu": time.process_time() - cpu0}), flush=True)
        done.set()
        nursery.cancel_scope.cancel()


# --- the bench: the server, the client processes, the figures ----------------------------------


def start_clients(args) -> list[subprocess.Popen]:
    """``args.client_procs`` processes, the tables shared out as evenly as may be."""
    procs, first = [], 0
    for i in range(args.client_procs):
        n = args.tables // args.client_procs + (i < args.tables % args.client_procs)
        cmd = [sys.executable, __file__, "--worker", str(first), "--tables", str(n), "--port", str(args.port),
               "--players", str(args.players), "--game", args.game, "--move-every", str(args.move_every)]
        procs.append(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        first += n
    return procs


def tell(procs: list[subprocess.Popen], word: str) -> None:
    for p in procs:
        p.stdin.write(word + "\n")
        p.stdin.flush()


def bench(args) -> dict:
    data = tempfile.mkdtemp(prefix="pidor-bench-")
    runner = ["-c", PROFILE, args.profile] if args.profile else []
    seats = args.tables * args.players  # one connection each: lift the global cap to fit
    proc = start_server(args.port, data, stderr=subprocess.PIPE, runner=runner,
                        extra=["--max-connections", str(seats + 100)])
    clients: list[subprocess.Popen] = []
    try:
        if not trio.run(wait_listening, proc, args.port):
            raise SystemExit(f"the server did not start: {proc.stderr.read() if proc.poll() is not None else ''}")
        rss_idle = rss_kib(proc.pid)
        clients = start_clients(args)
        for p in clients:
            if p.stdout.readline().strip() != "ready":
                raise SystemExit("a client process failed to seat its tables (see its error above)")
        tell(clients, "go")
        time.sleep(args.warmup)
        tell(clients, "reset")
        t0 = time.perf_counter()
        cpu0 = cpu_seconds(proc.pid)
        rss_play = []
        for _ in range(max(1, int(args.seconds))):
            time.sleep(args.seconds / max(1, int(args.seconds)))
            rss_play.append(rss_kib(proc.pid))
        tell(clients, "stop")
        elapsed = time.perf_counter() - t0
        server_cpu = cpu_seconds(proc.pid) - cpu0
        load = os.getloadavg()[0]
        parts = [json.loads(p.stdout.readline()) for p in clients]
    finally:
        for p in clients:
            p.stdin.close()
            p.wait()
        stop_server(proc)
    moves = sum(r["moves"] for r in parts)
    errors = Stats().errors
    for r in parts:
        errors.update(r["errors"])
    return {
        "game": args.game, "tables": args.tables, "players": args.players, "client_procs": args.client_procs,
        "load": "closed loop" if not args.move_every else f"paced: each act after 0.5..1.5 x {args.move_every:g} s",
        "move_every_s": args.move_every or None, "seconds": round(elapsed, 2),
        "moves": moves, "moves_per_s": round(moves / elapsed, 1), "games": sum(r["games"] for r in parts),
        "errors": dict(errors),
        "rtt_ms": latency_ms([x for r in parts for x in r["rtt"]]),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "client_cpu_share": round(sum(r["cpu"] for r in parts) / elapsed, 2),
        "server_cpu_us_per_move": round(server_cpu / moves * 1e6, 1) if moves else None,
        "load_avg_1min": load,
        "server_rss_idle_kib": rss_idle, "server_rss_play_kib": max(rss_play),
        "memory_per_table_kib": round((max(rss_play) - rss_idle) / args.tables, 1),
        "server_exit": proc.returncode,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--players", type=int, default=4, help="seats a table, as many as the game allows (default 4)")
    ap.add_argument("--game", default=TABLE_DEFAULTS["game"], choices=GAME_IDS,
                    help=f"the tables' game (default {TABLE_DEFAULTS['game']}; `pidor games` lists them)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--client-procs", type=int, default=None, metavar="N",
                    help="client processes sharing the tables (default 2, or 1 for one table)")
    ap.add_argument("--move-every", type=float, default=0.0, metavar="S",
                    help="paced load: each seat thinks 0.5..1.5 x S seconds before each act "
                         "(default 0: closed loop, act at once)")
    ap.add_argument("--port", type=int, default=0, help="server port (0: pick a free one)")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile (CPU time), stats to FILE")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--worker", type=int, metavar="FIRST", help=argparse.SUPPRESS)  # a client process
    args = ap.parse_args()
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.move_every < 0:
        ap.error("--tables ≥ 1, --seconds > 0, --warmup ≥ 0 and --move-every ≥ 0")
    if args.players not in spec(args.game).players:
        ap.error(f"{args.game} is played by {', '.join(map(str, spec(args.game).players))} players, not {args.players}")
    if args.client_procs is None:
        args.client_procs = min(2, args.tables)
    if not 1 <= args.client_procs <= args.tables:
        ap.error(f"--client-procs must be 1..{args.tables} (the tables are shared out among them)")
    if args.worker is not None:
        trio.run(worker, args)
        return
    if args.port == 0:
        args.port = free_port()
    out = bench(args)
    if args.json:
        print(json.dumps(out))
        return
    r = out["rtt_ms"]
    print(f"{out['tables']} tables of {out['game']} x{out['players']} remote seats, {out['client_procs']} client "
          f"processes, {out['load']}; {out['seconds']} s measured")
    refused = ", ".join(f"{n} {code}" for code, n in sorted(out["errors"].items())) or "none"
    print(f"  moves/s: {out['moves_per_s']}  ({out['moves']} moves, {out['games']} games; refused actions: {refused})")
    print(f"  action round trip: p50 {r['p50']} ms, p99 {r['p99']} ms, max {r['max']} ms")
    print(f"  server CPU: {out['server_cpu_us_per_move']} µs per move, {out['server_cpu_share']:.0%} of a core; "
          f"clients {out['client_cpu_share']:.0%}; load average {out['load_avg_1min']:.2f}")
    print(f"  server memory per table: {out['memory_per_table_kib']} KiB "
          f"(RSS {out['server_rss_idle_kib']} KiB idle -> {out['server_rss_play_kib']} KiB playing)")


if __name__ == "__main__":
    main()
