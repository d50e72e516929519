"""What a seat of «пьяница» can rebuild from its view (:class:`pidor.bots.belief.Belief`).

Every seat knows the same (W1: nobody looks into a deck): the cards on the table and put
aside, and the cards in the decks that were seen face up and went back in the open, in
their places; the other places hold the cards nobody has seen there, in some order. Only
two things the belief's engine cannot do as the real one does: which card a flip shows
(the ``flipped`` event says), and where W3's random draw took it from (the event says too).
"""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, BeliefLost
from ...cards import deck as full_deck
from ...cards import parse_card
from ...engine.units import Units
from .engine import DrunkardGame

__all__ = ["BELIEF"]


class DrunkardBelief(Belief):
    def lists(self, g: Any) -> list[list[int]]:
        return g.decks  # (every card the seat cannot place lies in a deck)

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        return ()  # (nobody holds a hand)

    def follow(self, game: Any, event: dict) -> set[int] | None:
        """A flip shows its card: it goes where the belief's engine put its guess (and W3's
        draw came from the event's place, not from the belief's own random one)."""
        if event["type"] != "flipped":
            return None
        real = parse_card(event["card"])
        table = game.table[event["seat"]]
        if "from" in event:
            deck = game.decks[event["from"]]
            deck.insert(game.drawn_place(len(deck) + 1, game.draws), table.pop())  # the belief's draw, undone
            place = event["index"]
            _swap(game, real, deck[place])
            table.append(deck.pop(place))
        else:
            _swap(game, real, table[-1])
        game.winner = game.decided()
        return {real}

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[DrunkardGame, set[int]]:
        size = v["deck_size"]
        decks = [[None if c is None else parse_card(c) for c in d] for d in v["decks"]]
        table = [[parse_card(c) for c in t] for t in v["table"]]
        sides = [[parse_card(c) for c in s] for s in v.get("sides") or ([], [])]
        known = {c for d in decks for c in d if c is not None} | {c for t in table for c in t}
        seen = known | {c for s in sides for c in s}
        pool = [c for c in full_deck(size) if c not in seen]
        unknown = set(pool)
        decks = [[pool.pop() if c is None else c for c in d] for d in decks]
        if pool:
            raise ValueError("the view leaves cards unplaced")
        units = Units()
        units.due = v["phase"] == "end"
        data = {
            "game": DrunkardGame.name, "version": DrunkardGame.version, "players": 2, "deck_size": size,
            "first": v["first"], "battle": v["battle"], "draws": 0, "winner": v["winner"],
            "face_down": bool(rules.get("face_down_dispute")), "six_beats_ace": bool(rules.get("six_beats_ace")),
            "reshuffle": bool(rules.get("reshuffle")), "decks": decks, "sides": sides, "table": table,
            "known": sorted(known), "key": "", "result": v["result"],
            "limits": {o.name: rules.get(o.name, o.default) for o in DrunkardGame.OPTIONS[-2:]},
            "units": units.to_data(),
        }
        return DrunkardGame.from_data(data), unknown


def _swap(game: Any, a: int, b: int) -> None:
    """Exchange the places of cards ``a`` (in a deck, unseen there) and ``b`` (anywhere)."""
    if a == b:
        return
    where = {}
    for cards in (*game.decks, *game.table):
        for i, c in enumerate(cards):
            if c in (a, b):
                where[c] = (cards, i)
    if len(where) != 2 or a in game.known and a not in game.table[0] + game.table[1]:
        raise BeliefLost("a flipped card the seat saw elsewhere")
    (la, ia), (lb, ib) = where[a], where[b]
    la[ia], lb[ib] = b, a


BELIEF = DrunkardBelief()
