"""«Сто одно»'s search (issue 24): its reward by a deal's margin (H8, H9), its playouts
ending with the deal, and its honest play (T6, T14: the heuristic calls nine cheats in ten
here)."""

from __future__ import annotations

import math

from hundred_scenarios import new

from pidor.bots.ismcts import IsmctsPolicy
from pidor.games.hundred_one.bots import HundredTactics
from pidor.match import run_match


def test_the_search_scores_a_deal_by_its_margin_and_stops_with_it():
    t = HundredTactics(0, {"players": 2})
    g = new(["Th Jh Ks", "Tc Jc Kd 7d"], "9h")
    t.base = [0, 0]
    assert not t.stop(g)
    r = t.reward(g)  # cut off: each would add his hand (H8): seat 0 16, seat 1 23
    assert abs(r[0] - 1 / (1 + math.exp(-7 / t.MARGIN))) < 1e-9 and abs(r[0] + r[1] - 1.0) < 1e-9
    g.scores, g.dealing = [30, 5], True
    assert t.stop(g)
    lost = t.reward(g)
    assert lost[0] < 0.25 < 0.75 < lost[1]
    g.result = {"draw": False, "loser": 1}
    assert t.reward(g) == [1.0, 0.0]


def test_ismcts_plays_honestly_in_hundred_one(monkeypatch):
    def refused(*args):
        raise AssertionError("the search weighed a cheat")

    monkeypatch.setattr(IsmctsPolicy, "cheat_options", refused)
    r = run_match("hundred_one", 2, 1, seed="honest", specs=["builtin:ismcts:cheat=1,iterations=3,steps=60",
                                                             "builtin:heuristic"])
    assert len(r.records) == 1
