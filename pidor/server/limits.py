"""The server's limits (:class:`Limits`), in a module of their own: the listener, the
connections, the lobby and ``pidor serve`` all read them."""

from __future__ import annotations

__all__ = ["Limits"]


class Limits:
    """The server's limits (seconds and counts); a server may be given other values
    (``pidor serve`` flags). An "address" is the peer's IP address."""

    RECV_SIZE = 64 * 1024
    QUEUE_BYTES = 1024 * 1024  # bytes waiting for the writer; more drops the client
    WRITE_TIMEOUT = 10.0
    HELLO_TIMEOUT = 10.0  # from connecting, not from the last byte (a slow sender gains nothing)
    IDLE_TIMEOUT = 600.0
    # Connections open at once, in all and from one address; more get ``server_full``.
    MAX_CONNECTIONS = 1000
    MAX_PER_ADDRESS = 64
    # The lobby, per address: tables open at once (a table counts for its creator's
    # address), tables created and new players (hello without token) a minute, in
    # bursts of as many.
    MAX_TABLES_PER_ADDRESS = 8
    TABLES_PER_MINUTE = 10
    PLAYERS_PER_MINUTE = 30
    # A player who never took a seat is forgotten once their token is unused this long;
    # the server looks at start and then every PLAYER_GC_INTERVAL.
    PLAYER_TTL = 86400.0
    PLAYER_GC_INTERVAL = 3600.0
