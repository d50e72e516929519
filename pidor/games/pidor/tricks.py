"""«Пидор», trick play (P12–P16).

A mixin of :class:`pidor.games.pidor.engine.PidorGame`; its fields are declared with their
meaning in :class:`.state.PidorState`. The table pile is a list, index 0
the bottom (the first card of the trick); the honest target of a beat is the top
(``len - 1``) and the honest card to take is the bottom (index 0).
"""

from __future__ import annotations

from ...cards import SPADES, card_code
from ...engine.game import Action, Event, ImpossibleAction
from .state import OVER, TRICKS, PidorState

__all__ = ["TrickPlay", "beaters"]

ACE_I = 12  # rank index (rank - 2) of the ace


def _beats(card: int, target: int, trump: int | None, low_i: int) -> bool:
    """P12: whether ``card`` honestly beats ``target``. ``low_i`` is the lowest rank's
    index (0 for the 2 in the 52-card deck, 4 for the 6 in the 36-card deck)."""
    cs, cr = divmod(card, 13)
    ts, tr = divmod(target, 13)
    if ts == SPADES:
        # Only a higher spade beats a spade; the ace only by the lowest spade.
        if cs != SPADES:
            return False
        if tr == ACE_I:
            return cr == low_i
        return cr > tr
    if cs == SPADES:
        return False  # a spade beats nothing but a lower spade
    if cr == low_i:
        return tr == ACE_I and cs == ts  # the lowest rank beats only its own ace
    if cs == ts:
        return cr > tr
    return cs == trump


_BEATERS: dict[tuple[int | None, int], list[frozenset]] = {}


def beaters(trump: int | None, low_i: int) -> list[frozenset]:
    """For every target card, the set of cards that beat it (P12); cached per trump."""
    key = (trump, low_i)
    table = _BEATERS.get(key)
    if table is None:
        table = _BEATERS[key] = [_beaters_of(t, trump, low_i) for t in range(52)]
    return table


def _beaters_of(target: int, trump: int | None, low_i: int) -> frozenset:
    """The cards that beat ``target`` (P12), those :func:`_beats` accepts, listed by suit
    instead of asked card by card (2,704 calls for one trump: a process's first tricks)."""
    ts, tr = divmod(target, 13)
    if ts == SPADES:
        spades = SPADES * 13
        return frozenset((spades + low_i,) if tr == ACE_I else range(spades + tr + 1, spades + 13))
    out = [ts * 13 + r for r in range(tr + 1, 13) if r != low_i]  # a higher card of its suit
    if tr == ACE_I:
        out.append(ts * 13 + low_i)  # the lowest rank beats its own ace
    if trump is not None and trump != ts and trump != SPADES:
        out += [trump * 13 + r for r in range(13) if r != low_i]  # a trump, but not the lowest
    return frozenset(out)


#: P16a as engine pidor-2 read it: tricks in a row that end with no card discarded and
#: nobody out before the game ends as a draw (honest play can loop: a take is legal even
#: when a card beats, P13, and a take that empties the table ends the trick, P15a). T13
#: replaces it.
QUIET_TRICKS = 30


class TrickPlay(PidorState):
    #: P15a: a take that leaves the table empty ends the trick (the end-of-trick steps of
    #: P15/P16 run, nothing goes to the discard, the player after the taker leads). Read
    #: literally, P14/P15 let a trick go on forever when the cards still in hands cannot
    #: fill the table (two players holding 6c and 6d: lead, take, skip, lead, take...). The
    #: ``False`` setting (P15 literally) is kept only for tests that show that loop.
    EMPTY_TABLE_ENDS_TRICK = True
    def beats(self, card: int, target: int) -> bool:
        """P12: whether ``card`` honestly beats ``target`` with this game's trump and deck
        (every game that beats cards answers this one question, e.g. durak's D4)."""
        return card in beaters(self.trump, self._low_i)[target]

    # --- helpers ----------------------------------------------------------------

    def _next_in_game(self, seat: int) -> int:
        n = self.players
        out = self._out
        for i in range(1, n + 1):
            t = (seat + i) % n
            if not out[t]:
                return t
        return seat

    def _trick_ready(self, seat: int) -> None:
        if self.phase != TRICKS:
            raise ImpossibleAction(f"trick play has not started (now: {self.phase})", rule="P13")
        if self.closed:
            raise ImpossibleAction("the trick is closed: wait for the next one", rule="P14")
        if seat != self.turn:
            raise ImpossibleAction(f"it is seat {self.turn}'s turn, not yours", rule="T1")

    def _held_card(self, seat: int, card: int) -> None:
        if card not in self.hands[seat]:
            raise ImpossibleAction(f"you do not hold {card_code(card)}", rule="T1")

    # --- checks -------------------------------------------------------------------

    # (Each check tests the common case inline and asks the helper that raises only when it
    # fails: trick play's checks run once per action.)

    def _check_lead(self, seat: int, action: Action) -> tuple[str, ...]:
        card = action[1]
        if self.phase != TRICKS or self.closed or seat != self.turn:
            self._trick_ready(seat)
        if self.table:
            raise ImpossibleAction("the table is not empty: beat its top card or take", rule="P13")
        if card not in self.hands[seat]:
            self._held_card(seat, card)
        return ()

    def _check_beat(self, seat: int, action: Action) -> tuple[str, ...]:
        _, card, target = action
        if self.phase != TRICKS or self.closed or seat != self.turn:
            self._trick_ready(seat)
        table = self.table
        if not table:
            raise ImpossibleAction("the table is empty: lead a card", rule="P13")
        if not 0 <= target < len(table):
            raise ImpossibleAction(f"there is no card {target} on the table", rule="T1")
        if card not in self.hands[seat]:
            self._held_card(seat, card)
        beats = card in beaters(self.trump, self._low_i)[table[target]]
        if target == len(table) - 1:
            return () if beats else ("P12b",)
        return ("P13t",) if beats else ("P12b", "P13t")

    def _check_take(self, seat: int, action: Action) -> tuple[str, ...]:
        index = action[1]
        if self.phase != TRICKS or self.closed or seat != self.turn:
            self._trick_ready(seat)
        if not 0 <= index < len(self.table):
            raise ImpossibleAction(f"there is no card {index} on the table", rule="T1")
        return () if index == 0 else ("P13k",)

    def _check_close(self, seat: int, action: Action) -> tuple[str, ...]:
        if self.phase != TRICKS or self.closed or seat != self.turn:
            self._trick_ready(seat)
        if not self.table:
            raise ImpossibleAction("there is no trick on the table to close", rule="P14")
        return ("P14c",)  # an honest trick closes by itself (P14)

    # --- mutations ------------------------------------------------------------------

    def _do_lead(self, seat: int, action: Action, events: list[Event]) -> None:
        card = action[1]
        self.trick_moves += 1
        self.hands[seat].remove(card)
        table = self.table
        table.append(card)
        self.table_seats.append(seat)
        if len(table) >= self.trick_size:  # P14: the card that fills the table up to the trick's size closes it
            self._close(seat, events)
        else:
            self._pass_turn(seat, events)

    def _do_beat(self, seat: int, action: Action, events: list[Event]) -> None:
        self._do_lead(seat, action, events)  # (the target only decides the rules broken, _check_beat)

    def _do_take(self, seat: int, action: Action, events: list[Event]) -> None:
        index = action[1]
        self.trick_moves += 1
        self.hands[seat].append(self.table.pop(index))
        self.table_seats.pop(index)
        if not self.table and self.EMPTY_TABLE_ENDS_TRICK:
            # P15a: a take that empties the table ends the trick; the player after the
            # taker leads the next one.
            self.closed = True
            self.next_leader = self._next_in_game(seat)
            events.append({"type": "trick_closed", "seat": seat, "cards": [], "empty": True})
            return
        self._pass_turn(seat, events)

    def _do_close(self, seat: int, action: Action, events: list[Event]) -> None:
        self._close(seat, events)

    def _close(self, seat: int, events: list[Event]) -> None:
        self.closed = True
        self.next_leader = seat
        events.append({"type": "trick_closed", "seat": seat, "cards": list(map(card_code, self.table)),
                       "_hold": "trick_display"})

    def _pass_turn(self, seat: int, events: list[Event]) -> None:
        """The next player in the game; P15: one with an empty hand facing an empty table
        is passed over (the player who just took a card always has one, so this ends)."""
        t = seat + 1 if seat + 1 < self.players else 0
        if self._out[t]:
            t = self._next_in_game(seat)
        if not self.table:
            hands = self.hands
            for _ in range(self.players):
                if hands[t]:
                    break
                events.append({"type": "skip", "seat": t})
                t = self._next_in_game(t)
        self.turn = t

    # --- the end of a trick (P14–P16), run by advance() after the window ------------

    def _end_trick(self) -> list[Event]:
        discarded, gone = len(self.table), len(self.order)
        events: list[Event] = [{"type": "discard", "count": discarded}]
        self.discard += self.table
        self.table = []
        self.table_seats = []
        self.closed = False
        leader = self.next_leader
        n = self.players
        for i in range(n if [] in self.hands else 0):  # (an empty hand, or nothing to do)
            s = (leader + i) % n
            if self._out[s] or self.hands[s]:
                continue
            if self.prikups[s]:
                self._take_prikup(s, events)  # P15: only at the end of a trick
            else:
                self._leave(s, events)
        progress = bool(discarded) or len(self.order) > gone  # T13b: a card to the discard, or a player out
        self.quiet_tricks = 0 if progress else self.quiet_tricks + 1
        self.trick_moves = 0  # the trick has ended: it was not endless
        if self._check_end(events):
            return events
        if self.T13:
            self.next_leader = leader
            self.units.end(progress)
            self._stalled(events)
            if self.result is not None:
                return events
        self._start_trick(leader, events)
        return events

    def _start_trick(self, first: int, events: list[Event]) -> None:
        leader = first if not self._out[first] else self._next_in_game(first)
        self.turn = leader
        self.trick_size = self.players - len(self.order)
        self.trick_moves = 0
        self.next_leader = None
        events.append({"type": "trick", "seat": leader, "size": self.trick_size})

    def _leave(self, seat: int, events: list[Event]) -> None:
        self._out[seat] = True
        self._in.remove(seat)
        self.order.append(seat)
        events.append({"type": "out", "seat": seat, "place": len(self.order)})

    def _endless(self) -> bool:
        """A trick that never ends: as many moves in one trick as ``QUIET_TRICKS`` tricks
        of its size would take, with nothing discarded and nobody out meanwhile (both
        happen only at a trick's end). NOT in the rulings: P16a counts tricks, yet honest
        play also loops inside one trick (beat, take the bottom card, beat, take...: the
        table neither fills nor empties); the same draw ends that loop."""
        return self.phase == TRICKS and self.trick_moves >= QUIET_TRICKS * self.trick_size

    def _stall(self, reason: str, events: list[Event]) -> None:
        """T13: the game ends as a draw (``reason``: ``repetition``, ``quiet`` or ``units``);
        those out keep their places, the rest share the last; the mark stays where it is."""
        self.result = {"loser": None, "draw": True, "order": list(self.order), "stalled": reason}
        self.phase = OVER
        self.turn = None
        events.append({"type": "game_over", "result": {**self.result, "order": list(self.order)}})

    def _check_end(self, events: list[Event]) -> bool:
        """P16: one player left with cards is the pidor; nobody: a draw. (Engine pidor-2,
        P16a: after ``QUIET_TRICKS`` tricks in a row with nothing discarded and nobody out,
        a draw; the mark stays where it is: a draw has no loser to give it to, T7.)"""
        left = self._in  # (the seats not out, in seat order)
        if len(left) > 1 and (self.T13 or (self.quiet_tricks < QUIET_TRICKS and not self._endless())):
            return False
        loser = left[0] if len(left) == 1 else None
        # ``order``: the seats that went out, first out first (the loser is not in it).
        self.result = {"loser": loser, "draw": loser is None, "order": list(self.order)}
        self.phase = OVER
        self.turn = None
        events.append({"type": "game_over", "result": {"loser": loser, "draw": loser is None,
                                                       "order": list(self.order)}})
        return True

    # --- enumeration ------------------------------------------------------------------

    def _trick_actions(self, seat: int) -> list[tuple]:
        if self.closed or seat != self.turn:
            return []
        hand = self.hands[seat]
        table = self.table
        if not table:
            return [("lead", c) for c in hand]
        k = len(table)
        out = [("beat", c, t) for c in hand for t in range(k)]
        out += [("take", i) for i in range(k)]
        out.append(("close",))
        return out

    def _trick_honest(self, seat: int) -> list[tuple]:
        if self.closed or seat != self.turn:
            return []
        hand = self.hands[seat]
        table = self.table
        if not table:
            return [("lead", c) for c in hand]
        top = len(table) - 1
        can = _BEATERS.get((self.trump, self._low_i)) or beaters(self.trump, self._low_i)
        can = can[table[top]]
        out = [("beat", c, top) for c in hand if c in can]
        out.append(("take", 0))  # P13: taking the bottom card is always honest
        return out

