"""What a game's folder declares: :class:`GameSpec`, read by everything above the engine.

A folder under ``pidor/games/`` is one game family. Its ``__init__.py`` sets ``GAMES``, a
tuple of :class:`GameSpec` (one per game id: the durak folder holds podkidnoy, perevodnoy
and simple). The spec names the engine class (which declares its options, players, decks
and clocks itself, :mod:`pidor.engine.options`) (which also keeps every engine version a log was ever
written with, ``OLDER``), and says what the rest of the house needs to know about the game as data.

Code that behaves per game lives in the folder beside the spec, in modules found by name
(:func:`pidor.games.part`): ``belief.py`` (what a seat can rebuild from what it saw),
``text.py`` (how events and the board read, ru/en, and the words a person types),
``bots.py`` (the built-in policies' game knowledge). A folder without one of them gets the
generic fallback, where there is one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game
from ..engine.options import Option
from ..engine.rules import Rule

__all__ = ["GameSpec", "EventDoc", "ResultField", "Conform", "TABLE_EVENTS"]


@dataclass(frozen=True, slots=True)
class EventDoc:
    """One event type of the game: its public fields, the fields only some seats see
    (``_private``), and what it means (en)."""

    about: str
    public: tuple[str, ...] = ()
    private: tuple[str, ...] = ()


#: The events of the table and the server, the same in every game (a game documents its own
#: in ``GameSpec.events``; a game's ``out`` may add fields, e.g. durak's ``partner``).
TABLE_EVENTS: dict[str, EventDoc] = {
    "game_start": EventDoc("a game is dealt", ("game", "number", "players")),
    "action": EventDoc("a seat's game action (a payment's card only to giver and recipient)", ("seat", "action")),
    "window": EventDoc("a call window opened on an action (T3)", ("seat", "action", "owing", "deadline")),
    "window_closed": EventDoc("every owing seat passed, or the window's time ran out (T3)", ("seat",)),
    "call": EventDoc("«пидор!» on the window's action (T2)", ("caller", "accused", "action")),
    "court": EventDoc("the court sits on a called action that broke a rule (T4)",
                      ("caller", "accused", "action", "rules", "voters", "deadline")),
    "vote": EventDoc("a vote in the court (T4)", ("seat", "guilty")),
    "abstain": EventDoc("a voter who is away abstains now (T4)", ("seat",)),
    "verdict": EventDoc("the court's outcome, or an honest action called (T5, T6)",
                        ("outcome", "caller", "accused", "pidor", "clean")),
    "undo": EventDoc("the called action is undone with its consequences (T6)", ("seat", "action")),
    "mark": EventDoc("the mark moves (T7)", ("seat", "reason")),
    "honest_only": EventDoc("the seats whose next action must be honest now (T6, D11)", ("seats",)),
    "game_over": EventDoc("the game's result (its fields: the game's ResultFields; stalled: why T13 drew it)",
                          ("result",)),
    "out": EventDoc("a player is out of the game, with his place", ("seat", "place", "partner")),
    "timeout": EventDoc("a seat's clock ran out or it is away: the honest bot plays its next action (T9)",
                        ("seat", "reason")),
    "seat": EventDoc("a seat is away, back, or played by a bot from now on", ("seat", "state", "forfeit")),
    "results": EventDoc("the game's end at the table: result, mark, names and the deal's reveal",
                        ("number", "result", "mark", "names", "deal")),
}


@dataclass(frozen=True, slots=True)
class ResultField:
    """A field a game's result holds besides ``loser``, ``draw`` and ``order``; a match's
    results keep it, and its summary counts it per entrant as ``tally`` (if given), by
    ``kind``:

    * ``title``: a flag about the loser («погоны», V8): the games its entrant lost so;
    * ``seats``: a list of seats (the losing team, V6): the games its entrant was among them;
    * ``scores``: a number per seat: its entrant's mean;
    * ``letters``: a string per seat: its entrant's last.
    """

    name: str
    kind: str
    help: dict[str, str] = field(default_factory=dict)
    tally: str = ""

    def count(self, result: dict, seat: int) -> float | str | None:
        """What this field counts for ``seat`` in one game's ``result`` (``None``: nothing)."""
        value = result.get(self.name)
        if value is None:
            return None
        if self.kind == "title":
            return int(result.get("loser") == seat and bool(value))
        if self.kind == "seats":
            return int(seat in value)
        return value[seat]  # scores, letters


@dataclass(frozen=True, slots=True)
class Conform:
    """What the conformance kit needs of a game: an action no seat can make (T1), sent
    in the bot's name to see that the bot copes with ``impossible_action``; and whether the
    kit may call a bot falsely (its actions are judged in court in this game)."""

    impossible: dict
    false_call: bool = True


@dataclass(frozen=True)
class GameSpec:
    """One game id. Everything but ``id``, ``engine``, ``title`` and ``loser`` has a default;
    the registry's own test checks that every folder's specs are whole."""

    id: str
    #: The engine class that plays it now (``engine.name == id``).
    engine: type[Game]
    #: ``{"ru": …, "en": …}``: the game's name.
    title: dict[str, str]
    #: ``{"ru": …, "en": …}``: what the loser is called («пидор», «дурак»).
    loser: dict[str, str]
    #: The game's own rulings and violations (the table's, T, come with every game).
    rules: tuple[Rule, ...] = ()
    #: Option sets worth playing besides the defaults (tests, conformance, benchmarks),
    #: e.g. ``{"lead": "pairs"}``; each may set ``players`` and ``deck`` too.
    variants: tuple[dict[str, Any], ...] = ()
    #: The action a stand-in makes unasked for an away player whenever it is honest (T9):
    #: durak's «бито» (the table never waits on a seat for it, D5). ``None``: none.
    idle: dict | None = None
    #: The game's own event types (the table's are documented once, for every game).
    events: dict[str, EventDoc] = field(default_factory=dict)
    #: What a result holds besides ``loser``, ``draw`` and ``order``.
    results: tuple[ResultField, ...] = ()
    conform: Conform | None = None
    #: The folder (set by the registry).
    folder: str = ""

    # --- read off the engine ---------------------------------------------------------

    @property
    def version(self) -> str:
        return self.engine.version

    @property
    def versions(self) -> tuple[str, ...]:
        """Every engine version this program replays, the current one first."""
        return (self.engine.version, *self.engine.OLDER)

    @property
    def options(self) -> tuple[Option, ...]:
        return self.engine.OPTIONS

    def option(self, name: str) -> Option | None:
        return next((o for o in self.engine.OPTIONS if o.name == name), None)

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts the game is played with."""
        o = self.option("players")
        return tuple(o.choices) if o.choices else tuple(range(o.low, o.high + 1))

    @property
    def decks(self) -> tuple[int, ...]:
        o = self.option("deck")
        return tuple(o.choices) if o.choices else tuple(range(o.low, o.high + 1))

    def engine_class(self, version: Any) -> type[Game]:
        """The class that plays engine version ``version`` (to verify and replay its logs);
        ``ValueError`` if this program has none."""
        if version == self.engine.version:
            return self.engine
        older = self.engine.OLDER
        if type(version) is str and version in older:
            return older[version]
        known = ", ".join(repr(v) for v in self.versions)
        raise ValueError(f"the log was written by {self.id} engine {version!r}; this program plays {known}")

    @property
    def hidden_rules(self) -> frozenset[str]:
        """The ids of its rules that can be broken out of the others' sight (``Rule.hidden``)."""
        return frozenset(r.id for r in self.rules if r.hidden)

    def title_of(self, lang: str) -> str:
        return self.title.get(lang) or self.title["en"]
