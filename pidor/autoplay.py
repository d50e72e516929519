"""Play a started game to its end in-process, with no clock (T3: bots answer at once).

Used by scripted matches, benchmarks and tests. The :class:`~pidor.driver.Driver` makes
every move; when no bot acts, the game's clock is run out at once (durak's «бито», D5).
Every decision comes from the bots' own seeded RNGs and the driver's ``Rng``, so the same
seeds give the same game (T10).
"""

from __future__ import annotations

import gc
from typing import Callable, Sequence

from .bots.policy import Policy
from .driver import Driver
from .engine.game import Event
from .engine.seeds import Rng

__all__ = ["play_game", "GameTooLong"]


class GameTooLong(RuntimeError):
    """A game did not end within its bound of table calls (a bug: every game must end)."""


def play_game(
    table,
    bots: Sequence[Policy],
    rng: Rng,
    *,
    max_calls: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
    started: Sequence[Event] = (),
) -> int:
    """Play the started game at ``table`` (a Table, or a Recorder to log it) to its end;
    returns the number of game actions. ``bots[seat]`` is the seat's policy;
    ``on_events`` receives the events of every table call (for logs and statistics);
    ``started``: the events that started the game (the seats' knowledge begins with them).
    ``max_calls`` bounds the table calls, ticks included (a long game makes about
    12,000: six players who cheat, call and vote a lot, 52 cards)."""
    driver = Driver(table, bots, rng, on_events, started=started)
    if driver.plain and gc.isenabled():
        # A table of bots that pick uniformly and never call makes no reference cycles (only
        # the engine allocates: events, lists, tuples): the cyclic collector would only walk
        # the game's objects again and again (about 5% of the game's time).
        gc.disable()
        try:
            return _play(driver, table, on_events, max_calls)
        finally:
            gc.enable()
    return _play(driver, table, on_events, max_calls)


def _play(driver: Driver, table, on_events: Callable[[list[Event]], None] | None, max_calls: int) -> int:
    calls = 0
    while True:
        calls += driver.play(0.0, max_calls - calls)
        if table.over:
            return driver.actions
        if calls >= max_calls:
            raise GameTooLong(f"no result after {max_calls} table calls")
        # Nobody acts: let the game's clock run out (e.g. durak's «бито», D5).
        deadline = table.deadline()
        if deadline is None:
            raise GameTooLong(f"stuck: seats {table.to_act()} have no action and no clock runs")
        events = table.tick(deadline)
        calls += 1
        driver.feed(events)
        if on_events is not None:
            on_events(events)
