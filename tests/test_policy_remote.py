"""A built-in policy over TCP through the SDK (pidor.bots.remote.PolicyBot): it plays whole
games from what its client receives, and judges every call window it owes exactly as the
server's table recorded it (the same knowledge as in-process, from snapshots and events)."""

from __future__ import annotations

import pathlib
import sys

import pytest
from helpers import first_fast
import trio
from server_helpers import serve

from pidor import client as sdk
from pidor.bots.remote import PolicyBot

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "clients" / "python"))

import random_bot  # noqa: E402


class Judging(PolicyBot):
    """Records what it judged at each window it owes: (seat, action, visible rules)."""

    def __init__(self, spec: str, seed: bytes) -> None:
        super().__init__(spec, seed)
        self.judged: list[tuple[int, dict, tuple]] = []
        self.messages = 0

    def on_message(self, msg):
        self.messages += 1
        assert self.messages < 50000, "the game does not end"

    def on_window(self, event):
        call = super().on_window(event)
        self.judged.append((event["seat"], event["action"], self._seat.visible_violations(event["seat"], event["action"])))
        return call


@first_fast
@pytest.mark.parametrize("game,players", [("pidor", 4), ("podkidnoy", 3), ("perevodnoy", 3)])
async def test_builtin_random_plays_over_tcp_and_judges_windows_as_the_table(game, players):
    full: list[dict] = []
    async with serve(seeds=f"remote-{game}", log_sink=lambda ref, events: full.extend(events)) as (_server, port):
        bot = Judging("builtin:random:cheat=0.3,attention=0.7,acquit=0.3", b"remote")
        c = sdk.Client("127.0.0.1", port, "policy", timeout=10)

        def go():
            c.connect()
            c.create(game=game, players=players, bots=["builtin:random:cheat=0.3,attention=0.5"] * (players - 1))
            try:
                return bot.run(c, games=2)
            finally:
                c.close()

        results = await trio.to_thread.run_sync(go)
    assert len(results) == 2
    recorded = []  # every window of the games, with the rules the table recorded
    for i, e in enumerate(full):
        if e["type"] == "window":
            act = next(x for x in reversed(full[:i]) if x["type"] == "action")
            recorded.append((e["seat"], act["action"], tuple(act["_violations"])))
    mine = [w for w in recorded if w[0] != bot.seat]
    assert len(bot.judged) == len(mine) > 20
    assert bot.judged == mine
    assert any(rules for _, _, rules in mine)  # cheats were seen, and judged as recorded
    seat = bot.seat
    assert any(e["type"] == "action" and e["seat"] == seat and e["_violations"] for e in full)  # it cheated too
    assert any(e["type"] == "call" and e["caller"] == seat for e in full)  # and called


async def test_the_sample_bot_plays_a_policy_and_refuses_a_bad_spec():
    async with serve(seeds="remote-sample") as (_server, port):
        lines: list[str] = []
        code = await trio.to_thread.run_sync(lambda: random_bot.main(
            ["--port", str(port), "--name", "pb", "--create", "podkidnoy", "--players", "3", "--seed", "5",
             "--policy", "builtin:random:cheat=0.2,attention=0.5"], out=lines.append))
        assert code == 0, lines
        assert lines[1].startswith("created table 1 (podkidnoy, 3 seats, 2 bots)")
        assert lines[2].startswith("game 1 over:") and "I am seat 0" in lines[2]
        bad: list[str] = []
        code = await trio.to_thread.run_sync(lambda: random_bot.main(
            ["--port", str(port), "--policy", "builtin:smart"], out=bad.append, err=bad.append))
        from pidor.bots.specs import usage
        assert code == 2 and bad == [f"error: unknown seat spec 'builtin:smart': use {usage()}"]
        assert "builtin:random[:cheat=P,attention=P,false_call=P,acquit=P]" in bad[0]


class Counting(PolicyBot):
    """Counts the windows it is asked about."""

    windows = 0

    def on_window(self, event):
        self.windows += 1
        return super().on_window(event)


def test_may_call_says_whether_a_bot_can_ever_call():
    assert not sdk.Bot().may_call() and not PolicyBot("builtin:random:cheat=0.3", b"").may_call()
    assert PolicyBot("builtin:random:attention=0.5", b"").may_call()
    assert PolicyBot("builtin:random:false_call=0.1", b"").may_call()


async def test_a_policy_that_never_calls_says_so_and_answers_no_window(monkeypatch):
    """PROTOCOL.md section 3: the SDK says hello with may_call false for a policy that
    never calls; it is asked about no window and sends no pass, while the server passes
    the windows it owes, and the games end."""
    full: list[dict] = []
    async with serve(seeds="remote-quiet", log_sink=lambda ref, events: full.extend(events)) as (_server, port):
        bot = Counting("builtin:random:cheat=0.3", b"quiet")
        c = sdk.Client("127.0.0.1", port, "quiet", timeout=10, may_call=bot.may_call())
        sent: list[dict] = []
        send = sdk.Connection.send
        monkeypatch.setattr(sdk.Connection, "send", lambda conn, msg: (sent.append(msg), send(conn, msg))[1])

        def go():
            c.connect()
            c.create(game="pidor", players=3, bots=["builtin:random:cheat=0.3,attention=0.5"] * 2)
            try:
                return bot.run(c, games=2)
            finally:
                c.close()

        results = await trio.to_thread.run_sync(go)
    assert len(results) == 2 and c.may_call is False
    owed = [e for e in full if e["type"] == "window" and bot.seat in e["owing"]]
    assert len(owed) > 20 and bot.windows == 0
    assert sent[0]["type"] == "hello" and sent[0]["may_call"] is False
    types = {m["type"] for m in sent}
    assert "act" in types and not {"pass", "call"} & types
