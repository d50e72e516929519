"""Property tests every game must pass (OpenSpiel-style conformance): random games with
random cheats, calls and votes, checked after every step.

* every card is in exactly one place (zones partition the deck);
* there is at most one mark, and never on a player who has left (T7);
* no view and no projected event shows a seat another seat's hidden cards;
* undo (snapshot/restore) gives back the exact previous state;
* the whole table serializes to plain data and back, exactly;
* the fast enumeration of honest actions agrees with ``actions()`` + ``check()``;
* every seat the game waits on has an honest action (T9: a stand-in plays only those);
* every game ends within a bound, with exactly one loser holding the mark, or a draw.

The games are played by the one bot driver (``play_game``), as matches play them.
"""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.cards import card_code, deck as full_deck
from pidor.engine.game import ActionError, project
from pidor.engine.options import Option, named
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.games import GAME_IDS, spec

def strings_in(data) -> set[str]:
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def check_zones(table: Table) -> None:
    zones = table.game.zones()
    cards = [c for zone in zones.values() for c in zone]
    assert sorted(cards) == sorted(full_deck(table.options["deck"])), "a card is lost or in two places"


def check_mark(table: Table) -> None:
    mark = table.mark
    assert mark is None or 0 <= mark < table.game.players
    if mark is not None and not table.over:
        assert table.game.in_game(mark), "T7: a player who left still holds the mark"


def check_views(table: Table, events: list[dict], undone: bool) -> None:
    game = table.game
    # A card the table's options name (a проездной) may be named anywhere: a name is no sighting.
    names = named(table.options, type(game).OPTIONS)
    for seat in range(game.players):
        hidden = game.hidden_from(seat)
        # Independent of hidden_from: other seats' hands and every prikup are hidden.
        for name, zone in game.zones().items():
            kind, _, owner = name.partition(".")
            if (kind == "hand" and owner != str(seat)) or kind == "prikup":
                assert {card_code(c) for c in zone} <= hidden, f"{name} not hidden from seat {seat}"
        hidden = hidden - names
        leaked = strings_in(table.view(seat)) & hidden
        assert not leaked, f"view of seat {seat} shows hidden cards {leaked}"
        if not undone:
            for e in events:
                leaked = strings_in(project(e, seat)) & hidden
                assert not leaked, f"event {e['type']} shows seat {seat} hidden cards {leaked}"
    assert not strings_in(table.view(None)) & (game.hidden_from(None) - names)


def test_a_card_the_options_name_is_public_as_a_name():
    """``named``: the codes of ``cards`` options, which check_views lets a view name wherever
    the card lies (a name is no sighting); the other options name none."""
    declared = (Option("pass", [], "cards"), Option("deck", 36, "int", low=36, high=52), Option("x", None, "choice",
                                                                                              choices=(None, "Qs")))
    assert named({"pass": ["Qs", "6h"], "deck": 36, "x": "Qs"}, declared) == {"Qs", "6h"}
    assert named({"deck": 36}, declared) == set()


def _undone(data: dict) -> dict:
    """A game's data but the positions T13 has seen: recorded once a window has closed,
    they are the game's history and no undo un-counts one (T13)."""
    return {**data, "units": data["units"][1:]}


def check_undo_and_data(table: Table, seat: int, action: tuple) -> list[dict]:
    game = table.game
    before = game.to_data()
    snap = game.snapshot()
    events = table.act(seat, action)
    after = game.snapshot()
    game.restore(snap)
    restored = game.to_data()
    assert _undone(restored) == _undone(before), "restore(snapshot) is not the exact previous state"
    seen = restored["units"][0]
    assert all(seen.get(k, 0) >= n for k, n in before["units"][0].items())  # T13: never un-counted
    game.restore(after)
    data = table.to_data()
    assert Table.from_data(data).to_data() == data, "table data does not round-trip"
    assert msgpack.unpackb(msgpack.packb(data), strict_map_key=False) == data, "table data is not plain data"
    return events


def check_honest_actions(table: Table) -> None:
    """The fast enumeration of honest actions agrees with actions() + check()."""
    game = table.game
    for seat in table.to_act():
        honest = game.honest_actions(seat)
        assert sorted(honest) == sorted(a for a in game.actions(seat) if not game.check(seat, a)), seat
        if seat in game.obliged():
            assert honest, f"T9: the game waits on seat {seat}, who has no honest action (no stand-in could play it)"


def outcome(check, seat: int, action: tuple):
    """What a check says of ``action``: its violations, or the error it raises."""
    try:
        return check(seat, action)
    except ActionError as e:
        return type(e), e.message, e.rule


def check_judged_alike(game, seat: int, action: tuple) -> None:
    """``Game.judge`` of an action's wire form, parsed (as verify takes it: Table.act(parsed=True)),
    says what ``Game.check`` says, for the seat that takes it, the next one and one that
    does not exist."""
    parsed = game.parse_action(game.action_data(action))
    assert parsed == action
    for s in (seat, (seat + 1) % game.players, game.players):
        assert outcome(game.judge, s, parsed) == outcome(game.check, s, action), (s, action)


class Checked:
    """The table as the driver sees it, with every action checked: undo and the table's
    data round trip (the other calls and every read go to the table)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __getattr__(self, name: str):
        return getattr(self.table, name)

    def act(self, seat: int, action: tuple, now: float = 0.0, honest: bool = False) -> list[dict]:
        # (an option handed out unchanged, ``honest``, is checked all the same)
        check_judged_alike(self.table.game, seat, action)
        return check_undo_and_data(self.table, seat, action)


def check_state(table: Table) -> None:
    check_zones(table)
    check_mark(table)
    if not table.over and table.window is None and table.court is None:
        assert table.to_act(), "nobody may act in a game that is not over"
        check_honest_actions(table)


#: Every game in its defaults (``players`` and ``deck`` drawn within what it allows), and
#: every variant its spec names (``GameSpec.variants``), fewer examples each: they share
#: their game's engine. Read off the registry: a new game is covered by its folder.
GAMES = {g: {"game": g} for g in GAME_IDS}
VARIANTS = {f"{g}-" + "-".join(str(v) if type(v) is not bool else k for k, v in variant.items()): {"game": g, **variant}
            for g in GAME_IDS for variant in spec(g).variants}


def table_of(variant: str, players: int, deck: int, after_loss: bool) -> Table:
    """A table of ``variant`` with ``players`` and ``deck`` brought within its bounds;
    ``after_loss``: the table's previous game had a loser (V9 ``no_first_transfer``, D2)."""
    options = dict({**GAMES, **VARIANTS}[variant])
    s = spec(options["game"])
    options.setdefault("players", min(s.players, key=lambda n: abs(n - players)))
    options.setdefault("deck", deck if deck in s.decks else s.decks[0])
    table = Table(options)
    if after_loss:
        table.previous = {"loser": 0, "draw": False, "order": []}
    return table


def play_checked(variant: str, players: int, deck: int, seed: bytes, cheat: float, attention: float,
                 false_call: float, acquit: float, after_loss: bool = False) -> Table:
    table = table_of(variant, players, deck, after_loss)
    players = table.options["players"]
    table.start(seed=seed)
    bots = [RandomBot(s, seed, cheat=cheat, attention=attention, false_call=false_call, acquit=acquit)
            for s in range(players)]

    def after_step(events: list[dict]) -> None:
        if not events:  # a pass that leaves the window open changes nothing else
            return
        check_views(table, events, undone=any(e["type"] == "undo" for e in events))
        check_state(table)

    check_state(table)
    play_game(Checked(table), bots, Rng(seed, b"driver"), on_events=after_step)
    result = table.game.result
    assert result is not None
    if result["draw"]:
        assert result["loser"] is None
        if len(result["order"]) == players:  # everybody went out (P16), shedding the mark (T7)
            assert table.mark is None
        elif "stalled" not in result:  # the last ones went out together (D9, V7)
            assert table.mark is None or table.mark in range(players)
        else:  # T13: a position seen too often, too many quiet units, or too many in all
            units, limits = table.game.units, table.game.limits
            assert (result["stalled"] == "repetition" and max(units.seen.values()) >= limits["repeat_limit"]
                    or result["stalled"] == "quiet" and units.quiet >= limits["quiet_limit"]
                    or result["stalled"] == "units" and units.count >= limits["unit_limit"]), result
    else:
        assert 0 <= result["loser"] < players and table.mark == result["loser"]
        assert result["loser"] not in result["order"]
    return table


#: A random game: its seed, players and deck (brought within the game's bounds), the bots'
#: cheating and calling, and whether the table's previous game had a loser.
RANDOM_GAME = dict(
    seed=st.binary(min_size=1, max_size=8),
    players=st.integers(2, 6),
    deck=st.sampled_from([36, 52]),
    cheat=st.sampled_from([0.0, 0.1, 0.5]),
    attention=st.sampled_from([0.0, 0.5, 1.0]),
    false_call=st.sampled_from([0.0, 0.05, 0.3]),
    acquit=st.sampled_from([0.0, 0.5]),
    after_loss=st.booleans(),
)


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**RANDOM_GAME)
def test_random_games_keep_every_invariant(variant, seed, players, deck, cheat, attention, false_call, acquit,
                                           after_loss):
    play_checked(variant, players, deck, seed, cheat, attention, false_call, acquit, after_loss)


@pytest.mark.parametrize("variant", GAMES)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**RANDOM_GAME)
def test_a_random_game_of_each_game_keeps_every_invariant(variant, seed, players, deck, cheat, attention, false_call,
                                                          acquit, after_loss):
    """The fast tier's: the test above, with one random game of each game, not 25."""
    play_checked(variant, players, deck, seed, cheat, attention, false_call, acquit, after_loss)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=1, max_size=8),
    players=st.integers(2, 6),
    cheat=st.sampled_from([0.0, 0.1, 0.5]),
    attention=st.sampled_from([0.0, 0.5, 1.0]),
    false_call=st.sampled_from([0.0, 0.05, 0.3]),
    after_loss=st.booleans(),
)
def test_every_variant_keeps_every_invariant(variant, seed, players, cheat, attention, false_call, after_loss):
    play_checked(variant, players, 36, seed, cheat, attention, false_call, 0.0, after_loss)
