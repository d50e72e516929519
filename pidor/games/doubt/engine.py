"""«Верю — не верю» (also «наеби соседа»): rulings B1–B8, sans-IO.

State (plain ints and lists, so snapshots are cheap):

* ``hands[seat]``; ``pile``: the plays on the table, ``[seat, [cards]]`` each, bottom first
  (the cards of a play in the order they were sent, B2); ``rank``: the rank named at the
  lead (2..14), ``None`` with no pile; ``turn``: who leads (no pile) or decides (B3).
* ``discard`` and ``placer``: the discard pile and, card by card, who laid it there face
  down (``PUBLIC``: it was shown: an opened card, a set discarded face up); ``aside``: the
  card set aside with ``no_believe`` (B8), seen by nobody.
* ``shown``: cards in hands that everyone saw go there (an opened play taken, B7). A seat's
  face-down play, discard or payment makes all of his shown cards unknown again to the
  others: which of them went, nobody else can tell.
* ``sets``: the named sets discarded, ``[seat, rank]`` (B7); ``opened``: the last opened
  play, as its ``open`` event told it (the board shows it).
* ``out``/``order``: who is out, in order (B6); ``payments``: T14's pending payments.

Lying about the rank is legal (the game's own challenge is ``doubt``); the only violation
is B5f, a discard that is not four cards of the named rank. A play's cards are hidden from
everyone but its player: its ``action`` event shows the others the rank and the count
(``_private`` holds the cards for the player). Believe and doubt never break a rule, so
they are never undone (T6): the last play is opened at once, in the same events (T8 needs
no wait).
"""

from __future__ import annotations

from ...cards import ACE, card_code, low_rank, parse_card, rank_code
from ...engine import payments
from ...engine.game import Action, Event, Game, ImpossibleAction, InvalidAction, deal_order, first_seat
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS, Units
from .state import PUBLIC, DoubtState, codes

__all__ = ["DoubtGame", "PUBLIC", "is_true"]

#: What an honest discard holds (B5).
SET = 4


def _rank(card: int) -> int:
    return card % 13 + 2


def is_true(cards, rank: int) -> bool:
    """B4: every card is of the named rank or an ace (an ace stands for any rank)."""
    return all(c % 13 + 2 in (rank, ACE) for c in cards)


def _impossible(message: str, rule: str = "T1") -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class DoubtGame(DoubtState, Game):
    """«Верю — не верю» with its options ``check_one`` and ``no_believe`` (B8)."""

    name = "doubt"
    version = "doubt-1"
    ACTIONS = {
        "lead": (("rank", "rank"), ("cards", "cards")),
        "add": (("cards", "cards"),),
        "believe": (("index", "index"),),
        "doubt": (("index", "index"),),
        "discard": (("rank", "rank"), ("cards", "cards")),
        "give": (("card", "card"),),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table (B1)", "ru": "игроков за столом (B1)"},
               low=3, high=6),
        Option("deck", 36, "int", {"en": "cards in the deck (B1)", "ru": "карт в колоде (B1)"}, choices=(36, 52)),
        Option("check_one", False, "bool", {"en": "B8: believe or doubt opens one card of the play, "
                                                  "the decider's choice",
                                            "ru": "B8: «верю»/«не верю» вскрывает одну карту хода по выбору"}),
        Option("no_believe", False, "bool", {"en": "B8 «наеби товарища»: a card set aside, no «believe», "
                                                   "sets discarded face up",
                                             "ru": "B8 «наеби товарища»: карта отложена, «верю» нет, "
                                                   "четвёрки — в открытую"}),
        Option("hard", False, "bool", {"en": "T14: every other player pays a card for the mark",
                                       "ru": "T14: за метку платит каждый из остальных"}),
        *UNIT_OPTIONS,
    )


    # --- creation -----------------------------------------------------------

    @classmethod
    def new(cls, options: dict | None = None, *, seed: bytes | None = None, deck: list[int] | None = None,
            first: int | None = None, previous: dict | None = None) -> "DoubtGame":
        """B1: the whole deck dealt one card at a time clockwise from the player after the
        dealer, who leads (so he holds one card more when the deck does not share out);
        with ``no_believe`` the top card is first set aside (B8). The dealer: the «бутылка»
        for the first game and after a draw, else the loser (the seat after him leads)."""
        opts = cls.options(options)
        n, size = opts["players"], opts["deck"]
        order = deal_order(size, seed, deck)
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        lead = first_seat(n, first, seed, None if loser is None else (loser + 1) % n)
        g = cls.__new__(cls)
        g.players, g.deck_size = n, size
        g.check_one, g.no_believe, g.hard = opts["check_one"], opts["no_believe"], opts["hard"]
        g.aside = order[:1] if g.no_believe else []
        dealt = order[len(g.aside):]
        g.hands = [[] for _ in range(n)]
        for i, c in enumerate(dealt):
            g.hands[(lead + i) % n].append(c)
        g.pile, g.rank, g.turn = [], None, lead
        g.discard, g.placer, g.shown, g.sets = [], [], [], []
        g.opened = None
        g.out, g.order, g.payments = [False] * n, [], []
        g.ended = False
        g.unit_mark = [0, 0]
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        g.units = Units()
        g.result = None
        return g

    def opening(self) -> list[Event]:
        """Who leads the first pile (B1)."""
        return [{"type": "leader", "seat": self.turn}]

    # --- queries ------------------------------------------------------------

    @property
    def low(self) -> int:
        """The deck's lowest rank (B1: 6 in 36 cards, 2 in 52)."""
        return low_rank(self.deck_size)

    def _next_in(self, seat: int) -> int:
        """The next player clockwise still in the game (``seat`` itself if nobody else is)."""
        n, out = self.players, self.out
        for i in range(1, n):
            s = (seat + i) % n
            if not out[s]:
                return s
        return seat

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        return [self.turn]

    def in_game(self, seat: int) -> bool:
        return not self.out[seat]

    def in_game_seats(self) -> list[int]:
        return [s for s, out in enumerate(self.out) if not out]

    @staticmethod
    def _plays(hand: list[int], ranks) -> tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, tuple[int, ...]]]]:
        """Plays worth offering for a claim of each of ``ranks`` (every other set of the
        seat's cards is as possible, B2), as ``(rank, cards)``: the truths (the cards of the
        rank; with the aces; the aces alone), and the lies, with the least useful card (the
        lowest of a rank held fewest times) alone or under the cards of the rank."""
        groups: dict[int, list[int]] = {}
        for c in hand:
            groups.setdefault(c % 13 + 2, []).append(c)
        aces = groups.get(ACE, [])
        junks = sorted((c for c in hand if c % 13 != 12), key=lambda c: (len(groups[c % 13 + 2]), c % 13, c))
        truths, lies = [], []
        for rank in ranks:
            same = groups.get(rank, [])
            true = [same, same + aces if same else aces] if rank != ACE else [same]
            for play in true:
                if play and (rank, tuple(play)) not in truths:
                    truths.append((rank, tuple(play)))
            junk = next((c for c in junks if c % 13 + 2 != rank), None)
            if junk is not None:
                if same:
                    lies.append((rank, (*same, junk)))
                lies.append((rank, (junk,)))
        return truths, lies

    def actions(self, seat: int) -> list[Action]:
        return self._options(seat, True)

    def honest_actions(self, seat: int) -> list[Action]:
        return self._options(seat, False)

    def _options(self, seat: int, fakes: bool) -> list[Action]:
        """The actions offered to ``seat`` now, the truth first, then believe and doubt, then
        the lies (a person's likeliest first); ``fakes``: with discards that break B5 (each
        rank held one to three times, made up to four with the lowest other cards)."""
        if self.result is not None or seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand]
        out: list[Action] = []
        counts: dict[int, list[int]] = {}
        for c in sorted(hand):
            counts.setdefault(c % 13 + 2, []).append(c)
        lowest = sorted(hand, key=lambda c: (c % 13 == 12, c % 13)) if fakes and len(hand) >= SET else ()
        for r, cards in sorted(counts.items()):  # B5
            if len(cards) == SET:
                out.append(("discard", r, tuple(cards)))
            elif lowest:
                others = [c for c in lowest if c % 13 + 2 != r]
                out.append(("discard", r, tuple(cards) + tuple(others[:SET - len(cards)])))
        if not self.pile:  # B2: a lead, any rank of the deck named
            truths, lies = self._plays(hand, range(self.low, ACE + 1))
            return out + [("lead", r, p) for r, p in truths] + [("lead", r, p) for r, p in lies]
        truths, lies = self._plays(hand, (self.rank,))  # (none with no cards: B3a)
        out += [("add", p) for _, p in truths]
        positions = range(len(self.pile[-1][1])) if self.check_one else (0,)
        out.extend(("doubt", i) for i in positions)
        if not self.no_believe:
            out.extend(("believe", i) for i in positions)
        return out + [("add", p) for _, p in lies]

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None or self.out[seat]:
            return "B6"
        if self.payments:
            return "T14"
        if not self.pile:
            return "B2"
        return "B3a" if not self.hands[seat] else "B3"

    # --- checks -------------------------------------------------------------

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (B5f) of a well-formed action; raises if it is impossible (T1), or
        malformed for this table: a rank the deck does not have, an ``add`` with no pile, a
        ``lead`` on one, an index other than 0 without ``check_one``."""
        kind = action[0]
        if kind in ("lead", "discard") and action[1] < self.low:
            raise InvalidAction(f"there is no rank {rank_code(action[1])} in the {self.deck_size}-card deck "
                                f"(its ranks are {rank_code(self.low)}..A)")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise _impossible(f"there is no seat {seat!r} at this table")
        if self.result is not None:
            raise _impossible("the game is over", "B6")
        if self.out[seat]:
            raise _impossible("you are out of this game", "B6")
        hand = self.hands[seat]
        cards = action[-1] if kind in ("lead", "add", "discard") else (action[1],) if kind == "give" else ()
        for c in cards:
            if c not in hand:
                raise _impossible(f"you do not hold {card_code(c)}")
        if len(set(cards)) != len(cards):
            raise _impossible("a card cannot be laid twice")
        if payments.check(self.payments, seat, kind, "T14"):
            return ()
        if seat != self.turn:
            raise _impossible(f"seat {self.turn} {'decides' if self.pile else 'leads'} now, not you",
                              "B3" if self.pile else "B2")
        if kind == "discard":  # B5: on his turn, before he acts
            return () if len(cards) == SET and all(_rank(c) == action[1] for c in cards) else ("B5f",)
        if kind == "lead":
            if self.pile:
                raise InvalidAction("there is a pile on the table: believe, doubt or add to it (B3)")
            return ()
        if kind == "add":
            if not self.pile:
                raise InvalidAction("the table is empty: there is nothing to add to; lead (B2)")
            return ()
        index = action[1]  # believe, doubt
        if not self.pile:
            raise _impossible("the table is empty: there is no play to open; lead", "B2")
        last = self.pile[-1][1]
        if not 0 <= index < len(last):
            raise _impossible(f"the last play has no card number {index} (it holds {len(last)})", "B8")
        if index and not self.check_one:
            raise InvalidAction("believe and doubt open the whole play: index 0 (a card of the play is chosen "
                                "only with check_one, B8)")
        if kind == "believe" and self.no_believe:
            raise _impossible("with no_believe there is no «believe»: doubt or add", "B8")
        return ()

    def is_callable(self, action: Action) -> bool:
        # T14: a payment is not a move of play.
        return action[0] != "give"

    # --- mutation -----------------------------------------------------------

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        kind = action[0]
        data = self.action_data(action)
        event: Event = {"type": "action", "seat": seat, "action": data, "_violations": list(violations)}
        events = [event]
        if kind == "give":
            self.forget(seat)
            events += payments.give(self.payments, self.hands, action[1], event)
            return events
        if kind in ("believe", "doubt"):
            self._open(seat, kind, action[1], events)
            return events
        cards = list(action[-1])
        face_up = kind == "discard" and self.no_believe  # B8: sets face up
        if face_up:
            self.shown = [c for c in self.shown if c not in cards]
        else:
            self.forget(seat)
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        if not face_up:  # B7: the others see the rank and the count (B2), not the cards
            public = {"type": kind, "count": len(cards)}
            if kind != "add":
                public["rank"] = data["rank"]
            event["action"] = public
            event["_private"] = {seat: {"action": data}}
        if kind == "discard":  # B5
            self.discard.extend(cards)
            self.placer.extend([PUBLIC if face_up else seat] * len(cards))
            self.sets.append([seat, action[1]])
            return events
        if kind == "lead":  # B2
            self.pile = [[seat, cards]]
            self.rank = action[1]
            self.opened = None
        else:  # add (B3): a player with no cards under it is out, nothing can come back to him (B6)
            under = self.pile[-1][0]
            self.pile.append([seat, cards])
            if not self.hands[under]:
                self._leave(under, events)
        self.turn = self._next_in(seat)
        return events

    def forget(self, seat: int) -> None:
        """B7: a face-down play or a payment by ``seat``: the others can no longer tell
        which of his shown cards are still in his hand."""
        if self.shown:
            hand = set(self.hands[seat])
            self.shown = [c for c in self.shown if c not in hand]
            if self.opened is not None and any(parse_card(c) in hand for c in self.opened["cards"]):
                self.opened = None  # (the board shows it no more: it is no longer known where they are)

    def _open(self, seat: int, kind: str, index: int, events: list[Event]) -> None:
        """B4: the last play turned face up (B8 ``check_one``: the one card chosen), judged,
        and the pile taken or discarded."""
        player, cards = self.pile[-1]
        opened = [cards[index]] if self.check_one else list(cards)
        true = is_true(opened, self.rank)
        info = {"type": "open", "seat": player, "by": seat, "says": kind, "rank": rank_code(self.rank),
                "count": len(cards), "cards": codes(opened), "true": true}
        if self.check_one:
            info["index"] = index
        events.append(info)
        self.opened = {k: v for k, v in info.items() if k != "type"}
        if kind == "believe" and true:
            self._discard_pile(opened, events)
            taker = None
        else:
            taker = seat if true or kind == "believe" else player
            self._take(taker, opened, events)
        if not self.hands[player]:  # B6: nothing can come back to him
            self._leave(player, events)
        # B4: the believer of a true play and the doubter of a false one lead; after any
        # other take, the player after the taker
        self.turn = seat if taker in (None, player) else self._next_in(taker)
        self.ended = True

    def _discard_pile(self, opened: list[int], events: list[Event]) -> None:
        """The pile to the discard, face down but for the opened cards (B4, B7)."""
        for player, cards in self.pile:
            self.discard.extend(cards)
            self.placer.extend(PUBLIC if c in opened else player for c in cards)
        events.append({"type": "pile", "outcome": "discard", "seat": None, "count": len(self._pile_cards())})
        self.pile, self.rank = [], None

    def _take(self, taker: int, opened: list[int], events: list[Event]) -> None:
        """The whole pile into ``taker``'s hand, in its order: the cards only to him (B7),
        the opened ones seen by all."""
        cards = self._pile_cards()
        self.hands[taker].extend(cards)
        self.shown.extend(opened)
        events.append({"type": "pile", "outcome": "take", "seat": taker, "count": len(cards),
                       "_private": {taker: {"cards": codes(cards)}}})
        self.pile, self.rank = [], None

    def _leave(self, seat: int, events: list[Event]) -> None:
        self.out[seat] = True
        self.order.append(seat)
        events.append({"type": "out", "seat": seat, "place": len(self.order)})

    def on_mark(self, seat: int) -> list[Event]:
        """T14: the first player after him in the game holding two or more cards gives him
        one of his choice (``hard``: every such player); never the loser's mark."""
        if self.result is not None or self.out[seat]:
            return []
        hands = self.hands
        givers = payments.givers(seat, self.players, self.in_game, lambda s: len(hands[s]), self.hard, 2)
        return payments.due(self.payments, seat, givers)

    def advance(self) -> list[Event]:
        """Once the window has closed: a player with no cards who should lead is out and
        the next leads (B6); the end (B6, B6a); the pile's position (T13)."""
        if self.result is not None:
            return []
        events: list[Event] = []
        led = False
        while not self.pile and not self.hands[self.turn] and not self.out[self.turn]:
            self._leave(self.turn, events)
            self.turn = self._next_in(self.turn)
            led = True
        if self._finish(events):
            return events
        if self.ended:
            self.ended = False
            mark = self.unit_mark
            self.units.end(len(self.discard) > mark[0] or len(self.order) > mark[1])  # T13b
            self.unit_mark = [len(self.discard), len(self.order)]
            reason = self.units.record(self.position(), self.limits)
            if reason is not None:
                self._end(None, events, reason)
                return events
            led = True
        if led:
            events.append({"type": "leader", "seat": self.turn})
        return events

    def _finish(self, events: list[Event]) -> bool:
        """B6: one player left with cards loses. B6a: nobody left, or one with no cards
        (he added his last cards on the last play of the only other): a draw, the pile
        to the discard unopened."""
        left = self.in_game_seats()
        if len(left) > 1:
            return False
        if left and self.hands[left[0]]:
            self._end(left[0], events)
            return True
        if left:
            self._leave(left[0], events)
        if self.pile:
            self._discard_pile([], events)
        self._end(None, events)
        return True

    def _end(self, loser: int | None, events: list[Event], stalled: str | None = None) -> None:
        """The result: a loser (B6), or a draw (B6a; T13 ``stalled``: those out keep their
        places, the rest share the last, the mark stays where it is)."""
        result = {"loser": loser, "draw": loser is None, "order": list(self.order)}
        if stalled is not None:
            result["stalled"] = stalled
        self.result = result
        events.append({"type": "game_over", "result": {**result, "order": list(self.order)}})

    def position(self) -> tuple:
        """T13: every card's place (hands as sets, the pile in order), whose turn, the claim."""
        return (self.turn, self.rank, tuple(tuple(sorted(h)) for h in self.hands),
                tuple((s, tuple(cs)) for s, cs in self.pile), len(self.discard), tuple(self.order),
                tuple(map(tuple, self.payments)))
