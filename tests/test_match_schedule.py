"""The match schedule (issue 9 item 3): rotation gives every entrant every seat equally often
on the same deals; a round robin of more entrants than seats makes every pair meet equally
often; the schedule does not depend on anything but the entrants, seats and games."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pidor.match.schedule import block_size, schedule


@pytest.mark.parametrize("entrants,players", [(4, 4), (3, 3), (2, 2), (6, 6)])
def test_rotation_gives_every_entrant_every_seat_equally_often_on_each_deal(entrants, players):
    games = schedule(entrants, players, 3 * players, rotate=True)
    assert [g.index for g in games] == list(range(3 * players))
    for deal in range(3):
        block = [g for g in games if g.deal == deal]
        assert len(block) == players
        for seat in range(players):  # each seat is held once by each entrant on this deal
            assert sorted(g.seating[seat] for g in block) == list(range(entrants))
    held = Counter((e, s) for g in games for s, e in enumerate(g.seating))
    assert set(held.values()) == {3}


def test_round_robin_every_pair_meets_equally_often_and_rotates():
    games = schedule(6, 4, 2 * 15 * 4, rotate=True)
    assert block_size(6, 4, True) == 60
    pairs = Counter(p for g in games for p in combinations(sorted(g.seating), 2))
    assert set(pairs) == set(combinations(range(6), 2))
    assert set(pairs.values()) == {2 * 6 * 4}  # C(4, 2) = 6 tables hold a pair, × 4 rotations × 2 rounds
    held = Counter((e, s) for g in games for s, e in enumerate(g.seating))
    assert len(held) == 6 * 4 and len(set(held.values())) == 1
    # Without rotation: the same pairs, each table once a round.
    plain = schedule(5, 3, 20)
    assert Counter(p for g in plain for p in combinations(sorted(g.seating), 2)).most_common()[-1][1] == 6
    assert [g.deal for g in plain] == [d for d in range(2) for _ in range(10)]


def test_plain_schedule_and_errors():
    assert schedule(3, 3, 2) == [(0, 0, (0, 1, 2)), (1, 1, (0, 1, 2))]
    assert schedule(4, 4, 0, rotate=True) == []
    with pytest.raises(ValueError, match="multiple of 4 .*e.g. 4 or 8, not 5"):
        schedule(4, 4, 5, rotate=True)
    with pytest.raises(ValueError, match="2 entrants for 3 seats"):
        schedule(2, 3, 1)
    with pytest.raises(ValueError, match="take fewer entrants"):
        schedule(40, 6, 1)
