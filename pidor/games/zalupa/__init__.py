"""«Залупа»: four players, a trump of his own for each, one stack to beat, and a series of
коны decided by the letters з-а-л-у-па (Z1–Z7, T13–T15)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec, ResultField
from .engine import ZalupaGame
from .rules import RULES

__all__ = ["GAMES", "ZalupaGame"]

EVENTS = {
    "suits": EventDoc("the suit lot: each seat's own trump for the whole game (Z1)", ("suits",)),
    "deal": EventDoc("a kon is dealt and the lowest trumps handed over (Z2): the hand counts after the hand-over "
                     "and the cards left undealt for all; to each seat its hand, the seats it handed a card to "
                     "(to), and the card it got with its giver (got, giver)",
                     ("kon", "dealer", "hands", "stock"), ("cards", "to", "got", "giver")),
    "kon_over": EventDoc("the kon's loser sets aside his lowest trump and his letters grow (Z5); with titles, "
                         "five losses and he leaves the game (Z6)", ("kon", "loser", "card", "letters", "leaves")),
    "kon_void": EventDoc("T13a: the kon ends without a loser; the same dealer deals again (the third in a row: "
                         "a draw)", ("kon", "reason", "voids")),
    "payment_due": EventDoc("who owes the marked player a card (T14)", ("to", "from")),
    "give": EventDoc("a card paid for the mark; the card only to giver and recipient (T14)", ("from", "to"),
                     ("card",)),
}

RESULTS = (
    ResultField("letters", "letters", {"en": "each seat's letters of «залупа» (Z5, Z6)",
                                       "ru": "буквы «залупы» у каждого (Z5, Z6)"}, tally="letters"),
    ResultField("kons", "scores", {"en": "the коны each seat lost (Z5)", "ru": "сколько конов проиграл каждый (Z5)"},
                tally="kons_lost"),
    ResultField("titles", "letters", {"en": "with titles: each seat's title, zalupa, left_egg, right_egg or muzhik "
                                            "(Z6)",
                                      "ru": "с титулами: титул каждого — залупа, левое яйцо, правое яйцо или мужик "
                                            "(Z6)"}),
    ResultField("muzhik", "seats", {"en": "with titles: the seat that is «мужик» (Z6)",
                                    "ru": "с титулами: кто «мужик» (Z6)"}, tally="muzhik"),
)

GAMES = (
    GameSpec(
        id="zalupa",
        engine=ZalupaGame,
        title={"ru": "«залупа»", "en": "«zalupa»"},
        loser={"ru": "залупа", "en": "the «zalupa»"},
        rules=RULES,
        variants=({"titles": True}, {"hard": True}),
        idle={"type": "deal"},
        events=EVENTS,
        results=RESULTS,
        conform=Conform(impossible={"type": "take", "count": 99}),
    ),
)
