"""A trained model as a :class:`~pidor.bots.policy.Policy`: it sees what it saw in training
(the vector of :mod:`.features` and the masks of :mod:`.choice`), computed from the seat's
:class:`~pidor.bots.policy.Observation` only, so it plays wherever a policy plays: ``pidor
match --seat py:MODULE:CLASS``, a server seat's ``--policy py:…`` over TCP, the
Gymnasium wrapper's opponents.

    class Mine(EncodedPolicy):
        def choose(self, vector, mask, honest):
            return int(np.flatnonzero(honest if honest.any() else mask)[0])

The layout of the vector is found for the table's options (:func:`~.env.layout_of`), as
the environment finds it; a trained policy overrides :meth:`EncodedPolicy.layout` to give
the one it was trained with.
"""

from __future__ import annotations

import numpy as np

from ..bots.policy import Observation, Policy
from ..engine.game import Action, action_from_data, action_to_data
from ..games import spec
from .choice import Choice
from .codec import ABSTAIN, CALL, CLEAN, GUILTY, PASS, WAIT, ActionCodec
from .env import layout_of
from .features import Layout
from .tracker import Tracker

__all__ = ["EncodedPolicy"]


class EncodedPolicy(Policy):
    """A policy that decides id by id in the environment's encoding: subclass it and
    implement :meth:`choose`. It listens to every event (its vector remembers what the seat
    saw), cheats only where :meth:`choose` picks an id outside the honest mask, and never
    while it must replay honestly (T6)."""

    name = ""

    def __init__(self, seat: int, seed: bytes = b"", **params) -> None:
        super().__init__(seat, seed, **params)
        self._key: tuple | None = None  # the options its codec and layout are for
        self.codec: ActionCodec | None = None
        self.tracker: Tracker | None = None

    def choose(self, vector: np.ndarray, mask: np.ndarray, honest: np.ndarray) -> int:
        """The id to take: one where ``mask`` is 1 (``honest``: the ones that break no rule).
        Asked once per id of a composite action."""
        raise NotImplementedError

    def layout(self, options: dict, codec: ActionCodec) -> Layout:
        """The layout of the vector for a table with ``options``."""
        return layout_of(options)

    # ------------------------------------------------------------------ the policy

    def observe(self, obs: Observation, event: dict) -> None:
        self._ready(obs)
        if event["type"] == "game_start":
            self.tracker.reset()
        self.tracker.event(event)

    def act(self, obs: Observation) -> dict | None:
        self._ready(obs)
        engine = self.codec.engine
        kinds = engine.ACTIONS
        honest = [action_from_data(kinds, a) for a in obs.honest]
        possible = [action_from_data(kinds, a) for a in obs.actions()] if obs.may_cheat else []
        choice = Choice(self.codec, () if obs.obliged else (WAIT,), possible or honest, honest)
        got = self._decide(obs, choice, None)
        return None if got is None or got == WAIT else action_to_data(kinds, got)

    def call(self, obs: Observation) -> bool:
        self._ready(obs)
        return self._decide(obs, Choice(self.codec, (PASS, CALL)), obs.window) == CALL

    def may_call(self) -> bool:
        return True

    def vote(self, obs: Observation) -> bool | None:
        self._ready(obs)
        got = self._decide(obs, Choice(self.codec, (GUILTY, CLEAN, ABSTAIN)), None)
        return None if got == ABSTAIN else got == GUILTY

    def _decide(self, obs: Observation, choice: Choice, agenda: dict | None) -> Action | int | None:
        """The ids the model chooses until they make a move or an action (``None``: it has
        nothing to choose)."""
        codec = self.codec
        view = obs.view
        while choice.possible:
            pending = None
            if choice.prefix:
                pending = (choice.prefix[0], [codec.deck[t - codec.card0] for t in choice.prefix[1:] if t != codec.end])
            mask = np.zeros(codec.size, np.int8)
            honest = np.zeros(codec.size, np.int8)
            mask[choice.possible] = 1
            honest[choice.honest] = 1
            i = int(self.choose(self.tracker.vector(view, agenda, pending), mask, honest))
            if i not in choice.possible:
                i = choice.honest[0] if choice.honest else choice.possible[0]
            got = choice.choose(i)
            if got is not None:
                return got
        return None

    def new_game(self, seat: int, seed: bytes) -> None:
        super().new_game(seat, seed)
        self._key = None  # (a tracker for the new seat)

    def _ready(self, obs: Observation) -> None:
        rules = obs.rules
        engine = spec(rules["game"]).engine
        key = (rules["game"], *(rules[k] for k in engine.DEFAULTS))
        if key != self._key:
            self.codec = ActionCodec(engine, rules["players"], rules["deck"])
            self.tracker = Tracker(self.layout(rules, self.codec), self.seat)
            self._key = key
