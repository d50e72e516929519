"""«Сто одно»'s search (issue 24): what a seat's belief learns from a draw and a pass (H3),
the determinizations it shapes by it, the search's reward by a deal's margin (H8, H9) and
its honest play (T6, T14: the heuristic calls nine cheats in ten here)."""

from __future__ import annotations

import math

from hundred_scenarios import C, new, play

from pidor.bots.ismcts import IsmctsPolicy
from pidor.engine.seeds import Rng
from pidor.games.hundred_one.belief import BELIEF, BeliefGame
from pidor.games.hundred_one.bots import HundredTactics
from pidor.match import run_match


def _belief(hands: list[str], blind: str, draws: str = "") -> BeliefGame:
    return BeliefGame.from_data(new(hands, blind, draws=draws).to_data())


def test_a_draw_and_a_pass_show_the_cards_that_would_have_covered():
    # H3: seat 1 drew and passed on 9h: he holds no heart and no nine (but a six, H4)
    g = _belief(["Th Jh Ks", "Tc Jc Kd 7d"], "9h", draws="8c")
    assert g.lacks == [set(), set()]
    play(g, "1: draw; 1: skip")
    lacks = g.lacks[1]
    assert C("Ah") in lacks and C("9s") in lacks and C("7h") in lacks
    assert C("6h") not in lacks and C("8c") not in lacks and C("9h") in lacks
    # the belief's copies (a determinization, an undo) keep it
    assert BeliefGame.from_data(g.to_data()).lacks == g.lacks
    # cards come in: what he lacked he may hold again
    play(g, "0: cover Th; 1: draw")
    assert g.lacks[1] == set()


def test_a_queen_on_top_shows_the_named_suit_and_the_queens_lacking():
    g = _belief(["Th Jh Ks", "Tc Jc Kd 7d"], "Qh", draws="8c")
    play(g, "0: name s; 1: draw; 1: skip")
    lacks = g.lacks[1]
    assert C("As") in lacks and C("Qd") in lacks and C("Ah") not in lacks


def test_a_determinization_deals_a_player_none_of_what_he_lacks():
    g = _belief(["Th Jh Ks", "Tc Jc Kd 7d"], "9h", draws="8c")
    play(g, "1: draw; 1: skip")
    lacked = g.lacks[1]
    hand = g.hands[1]
    hand[0] = next(c for c in g.deck if c in lacked)  # a deal at random put a lacked card in his hand
    g.deck[g.deck.index(hand[0])] = C("Tc")
    before = sorted(g.deck + hand)
    hidden = [(hand, i) for i in range(len(hand))] + [(g.deck, i) for i in range(len(g.deck))]
    BELIEF.weigh(g, Rng(b"test", "weigh"), hidden)
    assert not set(g.hands[1]) & lacked
    assert sorted(g.deck + g.hands[1]) == before  # only swapped


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
