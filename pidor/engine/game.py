"""The one interface every game implements (sans-IO: no clock, no sockets, no global random).

Vocabulary used by every game and by the table layer (``table.py``):

* **seat**: an ``int`` ``0..players-1``, clockwise.
* **card**: an ``int`` (see ``pidor.cards``); in views, events and on the wire a card is
  its two-character code (``"Th"``).
* **action**: a tuple ``(kind, *args)``, e.g. ``("move", 2)``, ``("beat", card, 0)``,
  ``("draw",)``. ``Game.ACTIONS`` names each kind's arguments and their types
  (``seat``, ``card``, ``index``, ``cards``: a tuple of cards, e.g. simple durak's lead;
  ``rank``: a rank 2..14, on the wire its code ``"K"``, e.g. a rank named in a claim;
  ``suit``: a suit number 0..3, on the wire its letter ``c``, ``d``, ``h``, ``s``);
  :func:`action_to_data` / :func:`action_from_data`
  convert to and from the wire form ``{"type": "beat", "card": "Th", "target": 0}``.
* **event**: a ``dict`` with a ``"type"``. Keys that start with ``_`` are never shown to
  anyone as they are (:func:`project` makes the one seat's form of an event; logs keep the
  full form). This is every such key:

  - ``"_private"``: maps a seat to fields only that seat sees (merged into its form);
  - ``"_violations"`` (on ``action`` events): the rule ids the action broke;
  - ``"_hold"`` (on «пидор»'s ``trick_closed``): the name of a table option whose seconds
    the call window of this action lasts at least (P14: the closed trick stays visible);
  - ``"_reset_honest"`` (on durak's ``bout_over``): the table ends every "must play
    honestly" obligation here (D11).

Errors (python-chess style, narrow classes; the server maps ``code`` to wire errors):

* :class:`InvalidAction`: malformed (unknown kind, wrong argument types).
* :class:`ImpossibleAction`: T1, a person could not do it at a real table (a card you
  do not hold, out of turn, the open card of a 3-card stack…). Nothing changes.
* Cheating is **not** an error: it is accepted and recorded in ``_violations``.

Life of a game, driven by the table layer:

1. ``Game.new(options, seed=…)`` or ``Game.new(options, deck=[…])``.
2. ``to_act()`` says who may act; ``actions(seat)`` / ``honest_actions(seat)`` list moves.
3. ``apply(seat, action)`` returns events; the table opens a call window if
   ``is_callable(action)``.
4. When no window is open, the table calls ``advance()``: consequences that reveal hidden
   cards (T8) happen there (end of the deal phase, prikup, drawing in durak).
5. Undo is ``restore(snapshot)`` with a ``snapshot()`` taken before the action.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import ACE, CARD_OF_CODE, card_code, parse_card, parse_rank, rank_code, suit_code
from ..cards import deck as full_deck
from .options import Option, check_options
from .seeds import Rng, shuffled
from .shown import shown

__all__ = [
    "Action",
    "Event",
    "ActionError",
    "InvalidAction",
    "ImpossibleAction",
    "Game",
    "project",
    "action_to_data",
    "action_from_data",
    "shown",
]

Action = tuple
Event = dict


class ActionError(Exception):
    """An action was refused; nothing changed. ``code`` is the wire error code."""

    code = "action_error"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class InvalidAction(ActionError):
    """The action is malformed: unknown kind, missing or mistyped arguments."""

    code = "invalid_action"


class ImpossibleAction(ActionError):
    """T1: not something hands can do at a real table (or not this seat's to do now)."""

    code = "impossible_action"


def project(event: Event, seat: int | None) -> Event:
    """The form of ``event`` that ``seat`` may see (``None``: a spectator, public fields only).

    Keys starting with ``_`` are dropped; the seat's ``_private`` fields are merged in.
    """
    out = {k: v for k, v in event.items() if k[0] != "_"}
    private = event.get("_private")
    if private and seat is not None:
        mine = private.get(seat)
        if mine:
            out.update(mine)
    return out


# ---------------------------------------------------------------------------
# Actions on the wire


def action_to_data(spec: dict[str, tuple[tuple[str, str], ...]], action: Action) -> dict:
    """``("beat", 12, 0)`` -> ``{"type": "beat", "card": "Ac", "target": 0}``."""
    kind = action[0]
    out: dict[str, Any] = {"type": kind}
    for (name, typ), value in zip(spec[kind], action[1:]):
        out[name] = card_code(value) if typ == "card" else [card_code(c) for c in value] if typ == "cards" \
            else rank_code(value) if typ == "rank" else suit_code(value) if typ == "suit" else value
    return out


def action_from_data(spec: dict[str, tuple[tuple[str, str], ...]], data: Any) -> Action:
    """Validate and convert the wire form of an action; raises :class:`InvalidAction` for
    any value a peer may send. Only the types are checked here: a seat or an index out of
    range is the game's to refuse (T1, ``impossible_action``)."""
    if not isinstance(data, dict):
        raise InvalidAction(f"an action is a map with a 'type', not {shown(data)}")
    kind = data.get("type")
    if type(kind) is not str or kind not in spec:
        raise InvalidAction(f"unknown action type {shown(kind)}; expected one of {sorted(spec)}")
    args = []
    for name, typ in spec[kind]:
        if name not in data:
            raise InvalidAction(f"action {kind!r} needs {name!r}")
        value = data[name]
        if typ == "card":
            card = CARD_OF_CODE.get(value) if type(value) is str else None  # (the wire form, inline)
            value = _card_arg(kind, name, value) if card is None else card
        elif typ == "cards":
            if type(value) is not list or not 1 <= len(value) <= MAX_CARDS:
                raise InvalidAction(f"{kind}.{name} must be a list of 1..{MAX_CARDS} cards like ['Th', 'Td'],"
                                    f" not {shown(value)}")
            value = tuple(_card_arg(kind, name, c) for c in value)
        elif typ == "rank":
            try:
                value = parse_rank(value)
            except ValueError:
                raise InvalidAction(f"{kind}.{name} must be a rank like 'K' or '10', not {shown(value)}") from None
        elif typ == "suit":
            if type(value) is not str or value not in _SUITS:
                raise InvalidAction(f"{kind}.{name} must be a suit: c, d, h or s, not {shown(value)}")
            value = _SUITS[value]
        elif type(value) is not int:  # exact: true is not seat 1, 1.0 not index 1
            raise InvalidAction(f"{kind}.{name} must be an integer, not {shown(value)}")
        args.append(value)
    return (kind, *args)


#: The most wire forms of actions a game class remembers (:meth:`Game.action_data`).
_WIRE_LIMIT = 4096
#: The most cards one action may name (a ``cards`` argument).
MAX_CARDS = 36
#: The values an ``int`` argument of these types may take (:meth:`Game.well_formed`).
_BOUNDS = {"card": (0, 51), "suit": (0, 3), "rank": (2, ACE)}
#: A ``suit`` argument's wire form -> its number.
_SUITS = {suit_code(s): s for s in range(4)}


def _card_arg(kind: str, name: str, value: Any) -> int:
    if type(value) is str:
        try:
            return parse_card(value)
        except ValueError:
            pass
    raise InvalidAction(f"{kind}.{name} must be a card like 'Th', not {shown(value)}")


# ---------------------------------------------------------------------------


class Game:
    """Base class of every game. Subclasses implement the methods that raise here."""

    #: Game id: ``pidor``, ``podkidnoy``, ``perevodnoy``, ``simple``.
    name: ClassVar[str] = ""
    #: Engine version, written into every log; bump it when rules behaviour changes.
    version: ClassVar[str] = ""
    #: Every older engine version a log was written with -> the class that replays it
    #: (old behaviour kept as a switch of this class, not a copy of the engine).
    OLDER: ClassVar[dict[str, type["Game"]]] = {}
    #: Whether the table tells who must play honestly in a public ``honest_only`` event
    #: (T6, D11); the engine versions before it did not (their logs have none).
    HONEST_EVENTS: ClassVar[bool] = True
    #: kind -> ((arg name, arg type), ...); arg types: ``seat``, ``card``, ``index``, ``cards``,
    #: ``rank``, ``suit``.
    ACTIONS: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {}
    #: The options a game is set up with (``players`` and ``deck`` first), typed, with
    #: their defaults and ranges (:class:`~.options.Option`).
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: ``{name: default}`` of :attr:`OPTIONS` (made from them).
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    #: The game's own clocks (table options in seconds, ``None``: off) that :meth:`timer`
    #: names, e.g. durak's ``bito_timeout`` (D5).
    CLOCKS: ClassVar[tuple[Option, ...]] = ()
    #: Event types after which an action chosen before them is stale (the server refuses
    #: it, PROTOCOL.md §5 "Acting on what you saw"). A new game and an ``undo`` always count.
    #: A game lists what ends the situation a choice was made in.
    CHOICE_EVENTS: ClassVar[frozenset[str]] = frozenset({"action"})
    #: Whether the game overrides :meth:`timer` (set for each class: the table asks only then).
    TIMED: ClassVar[bool] = False
    #: T3: whether an event's ``_hold`` sets its call window's length outright, however short
    #: (engine pidor-1), rather than only keeping the window open longer than ``call_window``.
    hold_sets_window: ClassVar[bool] = False
    #: Whether the logs of this engine version may show the table's events in their early
    #: forms (engines pidor-1 and durak-1: :mod:`pidor.gamelog.early`).
    early_events: ClassVar[bool] = False

    players: int
    _wire: ClassVar[dict[Action, dict]] = {}  # (each subclass has its own: __init_subclass__)
    _wire_kinds: ClassVar[frozenset[str]] = frozenset()

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
    ) -> "Game":
        """A new game from options plus either a ``seed`` (shuffled with ``seeds.shuffled``)
        or an explicit ``deck`` (top card first, for tests, puzzles and replays).

        ``previous`` is the result of the previous game at the same table (P1, D2);
        ``first`` forces the first player (tests). Without either, the «бутылка» picks
        the first player from ``seed`` (or seat 0 when there is no seed).
        """
        raise NotImplementedError

    @classmethod
    def options(cls, options: dict | None) -> dict:
        """Complete and validate options (:attr:`OPTIONS`); raises ``ValueError`` with a
        clear message. A game with rules between options checks them in an override."""
        return check_options(options, cls.OPTIONS, cls.name)

    # --- queries ------------------------------------------------------------

    def to_act(self) -> list[int]:
        """Seats that may take a game action now (several at once in durak)."""
        raise NotImplementedError

    def actions(self, seat: int) -> list[Action]:
        """Every physically possible action of ``seat`` now (T1), honest or not."""
        raise NotImplementedError

    def honest_actions(self, seat: int) -> list[Action]:
        """The actions of ``seat`` that break no rule (used by bots, hints and tests)."""
        return [a for a in self.actions(seat) if not self.check(seat, a)]

    def check(self, seat: int, action: Action) -> tuple[str, ...]:
        """The rule ids ``action`` would break; raises if it is invalid or impossible."""
        return self.judge(seat, self.well_formed(action))

    def well_formed(self, action: Action) -> Action:
        """``action`` if it has the shape :meth:`parse_action` gives: a tuple of a kind of
        :attr:`ACTIONS` and its arguments, each of its type (a card one of the 52, a suit
        0..3, a rank 2..14, ``cards`` a non-empty tuple of cards, any other an ``int``:
        whether that seat or index exists is :meth:`judge`'s to say); else
        :class:`InvalidAction`."""
        if type(action) is not tuple or not action:
            raise InvalidAction(f"an action is a tuple (kind, *arguments), a kind one of {sorted(self.ACTIONS)};"
                                f" not {action!r}")
        kind = action[0]
        spec = self.ACTIONS.get(kind) if type(kind) is str else None
        if spec is None:
            raise InvalidAction(f"unknown action {kind!r}; expected one of {sorted(self.ACTIONS)}")
        if len(action) != len(spec) + 1:
            raise InvalidAction(f"action {kind!r} takes {[a for a, _ in spec]}, got {list(action[1:])}")
        for (name, typ), value in zip(spec, action[1:]):
            if typ == "cards":
                if type(value) is not tuple or not value or any(type(c) is not int or not 0 <= c < 52 for c in value):
                    raise InvalidAction(f"{kind}.{name}: a non-empty tuple of cards, not {value!r}")
                continue
            if type(value) is not int:
                raise InvalidAction(f"{kind}.{name} must be an integer, not {value!r}")
            bounds = _BOUNDS.get(typ)
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise InvalidAction(f"{kind}.{name}: {value} is not a {typ}")
        return action

    def judge(self, seat: int, action: Action) -> tuple[str, ...]:
        """:meth:`check` of a well-formed action (from :meth:`well_formed` or
        :meth:`parse_action`, whose checks it does not repeat): the seat, the state and
        the rules; raises if it is impossible (or the seat does not exist)."""
        raise NotImplementedError

    def opening(self) -> list[Event]:
        """Events that announce the dealt game's first situation (after ``game_start``)."""
        return []

    def obliged(self) -> list[int]:
        """The seats the game waits on now: a turn clock (T9) runs for them. By default the
        one seat to act; where several may act at once nobody, unless a game says so."""
        seats = self.to_act()
        return seats if len(seats) <= 1 else []

    def may_wait(self, seat: int) -> bool:
        """Whether ``seat``, though in :meth:`to_act`, has nothing it must do now and may
        simply wait (durak's defender once every card is covered). Bots use it."""
        return False

    def is_callable(self, action: Action) -> bool:
        """Whether the action opens a call window (T2/T3). Payments and durak's «бито» /
        «беру» do not."""
        return True

    def rule_in_force(self, seat: int) -> str:
        """The rule id a tutorial hint shows to ``seat`` now (T11)."""
        raise NotImplementedError

    def in_game(self, seat: int) -> bool:
        """Whether ``seat`` still plays this game (T4: only they call and vote)."""
        raise NotImplementedError

    def in_game_seats(self) -> list[int]:
        """The seats :meth:`in_game`, in seat order (a new list)."""
        in_game = self.in_game
        return [s for s in range(self.players) if in_game(s)]

    @property
    def over(self) -> bool:
        """The rules have reached a result. ``Table.over`` follows once the table has
        settled it (T7: the mark goes to the loser), which it does only while no call
        window is open and no court sits: an action still open to a call may be undone (T6)."""
        return self.result is not None

    #: ``None`` while playing; then ``{"loser": seat | None, "draw": bool, "order": [seats
    #: in the order they finished]}``.
    result: dict | None = None

    def view(self, seat: int | None) -> dict:
        """What ``seat`` sees (``None``: a spectator): never another seat's hidden cards."""
        raise NotImplementedError

    def zones(self) -> dict[str, list[int]]:
        """Every card's place, e.g. ``{"deck": [...], "hand.0": [...]}``: each card of the
        deck appears in exactly one zone (tests check it)."""
        raise NotImplementedError

    def timer(self) -> tuple[str, int] | None:
        """A game clock the table should run: ``(option name, token)``, e.g.
        ``("bito_timeout", 3)``. The table restarts the deadline whenever the token
        changes and calls :meth:`on_timer` when it expires. ``None``: no clock (a game that
        does not override it: :attr:`TIMED` is false and the table does not ask)."""
        return None

    def hidden_from(self, seat: int | None) -> set[str]:
        """Card codes ``seat`` must not see now (tests scan views and frames for them)."""
        raise NotImplementedError

    # --- mutation -----------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out an action (honest or not). Raises :class:`ActionError` and changes
        nothing when it is invalid or impossible. The first event is
        ``{"type": "action", "seat", "action", "_violations"}``."""
        return self.perform(seat, action, self.check(seat, action))

    def perform(self, seat: int, action: Action, violations: tuple[str, ...]) -> list[Event]:
        """:meth:`apply` without the check: ``violations`` is what :meth:`check` just
        returned for this action in this state (the table checks first, to decide on a
        snapshot and on T6's honest replay, and does not pay for a second check)."""
        raise NotImplementedError

    def advance(self) -> list[Event]:
        """Run consequences that had to wait for the call window (T8). Idempotent."""
        return []

    def on_timer(self, name: str) -> list[Event]:
        return []

    def on_mark(self, seat: int) -> list[Event]:
        """The table put the mark on ``seat``: count it (P7) or ask for payment (D12)."""
        return []

    # --- data ---------------------------------------------------------------

    def to_data(self) -> dict:
        """The whole state as plain data (ints, strings, lists, dicts, bools, None)."""
        raise NotImplementedError

    @classmethod
    def from_data(cls, data: dict) -> "Game":
        raise NotImplementedError

    def snapshot(self) -> Any:
        """An undo point as plain data (a table's ``to_data`` holds the one of an open
        window as it is); :meth:`restore` brings back exactly this state."""
        return self.to_data()

    def restore(self, snapshot: Any) -> None:
        self.__dict__.update(type(self).from_data(snapshot).__dict__)

    # --- helpers for subclasses ----------------------------------------------

    def action_data(self, action: Action) -> dict:
        """The wire form of a well-formed action (a new dict). Each class remembers the
        forms it made (up to ``_WIRE_LIMIT``): an action is shown at least twice, to the
        policy that picks it and in its event. Kinds with a ``cards`` argument (a list in
        wire form, which a shallow copy would share) are made afresh."""
        wire = self._wire.get(action)
        if wire is None:
            return self.action_form(action)
        return dict(wire)

    def action_form(self, action: Action) -> dict:
        """:meth:`action_data`, maybe the very dict the class remembers: to read and
        compare, never to change or hand out (a copy of it, ``dict(form)``, is an
        :meth:`action_data`, except for kinds with a ``cards`` argument, made afresh)."""
        wire = self._wire.get(action)
        if wire is None:
            wire = action_to_data(self.ACTIONS, action)
            if action[0] in self._wire_kinds and len(self._wire) < _WIRE_LIMIT:
                self._wire[action] = wire
        return wire

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.DEFAULTS = {o.name: o.default for o in cls.OPTIONS}
        cls._wire = {}
        cls._wire_kinds = frozenset(k for k, spec in cls.ACTIONS.items() if all(t != "cards" for _, t in spec))
        cls.TIMED = cls.timer is not Game.timer

    def parse_action(self, data: Any) -> Action:
        return action_from_data(self.ACTIONS, data)


def deal_order(size: int, seed: bytes | None, deck: list[int] | None) -> list[int]:
    """The deck order of a new game, top card first: ``deck`` as given (checked to hold
    each card of the ``size``-card deck once), or shuffled from ``seed`` (T10)."""
    if deck is not None:
        order = list(deck)
        if sorted(order) != full_deck(size):
            raise ValueError(f"the deck must hold each card of the {size}-card deck exactly once")
        return order
    if seed is None:
        raise ValueError("a new game needs a seed or an explicit deck")
    return shuffled(full_deck(size), seed)


def first_seat(players: int, first: int | None, seed: bytes | None, by_previous: int | None) -> int:
    """Who starts: ``first`` if given (tests), else the seat the previous game's result
    names (P1, D2), else the «бутылка» from the seed (T10), else seat 0."""
    if first is None:
        if by_previous is not None:
            first = by_previous
        elif seed is not None:
            first = Rng(seed, b"bottle").below(players)
        else:
            first = 0
    if type(first) is not int or not 0 <= first < players:
        raise ValueError(f"first must be a seat 0..{players - 1}, not {first!r}")
    return first
