"""Cards, decks and their text forms (pidor/cards.py)."""

import pytest

from pidor.cards import (
    ACE, HEARTS, SPADES, card_code, card_text, deck, low_rank, make_card, parse_card, parse_cards, parse_rank,
    rank_code, rank_of, rank_text, suit_of,
)
from pidor.engine.game import InvalidAction, action_from_data, action_to_data


@pytest.mark.parametrize("text", ["10♥", "10h", "Th", "TH", "th", "10H", " 10♡ "])
def test_ten_of_hearts_in_every_form(text):
    assert parse_card(text) == make_card(10, HEARTS)


@pytest.mark.parametrize("text,rank,suit", [("QS", 12, SPADES), ("q♠", 12, SPADES), ("As", ACE, SPADES),
                                            ("2c", 2, 0), ("6♦", 6, 1), ("Дп", None, None)])
def test_parse_ranks_and_suits(text, rank, suit):
    if rank is None:
        with pytest.raises(ValueError):
            parse_card(text)
    else:
        c = parse_card(text)
        assert (rank_of(c), suit_of(c)) == (rank, suit)


@pytest.mark.parametrize("bad", ["", "1h", "11h", "Tx", "h", "10", 10, None, "AA"])
def test_bad_text_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="card"):
        parse_card(bad)


def test_every_card_prints_and_parses_back():
    for c in deck(52):
        assert parse_card(card_code(c)) == c
        assert parse_card(card_text(c)) == c
        assert len(card_code(c)) == 2 and card_code(c).isascii()


def test_decks():
    assert len(deck(52)) == len(set(deck(52))) == 52
    assert len(deck(36)) == len(set(deck(36))) == 36
    assert min(rank_of(c) for c in deck(36)) == 6 == low_rank(36)
    assert min(rank_of(c) for c in deck(52)) == 2 == low_rank(52)
    assert set(deck(36)) < set(deck(52))
    with pytest.raises(ValueError):
        deck(40)


def test_the_24_card_deck_is_nine_to_ace():
    """Z1: «залупа» plays 24 cards, nine to ace of each suit."""
    assert len(deck(24)) == len(set(deck(24))) == 24 and low_rank(24) == 9
    assert sorted({rank_of(c) for c in deck(24)}) == [9, 10, 11, 12, 13, 14]
    assert set(deck(24)) < set(deck(36))


def test_parse_cards_accepts_a_string_or_a_list():
    assert parse_cards("Th 10♣ QS") == parse_cards(["Th", "Tc", "Qs"]) == [
        make_card(10, HEARTS), make_card(10, 0), make_card(12, SPADES)]
    assert card_text(parse_card("Tc")) == "10♣"


@pytest.mark.parametrize("text,rank", [("K", 13), ("k", 13), ("10", 10), ("T", 10), (" q ", 12), ("К", 13),
                                       ("т", ACE), ("A", ACE), ("6", 6), ("2", 2)])
def test_a_rank_in_every_form(text, rank):
    assert parse_rank(text) == rank


@pytest.mark.parametrize("bad", ["", "1", "11", "Z", "KK", "10h", 13, None, "x" * 16000])
def test_a_bad_rank_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="rank"):
        parse_rank(bad)


def test_every_rank_prints_and_parses_back():
    for r in range(2, ACE + 1):
        assert parse_rank(rank_code(r)) == parse_rank(rank_text(r)) == r and len(rank_code(r)) == 1


def test_a_rank_argument_on_the_wire_is_its_code():
    """An action may name a rank (a claim): on the wire its one-letter code, in the engine
    2..14; anything else is ``invalid_action``."""
    spec = {"claim": (("rank", "rank"), ("cards", "cards"))}
    action = ("claim", 10, (parse_card("Th"), parse_card("As")))
    data = action_to_data(spec, action)
    assert data == {"type": "claim", "rank": "T", "cards": ["Th", "As"]}
    assert action_from_data(spec, data) == action == action_from_data(spec, {**data, "rank": "10"})
    for bad in (10, "1", "Th", None, ["T"]):
        with pytest.raises(InvalidAction, match="claim.rank must be a rank"):
            action_from_data(spec, {**data, "rank": bad})
