"""Scenario builders for the «пидор» engine tests (explicit deck orders, top card first).

Trick-play scenarios need a finished deal phase with chosen hands. :func:`play_deal`
makes one: the first player draws every card and lays it where the scenario wants it
(lays are accepted wherever they go, honest or not), so stack ``s`` ends as
``[prikup..., open card, cards laid on it...]`` and the hand after P8 is everything above
the two bottom cards.
"""

from __future__ import annotations

import pytest

from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction
from pidor.games.pidor.engine import PidorGame


def C(text: str) -> int:
    return parse_card(text)


def codes(text: str) -> list[str]:
    return [card_code(c) for c in parse_cards(text)]


def deal_deck(players: int, opens: str, draws: str = "", size: int = 52) -> list[int]:
    """Top first: two face-down rounds (unnamed cards), the open round, then ``draws``,
    then every other card in a fixed order (P2)."""
    named = parse_cards(opens) + parse_cards(draws)
    assert len(set(named)) == len(named)
    rest = [c for c in full_deck(size) if c not in named]
    return rest[: 2 * players] + parse_cards(opens) + parse_cards(draws) + rest[2 * players:]


def new(players: int, opens: str, draws: str = "", size: int = 52, first: int = 0) -> PidorGame:
    return PidorGame.new({"players": players, "deck": size}, deck=deal_deck(players, opens, draws, size),
                         first=first)


def play_deal(players, size, opens, prikups=None, draws=(), dump=None, first=0, marks=()):
    """A game played to the end of its deal phase (P8 has run; returns ``(game, events)``).

    Deck: ``prikups`` (two cards per seat, seat 0 first: its bottom card, then its second)
    as the face-down rounds, ``opens`` as the open round, then every unnamed card (the
    first player lays each on ``dump``'s stack, default the last seat), then ``draws``:
    ``(card, target)`` with target a seat (``lay``) or ``"keep"``, by whoever is on turn.
    ``marks``: seats that get the mark during the deal (P7)."""
    n = players
    opens_c = parse_cards(opens)
    named_draws = [(C(c), t) for c, t in draws]
    named = opens_c + [c for c, _ in named_draws] + (parse_cards(prikups) if prikups else [])
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in full_deck(size) if c not in named]
    if prikups:
        pk = parse_cards(prikups)
    else:
        pk, rest = rest[: 2 * n], rest[2 * n:]
    order = [pk[2 * s] for s in range(n)] + [pk[2 * s + 1] for s in range(n)] + opens_c
    order += rest + [c for c, _ in named_draws]
    g = PidorGame.new({"players": n, "deck": size}, deck=order, first=first)
    dump = n - 1 if dump is None else dump
    for _ in rest:
        g.apply(g.turn, ("draw",))
        g.apply(g.turn, ("lay", dump))
    for card, target in named_draws:
        seat = g.turn
        g.apply(seat, ("draw",))
        assert g.held == card
        g.apply(seat, ("keep",) if target == "keep" else ("lay", target))
    for s in marks:
        g.on_mark(s)
    assert g.to_act() == [] and not g.deck
    return g, g.advance()


def hand(g: PidorGame, seat: int) -> list[str]:
    return [card_code(c) for c in g.hands[seat]]


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def assert_unchanged(g: PidorGame, seat, action, error=ImpossibleAction):
    before = g.to_data()
    with pytest.raises(error):
        g.apply(seat, action)
    with pytest.raises(error):
        g.check(seat, action)
    assert g.to_data() == before


def zones_partition(g: PidorGame) -> bool:
    return sorted(c for z in g.zones().values() for c in z) == sorted(full_deck(g.deck_size))

def tricks_game() -> PidorGame:
    """3 players, 52 cards, trump hearts; seat 0 leads. Hands: seat 0 [5c 3d],
    seat 1 [9c Kc Th], seat 2 every other card but the prikups."""
    g, _ = play_deal(3, 52, "5c 9c 2s", prikups="2c 3c 2d 4d 2h 3h", dump=2,
                     draws=[("Kc", 1), ("3d", 0), ("Th", 1)])
    assert g.phase == "tricks" and g.turn == 0 and g.trump == 2
    assert hand(g, 0) == ["5c", "3d"] and hand(g, 1) == ["9c", "Kc", "Th"]
    return g


def p15_game() -> PidorGame:
    """Seat 0 holds 5c with prikup 8d 8s; seat 1 9c Td 3s Kc Th; trump hearts."""
    g, _ = play_deal(3, 52, "5c 9c Ad", prikups="8d 8s 2c 3c 2h 3h", dump=2,
                     draws=[("Kc", 1), ("Td", 1), ("3s", 1), ("Th", 1)])
    assert hand(g, 0) == ["5c"] and hand(g, 1) == ["9c", "Kc", "Td", "3s", "Th"]
    return g
