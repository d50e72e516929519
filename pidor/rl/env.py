"""Every game of the registry as a PettingZoo AEC environment (``docs/RL.md``).

The agents are the seats (``player_0``…). The agent asked is the one the table waits on,
in the in-process driver's order (:mod:`pidor.driver`): while a call window is open, the
seats that owe it an answer (``pass``/``call``, T3), one at a time; while a court sits, its
voters (``guilty``/``clean``/``abstain``, T4); else a seat that may act (a game action, a
payment, or ``wait`` when the game does not wait on it: durak's thrower-in, D5), several
such seats in a rotation drawn from the deal's seed. When every seat that may act waits,
the game's clock runs out (durak's «бито», D5).
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.game import Event
from ..engine.seeds import Rng
from ..engine.table import TABLE_OPTIONS, Table, table_options
from ..games import spec, text_of
from ..games.text import Say
from ..gamelog.record import Recorder, seat_info
from ..match.record import driver_key, match_base, server_seed
from .choice import Choice
from .codec import ABSTAIN, CALL, CLEAN, GUILTY, PASS, WAIT, ActionCodec
from .features import SCALE_LIMIT, Layout
from .tracker import Tracker

__all__ = ["PidorEnv", "env", "raw_env", "IllegalAction", "REWARDS", "ENV_OPTIONS", "layout_of", "make_options"]

#: How the winners share the reward (the loser gets -1, a draw 0 for all).
REWARDS = ("shared", "place")
#: The environment's own options, besides the game's and the table's.
ENV_OPTIONS = {"reward": "shared: +1 split evenly among the others; place: by finishing place",
               "shaping": "a reward for courts: -shaping to a seat the mark goes to by a call or a court, "
                          "+shaping to the caller of a guilty verdict (0: off)"}
#: Table moves by the table state they answer.
_WINDOW = (PASS, CALL)
_COURT = (GUILTY, CLEAN, ABSTAIN)
#: Mark reasons that come from a call or a court (T5, T6).
_CALLED = frozenset({"false_call", "lost_vote", "convicted"})


class IllegalAction(ValueError):
    """``step`` with an id outside the agent's ``action_mask`` (or not an id): nothing
    changed; the same agent is still asked. (PettingZoo leaves illegal moves to the
    environment; its ``TerminateIllegalWrapper`` turns them into a loss instead.)"""


def make_options(game: Any, players: Any = None, options: dict | None = None) -> dict:
    """The table's options of ``game`` (its own, its clocks and the table's), complete and
    checked; ``ValueError`` in one line naming the games or the options there are."""
    cls = spec(game).engine
    options = dict(options or {})
    known = [o.name for o in cls.OPTIONS + cls.CLOCKS + TABLE_OPTIONS if o.name != "players"]
    for key in options:
        if key not in known:
            raise ValueError(f"{game} has no option {key!r}; it takes: players, {', '.join(known)}; "
                             f"the environment's: {', '.join(ENV_OPTIONS)}")
    if players is not None:
        options["players"] = players
    return table_options({"game": game, **options})


@functools.lru_cache(maxsize=64)
def _layout(key: tuple) -> Layout:
    options = {k: list(v) if type(v) is tuple else v for k, v in key}
    return Layout.discover(options, ActionCodec(spec(options["game"]).engine, options["players"], options["deck"]))


def layout_of(options: dict) -> Layout:
    """The observation layout of a game set up with ``options`` (found once per process;
    a list option, durak's ``pass_card``, is keyed as a tuple)."""
    cls = spec(options["game"]).engine
    return _layout(tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in options.items()
                                if k in cls.DEFAULTS or k == "game")))


def env(game: str, players: int | None = None, **options: Any) -> AECEnv:
    """``raw_env`` in PettingZoo's ``OrderEnforcingWrapper`` (which refuses ``step`` before
    ``reset`` and the like)."""
    return Ordered(PidorEnv(game, players, **options))


class Ordered(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, minus its cost: it reads
    every attribute of the environment through two ``__getattr__`` calls (eight a step of a
    learner's loop, about half of a step of an environment that does nothing). Here the
    attributes a loop reads each step are properties, and ``last`` asks the environment
    itself once the wrapper has checked the order."""

    def _after_reset(name: str):  # noqa: N805 (a property maker, used in the class body)
        def get(self):
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)
        return property(get)

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    rewards = _after_reset("rewards")
    infos = _after_reset("infos")
    del _after_reset

    @property
    def _cumulative_rewards(self):
        return self.env._cumulative_rewards

    def last(self, observe: bool = True):
        if observe and not self._has_reset:
            self.observe(None)  # (PettingZoo's error: observe before reset)
        return self.env.last(observe)


class PidorEnv(AECEnv):
    """One game at one table; each :meth:`reset` deals a new game (see ``docs/RL.md``)."""

    metadata = {"name": "pidor_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, *, reward: str = "shared", shaping: float = 0.0,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.options = make_options(game, players, options)
        if reward not in REWARDS:
            raise ValueError(f"reward must be {' or '.join(REWARDS)}, not {reward!r}")
        if type(shaping) not in (int, float) or not 0 <= shaping <= 1:
            raise ValueError(f"shaping must be a number 0..1, not {shaping!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or ansi, not {render_mode!r}")
        self.game = game
        self.reward, self.shaping, self.render_mode = reward, float(shaping), render_mode
        n = self.players = self.options["players"]
        self.codec = ActionCodec(spec(game).engine, n, self.options["deck"])
        self.layout = layout_of(self.options)
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.codec.size
        space = spaces.Dict({
            "observation": spaces.Box(-SCALE_LIMIT, SCALE_LIMIT, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
            "honest_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        # One space object per agent (seeding one leaves the others alone).
        self.observation_spaces = {a: space if s == 0 else _copy(space) for s, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._base: bytes | None = None
        self._deal = 0
        self.table: Table | None = None
        #: Each seat's vector, reset at each game; kept for the env's life, since what a
        #: view's value puts in the vector is memoised there, the same from game to game.
        self._trackers = [Tracker(self.layout, s) for s in range(n)]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a game: ``reset(seed=S)`` the deal of the first game of ``pidor match
        --seed S`` (and of its driver's seed, who moves first when several may), each
        ``reset()`` after it the next game's deal; with no seed ever given, a random one."""
        if seed is not None:
            self._base, self._deal = match_base(str(seed)), 0
        elif self._base is None:
            self._base, self._deal = match_base(os.urandom(16).hex()), 0
        else:
            self._deal += 1
        n = self.players
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.table = Table(self.options)
        self._server_seed = server_seed(self._base, self._deal)
        self._rng = Rng(driver_key(self._base, self._deal), b"driver")
        self._inputs: list[tuple] = []  # every table call, to write the log (write_log)
        self._log: list[Event] = []
        self._fed = [0] * n
        for tracker in self._trackers:
            tracker.reset()
        self._cache: dict[str, dict] = {}
        self._waited: set[int] = set()
        self._order: list[int] | None = None
        self.steps = 0
        start = Recorder(self.table, None, server_seed=self._server_seed, seat_seeds=[None] * n)
        self._made(start.start())
        self._next()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        choice = self._choice
        if type(action) is not int:
            if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
                raise IllegalAction(f"{agent}: an action is an id 0..{self.codec.size - 1}, not {action!r}")
            action = int(action)
        if action not in choice.possible:
            raise IllegalAction(f"{agent}: id {action} ({self._name(action)}) is not in the action mask now")
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cache = {}
        self.steps += 1
        seat = self._seat[agent]
        honest = action in choice.honest
        got = choice.choose(action)
        if got is None:  # a composite action goes on: the same agent chooses again
            self._accumulate_rewards()
            return
        table = self.table
        if type(got) is int:
            if got == WAIT:
                self._waited.add(seat)
                events = None
            elif got <= CALL:
                self._inputs.append(("answer", seat, got == CALL))
                events = table.answer(seat, got == CALL)
            elif got == ABSTAIN:
                self._inputs.append(("abstain", seat))
                events = table.abstain(seat)
            else:
                self._inputs.append(("vote", seat, got == GUILTY))
                events = table.vote(seat, got == GUILTY)
        else:
            self._inputs.append(("act", seat, got))
            events = table.act(seat, got, honest=honest and not choice.prefix)
        if events is not None:
            self._made(events)
        self._next()
        self._accumulate_rewards()

    def _made(self, events: list[Event]) -> None:
        """The table changed: a new situation (whoever waited is asked again)."""
        self._log.extend(events)
        self._waited.clear()
        self._order = None
        if self.shaping:
            for e in events:
                kind = e["type"]
                if kind == "mark" and e["reason"] in _CALLED:
                    self.rewards[self.possible_agents[e["seat"]]] -= self.shaping
                elif kind == "verdict" and e["outcome"] == "guilty":
                    self.rewards[self.possible_agents[e["caller"]]] += self.shaping

    def _next(self) -> None:
        """Ask the next seat the table waits on (or end the game)."""
        table, codec = self.table, self.codec
        while not table.over:
            window = table.window
            if window is not None:
                self._ask(window.owing[0], Choice(codec, _WINDOW))
                return
            court = table.court
            if court is not None:
                self._ask(min(court.owing), Choice(codec, _COURT))
                return
            order = self._order
            if order is None:
                to_act = table.to_act()
                if len(to_act) > 1:  # several may act at once: a fair order (the driver's)
                    k = self._rng.below(len(to_act))
                    to_act = to_act[k:] + to_act[:k]
                order = self._order = to_act
            game = table.game
            obliged = game.obliged() if len(order) > 1 else order
            for seat in order:
                if seat in self._waited:
                    continue
                honest = game.honest_actions(seat)
                possible = honest if seat in table.honest_only else game.actions(seat)
                if possible:
                    self._ask(seat, Choice(codec, () if seat in obliged else (WAIT,), possible, honest))
                    return
                self._waited.add(seat)  # nothing to do but wait: not asked
            deadline = table.deadline()  # every seat waits: the clock runs out (D5)
            if deadline is None:
                raise RuntimeError(f"{self.game}: seats {order} wait and no clock runs (a bug in the game)")
            self._inputs.append(("tick", deadline))
            self._made(table.tick(deadline))
        self._finish()

    def _ask(self, seat: int, choice: Choice) -> None:
        self._choice = choice
        self.agent_selection = self.possible_agents[seat]

    def _finish(self) -> None:
        result = self.table.game.result
        for agent, value in zip(self.possible_agents, self.payoffs(result)):
            self.rewards[agent] += value
        self.terminations = dict.fromkeys(self.agents, True)
        self._choice = Choice(self.codec)
        self._deads_step_first()

    def payoffs(self, result: dict) -> list[float]:
        """Each seat's reward for a game's ``result``: 0 for all in a draw; -1 to the
        loser, +1 among the others: evenly (``shared``) or by their finishing place
        (``place``: the k-th of m winners gets (m - k + 1) / (1 + … + m))."""
        n = self.players
        loser = result.get("loser")
        out = [0.0] * n
        if result.get("draw") or loser is None:
            return out
        out[loser] = -1.0
        winners = [s for s in result.get("order", ()) if s != loser]
        winners += [s for s in range(n) if s != loser and s not in winners]
        m = len(winners)
        for k, s in enumerate(winners):
            out[s] = 1.0 / m if self.reward == "shared" else 2.0 * (m - k) / (m * (m + 1))
        return out

    # ------------------------------------------------------------------ observations

    def observe(self, agent: str) -> dict:
        found = self._cache.get(agent)
        if found is not None:
            return found
        seat = self._seat[agent]
        tracker, log = self._trackers[seat], self._log
        k = self._fed[seat]
        if k < len(log):
            tracker.events(log[k:])
            self._fed[seat] = len(log)
        table = self.table
        size = self.codec.size
        mask = bytearray(size)  # (set id by id and taken as an array: a quarter of np.zeros and fancy indexing)
        honest = bytearray(size)
        pending = None
        if agent == self.agent_selection and not self.terminations[agent]:
            choice = self._choice
            for i in choice.possible:
                mask[i] = 1
            for i in choice.honest:
                honest[i] = 1
            if choice.prefix:
                card0, deck = self.codec.card0, self.codec.deck
                pending = (choice.prefix[0], [deck[t - card0] for t in choice.prefix[1:] if t != self.codec.end])
        window = table.window
        agenda = None if window is None else {"seat": window.seat, "action": window.action}
        if table.court is None:  # the game's view and what the tracker reads of the table's status
            view = table.game.view(seat)
            view["status"] = {"state": table.state, "mark": table.mark, "honest_only": table.honest_only}
        else:
            view = table.view(seat)
        vector = tracker.vector(view, agenda, pending)
        found = self._cache[agent] = {"observation": vector, "action_mask": np.frombuffer(mask, np.int8),
                                      "honest_mask": np.frombuffer(honest, np.int8)}
        return found

    def view(self, agent: str) -> dict:
        """The raw view of ``agent``'s seat (the game's view and the table's ``status``),
        for features of your own."""
        return self.table.view(self._seat[agent])

    def _name(self, i: int) -> str:
        try:
            return self.codec.name(i)
        except IndexError:
            return "no such id"

    # ------------------------------------------------------------------ logs, text

    def write_log(self, path: str | os.PathLike) -> None:
        """Write the game so far as a log (``pidor verify`` checks it); a game not over is
        written as aborted. The table calls are played again at a fresh table, so the
        training loop pays nothing for logs it does not write."""
        n = self.players
        table = Table(self.options)
        seats = [seat_info("external", name=a) for a in self.possible_agents]
        rec = Recorder(table, path, seats=seats, server_seed=self._server_seed, seat_seeds=[None] * n,
                       extra={"rl": {"env": self.metadata["name"], "deal": self._deal}})
        rec.start()
        for call, *args in self._inputs:
            if call == "act":
                rec.act(*args)
            elif call == "answer":
                rec.answer(*args)
            elif call == "vote":
                rec.vote(*args)
            elif call == "abstain":
                rec.abstain(*args)
            else:
                rec.tick(*args)
        rec.close(None if table.over else "the episode was cut off")

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        say = Say("en", lambda s: f"player_{s}")
        return "\n".join(text_of(self.game).board(say, self.table.view(None)))

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"pidor_v0({self.game}, {self.players} players)"


raw_env = PidorEnv


def _copy(space: spaces.Dict) -> spaces.Dict:
    return spaces.Dict({k: spaces.Box(s.low, s.high, s.shape, s.dtype) for k, s in space.spaces.items()})
