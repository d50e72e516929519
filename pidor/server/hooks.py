"""What a table's owner changes of it: :class:`TableHooks`, which changes nothing.

A table the lobby opens is its players': a person hosts it, starts its games and seeds
its deals, and it closes once nobody sits at it. A match's table (``pidor match`` with
external bots, :class:`pidor.match.house.MatchHooks`) is its runner's: the runner seats
every bot and starts every game, and a bot that misbehaves forfeits its game. Each hook
below is called at one place of the table's task and is handed the task as a
:class:`~pidor.server.state.Runner`; none may wait.
"""

from __future__ import annotations

from typing import Mapping

from ..engine.game import Event
from .seams import Peer
from .seating import Seat
from .state import Runner

__all__ = ["TableHooks"]


class TableHooks:
    """The hooks of a table the lobby opened: they change nothing."""

    #: A person hosts the table: the first to sit (then the next, when he goes), who starts
    #: its games and seats bots; and it closes once no person sits at it. ``False``: its
    #: owner seats and starts (no host between games), and the table lives as long as he wants.
    hosted: bool = True
    #: Requests the owner refuses at this table (``not_host``), with the reason given.
    refused: Mapping[str, str] = {}

    def item(self, table: Runner, item: tuple) -> None:
        """An inbox item of the owner's own (a match's ``seat`` and ``begin``); the
        table's own are ``request``, ``away``, ``back``, ``unwatch`` and ``close``."""

    def leave(self, table: Runner, seat: Seat | None, conn: Peer) -> bool:
        """A ``leave`` request (``seat``: the player's, if he sits here). ``True``: the
        owner has dealt with it (the table answers ``ok``); ``False``: the table's own way
        (T9: a bot plays on for him; between games the seat is free)."""
        return False

    def away(self, table: Runner, seat: Seat, conn: Peer) -> bool:
        """The connection of a seated person ended. ``True``: the owner has dealt with
        it; ``False``: the table's own way (T9: away; between games the seat is free)."""
        return False

    def back(self, table: Runner, seat: Seat, conn: Peer) -> bool:
        """A seated person connected again. ``True``: the owner has dealt with it;
        ``False``: the table's own way (a snapshot, then ``seat: back``)."""
        return False

    def refused_request(self, table: Runner, conn: Peer, code: str) -> None:
        """A request was refused with ``code`` (its ``error`` is queued)."""

    def tick(self, table: Runner, now: float) -> None:
        """A running game's clocks are due to be looked at (before the table's own: T3
        window, T4 vote, the game's clocks, T9 turn clocks)."""

    def prompted(self, table: Runner, now: float) -> None:
        """The turn prompts of this cycle are out: each person's turn clock
        (``Seat.turn_deadline``) is set; the owner may shorten it."""

    def events(self, events: list[Event]) -> None:
        """Events of a running game, in full form, before they go out."""

    def log_extra(self) -> dict:
        """More fields for the header's ``extra`` of the game that starts."""
        return {}

    def game_over(self, table: Runner, result: dict) -> None:
        """A game ended: its log is closed, its ``results`` sent, the table info broadcast."""
