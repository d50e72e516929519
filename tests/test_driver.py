"""The one bot driver: what a policy's answers mean, and who is awaited.

A seat without a policy (a person at the server) is awaited in every phase; a vote of
``None`` abstains (T4); a policy's ``auto`` reaches the log with its actions (T9); the
driver's Rng alone decides which of several seats that may act moves first (D3, T10); a
budget splits the play without changing it. And the server's stand-in of an away player
is a policy like any other."""

from __future__ import annotations

import io

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.reader import read_log
from pidor.gamelog.record import Recorder
from pidor.server.drive import AwayStandIn


class Caller(RandomBot):
    """Calls every action."""

    def call(self, obs) -> bool:
        return True


def test_a_seat_without_a_policy_is_awaited_in_every_phase():
    """Seat 2 has no policy: once only he is awaited, the driver makes no call and
    changes nothing; whatever he owes stays owed."""
    t = Table({"game": "pidor", "players": 4})
    t.start(seed=b"awaited")
    bots = [RandomBot(s, b"a", cheat=0.5, attention=0.5) for s in range(4)]
    driver = Driver(t, [bots[0], bots[1], None, bots[3]], Rng(b"awaited", b"driver"))
    seen = set()
    for _ in range(5000):
        driver.play()
        before = t.to_data()
        assert driver.play() == 0 and t.to_data() == before
        if t.over:
            break
        if t.court is not None:
            assert t.waiting_votes() == [2]
            seen.add("court")
            driver.feed(t.vote(2, True))
        elif t.window is not None:
            assert t.waiting_answers() == [2]
            seen.add("window")
            driver.feed(t.answer(2, False))
        else:
            assert t.to_act() == [2]
            seen.add("turn")
            driver.feed(t.act(2, t.game.honest_actions(2)[0]))
    assert t.over and seen == {"court", "window", "turn"}


class Absent(RandomBot):
    """Plays for a player who is away (T9): abstains, and its actions are logged so."""

    auto = "absent"

    def vote(self, obs) -> None:
        return None


def test_a_vote_of_none_abstains_and_auto_reaches_the_log():
    t = Table({"game": "pidor", "players": 4})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(32))
    rec.start()
    policies = [Caller(0, b"l", cheat=0.5), RandomBot(1, b"l", cheat=0.5), Absent(2, b"l"), RandomBot(3, b"l")]
    play_game(rec, policies, Rng(b"l", b"driver"))
    rec.close()
    records = read_log(buf.getvalue()).records
    acts = [r for r in records if r["kind"] == "act"]
    assert {r["seat"] for r in acts if r.get("auto") == "absent"} == {2}
    assert all("auto" not in r for r in acts if r["seat"] != 2)
    abstains = [r for r in records if r["kind"] == "abstain"]
    assert abstains and {r["seat"] for r in abstains} == {2}
    assert not any(r["kind"] == "vote" and r["seat"] == 2 for r in records)


def test_the_drivers_rng_alone_orders_seats_that_may_act_at_once():
    """Durak: several seats may throw in at once (D3). The same bots with another driver
    seed play another game; the same seeds play the same one (T10)."""

    def game(driver_seed: bytes) -> list:
        t = Table({"game": "podkidnoy", "players": 4})
        t.start(seed=b"order")
        events = []
        play_game(t, [RandomBot(s, b"order") for s in range(4)], Rng(driver_seed, b"driver"), on_events=events.extend)
        return events

    assert game(b"one") == game(b"one")
    assert game(b"one") != game(b"two")


def test_a_budget_splits_the_play_without_changing_it():
    """The server lets the driver make at most ``CYCLE_BUDGET`` calls per cycle: however
    the play is split, the same calls come in the same order, each one counted."""

    def game(budget: int) -> list:
        t = Table({"game": "perevodnoy", "players": 5})
        t.start(seed=b"budget")
        events: list = []
        bots = [RandomBot(s, b"budget", cheat=0.3, attention=0.5, false_call=0.1, acquit=0.3) for s in range(5)]
        driver = Driver(t, bots, Rng(b"budget", b"driver"), on_events=events.append)
        while not t.over:
            made = len(events)
            calls = driver.play(budget=budget)
            assert calls == len(events) - made and calls <= budget
            if calls < budget and not t.over:  # nobody acts: the «бито» clock runs out
                events.append(t.tick(t.deadline()))
                driver.feed(events[-1])
        return events

    whole = game(10 ** 6)
    assert any(e["type"] == "court" for batch in whole for e in batch)
    assert game(1) == whole and game(7) == whole


def test_an_away_players_stand_in_passes_abstains_and_says_bito_only_when_not_obliged():
    """T9/T4/D5: seat 1's player is away. His stand-in never calls, abstains in every
    court, says «бито» at once when the game does not wait on him, and leaves what he
    owes to his turn clock (here it runs out at once, not after AWAY_TURN). Games are
    played until one had a court where he votes (abstains)."""
    kinds: set[str] = set()
    absent = False
    for k in range(20):
        t = Table({"game": "podkidnoy", "players": 4})
        buf = io.BytesIO()
        rec = Recorder(t, buf, server_seed=bytes([k]) * 32)
        rec.start()
        bots = [RandomBot(s, b"away%d" % k, cheat=0.3, attention=0.7) for s in range(4)]
        driver = Driver(rec, [bots[0], AwayStandIn(1), bots[2], bots[3]], Rng(b"away", b"driver"))
        clock = RandomBot(1, b"turn clock")
        turns = 0
        for _ in range(10_000):
            driver.play()
            if t.over:
                break
            if 1 in t.to_act() and 1 in t.game.obliged():
                turns += 1
                driver.feed(rec.act(1, driver.decide(1, clock), auto="timeout"))
            else:
                driver.feed(rec.tick(t.deadline()))
        rec.close()
        records = read_log(buf.getvalue()).records
        mine = [r for r in records if r.get("seat") == 1]
        assert t.over and turns
        assert {r["kind"] for r in mine} <= {"act", "abstain"}  # never a call, never a vote
        assert all(r["action"] == {"type": "bito"} for r in mine if r.get("auto") == "absent")
        kinds |= {r["kind"] for r in mine}
        absent = absent or any(r.get("auto") == "absent" for r in mine)
        if "abstain" in kinds and absent:
            break
    assert kinds == {"act", "abstain"} and absent
    assert any(1 in r["passed"]["seats"] for r in records if "passed" in r)  # he passes, never calls
