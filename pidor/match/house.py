"""The match's local server: its lobby, its tables and what a match changes at them.

The runner of external bots (:mod:`pidor.match.external`) starts one :class:`MatchServer`
and opens :class:`MatchTable`\\ s on it: server tables whose :class:`MatchHooks` let the
runner seat and start every game, count forfeits (a clock run out, a crash, garbage, a bot
that never came or left) and fill in the game's record. :class:`TableHouse` is the server
as such a table's house: the planned game's log path, no games index.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import trio

from ..bots import RandomBot
from ..server.app import Server
from ..server.drive import Replacement
from ..server.hooks import TableHooks
from ..server.limits import Limits
from ..server.lobby import Lobby
from ..server.requests import RequestError
from ..server.runner import TableRunner
from ..server.state import Runner
from ..server.store import Store
from .entrants import Entrant
from .record import count_events, finish_record, match_extra, timed
from .schedule import Game

__all__ = ["Forfeited", "GARBAGE", "MAX_REFUSED", "MatchHooks", "MatchServer", "MatchTable", "Planned"]

log = logging.getLogger(__name__)

#: Malformed requests (``bad_request``, ``invalid_action``) one seat may send in a game.
MAX_REFUSED = 20
#: Fatal errors that mean the bot sent what the protocol forbids.
GARBAGE = frozenset({"bad_frame", "frame_too_large", "too_large", "too_deep", "version_mismatch", "hello_timeout"})


class MatchLimits(Limits):
    """The local server serves one runner's bots, all from one address."""

    MAX_PER_ADDRESS = Limits.MAX_CONNECTIONS


class MatchLobby(Lobby):
    """The lobby of the match's server: a token seats its player at the match's tables
    and opens or watches none. It counts the connections closed for saying no hello in
    time (what the runner reports while it waits for a bot)."""

    def __init__(self, server, limits) -> None:
        super().__init__(server, limits)
        self.hello_timeouts = 0

    def gone(self, conn) -> None:
        if conn.player is None and conn.fatal_code == "hello_timeout":
            self.hello_timeouts += 1
        super().gone(conn)

    def request(self, conn, msg: dict, rid) -> None:
        kind = msg.get("type")
        if kind == "create":
            raise RequestError("server_full", "a match's server holds the match's tables only")
        if kind == "watch":  # (a rotated match plays the same deal at other tables)
            raise RequestError("spectators_full", "the tables of a match take no spectators")
        super().request(conn, msg, rid)


class MatchServer(Server):
    """The runner's local server (its store in memory: tokens last as long as the match)."""

    def __init__(self) -> None:
        super().__init__(Store(":memory:"), limits=MatchLimits)
        self.lobby = MatchLobby(self, MatchLimits)


class Forfeited(Replacement):
    """The honest stand-in of a seat whose bot forfeited the game (the server's stand-in
    for a player who left, logged ``auto="forfeit"``): honest options only (T9); where it
    has none, the game does not wait on it (a durak thrower: silence is «бито», D5)."""

    name = "forfeit"
    auto = "forfeit"


@dataclass
class Planned:
    """A game a :class:`MatchTable` is about to play: its record, log and seats."""

    game: Game
    record: dict
    path: str | None
    entrants: list[Entrant]
    players: list[int | None]  # the player of each external seat
    deal_seed: bytes
    standin_seeds: list[bytes]
    over: trio.Event = field(default_factory=trio.Event)
    checked: trio.Event = field(default_factory=trio.Event)  # the table looked at who is there
    missing: list[int] = field(default_factory=list)  # seats not there at the last look
    started: bool = False
    left: set[int] = field(default_factory=set)  # seats whose bot said leave during the game
    # seats that left during the game, to launch again at once (the table sends, the runner receives)
    rejoin: tuple = field(default_factory=lambda: trio.open_memory_channel(math.inf))


class NoIndex:
    """The games index of a match table: none (the match keeps its own records)."""

    def game_started(self, *args, **kwargs) -> None:
        return None

    def game_ended(self, game_id, result) -> None:
        pass

    def game_aborted(self, game_id, reason) -> None:
        pass

    def log_failed(self, game_id, reason) -> None:
        pass


class TableHouse:
    """The server as a match table's house (:class:`~pidor.server.seams.House`): its log
    path is the planned game's (``path``), and it keeps no games index."""

    store = NoIndex()

    def __init__(self, server: Server) -> None:
        self._server = server
        self.path: str | None = None

    @property
    def log_sink(self):
        return self._server.log_sink

    @property
    def audit(self):
        return self._server.audit

    def new_seed(self) -> bytes:
        return self._server.new_seed()

    def log_path(self, table_id: int, number: int) -> str | None:
        return self.path

    def seat(self, player: int, table_id: int) -> None:
        self._server.seat(player, table_id)

    def unseat(self, player: int, table_id: int) -> None:
        self._server.unseat(player, table_id)

    def table_of(self, player: int) -> int | None:
        return self._server.table_of(player)

    def table_closed(self, table_id: int, reason: str) -> None:
        self._server.table_closed(table_id, reason)

    def table_changed(self, table_id: int) -> None:
        self._server.table_changed(table_id)


class MatchHooks(TableHooks):
    """What a match's table changes (:class:`~pidor.server.hooks.TableHooks`): the runner
    seats and starts (no host, no joins; it never closes for being empty), through the
    table's inbox (``seat``, ``begin``); presence, forfeits and the end of the game go to
    the runner through ``present`` and the planned game."""

    hosted = False
    refused = {"start": "the match runner starts every game at this table",
               "seed": "the match's seed makes every deal at this table"}

    def __init__(self, house: TableHouse, players: int, clock, gone: set) -> None:
        self.house = house
        self.clock = clock
        self.gone = gone  # connections that said leave (the match's, all tables)
        self.present = [trio.Event() for _ in range(players)]
        self.planned: Planned | None = None
        self._refused = [0] * players
        self._since: list[float | None] = [None] * players  # turn clock running since
        self._spent = [0.0] * players  # seconds of this game's turns
        self._turns = [[0, 0.0, 0.0] for _ in range(players)]  # turns answered, seconds, the longest

    # --- what the runner asks (through the inbox) -----------------------------------

    def item(self, table: Runner, item: tuple) -> None:
        op, conn, player, data = item
        if op == "seat":
            self._place(table, *data, player, conn)
        elif op == "begin":
            self._begin(table, data)

    def _place(self, table: Runner, index: int, present: trio.Event, player: int | None, conn) -> None:
        """Seat ``index`` for the planned game: its entrant's bot, or the player given
        (``present`` is set once he is connected)."""
        st = table.state
        seat = st.seats[index]
        entrant = self.planned.entrants[index]
        for other in st.seats:  # his seat of the last game here, if another
            if other.kind == "human" and other.player == player:
                other.vacate()
        seat.vacate()
        seat.name = entrant.name
        self.present[index] = present
        if player is None:
            seat.kind, seat.spec = "bot", entrant.params
            return
        seat.kind, seat.player = "human", player
        self.house.seat(player, st.id)
        if conn is not None and not conn.closed and conn not in self.gone:
            seat.conn = conn
            self.present[index].set()

    def _begin(self, table: Runner, retry: frozenset) -> None:
        """Start the planned game, unless a bot of a seat in ``retry`` is not there (then
        the runner seats the ``missing`` ones again: a program that left after its last
        game is launched afresh); one not there otherwise is ``absent``."""
        st = table.state
        plan = self.planned
        plan.missing = [s.index for s in st.seats if s.kind == "human" and s.conn is None]
        plan.started = not retry.intersection(plan.missing)
        plan.checked.set()
        if not plan.started:
            return
        self.house.path = plan.path
        n = len(st.seats)
        self._refused, self._since, self._spent = [0] * n, [None] * n, [0.0] * n
        self._turns = [[0, 0.0, 0.0] for _ in range(n)]
        humans = [s for s in st.seats if s.kind == "human"]
        st.host = humans[0].index  # (shown as host while the game is played: the runner started it)
        table.start_game(None, None, server_seed=plan.deal_seed, fresh=True)  # every game at a fresh table
        st.rec.notes["forfeits"] = plan.record["forfeits"]
        for s in humans:
            if s.conn is None:
                self._forfeit(table, s, "absent")

    def leave(self, table: Runner, seat, conn) -> bool:
        """A bot that leaves (a program that plays N games, then exits) keeps its seat:
        the runner launches it again, for its next game or, when its leave came after
        that game began, at once: the seat is away meanwhile (T9), and forfeits (``left``)
        if it owes an action for longer than ``AWAY_TURN``. Between two games the runner
        may be moving him to another seat or table: he is done with this connection all
        the same, and no table seats it again."""
        self.gone.add(conn)
        if seat is not None:
            seat.conn = None
            if table.state.playing:
                self.planned.left.add(seat.index)
                seat.turn_seq = None
                table.server_event({"type": "seat", "seat": seat.index, "state": "away"})
                self.planned.rejoin[0].send_nowait(seat.index)
        return True

    def back(self, table: Runner, seat, conn) -> bool:
        if table.state.playing:
            return False
        seat.conn = conn  # (the snapshot comes with the game)
        self.present[seat.index].set()
        return True

    # --- forfeits ------------------------------------------------------------------

    def _forfeit(self, table: Runner, seat, reason: str) -> None:
        """The seat's bot forfeits this game: an honest stand-in plays it to the end."""
        st = table.state
        plan = self.planned
        plan.record["forfeits"].append({"seat": seat.index, "reason": reason})
        log.info("table %s, game %s: seat %s (%s) forfeits: %s", st.id, plan.game.index + 1, seat.index,
                 seat.name, reason)
        if seat.player is not None:
            self.house.unseat(seat.player, st.id)
        seat.kind, seat.conn, seat.player, seat.spec = "bot", None, None, {"policy": "random"}
        seat.bot = Forfeited(RandomBot(seat.index, plan.standin_seeds[seat.index]))
        seat.turn_seq = seat.turn_deadline = None
        self._since[seat.index] = None
        st.table.seats[seat.index]["kind"] = "bot"
        table.server_event({"type": "seat", "seat": seat.index, "state": "bot", "forfeit": reason})

    def away(self, table: Runner, seat, conn) -> bool:
        if table.state.playing:
            self._forfeit(table, seat, "garbage" if getattr(conn, "fatal_code", None) in GARBAGE else "crash")
        else:
            seat.conn = None  # (if he is not back by the start, he forfeits: absent)
        return True

    def refused_request(self, table: Runner, conn, code: str) -> None:
        """``MAX_REFUSED`` malformed requests in a game: the seat forfeits (``garbage``)."""
        st = table.state
        if code in ("bad_request", "invalid_action") and st.playing:
            seat = next((s for s in st.seats if s.kind == "human" and s.conn is conn), None)
            if seat is not None:
                self._refused[seat.index] += 1
                if self._refused[seat.index] >= MAX_REFUSED:
                    self._forfeit(table, seat, "garbage")

    def tick(self, table: Runner, now: float) -> None:
        """A seat whose turn clock ran out forfeits (the server's stand-in would play it)."""
        for seat in table.state.seats:
            if seat.kind == "human" and seat.turn_deadline is not None and now >= seat.turn_deadline:
                game = self.clock.game
                spent = self._spent[seat.index] + now - (self._since[seat.index] or now)
                reason = "game_time" if game is not None and spent >= game else "timeout"
                self._forfeit(table, seat, "left" if seat.conn is None and seat.index in self.planned.left else reason)

    def prompted(self, table: Runner, now: float) -> None:
        """The turn clock as the server runs it, within the game's budget (``--game-time``)."""
        budget = self.clock.game
        for seat in table.state.seats:
            i = seat.index
            if seat.kind != "human":
                continue
            if seat.turn_deadline is None:
                if self._since[i] is not None:
                    took = now - self._since[i]
                    self._spent[i] += took
                    self._since[i] = None
                    turns = self._turns[i]
                    turns[0] += 1
                    turns[1] += took
                    turns[2] = max(turns[2], took)
                continue
            if self._since[i] is None:
                self._since[i] = now
            if budget is not None:
                seat.turn_deadline = min(seat.turn_deadline, self._since[i] + budget - self._spent[i])

    # --- the game's record ---------------------------------------------------------

    def log_extra(self) -> dict:
        return match_extra(self.planned.record)

    def events(self, events) -> None:
        if self.planned is not None:
            count_events(self.planned.record, events)
            self.planned.record["actions"] += sum(e["type"] == "action" for e in events)

    def game_over(self, table: Runner, result: dict) -> None:
        plan = self.planned
        for seat in table.state.seats:
            if seat.kind != "human":
                seat.vacate()
            # (a player stays seated here until the runner seats him for his next game:
            # a program that plays N games says leave here after its last one)
        for i, player in enumerate(plan.players):
            if player is not None:  # (a bot program: its turns, from the prompt to the answer)
                timed(plan.record, i, self._turns[i])
        finish_record(plan.record, result, plan.record["actions"], plan.path)
        plan.over.set()


class MatchTable(TableRunner):
    """A table the match runner seats and starts: a table with the match's hooks."""

    hooks: MatchHooks

    def __init__(self, server: Server, table_id: int, options: dict, clock, gone: set) -> None:
        house = TableHouse(server)
        super().__init__(house, table_id, options, [], MatchHooks(house, options["players"], clock, gone))
