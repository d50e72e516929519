"""How a game reads to people: the base class of every game's ``text.py``.

``pidor play`` (live), ``pidor replay`` and the HTML viewer (from a log) say the same
things the same way: the sentences of the table's own events (calls, courts, the mark) are
theirs, and everything a game adds — its actions, its events, its board, its words — comes
from its folder's ``text.py``, which sets ``TEXT``, an instance of a :class:`GameText`
subclass. A game with no ``text.py`` reads through the generic fallbacks here: an action
as its type and cards, an event as its fields, the board as the view's public counts.

Every sentence takes a :class:`Say`, which names seats as its caller wishes (``play``:
"вы" for the player's own seat; ``replay``: names with seat numbers) in one language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

from ..cards import card_text, parse_card

__all__ = ["Say", "GameText", "card", "cards", "predicate", "by_suit", "SUITS"]

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")
_SUIT_ORDER = "shcd"  # ♠ ♥ ♣ ♦: black and red by turns
_RANKS = "23456789TJQKA"


def card(value: Any) -> str:
    """A card code (``Th``) as people write it (``10♥``); a suit letter as its sign; ``None``
    as ``?``; anything else as it is."""
    if isinstance(value, str):
        if value in SUITS:
            return SUITS[value]
        if _CODE.match(value):
            return card_text(parse_card(value))
    return "?" if value is None else str(value)


def cards(values: Any) -> str:
    return " ".join(card(v) for v in values or []) or "—"


def by_suit(hand: list[str], trump: Any) -> list[str]:
    """Card codes as a hand is held (issue 28 §3): by suit, ``trump``'s last, then by rank."""
    return sorted(hand, key=lambda c: (c[-1] == trump, _SUIT_ORDER.find(c[-1]), _RANKS.find(c[0])))


def predicate(sentence: str, who: str) -> str:
    """An action's sentence without its subject (``кроет 7♠ картой 6♣``), for a line that
    has named the seat already (a court's)."""
    return sentence[len(who):].lstrip(" :") if who and sentence.startswith(who) else sentence


class Say:
    """A language and a way of naming seats (``who(seat)``); ``me`` the seat that reads
    (``None``: a spectator or an auditor)."""

    __slots__ = ("lang", "who", "me")

    def __init__(self, lang: str, who: Callable[[Any], str], me: int | None = None) -> None:
        self.lang = "en" if lang == "en" else "ru"
        self.who = who
        self.me = me


class GameText:
    """A game's sentences. ``WORDS[lang][key]`` are ``str.format`` templates; a key may
    have a form for the reader's own seat, ``key + "@me"`` (Russian "вы" takes plural
    verbs: ``вы кроете``, not ``вы кроет``), used when the sentence's subject is ``me``."""

    WORDS: ClassVar[dict[str, dict[str, str]]] = {"en": {}, "ru": {}}
    #: The zones of :meth:`pidor.engine.game.Game.zones` as the viewer draws them, by name
    #: without a seat's ``.N`` (``hand.0`` is seat 0's ``hand``): ``ru``/``en`` the name,
    #: ``look`` how its cards lie: ``row`` side by side, ``fan`` overlapping (a pile, the
    #: last card on top), ``pairs`` in the groups :meth:`groups` makes (a card and the one
    #: on it), ``plays`` in those groups side by side, each a small fan (a pile's plays). A
    #: game lists its own zones over these; a zone named nowhere is drawn as a row
    #: under its id.
    ZONES: ClassVar[dict[str, dict[str, str]]] = {
        "deck": {"ru": "колода", "en": "deck", "look": "fan"},
        "hand": {"ru": "рука", "en": "hand", "look": "row"},
        "table": {"ru": "стол", "en": "table", "look": "row"},
        "discard": {"ru": "сброс", "en": "discard", "look": "fan"},
        "stack": {"ru": "стопка", "en": "stack", "look": "fan"},
    }
    #: Other words a person may type for an action: short ones (``c`` for ``cover``) and
    #: the table's Russian (``крою``, ``беру``, ``не верю``: the first person, as said at a
    #: table); one or two words each. None may be a word ``pidor play`` keeps for the table
    #: (``pidor.play.commands.TABLE_WORDS``).
    ALIASES: ClassVar[dict[str, str]] = {}
    #: Events after which a spectator's board is drawn again (a trick, a bout is over).
    REDRAW: ClassVar[frozenset[str]] = frozenset()

    def word(self, say: Say, key: str, subject: Any = None, about: Any = None, **fields: Any) -> str:
        """The template ``key`` in the reader's language (English if it has none), filled
        in; the ``@me`` form when ``subject`` is the reader's seat, the ``@to_me`` form when
        ``about`` (the seat the sentence is about or addressed to) is (``ходит под вас``)."""
        words = self.WORDS.get(say.lang) or {}
        template = None
        if subject is not None and subject == say.me:
            template = words.get(key + "@me")
        if template is None and about is not None and about == say.me:
            template = words.get(key + "@to_me")
        if template is None:
            template = words.get(key) or self.WORDS["en"].get(key)
        if template is None:
            return key
        return template.format(**fields)

    # --- what happened --------------------------------------------------------------

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        """One action in a sentence. ``before``: the public view just before it (the cards
        it lands on), or ``None``; ``follow``: the events it caused when the caller has them
        (a replay), ``None`` when they are still to come (live play)."""
        kind = action.get("type")
        parts = [say.who(seat), str(kind)]
        if action.get("card"):
            parts.append(card(action["card"]))
        if action.get("cards"):
            parts.append(cards(action["cards"]))
        return " ".join(parts)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        """A sentence for one of the game's own events; ``""``: nothing worth a line;
        ``None``: not the game's (the caller's generic line). ``said``: the event follows
        an action whose sentence already told it (a replay's)."""
        return None

    # --- the board --------------------------------------------------------------------

    def board(self, say: Say, view: dict) -> list[str]:
        """The game's part of the board (under the caller's head line: game, trump, deck,
        mark, whose turn): by default each seat's card count."""
        hands = view.get("hands")
        if not isinstance(hands, list):
            return []
        return [", ".join(f"{say.who(s)} {n}" for s, n in enumerate(hands))]

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        """The reader's hand as ``pidor play`` shows it (card codes): by default as dealt."""
        return list(hand)

    def turn(self, view: dict) -> list[int]:
        """The seats the board names as acting."""
        return list(view.get("to_act") or [])

    def clock_line(self, say: Say, name: str, left: str) -> str | None:
        """The game clock ``name`` (an option of the game's, e.g. ``bito_timeout``) while it
        runs on the reader's turn, ``left`` the time left as said (``2.5 с``); ``None``: the
        caller's generic line."""
        key = "clock_" + name
        return self.word(say, key, left=left) if key in (self.WORDS.get(say.lang) or {}) else None

    # --- the viewer --------------------------------------------------------------------

    def zone_name(self, lang: str, zone: str) -> str:
        """A zone's name (``hand``, not ``hand.0``) in ``lang``; its id when the game has none."""
        entry = self.ZONES.get(zone.partition(".")[0]) or {}
        return entry.get(lang) or entry.get("en") or zone

    def groups(self, zones: dict[str, list[str]], view: dict) -> dict[str, list[list[str]]]:
        """The zones of look ``pairs`` as groups of cards that lie on one another (durak: an
        attacking card and the card that covers it), or of look ``plays`` as the plays a
        pile is made of («верю — не верю»), from the public ``view``; every card of such a
        zone in exactly one group, in the zone's order. By default none."""
        return {}

    def action_cards(self, seat: int, action: dict, before: dict | None) -> list[str]:
        """The card codes an action plays (the viewer highlights them in a court): by
        default its ``card`` and ``cards``; a game whose actions move a card they do not
        name (a stack's top) says which from the public view ``before`` the action."""
        out = [action["card"]] if isinstance(action.get("card"), str) else []
        return out + [c for c in action.get("cards") or () if isinstance(c, str)]

    # --- typing actions (``pidor play``) --------------------------------------------------

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        """The value of an action's index argument ``name`` a person left out (``beat 10♥``:
        the top of the pile), or ``None`` to ask."""
        return None


#: The text of a game without a ``text.py`` of its own.
GENERIC = GameText()
