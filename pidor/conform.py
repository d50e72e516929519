"""``pidor conform COMMAND``: a conformance kit for bots in any language.

It runs the bot's command against a scripted local server and reports, check by check
(:mod:`pidor.conform_checks`), what the bot does right and wrong. Each scenario is one
game at a real in-process server on a free loopback port, behind a relay
(:mod:`pidor.conform_relay`) that records every frame and plays the scenario's twist:

* a table per game and deck size (7): the kit's seat 0 calls every action that broke a
  rule (so the bot sits on courts), and in durak falsely calls the bot once (so the bot
  pays for the kit's mark, D12); a built-in bot cheats now and then;
* ``guard``: every turn comes twice; two of the bot's actions are refused (``stale``,
  ``impossible_action``);
* ``conviction``: the bot is offered a cheat as its only option, called and convicted;
  then it must play honestly (T6);
* ``reconnect``: the kit closes the bot's connection; it must come back with its token;
* ``forward``: unknown fields, message types and event types.

The bot is launched exactly as ``pidor match`` launches a ``cmd:`` entrant
(:mod:`pidor.match.launch`): its player is seated at seat 1 before it starts, and it gets
the relay's address, the table, the seat and the token as ``PIDOR_HOST`` … ``PIDOR_TOKEN``
in its environment and as ``{host}`` … ``{token}`` in its command. Its ``hello`` with the
token puts it at its seat (no ``join``); the kit's seat 0, the host, starts the game once
it is there. The kit ends the bot's process group once its game is over, and keeps the last
lines of its stderr to show when a check fails.
"""

from __future__ import annotations

import hashlib
import json
import random
import shlex
import shutil
import sys
import time
from dataclasses import dataclass

import click
import trio

from .conform_checks import CHECKS, Result, run_checks
from .conform_relay import Record, Relay
from .engine.table import TABLE_DEFAULTS
from .games import GAME_IDS, game_class, spec
from .match.launch import Stderr, check_command, launch, literal, telling_lines
from .server.app import Server
from .server.runner import TableRunner
from .server.seating import server_options
from .server.store import Store
from .server.testing import Client, connect
from .stdio import PREFIX, bridge_command

__all__ = ["Scenario", "SCENARIOS", "run_conform", "conform"]


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    deck: int
    bots: tuple[str, ...]  # built-in bots after the kit's seat 0 and the bot's seat 1
    twist: str = ""
    false_call: bool = False  # the kit's seat calls the bot's first callable action (an honest one: T5)


#: The kit's seat is 0; built-in bots take the last seats (PROTOCOL.md §4), and the bot
#: under test is seated at 1.
KIT_SEAT, BOT_SEAT = 0, 1
#: Lines of a bot's stderr shown under a failed check.
SHOWN_LINES = 8
CHEATER = "builtin:random:cheat=0.25"


def _seats(game: str) -> int:
    """How many seat a scenario of ``game`` (three where the game allows, for a court)."""
    players = spec(game).players
    return 3 if 3 in players else min(players)


#: One scenario per game and deck, each from the game's spec: a cheating built-in bot in the
#: seats left; the kit calls the bot falsely where the game judges calls in court.
GAMES = tuple(Scenario(f"{g}-{d}", g, d, (CHEATER,) * (_seats(g) - 2), false_call=spec(g).conform.false_call)
              for g in GAME_IDS for d in spec(g).decks)
#: The scenarios that test the table, not a game: at the default table's game.
_TABLE_GAME = TABLE_DEFAULTS["game"]
GUARD = Scenario("guard", _TABLE_GAME, 36, ("builtin:random",), "guard")
CONVICTION = Scenario("conviction", _TABLE_GAME, 36, ("builtin:random",), "conviction")
#: (an away seat's stand-in says the game's idle word while the bot is gone: a game that has one)
RECONNECT = Scenario("reconnect", next(g for g in GAME_IDS if spec(g).idle), 36, ("builtin:random",), "reconnect")
FORWARD = Scenario("forward", _TABLE_GAME, 36, ("builtin:random",), "forward")
SCENARIOS = GAMES + (GUARD, CONVICTION, RECONNECT, FORWARD)
#: The scenarios each check reads (a check run alone runs only these).
CHECK_SCENARIOS = {
    "handshake": GAMES, "turns": GAMES + (GUARD,), "rearm": (GUARD,), "windows": GAMES, "courts": GAMES,
    "honest_only": (CONVICTION,), "payment": GAMES, "reconnect": (RECONNECT,), "games": GAMES,
    "forward": (FORWARD,), "budget": GAMES,
}


def table_clocks(game: str, budget: float) -> dict:
    """The table's clocks: the turn and the vote get three budgets (3 s at least), so that
    a bot that stays silent costs seconds, not minutes; the game's own (D5's «бито») 2 s at
    most; call windows as ever."""
    wait = max(3.0, 3 * budget)
    own = {o.name: o.default if o.default is None else min(o.default, 2.0) for o in game_class(game).CLOCKS}
    return {"vote_timeout": wait, "turn_timeout": wait, "tutorial": False, **own}


def open_table(server: Server, scenario: Scenario, clocks: dict) -> tuple[int, str]:
    """The scenario's table, its built-in bots in the last seats and the bot's player
    seated at BOT_SEAT before it connects, as ``pidor match`` seats one: the table's id
    and the player's token."""
    options, bots = server_options({"game": scenario.game, "players": 2 + len(scenario.bots), "deck": scenario.deck,
                                    "bots": list(scenario.bots), **clocks})
    table_id = server.store.new_table(options["game"], options, None)
    runner = TableRunner(server, table_id, options, bots)
    player, token = server.store.new_player("conform-bot")
    seat = runner.seats[BOT_SEAT]
    seat.kind, seat.player, seat.name = "human", player, "conform-bot"  # (away until it says hello)
    server.lobby.tables[table_id] = runner
    server.lobby.seat(player, table_id)
    server.run_table(runner)
    return table_id, token


class Host:
    """The kit's own seat 0: joins the table, starts the game once the bot is there,
    plays a random honest option, calls every action that broke a rule (it reads the
    server's table: it is part of the scripted server), and with ``false_call`` calls the
    bot's first callable action once. Votes «пидор»."""

    def __init__(self, client: Client, table: int, scenario: Scenario, server: Server, rng: random.Random) -> None:
        self.client, self.table, self.scenario, self.server, self.rng = client, table, scenario, server, rng
        self.false_called = False

    @classmethod
    async def open(cls, port: int, table: int, scenario: Scenario, server: Server, rng: random.Random) -> Host:
        client = await connect(port)
        await client.hello("conform-host")
        joined = await client.request({"type": "join", "table": table, "seat": KIT_SEAT})
        if joined.get("type") != "joined":
            raise RuntimeError(f"the kit could not sit at its table: {joined}")
        return cls(client, table, scenario, server, rng)

    async def play(self) -> None:
        c = self.client
        started = False
        while True:
            msg = await c.receive()
            kind = msg.get("type")
            if kind == "table" and not started:
                info = msg["table"]
                if info["state"] == "waiting" and all(s["kind"] != "vacant" and not s.get("away")
                                                      for s in info["seats"]):
                    started = True
                    await c.send({"type": "start", "id": "start"})
            elif kind == "turn" and msg.get("seat") == KIT_SEAT and msg["options"]:
                await c.send({"type": "act", "action": self.rng.choice(msg["options"]), "seq": msg["seq"]})
            elif kind == "event":
                e = msg["event"]
                if e["type"] == "window" and KIT_SEAT in e["owing"]:
                    await c.send({"type": "call" if self._calls(e) else "pass", "seq": msg["seq"]})
                elif e["type"] == "court" and KIT_SEAT in e["voters"]:
                    await c.send({"type": "vote", "guilty": True, "seq": msg["seq"]})
                elif e["type"] == "results":
                    return

    def _calls(self, window: dict) -> bool:
        runner = self.server.lobby.tables.get(self.table)
        open_ = None if runner is None or runner.table is None else runner.table.window
        if open_ is None:
            return False
        if open_.violations:
            return True
        if self.scenario.false_call and not self.false_called and window["seat"] == BOT_SEAT:
            self.false_called = True
            return True
        return False


def _seeds(label: str):
    counter = iter(range(1 << 62))

    def source(n: int) -> bytes:
        return hashlib.sha256(f"{label}:{next(counter)}".encode()).digest()[:n]

    return source


async def _hosting(host: Host, record: Record) -> None:
    try:
        await host.play()
    except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError) as e:
        record.trouble = f"the kit's seat lost its connection: {e}"


async def run_scenario(scenario: Scenario, command: list[str], *, seed: str = "conform", budget: float = 1.0,
                       timeout: float = 60.0) -> Record:
    """Play one scenario: the bot (``command``, launched as ``pidor match`` launches one)
    against a fresh server; the record of it once the bot's game is over, the bot missed
    an answer it owed, the bot exited, or ``timeout`` seconds passed."""
    record = Record(scenario.name)
    began = time.monotonic()
    server = Server(Store(":memory:"), seed_source=_seeds(f"{seed}:{scenario.name}"))
    stderr = Stderr()
    async with trio.open_nursery() as nursery:
        server_port = await nursery.start(server.run, "127.0.0.1", 0)
        relay = Relay(record, scenario.twist, scenario.game, server, server_port)
        port = await nursery.start(relay.serve)
        record.table, token = open_table(server, scenario, table_clocks(scenario.game, budget))
        record.seat, record.token = BOT_SEAT, token
        rng = random.Random(f"{seed}:{scenario.name}:host")
        host = await Host.open(server_port, record.table, scenario, server, rng)
        nursery.start_soon(_hosting, host, record)
        values = {"host": "127.0.0.1", "port": port, "table": record.table, "seat": BOT_SEAT, "token": token}
        try:
            program = await launch(nursery, command, values, stderr)
        except OSError as e:
            record.trouble = f"the bot could not be started: {e}"
        else:
            try:
                with trio.move_on_after(timeout) as scope:
                    async with trio.open_nursery() as waiting:
                        async def until(event: trio.Event) -> None:
                            await event.wait()
                            waiting.cancel_scope.cancel()

                        for event in (program.exited, relay.results, relay.missed):
                            waiting.start_soon(until, event)
                record.timed_out = scope.cancelled_caught
                record.done = relay.results.is_set()
                record.exit = None if program.running else program.process.returncode
            finally:
                program.end()
                with trio.CancelScope(shield=True):
                    await program.exited.wait()
                    with trio.move_on_after(1.0):  # (its pipe ends with it)
                        await stderr.drained.wait()
        nursery.cancel_scope.cancel()
    record.stderr = list(stderr.lines)
    record.seconds = time.monotonic() - began
    return record


async def run_conform(command: list[str], checks: list[str], *, budget: float, timeout: float, jobs: int,
                      seed: str) -> tuple[list[Result], list[Record]]:
    wanted = [s for s in SCENARIOS if any(s in CHECK_SCENARIOS[c] for c in checks)]
    records: dict[str, Record] = {}
    limit = trio.CapacityLimiter(jobs)

    async def one(scenario: Scenario) -> None:
        async with limit:
            records[scenario.name] = await run_scenario(scenario, command, seed=seed, budget=budget, timeout=timeout)

    async with trio.open_nursery() as nursery:
        for scenario in wanted:
            nursery.start_soon(one, scenario)
    ordered = [records[s.name] for s in wanted]
    scenarios = {name: [records[s.name] for s in CHECK_SCENARIOS[name]] for name in checks}
    return run_checks(checks, scenarios, budget), ordered


def _split(command: tuple[str, ...]) -> tuple[list[str], bool]:
    """The command line, and whether it is a ``stdio:`` bot's (``stdio:`` before its first
    word). One argument with spaces is a whole command line (shell-like quoting)."""
    stdio = command[0].startswith(PREFIX)
    if stdio:
        command = tuple(a for a in (command[0][len(PREFIX):], *command[1:]) if a)
    if len(command) == 1 and " " in command[0].strip():
        return shlex.split(command[0]), stdio
    return list(command), stdio


def _stderr_of(results: list[Result], records: list[Record]) -> dict[tuple[str, ...], list[str]]:
    """The last lines worth showing of the bot's stderr in the scenarios a check failed
    in, each text once: lines -> the scenarios that ended with them."""
    failed = {r.scenario for r in results if not r.passed}
    out: dict[tuple[str, ...], list[str]] = {}
    for rec in records:
        lines = tuple(telling_lines(rec.stderr, SHOWN_LINES))
        if rec.name in failed and lines:
            out.setdefault(lines, []).append(rec.name)
    return out


def _plain(value):
    """JSON for what msgpack may hold beyond it: bin values as hex."""
    return value.hex() if isinstance(value, bytes) else repr(value)


def _show(frame) -> str:
    if frame is None:
        return ""
    text = json.dumps(frame.msg, ensure_ascii=False, default=_plain) if frame.msg is not None else "(undecodable)"
    if len(text) > 200:
        text = text[:197] + "..."
    arrow = {"c2s": "bot sent", "s2c": "bot got", "drop": "kit"}[frame.dir]
    note = f" [{frame.note}]" if frame.note else ""
    return f"{arrow}{note}: {text}"


@click.command()
@click.argument("command", nargs=-1, required=True)
@click.option("--check", "checks", multiple=True, type=click.Choice([name for name, _ in CHECKS]),
              help="Run only this check (repeatable; default: all).")
@click.option("--budget", type=click.FloatRange(0.05, 30.0), default=1.0, show_default=True,
              help="Seconds the bot may take to answer a turn, a call window or a court.")
@click.option("--timeout", type=click.FloatRange(5.0, 600.0), default=60.0, show_default=True,
              help="Seconds one scenario (one game) may take.")
@click.option("--jobs", type=click.IntRange(1, 16), default=2, show_default=True,
              help="Scenarios run at once (each its own bot process and server).")
@click.option("--seed", default="conform", show_default=True, help="Seed text of the deals and the kit's seat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def conform(command, checks, budget, timeout, jobs, seed, as_json) -> None:
    """Check a bot against the protocol: run COMMAND against a scripted local server.

    \b
    COMMAND starts the bot as pidor match starts a cmd: entrant: seated at seat 1
    before it starts, with PIDOR_HOST, PIDOR_PORT, PIDOR_TABLE, PIDOR_SEAT and
    PIDOR_TOKEN in its environment ({host} {port} {table} {seat} {token} in COMMAND
    are replaced too). Its hello with the token puts it at its seat (no join); it
    plays one game, which the kit's seat 0 starts. A bot that plays matches passes
    here, and the other way round. A stdio: bot (protocol/STDIO.md) is checked as it
    plays at a server: through pidor bridge. Examples:
      pidor conform python clients/python/random_bot.py
      pidor conform -- node clients/js/random_bot.js --games 0
      pidor conform "clients/c/random_bot --games 0"
      pidor conform "stdio:python3 clients/stdio/bot.py"

    \b
    Checks: handshake; acting only on its own turn with the state guard (seq, once per
    turn); re-arming after stale and other refusals; call windows; courts; playing
    honestly after a conviction (T6); paying a mark (D12/P10); coming back after a
    dropped connection with its token; every game type and deck size; unknown fields,
    message and event types; the time budget. Each PASS or FAIL names the frame that
    went wrong; the last lines of the bot's stderr follow where one failed. Exit
    status: 0 when every check passes, 1 when one fails, 2 for a command that cannot
    be run.
    """
    argv, stdio = _split(command)
    if not argv:
        raise click.UsageError("give the bot's command, e.g. pidor conform \"stdio:python3 my_bot.py\"")
    if shutil.which(argv[0]) is None:
        raise click.UsageError(f"cannot run {argv[0]!r}: no such program (or not executable)")
    if stdio:  # (it plays through pidor bridge, as at a match's server)
        argv = [literal(a) for a in bridge_command(argv)]
    try:
        check_command(tuple(argv))
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    names = list(checks) or [name for name, _ in CHECKS]
    began = time.monotonic()
    results, records = trio.run(lambda: run_conform(argv, names, budget=budget, timeout=timeout, jobs=jobs,
                                                    seed=seed))
    seconds = time.monotonic() - began
    passed = all(r.passed for r in results)
    if as_json:
        click.echo(json.dumps({
            "command": argv, "passed": passed, "seconds": round(seconds, 2), "budget": budget,
            "checks": [r.to_dict() for r in results],
            "scenarios": [{"name": r.name, "done": r.done, "seconds": round(r.seconds, 2), "timed_out": r.timed_out,
                           "exit": r.exit, "frames": len(r.frames), "stderr": telling_lines(r.stderr, SHOWN_LINES)}
                          for r in records],
        }, ensure_ascii=False, default=_plain))
    else:
        click.echo(f"pidor conform: {shlex.join(argv)} ({len(records)} games, {seconds:.1f} s)")
        width = max(len(r.name) for r in results)
        for r in results:
            where = f"{r.scenario}: " if r.scenario else ""
            click.echo(f"{'PASS' if r.passed else 'FAIL'}  {r.name:<{width}}  {where}{r.detail}")
            if not r.passed and r.frame is not None:
                click.echo(f"      {'':<{width}}  {_show(r.frame)}")
        for lines, names in _stderr_of(results, records).items():
            click.echo(f"the bot's stderr in {', '.join(names)} ends:")
            for line in lines:
                click.echo(f"      {line}")
        click.echo(f"{sum(r.passed for r in results)} of {len(results)} checks passed")
    sys.exit(0 if passed else 1)
