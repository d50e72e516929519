"""The one bot driver: policies play a table's seats, one table call at a time.

Every place where bots play goes through :class:`Driver`: in-process games
(:func:`pidor.autoplay.play_game`: matches, benchmarks, tests), the server's table task
(bot seats, and the stand-ins of away or departed players) and the conformance tests. A
new kind of bot plugs in here, as a :class:`~pidor.bots.policy.Policy`, and plays
everywhere at once.

A policy is handed its seat's :class:`~pidor.bots.policy.Observation` only: the seat's
view, its honest options in wire form, the open window or court, and the seat's
:class:`~pidor.bots.observe.Knowledge` (fed every event of the game, projected for the
seat). It returns actions in wire form; the driver converts them with the game's
``parse_action``. An action that is malformed or that the table refuses counts as
nothing done (the seat is asked again at the next step; at the server, a person's
stand-in takes over as for any absent player).

The driver calls the table it is given: a :class:`~pidor.engine.table.Table`, a
:class:`~pidor.gamelog.record.Recorder` in front of one (every call is logged), the
server's :class:`~pidor.server.drive.ServerTable`, or any object with their surface,
:class:`DrivenTable` (``act`` (taking ``honest=True``: an option handed out unchanged, not
checked again), ``answer``, ``passes``, ``vote``, ``abstain``, ``to_act``,
``honest_actions``, ``actions``, ``waiting_answers``, ``waiting_votes``, ``window``,
``court``, ``mark``, ``honest_only``, ``game``, ``options``, ``view``, and ``to_data``
when a game starts; :func:`play_game` also uses ``over``, ``deadline`` and ``tick``; a
class that sets ``TAKES_PASSED`` takes ``passed=True`` in ``act``: the action and its window's
passes in one call, used when no policy ever calls). A
policy with an ``auto`` is a stand-in that plays for an absent person (T9): it plays
honest options only (anything else it returns is refused, never made), so no action
logged ``auto`` breaks a rule; it needs a target whose ``act`` takes ``auto`` for the log:
a Recorder or the server's table, not a bare Table.

Every event of the game must reach :meth:`Driver.feed`: the driver feeds the events of its
own calls (unless ``watch=False``: the server feeds every event it sends), and whoever
else calls the table (a person, a clock) feeds theirs. A batch that starts a game
(``game_start``) rebuilds each seat's knowledge from its view.
It never runs a clock: when no policy has anything to do, :meth:`Driver.play` returns and
its caller ticks the table (in-process) or waits for persons and clocks (the server).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence as SequenceABC
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from .bots.observe import KnowingSeat, Knowledge
from .bots.policy import Observation, Policy
from .engine.game import Action, ActionError, Event, Game, project
from .engine.seeds import Rng
from .engine.table import Court, Table, Window
from .games import spec

__all__ = ["Driver", "DrivenTable", "TableSeat", "WireActions"]

log = logging.getLogger(__name__)


@runtime_checkable
class DrivenTable(Protocol):
    """The table as the driver and its policies' observations read and call it."""

    game: Game | None  # the game being played (None before the first)
    options: dict
    window: Window | None  # the open call window (T3)
    court: Court | None  # the sitting court (T4)
    mark: int | None  # T7
    honest_only: set[int]  # the seats that may play honest options only (T6, D11)

    def to_act(self) -> list[int]: ...

    def honest_actions(self, seat: int) -> list[Action]: ...

    def actions(self, seat: int) -> list[Action]: ...

    def waiting_answers(self) -> list[int]: ...

    def waiting_votes(self) -> list[int]: ...

    def view(self, seat: int | None) -> dict: ...

    def to_data(self) -> dict: ...

    def act(self, seat: int, action: Action, now: float, *, honest: bool = False) -> list[Event]: ...

    def answer(self, seat: int, call: bool, now: float) -> list[Event]: ...

    def passes(self, seats: list[int], now: float) -> list[Event]: ...

    def vote(self, seat: int, guilty: bool, now: float) -> list[Event]: ...

    def abstain(self, seat: int, now: float) -> list[Event]: ...


class WireActions(SequenceABC):
    """Engine actions shown in wire form, each converted when first read (a policy that
    picks one of ten options converts one). An option handed back unchanged is taken
    back without parsing it again (:meth:`engine`)."""

    __slots__ = ("_actions", "_form", "_forms", "_wire", "_shown", "_last")

    def __init__(self, actions: list[Action], form: Callable[[Action], dict], forms: dict | None = None) -> None:
        self._actions = actions
        self._form = form  # ``Game.action_form``: the wire form, not to be changed
        self._forms = {} if forms is None else forms  # the forms the game's class remembers (looked up first)
        self._wire: list[dict | None] = [None] * len(actions)  # each as handed out (a copy of its form)
        self._shown: list[dict | None] = [None] * len(actions)  # each form, to tell a changed copy
        self._last = 0  # the option handed out last (most often the one handed back)

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, i):
        if type(i) is not int:
            return [self[k] for k in range(*i.indices(len(self._actions)))]
        w = self._wire[i]
        if w is None:
            action = self._actions[i]
            form = self._forms.get(action) or self._form(action)
            self._shown[i] = form
            w = self._wire[i] = form.copy()
        self._last = i
        return w

    def _all(self) -> list[dict]:
        wire = self._wire
        for i, w in enumerate(wire):
            if w is None:
                self[i]
        return wire

    def __iter__(self):
        return iter(self._all())

    def __contains__(self, value: object) -> bool:
        return value in self._all()

    def __eq__(self, other: object) -> bool:
        return self._all() == other

    def engine(self, data: Any) -> Action | None:
        """The engine action of ``data`` if it is an option handed out and unchanged."""
        i = self._last
        w = self._wire[i] if self._wire else None
        if w is data:
            return self._actions[i] if w == self._shown[i] else None
        for i, w in enumerate(self._wire):
            if w is data:
                return self._actions[i] if w == self._shown[i] else None
        return None

    def option(self, data: Any, parse: Callable[[Any], Action]) -> Action | None:
        """The engine action of ``data`` if it is one of these options (handed out
        unchanged, or an equal one, converted with ``parse``); else ``None``."""
        action = self.engine(data)
        if action is None:
            try:
                action = parse(data)
            except ActionError:
                return None
            if action not in self._actions:
                return None
        return action


#: No options (shared: an empty list has nothing to convert or hand out).
_NO_ACTIONS = WireActions([], None)


class TableSeat(KnowingSeat):
    """The :class:`~pidor.bots.policy.Observation` of one seat at an in-process table (its
    own source: no second hop on the hot path): the table's own answers for that seat (its
    view, its honest and possible actions: these depend on the seat's hand and the public
    cards only), the seat's knowledge, and the public knowledge every seat shares (see
    :meth:`visible_violations`). The honest options are computed once per decision
    (:meth:`fresh`)."""

    __slots__ = ("_table", "knowledge", "_public", "_honest", "_on_turn")

    def __init__(self, table: DrivenTable, seat: int, rules: dict, knowledge: Knowledge, public: Knowledge | None) -> None:
        super().__init__(seat, rules)
        self._table = table
        self.knowledge = knowledge
        self._public = public
        self._honest: WireActions | None = None
        self._on_turn = False

    def fresh(self, on_turn: bool = False) -> None:
        """A new decision; ``on_turn``: the driver knows the seat may act now (saves asking
        the table again)."""
        self._honest = None
        self._on_turn = on_turn

    @property
    def view(self) -> dict:
        return self._table.view(self.seat)

    @property
    def honest(self) -> WireActions:
        honest = self._honest
        if honest is None:
            table = self._table
            game = table.game
            actions = game.honest_actions(self.seat) if self._on_turn else table.honest_actions(self.seat)
            honest = self._honest = WireActions(actions, game.action_form, game._wire) if actions else _NO_ACTIONS
        return honest

    @property
    def may_cheat(self) -> bool:
        return self.seat not in self._table.honest_only

    @property
    def may_wait(self) -> bool:
        return self._table.game.may_wait(self.seat)

    @property
    def obliged(self) -> bool:
        return self.seat in self._table.game.obliged()

    @property
    def window(self) -> dict | None:
        w = self._table.window
        if w is None:
            return None
        # ``owing`` as the window event said: who has passed since is not shown (T3).
        owing = [s for s in self._table.game.in_game_seats() if s != w.seat]
        return {"type": "window", "seat": w.seat, "owing": owing, "deadline": w.deadline, "action": w.action}

    @property
    def court(self) -> dict | None:
        if self._table.court is None:
            return None
        return {"type": "court", **self._table.view(None)["status"]["court"]}

    @property
    def mark(self) -> int | None:
        return self._table.mark

    def actions(self) -> WireActions:
        return WireActions(self._table.actions(self.seat), self._table.game.action_form)

    def visible_violations(self, seat: int, action: dict) -> tuple[str, ...]:
        """The open window's action is judged on the public knowledge the driver keeps once
        for every seat: which rules an action visibly broke depends on the public state and
        the action only (no rule looks at a hidden card, :mod:`pidor.bots.observe`), so the
        seat's own knowledge would answer the same (tested), and one belief is played
        instead of one per calling seat. Any other action, and every action in a game whose
        rules can be broken out of sight (``Rule.hidden``: there ``public`` is ``None``), on
        the seat's own knowledge (it also knows which cards the seat's hands can hold)."""
        w = self._table.window
        if self._public is not None and w is not None and w.seat == seat and w.action == action:
            return self._public.visible_violations(seat, action)
        return self.knowledge.visible_violations(seat, action)


class Driver:
    """Policies play ``table``: ``policies[seat]`` decides for that seat, and a seat
    without one (``None``: a person at the server) is awaited. ``policies`` is read at
    every step, so seats may change hands between calls (the server's seats do: a player
    goes away, comes back, leaves). ``rng`` decides which of several seats that may act at
    once moves first (durak, D3): the same seeds give the same game (T10). ``on_events``
    receives the events of every table call the driver makes (the server's table emits
    them itself); ``actions`` counts the game actions; ``refused`` the policies' actions
    refused (by the table, or a stand-in's that is not an honest option). ``started``: the
    events that started the table's game, when it has started already (the seats'
    events begin with them)."""

    __slots__ = ("table", "policies", "rng", "on_events", "actions", "refused", "watch", "seats", "_log",
                 "public", "_listeners", "_local", "_calling", "_silent", "_fused", "_deaf",
                 "_picks", "plain")

    def __init__(
        self,
        table: DrivenTable,
        policies: Sequence[Policy | None],
        rng: Rng,
        on_events: Callable[[list[Event]], None] | None = None,
        *,
        watch: bool = True,
        started: Sequence[Event] = (),
    ) -> None:
        self.table = table
        self.policies = policies
        self.rng = rng
        self.on_events = on_events
        self.watch = watch
        self.actions = 0
        self.refused = 0
        rules = table.options
        self._log: list[Event] = []  # the game's events, shared by every seat's knowledge
        self.public = Knowledge(None, rules, self._log)  # what every seat sees (spectator events)
        # (a rule broken out of sight, Rule.hidden: each seat judges by what it knows itself)
        shared = None if spec(rules["game"]).hidden_rules else self.public
        self.seats = [TableSeat(table, s, rules, Knowledge(s, rules, self._log), shared)
                      for s in range(rules["players"])]
        # The seats whose policies listen to events (``observe``): fixed for a list of
        # policies, looked up at every batch when the seats may change hands (the server).
        self._listeners = self._listening() if isinstance(policies, (list, tuple)) else None
        self._calling: tuple[Any, int] | None = None  # (window, seat): a call decided, not yet made
        # A fixed list of policies, none of which ever calls: every window is passed at
        # once, nobody asked.
        self._silent = (self._listeners is not None
                        and not any(p is None or p.may_call() for p in policies))
        # ... and the table takes an action and its window's passes in one call.
        # (asked of the class: a wrapper that hands unknown names on to a Table does not take it)
        self._fused = self._silent and getattr(type(table), "TAKES_PASSED", False)
        self._deaf = watch and self._listeners == []  # the events only go to the log (and on_events)
        # Seats whose policy picks a uniform honest option (Policy.uniform_pick; not a stand-in,
        # whose choice the table is told of as ``auto``): the driver picks for it.
        picks = ([None if p is None or p.auto is not None else p.uniform_pick() for p in policies]
                 if self._listeners is not None else [])
        self._picks = picks if any(p is not None for p in picks) else None
        #: Every seat's policy picks a uniform honest option and never calls, nothing listens:
        #: no policy builds anything during the game (play_game pauses the cyclic collector).
        self.plain = self._silent and self._deaf and all(p is not None for p in picks)
        if table.game is not None:
            self._restart(list(started))

    def observation(self, seat: int) -> Observation:
        """The seat's observation now (its honest options computed afresh)."""
        obs = self.seats[seat]
        obs.fresh()
        return obs

    def _listening(self) -> list[int]:
        listening = getattr(self.policies, "listening", None)  # (the server's seats say it at less cost)
        if listening is not None:
            return listening()
        listens = Policy.observe
        return [s for s, p in enumerate(self.policies) if p is not None and type(p).observe is not listens]

    def feed(self, events: list[Event]) -> None:
        """Events of the game, in order, as the table returned them (in full: each seat's
        knowledge projects them for itself)."""
        if not events:
            return
        if events[0]["type"] == "game_start":
            self._restart(events)
        else:
            self._log.extend(events)
        listeners = self._listeners if self._listeners is not None else self._listening()
        for seat in listeners:
            policy, obs = self.policies[seat], self.seats[seat]
            for e in events:
                policy.observe(obs, project(e, seat))

    def _restart(self, events: list[Event]) -> None:
        """A game starts: each seat's knowledge (and the public one) starts from its view
        of the deal, made only if a policy asks (from a copy of the table as it is now:
        the state moves on)."""
        self._log[:] = events
        self._calling = None
        start = self.table.to_data()
        copy: list[Table] = []

        def view_of(seat: int | None) -> dict:
            if not copy:
                copy.append(Table.from_data(start))
            return copy[0].view(seat)

        for knowledge in (self.public, *(src.knowledge for src in self.seats)):
            knowledge.reset(lambda seat=knowledge.seat: view_of(seat))

    def _made(self, events: list[Event]) -> None:
        if self.watch:
            if self._listeners == [] and events and events[0]["type"] != "game_start":
                self._log.extend(events)  # (all that feed does when no policy listens, inline: the hot path)
            else:
                self.feed(events)
        if self.on_events is not None:
            self.on_events(events)

    def decide(self, seat: int, policy: Policy | None = None, *, honest: bool = False) -> Action | None:
        """The game action ``policy`` (default: the seat's) chooses for ``seat`` now, in
        engine form; ``None`` when it waits or returns something malformed, or, with
        ``honest`` (a stand-in's choice, T9), anything but one of the seat's honest options."""
        policy = policy if policy is not None else self.policies[seat]
        obs = self.observation(seat)
        data = policy.act(obs)
        if data is None:
            return None
        parse = self.table.game.parse_action
        if honest:
            return obs.honest.option(data, parse)
        try:
            return parse(data)
        except ActionError:
            return None

    def play(self, now: float = 0.0, budget: float = math.inf) -> int:
        """Policies play at ``now``, one table call at a time, each for the first seat
        whose policy decides something: while a call window is open, answers (in the
        window's order); while the court sits, votes or abstentions (voters in seat
        order); else a game action, the seats that may act asked in a fair rotation.
        Stops when no policy acts (persons and clocks are awaited, or the game is over)
        or after ``budget`` calls (the server's cycle budget); returns the number of
        calls made. The passes of a window's policies up to the first call are made in
        one call (:meth:`Table.passes`)."""
        table = self.table
        policies = self.policies
        seats = self.seats
        fused, deaf, picks = self._fused, self._deaf, self._picks
        calls = 0
        while calls < budget:
            window = table.window
            if window is not None:  # (a window and the court never sit at once)
                made = self._answer(window, now, budget - calls)
                if not made:
                    return calls
                calls += made
                continue
            court = table.court
            if court is not None:
                called = calls
                for seat in table.waiting_votes():
                    policy = policies[seat]
                    if policy is not None:
                        guilty = policy.vote(self.observation(seat))
                        if guilty is None:
                            events = table.abstain(seat, now)
                        else:
                            events = table.vote(seat, bool(guilty), now)
                        calls += 1
                        self._made(events)
                        if table.court is not court or calls >= budget:
                            break
                if calls == called:
                    return calls
                continue
            to_act = table.to_act()  # (none once the game is over)
            if len(to_act) > 1:  # several may act at once: a fair order
                k = self.rng.below(len(to_act))
                to_act = to_act[k:] + to_act[:k]
            for seat in to_act:
                policy = policies[seat]
                if policy is None:
                    continue
                pick = picks[seat] if picks is not None else None
                if pick is not None:  # a uniform honest pick: the same choice, no observation, no wire forms
                    game = table.game
                    if game.may_wait(seat):
                        continue
                    options = game.honest_actions(seat)
                    if not options:
                        continue
                    action = options[pick(len(options))]
                    try:
                        events = table.act(seat, action, now, honest=True, passed=True) if fused else \
                            table.act(seat, action, now, honest=True)
                    except ActionError as e:
                        self.refused += 1
                        log.debug("seat %s: the table refused its policy's action %r: %s", seat, action, e)
                        continue
                    if action[0] == "give":
                        seats[seat].knowledge.sent(game.action_data(action))
                    self.actions += 1
                    calls += 1
                    if deaf:
                        self._log.extend(events)
                        if self.on_events is not None:
                            self.on_events(events)
                    else:
                        self._made(events)
                    break
                obs = seats[seat]
                obs._honest, obs._on_turn = None, True  # (fresh(True), inline: the hot path)
                data = policy.act(obs)
                if data is None:
                    continue
                try:
                    if policy.auto is not None:  # a stand-in (T9): one of the honest options, or nothing
                        action = obs.honest.option(data, table.game.parse_action)
                        if action is None:
                            self.refused += 1
                            log.warning("seat %s: its stand-in (%s) chose %r, not an honest option: refused",
                                        seat, policy.auto, data)
                            continue
                        events = table.act(seat, action, now, auto=policy.auto, honest=True)
                    else:
                        honest = obs._honest
                        action = None
                        if honest is not None:
                            i = honest._last  # (engine(), inline for the option handed out last)
                            w = honest._wire[i] if honest._wire else None
                            if w is data:
                                action = honest._actions[i] if w == honest._shown[i] else None
                            else:
                                action = honest.engine(data)
                        if fused:  # nobody calls: the window is passed in the same call
                            if action is not None:
                                events = table.act(seat, action, now, honest=True, passed=True)
                            else:
                                events = table.act(seat, table.game.parse_action(data), now, passed=True)
                        elif action is not None:  # an honest option, unchanged: no second check
                            events = table.act(seat, action, now, honest=True)
                        else:
                            events = table.act(seat, table.game.parse_action(data), now)
                except ActionError as e:
                    self.refused += 1
                    log.debug("seat %s: the table refused its policy's action %r: %s", seat, data, e)
                    continue
                if data["type"] == "give":
                    obs.knowledge.sent(data)
                self.actions += 1
                calls += 1
                if deaf:  # (_made, inline: no policy listens, a game action starts no game)
                    self._log.extend(events)
                    if self.on_events is not None:
                        self.on_events(events)
                else:
                    self._made(events)
                break
            else:
                return calls
        return calls

    def _answer(self, window: Any, now: float, budget: float) -> int:
        """The policies' answers to the open window, in its order, up to ``budget`` table
        calls; returns the calls made. Each policy is asked once: a call decided when the
        budget ran out is made at the next :meth:`play`."""
        table, policies, seats = self.table, self.policies, self.seats
        if self._silent:  # nobody would call: everyone passes at once
            self._made(table.passes(table.waiting_answers(), now))
            return 1
        calls = 0
        passed: list[int] = []
        caller = None
        if self._calling is not None and self._calling[0] is window:
            caller = self._calling[1]
        else:
            for seat in table.waiting_answers():
                policy = policies[seat]
                if policy is None:
                    continue
                obs = seats[seat]
                obs._honest, obs._on_turn = None, False  # (fresh(), inline: the hot path)
                call = policy.call(obs)
                if call:
                    caller = seat
                    break
                else:
                    passed.append(seat)
        self._calling = None
        if passed:
            self._made(table.passes(passed, now))
            calls += 1
            if caller is not None and calls >= budget:
                self._calling = (window, caller)
                return calls
        if caller is not None:
            self._made(table.answer(caller, True, now))
            calls += 1
        return calls
