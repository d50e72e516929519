"""«Верю — не верю» for the built-in policies (:class:`pidor.bots.tactics.Tactics`).

Greedy (the honest yardstick): discard every set it holds (B5); lead the truth, every card
of the rank it holds most of with its aces (B2); on a pile, add every card it holds of the
named rank with its aces (B3), doubt a play that its own hand shows cannot be true (B4),
else lie with its least useful card (with none, believe; doubt with ``no_believe``); pay
with its least useful card (T14).

The heuristic counts the cards it has seen (its hand, its own plays and where they went,
the opened plays, the cards shown in each hand, the named sets) and from the cards it
cannot place weighs the chance that the last play is true (:meth:`DoubtTactics.p_last_true`).
It then makes the move worth most in cards: doubt, believe, add the truth, or add a lie,
weighing the pile it may take or hand on and how often the next player is seen to doubt.
On the lead it tells the truth and now and then slips its least useful card under it
(:data:`BLUFF`: a lead taken back costs little, and a player known never to lie is believed
for free). With two left and the other out of cards it takes the draw (B6a). Its махлёж is
a set discarded face down that is not one (B5f), offered to the table's judgement
(:mod:`pidor.bots.heuristic.judgement`) worth most where nobody else can prove it.
"""

from __future__ import annotations

from math import comb
from typing import Any

from ...bots.tactics import Goal, Tactics
from ...cards import ACE, card_code, deck, parse_card, parse_rank, rank_code
from ...engine.game import Game
from .engine import SET

__all__ = ["TACTICS", "GOALS", "DoubtTactics", "Seen", "hypergeometric", "useless"]

#: How often the heuristic slips its least useful card under a true lead.
BLUFF = 0.3
#: What leading the next pile is worth, in cards (one sheds cards by the truth at will).
LEAD = 0.8
#: What a card taken by another player is worth to this one (he is nearer the loss).
OTHERS = 0.25
#: Before any evidence a player doubts a play one time in three.
DOUBT_PRIOR = (1.0, 3.0)
#: With two left and the other out of cards, doubt his last play (rather than draw, B6a) when
#: it is at least this likely false.
ENDGAME = 0.99
#: How much likelier each card that fits the claim makes a deal of the plays under the last
#: (they claimed it too).
CLAIMED = 3.0
#: How likely a true add of ``k`` cards is when its player held more than ``k`` that fit,
#: against when he held ``k`` (the truth is mostly told with all of them).
MORE = 0.3
#: The chance a lead is true (its player named the rank: one he holds, mostly).
LEAD_TRUE = 0.8
#: How likely an add of a given size is as a lie, against as the truth: one card when he held
#: none that fit; the truth with one card slipped under it; several cards when he held none.
LIES = (4.0, 0.02, 0.02)


def _rank(card: int) -> int:
    return card % 13 + 2


def useless(hand: list[int], avoid: int | None = None) -> int | None:
    """The least useful card: of a rank held fewest times, the lowest; never an ace or the
    rank ``avoid``."""
    counts: dict[int, int] = {}
    for c in hand:
        counts[_rank(c)] = counts.get(_rank(c), 0) + 1
    other = [c for c in hand if _rank(c) not in (avoid, ACE)]
    return min(other, key=lambda c: (counts[_rank(c)], _rank(c), c)) if other else None


def hypergeometric(j: int, good: int, pool: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards dealt from ``pool`` cards, ``good`` of which
    fit a claim, holds exactly ``j`` of them."""
    hand = min(hand, pool)
    if not 0 <= j <= min(good, hand) or hand - j > pool - good:
        return 0.0
    return comb(good, j) * comb(pool - good, hand - j) / comb(pool, hand)


def _cards(codes) -> list[int]:
    return [parse_card(c) for c in codes or ()]


def _play(kind: str, cards: list[int], rank: int | None = None) -> dict:
    data: dict[str, Any] = {"type": kind}
    if rank is not None:
        data["rank"] = rank_code(rank)
    data["cards"] = [card_code(c) for c in cards]
    return data


class Seen:
    """What the seat remembers beyond its view, from its projected events: its own cards
    it saw go face down to the discard (its sets, its plays in a pile discarded), its cards
    in a pile another took unopened (until he lays cards face down again), and how often
    each player doubts when he decides."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.dead: set[int] = set()  # its own cards in the discard, face down
        self.held: dict[int, set[int]] = {}  # seat -> its cards in his hand
        self.mine: list[int] = []  # its cards in the pile now
        self.last_discard: list[int] = []
        self.doubts = [0] * players
        self.decisions = [0] * players

    def see(self, e: dict) -> None:
        kind = e["type"]
        if kind == "game_start":
            self.dead.clear()
            self.held.clear()
            self.mine = []
        elif kind == "action":
            seat, a = e["seat"], e["action"]
            t = a.get("type")
            if t in ("believe", "doubt", "add"):
                self.decisions[seat] += 1
                self.doubts[seat] += t == "doubt"
            if t in ("lead", "add", "discard", "give"):
                self.held.pop(seat, None)  # which of them he still holds, nobody can tell
            if seat == self.seat and "cards" in a:
                if t == "lead":
                    self.mine = _cards(a["cards"])
                elif t == "add":
                    self.mine += _cards(a["cards"])
                elif t == "discard":
                    self.last_discard = _cards(a["cards"])
                    self.dead.update(self.last_discard)
            elif t == "lead":
                self.mine = []
        elif kind == "open":
            opened = set(_cards(e["cards"]))
            self.mine = [c for c in self.mine if c not in opened]
        elif kind == "pile":
            taker = e.get("seat")
            if taker is None:
                self.dead.update(self.mine)
            elif taker != self.seat and self.mine:
                self.held.setdefault(taker, set()).update(self.mine)
            self.mine = []
        elif kind == "undo" and e.get("seat") == self.seat and (e.get("action") or {}).get("type") == "discard":
            self.dead.difference_update(self.last_discard)

    def doubt_rate(self, seat: int) -> float:
        a, b = DOUBT_PRIOR
        return (self.doubts[seat] + a) / (self.decisions[seat] + b)


def _draw(hand: list[int]) -> float:
    """A number in [0, 1) that the hand alone decides, spread like a random one (a mixed
    strategy with no Rng of its own: the same observation gives the same move)."""
    x = 0
    for c in sorted(hand):
        x = (x * 53 + c + 1) % 1_000_003
    return (x * 7919 % 1000) / 1000.0


def _next_in(view: dict, seat: int) -> int:
    n, out = view["players"], set(view["out"])
    for i in range(1, n):
        s = (seat + i) % n
        if s not in out:
            return s
    return seat


def _first(hand: list[int], honest: list[dict]) -> dict | None:
    """What comes before any play: paying the mark with the least useful card (T14), then
    every set held (B5); ``None`` when neither is due."""
    kinds = {a["type"] for a in honest}
    if "give" in kinds:
        c = useless(hand)
        return {"type": "give", "card": card_code(c if c is not None else min(hand, key=_rank))}
    return next((a for a in honest if a["type"] == "discard"), None)


def greedy_action(view: dict, honest: list[dict]) -> dict | None:
    if not honest:
        return None
    hand = _cards(view["hand"])
    first = _first(hand, honest)
    if first is not None:
        return first
    aces = [c for c in hand if _rank(c) == ACE]
    if not view["pile"]:  # B2: the truth, the rank held most
        counts: dict[int, list[int]] = {}
        for c in hand:
            if _rank(c) != ACE:
                counts.setdefault(_rank(c), []).append(c)
        if not counts:
            return _play("lead", aces, ACE)
        rank = max(counts, key=lambda r: (len(counts[r]), -r))
        return _play("lead", counts[rank] + aces, rank)
    rank = parse_rank(view["rank"])
    true = [c for c in hand if _rank(c) in (rank, ACE)]
    if true:  # B3
        return _play("add", true)
    last = view["pile"][-1]["count"]
    mine = sum(1 for p in view["pile"] if "cards" in p for c in _cards(p["cards"]) if _rank(c) in (rank, ACE))
    impossible = last > (4 if rank == ACE else 8) - mine  # (it holds none of the rank, nor an ace)
    if impossible or not hand:  # B4: its hand shows the play cannot be true; B3a
        return {"type": "doubt" if impossible or view["no_believe"] else "believe", "index": 0}
    return _play("add", [useless(hand, rank)])  # (every card of its hand is of another rank)


class DoubtTactics(Tactics):
    #: A playout is cut off after this many actions (a pile can go round long).
    DEPTH = 300

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self.seen = Seen(seat, rules["players"])

    def observe(self, event: dict) -> None:
        self.seen.see(event)

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        return greedy_action(view, honest)

    # --- counting -------------------------------------------------------------------

    def _placed(self, view: dict) -> tuple[set[int], dict[int, set[int]]]:
        """The cards the seat can place: (in its hand, in the discard, its own plays in the
        pile, named sets taken for true), and the cards it knows in each other hand."""
        placed = set(_cards(view["hand"])) | set(_cards(view["discarded"])) | self.seen.dead
        for p in view["pile"]:
            placed.update(_cards(p.get("cards")))
        others: dict[int, set[int]] = {}
        for s, known in enumerate(view["known"]):
            if known and s != self.seat:
                others.setdefault(s, set()).update(_cards(known))
        for s, cards in self.seen.held.items():
            others.setdefault(s, set()).update(cards)
        return placed, others

    def p_last_true(self, view: dict) -> float:
        """The chance the last play on the pile is true (B4), from what the seat has seen: a
        lead names a rank its player holds, mostly truly (:data:`LEAD_TRUE`); an add of ``k``
        cards is the truth if its player held ``k`` cards that fit the claim (his unseen
        cards dealt from the ones the seat cannot place: hypergeometric), else a lie, which
        players mostly make with one card or by slipping one under the truth (:data:`LIES`)."""
        if len(view["pile"]) == 1:
            return LEAD_TRUE
        rank = parse_rank(view["rank"])
        last = view["pile"][-1]
        player, k = last["seat"], last["count"]
        placed, others = self._placed(view)
        sets = {parse_rank(x["rank"]) for x in view["sets"] if x["seat"] != self.seat}
        fits = lambda c: _rank(c) in (rank, ACE) and _rank(c) not in sets  # noqa: E731 (a set named: gone)
        elsewhere = set().union(*(cs for s, cs in others.items() if s != player)) if others else set()
        his = others.get(player, set())
        unplaced = [c for c in deck(self.rules["deck"]) if c not in placed and c not in elsewhere and c not in his]
        sure = sum(1 for c in his if fits(c))  # seen going into his hand
        before = max(view["hands"][player] + k - len(his), 0)  # his unseen hand before the play
        hidden = sum(p["count"] for p in view["pile"][:-1] if "cards" not in p)  # the others' plays under it
        fitting = sum(1 for c in unplaced if fits(c))
        # how many of the cards that fit lie in those plays: as many as a deal would put there,
        # made likelier by their claims (CLAIMED times for each)
        under = [hypergeometric(h, fitting, len(unplaced), hidden) * CLAIMED ** h
                 for h in range(min(fitting, hidden) + 1)]
        total = sum(under)
        pool = len(unplaced) - hidden
        one, slipped, many = LIES
        chance = 0.0
        for h, weight in enumerate(under):
            if not weight:
                continue
            held = [hypergeometric(j, fitting - h, pool, before) for j in range(k + 1)]  # he held j more that fit
            need = max(k - sure, 0)
            # the truth is told with every card that fits, mostly (more than he played: MORE)
            true = held[need] + MORE * (1.0 - sum(held[:need + 1]))
            lie = held[0] * (one if k == 1 else many) + (slipped * held[k - 1 - sure] if k >= 2 and k > sure else 0.0)
            chance += weight / total * (true / (true + lie) if true + lie > 0 else 0.0)
        return chance

    # --- the heuristic ----------------------------------------------------------------

    def choice(self, view: dict, honest: list[dict]) -> dict | None:
        if not honest:
            return None
        hand = _cards(view["hand"])
        first = _first(hand, honest)
        if first is not None:
            return first
        if not view["pile"]:
            return self._lead(view, hand)
        return self._decide(view, hand)

    def _lead(self, view: dict, hand: list[int]) -> dict:
        counts: dict[int, list[int]] = {}
        for c in hand:
            if _rank(c) != ACE:
                counts.setdefault(_rank(c), []).append(c)
        aces = [c for c in hand if _rank(c) == ACE]
        if not counts:
            return _play("lead", aces, ACE)
        rank = max(counts, key=lambda r: (len(counts[r]), -r))
        cards = counts[rank]
        if len(cards) + len(aces) == len(hand):
            cards = cards + aces  # the last cards: all of them, the truth
        else:
            junk = useless(hand, rank)
            if junk is not None and len(cards) < 3 and _draw(hand) < BLUFF:
                cards = cards + [junk]
        return _play("lead", cards, rank)

    def _decide(self, view: dict, hand: list[int]) -> dict:
        rank = parse_rank(view["rank"])
        pile = sum(p["count"] for p in view["pile"])
        pt = self.p_last_true(view)
        options: list[tuple[float, dict]] = []
        doubt = {"type": "doubt", "index": 0}
        last = view["pile"][-1]["seat"]
        if view["players"] - len(view["out"]) == 2 and not view["hands"][last] and hand:
            # B6a: the other played his last cards: believing him, or doubting the truth, loses;
            # adding every card left is a draw
            return doubt if 1 - pt > ENDGAME else _play("add", hand)
        options.append((pt * -pile + (1 - pt) * (OTHERS * pile + LEAD), doubt))
        if not view["no_believe"]:
            options.append((pt * LEAD - (1 - pt) * pile, {"type": "believe", "index": 0}))
        same = [c for c in hand if _rank(c) == rank]
        aces = [c for c in hand if _rank(c) == ACE and rank != ACE]
        if same or aces:
            true = same or aces
            if len(same) + len(aces) == len(hand):
                true = same + aces
            options.append((len(true) + 0.1, _play("add", true)))
        junk = useless(hand, rank)
        if junk is not None:
            q = self.seen.doubt_rate(_next_in(view, self.seat))
            options.append((1 - q * (pile + 1) + (1 - q) * OTHERS, _play("add", [junk])))
        return max(options, key=lambda o: o[0])[1]

    # --- махлёж (B5f) ------------------------------------------------------------------

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        """A set discarded face down that is not one (B5f): three of a rank and the least
        useful card, named as four, never when the fourth card of the rank was seen by all
        (opened, or in the discard face up). Whoever knows where it is (its holder, the
        player who laid it face down) can prove it; so it is worth most when the seat laid
        it in the discard itself (nobody else knows), and the judgement weighs the rest by
        what each opponent is seen to call."""
        if view["no_believe"] or view["payments"] or choice is None or choice["type"] == "discard":
            return []
        hand = _cards(view["hand"])
        if len(hand) <= SET:
            return []
        seen = set(_cards(view["discarded"])) | {c for k in view["known"] for c in _cards(k)}
        counts: dict[int, list[int]] = {}
        for c in hand:
            counts.setdefault(_rank(c), []).append(c)
        out = []
        for rank, cards in counts.items():
            if rank == ACE or len(cards) != SET - 1:
                continue
            missing = next(c for c in deck(self.rules["deck"]) if _rank(c) == rank and c not in cards)
            junk = useless([c for c in hand if _rank(c) != rank])
            if missing in seen or junk is None:
                continue
            gain = float(SET) if missing in self.seen.dead else 1.0  # (someone else likely knows it)
            out.append((gain, {"type": "discard", "rank": rank_code(rank),
                               "cards": [card_code(c) for c in cards + [junk]]}))
        return out

    def cost(self, view: dict) -> float:
        """T14: a conviction brings a card from the next player who can pay (``hard``:
        from each), and the move is undone."""
        givers = view["players"] - 1 - len(view["out"]) if view["hard"] else 1
        return givers + 0.5

    # --- search (engine form) -----------------------------------------------------------

    def searches(self, view: dict) -> bool:
        """Not when the other of the last two has played his last cards: the heuristic's
        draw (B6a), or its doubt of a play it knows false, is the move."""
        pile = view["pile"]
        return not (pile and view["players"] - len(view["out"]) == 2 and not view["hands"][pile[-1]["seat"]])

    def playout(self, game: Game, seat: int, honest: list[tuple]) -> tuple:
        """A fast rule on the engine's own state: a set first, the truth with every card
        that fits, else doubt a play of several cards, else lie with one card."""
        return _playout(game, seat, honest)

    def holding(self, game: Game, seat: int) -> int:
        return len(game.hands[seat])


def _playout(game: Any, seat: int, honest: list[tuple]) -> tuple:
    if honest[0][0] == "give":
        return min(honest, key=lambda a: (_rank(a[1]) == ACE, _rank(a[1])))
    for a in honest:
        if a[0] == "discard":
            return a
    hand = game.hands[seat]
    if not game.pile:
        return max(honest, key=lambda a: (len(a[2]) if a[0] == "lead" and all(_rank(c) in (a[1], ACE) for c in a[2])
                                          else 0))
    rank = game.rank
    true = [c for c in hand if _rank(c) in (rank, ACE)]
    if true:
        return ("add", tuple(true))
    last = len(game.pile[-1][1])
    if last >= 2 or not hand:
        return ("doubt", 0)
    return ("add", (hand[0],))


TACTICS = DoubtTactics

_H, _G, _R = "builtin:heuristic", "builtin:greedy", "builtin:random"
#: The strength figures (``scripts/bench_bots.py``, issue 23): 4 players, seats rotated.
GOALS = (
    Goal("greedy", _G, (_G,) * 3, measure="seat"),
    Goal("greedy-random", _G, (_R,) * 3, 0.10),
    Goal("heuristic", _H, (_G,) * 3, 0.15),
    Goal("ismcts", "builtin:ismcts", (_H,) * 3, 0.20, games=400),
)
