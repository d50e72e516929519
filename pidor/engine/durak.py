"""«Дурак»: podkidnoy and perevodnoy (rulings D1–D12), sans-IO.

State (all plain ints and lists, so snapshots are cheap):

* ``deck``: the cards still to draw, **bottom first**: ``deck[0]`` is the face-up trump
  card (D1), drawing pops from the end. ``new(deck=…)`` and ``to_data()`` use the usual
  top-first order.
* ``hands[seat]``, ``discard``; the table is ``attack`` (attacking cards in the order they
  landed) and ``cover`` (``cover[i]`` covers ``attack[i]``, ``-1`` while uncovered).
* ``attacker``: the seat that led the bout (D8 draws first); ``defender``; ``limit``: at most
  six and at most the defender's hand when he became defender (D3, D7).
* ``bito[seat]``: said «бито» since the last card landed (D5); ``token`` counts cards that
  landed, so the table restarts the «бито» clock whenever it changes.
* ``ended``: ``None`` while a bout runs; ``"bito"`` or ``"take"`` once it is over and the
  table is cleared, until :meth:`advance` draws (T8) and starts the next bout.
* ``payments``: pending ``[giver, recipient]`` card payments for the mark (D12).

Several seats may act at once (D3): every non-defender in the game may throw in while the
defender covers. The table accepts one action at a time, in order of arrival; the server
orders simultaneous arrivals by seat, starting from the attacker (the order of
:meth:`to_act`).
"""

from __future__ import annotations

from ..cards import card_code
from .durak_state import DurakState
from .game import Action, Event, Game, ImpossibleAction, InvalidAction, deal_order, first_seat, shown

__all__ = ["DurakGame", "PodkidnoyGame", "PerevodnoyGame", "GAMES", "HAND"]

#: Cards in a full hand (D1, D8) and the most attacking cards in a bout (D3).
HAND = 6


def _impossible(message: str, rule: str | None = None) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class DurakGame(DurakState, Game):
    """Podkidnoy rules; :class:`PerevodnoyGame` adds transfers (D7)."""

    version = "durak-2"
    ACTIONS = {
        "attack": (("card", "card"),),
        "cover": (("card", "card"), ("target", "index")),
        "transfer": (("card", "card"),),
        "bito": (),
        "take": (),
        "give": (("card", "card"),),
    }
    DEFAULTS = {"players": 4, "deck": 36, "hard": False}
    #: An action is chosen for one table of cards: throw-ins, covers and «беру» from the
    #: same bout stay natural while others play; a new bout or a transfer (a new
    #: defender) makes them stale.
    CHOICE_EVENTS = frozenset({"bout", "transfer"})
    #: D7: whether the defender may transfer the attack.
    transfers = False

    # --- creation -----------------------------------------------------------

    @classmethod
    def options(cls, options: dict | None) -> dict:
        out = super().options(options)
        if type(out["hard"]) is not bool:
            raise ValueError(f"hard must be true or false, not {shown(out['hard'])}")
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
        """Deal six each, one card at a time round the table from seat 0 (D1).

        The bottom card of the deck (``deck[-1]``, top first) is turned face up: its suit
        is trump and it is drawn last. When the whole deck is dealt (6 players, 36 cards)
        the bottom card is the last card dealt (to seat 5): it is still shown face up and
        names the trump.

        First attacker (D2): ``first`` if given; after a game with a durak, the player
        seated before the durak (who defends); otherwise the «бутылка»:
        ``Rng(seed, b"bottle").below(players)`` (seat 0 without a seed).
        """
        opts = cls.options(options)
        n, size = opts["players"], opts["deck"]
        order = deal_order(size, seed, deck)
        g = cls.__new__(cls)
        g.players, g.deck_size, g.hard = n, size, opts["hard"]
        g.trump_card = order[-1]
        g.trump = g.trump_card // 13
        g.hands = [order[s:HAND * n:n] for s in range(n)]
        g.deck = order[HAND * n:][::-1]
        g.discard, g.attack, g.cover = [], [], []
        g.bito = [False] * n
        g.out = [False] * n
        g.order = []
        g.ended = None
        g.payments = []
        g.token = 0
        g.result = None
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        # D2: the seat before the durak attacks; the bottle for the first game and after a draw.
        attacker = first_seat(n, first, seed, None if loser is None else (loser - 1) % n)
        g.first = attacker
        g._start_bout(attacker)
        return g

    def opening(self) -> list[Event]:
        """The first bout is announced like every other one (D3)."""
        return [{"type": "bout", "attacker": self.attacker, "defender": self.defender, "limit": self.limit}]

    def _start_bout(self, attacker: int) -> Event:
        self.attacker = attacker
        self.defender = d = self._next_in(attacker)
        self.limit = min(HAND, len(self.hands[d]))
        self.bito = [False] * self.players
        self.ended = None
        return {"type": "bout", "attacker": attacker, "defender": d, "limit": self.limit}

    # --- helpers -------------------------------------------------------------

    def _next_in(self, seat: int) -> int:
        """The next seat clockwise still in the game (``seat`` itself if nobody else is)."""
        n, out = self.players, self.out
        s = (seat + 1) % n
        while s != seat:
            if not out[s]:
                return s
            s = (s + 1) % n
        return seat

    def _waiting(self) -> list[int]:
        """Non-defenders in the game who hold cards and have not said «бито» (D5).

        A player with no cards cannot throw in, and everyone sees it, so nobody waits for
        him (this tells the table nothing it did not know).
        """
        d, out, bito, hands = self.defender, self.out, self.bito, self.hands
        return [s for s in range(self.players)
                if s != d and not out[s] and not bito[s] and hands[s]]

    def _settled(self) -> bool:
        return bool(self.attack) and -1 not in self.cover and not self._waiting()

    def _ranks(self) -> set[int]:
        return {c % 13 for c in self.attack} | {c % 13 for c in self.cover if c >= 0}

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

    def may_wait(self, seat: int) -> bool:
        # The defender has nothing to do once every attacking card is covered (D5): the
        # others say «бито» or throw in. He may still take (D6), but need not.
        return (seat == self.defender and self.result is None and not self.payments
                and self.ended is None and bool(self.attack) and -1 not in self.cover)

    def obliged(self) -> list[int]:
        # Several seats may act at once (D3): throwing in is never owed (silence is «бито»,
        # D5), but the defender owes a cover or «беру» while a card is uncovered.
        seats = self.to_act()
        if len(seats) <= 1:
            return seats
        d = self.defender
        return [d] if d in seats and not self.may_wait(d) else []

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        if self.ended is not None:
            return []
        if not self.attack:
            return [self.attacker]
        n, a, d = self.players, self.attacker, self.defender
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
        if not self.attack:
            return [("attack", c) for c in hand] if seat == self.attacker else []
        if seat == self.defender:
            targets = [i for i, c in enumerate(self.cover) if c < 0]
            out: list[Action] = [("cover", c, t) for c in hand for t in targets]
            out.append(("take",))
            if self.transfers and self._next_in(seat) != seat:
                out.extend(("transfer", c) for c in hand)
            return out
        out = [("attack", c) for c in hand]
        if -1 not in self.cover and not self.bito[seat]:
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
        attack, cover = self.attack, self.cover
        if not attack:
            return [("attack", c) for c in hand] if seat == self.attacker else []
        if seat == self.defender:
            trump = self.trump
            out: list[Action] = []
            for t, a in enumerate(attack):
                if cover[t] < 0:
                    asuit = a // 13
                    for c in hand:
                        s = c // 13
                        if (c > a) if s == asuit else (s == trump):  # self.beats(c, a), inline
                            out.append(("cover", c, t))
            out.append(("take",))
            if self.transfers and all(c < 0 for c in cover):
                rank = attack[0] % 13
                nxt = self._next_in(seat)
                if (nxt != seat and all(a % 13 == rank for a in attack)
                        and len(self.hands[nxt]) > len(attack)):
                    out.extend(("transfer", c) for c in hand if c % 13 == rank)
            return out
        out = []
        if len(attack) < self.limit:
            ranks = self._ranks()
            out = [("attack", c) for c in hand if c % 13 in ranks]
        if -1 not in cover and not self.bito[seat]:
            out.append(("bito",))
        return out

    def check(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (D10) ``action`` would commit; raises if invalid or impossible."""
        return tuple(self._check(seat, action))

    def _check(self, seat: int, action: Action) -> list[str]:
        if type(action) is not tuple or not action:
            raise InvalidAction(f"an action is a tuple like ('cover', card, 0), not {action!r}")
        kind = action[0]
        spec = self.ACTIONS.get(kind)
        if spec is None:
            raise InvalidAction(f"unknown action {kind!r}; expected one of {sorted(self.ACTIONS)}")
        if len(action) != len(spec) + 1:
            raise InvalidAction(f"action {kind!r} takes {[a for a, _ in spec]}")
        for arg in action[1:]:
            if type(arg) is not int:
                raise InvalidAction(f"action {kind!r}: arguments are integers, not {arg!r}")
        if len(action) > 1 and not 0 <= action[1] < 52:
            raise InvalidAction(f"no such card: {action[1]!r}")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidAction(f"no seat {seat!r} at this table")
        if self.result is not None:
            raise _impossible("the game is over")
        if self.out[seat]:
            raise _impossible("you are out of this game", "D9")
        hand = self.hands[seat]
        if len(action) > 1 and action[1] not in hand:
            raise _impossible(f"you do not hold {card_code(action[1])}", "T1")
        if self.payments:
            if seat != self.payments[0][0]:
                raise _impossible(f"waiting for seat {self.payments[0][0]} to pay for the mark", "D12")
            if kind != "give":
                raise _impossible("you owe a card for the mark: give one", "D12")
            return []
        if kind == "give":
            raise _impossible("you owe nobody a card", "D12")
        if self.ended is not None:
            raise _impossible("the bout is over; wait for the drawing", "D8")
        attack, d = self.attack, self.defender
        if kind == "attack":
            if seat == d:
                raise _impossible("the defender does not throw in", "D3")
            if not attack:
                if seat != self.attacker:
                    raise _impossible(f"seat {self.attacker} leads this bout", "D3")
                return []
            v = []
            if action[1] % 13 not in self._ranks():
                v.append("D3r")
            if len(attack) >= self.limit:
                v.append("D3n")
            return v
        if kind == "bito":
            if seat == d:
                raise _impossible("the defender does not say «bito»: cover or take", "D5")
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
        nxt = self._next_in(seat)
        if nxt == seat:
            raise _impossible("nobody to transfer to", "D7")
        v = []
        rank = action[1] % 13
        if any(a % 13 != rank for a in attack):
            v.append("D7r")
        if any(c >= 0 for c in self.cover):
            v.append("D7c")
        if len(self.hands[nxt]) < len(attack) + 1:
            v.append("D7n")
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
        if seat == self.defender:
            if self.transfers and self.attack and all(c < 0 for c in self.cover):
                rank = self.attack[0] % 13
                if any(c % 13 == rank for c in self.hands[seat]):
                    return "D7"
            return "D4"
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
        if kind == "give":
            card = action[1]
            giver, to = self.payments.pop(0)
            hands[giver].remove(card)
            hands[to].append(card)
            # D12: the card is seen by the recipient only; the giver chose it, and once it is
            # in another hand it is hidden from him like the rest of that hand.
            first["action"] = {"type": "give"}
            first["_private"] = {to: {"action": data}}
            events.append({"type": "give", "from": giver, "to": to,
                           "_private": {to: {"card": data["card"]}}})
            self._skip_empty_givers()
            return events
        if kind == "bito":
            self.bito[seat] = True
            if self._settled():
                events.append(self._end_bout("bito"))
            return events
        if kind == "take":
            events.append(self._end_bout("take"))
            return events
        card = action[1]
        hands[seat].remove(card)
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
            self.defender = d = self._next_in(seat)
            self.limit = min(HAND, len(hands[d]))
            events.append({"type": "transfer", "defender": d, "limit": self.limit})
        return events

    def _end_bout(self, outcome: str) -> Event:
        """The bout is over (D5 «бито» / D6 «беру»): clear the table; drawing waits (T8)."""
        cards = self.attack + [c for c in self.cover if c >= 0]
        if outcome == "take":
            self.hands[self.defender].extend(cards)
        else:
            self.discard.extend(cards)
        self.attack, self.cover = [], []
        self.ended = outcome
        # D11: the table ends any "must play honestly" obligation with the bout.
        return {"type": "bout_over", "outcome": outcome, "defender": self.defender,
                "count": len(cards), "_reset_honest": True}

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
        givers = []
        s = self._next_in(seat)
        while s != seat:
            givers.append(s)
            if not self.hard:
                break
            s = self._next_in(s)
        givers = [g for g in givers if self.hands[g]]
        if not givers:
            return []
        self.payments.extend([g, seat] for g in givers)
        self._skip_empty_givers()
        return [{"type": "payment_due", "to": seat, "from": givers}]

    def _skip_empty_givers(self) -> None:
        p = self.payments
        while p and not self.hands[p[0][0]]:
            p.pop(0)

    def advance(self) -> list[Event]:
        """T8: leaving (D9), the end of a bout, drawing (D8) and the next bout. Idempotent."""
        if self.result is not None or self.payments:
            return []
        events: list[Event] = []
        if not self.deck:
            self._leave(events)
        if self.ended is None:
            if not self.attack:
                return events
            if not (self.out[self.defender] or self._settled()):
                return events
            events.append(self._end_bout("bito"))  # D9: the defender left; or D5 settled
        outcome = self.ended
        d = self.defender
        if self.deck:
            self._draw(events)
        if not self.deck:
            self._leave(events)
        alive = [s for s in range(self.players) if not self.out[s]]
        if len(alive) <= 1:
            loser = alive[0] if alive else None
            self.ended = None
            # ``order``: the seats that went out, in order (the durak is not among them).
            self.result = {"loser": loser, "draw": loser is None, "order": list(self.order)}
            events.append({"type": "game_over", "result": self.result})
            return events
        if outcome == "bito" and not self.out[d]:
            attacker = d  # D5: the defender who beat off attacks next
        else:
            attacker = self._next_in(d)  # D6 / D9: the next player in the game
        events.append(self._start_bout(attacker))
        return events

    def _leave(self, events: list[Event]) -> None:
        """D9: with the deck empty, a player with no cards leaves at once (in seat order
        from the attacker when several leave together)."""
        n, a, out, hands = self.players, self.attacker, self.out, self.hands
        for i in range(n):
            s = (a + i) % n
            if not out[s] and not hands[s]:
                out[s] = True
                self.order.append(s)
                self.bito[s] = False
                events.append({"type": "out", "seat": s, "place": len(self.order)})

    def _draw(self, events: list[Event]) -> None:
        """D8: up to six each: the lead attacker first, the others clockwise, the defender
        last; the trump card (the bottom of the deck) comes last."""
        n, a, d, deck = self.players, self.attacker, self.defender, self.deck
        order = [(a + i) % n for i in range(n) if (a + i) % n != d] + [d]
        for s in order:
            if not deck:
                break
            if self.out[s]:
                continue
            hand = self.hands[s]
            k = min(HAND - len(hand), len(deck))
            if k <= 0:
                continue
            got = deck[-k:][::-1]
            del deck[-k:]
            hand.extend(got)
            ev = {"type": "draw", "seat": s, "count": k, "deck": len(deck),
                  "_private": {s: {"cards": [card_code(c) for c in got]}}}
            events.append(ev)


class PodkidnoyGame(DurakGame):
    """Подкидной дурак."""

    name = "podkidnoy"


class PerevodnoyGame(DurakGame):
    """Переводной дурак: the defender may transfer the attack (D7)."""

    name = "perevodnoy"
    transfers = True


GAMES = {g.name: g for g in (PodkidnoyGame, PerevodnoyGame)}
