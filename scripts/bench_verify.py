#!/usr/bin/env python3
"""``pidor verify`` measured as issue 11's goals are stated: the ``pidor verify`` command on
100 log files in one process (its start included), per set of logs: each game of the
registry (``--game`` to choose), four players where it allows them, played by

* ``honest``: random bots;
* ``cheaty``: cheating, calling bots, ``cheat=0.3,attention=0.6,false_call=0.05`` on every
  seat.

Issue 11's goals are printed beside the sets it set them for: ≥ 400 games/s for
``pidor/honest``, ≥ 250 for ``pidor/cheaty``, ≥ 800 for ``podkidnoy/honest`` and
``perevodnoy/honest``.

The logs are played once by this checkout's ``pidor match`` (``--logs DIR`` keeps them for
the next run). ``--code DIR`` (repeatable) names checkouts whose ``pidor`` package verifies
them, for an A/B comparison on the same logs in the same minutes: the runs are interleaved
(each repeat measures every set with every checkout) and the ratios to the first one are
printed: of the best runs, and the median and range of the ratios within each repeat (a
neighbour's load hits both sides of those alike). Each figure is the best of ``--repeat``
runs; time is the child's CPU time by default (``--clock cpu``: the machine is shared). The
child starts from compiled modules, as an installed ``pidor`` does (``bench_logs.PYCACHE``).

    .venv/bin/python scripts/bench_verify.py [--game G]... [--games 100] [--repeat 3] [--code DIR]...
        [--logs DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench_logs import BOTS, CLOCKS, ROOT, players, positive, seat_specs, verify_cli

from pidor.games import GAME_IDS
from pidor.match import run_match

#: Issue 11's goals: set of logs -> games per second (the sets it named).
GOALS = {"pidor/honest": 400, "pidor/cheaty": 250, "podkidnoy/honest": 800, "perevodnoy/honest": 800}


def log_set(root: Path, game: str, bots: str, games: int) -> list[str]:
    """The paths of ``games`` logs of ``game`` played by ``bots``, played now unless a
    previous run left them in ``root``."""
    folder = root.resolve() / f"{game}-{bots}-{games}"
    if not folder.is_dir() or len(list(folder.iterdir())) != games:
        seats = players(game)
        run_match(game, seats, games, seed="bench", specs=seat_specs(bots, seats), logs=folder)
    return [str(p) for p in sorted(folder.iterdir())]


def measure(root: Path, args: argparse.Namespace) -> dict:
    codes = [Path(c).resolve() for c in args.code] or [ROOT]
    for code in codes:
        if not (code / "pidor" / "cli.py").is_file():
            raise SystemExit(f"--code {code}: not a pidor checkout (no pidor/cli.py)")
    sets = {f"{game}/{bots}": log_set(root, game, bots, args.games) for game in args.game or GAME_IDS for bots in BOTS}
    clock = CLOCKS["child-" + args.clock]
    for code in codes:  # compile each checkout's modules once, before any measurement
        verify_cli(next(iter(sets.values()))[:1], code)
    best: dict[tuple[str, Path], float] = {}
    rounds: dict[tuple[str, Path], list[float]] = {}  # per repeat: the first checkout's time / this one's
    for r in range(args.repeat):
        for key, paths in sets.items():
            took = {}
            k = r % len(codes)
            for code in codes[k:] + codes[:k]:  # (the order rotates: none always runs first)
                t0 = clock()
                verify_cli(paths, code)
                secs = took[code] = clock() - t0
                best[key, code] = min(secs, best.get((key, code), secs))
            for code in codes:
                rounds.setdefault((key, code), []).append(took[codes[0]] / took[code])
    return {
        "players": {game: players(game) for game in args.game or GAME_IDS}, "games": args.games,
        "clock": args.clock, "repeat": args.repeat, "goals": {key: GOALS[key] for key in sets if key in GOALS},
        "codes": [{"code": str(code), "games_per_s": {key: round(args.games / best[key, code], 1) for key in sets},
                   "ratio": {key: round(best[key, codes[0]] / best[key, code], 3) for key in sets},
                   "round_ratios": {key: {"median": round(statistics.median(rounds[key, code]), 3),
                                          "min": round(min(rounds[key, code]), 3),
                                          "max": round(max(rounds[key, code]), 3)} for key in sets}}
                  for code in codes],
        "load": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=GAME_IDS, help="a game to measure (repeatable; default: all)")
    ap.add_argument("--games", type=positive, default=100, help="log files per set (default 100, as the goal)")
    ap.add_argument("--repeat", type=positive, default=3, help="runs per figure, the best counts (default 3)")
    ap.add_argument("--code", action="append", default=[], metavar="DIR",
                    help="a checkout whose pidor package verifies (repeat for A/B; default: this one)")
    ap.add_argument("--logs", type=Path, help="keep the logs here and reuse them on the next run")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: the child's CPU time (default; fair on a loaded machine); wall: elapsed time")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.logs is not None:
        args.logs.mkdir(parents=True, exist_ok=True)
        results = measure(args.logs, args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            results = measure(Path(tmp), args)
    if args.json:
        print(json.dumps(results))
        return
    print(f"pidor verify on {args.games} logs (four players where the game allows), one process, start included; "
          f"games per {args.clock} second, best of {args.repeat}")
    for entry in results["codes"]:
        print(entry["code"])
        for key, rate in entry["games_per_s"].items():
            goal = results["goals"].get(key)
            spread = entry["round_ratios"][key]
            print(f"  {key:18} {rate:7.1f}  (x{entry['ratio'][key]:.3f}; per repeat x{spread['median']:.3f}, "
                  f"{spread['min']:.3f}-{spread['max']:.3f})" + (f"  goal {goal}" if goal else ""))


if __name__ == "__main__":
    sys.exit(main())
