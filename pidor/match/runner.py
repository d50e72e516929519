"""A match from start to summary: entrants and schedule, then every game not yet played
(in-process through :mod:`pidor.match.pool`; with ``stdio:`` bots, by threads of this
process, :mod:`pidor.match.stdio`; or on a local server when an entrant is an external
program, :mod:`pidor.match.external`, where a ``stdio:`` bot plays through ``pidor
bridge``), one record each (:mod:`pidor.match.record`),
appended to ``--results``; the summary is computed from all the records in game order, so
it is the same however the games were spread, and after ``--resume``.

A match stops early when an entrant forfeits the first ``max_forfeits`` games it plays in
a row (:class:`EntrantFailing`: a bot that cannot start or play is no player to rate), and
on Ctrl-C (:class:`MatchInterrupted`: the games finished so far are in ``--results``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Callable

from ..bots.specs import check_plays
from ..engine.table import table_options
from ..stdio import bridge_command
from ..stdio.seat import Clock
from .entrants import Entrant, name_entrants, parse_entrant
from .launch import DEFAULT_MOVE_TIME, literal
from .play import Setup, play
from .pool import play_all
from .record import match_base, server_seed
from .schedule import Game, schedule
from .stdio import play_threads, stderr_files
from .stats import RANKINGS, Sprt, SprtTest, summarize
from .summary import match_summary

__all__ = ["Interim", "MatchResult", "run_match", "DEFAULT_SPEC", "MAX_FORFEITS", "MatchError", "MatchFailed", "EntrantFailing",
           "MatchInterrupted", "read_results"]

DEFAULT_SPEC = "builtin:random"
#: An entrant that forfeits this many games in a row from its first stops the match.
MAX_FORFEITS = 3


class MatchError(ValueError):
    """A match that cannot be run as asked: the options do not fit together, or a
    ``--resume`` file is another match's (one line for the user; a usage error)."""


class MatchFailed(RuntimeError):
    """A match that could not go on (a file it cannot read or write, a server that cannot
    listen); one line for the user."""


class EntrantFailing(RuntimeError):
    """An entrant forfeited its first games in a row (``max_forfeits``): the match stopped
    (the games under way were finished and recorded). One line for the user."""


class MatchInterrupted(Exception):
    """Ctrl-C: ``done`` of the match's ``total`` games are recorded (in ``results``, when
    given); every program the match started has ended."""

    def __init__(self, done: int, total: int, results: str | os.PathLike | None) -> None:
        super().__init__(f"interrupted after {done} of {total} games")
        self.done, self.total, self.results = done, total, results


def _interrupted(e: BaseException) -> bool:
    """``e`` is Ctrl-C's ``KeyboardInterrupt``, alone or in groups (as trio may raise it)."""
    return isinstance(e, KeyboardInterrupt) or isinstance(e, BaseExceptionGroup) and (
        e.split(KeyboardInterrupt)[1] is None)


@dataclass
class TimeControl:
    """``move``: seconds for each obliged action; ``game``: seconds in all for one game's
    actions (either ``None``: no limit). Enforced by the server's turn clock for external
    entrants."""

    move: float | None = None
    game: float | None = None


@dataclass
class Interim:
    """A match under way, after each game (``run_match``'s ``progress``): ``done`` of its
    ``total`` games recorded (``resumed`` of them by an earlier run), the SPRT's status if
    one runs, and :meth:`summary` of the games so far (computed when asked)."""

    done: int
    total: int
    resumed: int
    sprt: dict | None
    records: dict[int, dict]
    pair: tuple[str, str] | None
    rank_by: str

    def summary(self) -> dict:
        return summarize([self.records[i] for i in sorted(self.records)], self.pair, self.rank_by)


@dataclass
class MatchResult:
    summary: dict
    records: list[dict] = field(default_factory=list)  # every game's, in game order
    logs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return self.summary


def read_results(path: str | os.PathLike) -> list[dict]:
    """The records of a results file; a last line cut short (a match killed while it
    wrote) is left out. ``MatchError`` when a whole line is not a record."""
    records = []
    try:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    except OSError as e:
        raise MatchFailed(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise MatchError(f"{path} is not a results file (not UTF-8 text)") from None
    for k, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if k == len(lines) - 1:
                break  # the torn last line of a killed run
            raise MatchError(f"{path}, line {k + 1}: not a JSON record") from None
        if not isinstance(record, dict) or type(record.get("index")) is not int:
            raise MatchError(f"{path}, line {k + 1}: not a game record")
        records.append(record)
    return records


def _check_resumed(records: list[dict], plan: list[Game], entrants: list[Entrant], base: bytes,
                   options: dict, path) -> dict[int, dict]:
    """The records of ``path`` by game index, each checked against the schedule: same
    game, deal and seating, or it is another match's file."""
    done: dict[int, dict] = {}
    for r in records:
        i = r["index"]
        if not 0 <= i < len(plan):
            raise MatchError(f"{path}: game {i} is not a game of this match ({len(plan)} games)")
        g = plan[i]
        want = (options["game"], options["players"], g.deal, server_seed(base, g.deal).hex(),
                [entrants[e].name for e in g.seating])
        got = (r.get("game"), r.get("players"), r.get("deal"), r.get("seed"), r.get("seating"))
        if got != want:
            raise MatchError(f"{path} is from another match: its game {i} is not this match's "
                             "(other seed, entrants, seats or options)")
        done[i] = r
    return done


class _SprtCheck:
    """The SPRT of the first entrant against the second, fed the finished games in index
    order from game 0 and checked after each one (so it stops at the same game however
    the games were spread over workers)."""

    def __init__(self, sprt: Sprt, plan: list[Game], entrants: list[Entrant], rotate: bool, done: dict) -> None:
        # With rotation an outcome is a deal: the games of one deal where both sit.
        first = [g for g in plan if g.deal == 0 and {0, 1} <= set(g.seating)]
        self.test = SprtTest(sprt, entrants[0].name, entrants[1].name, len(first) if rotate else 1)
        self.done = done
        self.prefix = 0  # games 0 .. prefix-1 are fed to the test
        self.decided_at: int | None = None

    def status(self) -> dict:
        return self.test.status()

    def decided(self) -> bool:
        while self.decided_at is None and self.prefix in self.done:
            self.test.add(self.done[self.prefix])
            self.prefix += 1
            if self.test.status()["decision"] != "continue":
                self.decided_at = self.prefix
        return self.decided_at is not None


class _ForfeitWatch:
    """Whether an entrant forfeited the first ``limit`` games it played in this run, all of
    them (0: never asked). Games are taken as they end; one game it played to its end
    clears it for good."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.cleared: set[str] = set()
        self.reasons: dict[str, list[str]] = {}  # entrant -> why it forfeited each game so far
        self.failed: str | None = None  # the first entrant that reached the limit

    def add(self, record: dict) -> bool:
        """Take a finished game; ``True`` once an entrant has failed."""
        forfeited = {f["seat"]: f["reason"] for f in record["forfeits"]}
        for seat, name in enumerate(record["seating"]):
            if not self.limit or name in self.cleared:
                continue
            if seat not in forfeited:
                self.cleared.add(name)
                self.reasons.pop(name, None)
                continue
            reasons = self.reasons.setdefault(name, [])
            reasons.append(forfeited[seat])
            if len(reasons) >= self.limit and self.failed is None:
                self.failed = name
        return self.failed is not None

    def message(self, stderr: dict) -> str:
        name = self.failed
        reasons = self.reasons[name]
        why = ", ".join(f"{r} {reasons.count(r)}" for r in sorted(set(reasons)))
        err = stderr.get(name)
        if err is None:
            said = ""
        elif err.last() is not None:
            said = f"; its stderr ({err.path}): {err.last()}"
        else:
            said = f"; its stderr ({err.path}) is empty"
        return (f"stopped: {name} forfeited its first {len(reasons)} games ({why}){said}. Fix it, or give "
                "--max-forfeits 0 to play on with its stand-in")


def _prepare_results(path: str | os.PathLike, resume: bool) -> None:
    """A new results file must not overwrite one; a resumed one loses its torn last line."""
    p = Path(path)
    if not resume:
        if p.exists() and p.stat().st_size:
            raise MatchError(f"{p} exists: --resume {p} to continue that match, or choose another file")
        return
    data = p.read_bytes()
    if data and not data.endswith(b"\n"):
        p.write_bytes(data[:data.rfind(b"\n") + 1])


def run_match(
    game: str,
    players: int | None,
    games: int,
    *,
    options: dict | None = None,
    seed: str = "0",
    specs: list[str] | None = None,
    entrants: list[Entrant] | None = None,
    seat_seeds: list[bytes | None] | None = None,
    logs: str | os.PathLike | None = None,
    rotate: bool = False,
    concurrency: int = 1,
    ray: str | None = None,
    results: str | os.PathLike | None = None,
    resume: bool = False,
    clock: TimeControl | None = None,
    stderr_dir: str | os.PathLike | None = None,
    listen: tuple[str, int] = ("127.0.0.1", 0),
    sprt: Sprt | None = None,
    max_forfeits: int = MAX_FORFEITS,
    rank_by: str = "loss",
    progress: Callable[[Interim], None] | None = None,
    keep_policies: bool = False,
) -> MatchResult:
    """Play a match of ``game`` with ``options`` (the game's: ``deck``, ``teams``…, and its
    clocks). Entrants come from ``entrants`` or seat ``specs`` (one per seat in
    order), filled up with ``builtin:random``. ``results``: append one JSON record per game
    (``resume``: the file holds an interrupted run of this match; its games are not played
    again). ``sprt``: stop early once the SPRT of the first entrant against the second
    decides, checked on the games in index order (a deal's games together with
    ``rotate``). ``max_forfeits``: raise :class:`EntrantFailing` once an entrant has
    forfeited that many games in a row from its first (0: never). ``rank_by``: how the
    summary ranks the entrants (:data:`~pidor.match.stats.RANKINGS`). ``progress`` gets an
    :class:`Interim` after each game played. ``keep_policies``: each in-process entrant's
    policy object plays all its games of a process (:meth:`Policy.new_game`), so it may
    learn between them; the games then depend on their order, the same for the same seed at
    ``concurrency`` 1 only. Ctrl-C raises :class:`MatchInterrupted`."""
    if rank_by not in RANKINGS:
        raise MatchError(f"--rank-by is one of {', '.join(RANKINGS)}, not {rank_by!r}")
    try:
        given = {} if players is None else {"players": players}  # (None: the game's default)
        options = table_options({**(options or {}), "game": game, **given})
    except ValueError as e:
        raise MatchError(str(e)) from None
    n = options["players"]
    entrants = list(entrants or []) + [parse_entrant(s) for s in specs or []]
    if specs and len(specs) > n:
        raise MatchError(f"{len(specs)} seat specs for {n} players")
    entrants += [parse_entrant(DEFAULT_SPEC) for _ in range(n - len(entrants))]
    try:
        entrants = name_entrants(entrants)
        for e in entrants:  # a policy that does not play the game is refused at once
            if e.kind in ("builtin", "py"):
                check_plays(e.params, game)
    except ValueError as e:
        raise MatchError(str(e)) from None
    if keep_policies and any(e.external for e in entrants):
        raise MatchError("--keep-policies keeps in-process policies: with cmd: or tcp: entrants the built-in bots "
                         "play at the match's server, a new one each game")
    if any(e.external for e in entrants):  # a stdio: bot at the match's server plays through pidor bridge
        entrants = [replace(e, kind="cmd", argv=tuple(map(literal, bridge_command(e.argv))))
                    if e.kind == "stdio" else e for e in entrants]
    elif ray is not None and any(e.kind == "stdio" for e in entrants):
        raise MatchError("stdio: bots play in this process: --ray plays built-in and py: entrants only")
    if ray is not None and (any(e.kind == "tcp" for e in entrants) or listen[1] != 0):
        raise MatchError("--ray plays each table's server on a node of the cluster: a tcp: entrant (which connects "
                         "to one address) or a fixed --listen port cannot follow it")
    seat_seeds = list(seat_seeds or [])
    if len(seat_seeds) > n:
        raise MatchError(f"{len(seat_seeds)} seat seeds for {n} players")
    seat_seeds += [None] * (n - len(seat_seeds))
    try:
        plan = schedule(len(entrants), n, games, rotate)
    except ValueError as e:
        raise MatchError(str(e)) from None
    base = match_base(seed)
    done: dict[int, dict] = {}
    if resume:
        done = _check_resumed(read_results(results), plan, entrants, base, options, results)
    if results is not None:
        _prepare_results(results, resume)
    if logs is not None:
        Path(logs).mkdir(parents=True, exist_ok=True)
    setup = Setup(options, tuple(entrants), base, tuple(seat_seeds), None if logs is None else str(logs),
                  keep_policies)
    todo = [g for g in plan if g.index not in done]
    test = None if sprt is None else _SprtCheck(sprt, plan, entrants, rotate, done)
    pair = None if sprt is None else (entrants[0].name, entrants[1].name)
    resumed = len(done)
    forfeits = _ForfeitWatch(max_forfeits)
    stderr: dict = {}  # each cmd: entrant's Stderr, by name
    out = None if results is None else open(results, "a", encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        def played(record: dict) -> bool:
            """Keep a finished game; ``True`` once the SPRT or a failing entrant says stop."""
            done[record["index"]] = record
            if out is not None:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                out.flush()
            stop = forfeits.add(record) or test is not None and test.decided()
            if progress is not None:
                progress(Interim(len(done), len(plan), resumed, None if test is None else test.status(), done, pair,
                                 rank_by))
            return stop

        if any(e.external for e in entrants):
            from .external import play_external
            from .processes import play_processes, play_ray, processes

            if ray is not None:  # (a task a share, as many as --concurrency: the cluster has the cores)
                external = partial(play_ray, address=ray, count=max(1, min(concurrency, len(todo))))
            else:
                count = processes(entrants, concurrency, len(todo), listen)
                external = play_external if count == 1 else partial(play_processes, count=count)
            stderr = external(setup, todo, played, workers=concurrency, clock=clock or TimeControl(), stderr_dir=stderr_dir,
                              listen=listen)
        else:
            if any(e.kind == "stdio" for e in entrants):
                clock = clock or TimeControl()
                stderr = stderr_files(entrants, stderr_dir)
                games_done = play_threads(lambda game, stable: play(setup, game, stable), todo, concurrency,
                                          Clock(clock.move or DEFAULT_MOVE_TIME, clock.game),
                                          stderr)
            else:
                games_done = play_all(setup, todo, concurrency, ray)
            try:
                for record in games_done:
                    if played(record):
                        break
            finally:
                games_done.close()
                for err in stderr.values():
                    err.close()
    except BaseException as e:
        if _interrupted(e):
            raise MatchInterrupted(len(done), len(plan), results) from None
        raise
    finally:
        if out is not None:
            out.close()
    if forfeits.failed is not None:
        raise EntrantFailing(forfeits.message(stderr))
    records = [done[i] for i in sorted(done)]
    if test is not None:
        records = records[:test.decided_at or len(records)]
    summary = match_summary(records, entrants, options, seed, pair, None if test is None else test.status(), stderr,
                            rank_by)
    return MatchResult(summary, records, [r["log"] for r in records if r["log"] is not None])
