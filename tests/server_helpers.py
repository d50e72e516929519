"""Helpers for server tests: a server on port 0 (or on in-memory streams), scripted
clients, the hidden-card audit."""

from __future__ import annotations

import hashlib
import itertools
import math
from contextlib import asynccontextmanager

import trio
import trio.testing

from pidor import wire
from pidor.server.app import Server
from pidor.server.connection import Limits
from pidor.server.store import Store
from pidor.server.testing import Client, connect

__all__ = ["is_event", "open_table", "act", "cheat_and_call", "serve", "Audit", "fixed_seeds", "seated_client",
           "play_until", "strings_in", "events_of", "MemoryListener", "open_client"]


def fixed_seeds(label: str):
    """A deterministic ``seed_source``: SHA-256 of a label and a counter."""
    counter = itertools.count()

    def source(n: int) -> bytes:
        return hashlib.sha256(f"{label}:{next(counter)}".encode()).digest()[:n]

    return source


def strings_in(obj) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= strings_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= strings_in(v)
    return out


class Audit:
    """The server's ``audit`` hook: every frame queued for a seat, checked against the
    card codes that seat must not see at that moment (decoded, and in the raw bytes as a
    msgpack 2-byte string).

    ``hidden_from`` counts every card in another hand as hidden, also one the seat saw
    go there in public (durak's «беру», a called card taken back by an undo); a card
    already shown to this seat in this game may therefore be named again. The first
    frame that shows a hidden card is the leak."""

    def __init__(self) -> None:
        self.frames = 0
        self.leaks: list[tuple] = []
        self.seen: dict[tuple, set] = {}
        self.sent: dict[tuple, list[bytes]] = {}  # (table, seat) -> frames, in order

    def __call__(self, table: int, seat: int, frame: bytes, hidden: set) -> None:
        self.frames += 1
        self.sent.setdefault((table, seat), []).append(frame)
        msg = wire.decode_frame(frame[4:])
        strings = strings_in(msg)
        if msg.get("type") == "event" and msg["event"]["type"] == "game_start":
            self.seen[table, seat] = set()
        seen = self.seen.setdefault((table, seat), set())
        shown = (strings & hidden) - seen
        raw = {c for c in hidden - seen if b"\xa2" + c.encode() in frame}  # fixstr of length 2
        if shown or raw:
            self.leaks.append((table, seat, sorted(shown | raw), msg))
        seen |= strings - hidden


class FastLimits(Limits):
    HELLO_TIMEOUT = 5.0


class MemoryListener(trio.abc.Listener):
    """Connections over in-memory streams (``trio.testing``) instead of TCP. No kernel sits
    between client and server, so under ``autojump_clock`` the clock moves only when both
    wait; over TCP it may jump while bytes are in flight. The server sees the peer ``?``."""

    def __init__(self) -> None:
        self._send, self._accepted = trio.open_memory_channel(math.inf)

    async def accept(self) -> trio.abc.Stream:
        return await self._accepted.receive()

    async def aclose(self) -> None:
        pass

    async def connect(self) -> Client:
        return (await self.connect_ends())[0]

    async def connect_ends(self, *, lockstep: bool = False) -> tuple[Client, trio.StapledStream]:
        """A client and the server's end of its connection. ``lockstep``: each write of
        the server waits until the client reads it (a client that stops reading stalls
        the server's writer, as a full socket does); else the server's end is a pair of
        ``MemorySendStream``/``MemoryReceiveStream`` (``put_data`` feeds the server)."""
        pair = trio.testing.lockstep_stream_pair if lockstep else trio.testing.memory_stream_pair
        client_end, server_end = pair()
        self._send.send_nowait(server_end)
        return Client(client_end), server_end


async def open_client(where: int | MemoryListener) -> Client:
    """A new connection to a server: ``where`` is its TCP port or its ``MemoryListener``."""
    return await connect(where) if isinstance(where, int) else await where.connect()


@asynccontextmanager
async def serve(*, audit=None, seeds: str = "test", limits=FastLimits, log_sink=None, logs=None, memory=False):
    """A server on a free port: ``async with serve() as (server, port)``; ``logs``: the
    directory for its game logs (default none). ``memory``: the server listens on a
    :class:`MemoryListener` instead, yielded in place of the port (the helpers below take
    either)."""
    server = Server(Store(":memory:"), audit=audit, limits=limits, seed_source=fixed_seeds(seeds),
                    log_sink=log_sink, logs=logs)
    async with trio.open_nursery() as nursery:
        if memory:
            where = MemoryListener()
            await nursery.start(server.serve, [where])
        else:
            where = await nursery.start(server.run, "127.0.0.1", 0)
        try:
            yield server, where
        finally:
            nursery.cancel_scope.cancel()


async def seated_client(port: int | MemoryListener, name: str, table: int | None = None,
                        options: dict | None = None) -> Client:
    """A client that said hello and created (``options``) or joined (``table``) a table
    (``port``: see :func:`open_client`)."""
    c = await open_client(port)
    welcome = await c.hello(name)
    assert welcome["type"] == "welcome", welcome
    c.token = welcome["token"]
    c.player = welcome["player"]
    if options is not None:
        r = await c.request({"type": "create", "options": options})
    else:
        r = await c.request({"type": "join", "table": table})
    assert r["type"] == "joined", r
    c.table = r["table"]["id"]
    c.seat = r["seat"]
    return c


def events_of(client: Client, kind: str | None = None) -> list[dict]:
    return [m["event"] for m in client.messages
            if m["type"] == "event" and (kind is None or m["event"]["type"] == kind)]


async def play_until(client: Client, stop, *, choose=None, answer=None, vote=None, max_messages=100000) -> dict:
    """Play a seat: act on every ``turn`` (``choose(options, msg)``, default the first
    option), answer windows (``answer(event)``: True calls; default pass) and votes
    (``vote(event)``; default guilty) until ``stop(msg)``; returns that message."""
    for _ in range(max_messages):
        msg = await client.receive()
        if stop(msg):
            return msg
        kind = msg["type"]
        if kind == "closed" or msg.get("fatal"):
            raise AssertionError(f"the server gave up: {msg}")
        if kind == "turn" and msg["options"]:
            action = choose(msg["options"], msg) if choose else msg["options"][0]
            if action is not None:
                await client.send({"type": "act", "action": action})
        elif kind == "event":
            e = msg["event"]
            if e["type"] == "window" and client.seat in e["owing"]:
                call = answer(e) if answer else False
                await client.send({"type": "call" if call else "pass"})
            elif e["type"] == "court" and client.seat in e["voters"]:
                await client.send({"type": "vote", "guilty": vote(e) if vote else True})
    raise AssertionError("no stop message")


# --- a «пидор» table of scripted clients, and a cheat the next seat calls -----------------


def is_event(kind):
    return lambda m: m["type"] == "event" and m["event"]["type"] == kind


async def open_table(port, n):
    host = await seated_client(port, "p0", options={"game": "pidor", "players": n})
    clients = [host] + [await seated_client(port, f"p{i}", table=host.table) for i in range(1, n)]
    clients.sort(key=lambda c: c.seat)
    assert (await host.request({"type": "start"}))["type"] == "ok"
    return clients


async def act(clients, seat, action, *, pass_others=True):
    c = clients[seat]
    await c.receive(lambda m: m["type"] == "turn")
    r = await c.request({"type": "act", "action": action})
    assert r["type"] == "ok", r
    if pass_others:
        for o in clients:
            if o.seat != seat:
                await o.send({"type": "pass"})


async def cheat_and_call(server, clients):
    """The seat on turn draws (honest), then cheats; the next seat calls. Returns
    (accused, caller, violations, court event as the accused saw it)."""
    runner = server.lobby.tables[clients[0].table]
    x = runner.table.to_act()[0]
    await act(clients, x, {"type": "draw"})
    await clients[x].receive(lambda m: m["type"] == "turn")
    game = runner.table.game
    cheat = next(a for a in game.actions(x) if game.check(x, a))
    violations = list(game.check(x, cheat))
    r = await clients[x].request({"type": "act", "action": game.action_data(cheat)})
    assert r["type"] == "ok"
    y = (x + 1) % len(clients)
    window = (await clients[y].receive(is_event("window")))["event"]
    assert y in window["owing"] and window["seat"] == x
    r = await clients[y].request({"type": "call"})
    assert r["type"] == "ok"
    court = (await clients[x].receive(is_event("court")))["event"]
    return x, y, violations, court, game.action_data(cheat)
