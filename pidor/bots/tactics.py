"""A game's knowledge for the built-in policies: the base class of every game's ``bots.py``.

The policies (:mod:`.greedy`, :mod:`.heuristic`, :mod:`.ismcts`) know how to weigh a cheat,
when to call and how to search; what is good play in a given game they ask its folder. A
game's ``bots.py`` sets ``TACTICS``, a subclass of :class:`Tactics`; a policy makes one
for its seat at each game (:func:`tactics`). A policy says which parts of a folder it
needs (``Policy.NEEDS``) and so which games it plays.

Everything here is in wire form (the seat's view and its options, as a remote bot sees
them), except the search's playouts, which run on engine games (a determinization) and so
take and give engine actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ..cards import parse_card
from ..engine.game import Game
from ..games import part

__all__ = ["Tactics", "Goal", "tactics", "goals", "by_type", "cheapest", "suit_index"]


def suit_index(letter: str | None) -> int | None:
    """A view's trump letter (``"h"``) as a suit number; ``None`` stays ``None``."""
    return None if letter is None else "cdhs".index(letter)


def by_type(options: list[dict]) -> dict[str, list[dict]]:
    """Options grouped by their ``type``, in order."""
    out: dict[str, list[dict]] = {}
    for a in options:
        out.setdefault(a["type"], []).append(a)
    return out


def cheapest(options: list[dict], key: Callable[[int], Any]) -> dict:
    """The option whose ``card`` has the least ``key``."""
    return min(options, key=lambda a: key(parse_card(a["card"])))


class Tactics:
    """One seat's game knowledge for one game. ``rules`` are the table's options."""

    #: Actions a playout plays before the position is scored by what each seat holds.
    DEPTH: ClassVar[int] = 400
    #: Whether the seat's honest moves may hang on the hidden deal (so the search checks
    #: each in every determinization: «пидор»'s deal phase).
    CHECK_HONEST: ClassVar[bool] = False
    #: Whether the search (``ismcts``) weighs the seat's cheats at all (``False``: it plays
    #: honestly in this game, whatever its ``cheat``).
    SEARCH_CHEATS: ClassVar[bool] = True
    #: The search's ``steps`` budget counts this many times over in this game.
    BUDGET: ClassVar[float] = 1.0

    def __init__(self, seat: int, rules: dict) -> None:
        self.seat = seat
        self.rules = rules

    # --- every policy's ------------------------------------------------------------

    def observe(self, event: dict) -> None:
        """A projected event of the game (what the seat remembers: cards gone, the table)."""

    # --- greedy ---------------------------------------------------------------------

    def greedy(self, view: dict, honest: list[dict]) -> dict | None:
        """The cheapest-card choice among ``honest`` (``None``: wait)."""
        raise NotImplementedError

    # --- heuristic ------------------------------------------------------------------

    def choice(self, view: dict, honest: list[dict]) -> dict | None:
        """The best honest move (``None``: wait); by default the greedy one."""
        return self.greedy(view, honest)

    def cheats(self, obs: Any, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        """Cheats worth a thought instead of ``choice``, each with its gain in cards."""
        return []

    def cost(self, view: dict) -> float:
        """What a conviction costs the seat, in cards (the mark's payment, the tempo lost)."""
        return 1.0

    def plainly_clean(self, obs: Any, action: dict) -> bool:
        """Whether the open window's ``action`` visibly broke no rule, read off the table
        at a glance (``False``: ask the engine, ``Observation.visible_violations``)."""
        return False

    # --- search (engine form) ---------------------------------------------------------

    def searches(self, view: dict) -> bool:
        """Whether a search is worth it now (else the heuristic's choice stands)."""
        return True

    def budget(self, view: dict) -> float:
        """How many times over the search's ``iterations`` and ``steps`` count in this
        position (on top of :data:`BUDGET`, which scales ``steps`` in every position)."""
        return 1.0

    def playout(self, game: Game, seat: int, honest: list[tuple]) -> tuple:
        """The playouts' move for ``seat`` among its ``honest`` engine actions."""
        return honest[0]

    def distinct(self, game: Game, honest: list[tuple]) -> list[tuple]:
        """The moves worth telling apart (alike cards merged)."""
        return honest

    def stop(self, game: Game) -> bool:
        """Whether a playout ends here, to be scored (:meth:`reward`) as it stands."""
        return False

    def reward(self, game: Game) -> list[float] | None:
        """Each seat's reward for a playout's end, in [0, 1] (``None``: the search's own: the
        loser 0, the rest 1; cut off, by :meth:`holding`)."""
        return None

    def holding(self, game: Game, seat: int) -> int:
        """The cards ``seat`` still has to get rid of (a cut-off playout scores by it)."""
        return len(game.hands[seat])


@dataclass(frozen=True)
class Goal:
    """A strength figure a game's bots are measured by (``scripts/bench_bots.py``): the
    ``subject`` policy at each seat in turn among the ``field``, ``games`` games with the
    game ``options``. ``measure``:

    * ``loss``: the subject's loss rate, at most ``bound``;
    * ``seat``: every seat plays the subject (no field): the loss rate per seat, a baseline;
    * ``won``: the share of the decided games the subject won, at least ``bound`` (heads-up);
    * ``than``: the subject's loss rate is below that of the goal named ``than``
      (``bound`` ignored): e.g. cheating pays against a field that rarely calls;
    * ``speed``: the CPU time the subject adds to a match of the field alone, at most ``bound``.
    """

    name: str
    subject: str
    field: tuple[str, ...]
    bound: float | None = None
    measure: str = "loss"
    options: dict = field(default_factory=dict)
    games: int = 2000
    than: str = ""
    keep: bool = False  # the policies live for each match (pidor match --keep-policies)


def goals(game: str) -> tuple[Goal, ...]:
    """The strength goals of ``game``'s bots (its folder's ``bots.GOALS``: a tuple for every
    game of the folder, or a dict of them by game id)."""
    found = getattr(part(game, "bots"), "GOALS", ())
    return tuple(found.get(game, ()) if isinstance(found, dict) else found)


def tactics(game: str, seat: int, rules: dict) -> Tactics | None:
    """The game's tactics for ``seat`` (``None``: the game's folder has no ``bots.py``)."""
    found = part(game, "bots")
    return None if found is None else found.TACTICS(seat, rules)
