"""What a seat of «сто одно» can rebuild from its view (:class:`pidor.bots.belief.Belief`).

A series of deals (T15) reads, at each deal's end, the hands it counts, and deals again from
a key no seat has: the belief learns both from the table's events before it plays the call
that made them (:meth:`HundredBelief.ahead`), and its engine (:class:`BeliefGame`) puts
them where the real engine read them. After a new deal or a deck rebuilt from the table,
every card in a hidden place is unknown again (:meth:`HundredBelief.afresh`).
"""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import deck as full_deck
from ...cards import parse_card
from ...engine.units import Units
from .deal import HAND
from .engine import HundredOneGame
from .state import cards_of, codes

__all__ = ["BELIEF", "BeliefGame"]

#: The belief never finds a repetition itself (it cannot see where hidden cards lie): the
#: table's ``void`` says when one ended a deal (T13a).
NEVER = 1 << 30


def _put(target: list[int], cards: list[int], places: list[list[int]]) -> None:
    """Make ``target`` (a hidden place) hold ``cards``, swapping each in from ``places`` (the
    hidden places) for a card of ``target``'s that is not among them."""
    for card in cards:
        if card not in target:
            source = next(p for p in places if card in p)
            spare = next(c for c in target if c not in cards)
            source[source.index(card)], target[target.index(spare)] = spare, card


class BeliefGame(HundredOneGame):
    """The engine as a seat's belief plays it: what the table showed ahead of a call is put
    where the engine reads it (the hands counted at a deal's end; a new deal's face-up card
    and this seat's hand; the card taken at random from a hand; a deal voided by repetition)."""

    shown: list[list[int]] | None = None  # the hands the deal's end shows (H8)
    dealt: tuple | None = None  # (face-up card, seat, its cards) of the next deal (H2)
    pulled: tuple | None = None  # (card or None, place or None) of the next random card taken (H6)
    stall: str | None = None  # the reason the table voided the deal (T13a)

    def _end_deal(self, events: list) -> None:
        if self.shown is not None:
            for s, cards in enumerate(self.shown):
                _put(self.hands[s], cards, [self.deck, *self.hands])
            self.shown = None
        super()._end_deal(events)

    def _deal(self, dealer: int, order: list[int]) -> None:
        if self.dealt is not None:
            card, seat, cards = self.dealt
            self.dealt = None
            n, last = self.players, HAND * self.players - 1
            fixed = {last: card}
            if seat is not None:
                places = [i for i in range(last) if (dealer + 1 + i) % n == seat]
                fixed.update(zip(places, cards))
            rest = iter([c for c in order if c not in fixed.values()])
            order = [fixed[i] if i in fixed else next(rest) for i in range(len(order))]
        super()._deal(dealer, order)

    def _pick(self, giver: int) -> int:
        if self.pulled is not None:
            card, place = self.pulled
            self.pulled = None
            if place is not None:  # (the giver's own hand: he was told the place)
                return place
            if card is not None:  # (the taker's: the card he got was the giver's)
                hand = self.hands[giver]
                _put(hand, [card], [self.deck, *self.hands])
                return hand.index(card)
        return super()._pick(giver)

    def _record(self) -> str | None:
        # (no position to tell apart: a belief never finds a repetition itself, NEVER)
        reason = self.units.record(b"", self.limits)
        if self.stall is not None:
            reason, self.stall = self.stall, None
        return reason


class HundredBelief(Belief):
    HAND_EVENTS = frozenset({"draw", "pull"})
    AHEAD = frozenset({"deal_over", "deal", "pull", "void"})

    def lists(self, g: Any) -> list[list[int]]:
        return [g.deck, g.table, g.gathered, *g.hands]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        return (action[1],) if action[0] in ("cover", "queen", "give") else ()

    def ahead(self, game: Any, event: dict, seat: int | None) -> None:
        kind = event["type"]
        if kind == "deal_over":
            game.shown = [cards_of(h) for h in event["hands"]]
        elif kind == "deal":
            game.dealt = (parse_card(event["card"]), seat if "cards" in event else None, cards_of(event.get("cards", ())))
        elif kind == "pull":
            game.pulled = (parse_card(event["cards"][0]) if "cards" in event else None, event.get("index"))
        elif kind == "void" and event["reason"] == "repetition":
            game.stall = "repetition"

    def afresh(self, game: Any, event: dict, seat: int | None) -> set[int] | None:
        """After a new deal (H2) or a deck rebuilt from the table (H6), every card in a hidden
        place is unknown: the deck and the other hands."""
        if event["type"] not in ("deal", "reshuffle"):
            return None
        return set(game.deck).union(*(h for s, h in enumerate(game.hands) if s != seat))

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[BeliefGame, set[int]]:
        hand, table = cards_of(v.get("hand") or ()), cards_of(v["table"])
        pool = [c for c in full_deck(v["deck_size"]) if c not in {*hand, *table}]
        unknown = set(pool)
        hands = [hand if s == seat else fill(k, pool) for s, k in enumerate(v["hands"])]
        deck, gathered = fill(v["deck"], pool), fill(v["gathered"], pool)
        if pool:
            raise ValueError("the view leaves cards unplaced")
        status = v.get("status") or {}
        penalty, pending = v["penalty"], v["pending"]
        limits = {k: rules[k] for k in ("quiet_limit", "unit_limit") if k in rules}
        data = {
            "game": v["game"], "version": HundredOneGame.version, "players": v["players"],
            "deck_size": v["deck_size"], "bonus_hand": v["bonus_hand"], "hard": v["hard"],
            "limits": {**limits, "repeat_limit": NEVER}, "key": b"belief".hex(),
            "scores": v["scores"], "number": v["deal"], "dealer": v["dealer"], "voids": v["voids"],
            "history": v["history"], "deck": codes(deck), "table": v["table"], "hands": [codes(h) for h in hands],
            "gathered": codes(gathered), "dealing": v["dealing"], "turn": v["turn"],
            "suit": None if v["suit"] is None else "cdhs".index(v["suit"]), "naming": v["naming"], "six": v["six"],
            "drew": v["drew"], "penalty": None if penalty is None else [penalty["seat"], penalty["count"]],
            "last": v["last"], "runs": v["runs"],
            "pending": None if pending is None else [pending["seat"], pending["count"], pending["penalty"]],
            "winner": v["winner"], "randoms": 0, "plays": int(v["six"]), "turn_mark": 0,
            "payments": [[p["from"], p["to"]] for p in v["payments"]],
            # T13: the counts are public; a position due waits for an open window or court
            "units": [{}, v["quiet"], v["units"], status.get("window") is not None or status.get("court") is not None],
            "result": v["result"],
        }
        return BeliefGame.from_data(data), unknown


BELIEF = HundredBelief()
