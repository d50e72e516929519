"""The greedy, heuristic and ismcts policies at the table (issue 15): determinism with a
seed, decisions that do not depend on hidden cards, and a short strength smoke test (few
games, loose bounds; the figures come from scripts/bench_bots.py)."""

from __future__ import annotations

import pytest

from pidor.bots import make_policy
from pidor.cards import deck as full_deck
from pidor.cards import parse_card
from pidor.driver import Driver
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.games import GAME_IDS, spec
from pidor.match import run_match

CHEATY_FIELD = "builtin:random:cheat=0.2,attention=0.5"


@pytest.mark.parametrize("game,specs", [
    ("podkidnoy", ["builtin:ismcts:iterations=8", "builtin:heuristic"]),
    ("perevodnoy", ["builtin:heuristic:cheat=1", CHEATY_FIELD, "builtin:greedy"]),
    ("pidor", ["builtin:heuristic", CHEATY_FIELD, "builtin:ismcts:iterations=1"]),
])
def test_same_seed_same_games(game, specs):
    runs = [run_match(game, len(specs), 1, seed="determinism", specs=specs).to_dict() for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0]["games"] == 1 and runs[0]["actions"] > 0


def _swap(order: list[int], i: int, j: int) -> list[int]:
    order = list(order)
    order[i], order[j] = order[j], order[i]
    return order


def _hidden_swap(game: str, order: list[int]) -> list[int]:
    """``order`` with two cards seat 0 cannot see swapped, from two different places (a
    card of seat 1's and one of the deck, or face down)."""
    table = Table({"game": game, "players": 2, "deck": len(order)})
    table.start(deck=order, first=0)
    hidden = {parse_card(c) for c in table.game.hidden_from(0)}
    where = {c: zone for zone, cards in table.game.zones().items() for c in cards if c in hidden}
    a = next(c for c in order if c in where)
    b = next(c for c in order if c in where and where[c] != where[a])
    return _swap(order, order.index(a), order.index(b))


@pytest.mark.parametrize("policy", ["builtin:heuristic", "builtin:ismcts:iterations=12", "builtin:greedy"])
@pytest.mark.parametrize("game", [g for g in GAME_IDS if 2 in spec(g).players])
def test_decisions_do_not_depend_on_other_seats_hidden_cards(game, policy):
    """Two deals that differ only in two cards seat 0 cannot see, in two places: the same
    policy with the same seed decides the same."""
    if not make_policy(policy, 0, b"").plays(game):
        pytest.skip(f"{policy} does not play {game}")
    order = shuffled(full_deck(spec(game).decks[0]), b"hidden")
    decisions = []
    for deal in (order, _hidden_swap(game, order)):
        table = Table({"game": game, "players": 2, "deck": spec(game).decks[0]})
        table.start(deck=deal, first=0)
        bot = make_policy(policy, 0, b"same seed")
        driver = Driver(table, [bot, None], Rng(b"d", b"driver"))
        decisions.append(bot.act(driver.observation(0)))
    assert decisions[0] is not None and decisions[0] == decisions[1]


def losses(result, seat: int) -> int:
    return sum(1 for record in result.records if record["loser"] == seat)


@pytest.mark.slow
def test_smoke_heuristic_beats_random_and_greedy():
    r = run_match("podkidnoy", 2, 24, seed="smoke", specs=["builtin:heuristic", "builtin:random"])
    assert losses(r, 0) <= 4 < losses(r, 1)
    lost = 0
    for seat in range(4):  # seats rotated: chance is a quarter
        specs = ["builtin:greedy"] * 3
        specs.insert(seat, "builtin:heuristic:cheat=0")
        lost += losses(run_match("pidor", 4, 10, seed=f"smoke{seat}", specs=specs), seat)
    assert lost <= 16  # of 40 games


def test_smoke_ismcts_beats_random():
    r = run_match("podkidnoy", 2, 4, seed="smoke", specs=["builtin:ismcts:iterations=10", "builtin:random"])
    assert losses(r, 0) <= 1 < losses(r, 1)


def test_ismcts_plays_out_the_seat_the_game_waits_on_where_several_may_act():
    """Issue 22 §2: where two seats may act at once and the game waits on one of them
    (``Game.obliged``), the search's playouts move that one (they knew one game's only)."""
    from pidor.bots.ismcts import _turn
    from pidor.engine.game import Game

    class Both(Game):
        def to_act(self) -> list[int]:
            return [0, 1]

        def obliged(self) -> list[int]:
            return [1]

        def honest_actions(self, seat: int) -> list[tuple]:
            return [("go",)] if seat == 1 else []

    assert _turn(Both()) == (1, [("go",)])


def test_ismcts_learns_from_the_windows_on_its_own_cheats():
    """Issue 30: like the heuristic, the search's call rates count the windows on its own
    cheats (it said nothing of them before, so a table that called every cheat stayed at the
    prior to it and it went on cheating)."""
    from pidor.autoplay import play_game
    from pidor.bots import RandomBot
    from pidor.bots.ismcts import IsmctsPolicy
    from pidor.engine.seeds import Rng
    from pidor.engine.table import Table

    me = IsmctsPolicy(0, b"rates", cheat=1.0, iterations=8, steps=400)
    caller = RandomBot(1, b"rates", attention=1.0)
    for game in range(3):
        table = Table({"game": "podkidnoy", "players": 2})
        if game:
            me.new_game(0, b"rates %d" % game)
        play_game(table, [me, caller], Rng(b"rates", b"driver"), started=table.start(seed=b"rates %d" % game))
    assert me.rates is not None and me.rates.chances[1] > 0
    assert me.rates.rate(1) > 0.5  # it called them: the rate left the prior of 0.2
