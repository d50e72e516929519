#!/usr/bin/env python3
"""Speed of ``pidor match`` (issue 9): four-player «пидор» games per second

* in-process (built-in random bots) with ``--concurrency 1`` and ``2`` (worker processes),
  and their ratio (goal: ≥ 1.8 on two cores);
* four external Python SDK bots (``cmd:`` ``clients/python/random_bot.py``, staying seated)
  on the local server with ``--concurrency 4`` (goal: ≥ 20 games/s), and with ``1``;
* the overhead per external game: seconds per game with ``cmd:`` bots at concurrency 1,
  less seconds per in-process game, in milliseconds (launching the bots included, spread
  over the games).

    .venv/bin/python scripts/bench_match.py [--games 400] [--external-games 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor.match import run_match  # noqa: E402

BOT = f"cmd:{sys.executable} {ROOT / 'clients/python/random_bot.py'} --port {{port}} --token {{token}} --games 0"


def rate(games: int, **kwargs) -> float:
    t0 = time.perf_counter()
    r = run_match("pidor", 4, games, seed="bench", **kwargs)
    secs = time.perf_counter() - t0
    assert r.summary["games"] == games
    return games / secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="in-process games per measurement")
    ap.add_argument("--external-games", type=int, default=200, help="games with external bots")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    out: dict = {"players": 4, "game": "pidor"}
    out["inprocess_c1"] = round(rate(args.games), 1)
    out["inprocess_c2"] = round(rate(args.games, concurrency=2), 1)
    out["speedup_c2"] = round(out["inprocess_c2"] / out["inprocess_c1"], 2)
    with tempfile.TemporaryDirectory() as err:
        out["external_c4"] = round(rate(args.external_games, specs=[BOT] * 4, concurrency=4, stderr_dir=err), 1)
        out["external_c1"] = round(rate(args.external_games // 2, specs=[BOT] * 4, stderr_dir=err), 1)
    out["overhead_ms_per_external_game"] = round(1000 * (1 / out["external_c1"] - 1 / out["inprocess_c1"]), 1)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"in-process, concurrency 1: {out['inprocess_c1']} games/s; 2: {out['inprocess_c2']} games/s "
              f"(×{out['speedup_c2']})")
        print(f"4 external SDK bots, concurrency 4: {out['external_c4']} games/s; 1: {out['external_c1']} games/s")
        print(f"overhead per external game: {out['overhead_ms_per_external_game']} ms")


if __name__ == "__main__":
    main()
