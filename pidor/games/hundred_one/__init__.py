"""«Сто одно» («бридж», «фараон»): cover by suit or rank, special cards, a series of deals
scored until somebody goes over 101 (H1–H9, T13a, T14, T15)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec, ResultField
from .engine import HundredOneGame
from .rules import RULES

__all__ = ["GAMES"]

_EVENTS = {
    "deal": EventDoc("a deal is dealt (H2): its number, the dealer, his face-up first card, the deck's and the "
                     "hands' counts; each hand only to its seat", ("number", "dealer", "card", "deck", "hands"),
                     ("cards",)),
    "draw": EventDoc("a player takes cards from the deck after the window (T8): a draw, or a penalty (H4a; "
                     "forgiven: what nothing was left for, H6); the cards only to him",
                     ("seat", "count", "deck", "forgiven"), ("cards",)),
    "reshuffle": EventDoc("the table but its top card is shuffled into a new deck (H6, T15)", ("count", "deck")),
    "pull": EventDoc("nothing left to draw: a random card from the next player holding two or more (H6); the card "
                     "only to the taker, its place in his hand (index) to the giver", ("seat", "from"),
                     ("cards", "index")),
    "deal_over": EventDoc("the deal is over (H8): who went out, every hand shown, each seat's points and scores",
                          ("number", "winner", "hands", "points", "scores")),
    "void": EventDoc("T13a: the deal went round in circles and is void (nobody scores); voids: in a row",
                     ("number", "reason", "voids")),
    "payment_due": EventDoc("who owes the marked player a card (T14)", ("to", "from")),
    "give": EventDoc("a card paid for the mark; the card only to giver and recipient (T14)", ("from", "to"),
                     ("card",)),
}

GAMES = (
    GameSpec(
        id="hundred_one",
        engine=HundredOneGame,
        title={"ru": "сто одно", "en": "hundred and one («сто одно»)"},
        loser={"ru": "проигравший", "en": "the loser"},
        rules=RULES,
        variants=({"bonus_hand": True}, {"hard": True}),
        events=_EVENTS,
        results=(ResultField("scores", "scores", {"en": "each seat's score at the end of the series (H8, H9)",
                                                  "ru": "очки каждого в конце партии (H8, H9)"}, tally="mean_score"),),
        conform=Conform(impossible={"type": "take_penalty", "count": 99}),
    ),
)
