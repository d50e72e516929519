"""Server paths that only a misbehaving peer, a loaded table or a server bug reaches (issue
14, section 5): the idle timeout, the write deadline and the send-queue bound, a full
table inbox (``busy``), the table cap (``server_full``), the last full ``list`` page, a
table task that fails (``internal_error``; the request it failed on is still answered),
the bot driver's cycle budget and a shutdown while tables play.

Each test checks why a connection or a table ended (the error code, the log line), not
only that it did. The server listens on in-memory streams (``serve(memory=True)``), so
the virtual clock moves only when client and server both wait.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
import trio.testing

from pidor import wire
from pidor.engine.table import Table
from pidor.gamelog.verify import verify_data
from pidor.server import drive
from pidor.server.connection import Connection
from pidor.server.lobby import LIST_MAX
from pidor.server.runner import INBOX, TableRunner
from pidor.server.testing import Client

from server_helpers import FastLimits, seated_client, serve


def dropped(caplog, player: int) -> list[str]:
    """Why the connection of ``player`` was dropped (the log lines)."""
    return [r.getMessage() for r in caplog.records
            if r.name == "pidor.server.connection" and f"player={player}>" in r.getMessage()
            and " dropped: " in r.getMessage()]


# --- the idle timeout, the write deadline, the send queue ---------------------------------


async def test_a_connection_silent_after_hello_gets_idle_timeout(autojump_clock, caplog):
    caplog.set_level(logging.INFO, logger="pidor.server.connection")
    async with serve(memory=True) as (server, listener):
        silent, pinger = await listener.connect(), await listener.connect()
        player = (await silent.hello("silent"))["player"]
        said_hello = trio.current_time()
        await pinger.hello("pinger")
        ended = {}

        async def wait_for_the_end(name, client):
            ended[name] = (await client.receive(), trio.current_time())
            with pytest.raises(EOFError):
                await client.receive()

        with trio.fail_after(5 * FastLimits.IDLE_TIMEOUT):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(wait_for_the_end, "silent", silent)
                # Pinging more often than IDLE_TIMEOUT keeps a connection however long it lasts.
                for _ in range(3):
                    await trio.sleep(FastLimits.IDLE_TIMEOUT - 1)
                    assert (await pinger.request({"type": "ping"}))["type"] == "pong"
                last_ping = trio.current_time()
                nursery.start_soon(wait_for_the_end, "pinger", pinger)
        for name, start in (("silent", said_hello), ("pinger", last_ping)):
            r, when = ended[name]
            assert r["type"] == "error" and r["code"] == "idle_timeout" and r["fatal"] is True, r
            assert when - start == pytest.approx(FastLimits.IDLE_TIMEOUT, abs=1.0), name
        assert any(f"player={player}>: idle_timeout" in r.getMessage() for r in caplog.records)
        assert not server.connections


class SlowTables:
    """A connection's :class:`~pidor.server.seams.Handler` whose tables take ``answer_after``
    seconds to answer each request (a busy server): hello is accepted at once."""

    def __init__(self, nursery: trio.Nursery, answer_after: float) -> None:
        self.nursery = nursery
        self.answer_after = answer_after

    def hello(self, conn, msg, rid) -> None:
        conn.player = 1
        conn.send({"type": "welcome", "id": rid})

    def request(self, conn, msg, rid) -> None:
        conn.wait_for_table()

        async def answer():
            await trio.sleep(self.answer_after)
            conn.send({"type": "ok", "id": rid})
            conn.table_answered()

        self.nursery.start_soon(answer)

    def gone(self, conn) -> None:
        pass


async def test_requests_sent_with_the_hello_are_not_cut_off_by_the_hello_deadline(autojump_clock):
    """Hello, create, start and acts in one write to a busy server: its tables answer each
    request 2 s after the last, so the write takes longer to handle than the hello deadline
    (5 s). The hello was in time, so the connection then runs on the idle clock (600 s),
    from when the write came: every request is answered (it used to get idle_timeout 5 s
    after connecting, in the middle of the write)."""
    client_end, server_end = trio.testing.memory_stream_pair()
    client = Client(client_end)
    async with trio.open_nursery() as nursery:
        conn = Connection(SlowTables(nursery, answer_after=2.0), FastLimits, server_end, "?:?", "?")
        nursery.start_soon(conn.run)
        t0 = trio.current_time()
        requests = [{"type": "hello", "id": 0, "version": wire.PROTOCOL_VERSION, "name": "eager"}]
        requests += [{"type": "act", "id": i, "seq": 0, "action": {"type": "draw"}} for i in range(1, 6)]
        await client.send_raw(b"".join(wire.encode(m) for m in requests))
        replies = [await client.receive() for _ in requests]
        assert [(r["type"], r["id"]) for r in replies] == [("welcome", 0)] + [("ok", i) for i in range(1, 6)]
        assert trio.current_time() - t0 == pytest.approx(10.0)  # (twice the hello deadline)
        # The idle clock runs from the write, not from the last answer.
        r = await client.receive()
        assert r["code"] == "idle_timeout" and trio.current_time() - t0 == pytest.approx(FastLimits.IDLE_TIMEOUT)
        nursery.cancel_scope.cancel()


async def test_a_client_that_stops_reading_is_dropped_at_the_write_deadline(autojump_clock, caplog):
    async with serve(memory=True) as (server, listener):
        c, _ = await listener.connect_ends(lockstep=True)  # the server's writes wait for our reads
        player = (await c.hello("sleepy"))["player"]
        await c.send({"type": "ping"})  # and we read no more: the pong's write cannot finish
        await trio.sleep(FastLimits.WRITE_TIMEOUT - 0.5)
        assert player in server.lobby.online and not dropped(caplog, player)
        await trio.sleep(1)
        assert player not in server.lobby.online
        assert dropped(caplog, player) == [
            f"<Connection ?:? player={player}> dropped: a write took longer than {FastLimits.WRITE_TIMEOUT:g} s"]
        assert not server.connections


class SmallQueue(FastLimits):
    QUEUE_BYTES = 4096


async def test_a_client_whose_frames_pile_up_is_dropped_over_queue_bytes(autojump_clock, caplog):
    async with serve(memory=True, limits=SmallQueue) as (server, listener):
        c, _ = await listener.connect_ends(lockstep=True)
        player = (await c.hello("hoarder"))["player"]
        # Lobby requests are answered at once: their replies pile up behind the stuck write.
        rules = wire.encode({"type": "rules"})
        await c.send_raw(rules * 20)
        await trio.testing.wait_all_tasks_blocked()
        assert player not in server.lobby.online
        assert dropped(caplog, player) == [f"<Connection ?:? player={player}> dropped: over "
                                           f"{SmallQueue.QUEUE_BYTES} bytes wait to be sent (a slow reader)"]
        assert trio.current_time() < SmallQueue.WRITE_TIMEOUT  # not the write deadline


# --- a full table inbox; the table cap; list pages ------------------------------------------


class Crowd(FastLimits):
    """Every in-memory connection comes from the same address ("?")."""
    MAX_PER_ADDRESS = 1000
    PLAYERS_PER_MINUTE = 1000


async def test_a_full_table_inbox_answers_busy(autojump_clock, monkeypatch):
    """Each connection has at most one request waiting at a table, so a full inbox takes as
    many connections. Their requests reach the server at the same moment: every reader
    hands its request over before the table's task runs again. (A parked table task lets a
    request be handled in its sender's task at once, ``TableRunner.inline``: the inbox
    fills only while the task has work of its own; here every request goes to it.)"""
    monkeypatch.setattr(TableRunner, "inline", False)
    async with serve(memory=True, limits=Crowd) as (server, listener):
        host = await seated_client(listener, "host", options={"game": "pidor", "players": 3, "bots": 1})
        crowd = []
        for k in range(INBOX + 6):
            c, end = await listener.connect_ends()
            await c.hello(f"c{k}")
            crowd.append((c, end))
        await trio.testing.wait_all_tasks_blocked()
        for c, end in crowd:  # no await in between: their readers run in one batch of the scheduler
            end.receive_stream.put_data(wire.encode({"type": "resync", "id": "r", "table": host.table}))
        replies = [await c.receive(lambda m: m.get("id") == "r", timeout=60) for c, _ in crowd]
        codes = [r["code"] for r in replies]
        # The table answers those in its inbox (the task, waiting, took the first at once).
        assert INBOX <= codes.count("not_seated") <= INBOX + 1, codes
        assert codes.count("busy") == len(crowd) - codes.count("not_seated"), codes
        busy = next(c for (c, _), code in zip(crowd, codes) if code == "busy")
        assert (await busy.request({"type": "resync", "table": host.table}))["code"] == "not_seated"
        assert (await host.request({"type": "resync"}))["type"] == "table"


class TwoTables(FastLimits):
    MAX_TABLES = 2


async def test_create_beyond_the_servers_table_cap_gets_server_full(autojump_clock):
    options = {"game": "pidor", "players": 2, "bots": 1}
    async with serve(memory=True, limits=TwoTables) as (server, listener):
        first = await seated_client(listener, "first", options=options)
        await seated_client(listener, "second", options=options)
        third = await listener.connect()
        await third.hello("third")
        r = await third.request({"type": "create", "options": options})
        assert r["code"] == "server_full" and "holds 2 tables" in r["message"] and not r.get("fatal"), r
        assert len(server.lobby.tables) == 2 and (await third.request({"type": "ping"}))["type"] == "pong"
        assert (await first.request({"type": "leave"}))["type"] == "ok"  # its table closes
        with trio.fail_after(5):
            while first.table in server.lobby.tables:
                await trio.sleep(0.01)
        assert (await third.request({"type": "create", "options": options}))["type"] == "joined"


class Makers(Crowd):
    MAX_TABLES_PER_ADDRESS = 1000
    TABLES_PER_MINUTE = 1000


async def test_list_pages_end_exactly_at_list_max(autojump_clock):
    """``next`` names a table only when more match after the page: a page that is full
    with nothing after it is the last (test_server_limits pages through a total that is
    not a multiple of the page)."""
    open_, full = {"game": "pidor", "players": 3, "bots": 1}, {"game": "pidor", "players": 2, "bots": 1}
    async with serve(memory=True, limits=Makers) as (server, listener):
        async def create(options):
            return (await seated_client(listener, "maker", options=options)).table

        ids = [await create(open_) for _ in range(LIST_MAX - 1)]
        taken = await create(full)  # every seat taken: not open
        ids.append(await create(open_))
        reader = await listener.connect()
        await reader.hello("reader")
        r = await reader.request({"type": "list", "open": True})
        assert [t["id"] for t in r["tables"]] == ids and r["total"] == LIST_MAX and r["next"] is None
        r = await reader.request({"type": "list"})
        assert [t["id"] for t in r["tables"]] == ids[:-1] + [taken] and r["total"] == LIST_MAX + 1
        assert r["next"] == taken
        r = await reader.request({"type": "list", "after": taken})
        assert [t["id"] for t in r["tables"]] == ids[-1:] and r["next"] is None


# --- a table task that fails ----------------------------------------------------------------


async def test_a_failing_table_closes_as_internal_error_with_an_aborted_log(tmp_path, monkeypatch, caplog,
                                                                           autojump_clock):
    """A bug in the table's task (here: the table's clock query raises once the game is
    under way) closes that table alone: its people get ``closed`` with ``internal_error``
    and stay connected, the game's log ends aborted and verifies."""
    failing = False
    deadline = Table.deadline

    def deadline_or_bug(self):
        if failing:
            raise RuntimeError("an injected bug")
        return deadline(self)

    monkeypatch.setattr(Table, "deadline", deadline_or_bug)
    async with serve(memory=True, logs=tmp_path, seeds="internal-error") as (server, listener):
        host = await seated_client(listener, "host", options={"game": "pidor", "players": 3, "bots": 1})
        guest = await seated_client(listener, "guest", table=host.table)
        assert (await host.request({"type": "start"}))["type"] == "ok"
        closed = {}

        async def play(c):
            nonlocal failing
            acted = 0
            while True:
                m = await c.receive()
                if m["type"] == "closed":
                    closed[c.seat] = m
                    return
                if failing:
                    continue
                if m["type"] == "turn" and m["options"]:
                    await c.send({"type": "act", "action": m["options"][0]})
                    acted += 1
                    if acted == 3:
                        failing = True  # the bug strikes in the table's next cycle
                elif m["type"] == "event" and m["event"]["type"] == "window" and c.seat in m["event"]["owing"]:
                    await c.send({"type": "pass"})

        with trio.fail_after(600):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play, host)
                nursery.start_soon(play, guest)
        failing = False
        assert closed == {c.seat: {"type": "closed", "table": host.table, "reason": "internal_error"}
                          for c in (host, guest)}
        failed = [r for r in caplog.records if r.getMessage() == f"table {host.table} failed; closing it"]
        assert len(failed) == 1 and "an injected bug" in str(failed[0].exc_info[1])
        assert host.table not in server.lobby.tables
        for c in (host, guest):  # still connected, and seated nowhere
            assert (await c.request({"type": "ping"}))["type"] == "pong"
        assert (await host.request({"type": "create", "options": {"game": "pidor", "players": 2, "bots": 1}}))[
            "type"] == "joined"
        [row] = server.store.games_of(host.table)
        assert row["aborted"] == "internal_error" and row["result"] is None
        report = verify_data(Path(row["log"]).read_bytes())
        assert report.status == "verified" and report.notes == ["aborted: internal_error"], report
        assert report.records > 3  # the game had begun: the deal and some actions


# --- the bot driver's cycle budget ------------------------------------------------------------


async def test_a_table_of_bots_yields_to_other_connections_after_its_cycle_budget(monkeypatch, autojump_clock):
    """Bots play many table calls in a row: once its person is away, a table of bots plays
    on its own (every window passed at once for the away seat). After ``CYCLE_BUDGET``
    calls the table's task lets other tasks run: a ping that arrives meanwhile on another
    connection is answered before the bots' run is over, not after it."""
    monkeypatch.setattr(drive, "CYCLE_BUDGET", 2)
    calls: list[float] = []  # when each table call's events came out (the log sink; a pass has none)
    asked = answered = None

    def sink(record, events):
        nonlocal asked
        calls.append(trio.current_time())
        if asked is None and any(e["type"] == "timeout" and e.get("reason") == "away" for e in events):
            asked = len(calls)  # a run of the bots begins (the stand-in of the away seat acted)
            end.receive_stream.put_data(wire.encode({"type": "ping", "id": "p"}))

    async with serve(memory=True, log_sink=sink, seeds="budget") as (server, listener):
        pinger, end = await listener.connect_ends()
        await pinger.hello("pinger")
        pump = end.send_stream.send_all_hook

        async def note_pong():
            nonlocal answered
            if asked is not None and answered is None:
                answered = len(calls)
            await pump()

        end.send_stream.send_all_hook = note_pong
        c = await seated_client(listener, "away", options={"game": "podkidnoy", "players": 4, "bots": 3})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await c.aclose()
        assert (await pinger.receive(lambda m: m.get("id") == "p", timeout=60))["type"] == "pong"
        await trio.testing.wait_all_tasks_blocked()
        # The run: the calls made at that moment (then the table waits for the away seat's
        # next obliged action, AWAY_TURN later).
        run_end = max(i for i, t in enumerate(calls, 1) if t == calls[asked - 1])
        assert run_end - asked > 10, "a long run of the bots (its length depends on the seeds)"
        assert asked < answered < run_end, (asked, answered, run_end)


# --- shutdown while tables play ---------------------------------------------------------------


async def test_shutdown_while_tables_play_aborts_every_game_and_tells_every_client(tmp_path, autojump_clock):
    """Three tables play (a person and bots each) when the server shuts down; a fourth
    client has stopped reading, so its farewell can never be written: the call still
    returns within its grace."""
    games = [("pidor", 4), ("podkidnoy", 3), ("perevodnoy", 2)]
    async with serve(memory=True, logs=tmp_path, seeds="busy-shutdown") as (server, listener):
        people = [await seated_client(listener, f"p-{game}", options={"game": game, "players": n, "bots": n - 1})
                  for game, n in games]
        stuck, _ = await listener.connect_ends(lockstep=True)
        await stuck.hello("stuck")
        await stuck.send({"type": "ping"})  # its pong waits for a read that never comes
        for c in people:
            assert (await c.request({"type": "start"}))["type"] == "ok"
        farewell = {}
        playing = trio.Semaphore(0)

        async def play(c):
            acted = 0
            while True:
                try:
                    m = await c.receive()
                except EOFError:
                    return
                if m.get("fatal"):
                    farewell[c.table] = m
                    continue
                reply = None
                if m["type"] == "turn" and m["options"]:
                    reply = {"type": "act", "action": m["options"][0]}
                    acted += 1
                    if acted == 2:
                        playing.release()
                elif m["type"] == "event" and m["event"]["type"] == "window" and c.seat in m["event"]["owing"]:
                    reply = {"type": "pass"}
                elif m["type"] == "event" and m["event"]["type"] == "court" and c.seat in m["event"]["voters"]:
                    reply = {"type": "vote", "guilty": False}
                if reply is not None:
                    try:
                        await c.send(reply)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass  # the server has closed this connection: what it said last is read above

        with trio.fail_after(600):
            async with trio.open_nursery() as nursery:
                for c in people:
                    nursery.start_soon(play, c)
                for _ in people:
                    await playing.acquire()
                assert all(server.store.games_of(c.table)[0]["ended"] is None for c in people)  # in play
                grace = 1.0
                start = trio.current_time()
                await server.shutdown(grace=grace)
                assert trio.current_time() - start <= grace
                assert not server.lobby.tables
        for c in people:
            assert farewell[c.table] == {"type": "error", "id": None, "code": "shutdown",
                                         "message": "the server is shutting down", "fatal": True}
            assert c.messages[-1] is farewell[c.table]  # the last word
            [row] = server.store.games_of(c.table)
            assert row["aborted"] == "shutdown" and row["result"] is None
            report = verify_data(Path(row["log"]).read_bytes())
            assert report.status == "verified" and report.notes == ["aborted: shutdown"], report
            assert report.records > 3


@pytest.mark.parametrize("request_", ["resync", "start"])
async def test_the_request_a_table_fails_on_is_answered_once(request_, monkeypatch, autojump_clock):
    """The table fails while it handles a request: before its reply (``resync`` sends the
    snapshot first) or after it (``start`` replies ``ok``, then sends the deal). Either way
    the request has one answer, as the requests queued behind it do (``no_table``), and a
    client waiting for it is not left hanging."""
    failing = False
    view = Table.view

    def view_or_bug(self, seat):
        if failing:
            raise RuntimeError("an injected bug")
        return view(self, seat)

    monkeypatch.setattr(Table, "view", view_or_bug)
    async with serve(memory=True) as (server, listener):
        c = await seated_client(listener, "host", options={"game": "podkidnoy", "players": 2, "bots": 1})
        if request_ == "resync":
            assert (await c.request({"type": "start"}))["type"] == "ok"
        failing = True
        r = await c.request({"type": request_})
        assert r == ({"type": "error", "id": r["id"], "code": "no_table", "message": f"table {c.table} has closed"}
                     if request_ == "resync" else {"type": "ok", "id": r["id"]}), r
        closed = await c.receive(lambda m: m["type"] == "closed", timeout=60)
        assert closed["reason"] == "internal_error"
        assert [m for m in c.messages if m.get("id") == r["id"]] == [r]
