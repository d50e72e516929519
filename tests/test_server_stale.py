"""Acting on what you saw (PROTOCOL.md §5): ``act``, ``call``, ``pass`` and ``vote`` name
the ``seq`` they were decided on, and the server refuses them as ``stale`` when the game
moved on after it. Issue 8, item 1: honest seats were convicted for actions that landed on
a later state than the one they were chosen from."""

from __future__ import annotations

import random

import pytest
from helpers import first_fast
import trio

from server_helpers import is_event, seated_client, serve


async def durak_table(port, n=4, game="podkidnoy"):
    host = await seated_client(port, "p0", options={"game": game, "players": n})
    clients = [host] + [await seated_client(port, f"p{i}", table=host.table) for i in range(1, n)]
    clients.sort(key=lambda c: c.seat)
    assert (await host.request({"type": "start"}))["type"] == "ok"
    return clients


async def test_a_throw_in_chosen_in_one_bout_is_stale_in_the_next(autojump_clock):
    """The issue's reproduction: a seat chose a throw-in in one bout; it reached the server
    after that bout had ended and would have been applied as the first card (or a
    rank-less throw-in, D3r) of the next one."""
    actions = []
    async with serve(seeds="stale-bout", log_sink=lambda record, events: actions.extend(
            e for e in events if e["type"] == "action")) as (server, port):
        clients = await durak_table(port)
        runner = server.lobby.tables[clients[0].table]
        g = runner.table.game
        attacker, defender = g.attacker, g.defender
        thrower = clients[(defender + 1) % 4]  # attacks the next bout once the defender takes (D6)
        turn = await clients[attacker].receive(lambda m: m["type"] == "turn" and m["options"])
        r = await clients[attacker].request({"type": "act", "action": turn["options"][0], "seq": turn["seq"]})
        assert r["type"] == "ok"
        for c in clients:
            if c.seat != attacker:
                await c.receive(is_event("window"))
                await c.send({"type": "pass"})
        # The thrower decides on a throw-in now (event ``chosen``) ...
        await thrower.receive(lambda m: m["type"] == "turn")
        chosen = thrower.seq
        card = next(c for c in thrower.messages if c["type"] == "snapshot")["view"]["hand"][0]
        # ... while the defender takes: the bout is over and the next one begins.
        take = await clients[defender].receive(lambda m: m["type"] == "turn" and {"type": "take"} in m["options"])
        assert (await clients[defender].request({"type": "act", "action": {"type": "take"},
                                                 "seq": take["seq"]}))["type"] == "ok"
        await thrower.receive(lambda m: is_event("bout")(m) and m["seq"] > chosen)
        assert runner.table.game.attacker == thrower.seat
        before = len(actions)
        r = await thrower.request({"type": "act", "action": {"type": "attack", "card": card}, "seq": chosen})
        assert r["type"] == "error" and r["code"] == "stale", r
        assert len(actions) == before  # nothing was applied, nothing recorded
        # A fresh turn follows; acting on it works.
        turn = await thrower.receive(lambda m: m["type"] == "turn" and m["seq"] > chosen)
        r = await thrower.request({"type": "act", "action": turn["options"][0], "seq": turn["seq"]})
        assert r["type"] == "ok"


async def test_a_pass_for_a_closed_window_is_stale_and_a_call_cannot_hit_the_next_action(autojump_clock):
    """A call meant for one action must never land on the next one (a false call, T5)."""
    async with serve(seeds="stale-window") as (server, port):
        host = await seated_client(port, "p0", options={"game": "pidor", "players": 3, "bots": 2,
                                                        "call_window": 2.0})
        assert (await host.request({"type": "start"}))["type"] == "ok"
        runner = server.lobby.tables[host.table]
        # The first window we owe; let its clock run out, then answer it late.
        first = await host.receive(lambda m: is_event("window")(m) and host.seat in m["event"]["owing"])
        later = await host.receive(lambda m: is_event("window")(m) and m["seq"] > first["seq"]
                                   and host.seat in m["event"]["owing"])
        assert runner.table.window is not None
        r = await host.request({"type": "call", "seq": first["seq"]})
        assert r["type"] == "error" and r["code"] == "stale", r
        assert runner.table.window is not None and runner.table.court is None  # nothing happened
        r = await host.request({"type": "pass", "seq": later["seq"]})
        assert r["type"] == "ok"


async def test_seq_is_required_and_cannot_be_from_the_future(autojump_clock):
    async with serve(seeds="stale-seq") as (server, port):
        host = await seated_client(port, "p0", options={"game": "pidor", "players": 2, "bots": 1})
        assert (await host.request({"type": "start"}))["type"] == "ok"
        turn = await host.receive(lambda m: m["type"] == "turn")
        for seq in (None, "5", True, -1, turn["seq"] + 1000):
            msg = {"type": "act", "action": turn["options"][0], "seq": seq}
            r = await host.request(msg)
            assert r["type"] == "error" and r["code"] == "bad_request", (seq, r)
        r = await host.request({"type": "act", "action": turn["options"][0], "seq": turn["seq"]})
        assert r["type"] == "ok"


class Hasty:
    """An honest external seat that answers everything after a random delay, and acts on
    every ``turn`` it gets, repeated ones included (the races of a naive client)."""

    def __init__(self, client, rng: random.Random) -> None:
        self.c, self.rng = client, rng
        self.stale = 0
        self.sending = trio.Lock()  # one stream, several delayed senders

    async def later(self, msg: dict) -> None:
        await trio.sleep(self.rng.choice((0.0, 0.0, 0.01, 0.05, 0.3, 1.0)))
        async with self.sending:
            await self.c.send(msg)

    async def play(self, nursery) -> dict:
        c = self.c
        while True:
            m = await c.receive()
            kind = m["type"]
            if kind == "turn" and m["options"]:
                action = self.rng.choice(m["options"])
                nursery.start_soon(self.later, {"type": "act", "action": action, "seq": m["seq"]})
            elif kind == "error" and m["code"] == "stale":
                self.stale += 1
            elif kind == "event":
                e, seq = m["event"], m["seq"]
                if e["type"] == "window" and c.seat in e["owing"]:
                    nursery.start_soon(self.later, {"type": "pass", "seq": seq})
                elif e["type"] == "court" and c.seat in e["voters"]:
                    nursery.start_soon(self.later, {"type": "vote", "guilty": True, "seq": seq})
                elif e["type"] == "results":
                    return e


@first_fast
@pytest.mark.parametrize("game,seed", [("podkidnoy", 1), ("podkidnoy", 2), ("perevodnoy", 3), ("pidor", 4)])
async def test_honest_seats_acting_on_delayed_turns_are_never_recorded_with_a_violation(game, seed, autojump_clock):
    """The property: four external seats play only honest options, each decided on the turn
    it came with and sent after a random delay (acting on repeated turns too). No action of
    theirs is recorded as a violation; the races show up as ``stale`` refusals instead."""
    violations = []
    actions = []

    def sink(record, events):
        for e in events:
            if e["type"] == "action":
                actions.append(e)
                if e.get("_violations"):
                    violations.append(e)

    async with serve(seeds=f"stale-{game}-{seed}", log_sink=sink) as (server, port):
        options = {"game": game, "players": 4, "call_window": 0.5}
        host = await seated_client(port, "p0", options=options)
        clients = [host] + [await seated_client(port, f"p{i}", table=host.table) for i in range(1, 4)]
        rng = random.Random(seed)
        seats = [Hasty(c, random.Random(rng.random())) for c in clients]
        assert (await host.request({"type": "start"}))["type"] == "ok"
        results = []
        async with trio.open_nursery() as nursery:
            async def one(s):
                results.append(await s.play(nursery))
                if len(results) == len(seats):
                    nursery.cancel_scope.cancel()
            for s in seats:
                nursery.start_soon(one, s)
    assert results and results[0]["result"] is not None
    assert len(actions) > 30
    assert violations == []
    if game != "pidor":  # several seats act at once only in durak: races happen there
        assert sum(s.stale for s in seats) > 0
