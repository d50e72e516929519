"""«Пень» and «пеньки» (``variant=penki``): beat the top card, lead on it, take by the card
you did not beat (S1–S7); sans-IO.

State (plain ints and lists; cards as ints, :mod:`pidor.cards`):

* ``deck``: the cards still to draw, **bottom first**; in «пень» ``deck[0]`` is the face-up
  trump card, drawn last (S1). Empty in «пеньки» (S6: the whole deck is dealt).
* ``hands[seat]``; ``stubs[seat]``: his «пенёк», two cards face down that nobody sees until
  he picks it up (S5), then empty; ``stack``: the one pile of beaten and led cards, bottom
  first (S2).
* ``turn``: the seat on turn; ``owe``: what he does now: ``beat`` the top card (or take,
  S4), ``lead`` a card, ``draw`` up to four (S3) or ``pick`` up his пенёк (S5); ``after``:
  what follows his draw or his pick: ``lead`` (he beat with his last card, S3, S5), ``beat``
  or ``lead`` (his turn began with an empty hand), or ``pass`` (the turn passes on).
* ``by``: who laid the top card the next player must beat (the taker, after a take: S4
  "as if the taker had led it"); ``None`` on an empty stack.
* ``pending``: a draw (``["draw", count]``) or a pick (``["pick"]``) made and waiting for
  its call window to close before the cards show (T8): :meth:`advance` does it.
* ``out``, ``order``: who is out, in order (S5); ``payments``: cards owed for the mark (T14).
* ``units``, ``high``, ``unit_mark``: T13: the moves so far, the highest the stack has been,
  and the deck, the picked пеньки and the players out when the move on turn began.
"""

from __future__ import annotations

from typing import Any

from ...cards import card_code
from ...engine import payments
from ...engine.game import Action, Event, Game, ImpossibleAction, deal_order, first_seat
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS, Units
from .cards import beaters, take_count

__all__ = ["StumpGame", "HAND", "STUB"]

#: S3: a hand is drawn up to four while the deck lasts; S1: four cards each are dealt.
HAND = 4
#: S1, S6: the cards of a «пенёк».
STUB = 2
SUITS = "cdhs"

#: T13: the steps and ``None`` as ints in a position.
_INT = {None: -1, "beat": 0, "lead": 1, "draw": 2, "pick": 3, "pass": 4}
_PLAIN = ("turn", "owe", "after", "by", "high", "dealer")
_LISTS = ("deck", "stack", "out", "order", "unit_mark")
_NESTED = ("hands", "stubs", "payments")


def _impossible(message: str, rule: str | None = None) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


class StumpGame(Game):
    """«Пень»; with ``variant=penki`` «пеньки»."""

    name = "stump"
    version = "stump-1"
    ACTIONS = {
        "beat": (("card", "card"),),
        "lead": (("card", "card"),),
        "take": (("count", "index"), ("below", "index")),
        "draw": (("count", "index"),),
        "pick": (),
        "give": (("card", "card"),),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table", "ru": "игроков за столом"}, low=2, high=6),
        Option("deck", 36, "int", {"en": "cards in the deck (S1)", "ru": "карт в колоде (S1)"}, choices=(36,)),
        Option("variant", None, "choice", {
            "en": "S6: penki («пеньки»): ordinary ranking, the whole deck dealt, the ace takes 11, no drawing",
            "ru": "S6: penki — «пеньки»: обычное старшинство, сдаётся вся колода, туз — 11 карт, без добора"},
               choices=(None, "penki")),
        Option("hard", False, "bool", {"en": "T14: every other player with two cards or more pays for the mark",
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
    ) -> "StumpGame":
        """S1: the dealer is the previous game's пень (S5), else drawn by lot
        (``Rng(seed, b"bottle")``; seat 0 without a seed); ``first`` (tests) makes that seat
        the first to lead, so the seat before it deals. Each player gets his пенёк (two
        rounds of one card, clockwise from the player after the dealer), then four cards
        each the same way («пеньки», S6: the whole rest). In «пень» the card under the deck
        is turned face up: its suit is trump and it is drawn last; if no card is left, or in
        «пеньки», the last card dealt names trump (its suit stays on show; the card is in a
        hand, hidden with it, as durak's D1 has it)."""
        opts = cls.options(options)
        n, size = opts["players"], opts["deck"]
        order = deal_order(size, seed, deck)
        loser = previous.get("loser") if previous and not previous.get("draw") else None
        if first is not None:
            dealer = (first_seat(n, first, None, None) - 1) % n
        elif loser is not None:
            dealer = loser  # S5: the пень deals
        else:
            dealer = first_seat(n, None, seed, None)  # the lot (T10)
        g = cls.__new__(cls)
        g.players, g.deck_size = n, size
        g.penki, g.hard = opts["variant"] == "penki", opts["hard"]
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        seats = [(dealer + 1 + i) % n for i in range(n)]
        g.stubs = [[] for _ in range(n)]
        for i in range(STUB * n):
            g.stubs[seats[i % n]].append(order[i])
        rest = order[STUB * n:]
        dealt = rest if g.penki else rest[:HAND * n]
        g.hands = [[] for _ in range(n)]
        for i, c in enumerate(dealt):
            g.hands[seats[i % n]].append(c)
        left = rest[len(dealt):]
        g.trump_card = left[-1] if left else dealt[-1]  # S1: the card under the deck; S1, S6: the last dealt
        g.deck = left[::-1]
        g.stack = []
        g.dealer = dealer
        g.turn, g.owe, g.after, g.by = seats[0], "lead", None, None
        g.pending = None
        g.out = [False] * n
        g.order = []
        g.payments = []
        g.result = None
        g.units = Units()
        g.high = 0
        g.unit_mark = g._mark_now()
        g._derive()
        return g

    def _derive(self) -> None:
        self.trump = self.trump_card // 13
        self._beaters = beaters(self.trump, self.penki)

    def opening(self) -> list[Event]:
        """The deal: who dealt, who leads, the trump and, while it lies under the deck, its card."""
        shown = self._shown()
        return [{"type": "deal", "dealer": self.dealer, "first": self.turn, "trump": SUITS[self.trump],
                 "trump_card": None if shown is None else card_code(shown)}]

    # --- queries --------------------------------------------------------------

    def beats(self, card: int, target: int) -> bool:
        """S2: a higher card of the target's suit, or a trump on a non-trump (S1: «пень»
        ranks the ten above the king)."""
        return card in self._beaters[target]

    def owed(self) -> int | None:
        """The count the step on turn asks for: the cards to take while the top card is to
        be beaten (S4), the cards to draw (S3); ``None`` otherwise."""
        if self.owe == "beat" and self.stack:
            return min(take_count(self.stack[-1], self.penki), len(self.stack))
        if self.owe == "draw":
            return max(0, min(HAND - len(self.hands[self.turn]), len(self.deck)))
        return None

    def in_game(self, seat: int) -> bool:
        return not self.out[seat]

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        if self.payments:
            return [self.payments[0][0]]
        if self.pending is not None or self.turn is None:
            return []
        return [self.turn]

    def actions(self, seat: int) -> list[Action]:
        return self._options(seat, False)

    def honest_actions(self, seat: int) -> list[Action]:
        return self._options(seat, True)

    def _options(self, seat: int, honest: bool) -> list[Action]:
        """What ``seat`` may do now: every action hands can make (T1), or the honest ones."""
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.payments:
            return [("give", c) for c in hand]
        owe, out = self.owe, []
        if owe == "lead":
            out = [("lead", c) for c in hand]
        elif owe == "beat":
            most = self.owed()
            if honest:
                can = self._beaters[self.stack[-1]]
                out = [("beat", c) for c in hand if c in can] + [("take", most, 0)]
            else:
                size = len(self.stack)
                out = [("beat", c) for c in hand]
                out += [("take", k, below) for below in range(size) for k in range(1, min(most, size - below) + 1)]
        elif owe == "draw":
            out = [("draw", self.owed())] if honest else [("draw", k) for k in range(len(self.deck) + 1)]
        if self.stubs[seat] and not (honest and (hand or self.deck)):
            out.append(("pick",))  # S5; S7p while holding cards or while the deck lasts
        return out

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """The violations (S7) of a well-formed ``action``; raises if it is impossible (T1)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise _impossible(f"there is no seat {seat!r} at this table", "T1")
        if self.result is not None:
            raise _impossible("the game is over", "S5")
        if self.out[seat]:
            raise _impossible("you are out of this game", "S5")
        kind = action[0]
        if kind in ("beat", "lead", "give") and action[1] not in self.hands[seat]:
            raise _impossible(f"you do not hold {card_code(action[1])}", "T1")
        if payments.check(self.payments, seat, kind, "T14"):
            return ()
        if self.pending is not None:
            raise _impossible("wait: the cards show when the call window closes", "T8")
        if seat != self.turn:
            raise _impossible(f"it is seat {self.turn}'s turn, not yours", "T1")
        return _JUDGE[kind](self, seat, *action[1:])

    def _judge_beat(self, seat: int, card: int) -> tuple[str, ...]:
        if self.owe != "beat":
            raise self._not_now("beat")
        return () if card in self._beaters[self.stack[-1]] else ("S7b",)

    def _judge_lead(self, seat: int, card: int) -> tuple[str, ...]:
        if self.owe != "lead":
            raise self._not_now("lead")
        return ()

    def _judge_take(self, seat: int, count: int, below: int) -> tuple[str, ...]:
        if self.owe != "beat":
            raise self._not_now("take")
        size, most = len(self.stack), self.owed()
        if not 0 <= below < size or not 1 <= count <= size - below:
            raise _impossible(f"the stack holds {size} cards: take 1..{size} from the top", "S4")
        if count > most:
            raise _impossible(f"the top card says {most}: nobody takes more (S4)", "S4")
        return (("S7t",) if count < most else ()) + (("S7m",) if below else ())

    def _judge_draw(self, seat: int, count: int) -> tuple[str, ...]:
        if self.owe != "draw":
            raise self._not_now("draw")
        if not 0 <= count <= len(self.deck):
            raise _impossible(f"the deck holds {len(self.deck)} cards", "S3")
        due = self.owed()
        return ("S7d",) if count > due else ("S7n",) if count < due else ()

    def _judge_pick(self, seat: int) -> tuple[str, ...]:
        if not self.stubs[seat]:
            raise _impossible("your пенёк is in your hand already", "S5")
        return ("S7p",) if self.hands[seat] or self.deck else ()

    def _not_now(self, kind: str) -> ImpossibleAction:
        says = {"beat": ("beat the top card or take", "S4"), "lead": ("lead a card", "S2"),
                "draw": ("draw up to four", "S3"), "pick": ("pick up your пенёк", "S5")}
        what, rule = says[self.owe]
        return _impossible(f"you cannot {kind} now: {what}", rule)

    def is_callable(self, action: Action) -> bool:
        return action[0] != "give"  # T14: a payment is not a move of play

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None or self.out[seat]:
            return "S5"
        if self.payments:
            return "T14"
        return {"beat": "S4", "lead": "S2", "draw": "S3", "pick": "S5"}.get(self.owe, "S5")

    # --- mutation -------------------------------------------------------------

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        kind = action[0]
        data = self.action_data(action)
        event: Event = {"type": "action", "seat": seat, "action": data, "_violations": list(violations)}
        events = [event]
        if kind == "give":  # T14: seen by giver and recipient only
            events += payments.give(self.payments, self.hands, action[1], event)
            payments.skip_empty(self.payments, self.hands)
            return events
        self.units.step()  # T13: a position after every action (a turn of cheats may not end)
        _DO[kind](self, seat, *action[1:], events)
        return events

    def _do_beat(self, seat: int, card: int, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.stack.append(card)
        self.by = seat
        if self.hands[seat]:
            self.owe, self.after = "lead", None
        else:  # S3, S5: beat with his last card: draw, or pick up the пенёк, then lead
            self._refill(seat, "lead", events)

    def _do_lead(self, seat: int, card: int, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.stack.append(card)
        self.by = seat
        self._refill(seat, "pass", events)

    def _do_take(self, seat: int, count: int, below: int, events: list[Event]) -> None:
        stack = self.stack
        top = len(stack) - below
        self.hands[seat].extend(stack[top - count:top])
        del stack[top - count:top]
        self.by = seat if stack else None  # S4: as if the taker had led the new top card
        self._refill(seat, "pass", events)

    def _do_draw(self, seat: int, count: int, events: list[Event]) -> None:
        self.pending = ["draw", count]  # T8: the cards come when the window closes

    def _do_pick(self, seat: int, events: list[Event]) -> None:
        self.pending = ["pick"]

    def _refill(self, seat: int, after: str, events: list[Event]) -> None:
        """S3, S5: after a lead or a take (``after`` ``pass``), or a beat with the last card
        (``lead``): draw up to four while the deck lasts; with the deck gone and the hand
        empty, pick up the пенёк; with nothing left, go out. Then ``after``."""
        hand = self.hands[seat]
        self.after = after
        if self.deck and (len(hand) < HAND if after == "pass" else not hand):
            self.owe = "draw"
        elif not hand and not self.deck and self.stubs[seat]:
            self.owe = "pick"
        else:
            if not hand and not self.deck:
                self._leave(seat, events)
            if after == "pass" or self.out[seat]:
                self._pass(seat, events)
            else:
                self.owe, self.after = after, None

    def _leave(self, seat: int, events: list[Event]) -> None:
        """S5: neither hand nor пенёк: out, with his place."""
        self.out[seat] = True
        self.order.append(seat)
        events.append({"type": "out", "seat": seat, "place": len(self.order)})

    def _next_in(self, seat: int) -> int:
        n = self.players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if not self.out[s]:
                return s
        return seat

    def _pass(self, seat: int, events: list[Event]) -> None:
        """The move is over (T13); the next player in the game beats the top card (S2, S4,
        S5), or leads on an empty stack."""
        self._end_unit()
        n, out = self.players, self.out
        for i in range(1, n + 1):  # (a player left with nothing by a cheat goes out as his turn comes)
            s = (seat + i) % n
            if not out[s] and not self.hands[s] and not self.stubs[s] and not self.deck:
                self._leave(s, events)
        if all(out):
            self.turn, self.owe, self.after = None, None, None
            return
        self._due(self._next_in(seat), "beat" if self.stack else "lead")
        self.unit_mark = self._mark_now()

    def _due(self, seat: int, what: str) -> None:
        """``seat`` now owes ``what`` (``beat`` or ``lead``); with an empty hand (a draw cut
        short, S7n) he draws first, or picks up his пенёк (S3, S5)."""
        self.turn = seat
        hand = self.hands[seat]
        if hand:
            self.owe, self.after = what, None
        else:
            self.owe, self.after = ("draw" if self.deck else "pick"), what

    def _resolve(self, events: list[Event]) -> None:
        """T8: the pending draw or pick, once its window has closed; then the turn goes on."""
        seat, pending = self.turn, self.pending
        self.pending = None
        hand = self.hands[seat]
        if pending[0] == "draw":
            k = pending[1]
            got = self.deck[len(self.deck) - k:][::-1]
            del self.deck[len(self.deck) - k:]
            hand.extend(got)
            events.append({"type": "draw", "seat": seat, "count": k, "deck": len(self.deck),
                           "_private": {seat: {"cards": [card_code(c) for c in got]}}})
        else:
            got, self.stubs[seat] = self.stubs[seat], []
            hand.extend(got)
            events.append({"type": "stub", "seat": seat, "count": len(got),
                           "_private": {seat: {"cards": [card_code(c) for c in got]}}})
            if self.owe != "pick":
                return  # S7p: picked up early; what he owed stands
        after = self.after
        if after == "pass":
            self._pass(seat, events)
        else:
            self._due(seat, after)

    def advance(self) -> list[Event]:
        """T8: the pending draw or pick; S5: the end; T13: the position, recorded."""
        if self.result is not None:
            return []
        events: list[Event] = []
        if self.pending is not None:
            self._resolve(events)
        if self._finish(events):
            return events
        if self.units.due:
            reason = self.units.record(self.position(), self.limits)
            if reason is not None:
                self._end({"loser": None, "draw": True, "order": list(self.order), "stalled": reason}, events)
        return events

    def _finish(self, events: list[Event]) -> bool:
        """S5: the last player with cards is the пень; nobody with cards: a draw (the last two
        ran out together). A last player who owes an answer to the card of one who just went
        out answers it first: beating it with his last card makes the draw."""
        alive = [s for s in range(self.players) if not self.out[s]]
        if len(alive) > 1:
            return False
        if alive:
            answer = self.owe if self.owe in ("beat", "lead") else self.after
            if answer == "beat" and self.by is not None and self.out[self.by]:
                return False
        loser = alive[0] if alive else None
        self._end({"loser": loser, "draw": loser is None, "order": list(self.order)}, events)
        return True

    def _end(self, result: dict, events: list[Event]) -> None:
        self.result = result
        self.turn, self.owe, self.after, self.pending = None, None, None, None
        events.append({"type": "game_over", "result": {**result, "order": list(result["order"])}})

    def on_mark(self, seat: int) -> list[Event]:
        """T14: the marked player is paid a card at once by the first player after him in the
        game who holds two or more (``hard``: by every such player)."""
        if self.result is not None or self.out[seat]:
            return []
        hands = self.hands
        givers = payments.givers(seat, self.players, self.in_game, lambda s: len(hands[s]), self.hard, 2)
        return payments.due(self.payments, seat, givers)

    # --- T13 ------------------------------------------------------------------------

    def _mark_now(self) -> list[int]:
        return [len(self.deck), sum(not s for s in self.stubs), len(self.order)]

    def _end_unit(self) -> None:
        """T13b: a move has ended; progress: a card drawn, a пенёк picked up, a player out,
        or the stack higher than ever before in this game."""
        deck, picked, gone = self.unit_mark
        progress = len(self.deck) < deck or sum(not s for s in self.stubs) > picked or len(self.order) > gone
        if len(self.stack) > self.high:
            self.high = len(self.stack)
            progress = True
        self.units.end(progress)

    def position(self) -> tuple:
        """T13: every card's place (hands and пеньки as sets, the deck and the stack in
        order), whose turn, what he owes; not the mark. Ints only (a position is keyed by
        its hash, the same in every process)."""
        return (_INT.get(self.turn, self.turn), _INT[self.owe], _INT[self.after], _INT.get(self.by, self.by),
                tuple(self.deck), tuple(self.stack), tuple(tuple(sorted(h)) for h in self.hands),
                tuple(tuple(sorted(s)) for s in self.stubs), tuple(self.order), tuple(map(tuple, self.payments)))

    # --- views ----------------------------------------------------------------------

    def _shown(self) -> int | None:
        """The face-up trump card under the deck (S1), drawn last; once in a hand, only its
        suit is on show."""
        return self.deck[0] if self.deck else None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "pay" if self.payments else "play"

    def view(self, seat: int | None) -> dict:
        shown = self._shown()
        v: dict[str, Any] = {
            "game": self.name,
            "variant": "penki" if self.penki else None,
            "players": self.players,
            "deck_size": self.deck_size,
            "hard": self.hard,
            "phase": self.phase,
            "trump": SUITS[self.trump],
            "trump_card": None if shown is None else card_code(shown),
            "deck": len(self.deck),
            "stack": [card_code(c) for c in self.stack],
            "by": self.by,
            "hands": [len(h) for h in self.hands],
            "stubs": [len(s) for s in self.stubs],
            "dealer": self.dealer,
            "turn": self.turn,
            "owe": self.owe,
            "after": self.after,
            "owed": None if self.result is not None else self.owed(),
            "pending": None if self.pending is None else list(self.pending),
            "out": list(self.order),
            "payments": [{"from": g, "to": r} for g, r in self.payments],
            "to_act": self.to_act(),
            "result": None if self.result is None else {**self.result, "order": list(self.result["order"])},
        }
        if seat is not None:
            v["seat"] = seat
            v["hand"] = [card_code(c) for c in self.hands[seat]]
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        """The deck but its face-up bottom card (S1), every пенёк not picked up (its owner's
        too, S5), and other seats' hands."""
        hidden = set(self.deck)
        for s in range(self.players):
            hidden.update(self.stubs[s])
            if s != seat:
                hidden.update(self.hands[s])
        hidden.discard(self._shown())
        return {card_code(c) for c in hidden}

    def zones(self) -> dict[str, list[int]]:
        z = {"deck": self.deck[::-1], "stack": list(self.stack)}
        for s in range(self.players):
            z[f"hand.{s}"] = list(self.hands[s])
            z[f"stub.{s}"] = list(self.stubs[s])
        return z

    # --- data -----------------------------------------------------------------------

    def to_data(self) -> dict:
        d: dict[str, Any] = {"game": self.name, "version": self.version, "players": self.players,
                             "deck_size": self.deck_size, "variant": "penki" if self.penki else None,
                             "hard": self.hard, "trump_card": self.trump_card}
        state = self.__dict__
        for k in _PLAIN:
            d[k] = state[k]
        for k in _LISTS:
            d[k] = state[k][:]
        for k in _NESTED:
            d[k] = [x[:] for x in state[k]]
        d["pending"] = None if self.pending is None else self.pending[:]
        r = self.result
        d["result"] = None if r is None else {k: v[:] if type(v) is list else v for k, v in r.items()}
        d["limits"] = dict(self.limits)
        d["units"] = self.units.to_data()
        return d

    @classmethod
    def from_data(cls, data: dict) -> "StumpGame":
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        g = cls.__new__(cls)
        g.players, g.deck_size = data["players"], data["deck_size"]
        g.penki, g.hard, g.trump_card = data["variant"] == "penki", data["hard"], data["trump_card"]
        for k in _PLAIN:
            setattr(g, k, data[k])
        for k in _LISTS:
            setattr(g, k, list(data[k]))
        for k in _NESTED:
            setattr(g, k, [list(x) for x in data[k]])
        g.pending = None if data["pending"] is None else list(data["pending"])
        r = data["result"]
        g.result = None if r is None else {k: list(v) if type(v) is list else v for k, v in r.items()}
        g.limits = dict(data["limits"])
        g.units = Units.from_data(data["units"])
        g._derive()
        return g


#: kind -> its check and its doing (looked up once, not by name at every action).
_JUDGE = {k: getattr(StumpGame, f"_judge_{k}") for k in StumpGame.ACTIONS if k != "give"}
_DO = {k: getattr(StumpGame, f"_do_{k}") for k in StumpGame.ACTIONS if k != "give"}
