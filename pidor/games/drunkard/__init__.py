"""«Пьяница» (W1–W6): two players, each his own face-down deck, battles of flipped cards;
махлёж and calls are the only decisions there are."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec
from .engine import DrunkardGame
from .rules import RULES

__all__ = ["GAMES", "DrunkardGame"]

EVENTS = {
    "battle": EventDoc("a battle begins: its number and the cards each player holds; the first battle also says "
                       "who flips first in every round, drawn by lot (W2)", ("number", "decks", "first")),
    "flipped": EventDoc("a card flipped face up onto the table (W2): the card and the cards left in the deck; "
                        "counts false: a card that does not count (W6 face_down_dispute); from and index: W3's random "
                        "card, drawn from that seat's deck at that place (top first); winner: the round is decided; "
                        "dispute: the round is tied (W2)",
                        ("seat", "card", "deck", "counts", "from", "index", "winner", "dispute")),
    "paid": EventDoc("T14: the marked player's top card goes, unseen, under his opponent's deck", ("from", "to")),
    "reshuffle": EventDoc("W6 reshuffle: a player's side pile is shuffled into his deck, which ran out",
                          ("seat", "count")),
    "four_aces": EventDoc("W4a: a player holds all four aces at the end of a battle and wins", ("seat",)),
}

GAMES = (
    GameSpec(
        id="drunkard",
        engine=DrunkardGame,
        title={"ru": "«пьяница»", "en": "«пьяница» (drunkard)"},
        loser={"ru": "проигравший", "en": "the loser"},
        rules=RULES,
        variants=({"face_down_dispute": True}, {"six_beats_ace": True}, {"reshuffle": True}),
        events=EVENTS,
        conform=Conform(impossible={"type": "flip", "index": 99}),
    ),
)
