"""What a seat of «верю — не верю» can rebuild from its view (:class:`pidor.bots.belief.Belief`).

Another seat's play and face-down discard show this seat the rank and the count only (B7):
the belief plays them with cards it cannot place (:meth:`DoubtBelief.hidden`); a discard
named as a set is played with cards of that rank while the seat cannot place four of them
elsewhere, so the belief sees B5f broken exactly when what the seat knows proves it. The
``open`` event after a «верю» or «не верю» shows the last play's cards: they are put in
place before the action is played (:meth:`DoubtBelief.revealed`), so the belief opens what
the table opened. A pile taken comes into the taker's hand in its order (``pile``'s private
``cards``: :data:`HAND_EVENTS`).
"""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import ACE, card_code, parse_card, parse_rank
from ...cards import deck as full_deck
from ...engine.seeds import Rng
from .engine import PUBLIC, SET, DoubtGame

__all__ = ["BELIEF", "TRUST"]

#: The chance a searching policy's deal takes a play laid face down for true.
TRUST = 0.65


class DoubtBelief(Belief):
    HAND_EVENTS = frozenset({"pile"})
    #: B4: the cards a «верю» or «не верю» opens show in the ``open`` event after it.
    LOOKAHEAD = frozenset({"believe", "doubt"})

    def lists(self, g: Any) -> list[list[int]]:
        return [g.discard, g.aside, *(cards for _, cards in g.pile), *g.hands]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        """The cards ``action`` takes from the actor's hand."""
        kind = action[0]
        if kind in ("lead", "add", "discard"):
            return tuple(action[-1])
        return (action[1],) if kind == "give" else ()

    def revealed(self, game: Any, action: tuple, after: dict) -> list[tuple[int, int]]:
        if after.get("type") != "open" or not game.pile:
            return []
        last = game.pile[-1][1]
        shown = [parse_card(c) for c in after["cards"]]
        at = [after["index"]] if "index" in after else range(len(last))
        return [(last[i], card) for i, card in zip(at, shown)]

    def hidden(self, game: Any, seat: int, data: dict, unknown: set[int]) -> tuple | None:
        kind = data.get("type")
        if kind not in ("lead", "add", "discard") or "cards" in data:
            return None
        count = data["count"]
        hand = game.hands[seat]
        if kind != "discard":
            cards = tuple(hand[-count:])
            return ("add", cards) if kind == "add" else ("lead", parse_rank(data["rank"]), cards)
        # B5: a set of the named rank if the seat cannot prove otherwise: his cards of the
        # rank, then cards of it the seat cannot place, each in place of a card of his the
        # seat cannot place either (the others stay where the seat knows they are)
        rank = parse_rank(data["rank"])
        want = min(count, SET)
        mine = [c for c in hand if c % 13 + 2 == rank]
        named = mine[:want]
        spare = [c for c in hand if c % 13 + 2 != rank and c in unknown]
        known = [c for c in hand if c % 13 + 2 != rank and c not in unknown] + mine[want:]
        elsewhere = sorted(c for c in unknown if c % 13 + 2 == rank and c not in hand)
        k = min(want - len(named), len(elsewhere))
        while k and len(spare) - max(0, count - len(named) - k - len(known)) < k:
            k -= 1
        rest = (known + spare)[:count - len(named) - k]
        return ("discard", rank, tuple(named + elsewhere[:k] + rest))

    def weigh(self, game: Any, rng: Rng, hidden: list[tuple[list[int], int]]) -> None:
        """A play laid face down is taken for true with the chance :data:`TRUST` (players
        mostly tell the truth when they can, B2): its cards that do not fit the claim are
        swapped, as far as they can be, with fitting cards from hidden places off the pile."""
        if not game.pile:
            return
        rank = game.rank
        fits = lambda c: c % 13 + 2 in (rank, ACE)  # noqa: E731
        on_pile = {id(cards) for _, cards in game.pile}
        donors = [(cards, i) for cards, i in hidden if id(cards) not in on_pile and fits(cards[i])]
        at = {}
        for cards, i in hidden:
            if id(cards) in on_pile:
                at.setdefault(id(cards), []).append(i)
        for _, cards in game.pile:
            places = at.get(id(cards))
            if not places or rng.random() >= TRUST:
                continue
            for i in places:
                if fits(cards[i]) or not donors:
                    continue
                other, j = donors.pop(rng.below(len(donors)))
                cards[i], other[j] = other[j], cards[i]

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[DoubtGame, set[int]]:
        n, size = v["players"], v["deck_size"]
        codes = lambda xs: [parse_card(x) for x in xs]  # noqa: E731
        hand = codes(v.get("hand") or [])
        known = [codes(k) for k in v["known"]]
        public = codes(v["discarded"])
        mine = [codes(p["cards"]) for p in v["pile"] if "cards" in p]
        seen = {*hand, *public, *(c for k in known for c in k), *(c for p in mine for c in p)}
        pool = [c for c in full_deck(size) if c not in seen]
        unknown = set(pool)
        hands = [hand if s == seat else known[s] + fill(k - len(known[s]), pool) for s, k in enumerate(v["hands"])]
        pile = [[p["seat"], codes(p["cards"]) if "cards" in p else fill(p["count"], pool)] for p in v["pile"]]
        discard = public + fill(v["discard"] - len(public), pool)
        aside = fill(v["aside"], pool)
        if pool:
            raise ValueError("the view leaves cards unplaced")
        code = lambda xs: [card_code(c) for c in xs]  # noqa: E731
        order = list(v["out"])
        data = {
            "game": "doubt", "version": DoubtGame.version, "players": n, "deck_size": size,
            "check_one": v["check_one"], "no_believe": v["no_believe"], "hard": v["hard"],
            "hands": [code(h) for h in hands], "pile": [[s, code(cs)] for s, cs in pile],
            "rank": None if v["rank"] is None else parse_rank(v["rank"]), "turn": v["turn"],
            "discard": code(discard), "placer": [PUBLIC] * len(public) + [None] * (len(discard) - len(public)),
            "aside": code(aside), "shown": code([c for k in known for c in k]),
            "sets": [[x["seat"], parse_rank(x["rank"])] for x in v["sets"]],
            "opened": v["opened"], "out": [s in order for s in range(n)], "order": order,
            "payments": [[p["from"], p["to"]] for p in v["payments"]], "ended": False,
            "unit_mark": [v["discard"], len(order)],
            "limits": {k: rules[k] for k in ("repeat_limit", "quiet_limit", "unit_limit") if k in rules},
            "units": [{}, 0, 0, False], "result": v["result"],
        }
        return DoubtGame.from_data(data), unknown


BELIEF = DoubtBelief()
