"""Bot policies: a :class:`Policy` decides for one seat from its :class:`Observation` and
its own seeded RNG (T10); :mod:`.specs` names them (``builtin:NAME:k=v``)."""

from .policy import Observation, Policy
from .random import RandomBot
from .specs import POLICIES, make_policy, parse_spec, register
from . import greedy, heuristic, ismcts  # noqa: E402,F401  (they register themselves: builtin:greedy, …)

__all__ = ["Observation", "Policy", "RandomBot", "POLICIES", "make_policy", "parse_spec", "register"]
