"""What the parts of a table's task share (:class:`TableState`) and what they call of the
task (:class:`Runner`).

A table's task, :class:`~pidor.server.runner.TableRunner`, is made of parts with one job
each. Each part is handed the shared state and the task's narrow surface (:class:`Runner`),
never the task itself::

    TableRunner ── the inbox and the cycle, the request handler table, what goes out
      ├─ Hosting  (hosting.py)  who sits, the host, a game's start and end; away and back
      ├─ Plays    (plays.py)    act, call, pass, vote: the stale guard
      ├─ Drive    (drive.py)    the clocks, the bots and stand-ins, the turn prompts
      └─ hooks    (hooks.py)    what the table's owner changes (a match's table)

The parts hold the runner (their ``out``) and the runner holds them: the runner lets go
of them when its task ends, so that no reference cycle outlives the table (the server
runs the cyclic garbage collector rarely, ``tests/test_server_memory.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable

from ..driver import Driver
from ..engine.game import Event
from ..engine.table import Table
from ..gamelog.record import Recorder
from .game_log import GameLog
from .requests import RequestError
from .seams import House, Peer
from .seating import Seat
from .spectators import Spectators

__all__ = ["TableState", "Runner", "Handler"]

#: A request handler: ``(connection, player, message, request id)``; it answers the request
#: (``Runner.reply``) or raises ``RequestError`` / ``ActionError`` (the runner answers those).
Handler = Callable[[Peer, int, dict, object], None]


@dataclass(eq=False, slots=True)
class TableState:
    """One table as its parts see it. Only the table's own task changes it."""

    id: int
    options: dict  # the Table's options (the spectators' delay is the runner's)
    seats: list[Seat]
    next_seed: bytes  # T10: the next deal's secret server seed (its commitment is in the table info)
    host: int | None = None  # the seat shown as host
    table: Table | None = None  # the engine's table, from the first game on
    game_log: GameLog | None = None  # the running (or last) game's log
    rec: Recorder | None = None  # its recorder: every table call of a game goes through it
    game_open: bool = False  # a game started and its results are not out yet
    game_ref: dict = field(default_factory=dict)  # the running game as the log sink names it: table, number, log
    driver: Driver | None = None  # the running game's bot driver (Drive.new_game)
    seq: int = 0  # the last event's seq
    # Where choices begin (PROTOCOL.md §5 "Acting on what you saw"): the seq of the last
    # event after which an action chosen earlier is stale, of the open window's and of the
    # sitting court's event.
    choice_seq: int = 0
    window_seq: int = 0
    court_seq: int = 0
    closed: bool = False
    close_reason: str = "empty"  # why the table closed: empty, abandoned, stuck, shutdown, internal_error
    close_detail: str = ""  # what the log's footer says of it, when more than the reason

    @property
    def playing(self) -> bool:
        return self.table is not None and not self.table.over

    def seat_of(self, player: int) -> Seat | None:
        """The seat of a person (a player sitting here, connected or away)."""
        for s in self.seats:
            if s.kind == "human" and s.player == player:
                return s
        return None

    def seat(self, player: int) -> Seat:
        """The player's seat, or ``not_seated``."""
        seat = self.seat_of(player)
        if seat is None:
            raise RequestError("not_seated", f"you have no seat at table {self.id}")
        return seat


@runtime_checkable
class Runner(Protocol):
    """The table's task as its parts and its owner's hooks see it: the shared state, the
    house, and what sends and logs (:class:`~pidor.server.runner.TableRunner` fills it)."""

    state: TableState
    house: House
    spectators: Spectators

    def call(self, fn: Callable[..., list[Event]], *args, **kwargs) -> list[Event]:
        """One table call (a method of ``state.rec``); its events go out. Raises
        ``ActionError`` unchanged."""

    def call_for(self, conn: Peer, rid, fn: Callable[..., list[Event]], *args) -> None:
        """A table call made for a request: the ``ok`` reply goes before its events."""

    def emit(self, events: list[Event]) -> None:
        """Events the table returned (numbered, logged to the sink, projected for each seat)."""

    def server_event(self, event: Event) -> None:
        """An event the server adds to the game's stream (timeouts, seats, results)."""

    def send(self, conn: Peer | None, message: dict, seat: int | None = None) -> None:
        """A message for one connection (never held)."""

    def reply(self, conn: Peer | None, rid, message: dict) -> None:
        """The answer to a request (an ``ok`` to a request without an id is not sent)."""

    def info(self) -> dict:
        """The table info (PROTOCOL.md ``table``)."""

    def broadcast_info(self) -> None:
        """The table info changed: every seated person and spectator gets it."""

    def snapshot(self, seat: Seat, now: float) -> None:
        """The table as ``seat`` sees it now, to its connection."""

    def snapshot_spectators(self, now: float, conn: Peer | None = None) -> None:
        """The public view now, on the spectators' tapes (``conn``: on his alone)."""

    def start_game(self, conn: Peer | None, rid, server_seed: bytes | None = None, fresh: bool = False) -> None:
        """Start a game now, unchecked (:meth:`pidor.server.hosting.Hosting.start_game`)."""
