"""«Пьяница» for the built-in policies (:class:`pidor.bots.tactics.Tactics`).

There is no honest decision but collecting (W2a): greedy flips the top card and collects
what it won, in the honest order (W2b), and never cheats. Everything the heuristic adds is
махлёж, weighed by :mod:`pidor.bots.heuristic.judgement` against what a conviction costs
(T14: the top card of its deck) and how often the table has called:

* grab (W5g): collect a battle it lost (every card on the table changes hands), or, on its
  turn to flip, what the opponent laid (his half of a coin toss);
* pull (W5b): flip a card of its deck whose face everybody knows (it went under the deck in
  the open) instead of the unknown top one, when it beats the card it must beat: the
  opponent's card on the table, or his known top card;
* put on top (W5t): when the opponent's next card is known, lay the cards it won on top
  of its deck with a card that beats that one first (W5o too).
"""

from __future__ import annotations

from typing import Any

from ...bots.tactics import Goal, Tactics
from ...cards import card_code, low_rank, parse_card
from ...engine.game import Game

__all__ = ["TACTICS", "GOALS", "DrunkardTactics"]

_ACE = 12


class DrunkardTactics(Tactics):
    #: Playouts: three actions a battle (two flips and a collect); a few dozen battles ahead.
    DEPTH = 90

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self.low = low_rank(rules["deck"]) - 2
        self.six = bool(rules.get("six_beats_ace"))

    def beats(self, a: int, b: int) -> bool:
        """W2 (and W6 ``six_beats_ace``), as the engine says it."""
        ra, rb = a % 13, b % 13
        if self.six and {ra, rb} == {self.low, _ACE}:
            return ra == self.low
        return ra > rb

    def chance(self, card: int | None, against: int | None) -> float:
        """The chance that ``card`` wins a round against ``against`` (a tie: half); ``None``:
        a card nobody has seen (a rank's share of the deck's ranks)."""
        if card is None and against is None:
            return 0.5
        if against is not None and card is not None:
            return 1.0 if self.beats(card, against) else 0.5 if card % 13 == against % 13 else 0.0
        ranks = 13 - self.low
        if card is None:
            return 1.0 - self.chance(against, None)
        r = card % 13 - self.low  # the ranks it beats, of the deck's
        if self.six and card % 13 == _ACE:
            r -= 1
        elif self.six and r == 0:
            r = 1
        return (r + 0.5) / ranks

    # --- greedy -------------------------------------------------------------------------

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        return honest[0] if honest else None  # (the one honest move: flip the top, collect what it won)

    # --- heuristic ----------------------------------------------------------------------

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        me = view["seat"]
        other = 1 - me
        table = [[parse_card(c) for c in t] for t in view["table"]]
        stake = len(table[0]) + len(table[1])
        winner = view["winner"]
        out: list[tuple[float, dict]] = []
        if stake and winner != me:  # W5g: a battle it lost (all of it changes hands), else the opponent's cards
            out.append((stake if winner == other else len(table[other]), _collect("collect", _order(table, me))))
        decks = [[None if c is None else parse_card(c) for c in d] for d in view["decks"]]
        mine = decks[me]
        if winner is None and choice is not None and choice["type"] == "flip" and len(mine) > 1:
            out += self._pull(table, mine, decks[other], stake)
        if winner == me and decks[other] and decks[other][0] is not None:
            out += self._top(table, mine, decks[other][0], stake)
        return out

    def _pull(self, table: list[list[int]], mine: list, theirs: list, stake: int) -> list[tuple[float, dict]]:
        """W5b: the known card of its deck that wins the round best, if it beats the top."""
        me = self.seat
        counted = len(table[me]) % 2 == 0 or not self.rules.get("face_down_dispute")
        if not counted:
            return []  # (a card that does not count: any will do)
        if len(table[1 - me]) > len(table[me]):
            against = table[1 - me][-1]  # its card is on the table
        else:
            against = theirs[0] if theirs else None
        top = self.chance(mine[0], against)
        best = max(range(1, len(mine)), key=lambda i: -1.0 if mine[i] is None else self.chance(mine[i], against))
        gain = (self.chance(mine[best], against) - top) * (stake + 2) if mine[best] is not None else 0.0
        return [(gain, {"type": "flip", "index": best})] if gain > 0.0 else []

    def _top(self, table: list[list[int]], mine: list, against: int, stake: int) -> list[tuple[float, dict]]:
        """W5t: its winnings on top of its deck, a card that beats the opponent's known next
        card first, when its own next card does not."""
        order = _order(table, self.seat)
        first = max(order, key=lambda c: (self.chance(c, against), -(c % 13)))
        gain = (self.chance(first, against) - self.chance(mine[0] if mine else None, against)) * 2
        if gain <= 0.0:
            return []
        return [(gain, _collect("top", (first, *(c for c in order if c != first))))]

    def cost(self, view: dict) -> float:
        return 1.0 if view["decks"][view["seat"]] else 0.0  # T14: its top card, under the opponent's deck

    def plainly_clean(self, obs: Any, action: dict) -> bool:
        return action.get("type") == "flip" and action.get("index") == 0  # (W5b is the only way to flip wrong)

    # --- search -------------------------------------------------------------------------

    def holding(self, game: Game, seat: int) -> int:
        return game.held(seat)


def _order(table: list[list[int]], seat: int) -> tuple[int, ...]:
    """W2b with ``seat`` collecting (the engine's ``order``, from the view)."""
    mine, theirs = table[seat], table[1 - seat]
    out: list[int] = []
    for i in range(max(len(mine), len(theirs)) - 1, -1, -1):
        out += mine[i:i + 1] + theirs[i:i + 1]
    return tuple(out)


def _collect(kind: str, cards: tuple[int, ...]) -> dict:
    return {"type": kind, "cards": [card_code(c) for c in cards]}


TACTICS = DrunkardTactics

_H, _G, _R, _HONEST = "builtin:heuristic", "builtin:greedy", "builtin:random", "builtin:heuristic:cheat=0"
#: The strength figures (``scripts/bench_bots.py``): with no honest decision, only махлёж and
#: calls decide, so every goal is about them. Heads-up (W1): the subject against one
#: opponent, seats swapped half the time. The ``seat`` rows are baselines (and draw rates).
GOALS = (
    Goal("greedy", _G, (_G,), measure="seat", games=400),
    Goal("random", _R, (_R,), measure="seat", games=400),
    Goal("heuristic-pair", _H, (_H,), measure="seat", games=400),
    Goal("heuristic", _H, (_G,), 0.9, measure="won", games=400),  # махлёж where nobody calls
    Goal("honest-0.1", _HONEST, (f"{_R}:attention=0.1",), games=800),
    Goal("cheat-0.1", _H, (f"{_R}:attention=0.1",), measure="than", than="honest-0.1", games=800),
    Goal("honest-0.9", _HONEST, (f"{_R}:attention=0.9",), games=800),
    Goal("cheat-0.9", _H, (f"{_R}:attention=0.9",), 0.55, games=800),  # it learns to stop: no worse than luck
    Goal("reckless-0.9", f"{_H}:cheat=1", (f"{_R}:attention=0.9",), games=800),
    Goal("ismcts", "builtin:ismcts", (_H,), measure="won", games=60),
    Goal("speed", _H, (_R,), 0.5, measure="speed", games=200),
)
