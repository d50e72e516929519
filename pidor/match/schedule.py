"""Which entrants sit where in each game of a match, and on which deal.

A match is a list of :class:`Game` s, fixed by the entrants, the seats and ``--rotate``
before anything is played; workers play them in any order and the summary takes them by
``index``, so the schedule and the deals do not depend on how many run at once.

Games come in **blocks**; every game of block ``b`` is played on deal ``b`` (the same cards:
duplicate deals):

* the **tables** of a block: with as many entrants as seats, the one table of them all, in
  the order given; with more, every choice of ``players`` entrants (all combinations, in
  lexicographic order: round robin), so that every pair of entrants meets in
  ``C(E - 2, n - 2)`` of the ``C(E, n)`` tables, equally often;
* with ``rotate``, each table is played once per rotation of its seats: in rotation ``r``
  seat ``s`` holds the table's entrant ``(s + r) mod n``, so every entrant of a table holds
  every seat once, with the same cards.

``games`` must be a whole number of blocks (a cut block would not be fair).
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import NamedTuple

__all__ = ["Game", "block_size", "schedule"]

#: The most games one block may hold (C(E, n) tables × n rotations).
MAX_BLOCK = 100_000


class Game(NamedTuple):
    index: int  # 0-based, the game's place in the match (its seeds and its log's name)
    deal: int  # 0-based: games on the same deal get the same cards
    seating: tuple[int, ...]  # the entrant (an index into the entrants) of each seat


def block_size(entrants: int, players: int, rotate: bool) -> int:
    """Games in one block: one per table, times ``players`` with ``rotate``."""
    if entrants < players:
        raise ValueError(f"{entrants} entrants for {players} seats: every seat needs one")
    return comb(entrants, players) * (players if rotate else 1)


def schedule(entrants: int, players: int, games: int, rotate: bool = False) -> list[Game]:
    """The match's games, in index order. ``ValueError`` when ``games`` is not a whole
    number of blocks or a block is too big."""
    size = block_size(entrants, players, rotate)
    if size > MAX_BLOCK:
        raise ValueError(f"{entrants} entrants for {players} seats make {size} games a round; at most "
                         f"{MAX_BLOCK}: take fewer entrants")
    if games % size:
        near = [k for k in (games - games % size, games - games % size + size) if k]
        raise ValueError(f"--games must be a multiple of {size} (the games of one round: "
                         f"{comb(entrants, players)} tables{f' × {players} rotations' if rotate else ''}), "
                         f"e.g. {' or '.join(map(str, near))}, not {games}")
    block: list[tuple[int, ...]] = []
    for table in combinations(range(entrants), players):
        shifts = range(players) if rotate else (0,)
        block += [tuple(table[(s + r) % players] for s in range(players)) for r in shifts]
    return [Game(b * size + k, b, seating) for b in range(games // size) for k, seating in enumerate(block)]
