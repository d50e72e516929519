"""Hello ``may_call: false`` (PROTOCOL.md section 3), through the server's seams: the table
passes every call window for such a client at once (drive.Passer), and its outbox holds what
asks nothing of it (outbox.HOLD) until something does, a request of its own first."""

from __future__ import annotations

import pytest
import trio
from seam_helpers import ask, hello_msg, is_results, is_turn, join, lobby_with, logged, new_table, play, running, welcome
from server_helpers import FakeHouse, FakePeer

from pidor import wire
from pidor.server.outbox import HOLD, Outbox


@pytest.mark.parametrize("may_call", [False, True])
async def test_a_player_who_never_calls_is_passed_for_at_once(may_call, tmp_path, autojump_clock):
    """PROTOCOL.md section 3, hello ``may_call: false``: the table passes every call window
    for him (T3) in the table call that opened it, so no window waits for its deadline
    and no time passes in a game of people who act at once. Said by nobody (the control),
    windows wait for the unanswering players until their deadline. The log verifies."""
    house = FakeHouse("seam-passer", logs=tmp_path)
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 1})
    alice, bob = FakePeer("alice", player=1, may_call=may_call), FakePeer("bob", player=2, may_call=may_call)
    async with running(runner):
        await join(alice, runner)
        await join(bob, runner)
        start = trio.current_time()
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in (alice, bob):
                nursery.start_soon(play, peer, runner, is_results, False)
        elapsed = trio.current_time() - start
    windows = len(alice.events("window"))
    assert windows > 10 and not [m for m in alice.messages + bob.messages if m["type"] == "error"]
    if may_call:
        assert elapsed >= windows * runner.options["call_window"] / 2  # (most windows owed by both)
    else:
        assert elapsed == 0.0
    assert logged(house, runner)[1].status == "verified"


def _asks(msg: dict) -> bool:
    """A message that asks its seat something, or ends its game (never held: outbox.HOLD)."""
    if msg["type"] == "event":
        return msg["event"]["type"] in ("court", "results")
    return msg["type"] != "ok"


@pytest.mark.parametrize("may_call", [False, True])
async def test_a_client_that_never_calls_gets_other_seats_turns_with_its_own(may_call, autojump_clock):
    """PROTOCOL.md section 3: frames that ask nothing of a client that said may_call false
    wait (outbox.HOLD) for the next that asks it something, one write for both: in a
    game where everyone acts at once, every write to it asks it something (a turn, a
    court, the results). Said by nobody (the control), every table call is written."""
    house = FakeHouse("seam-hold")
    runner = new_table(house, {"game": "pidor", "players": 4, "bots": ["builtin:random:cheat=0.3,attention=0.9"] * 2})
    alice, bob = FakePeer("alice", player=1, may_call=may_call), FakePeer("bob", player=2, may_call=may_call)
    async with running(runner):
        await join(alice, runner)
        await join(bob, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in (alice, bob):
                nursery.start_soon(play, peer, runner, is_results, may_call)
    assert alice.events("court"), "the bots call each other's cheats: courts asked for votes"
    idle = [b for b in alice.batches if not any(_asks(m) for m in b)]
    if may_call:
        assert len(idle) > 50
    else:
        assert idle == [] and len(alice.batches) < len(alice.events()) / 3


async def test_the_outbox_holds_only_what_asks_nothing_of_a_client_that_never_calls():
    quiet, loud = FakePeer("quiet", may_call=False), FakePeer("loud")
    box = Outbox()
    event = [wire.encode({"type": "event", "seq": i}) for i in range(4)]
    box.put(quiet, event[0])
    box.put(loud, event[0])
    box.flush(10.0)
    assert (len(quiet.batches), len(loud.batches)) == (0, 1) and box.next_due() == 10.0 + HOLD
    box.put(quiet, event[1])
    box.flush(10.0 + HOLD / 2)  # still within HOLD of the first
    assert quiet.batches == []
    box.put(quiet, wire.encode({"type": "turn", "seq": 1}), urgent=True)
    box.flush(10.0 + HOLD / 2)  # something asks it: everything goes, in order, in one write
    assert [[m["type"] for m in b] for b in quiet.batches] == [["event", "event", "turn"]]
    assert box.next_due() is None
    box.put(quiet, event[2])
    box.flush(20.0)
    box.flush(20.0 + HOLD)  # waited HOLD: it goes
    box.put(quiet, event[3])
    box.release(quiet)  # its own request: what waits goes first
    box.put(quiet, event[0])
    box.flush(30.0, hold=False)  # the table closes: nothing waits
    assert [len(b) for b in quiet.batches] == [3, 1, 1, 1] and box.next_due() is None


async def test_held_frames_wait_at_most_hold_seconds(autojump_clock):
    """While a person who may call takes his time, a client that never calls gets what
    happened within outbox.HOLD seconds (the table wakes for it), not at its next turn."""
    house = FakeHouse("seam-hold-time")
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 1})
    alice, bob = FakePeer("alice", player=1, may_call=False), FakePeer("bob", player=2)

    async def slow(peer: FakePeer) -> None:
        while not (msg := await peer.next()) or not is_results(msg):
            if msg["type"] == "turn" and msg["options"]:
                await trio.sleep(3)  # a person thinks
                await peer.submit(runner, {"type": "act", "action": msg["options"][0]})
            elif msg["type"] == "event" and msg["event"]["type"] == "window" and peer.seat in msg["event"]["owing"]:
                await peer.submit(runner, {"type": "pass"})

    async with running(runner):
        await join(alice, runner)
        await join(bob, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, alice, runner, is_results, False)
            nursery.start_soon(slow, bob)
    when = {m["seq"]: t for m, t in zip(bob.messages, bob.arrived) if m["type"] == "event"}
    delays = [t - when[m["seq"]] for m, t in zip(alice.messages, alice.arrived) if m["type"] == "event"]
    assert len(delays) == len(when) and max(delays) <= HOLD + 1e-9 and 0 < sum(d > 0 for d in delays)


async def test_a_lobby_answer_does_not_overtake_frames_held_at_the_table(autojump_clock):
    """PROTOCOL.md section 2: replies come in the order of requests, after what came
    before them. A table holds frames for a client that never calls (outbox.HOLD); a
    lobby request of that client (ping) gets its answer only after them."""
    async with lobby_with() as (server, lobby):
        quiet = FakePeer("quiet")
        lobby.hello(quiet, {**hello_msg("quiet"), "may_call": False}, 1)
        bob = welcome(lobby, FakePeer("bob"))
        table = (await ask(lobby, quiet, {"type": "create", "options": {"game": "pidor", "players": 3, "bots": 1}}))
        await ask(lobby, bob, {"type": "join", "table": table["table"]["id"]})
        assert (await ask(lobby, quiet, {"type": "start"}))["type"] == "ok"
        pings = 0
        while pings < 8:
            msg = await bob.next(is_turn)
            if not msg["options"]:
                continue
            assert (await ask(lobby, bob, {"type": "act", "action": msg["options"][0], "seq": msg["seq"]}))["type"] == "ok"
            seen = {m["seq"] for m in bob.messages if m["type"] == "event"}
            pong = await ask(lobby, quiet, {"type": "ping"})
            before = {m["seq"] for m in quiet.messages[:quiet.messages.index(pong)] if m["type"] == "event"}
            assert seen <= before, sorted(seen - before)
            pings += 1


async def test_a_window_shows_no_seat_that_never_calls_as_owing(autojump_clock):
    """PROTOCOL.md section 3: a client that said may_call false owes no window (the table
    passes for it at once), so no ``window`` event lists its seat in ``owing``, in its own
    frames, another seat's or a spectator's; a seat that may call is listed as before."""
    house = FakeHouse("seam-owing")
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 1})
    alice, bob = FakePeer("alice", player=1, may_call=False), FakePeer("bob", player=2)
    carol = FakePeer("carol", player=3)
    async with running(runner):
        await join(alice, runner)
        await join(bob, runner)
        assert (await carol.request(runner, {"type": "watch", "table": runner.id}))["type"] == "watching"
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in (alice, bob):
                nursery.start_soon(play, peer, runner, is_results)
    assert not [m for m in alice.messages if m["type"] == "error"]
    for peer in (alice, bob, carol):
        windows = peer.events("window")
        assert len(windows) > 10
        assert all(alice.seat not in w["owing"] for w in windows)
        assert any(bob.seat in w["owing"] for w in windows)


@pytest.mark.parametrize("may_call", [False, True])
async def test_an_action_whose_window_only_passers_owe_is_passed_in_its_own_table_call(may_call, tmp_path,
                                                                                       autojump_clock):
    """Issue 29: when every other seat is a client that never calls (PROTOCOL.md §3), an
    action and its window's passes are one table call (``Recorder.act(passed=True)``), as
    the driver would pass for them (T3): each window closes in the batch of events that
    opened it, and the log verifies. With one client that may call (the control), the
    window waits for his answer: it closes in a later batch."""
    house = FakeHouse("seam-fused", logs=tmp_path)
    runner = new_table(house, {"game": "pidor", "players": 3})
    peers = [FakePeer(name, player=k + 1, may_call=(may_call and k == 0)) for k, name in enumerate(("al", "bo", "cy"))]
    batches: list[list[str]] = []
    emit = runner.emit

    def recorded(events, before=None):
        batches.append([e["type"] for e in events])
        emit(events, before)

    runner.emit = recorded
    async with running(runner):
        for peer in peers:
            await join(peer, runner)
        assert (await peers[0].request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in peers:
                nursery.start_soon(play, peer, runner, is_results, True)
    windows = [b for b in batches if "window" in b]
    fused = [b for b in windows if "window_closed" in b[b.index("window"):]]
    assert len(windows) > 10
    if may_call:
        assert len(fused) < len(windows) / 2  # (al's own actions: the others never call)
    else:
        assert fused == windows
    assert logged(house, runner)[1].status == "verified"
