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

from ..cards import card_code
from ..engine.game import project
from ..engine.rules import TABLE_RULES
from ..games import spec
from ..games.spec import TABLE_EVENTS
from .codec import ActionCodec

__all__ = ["Layout", "SCALE_LIMIT", "STATES"]

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


def _copy(x: Any) -> Any:
    """``x`` as it is now (a view may hand out the engine's own lists, changed later in place)."""
    t = type(x)
    if t is list:
        out = x[:]
        if _DEEP_TYPES.isdisjoint(map(type, x)):  # (flat: checked in C)
            return out
        for i, y in enumerate(x):
            if type(y) in _DEEP:
                out[i] = _copy(y)
        return out
    if t is dict:
        out = x.copy()
        for k, v in x.items():
            if type(v) in _DEEP:
                out[k] = _copy(v)
        return out
    return x


def _frozen(x: Any) -> Any:
    """``x`` as a key (lists as tuples, dicts as tuples of their items)."""
    t = type(x)
    if t is list:
        return tuple([_frozen(y) if type(y) in _DEEP else y for y in x])
    if t is dict:
        return tuple([(k, _frozen(v) if type(v) in _DEEP else v) for k, v in x.items()])
    return x


#: The types of a view's values that hold others (``Tracker`` copies and freezes them).
_DEEP = (list, dict)
_DEEP_TYPES = frozenset(_DEEP)
