"""Cheat → call → vote → verdict over the wire (T2–T6), with three or four scripted
clients at a «пидор» table; the cheat is picked with the server's own rules."""

from __future__ import annotations

import pytest
import trio

from server_helpers import act, cheat_and_call, is_event, open_table, serve

from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify


@pytest.mark.parametrize("outcome", ["guilty", "tie", "clean"])
async def test_cheat_call_vote_verdict_T6(outcome, autojump_clock):
    n = 4 if outcome == "clean" else 3
    async with serve(seeds=f"court-{outcome}") as (server, port):
        clients = await open_table(port, n)
        x, y, violations, court, cheat = await cheat_and_call(server, clients)
        # T6: the court shows the violated rule, its id and texts, to everyone.
        assert court["accused"] == x and court["caller"] == y
        assert [r["id"] for r in court["rules"]] == violations
        assert all(r["ru"] and r["en"] for r in court["rules"])
        voters = [c for c in clients if c.seat not in (x, y)]
        assert sorted(court["voters"]) == [c.seat for c in voters]
        for v in voters:
            await v.receive(is_event("court"))  # a vote names the court it saw (its seq)
            r = await v.request({"type": "vote", "guilty": outcome == "guilty"})
            assert r["type"] == "ok"
        verdict = (await clients[x].receive(is_event("verdict")))["event"]
        assert verdict["outcome"] == outcome
        if outcome == "clean":
            await clients[x].receive(is_event("mark"))
        else:
            await clients[x].receive(lambda m: m["type"] == "snapshot")
        after = [m for m in clients[x].messages if m["type"] in ("event", "snapshot")]
        kinds = [m["event"]["type"] if m["type"] == "event" else "snapshot" for m in after]
        tail = kinds[kinds.index("verdict"):]
        runner = server.lobby.tables[clients[0].table]
        if outcome == "guilty":
            assert tail[:3] == ["verdict", "undo", "mark"]
            assert "snapshot" in tail  # a fresh view after the undo
            assert runner.table.mark == x
            # T6: the accused's next action must be honest.
            await clients[x].receive(lambda m: m["type"] == "turn")
            r = await clients[x].request({"type": "act", "action": cheat})
            assert r["type"] == "error" and r["code"] == "must_play_honestly"
        elif outcome == "tie":
            assert tail[:2] == ["verdict", "undo"] and "mark" not in tail
            assert runner.table.mark is None
            await clients[x].receive(lambda m: m["type"] == "turn")
            r = await clients[x].request({"type": "act", "action": cheat})  # may cheat again
            assert r["type"] == "ok"
        else:
            assert tail[:2] == ["verdict", "mark"] and "undo" not in tail
            assert runner.table.mark == y


async def test_call_on_an_honest_action_marks_the_caller_T5(autojump_clock):
    async with serve(seeds="honest-call") as (server, port):
        clients = await open_table(port, 3)
        runner = server.lobby.tables[clients[0].table]
        x = runner.table.to_act()[0]
        await act(clients, x, {"type": "draw"}, pass_others=False)
        y = (x + 1) % 3
        await clients[y].receive(is_event("window"))
        assert (await clients[y].request({"type": "call"}))["type"] == "ok"
        verdict = (await clients[x].receive(is_event("verdict")))["event"]
        assert verdict == {"type": "verdict", "outcome": "honest", "caller": y, "accused": x}
        mark = (await clients[x].receive(is_event("mark")))["event"]
        assert mark["seat"] == y and mark["reason"] == "false_call"
        assert not any(m["type"] == "event" and m["event"]["type"] == "court" for m in clients[x].messages)
        # T2: one call per action; the window is closed now.
        r = await clients[(x + 2) % 3].request({"type": "call"})
        assert r["type"] == "error" and r["code"] in ("not_now", "impossible_action")


async def test_votes_and_answers_out_of_place_are_refused(autojump_clock):
    async with serve(seeds="refuse") as (server, port):
        clients = await open_table(port, 3)
        r = await clients[0].request({"type": "vote", "guilty": True})
        assert r["code"] == "not_now"
        r = await clients[0].request({"type": "vote", "guilty": "yes"})
        assert r["code"] == "bad_request"
        runner = server.lobby.tables[clients[0].table]
        x = runner.table.to_act()[0]
        other = clients[(x + 1) % 3]
        r = await other.request({"type": "act", "action": {"type": "draw"}})
        assert r["code"] == "impossible_action"  # T1: not your turn
        r = await other.request({"type": "act", "action": {"type": "fly"}})
        assert r["code"] == "invalid_action"


@pytest.mark.parametrize("when", ["before", "during"])
async def test_an_away_voter_abstains_at_once_T4(when, tmp_path, autojump_clock):
    """A voter who is disconnected when the court opens (``before``), or disconnects while
    it sits (``during``), abstains at once: the verdict comes without waiting for the
    vote deadline, and the game's log (with its ``abstain`` record) verifies. (Over
    in-memory streams: the virtual clock cannot reach the vote deadline while the news of
    the closed connection is in flight.)"""
    async with serve(seeds=f"court-away-{when}", logs=tmp_path, memory=True) as (server, listener):
        clients = await open_table(listener, 4)
        runner = server.lobby.tables[clients[0].table]
        vote_timeout = runner.options["vote_timeout"]
        x = runner.table.to_act()[0]
        y = (x + 1) % 4
        away, voter = (x + 2) % 4, (x + 3) % 4
        await act(clients, x, {"type": "draw"})
        await clients[x].receive(lambda m: m["type"] == "turn")
        game = runner.table.game
        cheat = next(a for a in game.actions(x) if game.check(x, a))
        assert (await clients[x].request({"type": "act", "action": game.action_data(cheat)}))["type"] == "ok"
        await clients[y].receive(is_event("window"))
        if when == "before":
            await clients[away].aclose()
            await clients[y].receive(lambda m: m["type"] == "event" and m["event"] == {
                "type": "seat", "seat": away, "state": "away"})
        assert (await clients[y].request({"type": "call"}))["type"] == "ok"
        court = (await clients[voter].receive(is_event("court")))["event"]
        opened = trio.current_time()
        assert sorted(court["voters"]) == sorted([away, voter])
        assert (await clients[voter].request({"type": "vote", "guilty": True}))["type"] == "ok"
        if when == "during":
            await clients[away].aclose()
        verdict = (await clients[x].receive(is_event("verdict")))["event"]
        assert trio.current_time() - opened < vote_timeout / 10  # no wait for the deadline
        assert verdict["outcome"] == "guilty" and (verdict["pidor"], verdict["clean"]) == (2, 0)
        seen = [m["event"] for m in clients[x].messages if m["type"] == "event"]
        assert {"type": "abstain", "seat": away} in seen
        assert seen.index({"type": "abstain", "seat": away}) < seen.index(verdict)
        path = runner.game_log.path
        await server.shutdown()
        log = read_log(path)
        abstains = [r for r in log.records if r["kind"] == "abstain"]
        assert [r["seat"] for r in abstains] == [away]
        report = verify(log)
        assert report.status == "verified" and report.notes == ["aborted: shutdown"], report


async def test_a_vote_decided_before_the_court_is_stale_and_says_why_T4(autojump_clock):
    """Issue 21 item 9: a vote that names a seq from before the sitting court (the court
    event's seq, or a later one, is what a voter saw) is refused as stale, changes
    nothing, and its message says the court sits and the vote came from before it (it
    used to say that court "has given its verdict"); the same voter's vote from the court
    event counts."""
    async with serve(seeds="court-stale") as (server, port):
        clients = await open_table(port, 3)
        x, y, violations, court, cheat = await cheat_and_call(server, clients)
        voter = next(c for c in clients if c.seat not in (x, y))
        seen = (await voter.receive(is_event("court")))["seq"]
        runner = server.lobby.tables[voter.table]
        r = await voter.request({"type": "vote", "guilty": True, "seq": seen - 1})
        assert r["code"] == "stale" and runner.table.court is not None and runner.table.court.votes == {}
        assert f"the sitting court opened at event {seen}, after the event {seen - 1}" in r["message"]
        assert "verdict" not in r["message"]
        r = await voter.request({"type": "vote", "guilty": True, "seq": seen})
        assert r["type"] == "ok"
