"""«Пень» and its variant «пеньки» (``variant=penki``): beat the top card and lead on it,
take by the card not beaten, the «пенёк» held back face down (S1–S7)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec
from .engine import StumpGame
from .rules import RULES

__all__ = ["GAMES", "StumpGame"]

EVENTS = {
    "deal": EventDoc("the deal: who dealt and who leads (S1), the trump, and its card while it lies face up "
                     "under the deck (S1; none when the last card dealt names trump, S6)",
                     ("dealer", "first", "trump", "trump_card")),
    "draw": EventDoc("a draw up to four, once its window closed (S3, T8); the cards only to the drawer",
                     ("seat", "count", "deck"), ("cards",)),
    "stub": EventDoc("a пенёк picked up, once its window closed (S5, T8); the cards only to its owner",
                     ("seat", "count"), ("cards",)),
    "payment_due": EventDoc("who owes the marked player a card (T14)", ("to", "from")),
    "give": EventDoc("a card paid for the mark; the card only to giver and recipient (T14)", ("from", "to"),
                     ("card",)),
}

GAMES = (
    GameSpec(
        id="stump",
        engine=StumpGame,
        title={"ru": "пень", "en": "«пень» (stump)"},
        loser={"ru": "пень", "en": "the «пень» (stump)"},
        rules=RULES,
        variants=({"variant": "penki"}, {"hard": True}),
        events=EVENTS,
        conform=Conform(impossible={"type": "take", "count": 99, "below": 0}),
    ),
)
