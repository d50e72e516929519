"""«Пидор» for the built-in policies (:class:`pidor.bots.tactics.Tactics`).

Greedy (the cheapest-card yardstick): move and lay onto other stacks when honest (P3), lay
on its own stack when that is the only honest lay (P5c), else draw or keep; beat with the
lowest honest beater (P12), otherwise take the bottom card (P13); lead the lowest card;
give the lowest card (P10).

The heuristic's honest play, from the seat's view, its honest options (wire form) and the
cards it has seen go to the discard:

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

from typing import Any

from ...bots.tactics import Goal, Tactics, by_type, cheapest, suit_index
from ...cards import deck, low_rank, parse_card
from ...engine.game import Game
from .tricks import beaters

__all__ = ["TACTICS", "GOALS", "PidorTactics", "pidor_action", "pidor_key"]


def pidor_key(card: int, trump: int | None) -> tuple[int, bool]:
    """Lowest first in «пидор»: by rank, then non-trumps before trumps."""
    return (card % 13, card // 13 == trump)


def greedy_action(view: dict, honest: list[dict]) -> dict | None:
    if not honest:
        return None
    kinds = by_type(honest)
    seat = view["seat"]
    trump = suit_index(view["trump"])
    key = lambda c: pidor_key(c, trump)  # noqa: E731
    if "give" in kinds:
        return cheapest(kinds["give"], key)
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
        return cheapest(kinds["beat"], lambda c: (c // 13 == trump, c % 13))
    if "take" in kinds:
        return kinds["take"][0]
    return cheapest(kinds["lead"], key)


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


class PidorTactics(Tactics):
    #: Playouts: «пидор» runs to hundreds of actions a game; a few tricks ahead.
    DEPTH = 40
    #: P3: in the deal phase an honest move hangs on the stacks (the deal).
    CHECK_HONEST = True

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self.size = rules["deck"]
        self.gone: set[int] = set()  # cards seen to go to the discard

    def observe(self, event: dict) -> None:
        if event["type"] == "trick_closed":  # P14: they go to the discard
            self.gone.update(parse_card(c) for c in event["cards"])

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        return greedy_action(view, honest)

    def choice(self, view: dict, honest: list[dict]) -> dict | None:
        return pidor_action(view, honest, self.gone, self.size)

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        return pidor_cheats(view, choice, obs.actions(), obs.honest, self.gone, self.size)

    def cost(self, view: dict) -> float:
        return 1.0 if view["phase"] == "deal" else 0.1  # P7/P10: a pidorstvo; P17: nothing

    def playout(self, game: Game, seat: int, honest: list[tuple]) -> tuple:
        """The heuristic's honest choice (on the seat's view of the determinization)."""
        data = pidor_action(game.view(seat), [game.action_data(a) for a in honest], set(), self.size)
        return game.parse_action(data)

    def holding(self, game: Any, seat: int) -> int:
        return len(game.hands[seat]) + len(game.prikups[seat]) + max(0, len(game.stacks[seat]) - 2)


TACTICS = PidorTactics

_H, _G = "builtin:heuristic", "builtin:greedy"
#: The strength figures (``scripts/bench_bots.py``, issue 15), with each deck.
GOALS = tuple(goal for deck in (52, 36) for goal in (
    Goal(f"greedy-{deck}", _G, (_G,) * 3, measure="seat", options={"deck": deck}),
    Goal(f"heuristic-{deck}", _H, (_G,) * 3, 0.20, options={"deck": deck}),
    Goal(f"honest-{deck}", "builtin:heuristic:cheat=0", (_G,) * 3, 0.20, options={"deck": deck}),
)) + (
    # issue 30: the search's honest strength against the field (about 2 s of CPU a game)
    Goal("honest-ismcts-52", "builtin:ismcts:cheat=0", (_G,) * 3, 0.15, options={"deck": 52}, games=400),
)
