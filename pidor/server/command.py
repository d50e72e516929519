"""``pidor serve``: run the match server until SIGINT or SIGTERM.

It refuses to start, with one line and exit status 1, on a data directory where it cannot
keep its store or its game logs (read-only, full): better than a server that loses its
index or refuses every game (``no_log``) once it runs.
"""

from __future__ import annotations

import errno
import gc
import logging
import os
import signal
import sqlite3
import sys
import tempfile
from pathlib import Path

import click
import trio

from .limits import Limits
from .store import Store, default_data_dir

log = logging.getLogger(__name__)


async def _main(host: str, port: int, store: Store, logs: Path, limits: Limits) -> None:
    from .app import Server

    server = Server(store, logs=logs, limits=limits)
    # Fewer, later cyclic GC passes: the server allocates many short-lived objects and a
    # full collection is a pause every table waits through (p99 latency).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    async with trio.open_nursery() as nursery:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            await nursery.start(server.run, host, port)
            async for signum in signals:
                log.info("got %s", signal.Signals(signum).name)
                await server.shutdown()
                break
        nursery.cancel_scope.cancel()


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


def _os_failure(host: str, port: int, e: BaseException) -> str:
    """One line for an OS error that stopped the server: binding, or anything later."""
    if getattr(e, "errno", None) in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES):
        return f"cannot listen on {host}:{port}: {e}"
    return f"the server stopped on an error of the system: {e}"


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
              help="Connections open at once from one IP address (beyond: server_full).")
@click.option("--max-tables-per-address", type=click.IntRange(1), default=Limits.MAX_TABLES_PER_ADDRESS,
              show_default=True, help="Open tables created from one IP address (beyond: create gets server_full).")
@click.option("--tables-per-minute", type=click.IntRange(1), default=Limits.TABLES_PER_MINUTE, show_default=True,
              help="Tables one IP address may create a minute, in bursts of as many (beyond: rate_limited).")
@click.option("--players-per-minute", type=click.IntRange(1), default=Limits.PLAYERS_PER_MINUTE, show_default=True,
              help="New players (hello without token) one IP address may get a minute, in bursts of as many "
                   "(beyond: rate_limited).")
def serve(host: str, port: int, data: str | None, log_level: str, max_connections: int, max_per_address: int,
          max_tables_per_address: int, tables_per_minute: int, players_per_minute: int) -> None:
    """Run the match server: msgpack frames over TCP (protocol/PROTOCOL.md).

    The limits protect the server from floods; a host that runs many clients from one
    address (a tournament runner, a benchmark) raises the per-address ones."""
    logging.basicConfig(stream=sys.stderr, level=log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data_dir = data or str(default_data_dir())
    try:
        store = Store.in_dir(data_dir)
    except (OSError, sqlite3.Error) as e:
        raise click.ClickException(f"cannot keep the store in {data_dir}: {_reason(e)}") from None
    logs = Path(data_dir) / "logs"
    try:
        _check_logs(logs)
    except OSError as e:
        store.close()
        raise click.ClickException(f"cannot write game logs in {logs}: {_reason(e)}") from None
    log.info("data in %s, game logs in %s", data_dir, logs)
    limits = Limits()
    limits.MAX_CONNECTIONS, limits.MAX_PER_ADDRESS = max_connections, max_per_address
    limits.MAX_TABLES_PER_ADDRESS, limits.TABLES_PER_MINUTE = max_tables_per_address, tables_per_minute
    limits.PLAYERS_PER_MINUTE = players_per_minute
    try:
        trio.run(_main, host, port, store, logs, limits)
    except BaseExceptionGroup as group:
        oserror = group.subgroup(OSError)
        if oserror is None:
            raise
        raise click.ClickException(_os_failure(host, port, oserror.exceptions[0])) from None
    except OSError as e:
        raise click.ClickException(_os_failure(host, port, e)) from None
    finally:
        store.close()
    log.info("stopped")
