"""The per-table task: the only code that mutates a :class:`~pidor.engine.table.Table`.

Requests reach it through a bounded inbox (``submit``). One cycle of the task::

    wait for a request or the next deadline (trio: move_on_at)
    handle every queued request (join, leave, seed, start, ...; act, call, pass, vote: plays.py)
    tick the table's clocks (T3 window, T4 vote, D5 «бито») and the turn clocks (T9)
    let the bots and the stand-ins of away seats play, answer and vote (T3: at once)
    prompt each human whose turn it is ("turn", tutorial "hint", T11)
    flush: hand every connection its frames (never blocks: a full queue drops the client),
           but hold those that ask nothing of a client that never calls (outbox.py)

The table task gets the server as a :class:`~pidor.server.seams.House` (seeds, log paths,
the games index, seat bookkeeping, observers) and its clients as
:class:`~pidor.server.seams.Peer` objects: nothing else of the server.

Every table call goes through the game's recorder (``self.rec``, see ``game_log.py``), so
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
from ..bots import RandomBot, make_policy, parse_spec
from ..engine.game import ActionError, Event, project
from ..engine.seeds import Rng
from ..engine.table import Table
from ..gamelog.deal import MAX_SEAT_SEED
from ..gamelog.record import Recorder
from .drive import ABANDON_AFTER, Drive
from .game_log import GameLog
from .outbox import ASKING, Outbox
from .plays import PLAYS, Plays
from .requests import RequestError, field_int, field_str
from .seams import House, Peer
from .seating import Seat
from .seeds import commitment_hex, parse_seed
from .spectators import MAX_SPECTATORS, Spectators

__all__ = ["TableRunner", "Busy", "INBOX", "TABLE_REQUESTS"]

log = logging.getLogger(__name__)

#: Requests waiting for a table task; a full inbox refuses with ``busy``.
INBOX = 256

#: Requests a table task handles (``table`` names the table; default: the player's own).
TABLE_REQUESTS = ("join", "leave", "seed", "start", "bot", "act", "call", "pass", "vote", "tutorial_off", "resync",
                  "watch", "unwatch")


class Busy(Exception):
    """The table's inbox is full."""


def _rel(deadline: float | None, now: float) -> float | None:
    """Deadlines go on the wire as seconds from now (the server's clock is its own)."""
    return None if deadline is None else round(max(0.0, deadline - now), 3)


def _rel_view(view: dict, now: float) -> dict:
    status = view.get("status")  # the table's public state (Table.view)
    if isinstance(status, dict):
        for key in ("window", "court"):
            if status.get(key):
                status[key] = {**status[key], "deadline": _rel(status[key]["deadline"], now)}
    return view


class TableRunner(Drive, Plays):
    """One table: ``options`` as :func:`~pidor.server.seating.server_options` checked them,
    ``bot_specs`` for the last seats. ``run`` is its task (the server starts it); the
    lobby hands it requests with ``submit``."""

    def __init__(self, house: House, table_id: int, options: dict, bot_specs: list[dict]) -> None:
        self.house = house
        self.id = table_id
        self.options = dict(options)  # the table's (Table's) options; the delay is the spectators'
        self.spectators = Spectators(self.options.pop("watch_delay", 0.0))
        n = options["players"]
        self.seats = [Seat(i) for i in range(n)]
        for k, spec in enumerate(bot_specs):
            self.seats[n - len(bot_specs) + k].seat_bot(spec)
        self.host: int | None = None
        self.table: Table | None = None
        self.seq = 0
        self.closed = False
        self.close_reason = "empty"  # why the table closed: empty, abandoned, shutdown, internal_error
        self.game_ref: dict = {}  # the running game as the log sink names it: table, number, log path
        self._game_open = False  # a game started and its results are not out yet
        self.game_log: GameLog | None = None  # the running game's recorder and log
        self.rec: Recorder | None = None  # its Recorder: every table call of a game goes through it
        self._occupants: list[tuple] = []
        self._standins: dict[int, RandomBot] = {}
        self._driver = None  # the running game's bot driver (Drive._new_driver)
        self._rng = Rng(self.house.new_seed(), b"runner")
        self._next_seed = self.house.new_seed()  # T10: the next deal's secret server seed
        self.outbox = Outbox()
        self._packed_info: bytes | None = None  # info() packed, until the table info changes
        self._replied = False  # the request being handled has its reply (or error)
        # Where choices begin (PROTOCOL.md §5 "Acting on what you saw"): the seq of the last
        # event after which an action chosen earlier is stale, of the open window's and of
        # the sitting court's event.
        self._choice_seq = self._window_seq = self._court_seq = 0
        self._abandoned_at: float | None = None  # every person at a running game is away since
        # Requests are bounded (INBOX: then ``busy``); presence (``away``/``back``) never is:
        # it is bounded by the connections, and a lost one would leave a seat deaf.
        self._inbox_send, self._inbox = trio.open_memory_channel(math.inf)
        self._requests = 0  # requests in the inbox

    # ------------------------------------------------------------------ outside

    def submit(self, item: tuple) -> None:
        """Queue ``(op, conn, player, message)`` for the table task; raises ``Busy``.
        After a ``request`` its connection waits until the task has answered it
        (``Connection.wait_for_table``): replies keep the order of requests, and one
        connection has at most one request in a table's inbox. ``away``/``back`` need
        no answer."""
        if item[0] == "request":
            if self._requests >= INBOX:
                raise Busy
            self._requests += 1
            self._inbox_send.send_nowait(item)
            item[1].wait_for_table()
        else:
            self._inbox_send.send_nowait(item)

    @property
    def playing(self) -> bool:
        return self.table is not None and not self.table.over

    def seat_of(self, player: int) -> Seat | None:
        for s in self.seats:
            if s.kind == "human" and s.player == player:
                return s
        return None

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
        self.house.table_changed(self.id)

    def info(self) -> dict:
        out = {
            "id": self.id,
            "game": self.options["game"],
            "options": dict(self.options),
            "seats": [s.info() for s in self.seats],
            "host": self.host,
            "state": "playing" if self.playing else "waiting",
            "games": 0 if self.table is None else self.table.games,
            "commitment": commitment_hex(self._next_seed),
            "game_commitment": self.rec.commitment if self._game_open else None,
        }
        if self.spectators.delay:  # (absent when none, like every optional field)
            out["watch_delay"] = self.spectators.delay
        return out

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        try:
            more = False
            while not self.closed:
                if more:
                    await trio.lowlevel.checkpoint()
                else:
                    deadline = self._next_deadline()
                    if deadline is None:  # (no cancel scope to set up: the usual wait costs less)
                        self._take(await self._inbox.receive())
                    else:
                        with trio.move_on_at(deadline):
                            self._take(await self._inbox.receive())
                # From the first _handle to the flush there is no await: a connection
                # whose request _handle answered (Connection.table_answered) runs again
                # only once its reply and the frames before it are handed over, so its
                # next request's reply cannot overtake them. Keep it so.
                while not self.closed:
                    try:
                        item = self._inbox.receive_nowait()
                    except trio.WouldBlock:
                        break
                    self._take(item)
                now = trio.current_time()
                self._tick(now)
                more = self._drive(now)
                self._prompt(now)
                self._watch_presence(now)
                self._spectators_due(now)
                self.outbox.flush(now)
        except Exception:
            log.exception("table %s failed; closing it", self.id)
            self.close_reason = "internal_error"
            self.outbox.flush(trio.current_time(), hold=False)
        finally:
            if not self.closed and self.close_reason == "empty":
                self.close_reason = "shutdown"  # cancelled: the server is stopping
            self.closed = True
            self._refuse_queued()
            self._spectators_closed()
            if self._game_open:  # a game cut off: its log ends as aborted
                self._game_open = False
                self.game_log.abort(self.close_reason)
            self._driver = None  # (it refers back to the runner: no cycle outlives the table)
            self.house.table_closed(self.id, self.close_reason)

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
                self._error(conn, msg.get("id"), "no_table", f"table {self.id} has closed")
                conn.table_answered()
        self.outbox.flush(trio.current_time(), hold=False)

    def _next_deadline(self) -> float | None:
        t = self.table
        times = [self.spectators.next_due(), self.outbox.next_due()]
        if t is not None and not t.over:
            times += [s.turn_deadline for s in self.seats]
            if self._abandoned_at is not None:
                times.append(self._abandoned_at + ABANDON_AFTER)
            times.append(t.deadline())
        times = [x for x in times if x is not None]
        return min(times) if times else None

    # ------------------------------------------------------------------ output

    def _send(self, conn: Peer | None, message: dict, seat: int | None = None, hidden: set | None = None,
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
                hidden = self.table.game.hidden_from(seat) if self.table and self.table.game else set()
            audit(self.id, seat, frame, hidden)
        self.outbox.put(conn, frame, urgent)

    def _reply(self, conn, rid, message: dict, urgent: bool = True) -> None:
        self._replied = True
        if rid is None and message["type"] == "ok":
            return  # a request without an id gets no "ok" (errors are always sent)
        message["id"] = rid
        self._send(conn, message, urgent=urgent)

    def _error(self, conn, rid, code: str, text: str, rule: str | None = None) -> None:
        self._replied = True
        msg = {"type": "error", "id": rid, "code": code, "message": text}
        if rule is not None:
            msg["rule"] = rule
        self._send(conn, msg)

    def _broadcast(self, message: dict) -> None:
        for s in self.seats:
            if s.kind == "human" and s.conn is not None:
                self._send(s.conn, message)

    def _broadcast_info(self) -> None:
        self._info_changed()
        message = {"type": "table", "table": self.info()}
        self._broadcast(message)
        if self.spectators:
            self._to_spectators(wire.encode(message), trio.current_time())

    def release(self, conn: Peer) -> None:
        """Hand ``conn`` the frames held for it now: it sent a request, and the answer
        to it must not overtake them (PROTOCOL.md §2: replies in the order of requests)."""
        self.outbox.release(conn)

    def _snapshot(self, seat: Seat, now: float) -> None:
        if seat.conn is None or self.table is None:
            return
        self._send(seat.conn, self._snapshot_message(seat.index, now), seat.index)
        seat.turn_seq = None  # prompt again after a snapshot

    def _snapshot_message(self, seat: int | None, now: float) -> dict:
        """The table as ``seat`` sees it now (``None``: a spectator)."""
        view = _rel_view(self.table.view(seat), now)
        return {"type": "snapshot", "table": self.id, "seq": self.seq, "seat": seat, "view": view,
                "info": self.info()}

    # ------------------------------------------------------------------ spectators

    def _to_spectators(self, frame: bytes, now: float, conn: Peer | None = None, hidden: set | None = None) -> None:
        """Put a frame on the spectators' tapes (``conn``: on his alone). The audit sees it
        now, against the cards hidden from seat ``None`` now (``hidden``: those hidden
        both before and after the events it shows)."""
        audit = self.house.audit
        if audit is not None:
            if hidden is None:
                hidden = self.table.game.hidden_from(None) if self.table and self.table.game else set()
            audit(self.id, None, frame, hidden)
        for dropped in self.spectators.record(frame, now, conn):
            log.info("table %s: a spectator (%s) fell too far behind; dropped", self.id, dropped.peer)
            self._send(dropped, {"type": "closed", "table": self.id, "reason": "behind"})

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
            conn.send({"type": "closed", "table": self.id, "reason": self.close_reason})
            self.spectators.remove(conn)

    def _do_watch(self, conn, player, msg, rid) -> None:
        if self.seat_of(player) is not None:
            raise RequestError("already_seated", f"you sit at table {self.id}: your seat sees more than a "
                                                 "spectator; leave it first to watch")
        if conn not in self.spectators and len(self.spectators) >= MAX_SPECTATORS:
            raise RequestError("spectators_full", f"table {self.id} has {MAX_SPECTATORS} spectators, the most "
                                                  "it takes; try later")
        self.spectators.add(conn)
        self._reply(conn, rid, {"type": "watching", "table": self.info(), "delay": self.spectators.delay})
        if self.table is not None:
            now = trio.current_time()
            self._to_spectators(wire.encode(self._snapshot_message(None, now)), now, conn)
        log.info("table %s: player %s watches (%d spectators)", self.id, player, len(self.spectators))

    def _do_unwatch(self, conn, player, msg, rid) -> None:
        self.spectators.remove(conn)
        self._reply(conn, rid, {"type": "ok"})

    # ------------------------------------------------------------------ events

    def _hidden(self) -> dict[int | None, set] | None:
        """The cards hidden from each seat and from spectators (``None``), for the audit."""
        if self.house.audit is None or self.table is None:
            return None
        return {s: self.table.game.hidden_from(s) for s in [*range(len(self.seats)), None]}

    def _call(self, fn: Callable[..., list[Event]], *args, **kwargs) -> list[Event]:
        """One table call (a method of ``self.rec``); its events go out. Raises
        ``ActionError`` unchanged."""
        before = self._hidden()
        events = fn(*args, **kwargs)
        self._emit(events, before)
        return events

    def _call_for(self, conn, rid, fn: Callable[..., list[Event]], *args) -> None:
        """A table call made for a request: the ``ok`` reply goes before its events."""
        before = self._hidden()
        events = fn(*args)
        self._reply(conn, rid, {"type": "ok"}, urgent=False)  # (it asks nothing: it may be held)
        self._emit(events, before)

    def _emit(self, events: list[Event], before: list[set] | None = None) -> None:
        if not events:
            return
        self.house.log_sink(self.game_ref, events)  # an observer (tests); the game log is self.rec's
        if self._driver is not None:
            self._driver.feed(events)  # the bots' knowledge: every event, whoever made it
        after = self._hidden()
        now = trio.current_time()
        humans = [s for s in self.seats if s.kind == "human" and s.conn is not None]
        undo = False
        acted = None  # the action a call window is about (it comes first in the same batch)
        choices = self.table.game_cls.CHOICE_EVENTS
        for e in events:
            self.seq += 1
            kind = e["type"]
            if kind in choices or kind == "game_start" or kind == "undo":
                self._choice_seq = self.seq
            elif kind == "window":
                self._window_seq = self.seq
            elif kind == "court":
                self._court_seq = self.seq
            if kind == "action":
                self.seats[e["seat"]].acted_seq = self.seq
            undo = undo or e["type"] == "undo"
            if e["type"] == "action":
                acted = e["action"]
            private = "_private" in e
            asks = kind in ASKING  # (a frame that is never held, outbox.py)
            owing = self._owing(e) if kind == "window" else None
            frame = None
            for s in humans:
                if frame is None or private:  # one encoding serves every seat if nothing is private
                    view = project(e, s.index)
                    if owing is not None:
                        view["action"] = acted  # public: payments, the only private actions, open none
                        view["owing"] = owing
                    if "deadline" in view:
                        view["deadline"] = _rel(view["deadline"], trio.current_time())
                    frame = wire.encode({"type": "event", "table": self.id, "seq": self.seq, "event": view})
                hidden = None if before is None else before[s.index] & after[s.index]
                self._queue(s.conn, frame, s.index, hidden, asks)
            if self.spectators:
                view = project(e, None)
                if owing is not None:
                    view["action"] = acted
                    view["owing"] = owing
                if "deadline" in view:  # as of the event (a delayed spectator gets it later)
                    view["deadline"] = _rel(view["deadline"], now)
                frame = wire.encode({"type": "event", "table": self.id, "seq": self.seq, "event": view})
                self._to_spectators(frame, now, hidden=None if before is None else before[None] & after[None])
        if undo:
            for s in humans:
                self._snapshot(s, now)
            if self.spectators:
                self._to_spectators(wire.encode(self._snapshot_message(None, now)), now)
        if self._game_open and self.table.over:
            self._game_over()

    def _owing(self, window: Event) -> list[int]:
        """The seats a ``window`` event shows as owing an answer: not those whose client
        said ``may_call: false`` (PROTOCOL.md §3), for whom the table passes in the same
        cycle (drive.PASSER); the log keeps the table's own list."""
        seats = self.seats
        return [i for i in window["owing"]
                if seats[i].kind != "human" or seats[i].conn is None or seats[i].conn.may_call]

    def _server_event(self, event: Event) -> None:
        """An event the server adds to the game's stream (timeouts, seats, game over)."""
        if event["type"] == "seat":  # (away, back, a bot for a player who left or forfeited)
            self._info_changed()
        self._emit([event], self._hidden())

    def _game_over(self) -> None:
        t = self.table
        self._game_open = False
        self.game_log.finish(t.game.result)  # the footer reveals the server seed
        self._server_event({"type": "results", "number": t.games, "result": t.game.result, "mark": t.mark,
                            "names": [s.name for s in self.seats], "deal": self.game_log.reveal()})
        # The driver and its bots' knowledge served this game only; the driver refers back to
        # the runner (its ServerTable and SeatPolicies), a cycle that only the cyclic GC,
        # which a server runs rarely (command.py), would otherwise free.
        self._driver = None
        for s in self.seats:
            s.turn_seq = s.turn_deadline = None
            if s.away:
                self.house.unseat(s.player, self.id)
                s.vacate()
            elif s.replaced:
                s.vacate()
        self._fix_host()
        self._broadcast_info()
        self._close_if_empty()

    # ------------------------------------------------------------------ requests

    def _take(self, item: tuple) -> None:
        """Handle an inbox item; any but a game request (act, call, pass, vote: they change
        the info only through what ``_broadcast_info`` and ``_server_event`` see) may change
        the table info."""
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
                getattr(self, "_do_" + msg["type"])(conn, player, msg, rid)
            except (RequestError, ActionError) as e:
                self._error(conn, rid, e.code, e.message, getattr(e, "rule", None))
                seat = self.seat_of(player)
                if seat is not None:
                    seat.turn_seq = None  # any refused request: the "turn" comes again
            except Exception:
                if not self._replied:  # the table fails (run: internal_error): answered as the queued ones are
                    self._error(conn, rid, "no_table", f"table {self.id} has closed")
                raise
            finally:
                conn.table_answered()  # (a failing table too: its connection reads on)
        elif op == "away":
            self._away(conn, player)
        elif op == "back":
            self._back(conn, player)
        elif op == "unwatch":  # the spectator's connection closed, or he watches another table
            self.spectators.remove(conn)
        elif op == "close":
            self.closed, self.close_reason = True, "shutdown"

    def _seat(self, player: int) -> Seat:
        seat = self.seat_of(player)
        if seat is None:
            raise RequestError("not_seated", f"you have no seat at table {self.id}")
        return seat

    def _do_join(self, conn, player, msg, rid) -> None:
        mine = self.seat_of(player)
        if mine is None:
            elsewhere = self.house.table_of(player)
            if elsewhere is not None and elsewhere != self.id:
                raise RequestError("already_seated", f"you already sit at table {elsewhere}; leave it first")
            if self.playing:
                raise RequestError("game_running", "a game is being played at this table; join after it")
            want = field_int(msg, "seat", optional=True)
            if want is not None and not 0 <= want < len(self.seats):
                raise RequestError("bad_request", f"join.seat must be 0..{len(self.seats) - 1} (or null: the first "
                                                  f"free seat), not {want}")
            free = [s for s in self.seats if s.kind == "vacant"]
            if want is not None:
                free = [s for s in free if s.index == want]
                if not free:
                    raise RequestError("seat_taken", f"seat {want} is not free at table {self.id}")
            if not free:
                raise RequestError("table_full", f"table {self.id} has no free seat")
            mine = free[0]
            mine.kind, mine.player, mine.name, mine.conn = "human", player, conn.name, conn
            self.spectators.remove(conn)  # a spectator who sits down sees from his seat
            self.house.seat(player, self.id)
            if self.host is None:
                self.host = mine.index
        self._reply(conn, rid, {"type": "joined", "table": self.info(), "seat": mine.index})
        self._broadcast_info()
        if self.playing:
            self._snapshot(mine, trio.current_time())

    def _do_leave(self, conn, player, msg, rid) -> None:
        seat = self._seat(player)
        self.house.unseat(player, self.id)
        if self.playing:
            # T9: replaced by an honest bot for the rest of the game.
            seat.kind, seat.conn, seat.replaced, seat.player = "bot", None, True, None
            seat.spec = {"policy": "random"}
            seat.bot = RandomBot(seat.index, self.house.new_seed())
            self.table.seats[seat.index]["kind"] = "bot"
            seat.turn_seq = seat.turn_deadline = None
            self._server_event({"type": "seat", "seat": seat.index, "state": "bot"})
        else:
            seat.vacate()
        self._reply(conn, rid, {"type": "ok"})
        self._fix_host()
        self._broadcast_info()
        self._close_if_empty()

    def _do_start(self, conn, player, msg, rid) -> None:
        seat = self._seat(player)
        if seat.index != self.host:
            raise RequestError("not_host", "only the host (the seat shown as host) starts a game")
        if self.playing:
            raise RequestError("game_running", "a game is already being played at this table")
        if any(s.kind == "vacant" for s in self.seats):
            raise RequestError("seats_empty", "every seat must be taken before a game starts")
        number = (0 if self.table is None else self.table.games) + 1
        # First: a game that cannot be logged changes nothing (no_log).
        game_log = GameLog(self.house.store, self.house.log_path(self.id, number), self.id, number)
        kinds = [{"kind": s.kind} for s in self.seats]
        occupants = [(s.kind, s.player, s.spec) for s in self.seats]
        if self.table is None:
            self.table = Table(self.options, kinds)
        else:
            self.table.seats = kinds  # (a seat's kind changes when a bot replaced a human)
            for i, (old, new) in enumerate(zip(self._occupants, occupants)):
                if old != new:  # a new occupant: the table's tutorial setting applies (T11)
                    self.table.tutorial[i] = bool(self.options["tutorial"]) and new[0] == "human"
        self._occupants = occupants
        bot_seed = self.house.new_seed()
        for s in self.seats:
            s.bot = make_policy(s.spec, s.index, bot_seed) if s.kind == "bot" else None
            s.turn_seq = s.turn_deadline = None
        self._standins = {}
        self._standin_seed = self.house.new_seed()
        # T10: the deal comes from the server seed committed to in the table info and the
        # seats' seeds; each seed counts for one deal, and the next deal gets a fresh seed.
        server_seed, self._next_seed = self._next_seed, self.house.new_seed()
        game_log.begin(self.table, self.seats, server_seed, bot_seed, self._standin_seed, self._log_extra())
        self.game_log, self.rec = game_log, game_log.rec
        self._driver = self._new_driver()
        for s in self.seats:
            s.seed = None
        self._game_open = True
        self.game_ref = {"table": self.id, "number": number, "log": self.game_log.path}
        self._reply(conn, rid, {"type": "ok"})
        now = trio.current_time()
        self._emit(self.rec.start(now))
        for s in self.seats:  # the deal itself: each seat's view of it, from the first event on
            self._snapshot(s, now)
        if self.spectators:  # and the public view of it (durak's trump card, «пидор»'s open stacks)
            self._to_spectators(wire.encode(self._snapshot_message(None, now)), now)
        self._broadcast_info()

    def _log_extra(self) -> dict:
        """More fields for the header's ``extra`` of the game that starts (none here; a
        match's table names its game, :mod:`pidor.match.external`)."""
        return {}

    def _do_bot(self, conn, player, msg, rid) -> None:
        """The host seats a built-in bot in a free seat between games (a person left
        alone at a table fills the seats the others left, then starts)."""
        seat = self._seat(player)
        if seat.index != self.host:
            raise RequestError("not_host", "only the host (the seat shown as host) seats bots")
        if self.playing:
            raise RequestError("game_running", "a game is being played at this table; seat bots after it")
        index = field_int(msg, "seat")
        if not 0 <= index < len(self.seats):
            raise RequestError("bad_request", f"bot.seat must be 0..{len(self.seats) - 1}, not {index}")
        text = field_str(msg, "spec", optional=True, max_len=256) or "builtin:random"
        try:
            spec = parse_spec(text)
        except ValueError as e:
            raise RequestError("bad_options", str(e)) from None
        target = self.seats[index]
        if target.kind != "vacant":
            raise RequestError("seat_taken", f"seat {index} is not free at table {self.id}")
        target.seat_bot(spec)
        self._reply(conn, rid, {"type": "ok"})
        self._broadcast_info()

    def _do_seed(self, conn, player, msg, rid) -> None:
        """T10: the seat's part of the next deal (the one the table info's ``commitment``
        announces); a new seed replaces the last, nil takes it back."""
        seat = self._seat(player)
        if "seed" not in msg:
            raise RequestError("bad_request", f"seed.seed is required: bin or hex, at most {MAX_SEAT_SEED} bytes, "
                                              "or null")
        seat.seed = parse_seed(msg["seed"])
        self._reply(conn, rid, {"type": "ok"})
        self._broadcast_info()

    def _do_tutorial_off(self, conn, player, msg, rid) -> None:
        seat = self._seat(player)
        if self.table is not None:
            self.table.tutorial_off(seat.index)
        self._reply(conn, rid, {"type": "ok"})

    def _do_resync(self, conn, player, msg, rid) -> None:
        """A fresh snapshot: a seat's before the ``ok``; a spectator's after it, on his
        tape (delayed as everything he gets). Before the first game, the table info."""
        seat = self.seat_of(player)
        if seat is None and conn not in self.spectators:
            raise RequestError("not_seated", f"you neither sit at nor watch table {self.id}")
        if self.table is None:
            self._reply(conn, rid, {"type": "table", "table": self.info()})
            return
        now = trio.current_time()
        if seat is None:
            self._reply(conn, rid, {"type": "ok"})
            self._to_spectators(wire.encode(self._snapshot_message(None, now)), now, conn)
            return
        self._snapshot(seat, now)
        self._reply(conn, rid, {"type": "ok"})

    # ------------------------------------------------------------------ presence

    def _away(self, conn, player) -> None:
        seat = self.seat_of(player)
        if seat is None or seat.conn is not conn:
            return
        seat.conn = None
        seat.turn_seq = None  # the turn clock restarts at the away pace (T9)
        log.info("table %s: seat %s (%s) is away", self.id, seat.index, seat.name)
        if self.playing:
            self._server_event({"type": "seat", "seat": seat.index, "state": "away"})
        else:
            self.house.unseat(player, self.id)
            seat.vacate()
            self._fix_host()
            self._close_if_empty()
        self._broadcast_info()

    def _back(self, conn, player) -> None:
        seat = self.seat_of(player)
        if seat is None:
            return
        seat.conn, seat.name = conn, conn.name
        log.info("table %s: seat %s (%s) is back", self.id, seat.index, seat.name)
        self._snapshot(seat, trio.current_time())  # first the whole state, then events after it
        if self.playing:
            self._server_event({"type": "seat", "seat": seat.index, "state": "back"})
        self._broadcast_info()

    def _fix_host(self) -> None:
        if self.host is not None and self.seats[self.host].kind == "human":
            return
        humans = [s.index for s in self.seats if s.kind == "human"]
        self.host = humans[0] if humans else None

    def _close_if_empty(self) -> None:
        if not any(s.kind == "human" for s in self.seats):
            log.info("table %s: nobody left; closing", self.id)
            self.closed = True
