"""``pidor match --keep-policies`` (issue 30: cheating that knows its table): each
in-process entrant's policy object plays all its games, told of each new one
(``Policy.new_game``: its seat, its seed, T10), so it may learn between them; the heuristic
learns who calls."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pidor.match import run_match
from pidor.match.command import match

COUNTER = '''
from pidor.bots import RandomBot

class Counter(RandomBot):
    made = []      # every object made
    games = []     # (object, seat, seed) of each new_game

    def __init__(self, seat, seed=b"", **params):
        super().__init__(seat, seed, **params)
        Counter.made.append(self)

    def new_game(self, seat, seed):
        super().new_game(seat, seed)
        Counter.games.append((self, seat, seed))
'''


@pytest.fixture
def counter(tmp_path, monkeypatch):
    (tmp_path / "keep_counter.py").write_text(COUNTER)
    monkeypatch.syspath_prepend(str(tmp_path))
    import keep_counter

    keep_counter.Counter.made.clear()
    keep_counter.Counter.games.clear()
    return keep_counter.Counter


def test_a_kept_policy_plays_every_game_of_its_entrant_seeded_afresh_each(counter):
    specs = ["py:keep_counter:Counter", "builtin:random"]
    fresh = run_match("podkidnoy", 2, 6, seed="keep", specs=specs, rotate=True)
    assert len(counter.made) == 6 and counter.games == []  # a new policy a game
    counter.made.clear()
    kept = run_match("podkidnoy", 2, 6, seed="keep", specs=specs, rotate=True, keep_policies=True)
    assert len(counter.made) == 1  # one object, then told of each new game
    seats = [r["seating"].index("py:keep_counter:Counter") for r in kept.records[1:]]
    assert [seat for _, seat, _ in counter.games] == seats
    assert {seat for _, seat, _ in counter.games} == {0, 1}  # (rotated: it changed seats)
    assert len({seed for _, _, seed in counter.games}) == 5  # each game's own seed (T10)
    # A policy with nothing to learn plays the same games either way: its draws start again
    # from each game's seed.
    assert [(r["loser"], r["actions"]) for r in kept.records] == [(r["loser"], r["actions"]) for r in fresh.records]


@pytest.mark.slow
def test_the_heuristic_learns_across_a_match_to_stop_cheating_where_it_is_called():
    """Against honest heuristics that call nine cheats in ten, the heuristic afresh each game
    cheats again each game (its prior says a call is unlikely) and is convicted; kept for
    the match it learns from its first convictions."""
    specs = ["builtin:heuristic"] + ["builtin:heuristic:cheat=0,attention=0.9"] * 3

    def cheats(keep: bool) -> int:
        r = run_match("podkidnoy", 4, 40, seed="learn", specs=specs, keep_policies=keep)
        return sum(rec["cheats"][0] for rec in r.records)

    fresh, kept = cheats(False), cheats(True)
    assert fresh >= 20 and kept * 2 < fresh, (fresh, kept)


def test_keep_policies_with_a_program_at_the_server_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(match, ["--players", "2", "--games", "1", "--keep-policies", "--seat", "cmd:./bot",
                                   "--seat", "builtin:random"])
    assert r.exit_code == 2 and "--keep-policies keeps in-process policies" in r.output, r.output
