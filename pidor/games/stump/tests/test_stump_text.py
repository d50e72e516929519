"""How «пень» reads to the player himself (issue 28 §2, §3): «вы» with plural verbs, the hand
by suit with trumps last, the cards a take moves (S4) for a court's panel."""

from __future__ import annotations

from pidor.games.stump.text import TEXT
from pidor.games.text import Say


def _say(me: int) -> Say:
    return Say("ru", lambda s: "вы" if s == me else f"игрок{s}", me)


def test_S1_the_deal_line_says_vy_with_plural_verbs():
    e = {"type": "deal", "dealer": 0, "first": 1, "trump": "c", "trump_card": "Tc"}
    assert TEXT.event(_say(0), e) == "сдаёте вы, ходит игрок1; козырь ♣ (10♣ под колодой)"
    assert TEXT.event(_say(1), e) == "сдаёт игрок0, ходите вы; козырь ♣ (10♣ под колодой)"


def test_S1_the_hand_by_suit_trumps_last_then_rank():
    assert TEXT.hand_order({"trump": "s"}, ["As", "9h", "6s", "Th", "7c"]) == ["9h", "Th", "7c", "6s", "As"]


def test_S4_a_take_plays_the_cards_under_below():
    before = {"stack": ["6c", "7c", "8c", "9c"]}
    assert TEXT.action_cards(0, {"type": "take", "count": 2, "below": 1}, before) == ["7c", "8c"]
    assert TEXT.action_cards(0, {"type": "take", "count": 9, "below": 0}, before) == []
