"""«Залупа»: the state's fields, what each seat sees, where every card is, and the state as
plain data.

A mixin of :class:`pidor.games.zalupa.engine.ZalupaGame`: :class:`ZalupaState` declares every
field; the engine's rules read and write them. Cards are ints (``pidor.cards``) in the state
and codes in views and events.

* ``suits[seat]``: the seat's own trump for the whole game (Z1), drawn by lot; public.
* ``losses[seat]``: the коны it lost; ``aside[seat]``: the trumps it set aside, lowest first
  (Z5), so its lowest trump still in play is the next rank up; ``last_loss[seat]``: the kon
  of its last loss (Z6 places equal losses by it); ``left``: with ``titles``, the seats that
  reached five losses and left the game, in order (Z6).
* ``kon``: the deal's number, void deals counted (T15: its shuffle's label); ``dealer``;
  ``voids``: void deals in a row (T13a); ``handed``: this deal's hand-overs ``[giver,
  owner, card]`` (Z2, known to the two only).
* ``hands``, ``stock`` (cards left undealt when fewer play, Z6), ``stack`` (bottom first)
  with ``stack_seats`` (who put each card), ``discard`` (the отбой, Z4).
* ``turn`` and ``state``: ``lead`` (lead a card on the empty table), ``beat`` (beat the
  top card or take the stack, Z3), ``beaten`` (just beat: lead on top or say «отбой», Z4;
  with no card left, «отбой» or ``done``, Z3a), ``deal`` (the kon is over: the dealer deals
  the next, Z2).
* ``out``: the seats that ran out in this kon, in order; ``last_beater`` (Z5).
* ``ended``: a unit (T13b: the stack) ended by the last action (``take``, ``otboy``, or
  ``idle``: an «отбой» of nothing), its position due once its window has closed;
  ``unit_mark``: the seats out when it began (a player out is progress).
* ``payments``: pending ``[giver, recipient]`` card payments for the mark (T14).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...cards import card_code
from ...engine.units import UNIT_OPTIONS, Units

__all__ = ["ZalupaState", "SUITS", "LETTERS", "HAND", "LOSSES", "copy_result"]

SUITS = "cdhs"
#: Z2: cards dealt to each player, while they last.
HAND = 6
#: Z6: the losses that make a «залупа».
LOSSES = 5
#: Z5: a player's letters after each number of lost коны (the fifth loss writes «па»).
LETTERS = ("", "з", "за", "зал", "залу", "залупа")

# Fields copied as they are, lists of ints, and lists of lists of ints (to_data, restore).
_SCALARS = ("kon", "dealer", "voids", "turn", "state", "last_beater", "ended", "unit_mark")
_LISTS = ("suits", "losses", "last_loss", "left", "stock", "stack", "stack_seats", "discard", "out")
_NESTED = ("aside", "handed", "hands", "payments")


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


class ZalupaState:
    """The fields of a «залупа» game (the module's docstring says what each holds), its
    views and its data."""

    name: ClassVar[str]
    version: ClassVar[str]
    players: int
    key: bytes  # T15: the committed deal key every later shuffle comes from; never shown
    titles: bool
    hard: bool
    limits: dict
    suits: list[int]
    losses: list[int]
    last_loss: list[int]
    aside: list[list[int]]
    left: list[int]
    kon: int
    dealer: int
    voids: int
    handed: list[list[int]]
    hands: list[list[int]]
    stock: list[int]
    stack: list[int]
    stack_seats: list[int]
    discard: list[int]
    turn: int
    state: str
    out: list[int]
    last_beater: int | None
    ended: str | None
    unit_mark: int
    payments: list[list[int]]
    units: Units
    result: dict | None

    def to_act(self) -> list[int]:
        raise NotImplementedError

    # --- views ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``play``, ``pay`` (a payment for the mark is due, T14) or ``over``."""
        if self.result is not None:
            return "over"
        return "pay" if self.payments else "play"

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (``None``: a spectator): everyone's trump, letters and cards set
        aside, the stack, the counts; its own hand. Never who handed whom a card (Z2)."""
        v: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "phase": self.phase,
            "kon": self.kon,
            "dealer": self.dealer,
            "turn": self.turn,
            "state": self.state,
            "to_act": self.to_act(),
            "suits": [SUITS[s] for s in self.suits],
            "letters": [LETTERS[k] for k in self.losses],
            "losses": list(self.losses),
            "last_loss": list(self.last_loss),
            "aside": [_codes(a) for a in self.aside],
            "hands": [len(h) for h in self.hands],
            "stack": _codes(self.stack),
            "stack_seats": list(self.stack_seats),
            "last_beater": self.last_beater,
            "discard": len(self.discard),
            "stock": len(self.stock),
            "out": self.left + self.out,  # (everyone not in the game now: T4)
            "left": list(self.left),
            "voids": self.voids,
            "payments": [{"from": g, "to": r} for g, r in self.payments],
            "result": copy_result(self.result),
        }
        if seat is not None:
            v["seat"] = seat
            v["hand"] = _codes(self.hands[seat])
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        """Other seats' hands and the cards left undealt."""
        hidden = set(self.stock)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(hand)
        return {card_code(c) for c in hidden}

    def zones(self) -> dict[str, list[int]]:
        z = {"stock": list(self.stock), "stack": list(self.stack), "discard": list(self.discard)}
        for s in range(self.players):
            z[f"hand.{s}"] = list(self.hands[s])
            z[f"aside.{s}"] = list(self.aside[s])
        return z

    def position(self) -> tuple:
        """T13: every card's place (hands, the discard and the stock as sets), whose turn and
        what is owed; not the mark."""
        return (self.kon, self.turn, self.state, tuple(self.stack), tuple(self.stack_seats),
                tuple(tuple(sorted(h)) for h in self.hands), tuple(sorted(self.discard)),
                tuple(sorted(self.stock)), tuple(self.out), tuple(map(tuple, self.payments)))

    # --- data -------------------------------------------------------------------------

    def to_data(self) -> dict:
        state = self.__dict__  # (plain attributes: read without getattr)
        d: dict[str, Any] = {"game": self.name, "version": self.version, "players": self.players,
                             "key": self.key.hex(), "titles": self.titles, "hard": self.hard,
                             "limits": dict(self.limits)}
        for k in _SCALARS:
            d[k] = state[k]
        for k in _LISTS:
            d[k] = state[k][:]
        for k in _NESTED:
            d[k] = [x[:] for x in state[k]]
        d["units"] = self.units.to_data()
        d["result"] = copy_result(self.result)
        return d

    @classmethod
    def from_data(cls, data: dict):
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        if data.get("version") != cls.version:
            raise ValueError(f"state of engine {data.get('version')!r}, this is {cls.version!r}")
        g = cls.__new__(cls)
        g.players = data["players"]
        g.key = bytes.fromhex(data["key"])
        g.titles, g.hard = data["titles"], data["hard"]
        g.limits = data.get("limits") or {o.name: o.default for o in UNIT_OPTIONS}
        g.restore(data)
        return g

    def snapshot(self) -> dict:
        return self.to_data()

    def restore(self, snapshot: dict) -> None:
        d, state = snapshot, self.__dict__
        for k in _SCALARS:
            state[k] = d[k]
        for k in _LISTS:
            state[k] = list(d[k])
        for k in _NESTED:
            state[k] = [list(x) for x in d[k]]
        self.units = Units.from_data(d["units"])
        self.result = copy_result(d["result"])


def copy_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    return {k: v[:] if type(v) is list else v for k, v in result.items()}
