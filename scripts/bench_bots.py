#!/usr/bin/env python3
"""Strength and speed of the built-in bots (issue 15): the rows of the goals table.

Each strength row plays one subject policy against a field, with the subject's seat rotated
round the table (``pidor match``'s ``run_match``, games split evenly over the seats), and
gives its loss rate with a 95% Wilson interval. Defaults: 2,000 games for 4-player rows,
400 for 2-player rows (``--scale 0.1`` for a quick look).

    .venv/bin/python scripts/bench_bots.py [--rows NAME,...] [--scale F] [--seed S] [--json]

Rows (``--list`` prints them with their goals):
  greedy-*          4 × greedy: the baseline, the loss rate per seat
  heuristic-*       heuristic (its defaults: it cheats when it pays) against 3 × greedy
  honest-*          the same with cheat=0
  vs-random         heuristic against random, 2 players
  ismcts            ismcts (default budget) against heuristic, 2 players: the heuristic's
                    share of the decided games it loses
  cheat-*           heuristic cheating against 3 × random bots that call (attention 0.1 /
                    0.9), compared with an honest heuristic at the same tables
  speed             CPU seconds of a match of heuristic + 3 × random over one of 4 × random

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

from pidor.match import run_match  # noqa: E402

H, G, R = "builtin:heuristic", "builtin:greedy", "builtin:random"
HONEST = "builtin:heuristic:cheat=0"


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, mid - half), 4), round(min(1.0, mid + half), 4)]


def rotated(game: str, deck: int | None, subject: str, field: list[str], games: int, seed: str) -> dict:
    """``subject`` at each seat in turn among ``field``; its losses, the draws and the games."""
    players = len(field) + 1
    losses = draws = played = 0
    other = 0  # the field's losses
    for seat in range(players):
        n = games // players + (seat < games % players)
        if not n:
            continue
        specs = field[:seat] + [subject] + field[seat:]
        r = run_match(game, players, n, options={} if deck is None else {"deck": deck}, seed=f"{seed}/{seat}",
                      specs=specs)
        for record in r.records:
            played += 1
            if record["draw"]:
                draws += 1
            elif record["loser"] == seat:
                losses += 1
            else:
                other += 1
    return {"games": played, "losses": losses, "field_losses": other, "draws": draws}


def strength(name: str, game: str, deck: int | None, subject: str, field: list[str], games: int,
             seed: str, goal: float | None, per_seat: bool = False) -> dict:
    t0 = time.perf_counter()
    r = rotated(game, deck, subject, field, games, f"{seed}/{name}")
    n = r["games"]
    if per_seat:  # every seat plays the same policy: the loss rate per seat
        k, trials = r["losses"] + r["field_losses"], n * (len(field) + 1)
    else:
        k, trials = r["losses"], n
    rate = k / trials if trials else 0.0
    return {"row": name, "game": game, "deck": deck, "players": len(field) + 1, "subject": subject,
            "field": field, **r, "loss_rate": round(rate, 4), "wilson95": wilson(k, trials),
            "draw_rate": round(r["draws"] / n, 4) if n else 0.0,
            "goal": goal, "met": None if goal is None else rate <= goal,
            "seconds": round(time.perf_counter() - t0, 1)}


def ismcts_row(games: int, seed: str) -> dict:
    from pidor.bots.ismcts import IsmctsPolicy
    times: list[float] = []
    act = IsmctsPolicy.act

    def timed_act(self, obs):  # the CPU time of each move the bot is asked for
        t0 = time.process_time()
        try:
            return act(self, obs)
        finally:
            times.append(time.process_time() - t0)

    IsmctsPolicy.act = timed_act
    try:
        row = strength("ismcts", "podkidnoy", None, "builtin:ismcts", [H], games, seed, None)
    finally:
        IsmctsPolicy.act = act
    row["cpu_ms_per_move"] = {"mean": round(1000 * sum(times) / max(1, len(times)), 1),
                              "max": round(1000 * max(times, default=0.0), 1), "moves": len(times)}
    decided = row["games"] - row["draws"]
    k = row["field_losses"]
    row["heuristic_loses_of_decided"] = round(k / decided, 4) if decided else None
    row["heuristic_wilson95"] = wilson(k, decided)
    row["goal"] = "heuristic loses >= 0.65 of decided games"
    row["met"] = bool(decided) and k / decided >= 0.65
    return row


def cheat_rows(attention: float, cheat: str, games: int, seed: str) -> dict:
    field = [f"{R}:attention={attention}"] * 3
    cheating = strength(f"cheat-{attention}", "podkidnoy", None, f"{H}:cheat={cheat}", field, games, seed, None)
    honest = strength(f"honest-{attention}", "podkidnoy", None, HONEST, field, games, seed, None)
    better = cheating["loss_rate"] < honest["loss_rate"]
    return {"row": f"cheat-{attention}", "game": "podkidnoy", "field": field, "cheater": cheating,
            "honest": honest,
            "goal": ("cheating loses less than honest" if attention < 0.5 else
                     "a reckless cheater loses more than honest"),
            "met": better if attention < 0.5 else not better}


def speed_row(games: int, seed: str) -> dict:
    def timed(specs: list[str]) -> float:  # this process's CPU time: the machine may be shared
        t0 = time.process_time()
        run_match("podkidnoy", 4, games, seed=f"{seed}/speed", specs=specs)
        return time.process_time() - t0

    base = min(timed([R] * 4) for _ in range(3))
    mixed = min(timed([H] + [R] * 3) for _ in range(3))
    return {"row": "speed", "game": "podkidnoy", "games": games, "random_s": round(base, 3),
            "heuristic_s": round(mixed, 3), "added": round(mixed / base - 1, 3),
            "goal": "heuristic adds <= 0.30", "met": mixed / base - 1 <= 0.30}


def rows(scale: float, seed: str) -> dict:
    four, two = max(4, round(2000 * scale)), max(2, round(400 * scale))
    out = {}
    for game, deck, tag, goal in (("podkidnoy", None, "podkidnoy", 0.17), ("perevodnoy", None, "perevodnoy", 0.17),
                                  ("pidor", 52, "pidor52", 0.20), ("pidor", 36, "pidor36", 0.20)):
        out[f"greedy-{tag}"] = lambda g=game, d=deck, t=tag: strength(
            f"greedy-{t}", g, d, G, [G] * 3, four, seed, None, per_seat=True)
        out[f"heuristic-{tag}"] = lambda g=game, d=deck, t=tag, k=goal: strength(
            f"heuristic-{t}", g, d, H, [G] * 3, four, seed, k)
        out[f"honest-{tag}"] = lambda g=game, d=deck, t=tag, k=goal: strength(
            f"honest-{t}", g, d, HONEST, [G] * 3, four, seed, k)
    out["vs-random"] = lambda: strength("vs-random", "podkidnoy", None, H, [R], two, seed, 0.02)
    out["ismcts"] = lambda: ismcts_row(two, seed)
    out["cheat-0.1"] = lambda: cheat_rows(0.1, "0.5", four, seed)
    out["cheat-0.9"] = lambda: cheat_rows(0.9, "1", four, seed)
    out["speed"] = lambda: speed_row(max(20, round(200 * scale)), seed)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the games (default 1)")
    ap.add_argument("--seed", default="bench", help="seed text (same seed, same games)")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if not 0 < args.scale <= 10:
        ap.error("--scale must be in (0, 10]")
    table = rows(args.scale, args.seed)
    if args.list:
        print("\n".join(table))
        return 0
    names = [n for n in args.rows.split(",") if n] or list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        ap.error(f"unknown row {', '.join(unknown)}; known: {', '.join(table)}")
    results = []
    for name in names:
        row = table[name]()
        results.append(row)
        if not args.json:
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.json:
        print(json.dumps({"seed": args.seed, "scale": args.scale, "rows": results}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
