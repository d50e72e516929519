"""The ``pidor replay``, ``pidor verify`` and ``pidor export`` commands."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .reader import read_log, sniff
from .verify import Report, verify as verify_log, verify_data

if TYPE_CHECKING:
    from .replay import Replay

# The replay, the JSON Lines writer and json are imported by the commands that use them:
# ``pidor verify`` starts without them.

__all__ = ["replay", "verify", "export"]


def _read(path: str):
    try:
        return read_log(path)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}") from None


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
    then as much of the game as can be shown; 2 for a usage error.
    """
    from .replay import Replay, step_through

    data = _read(log)
    if data.header is None:
        raise click.ClickException(f"{log}: not a game log"
                                   + (f" ({data.problem.reason})" if data.problem else ""))
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
    """The report on one log file (a worker's job with ``--jobs``)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        return Report(path=path, status="unusable", reason=f"cannot read: {e.strerror or e}", chained=False)
    if sniff(raw) is None:
        return Report(path=path, status="unusable", chained=False,
                      reason="not a game log (neither a msgpack log nor JSON Lines)")
    return verify_data(raw, path, allow_explicit=allow_explicit)


#: What a directory given to ``verify`` is searched for: the two forms of a game log.
LOG_SUFFIXES = (".plog", ".jsonl")


@click.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(), metavar="LOGS...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with a report per log.")
@click.option("--allow-explicit", is_flag=True,
              help="Accept logs whose deal is an explicit deck (hand-written tests) instead of a committed one.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes verifying logs at once (one per core); the reports come in the order given.")
def verify(logs: tuple[str, ...], as_json: bool, allow_explicit: bool, jobs: int) -> None:
    """Verify game logs: the hash chain, the deal against its commitment, and every
    recorded consequence, by re-running each action through the engine. A directory
    stands for every *.plog and *.jsonl file under it (a server's DATA/logs, a match's
    --logs), in natural order.

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
            click.echo(_report_line(r), err=not r.ok)
    if any(r.status == "unusable" for r in reports):
        sys.exit(2)
    if not all(r.ok for r in reports):
        sys.exit(1)


@click.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default="-",
              help="Where to write (default: standard output).")
def export(log: str, fmt: str, output: str) -> None:
    """Export a game log as JSON Lines (protocol/LOGS.md): one record per line, each with
    its chain value "h". verify and replay read this form too.

    Exit status: 0; 1 for a broken log (cut short or a broken hash chain): the problem is
    printed on stderr first and the whole records before it are exported."""
    from .jsonl import export_jsonl

    data = _read(log)
    problem = _broken(log, data)
    if problem is not None:
        click.echo(f"{log}: broken log: {problem}; exporting the {len(data.records)} whole records before it",
                   err=True)
    text = export_jsonl(data)
    try:
        with click.open_file(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror or e}; give -o a file in a directory "
                                   "that exists and you may write") from None
    if problem is not None:
        sys.exit(1)
