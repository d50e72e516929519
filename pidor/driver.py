"""The one bot driver: policies play a table's seats, one table call at a time.

Every place where bots play goes through :class:`Driver`: in-process games
(:func:`pidor.autoplay.play_game`: matches, benchmarks, tests), the server's table task
(bot seats, and the stand-ins of away or departed players) and the conformance tests. A
new kind of bot plugs in here, as a :class:`Policy`, and plays everywhere at once.

The driver calls the table it is given: a :class:`~pidor.engine.table.Table`, a
:class:`~pidor.gamelog.record.Recorder` in front of one (every call is logged), or any
object with their surface (``act``, ``answer``, ``vote``, ``abstain``, ``to_act``,
``waiting_answers``, ``waiting_votes``, ``window``, ``court``; :func:`play_game` also uses
``over``, ``deadline`` and ``tick``). A policy with an ``auto`` attribute (a stand-in that
plays for an absent person) needs a target whose ``act`` takes ``auto`` for the log: a
Recorder or the server's table, not a bare Table.
It never runs a clock: when no policy has anything to do, :meth:`Driver.play` returns and
its caller ticks the table (in-process) or waits for persons and clocks (the server).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Protocol, Sequence

from .engine.game import Action, Event
from .engine.seeds import Rng

__all__ = ["Policy", "Driver"]


class Policy(Protocol):
    """One seat's decisions. ``table`` is the table as the driver has it (today policies
    read the game through it; nothing a fair policy decides with may come from another
    seat's hidden state). What each method returns means the same everywhere.

    A policy may also have an ``auto`` attribute: the log's ``auto`` for its actions (T9:
    ``"absent"`` when it plays for a player who is away or gone); without one, its actions
    are the seat's own.
    """

    def choose_action(self, table: Any) -> Action | None:
        """The seat's game action now, or ``None`` to wait (nothing to do, or durak's
        silence, which the «бито» clock counts, D5)."""

    def answer(self, table: Any) -> bool:
        """``True`` to call («пидор!») the action in the open window, ``False`` to pass (T3)."""

    def vote(self, table: Any) -> bool | None:
        """``True`` for «пидор» (guilty), ``False`` for «чист», ``None`` to abstain (T4)."""


class Driver:
    """Policies play ``table``: ``policies[seat]`` decides for that seat, and a seat
    without one (``None``: a person at the server) is awaited. ``policies`` is read at
    every step, so seats may change hands between calls (the server's seats do: a player
    goes away, comes back, leaves). ``rng`` decides which of several seats that may act at
    once moves first (durak, D3): the same seeds give the same game (T10). ``on_events``
    receives the events of every table call the driver makes (the server's table emits
    them itself); ``actions`` counts the game actions."""

    __slots__ = ("table", "policies", "rng", "on_events", "actions")

    def __init__(
        self,
        table: Any,
        policies: Sequence[Policy | None],
        rng: Rng,
        on_events: Callable[[list[Event]], None] | None = None,
    ) -> None:
        self.table = table
        self.policies = policies
        self.rng = rng
        self.on_events = on_events
        self.actions = 0

    def play(self, now: float = 0.0, budget: float = math.inf) -> int:
        """Policies play at ``now``, one table call at a time, each for the first seat
        whose policy decides something: while a call window is open, answers (in the
        window's order); while the court sits, votes or abstentions (voters in seat
        order); else a game action, the seats that may act asked in a fair rotation.
        Stops when no policy acts (persons and clocks are awaited, or the game is over)
        or after ``budget`` calls (the server's cycle budget); returns the number of
        calls made."""
        table = self.table
        policies = self.policies
        emit = self.on_events
        calls = 0
        while calls < budget:
            window = table.window
            if window is not None:  # (a window and the court never sit at once)
                called = calls
                for seat in table.waiting_answers():
                    policy = policies[seat]
                    if policy is not None:
                        events = table.answer(seat, policy.answer(table), now)
                        calls += 1
                        if emit is not None:
                            emit(events)
                        if table.window is not window or calls >= budget:
                            break
                if calls == called:
                    return calls
                continue
            court = table.court
            if court is not None:
                called = calls
                for seat in table.waiting_votes():
                    policy = policies[seat]
                    if policy is not None:
                        guilty = policy.vote(table)
                        if guilty is None:
                            events = table.abstain(seat, now)
                        else:
                            events = table.vote(seat, guilty, now)
                        calls += 1
                        if emit is not None:
                            emit(events)
                        if table.court is not court or calls >= budget:
                            break
                if calls == called:
                    return calls
                continue
            seats = table.to_act()  # (none once the game is over)
            if len(seats) > 1:  # several may act at once: a fair order
                k = self.rng.below(len(seats))
                seats = seats[k:] + seats[:k]
            for seat in seats:
                policy = policies[seat]
                if policy is not None:
                    action = policy.choose_action(table)
                    if action is not None:
                        auto = getattr(policy, "auto", None)
                        if auto is None:
                            events = table.act(seat, action, now)
                        else:
                            events = table.act(seat, action, now, auto=auto)
                        self.actions += 1
                        calls += 1
                        if emit is not None:
                            emit(events)
                        break
            else:
                return calls
        return calls
