"""A table's memory goes back when it is done with, by reference counting alone: the server
runs the cyclic garbage collector rarely (pidor/server/command.py), so a reference cycle
through a table would hold each game's bots, knowledge and events until a full
collection, about 47 KiB a game (issue 21 item 4). With the collector off, the table's
objects die the moment the last reference to them goes. (The memory figure itself, RSS
after 500 and after 5,000 games, comes from ``scripts/soak.py --games``.)"""

from __future__ import annotations

import gc
import weakref
from contextlib import contextmanager

import pytest
import trio
from helpers import first_fast, players_of
from seam_helpers import is_results, join, new_table, play, running
from server_helpers import FakeHouse, FakePeer

from pidor.games import GAME_IDS


@contextmanager
def no_cyclic_gc():
    """The cyclic collector off (only reference counting frees) inside the block."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def refs_of(runner) -> dict[str, weakref.ref]:
    """Weak references to a table's runner and to what one game made: the engine's table,
    the game's log and recorder, a bot seat's policy (the driver and its knowledge take
    no weak reference)."""
    return {"runner": weakref.ref(runner), "table": weakref.ref(runner.table), "game": weakref.ref(runner.table.game),
            "game_log": weakref.ref(runner.game_log), "recorder": weakref.ref(runner.rec),
            "bot": weakref.ref(runner.seats[-1].bot)}


def alive(refs: dict[str, weakref.ref]) -> list[str]:
    return [name for name, ref in refs.items() if ref() is not None]


@first_fast
@pytest.mark.parametrize("game", GAME_IDS)
async def test_a_table_whose_game_ended_is_freed_without_the_cyclic_gc(game, tmp_path, autojump_clock):
    """A game to its end, then the player leaves and the table closes: nothing of it is
    left once the last reference to the runner goes."""
    house = FakeHouse(f"memory-{game}", logs=tmp_path)
    alice = FakePeer("alice", player=1)
    with no_cyclic_gc():
        n = players_of(game)
        runner = new_table(house, {"game": game, "players": n, "bots": n - 1})
        async with running(runner):
            await join(alice, runner)
            assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
            refs = refs_of(runner)
            await play(alice, runner, is_results)
            assert (await alice.request(runner, {"type": "leave"}))["type"] == "ok"
            with trio.fail_after(5):
                while not house.closed:
                    await trio.sleep(0.01)
        assert house.closed == [(runner.id, "empty")]
        del runner
        assert alive(refs) == []


async def test_a_game_cut_off_when_its_table_closes_is_freed_without_the_cyclic_gc(tmp_path, autojump_clock):
    """The server stops in the middle of a game (its log ends aborted): the table's objects
    die all the same."""
    house = FakeHouse("memory-cut", logs=tmp_path)
    alice = FakePeer("alice", player=1)
    with no_cyclic_gc():
        runner = new_table(house, {"game": "pidor", "players": 4, "bots": 3})
        async with running(runner):
            await join(alice, runner)
            assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
            await alice.next(lambda m: m["type"] == "turn")
            refs = refs_of(runner)
        assert house.closed == [(runner.id, "shutdown")]
        assert house.store.games_of(runner.id)[0]["aborted"] == "shutdown"
        del runner
        assert alive(refs) == []


async def test_each_game_at_an_open_table_is_freed_once_the_next_starts(autojump_clock):
    """A table that plays game after game keeps only its current game: the last one's
    log, recorder and bots die when the next starts."""
    house = FakeHouse("memory-next")
    alice = FakePeer("alice", player=1)
    with no_cyclic_gc():
        runner = new_table(house, {"game": "podkidnoy", "players": 2, "bots": 1})
        async with running(runner):
            await join(alice, runner)
            assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
            first = refs_of(runner)
            del first["runner"], first["table"]  # (the table and its runner stay, of course)
            await play(alice, runner, is_results)
            # The game's result stays on show until the next game; its bots are done.
            assert alive(first) == ["game", "game_log", "recorder", "bot"]
            assert (await alice.request(runner, {"type": "start"}))["type"] == "ok"
            assert alive(first) == []
