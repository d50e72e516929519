"""The bot interface: a :class:`Policy` decides for one seat from its :class:`Observation`.

A policy is handed the seat's observation and nothing else: the same projected events and
views a remote client gets, the seat's honest options (the ``turn`` message's), the open
call window or court, and what the seat can work out from them (:mod:`.observe`: the
actions its hands can make, the rules an action visibly broke, a deal consistent with
everything it has seen). It never reads the table or the engine's hidden state. The same
class plays in-process (:mod:`pidor.driver`, ``pidor match``), as a server seat, and over
TCP through the SDK (:class:`pidor.bots.remote.PolicyBot`).

Actions are in wire form, as in ``turn.options``: ``{"type": "beat", "card": "Th",
"target": 0}``. A policy may return any action (one outside ``obs.honest`` is a cheat,
T1); one its hands cannot make is refused and counts as nothing done.

Write your own by subclassing :class:`Policy` (or a built-in one) and overriding
:meth:`Policy.act`, :meth:`Policy.call` and :meth:`Policy.vote`; register it in
:mod:`.specs` to name it in specs (``builtin:NAME:k=v``).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from ..engine.seeds import Rng
from ..games import part

__all__ = ["Policy", "Observation"]


class Policy:
    """One seat's decisions. Subclasses set :attr:`name` (the builtin name in specs) and
    :attr:`PARAMS` (spec parameters with their defaults: a float is a rate in [0, 1], an
    int a count ≥ 0), and override what they decide.

    Every bit of chance comes from :attr:`rng`, seeded from ``seed`` and the seat (T10):
    the same seeds give the same decisions.
    """

    name: ClassVar[str] = ""
    PARAMS: ClassVar[dict[str, Any]] = {}
    #: The parts of a game's folder the policy needs (``bots``: the game's tactics,
    #: ``belief``: what a seat can rebuild), so the games it plays (:meth:`plays`).
    NEEDS: ClassVar[tuple[str, ...]] = ()
    #: The log's ``auto`` for this policy's actions (T9: ``"absent"`` when it plays for a
    #: player who is away or gone); ``None``: the actions are the seat's own.
    auto: ClassVar[str | None] = None

    def __init__(self, seat: int, seed: bytes = b"", **params: Any) -> None:
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no parameter {', '.join(unknown)}; "
                            f"known: {', '.join(self.PARAMS) or 'none'}")
        self.seat = seat
        self.seed = seed
        self.rng = Rng(seed, f"bot:{seat}")
        for key, default in self.PARAMS.items():
            setattr(self, key, params.get(key, default))

    @classmethod
    def plays(cls, game: str) -> bool:
        """Whether the policy plays ``game`` (its folder has every part the policy needs)."""
        return all(part(game, p) is not None for p in cls.NEEDS)

    def params(self) -> dict[str, Any]:
        """The parameters as given (for logs and specs)."""
        return {k: getattr(self, k) for k in self.PARAMS}

    def new_game(self, seat: int, seed: bytes) -> None:
        """The same policy plays another game of the match, at ``seat`` with ``seed``
        (``pidor match --keep-policies``): its :attr:`rng` starts again from the seed (T10);
        what it learned stays. A subclass that keeps anything for one game only resets it
        here (and calls this)."""
        self.seat = seat
        self.seed = seed
        self.rng = Rng(seed, f"bot:{seat}")

    def act(self, obs: "Observation") -> dict | None:
        """The seat's game action now (wire form), or ``None`` to wait (nothing to do, or
        durak's silence, which the «бито» clock counts, D5). Asked while the seat may act."""
        return None

    def call(self, obs: "Observation") -> bool:
        """``True`` to call («пидор!») the action in ``obs.window``; ``False`` passes (T3)."""
        return False

    def may_call(self) -> bool:
        """Whether :meth:`call` can ever answer ``True`` (by default: whether the class
        overrides it). A table of policies that never call has its windows passed at once,
        without asking them (the in-process driver's fast path)."""
        return type(self).call is not Policy.call

    def vote(self, obs: "Observation") -> bool | None:
        """In the court ``obs.court``: ``True`` «пидор» (guilty), ``False`` «чист», ``None``
        abstains (T4)."""
        return None

    def uniform_pick(self) -> "Callable[[int], int] | None":
        """When :meth:`act` is exactly "wait if ``obs.may_wait``, else one of ``obs.honest``
        picked by index with ``pick(len(obs.honest))``, nothing else drawn or looked at":
        that ``pick``; the in-process driver then makes the same choice without building the
        observation or the wire forms. ``None`` (the default): :meth:`act` is asked."""
        return None

    def observe(self, obs: "Observation", event: dict) -> None:
        """Every new projected event, in order (optional; the driver calls it only when a
        class overrides it, so a policy that does not listen costs nothing)."""


class Observation:
    """What one seat may know now; the same shape in-process, as a server seat and over TCP.

    * ``seat``, ``game`` (the game id), ``players``, ``rules`` (the table's options);
    * ``view``: the seat's projected view now (the ``snapshot`` view: the game's view of the
      seat plus the table's public ``status``);
    * ``events``: the projected events of the current game so far, in order (wire form);
      ``events_from(n)``: those from the ``n``-th on (only they are projected);
    * ``honest``: the seat's honest actions now (``turn.options``), ``[]`` when not on turn;
    * ``may_cheat``: ``False`` while the seat must replay honestly (T6);
    * ``may_wait``: the seat is among those who may act but need not (durak's defender once
      every card is covered, D5);
    * ``obliged``: the table waits on the seat's action now (``Game.obliged``: its turn
      clock runs, T9); ``False`` for a seat that may act but need not (a thrower-in, D5);
    * ``window``: the open call window (the ``window`` event plus ``action``, the action it
      is about) or ``None``; ``court``: the sitting court (the ``court`` event) or ``None``;
      ``mark``: the seat holding the mark;
    * ``actions()``: every action the seat's hands could make now, cheats included, from
      its own knowledge;
    * ``visible_violations(seat, action)``: the rule ids ``action`` of ``seat`` visibly
      breaks, judged by the engine's own check from the public state in which it is made
      (the open window's action: the state before it; any other: the state now);
    * ``determinize(rng)``: an engine game consistent with everything the seat has seen.

    The values are computed when first asked (a policy that never asks pays nothing).
    This class names the surface; a seat's observation is one of its two subclasses: the
    in-process driver's (:class:`pidor.driver.TableSeat`) and the SDK's, built from the
    messages the client received (:class:`pidor.bots.remote.RemoteSeat`).
    """

    __slots__ = ("seat", "game", "players", "rules")

    def __init__(self, seat: int, rules: dict) -> None:
        self.seat = seat
        self.rules = rules
        self.game = rules["game"]
        self.players = rules["players"]

    @property
    def view(self) -> dict:
        raise NotImplementedError

    @property
    def events(self) -> list[dict]:
        raise NotImplementedError

    def events_from(self, start: int) -> list[dict]:
        return self.events[start:]

    @property
    def honest(self) -> list[dict]:
        raise NotImplementedError

    @property
    def may_cheat(self) -> bool:
        raise NotImplementedError

    @property
    def may_wait(self) -> bool:
        raise NotImplementedError

    @property
    def obliged(self) -> bool:
        raise NotImplementedError

    @property
    def window(self) -> dict | None:
        raise NotImplementedError

    @property
    def court(self) -> dict | None:
        raise NotImplementedError

    @property
    def mark(self) -> int | None:
        raise NotImplementedError

    def actions(self) -> list[dict]:
        raise NotImplementedError

    def visible_violations(self, seat: int, action: dict) -> tuple[str, ...]:
        raise NotImplementedError

    def determinize(self, rng: Rng) -> Any:
        raise NotImplementedError
