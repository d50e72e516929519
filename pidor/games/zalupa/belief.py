"""What a seat of «залупа» can rebuild from its view (:class:`pidor.bots.belief.Belief`),
and how it follows a new deal (T15) and a void kon (T13a)."""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import deck, parse_card
from ...engine.units import LIMIT_OPTION, QUIET_OPTION, REPEAT_OPTION, Units
from .engine import SIZE, ZalupaGame
from .state import SUITS

__all__ = ["BELIEF"]

#: The belief never ends a kon by T13 on its own (its hands are guesses, so its positions
#: are not the table's): it follows the table's ``kon_void`` (T13a).
_NEVER = {o.name: o.high for o in (REPEAT_OPTION, QUIET_OPTION, LIMIT_OPTION)}


def _cards(codes: list[str]) -> list[int]:
    return [parse_card(c) for c in codes]


class ZalupaBelief(Belief):
    def lists(self, g: Any) -> list[list[int]]:
        return [g.stock, g.stack, g.discard, *g.hands, *g.aside]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        return (action[1],) if action[0] in ("lead", "beat", "give") else ()

    def follow(self, game: Any, event: dict) -> None:
        """T13a: the table voided the kon (its positions, not the belief's, decide)."""
        if event["type"] == "kon_void" and game.kon == event["kon"] and game.state != "deal" and game.result is None:
            game._void(event["reason"], [])

    def afresh(self, game: Any, event: dict, seat: int | None) -> set[int] | None:
        """T15: a new kon's ``deal``. Z2: the seat's hand as the deal shows it, the counts after the hand-over; every
        other player holds his own lowest trump when every card in play was dealt; the rest
        of the cards in play anywhere hidden."""
        if event["type"] != "deal":
            return None
        mine = _cards(event.get("cards") or []) if seat is not None else []
        gone = {c for a in game.aside for c in a}
        pool = [c for c in deck(SIZE) if c not in gone and c not in mine]
        lows: dict[int, int] = {}
        if not event["stock"]:
            for o in range(game.players):
                low = game._low(o)
                if o != seat and o not in game.left and low in pool:
                    lows[o] = low
                    pool.remove(low)
        hands = []
        for s, count in enumerate(event["hands"]):
            if s == seat:
                hands.append(mine)
                continue
            hand = [lows[s]] if s in lows else []
            hands.append(hand + fill(count - len(hand), pool))
        game.hands, game.stock = hands, fill(event["stock"], pool)
        if pool:
            raise ValueError("the deal leaves cards unplaced")
        known = set(mine) | set(lows.values())
        return {c for h in hands for c in h if c not in known} | set(game.stock)

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[ZalupaGame, set[int]]:
        n = v["players"]
        hand = _cards(v.get("hand") or [])
        stack = _cards(v["stack"])
        aside = [_cards(a) for a in v["aside"]]
        seen = {*hand, *stack, *(c for a in aside for c in a)}
        pool = [c for c in deck(SIZE) if c not in seen]
        unknown = set(pool)
        hands = [hand if s == seat else fill(k, pool) for s, k in enumerate(v["hands"])]
        discard = fill(v["discard"], pool)
        stock = fill(v["stock"], pool)
        if pool:
            raise ValueError("the view leaves cards unplaced")
        left = list(v["left"])
        out = [s for s in v["out"] if s not in left]
        data = {
            "game": ZalupaGame.name, "version": ZalupaGame.version, "players": n, "key": b"belief".hex(),
            "titles": bool(rules.get("titles")), "hard": bool(rules.get("hard")), "limits": dict(_NEVER),
            "suits": [SUITS.index(x) for x in v["suits"]], "losses": list(v["losses"]),
            "last_loss": list(v["last_loss"]), "aside": aside, "left": left, "kon": v["kon"], "dealer": v["dealer"],
            "voids": v["voids"], "handed": [], "hands": hands, "stock": stock, "stack": stack,
            "stack_seats": list(v["stack_seats"]), "discard": discard, "turn": v["turn"], "state": v["state"],
            "out": out, "last_beater": v["last_beater"], "ended": None, "unit_mark": len(out),
            "payments": [[p["from"], p["to"]] for p in v["payments"]], "units": Units().to_data(),
            "result": v["result"],
        }
        return ZalupaGame.from_data(data), unknown


BELIEF = ZalupaBelief()
