"""«Пьяница» (W1–W6): two players, each with his own face-down deck, and battles of flipped
cards. No honest decision exists but collecting: every decision is whether to cheat and
whether to call.

State (plain ints and lists; a card is an ``int``, :mod:`pidor.cards`):

* ``decks[s]``: seat ``s``'s deck, **top first**: a flip takes ``decks[s][0]``, won cards
  go to its end (W2b). Nobody looks into a deck, its owner neither (W1).
* ``known``: the cards that went back from the table in the open (collected or put on
  top; a mark's payment moves one in the open too): in a deck, everybody knows their
  places. Every other card in a deck is hidden from every seat alike, its owner's too; a
  reshuffle hides its cards again. (A card out of the decks may be in ``known`` too.)
* ``sides[s]``: with ``reshuffle`` (W6), the pile his won cards go to (face up, public),
  shuffled into his deck when it runs out.
* ``table[s]``: the cards ``s`` flipped in this battle, in order (all face up: with
  ``face_down_dispute`` the card that does not count lies face up too, W6).
* ``winner``: the seat whose card is higher in a decided battle (``None`` while it is not).
* ``first``: who flips first in every round (W2: by lot).
* ``battle``: the battle's number; ``draws``: the random events so far (W3 draws, W6
  reshuffles), each drawn from the game's seed and its number (T10); ``key``: that seed.
* ``units``, ``limits``: T13 with the battle as its unit (repetition and ``unit_limit``).

Who acts (:meth:`to_act`): while a battle is undecided, the seat to flip: the one with fewer
cards on the table, else ``first`` (W2), except that in a dispute a player with no cards
flips after his opponent (W3). Once decided, both: the winner collects, the loser may grab
(W5g); the game waits on the winner (:meth:`obliged`).
"""

from __future__ import annotations

from typing import Any

from ...cards import card_code, low_rank
from ...engine.game import Action, Event, Game, ImpossibleAction, deal_order, first_seat
from ...engine.options import Option
from ...engine.seeds import Rng, shuffled
from ...engine.units import LIMIT_OPTION, REPEAT_OPTION, Units

__all__ = ["DrunkardGame", "ACE"]

#: The ace's rank index (``card % 13``).
ACE = 12
#: T13 in «пьяница»: repetition and ``unit_limit`` only (T13b: no ``quiet_limit``).
UNITS = (REPEAT_OPTION, LIMIT_OPTION)
_SCALARS = ("first", "battle", "draws", "winner", "deck_size", "face_down", "six_beats_ace", "reshuffle")


class DrunkardGame(Game):
    name = "drunkard"
    version = "drunkard-1"
    ACTIONS = {
        "flip": (("index", "index"),),  # the card ``index`` from the top of the seat's deck (W2; W5b if not 0)
        "collect": (("cards", "cards"),),  # every card on the table, in order, under the deck (W2b)
        "top": (("cards", "cards"),),  # every card on the table onto the deck, the first on top (W5t)
    }
    OPTIONS = (
        Option("players", 2, "int", {"en": "players at the table (W1)", "ru": "игроков за столом (W1)"}, choices=(2,)),
        Option("deck", 36, "int", {"en": "cards in the deck (W1)", "ru": "карт в колоде (W1)"}, choices=(36, 52)),
        Option("face_down_dispute", False, "bool",
               {"en": "W6: in each round of a dispute a card that does not count, then one that decides",
                "ru": "W6 «рубашкой вниз»: в каждом круге спора сначала карта не в счёт, потом решающая"}),
        Option("six_beats_ace", False, "bool", {"en": "W6 «душу тянуть»: the lowest rank beats the ace",
                                                "ru": "W6 «душу тянуть»: младшая карта бьёт туза"}),
        Option("reshuffle", False, "bool",
               {"en": "W6: won cards go to a side pile, shuffled in when the deck runs out",
                "ru": "W6: выигранные карты — в сторону, тасуются, когда колода кончится"}),
        *UNITS,
    )

    players: int
    deck_size: int
    decks: list[list[int]]
    sides: list[list[int]]
    table: list[list[int]]
    known: set[int]
    winner: int | None
    first: int
    battle: int
    draws: int
    key: bytes
    face_down: bool
    six_beats_ace: bool
    reshuffle: bool
    low: int
    units: Units
    limits: dict

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, options: dict | None = None, *, seed: bytes | None = None, deck: list[int] | None = None,
            first: int | None = None, previous: dict | None = None) -> "DrunkardGame":
        opts = cls.options(options)
        size = opts["deck"]
        order = deal_order(size, seed, deck)
        g = cls.__new__(cls)
        g.players = 2
        g.deck_size = size
        g.face_down, g.six_beats_ace, g.reshuffle = opts["face_down_dispute"], opts["six_beats_ace"], opts["reshuffle"]
        g.decks = [order[0::2], order[1::2]]  # W1: dealt one at a time, seat 0 first
        g.sides = [[], []]
        g.table = [[], []]
        g.known = set()
        g.winner = None
        g.first = first_seat(2, first, seed, None)  # W2: by lot (the «бутылка» of T10), every game
        g.battle = 1
        g.draws = 0
        g.key = seed or b""
        g.units = Units()
        g.limits = {o.name: opts[o.name] for o in UNITS}
        g.result = None
        g.low = low_rank(size) - 2
        return g

    def opening(self) -> list[Event]:
        return [self._battle_event(first=True)]

    # ------------------------------------------------------------------ the rules

    def beats(self, a: int, b: int) -> bool:
        """W2: ``a``'s rank is higher than ``b``'s (W6 ``six_beats_ace``: the lowest rank
        beats the ace, and so loses to it no more)."""
        ra, rb = a % 13, b % 13
        if self.six_beats_ace:
            if ra == self.low and rb == ACE:
                return True
            if rb == self.low and ra == ACE:
                return False
        return ra > rb

    def counts(self, index: int) -> bool:
        """Whether the ``index``-th card a seat flipped in a battle decides a round (W6
        ``face_down_dispute``: in each round of a dispute the first card does not)."""
        return not self.face_down or index % 2 == 0

    def held(self, seat: int) -> int:
        """The cards ``seat`` has: his deck and side pile ("no cards" in W3, W4, W6)."""
        return len(self.decks[seat]) + len(self.sides[seat])

    def flipper(self) -> int | None:
        """Who flips next in an undecided battle (``None`` once it is decided)."""
        if self.winner is not None:
            return None
        a, b = len(self.table[0]), len(self.table[1])
        if a != b:
            return 0 if a < b else 1
        f = self.first
        if a and not self.held(f):  # W3: in a dispute a player with no cards flips after his opponent
            return 1 - f
        return f

    def disputed(self) -> bool:
        """A dispute is on: a round was flipped and tied (W2), and the battle goes on."""
        return self.winner is None and bool(self.table[0]) and bool(self.table[1])

    def order(self, seat: int) -> tuple[int, ...]:
        """W2b: the table's cards in the honest order with ``seat`` collecting: latest first,
        ``seat``'s card before his opponent's."""
        mine, theirs = self.table[seat], self.table[1 - seat]
        out: list[int] = []
        for i in range(max(len(mine), len(theirs)) - 1, -1, -1):
            if i < len(mine):
                out.append(mine[i])
            if i < len(theirs):
                out.append(theirs[i])
        return tuple(out)

    # ------------------------------------------------------------------ queries

    def to_act(self) -> list[int]:
        if self.result is not None:
            return []
        w = self.winner
        return [self.flipper()] if w is None else [w, 1 - w]

    def obliged(self) -> list[int]:
        """The game waits on the seat to flip, or on the winner to collect (W2a)."""
        if self.result is not None:
            return []
        w = self.winner
        return [self.flipper()] if w is None else [w]

    def actions(self, seat: int) -> list[Action]:
        """Every flip (W5b: any card of the deck), and with cards on the table three ways to
        collect them: the honest order under the deck, the reverse order (W5o) and the
        honest order on top (W5t). Any other order is accepted too (:meth:`judge`)."""
        if seat not in self.to_act():
            return []
        out: list[Action] = []
        if self.winner is None:
            out += [("flip", i) for i in range(len(self.decks[seat]) or 1)]  # (an empty deck: W3's draw)
        if self.table[0] or self.table[1]:
            order = self.order(seat)
            out.append(("collect", order))
            if len(order) > 1:
                out.append(("collect", order[::-1]))
            out.append(("top", order))
        return out

    def honest_actions(self, seat: int) -> list[Action]:
        if self.result is not None:
            return []
        w = self.winner
        if w is None:
            return [("flip", 0)] if seat == self.flipper() else []
        return [("collect", self.order(seat))] if seat == w else []

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        if type(seat) is not int or not 0 <= seat < 2:
            raise ImpossibleAction(f"there is no seat {seat!r} at this table", rule="T1")
        if self.result is not None:
            raise ImpossibleAction("the game is over", rule="W4")
        kind, arg = action
        if kind == "flip":
            if self.winner is not None:
                raise ImpossibleAction("the battle is decided: its cards are to be collected, not flipped on", "W2a")
            if seat != self.flipper():
                raise ImpossibleAction("it is not your turn to flip", "W2")
            n = len(self.decks[seat])
            if n == 0:
                if not self.decks[1 - seat]:
                    raise ImpossibleAction("both decks are empty: there is nothing to draw", "W3")
                if arg != 0:
                    raise ImpossibleAction("your deck is empty: flip 0 draws a card from your opponent's deck", "W3")
                return ()
            if not 0 <= arg < n:
                raise ImpossibleAction(f"your deck holds {n} cards: flip 0..{n - 1}", "W5")
            return ("W5b",) if arg else ()
        if not (self.table[0] or self.table[1]):
            raise ImpossibleAction("there are no cards on the table", "W2a")
        if self.winner is None and seat != self.flipper():
            raise ImpossibleAction("it is not your turn", "W2")
        if sorted(arg) != sorted(self.table[0] + self.table[1]):
            raise ImpossibleAction("collect every card on the table, each once", "W2b")
        violations = []
        if seat != self.winner:
            violations.append("W5g")
        if arg != self.order(seat):
            violations.append("W5o")
        if kind == "top":
            violations.append("W5t")
        return tuple(violations)

    def rule_in_force(self, seat: int) -> str:
        if self.result is not None:
            return "W4"
        if self.winner is not None:
            return "W2b" if seat == self.winner else "W2a"
        if not self.decks[seat] and self.disputed():
            return "W3"
        return "W2"

    def in_game(self, seat: int) -> bool:
        return self.result is None

    # ------------------------------------------------------------------ mutation

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        kind, arg = action
        events: list[Event] = [{"type": "action", "seat": seat, "action": self.action_data(action),
                                "_violations": list(violations)}]
        if kind == "flip":
            events.append(self._flip(seat, arg))
            return events
        self.table = [[], []]
        self.winner = None
        cards = list(arg)
        if kind == "top":  # W5t: the first card on top
            self.decks[seat][:0] = cards
        elif self.reshuffle:  # W6: won cards go to the side pile (public)
            self.sides[seat].extend(cards)
        else:  # W2b: under the deck, the first named first
            self.decks[seat].extend(cards)
        self.known.update(cards)  # (they lay face up: their places in a deck are known)
        self.units.end(False)  # T13b: the battle is the unit; the position waits for the window (advance)
        return events

    def _flip(self, seat: int, index: int) -> Event:
        """The card goes face up onto the table: the deck's ``index``-th, or W3's random draw
        from the opponent's deck; the round is decided or disputed once both have flipped."""
        deck = self.decks[seat]
        event: Event = {"type": "flipped", "seat": seat}
        if deck:
            card = deck.pop(index)
        else:  # W3: a random card of the opponent's deck, from the seed (T10)
            other = self.decks[1 - seat]
            self.draws += 1
            index = self.drawn_place(len(other), self.draws)
            card = other.pop(index)
            event.update({"from": 1 - seat, "index": index})
        mine = self.table[seat]
        mine.append(card)
        event.update({"card": card_code(card), "deck": len(deck)})
        if not self.counts(len(mine) - 1):
            event["counts"] = False
        elif len(mine) == len(self.table[1 - seat]):
            self.winner = self.decided()
            if self.winner is None:
                event["dispute"] = True
            else:
                event["winner"] = self.winner
        return event

    def decided(self) -> int | None:
        """W2: the seat whose card is higher in the round both have just flipped, if it
        counts (``None``: a tie, or the round is not complete)."""
        a, b = self.table
        if not a or len(a) != len(b) or not self.counts(len(a) - 1):
            return None
        return 0 if self.beats(a[-1], b[-1]) else 1 if self.beats(b[-1], a[-1]) else None

    def drawn_place(self, size: int, number: int) -> int:
        """W3: the place (top first) of the card drawn from a deck of ``size`` cards by the
        game's ``number``-th random event: ``Rng(key, b"draw N")`` (T10). Random events are
        counted from 1, W3's draws and W6's reshuffles (``shuffled(pile, key + b"reshuffle N")``)
        together."""
        return Rng(self.key, f"draw {number}".encode()).below(size)

    def on_mark(self, seat: int) -> list[Event]:
        """T14: the marked player puts the top card of his deck, unseen, under his
        opponent's deck; with an empty deck he pays nothing."""
        if self.result is not None or not self.decks[seat]:
            return []
        self.decks[1 - seat].append(self.decks[seat].pop(0))
        return [{"type": "paid", "from": seat, "to": 1 - seat}]

    def advance(self) -> list[Event]:
        """T8 and the battle's end: W6's reshuffle of a deck that ran out; after a collect's
        window, W4a, W4 and T13, then the next battle; in a battle, W4 and W3's end."""
        if self.result is not None:
            return []
        events: list[Event] = []
        if self.reshuffle:
            for s in (0, 1):
                if not self.decks[s] and self.sides[s]:
                    pile, self.sides[s] = self.sides[s], []
                    self.draws += 1
                    self.decks[s] = shuffled(pile, self.key + f"reshuffle {self.draws}".encode())
                    self.known.difference_update(pile)
                    events.append({"type": "reshuffle", "seat": s, "count": len(pile)})
        if self.units.due:  # a battle was collected and its window has closed
            aces = self._aces()
            if aces is not None:
                events.append({"type": "four_aces", "seat": aces})
                self._finish(1 - aces, events)
                return events
            for s in (self.first, 1 - self.first):
                if not self.held(s):  # W4
                    self._finish(s, events)
                    return events
            reason = self.units.record(self.position(), self.limits)
            if reason is not None:
                self._end({"loser": None, "draw": True, "order": [], "stalled": reason}, events)
                return events
            self.battle += 1
            events.append(self._battle_event())
            return events
        f = self.flipper()
        if f is not None and not self.held(f):
            if not self.disputed():  # W4: nothing to flip outside a dispute (a mark's payment took it)
                self._finish(f, events)
            elif not self.decks[1 - f]:  # W3: both are out in a dispute
                self._end({"loser": None, "draw": True, "order": []}, events)
        return events

    def _aces(self) -> int | None:
        """W4a: the seat holding all four aces in sight: each went into his deck or side pile
        in the open (nobody looks into a deck, W1: an ace never seen there does not count
        yet). Not with the W6 options that break it."""
        if self.face_down or self.six_beats_ace:
            return None
        known = self.known
        for s in (0, 1):
            in_sight = [c for c in self.decks[s] if c in known] + self.sides[s]
            if sum(c % 13 == ACE for c in in_sight) == 4:
                return s
        return None

    def _battle_event(self, first: bool = False) -> Event:
        event: Event = {"type": "battle", "number": self.battle, "decks": [self.held(0), self.held(1)]}
        if first:
            event["first"] = self.first
        return event

    def _finish(self, loser: int, events: list[Event]) -> None:
        self._end({"loser": loser, "draw": False, "order": [1 - loser]}, events)

    def _end(self, result: dict, events: list[Event]) -> None:
        self.result = result
        events.append({"type": "game_over", "result": result})

    def position(self) -> tuple:
        """T13: every card's place (the decks in order, the side piles as sets); taken at
        the end of a battle, when the table is empty. Who flips first never changes."""
        return (tuple(self.decks[0]), tuple(self.decks[1]), tuple(sorted(self.sides[0])), tuple(sorted(self.sides[1])))

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict:
        known = self.known
        codes = _codes
        v: dict[str, Any] = {
            "game": self.name,
            "players": 2,
            "deck_size": self.deck_size,
            "seat": seat,
            # (end: a battle was collected, its end waits for the call window: T8)
            "phase": ("over" if self.result is not None else "end" if self.units.due
                      else "flip" if self.winner is None else "collect"),
            "first": self.first,
            "battle": self.battle,
            "to_act": self.to_act(),
            # W1: a deck top first, a card nobody has seen in its place as None
            "decks": [[card_code(c) if c in known else None for c in d] for d in self.decks],
            "table": [codes(t) for t in self.table],
            "winner": self.winner,
            "out": [],  # (nobody leaves a game of two before it ends, W4)
            "dispute": self.disputed(),
            "result": None if self.result is None else {**self.result, "order": list(self.result["order"])},
        }
        if self.face_down:  # W6: every other card of a seat's in a dispute does not count
            v["face_down_dispute"] = True
        if self.reshuffle:
            v["sides"] = [codes(s) for s in self.sides]
        return v

    def hidden_from(self, seat: int | None) -> set[str]:
        """The same for every seat (W1: nobody looks into a deck, its owner neither)."""
        known = self.known
        return {card_code(c) for d in self.decks for c in d if c not in known}

    def zones(self) -> dict[str, list[int]]:
        return {"deck.0": list(self.decks[0]), "deck.1": list(self.decks[1]), "side.0": list(self.sides[0]),
                "side.1": list(self.sides[1]), "table": self.table[0] + self.table[1]}

    # ------------------------------------------------------------------ data

    def to_data(self) -> dict:
        d: dict[str, Any] = {"game": self.name, "version": self.version, "players": 2}
        state = self.__dict__
        for k in _SCALARS:
            d[k] = state[k]
        d["decks"] = [list(x) for x in self.decks]
        d["sides"] = [list(x) for x in self.sides]
        d["table"] = [list(x) for x in self.table]
        d["known"] = sorted(self.known)
        d["key"] = self.key.hex()
        r = self.result
        d["result"] = None if r is None else {k: list(v) if type(v) is list else v for k, v in r.items()}
        d["limits"] = dict(self.limits)
        d["units"] = self.units.to_data()
        return d

    @classmethod
    def from_data(cls, data: dict) -> "DrunkardGame":
        if data.get("game") != cls.name:
            raise ValueError(f"not a {cls.name} state: {data.get('game')!r}")
        if data.get("version") != cls.version:
            raise ValueError(f"state of engine {data.get('version')!r}, this is {cls.version!r}")
        g = cls.__new__(cls)
        g.players = 2
        g.restore(data)
        return g

    def snapshot(self) -> dict:
        return self.to_data()

    def restore(self, snapshot: dict) -> None:
        d = snapshot
        state = self.__dict__
        for k in _SCALARS:
            state[k] = d[k]
        self.decks = [list(x) for x in d["decks"]]
        self.sides = [list(x) for x in d["sides"]]
        self.table = [list(x) for x in d["table"]]
        self.known = set(d["known"])
        self.key = bytes.fromhex(d["key"])
        r = d["result"]
        self.result = None if r is None else {k: list(v) if type(v) is list else v for k, v in r.items()}
        self.limits = dict(d["limits"])
        self.units = Units.from_data(d["units"])
        self.low = low_rank(self.deck_size) - 2


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]
