#!/usr/bin/env python3
"""Issue 29, goal 3: the engine against today's ``main`` and against a plain-Python loop
that does the same work, interleaved in one run.

Three figures, each in a child process of its own, on the same games (seeds 0, 1, 2, … of
``bench_engine.py``: 4-player «пидор», honest random bots that never call), CPU time of
the child's game loop only (imports and start-up left out):

* ``engine``: this checkout's engine + table + driver with :class:`RandomBot` seats
  (``pidor.autoplay.play_game``, as ``scripts/bench_engine.py`` runs it);
* ``base``: the same in the checkout given with ``--base`` (e.g. a worktree of ``main``);
* ``plain``: :func:`plain_game` below: the same rules in one plain loop — the deal, the
  tricks, the T13 positions, the bots' HMAC streams, an event per action — with no table,
  no driver, no policies, no wire forms. It plays the very same games (same seeds, same
  choices: the action counts must agree, checked every round), so ``engine / plain`` is
  the share of the plain loop's speed the engine reaches: the floor ratio. The loop runs
  with the cyclic collector paused, as ``play_game`` runs a table of such bots.

Each round runs the three in a rotated order; figures are medians over ``--rounds``, ratios
are taken within a round (so a neighbour's load hits both sides of a ratio alike) and
given as median with min–max. Example::

    .venv/bin/python scripts/bench_ab.py --base /work/wt-speed-base --rounds 7 --games 300 [--json]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import hmac
import json
import os
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------- the plain loop

_U32 = 1 << 32
_UNPACK = struct.Struct(">8I").unpack


class Stream:
    """The HMAC-SHA-256 stream of T10 (``pidor.engine.seeds.Rng``), written plainly."""

    def __init__(self, key: bytes, label: bytes) -> None:
        self.key, self.label, self.counter, self.block = key, label, 0, []

    def below(self, n: int) -> int:
        limit = _U32 - _U32 % n
        while True:
            if not self.block:
                digest = hmac.new(self.key, self.label + self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
                self.counter += 1
                self.block = list(_UNPACK(digest))[::-1]
            u = self.block.pop()
            if u < limit:
                return u % n


def _beats(card: int, target: int, trump: int | None) -> bool:
    """P12 in the 52-card deck (rank index 0 is the 2, 12 the ace; suit 3 is spades)."""
    cs, cr = divmod(card, 13)
    ts, tr = divmod(target, 13)
    if ts == 3:
        return cs == 3 and (cr == 0 if tr == 12 else cr > tr)
    if cs == 3:
        return False
    if cr == 0:
        return tr == 12 and cs == ts
    return cr > tr if cs == ts else cs == trump


_BEATERS: dict = {}


def plain_game(seed: bytes, n: int = 4, log: list | None = None) -> int:
    """One 4-player (``n``) «пидор» game of 52 cards with honest random players who never
    call, as the engine with ``RandomBot`` seats plays it (the same choices from the same
    streams); returns the actions. Nobody calls, so there is no mark, no pidorstvo and no
    settlement (P10), and every call window closes at once (T3)."""
    log = [] if log is None else log
    up = [i + 1 if i < 12 else 0 for i in range(13)]
    order = list(range(52))
    deck_rng = Stream(seed, b"deck")
    for i in range(51, 0, -1):
        j = deck_rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    bots = [Stream(seed, b"bot:%d" % s) for s in range(n)]
    turn = Stream(seed, b"bottle").below(n)
    stacks = [[order[s], order[n + s], order[2 * n + s]] for s in range(n)]
    deck = order[3 * n:][::-1]
    held, drew, last, trump = None, False, None, None
    seen: dict[int, int] = {}  # T13: position -> times
    quiet = units = actions = 0
    empty, zeros = ((),) * n, (0,) * n

    def stalled(position: tuple) -> bool:
        times = seen.get(hash(position), 0) + 1
        seen[hash(position)] = times
        return times >= 3 or quiet >= 100 or units >= 5000

    # --- the deal phase (P3–P5)
    while True:
        stack = stacks[turn]
        options = []
        if len(stack) > 3:
            want = stack[-1] % 13
            options = [("move", t) for t in range(n) if t != turn and up[stacks[t][-1] % 13] == want]
        if held is None:
            if drew or not options:
                options.append(("draw",))
        else:
            want = held % 13
            options += [("lay", t) for t in range(n) if up[stacks[t][-1] % 13] == want] or [("keep",)]
        action = options[bots[turn].below(len(options))]
        actions += 1
        log.append({"type": "action", "seat": turn, "action": action})
        kind = action[0]
        if kind == "move":
            stacks[action[1]].append(stack.pop())
        elif kind == "draw":
            held = deck.pop()
            drew, last = True, turn
            if held // 13 != 3:
                trump = held // 13
            log.append({"type": "draw", "seat": turn, "card": held, "deck": len(deck)})
        elif kind == "lay":
            stacks[action[1]].append(held)
            held = None
        else:
            stack.append(held)
            held, drew, turn = None, False, (turn + 1) % n
        if not deck and held is None:
            break
        if stalled((0, turn, -1 if held is None else held, drew, tuple(map(tuple, stacks)), tuple(deck), empty,
                    empty, (), (), 0, (), zeros, False, -1, ())):
            return actions

    # --- the end of the deal (P8, P9, P11)
    prikups = [st[:2] for st in stacks]
    hands = [st[2:] for st in stacks]
    log.append({"type": "deal_end", "trump": trump, "first": last})
    can = _BEATERS.get(trump)
    if can is None:
        can = _BEATERS[trump] = [{c for c in range(52) if _beats(c, t, trump)} for t in range(52)]
    out, left, gone = [False] * n, n, []
    table: list[int] = []
    seats: list[int] = []
    discard = 0
    turn, size, leader = last, n, None

    def after(seat: int) -> int:
        for i in range(1, n + 1):
            if not out[(seat + i) % n]:
                return (seat + i) % n
        return seat

    # --- trick play (P12–P16)
    while True:
        hand = hands[turn]
        if table:
            top = len(table) - 1
            beat = can[table[top]]
            options = [("beat", c, top) for c in hand if c in beat]
            options.append(("take", 0))
        else:
            options = [("lead", c) for c in hand]
        action = options[bots[turn].below(len(options))]
        actions += 1
        log.append({"type": "action", "seat": turn, "action": action})
        closed = False
        if action[0] == "take":
            hand.append(table.pop(0))
            seats.pop(0)
            if not table:  # P15a
                closed, leader = True, after(turn)
        else:
            hand.remove(action[1])
            table.append(action[1])
            seats.append(turn)
            if len(table) >= size:
                closed, leader = True, turn
        if not closed:  # P15: the next player with cards, or any player while the table holds cards
            t = after(turn)
            if not table:
                for _ in range(n):
                    if hands[t]:
                        break
                    log.append({"type": "skip", "seat": t})
                    t = after(t)
            turn = t
            if stalled((turn, tuple([tuple(sorted(h)) for h in hands]), tuple(table), tuple(seats),
                        tuple([len(p) for p in prikups]), discard, tuple(gone), False, -1)):
                return actions
            continue
        # the end of the trick (P14–P16)
        log.append({"type": "trick_closed", "seat": turn, "cards": table[:]})
        progress = bool(table)
        discard += len(table)
        table, seats = [], []
        for i in range(n):
            s = (leader + i) % n
            if out[s] or hands[s]:
                continue
            if prikups[s]:
                hands[s] += prikups[s]
                prikups[s] = []
                log.append({"type": "prikup", "seat": s})
            else:
                out[s], left, progress = True, left - 1, True
                gone.append(s)
                log.append({"type": "out", "seat": s, "place": len(gone)})
        if left <= 1:
            return actions
        units += 1
        quiet = 0 if progress else quiet + 1
        if stalled((turn, tuple([tuple(sorted(h)) for h in hands]), (), (), tuple([len(p) for p in prikups]),
                    discard, tuple(gone), False, leader)):
            return actions
        turn = leader if not out[leader] else after(leader)
        size = left
        log.append({"type": "trick", "seat": turn, "size": size})


# ----------------------------------------------------------------------------- the workers

def _worker(kind: str, games: int) -> dict:
    """Play ``games`` games (seeds 0..games-1) as ``kind``; CPU time of the loop only."""
    if kind == "plain":
        # (the cyclic collector paused, as play_game pauses it for a table of such bots)
        play = lambda seed: _without_gc(plain_game, seed)  # noqa: E731
    else:
        from pidor.autoplay import play_game
        from pidor.bots import RandomBot
        from pidor.engine.seeds import Rng
        from pidor.engine.table import Table

        def play(seed: bytes) -> int:
            table = Table({"game": "pidor", "players": 4})
            table.start(seed=seed)
            return play_game(table, [RandomBot(s, seed) for s in range(4)], Rng(seed, b"driver"))
    counts = []
    t0 = time.process_time()
    for g in range(games):
        counts.append(play(g.to_bytes(8, "big")))
    cpu = time.process_time() - t0
    return {"cpu": cpu, "actions": sum(counts), "counts_hash": hash(tuple(counts))}


def _without_gc(fn, *args):
    gc.disable()
    try:
        return fn(*args)
    finally:
        gc.enable()


def run_child(kind: str, code: Path, games: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")])
    env["PYTHONHASHSEED"] = "0"
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", kind, "--games", str(games)],
                          capture_output=True, env=env, cwd=code, check=False, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{kind} ({code}) failed: {done.stderr[-800:]}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, help="the checkout to compare with (e.g. a worktree of main)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--games", type=int, default=300, help="games per figure per round (default 300)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--worker", choices=["engine", "plain"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.worker, args.games)))
        return
    runs = [("engine", "engine", ROOT), ("plain", "plain", ROOT)]
    if args.base is not None:
        base = args.base.resolve()
        if not (base / "pidor" / "autoplay.py").is_file():
            raise SystemExit(f"--base {base}: not a pidor checkout")
        runs.insert(1, ("base", "engine", base))
    rates: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    actions = None
    for r in range(args.rounds):
        k = r % len(runs)
        for name, kind, code in runs[k:] + runs[:k]:
            got = run_child(kind, code, args.games)
            if actions is None:
                actions = got["actions"], got["counts_hash"]
            elif (got["actions"], got["counts_hash"]) != actions:
                raise SystemExit(f"{name} played other games: {got['actions']} actions, not {actions[0]}")
            rates[name].append(got["actions"] / got["cpu"])

    def summary(values: list[float], digits: int) -> dict:
        return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
                "max": round(max(values), digits)}

    out = {
        "game": "pidor", "players": 4, "bots": "random (honest, never call)", "games": args.games,
        "rounds": args.rounds, "actions_per_game": round(actions[0] / args.games, 1), "clock": "cpu (child's loop)",
        "load": os.getloadavg()[0],
        "actions_per_s": {name: summary(v, 0) for name, v in rates.items()},
        "floor": summary([e / p for e, p in zip(rates["engine"], rates["plain"])], 3),
    }
    if "base" in rates:
        out["ratio"] = summary([e / b for e, b in zip(rates["engine"], rates["base"])], 3)
        out["base_floor"] = summary([b / p for b, p in zip(rates["base"], rates["plain"])], 3)
        out["base"] = str(args.base.resolve())
    if args.json:
        print(json.dumps(out))
        return
    print(f"4-player «пидор», random bots, {args.games} games x {args.rounds} rounds, "
          f"{out['actions_per_game']} actions a game; actions per CPU second, median (min-max):")
    for name, s in out["actions_per_s"].items():
        print(f"  {name:7} {s['median']:>9,.0f}  ({s['min']:,.0f}-{s['max']:,.0f})")
    if "ratio" in out:
        s = out["ratio"]
        print(f"  engine / base   {s['median']:.3f}  ({s['min']:.3f}-{s['max']:.3f})")
        s = out["base_floor"]
        print(f"  base / plain    {s['median']:.3f}  ({s['min']:.3f}-{s['max']:.3f})")
    s = out["floor"]
    print(f"  engine / plain  {s['median']:.3f}  ({s['min']:.3f}-{s['max']:.3f})  (the floor ratio)")


if __name__ == "__main__":
    main()
