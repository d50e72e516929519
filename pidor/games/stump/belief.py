"""What a seat of «пень» can rebuild from its view (:class:`pidor.bots.belief.Belief`): the
stack and the deck's bottom card (S1) are face up; the other hands, the rest of the deck and
every пенёк not yet picked up are the cards the seat cannot place."""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import deck as full_deck
from ...cards import parse_card
from ...engine.units import UNIT_OPTIONS, Units
from .engine import StumpGame

__all__ = ["BELIEF"]


class StumpBelief(Belief):
    #: S3, S5: a draw and a пенёк picked up show their cards to the seat.
    HAND_EVENTS = frozenset({"draw", "stub"})

    def lists(self, g: Any) -> list[list[int]]:
        return [g.deck, g.stack, *g.hands, *g.stubs]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        return (action[1],) if action[0] in ("beat", "lead", "give") else ()

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[StumpGame, set[int]]:
        hand = [parse_card(c) for c in v.get("hand") or []]
        stack = [parse_card(c) for c in v["stack"]]
        shown = None if v["trump_card"] is None else parse_card(v["trump_card"])
        seen = {*hand, *stack} | ({shown} if shown is not None else set())
        pool = [c for c in full_deck(v["deck_size"]) if c not in seen]
        unknown = set(pool)
        hands = [hand if s == seat else fill(k, pool) for s, k in enumerate(v["hands"])]
        stubs = [fill(k, pool) for k in v["stubs"]]
        deck = [shown] + fill(v["deck"] - 1, pool) if v["deck"] else []  # bottom first: the face-up trump (S1)
        if pool:
            raise ValueError("the view leaves cards unplaced")
        suit = "cdhs".index(v["trump"])
        trump_card = shown if shown is not None else next(c for c in full_deck(v["deck_size"]) if c // 13 == suit)
        n, out = v["players"], v["out"]
        data = {
            "game": v["game"], "version": StumpGame.version, "players": n, "deck_size": v["deck_size"],
            "variant": v["variant"], "hard": v["hard"], "trump_card": trump_card, "turn": v["turn"],
            "owe": v["owe"], "after": v["after"], "by": v["by"], "high": len(stack),
            "dealer": v["dealer"], "deck": deck, "stack": stack, "out": [s in out for s in range(n)],
            "order": list(out), "unit_mark": [len(deck), sum(k == 0 for k in v["stubs"]), len(out)],
            "hands": hands, "stubs": stubs, "payments": [[p["from"], p["to"]] for p in v["payments"]],
            "pending": v["pending"], "result": v["result"],
            "limits": {o.name: rules.get(o.name, o.default) for o in UNIT_OPTIONS}, "units": Units().to_data(),
        }
        return StumpGame.from_data(data), unknown


BELIEF = StumpBelief()
