"""Hello ``windows: false`` (PROTOCOL.md §3, minor 2), through the server's seams: a client
that never calls may ask to be sent no ``window`` and ``window_closed`` events; it still gets
every other event, its turns and the courts it votes in (T4), and a client that does not ask
gets the very frames it got before (emission.WINDOW_EVENTS)."""

from __future__ import annotations

import hashlib

import pytest
import trio
from seam_helpers import hello_msg, is_results, join, lobby_with, logged, new_table, play, running, welcome
from server_helpers import Audit, FakeHouse, FakePeer

from pidor import wire
from pidor.server.emission import WINDOW_EVENTS
from pidor.server.requests import RequestError


async def test_hello_negotiates_windows_false_only_with_may_call_false():
    async with lobby_with() as (server, lobby):
        quiet = FakePeer("quiet")
        lobby.hello(quiet, {**hello_msg("quiet"), "may_call": False, "windows": False}, 1)
        assert quiet.player is not None and (quiet.may_call, quiet.windows) == (False, False)
        assert quiet.messages[-1]["type"] == "welcome" and quiet.messages[-1]["minor"] == wire.PROTOCOL_MINOR == 2
        old = welcome(lobby, FakePeer("old"))  # (says neither: gets the windows, may call)
        assert (old.may_call, old.windows) == (True, True)
        loud = FakePeer("loud")
        lobby.hello(loud, {**hello_msg("loud"), "windows": True}, 2)
        assert (loud.may_call, loud.windows) == (True, True)
        for bad in ({"windows": False}, {"windows": False, "may_call": True}, {"may_call": False, "windows": "no"}):
            peer = FakePeer("bad")
            with pytest.raises(RequestError) as e:
                lobby.hello(peer, {**hello_msg("bad"), **bad}, 3)
            assert e.value.code == "bad_request" and "windows" in e.value.message and peer.player is None, bad


def _frames(peer: FakePeer) -> list[dict]:
    return [m for m in peer.messages if m["type"] != "ok"]


def _digest(messages: list[dict]) -> str:
    return hashlib.sha256(b"".join(wire.encode(m) for m in messages)).hexdigest()


async def _honest_game(windows: dict[str, bool]) -> dict[str, FakePeer]:
    """A «пидор» game of two clients that never call and two honest bots, seeded alike
    every time: nobody cheats, so nothing but the seeds decides it."""
    house = FakeHouse("seam-windows")
    runner = new_table(house, {"game": "pidor", "players": 4, "bots": 2})
    peers = {name: FakePeer(name, player=k + 1, may_call=False, windows=windows[name])
             for k, name in enumerate(("alice", "bob"))}
    async with running(runner):
        for peer in peers.values():
            await join(peer, runner)
        assert (await peers["alice"].request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in peers.values():
                nursery.start_soon(play, peer, runner, is_results, False)
    return peers


@pytest.mark.slow
async def test_a_client_that_does_not_ask_gets_the_same_frames(autojump_clock):
    """PROTOCOL.md §3, minor 2: the same game with bob asking for no windows, and without.
    Alice, who does not ask, gets the same frames byte for byte (their SHA-256), whatever
    bob said; bob gets those frames less the window events, with the same seq numbers
    (so his stream skips theirs), and nothing else is lost."""
    before = await _honest_game({"alice": True, "bob": True})
    after = await _honest_game({"alice": True, "bob": False})
    seen = [m["event"]["type"] for m in _frames(before["alice"]) if m["type"] == "event"]
    assert seen.count("window") > 20 and seen.count("window_closed") > 20
    assert _digest(_frames(after["alice"])) == _digest(_frames(before["alice"]))
    kept = [m for m in _frames(before["bob"]) if not (m["type"] == "event" and m["event"]["type"] in WINDOW_EVENTS)]
    assert len(kept) < len(_frames(before["bob"])) - 40
    assert _digest(_frames(after["bob"])) == _digest(kept)
    seqs = [m["seq"] for m in _frames(after["bob"]) if m["type"] == "event"]
    assert seqs == sorted(set(seqs)) and seqs[-1] == [m["seq"] for m in _frames(after["alice"])
                                                      if m["type"] == "event"][-1]


@pytest.mark.slow
async def test_courts_and_votes_reach_a_client_that_asked_for_no_windows(tmp_path, autojump_clock):
    """Bots that cheat and call: a court's voters include the clients that asked for no
    windows, which get the court, vote in it (T4), and see the votes and the verdict; they
    get no window event, while a spectator of the same table and a seat that did not ask
    get every one. The audit finds no hidden card in any frame; the log verifies."""
    audit = Audit()
    house = FakeHouse("seam-windows-court", logs=tmp_path, audit=audit)
    runner = new_table(house, {"game": "pidor", "players": 5, "bots": ["builtin:random:cheat=0.3,attention=0.9"] * 2})
    blind = [FakePeer(name, player=k + 1, may_call=False, windows=False) for k, name in enumerate(("alice", "bob"))]
    sighted = FakePeer("carol", player=3, may_call=False)
    watcher = FakePeer("dan", player=4)
    async with running(runner):
        for peer in (*blind, sighted):
            peer.seat = await join(peer, runner)
        assert (await watcher.request(runner, {"type": "watch", "table": runner.id}))["type"] == "watching"
        assert (await blind[0].request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in (*blind, sighted):
                nursery.start_soon(play, peer, runner, is_results, False)
    for peer in blind:
        kinds = [e["type"] for e in peer.events()]
        assert not WINDOW_EVENTS & set(kinds) and not [m for m in peer.messages if m["type"] == "error"]
        courts = [e for e in peer.events("court") if peer.seat in e["voters"]]
        assert courts, "the bots call each other's cheats: courts ask this seat's vote"
        mine = [e for e in peer.events("vote") if e["seat"] == peer.seat]
        assert len(mine) == len(courts) and len(peer.events("verdict")) == len(peer.events("call"))
        assert kinds[-1] == "results"
    everyone = [e["type"] for e in sighted.events()]
    assert everyone.count("window") > 10 and [e["type"] for e in watcher.events()].count("window") > 10
    assert [k for k in everyone if k not in WINDOW_EVENTS] == [e["type"] for e in blind[0].events()]
    assert audit.frames > 0 and audit.leaks == []
    assert logged(house, runner)[1].status == "verified"


@pytest.mark.parametrize("spectator", [False, True])
async def test_window_events_are_not_packed_when_nobody_gets_them(spectator, autojump_clock, monkeypatch):
    """The server spends nothing on window events that no client gets (every seat asked
    for none, no spectator): none is packed; with a spectator, each is packed for him."""
    packed: list[str] = []
    encode_event = wire.encode_event

    def counting(table_id, seq, view):
        packed.append(view["type"])
        return encode_event(table_id, seq, view)

    monkeypatch.setattr(wire, "encode_event", counting)
    house = FakeHouse("seam-windows-packed")
    runner = new_table(house, {"game": "pidor", "players": 3, "bots": 1})
    peers = [FakePeer(name, player=k + 1, may_call=False, windows=False) for k, name in enumerate(("al", "bo"))]
    async with running(runner):
        for peer in peers:
            await join(peer, runner)
        if spectator:
            await FakePeer("cy", player=3).request(runner, {"type": "watch", "table": runner.id})
        assert (await peers[0].request(runner, {"type": "start"}))["type"] == "ok"
        async with trio.open_nursery() as nursery:
            for peer in peers:
                nursery.start_soon(play, peer, runner, is_results, False)
    windows = sum(k in WINDOW_EVENTS for k in packed)
    assert packed.count("action") > 20
    assert windows > 20 if spectator else windows == 0
