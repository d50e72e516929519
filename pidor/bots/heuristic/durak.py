"""The heuristic's honest play in durak (podkidnoy, perevodnoy): pure functions of the
seat's view and its honest options, both in wire form.

* Lead: the cheapest non-trump, a rank held twice first (the second card follows it in).
* Throw in: every non-trump while the deck lasts, anything but high trumps once it is
  empty (D3).
* Defend: transfer with a non-trump when honest (D7); cover with the cheapest beaters, the
  hardest card first (D4); take (D6) when a card cannot be covered, or when covering would
  spend a trump above the lowest on a small table while the deck still gives cards.
"""

from __future__ import annotations

from ...cards import card_code, low_rank, parse_card
from ..greedy import durak_key, suit_index

__all__ = ["durak_action", "durak_move", "durak_cheats", "durak_value", "cover_plan", "TableSeen", "plainly_clean"]

#: Throw in a card worth less than this (:func:`durak_value`): with the deck empty every
#: plain card and the four lowest trumps; while it lasts every plain card (a card played is
#: replaced from the deck, and greedy defenders cover all they can: a plain card thrown in
#: costs a trump or a take). Measured against 3 × greedy (4 players, 2,000 games): keeping
#: the plain cards above the jack back lost 21.9% / 22.6% (podkidnoy / perevodnoy), this
#: 21.2% / 21.6%.
THROW_BELOW = (17, 13)
#: Early, while a small table can be taken, a trump worth this much (:func:`durak_value`:
#: any trump above the deck's lowest) is not spent on it.
DEAR = 14


def durak_value(card: int, trump: int, low_i: int) -> int:
    """How much a card is worth keeping: its rank above the deck's lowest, trumps above all."""
    return card % 13 - low_i + (13 if card // 13 == trump else 0)


def _beats(card: int, target: int, trump: int) -> bool:
    if card // 13 == target // 13:
        return card > target
    return card // 13 == trump


def cover_plan(targets: list[int], hand: list[int], trump: int) -> dict[int, int] | None:
    """Cheapest beaters for every target card (target -> beater), the hardest target first;
    ``None`` when some target cannot be covered from ``hand``."""
    key = lambda c: durak_key(c, trump)  # noqa: E731
    free = sorted(hand, key=key)
    plan: dict[int, int] = {}
    for t in sorted(targets, key=key, reverse=True):
        for c in free:
            if _beats(c, t, trump):
                plan[t] = c
                free.remove(c)
                break
        else:
            return None
    return plan


def durak_action(view: dict, honest: list[dict]) -> dict | None:
    """The heuristic's honest choice, or ``None`` to wait (wire form: :func:`durak_move`
    on the seat's view)."""
    if not honest:
        return None
    table = view["table"]
    move = durak_move(
        [parse_card(c) for c in view["hand"]], [parse_card(a) for a, _ in table],
        [-1 if c is None else parse_card(c) for _, c in table], suit_index(view["trump"]),
        low_rank(view["deck_size"]) - 2, view["deck"], view["seat"] == view["defender"],
        [_engine_form(a) for a in honest])
    if move is None:
        return None
    data = {"type": move[0]}
    if len(move) > 1:
        data["card"] = card_code(move[1])
    if len(move) > 2:
        data["target"] = move[2]
    return data


def _engine_form(a: dict) -> tuple:
    if "target" in a:
        return (a["type"], parse_card(a["card"]), a["target"])
    return (a["type"], parse_card(a["card"])) if "card" in a else (a["type"],)


def durak_move(hand: list[int], attack: list[int], cover: list[int], trump: int, low_i: int, deck: int,
               defending: bool, honest: list[tuple]) -> tuple | None:
    """The heuristic's honest choice in engine form (``("cover", card, target)``, ...) from
    the seat's hand, the table (``cover[i]`` -1: uncovered), the trump suit, the deck's
    lowest rank index and size, whether the seat defends, and its honest actions; ``None``
    to wait."""
    value = lambda c: c % 13 - low_i + (13 if c // 13 == trump else 0)  # noqa: E731 durak_value
    key = lambda a: value(a[1])  # noqa: E731
    kinds: dict[str, list[tuple]] = {}
    for a in honest:
        kinds.setdefault(a[0], []).append(a)
    if "give" in kinds:
        return min(kinds["give"], key=key)
    if defending and attack:
        return _defend(kinds, hand, attack, cover, trump, deck, value)
    attacks = kinds.get("attack", [])
    if not attack:
        return _lead(attacks, hand, value) if attacks else None
    keep = THROW_BELOW[0 if deck == 0 else 1]
    cheap = [a for a in attacks if key(a) < keep]
    if cheap:
        return min(cheap, key=key)
    return kinds["bito"][0] if "bito" in kinds else None


def _lead(attacks: list[tuple], hand: list[int], value) -> tuple:
    counts: dict[int, int] = {}
    for c in hand:
        counts[c % 13] = counts.get(c % 13, 0) + 1
    return min(attacks, key=lambda a: value(a[1]) - 1.5 * (counts[a[1] % 13] - 1))


def _defend(kinds: dict, hand: list[int], attack: list[int], cover: list[int], trump: int, deck: int,
            value) -> tuple | None:
    plain = [a for a in kinds.get("transfer", ()) if a[1] // 13 != trump]
    if plain:
        return min(plain, key=lambda a: value(a[1]))
    uncovered = {a: i for i, (a, c) in enumerate(zip(attack, cover)) if c < 0}
    if not uncovered:
        return None
    plan = cover_plan(list(uncovered), hand, trump)
    if plan is None:
        return ("take",)
    on_table = len(attack) + len(attack) - len(uncovered)
    dear = any(value(c) >= DEAR or (value(c) >= 13 and value(t) < 4) for t, c in plan.items())
    if deck > 4 and dear and on_table <= 2 and len(hand) <= 6:
        return ("take",)  # D6: a trump above the lowest is worth more than a small table
    target = max(uncovered, key=lambda t: durak_key(t, trump))
    return ("cover", plan[target], uncovered[target])


def durak_cheats(view: dict, honest_choice: dict | None, honest: list[dict]) -> list[tuple[float, dict]]:
    """Cheats worth a thought, each with its gain in cards over ``honest_choice`` (D10):
    covering with a card that does not beat instead of taking (D4b), and throwing in a
    rank not on the table to shed a card once the deck is empty (D3r). Both are made
    with a card of the seat's own hand on the public table: no belief needed."""
    trump = suit_index(view["trump"])
    low_i = low_rank(view["deck_size"]) - 2
    value = lambda a: durak_value(parse_card(a["card"]), trump, low_i)  # noqa: E731
    table = view["table"]
    hand = view["hand"]
    out: list[tuple[float, dict]] = []
    last = len(hand) == 1 and view["deck"] == 0  # the cheat plays the last card: the game is won
    if view["seat"] == view["defender"] and table:
        if honest_choice is not None and honest_choice["type"] == "take":
            on_table = sum(1 + (c is not None) for _, c in table)
            covers = [{"type": "cover", "card": c, "target": t}
                      for t, (_, covered) in enumerate(table) if covered is None for c in hand]
            covers = [a for a in covers if a not in honest]
            if covers:
                best = min(covers, key=value)
                out.append((1.0 + 0.5 * on_table + 3.0 * last, best))
        return out
    if table and view["deck"] == 0 and len(table) < view["limit"]:
        if honest_choice is None or honest_choice["type"] == "bito":
            throws = [a for a in ({"type": "attack", "card": c} for c in hand) if a not in honest]
            if throws:
                out.append((1.0 + 3.0 * last, min(throws, key=value)))
    return out


class TableSeen:
    """The durak table as the seat saw it laid, from the projected events (a bout's
    ``limit``, the cards of ``attack``, ``cover`` and ``transfer``): what a call needs,
    without building the whole view at every window. ``pairs`` is ``None`` (ask the view)
    from an undo or a payment (T6, D12) to the next bout."""

    __slots__ = ("pairs", "limit")
    #: The events :meth:`see` reads (the others pass it by).
    EVENTS = frozenset({"bout", "game_start", "undo", "payment_due", "action", "transfer"})

    def __init__(self) -> None:
        self.pairs: list[list] | None = None
        self.limit = 0

    def see(self, event: dict) -> None:
        kind = event["type"]
        if kind == "bout":
            self.pairs, self.limit = [], event["limit"]
        elif kind in ("game_start", "undo", "payment_due"):
            self.pairs = None
        elif self.pairs is None:
            return
        elif kind == "action":
            a = event["action"]
            t = a["type"]
            if t == "attack" or t == "transfer":
                self.pairs.append([a["card"], None])
            elif t == "cover":
                self.pairs[a["target"]][1] = a["card"]
        elif kind == "transfer":
            self.limit = event["limit"]


def plainly_clean(table: list, limit: int, trump: str, action: dict) -> bool:
    """Whether the open window's ``action`` (podkidnoy, perevodnoy, no teams) visibly broke
    no rule, read off the ``table`` it lies on (pairs of card codes, as in a view, with its
    ``limit`` and ``trump`` letter): a lead, a throw-in of a rank already on the table within
    the limit (D3), a cover that beats (D4). ``False`` means "ask the engine"
    (:meth:`Observation.visible_violations`): a transfer, or a card that may break a rule."""
    kind = action.get("type")
    if kind == "cover":
        t = action.get("target")
        if not isinstance(t, int) or not 0 <= t < len(table) or table[t][1] != action.get("card"):
            return False
        card, target = parse_card(action["card"]), parse_card(table[t][0])
        return _beats(card, target, suit_index(trump))
    if kind != "attack" or not table or table[-1][0] != action.get("card"):
        return False
    if len(table) == 1:
        return True  # a lead (D3)
    if len(table) > limit:
        return False
    rank = parse_card(action["card"]) % 13
    return any(parse_card(c) % 13 == rank for pair in table[:-1] for c in pair if c is not None)
