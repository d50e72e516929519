"""The seams between the server's parts: what each part needs from the others, as
:class:`typing.Protocol` classes. Each part is handed its neighbours as these, never the
whole server, so it can be read alone and built alone (tests give fakes)::

    Server ──House──────▶ TableRunner ──Peer──▶ Connection
    Server ──LobbyServer─▶ Lobby ───────Peer──▶ Connection
    Connection ──Handler─▶ Lobby

* a :class:`~pidor.server.runner.TableRunner` gets a :class:`House`: the server it runs
  in (seeds, log paths, the games index, seat bookkeeping, observers);
* the :class:`~pidor.server.lobby.Lobby` gets a :class:`LobbyServer` (the store, and a
  way to open a table);
* the lobby and the tables talk to clients as :class:`Peer` objects: a
  :class:`~pidor.server.connection.Connection` is one, and it hands what it reads to
  a :class:`Handler` (the lobby).

:class:`~pidor.server.app.Server` wires them together. This module imports nothing of
the server, so that no part imports another through it. (A table's task is itself made of
parts, with seams of their own: :mod:`pidor.server.state`.)
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, runtime_checkable

__all__ = ["Peer", "Handler", "GameIndex", "House", "LobbyStore", "LobbyServer", "LogSink", "Audit"]

#: ``log_sink(game, events)``: every event in full form (hidden fields and violations
#: included), in order; ``game`` names the table, the game number and its log.
LogSink = Callable[[dict, list], None]
#: ``audit(table, seat, frame, hidden)``: a test hook called with every frame queued for a
#: seat and the card codes it must not contain.
Audit = Callable[[int, int, bytes, set], None]


@runtime_checkable
class Peer(Protocol):
    """A client as the lobby and the tables see it: a
    :class:`~pidor.server.connection.Connection`, or in tests a fake that collects frames.
    Sending never blocks (a peer that cannot keep up is dropped, never waited for)."""

    player: int | None  # set by a hello the lobby accepted
    name: str
    peer: str  # "address:port", for logs
    address: str  # what per-address limits count: the IP address (IPv6: its /64, limits.address_of)
    closed: bool  # nothing sent to it arrives any more
    may_call: bool  # hello's ``may_call``: False, the client never calls and its tables pass for it
    windows: bool  # hello's ``windows``: False (only with may_call False), no window/window_closed events

    def send(self, message: dict) -> None:
        """Encode and send one message."""

    def send_frames(self, frames: list[bytes]) -> None:
        """Send frames already encoded (a table encodes a frame once for many seats)."""

    def fatal(self, code: str, message: str, rid: Any = None) -> None:
        """Send one last ``error`` (``fatal``), then close."""

    def wait_for_table(self) -> None:
        """A request of this peer is now in a table's inbox: it dispatches nothing more
        until :meth:`table_answered`, so replies keep the order of requests (PROTOCOL.md
        section 2)."""

    def table_answered(self) -> None:
        """The table has handled that request (answered or refused it)."""


@runtime_checkable
class Handler(Protocol):
    """What a connection hands its messages to: the lobby. Each call runs in the
    connection's task and never waits. A refused request raises
    :class:`~pidor.server.requests.RequestError`, which the connection answers with an
    ``error`` frame."""

    def hello(self, conn: Peer, msg: dict, rid: Any) -> None:
        """The first message of a connection (``conn.player`` is ``None`` until it is
        accepted)."""

    def request(self, conn: Peer, msg: dict, rid: Any) -> None:
        """Any later message (its ``type`` not checked yet). Whatever its table holds for
        the connection is handed over first, so no answer overtakes it."""

    def gone(self, conn: Peer) -> None:
        """The connection has closed."""


@runtime_checkable
class GameIndex(Protocol):
    """The store's index of games, as a game's log keeps it
    (:class:`~pidor.server.store.Store`). None of these raise: an index write that fails
    is reported by the store and lost. ``game_started`` returns ``None`` then, and the
    calls about a ``None`` row do nothing."""

    def game_started(self, table_id: int, number: int, seats: list, log: str | None = None,
                     commitment: str | None = None) -> int | None: ...

    def game_ended(self, game_id: int | None, result: dict | None) -> None: ...

    def game_aborted(self, game_id: int | None, reason: str) -> None: ...

    def log_failed(self, game_id: int | None, reason: str) -> None: ...


@runtime_checkable
class House(Protocol):
    """What a table task needs from the server it runs in (the house, as in a card room):
    fresh seeds, its games' log paths and index, the seat bookkeeping it shares with the
    lobby, and the observers. Tables name themselves and each other by id."""

    store: GameIndex
    log_sink: LogSink
    audit: Audit | None

    def new_seed(self) -> bytes:
        """32 random bytes: a deal's server seed, a bot's or a stand-in's seed."""

    def log_path(self, table_id: int, number: int) -> str | None:
        """A new file name for the log of game ``number`` (``None``: no logs kept)."""

    def seat(self, player: int, table_id: int) -> None:
        """The player took a seat at the table (a player sits at one table at most)."""

    def unseat(self, player: int, table_id: int) -> None:
        """The player no longer sits at the table (nothing if he sits elsewhere)."""

    def table_of(self, player: int) -> int | None:
        """The table the player sits at, if any: where else he sits."""

    def table_closed(self, table_id: int, reason: str) -> None:
        """The table's task has ended (``reason``: empty, abandoned, shutdown,
        internal_error); its seated players hear of it."""

    def table_changed(self, table_id: int) -> None:
        """The table's info may have changed (the lobby's ``list`` pages showing it are
        old)."""


@runtime_checkable
class LobbyStore(Protocol):
    """Players and tables in the store, as the lobby keeps them
    (:class:`~pidor.server.store.Store`). A write a request depends on (a new player, a
    new table) raises :class:`~pidor.server.store.StoreError`, a ``RequestError``; the
    others are bookkeeping that never raises."""

    def find_player(self, token: str) -> tuple[int, str] | None: ...

    def new_player(self, name: str) -> tuple[int, str]: ...

    def seen(self, player: int, name: str) -> None: ...

    def player_seated(self, player: int) -> None: ...

    def new_table(self, game: str, options: dict, host: int | None) -> int: ...

    def close_table(self, table_id: int) -> None: ...


@runtime_checkable
class LobbyServer(Protocol):
    """What the lobby needs from the server: the store, and a table task for each table it
    creates. (The server's limits are handed to the lobby as values.)"""

    store: LobbyStore

    def open_table(self, table_id: int, options: dict, bots: list[dict]) -> Any:
        """A :class:`~pidor.server.runner.TableRunner` for a new table, its task started
        in the server's nursery."""
