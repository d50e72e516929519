#!/usr/bin/env python3
"""Make the stored logs of every engine version and log format this program ever wrote
(``tests/data/logs/``), each by the commit that last wrote it, from the project's own git
history: issue 22 §7, every log ever written still verifies.

For each commit of :data:`SOURCES` the script extracts its tree (``git archive``) into a
temporary directory, installs it in a venv of its own and plays the small matches of
:data:`MATCHES` with that program's ``pidor match --logs``, for every game its ``--game``
offers. Of each match it keeps the shortest log: a real game, but a small file. A log goes
to ``tests/data/logs/<engine version>/<commit>-<game>-<match>.plog`` (its header names the
engine version), and ``tests/data/logs/README.md`` lists what made each file. The same
commit and match give the same bytes (T10), so running the script again changes no match's
log unless the script changed.

A match may set table clocks (``clocks``) that the commit's ``pidor match`` has no flag for:
its ``Table`` is then made with them, as its server makes a table ``create``d with them.
Such logs catch the versions whose call window differed (engine pidor-1's trick-closing
window lasted ``trick_display``, a53c47d). A source may also play a game of each on its own
server (``served``, :data:`SERVED`), for the real clock's ticks, stand-ins' actions and
votes that ran out; those logs differ from run to run.

    .venv/bin/python scripts/old_logs.py [--commit REV ...] [--out DIR] [--json]

``--commit`` plays only those commits (any revision, not only the sources: to look for a
change that altered logs without a new engine version) into ``--out``; ``tests/data/logs``
is rewritten only by a run over all :data:`SOURCES`. Verify the result with
``pidor verify DIR/*/*.plog``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "logs"


@dataclass(frozen=True)
class Source:
    """A commit whose logs are kept: the last one that wrote some engine version or log
    format (``why``). ``engines`` and ``matches`` keep the files few where a commit adds one
    thing to the others' logs."""

    commit: str
    why: str
    #: Keep only logs of these engine versions (``()``: all).
    engines: tuple[str, ...] = ()
    #: The names of the :data:`MATCHES` played (``None``: all).
    matches: tuple[str, ...] | None = None
    #: Also a game of each on the commit's server (:data:`SERVED`).
    served: bool = False


#: The commits whose logs are kept, oldest first. Found with ``git log -G'version = "' --
#: pidor/engine pidor/games`` (engine versions) and the history of ``VERSION`` in
#: ``pidor/gamelog/format.py`` (log formats).
SOURCES = (
    Source("2479e70", "the last commit that wrote log format 1 (8293ce6 brought format 2): a record of its own "
                      "for each window's passes; no `window_closed` event yet (8977bf4)",
           engines=("durak-1",), matches=("2p-cheat",)),
    Source("f752df4", "the last commit that wrote log format 2 (87fb629 brought format 3, the abstain record); "
                      "window events repeat their action (2366e78 to 87fb629)",
           engines=("pidor-1",), matches=("2p-cheat",)),
    Source("6172737", "the first release (format 3), the last commit that wrote engines pidor-1 and durak-1 "
                      "(a53c47d brought pidor-2 and durak-2)", served=True),
    Source("537e8a3", "the last commit that wrote engine durak-2 (82a67d2 brought durak-3 and simple-1)",
           engines=("durak-2",), matches=("4p-cheat",)),
    Source("988a3dd", "main when issue 22 began: engines pidor-2, durak-3 and simple-1 (T13 brings new ones)"),
)

#: Cheating, calling bots; ``LIGHT`` cheat less (a four-player game of ``CHEAT`` is long).
CHEAT = "builtin:random:cheat=0.3,attention=0.6,false_call=0.05"
LIGHT = "builtin:random:cheat=0.1,attention=0.5,false_call=0.02"


@dataclass(frozen=True)
class Match:
    """One ``pidor match`` of a commit: ``play`` games at one table, the shortest kept."""

    name: str
    players: int
    seat: str = "builtin:random"  # every seat's spec
    deck: int | None = None  # None: the game's own
    play: int = 24
    #: Table clocks the match's table is made with (seconds), besides its defaults.
    clocks: dict = field(default_factory=dict)
    #: Further ``pidor match`` arguments to try, in order: the first that the commit has and
    #: the game takes (``pidor match`` refuses the others) is played, and named in the log's
    #: file name; ``()`` plays none.
    flags: tuple[tuple[str, ...], ...] = ((),)


#: Honest and cheating, calling bots; two and four players; both decks where a game has
#: both; other clocks (the call window longer than a closed trick's display); the variants.
MATCHES = (
    Match("2p-cheat", 2, CHEAT, 36, clocks={"call_window": 3.0, "trick_display": 1.0, "bito_timeout": 5.0}),
    Match("2p", 2, flags=(("--deck", "52"), ())),
    Match("4p-cheat", 4, LIGHT, 36, flags=(("--teams", "2x2"), ("--variant", "pairs"), ("--hard",), ())),
)

#: A game on the commit's own server (``pidor serve``): one seat is a client of its SDK (its
#: sample random bot, ``clients/python``) that lets about half of its turns, call windows and
#: votes run out, the others built-in bots, on short clocks (seconds): the log has the real
#: clock's ticks, stand-ins' actions (T9, ``auto``) and votes that ran out (T4).
SERVED = {"players": 2, "bots": [CHEAT], "call_window": 0.3, "trick_display": 0.1, "vote_timeout": 0.5,
          "bito_timeout": 0.3, "turn_timeout": 0.3}
_LAZY = """
import json, random, sys
sys.path.insert(0, sys.argv[1])
from pidor.client import Client
from random_bot import RandomBot

class Lazy(RandomBot):
    def on_turn(self, options, turn):
        return None if self.rng.random() < 0.5 else super().on_turn(options, turn)

    def on_court(self, event):
        return None if self.rng.random() < 0.5 else super().on_court(event)

    def _dispatch(self, msg):
        if msg.get("type") == "event" and msg["event"].get("type") == "window" and self.rng.random() < 0.5:
            self.on_message(msg)
            return 0
        return super()._dispatch(msg)

client = Client("127.0.0.1", int(sys.argv[2]), "old-logs")
client.connect()
client.create(game=sys.argv[3], **json.loads(sys.argv[4]))
Lazy(1, lambda *a: None).run(client, games=1)
client.close()
"""

#: Run in the commit's venv in place of its ``pidor`` script: ``pidor`` with the table's
#: clocks (argv[1], JSON) added to every table it makes.
_RUN = """
import json, sys
clocks = json.loads(sys.argv.pop(1))
if clocks:
    from pidor.engine import table
    made = table.Table.__init__
    def __init__(self, options=None, *args, **kwargs):
        made(self, {**(options or {}), **clocks}, *args, **kwargs)
    table.Table.__init__ = __init__
sys.argv[0] = "pidor"
from pidor.cli import main
main()
"""
#: Prints the game ids the commit's ``pidor match --game`` offers.
_GAMES = """
import click
from pidor.cli import main
match = main.get_command(click.Context(main), "match")
print(" ".join(next(p for p in match.params if p.name == "game").type.choices))
"""


class Failed(Exception):
    """A step failed: the command, and the end of what it said."""


def run(command: list[str], *, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, **kwargs)
    if check and done.returncode:
        said = done.stderr if isinstance(done.stderr, str) else done.stderr.decode(errors="replace")
        raise Failed(f"{' '.join(command)[:300]} exited {done.returncode}: {said.strip()[-2000:]}")
    return done


def git(*args: str) -> str:
    return run(["git", "-C", str(ROOT), *args], text=True).stdout


class Program:
    """A commit's ``pidor``, installed in a venv of its own under ``work``."""

    def __init__(self, commit: str, work: Path) -> None:
        self.commit = git("rev-parse", "--short=7", commit + "^{commit}").strip()
        tree = work / "tree"
        tree.mkdir(parents=True)
        run(["tar", "-x", "-C", str(tree)], input=run(["git", "-C", str(ROOT), "archive", self.commit]).stdout)
        run([sys.executable, "-m", "venv", str(work / "venv")])
        self.python = str(work / "venv" / "bin" / "python")
        run([self.python, "-m", "pip", "install", "-q", str(tree)])
        self.tree = tree
        self.cwd = work  # (not the tree: its sources must not shadow the installed package)
        self.games = run([self.python, "-c", _GAMES], cwd=self.cwd, text=True).stdout.split()

    def match(self, game: str, m: Match, logs: Path) -> list[str]:
        """Play ``m`` with ``game`` into ``logs``: the ``pidor`` arguments it was played with
        (the first of ``m.flags`` that the commit plays with ``game``)."""
        seats = [arg for _ in range(m.players) for arg in ("--seat", m.seat)]
        deck = [] if m.deck is None else ["--deck", str(m.deck)]
        for flags in m.flags:
            args = ["match", "--game", game, "--players", str(m.players), *deck, "--games", str(m.play),
                    "--seed", f"old-logs/{m.name}", *flags, *seats]
            done = run([self.python, "-c", _RUN, json.dumps(m.clocks), *args, "--logs", str(logs)],
                       check=flags == m.flags[-1], cwd=self.cwd, text=True)  # (the last try must play)
            if not done.returncode:
                return args
        raise Failed(f"match {m.name} has no flags to play (give ((),) for none)")

    def serve(self, game: str, data: Path) -> None:
        """One game of ``game`` on the commit's server (:data:`SERVED`); its log is in ``data/logs``."""
        server = subprocess.Popen([self.python, "-c", "from pidor.cli import main; main()", "serve", "--port", "0",
                                   "--data", str(data), "--log-level", "info"], cwd=self.cwd,
                                  stderr=subprocess.PIPE, text=True)
        try:
            for line in server.stderr:  # "... listening on 127.0.0.1:PORT ..."
                if "listening on" in line:
                    port = line.split("listening on", 1)[1].split()[0].rsplit(":", 1)[1]
                    break
            else:
                raise Failed(f"{self.commit}: pidor serve did not start")
            run([self.python, "-c", _LAZY, str(self.tree / "clients" / "python"), port, game, json.dumps(SERVED)],
                cwd=self.cwd, text=True, timeout=900)
        finally:
            server.terminate()
            server.wait()


def header(path: Path) -> dict:
    """The header of a binary log (its first record)."""
    with open(path, "rb") as f:
        body, _ = next(msgpack.Unpacker(f))
    return msgpack.unpackb(body)


def make(source: Source, out: Path, work: Path, say) -> list[dict]:
    """Play ``source``'s matches (and games on its server) and keep the shortest log of each
    in ``out``; one entry per log kept."""
    program = Program(source.commit, work / source.commit)
    kept: list[dict] = []

    def keep(path: Path, name: str, command: str, clocks: dict) -> None:
        h = header(path)
        if source.engines and h["engine"] not in source.engines:
            return
        target = out / h["engine"] / f"{program.commit}-{name}.plog"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        kept.append({"file": target.relative_to(out).as_posix(), "commit": program.commit, "engine": h["engine"],
                     "format": h["version"], "game": h["game"], "number": h["table"]["number"],
                     "bytes": target.stat().st_size, "clocks": clocks, "command": command})
        say(f"{kept[-1]['file']}: {kept[-1]['bytes']:,} bytes")

    for game in program.games:
        for m in MATCHES:
            if source.matches is not None and m.name not in source.matches:
                continue
            logs = work / source.commit / "logs" / game / m.name
            args = program.match(game, m, logs)
            played = args[args.index("--seed") + 2:args.index("--seat")]  # the flags
            keep(min(logs.iterdir(), key=lambda p: (p.stat().st_size, p.name)),
                 "-".join([game, m.name, *(f.lstrip("-") for f in played)]),
                 " ".join(["pidor", *args[:args.index("--seat")], "--seat", m.seat, f"(x{m.players})"]), m.clocks)
        if source.served:
            data = work / source.commit / "served" / game
            program.serve(game, data)
            options = {k: v for k, v in SERVED.items() if k not in ("players", "bots")}
            keep(next((data / "logs").glob("*.plog")), f"{game}-served",
                 f"pidor serve; create {game}, players {SERVED['players']}, bots {SERVED['bots']}, "
                 "the seat's client lets about half its turns, windows and votes run out", options)
    return kept


def readme(sources: tuple[Source, ...], kept: list[dict]) -> str:
    lines = [
        "# Logs of every engine version and log format",
        "",
        "Real logs written by earlier versions of this program: `pidor verify`, `replay` and",
        "`export` must read each of them as its own engine version played it (issue 22 §7;",
        "`tests/test_old_logs.py`). Made by `scripts/old_logs.py` from the project's git history:",
        "each commit's tree (`git archive COMMIT`) installed in a venv of its own, its",
        "`pidor match ... --logs DIR` played, the shortest log of each match kept; and for the",
        "first release a game of each on its own server (`-served`: the real clock's ticks,",
        "stand-ins' actions, votes that ran out). Do not edit them: run the script again (it gives",
        "the same bytes, but for the served games, which the real clock plays anew).",
        "",
        "| commit | why | formats | engines |",
        "|---|---|---|---|",
    ]
    for s in sources:
        mine = [k for k in kept if k["commit"] == git("rev-parse", "--short=7", s.commit).strip()]
        lines.append(f"| `{s.commit}` | {s.why} | {', '.join(sorted({str(k['format']) for k in mine}))} | "
                     f"{', '.join(sorted({k['engine'] for k in mine}))} |")
    lines += ["", "Each file: the commit's `pidor` run as shown (a match's log kept is the shortest of its",
              "games; `number` is the game's number at the table), with the table's clocks (seconds) set",
              "as a server's `create` sets them.", "",
              "| file | format | number | bytes | command | clocks |", "|---|---|---|---|---|---|"]
    for k in sorted(kept, key=lambda k: k["file"]):
        clocks = ", ".join(f"{n} {v:g}" for n, v in k["clocks"].items()) or "defaults"
        lines.append(f"| {k['file']} | {k['format']} | {k['number']} | {k['bytes']:,} | `{k['command']}` | "
                     f"{clocks} |")
    lines += ["", f"{len(kept)} logs, {sum(k['bytes'] for k in kept):,} bytes in all.", ""]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--commit", action="append", help="play only this revision (repeatable), into --out")
    p.add_argument("--out", type=Path, help=f"where the logs go (default: {OUT.relative_to(ROOT)})")
    p.add_argument("--json", action="store_true", help="print one JSON object: every log kept")
    a = p.parse_args()
    if a.commit and a.out is None:
        p.error("--commit needs --out (tests/data/logs holds the sources' logs only)")
    sources = tuple(Source(c, "asked for") for c in a.commit) if a.commit else SOURCES
    out = a.out or OUT
    say = (lambda line: print(line, file=sys.stderr)) if a.json else print
    kept: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="old-logs-") as tmp:
        staged = Path(tmp) / "out"
        try:
            for s in sources:
                kept += make(s, staged, Path(tmp), say)
        except Failed as e:
            print(f"old_logs: {e}", file=sys.stderr)
            return 1
        if not a.commit:
            (staged / "README.md").write_text(readme(sources, kept), encoding="utf-8")
            shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copytree(staged, out, dirs_exist_ok=True)
    if a.json:
        print(json.dumps({"out": str(out), "logs": kept, "bytes": sum(k["bytes"] for k in kept)}))
    else:
        print(f"{len(kept)} logs, {sum(k['bytes'] for k in kept):,} bytes, in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
