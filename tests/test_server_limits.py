"""Issue 8, items 7-9: what one client or one address may hold. The hello deadline runs
from connecting; connections are capped in all and per address (``server_full``); out of
descriptors the server backs off with one warning; per-address limits on tables and new
players (``server_full``, ``rate_limited``); players who never sat are forgotten; ``list``
pages without describing the tables it does not send."""

from __future__ import annotations

import errno
import logging
import os
import socket
import subprocess
import sys
import time

import pytest
import trio
import trio.testing

from helpers import announced_port, old_database, read_frame
from pidor import wire
from pidor.server.app import Server
from pidor.server.limits import address_of
from pidor.server.lobby import LIST_MAX, Rate
from pidor.server.runner import TableRunner
from pidor.server.seating import server_options
from pidor.server.store import Store
from pidor.server.testing import Client, connect

from server_helpers import FastLimits, seated_client, serve


async def connect_from(port: int, address: str) -> Client:
    """A client whose connection comes from another loopback address (127.0.0.2, ...)."""
    return Client(await trio.open_tcp_stream("127.0.0.1", port, local_address=address))


async def until(predicate) -> None:
    """Let the server run until ``predicate()`` (bounded). Used under ``autojump_clock``
    only: the sleeps are virtual, no test waits on the real clock."""
    for _ in range(1000):
        if predicate():
            return
        await trio.sleep(0.01)
    raise AssertionError("the server never got there")


# --- item 7: the hello deadline, connection caps, accept errors ------------------------


async def test_hello_deadline_counts_from_connecting_not_from_the_last_byte(autojump_clock):
    """Slowloris: one byte of a hello every 2 s (the deadline is 5 s) used to reset the
    deadline each time, so the connection lived on and finally got its welcome. (Over
    in-memory streams: the virtual clock cannot jump while a byte is in flight.)"""
    async with serve(memory=True) as (server, listener):
        c = await listener.connect()
        t0 = trio.current_time()
        hello = wire.encode({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "slow"})

        async def drip():
            try:
                for i in range(len(hello)):
                    await c.send_raw(hello[i:i + 1])
                    await trio.sleep(2)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

        async with trio.open_nursery() as nursery:
            nursery.start_soon(drip)
            r = await c.receive()
            nursery.cancel_scope.cancel()
        assert r["type"] == "error" and r["code"] == "hello_timeout" and r["fatal"], r
        assert trio.current_time() - t0 == pytest.approx(FastLimits.HELLO_TIMEOUT, abs=0.1)
        with pytest.raises(EOFError):
            await c.receive()


class FewConnections(FastLimits):
    MAX_CONNECTIONS = 3
    MAX_PER_ADDRESS = 2


async def test_connections_beyond_the_caps_get_server_full_and_are_closed(autojump_clock):
    async with serve(limits=FewConnections) as (server, port):
        a1, a2 = await connect(port), await connect(port)
        for c in (a1, a2):
            assert (await c.hello("a"))["type"] == "welcome"
        # A third from the same address: the per-address cap.
        a3 = await connect(port)
        r = await a3.receive()
        assert r["code"] == "server_full" and r["fatal"] is True and "your address" in r["message"], r
        with pytest.raises(EOFError):
            await a3.receive()
        # Another address still gets in, up to the cap in all.
        b1 = await connect_from(port, "127.0.0.2")
        assert (await b1.hello("b"))["type"] == "welcome"
        b2 = await connect_from(port, "127.0.0.3")
        r = await b2.receive()
        assert r["code"] == "server_full" and r["fatal"] is True and "maximum of 3 connections" in r["message"], r
        # One closes: there is room again.
        await a1.aclose()
        await until(lambda: len(server.connections) == 2)
        again = await connect(port)
        assert (await again.hello("a"))["type"] == "welcome"
        assert server.per_address == {"127.0.0.1": 2, "127.0.0.2": 1}


class FlakyListener(trio.abc.Listener):
    """A listener out of descriptors for its first ``failures`` accepts; then it gives
    one in-memory connection (whose client end is ``client``) and nothing more."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls: list[float] = []
        self.client, self._server_end = trio.testing.memory_stream_pair()

    async def accept(self):
        self.calls.append(trio.current_time())
        if len(self.calls) <= self.failures:
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
        if len(self.calls) == self.failures + 1:
            return self._server_end
        await trio.sleep_forever()

    async def aclose(self) -> None:
        pass


async def test_out_of_descriptors_backs_off_with_one_warning_then_serves(autojump_clock, caplog):
    caplog.set_level(logging.INFO)
    listener = FlakyListener(failures=7)
    server = Server(Store(":memory:"), limits=FastLimits)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, [listener])
        client = Client(listener.client)
        welcome = await client.hello("patient")
        assert welcome["type"] == "welcome"
        nursery.cancel_scope.cancel()
    gaps = [round(b - a, 6) for a, b in zip(listener.calls, listener.calls[1:])]
    assert gaps[:7] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0]  # doubling from 0.1 s to at most 1 s
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and "Too many open files" in loud[0].getMessage(), loud
    assert not any(r.exc_info for r in caplog.records)


def test_serve_flags_set_the_limits(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "pidor.cli", "serve", "--port", "0", "--data", str(tmp_path),
                             "--max-per-address", "2", "--players-per-minute", "1", "--lists-per-minute", "1"],
                            stderr=subprocess.PIPE, text=True)
    try:
        port = announced_port(proc.stderr, r"listening on 127\.0\.0\.1:(\d+)")
        assert port
        hello = wire.encode({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "x", "id": 1})
        socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
        socks[0].sendall(hello)
        assert read_frame(socks[0])["type"] == "welcome"
        socks[1].sendall(hello)
        assert read_frame(socks[1])["code"] == "rate_limited"  # one new player a minute
        for reply in ("tables", "error"):  # one list a minute
            socks[0].sendall(wire.encode({"type": "list", "id": 2}))
            r = read_frame(socks[0])
            assert r["type"] == reply and r.get("code", "rate_limited") == "rate_limited", r
        third = socket.create_connection(("127.0.0.1", port), timeout=10)
        r = read_frame(third)
        assert r["code"] == "server_full" and r["fatal"] is True  # two connections an address
        assert third.recv(1) == b""  # closed
        for s in socks + [third]:
            s.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


# --- item 8: tables and new players per address; forgetting players -------------------


class FewTables(FastLimits):
    TABLES_PER_MINUTE = 3
    MAX_TABLES_PER_ADDRESS = 2


async def test_tables_created_per_address_are_rate_limited(autojump_clock):
    options = {"game": "pidor", "players": 3, "bots": 2}
    async with serve(limits=FewTables) as (server, port):
        c = await connect(port)
        await c.hello("maker")

        async def create():
            r = await c.request({"type": "create", "options": options})
            if r["type"] == "joined":
                assert (await c.request({"type": "leave"}))["type"] == "ok"  # the table closes
            return r

        for _ in range(3):  # the burst
            assert (await create())["type"] == "joined"
        t0 = trio.current_time()
        r = await create()
        assert r["code"] == "rate_limited" and "try again in 20 s" in r["message"], r
        tables = len(server.lobby.tables)
        # Refused: nothing was created; the connection stays.
        assert tables == 0 and server.store.db.execute("SELECT count(*) FROM tables").fetchone()[0] == 3
        # Another address is not concerned.
        other = await connect_from(port, "127.0.0.2")
        await other.hello("other")
        assert (await other.request({"type": "create", "options": options}))["type"] == "joined"
        # A token comes back every 20 s.
        await trio.sleep(20 - (trio.current_time() - t0))
        assert (await create())["type"] == "joined"
        assert (await create())["code"] == "rate_limited"


async def test_open_tables_per_address_are_capped(autojump_clock):
    options = {"game": "pidor", "players": 3, "bots": 1}
    async with serve(limits=FewTables) as (server, port):
        first = await seated_client(port, "one", options=options)
        second = await seated_client(port, "two", options=options)
        third = await connect(port)
        await third.hello("three")
        r = await third.request({"type": "create", "options": options})
        assert r.get("code") == "server_full" and "2 tables created from your address" in r["message"], r
        # A table counts for its creator's address while it is open, whoever sits there.
        assert (await third.request({"type": "join", "table": first.table}))["type"] == "joined"
        assert (await first.request({"type": "leave"}))["type"] == "ok"
        assert (await third.request({"type": "create", "options": options}))["code"] == "already_seated"
        assert (await third.request({"type": "leave"}))["type"] == "ok"  # now it closes
        await until(lambda: first.table not in server.lobby.tables)
        await trio.sleep(60)  # (the rate is not what is tested here)
        assert (await third.request({"type": "create", "options": options}))["type"] == "joined"
        assert second.table in server.lobby.tables


async def test_new_players_per_address_are_rate_limited(autojump_clock):
    class FewPlayers(FastLimits):
        PLAYERS_PER_MINUTE = 2

    async with serve(limits=FewPlayers) as (server, port):
        c = await connect(port)
        token = (await c.hello("p0"))["token"]
        d = await connect(port)
        assert (await d.hello("p1"))["type"] == "welcome"
        e = await connect(port)
        r = await e.hello("p2")
        assert r["code"] == "rate_limited" and "try again in 30 s" in r["message"], r
        assert server.store.player_count() == 2
        # Not fatal; a known player's hello is not limited.
        assert (await e.hello("p0", token=token))["type"] == "welcome"
        f = await connect_from(port, "127.0.0.2")
        assert "token" in await f.hello("elsewhere")
        await trio.sleep(30)
        g = await connect(port)
        assert "token" in await g.hello("p3")


def test_store_forgets_players_who_never_sat_and_were_not_seen():
    store = Store(":memory:")
    old = time.time() - 1000
    idle, _ = store.new_player("idle")
    sat, _ = store.new_player("sat")
    online, _ = store.new_player("online")
    recent, _ = store.new_player("recent")
    store.player_seated(sat)
    store.db.execute("UPDATE players SET seen = ? WHERE id != ?", (old, recent))
    assert store.forget_players(time.time() - 500, keep=[online]) == 1
    left = {r[0] for r in store.db.execute("SELECT id FROM players")}
    assert left == {sat, online, recent}


def test_an_older_store_keeps_its_players(tmp_path):
    """Players of a database from before the ``seated`` flag may have sat: kept."""
    path = old_database(tmp_path / "old.sqlite3",
                        "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                        "token_hash BLOB NOT NULL UNIQUE, created REAL NOT NULL, seen REAL NOT NULL)",
                        "INSERT INTO players (name, token_hash, created, seen) VALUES ('old', x'00', 0, 0)")
    store = Store(path)
    new, _ = store.new_player("new")
    store.db.execute("UPDATE players SET seen = 0")
    assert store.forget_players(time.time()) == 1
    assert [r[0] for r in store.db.execute("SELECT name FROM players")] == ["old"]


class PatientLimits(FastLimits):
    IDLE_TIMEOUT = 2 * FastLimits.PLAYER_GC_INTERVAL


async def test_server_forgets_idle_players_at_start_and_then_periodically(autojump_clock):
    store = Store(":memory:")
    gone_at_start, _ = store.new_player("a")
    later, _ = store.new_player("b")
    store.db.execute("UPDATE players SET seen = ? WHERE id = ?", (time.time() - FastLimits.PLAYER_TTL - 1, gone_at_start))
    server = Server(store, limits=PatientLimits)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run, "127.0.0.1", 0)

        def ids():
            return {r[0] for r in store.db.execute("SELECT id FROM players")}

        await until(lambda: gone_at_start not in ids())
        assert later in ids()
        sitter = await seated_client(port, "sitter", options={"game": "pidor", "players": 2, "bots": 1})
        online = await connect(port)
        online_id = (await online.hello("online"))["player"]
        store.db.execute("UPDATE players SET seen = ?", (time.time() - FastLimits.PLAYER_TTL - 1,))
        await trio.sleep(FastLimits.PLAYER_GC_INTERVAL - 1)
        assert later in ids()  # not yet
        await trio.sleep(2)
        assert ids() == {sitter.player, online_id}
        nursery.cancel_scope.cancel()


def test_rate_forgets_refilled_buckets():
    rate = Rate(per_minute=6)
    for k in range(2000):
        assert rate.take(f"10.0.{k}", now=k * 10.0) == 0.0  # each refills in 10 s
    assert len(rate._buckets) < 1100


# --- item 9: list pages --------------------------------------------------------------


async def test_list_pages_and_describes_only_the_tables_it_sends(monkeypatch):
    async with serve() as (server, port):
        for k in range(250):
            options, bots = server_options({"game": "pidor" if k % 5 else "podkidnoy", "players": 2, "bots": 1})
            table_id = server.store.new_table(options["game"], options, None)
            server.lobby.tables[table_id] = TableRunner(server, table_id, options, bots)
        described = []
        info = TableRunner.info
        monkeypatch.setattr(TableRunner, "info", lambda self: described.append(self.id) or info(self))
        c = await connect(port)
        await c.hello("reader")
        r = await c.request({"type": "list"})
        assert len(r["tables"]) == LIST_MAX and r["total"] == 250 and described == [t["id"] for t in r["tables"]]
        assert r["next"] == r["tables"][-1]["id"]
        # Paging visits every table once, in id order. A table's info is made once, until
        # it changes (TableRunner.packed_info): only those never sent before are described.
        seen, after, pages = [], None, 0
        while pages < 100:
            sent_before = set(described)
            described.clear()
            r = await c.request({"type": "list", "game": "pidor", "after": after, "limit": 30})
            pages += 1
            ids = [t["id"] for t in r["tables"]]
            assert described == [i for i in ids if i not in sent_before] and len(ids) <= 30 and r["total"] == 200
            described += sent_before
            seen += ids
            after = r["next"]
            if after is None:
                break
        pidor = [i for i in sorted(server.lobby.tables) if server.lobby.tables[i].options["game"] == "pidor"]
        assert pages == 7 and seen == pidor and len(pidor) == 200
        r = await c.request({"type": "list", "after": max(server.lobby.tables)})
        assert r["tables"] == [] and r["next"] is None and r["total"] == 250
        for bad in (0, LIST_MAX + 1, "10", 2.0):
            r = await c.request({"type": "list", "limit": bad})
            assert r["code"] == "bad_request", r
        r = await c.request({"type": "list", "after": "x"})
        assert r["code"] == "bad_request"


def test_an_ipv6_peer_is_limited_by_its_64_network():
    """One host gets a whole /64: its addresses count as one for every per-address limit
    (connections, tables, new players); IPv4, also mapped into IPv6, counts as itself."""
    assert address_of("127.0.0.1") == "127.0.0.1"
    assert address_of("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_of("2001:db8:1:2:aaaa::1") == address_of("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert address_of("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address_of("fe80::1%eth0") == "fe80::/64"
    assert address_of("?") == "?"


async def test_the_per_address_cap_counts_an_ipv6_peer_by_its_network(autojump_clock):
    async with serve(limits=FewConnections, host="::1") as (server, port):
        a1, a2 = await connect(port, "::1"), await connect(port, "::1")
        for c in (a1, a2):
            assert (await c.hello("a"))["type"] == "welcome"
        r = await (await connect(port, "::1")).receive()
        assert r["code"] == "server_full" and "your address" in r["message"], r
        assert server.per_address == {"::/64": 2}


# --- issue 21 item 6: list floods ------------------------------------------------------------


class FewLists(FastLimits):
    CONNECTION_LISTS_PER_MINUTE = 2
    LISTS_PER_MINUTE = 100


async def test_a_list_refused_as_rate_limited_holds_the_connection_for_the_wait(autojump_clock):
    """A greedy client that sends list after list, or sends them again the moment it is
    refused, gets nothing for it: after a ``rate_limited`` list the server reads that
    connection no further until the wait its message names has passed (what it sent
    meanwhile is answered then, in order). Another connection is not held."""
    async with serve(limits=FewLists, memory=True) as (server, listener):
        greedy, other = await listener.connect(), await listener.connect()
        await greedy.hello("greedy")
        await other.hello("other")
        t0 = trio.current_time()
        await greedy.send_raw(b"".join(wire.encode({"type": t, "id": i}) for i, t in
                                       enumerate(["list", "list", "list", "ping", "list"])))
        replies = [await greedy.receive() for _ in range(5)]
        assert [r.get("code", r["type"]) for r in replies] == ["tables", "tables", "rate_limited", "pong", "tables"]
        assert "try again in 30 s" in replies[2]["message"]
        assert trio.current_time() - t0 == pytest.approx(30.0)  # the ping waited for the hold
        t1 = trio.current_time()
        assert (await other.request({"type": "list"}))["type"] == "tables" and trio.current_time() == t1
