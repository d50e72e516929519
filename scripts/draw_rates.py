#!/usr/bin/env python3
"""How often every game ends in a draw, and why (T13: every game ends; issue 22 §6).

For every game and variant of the registry (``GameSpec.variants``), a table of 4 players (or
the nearest count the game allows) where every seat plays the same built-in policy —
``random``, ``greedy`` and ``heuristic`` — plays ``--games`` games in-process. It prints the
share of draws: those where everyone ran out together (the rules' own draw) and those T13
declared (a position seen for the third time, too many quiet units, too many in all:
``result.stalled``), with the mean number of actions a game. The rule must stop loops, not
cut real games short: the issue's goal is at most 20% draws for random «пидор».

    .venv/bin/python scripts/draw_rates.py [--games N] [--game G ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pidor.autoplay import play_game  # noqa: E402
from pidor.bots import make_policy  # noqa: E402
from pidor.engine.seeds import Rng  # noqa: E402
from pidor.engine.table import Table  # noqa: E402
from pidor.games import GAME_IDS, spec  # noqa: E402

POLICIES = ("random", "greedy", "heuristic")


def cases(games: list[str]) -> list[tuple[str, dict]]:
    """(name, table options) of each game's defaults and variants, 4 players where allowed."""
    out = []
    for g in games:
        s = spec(g)
        for variant in ({}, *s.variants):
            players = variant.get("players") or min(s.players, key=lambda n: abs(n - 4))
            name = "-".join([g, *(str(v) if type(v) is not bool else k for k, v in variant.items() if k != "players")])
            out.append((name, {"game": g, **variant, "players": players}))
    return out


def rates(options: dict, policy: str, games: int, seed: str) -> dict:
    """Play ``games`` games of ``policy`` at every seat; how they ended."""
    ends: Counter = Counter()
    actions = 0
    for k in range(games):
        t = Table(options)
        t.start(seed=f"{seed}/{k}".encode())
        bots = [make_policy(f"builtin:{policy}", s, f"{seed}/{k}".encode()) for s in range(options["players"])]
        actions += play_game(t, bots, Rng(seed.encode(), b"%d" % k))
        r = t.game.result
        ends[r.get("stalled") or ("draw" if r["draw"] else "loser")] += 1
    stalled = sum(n for end, n in ends.items() if end not in ("draw", "loser"))
    return {"games": games, "draws": round((ends["draw"] + stalled) / games, 4),
            "t13": round(stalled / games, 4), "ends": dict(sorted(ends.items())), "actions": actions // max(1, games)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--games", type=int, default=200, help="games per game, variant and policy (default 200)")
    ap.add_argument("--game", action="append", choices=GAME_IDS, help="only this game (repeatable)")
    ap.add_argument("--seed", default="draws", help="seed text")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    rows = []
    for name, options in cases(args.game or list(GAME_IDS)):
        for policy in POLICIES:
            if not make_policy(f"builtin:{policy}", 0, b"").plays(options["game"]):
                continue
            row = {"case": name, "players": options["players"], "policy": policy,
                   **rates(options, policy, args.games, f"{args.seed}/{name}/{policy}")}
            rows.append(row)
            if not args.json:
                print(f"{name:<34} {options['players']}×{policy:<10} draws {row['draws']:6.1%} "
                      f"(T13 {row['t13']:6.1%})  {row['actions']:>5} actions a game  {row['ends']}", flush=True)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "rows": rows}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
