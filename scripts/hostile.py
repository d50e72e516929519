#!/usr/bin/env python3
"""Hostile clients for a soak: each behaviour in ``BEHAVIOURS`` abuses the server one
way (fuzzed frames and requests, oversized and deep frames, slowloris, idle connections,
slow readers, request floods, connection churn, lobby floods, abrupt disconnects), and
``hostile_mix`` runs ``clients`` of them at once, each bounded in count and in time.
Every connection comes from 127.0.0.2 (one attacker) to 127.0.0.1. What they meet is
tallied per behaviour: runs, the error codes received, and notes (closed by the server,
replies out of order, open past the hello deadline, ...).

soak.py runs this in a child process; by hand (prints the tallies as one JSON object):

    python scripts/hostile.py --port 7777 --clients 50 --seconds 30

``--list-flood`` runs one greedy behaviour instead (soak.py's lists phase): ``--clients``
connections from ``LIST_FLOOD_ADDRESS``, each keeping ``--depth`` ``list`` requests
pipelined (a new one for each reply, whatever it says), for ``--seconds``; it prints the
pages served, the refusals by code and the bytes received.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import struct
import sys
from collections import Counter
from contextlib import asynccontextmanager
from pathlib import Path

import msgpack
import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pidor import wire  # noqa: E402
from pidor.engine.table import TABLE_OPTIONS  # noqa: E402
from pidor.games import GAME_IDS, SPECS, game_class, spec  # noqa: E402
from pidor.server.limits import Limits  # noqa: E402
from pidor.server.runner import TABLE_REQUESTS  # noqa: E402

#: The hostile clients' source address: one attacker.
HOSTILE_ADDRESS = "127.0.0.2"
#: Longest run of one hostile behaviour (slowloris and idle outlast the hello deadline).
BEHAVIOUR_SECONDS = 25.0
#: A connection still open this long without hello got around the hello deadline.
HELLO_DEADLINE = Limits.HELLO_TIMEOUT + 3.0
#: Runs of behaviours by one hostile client at the most (the phase's end comes first).
MAX_RUNS = 100_000

# --- fuzzed values and requests ------------------------------------------------------------

REQUESTS = ("hello", "ping", "list", "create", *TABLE_REQUESTS)
#: What a seated fuzzer sends: it stays at its table (the lobby fuzzer joins and leaves).
AT_TABLE = tuple(kind for kind in TABLE_REQUESTS if kind not in ("join", "leave"))
#: Every game's action types and their fields.
ACTIONS = {kind: fields for g in GAME_IDS for kind, fields in game_class(g).ACTIONS.items()}
FIELDS = ("id", "version", "name", "token", "game", "open", "options", "table", "seat", "seed", "action",
          "guilty", "seq")
#: Every option a table takes: the table's, and every game's options and clocks.
OPTIONS = ("game", "bots", *dict.fromkeys(o.name for o in TABLE_OPTIONS), *dict.fromkeys(
    o.name for s in SPECS.values() for o in s.engine.OPTIONS + s.engine.CLOCKS))
# Edge integers msgpack can carry. None between 10**7 and 2**62: an unfixed server builds
# the list of `bots` before checking the count (issue 8 item 5), and 2**31 bots take 16 GiB
# (measured: this soak's server grew to 8 GB). 10**6 takes 8 MB; 2**63 - 1 fails at once.
EDGE_INTS = (0, 1, 2, 3, 5, 7, -1, -5, 36, 52, 255, 65536, 10**6, 2**63 - 1, 2**63, 2**64 - 1, -2**63)
FLOATS = (0.0, -0.0, 0.5, -1.5, 36.0, 2.0, 1e300, -1e300)
TEXT = "abcxyz 0123456789_-:=,.AKQJT6789cdhs\t\n\r\x00\x1b\u0301\u200bпидор🂡"


def random_text(rng: random.Random, most: int = 24) -> str:
    return "".join(rng.choice(TEXT) for _ in range(rng.randint(0, most)))


def random_value(rng: random.Random, depth: int = 0):
    """Any msgpack value, small: scalars at the edges, and containers up to 4 deep."""
    r = rng.randrange(10 if depth < 4 else 7)
    if r == 0:
        return None
    if r == 1:
        return rng.random() < 0.5
    if r == 2:
        return rng.choice(EDGE_INTS)
    if r == 3:
        return rng.choice(FLOATS)
    if r == 4:
        return random_text(rng)
    if r == 5:
        return rng.randbytes(rng.randint(0, 80))
    if r == 6:
        return rng.randint(-3, 10)
    if r == 7:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 6))]
    keys = FIELDS + ("type",) if r == 8 else tuple(random_text(rng, 8) for _ in range(4))
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def random_card(rng: random.Random) -> str:
    return rng.choice("23456789TJQKA1X") + rng.choice("cdhsx")


def junk_message(rng: random.Random):
    """Mostly a map with a junk ``type`` and junk fields; now and then not a map, or a
    map with a key that is not a string."""
    if rng.random() < 0.2:
        return random_value(rng)
    msg = {random_text(rng, 6): random_value(rng) for _ in range(rng.randint(0, 4))}
    msg["type"] = random_value(rng)
    if rng.random() < 0.1:
        msg[rng.choice(EDGE_INTS)] = random_value(rng)
    return msg


def fuzzed_action(rng: random.Random):
    if rng.random() < 0.1:
        return random_value(rng)
    kind = rng.choice(list(ACTIONS)) if rng.random() < 0.9 else random_value(rng)
    action = {"type": kind}
    for name, what in ACTIONS.get(kind, ()) if isinstance(kind, str) else ():
        if rng.random() < 0.8:
            action[name] = (random_card(rng) if what == "card" else rng.choice("cdhsx") if what == "suit"
                            else rng.randint(-1, 6)) if rng.random() < 0.6 else random_value(rng)
    if rng.random() < 0.2:
        action[random_text(rng, 6)] = random_value(rng)
    return action


def edge_value(rng: random.Random):
    """A scalar at an edge (or any value, now and then): what option checks meet."""
    r = rng.random()
    if r < 0.5:
        return rng.choice(EDGE_INTS)
    if r < 0.7:
        return rng.choice(FLOATS)
    return rng.choice((True, False, None, "", "36")) if r < 0.85 else random_value(rng)


def fuzzed_options(rng: random.Random):
    """Mostly a valid game and player count with one to three options at an edge (so
    that each value meets its own check), now and then no map at all."""
    if rng.random() < 0.1:
        return random_value(rng)
    game = rng.choice(GAME_IDS)
    options = {"game": game, "players": rng.choice(spec(game).players)}
    for name in rng.sample(OPTIONS, rng.randint(1, 3)):
        if name == "bots" and rng.random() < 0.3:
            options[name] = [rng.choice(("builtin:random", "builtin:random:cheat=0.5", "builtin:random:cheat=2",
                                         "builtin:x", random_text(rng))) for _ in range(rng.randint(0, 7))]
        else:
            options[name] = edge_value(rng)
    return options


def fuzzed_request(rng: random.Random, kinds=REQUESTS, table: int | None = None, seq: int = 0) -> dict:
    """A map with a request ``type`` (now and then a junk one) and random fields, some
    of them plausible (the seated table, a nearby ``seq``) so that checks go deeper."""
    kind = rng.choice(kinds) if rng.random() < 0.95 else random_value(rng)
    msg = {"type": kind}
    for name in rng.sample(FIELDS, rng.randint(0, 4)):
        msg[name] = random_value(rng)
    if rng.random() < 0.5:
        msg["seq"] = seq + rng.randint(-2, 2)
    if table is not None and rng.random() < 0.7:
        msg["table"] = table
    if kind == "act" and rng.random() < 0.9:
        msg["action"] = fuzzed_action(rng)
    elif kind == "create" and rng.random() < 0.9:
        msg["options"] = fuzzed_options(rng)
    elif kind == "hello" and rng.random() < 0.5:
        msg.update(version=wire.PROTOCOL_VERSION, name=random_text(rng, 40))
    return msg


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def oversized_frame(rng: random.Random) -> bytes:
    """Over a limit: the announced length, or a string, array, map or bin inside."""
    kind = rng.randrange(5)
    if kind == 0:
        return struct.pack(">I", rng.randint(wire.MAX_FRAME + 1, 2**32 - 1)) + rng.randbytes(rng.randint(0, 64))
    value = [None, "x" * (wire.MAX_STR + 1), [0] * (wire.MAX_ARRAY + 1),
             {str(i): 0 for i in range(wire.MAX_MAP + 1)}, bytes(wire.MAX_BIN + 1)][kind]
    return frame(msgpack.packb({"type": "ping", "x": value}, use_bin_type=True))


def deep_frame(rng: random.Random) -> bytes:
    """A ``ping`` whose field nests arrays or maps past ``MAX_DEPTH``, up to the most
    that fits in a frame."""
    level = b"\x91" if rng.random() < 0.5 else b"\x81\xa1k"
    depth = rng.choice((wire.MAX_DEPTH + 1, 64, 1000, (wire.MAX_FRAME - 16) // len(level)))
    return frame(b"\x82\xa4type\xa4ping\xa1x" + level * depth + b"\xc0")


def honest_answers(rng: random.Random, msgs: list[dict], seat: int | None) -> list[dict]:
    """What a plain seat answers to ``msgs``: an act on each turn, a pass to each window."""
    out = []
    for m in msgs:
        if m.get("type") == "turn" and m.get("options"):
            out.append({"type": "act", "action": rng.choice(m["options"]), "seq": m.get("seq")})
        elif m.get("type") == "event" and m["event"].get("type") == "window" and seat in m["event"].get("owing", ()):
            out.append({"type": "pass", "seq": m.get("seq")})
    return out


def encode_all(msgs: list[dict]) -> bytes:
    return b"".join(wire.encode(m) for m in msgs)


# --- hostile connections ----------------------------------------------------------------------


class Tally:
    """What one hostile behaviour met: runs, error codes received, and notes (closed by the
    server, connections refused, replies out of order, ...)."""

    def __init__(self) -> None:
        self.runs = 0
        self.codes: Counter = Counter()
        self.notes: Counter = Counter()

    def see(self, msg: dict) -> None:
        if msg.get("type") == "error":
            self.codes[str(msg.get("code"))] += 1
        elif msg.get("type") == "closed":
            self.notes[f"table closed ({msg.get('reason')})"] += 1

    def as_dict(self) -> dict:
        return {"runs": self.runs, "codes": dict(self.codes.most_common()), "notes": dict(self.notes.most_common())}


class Gone(Exception):
    """The server took no connection."""


class Probe:
    """One hostile connection: sends what it is told, and tallies whatever comes back."""

    def __init__(self, stream: trio.SocketStream, tally: Tally) -> None:
        self.stream = stream
        self.tally = tally
        self.decoder = wire.Decoder()
        self.closed = False  # the server closed it (or reset it)
        self.abort = False  # close with a reset (SO_LINGER 0) rather than a FIN
        self.next_id = 0
        self.table: int | None = None
        self.seat: int | None = None

    async def send(self, data: bytes) -> bool:
        if self.closed:
            return False
        try:
            await self.stream.send_all(data)
            return True
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self._gone("send failed: the server closed the connection")
            return False

    def _gone(self, note: str) -> None:
        if not self.closed:
            self.closed = True
            self.tally.notes[note] += 1

    async def read(self, seconds: float, until=None) -> list[dict]:
        """The messages received within ``seconds``, or until the server closes or a
        message passes ``until``."""
        out: list[dict] = []
        with trio.move_on_after(seconds):
            while not self.closed:
                try:
                    data = await self.stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    self._gone("reset by the server")
                    break
                if not data:
                    self._gone("closed by the server" + (" mid-frame" if self.decoder.buffered else ""))
                    break
                try:
                    self.decoder.receive_data(data)
                    while (msg := self.decoder.next_message()) is not None:
                        self.tally.see(msg)
                        out.append(msg)
                        if until is not None and until(msg):
                            return out
                except wire.RemoteProtocolError as e:
                    self._gone(f"a bad frame from the server ({e.code})")
        return out

    async def request(self, msg: dict, seconds: float = 5.0) -> dict | None:
        """Send with a fresh id; its reply (other messages are tallied and dropped)."""
        self.next_id += 1
        rid = self.next_id
        if not await self.send(wire.encode({**msg, "id": rid})):
            return None
        got = await self.read(seconds, until=lambda m: m.get("id") == rid)
        return got[-1] if got and got[-1].get("id") == rid else None

    async def hello(self) -> bool:
        r = await self.request({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "hostile"})
        return r is not None and r["type"] == "welcome"

    async def sit_with_bots(self, rng: random.Random, players: int | None = None) -> bool:
        """Hello, create a table of bots and this seat (of a random game: ``players`` seats,
        or 2 to 4, or the nearest fewer it takes), start a game; False if refused."""
        game = rng.choice(GAME_IDS)
        wanted = players or rng.randint(2, 4)
        players = max([n for n in spec(game).players if n <= wanted] or spec(game).players[:1])
        options = {"game": game, "players": players, "bots": players - 1,
                   "turn_timeout": 3.0, "call_window": 1.0}
        if not await self.hello():
            return False
        joined = await self.request({"type": "create", "options": options})
        if joined is None or joined["type"] != "joined":
            return False
        self.table, self.seat = joined["table"]["id"], joined["seat"]
        started = await self.request({"type": "start"})
        return started is not None and started["type"] == "ok"


@asynccontextmanager
async def probe(port: int, tally: Tally, rcvbuf: int | None = None):
    """A connection from ``HOSTILE_ADDRESS``, closed on exit (reset if ``abort``)."""
    sock = trio.socket.socket()
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        await sock.bind((HOSTILE_ADDRESS, 0))
        await sock.connect(("127.0.0.1", port))
    except OSError as e:
        sock.close()
        tally.notes["connect failed"] += 1
        raise Gone from e
    p = Probe(trio.SocketStream(sock), tally)
    try:
        yield p
    finally:
        if p.abort:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


# --- the hostile behaviours: each one run, bounded in count and (by the caller) in time --------


async def send_junk(port: int, rng: random.Random, tally: Tally, data: bytes) -> None:
    """``data`` on a fresh connection, before or after hello; then read the answer."""
    async with probe(port, tally) as p:
        if rng.random() < 0.5:
            await p.hello()
        await p.send(data)
        await p.read(2.0)


async def random_bytes(port: int, rng: random.Random, tally: Tally) -> None:
    """Random bytes, raw or in a frame."""
    junk = rng.randbytes(rng.randint(1, 2048))
    await send_junk(port, rng, tally, junk if rng.random() < 0.5 else frame(junk))


async def msgpack_junk(port: int, rng: random.Random, tally: Tally) -> None:
    """Valid msgpack of random structure (maps or not, odd keys)."""
    values = [junk_message(rng) for _ in range(rng.randint(1, 10))]
    await send_junk(port, rng, tally, b"".join(frame(msgpack.packb(v, use_bin_type=True)) for v in values))


async def fuzz_lobby(port: int, rng: random.Random, tally: Tally) -> None:
    """After hello: random requests of every type, random fields, in one write."""
    async with probe(port, tally) as p:
        if await p.hello():
            await p.send(encode_all([fuzzed_request(rng) for _ in range(rng.randint(1, 40))]))
            await p.read(3.0)


async def fuzz_create(port: int, rng: random.Random, tally: Tally) -> None:
    """After hello: ``create`` with options at their edges, one after another (leaving
    each table that was made)."""
    async with probe(port, tally) as p:
        if not await p.hello():
            return
        for _ in range(rng.randint(5, 30)):
            r = await p.request({"type": "create", "options": fuzzed_options(rng)})
            if r is None:
                return
            if r["type"] == "joined" and await p.request({"type": "leave"}) is None:
                return


async def fuzz_table(port: int, rng: random.Random, tally: Tally) -> None:
    """Seated at a table of bots with a game running: random table requests (acts with
    random actions, calls, passes, votes, seeds, ...), between honest answers."""
    async with probe(port, tally) as p:
        p.abort = True
        if not await p.sit_with_bots(rng):
            return
        seq = 0
        for _ in range(40):
            msgs = await p.read(rng.uniform(0.05, 0.5))
            if p.closed:
                return
            seq = max([seq] + [m["seq"] for m in msgs if isinstance(m.get("seq"), int)])
            out = [fuzzed_request(rng, AT_TABLE, p.table, seq) for _ in range(rng.randint(1, 4))]
            if rng.random() < 0.5:
                out += honest_answers(rng, msgs, p.seat)
            await p.send(encode_all(out))


async def oversized(port: int, rng: random.Random, tally: Tally) -> None:
    """An announced length over MAX_FRAME, or a string, array, map or bin over its limit."""
    await send_junk(port, rng, tally, oversized_frame(rng))


async def deep(port: int, rng: random.Random, tally: Tally) -> None:
    """Arrays or maps nested past MAX_DEPTH."""
    await send_junk(port, rng, tally, deep_frame(rng))


async def slowloris(port: int, rng: random.Random, tally: Tally) -> None:
    """No hello: the start of a long frame, one byte every 3 to 5 seconds."""
    async with probe(port, tally) as p:
        data = struct.pack(">I", wire.MAX_FRAME - 1) + bytes(64)
        t0 = trio.current_time()
        for byte in data:
            if not await p.send(bytes([byte])):
                return
            await p.read(rng.uniform(3.0, 5.0))
            if p.closed:
                return
            if trio.current_time() - t0 > HELLO_DEADLINE:
                tally.notes["open past the hello deadline"] += 1
                return


async def idle(port: int, rng: random.Random, tally: Tally) -> None:
    """Connect and never send."""
    async with probe(port, tally) as p:
        await p.read(HELLO_DEADLINE)
        if not p.closed:
            tally.notes["open past the hello deadline"] += 1


async def slow_reader(port: int, rng: random.Random, tally: Tally) -> None:
    """Seated at a table of bots, a small receive buffer, many requests, never a read."""
    async with probe(port, tally, rcvbuf=4096) as p:
        p.abort = True
        if not await p.sit_with_bots(rng, players=6):
            return
        batch = encode_all([{"type": rng.choice(("resync", "list")), "id": i} for i in range(100)])
        for _ in range(60):
            with trio.move_on_after(3.0) as blocked:
                if not await p.send(batch):
                    return
            if blocked.cancelled_caught:
                tally.notes["the server stopped reading"] += 1
                return
            await trio.sleep(0.1)
        tally.notes["never dropped"] += 1


async def flood(port: int, rng: random.Random, tally: Tally) -> None:
    """Hundreds of ping/list/resync in one write (some naming other tables), maybe
    seated; the replies must come back in request order."""
    async with probe(port, tally) as p:
        seated = await p.sit_with_bots(rng) if rng.random() < 0.5 else await p.hello()
        if not seated:
            return
        n = rng.randint(100, 800)
        first = p.next_id + 1
        msgs = []
        for i in range(first, first + n):
            msg = {"type": rng.choice(("ping", "list", "resync")), "id": i}
            if rng.random() < 0.3:
                msg["table"] = rng.randint(1, 64)
            msgs.append(msg)
        p.next_id += n
        if not await p.send(encode_all(msgs)):
            return
        unanswered = set(range(first, first + n))
        ids = []  # the replies' ids, in the order they came

        def answers(msg: dict) -> bool:
            if msg.get("id") in unanswered:
                unanswered.discard(msg["id"])
                ids.append(msg["id"])
            return not unanswered

        await p.read(10.0, until=answers)
        notes = {"replies out of order": sum(1 for a, b in zip(ids, ids[1:]) if b < a),
                 "requests unanswered in 10 s": 0 if p.closed else len(unanswered)}
        tally.notes.update({k: v for k, v in notes.items() if v})


async def churn(port: int, rng: random.Random, tally: Tally) -> None:
    """Many connections opened and dropped at once (half of them reset, half say hello)."""
    hello = wire.encode({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "churn"})
    for _ in range(rng.randint(10, 60)):
        async with probe(port, tally) as p:
            p.abort = rng.random() < 0.5
            if rng.random() < 0.5:
                await p.send(hello)


async def lobby_flood(port: int, rng: random.Random, tally: Tally) -> None:
    """Connect, create a table of bots with as many seats as its game takes, start it, leave
    (reset), again and again."""
    for _ in range(rng.randint(3, 20)):
        async with probe(port, tally) as p:
            p.abort = True
            game = rng.choice(GAME_IDS)
            players = max(spec(game).players)  # (the most seats the game takes)
            options = {"game": game, "players": players, "bots": players - 1}
            await p.send(encode_all([{"type": "hello", "id": 1, "version": wire.PROTOCOL_VERSION, "name": "flood"},
                                     {"type": "create", "id": 2, "options": options},
                                     {"type": "start", "id": 3}]))
            await p.read(2.0, until=lambda m: m.get("id") == 3)


async def abrupt(port: int, rng: random.Random, tally: Tally) -> None:
    """Play honestly for a moment, then vanish mid-game: a reset, half a frame, or a FIN."""
    async with probe(port, tally) as p:
        if not await p.sit_with_bots(rng):
            return
        end = trio.current_time() + rng.uniform(0.2, 3.0)
        for _ in range(300):
            if trio.current_time() >= end or p.closed:
                break
            await p.send(encode_all(honest_answers(rng, await p.read(0.1), p.seat)))
        how = rng.randrange(3)
        if how == 0:
            p.abort = True
        elif how == 1:
            await p.send(wire.encode({"type": "ping", "pad": "x" * 100})[:20])


BEHAVIOURS = {f.__name__: f for f in (random_bytes, msgpack_junk, fuzz_lobby, fuzz_create, fuzz_table, oversized,
                                       deep, slowloris, idle, slow_reader, flood, churn, lobby_flood, abrupt)}


async def hostile_client(i: int, port: int, rng: random.Random, tallies: dict[str, Tally]) -> None:
    """Run behaviours one after another: the ``i``-th first (so that as many clients as
    behaviours run each at least once), then random ones; until cancelled."""
    names = list(BEHAVIOURS)
    for run in range(MAX_RUNS):
        name = names[i % len(names)] if run == 0 else rng.choice(names)
        tallies[name].runs += 1
        try:
            with trio.move_on_after(BEHAVIOUR_SECONDS):
                await BEHAVIOURS[name](port, rng, tallies[name])
        except Gone:
            await trio.sleep(0.1)  # no connection taken now: do not spin


async def hostile_mix(port: int, clients: int, seconds: float, seed) -> dict:
    """``clients`` hostile clients at once for ``seconds``; per behaviour, its tally."""
    tallies = {name: Tally() for name in BEHAVIOURS}
    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for i in range(clients):
                nursery.start_soon(hostile_client, i, port, random.Random(f"{seed}/{i}"), tallies)
    return {name: t.as_dict() for name, t in tallies.items()}


# --- the list flood: greedy, not malformed --------------------------------------------------------

#: The list flood's source address: one greedy client (not the hostile mix's).
LIST_FLOOD_ADDRESS = "127.0.0.3"


async def list_flood(port: int, clients: int, depth: int, seconds: float) -> dict:
    """``clients`` connections from ``LIST_FLOOD_ADDRESS``, each keeping ``depth`` lists
    pipelined for ``seconds``: the pages served, the refusals by code, the bytes read, and
    the connections that could not say hello."""
    out = {"pages": 0, "refused": Counter(), "bytes": 0, "no_hello": 0}
    request = wire.encode({"type": "list", "id": 1})

    async def greedy() -> None:
        sock = trio.socket.socket()
        try:
            await sock.bind((LIST_FLOOD_ADDRESS, 0))
            await sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            out["no_hello"] += 1
            return
        stream = trio.SocketStream(sock)
        decoder = wire.Decoder()
        async with stream:
            try:
                await stream.send_all(wire.encode({"type": "hello", "id": 0, "version": wire.PROTOCOL_VERSION,
                                                   "name": "greedy"}))
                await stream.send_all(request * depth)
                while True:
                    data = await stream.receive_some(65536)
                    if not data:
                        break
                    out["bytes"] += len(data)
                    decoder.receive_data(data)
                    replies = 0
                    while (msg := decoder.next_message()) is not None:
                        if msg.get("id") == 1:
                            replies += 1
                            if msg["type"] == "tables":
                                out["pages"] += 1
                            else:
                                out["refused"][str(msg.get("code"))] += 1
                        elif msg.get("id") == 0 and msg["type"] != "welcome":
                            out["no_hello"] += 1
                            return
                    if replies:
                        await stream.send_all(request * replies)  # keep `depth` in flight
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError, wire.RemoteProtocolError):
                pass

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for _ in range(clients):
                nursery.start_soon(greedy)
    out["refused"] = dict(out["refused"].most_common())
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    ap.add_argument("--clients", type=int, default=50, help="hostile (or greedy) clients at once")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--list-flood", action="store_true", help="the list flood instead of the hostile mix")
    ap.add_argument("--depth", type=int, default=4, help="--list-flood: lists in flight on each connection")
    args = ap.parse_args(argv)
    if args.list_flood:
        print(json.dumps(trio.run(list_flood, args.port, args.clients, args.depth, args.seconds)))
    else:
        print(json.dumps(trio.run(hostile_mix, args.port, args.clients, args.seconds, args.seed)))


if __name__ == "__main__":
    main()
