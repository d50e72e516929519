#!/usr/bin/env python3
"""Speed of ``pidor match`` (issue 9): four-player games per second (``--game``, by default
the house's default game, «пидор»)

* in-process (built-in random bots) with ``--concurrency 1`` and ``2`` (worker processes),
  and their ratio (goal: ≥ 1.8 on two cores);
* four external Python SDK bots (``cmd:`` ``clients/python/random_bot.py``, staying seated,
  each with a fixed ``--seed`` so that runs play the same games) on the local server with
  ``--concurrency 4`` (goal: ≥ 20 games/s), and with ``1``;
* the overhead per external game: seconds per game with ``cmd:`` bots at concurrency 1,
  less seconds per in-process game, in milliseconds (launching the bots included, spread
  over the games);
* where an external game's time goes: CPU ms per game of the runner's process (the match
  runner and its local server) and of the bots' processes, each split into user and
  system time, with how often they waited (voluntary context switches), and the frames and
  bytes per game each way (counted by the bots, which the
  runner stops with SIGTERM at the end: ``random_bot.py --stats``).

* four ``stdio:`` Python bots (``clients/stdio/bot.py --never-call``: a random honest
  option, in-process with the runner's host, protocol/STDIO.md) against four Python SDK
  bots (as above), both at ``--concurrency 4``, interleaved ``--repeat`` times (``--part
  stdio``; issue 26: a stdio bot that answers at once must cost the match no more than an
  SDK bot over TCP).

* four external bots at ``--concurrency 1`` and ``2``, interleaved ``--repeat`` times
  (``--part servers``; issue 29 goal 2: with two cores, two server processes play ≥ 1.7×
  the games/s of one); with ``--ray ADDRESS|auto`` on a Ray cluster (``pidor match --ray``:
  a Ray task a server), each round beside the local run.

* the server path (``--part path``; issue 29 goal 1: ≤ 5×): the runner process's own CPU
  (``getrusage(RUSAGE_SELF)``: the match runner and its one local server, not the bots) per
  action of a game of four C sample bots at ``--concurrency 1``, over its CPU per action of
  an in-process game (built-in random bots), and the frames per action the server sends
  (counted in the server, in a separate short run). Each run is a child process;
  ``--code DIR`` (repeatable) runs other checkouts' ``pidor`` in turn with this one, the
  order rotating each of the ``--repeat`` rounds.

``--bots c`` plays the C sample bot (``make -C clients/c``) instead of the Python one: its
CPU is a few ms a game, so the figure is then the ceiling the runner's own process sets
(one core: the local server is one process). It prints no traffic.

Every figure is given twice: by the wall clock, and by **CPU time** (this process and its
children: the pool's workers, the bots), which a shared machine disturbs much less. On a
busy machine the wall-clock figures say little: Linux shares the CPU fairly between
sessions (``autogroup``), so a second worker process of the same session may get no more
CPU than one; ``cpu_speedup_c2`` is what two free cores would give (the games per
CPU-second of ``--concurrency 2`` over those of ``1``, times two), ``load`` the load
average when the run began.

    .venv/bin/python scripts/bench_match.py [--games 400] [--external-games 200] [--part external] [--json]
    .venv/bin/python scripts/bench_match.py --part stdio [--stdio-games 60] [--repeat 3] [--json]
    .venv/bin/python scripts/bench_match.py --part path [--games 200] [--external-games 40] [--repeat 3]
        [--code /work/main]... [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: ``--part path`` runs each measurement in a child whose ``pidor`` is the code named by
#: this variable (a checkout), the bots and this script staying this checkout's.
CODE = os.environ.get("BENCH_MATCH_CODE")
sys.path.insert(0, CODE or str(ROOT))

from pidor.engine.table import TABLE_DEFAULTS  # noqa: E402
from pidor.games import GAME_IDS  # noqa: E402
from pidor.match import run_match  # noqa: E402

#: The external bots: the Python SDK's sample bot (the goal's), or the C one.
BOTS = {
    "python": f"cmd:{sys.executable} {ROOT / 'clients/python/random_bot.py'} --games 0 --seed {{seat}} --stats",
    "c": f"cmd:{ROOT / 'clients/c/random_bot'} --games 0 --seed {{seat}}",
}
#: The stdio: bot set against the SDK's: answers at once, never calls (as the SDK sample).
STDIO = f"stdio:{sys.executable} {ROOT / 'clients/stdio/bot.py'} --never-call"
TRAFFIC = re.compile(r"traffic: received (\d+) frames \((\d+) bytes\), sent (\d+) frames \((\d+) bytes\)")


def _usage() -> tuple[resource.struct_rusage, resource.struct_rusage]:
    """Resources used so far: by this process, and by its children that have ended."""
    return resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)


def _per_game(before: resource.struct_rusage, after: resource.struct_rusage, games: int) -> dict:
    """CPU ms per game, user and system, and the times per game the process(es) went to
    sleep waiting (voluntary context switches: for a bot, one per burst of frames it waits for)."""
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    return {"total": round(1000 * (user + system) / games, 1), "user": round(1000 * user / games, 1),
            "system": round(1000 * system / games, 1),
            "waits": round((after.ru_nvcsw - before.ru_nvcsw) / games, 1)}


def traffic(stderr_dir: str, games: int) -> dict:
    """Frames and bytes per game each way, from what the bots printed (``--stats``): the
    server to the bots (``in``) and the bots to the server (``out``)."""
    total = [0, 0, 0, 0]
    for path in Path(stderr_dir).glob("*.stderr"):
        for m in TRAFFIC.finditer(path.read_text()):
            total = [t + int(x) for t, x in zip(total, m.groups())]
    frames_in, bytes_in, frames_out, bytes_out = (round(t / games, 1) for t in total)
    return {"frames_to_bots": frames_in, "bytes_to_bots": bytes_in, "frames_from_bots": frames_out,
            "bytes_from_bots": bytes_out}


def measure(game: str, games: int, **kwargs) -> dict:
    """Games per second by the wall clock and per CPU-second; CPU ms per game (here: the
    runner and its server; children: workers or bots) and the actions played."""
    me0, kids0 = _usage()
    t0 = time.perf_counter()
    r = run_match(game, 4, games, seed="bench", **kwargs)
    wall = time.perf_counter() - t0
    me1, kids1 = _usage()
    assert r.summary["games"] == games
    here, kids = _per_game(me0, me1, games), _per_game(kids0, kids1, games)
    out = {"games_per_s": round(games / wall, 1), "games_per_cpu_s": round(1000 / (here["total"] + kids["total"]), 1),
           "cpu_ms_per_game": {"runner": here["total"], "children": kids["total"]},
           "actions_per_game": round(r.summary["actions"] / games, 1),
           "forfeits": dict(Counter(f["reason"] for x in r.records for f in x["forfeits"]))}
    if "stderr_dir" in kwargs:
        out["processes"] = {"runner_and_server": here, "bots": kids}
        if "--stats" in kwargs["specs"][0]:
            out["traffic_per_game"] = traffic(kwargs["stderr_dir"], games)
    return out


def external(game: str, games: int, concurrency: int, bots: str = "python", ray: str | None = None) -> dict:
    """A match of four external bots (each measurement with bots of its own)."""
    with tempfile.TemporaryDirectory() as err:
        return measure(game, games, specs=[BOTS[bots]] * 4, concurrency=concurrency, stderr_dir=err, ray=ray)


def servers(game: str, games: int, bots: str, repeat: int, ray: str | None = None) -> dict:
    """Four external bots at ``--concurrency 1`` (one server process) and ``2`` (two, one a
    core: issue 29 goal 2), ``repeat`` times in turn: every run and the ratio of the
    games/s, each run's and their median (goal: ≥ 1.7 on two cores). ``ray``: the same on
    that Ray cluster too, in each round (``ray_*`` keys)."""
    places = {"": None} if ray is None else {"": None, "ray_": ray}
    if ray is not None:  # (connected, and its workers started, before the clock runs)
        from pidor.match.pool import ray_connected

        ray_connected(ray)
        external(game, 4, 2, bots, ray)
    runs: dict[str, list[dict]] = {}
    for _ in range(repeat):
        for prefix, address in places.items():
            for c in (1, 2):
                runs.setdefault(f"{prefix}c{c}", []).append(external(game, games, c, bots, address))
    out: dict = {"games": games, "repeat": repeat, "runs": runs}
    for prefix in places:
        ratios = [two["games_per_s"] / one["games_per_s"] for one, two in zip(runs[f"{prefix}c1"], runs[f"{prefix}c2"])]
        out[f"{prefix}c2_over_c1"] = [round(r, 2) for r in ratios]
        out[f"median_{prefix}c2_over_c1"] = round(statistics.median(ratios), 2)
    return out


def stdio_vs_sdk(game: str, games: int, repeat: int) -> dict:
    """Four stdio: bots, then four SDK bots, ``repeat`` times in turn, at concurrency 4:
    every run, and the medians' ratios (stdio over SDK: above 1, stdio is faster)."""
    runs: dict[str, list[dict]] = {"stdio": [], "sdk": []}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as err:
            runs["stdio"].append(measure(game, games, specs=[STDIO] * 4, concurrency=4, stderr_dir=err))
        runs["sdk"].append(external(game, games, 4))
    out: dict = {"games": games, "repeat": repeat, "runs": runs}
    for key in ("games_per_s", "games_per_cpu_s"):
        medians = {kind: statistics.median(m[key] for m in ms) for kind, ms in runs.items()}
        out[f"median_{key}"] = medians
        out[f"stdio_over_sdk_{key}"] = round(medians["stdio"] / medians["sdk"], 2)
    return out


def _cpu_per_action(game: str, games: int, **kwargs) -> dict:
    """This process's own CPU (user + system) per action of a match, in µs."""
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    r = run_match(game, 4, games, seed="bench", **kwargs)
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    assert r.summary["games"] == games and not any(x["forfeits"] for x in r.records)
    user, system = me1.ru_utime - me0.ru_utime, me1.ru_stime - me0.ru_stime
    n = r.summary["actions"]
    return {"us_per_action": round(1e6 * (user + system) / n, 1), "user": round(1e6 * user / n, 1),
            "system": round(1e6 * system / n, 1), "actions": n}


def path_child(game: str, games: int, external_games: int) -> dict:
    """One round of ``--part path`` in this process (its ``pidor``: ``CODE``, or this
    checkout): in-process, then four C bots at concurrency 1, then the frames the server
    sends per action, counted in a short run of their own (the count costs)."""
    specs = [BOTS["c"]] * 4
    with tempfile.TemporaryDirectory() as err:
        run_match(game, 4, 2, seed="warm-up", specs=specs, stderr_dir=err)
    inproc = _cpu_per_action(game, games)
    with tempfile.TemporaryDirectory() as err:
        ext = _cpu_per_action(game, external_games, specs=specs, stderr_dir=err)
    from pidor.server.connection import Connection
    send_frames, frames = Connection.send_frames, [0]

    def counting(self, batch: list[bytes]) -> None:
        frames[0] += len(batch)
        send_frames(self, batch)

    Connection.send_frames = counting
    try:
        with tempfile.TemporaryDirectory() as err:
            r = run_match(game, 4, 5, seed="frames", specs=specs, stderr_dir=err)
    finally:
        Connection.send_frames = send_frames
    return {"inprocess": inproc, "external": ext,
            "ratio": round(ext["us_per_action"] / inproc["us_per_action"], 2),
            "frames_per_action": round(frames[0] / r.summary["actions"], 2)}


def path(game: str, games: int, external_games: int, repeat: int, codes: list[Path]) -> dict:
    """``repeat`` rounds of :func:`path_child` for each checkout in ``codes``, each in a
    child process, the order rotating; per checkout its runs, the best µs per action of
    each kind, their ratio and the median of the rounds' ratios."""
    import subprocess
    runs: dict[Path, list[dict]] = {c: [] for c in codes}
    for r in range(repeat):
        k = r % len(codes)
        for code in codes[k:] + codes[:k]:
            env = {**os.environ, "BENCH_MATCH_CODE": str(code)}
            cmd = [sys.executable, __file__, "--path-child", "--game", game, "--games", str(games),
                   "--external-games", str(external_games)]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            runs[code].append(json.loads(done.stdout))
    out = []
    for code, rs in runs.items():
        best_in = min(x["inprocess"]["us_per_action"] for x in rs)
        best_ext = min(x["external"]["us_per_action"] for x in rs)
        out.append({"code": str(code), "runs": rs, "best_inprocess_us_per_action": best_in,
                    "best_external_us_per_action": best_ext, "ratio_of_bests": round(best_ext / best_in, 2),
                    "median_ratio": round(statistics.median(x["ratio"] for x in rs), 2),
                    "frames_per_action": rs[0]["frames_per_action"]})
    return {"games": games, "external_games": external_games, "repeat": repeat, "codes": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=GAME_IDS, default=TABLE_DEFAULTS["game"],
                    help=f"the game, four players a table (default {TABLE_DEFAULTS['game']})")
    ap.add_argument("--games", type=int, default=400, help="in-process games per measurement")
    ap.add_argument("--external-games", type=int, default=200,
                    help="games with external bots at concurrency 4 (half as many at concurrency 1)")
    ap.add_argument("--part", choices=["inprocess", "external", "stdio", "servers", "path"],
                    help="measure only this part (default: in-process and external, and the overhead per external "
                         "game; stdio: stdio: bots against SDK bots, interleaved; servers: external bots at "
                         "--concurrency 1 and 2, interleaved, --external-games a run)")
    ap.add_argument("--stdio-games", type=int, default=60, help="games per run of --part stdio")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each kind in --part stdio or servers, interleaved")
    ap.add_argument("--bots", choices=sorted(BOTS), default="python",
                    help="the external bots: the Python SDK sample bot (default) or the C one (built first: "
                         "make -C clients/c)")
    ap.add_argument("--code", action="append", default=[], metavar="DIR",
                    help="--part path: a checkout whose pidor to measure too, in turn with this one (repeatable)")
    ap.add_argument("--ray", metavar="ADDRESS", default=None,
                    help="--part servers: also on this Ray cluster ('auto': a local one), each round beside the local "
                         "run (pip install 'pidor[ray]')")
    ap.add_argument("--path-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.path_child:
        print(json.dumps(path_child(args.game, args.games, args.external_games)))
        return
    if args.games < 1 or args.external_games < 2 or args.stdio_games < 1 or args.repeat < 1:
        ap.error("--games, --stdio-games and --repeat must be at least 1 and --external-games at least 2")
    if args.bots == "c" and not (ROOT / "clients/c/random_bot").exists():
        ap.error("the C bot is not built: make -C clients/c")
    out: dict = {"players": 4, "game": args.game, "cpus": os.cpu_count(), "load": round(os.getloadavg()[0], 2),
                 "bots": args.bots}
    if args.part == "path":
        if args.bots != "c" and "--bots" in sys.argv:
            ap.error("--part path measures with the C bots")
        codes = [ROOT] + [Path(c).resolve() for c in args.code]
        for code in codes:
            if not (code / "pidor" / "server" / "runner.py").is_file():
                ap.error(f"--code {code}: not a pidor checkout")
        out["bots"] = "c"
        out["path"] = path(args.game, args.games, args.external_games, args.repeat, codes)
    else:
        run_match(args.game, 4, 4, seed="warm-up")  # imports and first-call costs out of the figures
    if args.part == "path":
        pass  # (measured above, in child processes)
    elif args.part == "stdio":
        out["stdio_vs_sdk"] = stdio_vs_sdk(args.game, args.stdio_games, args.repeat)
    elif args.part == "servers":
        out["servers"] = servers(args.game, args.external_games, args.bots, args.repeat, args.ray)
    elif args.part != "external":
        out["inprocess_c1"] = c1 = measure(args.game, args.games)
        out["inprocess_c2"] = c2 = measure(args.game, args.games, concurrency=2)
        out["speedup_c2"] = round(c2["games_per_s"] / c1["games_per_s"], 2)
        out["cpu_speedup_c2"] = round(2 * c2["games_per_cpu_s"] / c1["games_per_cpu_s"], 2)
    if args.part not in ("inprocess", "stdio", "servers", "path"):
        out["external_c4"] = external(args.game, args.external_games, 4, args.bots)
        out["external_c1"] = e1 = external(args.game, args.external_games // 2, 1, args.bots)
    if args.part is None:
        out["overhead_ms_per_external_game"] = round(1000 * (1 / e1["games_per_s"] - 1 / c1["games_per_s"]), 1)
        out["overhead_cpu_ms_per_external_game"] = round(
            1000 * (1 / e1["games_per_cpu_s"] - 1 / c1["games_per_cpu_s"]), 1)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['cpus']} CPUs, load average {out['load']} at the start")
    for key, label in (("inprocess_c1", "in-process, concurrency 1"), ("inprocess_c2", "in-process, concurrency 2"),
                       ("external_c4", f"4 external {args.bots} bots, concurrency 4"),
                       ("external_c1", f"4 external {args.bots} bots, concurrency 1")):
        if key not in out:
            continue
        m = out[key]
        cpu = m["cpu_ms_per_game"]
        print(f"{label}: {m['games_per_s']} games/s, {m['games_per_cpu_s']} games per CPU-second "
              f"(CPU ms per game: runner {cpu['runner']}, children {cpu['children']}; "
              f"{m['actions_per_game']} actions a game; forfeits: {m['forfeits'] or 'none'})")
        if "processes" in m:
            p = m["processes"]
            for who, label in (("runner_and_server", "the runner and its server"), ("bots", "the 4 bots")):
                q = p[who]
                print(f"  {label}: {q['total']} CPU ms per game (user {q['user']}, system {q['system']}), "
                      f"{q['waits']} waits per game")
        if "traffic_per_game" in m:
            t = m["traffic_per_game"]
            print(f"  per game: {t['frames_to_bots']} frames ({t['bytes_to_bots']} bytes) to the bots, "
                  f"{t['frames_from_bots']} frames ({t['bytes_from_bots']} bytes) from them")
    if "stdio_vs_sdk" in out:
        v = out["stdio_vs_sdk"]
        for kind, label in (("stdio", "4 stdio: Python bots"), ("sdk", "4 SDK Python bots (cmd:)")):
            runs = v["runs"][kind]
            print(f"{label}, concurrency 4, {v['games']} games a run: "
                  + "; ".join(f"{m['games_per_s']} games/s, {m['games_per_cpu_s']} per CPU-second (CPU ms per game: "
                              f"runner {m['cpu_ms_per_game']['runner']}, bots {m['cpu_ms_per_game']['children']})"
                              for m in runs))
        print(f"stdio over SDK (medians): ×{v['stdio_over_sdk_games_per_s']} games/s by the wall clock, "
              f"×{v['stdio_over_sdk_games_per_cpu_s']} per CPU-second")
    if "servers" in out:
        v = out["servers"]
        for prefix, where in (("", "server processes"), ("ray_", "Ray tasks")):
            if f"{prefix}c2_over_c1" not in v:
                continue
            for c in ("c1", "c2"):
                print(f"4 external {args.bots} bots, --concurrency {c[1]}{' on Ray' if prefix else ''}, {v['games']} "
                      "games a run: " + "; ".join(f"{m['games_per_s']} games/s" for m in v["runs"][prefix + c]))
            print(f"--concurrency 2 over 1 (two {where} over one): ×{v[f'median_{prefix}c2_over_c1']} by the wall "
                  f"clock (runs: {', '.join(f'×{r}' for r in v[f'{prefix}c2_over_c1'])})")
    if "path" in out:
        v = out["path"]
        for c in v["codes"]:
            print(f"{c['code']}: runner CPU per action, best of {v['repeat']}: in-process "
                  f"{c['best_inprocess_us_per_action']} µs, 4 C bots at concurrency 1 {c['best_external_us_per_action']} µs: "
                  f"×{c['ratio_of_bests']} (median of the rounds ×{c['median_ratio']}); "
                  f"{c['frames_per_action']} frames sent per action")
    if "speedup_c2" in out:
        print(f"concurrency 2 over 1: ×{out['speedup_c2']} by the wall clock, ×{out['cpu_speedup_c2']} on two free "
              "cores (by CPU time)")
    if "overhead_ms_per_external_game" in out:
        print(f"overhead per external game: {out['overhead_ms_per_external_game']} ms by the wall clock, "
              f"{out['overhead_cpu_ms_per_external_game']} ms of CPU")


if __name__ == "__main__":
    main()
