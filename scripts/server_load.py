"""Shared by bench_server.py and soak.py: ``pidor serve`` in a subprocess, and tables of
remote seats over TCP that play random honest actions and time each action's round trip.

    proc = start_server(port, data_dir, stderr=subprocess.PIPE)
    if not await wait_listening(proc, port): ...
    nursery.start_soon(run_table, port, k, args, stats, ready, go, done, nursery)
    ...
    stop_server(proc)
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import msgpack
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor import wire  # noqa: E402

# --- the server process --------------------------------------------------------------


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


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (``pidor serve`` reports its port only in an
    info log line, which the benchmarks turn off: logging every connection costs)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: str, *, stderr, runner: list[str] | tuple = (),
                 extra: list[str] | tuple = ()) -> subprocess.Popen:
    """``pidor serve`` on 127.0.0.1:``port`` with its store and logs in ``data``, warnings
    and worse to ``stderr``; ``runner``: arguments before ``-m`` (a profiler); ``extra``:
    more ``serve`` options."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, *runner, "-m", "pidor.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", data, "--log-level", "warning", *extra],
        env=env, stderr=stderr, text=True)


async def wait_listening(proc: subprocess.Popen, port: int, timeout: float = 10.0) -> bool:
    """Wait until the server accepts a connection; False if it exited or ``timeout`` passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            s = await trio.open_tcp_stream("127.0.0.1", port)
        except OSError:
            await trio.sleep(0.1)
            continue
        await s.aclose()
        return True
    return False


def stop_server(proc: subprocess.Popen, timeout: float = 10.0) -> bool:
    """SIGTERM, then SIGKILL after ``timeout``; True if it exited by itself in time."""
    if proc.poll() is not None:
        return True
    proc.terminate()
    try:
        proc.wait(timeout)
        return True
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return False


def latency_ms(rtt: list[float]) -> dict:
    """p50, p99 and max of round trips in seconds, as ms (p50/p99 need 100 samples, else None)."""
    q = statistics.quantiles(rtt, n=100) if len(rtt) >= 100 else None
    return {"p50": round(q[49] * 1000, 2) if q else None, "p99": round(q[98] * 1000, 2) if q else None,
            "max": round(max(rtt) * 1000, 2) if rtt else None}


# --- tables of remote seats ------------------------------------------------------------


class Seat:
    """A lean client: decoder, random honest play, latency samples.

    Every ``act``, ``pass`` and ``vote`` names the ``seq`` of the latest ``turn``, ``event``
    or ``snapshot`` seen when it was chosen; a refused act (``stale``, or in durak a seat
    that was slower) is only counted: the server sends the next ``turn``. An act refused
    with ``busy`` never reached the table, so no turn comes again: it is sent again, and
    its round trip counts from the first send."""

    def __init__(self, stream, stats: "Stats", rng: random.Random, table_no: int = 0, think: float = 0.0,
                 nursery=None) -> None:
        self.stream = stream
        self.think = think  # mean seconds before each act (0: at once); needs ``nursery``
        self.nursery = nursery
        self.choice: dict | None = None  # a paced seat's act, chosen from the latest turn
        self.stats = stats
        self.rng = rng
        self.table_no = table_no
        self.seat = None
        self.seq = 0
        self.sent_at: dict[int, tuple[float, dict]] = {}  # act id -> (first sent, the act)
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

    def act(self, msg: dict, t0: float) -> None:
        self.sent_at[self.queue(msg)] = (t0, msg)

    async def flush(self) -> None:
        async with self.send_lock:  # the reader and a request may both flush
            if self.pending:
                data, self.pending = b"".join(self.pending), []
                try:
                    await self.stream.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass  # the server closed the connection: the reader ends

    async def act_later(self) -> None:
        """A paced seat: think 0.5..1.5 × ``think`` seconds (uniform), then act on the
        latest turn; the round trip counts from the send."""
        await trio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        act, self.choice = self.choice, None
        if not self.stop:
            self.act(act, time.perf_counter())
            await self.flush()

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
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return
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
            sent = self.sent_at.pop(rid, None)
            if sent is not None:
                if kind == "ok":
                    self.stats.moves += 1
                    self.stats.table_moves[self.table_no] += 1
                    self.stats.rtt.append(time.perf_counter() - sent[0])
                else:
                    code = msg.get("code")
                    self.stats.errors[code] += 1
                    if code == "busy":
                        self.act(sent[1], sent[0])
            ev = self.replies.pop(rid, None)
            if ev is not None:
                self.reply_msg[rid] = msg
                ev.set()
            return
        if kind in ("turn", "event", "snapshot"):
            self.seq = msg["seq"]
        if kind == "turn":
            if self.stop or not msg["options"]:
                return
            act = {"type": "act", "action": self.rng.choice(msg["options"]), "seq": self.seq}
            if not self.think:
                self.act(act, time.perf_counter())
            else:  # one act per think: a turn that comes meanwhile replaces its choice
                if self.choice is None:
                    self.nursery.start_soon(self.act_later)
                self.choice = act
        elif kind == "event":
            e = msg["event"]
            t = e["type"]
            if t == "window" and self.seat in e["owing"]:
                self.queue({"type": "pass", "seq": self.seq}, reply=False)
            elif t == "court" and self.seat in e["voters"]:
                self.queue({"type": "vote", "guilty": True, "seq": self.seq}, reply=False)
            elif t == "results":
                self.stats.games += 1
                self.game_over.set()


class Stats:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.moves = self.games = 0
        self.errors: Counter = Counter()  # refused requests (acts, starts) by error code
        self.rtt: list[float] = []
        self.table_moves: Counter = Counter()  # accepted acts per table number


async def run_table(port: int, k: int, args, stats: Stats, ready: trio.Semaphore, go: trio.Event,
                    done: trio.Event, nursery) -> None:
    """Table number ``k``: ``args.players`` seats of ``args.game``, no turn clock; plays
    games back to back from ``go`` until ``done``, each seat thinking ``args.move_every``
    seconds on average before it acts (if given; else it acts at once). Its seats connect from an address of
    its own (Linux routes all of 127.0.0.0/8 to loopback): as players would, from many
    places, whatever a server's per-address limits."""
    seats = []
    for i in range(args.players):
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=f"127.0.1.{k % 250 + 1}")
        seat = Seat(stream, stats, random.Random(k * 100 + i), k, getattr(args, "move_every", 0.0), nursery)
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
        if r["type"] == "ok":
            await seats[0].game_over.wait()
        else:  # refused under a flood (busy, rate_limited): count it and try again soon
            stats.errors[r.get("code")] += 1
            await trio.sleep(0.05)
    for seat in seats:
        seat.stop = True
