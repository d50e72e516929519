"""Drive a table whose seats are in-process bots until its game ends (no clock, T3).

Used by scripted matches, benchmarks and tests. Every decision comes from the bots'
own seeded RNGs and the driver's ``Rng`` (which of several seats that may act at once
moves first, in durak), so the same seeds give the same game (T10).
"""

from __future__ import annotations

from typing import Callable

from .engine.game import Event
from .engine.seeds import Rng
from .engine.table import Table

__all__ = ["play_game", "GameTooLong"]


class GameTooLong(RuntimeError):
    """A game did not end within the step bound (a bug: every game must end)."""


def play_game(
    table: Table,
    bots: list,
    rng: Rng,
    *,
    max_steps: int = 20000,
    on_events: Callable[[list[Event]], None] | None = None,
) -> int:
    """Play the started game at ``table`` to its end; returns the number of game actions.

    ``bots[seat]`` has ``choose_action(table)``, ``answer(table)`` and ``vote(table)``.
    ``on_events`` receives every batch of events (for logs and statistics).
    """
    actions = 0
    steps = 0
    emit = on_events or (lambda events: None)
    while not table.over:
        steps += 1
        if steps > max_steps:
            raise GameTooLong(f"no result after {max_steps} steps")
        if table.court is not None:
            for seat in table.waiting_votes():
                emit(table.vote(seat, bots[seat].vote(table)))
            continue
        if table.window is not None:
            for seat in table.waiting_answers():
                if table.window is None:
                    break
                emit(table.answer(seat, bots[seat].answer(table)))
            continue
        seats = table.to_act()
        k = rng.below(len(seats)) if len(seats) > 1 else 0
        for seat in seats[k:] + seats[:k]:
            action = bots[seat].choose_action(table)
            if action is not None:
                emit(table.act(seat, action))
                actions += 1
                break
        else:
            # Nobody wants to act: let the game's clock run out (e.g. durak's «бито», D5).
            if table.timer is None:
                raise GameTooLong(f"stuck: seats {seats} have no action and no clock runs")
            emit(table.tick(table.timer.deadline if table.timer.deadline is not None else 0.0))
    return actions
