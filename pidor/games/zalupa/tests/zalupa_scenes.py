"""Scenes for the «залупа» tests: explicit deals, and states set up mid-kon.

An explicit deck gives the suits seat by seat (seat 0 ♣, 1 ♦, 2 ♥, 3 ♠), so each seat's
lowest trump is the nine of its suit until it loses a kon.
"""

from __future__ import annotations

import pytest

from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction
from pidor.games.zalupa.engine import ZalupaGame

C = parse_card


def deal_order(hands: list[str], dealer: int = 0) -> list[int]:
    """The deck (top first) that deals ``hands`` (as dealt, before the hand-over; six each)
    one card at a time from the player after ``dealer`` (Z2)."""
    hs = [parse_cards(h) for h in hands]
    n = len(hs)
    seats = [(dealer + i) % n for i in range(1, n + 1)]
    order = [hs[s][r] for r in range(6) for s in seats]
    assert sorted(order) == full_deck(24), "the hands must hold the 24 cards, six each"
    return order


def new(hands: list[str], dealer: int = 0, **options) -> ZalupaGame:
    return ZalupaGame.new(options, deck=deal_order(hands, dealer), first=dealer)


def scene(hands: list[str], stack: str = "", by: list[int] | None = None, turn: int = 0, state: str = "lead",
          losses: list[int] | None = None, last_beater: int | None = None, out: list[int] = (),
          left: list[int] = (), **options) -> ZalupaGame:
    """A kon under way: ``hands`` as they are, ``stack`` bottom first (laid by ``by``, by
    default by the seats before ``turn`` in turn), ``turn`` on ``state``; ``out`` of the kon,
    ``left`` the game (Z6); every other card of the 24 is in the отбой, but the lowest trumps
    set aside for ``losses`` (Z5)."""
    data = ZalupaGame.new(options, deck=full_deck(24), first=0).to_data()
    n = data["players"]
    losses = losses or [0] * n
    aside = [[s * 13 + 7 + k for k in range(losses[s])] for s in range(n)]
    held = [parse_cards(h) for h in hands]
    laid = parse_cards(stack)
    taken = {c for h in held for c in h} | set(laid) | {c for a in aside for c in a}
    assert len(taken) == sum(map(len, held)) + len(laid) + sum(map(len, aside)), "a card is named twice"
    if by is None:
        by = [(turn - len(laid) + i) % n for i in range(len(laid))]
    data.update(hands=held, stack=laid, stack_seats=by, discard=[c for c in full_deck(24) if c not in taken],
                aside=aside, losses=list(losses), last_loss=[k for k in losses], turn=turn, state=state,
                last_beater=last_beater, handed=[], out=list(out), left=list(left), unit_mark=len(out))
    return ZalupaGame.from_data(data)


def act(g: ZalupaGame, seat: int, text: str, violations: tuple = ()) -> list[dict]:
    """``act(g, 1, "beat Qh")``, ``act(g, 2, "take 3")``, ``act(g, 0, "otboy")``: apply and
    check the violations recorded."""
    kind, *args = text.split()
    action = (kind, *[C(a) if kind in ("lead", "beat", "give") else int(a) for a in args])
    events = g.apply(seat, action)
    assert events[0]["_violations"] == list(violations), (text, events[0]["_violations"])
    return events


def hand(g: ZalupaGame, seat: int) -> list[str]:
    return [card_code(c) for c in g.hands[seat]]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def assert_unchanged(g: ZalupaGame, seat: int, action: tuple, error=ImpossibleAction) -> None:
    before = g.to_data()
    with pytest.raises(error):
        g.apply(seat, action)
    assert g.to_data() == before
