"""The server's parts alone, through their seams (pidor/server/seams.py), without a socket:
a table task with a fake house and fake clients, a whole server on an in-memory listener;
and the seams themselves (each part and each fake fills its Protocol; no module of the
package imports one that imports it back; the table task's own parts, pidor/server/state.py,
are explicit: a handler table, the driver's table surface, no ``__getattr__``, a match's
table changes hooks only). The lobby's own: test_lobby_seam.py; hello ``may_call: false``:
test_server_may_call.py."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
import trio
import trio.testing
from helpers import players_of
from seam_helpers import is_results, is_turn, join, logged, new_table, play, running
from server_helpers import Audit, FakeHouse, FakeLobbyServer, FakePeer, MemoryListener, fixed_seeds

import pidor
from pidor.bots import Policy
from pidor.driver import DrivenTable
from pidor.engine.table import Table
from pidor.gamelog.verify import verify_data
from pidor.games import GAME_IDS
from pidor.match.house import MatchHooks, MatchTable
from pidor.server import drive
from pidor.server.app import Server
from pidor.server.connection import Connection
from pidor.server.drive import ABANDON_AFTER
from pidor.server.hooks import TableHooks
from pidor.server.limits import Limits
from pidor.server.requests import RequestError
from pidor.server.runner import TABLE_REQUESTS, TableRunner
from pidor.server.seams import GameIndex, Handler, House, LobbyServer, LobbyStore, Peer
from pidor.server.seating import server_options
from pidor.server.state import Runner
from pidor.server.store import Store


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
    """Counts the table calls made for bot seats in each step of every task (from one
    checkpoint of it to the next): the table's task, and a requester's, in which a
    request that finds the table's task parked is handled (``TableRunner.submit``)."""

    def __init__(self, calls: list[int]) -> None:
        self.calls = calls
        self.steps: list[int] = []
        self._before = len(calls)

    def before_task_step(self, task) -> None:
        self._before = len(self.calls)

    def after_task_step(self, task) -> None:
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
        await nursery.start(_run_task, runner)
        steps = TableSteps(calls)
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


@pytest.mark.slow
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


# --- the table task's own parts (pidor/server/state.py) -------------------------------------


@pytest.mark.slow
def test_no_class_hands_what_it_lacks_to_another_object():
    """Every surface is spelled out: no class of the package reads through to another
    object with ``__getattr__`` (the recorder, the server's table for its driver and a
    match table's house did), so each says what it offers."""
    package = Path(pidor.__file__).parent
    readers = [f"{path.relative_to(package.parent)}:{node.lineno}" for path in sorted(package.rglob("*.py"))
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"]
    assert readers == []


@pytest.mark.parametrize("game", GAME_IDS)
async def test_each_table_the_driver_drives_has_its_whole_surface(game, autojump_clock):
    """The engine's table, the recorder in front of it and the server's table for its
    driver each fill the driver's surface (``DrivenTable``), and the other two read what
    the engine's table says."""
    house = FakeHouse(f"seam-surface-{game}")
    runner = new_table(house, {"game": game, "players": players_of(game), "bots": players_of(game) - 1})
    alice = FakePeer("alice", player=1)
    async with running(runner):
        await join(alice, runner)
        assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
        await alice.next(is_turn)
        table = runner.table
        seat = table.to_act()[0]
        for surface in (table, runner.rec, runner.state.driver.table):
            assert isinstance(surface, DrivenTable), surface
            assert surface.game is table.game and surface.options is table.options
            assert (surface.window, surface.court, surface.mark, surface.honest_only) == (
                table.window, table.court, table.mark, table.honest_only)
            assert (surface.to_act(), surface.waiting_answers(), surface.waiting_votes()) == (
                table.to_act(), table.waiting_answers(), table.waiting_votes())
            assert surface.honest_actions(seat) == table.honest_actions(seat)
            assert surface.actions(seat) == table.actions(seat)
            assert surface.view(seat) == table.view(seat) and surface.to_data() == table.to_data()


def test_the_table_task_answers_each_request_through_its_handler_table():
    """One handler, a method of the runner or of one of its parts, for each request the
    lobby hands a table (no method looked up by the request's name); a request the
    table's owner refuses (a match's start and seed) has a handler that refuses it."""
    runner = new_table(FakeHouse("seam-handlers"), {"game": GAME_IDS[0], "players": players_of(GAME_IDS[0], 2)})
    assert isinstance(runner, Runner)
    assert set(runner.handlers) == set(TABLE_REQUESTS)
    parts = (runner, runner.hosting, runner.plays)
    assert all(handler.__self__ in parts for handler in runner.handlers.values())

    options = server_options({"game": GAME_IDS[0], "players": players_of(GAME_IDS[0], 2)})[0]
    match = MatchTable(Server(Store(":memory:")), 1, options, clock=None, gone=set())
    assert set(match.handlers) == set(TABLE_REQUESTS)
    for kind in ("start", "seed"):
        with pytest.raises(RequestError) as refused:
            match.handlers[kind](FakePeer(), 1, {"type": kind}, 1)
        assert refused.value.code == "not_host" and refused.value.message == MatchHooks.refused[kind]


def test_a_match_table_changes_only_what_its_hooks_say():
    """``MatchTable`` overrides nothing of the runner (a refactor of the runner cannot
    break matches unseen), and every public name of its hooks is one of ``TableHooks``
    (a hook misspelt would never be called)."""
    assert [name for name, value in vars(MatchTable).items() if callable(value)] == ["__init__"]
    hooks = {name for name in vars(MatchHooks) if not name.startswith("_")}
    assert hooks and hooks <= {name for name in vars(TableHooks) if not name.startswith("_")}
