"""«Дурак»: podkidnoy and perevodnoy (rulings D1–D12), with team play (V6, V7), «погоны»
(V8), the house options (V9) and the yard variants (V10–V12, :mod:`.yard`); sans-IO. Simple
durak (V1–V5) builds on it (:mod:`.simple`).

State (all plain ints and lists, so snapshots are cheap):

* ``deck``: the cards still to draw, **bottom first**: ``deck[0]`` is the face-up trump
  card (D1), drawing pops from the end. ``new(deck=…)`` and ``to_data()`` use the usual
  top-first order.
* ``hands[seat]``, ``discard``; the table is ``attack`` (attacking cards in the order they
  landed) and ``cover`` (``cover[i]`` covers ``attack[i]``, ``-1`` while uncovered).
* ``attacker``: the place that led the bout (D8 draws first); ``defender``: the place
  attacked; ``limit``: at most six (``cap``) and at most the defender's hand when he became
  defender (D3, D7, V9 ``no_limit``).
* ``owner[place]``: the seat whose hand plays that place. A place is a seat; it is played
  by its own seat, except in team play (V6) once its seat is out: then by the next partner
  clockwise still in the game. Events and views name the seats that act (``owner``).
* ``bito[seat]``: said «бито» since the last card landed (D5); ``token`` counts cards that
  landed, so the table restarts the «бито» clock whenever it changes.
* ``ended``: ``None`` while a bout runs; ``"bito"`` or ``"take"`` once it is over and the
  table is cleared, until :meth:`advance` draws (T8) and starts the next bout.
* ``payments``: pending ``[giver, recipient]`` card payments for the mark (D12).
* ``epaulettes[seat]``: the last attack on the seat was two cards of the lowest rank (V8).
* ``barred``: this bout may not be transferred (V9 ``no_first_transfer``).
* the yard variants' (V10–V12): ``aside``, ``reserve_size``, ``reserves``, ``raising`` and
  ``pass_cards`` (:mod:`.yard`).

Several seats may act at once (D3): every non-defender in the game may throw in while the
defender covers. The table accepts one action at a time, in order of arrival; the server
orders simultaneous arrivals by seat, starting from the attacker (the order of
:meth:`to_act`).
"""

from __future__ import annotations

from ...cards import card_code, low_rank
from ...engine import payments
from ...engine.game import (
    Action,
    Event,
    Game,
    ImpossibleAction,
    InvalidAction,
    deal_order,
    first_seat,
)
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS, Units
from .state import DurakState
from .yard import PASS_OPTION, YARD_OPTIONS, YardVariants, check_yard

__all__ = ["DurakGame", "PodkidnoyGame", "PerevodnoyGame", "HAND", "TEAMS"]

#: Cards in a full hand (D1, D8) and the most attacking cards in a bout (D3).
HAND = 6
#: V6: the team layouts and the players each needs. Partners alternate round the table:
#: a seat's team is its parity.
TEAMS = {"2x2": 4, "3x3": 6}


def _impossible(message: str, rule: str | None = None) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class DurakGame(DurakState, YardVariants, Game):
    """Podkidnoy rules; :class:`PerevodnoyGame` adds transfers (D7)."""

    #: durak-4: every game ends by T13; durak-3 added «погоны» (V8) to the result. Logs of
    #: durak-3 and durak-2 still verify (:data:`OLDER`).
    version = "durak-4"
    #: T13: a game that goes round in circles ends as a draw (engine durak-3 had no end).
    T13 = True
    #: Cards in a full hand (D1, D8), and the most attacking cards in a bout (D3).
    HAND = HAND
    ACTIONS = {
        "attack": (("card", "card"),),
        "cover": (("card", "card"), ("target", "index")),
        "transfer": (("card", "card"),),
        "bito": (),
        "take": (),
        "give": (("card", "card"),),
        "reserve": (),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table", "ru": "игроков за столом"}, low=2, high=6),
        Option("deck", 36, "int", {"en": "cards in the deck (D1)", "ru": "карт в колоде (D1)"}, choices=(36, 52)),
        Option("hard", False, "bool", {"en": "D12: every other player pays a card for the mark",
                                       "ru": "D12: за метку платит каждый из остальных"}),
        Option("teams", None, "choice", {"en": "V6: team play (4 players for 2x2, 6 for 3x3)",
                                         "ru": "V6: командная игра (2x2 — вчетвером, 3x3 — вшестером)"},
               choices=(None, "2x2", "3x3")),
        Option("no_limit", False, "bool", {"en": "V9 «до завала»: only the defender's hand limits the attack",
                                           "ru": "V9 «до завала»: подкидывать, сколько есть карт у отбивающегося"}),
        *YARD_OPTIONS,
        *UNIT_OPTIONS,
    )
    CLOCKS = (Option("bito_timeout", 10.0, "seconds", {"en": "D5: silence that counts as «бито»",
                                                       "ru": "D5: молчание, которое считается «бито»"}),)
    #: An action is chosen for one table of cards: throw-ins, covers and «беру» from the
    #: same bout stay natural while others play; a new bout or a transfer (a new
    #: defender) makes them stale.
    CHOICE_EVENTS = frozenset({"bout", "transfer"})
    #: D7: whether the defender may transfer the attack.
    transfers = False
    #: D2: after a loss the seat this far from the durak (clockwise) leads the first bout.
    AFTER_LOSER = -1
    #: V8: whether the result records «погоны» (engine durak-2 did not).
    titles = True
    #: D3: whether the first bout is announced, as every other one is (engine durak-1 did not).
    opening_bout = True

    # --- creation -----------------------------------------------------------

    @classmethod
    def options(cls, options: dict | None) -> dict:
        out = super().options(options)
        teams = out.get("teams")
        if teams is not None and out["players"] != TEAMS[teams]:
            raise ValueError(f"teams {teams} needs players {TEAMS[teams]}, not {out['players']}")
        check_yard(out, cls.HAND)
        return out

    @classmethod
    def new(
        cls,
        options: dict | None = None,
        *,
        seed: bytes | None = None,
        deck: list[int] | None = None,
        first: int | None = None,
        previous: dict | None = None,
    ) -> "DurakGame":
        """Deal ``HAND`` each, one card at a time round the table from seat 0 (D1), and
        the поджопники (V11: :meth:`_deal`).

        The bottom card of the deck (``deck[-1]``, top first; V10: the card above the
        set-aside one) is turned face up: its suit is trump and it is drawn last. When the
        whole deck is dealt (6 players, 36 cards) the bottom card is the last card dealt (to
        seat 5): it is still shown face up and names the trump.

        First attacker (D2): ``first`` if given; after a game with a durak, the player
        seated before the durak (who defends); otherwise the «бутылка»:
        ``Rng(seed, b"bottle").below(players)`` (seat 0 without a seed).
        """
        opts = cls.options(options)
        n, size, hand = opts["players"], opts["deck"], cls.HAND
        order = deal_order(size, seed, deck)
        g = cls.__new__(cls)
        g.players, g.deck_size, g.hard = n, size, opts["hard"]
        g.teams = opts.get("teams")
        g.cap = size if opts.get("no_limit") else hand  # V9 «до завала»: only the hand limits
        g._new_variant(opts)
        g._deal(order, opts, hand)
        g.discard, g.attack, g.cover = [], [], []
        g.bito = [False] * n
        g.out = [False] * n
        g.owner = list(range(n))
        g.epaulettes = [False] * n
        g.order = []
        g.ended = None
        g.payments = []
        g.token = 0
        g.result = None
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        g.units = Units()
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        # D2: the seat before the durak attacks; the bottle for the first game and after a draw.
        attacker = first_seat(n, first, seed, None if loser is None else (loser + cls.AFTER_LOSER) % n)
        g.first = attacker
        g.barred = False
        g._start_bout(attacker)
        # V9: the first attack after a loss goes under the durak and may not be transferred.
        g.barred = bool(opts.get("no_first_transfer")) and loser is not None
        return g

    def _new_variant(self, opts: dict) -> None:
        """Set up what a subclass adds to the state (simple durak's lead variant)."""

    def opening(self) -> list[Event]:
        """The first bout is announced like every other one (D3)."""
        return [self._bout_event()] if self.opening_bout else []

    def _bout_event(self) -> Event:
        owner = self.owner
        return {"type": "bout", "attacker": owner[self.attacker], "defender": owner[self.defender],
                "limit": self.limit}

    def _start_bout(self, attacker: int) -> Event:
        self.unit_mark = [len(self.discard), len(self.order)]  # T13b: what counts as progress from here
        self.attacker = attacker
        self.defender = d = self._next_in(attacker)
        self.limit = min(self.cap, len(self.hands[self.owner[d]]))
        self.bito = [False] * self.players
        self.ended = None
        self.barred = False
        return self._bout_event()

    # --- helpers -------------------------------------------------------------

    def _next_in(self, place: int) -> int:
        """The next place clockwise played by a seat still in the game (``place`` itself if
        nobody else is). Without teams a place is played by its seat; in team play every
        place is, so no one ever attacks his partner (V6)."""
        n, out, owner = self.players, self.out, self.owner
        s = (place + 1) % n
        while s != place:
            if not out[owner[s]]:
                return s
            s = (s + 1) % n
        return place

    def _partner(self, seat: int, of: int) -> bool:
        """V6: whether ``seat`` and ``of`` play in one team (never without teams)."""
        return self.teams is not None and (seat - of) % 2 == 0

    def _waiting(self) -> list[int]:
        """Non-defenders in the game who hold cards and have not said «бито» (D5); in team
        play only the defender's opponents (V6: his partners do not throw in).

        A player with no cards cannot throw in, and everyone sees it, so nobody waits for
        him (this tells the table nothing it did not know).
        """
        d, out, bito, hands = self.owner[self.defender], self.out, self.bito, self.hands
        if self.teams is not None:
            return [s for s in range(self.players)
                    if (s - d) % 2 and not out[s] and not bito[s] and hands[s]]
        return [s for s in range(self.players)
                if s != d and not out[s] and not bito[s] and hands[s]]

    def _settled(self) -> bool:
        return bool(self.attack) and -1 not in self.cover and not self._waiting()

    def _ranks(self) -> set[int]:
        return {c % 13 for c in self.attack + self.cover if c >= 0}

    # --- queries ------------------------------------------------------------

    def beats(self, card: int, target: int) -> bool:
        """D4: whether ``card`` honestly covers ``target``: same suit and higher, or a trump
        on a non-trump (a trump only by a higher trump). The same question as «пидор»'s
        ``beats`` (P12). Cards are ``suit * 13 + rank - 2``, so within a suit the int order
        is the rank order."""
        suit = card // 13
        if suit == target // 13:
            return card > target
        return suit == self.trump

    def in_game(self, seat: int) -> bool:
        return not self.out[seat]

    def in_game_seats(self) -> list[int]:
        return [s for s, out in enumerate(self.out) if not out]

    def may_wait(self, seat: int) -> bool:
        # The defender has nothing to do once every attacking card is covered (D5): the
        # others say «бито» or throw in. He may still take (D6), but need not.
        return (seat == self.owner[self.defender] and self.result is None and not self.payments
                and self.ended is None and bool(self.attack) and -1 not in self.cover)

    def obliged(self) -> list[int]:
        # Several seats may act at once (D3): throwing in is never owed (silence is «бито»,
        # D5), but the defender owes a cover or «беру» while a card is uncovered.
        seats = self.to_act()
        if len(seats) <= 1:
            return seats
        d = self.owner[self.defender]
        return [d] if d in seats and not self.may_wait(d) else []

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        if self.ended is not None:
            return []
        if not self.attack:
            return [self.owner[self.attacker]]
        n, a, d = self.players, self.attacker, self.owner[self.defender]
        out, hands, bito = self.out, self.hands, self.bito
        covered = -1 not in self.cover
        seats = []
        for i in range(n):
            s = (a + i) % n
            if out[s]:
                continue
            if s == d or hands[s] or (covered and not bito[s]):
                seats.append(s)
        return seats

    def actions(self, seat: int) -> list[Action]:
        if self.result is not None or self.out[seat]:
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand] if seat == self.payments[0][0] else []
        if self.ended is not None:
            return []
        out = self._bout_actions(seat, hand)
        if self.reserves[seat] and seat not in self.raising:
            out.append(("reserve",))  # V11: whenever he likes; before hand and deck are empty, махлёж
        return out

    def _bout_actions(self, seat: int, hand: list[int]) -> list[Action]:
        if not self.attack:
            return [("attack", c) for c in hand] if seat == self.owner[self.attacker] else []
        if seat == self.owner[self.defender]:
            targets = [i for i, c in enumerate(self.cover) if c < 0]
            out: list[Action] = [("cover", c, t) for c in hand for t in targets]
            out.append(("take",))
            if self.transfers and self._next_in(self.defender) != self.defender:
                out.extend(("transfer", c) for c in hand)
                if self.pass_cards:  # V12: any card may be shown; one that is no проездной, махлёж
                    out.extend(("show", c) for c in hand)
            return out
        out = [("attack", c) for c in hand]
        if -1 not in self.cover and not self.bito[seat] and not self._partner(seat, self.owner[self.defender]):
            out.append(("bito",))
        return out

    def honest_actions(self, seat: int) -> list[Action]:
        """Direct enumeration of the actions that break no rule (fast path for bots)."""
        if self.result is not None or self.out[seat]:
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand] if seat == self.payments[0][0] else []
        if self.ended is not None:
            return []
        out = self._honest_bout(seat, hand)
        if self.reserve_size and self._honest_reserve(seat):
            out.append(("reserve",))  # V11 (they come up by themselves first: T8)
        return out

    def _honest_bout(self, seat: int, hand: list[int]) -> list[Action]:
        attack, cover = self.attack, self.cover
        if not attack:
            return [("attack", c) for c in hand] if seat == self.owner[self.attacker] else []
        d = self.owner[self.defender]
        if seat == d:
            out = self._honest_covers(hand)
            out.append(("take",))
            if self.transfers and not self.barred and all(c < 0 for c in cover):
                nxt = self._next_in(self.defender)
                if nxt != self.defender:
                    rank = attack[0] % 13
                    held = len(self.hands[self.owner[nxt]])
                    if all(a % 13 == rank for a in attack) and held > len(attack):
                        out.extend(("transfer", c) for c in hand if c % 13 == rank)
                    if self.pass_cards:
                        out.extend(self._honest_shows(hand, held))  # V12
            return out
        if self._partner(seat, d):
            return []  # V6: partners do not throw in
        out = []
        if len(attack) < self.limit:
            ranks = self._ranks()
            out = [("attack", c) for c in hand if c % 13 in ranks]
        if -1 not in cover and not self.bito[seat]:
            out.append(("bito",))
        return out

    def _honest_covers(self, hand: list[int]) -> list[Action]:
        trump, out = self.trump, []
        for t, a in enumerate(self.attack):
            if self.cover[t] < 0:
                asuit = a // 13
                for c in hand:
                    s = c // 13
                    if (c > a) if s == asuit else (s == trump):  # self.beats(c, a), inline
                        out.append(("cover", c, t))
        return out

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (D10, V5, V7, V9) a well-formed ``action`` would commit; raises
        if it is impossible."""
        return tuple(self._check(seat, action))

    def _check(self, seat: int, action: Action) -> list[str]:
        kind = action[0]
        spec = self.ACTIONS[kind]
        # The card or cards an action names are its first argument.
        typ = spec[0][1] if spec else None
        cards = action[1] if typ == "cards" else (action[1],) if typ == "card" else ()
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidAction(f"no seat {seat!r} at this table")
        if self.result is not None:
            raise _impossible("the game is over")
        if self.out[seat]:
            raise _impossible("you are out of this game", "D9")
        hand = self.hands[seat]
        for c in cards:
            if c not in hand:
                raise _impossible(f"you do not hold {card_code(c)}", "T1")
        if len(cards) > 1 and len(set(cards)) != len(cards):
            raise _impossible("a card cannot be laid twice", "T1")
        if payments.check(self.payments, seat, kind, "D12"):
            return []
        if self.ended is not None:
            raise _impossible("the bout is over; wait for the drawing", "D8")
        return self._check_bout(seat, kind, action)

    def _check_bout(self, seat: int, kind: str, action: Action) -> list[str]:
        """:meth:`check` of an action in a running bout (the arguments are checked)."""
        attack, d = self.attack, self.owner[self.defender]
        if kind == "attack":
            if seat == d:
                raise _impossible("the defender does not throw in", "D3")
            if not attack:
                if seat != self.owner[self.attacker]:
                    raise _impossible(f"seat {self.owner[self.attacker]} leads this bout", "D3")
                return []
            v = []
            if action[1] % 13 not in self._ranks():
                v.append("D3r")
            if len(attack) >= self.limit:
                v.append("D3n")
            if self._partner(seat, d):
                v.append("V7p")
            return v
        if kind == "reserve":
            return self._check_reserve(seat)
        if kind == "bito":
            if seat == d:
                raise _impossible("the defender does not say «bito»: cover or take", "D5")
            if self._partner(seat, d):
                raise _impossible("the table waits for «bito» from the defender's opponents only", "V6")
            if not attack or -1 in self.cover:
                raise _impossible("«bito» is said when every attacking card is covered", "D5")
            if self.bito[seat]:
                raise _impossible("you have already said «bito»", "D5")
            return []
        if seat != d:
            raise _impossible(f"only the defender (seat {d}) may {kind}", "D4")
        if not attack:
            raise _impossible("the table is empty: wait for the attack", "D3")
        if kind == "take":
            return []
        if kind == "show":
            return self._check_show(action[1])
        if kind == "cover":
            t = action[2]
            if not 0 <= t < len(attack):
                raise _impossible(f"there is no attacking card number {t}", "D4")
            if self.cover[t] >= 0:
                raise _impossible(f"attacking card number {t} is already covered", "D4")
            return [] if self.beats(action[1], attack[t]) else ["D4b"]
        # transfer (D7)
        if not self.transfers:
            raise _impossible("there are no transfers in podkidnoy", "D7")
        nxt = self._next_in(self.defender)
        if nxt == self.defender:
            raise _impossible("nobody to transfer to", "D7")
        v = []
        rank = action[1] % 13
        if any(a % 13 != rank for a in attack):
            v.append("D7r")
        if any(c >= 0 for c in self.cover):
            v.append("D7c")
        if len(self.hands[self.owner[nxt]]) < len(attack) + 1:
            v.append("D7n")
        if self.barred:
            v.append("V9t")
        return v

    def is_callable(self, action: Action) -> bool:
        # T3: «бито» and «беру» do not close the window of the card before them; payments
        # are not moves of play.
        return action[0] not in ("bito", "take", "give")

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None or self.out[seat]:
            return "D9"
        if self.payments:
            return "D12"
        if self.ended is not None:
            return "D8"
        if not self.attack:  # the bout's first card: the attacker leads with any card (D2)
            return "D2"
        d = self.owner[self.defender]
        if seat == d:
            if self.transfers and self.attack and all(c < 0 for c in self.cover):
                if self.barred:
                    return "V9"
                rank = self.attack[0] % 13
                if any(c % 13 == rank for c in self.hands[seat]):
                    return "D7"
                if any(c in self.pass_cards for c in self.hands[seat]):
                    return "V12"
            return "D4"
        if self.attack and self._partner(seat, d):
            return "V6"
        if self.attack and -1 not in self.cover:
            return "D5"
        return "D3"

    def timer(self) -> tuple[str, int] | None:
        """D5: the «бито» clock runs while everything is covered and someone is silent."""
        if (self.result is not None or self.payments or self.ended is not None
                or not self.attack or -1 in self.cover or not self._waiting()):
            return None
        return ("bito_timeout", self.token)

    # --- mutation -----------------------------------------------------------

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        violations = list(violations)
        kind = action[0]
        data = self.action_data(action)
        first: Event = {"type": "action", "seat": seat, "action": data, "_violations": violations}
        events = [first]
        hands = self.hands
        if kind == "give":  # D12: seen by giver and recipient only
            if self.shown:  # (V12: nobody else knows now which of his cards the giver still holds)
                self._unshow_hand(seat)
            events += payments.give(self.payments, hands, action[1], first)
            payments.skip_empty(self.payments, hands)
            return events
        if kind == "bito":
            self.bito[seat] = True
            if self._settled():
                events.append(self._end_bout("bito"))
            return events
        if kind == "take":
            events.append(self._end_bout("take"))
            return events
        if kind == "reserve":  # V11: they come up once the call window closes (T8)
            self.raising.append(seat)
            return events
        if kind == "show":  # V12: the проездной stays in the hand, seen by all; the attack passes on
            self._show(action[1])
            self.bito = [False] * self.players
            self._pass_on(events)
            if self.T13:
                self.units.step()  # T13: shows add no card, so a bout of them may never end
            return events
        self._lay(seat, kind, action, events)
        return events

    def _lay(self, seat: int, kind: str, action: Action, events: list[Event]) -> None:
        """A card goes on the table: a throw-in, a cover or a transfer."""
        card = action[1]
        self.hands[seat].remove(card)
        if self.shown:
            self._unshow(card)
        self.token += 1
        self.bito = [False] * self.players  # D5: a new card resets everyone's «бито»
        if kind == "attack":
            self.attack.append(card)
            self.cover.append(-1)
        elif kind == "cover":
            self.cover[action[2]] = card
            # D5: at the limit «бито» is automatic. D9's "the defender covers with his last
            # card" is nearly always a case of it (the limit is at most his hand); if he paid
            # a card for the mark meanwhile, advance() ends the bout once he has left.
            if -1 not in self.cover and (len(self.attack) >= self.limit or not self._waiting()):
                events.append(self._end_bout("bito"))
        else:  # transfer (D7)
            self.attack.append(card)
            self.cover.append(-1)
            self._pass_on(events)

    def _pass_on(self, events: list[Event]) -> None:
        """D7 (and V12): the next player in the game defends, his limit his hand now."""
        self.defender = d = self._next_in(self.defender)
        self.limit = min(self.cap, len(self.hands[self.owner[d]]))
        events.append({"type": "transfer", "defender": self.owner[d], "limit": self.limit})

    def _end_bout(self, outcome: str, defending: int | None = None) -> Event:
        """The bout is over (D5 «бито» / D6 «беру»): clear the table; drawing waits (T8).
        ``defending``: the seat that defended, if it is no longer its place's owner (it
        left, D9)."""
        d = self.owner[self.defender] if defending is None else defending
        attack = self.attack
        cards = attack + [c for c in self.cover if c >= 0]
        # V8: the last attack on a seat was two cards of the deck's lowest rank.
        low = low_rank(self.deck_size) - 2
        self.epaulettes[d] = len(attack) == 2 and attack[0] % 13 == low and attack[1] % 13 == low
        event = {"type": "bout_over", "outcome": outcome, "defender": d, "count": len(cards),
                 "_reset_honest": True}
        if outcome == "take":
            self._take(d, cards, event)
        else:
            self.discard.extend(cards)
        self.attack, self.cover = [], []
        self.ended = outcome
        # D11: the table ends any "must play honestly" obligation with the bout.
        return event

    def _take(self, seat: int, cards: list[int], event: Event) -> None:
        """D6: every card on the table goes into the defender's hand."""
        self.hands[seat].extend(cards)

    def on_timer(self, name: str) -> list[Event]:
        if name != "bito_timeout" or self.timer() is None:
            return []
        silent = self._waiting()
        for s in silent:
            self.bito[s] = True
        return [{"type": "bito_timeout", "seats": silent}, self._end_bout("bito")]

    def on_mark(self, seat: int) -> list[Event]:
        """D12: the mark is paid in cards at once: by the next player in the game, or in
        hard mode by every other player in the game, clockwise from the one after him."""
        if self.result is not None or self.out[seat]:
            return []
        n, out = self.players, self.out
        givers = [s for s in ((seat + i) % n for i in range(1, n)) if not out[s]]
        if not self.hard:
            givers = givers[:1]
        return payments.due(self.payments, seat, [g for g in givers if self.hands[g]])

    def advance(self) -> list[Event]:
        """T8: leaving (D9), the end of a bout, drawing (D8) and the next bout. Idempotent."""
        if self.result is not None or self.payments:
            return []
        events: list[Event] = []
        d = self.defender
        defending = self.owner[d]
        if self.raising:
            self._raise(events)
        if not self.deck:
            self._leave(events)
        if self.ended is None and self.units.due:  # T13: a show's position, once its window closed
            reason = self.units.record(self.position() + (tuple(self.attack), tuple(self.cover)), self.limits)
            if reason is not None:
                self._stall(reason, events)
                return events
        if self.ended is None:
            if not self.attack:
                return events
            if not (self.out[defending] or self._settled()):
                return events
            events.append(self._end_bout("bito", defending))  # D9: the defender left; or D5 settled
        outcome = self.ended
        if self.deck:
            self._draw(events)
        if not self.deck:
            self._leave(events)
        if self._finish(events):
            return events
        if outcome == "bito" and not self.out[defending]:
            attacker = d  # D5: the defender who beat off attacks next
        else:
            attacker = self._next_in(d)  # D6 / D9: the next player in the game
        mark = self.unit_mark
        progress = len(self.discard) > mark[0] or len(self.order) > mark[1]  # T13b
        bout = self._start_bout(attacker)
        if self.T13:
            self.units.end(progress)
            reason = self.units.record(self.position(), self.limits)
            if reason is not None:
                self._stall(reason, events)
                return events
        events.append(bout)
        return events

    def position(self) -> tuple:
        """T13: every card's place (hands as sets), who attacks whom, what is owed; taken
        at the start of a bout."""
        return (self.attacker, self.defender, tuple(self.owner), tuple(self.deck),
                tuple(tuple(sorted(h)) for h in self.hands), len(self.discard), tuple(self.order),
                tuple(map(tuple, self.payments)), self.limit, self.barred, self._position_variant())

    def _position_variant(self) -> tuple:
        """What a variant adds to :meth:`position`: the поджопники (V11; the set-aside card of
        V10 never moves), who passed the attack on in «пятки» (:mod:`.simple`)."""
        return (tuple(tuple(sorted(r)) for r in self.reserves),) if self.reserve_size else ()

    def _stall(self, reason: str, events: list[Event]) -> None:
        """T13: the game ends as a draw; those out keep their places, the rest share the
        last; the mark stays where it is."""
        self.ended = None
        result = {"loser": None, "draw": True, "order": list(self.order), "stalled": reason}
        if self.titles:
            result["pogony"] = False
        if self.teams is not None:
            result["losing_team"] = None
        self.result = result
        events.append({"type": "game_over", "result": result})

    def _finish(self, events: list[Event]) -> bool:
        """D9, V7: end the game if it is over. Without teams: when at most one player holds
        cards. In team play: when a whole team is out (both at once: a draw); the mark goes
        to the loser, the losing team's player holding the most cards (ties: the first
        clockwise from the last defender's seat)."""
        alive = [s for s in range(self.players) if not self.out[s]]
        if self.teams is None:
            if len(alive) > 1:
                return False
            loser = alive[0] if alive else None
        else:
            if len({s % 2 for s in alive}) > 1:
                return False
            n, d = self.players, self.owner[self.defender]
            held = lambda s: len(self.hands[s]) + len(self.reserves[s])  # noqa: E731 (V11: his поджопники too)
            loser = max(alive, key=lambda s: (held(s), -((s - d) % n))) if alive else None
        self.ended = None
        # ``order``: the seats that went out, in order (the durak is not among them).
        result = {"loser": loser, "draw": loser is None, "order": list(self.order)}
        if self.titles:
            result["pogony"] = loser is not None and self.epaulettes[loser]
        if self.teams is not None:
            result["losing_team"] = None if loser is None else [s for s in range(self.players) if (s - loser) % 2 == 0]
        self.result = result
        events.append({"type": "game_over", "result": result})
        return True

    def _leave(self, events: list[Event]) -> None:
        """D9: with the deck empty, a player with no cards leaves at once (in seat order
        from the attacker when several leave together); V11: one with поджопники takes them
        up instead and plays on. V6: in team play his place is played by his next partner
        clockwise still in the game (``partner`` in the event)."""
        n, a, out, hands = self.players, self.attacker, self.out, self.hands
        if [] not in hands:  # (after most actions: nobody leaves)
            return
        left = []
        for i in range(n):
            s = (a + i) % n
            if not out[s] and not hands[s]:
                if self.reserves[s]:
                    self._take_up(s, events)
                    continue
                out[s] = True
                self.order.append(s)
                self.bito[s] = False
                left.append({"type": "out", "seat": s, "place": len(self.order)})
        if left and self.teams is not None:
            owner = self.owner
            for p in range(n):
                s = p
                while out[s] and (s + 2) % n != p:
                    s = (s + 2) % n
                owner[p] = s
            for e in left:
                e["partner"] = None if out[owner[e["seat"]]] else owner[e["seat"]]
        events.extend(left)

    def _draw(self, events: list[Event]) -> None:
        """D8: up to ``HAND`` each: the lead attacker first, the others clockwise, the
        defender last; the trump card (the bottom of the deck) comes last."""
        n, deck, full = self.players, self.deck, self.HAND
        a, d = self.owner[self.attacker], self.owner[self.defender]
        order = [(a + i) % n for i in range(n) if (a + i) % n != d] + [d]
        for s in order:
            if not deck:
                break
            if self.out[s]:
                continue
            hand = self.hands[s]
            k = min(full - len(hand), len(deck))
            if k <= 0:
                continue
            got = deck[-k:][::-1]
            del deck[-k:]
            hand.extend(got)
            ev = {"type": "draw", "seat": s, "count": k, "deck": len(deck),
                  "_private": {s: {"cards": [card_code(c) for c in got]}}}
            events.append(ev)
        if not deck and self.aside:
            self._turn_trump(events)  # V10: the last card is drawn


class PodkidnoyGame(DurakGame):
    """Подкидной дурак."""

    name = "podkidnoy"


class PerevodnoyGame(DurakGame):
    """Переводной дурак: the defender may transfer the attack (D7)."""

    name = "perevodnoy"
    transfers = True
    ACTIONS = {**DurakGame.ACTIONS, "show": (("card", "card"),)}  # V12: a проездной
    OPTIONS = (*DurakGame.OPTIONS,
               Option("no_first_transfer", False, "bool",
                      {"en": "V9: the first attack under the durak cannot be transferred",
                       "ru": "V9: первый ход «под дурака» не переводят"}),
               PASS_OPTION)


def _durak3(cls: type[DurakGame]) -> type[DurakGame]:
    """The game as engine durak-3 played it, to verify its logs: no end by T13."""
    return type(cls.__name__ + "3", (cls,), {"version": "durak-3", "T13": False, "HONEST_EVENTS": False,
                                            "__doc__": _durak3.__doc__})


def _durak2(cls: type[DurakGame]) -> type[DurakGame]:
    """The game as engine durak-2 played it, to verify its logs: no «погоны» (V8), no T13."""
    return type(cls.__name__ + "2", (cls,), {"version": "durak-2", "T13": False, "HONEST_EVENTS": False,
                                            "titles": False, "__doc__": _durak2.__doc__})


def _durak1(cls: type[DurakGame]) -> type[DurakGame]:
    """The game as engine durak-1 played it, to verify its logs: engine durak-2 (``cls``)
    without the ``bout`` event of the first bout (a53c47d); the table's events in their
    early forms (:mod:`pidor.gamelog.early`)."""
    return type(cls.__name__.removesuffix("2") + "1", (cls,),
                {"version": "durak-1", "opening_bout": False, "early_events": True, "__doc__": _durak1.__doc__})


def _older(cls: type[DurakGame]) -> dict[str, type[DurakGame]]:
    """Every older engine version of ``cls`` (its ``OLDER``), each made from the next newer one."""
    two = _durak2(cls)
    return {"durak-3": _durak3(cls), "durak-2": two, "durak-1": _durak1(two)}


PodkidnoyGame.OLDER = _older(PodkidnoyGame)
PerevodnoyGame.OLDER = _older(PerevodnoyGame)

