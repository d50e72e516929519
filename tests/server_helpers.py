"""Helpers for server tests: a server on port 0 (or on in-memory streams), scripted
clients, the hidden-card audit; and, for tests without sockets, the server's parts alone
through their seams (:mod:`pidor.server.seams`): a fake client (:class:`FakePeer`), a fake
house for a table task (:class:`FakeHouse`) and a fake server for a lobby
(:class:`FakeLobbyServer`)."""

from __future__ import annotations

import hashlib
import itertools
import math
from contextlib import asynccontextmanager
from pathlib import Path

import trio
import trio.testing

from pidor import wire
from pidor.engine.options import named
from pidor.games import GAME_IDS, game_class
from pidor.server.app import Server
from pidor.server.limits import Limits
from pidor.server.lobby import Lobby
from pidor.server.runner import TableRunner
from pidor.server.store import Store
from pidor.server.testing import Client, connect, latest_seq, with_seq

__all__ = ["is_event", "open_table", "act", "cheat_and_call", "serve", "Audit", "fixed_seeds", "seated_client",
           "play_until", "strings_in", "events_of", "MemoryListener", "open_client", "FakePeer", "FakeHouse",
           "FakeLobbyServer"]


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


def leaky(project, *, spectators_only: bool = False):
    """A broken projection for the tests that prove the leak audit can fail: it shows
    every private field of an event to every seat (``spectators_only``: to seat ``None``
    only; the seats get ``project``'s)."""

    def projection(event, seat):
        if spectators_only and seat is not None:
            return project(event, seat)
        out = {k: v for k, v in event.items() if k[0] != "_"}
        for fields in (event.get("_private") or {}).values():
            out.update(fields)
        return out

    return projection


class Audit:
    """The server's ``audit`` hook: every frame queued for a seat, checked against the
    card codes that seat must not see at that moment (decoded, and in the raw bytes as a
    msgpack 2-byte string).

    ``hidden_from`` counts every card in another hand as hidden, also one the seat saw
    go there in public (durak's «беру», a called card taken back by an undo); a card
    already shown to this seat in this game may therefore be named again. A card the
    table's options name (a проездной: ``named``, read off the table's info in the frames)
    is a name, not a sighting. The first frame that shows a hidden card is the leak."""

    def __init__(self) -> None:
        self.frames = 0
        self.leaks: list[tuple] = []
        self.seen: dict[tuple, set] = {}
        self.names: dict[int, set] = {}  # table -> the card codes its options name
        self.sent: dict[tuple, list[bytes]] = {}  # (table, seat) -> frames, in order

    def __call__(self, table: int, seat: int, frame: bytes, hidden: set) -> None:
        self.frames += 1
        self.sent.setdefault((table, seat), []).append(frame)
        msg = wire.decode_frame(frame[4:])
        strings = strings_in(msg)
        if msg.get("type") == "event" and msg["event"]["type"] == "game_start":
            self.seen[table, seat] = set()
        names = self.names.setdefault(table, set())
        for info in (msg.get("info"), msg.get("table")):
            options = info.get("options") if isinstance(info, dict) and info.get("id") == table else None
            if isinstance(options, dict) and options.get("game") in GAME_IDS:
                names |= named(options, game_class(options["game"]).OPTIONS)
        seen = self.seen.setdefault((table, seat), set())
        shown = (strings & hidden) - seen - names
        raw = {c for c in hidden - seen - names if b"\xa2" + c.encode() in frame}  # fixstr of length 2
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
async def serve(*, audit=None, seeds: str = "test", limits=FastLimits, log_sink=None, logs=None, memory=False,
                host: str = "127.0.0.1"):
    """A server on a free port of ``host``: ``async with serve() as (server, port)``;
    ``logs``: the directory for its game logs (default none). ``memory``: the server
    listens on a :class:`MemoryListener` instead, yielded in place of the port (the
    helpers below take either)."""
    server = Server(Store(":memory:"), audit=audit, limits=limits, seed_source=fixed_seeds(seeds),
                    log_sink=log_sink, logs=logs)
    async with trio.open_nursery() as nursery:
        if memory:
            where = MemoryListener()
            await nursery.start(server.serve, [where])
        else:
            where = await nursery.start(server.run, host, 0)
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


# --- the server's parts alone, through their seams (no sockets) --------------------------


class FakePeer:
    """A :class:`~pidor.server.seams.Peer` that keeps what it is sent, decoded with
    :mod:`pidor.wire` (``messages``): a client of a table or a lobby without a connection.
    Like a connection it hands a table one request at a time (:meth:`submit` waits until
    the last one is answered), and a game request without ``seq`` gets the latest seen."""

    def __init__(self, name: str = "p", player: int | None = None, address: str = "10.0.0.1",
                 may_call: bool = True, windows: bool = True) -> None:
        self.name, self.player, self.address, self.may_call = name, player, address, may_call
        self.windows = windows
        self.peer = f"{address}:4000"
        self.closed = False
        self.messages: list[dict] = []
        self.arrived: list[float] = []  # when each message came (trio's clock)
        self.batches: list[list[dict]] = []  # the messages of each send_frames: one write each
        self.seat: int | None = None  # set by the test when a table seats it
        self.waiting = False  # a request of ours is in a table's inbox
        self.seq = 0  # the latest seq received (events, turns, snapshots)
        self._decoder = wire.Decoder()
        self._arrived = trio.Event()
        self._answered = trio.Event()
        self._read = 0  # messages[:_read] were returned by next()
        self._ids = itertools.count(1)

    def send(self, message: dict) -> None:
        self.send_frames([wire.encode(message)])

    def send_frames(self, frames: list[bytes]) -> None:
        if self.closed:
            return
        self._decoder.receive_data(b"".join(frames))
        now, batch = trio.current_time(), []
        while (msg := self._decoder.next_message()) is not None:
            self.messages.append(msg)
            self.arrived.append(now)
            batch.append(msg)
            self.seq = latest_seq(self.seq, msg)
        self.batches.append(batch)
        self._arrived.set()

    def fatal(self, code: str, message: str, rid=None) -> None:
        self.send({"type": "error", "id": rid, "code": code, "message": message, "fatal": True})
        self.closed = True

    def wait_for_table(self) -> None:
        self.waiting = True
        self._answered = trio.Event()

    def table_answered(self) -> None:
        self.waiting = False
        self._answered.set()

    # --- the test's side --------------------------------------------------------------

    async def wait_for(self, pred, start: int = 0, timeout: float = 600.0) -> dict:
        """The first message from ``messages[start]`` on that matches, once it is here."""
        return self.messages[await self._find(pred, start, timeout)]

    async def next(self, pred=lambda m: True, timeout: float = 600.0) -> dict:
        """The next message not yet returned by ``next`` that matches (those before it are
        passed over)."""
        i = await self._find(pred, self._read, timeout)
        self._read = i + 1
        return self.messages[i]

    async def _find(self, pred, start: int, timeout: float) -> int:
        with trio.fail_after(timeout):
            i = start
            while True:
                while i < len(self.messages):
                    if pred(self.messages[i]):
                        return i
                    i += 1
                self._arrived = trio.Event()
                await self._arrived.wait()

    async def submit(self, runner: TableRunner, msg: dict) -> None:
        """Hand a request to the table as the lobby does, once the last is answered, after
        a checkpoint as a connection's read is (a table may handle the request in this
        task: ``TableRunner.submit``)."""
        if self.waiting:
            await self._answered.wait()
        else:
            await trio.lowlevel.checkpoint()
        runner.submit(("request", self, self.player, with_seq(msg, self.seq)))

    async def request(self, runner: TableRunner, msg: dict) -> dict:
        """Submit with a fresh ``id``; the reply carrying it."""
        rid = next(self._ids)
        start = len(self.messages)
        await self.submit(runner, {**msg, "id": rid})
        return await self.wait_for(lambda m: m.get("id") == rid, start)

    def events(self, kind: str | None = None) -> list[dict]:
        return [m["event"] for m in self.messages
                if m["type"] == "event" and (kind is None or m["event"]["type"] == kind)]


class FakeHouse:
    """A :class:`~pidor.server.seams.House` for a table task without a server: fixed seeds,
    logs in ``logs`` (``None``: none), a store in memory as the games index, and a record of
    what the table told it (``seated``, ``closed``, ``sunk``: the log sink's events).
    With ``lobby`` set, the seat bookkeeping is that lobby's, as the server wires it."""

    def __init__(self, seeds: str = "house", logs: Path | None = None, audit=None, lobby: Lobby | None = None) -> None:
        self.store = Store(":memory:")
        self.audit = audit
        self.logs = logs
        self.lobby = lobby
        self.seated: dict[int, int] = {}  # player -> table (without a lobby)
        self.closed: list[tuple[int, str]] = []
        self.sunk: list[tuple[dict, dict]] = []  # (game, event) as the log sink got them
        self._seeds = fixed_seeds(seeds)

    def new_seed(self) -> bytes:
        return self._seeds(32)

    def log_path(self, table_id: int, number: int) -> str | None:
        return None if self.logs is None else str(self.logs / f"table-{table_id}-game-{number}.plog")

    def log_sink(self, game: dict, events: list) -> None:
        self.sunk += [(game, e) for e in events]

    def seat(self, player: int, table_id: int) -> None:
        if self.lobby is not None:
            self.lobby.seat(player, table_id)
        self.seated[player] = table_id

    def unseat(self, player: int, table_id: int) -> None:
        if self.lobby is not None:
            self.lobby.unseat(player, table_id)
        if self.seated.get(player) == table_id:
            del self.seated[player]

    def table_of(self, player: int) -> int | None:
        return self.lobby.table_of(player) if self.lobby is not None else self.seated.get(player)

    def table_changed(self, table_id: int) -> None:
        if self.lobby is not None:
            self.lobby.table_changed(table_id)

    def table_closed(self, table_id: int, reason: str) -> None:
        if self.lobby is not None:
            self.lobby.table_closed(table_id, reason)
        self.closed.append((table_id, reason))
        self.seated = {p: t for p, t in self.seated.items() if t != table_id}


class FakeLobbyServer:
    """A :class:`~pidor.server.seams.LobbyServer` without a listener: a store in memory,
    and each table it opens a real :class:`TableRunner` whose task runs in ``nursery``,
    its house a :class:`FakeHouse` that keeps its seats in the lobby. ``opened``: the
    tables it was asked for, in order."""

    def __init__(self, nursery: trio.Nursery, limits=Limits, seeds: str = "lobby") -> None:
        self.house = FakeHouse(seeds)
        self.store = self.house.store  # one store, as in the server
        self.lobby = self.house.lobby = Lobby(self, limits)
        self.nursery = nursery
        self.opened: list[TableRunner] = []

    def open_table(self, table_id: int, options: dict, bots: list[dict]) -> TableRunner:
        runner = TableRunner(self.house, table_id, options, bots)
        self.nursery.start_soon(runner.run)
        self.opened.append(runner)
        return runner

