"""A seat's knowledge (pidor.bots.observe): the belief follows the real table exactly in
everything the seat may see, and the public check of a called action agrees with the
table's recorded violations (T5/T6: the table judges every rule from open cards)."""

from __future__ import annotations

import pytest

from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.engine.games import GAME_IDS
from pidor.engine.seeds import Rng
from pidor.engine.table import Table


def _step(driver: Driver, t: Table) -> None:
    """One table call: a policy's, or the clock's when no policy acts."""
    if driver.play(0.0, 1) == 0:
        driver.feed(t.tick(t.deadline()))


def _cheating_games(game: str, players: int, seeds: range):
    for g in seeds:
        t = Table({"game": game, "players": players})
        t.start(seed=b"observe-%d" % g)
        bots = [RandomBot(s, b"o%d" % g, cheat=0.3, attention=0.5, false_call=0.05, acquit=0.3)
                for s in range(players)]
        yield t, Driver(t, bots, Rng(b"observe-%d" % g, b"driver"))


@pytest.mark.parametrize("game", GAME_IDS)
def test_visible_violations_agree_with_the_tables_record_on_every_callable_action(game):
    """The property behind ``attention``: on every action that opens a call window, every
    seat that owes an answer judges from its own knowledge exactly the rules the table
    recorded. Many cheating games, every player count."""
    windows = cheats = 0
    for players in range(2, 7):
        for t, driver in _cheating_games(game, players, range(4)):
            last = None
            for _ in range(20_000):
                if t.over:
                    break
                w = t.window
                if w is not None and w is not last:
                    last = w
                    windows += 1
                    cheats += bool(w.violations)
                    for s in w.owing:
                        got = driver.seats[s].knowledge.visible_violations(w.seat, w.action)
                        assert got == tuple(w.violations), (players, s, w)
                _step(driver, t)
            assert t.over
    assert windows > 500 and cheats > 100


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_belief_shows_each_seat_exactly_its_own_view(game):
    """After every table call, each seat's belief table shows that seat the very view the
    real table shows it: public cards, counts, its own hand, the trump, the mark, the
    window and the court. Its honest and possible actions are the table's."""
    for players in (2, 4, 6):
        for t, driver in _cheating_games(game, players, range(1)):
            steps = 0
            while not t.over and steps < 20_000:
                _step(driver, t)
                steps += 1
                for s in range(players):
                    belief = driver.seats[s].knowledge.belief()
                    assert belief is not None
                    real, mine = t.view(s), belief.view(s)
                    for v in (real, mine):  # the clocks' deadlines differ (the belief's run at 0 s);
                        status = v["status"]  # who passed a window is not shown (T3)
                        for key in ("window", "court"):
                            if status[key] is not None:
                                status[key] = {k: x for k, x in status[key].items() if k not in ("deadline", "owing")}
                    assert mine == real, (players, s, steps)
                    assert belief.honest_actions(s) == t.honest_actions(s)
                    assert belief.actions(s) == t.actions(s)
            assert t.over
