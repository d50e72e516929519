"""Policies that decide through the RL encoding (:class:`pidor.rl.EncodedPolicy`), for the
``py:`` entrant tests (``py:rl_policies:CLASS`` with ``tests/bots`` on the path), each
drawing from its seeded ``rng`` (a fixed choice, such as always the first id, can go round
in circles where the game lets a turn go on):

* :class:`Honest` takes an honest id, ``wait`` only when there is nothing else (so it
  never cheats and never calls);
* :class:`Cheat` takes an id outside the honest mask when there is one, and else any id
  (it cheats whenever it may, and calls, votes and abstains at random).
"""

from __future__ import annotations

import numpy as np

from pidor.rl import EncodedPolicy
from pidor.rl.codec import WAIT


class Honest(EncodedPolicy):
    def choose(self, vector, mask, honest):
        ids = [i for i in np.flatnonzero(honest if honest.any() else mask) if i != WAIT]
        return int(self.rng.choice(ids)) if ids else WAIT


class Cheat(EncodedPolicy):
    def choose(self, vector, mask, honest):
        cheats = np.flatnonzero(mask & (1 - honest))
        return int(self.rng.choice(cheats if cheats.size else np.flatnonzero(mask)))
