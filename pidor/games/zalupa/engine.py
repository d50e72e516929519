"""«Залупа» (Z1–Z7): four players, 24 cards, a trump of his own for each, one stack to beat,
and a series of коны decided by the letters з-а-л-у-па (T15); sans-IO.

The fields are described in :mod:`.state`. A game is the whole series: one log, one result.
Every random event draws from the committed deal key (T15): the suit lot on the stream
``suits``, the first deal on ``deck`` (the deal every game makes, ``deal_order``), the deal
of kon ``k`` ≥ 2 on the stream ``deal k`` (the cards in play in their fixed order). An
explicit deck (tests, puzzles) deals the first kon; the suits are then seat by seat (♣ ♦ ♥ ♠)
and the later deals shuffle from SHA-256 of the deck's card codes.

Play (Z3): the player on turn leads a card (``lead``) on the empty table; the next player
still holding cards beats it (``beat``, with his own trump) and leads on top, or takes the
whole stack (``take``, the number of cards from the top) and the next player leads. Having
beaten he may say «отбой» (``otboy``, Z4) instead of leading: the stack goes to the
discard and the next player leads. Having beaten with his last card while two or more
others hold cards he says «отбой» or passes the stack on (``done``, Z3a). A player with no
cards is out (Z5), once the window of his last action has closed (T8). T13's unit is the
stack: it ends when taken or sent to the отбой (T13b). Once a kon is over (its loser has set
aside his lowest trump, Z5) the next dealer deals (``deal``; the hand-over follows, Z2):
the end of a kon stays on the table until then, and the new deal comes in a step of its
own.
"""

from __future__ import annotations

import hashlib

from ...cards import card_code, deck
from ...engine import payments
from ...engine.game import (
    Action,
    Event,
    Game,
    ImpossibleAction,
    deal_order,
    first_seat,
)
from ...engine.options import Option
from ...engine.seeds import shuffled
from ...engine.units import UNIT_OPTIONS, Units
from .state import HAND, LETTERS, LOSSES, SUITS, ZalupaState, copy_result

__all__ = ["ZalupaGame", "beats"]

#: The deck (Z1) and the players (Z1; with ``titles`` the game plays on with fewer, Z6).
SIZE, PLAYERS = 24, 4
#: T13a: void deals in a row that end the game as a draw.
VOIDS = 3
#: Z6 ``titles``: the titles in the order they are given; the last is the one left.
TITLES = ("zalupa", "left_egg", "right_egg", "muzhik")
#: The lowest rank's index in a card (the nine: ``suit * 13 + 7``).
_NINE = 7


def beats(card: int, target: int, trump: int) -> bool:
    """Z3: whether ``card`` beats ``target`` for a player whose own trump is ``trump``: a
    higher card of its suit, or a trump on a card of another suit."""
    if card // 13 == target // 13:
        return card > target
    return card // 13 == trump


def _impossible(message: str, rule: str) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class ZalupaGame(ZalupaState, Game):
    name = "zalupa"
    version = "zalupa-1"
    ACTIONS = {
        "lead": (("card", "card"),),
        "beat": (("card", "card"),),
        "take": (("count", "index"),),
        "otboy": (),
        "done": (),
        "deal": (),
        "give": (("card", "card"),),
    }
    OPTIONS = (
        Option("players", PLAYERS, "int", {"en": "players at the table (Z1)", "ru": "игроков за столом (Z1)"},
               choices=(PLAYERS,)),
        Option("deck", SIZE, "int", {"en": "cards in the deck: nine to ace (Z1)", "ru": "карт в колоде: от девятки "
                                                                                       "до туза (Z1)"},
               choices=(SIZE,)),
        Option("titles", False, "bool", {"en": "Z6: play on to «левое яйцо», «правое яйцо» and «мужик»",
                                         "ru": "Z6: играть дальше, до левого яйца, правого яйца и мужика"}),
        Option("hard", False, "bool", {"en": "T14: every other player with two or more cards pays for the mark",
                                       "ru": "T14: за метку платит каждый, у кого две карты и больше"}),
        *UNIT_OPTIONS,
    )

    # --- creation -----------------------------------------------------------

    @classmethod
    def new(
        cls,
        options: dict | None = None,
        *,
        seed: bytes | None = None,
        deck: list[int] | None = None,
        first: int | None = None,
        previous: dict | None = None,
    ) -> "ZalupaGame":
        """The suit lot (Z1) and the first kon's deal and hand-over (Z2). ``first``: the
        first dealer (tests); else the previous game's «залупа» (Z1), else the lot
        (``bottle``, T10)."""
        opts = cls.options(options)
        order = deal_order(SIZE, seed, deck)
        g = cls.__new__(cls)
        g.players = n = opts["players"]
        g.titles, g.hard = opts["titles"], opts["hard"]
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        if seed is not None:
            g.key = bytes(seed)
            g.suits = shuffled(list(range(n)), g.key, b"suits")
        else:  # an explicit deck: the suits seat by seat, later deals from the deck itself
            g.key = hashlib.sha256(b"zalupa/deck " + " ".join(card_code(c) for c in order).encode()).digest()
            g.suits = list(range(n))
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        dealer = first_seat(n, first, seed, loser)
        g.losses, g.last_loss = [0] * n, [0] * n
        g.aside = [[] for _ in range(n)]
        g.left, g.payments = [], []
        g.kon, g.voids = 0, 0
        g.result = None
        g._deal(dealer, order)
        return g

    def opening(self) -> list[Event]:
        """The suit lot (Z1) and the first deal with its hand-overs (Z2)."""
        return [{"type": "suits", "suits": [SUITS[s] for s in self.suits]}, self._deal_event()]

    def _deal(self, dealer: int, order: list[int] | None = None) -> None:
        """A new kon (Z2): ``order`` (top first) or the shuffle of the cards in play on this
        deal's own stream (T15); six each, one at a time from the player after the dealer,
        while they last; then each lowest trump in play goes to its owner. The dealer leads."""
        self.kon += 1
        self.dealer = dealer
        n = self.players
        if order is None:
            gone = {c for a in self.aside for c in a}
            order = shuffled([c for c in deck(SIZE) if c not in gone], self.key, b"deal %d" % self.kon)
        seats = [s for s in ((dealer + i) % n for i in range(1, n + 1)) if s not in self.left]
        hands: list[list[int]] = [[] for _ in range(n)]
        dealt = min(len(order), HAND * len(seats))
        for k in range(dealt):
            hands[seats[k % len(seats)]].append(order[k])
        handed = []
        for owner in seats:  # Z2: only that card; nothing if the owner holds it himself
            low = self._low(owner)
            for giver in seats:
                if giver != owner and low in hands[giver]:
                    hands[giver].remove(low)
                    hands[owner].append(low)
                    handed.append([giver, owner, low])
                    break
        self.hands, self.stock, self.handed = hands, list(order[dealt:]), handed
        self.stack, self.stack_seats, self.discard = [], [], []
        self.out, self.last_beater, self.ended, self.unit_mark = [], None, None, 0
        self.turn, self.state = dealer, "lead"
        self.units = Units()

    def _deal_event(self) -> Event:
        """The deal as the seats see it: the counts after the hand-over for all; to each his
        hand, whom he handed a card and which card he got from whom (Z2: the two only)."""
        private: dict[int, dict] = {s: {"cards": [card_code(c) for c in self.hands[s]]}
                                    for s in range(self.players) if s not in self.left}
        for giver, owner, card in self.handed:
            private[giver].setdefault("to", []).append(owner)
            private[owner].update(got=card_code(card), giver=giver)
        return {"type": "deal", "kon": self.kon, "dealer": self.dealer, "hands": [len(h) for h in self.hands],
                "stock": len(self.stock), "_private": private}

    # --- helpers -------------------------------------------------------------

    def _low(self, seat: int) -> int:
        """The seat's lowest trump still in play (Z2, Z5): the nine, then the ten…"""
        return self.suits[seat] * 13 + _NINE + len(self.aside[seat])

    def _next(self, seat: int) -> int:
        """The next player clockwise holding cards (``seat`` itself when nobody else does)."""
        n, hands, left = self.players, self.hands, self.left
        for i in range(1, n):
            s = (seat + i) % n
            if hands[s] and s not in left:
                return s
        return seat

    def _loser(self) -> int | None:
        """Z5: the kon's loser once it is decided: the only player holding cards, unless he
        must still beat the card led to him; when nobody holds cards, the one who beat last."""
        if self.state == "deal":
            return None
        holders = [s for s, h in enumerate(self.hands) if h and s not in self.left]
        if not holders:
            return self.last_beater if self.last_beater is not None else self.turn
        if len(holders) == 1 and not (self.state == "beat" and self.turn == holders[0]):
            return holders[0]
        return None

    # --- queries ------------------------------------------------------------

    def in_game(self, seat: int) -> bool:
        return self.result is None and seat not in self.left and seat not in self.out

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        if self._loser() is not None:
            return []  # the kon is decided: its end waits for the window (T8)
        return [self.dealer if self.state == "deal" else self.turn]

    def actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand]
        state = self.state
        if state == "deal":
            return [("deal",)]
        if state == "beat":
            return [*(("beat", c) for c in hand), *(("take", k) for k in range(1, len(self.stack) + 1)), ("otboy",)]
        out: list[Action] = [("lead", c) for c in hand]
        out.append(("otboy",))
        if state == "beaten" and not hand:
            out.append(("done",))
        return out

    def honest_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand]
        state = self.state
        if state == "deal":
            return [("deal",)]
        if state == "beat":
            top, trump = self.stack[-1], self.suits[seat]
            out: list[Action] = [("beat", c) for c in hand if beats(c, top, trump)]
            out.append(("take", len(self.stack)))
            return out
        out = [("lead", c) for c in hand]
        if state == "beaten":
            out.append(("otboy",))
            if not hand:
                out.append(("done",))
        return out

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (Z7) a well-formed ``action`` commits; raises if it is impossible."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise _impossible(f"there is no seat {seat!r} at this table", "T1")
        if self.result is not None:
            raise _impossible("the game is over", "Z6")
        kind = action[0]
        if kind in ("lead", "beat", "give") and action[1] not in self.hands[seat]:
            raise _impossible(f"you do not hold {card_code(action[1])}", "T1")
        if payments.check(self.payments, seat, kind, "T14"):
            return ()
        if seat in self.left:
            raise _impossible("you have left this game (Z6)", "Z6")
        if self._loser() is not None:
            raise _impossible("the kon is over", "Z5")
        state = self.state
        if state == "deal":
            if seat != self.dealer:
                raise _impossible(f"seat {self.dealer} deals the next kon", "Z2")
            if kind != "deal":
                raise _impossible("the kon is over: the dealer deals the next one", "Z2")
            return ()
        if kind == "deal":
            raise _impossible("the cards are dealt", "Z2")
        if seat != self.turn:
            raise _impossible(f"it is seat {self.turn}'s turn", "Z3")
        if kind == "otboy":  # Z4; Z7o: on a lead, or instead of beating or taking
            return () if state == "beaten" else ("Z7o",)
        if kind == "done":
            if state != "beaten" or self.hands[seat]:
                raise _impossible("only a player who beat with his last card passes the stack on", "Z3a")
            return ()
        if state == "beaten":
            if kind == "lead":
                return ()
            raise _impossible("you have beaten: lead a card on top or say «отбой»", "Z4")
        if state == "lead":
            if kind == "lead":
                return ()
            raise _impossible("the table is empty: lead a card", "Z3")
        if kind == "lead":
            raise _impossible("a card on the top card beats it: beat it, or take the stack", "Z3")
        if kind == "beat":
            return () if beats(action[1], self.stack[-1], self.suits[seat]) else ("Z7b",)
        count = action[1]  # take
        if not 1 <= count <= len(self.stack):
            raise _impossible(f"the stack holds {len(self.stack)} cards", "Z3")
        return () if count == len(self.stack) else ("Z7t",)

    def is_callable(self, action: Action) -> bool:
        return action[0] not in ("give", "deal")  # T14: a payment is not a move of play; nor is the deal

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None:
            return "Z6"
        if self.payments:
            return "T14"
        if self.state == "deal":
            return "Z2"
        if self.state == "beaten":
            return "Z4" if self.hands[seat] else "Z3a"
        return "Z3"

    # --- mutation -----------------------------------------------------------

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        kind = action[0]
        data = self.action_data(action)
        event: Event = {"type": "action", "seat": seat, "action": data, "_violations": list(violations)}
        events = [event]
        if kind == "give":  # T14: seen by giver and recipient only
            events += payments.give(self.payments, self.hands, action[1], event)
            payments.skip_empty(self.payments, self.hands)
            return events
        if kind == "deal":  # Z2: the next kon (its cards are dealt as the action is made: no call)
            self._deal(self.dealer)
            events.append(self._deal_event())
            return events
        hand, stack = self.hands[seat], self.stack
        if kind == "lead" or kind == "beat":
            card = action[1]
            hand.remove(card)
            stack.append(card)
            self.stack_seats.append(seat)
            if kind == "beat":
                self.last_beater, self.state = seat, "beaten"  # Z3: he leads on top next (Z4, Z3a)
            else:
                self.turn, self.state = self._next(seat), "beat"
        elif kind == "take":  # Z3: the whole stack (Z7t: the top ``count`` cards)
            count = action[1]
            hand.extend(stack[-count:])
            del stack[-count:]
            del self.stack_seats[-count:]
            self.turn = self._next(seat)
            if stack:
                self.state = "beat"  # (Z7t) the next player beats the new top card
            else:
                self.state, self.ended = "lead", "take"
        elif kind == "otboy":  # Z4 (Z7o): the stack to the discard, the next player leads
            self.ended = "otboy" if stack else "idle"
            self.discard.extend(stack)
            stack.clear()
            self.stack_seats.clear()
            self.turn, self.state = self._next(seat), "lead"
        else:  # done (Z3a): the next player beats the last card
            self.turn, self.state = self._next(seat), "beat"
        return events

    def on_mark(self, seat: int) -> list[Event]:
        """T14: paid at once by the first player after him in the game holding two or more
        cards (``hard``: by each such player)."""
        if not self.in_game(seat):
            return []
        hands = self.hands
        return payments.due(self.payments, seat, payments.givers(seat, self.players, self.in_game,
                                                                 lambda s: len(hands[s]), self.hard, 2))

    def advance(self) -> list[Event]:
        """T8: players out (Z5), the end of a kon (Z5, Z6) and the next deal (Z2); T13: the
        position at the end of a stack, and a void kon (T13a). Idempotent."""
        if self.result is not None or self.payments or self.state == "deal":
            return []
        events: list[Event] = []
        loser = self._loser()
        self._leave(loser, events)
        if loser is not None:
            self._end_kon(loser, events)
        elif self.ended is not None:
            progress = self.ended == "otboy" or len(self.out) > self.unit_mark  # T13b
            self.ended, self.unit_mark = None, len(self.out)
            self.units.end(progress)
            reason = self.units.record(self.position(), self.limits)
            if reason is not None:
                self._void(reason, events)
        return events

    def _leave(self, loser: int | None, events: list[Event]) -> None:
        """Z5: a player with no cards is out (the one who beat with his last card once he has
        said «отбой» or passed the stack on, Z3a; the kon's loser never)."""
        n = self.players
        for i in range(n):
            s = (self.turn + i) % n
            if (self.hands[s] or s in self.out or s in self.left or s == loser
                    or (loser is None and s == self.turn and self.state == "beaten")):
                continue
            self.out.append(s)
            events.append({"type": "out", "seat": s, "place": len(self.out)})

    def _end_kon(self, loser: int, events: list[Event]) -> None:
        """Z5: the loser sets aside his lowest trump, wherever it lies, and his letters grow;
        Z6: five losses end the game (with ``titles`` he leaves, and the game ends when three
        have left); else he deals the next kon (with ``titles``, once he has left, the next
        player still in the game does)."""
        card = self._low(loser)
        for cards in (*self.hands, self.stack, self.discard, self.stock):
            if card in cards:
                if cards is self.stack:
                    del self.stack_seats[self.stack.index(card)]
                cards.remove(card)
                break
        self.aside[loser].append(card)
        self.losses[loser] += 1
        self.last_loss[loser] = self.kon
        self.voids = 0
        leaves = self.titles and self.losses[loser] >= LOSSES
        events.append({"type": "kon_over", "kon": self.kon, "loser": loser, "card": card_code(card),
                       "letters": LETTERS[self.losses[loser]], "leaves": leaves})
        if leaves:  # (T7: he sheds the mark; his place in the game: the last one free)
            self.left.append(loser)
            events.append({"type": "out", "seat": loser, "place": self.players + 1 - len(self.left)})
        if len(self.left) >= len(TITLES) - 1 or (not self.titles and self.losses[loser] >= LOSSES):
            self._finish(events)
            return
        n = self.players
        self._await_deal(next(s for s in ((loser + i) % n for i in range(n)) if s not in self.left))

    def _await_deal(self, dealer: int) -> None:
        """The kon is over: ``dealer`` deals the next (Z3: the loser; T13a: the same dealer)."""
        self.dealer = self.turn = dealer
        self.state, self.out, self.ended = "deal", [], None

    def _void(self, reason: str, events: list[Event]) -> None:
        """T13a: the kon is void (nobody loses it); the same dealer deals again; the third
        void deal in a row ends the game as a draw (those who left keep their letters)."""
        self.voids += 1
        events.append({"type": "kon_void", "kon": self.kon, "reason": reason, "voids": self.voids})
        if self.voids >= VOIDS:
            self.result = {"loser": None, "draw": True, "order": [], "stalled": reason, **self._scores()}
            events.append({"type": "game_over", "result": copy_result(self.result)})
            return
        self._await_deal(self.dealer)

    def _scores(self) -> dict:
        return {"letters": [LETTERS[k] for k in self.losses], "kons": list(self.losses)}

    def _finish(self, events: list[Event]) -> None:
        """Z6: the «залупа» loses; the others are placed by their losses, fewest first (equal
        losses: the earlier last loss higher; none: in seat order after him). With
        ``titles``: «мужик», «правое яйцо», «левое яйцо» in that order."""
        n = self.players
        if self.titles:
            loser = self.left[0]
            rest = [s for s in range(n) if s not in self.left]
            order = rest + self.left[:0:-1]
        else:
            loser = next(s for s in range(n) if self.losses[s] >= LOSSES)
            order = sorted((s for s in range(n) if s != loser),
                           key=lambda s: (self.losses[s], self.last_loss[s], (s - loser) % n))
        result = {"loser": loser, "draw": False, "order": order, **self._scores()}
        if self.titles:
            titles = [TITLES[-1]] * n
            for title, s in zip(TITLES, self.left):
                titles[s] = title
            result["titles"] = titles
            result["muzhik"] = rest
        self.result = result
        events.append({"type": "game_over", "result": copy_result(result)})
