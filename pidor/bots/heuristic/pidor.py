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
from ...engine.pidor_tricks import beaters
from ..greedy import suit_index

__all__ = ["pidor_action", "seen_discard"]

K = {"lead": "low", "take": 0}


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
    trump = suit_index(view["trump"])
    table = beaters(trump, low_rank(size) - 2)
    hand = [parse_card(c) for c in view["hand"]]
    unseen = set(deck(size)) - gone - set(hand)

    def power(c: int) -> int:  # how many live cards it beats: its use in defence
        return sum(1 for t in unseen if c in table[t])

    if "give" in kinds:
        return min(kinds["give"], key=lambda a: power(parse_card(a["card"])))
    if "lead" in kinds:
        if K["lead"] == "hard":
            # how many live cards beat it, then least useful
            return min(kinds["lead"], key=lambda a: (len(table[parse_card(a["card"])] & unseen),
                                                      power(parse_card(a["card"]))))
        return min(kinds["lead"], key=lambda a: power(parse_card(a["card"])))
    beats = kinds.get("beat", [])
    if beats:
        best = min(beats, key=lambda a: power(parse_card(a["card"])))
        return best
    return kinds["take"][0]

