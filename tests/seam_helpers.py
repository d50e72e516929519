"""Helpers for the tests of the server's parts through their seams (no socket): a table
task with a fake house and fake clients (:class:`~server_helpers.FakeHouse`,
:class:`~server_helpers.FakePeer`), and the lobby with a fake server."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from server_helpers import FakeHouse, FakeLobbyServer, FakePeer

from pidor import wire
from pidor.gamelog.verify import verify_data
from pidor.server.limits import Limits
from pidor.server.requests import RequestError
from pidor.server.runner import TableRunner
from pidor.server.seating import server_options

__all__ = ["is_results", "is_turn", "new_table", "join", "play", "running", "logged", "lobby_with", "hello_msg",
           "welcome", "ask", "refused"]


# --- a table task ---------------------------------------------------------------------------


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
