"""«Пьяница» to the seat it happens to (issue 28 §2: «из вашей колоды», not «из колоды вы»)
and the viewer's table: a battle's flips side by side (W2)."""

from __future__ import annotations

from pidor.cards import deck as full_deck
from pidor.engine.seeds import Rng, shuffled
from pidor.games.drunkard.engine import DrunkardGame
from pidor.games.drunkard.text import TEXT
from pidor.games.text import Say


def say(me=0) -> Say:
    return Say("ru", lambda s: "вы" if s == me else f"bot-{s}", me)


def test_W3_a_card_drawn_from_your_deck_says_your_deck():
    e = {"type": "flipped", "seat": 1, "from": 0, "card": "7h", "index": 2, "deck": 0}
    assert TEXT.event(say(), e) == "bot-1 тянет 7♥ из вашей колоды (3-ю сверху)"
    assert TEXT.event(say(me=1), e) == "вы тянете 7♥ из колоды bot-0 (3-ю сверху)"


def test_T14_a_card_paid_to_you_goes_under_your_deck():
    assert TEXT.event(say(), {"type": "paid", "from": 1, "to": 0}) == "bot-1 отдаёт верхнюю карту под вашу колоду (T14)"


def test_W2_the_viewer_draws_a_battle_as_pairs_of_flips():
    zones = {"table": ["7h", "9s", "Kd", "7c", "2s"]}  # seat 0 flipped 7h 9s Kd, seat 1 7c 2s
    view = {"table": [["7h", "9s", "Kd"], ["7c", "2s"]]}
    assert TEXT.groups(zones, view) == {"table": [["7h", "7c"], ["9s", "2s"], ["Kd"]]}
    assert TEXT.ZONES["table"]["look"] == "pairs"


def test_W1_T10_the_deal_is_as_WIRE_md_says():
    """WIRE.md: the `deck` stream dealt by turns from seat 0; who flips first from `bottle`."""
    key = bytes(range(32))
    g = DrunkardGame.new({}, seed=key)
    order = shuffled(full_deck(36), key)
    assert g.decks == [order[0::2], order[1::2]] and g.first == Rng(key, b"bottle").below(2)
    assert g.drawn_place(17, 1) == Rng(key, b"draw 1").below(17)
