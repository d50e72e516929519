"""The engine's fast paths for a table of bots (issue 29, goal 3) change nothing: the
driver's uniform pick plays the game ``RandomBot.act`` plays (the same draws from the same
stream, T10), an action with its window's passes in one call (T3) gives the events and the
state of the two calls, a Recorder logs it as it logged them, and T13's positions see a hand
changed from outside the engine."""

from __future__ import annotations

import io

import pytest

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.record import Recorder


class Asked(RandomBot):
    """RandomBot's own act, asked every time (a subclass: no uniform pick)."""

    def act(self, obs):
        return super().act(obs)


class Wrapped:
    """A table behind a wrapper that hands every other name on (as the conformance test's
    does): its ``act`` takes no ``passed``, so the driver must not give it one."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __getattr__(self, name: str):
        return getattr(self.table, name)

    def act(self, seat, action, now=0.0, honest=False):
        return self.table.act(seat, action, now, honest=honest)


def _game(game: str, bots, wrap=lambda t: t) -> tuple[list, dict]:
    t = Table({"game": game, "players": 4})
    t.start(seed=b"fast")
    events: list = []
    play_game(wrap(t), bots, Rng(b"fast", b"driver"), on_events=events.extend)
    return events, t.to_data()


@pytest.mark.parametrize("game", ["pidor", "podkidnoy"])
def test_the_uniform_pick_plays_the_game_random_bot_act_plays(game):
    assert RandomBot(0, b"s").uniform_pick() is not None
    assert Asked(0, b"s").uniform_pick() is None and RandomBot(0, b"s", cheat=0.1).uniform_pick() is None
    fast = _game(game, [RandomBot(s, b"fast") for s in range(4)])
    asked = _game(game, [Asked(s, b"fast") for s in range(4)])
    assert fast == asked


def test_a_wrapper_without_passed_gets_separate_passes():
    events, data = _game("pidor", [RandomBot(s, b"fast") for s in range(4)], Wrapped)
    assert (events, data) == _game("pidor", [RandomBot(s, b"fast") for s in range(4)])


def test_an_action_with_its_passes_in_one_call_is_the_two_calls():
    """T3: the same events, in order, and the same state as act, then everyone's pass."""
    tables = []
    for _ in range(2):
        t = Table({"game": "pidor", "players": 4})
        t.start(seed=b"one call")
        tables.append(t)
    one, two = tables
    bots = [RandomBot(s, b"one call") for s in range(4)]
    steps = 0
    while not one.over and steps < 400:
        seat = one.to_act()[0]
        options = one.game.honest_actions(seat)
        action = options[bots[seat].rng.below(len(options))]
        got = one.act(seat, action, honest=True, passed=True)
        want = two.act(seat, action, honest=True)
        if two.window is not None:
            want += two.passes(two.waiting_answers())
        assert got == want
        assert one.to_data() == two.to_data()
        steps += 1
    assert steps > 100


def test_a_recorder_logs_an_action_with_its_passes_as_the_two_calls():
    logs = []
    for fused in (True, False):
        t = Table({"game": "pidor", "players": 4})
        out = io.BytesIO()
        rec = Recorder(t, out, server_seed=b"\x01" * 32)
        rec.start()
        for _ in range(60):
            seat = t.to_act()[0]
            action = t.game.honest_actions(seat)[0]
            if fused:
                rec.act(seat, action, honest=True, passed=True)
            else:
                rec.act(seat, action, honest=True)
                if t.window is not None:
                    rec.passes(t.waiting_answers())
        logs.append(out.getvalue())
    assert len(logs[0]) > 5000 and logs[0] == logs[1]


def test_a_hand_changed_from_outside_is_a_new_position():
    """T13: a position shows each hand as a set, whoever changed it (a belief swaps cards
    in place): the kept sorted copy is not trusted."""
    t = Table({"game": "pidor", "players": 4})
    t.start(seed=b"positions")
    driver = Driver(t, [RandomBot(s, b"p") for s in range(4)], Rng(b"p", b"driver"))
    while t.game.phase != "tricks":
        driver.play(0.0, 1)
    g = t.game
    before = g.position()
    hands = g.hands
    a, b = next((s, u) for s in range(4) for u in range(4) if s != u and hands[s] and hands[u])
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]  # a swap in place: same sizes
    after = g.position()
    assert after != before
    assert after[1] == tuple(tuple(sorted(h)) for h in hands)
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    assert g.position() == before
