"""«Пидор» (also «распиздяй», «разгильдяй»): stacks, then tricks (P1–P17)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec
from .engine import PidorGame
from .rules import RULES

__all__ = ["GAMES", "PidorGame"]

EVENTS = {
    "draw": EventDoc("a card drawn from the deck, face up for all (P3); `deck`: the cards left",
                     ("seat", "card", "deck")),
    "pidorstvo": EventDoc("a mark received in the deal phase counts (P7)", ("seat", "count")),
    "deal_end": EventDoc("the deal phase is over: the stacks go to hand (P8), the trump (P9), `first` leads the first "
                         "trick (P11); `hands`, `prikups`: counts; `hand`: your cards",
                         ("trump", "first", "hands", "prikups"), ("hand",)),
    "settlement": EventDoc("who is owed cards for his pidorstvos (P10): `dues`, `[{to, count}]`", ("dues",)),
    "payment": EventDoc("who gives a card now, to whom, and how many are left (P10)", ("from", "to", "left")),
    "give": EventDoc("a card given for a pidorstvo; the card only to giver and recipient (P10)",
                     ("from", "to"), ("card",)),
    "skip": EventDoc("a giver with no cards is skipped (P10)", ("seat",)),
    "trick": EventDoc("a trick begins: who leads, and how many cards close it (P14)", ("seat", "size")),
    "trick_closed": EventDoc("the trick is closed and stays on show (P14); `empty: true` when closed on an empty table",
                             ("seat", "cards", "empty")),
    "discard": EventDoc("the closed trick goes to the discard", ("count",)),
    "prikup": EventDoc("a player with an empty hand takes his prikup (P15)", ("seat", "count"), ("cards",)),
}

GAMES = (
    GameSpec(
        id="pidor",
        engine=PidorGame,
        title={"ru": "«пидор»", "en": "«pidor»"},
        loser={"ru": "пидор", "en": "the «pidor»"},
        rules=RULES,
        events=EVENTS,
        conform=Conform(impossible={"type": "move", "to": 99}, false_call=False),
    ),
)
