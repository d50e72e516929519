"""The server: a TCP listener, one task per connection, one task per table.

It wires the parts together through their seams (:mod:`pidor.server.seams`): each
:class:`~pidor.server.connection.Connection` hands its messages to the
:class:`~pidor.server.lobby.Lobby`; the lobby gets the server as its ``LobbyServer`` (the
store, :meth:`Server.open_table`), each :class:`~pidor.server.runner.TableRunner` as its
``House`` (seeds, log paths, the games index, the lobby's seat bookkeeping, observers).
Connection tasks and table tasks live in nurseries of their own; :meth:`Server.shutdown`
waits for those to empty, for ``grace`` seconds at most.

::

    server = Server(Store.in_dir(data_dir), logs=Path(data_dir) / "logs")
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run, "127.0.0.1", 0)   # port 0: any free port
        ...
        await server.shutdown()                                   # or cancel the nursery

``logs``: the directory of the game logs; every game writes one there,
``table-<id>-game-<n>.plog`` (``pidor serve`` uses ``DATA/logs``; ``None``: no logs, the
deals are committed all the same). The games index in the store has each log's path.

``log_sink(game, events)`` observes every event in full form (hidden fields and
violations included, the server's own events too) in order, with ``game`` naming the
table, the game number and its log; the default drops them. ``audit(table, seat, frame,
hidden)`` is a test hook called with every frame queued for a seat and the card codes it
must not contain. ``seed_source(n)`` gives the random bytes of deals (the committed server
seeds) and bots (default ``os.urandom``).

The server accepts connections itself (not ``trio.serve_listeners``) so that running out of
descriptors or memory (``EMFILE`` ...) is one warning and a back-off rather than a traceback
every 0.1 s, and so that connections beyond ``Limits.MAX_CONNECTIONS`` in all or
``Limits.MAX_PER_ADDRESS`` from one address are told ``server_full`` and closed.
"""

from __future__ import annotations

import errno
import gc
import logging
import os
import sqlite3
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import trio

from ..wire import PROTOCOL_VERSION
from .connection import Connection
from .limits import Limits, address_of
from .lobby import Lobby
from .runner import TableRunner
from .seams import Audit, LogSink
from .store import Store

__all__ = ["Server", "server_gc"]


@contextmanager
def server_gc() -> Iterator[None]:
    """Within: fewer, later cyclic GC passes, as a server wants. It allocates many
    short-lived objects, and a full collection is a pause every table waits through (p99
    latency); a match's local server spends about 8% fewer instructions an action (issue
    29). What is alive on entry is frozen out of the collections; on exit all is as before."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()

log = logging.getLogger(__name__)

#: ``accept`` errors that pass once descriptors or memory are freed: wait and retry.
ACCEPT_RETRY = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
#: The first and the longest wait after such an error (the wait doubles in between).
ACCEPT_BACKOFF = (0.1, 1.0)


def _no_log(game: dict, events: list) -> None:
    pass


class Server:
    def __init__(
        self,
        store: Store,
        *,
        log_sink: LogSink | None = None,
        audit: Audit | None = None,
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
        self.lobby = Lobby(self, limits)
        self.connections: set[Connection] = set()
        self.per_address: Counter[str] = Counter()  # open connections by peer address
        self._tables: trio.Nursery | None = None  # the table tasks' (while serving)
        self._listen_scope = trio.CancelScope()  # shutdown cancels it: no new connections
        self._stop_scope = trio.CancelScope()  # shutdown cancels it: what outlived the grace
        self._drained = trio.Event()  # every connection and table task has ended
        self._stopping = False  # shutdown has begun
        closed = store.close_open_tables()
        if closed:
            log.info("marked %d tables of an earlier run as closed", closed)
        crashed = store.close_crashed_games()
        if crashed:
            log.warning("marked %d games an earlier run left open as aborted (crash)", crashed)

    # --- a table's House (pidor.server.seams) --------------------------------------

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

    def seat(self, player: int, table_id: int) -> None:
        self.lobby.seat(player, table_id)

    def unseat(self, player: int, table_id: int) -> None:
        self.lobby.unseat(player, table_id)

    def table_of(self, player: int) -> int | None:
        return self.lobby.table_of(player)

    def table_closed(self, table_id: int, reason: str) -> None:
        self.lobby.table_closed(table_id, reason)

    def table_changed(self, table_id: int) -> None:
        self.lobby.table_changed(table_id)

    # --- the lobby's LobbyServer --------------------------------------------------------

    def open_table(self, table_id: int, options: dict, bots: list[dict]) -> TableRunner:
        """A new table's runner, its task started in the tables' nursery."""
        return self.run_table(TableRunner(self, table_id, options, bots))

    def run_table(self, runner: TableRunner) -> TableRunner:
        """Start a table's task in the tables' nursery (``open_table``; a match runner's
        own tables, :mod:`pidor.match.external`)."""
        if self._tables is None:
            raise RuntimeError("the server runs tables only while it serves (run or serve)")
        self._tables.start_soon(runner.run)
        return runner

    # --- serving ------------------------------------------------------------------------

    async def run(self, host: str = "127.0.0.1", port: int = 7777, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; ``task_status.started(port)`` reports the port."""
        listeners = await trio.open_tcp_listeners(port, host=host)
        bound = listeners[0].socket.getsockname()[1]
        log.info("listening on %s:%s (protocol %s)", host, bound, PROTOCOL_VERSION)
        await self.serve(listeners, task_status=task_status, started=bound)

    async def serve(self, listeners: list[trio.abc.Listener], *, task_status=trio.TASK_STATUS_IGNORED,
                    started=None) -> None:
        """Serve connections from ``listeners`` until cancelled or shut down (``run`` gives
        TCP ones; tests may give their own); ``task_status.started(started)``.

        As in ``trio.serve_listeners``, nurseries own the tasks: the connections' (with
        the listeners) inside the tables' (a connection opens tables, never the reverse).
        Each ends when its last task has; after :meth:`shutdown` stops the listeners and
        tells every task to end, both do, and ``serve`` returns."""
        with self._stop_scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._forget_players)
                async with trio.open_nursery() as tables:
                    async with trio.open_nursery() as connections:
                        self._tables = tables
                        connections.start_soon(self._listen, listeners, connections)
                        task_status.started(started)
                self._drained.set()
                nursery.cancel_scope.cancel()  # the player GC

    async def _listen(self, listeners: list[trio.abc.Listener], connections: trio.Nursery) -> None:
        with self._listen_scope:
            async with trio.open_nursery() as nursery:
                for listener in listeners:
                    nursery.start_soon(self._accept, listener, connections)

    async def _accept(self, listener: trio.abc.Listener, connections: trio.Nursery) -> None:
        """Accept connections, each served by a task in ``connections``. Out of
        descriptors or memory, wait (0.1 s, doubling to 1 s) and try again: one warning
        when it starts, one line when it is over, whatever it lasts."""
        wait = None
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as e:
                    if e.errno not in ACCEPT_RETRY:
                        raise
                    if wait is None:
                        log.warning("cannot accept connections: %s; retrying every %g..%g s until it passes",
                                    os.strerror(e.errno), *ACCEPT_BACKOFF)
                        wait = ACCEPT_BACKOFF[0]
                    else:
                        wait = min(2 * wait, ACCEPT_BACKOFF[1])
                    await trio.sleep(wait)
                    continue
                if wait is not None:
                    log.info("accepting connections again")
                    wait = None
                connections.start_soon(self._handle, stream)

    async def _forget_players(self) -> None:
        """Forget the players who never sat and have not used their token for
        ``PLAYER_TTL`` (hellos without token would otherwise grow the store without
        bound): now, then every ``PLAYER_GC_INTERVAL``. A store error is logged; the
        next round tries again."""
        limits = self.limits
        while True:
            try:
                n = self.store.forget_players(time.time() - limits.PLAYER_TTL, keep=self.lobby.online)
            except sqlite3.Error as e:
                log.error("cannot forget idle players: %s", e)
            else:
                if n:
                    log.info("forgot %d players who never sat and were not seen for %g s", n, limits.PLAYER_TTL)
            await trio.sleep(limits.PLAYER_GC_INTERVAL)

    async def _handle(self, stream: trio.abc.Stream) -> None:
        try:
            address, port = stream.socket.getpeername()[:2]
        except (AttributeError, OSError):  # not a socket (tests), or the peer is gone
            address, port = "?", "?"
        address_key = address_of(address)
        conn = Connection(self.lobby, self.limits, stream, f"{address}:{port}", address_key)
        if self._stopping:  # accepted as the shutdown began: told at once, like the others
            conn.fatal("shutdown", "the server is shutting down")
            await conn.run()
            return
        full = self._full(address_key)
        if full:
            conn.fatal("server_full", full)
            await conn.run()
            return
        self.connections.add(conn)
        self.per_address[address_key] += 1
        try:
            await conn.run()
        finally:
            self.connections.discard(conn)
            self.per_address[address_key] -= 1
            if not self.per_address[address_key]:
                del self.per_address[address_key]

    def _full(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused, or ``None``."""
        limits = self.limits
        if len(self.connections) >= limits.MAX_CONNECTIONS:
            return f"the server holds its maximum of {limits.MAX_CONNECTIONS} connections; try later"
        if self.per_address[address] >= limits.MAX_PER_ADDRESS:
            return f"{limits.MAX_PER_ADDRESS} connections from your address are open, the most allowed; close one"
        return None

    async def shutdown(self, grace: float = 1.0) -> None:
        """Stop listening, tell every client, close the tables; wait until their tasks
        have ended, ``grace`` seconds at most, then cancel whatever is left."""
        log.info("shutting down: %d connections, %d tables", len(self.connections), len(self.lobby.tables))
        self._stopping = True
        self._listen_scope.cancel()
        for runner in list(self.lobby.tables.values()):
            runner.submit(("close", None, None, None))  # (never refused: not a request)
        for conn in list(self.connections):
            conn.fatal("shutdown", "the server is shutting down")
        if self._tables is not None:
            with trio.move_on_after(grace):
                await self._drained.wait()
        self.store.close_open_tables()
        self._stop_scope.cancel()
