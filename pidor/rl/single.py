"""One seat learns, the others are policies (``builtin:heuristic``, ``py:…``): a Gymnasium
environment on :class:`~.env.PidorEnv`.

The other seats decide as they do in ``pidor match``: each from its own
:class:`~pidor.bots.policy.Observation` (the in-process driver's, :class:`pidor.driver.TableSeat`),
seeded as ``pidor match --seed`` seeds its bots. A step is one id of the learning seat; its
reward is everything the AEC environment gave that seat since its last step.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..bots.specs import check_plays, make_policy, parse_spec
from ..driver import Driver
from ..engine.game import ActionError
from ..engine.seeds import Rng
from ..match.record import bot_seed, driver_key
from .choice import Choice
from .codec import ABSTAIN, CALL, CLEAN, GUILTY, PASS, WAIT
from .env import PidorEnv

__all__ = ["SingleAgentEnv"]


class SingleAgentEnv(gymnasium.Env):
    """``seat`` learns; ``opponents`` (one spec for every other seat, or one per seat,
    ``None`` at the learner's) play the others. Observations are the AEC environment's
    (``observation``, ``action_mask``, ``honest_mask``); the game's and the environment's
    options as for :func:`pidor.rl.env`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, players: int | None = None, *, seat: int = 0,
                 opponents: str | list[str | None] = "builtin:random", **options: Any) -> None:
        self.aec = PidorEnv(game, players, **options)
        n = self.aec.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) != n:
            raise ValueError(f"{len(specs)} opponents for {n} seats: give one spec, or one per seat")
        specs[seat] = None
        self.specs = []
        for s, text in enumerate(specs):
            if s == seat:
                self.specs.append(None)
                continue
            parsed = parse_spec(text, python=True)
            check_plays(parsed, game)
            self.specs.append(parsed)
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = self.aec.render_mode

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        aec = self.aec
        aec.reset(seed=seed)
        base, deal = aec._base, aec._deal
        self.policies = [None if p is None else make_policy(p, s, bot_seed(base, deal, s))
                         for s, p in enumerate(self.specs)]
        self.driver = Driver(aec.table, self.policies, Rng(driver_key(base, deal), b"driver"))
        self._fed = len(aec._log)
        self._others()
        return aec.observe(self.agent), {}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        self.aec.step(action)  # (IllegalAction: nothing changed)
        self._others()
        aec = self.aec
        reward = float(aec._cumulative_rewards[self.agent])
        return aec.observe(self.agent), reward, aec.terminations[self.agent], False, {}

    def _others(self) -> None:
        """The other seats decide until the learner is asked or the game is over."""
        aec, driver = self.aec, self.driver
        while not aec.terminations[self.agent]:
            self._feed()
            agent = aec.agent_selection
            if agent == self.agent:
                return
            seat = aec._seat[agent]
            policy, table = self.policies[seat], aec.table
            choice = aec._choice
            if table.window is not None:
                aec.step(CALL if policy.call(driver.observation(seat)) else PASS)
            elif table.court is not None:
                guilty = policy.vote(driver.observation(seat))
                aec.step(ABSTAIN if guilty is None else GUILTY if guilty else CLEAN)
            else:
                tokens = self._ids(seat, choice)
                aec.step(tokens[0])
                while aec._choice is choice and choice.prefix:  # a composite action, id by id
                    aec.step(tokens[len(choice.prefix)])

    def _ids(self, seat: int, choice: Choice) -> tuple[int, ...]:
        """The ids of the action the seat's policy chooses (``wait`` for none; a policy that
        waits where the table waits on it, or names an action the table would refuse, plays
        its first honest option, as a stand-in would, T9)."""
        codec = self.aec.codec
        game = self.aec.table.game
        data = self.policies[seat].act(self.driver.observation(seat))
        if data is not None:
            try:
                tokens = codec.tokens(game.parse_action(data))
            except (ActionError, ValueError):
                tokens = ()
            if choice.offers(tokens):
                return tokens
        if WAIT in choice.possible:
            return (WAIT,)
        honest = [t for t in choice.honest if t != WAIT]
        return choice.tokens_of(honest[0] if honest else choice.possible[0])

    def _feed(self) -> None:
        log = self.aec._log
        if self._fed < len(log):
            self.driver.feed(log[self._fed:])
            self._fed = len(log)

    def render(self) -> str | None:
        return self.aec.render()
