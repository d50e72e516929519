#!/usr/bin/env python3
"""The replay viewer (``pidor replay --html``) at scale, as issue 28 asks ("still fast at
1,000 steps"): a long game of each registry game (the most players it allows, cheating and
calling bots) is written as a page, and headless Chromium opens it and shows every step in
turn (the page's ``#walk``). Printed per game: its steps, the page's size, the time to write
it, the time from launch to the DOM dumped (Chromium's start included) and the walk's time
per step as the page measured it.

    .venv/bin/python scripts/bench_viewer.py [--game G]... [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pidor.gamelog.html import write_page
from pidor.gamelog.reader import read_log
from pidor.games import GAME_IDS, spec
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.15,attention=0.8,false_call=0.02"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--dump-dom"]


def measure(game: str, seed: str, work: Path) -> dict:
    players = max(spec(game).players)
    log = run_match(game, players, 1, seed=seed, specs=[CHEATY] * players, logs=work / game).logs[0]
    page = work / f"{game}.html"
    t = time.perf_counter()
    size = write_page(read_log(log), str(page))
    written = time.perf_counter() - t
    t = time.perf_counter()
    out = subprocess.run([shutil.which("chromium") or "chromium", *FLAGS, f"--user-data-dir={work / 'profile'}",
                          f"{page.as_uri()}#walk"], capture_output=True, text=True, timeout=300)
    loaded = time.perf_counter() - t
    walk = re.search(r'data-walk-ms="(\d+)"', out.stdout)
    steps = len(re.findall(r"<li", out.stdout.split('id="timeline"', 1)[-1]))
    if walk is None:
        raise SystemExit(f"{game}: the page did not walk its steps: {out.stderr[-500:]}")
    return {"game": game, "players": players, "steps": steps, "bytes": size, "write_s": round(written, 3),
            "chromium_s": round(loaded, 2), "walk_ms": int(walk.group(1)),
            "ms_per_step": round(int(walk.group(1)) / max(1, steps), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=GAME_IDS, help="a game to measure (default: every game)")
    ap.add_argument("--seed", default="long-1", help="the match's seed (default long-1: 1,500+ steps of «пидор»)")
    ap.add_argument("--json", action="store_true", help="one JSON object per game")
    args = ap.parse_args()
    if shutil.which("chromium") is None:
        print("chromium is not installed (apt-get install -y chromium)", file=sys.stderr)
        raise SystemExit(1)
    with tempfile.TemporaryDirectory() as d:
        for game in args.game or GAME_IDS:
            row = measure(game, args.seed, Path(d))
            if args.json:
                print(json.dumps(row))
            else:
                print(f"{game:<12} {row['players']} players {row['steps']:>5} steps  {row['bytes'] // 1024:>4} KiB  "
                      f"written in {row['write_s']:.2f} s  chromium {row['chromium_s']:.1f} s  "
                      f"walk {row['walk_ms']} ms ({row['ms_per_step']} ms a step)")


if __name__ == "__main__":
    main()
