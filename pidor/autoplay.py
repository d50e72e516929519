"""Play a started game to its end in-process, with no clock (T3: bots answer at once).

Used by scripted matches, benchmarks and tests. The :class:`~pidor.driver.Driver` makes
every move; when no bot acts, the game's clock is run out at once (durak's «бито», D5).
Every decision comes from the bots' own seeded RNGs and the driver's ``Rng``, so the same
seeds give the same game (T10).
"""

from __future__ import annotations

from typing import Callable, Sequence

from .driver import Driver, Policy
from .engine.game import Event
from .engine.seeds import Rng

__all__ = ["play_game", "GameTooLong"]


class GameTooLong(RuntimeError):
    """A game did not end within the step bound (a bug: every game must end)."""


def play_game(
    table,
    bots: Sequence[Policy],
    rng: Rng,
    *,
    max_steps: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
) -> int:
    """Play the started game at ``table`` (a Table, or a Recorder to log it) to its end;
    returns the number of game actions. ``bots[seat]`` is the seat's policy;
    ``on_events`` receives the events of every table call (for logs and statistics).
    ``max_steps`` bounds the table calls (a long game makes about 12,000: six players
    who cheat, call and vote a lot, 52 cards)."""
    driver = Driver(table, bots, rng)
    step = driver.step
    steps = 0
    while not table.finished:
        steps += 1
        if steps > max_steps:
            raise GameTooLong(f"no result after {max_steps} steps")
        events = step()
        if events is None:  # nobody acts: let the game's clock run out (e.g. «бито», D5)
            deadline = table.deadline()
            if deadline is None:
                raise GameTooLong(f"stuck: seats {table.to_act()} have no action and no clock runs")
            events = table.tick(deadline)
        if on_events is not None:
            on_events(events)
    return driver.actions
