"""«Пидор»: the game's state, the one contract its rule mixins share.

:class:`~pidor.games.pidor.engine.PidorGame` is put together from :class:`.deal.DealPhase`
(the deal phase and the settlement) and :class:`.tricks.TrickPlay` (trick play).
Each mixin reads and writes the fields declared in :class:`PidorState` and calls the few
methods the other one defines, declared here too. ``PidorGame.new`` and
``PidorGame.from_data`` set every field.

The state is a handful of plain fields (cards are ints, zones are lists) so that a
snapshot for undo and its restore are a few list copies.
"""

from __future__ import annotations

from typing import Callable

from ...engine.game import Event
from ...engine.units import Units

__all__ = ["PidorState", "DEAL", "SETTLE", "TRICKS", "OVER"]

#: The phases, in order (the value of ``phase``, as views show it).
DEAL, SETTLE, TRICKS, OVER = "deal", "settle", "tricks", "over"


class PidorState:
    """The fields of a «пидор» game (annotations only: the class adds no behaviour)."""

    players: int
    deck_size: int  # 36 or 52
    result: dict | None  # see Game.result
    phase: str  # DEAL → SETTLE → TRICKS → OVER
    turn: int | None  # the seat on turn (deal phase and trick play); None once over
    deck: list[int]  # bottom card first: the top card is the last one and is drawn next
    #: ``stacks[s]``: seat ``s``'s stack, bottom first; the two bottom cards are face down,
    #: everything above them face up; the last card is the open card (P2, P3).
    stacks: list[list[int]]
    held: int | None  # the drawn card the player on turn holds (public)
    drew: bool  # the player on turn has drawn in this turn (P5a: only the first draw)
    last_drawer: int | None  # who drew the last card so far (P11)
    trump: int | None  # the suit of the last drawn card that is not a spade (P9), final once the deck is empty
    pidorstvo: list[int]  # marks received in the deal phase, per seat (P7)
    hands: list[list[int]]  # after the deal phase (P8)
    prikups: list[list[int]]  # after the deal phase (P8)
    table: list[int]  # the trick's cards, bottom first
    table_seats: list[int]  # who put each card of ``table``
    discard: list[int]
    trick_size: int  # players in the game when the trick began (P14)
    closed: bool  # the trick is closed and waits for ``advance`` (T8)
    next_leader: int | None  # who leads the next trick (whoever closed it, P14)
    quiet_tricks: int  # tricks in a row that ended with nothing discarded and nobody out (pidor-2's P16a)
    trick_moves: int  # cards led, beaten with and taken in this trick (pidor-2's P16a, a trick without end)
    units: Units  # T13: the tricks, positions and progress so far
    limits: dict  # T13: ``repeat_limit``, ``quiet_limit``, ``unit_limit``
    T13: bool  # (a class attribute: T13, or engine pidor-2's P16a)
    order: list[int]  # seats in the order they left the game (P15)
    dues: list[list[int]]  # the settlement still to pay: ``[[recipient, cards], ...]`` (P10)
    giver: int | None  # who gives now (P10)
    pay_from: int | None  # where the search for the next giver starts
    given: list[list[int]]  # the payments made: ``[[from, to, card], ...]``
    # Derived, not part of the data (``to_data`` leaves them out):
    _out: list[bool]  # ``_out[s]``: ``s`` has left the game (``s in order``)
    _in: list[int]  # the seats still in the game, in seat order (not in ``order``)
    _low_i: int  # the lowest rank's index: 0 (the 2) in 52 cards, 4 (the 6) in 36
    _up: tuple[int, ...]  # ``_up[i]``: the rank index that goes on an open card of rank index i (P3)
    _hand_copies: list[list[int]]  # each hand as T13's last position saw it (``position``)
    _hand_sets: list[tuple[int, ...]]  # ... and sorted: the hand as a set, in that position

    # Methods one mixin calls on the other:
    _take_prikup: Callable[[int, list[Event]], None]  # DealPhase; TrickPlay calls it (P15)
    _leave: Callable[[int, list[Event]], None]  # TrickPlay; DealPhase calls it (P11)
    _check_end: Callable[[list[Event]], bool]  # TrickPlay; DealPhase calls it (P11, P16)
    _start_trick: Callable[[int, list[Event]], None]  # TrickPlay; DealPhase calls it (P11)
    _stalled: Callable[[list[Event]], list[Event]]  # PidorGame; TrickPlay calls it (T13)
