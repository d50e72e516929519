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
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor import wire  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Seat:
    """A lean client: decoder, random honest play, latency samples."""

    def __init__(self, stream, stats: "Stats", rng: random.Random) -> None:
        self.stream = stream
        self.stats = stats
        self.rng = rng
        self.seat = None
        self.table = None
        self.sent_at: dict[int, float] = {}
        self.next_id = 1
        self.replies: dict[int, trio.Event] = {}
        self.reply_msg: dict[int, dict] = {}
        self.game_over = trio.Event()
        self.stop = False
        self.pending: list[bytes] = []
        self.send_lock = trio.StrictFIFOLock()

    def queue(self, msg: dict, reply: bool = True) -> int | None:
        """Queue a request; without ``reply`` it carries no id and gets no ``ok``."""
        rid = None
        if reply:
            rid = self.next_id
            self.next_id += 1
            msg["id"] = rid
        self.pending.append(wire.encode(msg))
        return rid

    async def flush(self) -> None:
        async with self.send_lock:  # the reader and a request may both flush
            if self.pending:
                data, self.pending = b"".join(self.pending), []
                await self.stream.send_all(data)

    async def request(self, msg: dict) -> dict:
        rid = self.queue(msg)
        ev = self.replies[rid] = trio.Event()
        await self.flush()
        await ev.wait()
        return self.reply_msg.pop(rid)

    async def reader(self) -> None:
        # A lean decoder (the server is what is measured): no limits, no checks.
        buf = b""
        unpackb = msgpack.unpackb
        while True:
            data = await self.stream.receive_some(65536)
            if not data:
                return
            buf += data
            pos = 0
            while len(buf) - pos >= 4:
                n = int.from_bytes(buf[pos:pos + 4], "big")
                if len(buf) - pos - 4 < n:
                    break
                self.handle(unpackb(buf[pos + 4:pos + 4 + n]))
                pos += 4 + n
            buf = buf[pos:]
            await self.flush()

    def handle(self, msg: dict) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        if rid is not None:
            t0 = self.sent_at.pop(rid, None)
            if t0 is not None:
                if kind == "ok":
                    self.stats.moves += 1
                    self.stats.rtt.append(time.perf_counter() - t0)
                else:  # in durak several seats act at once: the slower one is refused
                    code = msg.get("code")
                    self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            ev = self.replies.pop(rid, None)
            if ev is not None:
                self.reply_msg[rid] = msg
                ev.set()
            return
        if kind == "turn":
            if self.stop or not msg["options"]:
                return
            action = self.rng.choice(msg["options"])
            rid = self.queue({"type": "act", "action": action})
            self.sent_at[rid] = time.perf_counter()
        elif kind == "event":
            e = msg["event"]
            t = e["type"]
            if t == "window" and self.seat in e["owing"]:
                self.queue({"type": "pass"}, reply=False)
            elif t == "court" and self.seat in e["voters"]:
                self.queue({"type": "vote", "guilty": True}, reply=False)
            elif t == "results":
                self.stats.games += 1
                self.game_over.set()


class Stats:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.moves = self.games = 0
        self.errors: dict[str, int] = {}  # refused actions by error code
        self.rtt: list[float] = []


async def run_table(port: int, k: int, args, stats: Stats, ready: trio.Semaphore, go: trio.Event,
                    done: trio.Event, nursery) -> None:
    seats = []
    for i in range(args.players):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        seat = Seat(stream, stats, random.Random(k * 100 + i))
        nursery.start_soon(seat.reader)
        welcome = await seat.request({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": f"t{k}s{i}"})
        assert welcome["type"] == "welcome", welcome
        seats.append(seat)
    options = {"game": args.game, "players": args.players, "turn_timeout": None}
    joined = await seats[0].request({"type": "create", "options": options})
    assert joined["type"] == "joined", joined
    table = joined["table"]["id"]
    seats[0].seat = joined["seat"]
    for seat in seats[1:]:
        r = await seat.request({"type": "join", "table": table})
        assert r["type"] == "joined", r
        seat.seat = r["seat"]
    ready.release()
    await go.wait()
    while not done.is_set():
        for seat in seats:
            seat.game_over = trio.Event()
        r = await seats[0].request({"type": "start"})
        assert r["type"] == "ok", r
        await seats[0].game_over.wait()
    for seat in seats:
        seat.stop = True


async def bench(args) -> dict:
    data = tempfile.mkdtemp(prefix="pidor-bench-")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runner = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    seats = args.tables * args.players
    # Every seat connects from 127.0.0.1: lift the per-address limits (flood protection).
    limits = ["--max-connections", str(seats + 100), "--max-per-address", str(seats + 100),
              "--max-tables-per-address", str(args.tables), "--tables-per-minute", str(args.tables),
              "--players-per-minute", str(seats)]
    proc = subprocess.Popen(
        [sys.executable, *runner, "-m", "pidor.cli", "serve", "--port", str(args.port),
         "--data", data, "--log-level", "warning", *limits],
        env=env, stderr=subprocess.PIPE, text=True)
    try:
        port = args.port
        deadline = time.monotonic() + 10
        while True:
            try:
                s = await trio.open_tcp_stream("127.0.0.1", port)
                await s.aclose()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit(f"the server did not start: {proc.stderr.read() if proc.poll() is not None else ''}")
                await trio.sleep(0.1)
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
            moves, rtt, games, errors = stats.moves, sorted(stats.rtt), stats.games, stats.errors
            done.set()
            nursery.cancel_scope.cancel()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    q = statistics.quantiles(rtt, n=100) if len(rtt) >= 100 else [float("nan")] * 99
    return {
        "game": args.game, "tables": args.tables, "players": args.players, "seconds": round(elapsed, 2),
        "moves": moves, "moves_per_s": round(moves / elapsed, 1), "games": games, "errors": errors,
        "rtt_ms": {"p50": round(q[49] * 1000, 2), "p99": round(q[98] * 1000, 2),
                   "max": round(rtt[-1] * 1000, 2) if rtt else None},
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
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
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
