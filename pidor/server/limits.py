"""The server's limits (:class:`Limits`), in a module of their own: the listener, the
connections, the lobby and ``pidor serve`` all read them."""

from __future__ import annotations

import ipaddress

__all__ = ["Limits", "address_of"]


def address_of(ip: str) -> str:
    """The "address" that per-address limits count for a peer's IP: an IPv4 address as
    it is (an IPv4-mapped IPv6 one too), an IPv6 address's /64 network: one host is
    handed a whole /64, so counting its addresses one by one would limit nothing."""
    try:
        parsed = ipaddress.ip_address(ip.split("%", 1)[0])  # (a link-local's %zone dropped)
    except ValueError:
        return ip  # not an IP address (a test's stream)
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return ip


class Limits:
    """The server's limits (seconds and counts); a server may be given other values
    (``pidor serve`` flags). An "address" is the peer's IP address, or its /64 network
    for IPv6 (:func:`address_of`)."""

    RECV_SIZE = 64 * 1024
    QUEUE_BYTES = 1024 * 1024  # bytes waiting for the writer; more drops the client
    WRITE_TIMEOUT = 10.0
    HELLO_TIMEOUT = 10.0  # from connecting, not from the last byte (a slow sender gains nothing)
    IDLE_TIMEOUT = 600.0
    # Connections open at once, in all and from one address; more get ``server_full``.
    MAX_CONNECTIONS = 1000
    MAX_PER_ADDRESS = 64
    # Open tables a server holds at once; one more ``create`` gets ``server_full``.
    MAX_TABLES = 2000
    # The lobby, per address: tables open at once (a table counts for its creator's
    # address), tables created and new players (hello without token) a minute, in
    # bursts of as many.
    MAX_TABLES_PER_ADDRESS = 8
    TABLES_PER_MINUTE = 10
    PLAYERS_PER_MINUTE = 30
    # ``list`` pages (up to 48 KiB each) a minute, in bursts of as many: from one address,
    # and from one connection (a client paging through a full lobby needs 20).
    LISTS_PER_MINUTE = 120
    CONNECTION_LISTS_PER_MINUTE = 30
    # A player who never took a seat is forgotten once their token is unused this long;
    # the server looks at start and then every PLAYER_GC_INTERVAL.
    PLAYER_TTL = 86400.0
    PLAYER_GC_INTERVAL = 3600.0
