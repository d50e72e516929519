"""The heuristic's judgement at the table: when a cheat pays, and who is likely to call it.

Everything here reads the seat's own observation: the projected events (who answered which
call window, T3) and the rules an action visibly broke (``Observation.visible_violations``).

* :class:`CallRates` estimates, for each opponent, how often he calls an action that broke
  a rule: a window on such an action (its own cheats, which the seat knows, and others' it
  saw) that he passed, or that he called. A prior of :data:`PRIOR` calls in
  :data:`PRIOR_WEIGHT` chances stands in before the evidence.
* :func:`caught` is the chance that at least one opponent in the game calls.
* :func:`worth_cheating` weighs a cheat's gain (in cards, against the best honest move)
  against the cost of a conviction (T6: the action is undone and the mark is paid: a card
  in durak, D12; a pidorstvo in the deal phase of «пидор», P7/P10; nothing in its trick
  play, P17).
"""

from __future__ import annotations

__all__ = ["CallRates", "caught", "worth_cheating", "PRIOR", "PRIOR_WEIGHT"]

#: Before any evidence an opponent is taken to call one cheat in five.
PRIOR = 0.2
PRIOR_WEIGHT = 2.0


class CallRates:
    """Per opponent: windows on a rule-breaking action he answered, and his calls among them.

    Feed it every projected event (:meth:`see`) and tell it which windows were on a
    rule-breaking action (:meth:`cheat_window`): the seat's own cheats, and others' it saw.
    It outlives a game, so the estimate grows over a match (a ``game_start`` clears only
    the open window).
    """

    def __init__(self, players: int) -> None:
        self.chances = [0] * players
        self.calls = [0] * players
        self._owing: list[int] | None = None  # the open window's answerers
        self._marked = False  # the open window is on an action that broke a rule

    def rate(self, seat: int) -> float:
        return (self.calls[seat] + PRIOR * PRIOR_WEIGHT) / (self.chances[seat] + PRIOR_WEIGHT)

    def cheat_window(self) -> None:
        """The window now open is on an action that broke a rule."""
        self._marked = True

    #: The events :meth:`see` reads (the others pass it by).
    EVENTS = frozenset({"window", "window_closed", "call", "game_start"})

    def see(self, event: dict, my_cheat: bool = False) -> None:
        kind = event["type"]
        if kind == "window":
            self._owing = list(event["owing"])
            self._marked = my_cheat
        elif kind == "window_closed":
            if self._owing is not None and self._marked:
                for s in self._owing:
                    self.chances[s] += 1
            self._owing = None
        elif kind == "call":
            if self._owing is not None and self._marked:
                c = event["caller"]
                self.chances[c] += 1
                self.calls[c] += 1
            self._owing = None
        elif kind == "game_start":
            self._owing = None


def caught(rates: CallRates, seat: int, in_game: list[int]) -> float:
    """The chance that somebody in the game calls ``seat``'s cheat."""
    miss = 1.0
    for s in in_game:
        if s != seat:
            miss *= 1.0 - rates.rate(s)
    return 1.0 - miss


def worth_cheating(gain: float, cost: float, p: float, cheat: float, risk: float) -> bool:
    """Whether a cheat of ``gain`` cards, costing ``cost`` cards when convicted with chance
    ``p``, is worth it to a bot with parameters ``cheat`` and ``risk``: ``cheat`` 0 never
    cheats, 1 cheats whenever it gains (reckless); in between the cost weighs
    ``2 * (1 - cheat)`` times (0.5: the plain expected value). It never takes a chance of
    being called above ``risk`` (unless reckless)."""
    if cheat <= 0.0 or gain <= 0.0:
        return False
    if cheat >= 1.0:
        return True
    if p > risk:
        return False
    return (1.0 - p) * gain - p * cost * 2.0 * (1.0 - cheat) > 0.25
