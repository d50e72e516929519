"""The heuristic's judgement at the table (T6): how it weighs a cheat against the chance
of a call; every game's own play is tested in its folder (``pidor/games/*/tests``)."""

from __future__ import annotations

from pidor.bots.heuristic.judgement import CallRates, caught, worth_cheating

# --- judgement (T6) ---------------------------------------------------------------------------------


def test_call_rates_follow_the_evidence_and_the_cost_deters():
    rates = CallRates(3)
    before = caught(rates, 0, [0, 1, 2])
    for _ in range(10):  # seat 0 cheats; seat 1 always calls, seat 2 never
        rates.see({"type": "window", "seat": 0, "owing": [1, 2]}, my_cheat=True)
        rates.see({"type": "call", "caller": 1, "accused": 0, "action": {}})
        rates.see({"type": "window", "seat": 0, "owing": [2]}, my_cheat=True)
        rates.see({"type": "window_closed", "seat": 0})
    assert rates.rate(1) > 0.8 and rates.rate(2) < 0.05
    assert caught(rates, 0, [0, 2]) < before < caught(rates, 0, [0, 1, 2])
    assert worth_cheating(2.0, 1.3, 0.05, 0.5, 0.5) and not worth_cheating(2.0, 1.3, 0.9, 0.5, 0.5)
    assert worth_cheating(2.0, 1.3, 0.9, 1.0, 0.5)  # reckless
    assert not worth_cheating(5.0, 0.0, 0.0, 0.0, 1.0)  # honest


