"""The policy ``train.py`` trained, as a ``py:`` entrant (issue 27): it loads the weights
and the layout of the vector it was trained on (``podkidnoy-2.npz`` beside this file, or
the file its ``weights`` parameter names) and plays the best honest id, wherever a policy
plays::

    cd examples/rl
    pidor match --game podkidnoy --players 2 --games 400 --rotate \\
        --seat py:policy:Trained --seat builtin:random
    pidor serve ... --policy py:policy:Trained      # (over TCP: pidor.bots.remote)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pidor.rl import EncodedPolicy, Layout
from pidor.rl.codec import CALL, PASS

HERE = Path(__file__).resolve().parent


def allowed(mask: np.ndarray, honest: np.ndarray) -> np.ndarray:
    """The ids the policy chooses among: the honest ones (all the possible ones when none
    is: a composite action already begun as a cheat), and only ``pass`` in a call window (a
    call of an honest action gives the caller the mark, T5: the linear policy learned to
    call everything when it could)."""
    if mask[CALL]:
        return np.array([PASS])
    return np.flatnonzero(honest if honest.any() else mask)


class Trained(EncodedPolicy):
    """``W[id] · vector + b[id]``, the best of the ids :func:`allowed`."""

    PARAMS = {"weights": str(HERE / "podkidnoy-2.npz")}

    def __init__(self, seat: int, seed: bytes = b"", **params) -> None:
        super().__init__(seat, seed, **params)
        data = np.load(self.weights)
        self.W, self.b = data["W"], data["b"]
        self.trained = json.loads(str(data["layout"]))

    def layout(self, options: dict, codec) -> Layout:
        return Layout.from_data(self.trained, codec)

    def choose(self, vector: np.ndarray, mask: np.ndarray, honest: np.ndarray) -> int:
        ids = allowed(mask, honest)
        nz = np.flatnonzero(vector)
        scores = self.W[np.ix_(ids, nz)] @ vector[nz] + self.b[ids]
        return int(ids[int(np.argmax(scores))])
