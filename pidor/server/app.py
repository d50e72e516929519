"""The server: a TCP listener, one task per connection, one task per table.

::

    server = Server(Store.in_dir(data_dir), logs=Path(data_dir) / "logs")
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run, "127.0.0.1", 0)   # port 0: any free port
        ...
        await server.shutdown()                                   # or cancel the nursery

``logs``: the directory of the game logs; every game writes one there,
``table-<id>-game-<n>.plog`` (``pidor serve`` uses ``DATA/logs``; ``None``: no logs, the
deals are committed all the same). The games index in the store has each log's path.

``log_sink(record, events)`` observes every event in full form (hidden fields and
violations included, the server's own events too) in order, with ``record`` naming the
table, the game number and its log; the default drops them. ``audit(table, seat, frame,
hidden)`` is a test hook called with every frame queued for a seat and the card codes it
must not contain. ``seed_source(n)`` gives the random bytes of deals (the committed server
seeds) and bots (default ``os.urandom``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable

import trio

from ..wire import PROTOCOL_VERSION
from .connection import Connection, Limits
from .lobby import Lobby
from .store import Store

__all__ = ["Server"]

log = logging.getLogger("pidor.server")

LogSink = Callable[[dict, list], None]


def _no_log(record: dict, events: list) -> None:
    pass


class Server:
    def __init__(
        self,
        store: Store,
        *,
        log_sink: LogSink | None = None,
        audit: Callable[[int, int, bytes, set], None] | None = None,
        limits: type[Limits] | Limits = Limits,
        seed_source: Callable[[int], bytes] = os.urandom,
        logs: str | os.PathLike | None = None,
    ) -> None:
        self.store = store
        self.logs = None if logs is None else Path(logs)
        self.log_sink = log_sink or _no_log
        self.audit = audit
        self.limits = limits
        self.seed_source = seed_source
        self.lobby = Lobby(self)
        self.connections: set[Connection] = set()
        self._nursery: trio.Nursery | None = None
        self._listen_scope: trio.CancelScope | None = None
        closed = store.close_open_tables()
        if closed:
            log.info("marked %d tables of an earlier run as closed", closed)
        crashed = store.close_crashed_games()
        if crashed:
            log.warning("marked %d games an earlier run left open as aborted (crash)", crashed)

    def new_seed(self) -> bytes:
        """32 bytes for a deal, a bot or a stand-in (``seed_source``: tests make it fixed)."""
        return self.seed_source(32)

    def log_path(self, table_id: int, number: int) -> str | None:
        """A new file name for a game's log (``None`` without a logs directory). A name
        already taken (a store started afresh next to old logs) gets a suffix."""
        if self.logs is None:
            return None
        try:
            self.logs.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # the log's creation fails and is reported (GameLog)
        path = self.logs / f"table-{table_id}-game-{number}.plog"
        k = 1
        while path.exists():
            k += 1
            path = self.logs / f"table-{table_id}-game-{number}-{k}.plog"
        return str(path)

    def spawn(self, fn) -> None:
        """Start a table task in the server's nursery."""
        self._nursery.start_soon(fn)

    async def run(self, host: str = "127.0.0.1", port: int = 7777, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; ``task_status.started(port)`` reports the port."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            listeners = await trio.open_tcp_listeners(port, host=host)
            bound = listeners[0].socket.getsockname()[1]
            self._listen_scope = trio.CancelScope()
            nursery.start_soon(self._serve, listeners)
            log.info("listening on %s:%s (protocol %s)", host, bound, PROTOCOL_VERSION)
            task_status.started(bound)

    async def _serve(self, listeners) -> None:
        with self._listen_scope:
            await trio.serve_listeners(self._handle, listeners, handler_nursery=self._nursery)

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            peer = "%s:%s" % stream.socket.getpeername()[:2]
        except OSError:
            peer = "?"
        conn = Connection(self, stream, peer)
        self.connections.add(conn)
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)

    async def shutdown(self, grace: float = 1.0) -> None:
        """Stop listening, tell every client, close the tables, then stop everything."""
        log.info("shutting down: %d connections, %d tables", len(self.connections), len(self.lobby.tables))
        if self._listen_scope is not None:
            self._listen_scope.cancel()
        for runner in list(self.lobby.tables.values()):
            try:
                runner.submit(("close", None, None, None))
            except Exception:
                runner.closed = True
        for conn in list(self.connections):
            conn.fatal("shutdown", "the server is shutting down")
        with trio.move_on_after(grace):
            while self.connections or self.lobby.tables:
                await trio.sleep(0.01)
        self.store.close_open_tables()
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()
