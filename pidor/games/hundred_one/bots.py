"""«Сто одно» for the built-in policies (:class:`pidor.bots.tactics.Tactics`).

Greedy (the yardstick): the forced moves as they come (a penalty taken, the deal, the
cheapest card paid); otherwise it covers with a card that makes the next player take cards
or lose his turn when it has one (H4), else with its highest-scoring card (H8); it never
lays a six it cannot cover itself, and with three cards or fewer it keeps a queen or the
king of spades to go out on (H8's bonus); with no cover it draws, then passes (H3).

The heuristic, from the seat's view and what it has seen (:class:`Seen`):

* it counts cards: the cards of each suit not yet seen, and the suits each opponent was
  seen not to have (he drew or passed on them);
* it plans its turn as a series (:func:`best_series`): a six it covers itself, and with two
  players a card that makes the opponent lose his turn, leave it on turn (H4, H5); each
  series is scored by the points shed, the cards the next player takes, going out (with
  its bonus) and the card it leaves the next player to cover;
* it names a queen's suit by what it holds and what the next player showed (H4);
* it cheats with judgement (:mod:`pidor.bots.heuristic.judgement`): a cover of another
  suit and rank when it has none (H7c, H7q) is worth more the fewer cards it holds (its
  last card ends the deal, H8); a penalty of two or more cards left untaken (H7p).

The search (``ismcts``) plays honestly (the heuristic calls nine cheats in ten, T6, T14),
plays out to the deal's end with the greedy rule on engine actions, and scores it by the
points each seat added, a cut-off playout by what its hand would add (H8), with 4.5 times
the search's ``steps`` budget.
"""

from __future__ import annotations

import math
from typing import Any

from ...bots.tactics import Goal, Tactics, by_type
from ...cards import card_code, parse_card, suit_code
from .state import QUEEN, SIX, bonus_of, penalty_of, value_of

__all__ = ["TACTICS", "GOALS", "HundredTactics", "greedy_action", "best_series", "Seen"]

#: Points a card taken from the deck is worth on average (H8: 6 to ace over 36 cards).
DRAWN = 6.6
#: Going out: the deal ends and every other hand is counted (H8), worth this many points.
OUT = 40.0
#: A six left on top that its player cannot cover costs him about this many points (H4).
STUCK_SIX = 2 * DRAWN
#: The most series a plan looks at (a hand of many sixes and, heads-up, skip cards).
NODES = 400


def _fits(card: int, top: int, suit: int | None) -> bool:
    """H3: ``card`` covers ``top`` (a queen on top: the named ``suit`` or a queen)."""
    if top % 13 == QUEEN and suit is not None:
        return card % 13 == QUEEN or card // 13 == suit
    return card // 13 == top // 13 or card % 13 == top % 13


def _card(a: dict) -> int:
    return parse_card(a["card"])


def _suit_of(view: dict) -> int | None:
    return None if view.get("suit") is None else "cdhs".index(view["suit"])


def _best_suit(hand: list[int], weak: set[int] | frozenset = frozenset()) -> int:
    """The suit to name for a queen (H4): the one held most (queens aside, they cover any
    queen), then the one the next player was seen without (``weak``), then the dearest."""
    def key(s: int) -> tuple:
        mine = [c for c in hand if c // 13 == s and c % 13 != QUEEN]
        return (len(mine) + (0.5 if s in weak else 0.0), sum(value_of(c) for c in mine))
    return max(range(4), key=key)


def _play(options: list[dict], card: int, suit: int) -> dict:
    """The option laying ``card`` (a queen's with ``suit`` named)."""
    code = card_code(card)
    mine = [a for a in options if a["card"] == code]
    return next((a for a in mine if a.get("suit") == suit_code(suit)), mine[0])


def _forced(kinds: dict[str, list[dict]], hand: list[int]) -> dict | None:
    """The moves with no choice worth weighing: the deal, a penalty taken, a payment."""
    for kind in ("deal", "take_penalty"):
        if kind in kinds:
            return kinds[kind][0]
    if "give" in kinds:
        return min(kinds["give"], key=lambda a: (value_of(_card(a)), bonus_of(_card(a))))
    return None


# --- greedy -------------------------------------------------------------------------------


def _greedy_keys(hand: list[int]):
    """Greedy's preference among the cards of ``hand`` (the best the greatest): a six only
    if another card covers it; with three cards or fewer, a queen or the king of spades kept
    for the last; a card that makes the next player take or skip; the dearest (H4, H8)."""
    suits = [0] * 4
    for c in hand:
        suits[c // 13] += 1
    sixes = sum(1 for c in hand if c % 13 == SIX)
    keep = 1 < len(hand) <= 3 and any(not bonus_of(c) for c in hand)

    def key(card: int) -> tuple:
        covered = card % 13 != SIX or suits[card // 13] > 1 or sixes > 1
        return covered, not (keep and bonus_of(card)), penalty_of(card) is not None, value_of(card)
    return key


def greedy_action(view: dict, honest: list[dict]) -> dict | None:
    kinds = by_type(honest)
    hand = [parse_card(c) for c in view.get("hand") or ()]
    forced = _forced(kinds, hand)
    if forced is not None:
        return forced
    if "name" in kinds:
        return next(a for a in kinds["name"] if a["suit"] == suit_code(_best_suit(hand)))
    plays = kinds.get("cover", []) + kinds.get("queen", [])
    if plays:
        key = _greedy_keys(hand)
        card = max({_card(a) for a in plays}, key=key)
        if key(card)[0] or "draw" not in kinds:
            return _play(plays, card, _best_suit([c for c in hand if c != card]))
    return (kinds.get("draw") or kinds.get("skip") or honest)[0]


# --- what the heuristic remembers ----------------------------------------------------------


class Seen:
    """What the seat saw this deal: the top card and the suit named, and the suits each
    opponent showed he lacks (he drew, or passed, on a card he could have covered with
    them; a card of the suit he lays, or a penalty of two or more he takes, clears it)."""

    __slots__ = ("players", "top", "suit", "lacks")

    def __init__(self, players: int) -> None:
        self.players = players
        self.top: int | None = None
        self.suit: int | None = None
        self.lacks: list[set[int]] = [set() for _ in range(players)]

    def see(self, e: dict) -> None:
        kind = e["type"]
        if kind == "deal":
            self.top, self.suit = parse_card(e["card"]), None
            self.lacks = [set() for _ in range(self.players)]
        elif kind == "action":
            a, seat = e["action"], e["seat"]
            t = a["type"]
            if t in ("cover", "queen"):
                card = parse_card(a["card"])
                self.top = card
                self.suit = "cdhs".index(a["suit"]) if t == "queen" else None
                self.lacks[seat].discard(card // 13)
            elif t == "name":
                self.suit = "cdhs".index(a["suit"])
            elif t in ("draw", "skip") and self.top is not None:
                self.lacks[seat].add(self.suit if self.suit is not None else self.top // 13)
            elif t == "take_penalty" and a.get("count", 0) >= 2:
                self.lacks[seat].clear()
        elif kind == "undo":
            self.top = None  # (the view says again)


# --- the heuristic's plan -------------------------------------------------------------------


def best_series(hand: list[int], top: int, suit: int | None, players: int, weak: set[int],
                unseen: list[int]) -> tuple[float, int | None, int | None]:
    """The best honest series of plays this turn from ``hand`` on ``top`` (``suit`` named
    for a queen): (its worth in points, its first card, the suit that card names if a
    queen); ``None`` when no card covers. A series goes on after a six (its player covers
    it, H4) and, heads-up, after a card that makes the opponent lose his turn (H5)."""
    best: list = [float("-inf"), None, None]
    nodes = [0]

    def walk(hand: tuple, top: int, suit: int | None, worth: float, first: int | None, named: int | None) -> None:
        nodes[0] += 1
        moves = [c for c in hand if _fits(c, top, suit)]
        if not moves or nodes[0] > NODES:
            return
        for card in moves:
            rest = tuple(c for c in hand if c != card)
            pick = _best_suit(list(rest), weak) if card % 13 == QUEEN else None
            gain = worth + value_of(card)
            owed = penalty_of(card)
            if owed is not None:
                gain += owed * DRAWN + 2.0  # the next player takes and loses his turn
            f, n = (card, pick) if first is None else (first, named)
            if card % 13 == SIX:  # H4: covered by himself, or he draws until he can
                if rest and any(_fits(c, card, None) for c in rest):
                    walk(rest, card, None, gain, f, n)
                    continue
                gain -= STUCK_SIX
            elif not rest:  # H8: out; the others count, the last card's bonus taken off
                gain += OUT + bonus_of(card)
            elif players == 2 and owed is not None:  # H5: the turn comes back: play on, or draw
                walk(rest, card, None, gain, f, n)
                gain -= DRAWN
            gain += _left(card, pick, rest, weak, unseen)
            if gain > best[0]:
                best[:] = [gain, f, n]

    walk(tuple(hand), top, suit, 0.0, None, None)
    return best[0], best[1], best[2]


def _left(card: int, named: int | None, rest: tuple, weak: set[int], unseen: list[int]) -> float:
    """The worth of the card left on top for the next player, and of the hand kept: a suit
    he was seen without, or one few unseen cards are left of, is hard for him; a hand
    that covers many cards keeps its next turn easy; a queen or the king of spades kept
    for a small hand's last card is worth its bonus (H8)."""
    suit = named if named is not None else card // 13
    worth = 3.0 if suit in weak else 0.0
    left = sum(1 for c in unseen if c // 13 == suit)
    worth += max(0.0, 3.0 - left) * 0.7
    worth += 0.6 * len({c // 13 for c in rest})
    if len(rest) <= 2 and any(bonus_of(c) for c in rest):
        worth += 5.0
    return worth


def heuristic_action(view: dict, honest: list[dict], seen: Seen) -> dict | None:
    kinds = by_type(honest)
    hand = [parse_card(c) for c in view.get("hand") or ()]
    forced = _forced(kinds, hand)
    if forced is not None:
        return forced
    me, n = view["seat"], view["players"]
    weak = seen.lacks[(me + 1) % n] if len(seen.lacks) == n else set()
    if "name" in kinds:
        return next(a for a in kinds["name"] if a["suit"] == suit_code(_best_suit(hand, weak)))
    plays = kinds.get("cover", []) + kinds.get("queen", [])
    table = [parse_card(c) for c in view["table"]]
    if plays and table:
        unseen = [c for c in range(52) if c % 13 >= SIX and c not in hand and c not in table]
        worth, card, named = best_series(hand, table[-1], _suit_of(view), n, weak, unseen)
        if card is not None and (worth > -STUCK_SIX / 2 or "draw" not in kinds):
            return _play(plays, card, named if named is not None else _best_suit(hand, weak))
    return (kinds.get("draw") or kinds.get("skip") or honest)[0]


def heuristic_cheats(view: dict, choice: dict | None, actions: list[dict]) -> list[tuple[float, dict]]:
    """Cheats worth a thought, with their gain in cards: a cover of another suit and rank
    (H7c; on a queen, of another suit, H7q) when it has no honest one, worth more the fewer
    cards it holds (its last card ends the deal); a penalty of two or more left untaken for
    a card that covers (H7p)."""
    if choice is None:
        return []
    hand = [parse_card(c) for c in view.get("hand") or ()]
    plays = [a for a in actions if a["type"] in ("cover", "queen")]
    if not plays or not hand or not view["table"]:
        return []
    top, suit = parse_card(view["table"][-1]), _suit_of(view)
    if choice["type"] == "take_penalty" and choice.get("count", 0) >= 2:
        fitting = [a for a in plays if _fits(_card(a), top, suit) and _card(a) % 13 != SIX]
        if fitting:
            return [(0.8 * choice["count"], max(fitting, key=lambda a: value_of(_card(a))))]
        return []
    if choice["type"] not in ("draw", "skip"):
        return []
    rest = [a for a in plays if _card(a) % 13 != SIX]
    if not rest:
        return []
    last = len(hand) == 1
    best = max(rest, key=lambda a: (bonus_of(_card(a)) if last else 0, value_of(_card(a))))
    gain = 1.5 + (4.0 if last else 1.0 if len(hand) <= 3 else 0.0)
    return [(gain, best)]


# --- the tactics ---------------------------------------------------------------------------------


def _playout_move(game: Any, seat: int, honest: list[tuple]) -> tuple:
    """The greedy rule on engine actions (what the search's playouts play)."""
    first = honest[0][0]
    if first in ("deal", "take_penalty", "name") or len(honest) == 1:
        return honest[0]
    if first == "give":
        return min(honest, key=lambda a: value_of(a[1]))
    plays = [a for a in honest if a[0] != "draw" and a[0] != "skip"]
    if plays:
        key = _greedy_keys(game.hands[seat])
        best = max(plays, key=lambda a: key(a[1]))
        if key(best[1])[0] or ("draw",) not in honest:
            return best
    return ("draw",) if ("draw",) in honest else honest[-1]


class HundredTactics(Tactics):
    #: A playout ends with its deal (:meth:`stop`); one cut off before is scored by scores
    #: and hands (H8).
    DEPTH = 120
    #: The search plays honestly: the heuristic calls nine cheats in ten here, and a
    #: conviction costs a card and the turn (T6, T14).
    SEARCH_CHEATS = False
    #: The search's ``steps`` count 4.5 times over (20,250 by default): it needs a few hundred
    #: deals a move to tell its moves apart (37.5% of decided series won against the heuristic
    #: with 4,500, 70% with 20,000; 40 series each).
    BUDGET = 4.5
    #: A deal's margin (points, H8) that makes a playout worth 0.73 (a logistic's scale).
    MARGIN = 20.0

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self.seen = Seen(rules["players"])
        self.base: list[int] | None = None  # the scores when the search began

    def observe(self, event: dict) -> None:
        self.seen.see(event)

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        return greedy_action(view, honest)

    def choice(self, view: dict, honest: list[dict]) -> dict | None:
        return heuristic_action(view, honest, self.seen)

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        if view["seat"] != view.get("turn") or view.get("naming") or view.get("dealing"):
            return []
        return heuristic_cheats(view, choice, obs.actions())

    def cost(self, view: dict) -> float:
        """T14: a conviction is paid with a card into the hand (``hard``: one from each other
        player holding two or more), and the action is replayed honestly."""
        givers = sum(1 for s, n in enumerate(view["hands"]) if s != view["seat"] and n >= 2) if view["hard"] else 1
        return givers + 0.5

    def searches(self, view: dict) -> bool:
        self.base = list(view["scores"])
        return not (view.get("dealing") or view.get("naming") or view.get("penalty"))

    def stop(self, game: Any) -> bool:
        """A playout ends with its deal (H8): the next deal is another draw of the cards."""
        return bool(game.dealing)

    def reward(self, game: Any) -> list[float]:
        """The series decided: 1 for all but the loser (½ in a draw, T13a). Else by the
        points each seat added this deal, or would add with the hand it holds (H8), against
        each other seat: a logistic of the margin (:data:`MARGIN`)."""
        n = game.players
        r = game.result
        if r is not None:
            return [0.5] * n if r["draw"] else [0.0 if s == r["loser"] else 1.0 for s in range(n)]
        base = self.base if self.base is not None and len(self.base) == n else [0] * n
        held = game.scores if game.dealing else [self.holding(game, s) for s in range(n)]
        added = [held[s] - base[s] for s in range(n)]
        out = []
        for s in range(n):
            worth = sum(1.0 / (1.0 + math.exp((added[s] - added[t]) / self.MARGIN)) for t in range(n) if t != s)
            out.append(worth / (n - 1))
        return out

    def playout(self, game: Any, seat: int, honest: list[tuple]) -> tuple:
        return _playout_move(game, seat, honest)

    def distinct(self, game: Any, honest: list[tuple]) -> list[tuple]:
        """One suit per queen (the one held most): naming another is rarely better."""
        out, queens = [], set()
        for a in honest:
            if a[0] == "queen":
                if a[1] in queens:
                    continue
                queens.add(a[1])
                a = ("queen", a[1], _best_suit([c for c in game.hands[self.seat] if c != a[1]]))
            out.append(a)
        return out

    def holding(self, game: Any, seat: int) -> int:
        """What ``seat`` would have if the deal ended now: its score and its hand (H8)."""
        return game.scores[seat] + sum(value_of(c) for c in game.hands[seat])


TACTICS = HundredTactics

_H, _G = "builtin:heuristic", "builtin:greedy"
#: The strength figures (``scripts/bench_bots.py``, issue 24), seats rotated.
GOALS = (
    Goal("greedy", _G, (_G,) * 3, measure="seat", games=1000),
    Goal("heuristic", _H, (_G,) * 3, 0.15, games=1000),
    Goal("honest", "builtin:heuristic:cheat=0", (_G,) * 3, games=1000),
    Goal("heads-up", _H, (_G,), 0.65, measure="won", games=1000),
    Goal("ismcts", "builtin:ismcts", (_H,), 0.60, measure="won", games=300),
)
