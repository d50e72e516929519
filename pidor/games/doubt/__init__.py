"""«Верю — не верю» (also «наеби соседа»): the bluffing game (B1–B8), with its options
``check_one`` and ``no_believe`` («наеби товарища»).

Its own challenge, «не верю», is a game action (``doubt``); «пидор!» stays the table's call,
for what the rules forbid (B5f: a discard that is not four of a kind)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec
from .engine import DoubtGame
from .rules import RULES

__all__ = ["GAMES", "DoubtGame"]

EVENTS = {
    "leader": EventDoc("who leads the next pile (B1, B4, B6)", ("seat",)),
    "open": EventDoc("the last play turned face up by «верю» or «не верю» (B4): whose play, who opened it, "
                     "which he said, the rank named, the play's size, the cards opened (check_one: the one at "
                     "index, B8) and whether they are true", ("seat", "by", "says", "rank", "count", "cards",
                                                              "true", "index")),
    "pile": EventDoc("the pile leaves the table (B4, B6a): to the discard (face down but for the opened cards) "
                     "or into a player's hand; the cards only to the taker", ("outcome", "seat", "count"),
                     ("cards",)),
    "payment_due": EventDoc("who owes the marked player a card (T14)", ("to", "from")),
    "give": EventDoc("a card paid for the mark; the card only to giver and recipient (T14)", ("from", "to"),
                     ("card",)),
}

GAMES = (
    GameSpec(
        id="doubt",
        engine=DoubtGame,
        title={"ru": "«верю — не верю»", "en": "believe it or not"},
        loser={"ru": "проигравший", "en": "the loser"},
        rules=RULES,
        variants=({"check_one": True}, {"no_believe": True}, {"deck": 52, "players": 5},
                  {"check_one": True, "no_believe": True, "hard": True}),
        events=EVENTS,
        conform=Conform(impossible={"type": "doubt", "index": 99}),
    ),
)
