"""One seat's observation vector, kept up to date (``docs/RL.md`` "Observation"; the
entries are :class:`~pidor.rl.features.Layout`'s).

The vector is a pure function of what the seat was shown, but reading a whole view at
every decision costs more than the engine's move. So the tracker keeps the last vector and
what each key of the view put in it (:meth:`Tracker._read`), and at each decision reads
again only the keys whose value changed (a hand, the table: two or three of twenty), taking
out what their old value put in and putting in what the new one does. An entry that
several keys put a 1 in is counted; a number is the sum of what the keys put there.

A card's *seen* entry is the place the seat last saw it, by the events and by the views it
was asked about; it shows while the card is not in view (a card in view is *now*).
"""

from __future__ import annotations

from itertools import compress, count
from operator import ne
from typing import Any

import numpy as np

from ..engine.game import Action, project
from .features import _DEEP, _DEEP_TYPES, _FLAT, _MEMO, SCALE_LIMIT, STATES, Layout, _Walk, _copy, _frozen

__all__ = ["Tracker"]

#: What a key of a view puts in the vector: the entries that are 1, the cards in view
#: (card, place), the numbers (entry, value).
Read = tuple[list[int], list[tuple[int, int]], list[tuple[int, float]]]
_NONE: Read = ([], [], [])
#: The longest list whose parts are kept whole (``Tracker._wholes``): seats, a trick, not a hand.
_SHORT = 6


class Tracker:
    """One seat's vector: feed it the seat's projected events (:meth:`event`), ask for the
    vector of its view (:meth:`vector`). ``reset`` at each game's start."""

    __slots__ = ("layout", "seat", "last", "counts", "_scale", "_memo", "_places", "_now", "_seen0",
                 "_out", "_set", "_ones", "_sums", "_keys", "_in_view", "_touched", "_status", "_names", "_values",
                 "_wholes", "_deep", "_strs", "_tables")

    def __init__(self, layout: Layout, seat: int) -> None:
        self.layout = layout
        self.seat = seat
        self._scale = 1.0 / len(layout.deck)
        self._places = len(layout.places)
        self._now, self._seen0 = layout.offset["now"], layout.offset["seen"]
        #: What an entry of a view with a scalar value or a flat list's item puts in the
        #: vector (most are the same from one decision to the next).
        self._memo: dict[tuple, Read] = {}
        #: The parts (:meth:`_parts`) of a key's flat value or short list of flat values,
        #: by the key and the value (a list as a tuple); shared, never changed.
        self._wholes: dict[tuple, dict] = {}
        self._deep: set[str] = set()  # keys that held a list of lists or dicts
        #: A path of a list in a list's dict item -> a string item's read (:meth:`_item`).
        self._strs: dict[str, dict[str, Read]] = {}
        #: The table's status and agenda -> :meth:`_read_table`'s reading.
        self._tables: dict[tuple, tuple[list[int], list[tuple[int, float]]]] = {}
        self.reset()

    def reset(self) -> None:
        #: The place where the seat last saw each card (-1: never).
        self.last = [-1] * len(self.layout.deck)
        self.counts: dict[int, int] = {}  # event type -> events since the last vector
        self._out = np.zeros(self.layout.size, np.float32)
        self._set = memoryview(self._out)  # (entries are written here: half the cost of the array's item setting)
        self._ones: dict[int, int] = {}  # entry -> how many reads put a 1 there
        self._sums: dict[int, list[float]] = {}  # entry -> the numbers the reads put there
        #: A view's key -> its value, its parts, its order in the view and a list's items'
        #: part keys (:meth:`_parts`), as last put in.
        self._keys: dict[str, tuple[Any, dict[Any, Read], int, list | None]] = {}
        #: card -> (its order in the view, its place) of each time it is in the view: where
        #: it is last in the view's order is where the seat last saw it.
        self._in_view: dict[int, list[tuple[int, int]]] = {}
        #: Cards in view that an event showed, or that came into a place or left one while
        #: in another, since the last vector: the view says again where each is last.
        self._touched: set[int] = set()
        self._status: Read = _NONE  # what the table's status put in (read at every vector)
        #: The last view's keys, in order, and each one's value as kept (``None``: none).
        self._names: tuple[str, ...] = ()
        self._values: list[Any] = []
        self._put(([self.layout.offset["seat"] + self.seat], [], []))

    # ------------------------------------------------------------------ events

    def event(self, event: dict) -> None:
        """An event of this seat's game, in order: projected for the seat, or in full (it is
        projected here, the seat's ``_private`` fields only)."""
        self.events((event,))

    def events(self, events: list[dict] | tuple[dict, ...]) -> None:
        """:meth:`event` of each of ``events``, in order."""
        layout = self.layout
        index, other, card_events, counts = layout._event, layout.other_event, layout.card_events, self.counts
        for event in events:
            kind = event["type"]
            k = index.get(kind, other)
            counts[k] = counts.get(k, 0) + 1
            paths = card_events.get(kind)
            if paths is not None:  # (else it never showed a card)
                self._shown(event, paths)

    def _shown(self, event: dict, paths: list[tuple[tuple[str, ...], int]]) -> None:
        """The cards ``event`` shows, at the places ``paths`` say."""
        layout = self.layout
        if "_private" in event:
            event = project(event, self.seat)
        code, in_view = layout.code, self._in_view
        for keys, i in paths:
            v = event
            for key in keys:
                v = v.get(key) if type(v) is dict else None
            for x in (v if type(v) is list else (v,)):
                c = code.get(x) if type(x) is str else None
                if c is not None:
                    self._saw(c, i)
                    if c in in_view:  # (the view says again where it is: :meth:`vector`)
                        self._touched.add(c)

    def _saw(self, c: int, i: int) -> None:
        """Card ``c`` seen at place ``i``."""
        j = self.last[c]
        if j != i:
            self.last[c] = i
            if c not in self._in_view:
                out, base = self._set, self._seen0 + c * self._places
                if j >= 0:
                    out[base + j] = 0.0
                out[base + i] = 1.0

    # ------------------------------------------------------------------ the vector

    def vector(self, view: dict, agenda: dict | None = None, pending: tuple[int, list[Action]] | None = None,
               ) -> np.ndarray:
        """The vector of ``view`` (the seat's, with the table's ``status``), a new array.
        ``agenda``: the open window's action (``{"seat", "action"}`` in wire form, as
        :attr:`~pidor.bots.policy.Observation.window` has it), else the court's.
        ``pending``: a composite action's head and the cards chosen so far."""
        memo, keys = self._memo, self._keys
        if len(memo) > _MEMO:
            memo.clear()
            self._strs.clear()
        if len(self._wholes) > _MEMO:
            self._wholes.clear()
        names = tuple(view)
        values = list(view.values())
        last = self._values
        gone = False
        if names == self._names:  # the keys as last time: the values that changed (compared in C)
            for order in compress(range(len(values)), map(ne, values, last)):
                x = values[order]
                if x is None:
                    last[order] = None
                    gone = True
                elif names[order] != "status":
                    last[order] = self._key(names[order], x, order)
        else:
            self._names = names
            last = self._values = [None] * len(names)
            read_keys = 0
            for order, (k, x) in enumerate(view.items()):
                if x is None or k == "status":
                    continue
                read_keys += 1
                hit = keys.get(k)
                if hit is not None and hit[0] == x and (type(x) is type(hit[0]) or type(x) not in _FLAT):
                    last[order] = hit[0]  # (as last put in)
                else:
                    last[order] = self._key(k, x, order)
            gone = read_keys != len(keys)
        if gone:  # a key gone from the view (or now None)
            for k in [k for k in keys if view.get(k) is None]:
                _, parts, order, _ = keys.pop(k)
                for read, at in parts.values():
                    self._put(read, -1, (order << 12) + at)
        if self._touched:
            for c in self._touched:
                places = self._in_view.get(c)
                if places:
                    self.last[c] = max(places)[1]
            self._touched.clear()
        self._put_status(self._read_status(view.get("status") or {}, agenda, pending))
        return self._out.copy()

    def _key(self, k: str, x: Any, order: int) -> Any:
        """Put in the view's entry ``k`` (``x``, not ``None``, not as last put in; ``order``:
        its place among the view's keys) in place of what it put last; ``x`` as kept
        (:meth:`_parts`)."""
        keys = self._keys
        hit = keys.get(k)
        t = type(x)
        if t in _FLAT:  # one part: the old parts out, the value's in
            parts = self._wholes.get((k, x)) or self._parts(k, x, None)[0]
            if hit is not None:
                at = hit[2] << 12
                for read, a in hit[1].values():
                    self._put(read, -1, at + a)
            for read, _ in parts.values():
                self._put(read, 1, order << 12)
            keys[k] = (x, parts, order, None)
            return x
        if (hit is not None and hit[2] == order and type(x) is list and len(x) > _SHORT and x
                and type(x[0]) is str and type(hit[0]) is list and hit[0] and type(hit[0][0]) is str
                and k not in self.layout.per_seat):
            kept = self._cards(k, x, hit, order)
            if kept is not None:
                return kept
        if hit is not None and hit[2] == order and type(x) is list and hit[3] is not None and None not in hit[3]:
            kept = self._nested(k, x, hit, order)
            if kept is not None:
                return kept
        parts, kept, items = self._parts(k, x, hit)
        if hit is None:
            old: dict = {}
        elif hit[2] != order:  # (the view's keys in another order: read afresh)
            for read, at in hit[1].values():
                self._put(read, -1, (hit[2] << 12) + at)
            old = {}
        else:
            old = hit[1]
            for pk, (read, at) in old.items():
                if pk not in parts:
                    self._put(read, -1, (order << 12) + at)
        for pk, (read, at) in parts.items():
            if pk not in old:
                self._put(read, 1, (order << 12) + at)
        keys[k] = (kept, parts, order, items)
        return kept

    def _put(self, read: Read, sign: int = 1, order: int = 0) -> None:
        """Put ``read`` in the vector (``sign`` -1: take it out); ``order``: where its first
        card is in the view's order (:meth:`_parts`)."""
        out, ones = self._set, self._ones
        for i in read[0]:
            k = ones.get(i, 0) + sign
            if k:
                ones[i] = k
                if k == 1 and sign == 1:
                    out[i] = 1.0
            else:
                del ones[i]
                out[i] = 0.0
        if read[1]:
            now, places, in_view, last = self._now, self._places, self._in_view, self.last
            for j, (c, p) in enumerate(read[1]):
                i = now + c * places + p
                k = ones.get(i, 0) + sign
                if k:
                    ones[i] = k
                    out[i] = 1.0
                else:
                    del ones[i]
                    out[i] = 0.0
                at = order + j, p
                if sign == 1:
                    seen = in_view.get(c)
                    if seen is None:
                        if last[c] >= 0:
                            out[self._seen0 + c * places + last[c]] = 0.0
                        in_view[c] = [at]
                        last[c] = p
                    else:
                        seen.append(at)
                        self._touched.add(c)
                else:
                    seen = in_view[c]
                    seen.remove(at)
                    if seen:
                        self._touched.add(c)
                    else:
                        del in_view[c]
                        out[self._seen0 + c * places + last[c]] = 1.0
        if read[2]:
            sums, limit = self._sums, SCALE_LIMIT
            for i, v in read[2]:
                values = sums.get(i)
                if sign == 1:
                    if values is None:  # (the one number there, as ``sum`` gives it: -0.0 is 0.0)
                        sums[i] = [v]
                        v = 0.0 + v
                        out[i] = v if -limit <= v <= limit else limit if v > 0 else -limit
                        continue
                    values.append(v)
                elif len(values) == 1:  # (it was the one number there)
                    del sums[i]
                    out[i] = 0.0
                    continue
                else:
                    values.remove(v)
                v = sum(values)
                out[i] = v if -limit <= v <= limit else limit if v > 0 else -limit

    def _put_status(self, read: Read) -> None:
        """Put what the table's status puts in the vector in place of what it put last.
        Its entries (the blocks from ``event`` on, but ``seat``) are its alone, and hold
        no card: no count of the keys that put a 1 there is needed, and a number there is
        the one value put (at most 1: a share of seats, a count of at most 3 over 3)."""
        old, out = self._status, self._set
        if read[0] != old[0]:
            for i in old[0]:
                out[i] = 0.0
            for i in read[0]:
                out[i] = 1.0
        if read[2] != old[2]:
            for i, _ in old[2]:
                out[i] = 0.0
            for i, v in read[2]:
                out[i] = v
        self._status = read

    def _read_status(self, status: dict, agenda: dict | None, pending: tuple[int, list[Action]] | None) -> Read:
        """What the table's status, the window's or court's agenda, a composite action's
        cards so far and the events since the last vector put in the vector."""
        key = None
        if pending is None and status.get("court") is None:  # (read once per status and agenda)
            try:
                key = (status.get("state"), status.get("mark"), tuple(status.get("honest_only") or ()),
                       agenda and (agenda["seat"], tuple(agenda["action"].items())))
                table = self._tables.get(key)
            except TypeError:  # (an action with a list of cards)
                key = table = None
        else:
            table = None
        if table is None:
            table = self._read_table(status, agenda, pending)
            if key is not None:
                if len(self._tables) > _MEMO:
                    self._tables.clear()
                self._tables[key] = table
        base = self.layout.offset["event"]
        numbers = [*table[1], *[(base + k, _COUNTS[count] if count < 3 else 1.0) for k, count in self.counts.items()]]
        self.counts = {}
        return table[0], [], numbers

    def _read_table(self, status: dict, agenda: dict | None, pending: tuple[int, list[Action]] | None,
                    ) -> tuple[list[int], list[tuple[int, float]]]:
        """:meth:`_read_status` but the events: the entries that are 1, the numbers."""
        layout, seat, n = self.layout, self.seat, self.layout.players
        off = layout.offset
        ones: list[int] = []
        numbers: list[tuple[int, float]] = []
        state = status.get("state")
        if state in STATES:
            ones.append(off["state"] + STATES.index(state))
        mark = status.get("mark")
        ones.append(off["mark"] + (n if mark is None else (mark - seat) % n))
        honest_only = status.get("honest_only") or ()
        if seat in honest_only:
            ones.append(off["honest_only"])
        others = sum(1 for s in honest_only if s != seat)
        if others:
            numbers.append((off["honest_only"] + 1, others / n))
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
        return ones, numbers

    def _cards(self, k: str, x: list, hit: tuple, order: int) -> list | None:
        """:meth:`_key` for a long list of strings (a hand) that was one last time, each
        value once: where each is in the list makes no difference (:meth:`_parts`), so
        only the values gone and come are taken out and put in. ``None``: not such a list."""
        was = hit[0]
        try:
            now, before = set(x), set(was)
        except TypeError:  # (an item is a list or a dict)
            return None
        if len(now) != len(x) or len(before) != len(was) or None in now:
            return None
        parts, memo, at = dict(hit[1]), self._memo, order << 12
        for y in before - now:
            read, _ = parts.pop((k, -1, y))
            self._put(read, -1, at)
        for y in now - before:
            mk = (k, -1, y)
            read = memo.get(mk) or self._read(k, y, mk, 0, False)
            parts[mk] = (read, 0)
            self._put(read, 1, at)
        kept = list(x)
        self._keys[k] = (kept, parts, order, None)
        return kept

    def _nested(self, k: str, x: list, hit: tuple, order: int) -> list | None:
        """:meth:`_key` for a list of dicts or lists (a «пидор» stack, the payments) that was
        one last time: only the items that changed are read again (:meth:`_item`), and of
        those only the parts that changed are taken out and put in (a stack grows by a card:
        one part). ``None``: an item is now a flat value (:meth:`_parts` reads it)."""
        was, parts, _, olds = hit
        n, m = len(x), len(was)
        short = min(n, m)
        changed = [*compress(range(short), map(ne, x, was)), *range(short, max(n, m))]
        for i in changed:  # (an item equal to a dict or a list is one)
            if i < n and x[i] is not None and type(x[i]) not in _DEEP:
                return None
        kept, items = was[:n], list(olds[:n])
        if n > m:
            kept += [None] * (n - m)
            items += [()] * (n - m)
        seats, at0 = k in self.layout.per_seat, order << 12
        for i in changed:
            y = x[i] if i < n else None
            got = {} if y is None else self._item(k, i, y, seats)
            new, old = tuple(got), olds[i] if i < m else ()
            same = next(compress(count(), map(ne, old, new)), min(len(old), len(new)))  # (the parts as they were)
            for mk in old[same:]:
                if mk not in got:
                    read, at = parts.pop(mk)
                    self._put(read, -1, at0 + at)
            for mk in new[same:]:
                if mk not in parts:
                    parts[mk] = part = got[mk]
                    self._put(part[0], 1, at0 + part[1])
            if i < n:
                kept[i] = _copy(y)
                items[i] = new
        self._keys[k] = (kept, parts, order, items)
        return kept

    def _item(self, k: str, i: int, y: Any, seats: bool) -> dict[Any, tuple[Read, int]]:
        """What item ``i`` (a dict or a list, not ``None``) of the view's list ``k`` puts in
        the vector, in parts (:meth:`_parts`): a dict field by field, and a field's list of
        flat values value by value; a list whole. The item's cards begin at ``i << 6``; a
        part's key holds where its own begin."""
        memo, at = self._memo, i << 6
        if type(y) is not dict:
            mk = (k, i, _frozen(y))
            return {mk: (memo.get(mk) or self._read(k, y, mk, i, seats, nested=False), at)}
        where = f"{k}.+{(i - self.seat) % self.layout.players}" if seats else k
        parts: dict[Any, tuple[Read, int]] = {}
        for f, v in y.items():
            if v is None:
                continue
            path = f"{where}.{f}"
            t = type(v)
            if t is list:
                fseats, start, got = path in self.layout.per_seat, at, {}
                strs = self._strs.get(path)  # (a string's read, wherever it is in the list)
                if strs is None:
                    strs = self._strs[path] = {}
                for j, z in enumerate(v):
                    if z is None:
                        continue
                    if type(z) is str and not fseats:
                        read = strs.get(z)
                        if read is None:
                            read = strs[z] = self._read(path, z, None, j, False)
                    elif type(z) not in _FLAT:  # (a list of lists or dicts: read whole)
                        got, at = None, start
                        break
                    else:
                        mk = (k, i, f, j if fseats else -1, z)
                        read = memo.get(mk) or self._read(path, z, mk, j, fseats)
                    got[(k, i, f, j, z, at)] = (read, at)
                    at += len(read[1])
                if got is not None:
                    parts.update(got)
                    if not fseats and v and type(v[0]) in (int, float, bool):  # its length too
                        mk = (k, i, f, "#", len(v))
                        parts[mk] = (memo.get(mk) or self._read(path, v, mk, -1, False, True), at)
                    continue
            mk = (k, i, f, v if t in _FLAT else _frozen(v))
            read = memo.get(mk) or self._read(path, v, mk)
            parts[(*mk, at)] = (read, at)
            at += len(read[1])
        return parts

    def _parts(self, k: str, x: Any, hit: tuple | None) -> tuple[dict[Any, tuple[Read, int]], Any, list | None]:
        """What the view's entry ``k`` puts in the vector, in parts, each with where its
        cards begin in the key's order: a list item by item (a hand changes by a card, a
        «пидор» stack by its cards, and only that part is taken out), anything else whole.
        A part's key says what it was read from. Also ``x`` as it is now, to compare the
        next view's with (:func:`_copy`), and a list's non-flat items' part keys.
        ``hit``: what ``k`` put in last (:attr:`_keys`), whose non-flat items that did not
        change are not read, frozen or copied again."""
        memo, wholes = self._memo, self._wholes
        t = type(x)
        if t in _FLAT:
            parts = wholes.get((k, x))
            if parts is None:
                parts = wholes[(k, x)] = {(k, x): (memo.get((k, x)) or self._read(k, x, (k, x)), 0)}
            return parts, x, None
        if t is not list:  # (a dict: read once per content, as a list's item)
            mk = (k, _frozen(x))
            return {mk: (memo.get(mk) or self._read(k, x, mk), 0)}, _copy(x), None
        whole = None
        if len(x) <= _SHORT and k not in self._deep:  # a short list of flat values: read once
            try:
                parts = wholes.get(whole := (k, tuple(x)))
            except TypeError:  # (an item is a list or a dict: not flat)
                self._deep.add(k)
                whole = None
            else:
                if parts is not None:
                    return parts, list(x), None
        seats = k in self.layout.per_seat
        parts: dict[Any, tuple[Read, int]] = {}
        kept = list(x)
        was = hit[0] if hit is not None and type(hit[0]) is list else ()
        if was:
            old, olds = hit[1], hit[3]
        items: list = [()] * len(x)  # each item's part keys (``None``: a flat value)
        for i, y in enumerate(x):
            if y is None:
                continue
            if type(y) in _FLAT:
                mk = (k, i if seats else -1, y)
                read = memo.get(mk) or self._read(k, y, mk, i, seats)
                while mk in parts:  # (a value twice in a list)
                    mk = (*mk, 0)
                at = i << 6 if seats else 0  # (the part's key holds ``at``: it never changes)
                parts[mk] = (read, at)
                items[i] = None
            elif i < len(was) and type(was[i]) is type(y) and was[i] == y:  # as it was: its parts
                kept[i] = was[i]
                items[i] = olds[i]
                for mk in olds[i]:
                    parts[mk] = old[mk]
            else:
                kept[i] = _copy(y)
                got = self._item(k, i, y, seats)
                items[i] = tuple(got)
                parts.update(got)
        if not seats and x and type(x[0]) in (int, float, bool):  # its length too
            mk = (k, "#", len(x))
            parts[mk] = (memo.get(mk) or self._read(k, x, mk, -1, False, True), 0)
        if whole is not None:  # (shared: never changed in place by :meth:`_nested`)
            wholes[whole] = parts
            items = None
        return parts, kept, items

    def _read(self, key: str, value: Any, memo: tuple | None, i: int = -1, seats: bool = False,
              length: bool = False, nested: bool = False) -> Read:
        """What the view's entry ``key`` (``i >= 0``: its item ``i``; ``length``: its length)
        puts in the vector; kept under ``memo`` if given."""
        layout = self.layout
        off = layout.offset
        w = _Walk(layout.code, layout.players, self.seat, layout.per_seat)
        if length:
            w.length(value, key, False)
        elif i >= 0:
            w.item(value, key, i, seats, nested)
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


#: An event count's entry: at most 3 over 3.
_COUNTS = (0.0, 1 / 3.0, 2 / 3.0)
