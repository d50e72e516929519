#!/usr/bin/env python3
"""Benchmark the match server: N concurrent tables, every seat a remote client over TCP.

Starts ``pidor serve`` in a subprocess (a fresh data directory, a free port), opens
``--tables`` tables of ``--players`` seats each, every seat a protocol client in this
process playing random honest options, passing every call window. Each table plays
games back to back for ``--seconds`` after a warm-up. Printed (``--json``: one JSON
object):

* moves/s: accepted ``act`` requests per second, all tables together;
* action round trip: from sending ``act`` to receiving its ``ok`` (p50, p99, max), ms;
* server memory per table: (server RSS while every table plays − RSS of the idle
  server) / tables, from ``/proc/PID/status`` (VmRSS; includes the tables' connections);
* CPU used by the server and by the bench's clients (they share the machine), and moves
  per server CPU-second, a figure that depends less on what else the machine runs.

    python scripts/bench_server.py --tables 100 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time

import trio

from server_load import (Stats, cpu_seconds, free_port, latency_ms, rss_kib, run_table, start_server, stop_server,
                         wait_listening)


async def bench(args) -> dict:
    data = tempfile.mkdtemp(prefix="pidor-bench-")
    runner = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    seats = args.tables * args.players  # one connection each: lift the global cap to fit
    proc = start_server(args.port, data, stderr=subprocess.PIPE, runner=runner,
                        extra=["--max-connections", str(seats + 100)])
    try:
        port = args.port
        if not await wait_listening(proc, port):
            raise SystemExit(f"the server did not start: {proc.stderr.read() if proc.poll() is not None else ''}")
        rss_idle = rss_kib(proc.pid)
        stats = Stats()
        ready = trio.Semaphore(0)
        go, done = trio.Event(), trio.Event()
        async with trio.open_nursery() as nursery:
            for k in range(args.tables):
                nursery.start_soon(run_table, port, k, args, stats, ready, go, done, nursery)
            for _ in range(args.tables):
                await ready.acquire()
            go.set()
            await trio.sleep(args.warmup)
            stats.reset()
            t0 = time.perf_counter()
            cpu0, own0 = cpu_seconds(proc.pid), time.process_time()
            rss_play = []
            for _ in range(max(1, int(args.seconds))):
                await trio.sleep(args.seconds / max(1, int(args.seconds)))
                rss_play.append(rss_kib(proc.pid))
            elapsed = time.perf_counter() - t0
            server_cpu, client_cpu = cpu_seconds(proc.pid) - cpu0, time.process_time() - own0
            moves, rtt, games, errors = stats.moves, stats.rtt, stats.games, stats.errors
            done.set()
            nursery.cancel_scope.cancel()
    finally:
        stop_server(proc)
    return {
        "game": args.game, "tables": args.tables, "players": args.players, "seconds": round(elapsed, 2),
        "moves": moves, "moves_per_s": round(moves / elapsed, 1), "games": games, "errors": errors,
        "rtt_ms": latency_ms(rtt),
        "server_cpu_share": round(server_cpu / elapsed, 2), "client_cpu_share": round(client_cpu / elapsed, 2),
        "moves_per_server_cpu_s": round(moves / server_cpu, 1) if server_cpu else None,
        "load_avg_1min": os.getloadavg()[0],
        "server_rss_idle_kib": rss_idle, "server_rss_play_kib": max(rss_play),
        "memory_per_table_kib": round((max(rss_play) - rss_idle) / args.tables, 1),
        "server_exit": proc.returncode,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="pidor", choices=["pidor", "podkidnoy", "perevodnoy"])
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--port", type=int, default=0, help="server port (0: pick a free one)")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.port == 0:
        args.port = free_port()
    out = trio.run(bench, args)
    if args.json:
        print(json.dumps(out))
        return
    r = out["rtt_ms"]
    print(f"{out['tables']} tables of {out['game']} x{out['players']} remote seats, {out['seconds']} s measured")
    refused = ", ".join(f"{n} {code}" for code, n in sorted(out["errors"].items())) or "none"
    print(f"  moves/s: {out['moves_per_s']}  ({out['moves']} moves, {out['games']} games; refused actions: {refused})")
    print(f"  action round trip: p50 {r['p50']} ms, p99 {r['p99']} ms, max {r['max']} ms")
    print(f"  CPU: server {out['server_cpu_share']:.0%} of a core, bench clients {out['client_cpu_share']:.0%}; "
          f"{out['moves_per_server_cpu_s']} moves per server CPU-second; load average {out['load_avg_1min']:.2f}")
    print(f"  server memory per table: {out['memory_per_table_kib']} KiB "
          f"(RSS {out['server_rss_idle_kib']} KiB idle -> {out['server_rss_play_kib']} KiB playing)")


if __name__ == "__main__":
    main()
