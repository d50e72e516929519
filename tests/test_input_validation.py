"""Issue 8, items 5 and 6: every input field is validated exactly, before it is used.

The exact reproductions from the issue, and the rules behind them: ``create`` options
(exact types, ranges, ``bots`` checked before anything is built), bot specs, actions
(``action_from_data``), and error messages that quote a peer's value only shortened so
that no reply breaks the protocol's limits. tests/test_fuzz_inputs.py checks the same
with arbitrary values.
"""

from __future__ import annotations

import tracemalloc

import pytest
import trio.testing

from pidor import wire
from pidor.bots import parse_spec
from pidor.cards import card_code, parse_card
from pidor.engine.game import ImpossibleAction, InvalidAction, action_from_data, action_to_data, shown
from pidor.games import GAME_IDS, game_class
from pidor.engine.table import table_options
from pidor.server.seating import server_options
from pidor.server.testing import connect

from helpers import players_of
from server_helpers import seated_client, serve

# ------------------------------------------------------------------ create options (item 5)


def test_a_huge_bot_count_is_refused_before_anything_is_built():
    """Issue 8 item 5: ``bots: 500000000`` took 3.9 GB before the range check."""
    server_options({})  # warm up: the game modules are imported on first use
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="bots must be 0..3"):
            server_options({"bots": 500_000_000})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000, peak


BAD_OPTIONS = [
    ({"bots": 2**63}, "bots"),  # issue 8: OverflowError, the connection closed
    ({"bots": -5}, "bots"),  # issue 8: silently 0 bots
    ({"deck": 36.0}, "deck"),  # issue 8: a float taken for a deck size
    ({"bots": True}, "bots"),
    ({"bots": 1.0}, "bots"),
    ({"bots": "builtin:random"}, "bots"),
    ({"players": 3, "bots": ["builtin:random"] * 3}, "bots"),
    ({"bots": [1]}, "bot spec"),
    ({"bots": ["builtin:random:cheat=nan"]}, "cheat"),
    ({"players": True}, "players"),
    ({"players": 3.0}, "players"),
    ({"players": 7}, "players"),
    ({"deck": True}, "deck"),
    ({"deck": "36"}, "deck"),
    ({"game": ["pidor"]}, "game"),
    ({"game": "bridge"}, "game"),
    ({"game": None}, "game"),
    ({"tutorial": 1}, "tutorial"),
    ({"game": "podkidnoy", "hard": 0}, "hard"),
    ({"hard": False}, "hard"),  # an option of another game
    ({"call_window": True}, "call_window"),
    ({"vote_timeout": float("nan")}, "vote_timeout"),
    ({"bito_timeout": float("inf")}, "bito_timeout"),
    ({"turn_timeout": 3601}, "turn_timeout"),
    ({"trick_display": -0.5}, "trick_display"),
    ({"trick_display": 10**400}, "trick_display"),
    ({"call_window": "2"}, "call_window"),
    ({"colour": "red"}, "colour"),
]


@pytest.mark.parametrize("options,named", BAD_OPTIONS, ids=[repr(o)[:60] for o, _ in BAD_OPTIONS])
def test_every_option_has_an_exact_type_and_range(options, named):
    with pytest.raises(ValueError, match=named) as e:
        server_options(options)
    assert len(str(e.value)) < 300


def test_options_must_be_a_map():
    for raw in ([], "pidor", 3, [["game", "pidor"]]):
        with pytest.raises(ValueError, match="options must be a map"):
            server_options(raw)
        with pytest.raises(ValueError, match="options must be a map"):
            table_options(raw)


def test_valid_options_are_kept_as_they_are():
    """What ``pidor match`` and the server pass keeps working, ints and floats alike."""
    assert table_options({"game": "podkidnoy", "players": 3, "deck": 52, "hard": True}) == {
        "game": "podkidnoy", "players": 3, "deck": 52, "hard": True, "teams": None, "no_limit": False,
        "two_trumps": False, "reserve": 0,
        "repeat_limit": 3, "quiet_limit": 100, "unit_limit": 5000,
        "call_window": 2.0, "vote_timeout": 30.0, "bito_timeout": 10.0, "turn_timeout": None, "tutorial": True}
    full, specs = server_options({"players": 3, "call_window": 0, "vote_timeout": 3600, "turn_timeout": None,
                                  "trick_display": 0.5, "bots": 2})
    assert (full["call_window"], full["vote_timeout"], full["turn_timeout"], full["trick_display"]) == (0, 3600, None, 0.5)
    assert specs == [{"policy": "random"}, {"policy": "random"}]
    assert server_options(None) == server_options({})


ODD_SPECS = [
    "builtin:random:cheat=nan",
    "builtin:random:cheat=1e400",
    "builtin:random:cheat=1e-3",
    "builtin:random:cheat=inf",
    "builtin:random:cheat=" + "9" * 5000,
    "builtin:random:cheat=0.1,cheat=0.2",
    "builtin:random:cheat=",
    "builtin:random:,",
    "builtin:random:cheat=-0",
    "builtin:random:cheat=1.5",
    "builtin:random:cheat=\u0661",  # an Arabic-Indic one: float() would take it
    "builtin:random:cheat=1_0",
    "builtin:random:bluff=0.5",
    "builtin:random:" + "\x00" * 16000,
    "builtin:smart",
    "",
]


@pytest.mark.parametrize("spec", ODD_SPECS, ids=range(len(ODD_SPECS)))
def test_odd_bot_specs_are_refused_with_a_short_reason(spec):
    with pytest.raises(ValueError) as e:
        parse_spec(spec)
    assert len(str(e.value)) < 300


def test_bot_specs_that_are_fine():
    assert parse_spec("builtin:random:") == {"policy": "random"}
    assert parse_spec("builtin:random:cheat=1, attention=.5,acquit=0") == {
        "policy": "random", "cheat": 1.0, "attention": 0.5, "acquit": 0.0}
    with pytest.raises(ValueError, match="string"):
        parse_spec(None)


async def test_the_issue_options_over_the_wire_get_bad_options_and_the_connection_stays():
    """Issue 8 item 5, as reported: each gets ``bad_options``; nothing closes."""
    async with serve() as (server, port):
        c = await connect(port)
        assert (await c.hello("opts"))["type"] == "welcome"
        for options in ({"bots": 500_000_000}, {"bots": 2**63}, {"bots": -5}, {"deck": 36.0}):
            r = await c.request({"type": "create", "options": options})
            assert r["type"] == "error" and r["code"] == "bad_options", r
            assert "fatal" not in r
        assert (await c.request({"type": "ping"}))["type"] == "pong"
        assert not server.lobby.tables
        r = await c.request({"type": "create", "options": {"players": 2, "bots": 1}})
        assert r["type"] == "joined", r


# ------------------------------------------------------------------ actions (item 6)

BAD_ARGS = [[1], {"a": 1}, b"Th", True, None, 1.0, "x" * 16000, "\x00" * 16000]
BAD_CARDS = [0, 10**5000, "11h", "Tx", "", "T"]
BAD_RANKS = [0, 13, "1", "Z", "", "Th", "KK"]
BAD_SUITS = [0, 3, "x", "", "S", "♠", "hh"]
#: A well-formed value of each argument type (an integer for ``seat`` and ``index``).
GOOD = {"card": "Th", "cards": ["Th"], "rank": "T", "suit": "h"}
#: The malformed values of each argument type, beside :data:`BAD_ARGS`.
BAD = {"card": BAD_CARDS, "rank": BAD_RANKS, "suit": BAD_SUITS}


def fresh(game: str):
    return game_class(game).new({"players": players_of(game)}, seed=b"validation")


@pytest.mark.parametrize("game", GAME_IDS)
def test_any_malformed_action_is_invalid_action(game):
    """Issue 8 item 6: ``{"type": [1]}`` raised ``TypeError: unhashable type``."""
    g = fresh(game)
    for data in ([1], "draw", None, 5, {"type": [1]}, {"type": {"a": 1}}, {"type": b"take"}, {"type": None},
                 {}, {"type": "x" * 16000}, {"type": "\x00" * 16000}):
        with pytest.raises(InvalidAction) as e:
            g.parse_action(data)
        assert len(e.value.message) < 300
    for kind, spec in g.ACTIONS.items():
        for name, _ in spec:
            good = {n: GOOD.get(t, 0) for n, t in spec}
            for bad in BAD_ARGS + BAD.get(dict(spec)[name], ["0"]):
                with pytest.raises(InvalidAction) as e:
                    g.parse_action({"type": kind, **good, name: bad})
                assert len(e.value.message) < 300, (kind, name)
            del good[name]
            with pytest.raises(InvalidAction, match=name):
                g.parse_action({"type": kind, **good})


def _nobodys(g) -> int:
    """A card for the actions that name one besides the integers this test is about: the
    top of the deck, or in a game that deals it all, the first card of the last seat's."""
    zones = g.zones()
    if zones.get("deck"):
        return zones["deck"][0]
    return next(cards[0] for name, cards in zones.items() if name.endswith(f".{g.players - 1}") and cards)


def test_a_suit_argument_is_a_suit_letter_on_the_wire_and_its_number_in_the_engine():
    """An action may name a suit (a queen's in «сто одно», H4): on the wire one of ``c``,
    ``d``, ``h``, ``s``; anything else is ``invalid_action`` (a suit that does not exist)."""
    spec = {"queen": (("card", "card"), ("suit", "suit"))}
    data = {"type": "queen", "card": "Qh", "suit": "s"}
    assert action_from_data(spec, data) == ("queen", parse_card("Qh"), 3)
    assert action_to_data(spec, ("queen", parse_card("Qh"), 3)) == data
    for bad in BAD_SUITS + BAD_ARGS:
        with pytest.raises(InvalidAction, match="suit"):
            action_from_data(spec, {**data, "suit": bad})


@pytest.mark.parametrize("game", GAME_IDS)
def test_seats_and_indices_out_of_range_are_the_games_to_refuse(game):
    """Negative and huge integers are well formed; the game refuses them (T1) and
    nothing changes."""
    g = fresh(game)
    before = g.to_data()
    for kind, spec in g.ACTIONS.items():
        for number in (-1, -(2**63), 2**64 - 1, 52):
            card = card_code(_nobodys(g))
            data = {"type": kind, **{n: card if t == "card" else [card] if t == "cards" else GOOD[t] if t in GOOD
                                     else number for n, t in spec}}
            action = g.parse_action(data)
            if any(t not in GOOD for _, t in spec):
                for seat in range(g.players):
                    with pytest.raises(ImpossibleAction):
                        g.apply(seat, action)
    assert g.to_data() == before
    if "give" in g.ACTIONS:  # (a card as people write it)
        assert g.parse_action({"type": "give", "card": "10♥"}) == ("give", parse_card("Th"))


def test_shown_values_stay_short():
    for value in ("\x00" * 16000, b"\x00" * 4096, [[[["x" * 1000] * 100] * 100]], 10**5000, {"k" * 500: 1}):
        assert len(shown(value)) <= 100


async def running_table(port, game="pidor"):
    """A seat at a 2-player table whose game runs; returns (client, the last seq seen, for
    an ``act`` to name the state it was chosen from)."""
    c = await seated_client(port, "fuzz", options={"game": game, "players": 2, "bots": 1})
    assert (await c.request({"type": "start"}))["type"] == "ok"
    await trio.testing.wait_all_tasks_blocked()  # the bot has played, if it leads
    assert (await c.request({"type": "ping"}))["type"] == "pong"  # and we have read it all
    return c, [m["seq"] for m in c.messages if "seq" in m][-1]


async def assert_table_alive(server, c):
    """The table still answers, and nobody was told it closed."""
    r = await c.request({"type": "resync"})
    assert r["type"] == "ok", r
    assert not server.lobby.tables[c.table].closed
    assert not [m for m in c.messages if m["type"] == "closed"]


@pytest.mark.parametrize("action", [{"type": [1]}, {"type": "\x00" * 16000}, {"type": "lead", "card": ["\x00" * 100] * 300}],
                         ids=["unhashable type", "huge type", "huge card"])
async def test_a_malformed_action_does_not_crash_the_table(action, autojump_clock):
    """Issue 8 item 6: the exact frame that crashed a table, and two whose error message
    would have been over the protocol's limits."""
    async with serve() as (server, port):
        c, seq = await running_table(port)
        r = await c.request({"type": "act", "seq": seq, "action": action})
        assert r["type"] == "error" and r["code"] == "invalid_action", r
        assert len(r["message"]) < 300
        await assert_table_alive(server, c)


async def test_a_huge_unknown_type_gets_a_short_error_and_the_connection_stays(autojump_clock):
    async with serve() as (server, port):
        c = await connect(port)
        assert (await c.hello("t"))["type"] == "welcome"
        r = await c.request({"type": "\x00" * 16000})
        assert r["code"] == "unknown_type" and len(r["message"]) < 300
        assert (await c.request({"type": "ping"}))["type"] == "pong"


async def test_a_huge_version_gets_a_short_version_mismatch(autojump_clock):
    async with serve() as (server, port):
        c = await connect(port)
        r = await c.hello("v", version="\x00" * 16000)
        assert r["code"] == "version_mismatch" and r["fatal"] is True
        assert len(wire.encode(r)) < 1000
