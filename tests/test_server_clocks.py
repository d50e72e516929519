"""The clocks, on trio's virtual clock (autojump_clock): T3 call window, T4 the 30-second
vote, D5 the 10-second «бито», T9 the turn clock (60 s with a human seated). The clients
connect over in-memory streams: the virtual clock moves only when client and server both
wait (over TCP it may jump while bytes are in flight), so the times are exact."""

from __future__ import annotations

import trio

from server_helpers import cheat_and_call, is_event, open_table, seated_client, serve


async def test_vote_times_out_after_30_seconds_T4(autojump_clock):
    async with serve(seeds="vote-clock", memory=True) as (server, listener):
        clients = await open_table(listener, 3)
        x, y, _, court, _ = await cheat_and_call(server, clients)
        t0 = trio.current_time()
        assert court["deadline"] == 30.0  # seconds from when the frame was sent
        verdict = (await clients[x].receive(is_event("verdict")))["event"]
        waited = trio.current_time() - t0
        assert 30.0 <= waited < 30.5
        # The voter never voted: an abstention; the caller's fixed vote convicts (T4).
        assert verdict["outcome"] == "guilty" and verdict["pidor"] == 1 and verdict["clean"] == 0


async def test_call_window_closes_after_call_window_seconds_T3(autojump_clock):
    async with serve(seeds="window-clock", memory=True) as (server, listener):
        c = await seated_client(listener, "solo", options={"game": "pidor", "players": 3, "bots": 2,
                                                        "call_window": 2.0})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        # Wait for a bot's action window that this seat owes, and stay silent.
        while True:
            m = await c.receive()
            if m["type"] == "turn":
                await c.send({"type": "act", "action": m["options"][0]})
            elif m["type"] == "event" and m["event"]["type"] == "window" and c.seat in m["event"]["owing"]:
                break
            elif m["type"] == "event" and m["event"]["type"] == "window":
                continue
        t0 = trio.current_time()
        assert m["event"]["deadline"] == 2.0
        await c.receive(lambda m: m["type"] in ("event", "turn"))
        assert 2.0 <= trio.current_time() - t0 < 2.5


async def test_turn_timeout_plays_the_seat_honestly_T9(autojump_clock):
    async with serve(seeds="turn-clock", memory=True) as (server, listener):
        c = await seated_client(listener, "sleepy", options={"game": "pidor", "players": 3, "bots": 2})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        # Answer windows at once, but never act on a turn.
        while True:
            m = await c.receive()
            if m["type"] == "turn":
                turn, t0 = m, trio.current_time()
                assert m["deadline"] == 60.0
                break
            if m["type"] == "event" and m["event"]["type"] == "window" and c.seat in m["event"]["owing"]:
                await c.send({"type": "pass"})
        timeout = (await c.receive(is_event("timeout")))["event"]
        assert timeout == {"type": "timeout", "seat": c.seat, "reason": "turn"}
        assert 60.0 <= trio.current_time() - t0 < 60.5
        action = (await c.receive(is_event("action")))["event"]
        assert action["seat"] == c.seat and action["action"] in turn["options"]  # an honest option


async def test_bito_after_10_seconds_of_silence_D5(autojump_clock):
    """Podkidnoy, two human seats: the defender covers what he can, the attacker never
    throws in nor says «бито»: the bout ends by the clock, 10 s after the last cover."""
    async with serve(seeds="bito-clock", memory=True) as (server, listener):
        a = await seated_client(listener, "a", options={"game": "podkidnoy", "players": 2})
        b = await seated_client(listener, "b", table=a.table)
        assert (await a.request({"type": "start"}))["type"] == "ok"
        runner = server.lobby.tables[a.table]
        found = {}

        async def seat(c, cancel):
            covered_at = None
            while True:
                m = await c.receive()
                if m["type"] == "turn":
                    g = runner.table.game
                    if c.seat == g.defender:
                        if -1 in g.cover:  # cover what he can; never take a covered table
                            covers = [o for o in m["options"] if o["type"] == "cover"]
                            await c.send({"type": "act", "action": (covers or m["options"])[0]})
                    elif not g.attack:
                        await c.send({"type": "act", "action": m["options"][0]})
                    else:
                        assert m["deadline"] is None  # no turn clock: the «бито» clock runs
                if m["type"] != "event":
                    continue
                e = m["event"]
                if e["type"] == "window" and c.seat in e["owing"]:
                    await c.send({"type": "pass"})
                elif e["type"] == "action" and e["action"]["type"] == "cover":
                    covered_at = trio.current_time()
                elif e["type"] == "bito_timeout":
                    found[c.seat] = trio.current_time() - covered_at
                    if len(found) == 2:
                        cancel.cancel()
                    return

        async with trio.open_nursery() as nursery:
            nursery.start_soon(seat, a, nursery.cancel_scope)
            nursery.start_soon(seat, b, nursery.cancel_scope)
        assert len(found) == 2
        assert all(10.0 <= dt < 10.5 for dt in found.values()), found
