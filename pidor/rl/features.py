"""The observation vector (``docs/RL.md`` "Observation"): a fixed-size vector of what one
seat was shown, its view and its projected events, and nothing else, so that a policy
trained on it computes it again in a match (in-process or over TCP) from its
:class:`~pidor.bots.policy.Observation`.

A view is read generically, as data: every leaf has a *path* (the view's keys from its
root, ``stacks.cards``), and

* a card code is a **card** at a **place**: the path, with ``:0``, ``:1``, ``:2`` (its
  index in a list nested in a list, at most 2: podkidnoy's ``table`` of ``[attack,
  cover]``), and a per-seat list's seat (below);
* a number (a ``bool`` is 0 or 1) is a **number**, divided by the deck size, within ±2;
* any other string is a **word**, ``path=value`` (``trump=d``, ``phase=bout``).

A list whose length was always the number of players is a **per-seat** list: its items get
the seat they belong to, counted from the observing seat (``hands.+1``: the next seat's).
A list of numbers that is not per-seat is a set of seats (``to_act@+0``: I may act) and its
length (``to_act#``).

Which places, numbers and words a game shows is found by playing a few seeded random
games (:meth:`Layout.discover`: random bots that cheat, call and vote, so that windows,
courts and payments show up); anything met later that they never showed counts under
``other``. The layout is plain data (:meth:`Layout.to_data`): a trained policy keeps the
one it was trained on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import card_code
from ..engine.game import Action, project
from ..engine.rules import TABLE_RULES
from ..games import spec
from ..games.spec import TABLE_EVENTS
from .codec import ActionCodec

__all__ = ["Layout", "Tracker", "SCALE_LIMIT"]

#: Numbers are divided by the deck size and kept within ±SCALE_LIMIT.
SCALE_LIMIT = 2.0
#: Table states (``status.state``).
STATES = ("idle", "play", "window", "court", "over")
OTHER = "other"
#: The types of scalars and of a flat list's items (each value read once: ``Tracker._memo``).
_FLAT = (str, int, float, bool)
#: The most entries ``Tracker._memo`` keeps.
_MEMO = 4096
#: Words whose value is a suit or a rank stand for every suit or rank.
SUITS = ("c", "d", "h", "s")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


class _Walk:
    """The leaves of one view (or event) for one seat: cards at places, numbers, words."""

    __slots__ = ("code", "players", "seat", "per_seat", "cards", "numbers", "words", "lists")

    def __init__(self, code: dict[str, int], players: int, seat: int, per_seat: set[str] | None) -> None:
        self.code = code
        self.players = players
        self.seat = seat
        self.per_seat = per_seat  # None: discovering (record list lengths in ``lists``)
        self.cards: list[tuple[int, str]] = []
        self.numbers: list[tuple[str, float]] = []
        self.words: list[str] = []
        self.lists: dict[str, set[int]] = {}

    def value(self, v: Any, path: str) -> None:
        t = type(v)
        if t is dict:
            for k, x in v.items():
                if x is not None:
                    self.value(x, f"{path}.{k}" if path else k)
        elif t is list:
            self.items(v, path, False)
        elif t is str:
            c = self.code.get(v)
            if c is not None:
                self.cards.append((c, path))
            elif len(v) <= 16:
                self.words.append(f"{path}={v}")
        elif t is bool or t is int or t is float:
            self.numbers.append((path, float(v)))

    def items(self, items: list, path: str, nested: bool) -> None:
        if self.per_seat is None:
            self.lists.setdefault(path, set()).add(len(items))
            seats = False
        else:
            seats = path in self.per_seat
        for i, x in enumerate(items):
            if x is not None:
                self.item(x, path, i, seats, nested)
        self.length(items, path, seats)

    def item(self, x: Any, path: str, i: int, seats: bool, nested: bool) -> None:
        """Item ``i`` of the list at ``path`` (``seats``: a per-seat list; ``nested``: a list
        in a list)."""
        t = type(x)
        where = f"{path}.+{(i - self.seat) % self.players}" if seats else path
        if t is str:
            c = self.code.get(x)
            if c is not None:
                self.cards.append((c, f"{where}:{min(i, 2)}" if nested else where))
            elif len(x) <= 16:
                self.words.append(f"{where}={x}")
        elif t is list:
            self.items(x, where, True)
        elif t is dict:
            self.value(x, where)
        elif seats:
            self.numbers.append((where, float(x)))
        elif t is int and 0 <= x < self.players:
            self.words.append(f"{path}@+{(x - self.seat) % self.players}")

    def length(self, items: list, path: str, seats: bool) -> None:
        """A list of numbers that is not per-seat: its length too."""
        if not seats and items and type(items[0]) in (int, float, bool):
            self.numbers.append((f"{path}#", float(len(items))))


class Layout:
    """What the vector of one game (at one player count and deck) holds, block by block
    (:meth:`names` names every entry)."""

    def __init__(self, options: dict, codec: ActionCodec, places: list[str], numbers: list[str],
                 words: list[str], per_seat: list[str]) -> None:
        self.options = options
        self.codec = codec
        game = spec(options["game"])
        self.players = n = options["players"]
        self.deck = codec.deck
        self.code = {card_code(c): i for i, c in enumerate(codec.deck)}
        self.per_seat = set(per_seat)
        self.places = [*places, OTHER]
        self.numbers = [*numbers, OTHER]
        self.words = [*words, OTHER]
        self.events = [*TABLE_EVENTS, *(e for e in game.events if e not in TABLE_EVENTS), OTHER]
        self.kinds = list(codec.engine.ACTIONS)
        self.rules = [r.id for r in TABLE_RULES] + [r.id for r in game.rules]
        self.heads = [h for k in codec.kinds if k.cards for h in range(k.offset, k.offset + k.size)]
        self._place = {p: i for i, p in enumerate(self.places)}
        self._number = {p: i for i, p in enumerate(self.numbers)}
        self._word = {p: i for i, p in enumerate(self.words)}
        self._event = {p: i for i, p in enumerate(self.events)}
        self._kind = {p: i for i, p in enumerate(self.kinds)}
        self._rule = {p: i for i, p in enumerate(self.rules)}
        self._head = {h: i for i, h in enumerate(self.heads)}
        self.other_event = len(self.events) - 1
        #: Event type -> where its cards were seen (keys from the event's root) and the place
        #: that is (only the types that ever showed a card: the others are not read for cards).
        self.card_events: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for p in places:
            if p[0] == "~":
                kind, *keys = p[1:].split(".")
                self.card_events.setdefault(kind, []).append((tuple(keys), self._place[p]))
        d, p = len(self.deck), len(self.places)
        blocks = [("now", d * p), ("seen", d * p), ("number", len(self.numbers)), ("word", len(self.words)),
                  ("event", len(self.events)), ("seat", n), ("state", len(STATES)), ("mark", n + 1),
                  ("honest_only", 2), ("agenda_seat", n), ("agenda_kind", len(self.kinds)), ("agenda_card", d),
                  ("court_caller", n), ("court_accused", n), ("court_rule", len(self.rules)),
                  ("pending_head", len(self.heads)), ("pending_card", d)]
        self.offset: dict[str, int] = {}
        size = 0
        for name, k in blocks:
            self.offset[name] = size
            size += k
        self.size = size

    # ------------------------------------------------------------------ data

    def to_data(self) -> dict:
        """The layout as plain data (a trained policy keeps it beside its weights)."""
        return {"options": dict(self.options), "places": self.places[:-1], "numbers": self.numbers[:-1],
                "words": self.words[:-1], "per_seat": sorted(self.per_seat)}

    @classmethod
    def from_data(cls, data: dict, codec: ActionCodec) -> "Layout":
        return cls(data["options"], codec, list(data["places"]), list(data["numbers"]), list(data["words"]),
                   list(data["per_seat"]))

    @classmethod
    def discover(cls, options: dict, codec: ActionCodec, games: int = 3) -> "Layout":
        """The places, numbers and words the views and events of ``games`` seeded random
        games show (random bots that cheat, call and vote); a word whose value is a suit
        or a rank brings every suit or rank."""
        from ..autoplay import play_game
        from ..bots.random import RandomBot
        from ..engine.game import project
        from ..engine.seeds import Rng
        from ..engine.table import Table

        n = options["players"]
        code = {card_code(c): i for i, c in enumerate(codec.deck)}
        views: list[tuple[int, dict]] = []
        events: list[tuple[int, dict]] = []
        for g in range(games):
            table = Table(options)
            seed = f"pidor.rl layout {g}".encode()
            bots = [RandomBot(s, seed, cheat=0.2, attention=0.5, false_call=0.05) for s in range(n)]

            def seen(batch: list[dict], table: Table = table) -> None:
                for s in range(n):
                    views.append((s, table.view(s)))
                    events.extend((s, project(e, s)) for e in batch)

            seen(table.start(seed=seed))
            play_game(table, bots, Rng(seed, b"driver"), on_events=seen)
        lists: dict[str, set[int]] = {}
        for s, v in views:
            w = _Walk(code, n, s, None)
            w.value({k: x for k, x in v.items() if k != "status"}, "")
            for path, lengths in w.lists.items():
                lists.setdefault(path, set()).update(lengths)
        per_seat = {p for p, lengths in lists.items() if lengths == {n}}
        places: dict[str, None] = {}
        numbers: dict[str, None] = {}
        words: dict[str, None] = {}
        for s, v in views:
            w = _Walk(code, n, s, per_seat)
            w.value({k: x for k, x in v.items() if k != "status"}, "")
            places.update((p, None) for _, p in w.cards)
            numbers.update((p, None) for p, _ in w.numbers)
            words.update((p, None) for p in w.words)
        for s, e in events:
            w = _Walk(code, n, s, per_seat)
            w.value(e, "~" + e["type"])
            places.update((p, None) for _, p in w.cards)
        for word in list(words):  # a suit or a rank seen: every suit or rank (the trump of any deal)
            path, _, value = word.rpartition("=")
            for alphabet in (SUITS, RANKS):
                if value in alphabet:
                    words.update((f"{path}={v}", None) for v in alphabet)
        return cls(options, codec, sorted(places), sorted(numbers), sorted(words), sorted(per_seat))

    # ------------------------------------------------------------------ names

    def names(self) -> list[str]:
        """The name of every entry of the vector, in order (``now Th table:0``, ``number
        deck``, ``mark +1``…)."""
        codes = [card_code(c) for c in self.deck]
        rel = [f"+{i}" for i in range(self.players)]
        out = [f"now {c} {p}" for c in codes for p in self.places]
        out += [f"seen {c} {p}" for c in codes for p in self.places]
        out += [f"number {p}" for p in self.numbers] + [f"word {p}" for p in self.words]
        out += [f"event {p}" for p in self.events] + [f"seat {s}" for s in range(self.players)]
        out += [f"state {s}" for s in STATES] + [f"mark {r}" for r in rel] + ["mark none"]
        out += ["honest_only me", "honest_only others"] + [f"agenda_seat {r}" for r in rel]
        out += [f"agenda_kind {k}" for k in self.kinds] + [f"agenda_card {c}" for c in codes]
        out += [f"court_caller {r}" for r in rel] + [f"court_accused {r}" for r in rel]
        out += [f"court_rule {r}" for r in self.rules]
        out += [f"pending_head {self.codec.name(h)}" for h in self.heads] + [f"pending_card {c}" for c in codes]
        return out


class Tracker:
    """One seat's vector: feed it the seat's projected events (:meth:`event`), ask for the
    vector of its view (:meth:`vector`). ``reset`` at each game's start."""

    __slots__ = ("layout", "seat", "last", "counts", "_scale", "_fixed", "_memo")

    def __init__(self, layout: Layout, seat: int) -> None:
        self.layout = layout
        self.seat = seat
        self._scale = 1.0 / len(layout.deck)
        self._fixed = layout.offset["seat"] + seat
        #: What an entry of a view with a scalar value or a flat list put in the vector
        #: (most entries are the same from one decision to the next).
        self._memo: dict[tuple, tuple] = {}
        self.reset()

    def reset(self) -> None:
        #: The place where the seat last saw each card (-1: never).
        self.last = [-1] * len(self.layout.deck)
        self.counts: dict[int, int] = {}  # event type -> events since the last vector

    def event(self, event: dict) -> None:
        """An event of this seat's game, in order: projected for the seat, or in full (it is
        projected here, the seat's ``_private`` fields only)."""
        layout = self.layout
        kind = event["type"]
        k = layout._event.get(kind, layout.other_event)
        counts = self.counts
        counts[k] = counts.get(k, 0) + 1
        paths = layout.card_events.get(kind)
        if paths is None:  # (it never showed a card)
            return
        if "_private" in event:
            event = project(event, self.seat)
        last, code = self.last, layout.code
        for keys, i in paths:
            v = event
            for key in keys:
                v = v.get(key) if type(v) is dict else None
            for x in (v if type(v) is list else (v,)):
                c = code.get(x) if type(x) is str else None
                if c is not None:
                    last[c] = i

    def vector(self, view: dict, agenda: dict | None = None, pending: tuple[int, list[Action]] | None = None,
               ) -> np.ndarray:
        """The vector of ``view`` (the seat's, with the table's ``status``). ``agenda``: the
        open window's action (``{"seat", "action"}`` in wire form, as
        :attr:`~pidor.bots.policy.Observation.window` has it), else the court's.
        ``pending``: a composite action's head and the cards chosen so far."""
        layout, seat, n = self.layout, self.seat, self.layout.players
        off = layout.offset
        ones = [self._fixed]  # the entries that are 1
        values: dict[int, float] = {}  # the other entries
        cards: list[tuple[int, int]] = []  # (card, place) of every card in the view
        memo = self._memo
        if len(memo) > _MEMO:
            memo.clear()
        per_seat = layout.per_seat
        for k, x in view.items():
            if x is None or k == "status":
                continue
            t = type(x)
            if t in _FLAT:
                reads = (memo.get((k, x)) or self._read(k, x, (k, x)),)
            elif t is list and all(type(y) in _FLAT for y in x):  # item by item (a hand changes by a card)
                seats = k in per_seat
                reads = [memo.get((k, i if seats else -1, y)) or self._read(k, y, (k, i if seats else -1, y), i, seats)
                         for i, y in enumerate(x) if y is not None]
                if not seats and x and type(x[0]) is not str:
                    reads.append(self._read(k, x, None, -1, False, True))
            else:
                reads = (self._read(k, x, None),)
            for read in reads:
                if read[0]:
                    ones.extend(read[0])
                if read[1]:
                    cards.extend(read[1])
                for i, v in read[2]:
                    values[i] = values.get(i, 0.0) + v
        places = len(layout.places)
        now, seen, last = off["now"], off["seen"], self.last
        visible = set()
        for c, i in cards:
            ones.append(now + c * places + i)
            last[c] = i
            visible.add(c)
        ones.extend(seen + c * places + i for c, i in enumerate(last) if i >= 0 and c not in visible)
        status = view.get("status") or {}
        state = status.get("state")
        if state in STATES:
            ones.append(off["state"] + STATES.index(state))
        mark = status.get("mark")
        ones.append(off["mark"] + (n if mark is None else (mark - seat) % n))
        honest_only = status.get("honest_only") or ()
        if seat in honest_only:
            ones.append(off["honest_only"])
        court = status.get("court")
        if court is not None:
            ones.append(off["court_caller"] + (court["caller"] - seat) % n)
            ones.append(off["court_accused"] + (court["accused"] - seat) % n)
            rule, base = layout._rule, off["court_rule"]
            ones.extend(base + rule[r["id"]] for r in court.get("rules") or () if r["id"] in rule)
            agenda = {"seat": court["accused"], "action": court["action"]}
        if agenda is not None:
            self._agenda(ones, agenda)
        if pending is not None:
            head, cards = pending
            ones.append(off["pending_head"] + layout._head[head])
            base, index = off["pending_card"], layout.codec.card_index
            ones.extend(base + index[c] for c in cards)
        out = np.zeros(layout.size, np.float32)
        out[ones] = 1.0
        base = off["event"]
        for k, count in self.counts.items():
            values[base + k] = min(count, 3) / 3.0
        self.counts = {}
        others = sum(1 for s in honest_only if s != seat)
        if others:
            values[off["honest_only"] + 1] = others / n
        limit = SCALE_LIMIT
        for i, v in values.items():
            out[i] = v if -limit <= v <= limit else limit if v > 0 else -limit
        return out

    def _read(self, key: str, value: Any, memo: tuple | None, i: int = -1, seats: bool = False,
              length: bool = False) -> tuple[list[int], list[tuple[int, int]], list[tuple[int, float]]]:
        """What the view's entry ``key`` (``i >= 0``: its item ``i``; ``length``: its length)
        puts in the vector: the entries that are 1, the cards (card, place), the numbers
        (entry, value); kept under ``memo`` if given."""
        layout = self.layout
        off = layout.offset
        w = _Walk(layout.code, layout.players, self.seat, layout.per_seat)
        if length:
            w.length(value, key, False)
        elif i >= 0:
            w.item(value, key, i, seats, False)
        else:
            w.value(value, key)
        place, other = layout._place, len(layout.places) - 1
        cards = [(c, place.get(p, other)) for c, p in w.cards]
        word, base, other = layout._word, off["word"], len(layout.words) - 1
        ones = [base + word.get(p, other) for p in w.words]
        number, base, other = layout._number, off["number"], len(layout.numbers) - 1
        scale = self._scale
        numbers = [(base + number.get(p, other), v * scale) for p, v in w.numbers]
        read = (ones, cards, numbers)
        if memo is not None:
            self._memo[memo] = read
        return read

    def _agenda(self, ones: list[int], agenda: dict) -> None:
        layout, off = self.layout, self.layout.offset
        ones.append(off["agenda_seat"] + (agenda["seat"] - self.seat) % layout.players)
        action = agenda["action"]
        k = layout._kind.get(action.get("type"))
        if k is not None:
            ones.append(off["agenda_kind"] + k)
        base, code = off["agenda_card"], layout.code
        for v in action.values():
            for x in (v if type(v) is list else (v,)):
                c = code.get(x) if type(x) is str else None
                if c is not None:
                    ones.append(base + c)
