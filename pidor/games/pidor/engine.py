"""«Пидор» (also «распиздяй», «разгильдяй»): stacks, then tricks (P1–P17).

The state's fields, and what each mixin expects of the others, are declared in
:class:`.state.PidorState`. Deal-phase rules live in :mod:`.deal`, trick play
in :mod:`.tricks`.
"""

from __future__ import annotations

from typing import Any

from ...cards import card_code, low_rank
from ...engine.game import (
    Action,
    Event,
    Game,
    ImpossibleAction,
    deal_order,
    first_seat,
)
from ...engine.options import Option
from ...engine.units import UNIT_OPTIONS, Units
from .deal import DealPhase
from .state import DEAL, OVER, SETTLE, TRICKS
from .tricks import TrickPlay

__all__ = ["PidorGame"]

_SUITS = "cdhs"

# kind -> (check method name, do method name); each takes the seat and the whole action tuple
_HANDLERS = {
    "move": ("_check_move", "_do_move"),
    "draw": ("_check_draw", "_do_draw"),
    "lay": ("_check_lay", "_do_lay"),
    "keep": ("_check_keep", "_do_keep"),
    "lead": ("_check_lead", "_do_lead"),
    "beat": ("_check_beat", "_do_beat"),
    "take": ("_check_take", "_do_take"),
    "close": ("_check_close", "_do_close"),
    "give": ("_check_give", "_do_give"),
}

# Fields copied as they are, lists of ints, and lists of lists of ints (for to_data/restore).
_SCALARS = ("phase", "turn", "held", "drew", "last_drawer", "trump", "trick_size", "closed",
            "next_leader", "quiet_tricks", "trick_moves", "pay_from", "giver")
_LISTS = ("deck", "pidorstvo", "table", "table_seats", "discard", "order")
_NESTED = ("stacks", "hands", "prikups", "dues", "given")


class PidorGame(DealPhase, TrickPlay, Game):
    name = "pidor"
    #: pidor-3: every game ends by T13 (the count of 30 of P16a is gone); pidor-2 still
    #: verifies (:data:`OLDER`: ``T13`` off).
    version = "pidor-3"
    #: T13: positions and units end a game that goes round in circles; ``False``: P16a's
    #: count of 30 quiet tricks and its endless-trick reading (engine pidor-2).
    T13 = True
    ACTIONS = {
        "move": (("to", "seat"),),
        "draw": (),
        "lay": (("to", "seat"),),
        "keep": (),
        "lead": (("card", "card"),),
        "beat": (("card", "card"), ("target", "index")),
        "take": (("index", "index"),),
        "close": (),
        "give": (("card", "card"),),
    }
    OPTIONS = (
        Option("players", 4, "int", {"en": "players at the table", "ru": "игроков за столом"}, low=2, high=6),
        Option("deck", 52, "int", {"en": "cards in the deck", "ru": "карт в колоде"}, choices=(36, 52)),
        *UNIT_OPTIONS,
    )
    CLOCKS = (Option("trick_display", 2.0, "seconds", {"en": "P14: how long a closed trick stays on show",
                                                       "ru": "P14: сколько закрытая взятка лежит на виду"}),)

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        options: dict | None = None,
        *,
        seed: bytes | None = None,
        deck: list[int] | None = None,
        first: int | None = None,
        previous: dict | None = None,
    ) -> "PidorGame":
        opts = cls.options(options)
        n, size = opts["players"], opts["deck"]
        order = deal_order(size, seed, deck)
        loser = previous.get("loser") if previous else None
        # P1: after the previous pidor; the «бутылка» for the first game and after a draw.
        first = first_seat(n, first, seed, None if loser is None else (loser + 1) % n)
        g = cls.__new__(cls)
        g.players = n
        g.deck_size = size
        g._derive()
        # P2: three rounds in seat order; rounds 1–2 face down, round 3 face up.
        g.stacks = [[order[s], order[n + s], order[2 * n + s]] for s in range(n)]
        g.deck = order[3 * n:][::-1]
        g.phase = DEAL
        g.turn = first
        g.held = None
        g.drew = False
        g.last_drawer = None
        g.trump = None
        g.pidorstvo = [0] * n
        g.hands = [[] for _ in range(n)]
        g.prikups = [[] for _ in range(n)]
        g.table = []
        g.table_seats = []
        g.discard = []
        g.trick_size = 0
        g.closed = False
        g.next_leader = None
        g.quiet_tricks = g.trick_moves = 0
        g.limits = {o.name: opts[o.name] for o in UNIT_OPTIONS}
        g.units = Units()
        g.order = []
        g.dues = []
        g.pay_from = None
        g.giver = None
        g.given = []
        g.result = None
        g._out = [False] * n
        g._in = list(range(n))
        return g

    def _derive(self) -> None:
        low_i = low_rank(self.deck_size) - 2
        self._low_i = low_i
        self._up = tuple(i + 1 if i < 12 else low_i for i in range(13))
        self._hand_copies = [[] for _ in range(self.players)]  # (position: each hand as last seen,
        self._hand_sets = [() for _ in range(self.players)]  # and it sorted)

    # ------------------------------------------------------------------ queries

    def to_act(self) -> list[int]:
        phase = self.phase
        if phase == DEAL:
            return [] if (not self.deck and self.held is None) else [self.turn]
        if phase == TRICKS:
            return [] if self.closed else [self.turn]
        if phase == SETTLE:
            return [] if self.giver is None else [self.giver]
        return []

    def actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == DEAL:
            return self._deal_actions(seat)
        if phase == TRICKS:
            return self._trick_actions(seat)
        if phase == SETTLE and seat == self.giver:
            return [("give", c) for c in self.hands[seat]]
        return []

    def honest_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == TRICKS:
            return self._trick_honest(seat)
        if phase == DEAL:
            return self._deal_honest(seat)
        if phase == SETTLE and seat == self.giver:
            return [("give", c) for c in self.hands[seat]]
        return []

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """A seat that does not exist, or a game that is over: impossible; then the rules."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ImpossibleAction(f"there is no seat {seat!r} at this table", rule="T1")
        if self.phase == OVER:
            raise ImpossibleAction("the game is over", rule="P16")
        return _CHECK[action[0]](self, seat, action)

    def is_callable(self, action: Action) -> bool:
        # P10: a payment is not a move to call. (Asked of well-formed actions only: the table
        # checks an action first, and the driver's come from the game's own lists.)
        return action[0] != "give"

    def rule_in_force(self, seat: int) -> str:
        phase = self.phase
        if phase == DEAL:
            if seat == self.turn and self.held is None and not self.drew and self._can_move(seat):
                return "P5"
            return "P3"
        if phase == SETTLE:
            return "P10"
        if phase == TRICKS:
            if not self.table:
                return "P13"
            if not self.hands[seat]:
                return "P15"
            return "P12"
        return "P16"

    def in_game(self, seat: int) -> bool:
        return self.phase != OVER and not self._out[seat]

    def in_game_seats(self) -> list[int]:
        if self.phase == OVER:
            return []
        return self._in[:]

    # ------------------------------------------------------------------ mutation

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        if type(action) is not tuple:
            action = tuple(action)
        kind = action[0]
        form = self._wire.get(action)  # (action_data, inline: every action's event shows it)
        data = self.action_data(action) if form is None else dict(form)
        event: Event = {"type": "action", "seat": seat, "action": data,
                        "_violations": list(violations) if violations else []}
        if kind == "give":
            # P10: the card given is seen by the recipient (the giver knows it already; once
            # it is in another hand, no view or event may show it to him again).
            event["action"] = {"type": "give"}
            event["_private"] = {self.dues[0][0]: {"action": data}}
        events = [event]
        _DO[kind](self, seat, action, events)
        if self.T13 and kind != "give":
            self.units.due = True  # (Units.step) T13: the deal and a trick may never end: a position after every action
        return events

    def advance(self) -> list[Event]:
        """T8: the end of the deal phase (P8 → P10) and the end of a closed trick (P15, P16);
        T13: the position after an action, recorded once its window has closed."""
        phase = self.phase
        if phase == TRICKS:
            if self.closed:
                return self._end_trick()
            if not self.T13:
                events: list[Event] = []
                if self._endless():  # P16a (pidor-2): a trick that goes round and round
                    self._check_end(events)
                return events
        elif phase == DEAL:
            if not self.deck and self.held is None:
                return self._end_deal()
            if not self.T13:
                return []
        else:
            return []
        units = self.units  # (_stalled, inline: after most actions)
        if units.due:
            reason = units.record(self.position(), self.limits)
            if reason is not None:
                events = []
                self._stall(reason, events)
                return events
        return []

    def position(self) -> tuple:
        """T13: every card's place (hands as sets), whose turn, what is owed; not the mark.
        Ints only (``-1`` for none: :func:`pidor.engine.units._key`). In trick play the
        stacks and the deck are empty and the settlement is done, and a prikup only ever
        goes whole into its hand: the hands, the table and its counts place every card."""
        none = -1
        # Each hand as a set (sorted): only a hand that differs from the copy kept of it is
        # sorted again (an action changes one or two; compared as they are now, so a hand
        # changed anywhere, by anyone, is sorted afresh).
        copies, sets = self._hand_copies, self._hand_sets
        for s, h in enumerate(self.hands):
            if h != copies[s]:
                copies[s] = h[:]
                sets[s] = tuple(sorted(h))
        if self.phase == TRICKS:  # (recorded after every action: kept lean)
            return (self.turn, tuple(sets), tuple(self.table), tuple(self.table_seats),
                    tuple(map(len, self.prikups)), len(self.discard), tuple(self.order), self.closed,
                    none if self.next_leader is None else self.next_leader)
        return (_PHASES[self.phase], none if self.turn is None else self.turn, none if self.held is None else self.held,
                self.drew, tuple(map(tuple, self.stacks)), tuple(self.deck), tuple(sets),
                tuple(map(tuple, map(sorted, self.prikups))), tuple(self.table), tuple(self.table_seats),
                len(self.discard), tuple(self.order), tuple(self.pidorstvo), self.closed,
                none if self.next_leader is None else self.next_leader, tuple(map(tuple, self.dues)))

    def _stalled(self, events: list[Event] | None = None) -> list[Event]:
        """T13: record the position due; a draw if it says so."""
        events = [] if events is None else events
        units = self.units
        if units.due:
            reason = units.record(self.position(), self.limits)
            if reason is not None:
                self._stall(reason, events)
        return events

    def on_mark(self, seat: int) -> list[Event]:
        """P7: every mark in the deal phase is a pidorstvo; P17: later marks cost nothing."""
        if self.phase != DEAL:
            return []
        self.pidorstvo[seat] += 1
        return [{"type": "pidorstvo", "seat": seat, "count": self.pidorstvo[seat]}]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict:
        codes = _codes
        n = self.players
        v: dict[str, Any] = {
            "game": self.name,
            "phase": self.phase,
            "players": n,
            "seat": seat,
            "turn": self.turn,
            "to_act": self.to_act(),
            "deck": len(self.deck),
            "trump": None if self.trump is None or self.phase == DEAL else _SUITS[self.trump],
            "stacks": [{"cards": codes(st[2:]), "hidden": min(2, len(st))} for st in self.stacks],
            "held": None if self.held is None else card_code(self.held),
            "drew": self.drew,
            "hands": [len(h) for h in self.hands],
            "prikups": [len(p) for p in self.prikups],
            "table": codes(self.table),
            "table_seats": list(self.table_seats),
            "trick_size": self.trick_size,
            "closed": self.closed,
            "discard": len(self.discard),
            "pidorstvo": list(self.pidorstvo),
            "out": list(self.order),
            "payment": None if self.giver is None else {
                "from": self.giver, "to": self.dues[0][0], "left": self.dues[0][1]},
            "dues": [{"to": r, "count": k} for r, k in self.dues],
            "payments": [{"from": f, "to": t} for f, t, _ in self.given],
            "result": None if self.result is None else {**self.result, "order": list(self.result["order"])},
        }
        if seat is not None:
            v["hand"] = codes(self.hands[seat])
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        hidden: set[int] = set(self.deck)
        for st in self.stacks:
            hidden.update(st[:2])
        for p in self.prikups:
            hidden.update(p)
        for s, h in enumerate(self.hands):
            if s != seat:
                hidden.update(h)
        return {card_code(c) for c in hidden}

    def zones(self) -> dict[str, list[int]]:
        z: dict[str, list[int]] = {
            "deck": self.deck[::-1],  # top first
            "held": [] if self.held is None else [self.held],
            "table": list(self.table),
            "discard": list(self.discard),
        }
        for s in range(self.players):
            z[f"stack.{s}"] = list(self.stacks[s])
            z[f"hand.{s}"] = list(self.hands[s])
            z[f"prikup.{s}"] = list(self.prikups[s])
        return z

    # ------------------------------------------------------------------ data

    def to_data(self) -> dict:
        d = self._fields()
        d["units"] = self.units.to_data()
        return d

    def _fields(self) -> dict:
        d: dict[str, Any] = {"game": self.name, "version": self.version,
                             "players": self.players, "deck_size": self.deck_size}
        state = self.__dict__  # the fields are plain attributes: read them without getattr
        for k in _SCALARS:
            d[k] = state[k]
        for k in _LISTS:
            d[k] = state[k][:]
        for k in _NESTED:
            d[k] = list(map(list, state[k]))  # (T6: an undo point per cheat; in C, no comprehension)
        r = self.result
        d["result"] = None if r is None else {k: v[:] if type(v) is list else v for k, v in r.items()}
        d["limits"] = dict(self.limits)
        return d

    @classmethod
    def from_data(cls, data: dict) -> "PidorGame":
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        if data.get("version") != cls.version:
            raise ValueError(f"state of engine {data.get('version')!r}, this is {cls.version!r}")
        g = cls.__new__(cls)
        g.players = data["players"]
        g.deck_size = data["deck_size"]
        g._derive()
        g.restore(data)
        return g

    def snapshot(self) -> dict:
        d = self._fields()
        d["units"] = self.units.brief()
        return d

    def restore(self, snapshot: dict) -> None:
        d = snapshot
        state = self.__dict__  # (T6: an undo in a game of cheats is frequent; setattr costs)
        for k in _SCALARS:
            state[k] = d[k]
        for k in _LISTS:
            state[k] = list(d[k])
        for k in _NESTED:
            state[k] = list(map(list, d[k]))
        r = d["result"]
        self.result = None if r is None else {k: list(v) if type(v) is list else v for k, v in r.items()}
        self.limits = d.get("limits") or {o.name: o.default for o in UNIT_OPTIONS}
        units = d.get("units")
        if units is None:
            self.units = Units()
        elif "units" in self.__dict__:
            self.units.restore(units)
        else:
            self.units = Units.from_data(units)
        out = [False] * self.players
        for s in self.order:
            out[s] = True
        self._out = out
        self._in = [s for s in range(self.players) if not out[s]]


#: A phase as an int, in a position (T13).
_PHASES = {DEAL: 0, SETTLE: 1, TRICKS: 2, OVER: 3}
#: kind -> the methods that check it and carry it out (looked up once, not by name at
#: every action; a subclass that changes a rule overrides ``check`` or ``perform``).
_CHECK = {kind: getattr(PidorGame, check) for kind, (check, _) in _HANDLERS.items()}
_DO = {kind: getattr(PidorGame, do) for kind, (_, do) in _HANDLERS.items()}


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _pidor2(cls: type[PidorGame]) -> type[PidorGame]:
    """The game as engine pidor-2 played it, to verify its logs: P16a's count of 30 quiet
    tricks and the endless trick instead of T13."""
    return type(cls.__name__ + "2", (cls,), {"version": "pidor-2", "T13": False, "HONEST_EVENTS": False,
                                            "__doc__": _pidor2.__doc__})


def _pidor1(cls: type[PidorGame]) -> type[PidorGame]:
    """The game as engine pidor-1 played it (``cls``: pidor-2's), to verify its logs: the
    call window of an action that closed a trick lasted ``trick_display`` alone, shorter
    than ``call_window`` too (T3, P14; a53c47d); the table's events in their early forms
    (:mod:`pidor.gamelog.early`)."""
    return type(cls.__name__.removesuffix("2") + "1", (cls,), {"version": "pidor-1", "hold_sets_window": True,
                                                               "early_events": True, "__doc__": _pidor1.__doc__})


_PIDOR2 = _pidor2(PidorGame)
PidorGame.OLDER = {"pidor-2": _PIDOR2, "pidor-1": _pidor1(_PIDOR2)}
