"""Each sample bot (Python, JavaScript, C) plays GAMES games at a real server, spread over
every game and deck size (4 seats where the game allows: the bot and built-in bots); then
every game log the server wrote is verified (``pidor verify``).

    python scripts/sample_bots_games.py [--games 100] [--bot python --bot js --bot c] [--json]

It starts ``pidor serve`` on a free port with a fresh data directory (removed after) and
stops it at the end. The JavaScript and C bots must be built (``npm ci`` in clients/js,
``make -C clients/c``). Exit status 0 when every bot played all its games and every log
verifies, else 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pidor.conform import GAMES  # noqa: E402
from pidor.games import spec  # noqa: E402
BOTS = {
    "python": [sys.executable, "clients/python/random_bot.py"],
    "js": ["node", "clients/js/random_bot.js"],
    "c": ["clients/c/random_bot"],
}
TABLES = [(g.game, g.deck) for g in GAMES]  # every game and deck size, as pidor conform plays them


def seats(game: str) -> int:
    """Four, or the most the game takes below four: the bot and built-in bots."""
    return max([n for n in spec(game).players if n <= 4] or spec(game).players[:1])
PYTHON_ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def start_server(data: str) -> tuple[subprocess.Popen, int]:
    log = open(Path(data) / "server.log", "w+")
    server = subprocess.Popen([sys.executable, "-m", "pidor.cli", "serve", "--port", "0", "--data", data,
                               "--tables-per-minute", "1000", "--players-per-minute", "1000"],
                              cwd=ROOT, env=PYTHON_ENV, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        log.seek(0)
        found = re.search(r"listening on \S+:(\d+)", log.read())
        if found:
            return server, int(found.group(1))
        time.sleep(0.1)
    server.kill()
    log.seek(0)
    raise SystemExit(f"the server did not start:\n{log.read()}")


def play(bot: str, port: int, games: int) -> dict:
    """``games`` games of ``bot``, spread over TABLES; the tables it created and its output."""
    tables, played, failures = [], 0, []
    began = time.monotonic()
    for k, (game, deck) in enumerate(TABLES):
        n = games // len(TABLES) + (k < games % len(TABLES))
        if not n:
            continue
        args = [*BOTS[bot], "--port", str(port), "--create", game, "--deck", str(deck), "--players", str(seats(game)),
                "--bots", str(seats(game) - 1), "--games", str(n), "--seed", str(k + 1)]
        done = subprocess.run(args, cwd=ROOT, env=PYTHON_ENV, capture_output=True, text=True, timeout=600)
        created = re.search(r"created table (\d+)", done.stdout)
        over = len(re.findall(r"^game \d+ over: ", done.stdout, re.M))
        played += over
        if created:
            tables.append(int(created.group(1)))
        if done.returncode != 0 or over != n:
            failures.append(f"{game}-{deck}: exit {done.returncode}, {over} of {n} games: "
                            f"{(done.stdout + done.stderr).strip()[-300:]}")
    return {"bot": bot, "games": played, "tables": tables, "failures": failures,
            "seconds": round(time.monotonic() - began, 1)}


def verify(logs: list[Path]) -> dict[str, str]:
    """Each log's path -> its status in ``pidor verify`` (``verified`` when it verifies)."""
    if not logs:
        return {}
    done = subprocess.run([sys.executable, "-m", "pidor.cli", "verify", "--json", *map(str, logs)],
                          cwd=ROOT, env=PYTHON_ENV, capture_output=True, text=True)
    return {r["path"]: r["status"] for r in json.loads(done.stdout)["logs"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100, help="games per bot (default 100)")
    p.add_argument("--bot", action="append", choices=list(BOTS), help="a bot to run (default: all three)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    with tempfile.TemporaryDirectory(prefix="pidor-sample-bots-") as data:
        server, port = start_server(data)
        try:
            runs = [play(bot, port, args.games) for bot in args.bot or list(BOTS)]
        finally:
            server.terminate()
            server.wait(timeout=30)
        statuses = verify(sorted((Path(data) / "logs").glob("*.plog")))
        for run in runs:
            mine = {path: status for path, status in statuses.items()
                    if int(re.search(r"table-(\d+)-", Path(path).name).group(1)) in run["tables"]}
            run["logs"] = len(mine)
            run["verified"] = sum(status == "verified" for status in mine.values())
            run["ok"] = not run["failures"] and run["games"] == args.games == run["logs"] == run["verified"]
    ok = all(run["ok"] for run in runs)
    if args.json:
        print(json.dumps({"games_per_bot": args.games, "ok": ok, "bots": runs}))
    else:
        print(f"{'bot':<7} {'games':>5} {'logs':>5} {'verified':>8} {'seconds':>7}")
        for run in runs:
            print(f"{run['bot']:<7} {run['games']:>5} {run['logs']:>5} {run['verified']:>8} {run['seconds']:>7}")
            for failure in run["failures"]:
                print(f"  {failure}")
        print("every game played and verified" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
