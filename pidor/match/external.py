"""External bots (``cmd:``, ``tcp:``) on a local server: the match's tables, seats and
clocks.

The runner starts one :class:`~pidor.server.app.Server` in this process, listening on a
free loopback port (``--listen``), and opens ``--concurrency`` tables of its own
(:class:`~pidor.match.house.MatchTable`: a server table with the match's
:class:`~pidor.match.house.MatchHooks`, the
:class:`~pidor.server.hooks.TableHooks` of a table the runner seats and starts). Each table
plays the games it is handed one after another, each at a fresh game table (no mark, no
previous game), on the deal the schedule gives:

* every external seat of a game gets an **instance** of its entrant: a player (a token)
  and, for ``cmd:``, a process launched with ``PIDOR_HOST``, ``PIDOR_PORT``,
  ``PIDOR_TABLE``, ``PIDOR_SEAT``, ``PIDOR_TOKEN`` (and the ``{…}`` placeholders). The
  player is seated before it connects: its ``hello`` with the token puts it back at that
  seat (``welcome.table``), so it needs no ``join``. A ``tcp:`` entrant has one instance,
  the token it was given; its games wait for it.
* an instance stays seated from game to game, at whatever table and seat the schedule
  gives next: it sees the new seat in the ``snapshot`` at the start of each game (the SDK's
  ``Bot`` follows it). A program that exits after a game (``--games 1``: it says
  ``leave``) is not seated on that connection again but launched afresh for its next
  game, or at once if its leave came after that game began (the seat is away meanwhile).
* the turn clock (``--move-time``, default :data:`DEFAULT_MOVE_TIME`; ``--game-time`` for
  all of a game's turns) is the server's: a seat whose clock runs out, whose connection
  breaks (``crash``) or closes on a protocol error (``garbage``, as do
  :data:`~pidor.match.house.MAX_REFUSED` malformed requests in one game), or whose bot never came
  (``absent``), or that said ``leave`` during the game and is not back in time (``left``),
  **forfeits** the game: an honest stand-in plays the seat to the end (its
  actions logged ``auto: "forfeit"``), the record's ``forfeits`` and the log's footer say
  which seat and why. A ``cmd:`` program that forfeited is stopped and launched afresh for
  its next game.
* each ``cmd:`` entrant's programs are launched as :mod:`pidor.match.launch` says, each
  in a process group of its own, ended with it (what it forked too) when the program is
  stopped; their stderr goes to ``DIR/<entrant>.stderr`` (``--stderr``), capped.
* while it waits for a bot to come, the runner says so on stderr every
  :data:`REPORT_EVERY` seconds (what it waits for, and for how long yet).
* a player's token seats it at the match's tables and nothing more: the match's server
  refuses ``create`` (``server_full``) and ``watch`` (``spectators_full``: a rotated match
  plays a deal at several tables), its tables ``seed`` (``not_host``: the match's seed
  makes the deals). The server lives as long as the match, its store in memory.
* Ctrl-C (SIGINT) stops the match: the games under way are dropped, every program is
  ended, and :func:`play_external` raises ``KeyboardInterrupt``.

The call window, the court's vote, «бито» (D5) and the trick's display (P14) last at most
the move time here, so that a bot that does not answer costs no more than a slow move.
"""

from __future__ import annotations

import logging
import re
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import trio

from ..engine.table import TABLE_OPTIONS
from ..games import game_class
from ..server.app import Server, server_gc
from .entrants import Entrant
from .house import MatchServer, MatchTable, Planned
from .launch import DEFAULT_MOVE_TIME, Program, Stderr, launch
from .play import Setup
from .record import log_path, new_record, server_seed, standin_seed
from .schedule import Game

__all__ = ["play_external", "CONNECT_TIME"]

log = logging.getLogger(__name__)

#: Seconds a bot has to connect and sit before its game starts without it.
CONNECT_TIME = 30.0
#: While the runner waits for a bot to come, it says so every this many seconds.
REPORT_EVERY = 5.0
#: Seconds the programs have to end after SIGTERM at the end of a match (then SIGKILL).
STOP_GRACE = 5.0


@dataclass(eq=False)
class Instance:
    """One connection of an external entrant: its player, and for ``cmd:`` its program
    (the latest launched)."""

    entrant: Entrant
    player: int
    token: str
    program: Program | None = None
    busy: bool = False

    @property
    def running(self) -> bool:
        return self.program is not None and self.program.running


class Hub:
    """The match on the local server: instances, launches and the tables' games."""

    def __init__(self, server: Server, setup: Setup, clock, stderr_dir, host: str, port: int,
                 played: Callable[[dict], bool]) -> None:
        self.server = server
        self.setup = setup
        self.clock = clock
        self.host, self.port = host, port
        self.played = played
        self.stopped = False  # the SPRT decided: no more games
        self.instances: dict[str, list[Instance]] = {}
        self.gone: set = set()  # connections that said leave
        self.freed = trio.Event()
        self.stderr: dict[str, Stderr] = {}  # each cmd: entrant's, by name
        self.stderr_dir = None if stderr_dir is None else Path(stderr_dir)
        move = clock.move
        options = dict(setup.options)
        for o in TABLE_OPTIONS + game_class(options["game"]).CLOCKS:  # every clock, the move's at most
            if o.kind == "seconds" and options[o.name] is not None:
                options[o.name] = min(options[o.name], move)
        options["turn_timeout"] = move
        options["tutorial"] = False
        self.options = options
        for e in setup.entrants:
            if e.kind == "tcp" and e.name not in self.instances:
                player, token = server.store.new_player(e.name, e.token)
                self.instances[e.name] = [Instance(e, player, token)]

    def open_table(self) -> MatchTable:
        table_id = self.server.store.new_table(self.options["game"], self.options, None)
        table = MatchTable(self.server, table_id, self.options, self.clock, self.gone)
        self.server.lobby.tables[table_id] = table
        self.server.run_table(table)
        return table

    async def _acquire(self, entrants: list[Entrant]) -> list[Instance | None]:
        """An instance for each external seat, all at once (a ``tcp:`` one may be busy
        at another table: then wait for it; ``cmd:`` ones are made as needed)."""
        while True:
            chosen: list[Instance | None] = []
            for e in entrants:
                if not e.external:
                    chosen.append(None)
                    continue
                pool = self.instances.setdefault(e.name, [])
                free = next((i for i in pool if not i.busy and i not in chosen), None)
                if free is None and e.kind == "cmd":
                    player, token = self.server.store.new_player(e.name)
                    free = Instance(e, player, token)
                    pool.append(free)
                chosen.append(free)
            if all(c is not None for c, e in zip(chosen, entrants) if e.external):
                for c in chosen:
                    if c is not None:
                        c.busy = True
                return chosen
            self.freed = trio.Event() if self.freed.is_set() else self.freed
            await self.freed.wait()

    def _release(self, chosen: list[Instance | None]) -> None:
        for c in chosen:
            if c is not None:
                c.busy = False
        self.freed.set()

    async def _launch(self, nursery: trio.Nursery, inst: Instance, table: MatchTable, seat: int) -> None:
        e = inst.entrant
        values = {"host": self.host, "port": self.port, "table": table.id, "seat": seat, "token": inst.token}
        try:
            inst.program = await launch(nursery, e.argv, values, self._stderr(e))
        except OSError as error:
            log.warning("cannot launch %s: %s", e.name, error)
            self._stderr(e).write(f"pidor match: cannot launch it: {error}\n".encode())
            inst.program = None

    def _stderr(self, e: Entrant) -> Stderr:
        if e.name not in self.stderr:
            safe = re.sub(r"[^A-Za-z0-9_.#-]", "_", e.name)
            self.stderr[e.name] = Stderr(None if self.stderr_dir is None else self.stderr_dir / f"{safe}.stderr")
        return self.stderr[e.name]

    async def _seat(self, nursery: trio.Nursery, table: MatchTable, index: int, inst: Instance, game: int) -> bool:
        """Seat the instance and wait until it is there (launched again once if its
        program exits first); ``False`` if it does not come: it forfeits at the start. One
        that said ``leave`` (it plays N games, then exits) is not seated on that
        connection: it is launched again once it exits."""
        cmd = inst.entrant.kind == "cmd"
        present = trio.Event()
        table.submit(("seat", self.server.lobby.online.get(inst.player) if inst.running or not cmd else None,
                      inst.player, (index, present)))
        for _ in range(2):
            if cmd and not inst.running:
                await self._launch(nursery, inst, table, index)
            if inst.running or not cmd:  # (not one that could not be launched)
                with trio.move_on_after(CONNECT_TIME):
                    async with trio.open_nursery() as race:
                        async def until(event: trio.Event) -> None:
                            await event.wait()
                            race.cancel_scope.cancel()

                        race.start_soon(until, present)
                        if cmd:
                            race.start_soon(until, inst.program.exited)
                        race.start_soon(self._report, inst, game, index, trio.current_time())
            if present.is_set():
                return True
            if not cmd or inst.running:
                return False
        return False

    async def _report(self, inst: Instance, game: int, seat: int, since: float) -> None:
        """Say on stderr what the match waits for, every REPORT_EVERY seconds: whom, what
        the server sees (connections without a hello, or closed for saying none in time),
        and how long yet."""
        e = inst.entrant
        lobby = self.server.lobby
        closed_before = lobby.hello_timeouts
        while True:
            await trio.sleep(REPORT_EVERY)
            waited = trio.current_time() - since
            if e.kind == "cmd":
                who = f"{e.name} (pid {inst.program.pid})" if inst.program is not None else e.name
                what = f"{who} to say hello with its token"
            else:
                what = f"{e.name} (tcp:) to connect to {self.host}:{self.port} and say hello with its token"
            silent = sum(1 for c in self.server.connections if c.player is None and not c.closed)
            closed = lobby.hello_timeouts - closed_before
            seen = [f"{n} connection{'s' if n != 1 else ''} {said}" for n, said in (
                (silent, "to the match's server said no hello yet"),
                (closed, f"closed for saying none within {self.server.limits.HELLO_TIMEOUT:g} s")) if n]
            log.warning("game %d, seat %d: waiting %.0f s for %s; %s; it forfeits the game (absent) in %.0f s",
                        game + 1, seat, waited, what,
                        ", ".join(seen) or "no connection to the match's server waits for a hello",
                        max(0.0, CONNECT_TIME - waited))

    async def _rejoin(self, nursery: trio.Nursery, table: MatchTable, plan: Planned, chosen: list) -> None:
        """Launch again, at once, each program that left during its game (once it exits)."""
        async for s in plan.rejoin[1]:
            inst = chosen[s]
            if inst.entrant.kind == "cmd" and inst.program is not None:
                with trio.move_on_after(CONNECT_TIME):
                    await inst.program.exited.wait()
                if not inst.running:
                    await self._launch(nursery, inst, table, s)

    async def slot(self, nursery: trio.Nursery, table: MatchTable, games) -> None:
        """Play games from ``games`` at ``table`` until there are none left."""
        setup = self.setup
        for game in games:
            if self.stopped:
                break
            entrants = [setup.entrants[e] for e in game.seating]
            chosen = await self._acquire(entrants)
            n = len(entrants)
            seed = server_seed(setup.base, game.deal)
            plan = Planned(game, new_record(self.options, game.index, game.deal, seed, [e.name for e in entrants]),
                           log_path(setup.logs, self.options["game"], game.index), entrants,
                           [None if c is None else c.player for c in chosen], seed,
                           [standin_seed(setup.base, game.index, s) for s in range(n)])
            table.hooks.planned = plan
            for s in range(n):
                if chosen[s] is None:
                    table.submit(("seat", None, None, (s, trio.Event())))
            if plan.path is not None:
                Path(plan.path).unlink(missing_ok=True)  # an interrupted run's log of this game
            seats = [s for s, inst in enumerate(chosen) if inst is not None]
            retry = set(seats)  # each seat is seated again at most once, if its bot went after it came
            while True:
                came: dict[int, bool] = {}

                async def seat(s: int) -> None:
                    came[s] = await self._seat(nursery, table, s, chosen[s], game.index)

                async with trio.open_nursery() as seating:
                    for s in seats:
                        seating.start_soon(seat, s)
                retry -= {s for s, ok in came.items() if not ok}  # (waiting again would cost as much for nothing)
                plan.checked = trio.Event()
                table.submit(("begin", None, None, frozenset(retry)))
                await plan.checked.wait()
                if plan.started:
                    break
                seats = plan.missing
                retry -= set(seats)
            async with trio.open_nursery() as game:
                game.start_soon(self._rejoin, nursery, table, plan, chosen)
                await plan.over.wait()
                game.cancel_scope.cancel()
            for f in plan.record["forfeits"]:
                inst = chosen[f["seat"]]
                if inst.running:
                    inst.program.end()  # a bot that hung or misbehaved starts afresh
                    await inst.program.exited.wait()
            self._release(chosen)
            if self.played(plan.record):
                self.stopped = True

    async def stop(self) -> None:
        """End every program with what it started (SIGTERM, then SIGKILL after
        STOP_GRACE seconds), then write and close the stderr files."""
        programs = [inst.program for pool in self.instances.values() for inst in pool if inst.program is not None]
        for program in programs:
            program.end(signal.SIGTERM)
        with trio.move_on_after(STOP_GRACE):
            for program in programs:
                await program.exited.wait()
        for program in programs:
            program.end()
        with trio.move_on_after(STOP_GRACE):  # (SIGKILL: at once)
            for program in programs:
                await program.exited.wait()
        with trio.move_on_after(1.0):  # (their pipes end with them)
            for err in self.stderr.values():
                await err.drained.wait()
        for err in self.stderr.values():
            err.close()


async def _run(setup: Setup, games: list[Game], played, workers: int, clock, stderr_dir, listen) -> Hub | None:
    """The hub once every game is played, ``None`` when SIGINT stopped the match."""
    server = MatchServer()
    interrupted = False
    with trio.open_signal_receiver(signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            async def interrupt() -> None:
                nonlocal interrupted
                async for _ in signals:
                    interrupted = True
                    nursery.cancel_scope.cancel()

            nursery.start_soon(interrupt)
            port = await nursery.start(server.run, *listen)
            hub = Hub(server, setup, clock, stderr_dir, listen[0] if listen[0] not in ("", "0.0.0.0", "::") else
                      "127.0.0.1", port, played)
            if any(e.kind == "tcp" for e in setup.entrants):
                log.warning("waiting for tcp: bots at %s:%s", listen[0], port)
            todo = iter(games)
            try:
                async with trio.open_nursery() as slots:
                    for _ in range(min(workers, len(games))):
                        slots.start_soon(hub.slot, nursery, hub.open_table(), todo)
            finally:
                with trio.CancelScope(shield=True):
                    await hub.stop()
                    await server.shutdown(grace=0.1 if interrupted else 1.0)
            nursery.cancel_scope.cancel()
    return None if interrupted else hub


def play_external(setup: Setup, games: list[Game], played: Callable[[dict], bool], *, workers: int, clock,
                  stderr_dir, listen: tuple[str, int]) -> dict[str, Stderr]:
    """Play ``games`` on a local server; ``played(record)`` as each ends (in any order),
    until it returns ``True`` (the games under way are finished). Returns each ``cmd:``
    entrant's :class:`Stderr` (closed), by name; raises ``KeyboardInterrupt`` when SIGINT
    stopped the match (every program ended)."""
    if clock.move is None:
        clock = type(clock)(DEFAULT_MOVE_TIME, clock.game)
    with server_gc():  # (the local server collects as `pidor serve` does)
        hub = trio.run(_run, setup, games, played, workers, clock, stderr_dir, listen)
    if hub is None:
        raise KeyboardInterrupt
    return hub.stderr
