"""External matches on every core (issue 29): ``--concurrency N`` with ``cmd:`` entrants
runs the match's tables in up to N server processes, as many as the machine has cores.

One local server is one Python process: with bots that cost little (the C sample bot), it
is the match's bottleneck on one core. So the games are dealt round-robin to
:func:`processes` worker processes; each plays its share with :func:`~.external.play_external`
on a server of its own (its own free port, ``--concurrency`` split among them), launching
its own ``cmd:`` programs, and sends each record back as its game ends. The runner keeps
the records (``played``) as with one server: results, logs, standings and the stop of an
SPRT or a failing entrant (the workers finish the games under way) are the same. Each game
is a pure function of the match's setup and the game (the schedule's deal and seats), so
which process played it changes nothing in its record.

One server stays when it must: a ``tcp:`` entrant (it connects to one address), a fixed
``--listen`` port, one game, or ``--concurrency 1``. A ``cmd:`` entrant's stderr file is
shared: each process appends whole lines to it (capped per process).

Ctrl-C reaches every process at a terminal; a SIGINT to the runner alone is passed on. Each
worker ends its programs and its server, and the runner raises ``KeyboardInterrupt`` once
they have all ended.

On a Ray cluster (``--ray``, :func:`play_ray`) each share is a Ray task instead: its server
and its ``cmd:`` programs run on the node Ray gives the task, so a program runs where its
table is (its command must work on every node); records come back through a Ray queue.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue as queues
import signal
from typing import Callable

from .entrants import Entrant
from .launch import telling_line
from .play import Setup
from .schedule import Game

__all__ = ["processes", "play_processes", "play_ray", "StderrSeen"]

#: Seconds between looks at the workers while no record comes.
POLL = 0.5
#: Seconds the runner gives its workers to end after Ctrl-C (then they are killed).
GRACE = 30.0


def processes(entrants: list[Entrant] | tuple[Entrant, ...], concurrency: int, games: int,
              listen: tuple[str, int]) -> int:
    """How many server processes play an external match."""
    if any(e.kind == "tcp" for e in entrants) or listen[1] != 0:
        return 1
    return max(1, min(concurrency, os.cpu_count() or 1, games))


class StderrSeen:
    """What the runner keeps of a ``cmd:`` entrant's stderr from its worker processes: the
    file and the last lines (a :class:`~.launch.Stderr`'s ``path`` and ``last()``)."""

    def __init__(self, path: str | None, lines: list[str]) -> None:
        self.path = path
        self.lines = lines

    def last(self) -> str | None:
        return telling_line(self.lines)


def _worker(k: int, setup: Setup, games: list[Game], tables: int, clock, stderr_dir, listen, out, stop) -> None:
    from .external import play_external

    def played(record: dict) -> bool:
        out.put(("record", record))
        return stop.is_set()

    try:
        stderr = play_external(setup, games, played, workers=tables, clock=clock, stderr_dir=stderr_dir,
                               listen=listen)
    except KeyboardInterrupt:
        out.put(("interrupted", k))
    except BaseException as e:  # (told to the runner, which raises it)
        try:
            pickle.dumps(e)  # (the queue pickles later, in its own thread: a failure there would be lost)
        except Exception:
            e = RuntimeError(f"{type(e).__name__}: {e}")
        out.put(("error", e))
    else:
        out.put(("done", {name: (None if err.path is None else str(err.path), list(err.lines))
                          for name, err in stderr.items()}))


def play_processes(setup: Setup, games: list[Game], played: Callable[[dict], bool], *, count: int, workers: int,
                   clock, stderr_dir, listen: tuple[str, int]) -> dict[str, StderrSeen]:
    """:func:`~.external.play_external` in ``count`` processes (see the module); each
    ``cmd:`` entrant's stderr, by name."""
    ctx = multiprocessing.get_context("fork")  # (as the in-process pool: no imports again)
    out = ctx.Queue()
    stop = ctx.Event()
    shares, tables = _shares(games, count, workers)
    procs = [ctx.Process(target=_worker, name=f"pidor-match-{k}", daemon=True,
                            args=(k, setup, shares[k], tables[k], clock, stderr_dir, listen, out, stop))
                for k in range(count)]
    for w in procs:
        w.start()
    got = _Gathered(count)
    try:
        got.gather(out, played, stop.set, lambda: sum(not w.is_alive() for w in procs))
    except KeyboardInterrupt:
        got.interrupted = True
    finally:
        if got.ended < count:  # stopped early (Ctrl-C, an error here): every worker ends its games now
            stop.set()
            for w in procs:  # (at a terminal they have SIGINT already: a second one does no harm)
                if w.is_alive() and w.pid is not None:
                    os.kill(w.pid, signal.SIGINT)
        waited = 0.0
        for w in procs:
            while w.is_alive() and (got.ended == count or waited < GRACE):
                _drain(out)  # (a worker ends only once what it put is read)
                w.join(POLL)
                waited += POLL
            if w.is_alive():
                w.kill()
                w.join()
    return got.result()


def play_ray(setup: Setup, games: list[Game], played: Callable[[dict], bool], *, address: str, count: int,
             workers: int, clock, stderr_dir, listen: tuple[str, int]) -> dict[str, StderrSeen]:
    """:func:`~.external.play_external` in ``count`` tasks on the Ray cluster at ``address``
    (see the module); each ``cmd:`` entrant's stderr, by name."""
    from .pool import ray_connected

    ray = ray_connected(address)
    from ray.util.queue import Queue

    out = Queue()
    stop = _RayStop(ray.remote(_Flag).options(num_cpus=0).remote())
    task = ray.remote(num_cpus=1)(_worker)
    shares, tables = _shares(games, count, workers)
    refs = [task.remote(k, setup, shares[k], tables[k], clock, stderr_dir, listen, out, stop) for k in range(count)]
    got = _Gathered(count)
    try:
        got.gather(out, played, stop.set, lambda: len(ray.wait(refs, num_returns=len(refs), timeout=0)[0]))
    except KeyboardInterrupt:
        got.interrupted = True
    finally:
        if got.ended < count:  # stopped early: every task ends its games now (KeyboardInterrupt in it)
            stop.set()
            for ref in refs:
                ray.cancel(ref)
        _, running = ray.wait(refs, num_returns=len(refs), timeout=GRACE)
        for ref in running:  # (as a local worker that outlives the grace is killed)
            ray.cancel(ref, force=True)
        ray.kill(stop.flag)
        out.shutdown()
    return got.result()


def _shares(games: list[Game], count: int, workers: int) -> tuple[list[list[Game]], list[int]]:
    """The games of each of ``count`` servers (round-robin) and its tables (``workers`` split)."""
    tables = [max(1, workers // count + (k < workers % count)) for k in range(count)]
    return [games[k::count] for k in range(count)], tables


class _Gathered:
    """What the runner gathers from its ``count`` workers: records (told to ``played``), and
    how each ended."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.ended = 0
        self.interrupted = False
        self.error: BaseException | None = None
        self.stderr: dict[str, StderrSeen] = {}
        self._lines: dict[str, list[str]] = {}

    def gather(self, out, played: Callable[[dict], bool], stop: Callable[[], None], dead: Callable[[], int]) -> None:
        """Read ``out`` until every worker has ended (``dead()``: how many have stopped running)."""
        while self.ended < self.count:
            try:
                kind, payload = out.get(timeout=POLL)
            except queues.Empty:
                if dead() > self.ended and out.empty():
                    self.error = self.error or RuntimeError("a match worker process died without a word")
                    return
                continue
            if kind == "record":
                if played(payload):
                    stop()
                continue
            self.ended += 1
            if kind == "done":
                for name, (path, last) in payload.items():
                    lines = self._lines.setdefault(name, [])
                    lines.extend(last)
                    self.stderr[name] = StderrSeen(path, lines)
            elif kind == "interrupted":
                self.interrupted = True
                stop()
            else:
                self.error = self.error or payload
                stop()

    def result(self) -> dict[str, StderrSeen]:
        if self.interrupted:
            raise KeyboardInterrupt
        if self.error is not None:
            raise self.error
        return self.stderr


class _Flag:
    """The Ray actor that holds a match's stop (a :class:`multiprocessing.Event`'s part)."""

    def __init__(self) -> None:
        self.on = False

    def set(self) -> None:
        self.on = True

    def is_set(self) -> bool:
        return self.on


class _RayStop:
    """An event's ``set`` and ``is_set`` over a :class:`_Flag` actor (picklable: a task gets it)."""

    def __init__(self, flag) -> None:
        self.flag = flag

    def set(self) -> None:
        self.flag.set.remote()

    def is_set(self) -> bool:
        import ray

        return ray.get(self.flag.is_set.remote())


def _drain(out) -> None:
    try:
        while True:
            out.get_nowait()
    except queues.Empty:
        pass
