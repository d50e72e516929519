#!/usr/bin/env python3
"""Benchmarks of game logs and scripted matches, on one core (one process, one thread), for
every game of the registry (``--game`` to choose), four players where the game allows them:

* ``match``: games per second played in-process by ``pidor match``'s engine
  (``run_match``), without logs and with a log written per game;
* ``verify``: logs verified per second (read + hash chain + commitment + re-run
  of every input through the engine + every consequence compared), from bytes in memory,
  as ``pidor verify`` does (``verify_data``); and, for comparison, the engine alone
  re-running the same inputs (the floor);
* ``cli``: the same logs verified by the ``pidor verify`` command in a child process, from
  the files, one process (its start and imports included, from compiled modules: see
  ``PYCACHE``; with ``--clock cpu`` the child's CPU time). ``bench_verify.py`` measures the
  issue-11 goals this way, on 100 logs, and compares checkouts.

Goals (issue 11): ≥ 400 verified honest «пидор» games/s, ≥ 250 of cheating, calling bots
(``cheat=0.3,attention=0.6,false_call=0.05`` on every seat), ≥ 800 durak games/s.

    .venv/bin/python scripts/bench_logs.py [--game G]... [--games 60] [--repeat 3] [--clock cpu|wall] [--json]

Each figure is the best of ``--repeat`` runs. Time is this process's CPU time by default
(``--clock cpu``): the machine is shared, and wall-clock figures measure the neighbours too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor.gamelog.reader import read_log  # noqa: E402
from pidor.gamelog.verify import Rerun, verify_data  # noqa: E402
from pidor.games import GAME_IDS, spec  # noqa: E402
from pidor.match import run_match  # noqa: E402

#: The bots of each set of games: on every seat (``None``: builtin:random, honest, no calls).
BOTS = {"honest": None, "cheaty": "builtin:random:cheat=0.3,attention=0.6,false_call=0.05"}
#: The clocks a figure may be measured with (``child-``: for a child process).
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def players(game: str) -> int:
    """The seats of a benchmark's table: four where the game allows them, else its default."""
    s = spec(game)
    return 4 if 4 in s.players else s.option("players").default


def seat_specs(bots: str, seats: int) -> list[str] | None:
    """The ``specs`` of ``run_match`` for a set of games (:data:`BOTS`)."""
    return None if BOTS[bots] is None else [BOTS[bots]] * seats


def child_cpu() -> float:
    """CPU seconds of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: Where the child ``pidor verify`` keeps its compiled modules: it starts as an installed
#: ``pidor`` does, from bytecode, even where ``PYTHONDONTWRITEBYTECODE`` is set (which would
#: make it compile the package's sources on every start: about 30 ms of CPU).
PYCACHE = Path(tempfile.gettempdir()) / "pidor-bench-pycache"


def verify_cli(paths: list[str], code: Path = ROOT) -> None:
    """``pidor verify`` on ``paths`` in a child process (one worker), running the ``pidor``
    package of the checkout ``code``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")])
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    # (cwd: ``-m`` puts the current directory first on the path, before PYTHONPATH)
    done = subprocess.run([sys.executable, "-m", "pidor.cli", "verify", *paths], capture_output=True, env=env,
                          cwd=code, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pidor verify ({code}) failed on the bench logs: {done.stderr.decode()[-500:]}")


def best(fn, repeat: int, clock: str) -> float:
    now = CLOCKS[clock]
    times = []
    for _ in range(repeat):
        t0 = now()
        fn()
        times.append(now() - t0)
    return min(times)


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number >= 1, not {text!r}")
    return int(text)


CLOCKS["child-cpu"] = child_cpu
CLOCKS["child-wall"] = time.perf_counter


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=GAME_IDS, help="a game to measure (repeatable; default: all)")
    ap.add_argument("--games", type=positive, default=60, help="games per measurement (default 60)")
    ap.add_argument("--repeat", type=positive, default=3, help="runs per figure, the best counts (default 3)")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: this process's CPU time (default; fair on a loaded machine); wall: elapsed time")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    n = args.games
    games = args.game or GAME_IDS
    results: dict = {"players": {game: players(game) for game in games}, "games": n, "clock": args.clock,
                     "match": {}, "verify": {}, "rerun": {}, "cli": {}, "log_bytes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            seats = players(game)
            for label in BOTS:
                key = f"{game}/{label}"
                specs = seat_specs(label, seats)
                secs = best(lambda: run_match(game, seats, n, seed="bench", specs=specs), args.repeat, args.clock)
                results["match"][key] = round(n / secs, 1)
                logdir = Path(tmp) / key.replace("/", "-")
                secs = best(lambda: run_match(game, seats, n, seed="bench", specs=specs, logs=logdir), args.repeat,
                            args.clock)
                results["match"][key + "+logs"] = round(n / secs, 1)
                datas = [p.read_bytes() for p in sorted(logdir.iterdir())]
                results["log_bytes"][key] = sum(map(len, datas)) // len(datas)

                def check_all() -> None:
                    for data in datas:
                        report = verify_data(data)  # as `pidor verify` does
                        if not report.ok:
                            raise SystemExit(f"bench log does not verify: {report}")

                secs = best(check_all, args.repeat, args.clock)
                results["verify"][key] = round(len(datas) / secs, 1)
                # The floor: only the engine re-running the inputs (logs read beforehand).
                logs = [read_log(data) for data in datas]

                def rerun_all() -> None:
                    for log in logs:
                        rerun = Rerun(log.header)
                        start = rerun.start_args(dict(log.footer, _index=len(log.records) - 1))
                        for index, rec in enumerate(log.records[1:-1], start=1):
                            rerun.run(index, rec, start)

                secs = best(rerun_all, args.repeat, args.clock)
                results["rerun"][key] = round(len(datas) / secs, 1)
                paths = [str(p) for p in sorted(logdir.iterdir())]
                secs = best(lambda: verify_cli(paths), args.repeat, "child-" + args.clock)
                results["cli"][key] = round(len(paths) / secs, 1)
    if args.json:
        print(json.dumps(results))
        return
    print(f"{n} games per run, four players where the game allows, best of {args.repeat} "
          f"(games per {args.clock} second, one core)")
    print(f"{'game/bots':18} {'match':>7} {'match+logs':>11} {'verify':>7} {'(engine re-run only)':>21} "
          f"{'pidor verify':>13} {'log KB':>7}")
    for key in results["verify"]:
        print(f"{key:18} {results['match'][key]:7.1f} {results['match'][key + '+logs']:11.1f} "
              f"{results['verify'][key]:7.1f} {results['rerun'][key]:21.1f} {results['cli'][key]:13.1f} "
              f"{results['log_bytes'][key] / 1024:7.1f}")
    print("goals (issue 11): verify pidor honest >= 400 games/s, cheaty >= 250, durak >= 800")


if __name__ == "__main__":
    main()
