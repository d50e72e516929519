"""How «сто одно» reads to the seat that acts (issue 28 §2: «вы» with plural verbs, no seat
number), a pass after a draw (H3) apart from a lost turn (H4a), the hand in suit order."""

from __future__ import annotations

import re

from pidor.cards import deck as full_deck
from pidor.engine.seeds import Rng, shuffled
from pidor.games.hundred_one.engine import HundredOneGame
from pidor.games.hundred_one.text import TEXT
from pidor.games.text import Say


def say(me=0, lang="ru") -> Say:
    return Say(lang, lambda s: "вы" if s == me else f"bot-{s}", me)


def test_H3_a_pass_after_drawing_is_not_a_lost_turn_H4a():
    assert TEXT.action(say(), 1, {"type": "skip"}, None, None) == "bot-1: пас"
    assert TEXT.action(say(), 0, {"type": "skip"}, None, None) == "вы пасуете"
    assert TEXT.action(say(), 1, {"type": "take_penalty", "count": 0}, None, None) == "bot-1 пропускает ход"
    assert TEXT.action(say(lang="en"), 1, {"type": "skip"}, None, None) == "bot-1 passes"


def test_the_board_and_events_say_you_with_plural_verbs():
    view = {"deal": 2, "dealer": 0, "turn": 0, "naming": True, "table": ["Qs"], "hands": [3, 4],
            "scores": [0, 0], "penalty": {"seat": 0, "count": 2}}
    lines = TEXT.board(say(), view)
    assert "сдача 2, сдавали вы" in lines and "вы заказываете масть дамы" in lines
    assert "вы должны взять штраф: 2" in lines
    assert not any(re.search(r"вы (?:сдаёт|должен|заказывает)\b", x) for x in lines)
    assert TEXT.event(say(), {"type": "deal", "number": 1, "dealer": 0, "card": "7h"}) == \
        "сдача 1: сдаёте вы, открыта 7♥"
    assert TEXT.event(say(), {"type": "pull", "seat": 1, "from": 0}) == "bot-1 тянет наугад карту у вас"
    assert "вышли вы" in TEXT.event(say(), {"type": "deal_over", "number": 1, "winner": 0, "points": [0, 5],
                                            "scores": [0, 5]})


def test_the_hand_is_shown_by_suit_then_rank():
    assert TEXT.hand_order({}, ["Ah", "6s", "Th", "Qs", "7c"]) == ["6s", "Qs", "Th", "Ah", "7c"]


def test_H2_T15_the_deals_are_as_WIRE_md_says():
    """WIRE.md: deal 1 from the `deck` stream round the table from the seat after the dealer
    (the `bottle`'s), his fourth face up; deal 2 from the stream `deal 2`."""
    key, n = bytes(range(32)), 3
    g = HundredOneGame.new({"players": n}, seed=key)
    order = shuffled(full_deck(36), key)
    assert g.dealer == Rng(key, b"bottle").below(n)
    assert all(order[i] in g.hands[(g.dealer + 1 + i) % n] for i in range(4 * n - 1))
    assert g.table[0] == order[4 * n - 1] and g.deck[::-1] == order[4 * n:]
    assert g._next_order() == shuffled(full_deck(36), key, b"deal 2")
