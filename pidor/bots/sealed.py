"""A ``py:`` entrant's policy behind a wall: it decides from an observation that has no
path to the table (issue 30).

In-process, the driver's observation of a seat (:class:`pidor.driver.TableSeat`) answers
from the table itself: that is what makes built-in bots cheap, and it is trusted code. A
``py:`` entrant is somebody else's class. :class:`Sealed` hands it instead a
:class:`SealedSeat`, built as the SDK builds one over TCP
(:class:`pidor.bots.remote.RemoteSeat`): its own :class:`~pidor.bots.observe.Knowledge`,
fed the seat's projected events and reset from a copy of the seat's view, and at each
decision copies of what the ``turn``, ``window`` or ``court`` message would carry. Every
value it holds went through msgpack, as a wire message does: no engine object, no bound
method, no list the engine still holds. So no attribute of it leads to another seat's
cards, the deck or a hidden violation (``tests/test_sealed.py`` walks every one).

This is a wall against mistakes, not a sandbox: Python code in the match's process can
still find the table by other means (``gc``, the stack). ``py:`` entrants are trusted code;
a bot you do not trust plays over ``stdio:``, ``cmd:`` or ``tcp:``, in its own process.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .observe import KnowingSeat, Knowledge
from .policy import Observation, Policy

__all__ = ["Sealed", "SealedSeat"]


def _wire(value: Any) -> Any:
    """``value`` as it would arrive over the wire (a deep copy of plain data)."""
    return msgpack.unpackb(msgpack.packb(value), strict_map_key=False)


class SealedSeat(KnowingSeat):
    """One seat's observation from copies and its own knowledge (see the module)."""

    __slots__ = ("knowledge", "_view", "_honest", "_may_cheat", "_may_wait", "_obliged", "_window", "_court",
                 "_mark")

    def __init__(self, seat: int, rules: dict) -> None:
        super().__init__(seat, _wire(rules))
        self.knowledge = Knowledge(seat, self.rules)
        self._view: dict = {}
        self._honest: list[dict] = []
        self._may_cheat = self._may_wait = self._obliged = False
        self._window: dict | None = None
        self._court: dict | None = None
        self._mark: int | None = None

    def copy(self, obs: Observation, turn: bool = False) -> None:
        """What the seat may know now, copied off the driver's ``obs`` (``turn``: with the
        honest options and the clocks' say, as a ``turn`` message)."""
        self._view = _wire(obs.view)
        self._window = _wire(obs.window)
        self._court = _wire(obs.court)
        self._mark = obs.mark
        self._may_cheat = bool(obs.may_cheat)
        if turn:
            self._honest = _wire(list(obs.honest))
            self._may_wait, self._obliged = bool(obs.may_wait), bool(obs.obliged)
        else:
            self._honest, self._may_wait, self._obliged = [], False, False

    @property
    def view(self) -> dict:
        return self._view

    @property
    def honest(self) -> list[dict]:
        return self._honest

    @property
    def may_cheat(self) -> bool:
        return self._may_cheat

    @property
    def may_wait(self) -> bool:
        return self._may_wait

    @property
    def obliged(self) -> bool:
        return self._obliged

    @property
    def window(self) -> dict | None:
        return self._window

    @property
    def court(self) -> dict | None:
        return self._court

    @property
    def mark(self) -> int | None:
        return self._mark



class Sealed(Policy):
    """``inner`` (a ``py:`` entrant's policy) deciding from a :class:`SealedSeat`. It listens
    to every event (:meth:`observe`) to keep the seat's knowledge, as a client does."""

    def __init__(self, inner: Policy) -> None:  # (no Policy.__init__: the inner one has the seeds)
        self.inner = inner
        self.seat = inner.seat
        self.seed = inner.seed
        self.rng = inner.rng
        self._sealed: SealedSeat | None = None
        self._new = True  # a game started: the knowledge starts again from the view
        self._fed = 0  # the game's events the knowledge has

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.inner.name

    @property
    def auto(self) -> str | None:  # type: ignore[override]
        return self.inner.auto

    def params(self) -> dict[str, Any]:
        return self.inner.params()

    def may_call(self) -> bool:
        return self.inner.may_call()

    def new_game(self, seat: int, seed: bytes) -> None:
        self.inner.new_game(seat, seed)
        self.seat, self.seed, self.rng = seat, seed, self.inner.rng
        self._sealed, self._new = None, True

    def _seat(self, obs: Observation, turn: bool = False) -> SealedSeat:
        """The sealed seat, its knowledge brought up to ``obs``'s events, its copies to now."""
        sealed = self._sealed
        if sealed is None:
            sealed = self._sealed = SealedSeat(obs.seat, obs.rules)
        if self._new:  # (the view shows the effect of the game's events so far)
            events = _wire(obs.events)
            sealed.knowledge.reset(_wire(obs.view), events)
            self._new, self._fed = False, len(events)
        else:
            events = obs.events_from(self._fed)
            if events:
                sealed.knowledge.feed(_wire(events))
                self._fed += len(events)
        sealed.copy(obs, turn)
        return sealed

    def observe(self, obs: Observation, event: dict) -> None:
        if event["type"] == "game_start":
            self._new = True
        if type(self.inner).observe is not Policy.observe:
            self.inner.observe(self._seat(obs), _wire(event))

    def act(self, obs: Observation) -> dict | None:
        sealed = self._seat(obs, turn=True)
        action = self.inner.act(sealed)
        if action is not None:
            sealed.knowledge.sent(action)
        return action

    def call(self, obs: Observation) -> bool:
        return bool(self.inner.call(self._seat(obs)))

    def vote(self, obs: Observation) -> bool | None:
        return self.inner.vote(self._seat(obs))
