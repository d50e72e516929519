"""Verify a game log: the hash chain, the deal against its commitment, and every recorded
consequence, by re-running each input through a fresh table of the engine.

:func:`verify` returns a :class:`Report`; ``status`` is

* ``verified``: everything checks;
* ``failed``: ``record`` is the first bad record and ``reason`` says why (a broken chain,
  a reveal that does not match the commitment, events the engine does not produce, an
  input the engine refuses, a footer that is not the game's result…);
* ``unfinished``: the log was cut short (no footer); its whole records are chained but
  without the reveal the deal cannot be checked, so it does not verify;
* ``unusable``: not something this verifier can check (not a log, an unknown format
  version, another engine version).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import BinaryIO

from ..cards import parse_card
from ..engine.game import ActionError
from ..engine.table import Table, known_options
from ..games import GAME_IDS, engine_class
from .deal import check_reveal, commitment, deal_key
from .early import EarlyEvents
from .format import FORMAT, READS, LogFile, Problem, gc_paused, plain
from .reader import READ_WHOLE, open_log, read_log, read_whole, records, unreadable

__all__ = ["Report", "Outline", "verify", "verify_data", "verify_file", "Rerun"]


@dataclass
class Report:
    path: str
    status: str
    record: int | None = None
    reason: str | None = None
    game: str | None = None
    records: int = 0
    chained: bool = True
    deal: str | None = None  # "committed" or "explicit"
    result: dict | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def to_dict(self) -> dict:
        return asdict(self)


class Mismatch(Exception):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


class Unusable(Exception):
    pass


def _hexbytes(value, what: str, index: int, size: int | None = None) -> bytes:
    try:
        out = bytes.fromhex(value)
    except (TypeError, ValueError):
        raise Mismatch(index, f"{what} is not hex") from None
    if size is not None and len(out) != size:
        raise Mismatch(index, f"{what} must be {size} bytes")
    return out


def check_header(header: dict) -> type:
    """The game class of a header, or :class:`Unusable` with the reason."""
    if header.get("format") != FORMAT:
        raise Unusable(f"not a pidor log (format {header.get('format')!r})")
    version = header.get("version")
    if type(version) is not int or version not in READS:
        raise Unusable(f"log format version {version!r}; this verifier reads versions "
                       + ", ".join(map(str, READS)))
    game = header.get("game")
    if game not in GAME_IDS:
        raise Unusable(f"unknown game {game!r}")
    try:
        return engine_class(game, header.get("engine"))
    except ValueError as e:
        raise Unusable(str(e)) from None


class Rerun:
    """A fresh table set up as the header says, ready to take the log's inputs."""

    def __init__(self, header: dict) -> None:
        cls = check_header(header)
        try:
            seats = [{"kind": "human" if s.get("kind") == "human" else "bot"} for s in header["seats"]]
            self.table = Table(known_options(header["options"], cls), seats)
            self.table.game_cls = cls  # the engine version that wrote the log
            info = header["table"]
            self.table.games = int(info["number"]) - 1
            self.table.mark = info["mark"]
            self.table.previous = info["previous"]
            self.deal = header["deal"]
            self.version = header["version"]
            #: id of an action's map in a record -> (the map, the action it parses to)
            self.parsed: dict[int, tuple] = {}
            #: The form of the table's events in a log of the first release's time, if it is one.
            self.early = EarlyEvents() if cls.early_events else None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise Mismatch(0, f"bad header: {e!r}") from None

    def start_args(self, footer: dict | None) -> dict:
        """The ``Table.start`` arguments of the deal; checks the reveal against the
        commitment (record index of the footer on failure)."""
        deal = self.deal
        first = deal.get("first")
        if "deck" in deal:
            try:
                return {"deck": [parse_card(c) for c in deal["deck"]], "first": first}
            except (TypeError, ValueError) as e:
                raise Mismatch(0, f"bad deck in header: {e}") from None
        n = self.table.options["players"]
        committed = _hexbytes(deal.get("commitment"), "the commitment", 0, 32)
        seeds = deal.get("seat_seeds")
        if not isinstance(seeds, list) or len(seeds) != n:
            raise Mismatch(0, f"the header must give {n} seat seeds (null for none)")
        seat_seeds = [None if s is None else _hexbytes(s, f"seat {i}'s seed", 0) for i, s in enumerate(seeds)]
        where = footer["_index"] if footer else 0
        reveal = footer.get("reveal") if footer else None
        if not isinstance(reveal, dict):
            raise Mismatch(where, "the footer reveals no server seed")
        server_seed = _hexbytes(reveal.get("server_seed"), "the revealed server seed", where, 32)
        if not check_reveal(committed, server_seed):
            raise Mismatch(where, "the revealed server seed does not match the commitment: "
                                  f"SHA-256 of it is {commitment(server_seed).hex()}, "
                                  f"the header committed to {committed.hex()}")
        try:
            key = deal_key(server_seed, seat_seeds)
        except ValueError as e:
            raise Mismatch(0, str(e)) from None
        return {"seed": key, "first": first}

    def run(self, index: int, rec: dict, start: dict | None = None) -> list[dict]:
        """Carry out one input record on the table: its passes, then its own input;
        returns the events they produced, in that order."""
        t = self.table
        kind = rec["kind"]
        try:
            passed = rec.get("passed")
            events = None if passed is None else self.passes(index, passed)
            if kind == "act":
                game = t.game
                if game is None:
                    raise Mismatch(index, "an action before the deal")
                data = rec.get("action")
                known = self.parsed.get(id(data))  # (records packed alike are one object: parsed once)
                if known is not None and known[0] is data:
                    action = known[1]
                else:
                    action = game.parse_action(data)
                    self.parsed[id(data)] = (data, action)  # (the map kept: its id stays its own)
                got = t.act(rec["seat"], action, rec.get("now", 0.0), parsed=True)
                if "auto" in rec and rec["auto"] is not None and got[0].get("_violations"):
                    raise Mismatch(index, "an action the honest bot took for the seat (T9) breaks a rule")
                if events:
                    events += got
                    return events
                return got
            if kind == "pass":
                if self.version == 1:  # a window's passes, a record of their own
                    return self.passes(index, rec)
                if passed is None:
                    raise Mismatch(index, "a pass record without 'passed'")
                return events
            now = rec.get("now", 0.0)
            if kind == "call":
                got = t.answer(rec["seat"], True, now)
            elif kind == "vote":
                got = t.vote(rec["seat"], bool(rec["guilty"]), now)
            elif kind == "abstain":
                if self.version < 3:
                    raise Mismatch(index, "an abstain record in a version 2 log (version 3 added it)")
                got = t.abstain(rec["seat"], now)
            elif kind == "tick":
                got = t.tick(now)
            elif kind == "start":
                if t.game is not None:
                    raise Mismatch(index, "a second deal in one log")
                got = t.start(now=now, **start)
            else:
                raise Mismatch(index, f"unexpected {kind!r} record")
        except ActionError as e:
            raise Mismatch(index, f"the engine refuses this {kind}: {e.message}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise Mismatch(index, f"malformed {kind} record: {e!r}") from None
        return events + got if events else got

    def passes(self, index: int, passed) -> list[dict]:
        """The passes a record carries (``{"seats": [...], "now": t}``), in order."""
        seats = passed["seats"]
        if type(seats) is not list or not seats:
            raise Mismatch(index, "'passed' names no seats")
        return self.table.passes(seats, passed["now"])


def _alike(produced: list, recorded) -> bool:
    """Whether ``plain(produced) == recorded``, putting in log form only the events that
    differ as they are (those with ``_private``, keyed by seat, mostly)."""
    if type(recorded) is not list or len(produced) != len(recorded):
        return False
    for a, b in zip(produced, recorded):
        if a != b and plain(a) != b:
            return False
    return True


def _first_difference(produced: list, recorded) -> str:
    if not isinstance(recorded, list):
        return "the record has no event list"
    for k, (a, b) in enumerate(zip(produced, recorded)):
        if a != b:
            return f"event {k}: the engine gives {_short(a)}, the log has {_short(b)}"
    if len(produced) != len(recorded):
        return f"the engine gives {len(produced)} events, the log has {len(recorded)}"
    return "events differ"


def _short(x, limit: int = 240) -> str:
    text = repr(x)
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class Outline:
    """What verify needs of a log besides its input records, which it reads one by one."""

    header: dict | None
    footer: dict | None
    count: int  # whole records
    problem: Problem | None
    chained: bool
    second: str | None = None  # the kind of record 1 (the deal)
    head: bytes | None = None  # the chain value of the record before the footer
    last: bytes | None = None  # the chain value of the last record

    @classmethod
    def of(cls, log: LogFile) -> "Outline":
        """The outline of a log read whole."""
        records, hashes = log.records, log.hashes
        many = len(records) > 1
        return cls(log.header, log.footer, len(records), log.problem, log.chained,
                   records[1]["kind"] if many else None, hashes[-2] if many else None, hashes[-1] if hashes else None)

    @classmethod
    def scan(cls, stream: Iterator[tuple[dict, bytes]], log: LogFile) -> "Outline":
        """The outline of a log read from ``stream`` (see :func:`~pidor.gamelog.reader.records`),
        keeping no record but the first two and the last."""
        header = second = body = head = last = None
        count = 0
        for body, h in stream:
            if count == 0:
                header = body
            elif count == 1:
                second = body["kind"]
            head, last = last, h
            count += 1
        footer = body if count > 1 and body["kind"] == "end" else None
        return cls(header, footer, count, log.problem, log.chained, second, head, last)


def _check_log(log: Outline, inputs: Callable[[], Iterable[dict]], report: Report, allow_explicit: bool,
               visit: Callable[[dict], object] | None) -> None:
    """Check a log from its outline and its input records (``inputs()``: records 1 to the
    one before the footer, read when the footer reveals the deal)."""
    header = log.header
    if header is None:
        if log.problem is not None:
            if log.problem.kind == "unfinished" and not log.count:
                report.status, report.record, report.reason = "unfinished", 0, log.problem.reason
                return
            raise Mismatch(log.problem.index, log.problem.reason)
        raise Unusable("the first record is not a header")
    check_header(header)
    report.game = header.get("game")
    rerun = Rerun(header)
    deal = header.get("deal")
    if not isinstance(deal, dict):
        raise Mismatch(0, "the header has no deal")
    report.deal = "explicit" if "deck" in deal else "committed"
    if report.deal == "explicit" and not allow_explicit:
        raise Mismatch(0, "the deal is an explicit deck, not a committed one: not provably fair "
                          "(verify --allow-explicit accepts it)")
    footer = None if log.footer is None else dict(log.footer, _index=log.count - 1)
    if log.second not in (None, "start", "end"):  # ("end": a header and its footer, no deal)
        raise Mismatch(1, "the record after the header must be the deal (start)")
    # Without the footer's reveal the deal cannot be checked, so nothing is re-run; with it
    # every whole record is, even in a log with a problem: the first bad one wins.
    if footer is not None and log.count > 2:
        if visit is not None:
            visit(header)
        _rerun(rerun, inputs(), rerun.start_args(footer), visit)
    if log.problem is not None:
        if log.problem.kind == "unfinished":
            report.status, report.record, report.reason = "unfinished", log.problem.index, log.problem.reason
            return
        raise Mismatch(log.problem.index, log.problem.reason)
    if log.count < 2 or footer is None:
        raise Mismatch(log.count, "no deal and no footer")
    _check_footer(log, footer, rerun, report)
    if visit is not None:
        visit(log.footer)


def _rerun(rerun: Rerun, records: Iterable[dict], start_args: dict, visit: Callable[[dict], object] | None) -> None:
    """Re-run the input records (the first is the deal, record 1 of the log) and compare
    the events the engine produces with the recorded ones; ``visit`` sees each record that
    checks."""
    early = rerun.early
    for index, rec in enumerate(records, start=1):
        try:
            produced = rerun.run(index, rec, start_args)
        except Mismatch:
            raise
        except Exception as e:  # noqa: BLE001 - a crafted log may crash the engine: a failure, not ours
            raise Mismatch(index, f"the engine could not re-run this {rec['kind']}: {e!r}") from None
        recorded = rec.get("events")
        if early is not None:  # (every record: the form is fixed by the first windows)
            produced = early.read(plain(produced), recorded)
        # Fast path: events made only of lists and string keys compare as they are;
        # otherwise compare their log form (tuples as lists, seats as string keys).
        if produced != recorded and not _alike(produced, recorded):
            raise Mismatch(index, f"{rec['kind']}: {_first_difference(plain(produced), recorded)}")
        if visit is not None:
            visit(rec)


def _check_footer(log: Outline, footer: dict, rerun: Rerun, report: Report) -> None:
    index = footer["_index"]
    t = rerun.table
    status = footer.get("status")
    if status == "over":
        if not t.over:
            raise Mismatch(index, "the footer says the game is over, but the actions do not finish it")
        result = plain(t.game.result)
        if footer.get("result") != result:
            raise Mismatch(index, f"the footer's result {_short(footer.get('result'))} is not the game's "
                                  f"result {_short(result)}")
        if footer.get("order") != result.get("order"):
            raise Mismatch(index, "the footer's finishing order is not the game's")
    elif status == "aborted":
        if t.over:
            raise Mismatch(index, "the footer says aborted, but the game is over")
        if footer.get("result") is not None:
            raise Mismatch(index, "an aborted game has no result")
        report.notes.append(f"aborted: {footer.get('reason')}")
    else:
        raise Mismatch(index, f"unknown footer status {status!r}")
    if footer.get("mark") != t.mark:
        raise Mismatch(index, f"the footer gives the mark to {footer.get('mark')!r}, the game to {t.mark!r}")
    if footer.get("records") != log.count:
        raise Mismatch(index, f"the footer counts {footer.get('records')!r} records, the log has {log.count}")
    if log.chained and footer.get("head") != log.head.hex():
        raise Mismatch(index, "the footer's chain head is not the chain value of the record before it")
    report.result = footer.get("result")


def verify(log: LogFile, path: str = "", *, allow_explicit: bool = False,
           visit: Callable[[dict], object] | None = None) -> Report:
    """Check one log (already read, see :func:`~pidor.gamelog.reader.read_log`). ``visit``,
    when given, is called with each record the check has passed, in order, the header first
    and the footer last (all of them when the log verifies)."""
    return _verify(Outline.of(log), lambda: log.records[1:-1], path, allow_explicit, visit)


def _verify(log: Outline, inputs: Callable[[], Iterable[dict]], path: str, allow_explicit: bool,
            visit: Callable[[dict], object] | None) -> Report:
    report = Report(path=path, status="verified", records=log.count, chained=log.chained)
    if not log.chained:
        report.notes.append("unchained: a hand-written log without 'h' (the chain is not checked)")
    try:
        _check_log(log, inputs, report, allow_explicit, visit)
    except Mismatch as e:
        report.status, report.record, report.reason = "failed", e.index, e.reason
    except Unusable as e:
        report.status, report.reason = "unusable", str(e)
    except OSError:  # the file could not be read a second time (verify_file)
        raise
    except Exception as e:  # noqa: BLE001 - an engine crash on a crafted log is a failure, not ours
        report.status, report.reason = "failed", f"the engine could not re-run the log: {e!r}"
    return report


def verify_data(data: bytes, path: str = "", *, allow_explicit: bool = False) -> Report:
    """Read and check one log from its bytes (either form), as :func:`verify_file` does.
    The garbage collector is paused meanwhile (:func:`~pidor.gamelog.format.gc_paused`):
    the records and the re-run make tens of thousands of short-lived objects and no cycles.
    Verify changes no record, so records packed alike are decoded once (``shared``)."""
    with gc_paused():
        return verify(read_log(data, shared=True), path, allow_explicit=allow_explicit)


def verify_file(path: str, *, allow_explicit: bool = False, visit: Callable[[dict], object] | None = None) -> Report:
    """Read and check the log file at ``path``, as ``pidor verify`` does, in bounded memory
    whatever the file: a path that names no regular file, cannot be read or does not start
    like a log is ``unusable`` (:func:`~pidor.gamelog.reader.open_log`). A file of at most
    :data:`~pidor.gamelog.reader.READ_WHOLE` bytes is read once, its records kept (as
    :func:`verify_data` reads them); a larger one twice, keeping none: first the chain, the
    header and the footer, then the records again, one by one, as they are re-run (the
    footer's chain value proves that the second reading read the same log). ``visit``: see
    :func:`verify`."""
    try:
        f, size = open_log(path)
    except OSError as e:
        return _unusable(path, e)
    with f, gc_paused():
        try:
            if size <= READ_WHOLE:
                # (no name for the log: its records are freed before the collector is on again)
                return verify(read_whole(f, shared=True, size=size), path, allow_explicit=allow_explicit, visit=visit)
            first = LogFile()
            outline = Outline.scan(records(f, first, size=size), first)
            return _verify(outline, lambda: _read_again(f, size, outline), path, allow_explicit, visit)
        except OSError as e:
            return _unusable(path, e)


def _unusable(path: str, e: OSError) -> Report:
    return Report(path=path, status="unusable", reason=unreadable(e), chained=False)


def _read_again(f: BinaryIO, size: int, outline: Outline) -> Iterator[dict]:
    """The input records of a log :meth:`Outline.scan` read, read again from the start;
    :class:`Mismatch` unless the reading ends on the same footer."""
    f.seek(0)
    log = LogFile()
    footer = outline.count - 1
    for index, (body, h) in enumerate(records(f, log, size=size)):
        if index == footer:
            if h == outline.last:
                return
            break
        if index:
            yield body
    raise Mismatch(footer, "the file changed while it was verified")
