"""«Верю — не верю»: the game's state, what each seat sees of it (B7), and the state as plain
data. A mixin of :class:`pidor.games.doubt.engine.DoubtGame`; the fields' meaning is in
:mod:`.engine`."""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from ...cards import card_code, parse_card, rank_code
from ...engine.units import Units

__all__ = ["DoubtState", "PUBLIC", "codes"]

#: ``placer`` of a discarded card everyone saw.
PUBLIC = -1


def codes(cards) -> list[str]:
    return [card_code(c) for c in cards]


class DoubtState:
    # What the game class provides (annotations only: this mixin adds none of it).
    name: ClassVar[str]
    version: ClassVar[str]
    to_act: Callable[[], list[int]]
    players: int
    deck_size: int
    check_one: bool
    no_believe: bool
    hard: bool
    hands: list[list[int]]
    pile: list[list]
    rank: int | None
    turn: int
    discard: list[int]
    placer: list[int]
    aside: list[int]
    shown: list[int]
    sets: list[list[int]]
    opened: dict | None
    out: list[bool]
    order: list[int]
    payments: list[list[int]]
    ended: bool  # a pile has left the table: its unit is to be recorded (T13)
    unit_mark: list[int]  # T13b: the discard's size and the players out when the pile began
    units: Units
    limits: dict
    result: dict | None

    def _pile_cards(self) -> list[int]:
        return [c for _, cards in self.pile for c in cards]

    # --- views --------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "pay" if self.payments else "play"

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (B7): each play's count, its own plays' cards, the named rank,
        the opened play, the sets, the shown cards in each hand, every hand's size."""
        shown = set(self.shown)
        v: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "deck_size": self.deck_size,
            "check_one": self.check_one,
            "no_believe": self.no_believe,
            "hard": self.hard,
            "phase": self.phase,
            "turn": self.turn,
            "to_act": self.to_act(),
            "rank": None if self.rank is None else rank_code(self.rank),
            "pile": [{"seat": s, "count": len(cs), **({"cards": codes(cs)} if s == seat else {})}
                     for s, cs in self.pile],
            "hands": [len(h) for h in self.hands],
            "known": [codes(sorted(c for c in h if c in shown)) for h in self.hands],
            "discard": len(self.discard),
            "discarded": codes(sorted(c for c, p in zip(self.discard, self.placer) if p == PUBLIC)),
            "sets": [{"seat": s, "rank": rank_code(r)} for s, r in self.sets],
            "aside": len(self.aside),
            "opened": None if self.opened is None else {**self.opened, "cards": list(self.opened["cards"])},
            "out": list(self.order),
            "payments": [{"from": g, "to": r} for g, r in self.payments],
            "result": None if self.result is None else {**self.result, "order": list(self.result["order"])},
        }
        if seat is not None:
            v["seat"] = seat
            v["hand"] = codes(self.hands[seat])
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        """Others' hands but their shown cards, others' plays on the pile, cards others
        discarded face down, the card set aside (B7, B8)."""
        shown = set(self.shown)
        hidden = set(self.aside)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(c for c in hand if c not in shown)
        for s, cards in self.pile:
            if s != seat:
                hidden.update(cards)
        hidden.update(c for c, p in zip(self.discard, self.placer) if p not in (PUBLIC, seat))
        return {card_code(c) for c in hidden}

    def zones(self) -> dict[str, list[int]]:
        z = {"pile": self._pile_cards(), "discard": list(self.discard), "aside": list(self.aside)}
        shown = set(self.shown)
        for s, hand in enumerate(self.hands):
            z[f"hand.{s}"] = [c for c in hand if c not in shown]
            z[f"shown.{s}"] = [c for c in hand if c in shown]
        return z

    # --- data ---------------------------------------------------------------

    def to_data(self) -> dict:
        return {
            "game": self.name, "version": self.version, "players": self.players, "deck_size": self.deck_size,
            "check_one": self.check_one, "no_believe": self.no_believe, "hard": self.hard,
            "hands": [codes(h) for h in self.hands],
            "pile": [[s, codes(cs)] for s, cs in self.pile],
            "rank": self.rank, "turn": self.turn,
            "discard": codes(self.discard), "placer": list(self.placer), "aside": codes(self.aside),
            "shown": codes(self.shown), "sets": [list(x) for x in self.sets],
            "opened": None if self.opened is None else {**self.opened, "cards": list(self.opened["cards"])},
            "out": list(self.out), "order": list(self.order), "payments": [list(p) for p in self.payments],
            "ended": self.ended, "unit_mark": list(self.unit_mark),
            "limits": dict(self.limits), "units": self.units.to_data(),
            "result": None if self.result is None else {**self.result, "order": list(self.result["order"])},
        }

    @classmethod
    def from_data(cls, data: dict) -> "DoubtGame":
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        g = cls.__new__(cls)
        g.players, g.deck_size = data["players"], data["deck_size"]
        g.check_one, g.no_believe, g.hard = data["check_one"], data["no_believe"], data["hard"]
        g.restore(data)
        return g

    def restore(self, data: dict) -> None:
        card = parse_card
        self.hands = [[card(c) for c in h] for h in data["hands"]]
        self.pile = [[s, [card(c) for c in cs]] for s, cs in data["pile"]]
        self.rank, self.turn = data["rank"], data["turn"]
        self.discard = [card(c) for c in data["discard"]]
        self.placer = list(data["placer"])
        self.aside = [card(c) for c in data["aside"]]
        self.shown = [card(c) for c in data["shown"]]
        self.sets = [list(x) for x in data["sets"]]
        opened = data["opened"]
        self.opened = None if opened is None else {**opened, "cards": list(opened["cards"])}
        self.out, self.order = list(data["out"]), list(data["order"])
        self.payments = [list(p) for p in data["payments"]]
        self.ended, self.unit_mark = data["ended"], list(data["unit_mark"])
        self.limits = dict(data["limits"])
        self.units = Units.from_data(data["units"])
        r = data["result"]
        self.result = None if r is None else {**r, "order": list(r["order"])}
