"""The ``pidor replay``, ``pidor verify`` and ``pidor export`` commands."""

from __future__ import annotations

import os
import sys
from collections import Counter
from functools import partial
from typing import TYPE_CHECKING

import click

from .format import CHUNK
from .reader import is_log, open_file, open_log, read_log, records, unreadable, walk
from .verify import Report, verify as verify_log, verify_file

if TYPE_CHECKING:
    from .replay import Replay

# The replay, the JSON Lines writer and json are imported by the commands that use them:
# ``pidor verify`` starts without them.

__all__ = ["replay", "verify", "export"]


class _Unusable(click.ClickException):
    """A log that cannot be read or is no log: one line, exit status 2."""

    exit_code = 2


def _read(path: str):
    """The whole log at ``path`` (:func:`~pidor.gamelog.reader.read_log`)."""
    try:
        return read_log(path)
    except OSError as e:
        raise _Unusable(f"{path}: {unreadable(e)}") from None


def _broken(path: str, data, replay: Replay | None = None) -> str | None:
    """What is wrong with a log (``None``: nothing): cut short, a broken chain, or
    (``replay``) one the engine does not follow as recorded (``pidor verify``'s check)."""
    if data.problem is not None:
        return f"{data.problem.kind} at record {data.problem.index}: {data.problem.reason}"
    if replay is not None:
        if replay.problem is not None:
            return replay.problem
        report = verify_log(data, path, allow_explicit=True)
        if not report.ok:
            where = "" if report.record is None else f" at record {report.record}"
            return f"{report.status}{where}: {report.reason}"
    return None


@click.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Show only what this seat saw (default: everything).")
@click.option("--step", is_flag=True,
              help="Stop after every step and show the board: Enter goes on, n jumps to the next cheat, "
                   "call or court, q quits.")
@click.option("--verbose", is_flag=True, help="Also show the window bookkeeping (passes, windows, clock ticks).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML page that plays the game (any seat's view) instead of text.")
@click.option("--lang", type=click.Choice(["ru", "en"]), default="ru", show_default=True,
              help="Language of rule texts and words.")
def replay(log: str, seat: int | None, step: bool, verbose: bool, html_out: str | None, lang: str) -> None:
    """Show a logged game, one line per action with its cards (binary or JSON Lines log).

    Cheats (✗, with the broken rule ids and texts), calls (!!), courts, votes, verdicts
    (⚖), undos (↶), marks (●) and payments each get a line; an audit per seat ends it.
    With --seat N only that seat's view is shown: no hidden card of another seat and no
    cheat that nobody called. --html OUT.html writes a page that plays the game in a
    browser, from any seat's view or from all (no network needed).

    Exit status: 0 for a whole log; 1 for a broken one (cut short, a broken hash chain,
    or one that does not replay as recorded): the problem is printed on stderr first,
    then as much of the game as can be shown; 2 for a usage error, or a file that is not
    a log, cannot be read, or is larger than a game's log may be to replay (4 MiB: pidor
    verify and export read any size).
    """
    from .replay import Replay, step_through

    data = _read(log)
    if data.header is None:
        raise _Unusable(f"{log}: not a game log" + (f" ({data.problem.reason})" if data.problem else ""))
    players = (data.header.get("options") or {}).get("players", 0)
    if seat is not None and not 0 <= seat < players:
        raise click.BadParameter(f"seat must be 0..{players - 1}", param_hint="--seat")
    if html_out is not None and (step or seat is not None or verbose):
        raise click.UsageError("--html shows every view in the page: give it without --seat, --step, --verbose")
    r = Replay(data, seat, lang)
    problem = _broken(log, data, r)
    if problem is not None:
        click.echo(f"{log}: broken log: {problem}", err=True)
    if html_out is not None:
        from .html import write_page

        try:
            size = write_page(data, html_out, lang)
        except OSError as e:
            raise click.ClickException(f"cannot write {html_out}: {e.strerror or e}") from None
        click.echo(f"{html_out}: {size // 1024} KiB, {len(r.steps)} steps; open it in a browser")
    elif step:
        def ask(prompt: str) -> str | None:
            click.echo(prompt, nl=False)
            line = sys.stdin.readline()
            return line if line else None  # end of input: the rest without stopping

        step_through(r, ask, click.echo, verbose)
    else:
        for line in r.lines(verbose):
            click.echo(line)
    if problem is not None:
        sys.exit(1)


def _report_line(r: Report) -> str:
    if r.ok:
        extra = f" ({'; '.join(r.notes)})" if r.notes else ""
        return f"{r.path}: verified, {r.records} records, {r.game}, {r.deal} deal{extra}"
    where = "" if r.record is None else f" at record {r.record}"
    return f"{r.path}: {r.status.upper()}{where}: {r.reason}"


def _verify_path(path: str, allow_explicit: bool) -> Report:
    """The report on one log file (a worker's job with ``--jobs``): never raises, so that
    one file cannot stop the others."""
    try:
        return verify_file(path, allow_explicit=allow_explicit)
    except Exception as e:  # noqa: BLE001 - a bug of ours on a hostile file: that file's report
        return Report(path=path, status="failed", chained=False, reason=f"the verifier failed on this file: {e!r}")


def _total_line(reports: list[Report]) -> str:
    count = Counter(r.status for r in reports)
    failed = count["failed"] + count["unfinished"]
    unfinished = f" ({count['unfinished']} of them unfinished)" if count["unfinished"] else ""
    return f"{count['verified']} verified, {failed} failed{unfinished}, {count['unusable']} unusable"


#: What a directory given to ``verify`` is searched for: the two forms of a game log.
LOG_SUFFIXES = (".plog", ".jsonl")


@click.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(), metavar="LOGS...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with a report per log.")
@click.option("--allow-explicit", is_flag=True,
              help="Accept logs whose deal is an explicit deck (hand-written tests) instead of a committed one.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes verifying logs at once (one per core); the reports come in the order given.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the logs that do not verify, and the total.")
def verify(logs: tuple[str, ...], as_json: bool, allow_explicit: bool, jobs: int, quiet: bool) -> None:
    """Verify game logs: the hash chain, the deal against its commitment, and every
    recorded consequence, by re-running each action through the engine. A directory
    stands for every *.plog and *.jsonl file under it (a server's DATA/logs, a match's
    --logs), in natural order. One line per log, then, for several (or with -q), the total:
    "N verified, M failed, K unusable".

    A log is read in bounded memory whatever its size (a record may be 1 MiB at most). Only
    regular files are read: a FIFO, a device or a socket is unusable, and the other logs go
    on.

    Exit status: 0 when every log verifies; 1 when one fails (its first bad record and
    why are printed), or is unfinished; 2 for unusable input (a file that cannot be read
    or is not a log this version can check, a directory without logs).
    """
    from .reader import walk

    paths = []
    for arg in logs:
        found = [str(f) for f, named in walk([arg]) if named or f.suffix in LOG_SUFFIXES]
        if not found:
            raise click.BadParameter(f"{arg}: a directory with no *.plog or *.jsonl file in it", param_hint="LOGS")
        paths += found
    logs = tuple(paths)
    check = partial(_verify_path, allow_explicit=allow_explicit)
    if jobs > 1 and len(logs) > 1:
        from concurrent.futures import ProcessPoolExecutor  # (imported only here: ~13 ms of every start)

        with ProcessPoolExecutor(min(jobs, len(logs))) as pool:
            reports = list(pool.map(check, logs, chunksize=max(1, len(logs) // (4 * jobs))))
    else:
        reports = [check(path) for path in logs]
    if as_json:
        import json

        click.echo(json.dumps({"ok": all(r.ok for r in reports), "logs": [r.to_dict() for r in reports]},
                              ensure_ascii=False))
    else:
        for r in reports:
            if not (quiet and r.ok):
                click.echo(_report_line(r), err=not r.ok)
        if len(reports) > 1 or quiet:
            click.echo(_total_line(reports))
    if any(r.status == "unusable" for r in reports):
        sys.exit(2)
    if not all(r.ok for r in reports):
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(), metavar="LOG_OR_DIR...")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "text"]), default="jsonl", show_default=True,
              help="jsonl: one log, every record; csv: one row per game and seat of logs and --results files; "
                   "text: each log as a compact record, one line per move.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default="-",
              help="Where to write (default: standard output).")
def export(paths, fmt: str, output: str) -> None:
    """Export game logs: as JSON Lines, as rows of results, or as text to read and diff.

    \b
    --format jsonl (one LOG): every record as a line (protocol/LOGS.md), each with its
      chain value "h"; verify and replay read this form too.
    --format csv (logs, --results files, directories): one row per game and seat:
      index, deal, game, seat, entrant, place, loss, draw, cheats, convicted,
      false_calls, forfeit (why its bot forfeited), log. A log counts only if it
      verifies and its game is over (as for pidor standings); the others are named on
      stderr.
    --format text (logs, directories): each game as tags (game, options, seats, match,
      deal), then one line per move: the seat's action and the rules it broke, calls,
      votes, and after · the court, verdict, undo, mark and who went out; the result
      last. Games are separated by a blank line.

    Logs are read record by record, in bounded memory whatever their size.

    Exit status: 0; 1 for a broken log (cut short or a broken hash chain: what comes
    before the problem is exported, then the problem is printed on stderr) or, for csv,
    a log that does not verify; 2 for a file that is not a log (or a results file, for
    csv) or cannot be read."""
    if fmt == "jsonl" and (len(paths) != 1 or os.path.isdir(paths[0])):
        raise click.UsageError("--format jsonl exports one log file; csv and text take several")
    if fmt == "csv":
        records, failed = _csv_records(paths)
        logs = []
    else:
        # (a directory's other files, stderr, results, a store, are passed over; a named
        # file that cannot be read is refused before anything is written)
        logs = [str(path) for path, named in walk(paths) if named or _is_log_file(path)]
        for log in logs:
            try:
                open_log(log)[0].close()
            except OSError as e:
                raise _Unusable(f"{log}: {unreadable(e)}") from None
        failed = False
    try:
        with click.open_file(output, "w", encoding="utf-8") as out:
            if fmt == "csv":
                from ..match.rows import write_csv

                write_csv(out, records)
            for k, log in enumerate(logs):
                if k and fmt == "text":
                    out.write("\n")
                failed |= _export_log(log, fmt, out)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror or e}; give -o a file in a directory that "
                                   "exists and you may write") from None
    if failed:
        sys.exit(1)


def _export_log(log: str, fmt: str, out) -> bool:
    """One log as JSON Lines or text; ``True`` if it is broken (said on stderr)."""
    from .format import LogFile
    from .jsonl import record_line
    from .notation import notation

    try:
        f, size = open_log(log)
    except OSError as e:
        raise _Unusable(f"{log}: {unreadable(e)}") from None
    data, count = LogFile(), 0
    with f:
        stream = _reading(log, records(f, data, size=size))
        if fmt == "jsonl":
            for body, h in stream:
                out.write(record_line(body, h) + "\n")
                count += 1
        else:
            def bodies():
                nonlocal count
                for body, _ in stream:
                    count += 1
                    yield body

            for line in notation(bodies()):
                out.write(line + "\n")
    problem = _broken(log, data)
    if problem is not None:
        click.echo(f"{log}: broken log: {problem}; exported the {count} whole records before it", err=True)
        return True
    return False


def _is_log_file(path) -> bool:
    try:
        f, _ = open_file(path)
    except OSError:
        return True  # (said when it is read)
    with f:
        return is_log(f.peek(CHUNK))


def _csv_records(paths) -> tuple[list[dict], bool]:
    """The game records of ``paths`` (:func:`pidor.match.standings.read_sources`), and
    whether a log did not count (each is named on stderr)."""
    from ..match.standings import Unusable, read_sources

    try:
        records, sources = read_sources(paths)
    except Unusable as e:
        raise _Unusable(str(e)) from None
    for skipped in sources["skipped"]:
        click.echo(f"{skipped['path']}: skipped, {skipped['status']}: {skipped['reason']}", err=True)
    if any(s["status"] == "unusable" for s in sources["skipped"]):
        raise _Unusable(f"{len(sources['skipped'])} files could not be read")
    return records, bool(sources["skipped"])


def _reading(path: str, stream):
    """``stream``, its read errors made :class:`_Unusable` (not taken for write errors)."""
    try:
        yield from stream
    except OSError as e:
        raise _Unusable(f"{path}: {unreadable(e)}") from None
