#!/usr/bin/env python3
"""Train a small policy for 2-player podkidnoy against ``builtin:random`` (issue 27).

The policy is linear: a score per id, ``W[id] · vector + b[id]``, softmax over the ids the
honest mask allows (the learner plays honestly: it is judged on play, not on cheats that a
random opponent never calls), and it passes every call window (``policy.allowed``). It learns by REINFORCE with a running baseline from the
game's reward (+1 won, -1 lost, 0 a draw), numpy only: the vector is sparse (a few dozen
entries of about a thousand are not 0), so a step touches the rows of the legal ids and
the columns of those entries, and an update is cheap.

Every ``--every`` games it plays ``--eval`` games greedily (the best id) against
``builtin:random`` on deals it never trains on and records the share of decided games it
won, against the CPU time spent so far (the machine is shared: CPU time, not wall time).
It writes the weights (``podkidnoy-2.npz``, with the layout of the vector it was trained
on) and the curve (``curve.png``, ``curve.json``) beside this file, for ``policy.py``::

    python examples/rl/train.py --minutes 3      # (about 90% of decided games won: docs/RL.md)
    cd examples/rl && pidor match --game podkidnoy --players 2 --games 400 --rotate \\
        --seat py:policy:Trained --seat builtin:random
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from pidor.rl import SingleAgentEnv  # noqa: E402
from policy import allowed  # noqa: E402  (examples/rl/policy.py: the ids the policy chooses among)

GAME, PLAYERS = "podkidnoy", 2


class Linear:
    """Scores ``W[id] · x + b[id]`` over the allowed ids; softmax at temperature 1."""

    def __init__(self, ids: int, features: int) -> None:
        self.W = np.zeros((ids, features), np.float32)
        self.b = np.zeros(ids, np.float32)

    def probs(self, x: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        nz = np.flatnonzero(x)
        scores = self.W[np.ix_(allowed, nz)] @ x[nz] + self.b[allowed]
        scores -= scores.max()
        p = np.exp(scores)
        return p / p.sum(), nz

    def best(self, x: np.ndarray, allowed: np.ndarray) -> int:
        p, _ = self.probs(x, allowed)
        return int(allowed[int(np.argmax(p))])


def allowed_ids(obs: dict) -> np.ndarray:
    return allowed(obs["action_mask"], obs["honest_mask"])


def episode(env: SingleAgentEnv, model: Linear, rng: np.random.Generator, seed: int | None):
    """One game, sampling; returns the decisions (x, nz, allowed, probs, chosen) and the reward."""
    obs, _ = env.reset(seed=seed)
    steps, total = [], 0.0
    while True:
        allowed = allowed_ids(obs)
        x = obs["observation"]
        p, nz = model.probs(x, allowed)
        k = int(rng.choice(len(allowed), p=p)) if len(allowed) > 1 else 0
        if len(allowed) > 1:
            steps.append((x, nz, allowed, p, k))
        obs, reward, terminated, _, _ = env.step(int(allowed[k]))
        total += reward
        if terminated:
            return steps, total


def evaluate(env: SingleAgentEnv, model: Linear, games: int, base: int) -> float:
    """The share of decided games won, playing the best id, on deals ``base``…"""
    won = decided = 0
    for g in range(games):
        obs, _ = env.reset(seed=base + g)
        while True:
            obs, reward, terminated, _, _ = env.step(model.best(obs["observation"], allowed_ids(obs)))
            if terminated:
                break
        if reward:
            decided += 1
            won += reward > 0
    return won / decided if decided else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="CPU minutes of training (default 3)")
    ap.add_argument("--lr", type=float, default=0.01, help="learning rate (default 0.01)")
    ap.add_argument("--baseline", type=float, default=0.05,
                    help="the running baseline's step toward each game's reward (default 0.05)")
    ap.add_argument("--every", type=int, default=500, help="games between evaluations (default 500)")
    ap.add_argument("--eval", type=int, default=200, help="games per evaluation (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the training's seed (default 1)")
    ap.add_argument("--out", type=Path, default=HERE, help="where to write the weights and the curve")
    args = ap.parse_args(argv)

    env = SingleAgentEnv(GAME, PLAYERS, seat=0, opponents="builtin:random")
    test = SingleAgentEnv(GAME, PLAYERS, seat=0, opponents="builtin:random")
    obs, _ = env.reset(seed=args.seed)
    model = Linear(env.action_space.n, obs["observation"].shape[0])
    rng = np.random.default_rng(args.seed)
    baseline, games, curve = 0.0, 0, []
    start = time.process_time()

    def point() -> None:
        rate = evaluate(test, model, args.eval, base=10**6)
        spent = time.process_time() - start
        curve.append({"games": games, "cpu_seconds": round(spent, 1), "won": round(rate, 3)})
        print(f"{games:6d} games  {spent:6.0f} s CPU  won {rate:.1%} of decided games", flush=True)

    point()
    while time.process_time() - start < args.minutes * 60:
        steps, reward = episode(env, model, rng, None)
        games += 1
        advantage = reward - baseline
        baseline += args.baseline * (reward - baseline)
        if advantage:
            for x, nz, allowed, p, k in steps:
                grad = -p
                grad[k] += 1.0  # d log p(chosen) / d score
                step = args.lr * advantage * grad
                model.W[np.ix_(allowed, nz)] += np.outer(step, x[nz])
                model.b[allowed] += step
        if games % args.every == 0:
            point()
    point()
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out / "podkidnoy-2.npz", W=model.W, b=model.b,
                        layout=json.dumps(env.aec.layout.to_data()))
    (args.out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
    plot(curve, args.out / "curve.png")
    return 0


def plot(curve: list[dict], path: Path) -> None:
    """The curve as a picture, when matplotlib is installed (curve.json has it anyway)."""
    try:
        import matplotlib
    except ImportError:
        print(f"no matplotlib: {path} not drawn (the curve is in curve.json)", file=sys.stderr)
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    ax.plot([c["cpu_seconds"] / 60 for c in curve], [100 * c["won"] for c in curve], marker="o", ms=3)
    ax.axhline(70, color="grey", lw=0.8, ls="--")
    ax.axhline(50, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("CPU minutes of training")
    ax.set_ylabel("% of decided games won")
    ax.set_title("2-player podkidnoy, a linear policy vs builtin:random")
    ax.set_ylim(0, 100)
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
