#!/usr/bin/env python3
"""Strength and speed of the built-in bots: one row per goal each game's folder declares
(``GOALS`` in ``pidor/games/<folder>/bots.py``, :class:`pidor.bots.tactics.Goal`).

Each row plays one subject policy against a field, the subject's seat rotated round the
table (``pidor match``'s ``run_match``, the games split evenly over the seats), and gives
its figure with a 95% Wilson interval: its loss rate (``loss``; ``seat``: every seat the
same policy, the rate per seat), its share of the decided games won heads-up (``won``), its
loss rate against another row's (``than``), or the CPU time it adds to a match (``speed``).
A row of an ``ismcts`` subject also gives its CPU time per move. Row names are
``<game>-<goal>``; ``--scale 0.1`` plays a tenth of the games for a quick look.

    .venv/bin/python scripts/bench_bots.py [--rows NAME,...] [--game G] [--scale F] [--seed S] [--json]

Exit status: 0 (figures printed; a goal missed is a figure, not an error), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pidor.bots.tactics import Goal, goals  # noqa: E402
from pidor.games import GAME_IDS  # noqa: E402
from pidor.match import run_match  # noqa: E402


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)]


def rotated(game: str, options: dict, subject: str, field: list[str], games: int, seed: str, keep: bool = False
            ) -> dict:
    """``subject`` at each seat in turn among ``field`` (one match a seat: ``keep``, its
    policies live for it); its losses, the draws and the games."""
    players = len(field) + 1
    losses = draws = played = other = 0  # (other: the field's losses)
    for seat in range(players):
        n = games // players + (seat < games % players)
        if not n:
            continue
        specs = field[:seat] + [subject] + field[seat:]
        r = run_match(game, players, n, options=options, seed=f"{seed}/{seat}", specs=specs, keep_policies=keep)
        for record in r.records:
            played += 1
            if record["draw"]:
                draws += 1
            elif record["loser"] == seat:
                losses += 1
            else:
                other += 1
    return {"games": played, "losses": losses, "field_losses": other, "draws": draws}


class _MoveClock:
    """The CPU time of each move an ismcts subject is asked for."""

    def __init__(self) -> None:
        from pidor.bots.ismcts import IsmctsPolicy
        self.cls, self.act, self.times = IsmctsPolicy, IsmctsPolicy.act, []

    def __enter__(self) -> "_MoveClock":
        act, times = self.act, self.times

        def timed_act(policy, obs):
            t0 = time.process_time()
            try:
                return act(policy, obs)
            finally:
                times.append(time.process_time() - t0)

        self.cls.act = timed_act
        return self

    def __exit__(self, *exc) -> None:
        self.cls.act = self.act

    def figures(self) -> dict:
        t = self.times
        return {"mean": round(1000 * sum(t) / max(1, len(t)), 1), "max": round(1000 * max(t, default=0.0), 1),
                "moves": len(t)}


def row(game: str, goal: Goal, scale: float, seed: str, done: dict) -> dict:
    """The figures of one goal (``done``: the rows made so far, for ``than``)."""
    games = max(len(goal.field) + 1, round(goal.games * scale))
    name = f"{game}-{goal.name}"
    out = {"row": name, "game": game, "options": goal.options, "players": len(goal.field) + 1,
           "subject": goal.subject, "field": list(goal.field), "measure": goal.measure, "keep": goal.keep}
    t0 = time.perf_counter()
    if goal.measure == "speed":
        def timed(specs: list[str]) -> float:  # this process's CPU time: the machine may be shared
            c0 = time.process_time()
            run_match(game, len(specs), games, options=goal.options, seed=f"{seed}/{name}", specs=specs)
            return time.process_time() - c0

        base = min(timed(list(goal.field) + [goal.field[0]]) for _ in range(3))
        mixed = min(timed([goal.subject, *goal.field]) for _ in range(3))
        added = mixed / base - 1
        return {**out, "games": games, "field_s": round(base, 3), "subject_s": round(mixed, 3),
                "added": round(added, 3), "goal": goal.bound, "met": added <= goal.bound}
    clock = _MoveClock() if goal.subject.startswith("builtin:ismcts") else None
    if clock is not None:
        with clock:
            r = rotated(game, goal.options, goal.subject, list(goal.field), games, f"{seed}/{name}", goal.keep)
        out["cpu_ms_per_move"] = clock.figures()
    else:
        r = rotated(game, goal.options, goal.subject, list(goal.field), games, f"{seed}/{name}", goal.keep)
    n = r["games"]
    out.update(r, draw_rate=round(r["draws"] / n, 4) if n else 0.0, seconds=round(time.perf_counter() - t0, 1))
    if goal.measure == "won":
        decided = n - r["draws"]
        k = r["field_losses"]
        share = k / decided if decided else 0.0
        return {**out, "won_of_decided": round(share, 4), "wilson95": wilson(k, decided), "goal": goal.bound,
                "met": None if goal.bound is None else bool(decided) and share >= goal.bound}
    k, trials = (r["losses"] + r["field_losses"], n * out["players"]) if goal.measure == "seat" else (r["losses"], n)
    rate = k / trials if trials else 0.0
    out.update(loss_rate=round(rate, 4), wilson95=wilson(k, trials))
    if goal.measure == "than":
        other = done.get(f"{game}-{goal.than}")
        return {**out, "goal": f"below {goal.than}",
                "met": None if other is None else rate < other["loss_rate"]}
    return {**out, "goal": goal.bound, "met": None if goal.bound is None else rate <= goal.bound}


def table(games: list[str]) -> dict[str, tuple[str, Goal]]:
    """Every row of ``games``: its name -> (game, goal)."""
    return {f"{g}-{goal.name}": (g, goal) for g in games for goal in goals(g)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--rows", default="", help="comma-separated row names (default: all of the games)")
    ap.add_argument("--game", action="append", choices=GAME_IDS, help="only this game's rows (repeatable)")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the games (default 1)")
    ap.add_argument("--seed", default="bench", help="seed text (same seed, same games)")
    ap.add_argument("--list", action="store_true", help="list the rows with their goals and exit")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if not 0 < args.scale <= 10:
        ap.error("--scale must be in (0, 10]")
    rows = table(args.game or list(GAME_IDS))
    if args.list:
        for name, (_, goal) in rows.items():
            print(f"{name}: {goal.subject} vs {', '.join(goal.field)} ({goal.measure}"
                  + (f" {goal.bound}" if goal.bound is not None else f" {goal.than}" if goal.than else "") + ")")
        return 0
    names = [n for n in args.rows.split(",") if n] or list(rows)
    unknown = [n for n in names if n not in rows]
    if unknown:
        ap.error(f"unknown row {', '.join(unknown)}; known: {', '.join(rows)}")
    done: dict[str, dict] = {}
    for name in sorted(names, key=lambda n: bool(rows[n][1].than)):  # a row compared with another comes after it
        game, goal = rows[name]
        if goal.than and f"{game}-{goal.than}" not in done and f"{game}-{goal.than}" in rows:
            done[f"{game}-{goal.than}"] = row(game, rows[f"{game}-{goal.than}"][1], args.scale, args.seed, done)
        done[name] = row(game, goal, args.scale, args.seed, done)
        if not args.json:
            print(json.dumps(done[name], ensure_ascii=False), flush=True)
    if args.json:
        print(json.dumps({"seed": args.seed, "scale": args.scale, "rows": [done[n] for n in names]},
                         ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
