"""«Дурак простой» (``simple``): rulings V1–V5 on the durak engine, sans-IO.

What differs from podkidnoy (:mod:`.durak`):

* five cards a hand (V1); no throwing in and no «бито»: the attacker leads several cards at
  once (``lead(cards)``), the bout ends by itself once they are all covered;
* the shapes of a lead by variant (the ``lead`` option): ``classic`` (V2, 1.а), ``partial``
  (V3, 1.б: the defender may cover some and take the rest, the covered pairs go to the
  discard) and ``pairs`` (V4, «пятки»: two cards of one rank; a player who cannot lead
  passes the attack on);
* a lead holds at most five cards and at most the defender's hand (V1);
* the violations of V5: a lead of a shape the variant does not allow (``V5s``), over the
  limit (``V5n``), covering with a card that does not beat (``D4b``, the same rule D4) and
  adding cards after the lead (``V5a``, an ``attack`` on a non-empty table);
* after a loss the player after the loser leads (V1: the loser deals);
* every game ends (V1a, T13): honest play can loop, above all in «пятки», where a pair
  taken is passed back and led again; the durak engine's T13 ends it. (Engine simple-1
  ended it after ``QUIET_BOUTS`` bouts in a row with no card going to the discard and
  nobody going out.)

State beyond the durak engine's: ``variant`` (``classic``, ``partial`` or ``pairs``);
``quiet``, the bouts in a row that discarded nothing and sent nobody out; in «пятки» ``passed`` (the seats that passed the attack on before this bout's attacker, V4)
and ``forced`` (nobody could lead a pair: the player with most cards leads any two).
"""

from __future__ import annotations

from itertools import combinations

from ...engine.game import Action, Event
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS
from .engine import DurakGame, _impossible

__all__ = ["SimpleGame", "LEADS"]

#: Bouts in a row with no card to the discard and nobody out that end the game as a draw.
QUIET_BOUTS = 30
#: The lead variants (V2, V3, V4) and the lead sizes each allows.
LEADS = {"classic": (1, 2, 3), "partial": (1, 3, 5), "pairs": (2,)}


def _pairs(cards) -> int:
    """How many disjoint pairs of one rank the cards hold (a bit per rank holds an odd card
    out; «пятки» asks at every bout, so no Counter)."""
    odd = pairs = 0
    for c in cards:
        bit = 1 << (c % 13)
        if odd & bit:
            pairs += 1
        odd ^= bit
    return pairs


class SimpleGame(DurakGame):
    """Дурак простой, variants 1.а, 1.б and 1.в «пятки» (V1–V5)."""

    name = "simple"
    #: simple-2: every game ends by T13 (V1a); simple-1's count of 30 quiet bouts still
    #: verifies (:data:`OLDER`).
    version = "simple-2"
    HAND = 5
    ACTIONS = {
        "lead": (("cards", "cards"),),
        "attack": (("card", "card"),),
        "cover": (("card", "card"), ("target", "index")),
        "take": (),
        "give": (("card", "card"),),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table (V1)", "ru": "игроков за столом (V1)"}, low=2, high=5),
        Option("deck", 36, "int", {"en": "cards in the deck (V1: 36 only)", "ru": "карт в колоде (V1: только 36)"},
               choices=(36,)),
        DurakGame.OPTIONS[2],  # hard (D12)
        Option("lead", "classic", "choice", {"en": "the lead's shapes: V2 1.а, V3 1.б, V4 «пятки»",
                                             "ru": "как ходить: V2 1.а, V3 1.б, V4 «пятки»"},
               choices=tuple(LEADS)),
        *UNIT_OPTIONS,
    )
    CLOCKS = ()  # V1: no throwing in, so no «бито» to wait for
    CHOICE_EVENTS = frozenset({"bout"})
    #: V1: after a loss the player after the loser leads (the loser deals).
    AFTER_LOSER = 1
    UNDO_FIELDS = (*DurakGame.UNDO_FIELDS, ("passed", list), ("forced", bool), ("quiet", int))

    variant: str
    quiet: int
    passed: list[int]
    forced: bool

    def _new_variant(self, opts: dict) -> None:
        self.variant = opts["lead"]
        self.passed, self.forced, self.quiet = [], False, 0

    def _variant_from_data(self, data: dict) -> None:
        self.variant, self.passed, self.forced = data["lead"], list(data["passed"]), data["forced"]
        self.quiet = data["quiet"]

    def to_data(self) -> dict:
        return {**super().to_data(), "lead": self.variant, "passed": list(self.passed), "forced": self.forced,
                "quiet": self.quiet}

    def _view_variant(self, view: dict) -> None:
        view["lead"] = self.variant
        if self.variant == "pairs":
            view["passed"], view["forced"] = list(self.passed), self.forced

    def _bout_event(self) -> Event:
        event = super()._bout_event()
        if self.variant == "pairs":
            event["passed"], event["forced"] = list(self.passed), self.forced
        return event

    # --- the bout -------------------------------------------------------------------

    def _start_bout(self, attacker: int) -> Event:
        """V4: in «пятки» the attack passes on from a player who cannot lead a pair (he holds
        none, or the player he would attack holds fewer than two cards). Once round the
        table with no lead, the player with most cards (the first of them clockwise from
        where the round began) must lead any two cards (our reading: the seed is silent)."""
        if self.variant == "pairs":
            self.passed, self.forced = [], False
            a = attacker
            while not (_pairs(self.hands[a]) and len(self.hands[self._next_in(a)]) >= 2):
                self.passed.append(a)
                a = self._next_in(a)
                if a == attacker:
                    n = self.players
                    a = max(self.passed, key=lambda s: (len(self.hands[s]), -((s - attacker) % n)))
                    self.forced = True
                    break
            attacker = a
        return super()._start_bout(attacker)

    def _waiting(self) -> list[int]:
        return []  # V1: no throwing in, so nobody says «бито»: it is automatic

    def _shape(self, cards) -> bool:
        """Whether ``cards`` is a lead the variant allows (V2–V4), the limit aside."""
        k = len(cards)
        if self.forced:  # V4: nobody could lead a pair: any two cards (fewer if that is all)
            return k == min(2, len(self.hands[self.owner[self.attacker]]), self.limit)
        if k not in LEADS[self.variant]:
            return False
        return _pairs(cards) >= (k - 1) // 2 if self.variant == "partial" else k == 1 or _pairs(cards) >= 1

    def _leads(self, hand: list[int]) -> list[Action]:
        """Every lead :meth:`actions` lists: the shapes the variant allows (over the limit
        too), every single card and every two cards; each as its cards in ascending order."""
        hand = sorted(hand)
        found = {(c,) for c in hand} | set(combinations(hand, 2))
        if self.variant != "pairs":
            pairs = [p for p in combinations(hand, 2) if p[0] % 13 == p[1] % 13]
            found.update(tuple(sorted((*p, c))) for p in pairs for c in hand if c not in p)
            if self.variant == "partial":
                for p, q in combinations(pairs, 2):
                    if not set(p) & set(q):
                        found.update(tuple(sorted((*p, *q, c))) for c in hand if c not in p and c not in q)
        return [("lead", cards) for cards in sorted(found)]

    def _honest_leads(self, hand: list[int]) -> list[Action]:
        """The leads of :meth:`_leads` that break no rule, enumerated directly (bots' path)."""
        hand, limit, variant = sorted(hand), self.limit, self.variant
        if self.forced:
            return [("lead", cards) for cards in combinations(hand, min(2, len(hand), limit))]
        by_rank: dict[int, list[int]] = {}
        for c in hand:
            by_rank.setdefault(c % 13, []).append(c)
        if len(by_rank) == len(hand):  # no two cards of one rank: single cards only
            return [] if variant == "pairs" else [("lead", (c,)) for c in hand]
        pairs = [p for cs in by_rank.values() if len(cs) > 1 for p in combinations(cs, 2)]
        found: set[tuple] = set()
        if variant != "pairs":
            found.update((c,) for c in hand)
            if limit >= 3:  # a pair and a third card, the three in ascending order
                found.update((c, a, b) if c < a else (a, c, b) if c < b else (a, b, c)
                             for a, b in pairs for c in hand if c != a and c != b)
        if variant != "partial" and limit >= 2:
            found.update(pairs)
        if variant == "partial" and limit >= 5:
            for p, q in combinations(pairs, 2):
                if not set(p) & set(q):
                    found.update(tuple(sorted((*p, *q, c))) for c in hand if c not in p and c not in q)
        return [("lead", cards) for cards in sorted(found)]

    def actions(self, seat: int) -> list[Action]:
        if self.attack or self.payments or self.result is not None or self.out[seat] or self.ended is not None:
            return super().actions(seat)
        return self._leads(self.hands[seat]) if seat == self.owner[self.attacker] else []

    def honest_actions(self, seat: int) -> list[Action]:
        if self.result is not None or self.out[seat]:
            return []
        if self.payments:
            return [("give", c) for c in self.hands[seat]] if seat == self.payments[0][0] else []
        if self.ended is not None:
            return []
        if not self.attack:
            if seat != self.owner[self.attacker]:
                return []
            return self._honest_leads(self.hands[seat])
        if seat != self.owner[self.defender]:
            return []  # V1: nothing honest to add
        out = self._honest_covers(self.hands[seat])
        out.append(("take",))
        return out

    def _check_bout(self, seat: int, kind: str, action: Action) -> list[str]:
        attack, a = self.attack, self.owner[self.attacker]
        if kind == "lead":
            if attack:
                raise _impossible("the lead is made: a card added now is an attack", "V1")
            if seat != a:
                raise _impossible(f"seat {a} leads this bout", "V1")
            cards = action[1]
            v = [] if self._shape(cards) else ["V5s"]
            if len(cards) > self.limit:
                v.append("V5n")
            return v
        if kind == "attack":
            if seat == self.owner[self.defender]:
                raise _impossible("the defender does not add cards", "V1")
            if not attack:
                raise _impossible("the table is empty: the attacker leads (lead)", "V1")
            return ["V5a"]  # V5: no throwing in
        return super()._check_bout(seat, kind, action)

    def _lay(self, seat: int, kind: str, action: Action, events: list[Event]) -> None:
        if kind != "lead":
            super()._lay(seat, kind, action, events)
            return
        hand = self.hands[seat]
        for c in action[1]:
            hand.remove(c)
            self.attack.append(c)
            self.cover.append(-1)
        self.token += 1

    def _end_bout(self, outcome: str, defending: int | None = None) -> Event:
        discarded = len(self.discard)
        event = super()._end_bout(outcome, defending)
        self.quiet = 0 if len(self.discard) > discarded else self.quiet + 1
        return event

    def _leave(self, events: list[Event]) -> None:
        gone = len(self.order)
        super()._leave(events)
        if len(self.order) > gone:
            self.quiet = 0

    def _finish(self, events: list[Event]) -> bool:
        if super()._finish(events):
            return True
        if self.T13 or self.quiet < QUIET_BOUTS:
            return False
        self.ended = None
        self.result = {"loser": None, "draw": True, "order": list(self.order), "pogony": False}
        events.append({"type": "game_over", "result": self.result})
        return True

    def _position_variant(self) -> tuple:
        return (tuple(self.passed), self.forced)

    def _take(self, seat: int, cards: list[int], event: Event) -> None:
        """V3: in 1.б the covered pairs go to the discard and the defender takes the rest;
        otherwise (V2) he takes every card on the table."""
        if self.variant != "partial":
            super()._take(seat, cards, event)
            return
        kept = [a for a, c in zip(self.attack, self.cover) if c < 0]
        self.hands[seat].extend(kept)
        self.discard.extend(c for c in cards if c not in kept)
        event["count"] = len(kept)
        event["discarded"] = len(cards) - len(kept)

    def rule_in_force(self, seat: int) -> str:
        if self.result is None and not self.out[seat] and not self.payments and self.ended is None:
            if not self.attack:
                return {"classic": "V2", "partial": "V3", "pairs": "V4"}[self.variant]
            if seat != self.owner[self.defender]:
                return "V1"
            if self.variant == "partial":
                return "V3"
        return super().rule_in_force(seat)


def _simple1(cls: type[SimpleGame]) -> type[SimpleGame]:
    """The game as engine simple-1 played it, to verify its logs: a draw after
    ``QUIET_BOUTS`` quiet bouts instead of T13."""
    return type(cls.__name__ + "1", (cls,), {"version": "simple-1", "T13": False, "HONEST_EVENTS": False,
                                            "__doc__": _simple1.__doc__})


SimpleGame.OLDER = {"simple-1": _simple1(SimpleGame)}
