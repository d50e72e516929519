"""``pidor standings LOGS_OR_RESULTS...``: the summary of :mod:`pidor.match.stats` (the
per-entrant table, ratings, A against B) from game logs and ``--results`` files, so that a
server that hosted many games can rank its players offline.

Each path is a file or a directory (searched through, its files taken in natural order:
``game-9`` before ``game-10``). A file is read by what it holds, whatever its name:

* a game log (binary or JSON Lines, ``protocol/LOGS.md``): its game counts only if it
  verifies (:func:`pidor.gamelog.verify.verify`) and is over; a log that fails, is unfinished
  or was aborted is listed as skipped. The record is rebuilt from the log: the seats' names
  from the header (:func:`entrant_name`), the result from the footer, the counts from the
  events (:class:`~pidor.match.stats.SeatCounts`);
* a results file (one JSON record per line, ``pidor match --results``): its records, in
  ``index`` order;
* anything else inside a directory is ignored (an SQLite store, a bot's stderr…); named
  on the command line, it is an error.

Games are rated in the order read: the paths as given, each file's games in its order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..gamelog.format import CHUNK
from ..gamelog.reader import first_json, is_log, looks_like_jsonl, open_file, unreadable, walk
from ..gamelog.verify import verify_file
from ..games import GAME_IDS
from .record import count_events, finish_record, new_record
from .runner import MatchError, MatchFailed, read_results
from .stats import RANKINGS, summarize, summary_table

__all__ = ["entrant_name", "log_record", "LogTally", "check_record", "read_sources", "standings"]


class Unusable(ValueError):
    """An input that is neither a game log nor a results file, or a malformed record."""


def entrant_name(seat: dict) -> str:
    """A header seat's entrant when the log does not name it (``extra.match.seating``, as
    ``pidor match`` writes): its ``name`` (a player at the server), else its ``spec`` (a
    built-in bot), else ``builtin:<policy>``. Seats of one name are one entrant."""
    for key in ("name", "spec"):
        value = seat.get(key)
        if isinstance(value, str) and value:
            return value
    return f"builtin:{seat.get('policy', '?')}" if seat.get("kind") == "bot" else str(seat.get("kind", "?"))


def log_record(log, path: str) -> dict:
    """The record of a verified, finished log (``log``: a :class:`~pidor.gamelog.format.LogFile`),
    as :mod:`pidor.match.record` makes it while the game is played; ``index`` and ``deal``
    are the match's (``extra.match``), or ``None`` for a server's log."""
    tally = LogTally()
    for body in log.records:
        tally(body)
    return tally.record(path)


class LogTally:
    """:func:`log_record` from a log's records given one by one, the header first and the
    footer last (``verify_file(path, visit=tally)``: a log of any size is read once)."""

    def __init__(self) -> None:
        self.header: dict | None = None
        self.last: dict | None = None
        self.counts = {"cheats": [], "convicted": [], "false_calls": []}
        self.actions = 0

    def __call__(self, body: dict) -> None:
        if self.header is None:
            self.header = body
            self.counts = {key: [0] * len(body["seats"]) for key in self.counts}
            return
        events = body.get("events") or []
        count_events(self.counts, events)
        self.actions += sum(e["type"] == "action" for e in events)
        self.last = body

    def record(self, path: str) -> dict:
        header, footer = self.header, self.last
        seats = header["seats"]
        n = len(seats)
        match = (header.get("extra") or {}).get("match") or {}
        seating = match.get("seating")
        if not (isinstance(seating, list) and len(seating) == n and all(isinstance(x, str) for x in seating)):
            seating = [entrant_name(s) for s in seats]
        seed = bytes.fromhex(footer["reveal"]["server_seed"])
        record = new_record(header["options"], match.get("index"), match.get("deal"), seed, seating)
        record.update(self.counts)
        record["forfeits"] = list(footer.get("forfeits") or ())
        return finish_record(record, footer["result"], self.actions, path)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat_list(rec: dict, key: str, n: int) -> bool:
    value = rec.get(key)
    return isinstance(value, list) and len(value) == n and all(_is_int(v) and v >= 0 for v in value)


def check_record(rec) -> str | None:
    """Why ``rec`` is not a usable game record (``None``: it is)."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    seating = rec.get("seating")
    if not isinstance(seating, list) or len(seating) < 2 or not all(isinstance(s, str) for s in seating):
        return "'seating' must be a list of at least two entrant names"
    n = len(seating)
    order = rec.get("order")
    if not (isinstance(order, list) and all(_is_int(s) and 0 <= s < n for s in order)
            and len(set(order)) == len(order)):
        return "'order' must be a list of distinct seats"
    loser = rec.get("loser")
    if loser is not None and not (_is_int(loser) and 0 <= loser < n):
        return "'loser' must be a seat or null"
    if not isinstance(rec.get("draw"), bool) or rec["draw"] != (loser is None):
        return "'draw' must be true exactly when 'loser' is null"
    for key in ("cheats", "convicted", "false_calls"):
        if not _seat_list(rec, key, n):
            return f"'{key}' must be a count per seat"
    forfeits = rec.get("forfeits", [])
    if not isinstance(forfeits, list) or not all(
            isinstance(f, dict) and _is_int(f.get("seat")) and 0 <= f["seat"] < n for f in forfeits):
        return "'forfeits' must be a list of {seat, reason}"
    if not _is_int(rec.get("actions", 0)):
        return "'actions' must be a count"
    return None


def _kind(data: bytes) -> str | None:
    """``log``, ``results`` or ``None`` for a file whose first bytes are ``data`` and that is
    neither (an empty file too: :func:`~pidor.gamelog.reader.is_log`)."""
    if is_log(data):
        return "log"
    first = first_json(data) if looks_like_jsonl(data) else None
    return "results" if isinstance(first, dict) and "seating" in first else None


def _results(path: Path) -> list[dict]:
    """A results file's records (:func:`~pidor.match.runner.read_results`), each checked, in
    ``index`` order."""
    try:
        records = read_results(path)
    except (MatchError, MatchFailed) as e:
        raise Unusable(str(e)) from None
    for number, rec in enumerate(records, start=1):
        why = check_record(rec)
        if why is not None:
            raise Unusable(f"{path}, record {number}: not a game record: {why}")
    return sorted(records, key=lambda r: r["index"])


def read_sources(paths, progress=None) -> tuple[list[dict], dict]:
    """The game records of ``paths`` and where they came from: ``{"logs": counted logs,
    "results": records from results files, "skipped": [{"path", "status", "reason"}] (logs
    that do not count, and files in the directories that cannot be read: ``unusable``),
    "ignored": files in the directories that are neither}``. Raises :class:`Unusable` for a
    named file that is neither or cannot be read, a directory with no log or results file
    in it, or a malformed results line."""
    records: list[dict] = []
    sources = {"logs": 0, "results": 0, "skipped": [], "ignored": 0}
    for arg in paths:
        found = 0
        for path, named in walk([arg]):
            kind = _read_source(path, named, records, sources)
            found += kind is not None
            if progress is not None:
                progress(1)
        if not found:
            raise Unusable(f"{arg}: no game log or results file in it")
    return records, sources


def _read_source(path: Path, named: bool, records: list[dict], sources: dict) -> str | None:
    """Read one file into ``records`` and ``sources``: what it is (``log``, ``results``,
    ``None``: neither, or it cannot be read)."""
    try:
        f, _ = open_file(path)
        with f:
            kind = _kind(f.peek(CHUNK))
    except OSError as e:
        if named:
            raise Unusable(f"{path}: {unreadable(e)}") from None
        sources["skipped"].append({"path": str(path), "status": "unusable", "reason": unreadable(e)})
        return None
    if kind == "results":
        got = _results(path)
        records += got
        sources["results"] += len(got)
    elif kind == "log":
        tally = LogTally()
        report = verify_file(str(path), visit=tally)
        if not report.ok:
            sources["skipped"].append({"path": str(path), "status": report.status, "reason": report.reason})
        elif report.result is None:
            sources["skipped"].append({"path": str(path), "status": "aborted",
                                       "reason": "; ".join(report.notes) or "no result"})
        else:
            records.append(tally.record(str(path)))
            sources["logs"] += 1
    elif named:
        raise Unusable(f"{path}: neither a game log nor a results file")
    else:
        sources["ignored"] += 1
    return kind


def standings(paths, game: str | None = None, pair: tuple[str, str] | None = None, progress=None,
              rank_by: str = "loss") -> dict:
    """The summary of the games in ``paths`` (of ``game`` only, when given), ranked
    ``rank_by``, with ``game`` and ``sources`` (:func:`read_sources`)."""
    records, sources = read_sources(paths, progress)
    games = sorted({r.get("game") for r in records} - {None})
    if game is None and len(games) > 1:
        raise Unusable(f"the inputs hold games of {', '.join(games)}: choose one with --game")
    if game is not None:
        records = [r for r in records if r.get("game", game) == game]
    names = {name for r in records for name in r["seating"]}
    if pair is not None:
        missing = [name for name in pair if name not in names]
        if missing:
            raise Unusable(f"no games of {', '.join(repr(m) for m in missing)}")
    out = {"game": game if game is not None else (games[0] if games else None), "sources": sources}
    out.update(summarize(records, pair, rank_by))
    return out


def _sources_line(s: dict) -> str:
    parts = [f"{s['logs']} verified logs", f"{s['results']} results records"]
    if s["skipped"]:
        parts.append(f"{len(s['skipped'])} logs skipped")
    if s["ignored"]:
        parts.append(f"{s['ignored']} other files ignored")
    return ", ".join(parts)


class _InputError(click.ClickException):
    exit_code = 2


@click.command(name="standings")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True), metavar="LOGS_OR_RESULTS...")
@click.option("--game", type=click.Choice(GAME_IDS), default=None,
              help="Count only games of this game (needed when the inputs mix games).")
@click.option("--pair", nargs=2, default=None, metavar="A B",
              help="Compare these two entrants (default: when there are exactly two).")
@click.option("--rank-by", type=click.Choice(sorted(RANKINGS)), default="loss", show_default=True,
              help="Rank by loss rate (a game's one result is its loser), openskill rating or mean place.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def standings_command(paths, game, pair, rank_by, as_json) -> None:
    """Rank entrants from game logs and `pidor match --results` files (files or directories).

    A log counts only if it verifies (pidor verify) and its game is over; the others are
    listed as skipped. The table gives per entrant: games, losses, the loss rate with its 95%
    Wilson interval, draws, mean place, cheats, convictions, false calls, forfeits and the
    openskill rating (mu - 3 sigma, with mu ± sigma), ranked by the loss rate (--rank-by);
    for two entrants, A's score against B, its Elo and the likelihood of superiority; for
    more, the crosstable of loss rates. docs/MATCHES.md explains each number.

    \b
    Examples:
      pidor standings ~/.local/share/pidor/logs     # a server's games
      pidor standings results.jsonl --pair mybot-v2 mybot-v1 --json

    Exit status: 0; 2 for unusable input: a named file that is neither a log nor a results
    file, a malformed results line, a directory with neither in it (these stop at once),
    or a file skipped as unusable (one that cannot be read or is no regular file, or a log
    this version cannot check: the others are counted, then the exit status is 2).
    """
    bar = None
    files = len(walk(paths))
    if sys.stderr.isatty() and files > 1:
        bar = click.progressbar(length=files, label="reading", file=sys.stderr)
        bar.__enter__()
    try:
        out = standings(paths, game, tuple(pair) if pair else None,
                        progress=None if bar is None else bar.update, rank_by=rank_by)
    except Unusable as e:
        raise _InputError(str(e)) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False))
    else:
        for s in out["sources"]["skipped"]:
            click.echo(f"{s['path']}: skipped, {s['status']}: {s['reason']}", err=True)
        click.echo(f"{out['game'] or 'no games'}: {out['games']} games ({_sources_line(out['sources'])}), "
                   f"{out['draws']} draws")
        if out["entrants"]:
            click.echo(summary_table(out))
    if any(s["status"] == "unusable" for s in out["sources"]["skipped"]):
        sys.exit(2)
