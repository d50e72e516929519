"""Textbook decisions of the greedy and heuristic policies in «верю — не верю» (issue 23),
judged on a seat's wire-form view and honest options (what an Observation hands a policy);
decisions that do not hang on cards the seat cannot see; the heuristic's махлёж."""

from __future__ import annotations

import pytest
from test_doubt_rules import act, cards, setup

from pidor.bots import make_policy
from pidor.cards import deck as full_deck
from pidor.driver import Driver
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.games.doubt.bots import DoubtTactics, greedy_action, hypergeometric, useless

K, NINE = 13, 9


def wire(g, seat: int) -> tuple[dict, list[dict]]:
    """The seat's view and honest options, in wire form."""
    return g.view(seat), [g.action_data(a) for a in g.honest_actions(seat)]


def tactics(seat: int = 0) -> DoubtTactics:
    return DoubtTactics(seat, {"game": "doubt", "players": 3, "deck": 36})


def test_greedy_tells_the_truth_with_every_card_of_the_rank_it_holds_most_and_its_aces():
    g = setup(["7c 7d Kh Ah As 9c", "8c 6d", "Ks 6h"])
    assert greedy_action(*wire(g, 0)) == {"type": "lead", "rank": "7", "cards": ["7c", "7d", "Ah", "As"]}
    g = setup(["9c 9d 9h 9s 7c", "8c 6d", "Ks 6h"])
    assert greedy_action(*wire(g, 0))["type"] == "discard"  # a set first (B5)
    g = setup(["7c", "Kd Ad 6d", "Ks 6h"])
    act(g, 0, ("lead", K, cards("7c")))
    assert greedy_action(*wire(g, 1)) == {"type": "add", "cards": ["Kd", "Ad"]}


def test_greedy_doubts_what_its_own_hand_shows_impossible_else_lies_with_its_least_useful_card():
    g = setup(["7c 8c 6c", "Qd Qh Js 6d 6s", "Jc 6h"])
    act(g, 0, ("lead", K, cards("7c 8c 6c")))
    assert greedy_action(*wire(g, 1)) == {"type": "add", "cards": ["Js"]}  # a jack: held once, the lowest
    many = setup(["7c 8c 6c 6d 9c 9d 9h 8d 8h", "Qd", "Jc 6h"])
    act(many, 0, ("lead", K, cards("7c 8c 6c 6d 9c 9d 9h 8d 8h")))  # nine «kings»: more than there are
    assert greedy_action(*wire(many, 1)) == {"type": "doubt", "index": 0}
    assert useless(list(cards("Qd Qh Js 6d 6s Ah"))) == cards("Js")[0]


def test_greedy_pays_the_mark_with_its_least_useful_card():
    g = setup(["7c 7d Kh", "8c 6d", "Ks 6h"])
    g.payments = [[0, 1]]
    assert greedy_action(*wire(g, 0)) == {"type": "give", "card": "Kh"}


def test_heuristic_doubts_a_play_it_can_prove_false_and_adds_the_truth_when_it_holds_it():
    # every king and ace is in the discard, seen: seat 1's «one more king» is surely a lie
    g = setup(["7c 8c", "6d 9d", "Jc 6h"])
    act(g, 0, ("lead", K, cards("7c")))
    act(g, 1, ("add", cards("6d")))
    t = tactics(2)
    view, honest = wire(g, 2)
    assert t.p_last_true(view) == 0.0 and t.choice(view, honest) == {"type": "doubt", "index": 0}
    # seat 1 may hold kings and aces the seat cannot see: it adds the king it holds
    g = setup(["7c 8c", "6d 9d Kd Ad Ah", "Kc 6h"])
    act(g, 0, ("lead", K, cards("7c")))
    act(g, 1, ("add", cards("6d")))
    view, honest = wire(g, 2)
    assert t.p_last_true(view) > 0.0 and t.choice(view, honest) == {"type": "add", "cards": ["Kc"]}


def test_heuristic_takes_the_draw_when_the_other_of_the_last_two_played_his_last_cards():
    g = setup(["Kh", "8c 6d 7s", ""])
    g.out[2], g.order = True, [2]
    act(g, 0, ("lead", K, cards("Kh")))
    view, honest = wire(g, 1)
    assert tactics(1).choice(view, honest) == {"type": "add", "cards": ["8c", "6d", "7s"]}  # B6a: a draw
    assert not tactics(1).searches(view)


def test_heuristic_offers_a_false_set_only_where_nobody_saw_the_fourth_card():
    t = tactics()
    g = setup(["9c 9d 9h 7c 8c 6c", "Jc Jd 9s", "Qc Qd"])
    choice = {"type": "lead", "rank": "9", "cards": ["9c", "9d", "9h"]}
    (gain, fake), = t.cheats(None, g.view(0), choice)  # the fourth nine is where the seat cannot see
    assert fake == {"type": "discard", "rank": "9", "cards": ["9c", "9d", "9h", "6c"]} and gain == 1.0
    g.shown.append(cards("9s")[0])  # seen going into seat 1's hand: anyone can prove it
    assert t.cheats(None, g.view(0), choice) == []
    g = setup(["9c 9d 9h 7c 8c 6c", "Jc Jd", "Qc Qd"])
    g.placer[g.discard.index(cards("9s")[0])] = 0  # the seat laid it face down itself: nobody else knows
    t.seen.dead.add(cards("9s")[0])
    assert t.cheats(None, g.view(0), choice)[0][0] == 4.0


def test_the_chance_a_play_is_true_counts_the_cards_the_seat_cannot_place():
    assert hypergeometric(0, 4, 20, 5) == pytest.approx(4368 / 15504)
    assert sum(hypergeometric(j, 4, 20, 5) for j in range(5)) == pytest.approx(1.0)
    assert hypergeometric(3, 2, 20, 5) == 0.0


@pytest.mark.parametrize("policy", ["builtin:greedy", "builtin:heuristic", "builtin:ismcts:iterations=12"])
def test_decisions_do_not_hang_on_cards_the_seat_cannot_see(policy):
    """Two deals that differ only in two cards of two other hands: the same policy with the
    same seed decides the same (the generic test runs two-player games; this game has three
    players at least)."""
    order = shuffled(full_deck(36), b"hidden")
    swapped = list(order)
    swapped[1], swapped[2] = swapped[2], swapped[1]  # (seat 1's first card and seat 2's)
    decisions = []
    for deal in (order, swapped):
        table = Table({"game": "doubt", "players": 3})
        table.start(deck=deal, first=0)
        bot = make_policy(policy, 0, b"same seed")
        driver = Driver(table, [bot, None, None], Rng(b"d", b"driver"))
        decisions.append(bot.act(driver.observation(0)))
    assert decisions[0] is not None and decisions[0] == decisions[1]
