"""«Сто одно»: a deal from its first card to its scores, and the series of deals (T15).

A mixin of :class:`pidor.games.hundred_one.engine.HundredOneGame`. Everything random comes
from the game's key (the committed deal key, T10) on a stream of its own label (T15):

* deal 1: the ``deck`` stream, as every game's deal (``protocol/LOGS.md`` section 3);
* deal ``d`` ≥ 2: the full deck in its fixed order, shuffled on the stream ``deal d``;
* the ``k``-th random event of deal ``d`` (a deck rebuilt from the table, H6; a random card
  taken from a hand, H6): the stream ``deal d event k``.
"""

from __future__ import annotations

from ...cards import card_code
from ...cards import deck as full_deck
from ...engine.game import Event
from ...engine.seeds import Rng, shuffled
from ...engine.units import Units
from .state import QUEEN, SIX, bonus_of, codes, penalty_of, value_of

__all__ = ["Dealing", "HAND", "LIMIT", "VOIDS"]

#: H2: cards dealt to each player (the dealer's fourth goes face up on the table).
HAND = 4
#: H8, H9: a score over this loses; exactly this becomes 0.
LIMIT = 101
#: T13a: this many void deals in a row end the game as a draw.
VOIDS = 3


class Dealing:
    """The deal, drawing (H6, T8), the end of a deal (H8) and of the game (H9, T13a)."""

    # --- a deal -------------------------------------------------------------------

    def _deal(self, dealer: int, order: list[int]) -> None:
        """H2: deal ``order`` (top first): four cards each, one at a time clockwise from the
        player after ``dealer``; the dealer's fourth, the last dealt, lands face up on the table
        as his first play, with its effect (H4)."""
        self.number += 1
        self.dealer = dealer
        n = self.players
        hands: list[list[int]] = [[] for _ in range(n)]
        dealt = HAND * n
        for i in range(dealt - 1):
            hands[(dealer + 1 + i) % n].append(order[i])
        self.hands = hands
        self.deck = order[dealt:][::-1]
        self.table, self.gathered, self.dealing = [], [], False
        self.suit, self.naming, self.six, self.drew, self.penalty, self.last = None, False, False, 0, None, None
        self.pending, self.winner, self.randoms = None, None, 0
        self.runs = [[] for _ in range(n)]
        self.units, self.plays, self.turn_mark = Units(), 0, 0
        self._land(dealer, order[dealt - 1], None)
        self.units, self.plays, self.turn_mark = Units(), 0, 0  # T13: the deal's turns from here

    def _dealt(self) -> Event:
        """The ``deal`` event of a deal just dealt: its dealer and face-up card, the counts,
        and each hand to its seat only."""
        return {"type": "deal", "number": self.number, "dealer": self.dealer, "card": card_code(self.table[0]),
                "deck": len(self.deck), "hands": [len(h) for h in self.hands],
                "_private": {s: {"cards": codes(h)} for s, h in enumerate(self.hands)}}

    def _gather(self) -> None:
        """The deal's cards are gathered (the hands counted and shown, or a void deal's), and
        the next player is to deal (T15)."""
        self.gathered = sorted(self.deck + self.table + [c for h in self.hands for c in h])
        self.deck, self.table, self.hands = [], [], [[] for _ in range(self.players)]
        self.suit, self.naming, self.six, self.penalty, self.last, self.winner = None, False, False, None, None, None
        self.dealing, self.turn, self.drew = True, (self.dealer + 1) % self.players, 0

    def _next_order(self) -> list[int]:
        """T15: the next deal's deck, shuffled from the key on its own stream."""
        return shuffled(full_deck(self.deck_size), self.key, b"deal %d" % (self.number + 1))

    def _rng(self) -> Rng:
        """T15: the stream of the deal's next random event."""
        self.randoms += 1
        return Rng(self.key, b"deal %d event %d" % (self.number, self.randoms))

    # --- a card lands ---------------------------------------------------------------

    def _land(self, seat: int, card: int, suit: int | None) -> None:
        """``card`` of ``seat`` lands on top (a play, or the dealer's first card) with its
        effect (H4): his own six he covers himself; a queen names ``suit`` (the dealer names
        his blind queen's once it shows, H2); any other card ends his turn, and one that makes
        the next player lose his turn leaves him a penalty. A last card that is not a six ends
        the deal after its window, its penalty not taken (H8)."""
        self.table.append(card)
        self.suit = suit
        self.plays += 1
        bonus, run = bonus_of(card), self.runs[seat]
        if bonus:
            run.append(bonus)
        else:
            run.clear()
        if card % 13 == SIX:
            self.turn, self.six, self.last = seat, True, None
        elif not self.hands[seat]:
            self.winner, self.six, self.last = seat, False, None
        elif card % 13 == QUEEN and suit is None:
            self.turn, self.naming, self.six, self.last = seat, True, False, None
        else:
            self._pass_turn(seat, card)

    def _pass_turn(self, seat: int, card: int | None) -> None:
        """``seat``'s turn ends (``card``: the play that ended it, ``None``: a pass or a
        penalty taken); the next player's begins. A card that makes him lose his turn adds
        its cards to what he owes (H4, H4a). T13: a unit ends, with progress if a card was
        played in it."""
        nxt = (seat + 1) % self.players
        owed = None if card is None else penalty_of(card)
        if owed is not None:
            before = self.penalty[1] if self.penalty is not None and self.penalty[0] == nxt else 0
            self.penalty = [nxt, before + owed]
        self.units.end(self.plays > self.turn_mark)
        self.turn_mark = self.plays
        self.turn, self.drew, self.six = nxt, 0, False
        self.last = None if card is None else seat

    # --- drawing (T8: after the window) -------------------------------------------------

    def can_draw(self, seat: int) -> bool:
        """H6: whether a draw of ``seat`` gets a card: from the deck, from the table rebuilt
        into a deck, or from the next player holding two or more."""
        return bool(self.deck) or len(self.table) > 1 or self._giver(seat) is not None

    def _giver(self, seat: int) -> int | None:
        """H6: the next player after ``seat`` (clockwise) who holds two or more cards."""
        n = self.players
        return next((s for s in ((seat + i) % n for i in range(1, n)) if len(self.hands[s]) >= 2), None)

    def _draw(self, seat: int, count: int, penalty: bool, events: list[Event]) -> None:
        """``seat`` takes ``count`` cards from the deck (its draw, or a penalty). H6: an empty
        deck is rebuilt from the table but its top card; with nothing left the rest of a
        penalty is forgiven, and a draw takes a random card from the next player holding two
        or more (if there is none, nothing)."""
        got: list[int] = []
        while len(got) < count and (self.deck or self._rebuild(events)):
            got.append(self.deck.pop())
        self.hands[seat].extend(got)
        if not got and not penalty:
            giver = self._giver(seat)
            if giver is not None:
                i = self._pick(giver)
                card = self.hands[giver].pop(i)
                self.hands[seat].append(card)
                # the card to the taker; the giver is told which of his went (by its place in
                # his hand: it is in another hand now, hidden from him like the rest of it)
                events.append({"type": "pull", "seat": seat, "from": giver,
                               "_private": {seat: {"cards": [card_code(card)]}, giver: {"index": i}}})
                return
        if got or count:
            event = {"type": "draw", "seat": seat, "count": len(got), "deck": len(self.deck),
                     "_private": {seat: {"cards": codes(got)}}}
            if len(got) < count:
                event["forgiven"] = count - len(got)
            events.append(event)

    def _pick(self, giver: int) -> int:
        """H6, T15: the place in ``giver``'s hand of the card taken at random."""
        return self._rng().below(len(self.hands[giver]))

    def _rebuild(self, events: list[Event]) -> bool:
        """H6: the table but its top card, shuffled (T15) into a new deck; ``False`` if the
        table holds only its top card."""
        if len(self.table) < 2:
            return False
        rest, self.table = self.table[:-1], self.table[-1:]
        self.deck = shuffled(rest, self.key, b"deal %d event %d" % (self.number, self.randoms + 1))[::-1]
        self.randoms += 1
        events.append({"type": "reshuffle", "count": len(rest), "deck": len(self.deck)})
        return True

    # --- the end of a deal ----------------------------------------------------------------

    def points(self, seat: int) -> int:
        """H8: what the deal adds to ``seat``'s score. The player who went out takes off the
        bonus of his last card (a queen 20, the queen of spades 40, the king of spades 50); the
        others add their hands. ``bonus_hand``: a hand of bonus cards only, or none, takes off
        their bonuses and those of the unbroken run of bonus cards its player played last."""
        hand, run = self.hands[seat], self.runs[seat]
        if self.bonus_hand and all(bonus_of(c) for c in hand):
            return -sum(bonus_of(c) for c in hand) - sum(run)
        if not hand:
            return -run[-1] if run else 0
        return sum(value_of(c) for c in hand)

    def _end_deal(self, events: list[Event]) -> None:
        """H8: the deal is over (the window of its last action has closed, T15): the player who
        went out sheds the mark (T7), every hand is shown and scored, a score of exactly 101
        becomes 0, the cards are gathered; then H9 ends the game, or the next player deals."""
        w, n = self.winner, self.players
        events.append({"type": "out", "seat": w, "place": 1})
        points = [self.points(s) for s in range(n)]
        for s in range(n):
            self.scores[s] += points[s]
            if self.scores[s] == LIMIT:
                self.scores[s] = 0
        self.history.append({"number": self.number, "winner": w, "points": points, "scores": list(self.scores)})
        self.voids = 0
        events.append({"type": "deal_over", "number": self.number, "winner": w,
                       "hands": [codes(h) for h in self.hands], "points": points, "scores": list(self.scores)})
        self._gather()
        if max(self.scores) > LIMIT:
            self._finish(w, events)

    def _finish(self, w: int, events: list[Event]) -> None:
        """H9: the highest score loses (of equal ones, the first clockwise from ``w``, who went
        out); the rest are placed by score, lowest first (of equal ones, clockwise from ``w``)."""
        n, scores = self.players, self.scores
        after = lambda s: (s - w - 1) % n  # noqa: E731 (clockwise from the one after w)
        loser = max(range(n), key=lambda s: (scores[s], -after(s)))
        order = sorted((s for s in range(n) if s != loser), key=lambda s: (scores[s], (s - w) % n))
        self._result({"loser": loser, "draw": False, "order": order}, events)

    def _void(self, reason: str, events: list[Event]) -> None:
        """T13a: a T13 end voids the deal, not the game: nobody scores, the cards are gathered
        and the next player deals; three void deals in a row end the game as a draw (nobody
        placed, the mark stays)."""
        self.voids += 1
        self.history.append({"number": self.number, "void": reason})
        events.append({"type": "void", "number": self.number, "reason": reason, "voids": self.voids})
        self._gather()
        if self.voids >= VOIDS:
            self._result({"loser": None, "draw": True, "order": [], "stalled": reason}, events)

    def _result(self, result: dict, events: list[Event]) -> None:
        """The game's result with its scores and each deal's record (T15: one result)."""
        result["scores"] = list(self.scores)
        result["deals"] = [dict(d) for d in self.history]
        self.result = result
        events.append({"type": "game_over", "result": result})
