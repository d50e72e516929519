"""The heuristic's honest play in «пидор»: pure functions of the seat's view, its honest
options (wire form) and the cards it has seen go to the discard.

* Deal phase (P3): move and lay onto other stacks when honest, onto the stack of the player
  with the fewest cards first (he is the one to slow down); lay on its own stack only when
  that is the only honest lay (P5c).
* Settlement (P10): give away the card least useful for beating.
* Trick play: lead the card the next player is least likely to beat (counting the cards
  gone to the discard and its own), since a card he cannot beat he must take (P13); beat
  with the least useful beater (P12); take (P13) rather than spend a card that beats much
  on a table that will not fill.
"""

from __future__ import annotations

from ...cards import deck, low_rank, parse_card
from ...games.pidor.tricks import beaters
from ..greedy import suit_index

__all__ = ["pidor_action", "pidor_cheats", "seen_discard"]

def seen_discard(event: dict, gone: set[int]) -> None:
    """Add the cards of a closed trick (P14: they go to the discard) to ``gone``."""
    if event["type"] == "trick_closed":
        gone.update(parse_card(c) for c in event["cards"])


def _stack_size(view: dict, seat: int) -> int:
    st = view["stacks"][seat]
    return len(st["cards"]) + st["hidden"]


def pidor_action(view: dict, honest: list[dict], gone: set[int], size: int) -> dict | None:
    """The heuristic's honest choice, or ``None`` when it has none; ``size`` is the deck's."""
    if not honest:
        return None
    kinds: dict[str, list[dict]] = {}
    for a in honest:
        kinds.setdefault(a["type"], []).append(a)
    seat = view["seat"]
    if view["phase"] == "deal":
        smallest = lambda a: _stack_size(view, a["to"])  # noqa: E731
        if "move" in kinds:
            return min(kinds["move"], key=smallest)
        lays = kinds.get("lay", [])
        others = [a for a in lays if a["to"] != seat]
        if others or lays:
            return min(others or lays, key=smallest)
        return (kinds.get("draw") or kinds["keep"])[0]
    power = _power(view, gone, size)
    if "give" in kinds:
        return min(kinds["give"], key=lambda a: power(parse_card(a["card"])))
    if "lead" in kinds:
        return min(kinds["lead"], key=lambda a: power(parse_card(a["card"])))
    beats = kinds.get("beat", [])
    if beats:
        return min(beats, key=lambda a: power(parse_card(a["card"])))
    return kinds["take"][0]

def _power(view: dict, gone: set[int], size: int):
    """A card's use in defence: how many cards still in play it beats (P12)."""
    beaten = _beaten(suit_index(view["trump"]), low_rank(size) - 2)
    unseen = set(deck(size)) - gone - {parse_card(c) for c in view["hand"]}
    return lambda c: len(beaten[c] & unseen)


_BEATEN: dict[tuple[int | None, int], list[frozenset]] = {}


def _beaten(trump: int | None, low_i: int) -> list[frozenset]:
    """For every card, the cards it beats (the engine's P12 table turned round); cached."""
    key = (trump, low_i)
    out = _BEATEN.get(key)
    if out is None:
        table = beaters(trump, low_i)
        out = _BEATEN[key] = [frozenset(t for t in range(52) if c in table[t]) for c in range(52)]
    return out


def pidor_cheats(view: dict, honest_choice: dict | None, actions: list[dict], honest: list[dict],
                 gone: set[int], size: int) -> list[tuple[float, dict]]:
    """Cheats worth a thought, each with its gain in cards over ``honest_choice``: in the
    deal phase, laying the drawn card (P3l) or moving the open card (P3m) onto the smallest
    other stack instead of growing its own; in trick play, beating with a card that does
    not beat (P12b) or closing the trick (P14c) instead of taking."""
    seat = view["seat"]
    out: list[tuple[float, dict]] = []
    if view["phase"] == "deal":
        others = [a for a in actions if a["type"] in ("lay", "move") and a["to"] != seat and a not in honest]
        if others and (honest_choice is None or honest_choice["type"] in ("keep", "draw")
                       or honest_choice.get("to") == seat):
            best = min(others, key=lambda a: _stack_size(view, a["to"]))
            out.append((1.0 if best["type"] == "move" else 1.5, best))
        return out
    if view["phase"] != "tricks" or honest_choice is None or honest_choice["type"] != "take":
        return out
    power = _power(view, gone, size)
    top = len(view["table"]) - 1
    beats = [a for a in actions if a["type"] == "beat" and a["target"] == top and a not in honest]
    last = len(view["hand"]) == 1 and view["prikups"][seat] == 0  # the cheat may end its game
    if beats:
        out.append((2.0 + 3.0 * last, min(beats, key=lambda a: power(parse_card(a["card"])))))
    closes = [a for a in actions if a["type"] == "close"]
    if closes:
        out.append((1.0, closes[0]))
    return out
