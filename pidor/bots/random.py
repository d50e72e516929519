"""The random policy: plays a random honest action, sometimes cheats, calls and votes.

Its parameters (all probabilities, default 0):

* ``cheat``: play a dishonest action, when one exists (never while it must replay
  honestly, T6);
* ``attention``: call («пидор!») an action that visibly broke a rule (judged from the
  public view with :meth:`Observation.visible_violations`, never from the table's hidden
  list);
* ``false_call``: call an action that broke no visible rule;
* ``acquit``: vote «чист» anyway. Otherwise it votes «пидор»: a court sits only on an
  action that broke a rule (T6), and the court shows which.

Spec text (``pidor match --seat``): ``builtin:random`` or
``builtin:random:cheat=0.1,attention=0.5,false_call=0.01``.
"""

from __future__ import annotations

from .policy import Observation, Policy
from .specs import register

__all__ = ["RandomBot"]


@register
class RandomBot(Policy):
    name = "random"
    PARAMS = {"cheat": 0.0, "attention": 0.0, "false_call": 0.0, "acquit": 0.0}

    def act(self, obs: Observation) -> dict | None:
        if self.cheat and obs.may_cheat and self.rng.random() < self.cheat:
            honest = obs.honest
            dishonest = [a for a in obs.actions() if a not in honest]
            if dishonest:
                return dishonest[self.rng.below(len(dishonest))]
        if obs.may_wait:  # (asked first: the options are not made for nothing)
            return None
        honest = obs.honest
        n = len(honest)
        return honest[self.rng.below(n)] if n else None

    def uniform_pick(self):
        # act() with no cheating draws nothing but the index (a subclass's own act: asked)
        return self.rng.below if not self.cheat and type(self).act is RandomBot.act else None

    def call(self, obs: Observation) -> bool:
        if not (self.attention or self.false_call):
            return False
        window = obs.window
        p = self.attention if obs.visible_violations(window["seat"], window["action"]) else self.false_call
        return bool(p) and self.rng.random() < p

    def may_call(self) -> bool:
        # (A subclass that overrides call decides for itself.)
        return bool(self.attention or self.false_call) or type(self).call is not RandomBot.call

    def vote(self, obs: Observation) -> bool:
        return not (self.acquit and self.rng.random() < self.acquit)
