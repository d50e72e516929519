"""Who sits at a table, who hosts it, and its games' start and end.

A part of the table's task (:mod:`.state`), :class:`Hosting`:

* the requests that seat players and start games (``join``, ``leave``, ``bot``, ``seed``,
  ``tutorial_off``, ``start``: its ``_do_<kind>`` methods, the handlers the runner's table
  binds); a player who leaves during a game is replaced by an honest bot for the rest of
  it (T9);
* presence: a seated person whose connection ends is away (T9; between games his seat is
  free), and back when he connects again (a snapshot first);
* the host: the first person to sit, then the next when he goes; a table nobody sits at
  closes;
* a game's start (T10: the deal from the committed server seed and the seats' seeds; the
  game's log, :mod:`.game_log`, and its bot driver) and its end (the log's footer, the
  ``results`` event, the seats of those who went).

The table's owner changes some of this (:class:`~pidor.server.hooks.TableHooks`: a match
has no host, starts every game itself, and deals with a bot that leaves or goes).
"""

from __future__ import annotations

import logging

import trio

from ..bots import RandomBot, make_policy, parse_spec
from ..engine.table import Table
from ..gamelog.deal import MAX_SEAT_SEED
from .drive import Drive
from .game_log import GameLog
from .hooks import TableHooks
from .requests import RequestError, field_int, field_str
from .seeds import parse_seed
from .state import Runner, TableState

__all__ = ["Hosting"]

log = logging.getLogger(__name__)


class Hosting:
    """Seats, host and games of one table: ``state`` is the table's, ``out`` its task,
    ``drive`` its clocks and bots (a game's driver), ``hooks`` its owner's."""

    def __init__(self, state: TableState, out: Runner, drive: Drive, hooks: TableHooks) -> None:
        self.state = state
        self.out = out
        self.drive = drive
        self.hooks = hooks
        self._occupants: list[tuple] = []  # who sat where at the last game's start

    def handlers(self) -> dict:
        """Each of its requests' handler, by kind."""
        return {"join": self._do_join, "leave": self._do_leave, "start": self._do_start, "bot": self._do_bot,
                "seed": self._do_seed, "tutorial_off": self._do_tutorial_off}

    # ------------------------------------------------------------------ requests

    def _do_join(self, conn, player, msg, rid) -> None:
        st, out = self.state, self.out
        mine = st.seat_of(player)
        if mine is None:
            elsewhere = out.house.table_of(player)
            if elsewhere is not None and elsewhere != st.id:
                raise RequestError("already_seated", f"you already sit at table {elsewhere}; leave it first")
            if st.playing:
                raise RequestError("game_running", "a game is being played at this table; join after it")
            want = field_int(msg, "seat", optional=True)
            if want is not None and not 0 <= want < len(st.seats):
                raise RequestError("bad_request", f"join.seat must be 0..{len(st.seats) - 1} (or null: the first "
                                                  f"free seat), not {want}")
            free = [s for s in st.seats if s.kind == "vacant"]
            if want is not None:
                free = [s for s in free if s.index == want]
                if not free:
                    raise RequestError("seat_taken", f"seat {want} is not free at table {st.id}")
            if not free:
                raise RequestError("table_full", f"table {st.id} has no free seat")
            mine = free[0]
            mine.kind, mine.player, mine.name, mine.conn = "human", player, conn.name, conn
            out.spectators.remove(conn)  # a spectator who sits down sees from his seat
            out.house.seat(player, st.id)
            if st.host is None:
                st.host = mine.index
        out.reply(conn, rid, {"type": "joined", "table": out.info(), "seat": mine.index})
        out.broadcast_info()
        if st.playing:
            out.snapshot(mine, trio.current_time())

    def _do_leave(self, conn, player, msg, rid) -> None:
        st, out = self.state, self.out
        if self.hooks.leave(out, st.seat_of(player), conn):
            out.reply(conn, rid, {"type": "ok"})
            return
        seat = st.seat(player)
        out.house.unseat(player, st.id)
        if st.playing:
            # T9: replaced by an honest bot for the rest of the game.
            seat.kind, seat.conn, seat.replaced, seat.player = "bot", None, True, None
            seat.spec = {"policy": "random"}
            seat.bot = RandomBot(seat.index, out.house.new_seed())
            st.table.seats[seat.index]["kind"] = "bot"
            seat.turn_seq = seat.turn_deadline = None
            out.server_event({"type": "seat", "seat": seat.index, "state": "bot"})
        else:
            seat.vacate()
        out.reply(conn, rid, {"type": "ok"})
        self.fix_host()
        out.broadcast_info()
        self.close_if_empty()

    def _host_between_games(self, player: int, does: str, running: str) -> None:
        """Refuse the request unless the player hosts the table (``not_host``: only the
        host ``does``) and no game is being played (``game_running``: ``running``)."""
        if self.state.seat(player).index != self.state.host:
            raise RequestError("not_host", f"only the host (the seat shown as host) {does}")
        if self.state.playing:
            raise RequestError("game_running", running)

    def _do_start(self, conn, player, msg, rid) -> None:
        self._host_between_games(player, "starts a game", "a game is already being played at this table")
        if any(s.kind == "vacant" for s in self.state.seats):
            raise RequestError("seats_empty", "every seat must be taken before a game starts")
        self.start_game(conn, rid)

    def _do_bot(self, conn, player, msg, rid) -> None:
        """The host seats a built-in bot in a free seat between games (a person left
        alone at a table fills the seats the others left, then starts)."""
        st = self.state
        self._host_between_games(player, "seats bots", "a game is being played at this table; seat bots after it")
        index = field_int(msg, "seat")
        if not 0 <= index < len(st.seats):
            raise RequestError("bad_request", f"bot.seat must be 0..{len(st.seats) - 1}, not {index}")
        text = field_str(msg, "spec", optional=True, max_len=256) or "builtin:random"
        try:
            spec = parse_spec(text)
        except ValueError as e:
            raise RequestError("bad_options", str(e)) from None
        target = st.seats[index]
        if target.kind != "vacant":
            raise RequestError("seat_taken", f"seat {index} is not free at table {st.id}")
        target.seat_bot(spec)
        self.out.reply(conn, rid, {"type": "ok"})
        self.out.broadcast_info()

    def _do_seed(self, conn, player, msg, rid) -> None:
        """T10: the seat's part of the next deal (the one the table info's ``commitment``
        announces); a new seed replaces the last, nil takes it back."""
        seat = self.state.seat(player)
        if "seed" not in msg:
            raise RequestError("bad_request", f"seed.seed is required: bin or hex, at most {MAX_SEAT_SEED} bytes, "
                                              "or null")
        seat.seed = parse_seed(msg["seed"])
        self.out.reply(conn, rid, {"type": "ok"})
        self.out.broadcast_info()

    def _do_tutorial_off(self, conn, player, msg, rid) -> None:
        seat = self.state.seat(player)
        if self.state.table is not None:
            self.state.table.tutorial_off(seat.index)
        self.out.reply(conn, rid, {"type": "ok"})

    # ------------------------------------------------------------------ a game

    def start_game(self, conn, rid, server_seed: bytes | None = None, fresh: bool = False) -> None:
        """Start a game now, every seat taken (``conn``, ``rid``: the request answered
        ``ok`` once the game's log exists). ``server_seed``: the deal's, instead of the
        one committed to in the table info; ``fresh``: at a new engine table (no mark, no
        previous game). A game that cannot be logged changes nothing (``no_log``)."""
        st, out, house = self.state, self.out, self.out.house
        if fresh:
            st.table = None
        number = (0 if st.table is None else st.table.games) + 1
        # First: a game that cannot be logged changes nothing (no_log).
        game_log = GameLog(house.store, house.log_path(st.id, number), st.id, number)
        kinds = [{"kind": s.kind} for s in st.seats]
        occupants = [(s.kind, s.player, s.spec) for s in st.seats]
        if st.table is None:
            st.table = Table(st.options, kinds)
        else:
            st.table.seats = kinds  # (a seat's kind changes when a bot replaced a human)
            for i, (old, new) in enumerate(zip(self._occupants, occupants)):
                if old != new:  # a new occupant: the table's tutorial setting applies (T11)
                    st.table.tutorial[i] = bool(st.options["tutorial"]) and new[0] == "human"
        self._occupants = occupants
        bot_seed = house.new_seed()
        for s in st.seats:
            s.bot = make_policy(s.spec, s.index, bot_seed) if s.kind == "bot" else None
            s.turn_seq = s.turn_deadline = None
        standin_seed = house.new_seed()
        # T10: the deal comes from the server seed committed to in the table info and the
        # seats' seeds; each seed counts for one deal, and the next deal gets a fresh seed.
        deal_seed = st.next_seed if server_seed is None else server_seed
        st.next_seed = house.new_seed()
        game_log.begin(st.table, st.seats, deal_seed, bot_seed, standin_seed, self.hooks.log_extra())
        st.game_log, st.rec = game_log, game_log.rec
        st.driver = self.drive.new_game(standin_seed)
        for s in st.seats:
            s.seed = None
        st.game_open = True
        st.game_ref = {"table": st.id, "number": number, "log": game_log.path}
        out.reply(conn, rid, {"type": "ok"})
        now = trio.current_time()
        out.emit(st.rec.start(now))
        for s in st.seats:  # the deal itself: each seat's view of it, from the first event on
            out.snapshot(s, now)
        out.snapshot_spectators(now)  # and the public view of it (durak's trump card, «пидор»'s open stacks)
        out.broadcast_info()

    def game_over(self) -> None:
        """The running game has ended: its log's footer (revealing the server seed), the
        ``results`` event, then the seats of those who went are free."""
        st, out = self.state, self.out
        t = st.table
        st.game_open = False
        st.game_log.finish(t.game.result)  # the footer reveals the server seed
        out.server_event({"type": "results", "number": t.games, "result": t.game.result, "mark": t.mark,
                          "names": [s.name for s in st.seats], "deal": st.game_log.reveal()})
        # The driver and its bots' knowledge served this game only; the driver refers back to
        # the runner (its ServerTable), a cycle that only the cyclic GC, which a server runs
        # rarely (command.py), would otherwise free.
        st.driver = None
        for s in st.seats:
            s.turn_seq = s.turn_deadline = None
            if s.away:
                out.house.unseat(s.player, st.id)
                s.vacate()
            elif s.replaced:
                s.vacate()
        self.fix_host()
        out.broadcast_info()
        self.close_if_empty()
        self.hooks.game_over(out, t.game.result)

    # ------------------------------------------------------------------ presence

    def away(self, conn, player) -> None:
        st, out = self.state, self.out
        seat = st.seat_of(player)
        if seat is None or seat.conn is not conn:
            return
        if self.hooks.away(out, seat, conn):
            return
        seat.conn = None
        seat.turn_seq = None  # the turn clock restarts at the away pace (T9)
        log.info("table %s: seat %s (%s) is away", st.id, seat.index, seat.name)
        if st.playing:
            out.server_event({"type": "seat", "seat": seat.index, "state": "away"})
        else:
            out.house.unseat(player, st.id)
            seat.vacate()
            self.fix_host()
            self.close_if_empty()
        out.broadcast_info()

    def back(self, conn, player) -> None:
        st, out = self.state, self.out
        seat = st.seat_of(player)
        if seat is None or self.hooks.back(out, seat, conn):
            return
        seat.conn, seat.name = conn, conn.name
        log.info("table %s: seat %s (%s) is back", st.id, seat.index, seat.name)
        out.snapshot(seat, trio.current_time())  # first the whole state, then events after it
        if st.playing:
            out.server_event({"type": "seat", "seat": seat.index, "state": "back"})
        out.broadcast_info()

    def fix_host(self) -> None:
        """The host is a seated person: the first, when the host went (none at an owner's
        table, ``TableHooks.hosted``)."""
        st = self.state
        if not self.hooks.hosted:
            st.host = None
            return
        if st.host is not None and st.seats[st.host].kind == "human":
            return
        humans = [s.index for s in st.seats if s.kind == "human"]
        st.host = humans[0] if humans else None

    def close_if_empty(self) -> None:
        """A hosted table nobody sits at closes."""
        if self.hooks.hosted and not any(s.kind == "human" for s in self.state.seats):
            log.info("table %s: nobody left; closing", self.state.id)
            self.state.closed = True
