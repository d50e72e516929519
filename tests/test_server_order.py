"""Issue 8, item 10: replies come in the order of the requests of one connection
(PROTOCOL.md section 2), lobby and table requests mixed, pipelined in one write; and a
table that closes answers the requests still waiting in its inbox."""

from __future__ import annotations

import trio

from pidor import wire
from pidor.server.testing import connect

from server_helpers import seated_client, serve


async def replies_until(client, last_id) -> list[tuple[str, object]]:
    """``(type, id)`` of every reply (a message with an ``id``) up to the one for ``last_id``."""
    out = []
    while not out or out[-1][1] != last_id:
        msg = await client.receive(timeout=60)
        if "id" in msg:
            out.append((msg["type"], msg["id"]))
    return out


async def test_a_pipelined_burst_is_answered_in_request_order(autojump_clock):
    """The burst of the issue: it came back as welcome 1, pong 3, pong 5, tables 6,
    pong 8, joined 2, ok 4, ok 7."""
    burst = [
        {"type": "hello", "id": 1, "version": wire.PROTOCOL_VERSION, "name": "piper"},
        {"type": "create", "id": 2, "options": {"game": "pidor", "players": 2, "bots": 1}},
        {"type": "ping", "id": 3},
        {"type": "start", "id": 4},
        {"type": "ping", "id": 5},
        {"type": "list", "id": 6},
        {"type": "resync", "id": 7},
        {"type": "ping", "id": 8},
    ]
    async with serve() as (server, port):
        c = await connect(port)
        await c.send_raw(b"".join(wire.encode(m) for m in burst))
        assert await replies_until(c, 8) == [("welcome", 1), ("joined", 2), ("pong", 3), ("ok", 4), ("pong", 5),
                                             ("tables", 6), ("ok", 7), ("pong", 8)]


async def test_pipelined_moves_at_a_table_of_bots_are_answered_in_order(autojump_clock):
    async with serve() as (server, port):
        c = await seated_client(port, "mover", options={"game": "pidor", "players": 3, "bots": 2})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        for _ in range(5):  # a few turns, each answered with a burst
            turn = await c.receive(lambda m: m["type"] == "turn", timeout=600)
            act = {"type": "act", "action": turn["options"][0], "seq": turn["seq"]}
            burst = [{**act, "id": 10}, {"type": "pass", "id": 11}, {"type": "ping", "id": 12},
                     {**act, "id": 13}, {"type": "pass", "id": 14}, {"type": "list", "id": 15},
                     {"type": "resync", "id": 16}, {"type": "ping", "id": 17}]
            await c.send_raw(b"".join(wire.encode(m) for m in burst))
            replies = await replies_until(c, 17)
            assert [rid for _, rid in replies] == list(range(10, 18)), replies
            assert replies[0] == ("ok", 10) and replies[2] == ("pong", 12) and replies[5] == ("tables", 15)


async def test_a_closing_table_answers_the_requests_in_its_inbox(autojump_clock):
    """A request queued behind the one that closes the table gets ``no_table``: its
    connection, which waits for that answer before it reads on, is not left hanging."""
    async with serve() as (server, port):
        host = await seated_client(port, "host", options={"game": "pidor", "players": 3, "bots": 1})
        late = await connect(port)
        late.player = (await late.hello("late"))["player"]
        runner = server.lobby.tables[host.table]
        online = server.lobby.online
        # Both queued before the table's task runs: the leave empties the table and closes it.
        runner.submit(("request", online[host.player], host.player, {"type": "leave", "id": "bye"}))
        runner.submit(("request", online[late.player], late.player, {"type": "join", "id": "hi", "table": runner.id}))
        r = await late.receive(lambda m: m.get("id") == "hi", timeout=60)
        assert r["type"] == "error" and r["code"] == "no_table", r
        assert (await host.receive(lambda m: m.get("id") == "bye", timeout=60))["type"] == "ok"
        assert (await late.request({"type": "ping"}))["type"] == "pong"
        assert runner.id not in server.lobby.tables


async def test_a_request_to_a_table_closed_by_shutdown_is_answered(autojump_clock):
    async with serve() as (server, port):
        host = await seated_client(port, "host", options={"game": "pidor", "players": 2, "bots": 1})
        runner = server.lobby.tables[host.table]
        conn = server.lobby.online[host.player]
        runner.submit(("close", None, None, None))
        runner.submit(("request", conn, host.player, {"type": "resync", "id": "r"}))
        r = await host.receive(lambda m: m.get("id") == "r", timeout=60)
        assert r["code"] == "no_table" and "closed" in r["message"], r
        with trio.fail_after(60):
            while runner.id in server.lobby.tables:
                await trio.sleep(0.01)
