#!/usr/bin/env python3
"""Steps per second of random play through the RL environments, side by side in one run
(issue 27): pidor's AEC environment (``pidor.rl``), the same games through the bare engine,
RLCard's own ``uno`` and ``leduc-holdem`` and PettingZoo's wrappers of them.

A step is one decision of one agent (a game action, a call-window answer, a vote, a
``wait``, one id of a composite action). Every row plays uniformly at random among the
legal ids (the same chooser everywhere: ``random.Random.randrange`` over the mask's ids),
observing each step as a learner would (``env.last()``; RLCard's ``step`` returns the next
state). Rows:

* ``pidor <game>``: ``pidor.rl.env`` (its ``OrderEnforcingWrapper`` included), random among
  the honest ids (``honest_mask``); ``pidor <game> cheats``: among every possible id;
* ``engine <game>``: the same games as the ``pidor <game>`` row, the same table calls
  replayed on a fresh table with the engine's lists of options each decision needs
  (``honest_actions``, ``actions``) and no encoding, masks or observation: what the
  environment adds is the difference;
* ``floor <game>``: an AEC environment that does nothing but hand out a vector and masks of
  the game's sizes, in the same wrapper and loop: the cost of the loop and of PettingZoo's
  API alone, which no environment can go below (``engine / floor`` is the best ratio any
  environment could reach against the engine row);
* ``rlcard uno``, ``rlcard leduc-holdem``: ``rlcard.make`` and its ``step``;
* ``pettingzoo uno``, ``pettingzoo leduc-holdem``: PettingZoo's ``leduc_holdem_v4.env()``;
  PettingZoo dropped its UNO module (``uno_v4``) in 1.23, so the UNO row is that module's
  environment rebuilt on the installed PettingZoo: its ``RLCardBase("uno", 2, (4, 4, 15))``
  in the same wrappers as ``leduc_holdem_v4.env()``.

Each environment is seeded once (``reset(seed=0)``) and then reset without a seed (an
RLCard wrapper re-creates its RLCard environment on every seeded reset). Time is CPU time
of this process (``--clock wall`` for elapsed time); the rows run in rounds, one after
another in each round, so a busy machine slows them alike. Example::

    python scripts/bench_rl.py                   # podkidnoy and pidor, 2 players, 3 rounds of 2 s a row
    python scripts/bench_rl.py --game simple --players 3 --seconds 5 --json
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pidor.engine.table import Table  # noqa: E402
from pidor.games import GAME_IDS  # noqa: E402

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def aec_game(env, rng: random.Random, key: str = "action_mask") -> int:
    """One game of random ids (among ``key``'s) through a PettingZoo AEC env; its steps."""
    env.reset()
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs[key]
        if not mask.any():  # (the choice so far is a cheat: nothing honest follows)
            mask = obs["action_mask"]
        ids = mask.nonzero()[0]
        env.step(int(ids[rng.randrange(len(ids))]))
        steps += 1
    return steps


def pidor_row(game: str, players: int, key: str):
    import pidor.rl

    env = pidor.rl.env(game, players=players)
    env.reset(seed=0)
    replays: list[tuple[dict, bytes, list]] = []

    def play(rng: random.Random) -> int:
        steps = aec_game(env, rng, key)
        raw = env.unwrapped
        replays.append((raw.options, raw._server_seed, list(raw._inputs), steps))
        return steps

    return play, replays


def engine_row(replays: list):
    """The games the pidor row played, through the bare table (see the module's doc)."""
    from pidor.gamelog.deal import deal_key

    def play(rng: random.Random) -> int:
        if not replays:
            return 0
        options, seed, inputs, steps = replays[rng.randrange(len(replays))]
        table = Table(options)
        table.start(seed=deal_key(seed, [None] * options["players"]))
        for call, *args in inputs:
            if call == "act":
                seat, action = args
                game = table.game
                game.honest_actions(seat)
                game.actions(seat)
                table.act(seat, action)
            elif call == "answer":
                table.answer(*args)
            elif call == "vote":
                table.vote(*args)
            elif call == "abstain":
                table.abstain(*args)
            else:
                table.tick(*args)
        return steps

    return play


def floor_row(game: str, players: int):
    """An AEC environment that does nothing, in ``pidor.rl``'s wrapper, with the
    observation and masks of ``game``'s sizes: what the loop and PettingZoo's API cost alone."""
    import numpy as np
    from pettingzoo import AECEnv

    import pidor.rl
    from pidor.rl.env import Ordered

    shape = pidor.rl.env(game, players=players).unwrapped.observation_space("player_0")

    class Floor(AECEnv):
        metadata = {"name": "floor", "render_modes": [], "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{s}" for s in range(players)]
            self.vector = np.zeros(shape["observation"].shape, np.float32)
            self.size = shape["action_mask"].shape[0]

        def reset(self, seed=None, options=None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.agent_selection, self.steps = self.agents[0], 0

        def observe(self, agent):
            mask = np.zeros(self.size, np.int8)
            mask[[6, 7, 8]] = 1
            return {"observation": self.vector.copy(), "action_mask": mask, "honest_mask": mask}

        def step(self, action) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0
            self.steps += 1
            if self.steps == 100:  # (about a game of podkidnoy)
                self.terminations = dict.fromkeys(self.agents, True)
            seat = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(seat + 1) % players]
            self._accumulate_rewards()

    env = Ordered(Floor())
    env.reset(seed=0)
    return lambda rng: aec_game(env, rng, "honest_mask")


def rlcard_row(name: str):
    import rlcard

    env = rlcard.make(name, {"seed": 0})

    def play(rng: random.Random) -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return play


def pettingzoo_row(name: str):
    from pettingzoo.utils import wrappers

    if name == "uno":
        from pettingzoo.classic.rlcard_envs.rlcard_base import RLCardBase

        class Uno(RLCardBase):  # PettingZoo's uno_v4, as it was before 1.23 dropped it
            metadata = {"render_modes": [], "name": "uno_v4", "is_parallelizable": False}

            def __init__(self) -> None:
                super().__init__("uno", 2, (4, 4, 15))
                self.render_mode = None

        env = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
            wrappers.TerminateIllegalWrapper(Uno(), illegal_reward=-1)))
    else:
        from pettingzoo.classic import leduc_holdem_v4

        env = leduc_holdem_v4.env()
    env.reset(seed=0)

    return lambda rng: aec_game(env, rng)


@click.command()
@click.option("--game", "games", multiple=True, type=click.Choice(GAME_IDS), help="pidor games (default: podkidnoy "
              "and pidor); repeat for more")
@click.option("--players", default=2, show_default=True, help="players in the pidor games")
@click.option("--seconds", default=2.0, show_default=True, help="seconds per row per round")
@click.option("--rounds", default=3, show_default=True, help="rounds of every row")
@click.option("--clock", type=click.Choice(sorted(CLOCKS)), default="cpu", show_default=True)
@click.option("--no-rlcard", is_flag=True, help="pidor rows only (without rlcard and pygame installed)")
@click.option("--json", "as_json", is_flag=True, help="one JSON object: the rows and the ratios")
def main(games, players, seconds, rounds, clock, no_rlcard, as_json):
    """Steps per second of random play: pidor's RL environment, the bare engine, RLCard and
    PettingZoo, side by side."""
    clock_fn = CLOCKS[clock]
    rows: dict[str, object] = {}
    for game in games or ("podkidnoy", "pidor"):
        play, replays = pidor_row(game, players, "honest_mask")
        rows[f"pidor {game}"] = play
        rows[f"engine {game}"] = engine_row(replays)
        rows[f"pidor {game} cheats"] = pidor_row(game, players, "action_mask")[0]
        rows[f"floor {game}"] = floor_row(game, players)
    if not no_rlcard:
        for name in ("uno", "leduc-holdem"):
            rows[f"rlcard {name}"] = rlcard_row(name)
            rows[f"pettingzoo {name}"] = pettingzoo_row(name)
    steps = dict.fromkeys(rows, 0)
    spent = dict.fromkeys(rows, 0.0)
    rng = random.Random(0)
    for _ in range(rounds):
        for name, play in rows.items():
            start = clock_fn()
            while clock_fn() - start < seconds:
                steps[name] += play(rng)
            spent[name] += clock_fn() - start
    rate = {name: steps[name] / spent[name] for name in rows}
    ratios = {}
    for game in games or ("podkidnoy", "pidor"):
        ratios[f"engine {game} / pidor {game}"] = rate[f"engine {game}"] / rate[f"pidor {game}"]
        ratios[f"engine {game} / floor {game}"] = rate[f"engine {game}"] / rate[f"floor {game}"]
        if not no_rlcard:
            ratios[f"pidor {game} / pettingzoo uno"] = rate[f"pidor {game}"] / rate["pettingzoo uno"]
    if as_json:
        click.echo(json.dumps({"clock": clock, "players": players, "seconds": seconds, "rounds": rounds,
                               "steps_per_second": {k: round(v) for k, v in rate.items()},
                               "steps": steps, "ratios": {k: round(v, 2) for k, v in ratios.items()}}, indent=2))
        return
    width = max(map(len, rows))
    for name in rows:
        click.echo(f"{name:<{width}}  {rate[name]:>9,.0f} steps/s  ({steps[name]:,} steps)")
    for name, value in ratios.items():
        click.echo(f"{name}: {value:.2f}")


if __name__ == "__main__":
    main()
