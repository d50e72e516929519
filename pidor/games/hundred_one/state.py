"""«Сто одно»: its cards, what each seat sees, where every card is, and the state as plain data.

A mixin of :class:`pidor.games.hundred_one.engine.HundredOneGame`; the fields are described
there. Cards are ints (:mod:`pidor.cards`); a card's rank index is ``card % 13`` (six 4 …
ace 12), its suit ``card // 13`` (spades 3).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...cards import card_code, parse_card, suit_code
from ...engine.units import Units

__all__ = ["HundredState", "SIX", "SEVEN", "EIGHT", "QUEEN", "KING", "ACE", "SPADES", "SPADE_QUEEN", "SPADE_KING",
           "penalty_of", "bonus_of", "value_of", "codes", "cards_of"]

SIX, SEVEN, EIGHT, QUEEN, KING, ACE = 4, 5, 6, 10, 11, 12
SPADES = 3
SPADE_QUEEN, SPADE_KING = SPADES * 13 + QUEEN, SPADES * 13 + KING
#: H4: the cards the next player takes for a card that makes him lose his turn.
_PENALTY = {SEVEN: 2, EIGHT: 1, ACE: 0}
#: H8: a hand's points by rank index (six 6 … ten 10, jack 2, queen 3, king 4, ace 11).
_VALUE = (0, 0, 0, 0, 6, 7, 8, 9, 10, 2, 3, 4, 11)


def penalty_of(card: int) -> int | None:
    """H4: how many cards the next player takes (and loses his turn) for ``card``; ``None``:
    the card does not make him lose his turn."""
    return 5 if card == SPADE_KING else _PENALTY.get(card % 13)


def bonus_of(card: int) -> int:
    """H8: what going out on ``card`` takes off a score (a queen 20, the queen of spades 40,
    the king of spades 50); 0 for any other card."""
    if card == SPADE_KING:
        return 50
    if card % 13 == QUEEN:
        return 40 if card == SPADE_QUEEN else 20
    return 0


def value_of(card: int) -> int:
    return _VALUE[card % 13]


def codes(cards) -> list[str]:
    return [card_code(c) for c in cards]


def cards_of(texts) -> list[int]:
    return [parse_card(c) for c in texts]


def _copy_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    return {k: [dict(d) for d in v] if k == "deals" else v[:] if type(v) is list else v for k, v in result.items()}


class HundredState:
    """What the engine class provides (annotations only)."""

    name: ClassVar[str]
    version: ClassVar[str]
    players: int
    deck_size: int
    bonus_hand: bool
    hard: bool
    limits: dict
    key: bytes
    scores: list[int]
    number: int
    dealer: int
    voids: int
    history: list[dict]
    deck: list[int]
    table: list[int]
    gathered: list[int]
    dealing: bool
    hands: list[list[int]]
    turn: int
    suit: int | None
    naming: bool
    six: bool
    drew: int
    penalty: list[int] | None
    last: int | None
    runs: list[list[int]]  # H8: the bonuses of each seat's bonus cards played last, in a row
    pending: list | None
    winner: int | None
    randoms: int
    plays: int
    turn_mark: int
    payments: list[list[int]]
    units: Units
    result: dict | None

    def to_act(self) -> list[int]:
        raise NotImplementedError

    # --- views ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (``None``: a spectator): the table, every count, the scores and
        the running score table; its own hand; other hands and the deck as counts."""
        penalty, pending = self.penalty, self.pending
        v = {
            "game": self.name,
            "players": self.players,
            "deck_size": self.deck_size,
            "bonus_hand": self.bonus_hand,
            "hard": self.hard,
            "deal": self.number,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "voids": self.voids,
            "history": [dict(d) for d in self.history],
            "deck": len(self.deck),
            "table": codes(self.table),
            "suit": None if self.suit is None else suit_code(self.suit),
            "naming": self.naming,
            "hands": [len(h) for h in self.hands],
            "turn": self.turn,
            "drew": self.drew,
            "six": self.six,
            "penalty": None if penalty is None else {"seat": penalty[0], "count": penalty[1]},
            "last": self.last,
            "runs": [list(r) for r in self.runs],
            "dealing": self.dealing,
            "gathered": len(self.gathered),
            "pending": None if pending is None else {"seat": pending[0], "count": pending[1], "penalty": pending[2]},
            "winner": self.winner,
            "payments": [{"from": g, "to": r} for g, r in self.payments],
            "out": [],
            "quiet": self.units.quiet,
            "units": self.units.count,
            "to_act": self.to_act(),
            "result": _copy_result(self.result),
        }
        if seat is not None:
            v["seat"] = seat
            v["hand"] = codes(self.hands[seat])
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        """The deck and the other seats' hands (a payment's card is in its recipient's hand)."""
        hidden = set(self.deck)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(hand)
        return set(codes(hidden))

    def zones(self) -> dict[str, list[int]]:
        z = {"deck": self.deck[::-1], "table": list(self.table), "gathered": list(self.gathered)}
        for s, hand in enumerate(self.hands):
            z[f"hand.{s}"] = list(hand)
        return z

    def position(self) -> tuple:
        """T13: every card's place (the deck and the table in order, hands as sets), whose turn
        it is and what is owed (a penalty, a six to cover, a named suit, a payment), taken at
        the end of a turn (the unit, T13b) and after each draw of a turn that may not end (his
        own six, H4): whether he drew, not how often. Ints only (``units._key``: the same key
        in every process)."""
        def number(x) -> int:
            return -1 if x is None else int(x)

        owed = (self.turn, min(self.drew, 1), self.six, number(self.suit), self.naming, number(self.last),
                self.dealing, tuple(self.penalty or ()), tuple(tuple(p) for p in self.payments))
        return (tuple(self.deck), tuple(self.table), tuple(tuple(sorted(h)) for h in self.hands), owed)

    # --- data -------------------------------------------------------------------

    def to_data(self) -> dict:
        """The whole state as plain data, cards as codes, the deck top first."""
        return {
            "game": self.name, "version": self.version, "players": self.players, "deck_size": self.deck_size,
            "bonus_hand": self.bonus_hand, "hard": self.hard, "limits": dict(self.limits), "key": self.key.hex(),
            "scores": list(self.scores), "number": self.number, "dealer": self.dealer, "voids": self.voids,
            "history": [dict(d) for d in self.history],
            "deck": codes(self.deck[::-1]), "table": codes(self.table), "hands": [codes(h) for h in self.hands],
            "gathered": codes(self.gathered), "dealing": self.dealing,
            "turn": self.turn, "suit": self.suit, "naming": self.naming, "six": self.six, "drew": self.drew,
            "penalty": None if self.penalty is None else list(self.penalty), "last": self.last,
            "runs": [list(r) for r in self.runs], "pending": None if self.pending is None else list(self.pending),
            "winner": self.winner, "randoms": self.randoms, "plays": self.plays, "turn_mark": self.turn_mark,
            "payments": [list(p) for p in self.payments], "units": self.units.to_data(),
            "result": _copy_result(self.result),
        }

    @classmethod
    def from_data(cls, data: dict) -> Any:
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        g = cls.__new__(cls)
        g.players, g.deck_size = data["players"], data["deck_size"]
        g.bonus_hand, g.hard, g.limits = data["bonus_hand"], data["hard"], dict(data["limits"])
        g.key = bytes.fromhex(data["key"])
        g.scores, g.number, g.dealer, g.voids = list(data["scores"]), data["number"], data["dealer"], data["voids"]
        g.history = [dict(d) for d in data["history"]]
        g.deck = cards_of(data["deck"])[::-1]
        g.table = cards_of(data["table"])
        g.hands = [cards_of(h) for h in data["hands"]]
        g.gathered, g.dealing = cards_of(data["gathered"]), data["dealing"]
        g.turn, g.suit, g.naming, g.six, g.drew = data["turn"], data["suit"], data["naming"], data["six"], data["drew"]
        g.penalty = None if data["penalty"] is None else list(data["penalty"])
        g.last = data["last"]
        g.runs = [list(r) for r in data["runs"]]
        g.pending = None if data["pending"] is None else list(data["pending"])
        g.winner, g.randoms, g.plays, g.turn_mark = data["winner"], data["randoms"], data["plays"], data["turn_mark"]
        g.payments = [list(p) for p in data["payments"]]
        g.units = Units.from_data(data["units"])
        g.result = _copy_result(data["result"])
        return g
