"""The per-table task: the only code that mutates a :class:`~pidor.engine.table.Table`.

Requests reach it through a bounded inbox (``submit``). One cycle of the task (never
waiting: a request that finds the task parked, nothing queued, has its cycle run at once in
the sender's task, ``_inline``, without the hop to the task and back)::

    wait for a request or the next deadline (parked: a cancel scope's deadline)
    handle every queued request: its handler from the table (join, leave, seed, start, ...:
        hosting.py; act, call, pass, vote: plays.py; watch, unwatch, resync: here)
    tick the table's clocks (T3 window, T4 vote, D5 «бито») and the turn clocks (T9)
    let the bots and the stand-ins of away seats play, answer and vote (T3: at once)
    prompt each human whose turn it is ("turn", tutorial "hint", T11)        (drive.py)
    flush: hand every connection its frames (never blocks: a full queue drops the client),
           but hold those that ask nothing of a client that never calls (outbox.py)

The task is made of parts (:mod:`.state`): :class:`~.hosting.Hosting`,
:class:`~.plays.Plays` and :class:`~.drive.Drive` share the table's
:class:`~.state.TableState` and call the runner through its narrow surface
(:class:`~.state.Runner`); the table's owner changes what its
:class:`~.hooks.TableHooks` say (a match's table). The runner itself holds the inbox and
the cycle, the request handler table, and what goes out: replies, events (emitted by
:mod:`.emission`), snapshots and the spectators' tapes.

The table task gets the server as a :class:`~pidor.server.seams.House` (seeds, log paths,
the games index, seat bookkeeping, observers) and its clients as
:class:`~pidor.server.seams.Peer` objects: nothing else of the server.

Every table call goes through the game's recorder (``state.rec``, see ``game_log.py``), so
the game log holds every input; the events it returns go, in order, to the house's
``log_sink`` observer (full form) and to each seat as ``project(event, seat)``, numbered by
``seq``. After an ``undo`` every seat gets a fresh ``snapshot``, since undo restores the
state wholesale.
"""

from __future__ import annotations

import logging
import math
from typing import Callable

import trio

from .. import wire
from ..engine.game import ActionError, Event
from ..engine.seeds import Rng
from .drive import Drive
from .emission import emit, rel
from .hooks import TableHooks
from .hosting import Hosting
from .outbox import Outbox
from .plays import PLAYS, Plays
from .requests import RequestError
from .seams import House, Peer
from .seating import Seat
from .seeds import commitment_hex
from .spectators import MAX_SPECTATORS, Spectators
from .state import Handler, TableState

__all__ = ["TableRunner", "Busy", "INBOX", "TABLE_REQUESTS"]

log = logging.getLogger(__name__)

#: Requests waiting for a table task; a full inbox refuses with ``busy``.
INBOX = 256

#: Requests a table task handles (``table`` names the table; default: the player's own).
TABLE_REQUESTS = ("join", "leave", "seed", "start", "bot", "act", "call", "pass", "vote", "tutorial_off", "resync",
                  "watch", "unwatch")


#: What wakes a parked table task without an item (a cycle run by ``submit`` left it
#: something to do).
_WAKE = ("wake", None, None, None)


class Busy(Exception):
    """The table's inbox is full."""


def _rel_view(view: dict, now: float) -> dict:
    status = view.get("status")  # the table's public state (Table.view)
    if isinstance(status, dict):
        for key in ("window", "court"):
            if status.get(key):
                status[key] = {**status[key], "deadline": rel(status[key]["deadline"], now)}
    return view


class TableRunner:
    """One table: ``options`` as :func:`~pidor.server.seating.server_options` checked them,
    ``bot_specs`` for the last seats, ``hooks`` its owner's (default: none). ``run`` is its
    task (the server starts it); the lobby hands it requests with ``submit``."""

    #: A request that finds the task parked (waiting for its inbox, nothing queued) is
    #: handled at once in its sender's task (``_inline``): one task switch and channel
    #: hop fewer a request (issue 29). False: every request goes through the inbox.
    inline = True

    def __init__(self, house: House, table_id: int, options: dict, bot_specs: list[dict],
                 hooks: TableHooks | None = None) -> None:
        self.house = house
        options = dict(options)  # the table's (Table's) options; the delay is the spectators'
        self.spectators = Spectators(options.pop("watch_delay", 0.0))
        n = options["players"]
        seats = [Seat(i) for i in range(n)]
        for k, spec in enumerate(bot_specs):
            seats[n - len(bot_specs) + k].seat_bot(spec)
        rng = Rng(house.new_seed(), b"runner")  # who of several seats acts first
        self.state = TableState(table_id, options, seats, next_seed=house.new_seed())
        self.hooks = hooks if hooks is not None else TableHooks()
        self.drive = Drive(self.state, self, self.hooks, rng)
        self.plays = Plays(self.state, self)
        self.hosting = Hosting(self.state, self, self.drive, self.hooks)
        #: Each request's handler, by kind (TABLE_REQUESTS); those the owner refuses refuse.
        self.handlers: dict[str, Handler] = {
            **self.hosting.handlers(), **self.plays.handlers(),
            "resync": self._do_resync, "watch": self._do_watch, "unwatch": self._do_unwatch}
        for kind, reason in self.hooks.refused.items():
            self.handlers[kind] = _Refuse(reason)
        self.outbox = Outbox()
        self._packed_info: bytes | None = None  # info() packed, until the table info changes
        self._replied = False  # the request being handled has its reply (or error)
        # Requests are bounded (INBOX: then ``busy``); presence (``away``/``back``) never is:
        # it is bounded by the connections, and a lost one would leave a seat deaf.
        self._inbox_send, self._inbox = trio.open_memory_channel(math.inf)
        self._requests = 0  # requests in the inbox
        # The task waits for its inbox (parked) in ``_wait``, whose deadline a request
        # handled meanwhile in its sender's task moves (``_inline``).
        self._parked = False
        self._wait: trio.CancelScope | None = None
        self._cycling = False  # a cycle is under way (a request it causes is queued, not run within it)
        self._finished = False  # (_finish has run)

    # The table as the lobby, the server, the conformance kit and tests read it.
    id = property(lambda self: self.state.id)
    options = property(lambda self: self.state.options)
    seats = property(lambda self: self.state.seats)
    host = property(lambda self: self.state.host)
    table = property(lambda self: self.state.table)
    game_log = property(lambda self: self.state.game_log)
    rec = property(lambda self: self.state.rec)
    seq = property(lambda self: self.state.seq)
    closed = property(lambda self: self.state.closed)
    close_reason = property(lambda self: self.state.close_reason)
    playing = property(lambda self: self.state.playing)
    _driver = property(lambda self: self.state.driver)  # (its policies: tests/test_server_seams.py)

    # ------------------------------------------------------------------ outside

    def submit(self, item: tuple) -> None:
        """Queue ``(op, conn, player, message)`` for the table task; raises ``Busy``.
        After a ``request`` its connection waits until the task has answered it
        (``Connection.wait_for_table``): replies keep the order of requests, and one
        connection has at most one request in a table's inbox. ``away``/``back`` need
        no answer; an op the table does not know is its owner's (``TableHooks.item``)."""
        if self._finished:  # (closed by a cycle run in a sender's task: nothing reads the inbox)
            if item[0] == "request":
                self._error(item[1], item[3].get("id"), "no_table", f"table {self.state.id} has closed")
                self.outbox.flush(trio.current_time(), hold=False)
            return
        if item[0] == "request":
            if self._parked and self.inline and not self._cycling:
                self._inline(item)
                return
            if self._requests >= INBOX:
                raise Busy
            self._requests += 1
            self._parked = False
            self._inbox_send.send_nowait(item)
            item[1].wait_for_table()
        else:
            self._parked = False  # (what was sent before a request is handled before it)
            self._inbox_send.send_nowait(item)

    def packed_info(self) -> bytes:
        """``info()`` in msgpack (``wire.pack``), kept until the table info changes: the
        lobby's ``list`` pages are made of these (``wire.encode_packed``)."""
        packed = self._packed_info
        if packed is None:
            packed = self._packed_info = wire.pack(self.info())
        return packed

    def _info_changed(self) -> None:
        """The table info may have changed (a seat, the state, a seed, the next deal's
        commitment): the packed one is made again when next asked for, and the lobby's
        pages that showed it go. Called wherever the info may change: whatever a cycle
        changes, the lobby reads it only after the cycle."""
        self._packed_info = None
        self.house.table_changed(self.state.id)

    def info(self) -> dict:
        st = self.state
        out = {
            "id": st.id,
            "game": st.options["game"],
            "options": dict(st.options),
            "seats": [s.info() for s in st.seats],
            "host": st.host,
            "state": "playing" if st.playing else "waiting",
            "games": 0 if st.table is None else st.table.games,
            "commitment": commitment_hex(st.next_seed),
            "game_commitment": st.rec.commitment if st.game_open else None,
        }
        if self.spectators.delay:  # (absent when none, like every optional field)
            out["watch_delay"] = self.spectators.delay
        return out

    def start_game(self, conn: Peer | None, rid, server_seed: bytes | None = None, fresh: bool = False) -> None:
        self.hosting.start_game(conn, rid, server_seed, fresh)

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        st = self.state
        try:
            more = False
            while not st.closed:
                if more:
                    await trio.lowlevel.checkpoint()
                    more = self._cycle(None)
                    continue
                # Parked: a request may be handled in its sender's task meanwhile
                # (``submit``), which moves this wait's deadline.
                item = None  # (a deadline: nothing came)
                with trio.CancelScope(deadline=self._deadline()) as self._wait:
                    self._parked = True
                    item = await self._inbox.receive()
                self._parked = False
                self._wait = None
                if st.closed:  # (closed by a cycle run in a sender's task: finished there)
                    break
                more = self._cycle(None if item is _WAKE else item)
        except Exception:
            self._fail()
        finally:
            self._finish()

    def _fail(self) -> None:
        """A cycle raised (called in its ``except``): the table closes, its clients get
        what was queued for them."""
        log.exception("table %s failed; closing it", self.state.id)
        self.state.close_reason = "internal_error"
        self.outbox.flush(trio.current_time(), hold=False)

    def _finish(self) -> None:
        """The table has closed, or its task ends: once, by the task or by the sender's
        task whose cycle closed it."""
        st = self.state
        if self._finished:
            return
        self._finished = True
        self._parked = False
        if not st.closed and st.close_reason == "empty":
            st.close_reason = "shutdown"  # cancelled: the server is stopping
        st.closed = True
        self._refuse_queued()
        self._spectators_closed()
        if st.game_open:  # a game cut off: its log ends as aborted
            st.game_open = False
            st.game_log.abort(st.close_detail or st.close_reason)
        st.driver = None  # (it refers back to the runner: no cycle outlives the table)
        self.house.table_closed(st.id, st.close_reason)
        # The parts and the handler table refer back to the runner: they go with its task.
        self.handlers = {}
        del self.hosting, self.plays, self.drive

    def _cycle(self, item: tuple | None) -> bool:
        """One cycle of the table (the module's docstring): ``item`` first (``None``: a
        deadline or the budget woke it), then whatever else waits in the inbox; ``True``
        if the bots have more to do at once. It never waits: from the first ``_handle`` to
        the flush there is no await, so a connection whose request ``_handle`` answered
        (``Connection.table_answered``) runs again only once its reply and the frames
        before it are handed over, and its next request's reply cannot overtake them.
        Keep it so."""
        st = self.state
        self._cycling = True
        try:
            if item is not None:
                self._take(item)
            while not st.closed:
                try:
                    item = self._inbox.receive_nowait()
                except trio.WouldBlock:
                    break
                self._take(item)
            now = trio.current_time()
            self.drive.tick(now)
            more = self.drive.drive(now)
            self.drive.prompt(now)
            if not more:
                self.drive.halt_if_stuck()
            self.drive.watch_presence(now)
            self._spectators_due(now)
            self.outbox.flush(now)
            return more
        finally:
            self._cycling = False

    def _deadline(self) -> float:
        deadline = self._next_deadline()
        return math.inf if deadline is None else deadline

    def _inline(self, item: tuple) -> None:
        """Handle a request in its sender's task while the table's task is parked with
        nothing queued (the usual case): the same cycle the task would run, without the
        hop to the task and back. The task wakes only for what it must do itself: go on
        with the bots (the cycle's budget ran out), close, or fail."""
        self._requests += 1
        item[1].wait_for_table()
        try:
            more = self._cycle(item)
        except Exception:  # as if the task had run the cycle: the table closes
            self._fail()
            self.state.closed = True
        if self.state.closed:
            self._finish()
            self._wake()  # (its task ends)
        elif more:
            self._wake()
        else:
            # Moved only earlier (moving a deadline costs; a clock pushed back at every
            # action, a turn's, would move it each time): woken too early, the task finds
            # nothing due and parks again with the right one.
            deadline = self._deadline()
            if deadline < self._wait.deadline:
                self._wait.deadline = deadline

    def _wake(self) -> None:
        self._parked = False
        self._inbox_send.send_nowait(_WAKE)

    def _refuse_queued(self) -> None:
        """The table has closed: each request still in the inbox gets ``no_table`` (its
        connection waits for an answer before it reads on)."""
        while True:
            try:
                op, conn, player, msg = self._inbox.receive_nowait()
            except trio.WouldBlock:
                break
            if op == "request":
                self._requests -= 1
                self._error(conn, msg.get("id"), "no_table", f"table {self.state.id} has closed")
                conn.table_answered()
        self.outbox.flush(trio.current_time(), hold=False)

    def _next_deadline(self) -> float | None:
        first = self.drive.next_deadline()
        for x in (self.outbox.next_due(), self.spectators.next_due() if self.spectators else None):
            if x is not None and (first is None or x < first):
                first = x
        return first

    # ------------------------------------------------------------------ requests

    def _take(self, item: tuple) -> None:
        """Handle an inbox item; any but a game request (act, call, pass, vote: they change
        the info only through what ``broadcast_info`` and ``server_event`` see) may change
        the table info."""
        if item is _WAKE:
            return
        self._handle(item)
        if item[0] != "request" or item[3]["type"] not in PLAYS:
            self._info_changed()

    def _handle(self, item: tuple) -> None:
        op, conn, player, msg = item
        if op == "request":
            self._requests -= 1
            rid = msg.get("id")
            self._replied = False
            try:
                self.handlers[msg["type"]](conn, player, msg, rid)
            except (RequestError, ActionError) as e:
                self._error(conn, rid, e.code, e.message, getattr(e, "rule", None))
                seat = self.state.seat_of(player)
                if seat is not None:
                    seat.turn_seq = None  # any refused request: the "turn" comes again
            except Exception:
                if not self._replied:  # the table fails (run: internal_error): answered as the queued ones are
                    self._error(conn, rid, "no_table", f"table {self.state.id} has closed")
                raise
            finally:
                conn.table_answered()  # (a failing table too: its connection reads on)
        elif op == "away":
            self.hosting.away(conn, player)
        elif op == "back":
            self.hosting.back(conn, player)
        elif op == "unwatch":  # the spectator's connection closed, or he watches another table
            self.spectators.remove(conn)
        elif op == "close":
            self.state.closed, self.state.close_reason = True, "shutdown"
        else:
            self.hooks.item(self, item)

    def _do_resync(self, conn, player, msg, rid) -> None:
        """A fresh snapshot: a seat's before the ``ok``; a spectator's after it, on his
        tape (delayed as everything he gets). Before the first game, the table info."""
        st = self.state
        seat = st.seat_of(player)
        if seat is None and conn not in self.spectators:
            raise RequestError("not_seated", f"you neither sit at nor watch table {st.id}")
        if st.table is None:
            self.reply(conn, rid, {"type": "table", "table": self.info()})
            return
        now = trio.current_time()
        if seat is None:
            self.reply(conn, rid, {"type": "ok"})
            self.snapshot_spectators(now, conn)
            return
        self.snapshot(seat, now)
        self.reply(conn, rid, {"type": "ok"})

    # ------------------------------------------------------------------ output

    def send(self, conn: Peer | None, message: dict, seat: int | None = None, hidden: set | None = None,
             urgent: bool = True) -> None:
        """Queue a message for ``conn``: a reply, a prompt or a notice (``urgent``: never
        held)."""
        if conn is not None and not conn.closed:
            self._queue(conn, wire.encode(message), seat, hidden, urgent)

    def _queue(self, conn: Peer, frame: bytes, seat: int | None = None, hidden: set | None = None,
               urgent: bool = False) -> None:
        """Queue an encoded frame for ``conn``, sent at the end of the cycle or, if it is
        not ``urgent`` and the client never calls, held (:mod:`.outbox`)."""
        audit = self.house.audit
        if audit is not None and seat is not None:
            if hidden is None:
                t = self.state.table
                hidden = t.game.hidden_from(seat) if t and t.game else set()
            audit(self.state.id, seat, frame, hidden)
        self.outbox.put(conn, frame, urgent)

    def reply(self, conn, rid, message: dict, urgent: bool = True) -> None:
        self._replied = True
        if rid is None and message["type"] == "ok":
            return  # a request without an id gets no "ok" (errors are always sent)
        message["id"] = rid
        self.send(conn, message, urgent=urgent)

    def _error(self, conn, rid, code: str, text: str, rule: str | None = None) -> None:
        self._replied = True
        msg = {"type": "error", "id": rid, "code": code, "message": text}
        if rule is not None:
            msg["rule"] = rule
        self.send(conn, msg)
        self.hooks.refused_request(self, conn, code)

    def _broadcast(self, message: dict) -> None:
        for s in self.state.seats:
            if s.kind == "human" and s.conn is not None:
                self.send(s.conn, message)

    def broadcast_info(self) -> None:
        self._info_changed()
        message = {"type": "table", "table": self.info()}
        self._broadcast(message)
        if self.spectators:
            self._to_spectators(wire.encode(message), trio.current_time())

    def release(self, conn: Peer) -> None:
        """Hand ``conn`` the frames held for it now: it sent a request, and the answer
        to it must not overtake them (PROTOCOL.md §2: replies in the order of requests)."""
        self.outbox.release(conn)

    def snapshot(self, seat: Seat, now: float) -> None:
        if seat.conn is None or self.state.table is None:
            return
        self.send(seat.conn, self._snapshot_message(seat.index, now), seat.index)
        seat.turn_seq = None  # prompt again after a snapshot

    def _snapshot_message(self, seat: int | None, now: float) -> dict:
        """The table as ``seat`` sees it now (``None``: a spectator)."""
        st = self.state
        view = _rel_view(st.table.view(seat), now)
        return {"type": "snapshot", "table": st.id, "seq": st.seq, "seat": seat, "view": view, "info": self.info()}

    # ------------------------------------------------------------------ spectators

    def snapshot_spectators(self, now: float, conn: Peer | None = None) -> None:
        if self.spectators:
            self._to_spectators(wire.encode(self._snapshot_message(None, now)), now, conn)

    def _to_spectators(self, frame: bytes, now: float, conn: Peer | None = None, hidden: set | None = None) -> None:
        """Put a frame on the spectators' tapes (``conn``: on his alone). The audit sees it
        now, against the cards hidden from seat ``None`` now (``hidden``: those hidden
        both before and after the events it shows)."""
        audit = self.house.audit
        if audit is not None:
            if hidden is None:
                t = self.state.table
                hidden = t.game.hidden_from(None) if t and t.game else set()
            audit(self.state.id, None, frame, hidden)
        for dropped in self.spectators.record(frame, now, conn):
            log.info("table %s: a spectator (%s) fell too far behind; dropped", self.state.id, dropped.peer)
            self.send(dropped, {"type": "closed", "table": self.state.id, "reason": "behind"})

    def _spectators_due(self, now: float) -> None:
        """Hand over the spectators' frames that are due."""
        for conn, frames in self.spectators.release(now):
            if not conn.closed:
                self.outbox.extend(conn, frames)

    def _spectators_closed(self) -> None:
        """The table has closed: each spectator gets what waits on his tape, then
        ``closed``."""
        for conn, frames in self.spectators.release(None):
            conn.send_frames(frames)
        for conn in self.spectators:
            conn.send({"type": "closed", "table": self.state.id, "reason": self.state.close_reason})
            self.spectators.remove(conn)

    def _do_watch(self, conn, player, msg, rid) -> None:
        st = self.state
        if st.seat_of(player) is not None:
            raise RequestError("already_seated", f"you sit at table {st.id}: your seat sees more than a "
                                                 "spectator; leave it first to watch")
        if conn not in self.spectators and len(self.spectators) >= MAX_SPECTATORS:
            raise RequestError("spectators_full", f"table {st.id} has {MAX_SPECTATORS} spectators, the most "
                                                  "it takes; try later")
        self.spectators.add(conn)
        self.reply(conn, rid, {"type": "watching", "table": self.info(), "delay": self.spectators.delay})
        if st.table is not None:
            self.snapshot_spectators(trio.current_time(), conn)
        log.info("table %s: player %s watches (%d spectators)", st.id, player, len(self.spectators))

    def _do_unwatch(self, conn, player, msg, rid) -> None:
        self.spectators.remove(conn)
        self.reply(conn, rid, {"type": "ok"})

    # ------------------------------------------------------------------ events

    def _hidden(self) -> dict[int | None, set] | None:
        """The cards hidden from each seat and from spectators (``None``), for the audit."""
        t = self.state.table
        if self.house.audit is None or t is None:
            return None
        return {s: t.game.hidden_from(s) for s in [*range(len(self.state.seats)), None]}

    def call(self, fn: Callable[..., list[Event]], *args, **kwargs) -> list[Event]:
        """One table call (a method of ``state.rec``); its events go out. Raises
        ``ActionError`` unchanged."""
        before = self._hidden()
        events = fn(*args, **kwargs)
        self.emit(events, before)
        return events

    def call_for(self, conn, rid, fn: Callable[..., list[Event]], *args) -> None:
        """A table call made for a request: the ``ok`` reply goes before its events."""
        before = self._hidden()
        events = fn(*args)
        self.reply(conn, rid, {"type": "ok"}, urgent=False)  # (it asks nothing: it may be held)
        self.emit(events, before)

    def emit(self, events: list[Event], before: dict | None = None) -> None:
        """Events the table returned: to the owner's hook and the log sink in full form,
        to the bots' driver, then numbered and projected for each seat and the spectators
        (``before``: the cards hidden from each before the call, for the audit). The
        game's end comes last (``Hosting.game_over``). See :mod:`.emission`."""
        emit(self, events, before)

    def server_event(self, event: Event) -> None:
        """An event the server adds to the game's stream (timeouts, seats, game over)."""
        if event["type"] == "seat":  # (away, back, a bot for a player who left or forfeited)
            self._info_changed()
        self.emit([event], self._hidden())

class _Refuse:
    """The handler of a request the table's owner refuses (``TableHooks.refused``)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __call__(self, conn, player, msg, rid) -> None:
        raise RequestError("not_host", self.reason)
