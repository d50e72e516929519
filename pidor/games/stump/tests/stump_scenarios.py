"""Scenario builders for the «пень» engine tests: deals from explicit deck orders, and
positions later in a game (cards as codes like ``"Th"``)."""

from __future__ import annotations

from pidor.cards import parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.units import UNIT_OPTIONS, Units
from pidor.games.stump.engine import HAND, STUB, StumpGame


def C(text: str) -> int:
    return parse_card(text)


def deal_order(hands: list[str], stubs: list[str] | None = None, top: str = "", trump: str | None = None,
               first: int = 0, penki: bool = False) -> list[int]:
    """A deck order (top first) that deals ``stubs`` (two per seat), then ``hands`` (four per
    seat; «пеньки»: the whole rest), clockwise from ``first`` (the player after the dealer,
    S1); then ``top`` on top of the deck and ``trump`` at its bottom. Unnamed cards fill the
    gaps in a fixed order."""
    n = len(hands)
    seats = [(first + i) % n for i in range(n)]
    stubs = stubs or [""] * n
    named = [c for text in [*hands, *stubs, top, trump or ""] for c in parse_cards(text)]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in full_deck(36) if c not in named]
    stub_c = [parse_cards(s) + [rest.pop(0) for _ in range(STUB - len(parse_cards(s)))] for s in stubs]
    dealt = 36 - STUB * n if penki else HAND * n
    sizes = [dealt // n + (seats.index(s) < dealt % n) for s in range(n)]
    hand_c = [parse_cards(h) + [rest.pop(0) for _ in range(sizes[s] - len(parse_cards(h)))] for s, h in enumerate(hands)]
    order = [stub_c[seats[i % n]][i // n] for i in range(STUB * n)]
    order += [hand_c[seats[i % n]][i // n] for i in range(dealt)]
    bottom = parse_cards(trump) if trump else []
    order += parse_cards(top) + rest + bottom
    assert sorted(order) == full_deck(36)
    return order


def deal(hands: list[str], stubs: list[str] | None = None, top: str = "", trump: str | None = None,
         first: int = 0, **options) -> StumpGame:
    """A new game dealt by :func:`deal_order`; ``options`` are the game's (``variant``, ``hard``)."""
    penki = options.get("variant") == "penki"
    return StumpGame.new({"players": len(hands), **options},
                         deck=deal_order(hands, stubs, top, trump, first, penki), first=first)


def position(hands: list[str], stack: str = "", *, trump: str = "h", stubs: list[str] | None = None,
             deck: str = "", turn: int = 0, owe: str = "lead", by: int | None = None, out: tuple[int, ...] = (),
             rest: int | None = None, **options) -> StumpGame:
    """A game later on: ``hands``, the ``stack`` (bottom first), the ``deck`` (top first, its
    last card the face-up trump), ``stubs`` not yet picked up; seat ``turn`` owes ``owe``.
    Every unnamed card goes to the bottom of the stack, or into seat ``rest``'s hand."""
    n = len(hands)
    stubs = stubs or [""] * n
    named = [c for text in [*hands, stack, *stubs, deck] for c in parse_cards(text)]
    assert len(set(named)) == len(named), "a card is named twice"
    unnamed = [c for c in full_deck(36) if c not in named]
    hand_c = [parse_cards(h) + (unnamed if s == rest else []) for s, h in enumerate(hands)]
    stack_c = ([] if rest is not None else unnamed) + parse_cards(stack)
    deck_c = parse_cards(deck)[::-1]  # bottom first
    trump_card = deck_c[0] if deck_c else next(c for c in full_deck(36) if c // 13 == "cdhs".index(trump))
    g = StumpGame.new({"players": n, **options}, deck=full_deck(36), first=turn)
    data = g.to_data()
    data.update(hands=hand_c, stubs=[parse_cards(s) for s in stubs], stack=stack_c, deck=deck_c,
                trump_card=trump_card, turn=turn, owe=owe, after=None, by=by,
                out=[s in out for s in range(n)], order=list(out), high=len(stack_c),
                unit_mark=[len(deck_c), sum(not s for s in stubs), len(out)],
                limits={o.name: options.get(o.name, o.default) for o in UNIT_OPTIONS}, units=Units().to_data())
    return StumpGame.from_data(data)


def act(g: StumpGame, seat: int, text: str, violations: tuple[str, ...] = ()) -> list[dict]:
    """``act(g, 1, "beat Qh")``, ``"take 3 0"``, ``"draw 2"``, ``"pick"``: apply it, check the
    violations recorded, then run what waits for the window (T8), as the table does."""
    kind, *args = text.split()
    action = (kind, *[C(a) if kind in ("beat", "lead", "give") else int(a) for a in args])
    events = g.apply(seat, action)
    assert events[0]["_violations"] == list(violations), (text, events[0]["_violations"])
    return events + g.advance()


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
