"""«Пьяница»'s bots: greedy is honest and silent; everything the heuristic adds is махлёж
(W5), made when the table's calls make it pay. The figures come from scripts/bench_bots.py
(the folder's GOALS); these are the decisions behind them, on fixed deals."""

from __future__ import annotations

from test_drunkard_rules import flip, new, table_of

from pidor.autoplay import play_game
from pidor.bots import make_policy
from pidor.bots.heuristic.judgement import CallRates
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.match import run_match


def _events(specs: list[str], seed: bytes, games: int = 1) -> list[dict]:
    events: list[dict] = []
    t = Table({"game": "drunkard"})
    bots = [make_policy(spec, s, seed) for s, spec in enumerate(specs)]
    for k in range(games):
        t.start(seed=seed + b" %d" % k)
        play_game(t, bots, Rng(seed, b"%d" % k), on_events=events.extend)
    return events


def cheats_of(events: list[dict], seat: int) -> list[list[str]]:
    return [e["_violations"] for e in events if e["type"] == "action" and e["seat"] == seat and e["_violations"]]


def test_greedy_never_cheats_and_never_calls():
    events = _events(["builtin:greedy", "builtin:random:cheat=0.3"], b"greedy", games=3)
    assert not cheats_of(events, 0) and cheats_of(events, 1)
    assert not [e for e in events if e["type"] == "call" and e["caller"] == 0]


def test_the_heuristic_cheats_at_a_table_that_never_calls_W5g_W5b():
    """It grabs battles it lost (W5g) and pulls known winners out of its deck (W5b)."""
    events = _events(["builtin:heuristic", "builtin:greedy"], b"grab", games=2)
    cheats = cheats_of(events, 0)
    assert sum("W5g" in c for c in cheats) > 5 and sum("W5b" in c for c in cheats) > 5
    results = [e["result"] for e in events if e["type"] == "game_over"]
    assert [r["loser"] for r in results] == [1, 1]


def test_the_heuristic_stops_cheating_at_a_table_that_calls():
    """Against an opponent who calls every cheat he sees, the first cheats are called and
    paid for (T14); then the chance of a call is above its risk and it plays honestly."""
    events = _events(["builtin:heuristic", "builtin:random:attention=1"], b"attentive", games=3)
    cheats = cheats_of(events, 0)
    calls = [e for e in events if e["type"] == "call" and e["caller"] == 1]
    assert 1 <= len(cheats) <= 5 and len(calls) == len(cheats)
    verdicts = [e["outcome"] for e in events if e["type"] == "verdict"]
    assert verdicts == ["guilty"] * len(cheats)  # (the caller's vote alone: a table of two, T4)


def _heuristic(game, seat: int = 0, calls: float = 0.0):
    """The heuristic at ``seat`` of a table playing ``game``, having seen its opponent call
    ``calls`` of 20 cheats; its observation."""
    t = table_of(game)
    policy = make_policy("builtin:heuristic", seat, b"h")
    policy.rates = CallRates(2)
    policy.rates.chances[1 - seat], policy.rates.calls[1 - seat] = 20, round(20 * calls)
    driver = Driver(t, [policy if s == seat else None for s in range(2)], Rng(b"h", b"driver"))
    return policy, driver.observation(seat)


def test_the_heuristic_pulls_a_known_card_that_beats_the_one_on_the_table_W5b():
    g = new("9h 6c 7c Ah", "Ks", first=1, known="Ah")
    flip(g, 1)  # the opponent's king is on the table; under its unknown top card lies its ace
    policy, obs = _heuristic(g)
    assert policy.act(obs) == {"type": "flip", "index": 3}
    policy, obs = _heuristic(g, calls=0.9)  # a table that calls: the top card, honestly
    assert policy.act(obs) == {"type": "flip", "index": 0}


def test_the_heuristic_lays_a_winner_on_top_against_a_known_card_W5t():
    g = new("Kh 6d", "8s Qc", known="Qc")
    g.decks[1] = g.decks[1][:1] + g.decks[1][2:] + g.decks[1][1:2]  # its Q♣ at the bottom, known
    flip(g, 0)
    flip(g, 1)  # K♥ beats 8♠
    g.decks[1].insert(0, g.decks[1].pop())  # (the Q♣ is the opponent's next card, and everybody knows it)
    policy, obs = _heuristic(g)
    assert policy.act(obs) == {"type": "top", "cards": ["Kh", "8s"]}


def test_heads_up_the_heuristic_beats_greedy_and_cheating_pays_where_nobody_calls():
    r = run_match("drunkard", 2, 20, seed="smoke", specs=["builtin:heuristic", "builtin:greedy"])
    assert sum(rec["loser"] == 1 for rec in r.records) >= 18
