"""«Дурак»: what each seat sees, where every card is, and the state as plain data.

A mixin of :class:`pidor.games.durak.engine.DurakGame`: :class:`DurakState` declares every field
and method it expects of that class; the fields' meaning is described in :mod:`.durak`.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from ...cards import card_code, parse_card
from ...engine.units import UNIT_OPTIONS, Units

__all__ = ["DurakState"]


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _cards(codes: list[str]) -> list[int]:
    return [parse_card(c) for c in codes]


def _same(value: Any) -> Any:
    return value


def _nested(lists: list[list]) -> list[list]:
    return [x[:] for x in lists]


class DurakState:
    # What the game class provides (annotations only: this mixin adds none of it).
    name: ClassVar[str]
    version: ClassVar[str]
    to_act: Callable[[], list[int]]
    players: int
    deck_size: int
    hard: bool
    teams: str | None
    cap: int
    titles: bool
    trump: int
    trump_card: int
    first: int
    deck: list[int]
    hands: list[list[int]]
    discard: list[int]
    attack: list[int]
    cover: list[int]
    attacker: int
    defender: int
    limit: int
    bito: list[bool]
    out: list[bool]
    owner: list[int]
    epaulettes: list[bool]
    barred: bool
    order: list[int]
    ended: str | None
    payments: list[list[int]]
    token: int
    result: dict | None
    units: Units  # T13: the bouts, positions and progress so far
    limits: dict  # T13: ``repeat_limit``, ``quiet_limit``, ``unit_limit``
    unit_mark: list[int]  # T13b: the discard's size and the players out when the bout began
    T13: ClassVar[bool]  # T13 ends the game, or not (engines before durak-4)
    # the yard variants' (V10-V12: :class:`pidor.games.durak.yard.YardVariants`)
    _view_yard: Callable[[dict], None]
    _hidden_yard: Callable[[set], None]
    _zones_yard: Callable[[dict], None]
    _yard_data: Callable[[], dict]
    _yard_from_data: Callable[[dict], None]
    #: What an undo point holds (:data:`_UNDO_FIELDS`, set below).
    UNDO_FIELDS: ClassVar[tuple[tuple[str, Callable[[Any], Any]], ...]]

    # --- views ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``bout``, ``pay`` (D12 payments pending), ``draw`` (bout over, T8) or ``over``."""
        if self.result is not None:
            return "over"
        if self.payments:
            return "pay"
        return "bout" if self.ended is None else "draw"

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (``None``: a spectator). Card codes; other hands as counts."""
        v = {
            "game": self.name,
            "players": self.players,
            "deck_size": self.deck_size,
            "hard": self.hard,
            "phase": self.phase,
            # D1: the face-up card under the deck; once drawn it is in a hand, and a hand
            # is hidden, so only the suit stays on show.
            "trump": "cdhs"[self.trump],
            "trump_card": card_code(self.trump_card) if self.deck else None,
            "deck": len(self.deck),
            "hands": [len(h) for h in self.hands],
            "table": [[card_code(a), card_code(c) if c >= 0 else None]
                      for a, c in zip(self.attack, self.cover)],
            "attacker": self.owner[self.attacker],
            "defender": self.owner[self.defender],
            "limit": self.limit,
            "bito": [s for s in range(self.players) if self.bito[s]],
            "out": list(self.order),
            "discard": len(self.discard),
            "payments": [{"from": g, "to": r} for g, r in self.payments],
            "to_act": self.to_act(),
            "result": self.result,
        }
        if self.teams is not None:
            # V6: partners alternate (a seat's team is its parity); ``plays_for[place]`` is
            # the seat whose hand plays that place.
            v["teams"] = self.teams
            v["plays_for"] = list(self.owner)
        if self.barred:  # V9: this bout may not be transferred (shown only while so)
            v["barred"] = True
        self._view_yard(v)
        self._view_variant(v)
        if seat is not None:
            v["seat"] = seat
            v["hand"] = _codes(self.hands[seat])
        return v

    def _view_variant(self, view: dict) -> None:
        """What a subclass adds to the view (simple durak's lead variant)."""

    def hidden_from(self, seat: int | None) -> set[str]:
        """Other seats' hands and the deck except its face-up bottom card, the trump card
        (D1); the yard variants' face-down cards (V10, V11). Payment cards between others
        are in the recipient's hand, hidden with it."""
        hidden = set(self.deck)
        hidden.discard(self.trump_card)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(hand)
        self._hidden_yard(hidden)
        return {card_code(c) for c in hidden}

    def zones(self) -> dict[str, list[int]]:
        z = {"deck": self.deck[::-1], "discard": list(self.discard),
             "table": self.attack + [c for c in self.cover if c >= 0]}
        for s, hand in enumerate(self.hands):
            z[f"hand.{s}"] = list(hand)
        self._zones_yard(z)
        return z

    # --- data -----------------------------------------------------------------------

    def to_data(self) -> dict:
        """The whole state as plain data, cards as codes; the deck top first."""
        return {
            "game": self.name,
            "version": self.version,
            "players": self.players,
            "deck_size": self.deck_size,
            "hard": self.hard,
            "teams": self.teams,
            "cap": self.cap,
            "trump_card": card_code(self.trump_card),
            "first": self.first,
            "deck": _codes(self.deck[::-1]),
            "hands": [_codes(h) for h in self.hands],
            "discard": _codes(self.discard),
            "attack": _codes(self.attack),
            "cover": [card_code(c) if c >= 0 else None for c in self.cover],
            "attacker": self.attacker,
            "defender": self.defender,
            "limit": self.limit,
            "bito": list(self.bito),
            "out": list(self.out),
            "owner": list(self.owner),
            "epaulettes": list(self.epaulettes),
            "barred": self.barred,
            "order": list(self.order),
            "ended": self.ended,
            "payments": [list(p) for p in self.payments],
            "token": self.token,
            "result": _copy_result(self.result),
            "limits": dict(self.limits),
            "unit_mark": list(self.unit_mark),
            "units": self.units.to_data(),
            **self._yard_data(),
        }

    @classmethod
    def from_data(cls, data: dict):
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        g = cls.__new__(cls)
        g.players, g.deck_size, g.hard = data["players"], data["deck_size"], data["hard"]
        g.teams, g.cap = data["teams"], data["cap"]
        g.trump_card = parse_card(data["trump_card"])
        g.trump = g.trump_card // 13
        g.first = data["first"]
        g.deck = _cards(data["deck"])[::-1]
        g.hands = [_cards(h) for h in data["hands"]]
        g.discard = _cards(data["discard"])
        g.attack = _cards(data["attack"])
        g.cover = [parse_card(c) if c is not None else -1 for c in data["cover"]]
        g.attacker, g.defender, g.limit = data["attacker"], data["defender"], data["limit"]
        g.bito = list(data["bito"])
        g.out = list(data["out"])
        g.owner = list(data["owner"])
        g.epaulettes = list(data["epaulettes"])
        g.barred = data["barred"]
        g.order = list(data["order"])
        g.ended = data["ended"]
        g.payments = [list(p) for p in data["payments"]]
        g.token = data["token"]
        g.result = _copy_result(data["result"])
        g.limits = data.get("limits") or {o.name: o.default for o in UNIT_OPTIONS}
        g.unit_mark = list(data.get("unit_mark") or (len(g.discard), len(g.order)))
        units = data.get("units")
        g.units = Units() if units is None else Units.from_data(units)
        g._yard_from_data(data)
        g._variant_from_data(data)
        return g

    def _variant_from_data(self, data: dict) -> None:
        """Read back what a subclass adds to :meth:`to_data`."""

    def snapshot(self) -> list:
        """A cheap undo point: the values of ``_UNDO_FIELDS`` in order, copied, and the T13
        units (plain data, so a table's ``to_data`` holds it as it is); :meth:`restore`
        brings it back."""
        return [copy(getattr(self, name)) for name, copy in self.UNDO_FIELDS] + [self.units.brief()]

    def restore(self, snapshot: list) -> None:
        """Bring back a :meth:`snapshot`, copying again: it can be restored any number of times."""
        for (name, copy), value in zip(self.UNDO_FIELDS, snapshot):
            setattr(self, name, copy(value))
        self.units.restore(snapshot[-1])


def _copy_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    return {k: v[:] if type(v) is list else v for k, v in result.items()}


#: What an undo point holds (T6), in this order: every field an action and its consequences
#: can change, with how to copy it. The players, the deck size, the trump, the first
#: attacker and the options never change during a game (V10's set-aside card neither: it
#: stays out of play). ``DurakState.UNDO_FIELDS`` is
#: this; a subclass adds its own fields.
_UNDO_FIELDS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("deck", list), ("hands", _nested), ("discard", list), ("attack", list), ("cover", list),
    ("attacker", _same), ("defender", _same), ("limit", _same), ("bito", list), ("out", list),
    ("owner", list), ("epaulettes", list), ("barred", _same), ("order", list), ("ended", _same),
    ("payments", _nested), ("token", _same), ("result", _copy_result), ("unit_mark", list),
    # the yard variants (V10: the trump turns when the deck runs out; V11)
    ("trump", _same), ("reserves", _nested), ("raising", list), ("shown", list),
)

DurakState.UNDO_FIELDS = _UNDO_FIELDS
