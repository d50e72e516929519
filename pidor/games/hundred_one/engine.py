"""«Сто одно» («бридж», «фараон»): rulings H1–H9 with T13a, T14 and T15; sans-IO.

One game is a series of deals (T15), one log and one result: each deal is played until a
player's hand is empty, its hands are scored (H8), and the game ends when a score goes
over 101 (H9). State (plain ints and lists, so snapshots are cheap):

* the series: ``scores``, ``number`` (the deal's, from 1), ``dealer``, ``voids`` (void deals
  in a row, T13a), ``history`` (each deal's record: the running score table), ``key`` (the
  committed deal key every shuffle comes from, T15; never shown);
* the deal: ``deck`` (**bottom first**, the top is ``deck[-1]``; ``to_data`` top first),
  ``table`` (bottom first, the top card last), ``hands``;
* the turn: ``turn`` (the seat on turn), ``drew`` (draws this turn, H3), ``six`` (the top
  card is his own six, which he must cover, H4), ``suit`` (the suit named for the queen on
  top), ``naming`` (the dealer is to name his blind queen's suit, H2), ``penalty`` (``[seat,
  cards]``: the seat whose turn is to take them, H4a), ``last`` (the seat whose turn a play
  just ended: until anyone else acts he may still lay another card, H7m);
* what waits for the window (T8): ``pending`` (``[seat, cards, penalty]``: a draw or a
  penalty taken, drawn in :meth:`advance`), ``winner`` (the deal is over: scored in
  :meth:`advance`); ``payments`` (T14); ``runs`` (each seat's unbroken run of bonus cards
  played last, H8); ``randoms`` (the deal's random events so far, T15); ``units``, ``plays``,
  ``turn_mark`` (T13: the deal's turns; cards played in all, and when the turn began).

Actions: ``cover(card)`` (any card but a queen), ``queen(card, suit)`` (a queen and the suit
it names), ``name(suit)`` (the dealer's blind queen), ``draw``, ``skip``,
``take_penalty(count)``, ``give(card)`` (T14) and ``deal`` (the next dealer, once a deal is
over: its cards are gathered, ``gathered``, until he deals). A penalty is the penalised player's own
turn (H4a): playing instead, drawing, passing or taking fewer cards is H7p.
"""

from __future__ import annotations

import hashlib

from ...cards import card_code
from ...engine import payments
from ...engine.game import Action, Event, Game, ImpossibleAction, InvalidAction, deal_order, first_seat
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS
from .deal import Dealing
from .state import QUEEN, HundredState

__all__ = ["HundredOneGame"]


def _impossible(message: str, rule: str | None = None) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class HundredOneGame(Dealing, HundredState, Game):
    name = "hundred_one"
    version = "hundred_one-1"
    ACTIONS = {
        "cover": (("card", "card"),),
        "queen": (("card", "card"), ("suit", "suit")),
        "name": (("suit", "suit"),),
        "draw": (),
        "skip": (),
        "take_penalty": (("count", "index"),),
        "give": (("card", "card"),),
        "deal": (),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table (H1)", "ru": "игроков за столом (H1)"}, low=2, high=6),
        Option("deck", 36, "int", {"en": "cards in the deck: 36 (H1: the seed's deck and scores)",
                                   "ru": "карт в колоде: 36 (H1: колода и очки из правил)"}, choices=(36,)),
        Option("bonus_hand", False, "bool",
               {"en": "H8: a hand of bonus cards only takes their bonuses off, with the run of bonus cards played last",
                "ru": "H8: рука из одних бонусных карт снимает их бонусы вместе с последними бонусными ходами"}),
        Option("hard", False, "bool", {"en": "T14: every other player holding two or more pays a card for the mark",
                                       "ru": "T14: за метку платит картой каждый, у кого две карты и больше"}),
        *UNIT_OPTIONS,
    )
    #: Every honest turn is a choice among the seat's own cards and the public table: an
    #: action chosen before any other action stays natural (the default).

    # --- creation -------------------------------------------------------------------

    @classmethod
    def new(cls, options: dict | None = None, *, seed: bytes | None = None, deck: list[int] | None = None,
            first: int | None = None, previous: dict | None = None) -> "HundredOneGame":
        """The series' first deal (H2) from ``seed`` (or an explicit ``deck``, top first: its
        later deals then shuffle from a key made of that deck). ``first`` forces the first
        player to cover (tests): the dealer sits before him; else the previous game's loser
        deals, and the first game's (or a draw's next) dealer is drawn by lot (T15, the
        «бутылка»)."""
        opts = cls.options(options)
        g = cls.__new__(cls)
        g.players, g.deck_size = opts["players"], opts["deck"]
        g.bonus_hand, g.hard = opts["bonus_hand"], opts["hard"]
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        order = deal_order(g.deck_size, seed, deck)
        g.key = seed if seed is not None else hashlib.sha256(bytes(order)).digest()
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        dealer = first_seat(g.players, first, seed, loser) - (first is not None)
        g.scores, g.number, g.voids, g.history = [0] * g.players, 0, 0, []
        g.payments, g.result = [], None
        g._deal(dealer % g.players, order)
        return g

    def opening(self) -> list[Event]:
        """The first deal is announced like every later one: its dealer, its face-up card,
        and each hand to its seat (H2)."""
        return [self._dealt()]

    # --- queries --------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        if self.pending is not None or self.winner is not None:
            return []  # (the window's end draws or scores, T8)
        return [self.turn]

    def in_game(self, seat: int) -> bool:
        # T15: every seat plays every deal (a deal's winner holds no cards only from his last
        # card to its window's end, when he owes no answer).
        return self.result is None

    def owes(self, seat: int) -> int | None:
        """The cards ``seat`` owes as his turn (H4a; 0 for an ace), or ``None``."""
        p = self.penalty
        return p[1] if p is not None and p[0] == seat and self.turn == seat else None

    def actions(self, seat: int) -> list[Action]:
        """Every action ``seat``'s hands can make now (T1), cheats included."""
        if self.payments:
            return [("give", c) for c in self.hands[seat]] if seat == self.payments[0][0] else []
        if seat not in self.to_act():
            return self._covers(seat) if seat == self.last else []
        if self.naming:
            return [("name", s) for s in range(4)]
        if self.dealing:
            return [("deal",)]
        out = self._covers(seat)
        if self.can_draw(seat):
            out.append(("draw",))
        out.append(("skip",))
        owed = self.owes(seat)
        if owed is not None:
            out.extend(("take_penalty", k) for k in range(owed + 1))
        return out

    def _covers(self, seat: int) -> list[Action]:
        return [("queen", c, s) if c % 13 == QUEEN else ("cover", c) for c in self.hands[seat]
                for s in (range(4) if c % 13 == QUEEN else (None,))]

    def honest_actions(self, seat: int) -> list[Action]:
        """Direct enumeration of the actions that break no rule (fast path for bots)."""
        if self.payments:
            return [("give", c) for c in self.hands[seat]] if seat == self.payments[0][0] else []
        if seat not in self.to_act():
            return []
        if self.naming:
            return [("name", s) for s in range(4)]
        if self.dealing:
            return [("deal",)]
        owed = self.owes(seat)
        if owed is not None:
            return [("take_penalty", owed)]
        out = [a for a in self._covers(seat) if not self._fit(a[1])]
        if self.can_draw(seat):
            if not self.drew or self.six:
                out.append(("draw",))
            if self.drew and not self.six:
                out.append(("skip",))
        else:
            out.append(("skip",))
        return out

    def _fit(self, card: int) -> tuple[str, ...]:
        """H3, H7: whether ``card`` covers the top card: by suit or rank; a queen on top (its
        suit named) only by that suit or a queen, and then only H7q applies."""
        top = self.table[-1]
        if top % 13 == QUEEN and self.suit is not None:
            return () if card % 13 == QUEEN or card // 13 == self.suit else ("H7q",)
        return () if card // 13 == top // 13 or card % 13 == top % 13 else ("H7c",)

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (H7) a well-formed ``action`` commits; raises if it is malformed for
        this game (a queen without a suit, a suit for another card) or impossible (T1)."""
        kind = action[0]
        if kind == "cover" and action[1] % 13 == QUEEN:
            raise InvalidAction("a queen names a suit: queen CARD SUIT (H4)")
        if kind == "queen" and action[1] % 13 != QUEEN:
            raise InvalidAction(f"only a queen names a suit, not {card_code(action[1])}: cover CARD (H4)")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidAction(f"no seat {seat!r} at this table")
        if self.result is not None:
            raise _impossible("the game is over")
        if kind in ("cover", "queen", "give") and action[1] not in self.hands[seat]:
            raise _impossible(f"you do not hold {card_code(action[1])}", "T1")
        if payments.check(self.payments, seat, kind, "T14"):
            return ()
        if self.pending is not None or self.winner is not None:
            raise _impossible("wait: the table draws or counts once the window is over (T8)", "T8")
        if seat != self.turn:
            if seat == self.last and kind in ("cover", "queen"):
                return ("H7m", *self._fit(action[1]))  # another card before the next player moved
            raise _impossible(f"it is seat {self.turn}'s turn", "H3")
        if self.naming:
            if kind != "name":
                raise _impossible("name the suit of your queen first (H2)", "H2")
            return ()
        if self.dealing != (kind == "deal"):
            raise _impossible("the deal is over: deal the next one" if self.dealing else "the cards are dealt", "T15")
        if kind == "deal":
            return ()
        if kind == "name":
            raise _impossible("a queen's suit is named with its play: queen CARD SUIT", "H4")
        owed = self.owes(seat)
        if kind == "take_penalty":
            if owed is None:
                raise _impossible("you owe no penalty (a draw takes one card)", "H4a")
            if not 0 <= action[1] <= owed:
                raise _impossible(f"you owe {owed} card(s)", "H4a")
            return ("H7p",) if action[1] < owed else ()
        if owed is not None:  # H4a: the penalty is his turn; anything else ignores it
            if kind == "draw" and not self.can_draw(seat):
                raise _impossible("nothing is left to draw", "H6")
            return ("H7p", *(self._fit(action[1]) if kind in ("cover", "queen") else ()))
        if kind in ("cover", "queen"):
            return self._fit(action[1])
        can = self.can_draw(seat)
        if kind == "draw":
            if not can:
                raise _impossible("nothing is left to draw", "H6")
            return ("H7d",) if self.drew and not self.six else ()
        # skip: after a draw, or with nothing left to draw (H3, H6); never on one's own six (H4)
        if self.six:
            return ("H7s",) if can else ()
        return ("H7n",) if can and not self.drew else ()

    def is_callable(self, action: Action) -> bool:
        return action[0] not in ("give", "deal")  # T14: a payment is no move of play; nor is dealing (T15)

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None:
            return "H9"
        if self.payments:
            return "T14"
        if self.naming or self.dealing:
            return "H2"
        if self.owes(seat) is not None:
            return "H4a"
        if self.six or self.table[-1] % 13 == QUEEN:
            return "H4"
        return "H3"

    # --- mutation -------------------------------------------------------------------

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        kind = action[0]
        first: Event = {"type": "action", "seat": seat, "action": self.action_data(action),
                        "_violations": list(violations)}
        events = [first]
        if kind == "give":  # T14: seen by giver and recipient only
            events += payments.give(self.payments, self.hands, action[1], first)
            return events
        if seat == self.turn and self.penalty is not None and self.penalty[0] == seat:
            self.penalty = None  # H4a: taken, or ignored (H7p)
        if kind == "deal":  # T15: the next deal, shuffled from the key on its own stream
            self._deal(self.turn, self._next_order())
            events.append(self._dealt())
        elif kind == "name":
            self.naming, self.suit = False, action[1]
            self._pass_turn(seat, self.table[-1])
        elif kind in ("cover", "queen"):
            card = action[1]
            self.hands[seat].remove(card)
            self._land(seat, card, action[2] if kind == "queen" else None)
        elif kind == "draw":
            self.drew += 1
            self.pending, self.last = [seat, 1, False], None
        elif kind == "take_penalty":
            self.pending, self.last = [seat, action[1], True], None
        else:  # skip: an uncovered six is the next player's to cover like any card (H4a)
            if self.hands[seat]:
                self._pass_turn(seat, None)
            else:  # (his last card was a six he could not cover: his turn ends with no cards, H8)
                self.winner, self.six, self.last = seat, False, None
        return events

    def advance(self) -> list[Event]:
        """T8: draws and penalties taken, then the end of the deal (H8, H9); T13: the turn's
        position is recorded, and a deal that goes round in circles is void (T13a)."""
        if self.result is not None:
            return []
        events: list[Event] = []
        if self.pending is not None:  # (before a payment for a mark in its window: T8 is all it waits for)
            seat, count, penalty = self.pending
            self.pending = None
            self._draw(seat, count, penalty, events)
            if penalty:
                self._pass_turn(seat, None)  # H4a: he loses his turn
            elif self.six:  # T13: a turn of draws for his own six (H3, H4) may never end (drawn from a
                self.units.end(False)  # hand, H6): each counts as a unit without progress (our reading)
            # T14: paying never empties a hand (a random card taken may have left a giver one)
            self.payments[:] = [p for p in self.payments if len(self.hands[p[0]]) >= 2]
        if self.payments:
            return events
        if self.winner is not None:
            self._end_deal(events)
            return events
        if self.units.due:
            reason = self._record()
            if reason is not None:
                self._void(reason, events)
        return events

    def _record(self) -> str | None:
        """T13: record the position; the reason the deal goes round in circles, if it does."""
        return self.units.record(self.position(), self.limits)

    def on_mark(self, seat: int) -> list[Event]:
        """T14: the first player after ``seat`` holding two or more cards pays him a card of
        his choice (``hard``: every such player)."""
        if self.result is not None:
            return []
        held = lambda s: len(self.hands[s])  # noqa: E731
        return payments.due(self.payments, seat, payments.givers(seat, self.players, self.in_game, held, self.hard, 2))
