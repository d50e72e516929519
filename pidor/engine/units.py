"""T13: every game ends. A game's units, the positions at their ends, and their progress.

Honest play can go round in circles in several of these games. Each game names a unit (a
trick, a bout, a pile, a battle…), a position (the place of every card, with order where
order matters; whose turn it is; any pending obligation; not the mark, not the clocks) and
its progress events (T13b). A game holds one :class:`Units` and tells it when a unit has
ended (:meth:`Units.end`, with whether it made progress) or, in a unit that may never end,
that an action was made (:meth:`Units.step`). The game records the position when the
window of that action has closed — in its ``advance`` (T8), so that an undo never
un-counts one — and ends as a draw when :meth:`Units.record` says so: the same position
for the ``repeat_limit``-th time, ``quiet_limit`` units in a row without progress, or
``unit_limit`` units in all.
"""

from __future__ import annotations


from .options import Option

__all__ = ["Units", "UNIT_OPTIONS", "QUIET_OPTION", "REPEAT_OPTION", "LIMIT_OPTION"]

REPEAT_OPTION = Option("repeat_limit", 3, "int", {
    "en": "T13: a draw when the same position is seen this many times",
    "ru": "T13: ничья, когда та же позиция повторилась столько раз"}, low=2, high=100)
QUIET_OPTION = Option("quiet_limit", 100, "int", {
    "en": "T13: a draw after this many units in a row without progress",
    "ru": "T13: ничья после стольких ходов подряд без продвижения"}, low=30, high=100_000)
LIMIT_OPTION = Option("unit_limit", 5000, "int", {
    "en": "T13: a draw after this many units in all",
    "ru": "T13: ничья после стольких ходов всего"}, low=100, high=1_000_000)
#: The options of T13, in every game that counts quiet units.
UNIT_OPTIONS = (REPEAT_OPTION, QUIET_OPTION, LIMIT_OPTION)


def _key(position: tuple) -> int:
    """A position as a short key: its hash. A position is made of ints (and bools and tuples
    of them) only, whose hashes Python computes the same in every process (no string or
    ``None`` in it: those hash differently from run to run), so a log re-run anywhere sees
    the same repetitions."""
    return hash(position)


class Units:
    """One game's units so far (T13): plain data, copied into the game's undo points."""

    __slots__ = ("seen", "quiet", "count", "due")

    def __init__(self) -> None:
        self.seen: dict[int, int] = {}  # position key -> times recorded
        self.quiet = 0  # units in a row without progress
        self.count = 0  # units in all
        self.due = False  # a position waits to be recorded

    def end(self, progress: bool) -> None:
        """A unit has ended (with a progress event or not): its position is due."""
        self.count += 1
        self.quiet = 0 if progress else self.quiet + 1
        self.due = True

    def step(self) -> None:
        """An action in a unit that may never end: the position after it is due."""
        self.due = True

    def record(self, position: tuple, options: dict) -> str | None:
        """Record the due position (once); the reason the game ends as a draw, if it does:
        ``repetition``, ``quiet`` or ``units``."""
        if not self.due:
            return None
        self.due = False
        key = hash(position)  # (_key, inline: a position is recorded after most actions)
        seen = self.seen
        times = seen[key] = seen.get(key, 0) + 1
        if times >= options["repeat_limit"]:
            return "repetition"
        quiet = options.get("quiet_limit")
        if quiet is not None and self.quiet >= quiet:
            return "quiet"
        if self.count >= options["unit_limit"]:
            return "units"
        return None

    def to_data(self) -> list:
        return [dict(self.seen), self.quiet, self.count, self.due]

    @classmethod
    def from_data(cls, data: list) -> "Units":
        u = cls()
        seen, u.quiet, u.count, u.due = data
        u.seen = dict(seen)
        return u

    def brief(self) -> list:
        """An undo point's part (T6): all but the positions seen, which no action in a call
        window changes (they are recorded only once windows are closed) — an undo point
        need not copy them."""
        return [None, self.quiet, self.count, self.due]

    def restore(self, data: list) -> None:
        """Bring back :meth:`to_data` or :meth:`brief` (keeping the positions seen)."""
        seen, self.quiet, self.count, self.due = data
        if seen is not None:
            self.seen = dict(seen)
