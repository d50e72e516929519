"""Suits, ranks, cards and decks.

A card is a plain ``int`` so that game states stay cheap to copy and serialize:
``card = suit * 13 + (rank - 2)`` with ranks 2..14 (14 is the ace) and suits
clubs, diamonds, hearts, spades = 0..3.

Text forms are parsed and printed here and nowhere else:

>>> parse_card("10♥") == parse_card("10h") == parse_card("Th") == parse_card("TH")
True
>>> card_text(parse_card("qs"))
'Q♠'
>>> card_code(parse_card("10♥"))
'Th'

``card_code`` (two ASCII characters: rank ``23456789TJQKA``, suit ``cdhs``) is the
form used on the wire and in logs; ``card_text`` is the form shown to people.
"""

from __future__ import annotations

from typing import Iterable

__all__ = [
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "SPADES",
    "SUITS",
    "ACE",
    "Card",
    "make_card",
    "rank_of",
    "suit_of",
    "parse_card",
    "parse_cards",
    "card_code",
    "CARD_OF_CODE",
    "card_text",
    "parse_rank",
    "rank_code",
    "rank_text",
    "parse_suit",
    "suit_code",
    "deck",
    "low_rank",
]

Card = int

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
ACE = 14

_SUIT_CODES = "cdhs"
_SUIT_SYMBOLS = "♣♦♥♠"
_SUIT_ALIASES = {
    **{c: i for i, c in enumerate(_SUIT_CODES)},
    **{c: i for i, c in enumerate(_SUIT_SYMBOLS)},
    # Text-presentation variants of the symbols and the white suits.
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_RANK_CODES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
               10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_TEXT = {**_RANK_CODES, 10: "10"}
_RANK_ALIASES = {
    **{v: k for k, v in _RANK_CODES.items()},
    "10": 10,
    # Russian letters: валет, дама, король, туз.
    "В": 11, "Д": 12, "К": 13, "Т": 14,
}


def make_card(rank: int, suit: int) -> Card:
    if not 2 <= rank <= ACE or suit not in SUITS:
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return suit * 13 + rank - 2


def rank_of(card: Card) -> int:
    return card % 13 + 2


def suit_of(card: Card) -> int:
    return card // 13


def parse_card(text: str) -> Card:
    """Parse ``10♥``, ``10h``, ``Th``, ``QS``, ``q♠`` (or Russian rank letters: ``В♠``, ``Т♥`` = ace)."""
    if type(text) is str:
        card = CARD_OF_CODE.get(text)  # the wire form, the common case
        if card is not None:
            return card
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'Th' or '10♥', not {text!r}")
    s = text.strip()
    if len(s) < 2:
        raise ValueError(f"not a card: {text!r} (write it like 'Th', '10h' or '10♥')")
    rank_part, suit_part = s[:-1].upper(), s[-1]
    suit = _SUIT_ALIASES.get(suit_part.lower(), _SUIT_ALIASES.get(suit_part))
    rank = _RANK_ALIASES.get(rank_part)
    if suit is None or rank is None:
        raise ValueError(f"not a card: {text!r} (write it like 'Th', '10h' or '10♥')")
    return make_card(rank, suit)


def parse_suit(text: str) -> int:
    """A suit as typed: its letter (``s``, ``S``) or its sign (``♠``, ``♤``)."""
    suit = _SUIT_ALIASES.get(text.strip().lower()) if isinstance(text, str) else None
    if suit is None:
        raise ValueError(f"not a suit: {text!r} (write it c, d, h, s or ♣ ♦ ♥ ♠)")
    return suit


def suit_code(suit: int) -> str:
    """The suit's letter on the wire and in logs: ``c``, ``d``, ``h``, ``s``."""
    return _SUIT_CODES[suit]


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse several cards, given as a list or as one space-separated string."""
    if isinstance(texts, str):
        texts = texts.split()
    return [parse_card(t) for t in texts]


def parse_rank(text: str) -> int:
    """A rank as people write it (``K``, ``k``, ``10``, ``T``, Russian ``К``; ``Т`` is the ace)
    -> 2..14; ``ValueError`` for anything else."""
    rank = _RANK_ALIASES.get(text.strip().upper()) if type(text) is str and len(text) <= 4 else None
    if rank is None:
        raise ValueError(f"not a rank: {text!r} (write it like 'K', '10' or 'T')")
    return rank


def rank_code(rank: int) -> str:
    """The one-character ASCII form of a rank 2..14 on the wire and in logs: ``T``, ``K``, ``6``."""
    return _RANK_CODES[rank]


def rank_text(rank: int) -> str:
    """The form shown to people: ``10``, ``K``."""
    return _RANK_TEXT[rank]


def card_code(card: Card) -> str:
    """The two-character ASCII form used on the wire and in logs: ``Th``, ``6s``."""
    return _CODES[card]


def card_text(card: Card) -> str:
    """The form shown to people: ``10♥``, ``Q♠``."""
    return _RANK_TEXT[rank_of(card)] + _SUIT_SYMBOLS[suit_of(card)]


#: The decks there are: their size -> their lowest rank.
_LOW_RANKS = {52: 2, 36: 6, 24: 9}


def low_rank(deck_size: int) -> int:
    """The lowest rank of a deck: 2 in the 52-card deck, 6 in the 36-card deck, 9 in the
    24-card deck."""
    low = _LOW_RANKS.get(deck_size)
    if low is None:
        raise ValueError(f"a deck has 24, 36 or 52 cards, not {deck_size}")
    return low


def deck(size: int) -> list[Card]:
    """All cards of a 24-, 36- or 52-card deck, in a fixed order (suit by suit, low to high)."""
    low = low_rank(size)
    return [suit * 13 + rank - 2 for suit in SUITS for rank in range(low, ACE + 1)]  # (make_card's)


_CODES = tuple(_RANK_CODES[c % 13 + 2] + _SUIT_CODES[c // 13] for c in range(52))
#: A card's wire form (``Th``) -> the card: :func:`parse_card`'s common case, for a caller that
#: tries it inline first.
CARD_OF_CODE = {code: card for card, code in enumerate(_CODES)}
