"""Policies that decide through the RL encoding (:class:`pidor.rl.EncodedPolicy`), for the
``py:`` entrant tests (``py:rl_policies:CLASS`` with ``tests/bots`` on the path):

* :class:`FirstHonest` takes the first honest id, ``wait`` last (so it never cheats and
  never calls);
* :class:`FirstCheat` takes the first id outside the honest mask when there is one, and
  else the last id (it cheats, calls and abstains whenever it may).
"""

from __future__ import annotations

import numpy as np

from pidor.rl import EncodedPolicy
from pidor.rl.codec import WAIT


class FirstHonest(EncodedPolicy):
    def choose(self, vector, mask, honest):
        ids = [i for i in np.flatnonzero(honest if honest.any() else mask) if i != WAIT]
        return int(ids[0]) if ids else WAIT


class FirstCheat(EncodedPolicy):
    def choose(self, vector, mask, honest):
        cheats = np.flatnonzero(mask & (1 - honest))
        return int(cheats[0] if cheats.size else np.flatnonzero(mask)[-1])
