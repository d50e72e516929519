"""Issue 30: honest ``ismcts`` heads-up in durak searches ``HEADS_UP`` times its budget
(``Tactics.budget``), and it leaves a solved endgame (deck empty or holding only the trump
card, D1) to the exact search."""

from __future__ import annotations

import pytest

from pidor.bots.ismcts import IsmctsPolicy
from pidor.games.durak.bots import HEADS_UP
from pidor.match import run_match


@pytest.fixture
def searches(monkeypatch):
    """Every search of the match: (players at the table, players left, iterations it ran)."""
    found: list[tuple[int, int, int]] = []
    search, iterate = IsmctsPolicy._search, IsmctsPolicy._iterate
    runs: list[int] = []

    def counted_iterate(self, *args):
        runs[-1] += 1
        return iterate(self, *args)

    def counted_search(self, obs, view, *args):
        runs.append(0)
        try:
            return search(self, obs, view, *args)
        finally:
            found.append((view["players"], view["players"] - len(view["out"]), runs.pop()))

    monkeypatch.setattr(IsmctsPolicy, "_iterate", counted_iterate)
    monkeypatch.setattr(IsmctsPolicy, "_search", counted_search)
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_searches_deeper_at_a_two_player_table(searches, players):
    """Heads-up every search runs ``HEADS_UP`` times the iterations; in a 4-player game the
    plain budget, also once two are left (the 4-player figures stand as measured)."""
    specs = ["builtin:ismcts:cheat=0,iterations=5,steps=0"] + ["builtin:greedy"] * (players - 1)
    run_match("podkidnoy", players, 4, seed="b2", specs=specs)
    assert {n for n, _, _ in searches} == {players}
    if players == 4:
        assert 2 in {left for _, left, _ in searches}  # (the case the rule leaves plain was met)
    for n, _, runs in searches:  # (steps=0: no step limit, the iterations decide)
        assert runs == (5 * HEADS_UP if n == 2 else 5)


@pytest.mark.slow
def test_ismcts_leaves_a_won_endgame_to_the_exact_search(monkeypatch):
    """Heads-up with the deck empty or only the trump card under it (D1), a position the
    exact endgame solved as won or drawn is played as it says: no search."""
    from pidor.games.durak.bots import DurakTactics

    decisions: list[dict] = []  # each act of the ismcts seat: the deck, solved won or drawn, searched
    act, choice, search = IsmctsPolicy.act, DurakTactics.choice, IsmctsPolicy._search

    def seen_act(self, obs):
        decisions.append({"deck": None, "won": False, "searched": False})
        return act(self, obs)

    def seen_choice(self, view, honest):
        out = choice(self, view, honest)
        if decisions:
            decisions[-1].update(deck=view["deck"], won=self._solved is not None and self._solved[1] >= 0)
        return out

    def seen_search(self, obs, view, *args):
        decisions[-1]["searched"] = True
        return search(self, obs, view, *args)

    monkeypatch.setattr(IsmctsPolicy, "act", seen_act)
    monkeypatch.setattr(DurakTactics, "choice", seen_choice)
    monkeypatch.setattr(IsmctsPolicy, "_search", seen_search)
    run_match("podkidnoy", 2, 4, seed="endgame", specs=["builtin:ismcts:cheat=0,iterations=5", "builtin:greedy"])
    won = [d for d in decisions if d["won"]]
    # (with the trump card still under the deck the endgame is solved too where it is
    # shallow enough, NODES; in these games it was deeper every time)
    decks = {d["deck"] for d in won}
    assert 0 in decks and decks <= {0, 1}
    assert not any(d["searched"] for d in won)
    assert any(d["searched"] for d in decisions)  # (elsewhere it searches)
