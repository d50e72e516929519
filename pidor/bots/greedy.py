"""The greedy policy: the cheapest-card player every card-game toolkit ships (issue 15).

It is honest and never calls; it is the yardstick the other bots are measured against
(``scripts/bench_bots.py``). Its decisions are pure functions of the seat's view and its
honest options, both in wire form:

* durak (podkidnoy, perevodnoy): lead the lowest non-trump; throw in the lowest non-trump
  of a rank on the table; transfer with a non-trump when that is honest (D7); cover each
  card with the cheapest beater, non-trumps first (D4); take when a card cannot be covered
  (D6); give the cheapest card for the mark (D12);
* «пидор»: move and lay onto other stacks when honest (P3), lay on its own stack when that
  is the only honest lay (P5c), else draw or keep; beat with the lowest honest beater (P12),
  otherwise take the bottom card (P13); lead the lowest card; give the lowest card (P10).
"""

from __future__ import annotations

from ..cards import parse_card
from .policy import Observation, Policy
from .specs import register

__all__ = ["GreedyPolicy", "greedy_action", "durak_key", "pidor_key", "suit_index"]


@register
class GreedyPolicy(Policy):
    """``builtin:greedy``: honest, never calls; votes «пидор» (the court shows a broken rule, T6)."""

    name = "greedy"

    def act(self, obs: Observation) -> dict | None:
        return greedy_action(obs.view, obs.honest)

    def vote(self, obs: Observation) -> bool | None:
        return True


def suit_index(letter: str | None) -> int | None:
    """A view's trump letter (``"h"``) as a suit number; ``None`` stays ``None``."""
    return None if letter is None else "cdhs".index(letter)


def durak_key(card: int, trump: int) -> tuple[bool, int]:
    """Cheapest first in durak: non-trumps before trumps, then by rank."""
    return (card // 13 == trump, card % 13)


def pidor_key(card: int, trump: int | None) -> tuple[int, bool]:
    """Lowest first in «пидор»: by rank, then non-trumps before trumps."""
    return (card % 13, card // 13 == trump)


def _cheapest(options: list[dict], key) -> dict:
    return min(options, key=lambda a: key(parse_card(a["card"])))


def greedy_action(view: dict, honest: list[dict]) -> dict | None:
    """The greedy choice among ``honest`` (wire-form actions), or ``None`` to wait."""
    if not honest:
        return None
    if view["game"] == "pidor":
        return _pidor(view, honest)
    return _durak(view, honest)


def _by_type(honest: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for a in honest:
        out.setdefault(a["type"], []).append(a)
    return out


def _durak(view: dict, honest: list[dict]) -> dict | None:
    trump = suit_index(view["trump"])
    key = lambda c: durak_key(c, trump)  # noqa: E731
    kinds = _by_type(honest)
    if "give" in kinds:
        return _cheapest(kinds["give"], key)
    table = view["table"]
    if view["seat"] == view["defender"] and table:
        plain = [a for a in kinds.get("transfer", ()) if parse_card(a["card"]) // 13 != trump]
        if plain:  # D7: pass the attack on with a non-trump
            return _cheapest(plain, key)
        uncovered = [i for i, (_, c) in enumerate(table) if c is None]
        if not uncovered:
            return None  # everything is covered: the others say «бито» or throw in
        covers = kinds.get("cover", [])
        for i in uncovered:
            mine = [a for a in covers if a["target"] == i]
            if not mine:
                return {"type": "take"}  # D6: a card that cannot be covered
        first = uncovered[0]
        return _cheapest([a for a in covers if a["target"] == first], key)
    attacks = kinds.get("attack", [])
    if not table:
        return _cheapest(attacks, key) if attacks else None
    plain = [a for a in attacks if parse_card(a["card"]) // 13 != trump]
    if plain:
        return _cheapest(plain, key)
    return kinds["bito"][0] if "bito" in kinds else None


def _pidor(view: dict, honest: list[dict]) -> dict | None:
    kinds = _by_type(honest)
    seat = view["seat"]
    trump = suit_index(view["trump"])
    key = lambda c: pidor_key(c, trump)  # noqa: E731
    if "give" in kinds:
        return _cheapest(kinds["give"], key)
    if "move" in kinds:
        return kinds["move"][0]
    lays = kinds.get("lay", [])
    others = [a for a in lays if a["to"] != seat]
    if others or lays:
        return (others or lays)[0]
    for kind in ("draw", "keep"):
        if kind in kinds:
            return kinds[kind][0]
    if "beat" in kinds:
        return _cheapest(kinds["beat"], lambda c: (c // 13 == trump, c % 13))
    if "take" in kinds:
        return kinds["take"][0]
    return _cheapest(kinds["lead"], key)
