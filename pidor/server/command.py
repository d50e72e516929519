"""``pidor serve``: run the match server until SIGINT or SIGTERM.

It refuses to start, with one line and exit status 1, on an address it cannot listen on
(a busy port, an address of another machine) and on a data directory where it cannot
keep its store or its game logs (read-only, full): better than a server that loses its
index or refuses every game (``no_log``) once it runs. It binds first, so a refusal to
listen creates nothing on disk.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import sqlite3
import sys
import tempfile
from functools import partial
from pathlib import Path

import click
import trio

from .limits import Limits
from .store import Store, default_data_dir

log = logging.getLogger(__name__)


class Refused(Exception):
    """The server cannot start: one line that says what failed and what to do."""


async def _main(host: str, port: int, data_dir: str, limits: Limits) -> None:
    """Bind first, then open the data directory: a busy port or a wrong address creates
    nothing on disk."""
    from ..wire import PROTOCOL_VERSION
    from .app import Server, server_gc

    try:
        listeners = await trio.open_tcp_listeners(port, host=host)
    except OSError as e:
        raise Refused(_listen_failure(host, port, e)) from None
    store, logs = _open_data(data_dir)
    try:
        server = Server(store, logs=logs, limits=limits)
        bound = listeners[0].socket.getsockname()[1]
        with server_gc():  # (fewer, later cyclic GC passes: app.server_gc)
            async with trio.open_nursery() as nursery:
                with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                    await nursery.start(partial(server.serve, listeners, started=bound))
                    log.info("listening on %s:%s (protocol %s)", host, bound, PROTOCOL_VERSION)
                    async for signum in signals:
                        log.info("got %s", signal.Signals(signum).name)
                        await server.shutdown()
                        break
                nursery.cancel_scope.cancel()
    finally:
        store.close()


def _open_data(data_dir: str) -> tuple[Store, Path]:
    """The store and the game log directory, both checked by a write (raises :class:`Refused`)."""
    try:
        store = Store.in_dir(data_dir)
    except (OSError, sqlite3.Error) as e:
        raise Refused(f"cannot keep the store in {data_dir}: {_reason(e)}; {_ELSEWHERE}") from None
    logs = Path(data_dir) / "logs"
    try:
        _check_logs(logs)
    except OSError as e:
        store.close()
        raise Refused(f"cannot write game logs in {logs}: {_reason(e)}; {_ELSEWHERE}") from None
    log.info("data in %s, game logs in %s", data_dir, logs)
    return store, logs


_ELSEWHERE = "give a writable directory with --data (or PIDOR_DATA)"


def _reason(error: Exception) -> str:
    """``No space left on device``, not ``[Errno 28] …`` (OSError); SQLite's own text."""
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def _check_logs(logs: Path) -> None:
    """Create the game log directory and write (and sync) a nameless file in it."""
    logs.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=logs) as probe:
        probe.write(b"pidor")
        probe.flush()
        os.fsync(probe.fileno())


def _listen_failure(host: str, port: int, e: OSError) -> str:
    """Why binding failed, and what to do."""
    if isinstance(e, socket.gaierror):
        return f"cannot listen on {host}: no such host ({e.strerror}); give --host an address of this machine"
    if e.errno == errno.EADDRINUSE:
        return f"port {port} is in use on {host}; try --port 0 (any free port) or stop the other server"
    if e.errno == errno.EADDRNOTAVAIL:
        return (f"cannot listen on {host}: it is not an address of this machine; "
                "use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every address)")
    if e.errno == errno.EACCES:
        return f"no permission to listen on port {port}; use a port above 1023 (or --port 0)"
    return f"cannot listen on {host}:{port}: {_reason(e)}"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=7777, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port (0: any free port).")
@click.option("--data", "data", type=click.Path(file_okay=False), default=None,
              help="Directory for the SQLite store and the game logs (DATA/logs) "
                   "[default: $PIDOR_DATA or ~/.local/share/pidor].")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]), help="Log level (to stderr).")
@click.option("--max-connections", type=click.IntRange(1), default=Limits.MAX_CONNECTIONS, show_default=True,
              help="Connections open at once; one more is told server_full and closed. "
                   "Keep it under the open-file limit (ulimit -n), which the tables' logs share.")
@click.option("--max-per-address", type=click.IntRange(1), default=Limits.MAX_PER_ADDRESS, show_default=True,
              help="Connections open at once from one IP address (beyond: server_full). "
                   "Every per-address limit counts an IPv6 peer by its /64 network.")
@click.option("--max-tables", type=click.IntRange(1), default=Limits.MAX_TABLES, show_default=True,
              help="Open tables at once, in all (beyond: create gets server_full). Each playing table holds "
                   "about 90 KiB and a log file.")
@click.option("--max-tables-per-address", type=click.IntRange(1), default=Limits.MAX_TABLES_PER_ADDRESS,
              show_default=True, help="Open tables created from one IP address (beyond: create gets server_full).")
@click.option("--tables-per-minute", type=click.IntRange(1), default=Limits.TABLES_PER_MINUTE, show_default=True,
              help="Tables one IP address may create a minute, in bursts of as many (beyond: rate_limited).")
@click.option("--players-per-minute", type=click.IntRange(1), default=Limits.PLAYERS_PER_MINUTE, show_default=True,
              help="New players (hello without token) one IP address may get a minute, in bursts of as many "
                   "(beyond: rate_limited).")
@click.option("--lists-per-minute", type=click.IntRange(1), default=Limits.LISTS_PER_MINUTE, show_default=True,
              help="list requests one IP address may make a minute, in bursts of as many (beyond: rate_limited); "
                   f"one connection {Limits.CONNECTION_LISTS_PER_MINUTE} at most.")
def serve(host: str, port: int, data: str | None, log_level: str, max_connections: int, max_per_address: int,
          max_tables: int, max_tables_per_address: int, tables_per_minute: int, players_per_minute: int,
          lists_per_minute: int) -> None:
    """Run the match server: msgpack frames over TCP (protocol/PROTOCOL.md).

    The limits protect the server from floods; a host that runs many clients from one
    address (a tournament runner, a benchmark) raises the per-address ones."""
    logging.basicConfig(stream=sys.stderr, level=log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data_dir = data or str(default_data_dir())
    limits = Limits()
    limits.MAX_CONNECTIONS, limits.MAX_PER_ADDRESS = max_connections, max_per_address
    limits.MAX_TABLES_PER_ADDRESS, limits.TABLES_PER_MINUTE = max_tables_per_address, tables_per_minute
    limits.PLAYERS_PER_MINUTE, limits.MAX_TABLES = players_per_minute, max_tables
    limits.LISTS_PER_MINUTE = lists_per_minute
    try:
        trio.run(_main, host, port, data_dir, limits)
    except Refused as e:
        raise click.ClickException(str(e)) from None
    except BaseExceptionGroup as group:
        oserror = group.subgroup(OSError)
        if oserror is None:
            raise
        raise click.ClickException(_stopped(oserror.exceptions[0])) from None
    except OSError as e:
        raise click.ClickException(_stopped(e)) from None
    log.info("stopped")


def _stopped(e: BaseException) -> str:
    return f"the server stopped on an error of the system: {e}; see the log above, then start it again"
