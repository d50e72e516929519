"""The server's parts alone, through their seams (pidor/server/seams.py), without a socket:
a table task with a fake house and fake clients, the lobby with a fake server, a whole
server on an in-memory listener; and the seams themselves (each part and each fake fills
its Protocol; no module of the package imports one that imports it back)."""

from __future__ import annotations

import ast
import logging
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
import trio.testing
from server_helpers import Audit, FakeHouse, FakeLobbyServer, FakePeer, MemoryListener, fixed_seeds

import pidor
from pidor import wire
from pidor.bots import Policy
from pidor.engine.table import Table
from pidor.gamelog.verify import verify_data
from pidor.server import drive
from pidor.server.app import Server
from pidor.server.connection import Connection
from pidor.server.drive import ABANDON_AFTER
from pidor.server.limits import Limits
from pidor.server.outbox import HOLD, Outbox
from pidor.server.requests import RequestError
from pidor.server.runner import TableRunner
from pidor.server.seams import GameIndex, Handler, House, LobbyServer, LobbyStore, Peer
from pidor.server.seating import server_options
from pidor.server.store import Store


def is_results(m) -> bool:
    return m["type"] == "event" and m["event"]["type"] == "results"


def is_turn(m) -> bool:
    return m["type"] == "turn"


def new_table(house: FakeHouse, options: dict) -> TableRunner:
    """A table as the lobby makes one (options checked, a row in the store), not started."""
    full, bots = server_options(options)
    return TableRunner(house, house.store.new_table(full["game"], full, None), full, bots)


async def join(peer: FakePeer, runner: TableRunner) -> int:
    joined = await peer.request(runner, {"type": "join", "table": runner.id})
    assert joined["type"] == "joined", joined
    peer.seat = joined["seat"]
    return peer.seat


async def play(peer: FakePeer, runner: TableRunner, stop, answer: bool = True) -> dict:
    """Play the peer's seat until ``stop(message)``: the first option of every turn, a pass
    in every window (none without ``answer``), guilty in every court. Returns that message."""
    while True:
        msg = await peer.next()
        if stop(msg):
            return msg
        if msg["type"] == "turn" and msg["options"]:
            await peer.submit(runner, {"type": "act", "action": msg["options"][0]})
        elif msg["type"] == "event":
            e = msg["event"]
            if e["type"] == "window" and peer.seat in e["owing"] and answer:
                await peer.submit(runner, {"type": "pass"})
            elif e["type"] == "court" and peer.seat in e["voters"]:
                await peer.submit(runner, {"type": "vote", "guilty": True})


@asynccontextmanager
async def running(runner: TableRunner):
    """The table's task runs inside the block; after it, the task is cancelled (as when the
    server stops)."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        yield
        nursery.cancel_scope.cancel()


def logged(house: FakeHouse, runner: TableRunner, number: int = 1) -> tuple[dict, object]:
    """The game's row in the index and the verification of its log."""
    row = house.store.games_of(runner.id)[number - 1]
    return row, verify_data(Path(row["log"]).read_bytes(), row["log"])


# --- the table task ---------------------------------------------------------------------


async def test_a_whole_game_of_bots_and_one_human_through_the_seam(tmp_path, autojump_clock):
    """Every event reaches the human seat once and in order, and the log sink in full form;
    the game's log is in the index and verifies; the audit finds no hidden card."""
    audit = Audit()
    house = FakeHouse("seam-game", logs=tmp_path, audit=audit)
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": ["builtin:random:cheat=0.3,attention=0.8"] * 2})
    alice = FakePeer("alice", player=7)
    async with running(runner):
        seat = await join(alice, runner)
        assert house.seated == {7: runner.id} and runner.host == seat
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        end = await play(alice, runner, is_results)
        assert not alice.waiting
    assert house.closed == [(runner.id, "shutdown")]  # cancelled: the server stopped

    seqs = [m["seq"] for m in alice.messages if m["type"] == "event"]
    assert seqs == list(range(1, len(seqs) + 1))
    game = {"table": runner.id, "number": 1, "log": house.log_path(runner.id, 1)}
    assert [g for g, _ in house.sunk] == [game] * len(seqs)
    assert [e["type"] for _, e in house.sunk] == [e["type"] for e in alice.events()]
    assert {"window", "court"} <= {e["type"] for e in alice.events()}  # the bots cheated and were called
    assert audit.frames > len(seqs) and audit.leaks == []

    row, report = logged(house, runner)
    assert row["ended"] is not None and row["aborted"] is None and row["log_error"] is None
    assert report.status == "verified", report
    assert report.result == row["result"] == end["event"]["result"]


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


async def test_the_seats_name_the_policies_that_listen_as_asking_each_would(autojump_clock):
    """``SeatPolicies.listening`` (asked at every batch of events) gives the seats whose
    policy overrides ``observe``, as asking each seat's policy would: a heuristic bot,
    not a random one, a person, or a bot that replaced a person (T9)."""
    house = FakeHouse("seam-listening")
    runner = new_table(house, {"game": "pidor", "players": 4, "bots": ["builtin:heuristic", "builtin:random"]})
    alice, bob = FakePeer("alice", player=1), FakePeer("bob", player=2)

    def asked(policies) -> list[int]:
        return [s for s, p in enumerate(policies) if p is not None and type(p).observe is not Policy.observe]

    async with running(runner):
        await join(alice, runner)
        await join(bob, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        await alice.next(is_turn)
        policies = runner._driver.policies
        assert policies.listening() == asked(policies) == [2]
        runner.seats[2].replaced = True
        assert policies.listening() == asked(policies) == []


async def test_a_refused_request_is_answered_and_the_turn_comes_again(autojump_clock):
    house = FakeHouse("seam-refused")
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 2})
    alice, stranger = FakePeer("alice", player=1), FakePeer("stranger", player=2)
    async with running(runner):
        await join(alice, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        turn = await alice.next(is_turn)
        refused = await alice.request(runner, {"type": "act", "action": {"type": "nonsense"}})
        assert refused["type"] == "error" and refused["code"] == "invalid_action", refused
        assert not alice.waiting  # answered: her connection dispatches the next request
        again = await alice.next(is_turn)
        assert (again["seq"], again["options"]) == (turn["seq"], turn["options"])
        refused = await stranger.request(runner, {"type": "act", "action": turn["options"][0]})
        assert refused["code"] == "not_seated" and not stranger.waiting
        assert (await alice.request(runner, {"type": "act", "action": turn["options"][0]}))["type"] == "ok"


async def test_an_act_chosen_before_the_own_last_action_is_stale(autojump_clock):
    """PROTOCOL.md section 5: an act decided on a turn the seat has acted on since (its
    ``seq`` is older than that action) is refused as ``stale``; the same action with the
    latest seq is not."""
    house = FakeHouse("seam-stale")
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 2})
    alice = FakePeer("alice", player=1)
    async with running(runner):
        await join(alice, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        first = await alice.next(is_turn)
        assert (await alice.request(runner, {"type": "act", "action": first["options"][0]}))["type"] == "ok"
        second = await play(alice, runner, lambda m: is_turn(m) and m["seq"] > first["seq"])
        action = second["options"][0]
        stale = await alice.request(runner, {"type": "act", "action": action, "seq": first["seq"]})
        assert stale["type"] == "error" and stale["code"] == "stale", stale
        assert (await alice.request(runner, {"type": "act", "action": action, "seq": second["seq"]}))["type"] == "ok"


async def test_away_before_a_game_frees_the_seat_and_an_empty_table_closes(autojump_clock):
    house = FakeHouse("seam-vacate")
    runner = new_table(house, {"game": "podkidnoy", "players": 3})
    alice, bob = FakePeer("alice", player=1), FakePeer("bob", player=2)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        await join(alice, runner)
        await join(bob, runner)
        runner.submit(("away", alice, 1, None))  # as the lobby does when her connection ends
        info = (await bob.next(lambda m: m["type"] == "table" and m["table"]["seats"][alice.seat]["kind"] == "vacant"))
        assert info["table"]["host"] == bob.seat and house.seated == {2: runner.id}
        assert (await bob.request(runner, {"type": "leave"}))["type"] == "ok"
    # the table's task ended by itself
    assert house.closed == [(runner.id, "empty")] and house.seated == {}


async def test_an_away_seat_is_played_for_and_a_game_everyone_left_is_aborted(tmp_path, autojump_clock):
    """T9: an away seat's stand-in plays at the away pace; coming back within
    ``ABANDON_AFTER`` plays on; once every person has been away that long the game is
    aborted (its log verifies as such) and the table closes as ``abandoned``."""
    house = FakeHouse("seam-away", logs=tmp_path)
    runner = new_table(house, {"game": "pidor", "players": 4, "bots": 3})
    alice = FakePeer("alice", player=1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        seat = await join(alice, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        await alice.next(is_turn)
        runner.submit(("away", alice, 1, None))
        await trio.sleep(ABANDON_AFTER - 5)
        assert runner.playing and house.closed == []
        back = FakePeer("alice", player=1)
        runner.submit(("back", back, 1, None))
        snapshot = await back.next(lambda m: m["type"] == "snapshot")
        followed = await back.next(lambda m: m["type"] == "event")  # the whole state, then what follows it
        assert snapshot["seat"] == seat and followed["seq"] == snapshot["seq"] + 1
        assert followed["event"] == {"type": "seat", "seat": seat, "state": "back"}
        runner.submit(("away", back, 1, None))
        left = trio.current_time()
    assert trio.current_time() - left >= ABANDON_AFTER  # the task ended by itself, that late
    assert house.closed == [(runner.id, "abandoned")]
    played_for = [e for _, e in house.sunk if e["type"] == "timeout" and e["seat"] == seat]
    assert played_for and {e["reason"] for e in played_for} == {"away"}
    assert [e["state"] for _, e in house.sunk if e["type"] == "seat"] == ["away", "back", "away"]
    row, report = logged(house, runner)
    assert row["aborted"] == "abandoned" and row["result"] is None
    assert report.status == "verified" and report.notes == ["aborted: abandoned"], report


async def test_a_table_task_that_raises_closes_as_internal_error_with_a_log_that_verifies(
        tmp_path, autojump_clock, monkeypatch, caplog):
    caplog.set_level(logging.ERROR, logger="pidor.server")
    house = FakeHouse("seam-crash", logs=tmp_path)
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 2})
    alice = FakePeer("alice", player=1)

    def broken(*args, **kwargs):
        raise RuntimeError("injected: the table broke")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner.run)
        await join(alice, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        turn = await alice.next(is_turn)
        monkeypatch.setattr(runner.table, "act", broken)
        await alice.submit(runner, {"type": "act", "action": turn["options"][0]})
    # the table's task ended by itself
    assert house.closed == [(runner.id, "internal_error")] and house.seated == {}
    assert not alice.waiting  # her connection reads on
    [failed] = [r for r in caplog.records if r.name == "pidor.server.runner"]
    assert f"table {runner.id} failed" in failed.getMessage() and "injected" in str(failed.exc_info[1])
    row, report = logged(house, runner)
    assert row["aborted"] == "internal_error" and row["result"] is None
    assert report.status == "verified" and report.notes == ["aborted: internal_error"], report


class TableSteps(trio.abc.Instrument):
    """Counts the table calls made for bot seats in each step of one task (from one
    checkpoint of it to the next)."""

    def __init__(self, task: trio.lowlevel.Task, calls: list[int]) -> None:
        self.task, self.calls = task, calls
        self.steps: list[int] = []

    def before_task_step(self, task) -> None:
        if task is self.task:
            self._before = len(self.calls)

    def after_task_step(self, task) -> None:
        if task is self.task:
            self.steps.append(len(self.calls) - self._before)


async def test_bots_make_at_most_the_cycle_budget_of_table_calls_before_the_task_yields(monkeypatch, autojump_clock):
    budget = 4
    monkeypatch.setattr(drive, "CYCLE_BUDGET", budget)
    house = FakeHouse("seam-budget")
    runner = new_table(house, {"game": "pidor", "players": 4, "bots": 3})
    bots = {s.index for s in runner.seats if s.kind == "bot"}
    calls: list[int] = []
    for name in ("act", "answer", "passes", "vote", "abstain"):  # every call a bot makes (tick is the clock's)
        def counted(self, who, *args, _call=getattr(Table, name), **kwargs):
            if {*who} & bots if isinstance(who, list) else who in bots:  # (passes: a list of seats)
                calls.append(who)
            return _call(self, who, *args, **kwargs)
        monkeypatch.setattr(Table, name, counted)
    alice = FakePeer("alice", player=1)
    async with trio.open_nursery() as nursery:
        task = await nursery.start(_run_task, runner)
        steps = TableSteps(task, calls)
        trio.lowlevel.add_instrument(steps)
        try:
            await join(alice, runner)
            assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
            await play(alice, runner, is_results)
        finally:
            trio.lowlevel.remove_instrument(steps)
        nursery.cancel_scope.cancel()
    assert max(steps.steps) == budget and steps.steps.count(budget) > 1
    assert sum(steps.steps) == len(calls) > 10 * budget


async def _run_task(runner: TableRunner, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    task_status.started(trio.lowlevel.current_task())
    await runner.run()


# --- the lobby ------------------------------------------------------------------------------


@asynccontextmanager
async def lobby_with(limits=Limits):
    async with trio.open_nursery() as nursery:
        server = FakeLobbyServer(nursery, limits)
        yield server, server.lobby
        nursery.cancel_scope.cancel()


def hello_msg(name: str, token: str | None = None, version: str = wire.PROTOCOL_VERSION) -> dict:
    msg = {"type": "hello", "version": version, "name": name}
    if token is not None:
        msg["token"] = token
    return msg


def welcome(lobby, peer: FakePeer, token: str | None = None) -> FakePeer:
    lobby.hello(peer, hello_msg(peer.name, token), "hi")
    assert peer.messages[-1]["type"] == "welcome", peer.messages[-1]
    return peer


async def ask(lobby, peer: FakePeer, msg: dict) -> dict:
    """A request as the connection dispatches it; its reply (a refusal raises
    ``RequestError``, which the connection would answer)."""
    rid = len(peer.messages)
    lobby.request(peer, {**msg, "id": rid}, rid)
    return await peer.wait_for(lambda m: m.get("id") == rid, rid)


def refused(lobby, peer: FakePeer, msg: dict) -> RequestError:
    with pytest.raises(RequestError) as e:
        lobby.request(peer, {**msg, "id": 0}, 0)
    return e.value


async def test_lobby_hello_gives_a_player_a_token_and_knows_the_token_again(autojump_clock):
    async with lobby_with() as (server, lobby):
        old = FakePeer("vasya")
        lobby.hello(old, hello_msg("vasya", version="pidor/0"), 1)
        assert old.closed and old.messages[-1]["code"] == "version_mismatch" and old.player is None

        first = FakePeer("  vasya  ")
        lobby.hello(first, hello_msg(first.name), 1)
        w = first.messages[-1]
        assert (w["type"], w["id"], w["name"], w["table"]) == ("welcome", 1, "vasya", None)
        assert first.player == w["player"] and lobby.online == {first.player: first}
        assert server.store.find_player(w["token"]) == (first.player, "vasya")

        again = FakePeer("Вася")
        lobby.hello(again, hello_msg(again.name, w["token"]), 2)
        assert again.player == first.player and "token" not in again.messages[-1]
        assert first.closed and first.messages[-1]["code"] == "replaced"
        assert lobby.online == {first.player: again}
        lobby.gone(first)  # the replaced connection ends: the player stays online
        assert lobby.online == {first.player: again}

        with pytest.raises(RequestError) as e:
            lobby.hello(FakePeer("x"), hello_msg("x", "no such token"), 3)
        assert e.value.code == "unknown_token"

        # may_call (section 3): true by default, false for a client that never calls;
        # anything else is refused before a player is made
        assert again.may_call is True
        quiet = FakePeer("quiet")
        lobby.hello(quiet, {**hello_msg("quiet", w["token"]), "may_call": False}, 4)
        assert quiet.may_call is False and lobby.online == {first.player: quiet}
        bad = FakePeer("bad")
        with pytest.raises(RequestError) as e:
            lobby.hello(bad, {**hello_msg("bad"), "may_call": "no"}, 5)
        assert e.value.code == "bad_request" and "may_call" in str(e.value) and bad.player is None


async def test_lobby_creates_lists_and_routes_table_requests(autojump_clock):
    async with lobby_with() as (server, lobby):
        ann, bob, cat, dan = (welcome(lobby, FakePeer(n)) for n in ("ann", "bob", "cat", "dan"))
        joined = await ask(lobby, ann, {"type": "create", "options": {"game": "pidor", "players": 3, "bots": 1}})
        a = joined["table"]["id"]
        assert joined["type"] == "joined" and joined["seat"] == 0
        assert [r.id for r in server.opened] == [a] and lobby.table_of(ann.player) == a
        assert server.store.table_row(a)["host"] == ann.player
        joined = await ask(lobby, cat, {"type": "create", "options": {"game": "podkidnoy", "players": 2, "bots": 1}})
        b = joined["table"]["id"]
        assert [r.id for r in server.opened] == [a, b]

        def ids(reply):
            return [t["id"] for t in reply["tables"]]

        every = await ask(lobby, dan, {"type": "list"})
        assert (ids(every), every["total"], every["next"]) == ([a, b], 2, None)
        assert ids(await ask(lobby, dan, {"type": "list", "open": True})) == [a]  # b has no free seat
        assert ids(await ask(lobby, dan, {"type": "list", "open": None, "game": None})) == [a, b]  # null: absent
        assert ids(await ask(lobby, dan, {"type": "list", "game": "podkidnoy"})) == [b]
        page = await ask(lobby, dan, {"type": "list", "limit": 1})
        assert (ids(page), page["total"], page["next"]) == ([a], 2, a)
        assert ids(await ask(lobby, dan, {"type": "list", "after": page["next"]})) == [b]

        # By id to the table named; without one, to the player's own table.
        joined = await ask(lobby, bob, {"type": "join", "table": a})
        assert (joined["type"], joined["table"]["id"], joined["seat"]) == ("joined", a, 1)
        assert lobby.table_of(bob.player) == a
        assert (await ask(lobby, bob, {"type": "seed", "seed": "00ff"}))["type"] == "ok"
        assert server.opened[0].seats[1].seed == b"\x00\xff"
        elsewhere = await ask(lobby, cat, {"type": "join", "table": a})  # table a asks where else she sits
        assert elsewhere["code"] == "already_seated" and f"table {b}" in elsewhere["message"]
        assert refused(lobby, dan, {"type": "join", "table": 999}).code == "no_table"
        assert refused(lobby, dan, {"type": "start"}).code == "no_table"
        assert refused(lobby, ann, {"type": "create"}).code == "already_seated"

        # The last person leaves: the table closes and the lobby forgets it.
        assert (await ask(lobby, bob, {"type": "leave"}))["type"] == "ok"
        assert (await ask(lobby, ann, {"type": "leave"}))["type"] == "ok"
        assert list(lobby.tables) == [b] and lobby.table_of(ann.player) is None
        assert server.store.table_row(a)["closed"] is not None
        # A seated player's connection ends: the table hears of it and closes when empty.
        lobby.gone(cat)
        await trio.testing.wait_all_tasks_blocked()
        assert lobby.tables == {} and lobby.seated == {} and cat.player not in lobby.online


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


class RoomyLimits(Limits):
    MAX_TABLES_PER_ADDRESS = TABLES_PER_MINUTE = PLAYERS_PER_MINUTE = 10_000


async def test_a_list_page_always_fits_in_one_frame(autojump_clock):
    """100 six-seat tables of people with 32-letter Cyrillic names take more than a frame
    (MAX_FRAME) to describe: the page stops before that and says where to go on (a reply
    over the limit used to raise in the lobby and close the asking connection)."""
    name = "Ж" * 32
    async with lobby_with(RoomyLimits) as (server, lobby):
        for t in range(100):
            host = welcome(lobby, FakePeer(name))
            joined = await ask(lobby, host, {"type": "create", "options": {"game": "pidor", "players": 6}})
            for _ in range(5):
                assert (await ask(lobby, welcome(lobby, FakePeer(name)),
                                  {"type": "join", "table": joined["table"]["id"]}))["type"] == "joined"
        reader = welcome(lobby, FakePeer("reader"))
        seen, after = [], None
        while True:
            page = await ask(lobby, reader, {"type": "list"} if after is None else {"type": "list", "after": after})
            assert page["type"] == "tables" and page["total"] == 100
            assert len(wire.encode(page)) <= wire.MAX_FRAME
            seen += [t["id"] for t in page["tables"]]
            after = page["next"]
            if after is None:
                break
        assert seen == sorted(lobby.tables) and len(seen) == 100
        assert len(seen) > len(page["tables"])  # more than one page was needed


class TightLimits(Limits):
    MAX_TABLES_PER_ADDRESS = 2
    TABLES_PER_MINUTE = 3
    PLAYERS_PER_MINUTE = 3


async def test_lobby_limits_new_players_and_tables_per_address(autojump_clock):
    create = {"type": "create", "options": {"game": "podkidnoy", "players": 2}}
    async with lobby_with(TightLimits) as (server, lobby):
        here = [welcome(lobby, FakePeer(f"h{i}", address="10.0.0.1")) for i in range(3)]
        with pytest.raises(RequestError) as e:
            lobby.hello(FakePeer("h3", address="10.0.0.1"), hello_msg("h3"), 1)
        assert e.value.code == "rate_limited" and "try again in 20 s" in e.value.message
        token = here[0].messages[0]["token"]
        here[0] = welcome(lobby, FakePeer("h0", address="10.0.0.1"), token)  # a token is no new player
        there = welcome(lobby, FakePeer("t0", address="10.0.0.2"))  # another address counts apart

        assert (await ask(lobby, here[0], create))["type"] == "joined"
        assert (await ask(lobby, here[1], create))["type"] == "joined"
        assert refused(lobby, here[2], create).code == "server_full"  # two tables of this address are open
        assert (await ask(lobby, there, create))["type"] == "joined"
        assert (await ask(lobby, here[0], {"type": "leave"}))["type"] == "ok"  # its table closes
        assert (await ask(lobby, here[2], create))["type"] == "joined"  # the third this minute
        assert (await ask(lobby, here[1], {"type": "leave"}))["type"] == "ok"
        late = refused(lobby, here[0], create)
        assert late.code == "rate_limited" and "try again in" in late.message
        await trio.sleep(60 / TightLimits.TABLES_PER_MINUTE)
        assert (await ask(lobby, here[0], create))["type"] == "joined"


async def test_a_refused_write_costs_no_rate_token(autojump_clock, monkeypatch):
    """A new player or table the store cannot write (``unavailable``: a full disk) did not
    happen: the client may try again at once, as often as it likes, without being
    ``rate_limited`` for attempts that changed nothing; once the store writes again, it
    gets in at once."""
    from pidor.server.store import StoreError
    create = {"type": "create", "options": {"game": "podkidnoy", "players": 2}}
    async with lobby_with(TightLimits) as (server, lobby):
        host = welcome(lobby, FakePeer("host", address="10.0.0.9"))

        def full(*args, **kwargs):
            raise StoreError(sqlite3.OperationalError("database or disk is full"))

        with monkeypatch.context() as m:
            m.setattr(server.store, "new_player", full)
            m.setattr(server.store, "new_table", full)
            for i in range(3 * TightLimits.PLAYERS_PER_MINUTE):
                with pytest.raises(RequestError) as e:
                    lobby.hello(FakePeer(f"p{i}", address="10.0.0.9"), hello_msg(f"p{i}"), i)
                assert e.value.code == "unavailable"
            for _ in range(3 * TightLimits.TABLES_PER_MINUTE):
                assert refused(lobby, host, create).code == "unavailable"
        for i in range(TightLimits.PLAYERS_PER_MINUTE - 1):  # (host took one token)
            welcome(lobby, FakePeer(f"q{i}", address="10.0.0.9"))
        assert (await ask(lobby, host, create))["type"] == "joined"


# --- the whole server on an in-memory listener -------------------------------------------------


async def test_shutdown_returns_once_the_connection_and_table_tasks_have_ended(tmp_path, autojump_clock):
    """Not at the grace deadline: the nurseries owning those tasks have emptied; the
    client was told, the game's log ends as aborted by the shutdown."""
    server = Server(Store(":memory:"), seed_source=fixed_seeds("seam-shutdown"), logs=tmp_path)
    listener = MemoryListener()
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve, [listener])
        c = await listener.connect()
        assert (await c.hello("host"))["type"] == "welcome"
        table = (await c.request({"type": "create", "options": {"game": "pidor", "players": 3, "bots": 2}}))["table"]
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await c.receive(is_turn)
        before = trio.current_time()
        await server.shutdown(grace=30)
        assert trio.current_time() - before < 30
    last = await c.receive(lambda m: m["type"] == "error")
    assert last["code"] == "shutdown" and last["fatal"] is True
    assert server.connections == set() and server.lobby.tables == {}
    row = server.store.games_of(table["id"])[0]
    assert row["aborted"] == "shutdown"
    assert verify_data(Path(row["log"]).read_bytes()).notes == ["aborted: shutdown"]


def test_a_server_opens_tables_only_while_it_serves():
    server = Server(Store(":memory:"))
    with pytest.raises(RuntimeError, match="only while it serves"):
        server.open_table(1, server_options({"game": "pidor", "players": 2})[0], [])


# --- the seams themselves ---------------------------------------------------------------------


async def test_the_server_parts_and_the_fakes_fill_their_seams():
    server = Server(Store(":memory:"))
    conn = Connection(server.lobby, Limits, trio.testing.memory_stream_pair()[0], "?:?", "?")
    assert isinstance(server, House) and isinstance(server, LobbyServer)
    assert isinstance(server.store, GameIndex) and isinstance(server.store, LobbyStore)
    assert isinstance(server.lobby, Handler) and isinstance(conn, Peer)
    assert isinstance(FakePeer(), Peer) and isinstance(FakeHouse(), House)
    async with trio.open_nursery() as nursery:
        assert isinstance(FakeLobbyServer(nursery), LobbyServer)


def imports_of(package: Path) -> dict[str, set[str]]:
    """Every module of the package and the package's modules it imports: at the top, in a
    function or under ``TYPE_CHECKING``, it is all the same."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            modules[".".join(parts)] = (path, parts)
        else:
            modules[".".join(parts)] = (path, parts[:-1])
    graph: dict[str, set[str]] = {}
    for name, (path, where) in modules.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(where[:len(where) - node.level + 1] + ([node.module] if node.module else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def test_no_module_imports_one_that_imports_it_back():
    graph = imports_of(Path(pidor.__file__).parent)
    assert "pidor.server.app" in graph and "pidor.server.seams" in graph["pidor.server.runner"]

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for m in graph[todo.pop()] - seen:
                seen.add(m)
                todo.append(m)
        return seen

    circular = {m: sorted(n for n in reach(m) if m in reach(n)) for m in graph}
    assert {m: c for m, c in circular.items() if c} == {}
    assert [m for m in graph["pidor.server.seams"] if m.startswith("pidor.server")] == []
