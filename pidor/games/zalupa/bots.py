"""«Залупа» for the built-in policies (:class:`pidor.bots.tactics.Tactics`).

Greedy (the cheapest-card yardstick): beat with the cheapest card that beats (plain cards
before its own trumps, then by rank: Z3), take only when it cannot beat; lead the cheapest
card; never say «отбой» but with no card left (Z3a: it passes the stack on); give the
cheapest card (T14).

The heuristic plans around the other players' trumps (Z1: they are public). It remembers
the cards gone to the отбой, the stack, and the cards it knows in each hand (each player's
lowest trump after the hand-over, Z2; the stacks taken), and from the cards it cannot place
it reckons the chance that a player can beat a card (a higher card of its suit, or any card
of his own trump on another suit):

* Beat (Z3): with the card least worth keeping (its own trumps are worth most: they beat
  every other suit); it always beats when it can: a take only adds cards.
* Lead: the card that the next player is least likely to beat, weighed by what he would
  then take (the whole stack), against what the card is worth keeping.
* «Отбой» (Z4): having beaten, when the stack is worth throwing away: when even its best
  lead is likely beaten and the stack, growing on, is likely to come back round to it.
* Cheats with the judgement of :mod:`pidor.bots.heuristic`: when it cannot beat, beating
  with a card that does not beat (Z7b) or saying «отбой» (Z7o) instead of taking the stack.
"""

from __future__ import annotations

from typing import Any

from ...bots.tactics import Goal, Tactics, by_type, cheapest, suit_index
from ...cards import deck, parse_card
from ...engine.game import Game
from .engine import SIZE, beats

__all__ = ["TACTICS", "GOALS", "ZalupaTactics"]

#: What another player's take is worth to this seat, per card, against a point of
#: :func:`worth` of the card it leads (measured against 3 × greedy, honest, 1,200 series
#: each: 0 lost 25.8% (leading the card least worth keeping), 0.67 13.7%, 1 14.8%, 2 16.0%,
#: 4 20.0%).
TAKEN = 0.8
#: Z4: how many cards worse than «отбой» the lead must look before the stack is thrown away
#: (against 3 × greedy, honest, 1,200 series each: 0 lost 18.0% with 2.1 «отбой» a series,
#: 2 16.3% (1.0), 4 15.5% (0.5); never saying it 14.8%: within the noise of 4).
MARGIN = 4.0


def worth(card: int, trump: int) -> int:
    """How much a card is worth keeping: its rank (nine 0 … ace 5), its own trumps above all."""
    return card % 13 - 7 + (6 if card // 13 == trump else 0)


def _cheap_key(trump: int):
    return lambda c: (c // 13 == trump, c % 13)


def greedy_action(view: dict, honest: list[dict]) -> dict | None:
    if not honest:
        return None
    kinds = by_type(honest)
    key = _cheap_key(suit_index(view["suits"][view["seat"]]))
    for kind in ("give", "beat", "lead"):
        if kind in kinds:
            return cheapest(kinds[kind], key)
    return next(kinds[k][0] for k in ("take", "deal", "done", "otboy") if k in kinds)


def _next_holder(view: dict, seat: int) -> int | None:
    """The next player after ``seat`` holding cards (the one who beats a card led now)."""
    n, hands, left = view["players"], view["hands"], view["left"]
    return next((s for s in ((seat + i) % n for i in range(1, n)) if hands[s] and s not in left), None)


class ZalupaTactics(Tactics):
    #: Playouts: about the rest of a kon.
    DEPTH = 80

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self.gone: set[int] = set()  # this kon's отбой
        self.stack: list[int] = []  # the stack as laid
        self.known: dict[int, set[int]] = {}  # cards known in each other hand
        self.played: set[int] = set()  # cards laid this kon (a lowest trump among them has left its hand)
        self.lows_due = False  # a new deal: each player's lowest trump is in his hand (Z2)
        self._before: tuple | None = None  # the memory before the last action (an undo restores it)

    # --- memory -----------------------------------------------------------------------

    def observe(self, event: dict) -> None:
        kind = event["type"]
        if kind == "deal" or kind == "game_start":
            self.gone, self.stack, self.known, self.played = set(), [], {}, set()
            self.lows_due = kind == "deal" and not event.get("stock")
        elif kind == "undo" and self._before is not None:
            self.gone, self.stack, self.known, self.played = self._before
            self._before = None
        elif kind == "action":
            self._saw(event["seat"], event["action"])

    def _saw(self, seat: int, action: dict) -> None:
        kind = action["type"]
        if kind not in ("lead", "beat", "take", "otboy"):
            return
        self._before = (set(self.gone), list(self.stack), {s: set(k) for s, k in self.known.items()}, set(self.played))
        if kind == "take":
            count = action["count"]
            self.known.setdefault(seat, set()).update(self.stack[-count:])
            del self.stack[-count:]
        elif kind == "otboy":
            self.gone.update(self.stack)
            self.stack = []
        else:
            card = parse_card(action["card"])
            self.stack.append(card)
            self.played.add(card)
            self.known.get(seat, set()).discard(card)

    def _catch_up(self, view: dict) -> None:
        """Agree with the view (a knowledge begun mid-game, or a move it missed); place the
        lowest trumps handed over at the last deal (Z2) that were not laid since."""
        stack = [parse_card(c) for c in view["stack"]]
        if stack != self.stack:
            self.stack = stack
        if self.lows_due:
            self.lows_due = False
            for o, suit in enumerate(view["suits"]):
                low = suit_index(suit) * 13 + 7 + len(view["aside"][o])
                if o != self.seat and o not in view["left"] and low not in self.played:
                    self.known.setdefault(o, set()).add(low)

    def p_beat(self, view: dict, seat: int, card: int, out: list[int] | None = None) -> float:
        """The chance that ``seat`` can beat ``card`` (Z3: with his own trump); ``out``: the
        cards this seat cannot place (:meth:`_unplaced`)."""
        trump = suit_index(view["suits"][seat])
        known = self.known.get(seat, set())
        if any(beats(c, card, trump) for c in known):
            return 1.0
        unknown = self._unplaced(view) if out is None else out
        slots = view["hands"][seat] - len(known)
        u = len(unknown)
        b = sum(1 for c in unknown if c != card and beats(c, card, trump))
        if slots <= 0 or b == 0:
            return 0.0
        none = 1.0
        for i in range(min(slots, u)):
            none *= max(0.0, (u - b - i) / (u - i))
        return 1.0 - none

    # --- play -------------------------------------------------------------------------

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        return greedy_action(view, honest)

    def choice(self, view: dict, honest: list[dict]) -> dict | None:
        if not honest:
            return None
        kinds = by_type(honest)
        me = self.seat
        trump = suit_index(view["suits"][me])
        value = lambda a: worth(parse_card(a["card"]), trump)  # noqa: E731
        if "give" in kinds:
            return min(kinds["give"], key=value)
        if "deal" in kinds:
            return kinds["deal"][0]
        self._catch_up(view)
        if "beat" in kinds:
            return min(kinds["beat"], key=value)
        if "take" in kinds:
            return kinds["take"][0]
        if "lead" not in kinds:  # Z3a: out; the stack goes on to the next player
            return (kinds.get("done") or kinds["otboy"])[0]
        nxt = _next_holder(view, me)
        size = len(self.stack)
        best, score, p_best = None, float("-inf"), 1.0
        for a in kinds["lead"]:
            card = parse_card(a["card"])
            p = 1.0 if nxt is None else self.p_beat(view, nxt, card)
            s = (1.0 - p) * (size + 1) * TAKEN - worth(card, trump)
            if s > score:
                best, score, p_best = a, s, p
        if "otboy" in kinds and self._throw_away(view, size, p_best, best):
            return kinds["otboy"][0]
        return best

    def _throw_away(self, view: dict, size: int, p: float, lead: dict) -> bool:
        """Z4: whether the stack is worth throwing away rather than leading ``lead`` (which
        the next player beats with chance ``p``). Led on, the stack goes round the table
        until a player cannot beat and takes it: that the player is another one is as good
        for this seat as its own take is bad (the loser is the one left holding cards), so
        the lead (a card shed) is worth more than «отбой» unless this seat is the likelier
        one to take: when its hand can beat fewer of the cards still out than the others' can."""
        me, n = self.seat, view["players"]
        order = [s for s in ((me + i) % n for i in range(1, n)) if view["hands"][s] and s not in view["left"]]
        if not order or len(view["hand"]) < 2:
            return False  # (a last card led takes it out of the kon)
        out = self._unplaced(view)
        hand = [parse_card(c) for c in view["hand"] if c != lead["card"]]
        trump = suit_index(view["suits"][me])
        fails = [1.0 - p] + [self.fail(view, s, out) for s in order[1:]]
        fails.append(sum(1 for c in out if not any(beats(h, c, trump) for h in hand)) / max(1, len(out)))
        reach, lands = 1.0, []
        for f in fails:
            lands.append(reach * f)
            reach *= 1.0 - f
        if reach >= 1.0:
            return False
        mine = lands[-1] / (1.0 - reach)  # the chance the stack, going round, lands on this seat
        grown = size + 1 + len(order)
        return 1.0 + grown * ((1.0 - mine) / len(order) - mine) < -MARGIN

    def _unplaced(self, view: dict) -> list[int]:
        """The cards in play this seat cannot place (in other hands or undealt)."""
        aside = {parse_card(c) for a in view["aside"] for c in a}
        mine = {parse_card(c) for c in view["hand"]}
        placed = {c for s, k in self.known.items() if s != self.seat for c in k}
        return [c for c in deck(SIZE) if c not in aside and c not in mine and c not in self.gone
                and c not in self.stack and c not in placed]

    def fail(self, view: dict, seat: int, out: list[int]) -> float:
        """The chance that ``seat`` cannot beat a card still out, led to him."""
        if not out:
            return 0.0
        return sum(1.0 - self.p_beat(view, seat, c, out) for c in out) / len(out)

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        """Instead of taking the stack (no honest beat): beat with the card least worth keeping
        (Z7b: the stack stays, a card is shed and another led) or say «отбой» (Z7o)."""
        if choice is None or choice["type"] != "take":
            return []
        trump = suit_index(view["suits"][self.seat])
        hand = view["hand"]
        size = len(view["stack"])
        card = min(hand, key=lambda c: worth(parse_card(c), trump))
        last = 3.0 if len(hand) == 1 else 0.0  # the beat is its last card: out of the kon
        return [(size + 1.0 + last, {"type": "beat", "card": card}), (size - 0.5, {"type": "otboy"})]

    def cost(self, view: dict) -> float:
        """T14: the mark is paid in cards: one each from the players holding two or more
        (``hard``), else one; and the tempo lost."""
        holders = sum(1 for s, n in enumerate(view["hands"]) if n >= 2 and s != self.seat and s not in view["out"])
        return (holders if self.rules.get("hard") else min(1, holders)) + 0.3

    def plainly_clean(self, obs: Any, action: dict) -> bool:
        kind = action.get("type")
        if kind in ("lead", "done", "deal"):
            return True  # (made only when honest: a lead on a card to beat is refused, T1)
        view = obs.view
        stack = view["stack"]
        if kind == "take":
            return not stack
        if kind != "beat" or len(stack) < 2 or stack[-1] != action.get("card") or obs.window is None:
            return False
        return beats(parse_card(stack[-1]), parse_card(stack[-2]), suit_index(view["suits"][obs.window["seat"]]))

    # --- search ---------------------------------------------------------------------------

    def playout(self, game: Game, seat: int, honest: list[tuple]) -> tuple:
        """The greedy rule on the engine's own actions."""
        key = _cheap_key(game.suits[seat])
        kinds: dict[str, list[tuple]] = {}
        for a in honest:
            kinds.setdefault(a[0], []).append(a)
        for kind in ("give", "beat", "lead"):
            if kind in kinds:
                return min(kinds[kind], key=lambda a: key(a[1]))
        return next(kinds[k][0] for k in ("take", "deal", "done", "otboy") if k in kinds)

    def holding(self, game: Any, seat: int) -> int:
        """A lost kon weighs more than any hand (a playout may run into the next kon)."""
        return 100 * game.losses[seat] + len(game.hands[seat])


TACTICS = ZalupaTactics

_H, _G = "builtin:heuristic", "builtin:greedy"
#: The strength figures (``scripts/bench_bots.py``, issue 25): series lost, 4 players.
GOALS = (
    Goal("greedy", _G, (_G,) * 3, measure="seat"),
    Goal("heuristic", _H, (_G,) * 3, 0.17),
    Goal("honest", f"{_H}:cheat=0", (_G,) * 3),
)
