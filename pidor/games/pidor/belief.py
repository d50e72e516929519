"""What a seat of «пидор» can rebuild from its view (:class:`pidor.bots.belief.Belief`)."""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import deck as full_deck
from ...cards import parse_card
from .engine import PidorGame

__all__ = ["BELIEF"]


class PidorBelief(Belief):
    HAND_EVENTS = frozenset({"prikup"})
    #: P3, P9: the card a ``draw`` takes from the deck shows in the ``draw`` event after it.
    LOOKAHEAD = frozenset({"draw"})

    def lists(self, g: Any) -> list[list[int]]:
        return [g.deck, g.table, g.discard, *g.stacks, *g.hands, *g.prikups]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        """The cards ``action`` takes from the actor's hand."""
        return (action[1],) if action[0] in ("lead", "beat", "give") else ()

    def onto_deck(self, action: tuple, after: dict) -> int | None:
        if action[0] == "draw" and after.get("type") == "draw" and "card" in after:
            return parse_card(after["card"])
        return None

    def follow(self, game: Any, event: dict) -> None:
        if event["type"] == "deal_end" and event.get("trump") is not None:
            game.trump = "cdhs".index(event["trump"])  # a belief rebuilt mid-deal could not know it

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[PidorGame, set[int]]:
        n, size = rules["players"], rules["deck"]
        codes = lambda xs: [parse_card(x) for x in xs]  # noqa: E731
        stacks_up = [codes(st["cards"]) for st in v["stacks"]]
        hand = codes(v.get("hand") or [])
        held = None if v["held"] is None else parse_card(v["held"])
        table = codes(v["table"])
        seen = {*hand, *table, *(c for st in stacks_up for c in st)} | ({held} if held is not None else set())
        pool = [c for c in full_deck(size) if c not in seen]
        unknown = set(pool)
        stacks = [fill(st["hidden"], pool) + up for st, up in zip(v["stacks"], stacks_up)]
        hands = [hand if s == seat else fill(k, pool) for s, k in enumerate(v["hands"])]
        prikups = [fill(k, pool) for k in v["prikups"]]
        discard = fill(v["discard"], pool)
        deck = fill(v["deck"], pool)
        if pool:
            raise ValueError("the view leaves cards unplaced")
        phase, turn = v["phase"], v["turn"]
        last_drawer = None
        if phase == "deal" and v["deck"] < size - 3 * n:
            last_drawer = turn if v["drew"] else (turn - 1) % n
        elif phase != "deal":
            last_drawer = v.get("turn") if phase == "tricks" else None
        payment = v.get("payment")
        given = [[p["from"], p["to"], 0] for p in v.get("payments") or ()]
        data = {
            "game": "pidor", "version": PidorGame.version, "players": n, "deck_size": size,
            "phase": phase, "turn": turn, "held": held, "drew": v["drew"], "last_drawer": last_drawer,
            "trump": None if v["trump"] is None else "cdhs".index(v["trump"]),
            "trick_size": v["trick_size"], "closed": v["closed"],
            "next_leader": (v["table_seats"][-1] if table else None) if v["closed"] else None,
            "quiet_tricks": 0, "trick_moves": 0, "limits": {k: rules[k] for k in ("repeat_limit", "quiet_limit",
                                                                                "unit_limit") if k in rules},
            "pay_from": None, "giver": None if payment is None else payment["from"],
            "deck": deck, "pidorstvo": list(v["pidorstvo"]), "table": table,
            "table_seats": list(v["table_seats"]), "discard": discard, "order": list(v["out"]),
            "stacks": stacks, "hands": hands, "prikups": prikups,
            "dues": [[d["to"], d["count"]] for d in v.get("dues") or ()], "given": given,
            "result": v["result"],
        }
        return PidorGame.from_data(data), unknown




BELIEF = PidorBelief()
