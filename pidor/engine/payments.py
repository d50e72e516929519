"""Paying for the mark in cards (D12, T14): who gives a card to a player marked in court,
and the ``give`` that pays it, the same in every game that pays so.

A game keeps its pending payments as plain data, ``payments``: a list of ``[giver,
recipient]``, the first one due now (its giver must ``give`` a card of his choice before
anything else happens at the table). The card is seen by the two only: the ``action`` event
shows it to the recipient, the ``give`` event names it to him (the giver chose it; once in
another hand it is hidden from him like the rest of that hand).

* D12 (the durak family): the next player in the game pays (``hard``: every other one), a
  giver with no cards is skipped.
* T14 (the other games): the first player after the marked one who holds ``least`` = 2 or
  more cards pays (``hard``: every such player): paying never empties a hand; if nobody
  can pay, nothing is paid.
"""

from __future__ import annotations

from collections.abc import Callable

from .game import Event, ImpossibleAction

__all__ = ["givers", "due", "check", "give", "skip_empty"]


def givers(seat: int, players: int, in_game: Callable[[int], bool], held: Callable[[int], int], hard: bool,
           least: int) -> list[int]:
    """Who pays ``seat``: the players in the game after him clockwise who hold at least
    ``least`` cards — the first of them, or every one with ``hard``."""
    found = [s for s in ((seat + i) % players for i in range(1, players)) if in_game(s) and held(s) >= least]
    return found if hard else found[:1]


def due(payments: list[list[int]], seat: int, from_: list[int]) -> list[Event]:
    """Add the payments of ``from_`` to ``seat``; the ``payment_due`` event (none if nobody pays)."""
    if not from_:
        return []
    payments.extend([g, seat] for g in from_)
    return [{"type": "payment_due", "to": seat, "from": list(from_)}]


def check(payments: list[list[int]], seat: int, kind: str, rule: str) -> bool:
    """Whether an action of ``seat`` of ``kind`` pays a card now (``True``: it is the due
    ``give``, to be judged no further); ``ImpossibleAction`` citing ``rule`` for anything else
    while a payment is due, or a ``give`` nobody owes (T1)."""
    if payments:
        if seat != payments[0][0]:
            raise ImpossibleAction(f"waiting for seat {payments[0][0]} to pay for the mark", rule)
        if kind != "give":
            raise ImpossibleAction("you owe a card for the mark: give one", rule)
        return True
    if kind == "give":
        raise ImpossibleAction("you owe nobody a card", rule)
    return False


def give(payments: list[list[int]], hands: list[list[int]], card: int, event: Event) -> list[Event]:
    """The due payment made with ``card``: it goes from the giver's hand to the recipient's;
    ``event`` (the ``action`` event) shows the card to the recipient only. The ``give`` event."""
    giver, to = payments.pop(0)
    hands[giver].remove(card)
    hands[to].append(card)
    data = event["action"]
    event["action"] = {"type": "give"}
    event["_private"] = {to: {"action": data}}
    return [{"type": "give", "from": giver, "to": to, "_private": {to: {"card": data["card"]}}}]


def skip_empty(payments: list[list[int]], hands: list[list[int]]) -> None:
    """Drop the due payments whose giver has no card left (D12)."""
    while payments and not hands[payments[0][0]]:
        payments.pop(0)
