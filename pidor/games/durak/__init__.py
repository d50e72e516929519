"""The «дурак» family: podkidnoy and perevodnoy (D1–D12) with team play, «погоны», the
house options (V6–V9) and the yard variants (V10–V12), and simple durak in its three lead
variants (V1–V5)."""

from __future__ import annotations

from ..spec import Conform, EventDoc, GameSpec, ResultField
from .engine import PerevodnoyGame, PodkidnoyGame
from .rules import rules_of
from .simple import SimpleGame

__all__ = ["GAMES"]

_EVENTS = {
    "bout": EventDoc("a bout begins: who attacks whom, and the most attacking cards (D3, V1); in «пятки» "
                     "(V4) also who passed the attack on and whether the lead is forced",
                     ("attacker", "defender", "limit", "passed", "forced")),
    "bout_over": EventDoc("the bout is over: «бито» (to the discard) or «беру» (into the defender's hand); "
                          "V3 also the covered pairs discarded", ("outcome", "defender", "count", "discarded")),
    "draw": EventDoc("a player draws after the bout; the cards only to him (D8)", ("seat", "count", "deck"),
                     ("cards",)),
    "payment_due": EventDoc("who owes the marked player a card (D12)", ("to", "from")),
    "give": EventDoc("a card paid for the mark; the card only to giver and recipient (D12)", ("from", "to"),
                     ("card",)),
}
_TRANSFER = {"transfer": EventDoc("the attack is transferred to the next player (D7)", ("defender", "limit"))}
_BITO = {"bito_timeout": EventDoc("silence counted as «бито» (D5)", ("seats",))}
_YARD = {
    "trump_turned": EventDoc("V10: the deck ran out; the set-aside card turns, and its suit is trump for the rest of "
                             "the game", ("card", "trump")),
    "reserve": EventDoc("V11: a player takes up his поджопники (hand and deck empty; or early, V11p, once the call "
                        "window closed); the cards only to him", ("seat", "count"), ("cards",)),
}
_RESULTS = (
    ResultField("pogony", "title", {"en": "«погоны»: the durak's last attack was two of the lowest rank (V8)",
                                    "ru": "«погоны»: последний ход под дурака — две младшие карты (V8)"},
                tally="pogony"),
    ResultField("losing_team", "seats", {"en": "the losing team's seats (V6, V7)",
                                         "ru": "места проигравшей команды (V6, V7)"}, tally="team_losses"),
)
_COVER = Conform(impossible={"type": "cover", "card": "Ac", "target": 99})
_TEAMS = ({"players": 4, "teams": "2x2"}, {"players": 6, "teams": "3x3"})
#: The yard variants (V10, V11), alone and with each other, teams, ``hard`` and ``no_limit``
#: (each sets the players: the deal must leave a deck).
_YARD_VARIANTS = (
    {"players": 2, "two_trumps": True}, {"players": 4, "reserve": 2},
    {"players": 3, "reserve": 4, "two_trumps": True, "hard": True},
    {"players": 4, "teams": "2x2", "reserve": 2, "two_trumps": True, "no_limit": True},
    {"players": 6, "deck": 52, "teams": "3x3", "reserve": 2, "two_trumps": True},
)

GAMES = (
    GameSpec(
        id="podkidnoy",
        engine=PodkidnoyGame,
        title={"ru": "подкидной дурак", "en": "podkidnoy durak"},
        loser={"ru": "дурак", "en": "the durak («дурак»)"},
        rules=rules_of("podkidnoy"),
        variants=({"hard": True}, {"no_limit": True}, *_TEAMS,
                  {"players": 6, "teams": "3x3", "no_limit": True}, *_YARD_VARIANTS),
        idle={"type": "bito"},
        events={**_EVENTS, **_BITO, **_YARD},
        results=_RESULTS,
        conform=_COVER,
    ),
    GameSpec(
        id="perevodnoy",
        engine=PerevodnoyGame,
        title={"ru": "переводной дурак", "en": "perevodnoy durak"},
        loser={"ru": "дурак", "en": "the durak («дурак»)"},
        rules=rules_of("perevodnoy"),
        variants=({"hard": True}, {"no_limit": True}, {"no_first_transfer": True}, *_TEAMS,
                  {"no_first_transfer": True, "no_limit": True},
                  {"players": 6, "teams": "3x3", "no_first_transfer": True},
                  # V12, alone and with V10, V11 and the house options
                  {"pass_card": ["Qs"]}, {"players": 5, "two_trumps": True, "pass_card": ["6h", "Qs"]},
                  {"players": 4, "reserve": 2, "pass_card": ["Qs"], "no_first_transfer": True},
                  {"players": 3, "reserve": 4, "two_trumps": True, "pass_card": ["Qs"], "hard": True, "no_limit": True},
                  {"players": 4, "teams": "2x2", "reserve": 2, "two_trumps": True, "pass_card": ["Qs", "Qh"]}),
        idle={"type": "bito"},
        events={**_EVENTS, **_BITO, **_TRANSFER, **_YARD},
        results=_RESULTS,
        conform=_COVER,
    ),
    GameSpec(
        id="simple",
        engine=SimpleGame,
        title={"ru": "дурак простой", "en": "simple durak"},
        loser={"ru": "дурак", "en": "the durak («дурак»)"},
        rules=rules_of("simple"),
        variants=({"lead": "partial"}, {"lead": "pairs"}, {"hard": True}),
        events=_EVENTS,
        results=_RESULTS[:1],
        conform=_COVER,
    ),
)
