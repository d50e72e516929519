"""Hypothesis fuzz tests (issue 8 items 5 and 6): arbitrary msgpack values in every field.

1. ``Game.parse_action`` of every game: only ``InvalidAction`` comes out, or a well-formed
   action, which every seat's ``check`` then refuses only with an ``ActionError``.
2. ``server_options``: only ``ValueError``, or options that obey every rule; and it never
   builds anything big (``bots: 500000000`` once took 3.9 GB).
3. Requests over a real server: every reply is a success or an ``error`` whose code is in
   ``ERRORS``, none is fatal, the connection stays open and every table keeps running.

Examples are bounded (``max_examples``) so that the file runs in a few seconds.
"""

from __future__ import annotations

import logging
import tracemalloc
from contextlib import contextmanager

import pytest
import trio
import trio.testing
from hypothesis import HealthCheck, event, given, settings, strategies as st

from pidor import wire
from pidor.bots import RandomBot
from pidor.cards import card_code, deck
from pidor.engine.game import ActionError, InvalidAction
from pidor.games import GAME_IDS, game_class, spec as game_spec
from pidor.engine.options import MAX_SECONDS
from pidor.engine.table import TABLE_DEFAULTS, TABLE_OPTIONS
from pidor.server.requests import ERRORS
from pidor.server.seating import server_options
from pidor.server.spectators import MAX_WATCH_DELAY
from pidor.server.testing import connect

from helpers import players_of
from server_helpers import seated_client, serve

# ------------------------------------------------------------------ values

#: What msgpack carries: 64-bit integers (signed or unsigned).
WIRE_INT = st.integers(-(2**63), 2**64 - 1)
CARDS = [card_code(c) for c in deck(52)]
#: Values that sit on the edges of the rules.
EDGES = [0, 1, -1, 2, 6, 7, 36, 52, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63), 500_000_000, 36.0, 52.0,
         0.5, -0.0, 3600, 3600.5, 1e300, "", "Th", "6s", "10♥", "As", "pidor", "podkidnoy", "perevodnoy",
         "builtin:random", "builtin:random:cheat=0.5", wire.PROTOCOL_VERSION, b"", b"\x00" * 8]
#: A few big values, only ever at the top of a field (a frame stays under MAX_FRAME).
BIG = ["\x00" * 6000, "я" * 3000, "x" * 8000, b"\x00" * 4096, list(range(1000))]


def nested(leaf: st.SearchStrategy, depth: int = 3) -> st.SearchStrategy:
    """Leaves, lists and maps with text keys, at most ``depth`` levels deep (so a message
    stays under MAX_DEPTH)."""
    if depth == 0:
        return leaf
    inner = nested(leaf, depth - 1)
    return leaf | st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)


def leaves(ints: st.SearchStrategy, floats: st.SearchStrategy) -> st.SearchStrategy:
    return (st.none() | st.booleans() | ints | floats | st.text(max_size=12) | st.binary(max_size=12)
            | st.sampled_from(EDGES))


#: Anything a Python caller could pass: huge integers, NaN and infinities too.
ANY = nested(leaves(st.integers() | st.sampled_from([10**5000, -(10**400)]), st.floats()))
#: Anything a peer can send in a frame (ints of 64 bits, finite floats).
WIRE = nested(leaves(WIRE_INT, st.floats(allow_nan=False, allow_infinity=False))) | st.sampled_from(BIG)

# ------------------------------------------------------------------ 1. parse_action


def play(game: str, steps: int):
    """A game of three (or as near as it allows) after ``steps`` honest actions (the first
    honest one of the first seat that has one), for ``check`` to see more than the deal."""
    g = game_class(game).new({"players": players_of(game)}, seed=b"fuzz")
    for _ in range(steps):
        moves = [(s, a) for s in g.to_act() for a in g.honest_actions(s)[:1]]
        if not moves:
            break
        g.apply(*moves[0])
        g.advance()
    return g


STATES = {game: [play(game, n) for n in (0, 12, 40)] for game in GAME_IDS}
KINDS = sorted({k for game in GAME_IDS for k in game_class(game).ACTIONS})
FIELDS = sorted({n for game in GAME_IDS for spec in game_class(game).ACTIONS.values() for n, _ in spec})


def parse(game: str, data):
    """``parse_action``'s only outcomes: ``InvalidAction`` with a short message, or an
    action of the game's kinds whose arguments are exact integers (cards 0..51)."""
    g = STATES[game][0]
    try:
        action = g.parse_action(data)
    except InvalidAction as e:
        assert len(e.message) < 300, e.message
        return None
    kind, *args = action
    spec = g.ACTIONS[kind]
    assert len(args) == len(spec) and all(type(a) is int for a in args), action
    assert all(0 <= a < 52 for (_, t), a in zip(spec, args) if t == "card"), action
    return action


def action_data(kind, fields: dict) -> dict:
    return {**fields, "type": kind}


def field_values(values: st.SearchStrategy) -> st.SearchStrategy:
    return st.dictionaries(st.sampled_from(FIELDS), values | st.sampled_from(CARDS) | st.integers(-2, 8), max_size=3)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(GAME_IDS), data=ANY)
def test_parse_action_takes_any_value_as_the_action(game, data):
    parse(game, data)


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(GAME_IDS), kind=st.sampled_from(KINDS) | ANY, fields=field_values(ANY))
def test_parse_action_takes_any_value_in_any_field(game, kind, fields):
    parse(game, action_data(kind, fields))


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(GAME_IDS), state=st.integers(0, 2), kind=st.sampled_from(KINDS),
       fields=field_values(WIRE))
def test_a_parsed_action_is_refused_only_with_an_action_error(game, state, kind, fields):
    """What reaches a game from the wire (64-bit integers) is checked by every seat
    without any other exception; ``check`` changes nothing."""
    action = parse(game, action_data(kind, fields))
    g = STATES[game][state]
    before = g.to_data()
    for seat in range(g.players):
        try:
            broken = g.check(seat, action)
        except ActionError as e:
            assert e.code in ERRORS and len(e.message) < 300, e
        else:
            assert all(type(rule) is str for rule in broken)
    assert g.to_data() == before


# ------------------------------------------------------------------ 2. server_options

OPTION_KEYS = ("game", "players", "deck", "bots", "call_window", "vote_timeout", "bito_timeout",
               "turn_timeout", "trick_display", "hard", "tutorial", "watch_delay")
PARAMS = tuple(RandomBot.PARAMS)
SPEC_PARAM = st.builds("{}{}{}".format, st.sampled_from(PARAMS + ("", "bluff", " cheat ")),
                       st.sampled_from(["=", "", "=="]),
                       st.sampled_from(["0", "1", "0.5", ".5", "1.", "nan", "inf", "1e400", "-0", "1e-3", "",
                                        "9" * 400, "0." + "0" * 400 + "1"]) | st.text(max_size=4))
SPEC = st.builds("{}{}".format, st.sampled_from(["builtin:random:", "builtin:random", "builtin:", ""]),
                 st.lists(SPEC_PARAM, max_size=5).map(",".join))


def options_of(values: st.SearchStrategy, ints: st.SearchStrategy) -> st.SearchStrategy:
    """``create`` options: known keys (sometimes ``bots``) with plausible or any values."""
    bots = ints | st.lists(SPEC | values, max_size=7) | st.lists(st.just("builtin:random"), max_size=7)
    value = (values | st.sampled_from(GAME_IDS) | st.integers(-1, 8) | st.sampled_from([None, 36, 52])
             | st.floats(-1, MAX_SECONDS + 1) | st.booleans())
    return st.dictionaries(st.sampled_from(OPTION_KEYS), value, max_size=6).flatmap(
        lambda o: st.fixed_dictionaries({}, optional={"bots": bots}).map(lambda b: {**o, **b}))


def obeys_the_rules(raw: dict, full: dict, specs: list[dict]) -> None:
    cls = game_class(full["game"])
    assert set(full) == set(TABLE_DEFAULTS) | set(cls.DEFAULTS) | {o.name for o in cls.CLOCKS} | {"watch_delay"}
    assert type(full["watch_delay"]) is float and 0 <= full["watch_delay"] <= MAX_WATCH_DELAY
    assert full["game"] in GAME_IDS
    assert type(full["players"]) is int and full["players"] in game_spec(full["game"]).players
    assert type(full["deck"]) is int and full["deck"] in game_spec(full["game"]).decks
    for o in TABLE_OPTIONS + cls.CLOCKS:
        value = full[o.name]
        assert o.kind != "seconds" or value is None or (type(value) in (int, float) and 0 <= value <= MAX_SECONDS), \
            (o.name, value)
    assert type(full["tutorial"]) is bool
    assert "hard" not in full or type(full["hard"]) is bool
    assert {k: v for k, v in raw.items() if k != "bots"}.items() <= full.items()  # kept as given
    assert len(specs) <= full["players"] - 1
    for spec in specs:
        assert spec["policy"] == "random" and set(spec) <= {"policy", *PARAMS}
        assert all(type(spec[p]) is float and 0 <= spec[p] <= 1 for p in PARAMS if p in spec)


@settings(max_examples=400, deadline=None)
@given(raw=options_of(ANY, st.integers()) | ANY)
def test_server_options_take_any_value_in_any_option(raw):
    tracemalloc.start()
    try:
        try:
            full, specs = server_options(raw)
        except ValueError as e:
            assert len(str(e)) < 300, str(e)
            full = None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000, peak  # nothing is built for a bad value (issue 8: 3.9 GB)
    if full is not None:
        obeys_the_rules(raw if isinstance(raw, dict) else {}, full, specs)


# ------------------------------------------------------------------ 3. over the wire

#: Stands for "the seq of the last turn or event this client saw" (filled in when sent).
LAST_SEQ = object()


class TurnOption(int):
    """Stands for option number ``self`` (modulo their count) of the last ``turn`` this
    client got, so that some actions are accepted and the games move on."""


def plausible_action() -> st.SearchStrategy:
    made_up = st.builds(action_data, st.sampled_from(KINDS), st.dictionaries(
        st.sampled_from(FIELDS), st.sampled_from(CARDS) | st.integers(-1, 6) | WIRE, max_size=2))
    return made_up | st.builds(TurnOption, st.integers(0, 50))


#: Each request's fields with values that may well be right (any of them may be left
#: out, and up to two get any value at all, see ``request``).
REQUESTS = {
    "hello": {"version": st.just(wire.PROTOCOL_VERSION), "name": st.text(min_size=1, max_size=40),
              "token": st.text(max_size=10)},
    "list": {"game": st.sampled_from(GAME_IDS), "open": st.booleans()},
    "create": {"options": options_of(WIRE, WIRE_INT)},
    "join": {"seat": st.integers(-1, 6)},
    "leave": {},
    "seed": {"seed": st.binary(max_size=70) | st.text("0123456789abcdefABCDEF", max_size=140)},
    "start": {},
    "act": {"action": plausible_action(), "seq": st.just(LAST_SEQ)},
    "call": {"seq": st.just(LAST_SEQ)},
    "pass": {"seq": st.just(LAST_SEQ)},
    "vote": {"guilty": st.booleans(), "seq": st.just(LAST_SEQ)},
    "tutorial_off": {},
    "resync": {},
    "ping": {},
}
#: Table ids: the host's table is 1, a table the loner creates 2.
COMMON = {"id": st.integers(0, 99) | st.text(max_size=70), "table": st.integers(1, 3), "extra": st.none()}


def request(kind: str) -> st.SearchStrategy:
    fields = {**REQUESTS[kind], **COMMON}
    plausible = st.fixed_dictionaries({"type": st.just(kind)}, optional=fields)
    anything = st.dictionaries(st.sampled_from(sorted(fields)), WIRE, max_size=2)
    return st.builds(lambda good, bad: {**good, **bad}, plausible, anything)


#: Game requests come more often than the rest (a ``leave`` ends most of the fun);
#: ``None`` is a message of any type.
KINDS_SENT = sorted(REQUESTS) + ["act"] * 4 + ["pass", "call", "resync", "seed", None]
MESSAGE = st.sampled_from(KINDS_SENT).flatmap(
    lambda kind: request(kind) if kind else st.fixed_dictionaries({"type": WIRE}, optional={"id": WIRE}))


def filled(msg: dict, client) -> dict:
    """``msg`` with LAST_SEQ and TurnOption replaced from what ``client`` received."""
    seqs = [m["seq"] for m in client.messages if "seq" in m]
    turns = [m["options"] for m in client.messages if m["type"] == "turn" and m["options"]]

    def fill(value):
        if value is LAST_SEQ:
            return seqs[-1] if seqs else 0
        if type(value) is TurnOption:
            return turns[-1][value % len(turns[-1])] if turns else {"type": "draw"}
        return value

    return {k: fill(v) for k, v in msg.items()}


@contextmanager
def server_errors():
    """Records logged at ERROR by the server (a failed table or connection task)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = records.append
    logger = logging.getLogger("pidor")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)


async def settle(client, tag: str) -> None:
    """Let the server handle everything sent so far, then read all it answered: once no
    task can run, every table has handled its inbox; the ``pong`` comes after the rest."""
    await trio.testing.wait_all_tasks_blocked()
    await client.send({"type": "ping", "id": tag})
    await client.receive(lambda m: m["type"] == "pong" and m["id"] == tag, timeout=5)


def assert_only_documented_errors(client) -> None:
    for m in client.messages:
        if m["type"] == "error":
            event(f"error {m['code']}")  # --hypothesis-show-statistics: what the examples reach
            assert m["code"] in ERRORS and "fatal" not in m, m
            assert len(m["message"]) < 300, m
        assert not (m["type"] == "closed" and m["reason"] != "empty"), m


async def assert_hello_answered(port, hello: dict) -> None:
    """A ``hello`` with any fields: ``welcome``, a non-fatal error (after which a proper
    hello works), or the fatal ``version_mismatch``; the server answers all."""
    c = await connect(port)
    await c.send(hello)
    reply = await c.receive(timeout=5)
    if reply["type"] == "error":
        assert reply["code"] in ERRORS, reply
        if reply.get("fatal"):
            assert reply["code"] == "version_mismatch", reply
            return
        reply = await c.hello("again")
    assert reply["type"] == "welcome", reply
    await settle(c, "hello")
    await c.aclose()


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game=st.sampled_from(GAME_IDS), hello=request("hello"),
       script=st.lists(st.tuples(st.integers(0, 2), MESSAGE), min_size=1, max_size=20))
async def test_requests_with_any_field_values_get_documented_errors(game, hello, script):
    """Two players at a running table with a bot (``host``, ``guest``) and one in the lobby
    (``loner``) send requests whose fields hold anything, each request handled before the
    next; afterwards each still gets answers, a seated one from its table too, and every
    table still runs. Also a first ``hello`` with any fields, on a connection of its own."""
    with server_errors() as errors:
        async with serve() as (server, port):
            await assert_hello_answered(port, hello)
            n = players_of(game)  # (the host, the guest and a bot where the game seats three)
            host = await seated_client(port, "host", options={"game": game, "players": n, "bots": n - 2})
            guest = await seated_client(port, "guest", table=host.table)
            assert (await host.request({"type": "start"}))["type"] == "ok"
            loner = await connect(port)
            loner.player = (await loner.hello("loner"))["player"]
            clients = (host, guest, loner)
            for n, (who, msg) in enumerate(script):
                await clients[who].send(filled(msg, clients[who]))
                await settle(clients[who], f"settle-{n}")
            for client in clients:
                await settle(client, "end")
                assert_only_documented_errors(client)
                if client.player in server.lobby.seated:
                    r = await client.request({"type": "resync"})
                    assert r["type"] in ("ok", "table"), r
            assert all(not runner.closed for runner in server.lobby.tables.values())
            for m in host.messages:
                if m["type"] == "event" and m["event"]["type"] in ("action", "call", "vote", "court"):
                    event(f"a {m['event']['type']} at the table")
    assert not errors, [r.getMessage() for r in errors]
