"""``stdio:`` entrants in a match without a local server: their games are played in this
process, by ``--concurrency`` threads, each with a :class:`Stable` of bots of its own.

* A thread launches a bot of an entrant when a game needs one more than it has idle
  (:class:`~pidor.stdio.seat.StdioBot`: started, hello said), and keeps it from game to game,
  whatever seat it plays next (``start`` says which). A bot that forfeited is ended; the
  next game launches a fresh one. When the thread has no game left its bots get ``quit``.
* Each entrant's bots write their stderr to one capped file (``DIR/<entrant>.stderr``,
  :class:`~pidor.match.launch.Stderr`), and why a bot forfeited goes there too, as a line
  ``pidor match: game N, seat S: forfeits (REASON): WHAT IT DID``.
* The host's clock is the match's: ``--move-time`` (default
  :data:`~pidor.match.launch.DEFAULT_MOVE_TIME`) for each answer, ``--game-time`` for
  all of a game's.
* Records come out as games end (in any order); on Ctrl-C (``KeyboardInterrupt`` in the
  main thread) every bot is killed at once, the games under way are cut off (their logs
  left unfinished, as a killed worker's: no stand-in plays them out) and every thread is
  joined before the interrupt goes on.

The engine is pure Python, so the threads share one core for it; the bots are processes
of their own, and a thread waiting on one lets the others run.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..bots.policy import Policy
from ..stdio.program import QUIT_GRACE, BotProgram, Failed
from ..stdio.seat import Clock, StdioBot, StdioPolicy
from .entrants import Entrant
from .launch import Stderr
from .schedule import Game

__all__ = ["Stable", "Stopped", "play_threads", "stderr_files"]


class Stopped(Exception):
    """The match was interrupted: the game under way is cut off, not played out."""


def stderr_files(entrants: Iterable[Entrant], directory) -> dict[str, Stderr]:
    """A :class:`Stderr` for each ``stdio:`` entrant, by name: ``DIR/<entrant>.stderr``
    (``directory`` ``None``: kept in memory only)."""
    out = {}
    for e in entrants:
        if e.kind == "stdio" and e.name not in out:
            safe = re.sub(r"[^A-Za-z0-9_.#-]", "_", e.name)
            out[e.name] = Stderr(None if directory is None else Path(directory) / f"{safe}.stderr")
    return out


class Stable:
    """One thread's ``stdio:`` bots, by entrant name: idle ones wait for their next game."""

    def __init__(self, clock: Clock, stderr: dict[str, Stderr]) -> None:
        self.clock = clock
        self.stderr = stderr
        self.idle: dict[str, list[StdioBot]] = {}
        self.programs: list[BotProgram] = []  # every program launched and not yet ended
        self._lock = threading.Lock()  # (kill() comes from another thread)
        self.killed = False

    def seat(self, e: Entrant, seat: int, seed: bytes, standin: Policy, forfeit) -> StdioPolicy:
        """The seat's policy for a game: an idle bot of ``e``, or a new one; one that cannot
        be launched forfeits the game at once (``forfeit(seat, reason, detail)``)."""
        pool = self.idle.setdefault(e.name, [])
        bot = pool.pop() if pool else None
        failed = None
        if bot is None:
            try:
                bot = self._launch(e)
            except Failed as f:
                failed = f
        policy = StdioPolicy(seat, seed, bot, self.clock, standin=standin, on_forfeit=forfeit)
        if failed is not None:
            policy.forfeit(failed)
        return policy

    def _launch(self, e: Entrant) -> StdioBot:
        program = BotProgram(e.argv, self.stderr[e.name])
        with self._lock:
            if self.killed:
                raise Failed("crash", "the match was interrupted")
            self.programs = [p for p in self.programs if not p.ended]
            self.programs.append(program)
        return StdioBot.launch(program)

    def done(self, e: Entrant, policy: StdioPolicy, result: dict | None) -> None:
        """The game is over (``result``; ``None``: it was cut off): ``end`` for the bot, then
        it waits for its next game, unless it failed."""
        if result is not None and policy.end(result):
            self.idle.setdefault(e.name, []).append(policy.bot)
        elif policy.bot is not None:
            policy.bot.program.end()

    def forfeited(self, e: Entrant, index: int, seat: int, reason: str, detail: str) -> None:
        """Say why in the entrant's stderr; :class:`Stopped` if the bot failed because the
        match was interrupted (then nobody forfeits)."""
        if self.killed:
            raise Stopped
        self.stderr[e.name].write(f"pidor match: game {index + 1}, seat {seat}: forfeits ({reason}): {detail}\n"
                                  .encode())

    def close(self) -> None:
        """``quit`` to every idle bot (it has :data:`QUIT_GRACE` seconds to exit), then end all."""
        idle = [bot.program for pool in self.idle.values() for bot in pool]
        deadline = time.monotonic() + (0.0 if self.killed else QUIT_GRACE)
        for program in idle:
            program.quit(deadline)
        for program in idle:
            program.end(deadline)
        for program in self.programs:
            program.end()

    def kill(self) -> None:
        """From another thread: kill every bot now (a thread waiting on one wakes up)."""
        with self._lock:
            self.killed = True
            programs = list(self.programs)
        for program in programs:
            program.kill()


def play_threads(play: Callable[[Game, Stable], dict], games: list[Game], workers: int, clock: Clock,
                 stderr: dict[str, Stderr]) -> Iterator[dict]:
    """The records of ``games`` as they end, each made by ``play`` (the match's:
    :func:`pidor.match.play.play` with its setup) in one of ``workers`` threads. Closing the
    iterator early lets the games under way end (their records are dropped)."""
    todo = iter(games)
    take = threading.Lock()
    out: queue.Queue = queue.Queue()
    stop = threading.Event()
    stables = [Stable(clock, stderr) for _ in range(min(workers, len(games)))]

    def work(stable: Stable) -> None:
        try:
            while not stop.is_set():
                with take:
                    game = next(todo, None)
                if game is None:
                    break
                out.put(play(game, stable))
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            out.put(e)
        finally:
            stable.close()
            out.put(None)

    threads = [threading.Thread(target=work, args=(s,), name=f"match-{k}", daemon=True) for k, s in enumerate(stables)]
    for t in threads:
        t.start()
    running = len(threads)
    try:
        while running:
            item = out.get()
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            elif not stop.is_set():
                yield item
    except GeneratorExit:  # (the match stops early: the games under way end as they will)
        raise
    except BaseException:
        stop.set()
        for s in stables:
            s.kill()
        raise
    finally:
        stop.set()
        for t in threads:
            t.join()
