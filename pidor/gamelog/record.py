"""Record a game as it is played: a :class:`Recorder` stands in front of a
:class:`~pidor.engine.table.Table` and writes one log record per accepted input (passes
ride with the next record, see :meth:`Recorder.answer`).

    rec = Recorder(table, "game.plog", seats=[{"kind": "human", "name": "vasya"}, ...],
                   seat_seeds=[b"...", None, ...])
    rec.commitment                       # SHA-256 of the secret server seed: show it first
    events = rec.start(now)              # header + the deal
    events = rec.act(seat, action, now)  # also rec.answer / rec.vote / rec.abstain / rec.tick
    rec.close()                          # footer (result, reveal) once table.over;
                                         # rec.close(aborted="reason") for a game cut off

Each method calls the table's method of the same name and returns its events unchanged.
A refused input (``ActionError``) changes nothing and writes nothing. What a driver reads
of a table (:class:`pidor.driver.DrivenTable`: ``rec.game``, ``rec.window``,
``rec.to_act()``…) reads the table's, so :class:`~pidor.driver.Driver` and
:func:`pidor.autoplay.play_game` drive a recorder as they would the table; anything else
of the table is ``rec.table``'s.

With ``target=None`` nothing is written (matches without ``--logs``). A write error
raises :class:`~pidor.gamelog.format.LogWriteError` *after* the table has taken the input:
the game is fine, only its log is cut short. The exception's ``events`` holds the table's
events so the caller can still send them; or pass ``on_error`` (a callable taking the
exception) and the recorder reports the error there, stops writing and returns the events.
"""

from __future__ import annotations

import os
from typing import Any, BinaryIO, Callable

from .. import __version__
from ..engine.options import logged
from ..engine.table import Table
from .deal import commitment, deal_key, new_server_seed
from .format import LogWriteError, LogWriter, log_events, plain

__all__ = ["Recorder", "seat_info"]


def seat_info(kind: str, **fields: Any) -> dict:
    """A header seat: ``kind`` is ``human``, ``bot`` (built-in: ``policy``, ``params``,
    ``seed``) or ``external`` (a program over the protocol); plus ``name`` etc."""
    if kind not in ("human", "bot", "external"):
        raise ValueError(f"seat kind must be human, bot or external, not {kind!r}")
    return {"kind": kind, **fields}


class Recorder:
    def __init__(
        self,
        table: Table,
        target: str | os.PathLike | BinaryIO | None,
        *,
        seats: list[dict] | None = None,
        server_seed: bytes | None = None,
        seat_seeds: list[bytes | None] | None = None,
        deck: list[int] | None = None,
        first: int | None = None,
        fsync: bool = False,
        extra: dict | None = None,
        on_error: Callable[[LogWriteError], None] | None = None,
    ) -> None:
        self.table = table
        self.on_error = on_error
        self.error: LogWriteError | None = None
        self.target = target
        self.fsync = fsync
        n = table.options["players"]
        self.seats = [dict(s) for s in seats] if seats else [{"kind": s.get("kind", "bot")} for s in table.seats]
        if len(self.seats) != n:
            raise ValueError(f"{len(self.seats)} seats described for a {n}-player table")
        self.deck = None if deck is None else list(deck)
        self.first = first
        self.extra = extra
        if self.deck is None:
            self.server_seed = server_seed if server_seed is not None else new_server_seed()
            self.seat_seeds = list(seat_seeds) if seat_seeds is not None else [None] * n
            if len(self.seat_seeds) != n:
                raise ValueError(f"{len(self.seat_seeds)} seat seeds for a {n}-player table")
            self.key = deal_key(self.server_seed, self.seat_seeds)
        else:
            self.server_seed = None
            self.seat_seeds = None
            self.key = None
        self.writer: LogWriter | None = None
        #: Fields the footer carries besides the result: a match's ``forfeits``.
        self.notes: dict = {}
        # Passes not written yet (see answer()): the seats, the clock of the last one,
        # and the events they produced (only a pass that closes the window has any).
        self._passed: list[int] = []
        self._passed_now = 0.0
        self._passed_events: list[dict] = []

    # ------------------------------------------------------------------ queries

    @property
    def commitment(self) -> str | None:
        """The hex commitment to the server seed (``None`` for an explicit deck)."""
        return None if self.server_seed is None else commitment(self.server_seed).hex()

    @property
    def head(self) -> str | None:
        """The current chain head in hex (``None`` when nothing is written)."""
        return None if self.writer is None else self.writer.head.hex()

    # The table as a driver reads it (pidor.driver.DrivenTable); the inputs are below.
    game = property(lambda self: self.table.game)
    options = property(lambda self: self.table.options)
    window = property(lambda self: self.table.window)
    court = property(lambda self: self.table.court)
    mark = property(lambda self: self.table.mark)
    over = property(lambda self: self.table.over)
    honest_only = property(lambda self: self.table.honest_only)
    timer = property(lambda self: self.table.timer)

    def to_act(self) -> list[int]:
        return self.table.to_act()

    def waiting_answers(self) -> list[int]:
        return self.table.waiting_answers()

    def waiting_votes(self) -> list[int]:
        return self.table.waiting_votes()

    def honest_actions(self, seat: int) -> list[tuple]:
        return self.table.honest_actions(seat)

    def actions(self, seat: int) -> list[tuple]:
        return self.table.actions(seat)

    def view(self, seat: int | None) -> dict:
        return self.table.view(seat)

    def deadline(self) -> float | None:
        return self.table.deadline()

    def to_data(self) -> dict:
        return self.table.to_data()

    # ------------------------------------------------------------------ header

    def header(self) -> dict:
        t = self.table
        from ..games import game_class

        cls = game_class(t.options["game"])
        if self.deck is None:
            deal = {"commitment": self.commitment,
                    "seat_seeds": [None if s is None else bytes(s).hex() for s in self.seat_seeds]}
        else:
            from ..cards import card_code

            deal = {"deck": [card_code(c) for c in self.deck]}
        deal["first"] = self.first
        out = {
            "game": cls.name,
            "engine": cls.version,
            "software": f"pidor {__version__}",
            "options": plain(logged(t.options, cls.OPTIONS)),
            "seats": plain(self.seats),
            "table": {"number": t.games + 1, "mark": t.mark, "previous": plain(t.previous)},
            "deal": deal,
        }
        if self.extra:
            out["extra"] = plain(self.extra)
        return out

    # ------------------------------------------------------------------ inputs

    def start(self, now: float = 0.0) -> list[dict]:
        header = self.header()
        events = self.table.start(seed=self.key, deck=self.deck, first=self.first, now=now)
        if self.target is not None:
            try:
                self.writer = LogWriter(self.target, header, fsync=self.fsync)
            except LogWriteError as e:
                self._failed(e, events)
                return events
            self._write("start", {"now": float(now)}, events)
        return events

    #: :meth:`act` takes ``passed``, as :meth:`Table.act` does.
    TAKES_PASSED = True

    def act(self, seat: int, action: tuple, now: float = 0.0, *, auto: str | None = None,
            honest: bool = False, parsed: bool = False, passed: bool = False) -> list[dict]:
        """A game action. ``auto``: T9, the honest bot acted for the seat (``timeout`` or
        ``absent``); ``honest``, ``parsed`` and ``passed``: as for :meth:`Table.act` (the
        passes are logged as :meth:`passes` logs them)."""
        events = self.table.act(seat, action, now, honest=honest, parsed=parsed)
        if self.writer is not None:
            data = {"seat": seat, "action": self.table.game.action_data(action), "now": float(now)}
            if auto is not None:
                data["auto"] = auto
            self._write("act", data, events)
        if passed and self.table.window is not None:
            events = events + self.passes(self.table.waiting_answers(), now)  # (a new list: the record has its own)
        return events

    def answer(self, seat: int, call: bool, now: float = 0.0) -> list[dict]:
        """A call or a pass. Passes are not records of their own: they are written with
        the next record, as its ``passed`` field, and the events of the pass that closed
        the window (the closing's consequences) open that record's ``events``. A pass
        changes nothing else, so no consequence is ever left out of the log."""
        events = self.table.answer(seat, call, now)
        if self.writer is not None:
            if call:
                self._write("call", {"seat": seat, "now": float(now)}, events)
            else:
                self._passed.append(seat)
                self._passed_now = float(now)
                self._passed_events += events
        return events

    def passes(self, seats: list[int], now: float = 0.0) -> list[dict]:
        """Passes of several seats in one call (:meth:`Table.passes`), logged as the same
        passes one by one would be."""
        events = self.table.passes(seats, now)
        if self.writer is not None:
            self._passed += seats
            self._passed_now = float(now)
            self._passed_events += events
        return events

    def vote(self, seat: int, guilty: bool, now: float = 0.0) -> list[dict]:
        events = self.table.vote(seat, guilty, now)
        if self.writer is not None:
            self._write("vote", {"seat": seat, "guilty": bool(guilty), "now": float(now)}, events)
        return events

    def abstain(self, seat: int, now: float = 0.0) -> list[dict]:
        """T4: a voter who will not vote (away) abstains now, not at the vote's deadline."""
        events = self.table.abstain(seat, now)
        if self.writer is not None:
            self._write("abstain", {"seat": seat, "now": float(now)}, events)
        return events

    def tick(self, now: float) -> list[dict]:
        """The clock: a window, a vote or a game clock ran out (written only when something
        was due; a tick with nothing due changes nothing)."""
        deadline = self.table.deadline()
        events = self.table.tick(now)
        if self.writer is not None and (events or (deadline is not None and now >= deadline)):
            self._write("tick", {"now": float(now)}, events)
        return events

    def _write(self, kind: str, data: dict, events: list[dict]) -> None:
        """Write one record: the passes not written yet, then ``data``, then the events
        (those of the passes first)."""
        body: dict = {}
        logged = events
        if self._passed:
            body["passed"] = {"seats": self._passed, "now": self._passed_now}
            if self._passed_events:
                logged = self._passed_events + events
            self._passed, self._passed_events = [], []
        body.update(data)
        body["events"] = log_events(logged)
        try:
            self.writer.record(kind, body)
        except LogWriteError as e:
            self._failed(e, events)

    def _failed(self, error: LogWriteError, events: list[dict]) -> None:
        """Stop writing; report the error to ``on_error`` or raise it with the events."""
        self.error = error
        if self.writer is not None:
            try:
                self.writer.close(None)
            except LogWriteError:
                pass
        self.writer = None
        error.events = events
        if self.on_error is None:
            raise error
        self.on_error(error)

    # ------------------------------------------------------------------ footer

    def footer(self, aborted: str | None = None) -> dict:
        t = self.table
        result = None if aborted is not None or t.game is None else t.game.result
        out: dict[str, Any] = {"status": "aborted" if aborted is not None else "over"}
        if aborted is not None:
            out["reason"] = aborted
        out["result"] = plain(result)
        out["order"] = plain(result["order"]) if result else None
        out["mark"] = t.mark
        out["reveal"] = None if self.server_seed is None else {"server_seed": self.server_seed.hex()}
        out.update(plain(self.notes))
        return out

    def close(self, aborted: str | None = None) -> None:
        """Write the footer and close the log. A finished game closes as ``over``; pass
        ``aborted`` (a reason) for a game that stops before its end."""
        if self.writer is None or self.writer.closed:
            return
        if aborted is None and not self.table.over:
            raise ValueError("the game is not over: close(aborted=reason) to cut it off")
        if self._passed:  # passes that no input followed: a record of their own
            self._write("pass", {}, [])
            if self.writer is None:
                return
        try:
            self.writer.close(self.footer(aborted))
        except LogWriteError as e:
            self._failed(e, [])

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc) -> None:
        if self.writer is not None:
            self.writer.close(None)  # an exception: leave the log unfinished
