"""Spectators (PROTOCOL.md §4 ``watch``): the public view of a table, the projection for
seat ``None``; never a seat, never a vote; capped per table; delayed by ``watch_delay``.
The leak audit covers every frame a spectator gets."""

from __future__ import annotations

import random

import pytest

import trio
import trio.testing

from pidor import wire
from pidor.engine.game import project
from pidor.games import GAME_IDS
from pidor.server import emission
from pidor.server import runner as runner_module
from helpers import first_fast, players_of
from server_helpers import (Audit, cheat_and_call, events_of, is_event, leaky, open_client, open_table,
                            play_until, seated_client, serve)


async def spectator(where, name: str, table: int, **fields) -> tuple:
    c = await open_client(where)
    assert (await c.hello(name))["type"] == "welcome"
    reply = await c.request({"type": "watch", "table": table, **fields})
    return c, reply


def is_results(msg) -> bool:
    return msg["type"] == "event" and msg["event"]["type"] == "results"


async def test_a_spectator_sees_a_whole_game_in_public_and_nothing_hidden(autojump_clock):
    """Four remote seats that cheat and call; a spectator from before the start and one
    who comes mid-game (snapshot, seat null). Every event the spectators get is
    ``project(event, None)`` of the logged event; the audit finds no hidden card in any
    frame a spectator got, and audited exactly the frames it received."""
    audit = Audit()
    logged = []
    async with serve(audit=audit, seeds="watch-game", log_sink=lambda g, es: logged.extend(es)) as (server, port):
        host = await seated_client(port, "p0", options={"game": "pidor", "players": 4, "deck": 36})
        clients = [host] + [await seated_client(port, f"p{i}", table=host.table) for i in range(1, 4)]
        early, reply = await spectator(port, "early", host.table)
        assert reply["type"] == "watching" and reply["delay"] == 0.0 and reply["table"]["id"] == host.table
        assert [s["kind"] for s in reply["table"]["seats"]] == ["human"] * 4  # not a seat
        assert (await host.request({"type": "start"}))["type"] == "ok"
        runner = server.lobby.tables[host.table]
        late = None

        async def seat(c, k):
            rng = random.Random(k)

            def choose(options, msg):
                game = runner.table.game
                if rng.random() < 0.2 and c.seat in runner.table.to_act():
                    cheats = [a for a in game.actions(c.seat) if game.check(c.seat, a)]
                    if cheats:
                        return game.action_data(rng.choice(cheats))
                return rng.choice(options)

            await play_until(c, is_results, choose=choose, answer=lambda e: rng.random() < 0.4,
                             vote=lambda e: rng.random() < 0.5)

        async def join_late():
            nonlocal late
            await early.receive(lambda m: m["type"] == "event" and m["seq"] > 40)
            late, reply = await spectator(port, "late", host.table)
            assert reply["type"] == "watching"

        async with trio.open_nursery() as nursery:
            for k, c in enumerate(clients):
                nursery.start_soon(seat, c, k)
            nursery.start_soon(join_late)
        await early.receive(is_results)
        await late.receive(is_results)

    assert audit.leaks == []
    # The audit saw every frame a spectator got: the early one's are all it saw but the
    # late one's snapshot, in order.
    audited = audit.sent[host.table, None]
    pushed = {w: [f for f, m in zip(w.frames, w.messages) if m["type"] in ("event", "snapshot", "table")]
              for w in (early, late)}
    snapshot_frame, snapshot = next((f, m) for f, m in zip(late.frames, late.messages) if m["type"] == "snapshot")
    assert pushed[early] == [f for f in audited if f is not snapshot_frame and f != snapshot_frame]
    assert set(pushed[late]) <= set(audited)
    assert snapshot["seat"] is None and snapshot["view"]["seat"] is None and "hand" not in snapshot["view"]
    kinds = {e["type"] for e in events_of(early)}
    assert {"game_start", "action", "window", "call", "court", "vote", "verdict", "results"} <= kinds
    # The early spectator's events are the public projection of every event, in order.
    first = next(m["seq"] for m in early.messages if m["type"] == "event")
    got = [m["event"] for m in early.messages if m["type"] == "event"]
    assert [m["seq"] for m in early.messages if m["type"] == "event"] == list(range(first, first + len(got)))
    want = [project(e, None) for e in logged]
    strip = lambda e: {k: v for k, v in e.items() if k not in ("deadline", "action") or e["type"] != "window"}  # noqa: E731
    assert [strip(e) for e in got] == [strip(e) for e in want[-len(got):]]
    assert len(got) == len(want)
    # the late one: events from the snapshot's seq on, the same as the early one's
    late_events = [m for m in late.messages if m["type"] == "event"]
    assert late_events[0]["seq"] == snapshot["seq"] + 1
    assert [m["event"] for m in late_events] == got[late_events[0]["seq"] - first:]


async def test_a_spectator_never_acts_calls_or_votes_nor_counts_as_a_seat(autojump_clock):
    async with serve(seeds="watch-court") as (server, port):
        clients = await open_table(port, 3)
        table = clients[0].table
        watcher, reply = await spectator(port, "w", table)
        assert reply["type"] == "watching"
        x, y, violations, court, cheat = await cheat_and_call(server, clients)
        await watcher.receive(is_event("court"))
        for request in ({"type": "vote", "guilty": True}, {"type": "call"}, {"type": "pass"},
                        {"type": "act", "action": {"type": "draw"}}, {"type": "start"}, {"type": "leave"},
                        {"type": "seed", "seed": "00"}, {"type": "bot", "seat": 0}, {"type": "tutorial_off"}):
            r = await watcher.request(request)
            assert r["code"] == "no_table", (request, r)  # (no table of his own)
            r = await watcher.request({**request, "table": table})
            assert r["code"] == "not_seated", (request, r)
        voters = set(court["voters"])
        assert len(voters) == 1  # three seats: the caller's vote is fixed; one voter, never the spectator
        runner = server.lobby.tables[table]
        assert all(s.kind == "human" for s in runner.seats) and len(runner.spectators) == 1
        # A seated player cannot watch his own table (his seat sees more).
        r = await clients[0].request({"type": "watch", "table": table})
        assert r["code"] == "already_seated"


@first_fast
@pytest.mark.parametrize("game", GAME_IDS)
async def test_a_spectator_gets_the_public_view_of_every_game_that_starts(game, autojump_clock):
    """Issue 21 item 9: a spectator who watches before ``start`` gets, right after each
    game's start events, the snapshot a spectator who came then would get: the table's
    public view of the deal («пидор»'s open stacks, durak's trump card), as a seat gets
    its own."""
    views = []  # the public view as each game started (Table.view(None), plain data)

    def sink(game_ref, events):
        if any(e["type"] == "game_start" for e in events):
            table = server.lobby.tables[game_ref["table"]].table
            views.append((table.view(None), len(events)))

    async with serve(seeds=f"watch-start-{game}", log_sink=sink, memory=True) as (server, listener):
        n = players_of(game)
        host = await seated_client(listener, "host", options={"game": game, "players": n, "bots": n - 1})
        watcher, reply = await spectator(listener, "w", host.table)
        assert reply["type"] == "watching"
        for number in (1, 2):
            assert (await host.request({"type": "start"}))["type"] == "ok"
            await play_until(host, is_results)
            await watcher.receive(is_results)
    snapshots = [m for m in watcher.messages if m["type"] == "snapshot"]
    starts = [m for m in watcher.messages if is_event("game_start")(m)]
    assert len(snapshots) == len(starts) == len(views) == 2
    for snapshot, start, (view, batch) in zip(snapshots, starts, views):
        assert snapshot["seat"] is None and snapshot["seq"] == start["seq"] + batch - 1
        assert snapshot["view"] == wire.decode_frame(wire.encode({"view": view})[4:])["view"]
        later = watcher.messages[watcher.messages.index(snapshot) + 1:]
        assert next(m for m in later if m["type"] == "event")["seq"] == snapshot["seq"] + 1


async def test_a_spectator_resyncs_with_or_without_naming_the_table(autojump_clock):
    """Issue 21 item 9: ``resync`` from a spectator (it was ``not_seated``): ``ok``, then a
    fresh public snapshot, through his delay like everything he gets; before the first
    game, the table info. Without ``table`` it goes to the table he watches."""
    async with serve(seeds="watch-resync", memory=True) as (server, listener):
        host = await seated_client(listener, "host", options={"game": "pidor", "players": 2, "bots": 1,
                                                              "watch_delay": 3})
        watcher, _ = await spectator(listener, "w", host.table)
        before = await watcher.request({"type": "resync"})
        assert before["type"] == "table" and before["table"]["id"] == host.table
        assert (await host.request({"type": "start"}))["type"] == "ok"
        turn = await host.receive(lambda m: m["type"] == "turn")
        for request in ({"type": "resync"}, {"type": "resync", "table": host.table}):
            t0 = trio.current_time()
            assert (await watcher.request(request))["type"] == "ok"
            snapshot = await watcher.receive(lambda m: m["type"] == "snapshot" and m["seq"] == turn["seq"]
                                             and trio.current_time() - t0 >= 3.0)
            assert snapshot["seat"] is None and "hand" not in snapshot["view"]
            assert trio.current_time() - t0 == pytest.approx(3.0)
        stranger = await open_client(listener)
        await stranger.hello("stranger")
        assert (await stranger.request({"type": "resync"}))["code"] == "no_table"
        assert (await stranger.request({"type": "resync", "table": host.table}))["code"] == "not_seated"


async def test_spectators_are_capped_per_table_and_leave_with_unwatch_or_their_connection(monkeypatch,
                                                                                           autojump_clock):
    monkeypatch.setattr(runner_module, "MAX_SPECTATORS", 2)
    async with serve(seeds="watch-cap") as (server, port):
        host = await seated_client(port, "host", options={"game": "podkidnoy", "players": 2, "bots": 1})
        runner = server.lobby.tables[host.table]
        a, r = await spectator(port, "a", host.table)
        b, r = await spectator(port, "b", host.table)
        assert r["type"] == "watching"
        c, r = await spectator(port, "c", host.table)
        assert r["code"] == "spectators_full"
        assert (await a.request({"type": "watch", "table": host.table}))["type"] == "watching"  # again: no second place
        assert (await a.request({"type": "unwatch"}))["type"] == "ok"
        assert (await a.request({"type": "unwatch"}))["code"] == "no_table"  # he watches nothing now
        assert (await c.request({"type": "watch", "table": host.table}))["type"] == "watching"
        await b.aclose()
        await trio.testing.wait_all_tasks_blocked()  # the server has read the end of b's stream
        assert (await host.request({"type": "start"}))["type"] == "ok"
        await c.receive(is_event("game_start"))
        assert set(runner.spectators) == {conn for conn in server.connections if conn.name == "c"}
        assert not any(m["type"] == "event" for m in a.messages)  # nothing after unwatch
        assert (await a.request({"type": "watch", "table": 999}))["code"] == "no_table"
        r = await a.request({"type": "watch"})
        assert r["code"] == "bad_request"
        # A spectator who sits down sees from his seat, and watches no more.
        other = await seated_client(port, "other", options={"game": "pidor", "players": 2})
        assert (await c.request({"type": "join", "table": other.table}))["type"] == "joined"
        assert len(runner.spectators) == 1  # he still watches the first table: a seat elsewhere is not this one
        r = await c.request({"type": "watch", "table": other.table})
        assert r["code"] == "already_seated"


async def test_watch_delay_holds_back_what_spectators_see(autojump_clock):
    """``watch_delay``: every frame reaches the spectator that many seconds after the
    seats (the autojump clock runs the game: the seat never answers a window, so each
    waits out its 2 s; no real time passes)."""
    async with serve(seeds="watch-delay", memory=True) as (server, listener):
        host = await seated_client(listener, "host", options={"game": "podkidnoy", "players": 2, "bots": 1,
                                                              "watch_delay": 5})
        assert host.messages[-1]["table"]["watch_delay"] == 5.0
        watcher, reply = await spectator(listener, "w", host.table)
        assert reply["delay"] == 5.0
        assert (await host.request({"type": "start"}))["type"] == "ok"
        seen_at: dict[int, float] = {}
        got_at: dict[int, float] = {}

        async def watch():
            while True:
                m = await watcher.receive()
                if m["type"] == "event":
                    got_at[m["seq"]] = trio.current_time()
                    if m["event"]["type"] == "results":
                        return

        async def play():
            rng = random.Random(3)
            while True:
                m = await host.receive()
                if m["type"] == "event":
                    seen_at[m["seq"]] = trio.current_time()
                    if m["event"]["type"] == "results":
                        return
                elif m["type"] == "turn" and m["options"]:
                    await host.send({"type": "act", "action": rng.choice(m["options"])})

        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            nursery.start_soon(play)
        assert got_at.keys() == seen_at.keys() and len(got_at) > 20
        assert max(seen_at.values()) - min(seen_at.values()) > 20  # the game took its time
        lags = [got_at[s] - seen_at[s] for s in seen_at]
        assert min(lags) >= 5.0 - 1e-6 and max(lags) < 5.1


async def test_watch_delay_is_checked_like_every_option(autojump_clock):
    async with serve(seeds="watch-opts") as (server, port):
        c = await open_client(port)
        await c.hello("x")
        for bad in (-1, 601, True, "5", None):
            r = await c.request({"type": "create", "options": {"watch_delay": bad}})
            assert r["code"] == "bad_options" and "watch_delay" in r["message"], (bad, r)
        assert not server.lobby.tables


async def test_the_audit_catches_a_projection_that_leaks_to_spectators(monkeypatch, autojump_clock):
    """The leak check covers spectators: a projection that shows seat ``None`` every
    private field is caught on a spectator's frames."""
    monkeypatch.setattr(emission, "project", leaky(emission.project, spectators_only=True))
    audit = Audit()
    async with serve(audit=audit, seeds="watch-leak") as (server, port):
        c = await seated_client(port, "solo", options={"game": "pidor", "players": 3, "bots": 2})
        watcher, _ = await spectator(port, "w", c.table)
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await play_until(c, is_results)
    assert audit.leaks and all(seat is None for _, seat, _, _ in audit.leaks)


async def test_the_sdk_watches_a_table_and_keeps_its_public_state():
    """``Client.watch`` (pidor/client.py): ``watching``, then the snapshot and events fold
    into ``state`` with seat ``None``; ``unwatch`` ends it. (The SDK blocks in a thread: no
    autojump clock, which would jump while it reads; the seat answers every window at
    once, so no clock runs out.)"""
    from pidor import client as sdk

    async with serve(seeds="watch-sdk") as (server, port):
        host = await seated_client(port, "host", options={"game": "pidor", "players": 3, "trick_display": 0,
                                                          "bots": ["builtin:random:cheat=0.3,attention=0.5"] * 2})
        assert (await host.request({"type": "start"}))["type"] == "ok"
        watcher = sdk.Client("127.0.0.1", port, "watcher", timeout=10)

        def watch() -> list:
            watcher.connect()
            reply = watcher.watch(host.table)
            assert reply["type"] == "watching" and watcher.state.table == host.table and watcher.state.seat is None
            got = []
            while True:
                msg = watcher.receive(timeout=10)
                got.append(msg)
                if msg["type"] == "event" and msg["event"]["type"] == "game_over":
                    return got

        async with trio.open_nursery() as nursery:
            async def spectate():
                nonlocal got
                got = await trio.to_thread.run_sync(watch)
            got = None
            nursery.start_soon(spectate)
            await play_until(host, is_results)
        snapshot = next(m for m in got if m["type"] == "snapshot")
        assert snapshot["seat"] is None and "hand" not in snapshot["view"]
        state = watcher.state
        assert state.seat is None and not state.gap and state.result is not None
        last = [m for m in got if m["type"] == "snapshot"][-1]  # (an undo sends a fresh one)
        assert state.events[0][0] == last["seq"] + 1 and state.seq == state.events[-1][0]
        assert (await trio.to_thread.run_sync(watcher.unwatch))["type"] == "ok"
        assert watcher.state.table is None and not server.lobby.tables[host.table].spectators
        with pytest.raises(sdk.ServerError) as err:
            await trio.to_thread.run_sync(watcher.watch, 999)
        assert err.value.code == "no_table"
        await trio.to_thread.run_sync(watcher.close)
