"""«Пидор», the deal phase (P2–P9) and the settlement (P10–P11).

A mixin of :class:`pidor.games.pidor.engine.PidorGame`; it only reads and writes the
game's plain fields, declared with their meaning in :class:`.state.PidorState`.

Deal-phase actions of the player on turn (P3): ``move(to)``, ``draw``,
``lay(to)``, ``keep``. A stack is a list bottom first: its two bottom cards are
face down (the future prikup, P8), every card above them is face up and its last
card is the open card.
"""

from __future__ import annotations

from ...cards import SPADES, card_code
from ...engine.game import Action, Event, ImpossibleAction
from .state import DEAL, SETTLE, TRICKS, PidorState

__all__ = ["DealPhase"]


class DealPhase(PidorState):
    # --- helpers ----------------------------------------------------------------

    def _can_move(self, seat: int) -> bool:
        """P5a: the seat's open card could honestly be moved onto another player's open card."""
        st = self.stacks[seat]
        if len(st) <= 3:  # P4
            return False
        want = st[-1] % 13
        up = self._up
        for t, other in enumerate(self.stacks):
            if t != seat and up[other[-1] % 13] == want:
                return True
        return False

    def _deal_over(self) -> bool:
        """P8: the deck is empty and nobody holds a drawn card (ends in ``advance``)."""
        return not self.deck and self.held is None

    def _deal_ready(self, seat: int) -> None:
        if self.phase != DEAL:
            raise ImpossibleAction(f"the deal phase is over (now: {self.phase})", rule="P3")
        if not self.deck and self.held is None:
            raise ImpossibleAction("the deck is empty: the deal phase is ending (P8)", rule="P8")
        if seat != self.turn:
            raise ImpossibleAction(f"it is seat {self.turn}'s turn, not yours", rule="T1")

    def _target(self, to: int) -> None:
        if not 0 <= to < self.players:
            raise ImpossibleAction(f"there is no seat {to} at this table", rule="T1")

    # --- checks (raise if impossible, return the violated rule ids, a tuple) ------

    def _check_move(self, seat: int, action: Action) -> tuple[str, ...]:
        to = action[1]
        self._deal_ready(seat)
        self._target(to)
        if to == seat:
            raise ImpossibleAction("you cannot move your open card onto your own stack", rule="P3")
        st = self.stacks[seat]
        if len(st) <= 3:
            raise ImpossibleAction("a stack is never smaller than three cards: "
                                   "this open card cannot be moved (P4)", rule="P4")
        return () if self._up[self.stacks[to][-1] % 13] == st[-1] % 13 else ("P3m",)

    def _check_draw(self, seat: int, action: Action) -> tuple[str, ...]:
        self._deal_ready(seat)
        if self.held is not None:
            raise ImpossibleAction("you already hold a drawn card: lay it or keep it", rule="P3")
        # (_deal_ready guarantees a non-empty deck when nothing is held.)
        if not self.drew and self._can_move(seat):
            return ("P5a",)
        return ()

    def _check_lay(self, seat: int, action: Action) -> tuple[str, ...]:
        to = action[1]
        self._deal_ready(seat)
        self._target(to)
        if self.held is None:
            raise ImpossibleAction("you hold no drawn card: draw first", rule="P3")
        return () if self._up[self.stacks[to][-1] % 13] == self.held % 13 else ("P3l",)

    def _check_keep(self, seat: int, action: Action) -> tuple[str, ...]:
        self._deal_ready(seat)
        if self.held is None:
            raise ImpossibleAction("you hold no drawn card: draw first", rule="P3")
        want = self.held % 13
        up = self._up
        if any(up[st[-1] % 13] == want for t, st in enumerate(self.stacks) if t != seat):
            return ("P5b",)
        if up[self.stacks[seat][-1] % 13] == want:
            return ("P5c",)
        return ()

    # --- mutations (after the check passed) ---------------------------------------

    def _do_move(self, seat: int, action: Action, events: list[Event]) -> None:
        to = action[1]
        self.stacks[to].append(self.stacks[seat].pop())

    def _do_draw(self, seat: int, action: Action, events: list[Event]) -> None:
        card = self.deck.pop()
        self.held = card
        self.drew = True
        self.last_drawer = seat  # P11
        if card // 13 != SPADES:
            self.trump = card // 13  # P9: the last drawn card that is not a spade
        events.append({"type": "draw", "seat": seat, "card": card_code(card), "deck": len(self.deck)})

    def _do_lay(self, seat: int, action: Action, events: list[Event]) -> None:
        to = action[1]
        self.stacks[to].append(self.held)
        self.held = None  # P3: the turn goes on, draw again

    def _do_keep(self, seat: int, action: Action, events: list[Event]) -> None:
        self.stacks[seat].append(self.held)
        self.held = None
        self.turn = (seat + 1) % self.players
        self.drew = False

    # --- enumeration ------------------------------------------------------------

    def _deal_actions(self, seat: int) -> list[tuple]:
        if seat != self.turn or self._deal_over():
            return []
        n = self.players
        out: list[tuple] = []
        if len(self.stacks[seat]) > 3:
            out += [("move", t) for t in range(n) if t != seat]
        if self.held is None:
            out.append(("draw",))
        else:
            out += [("lay", t) for t in range(n)]
            out.append(("keep",))
        return out

    def _deal_honest(self, seat: int) -> list[tuple]:
        if seat != self.turn or self._deal_over():
            return []
        stacks = self.stacks
        up = self._up
        out: list[tuple] = []
        st = stacks[seat]
        if len(st) > 3:
            want = st[-1] % 13
            for t, other in enumerate(stacks):
                if t != seat and up[other[-1] % 13] == want:
                    out.append(("move", t))
        held = self.held
        if held is None:
            if self.drew or not out:  # P5a
                out.append(("draw",))
        else:
            want = held % 13
            lays = [("lay", t) for t, other in enumerate(stacks) if up[other[-1] % 13] == want]
            if lays:
                out += lays
            else:
                out.append(("keep",))
        return out

    # --- the end of the deal (P8, P9) and the settlement (P10, P11) -----------------

    def _end_deal(self) -> list[Event]:
        n = self.players
        private = {}
        for s in range(n):
            st = self.stacks[s]
            self.prikups[s] = st[:2]  # P8: unknown to everyone, the owner too
            self.hands[s] = st[2:]
            self.stacks[s] = []
            private[s] = {"hand": [card_code(c) for c in self.hands[s]]}
        self.phase = SETTLE
        events: list[Event] = [{
            "type": "deal_end",
            "trump": None if self.trump is None else "cdhs"[self.trump],
            "first": self.last_drawer,
            "hands": [len(h) for h in self.hands],
            "prikups": [len(p) for p in self.prikups],
            "_private": private,
        }]
        # P10: recipients clockwise from the first player of trick play (P11).
        start = self.last_drawer if self.last_drawer is not None else self.turn
        self.dues = []
        for i in range(n):
            r = (start + i) % n
            if self.pidorstvo[r]:
                self.dues.append([r, self.pidorstvo[r]])
        if self.dues:
            events.append({"type": "settlement", "dues": [{"to": r, "count": k} for r, k in self.dues]})
        self.pay_from = None
        self._next_payment(events)
        return events

    def _find_giver(self, recipient: int, start: int) -> int | None:
        """P10: the first player from ``start`` clockwise, not the recipient, with cards."""
        n = self.players
        for i in range(n):
            s = (start + i) % n
            if s != recipient and self.hands[s]:
                return s
        return None

    def _next_payment(self, events: list[Event]) -> None:
        """Find who gives next; when nobody owes anything, trick play starts."""
        while self.dues:
            r, left = self.dues[0]
            if left > 0:
                start = (r + 1) % self.players if self.pay_from is None else self.pay_from
                g = self._find_giver(r, start)
                if g is not None:
                    self.giver = g
                    events.append({"type": "payment", "from": g, "to": r, "left": left})
                    return
            self.dues.pop(0)  # paid, or nobody has a card to give
            self.pay_from = None
        self.giver = None
        self._start_play(events)

    def _check_give(self, seat: int, action: Action) -> tuple[str, ...]:
        card = action[1]
        if self.phase != SETTLE:
            raise ImpossibleAction("there is no payment to make now", rule="P10")
        if seat != self.giver:
            raise ImpossibleAction(f"seat {self.giver} gives now, not you", rule="P10")
        if card not in self.hands[seat]:
            raise ImpossibleAction(f"you do not hold {card_code(card)}", rule="T1")
        return ()

    def _do_give(self, seat: int, action: Action, events: list[Event]) -> None:
        card = action[1]
        r = self.dues[0][0]
        hand = self.hands[seat]
        hand.remove(card)
        self.hands[r].append(card)
        self.given.append([seat, r, card])
        code = card_code(card)
        events.append({"type": "give", "from": seat, "to": r, "_private": {r: {"card": code}}})
        if not hand and self.prikups[seat]:
            self._take_prikup(seat, events)  # P10: at once
        self.dues[0][1] -= 1
        self.pay_from = (seat + 1) % self.players
        self._next_payment(events)

    def _take_prikup(self, seat: int, events: list[Event]) -> None:
        cards = self.prikups[seat]
        self.hands[seat] += cards
        self.prikups[seat] = []
        events.append({"type": "prikup", "seat": seat, "count": len(cards),
                       "_private": {seat: {"cards": [card_code(c) for c in cards]}}})

    def _start_play(self, events: list[Event]) -> None:
        """P11: players with no cards are out; whoever drew the last card leads."""
        for i in range(self.players):
            s = ((self.last_drawer or 0) + i) % self.players
            if not self.hands[s] and not self.prikups[s] and not self._out[s]:
                self._leave(s, events)
        if self._check_end(events):
            return
        self.phase = TRICKS
        first = self.last_drawer if self.last_drawer is not None else self.turn
        self._start_trick(first, events)
