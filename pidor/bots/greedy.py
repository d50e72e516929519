"""The greedy policy: the cheapest-card player every card-game toolkit ships (issue 15).

It is honest and never calls; it is the yardstick the other bots are measured against
(``scripts/bench_bots.py``). Its decisions are pure functions of the seat's view and its
honest options, both in wire form; what "cheapest" means in each game its folder says
(``Tactics.greedy`` in ``pidor/games/<folder>/bots.py``).
"""

from __future__ import annotations

from .policy import Observation, Policy
from .specs import register
from .tactics import Tactics, tactics

__all__ = ["GreedyPolicy"]


@register
class GreedyPolicy(Policy):
    """``builtin:greedy``: honest, never calls; votes «пидор» (the court shows a broken rule, T6)."""

    name = "greedy"
    NEEDS = ("bots",)

    def __init__(self, seat: int, seed: bytes = b"", **params) -> None:
        super().__init__(seat, seed, **params)
        self._tactics: Tactics | None = None

    def new_game(self, seat: int, seed: bytes) -> None:
        super().new_game(seat, seed)
        self._tactics = None

    def act(self, obs: Observation) -> dict | None:
        honest = obs.honest
        if not honest:
            return None
        if self._tactics is None:
            self._tactics = tactics(obs.game, self.seat, obs.rules)
        return self._tactics.greedy(obs.view, honest)

    def vote(self, obs: Observation) -> bool | None:
        return True
