"""Helpers for «сто одно»'s scenario tests: deals from fixed hands, actions as text."""

from __future__ import annotations

from pidor.cards import deck as full_deck
from pidor.cards import parse_card, parse_cards
from pidor.games.hundred_one.engine import HundredOneGame

C = parse_card
SUITS = "cdhs"


def deal_order(hands: list[str], blind: str, dealer: int = 0, draws: str = "") -> list[int]:
    """A deck order (top first) that deals ``hands`` (seat by seat; the dealer's three) and
    ``blind`` as the dealer's fourth card, face up (H2), then ``draws`` on top of the deck,
    then the unnamed cards in a fixed order."""
    hs = [parse_cards(h) for h in hands]
    n = len(hs)
    assert all(len(h) == (3 if s == dealer else 4) for s, h in enumerate(hs)), "four cards each, the dealer three"
    dealt = [0] * (4 * n)
    for s, h in enumerate(hs):
        for k, c in enumerate(h):
            dealt[k * n + (s - dealer - 1) % n] = c
    dealt[-1] = C(blind)
    named = dealt + parse_cards(draws)
    assert len(set(named)) == len(named), "a card is named twice"
    order = named + [c for c in full_deck(36) if c not in set(named)]
    return order


def new(hands: list[str], blind: str, dealer: int = 0, draws: str = "", **options) -> HundredOneGame:
    n = len(hands)
    return HundredOneGame.new({"players": n, **options}, deck=deal_order(hands, blind, dealer, draws),
                              first=(dealer + 1) % n)


def action(text: str) -> tuple:
    """``"cover 7h"``, ``"queen Qh s"``, ``"name s"``, ``"take_penalty 2"``, ``"draw"``."""
    kind, *args = text.split()
    out: list = [kind]
    for a in args:
        out.append(int(a) if a.isdigit() else SUITS.index(a) if a in SUITS else C(a))
    return tuple(out)


def act(g: HundredOneGame, seat: int, text: str, violations: tuple | list = ()) -> list[dict]:
    """Apply ``text`` for ``seat``, check its violations, and run what waits for the window
    (T8) as the table does when it closes."""
    events = g.apply(seat, action(text))
    assert events[0]["_violations"] == list(violations), (text, events[0]["_violations"])
    return events + g.advance()


def play(g: HundredOneGame, script: str) -> list[dict]:
    """Steps ``"seat: action [!violation ...]"`` separated by ``;``."""
    events = []
    for step in script.split(";"):
        seat, _, rest = step.partition(":")
        text, _, broken = rest.partition("!")
        events += act(g, int(seat), text.strip(), broken.split())
    return events


def hand(g: HundredOneGame, seat: int) -> list[str]:
    from pidor.cards import card_code

    return sorted(card_code(c) for c in g.hands[seat])


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
