"""The table layer every game shares (T2–T8, T11): call window, court, mark, undo, hints.

Sans-IO: time enters only as the ``now`` argument (seconds, any origin) and
:meth:`Table.deadline` says when the caller should next call :meth:`Table.tick`.
An in-process match may pass ``now=0`` throughout: bots answer every window at once,
so a table of bots never waits on a clock (T3).

One step of a game::

    events = table.act(seat, action, now)      # the game action; a call window opens (T3)
    for s in table.waiting_answers():          # every other player in the game answers
        events += table.answer(s, call=False, now=now)
    # a call on a violating action opens the court (T4): table.vote(...) until the verdict

Table events (besides the game's own) are public:
``window`` (a call window opened), ``window_closed`` (everyone passed or its time ran
out), ``call``, ``court``, ``vote``, ``abstain``, ``verdict``, ``undo``, ``mark`` and
``game_start``. Errors are :class:`ActionError` subclasses; a refused request
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import GAME_IDS, game_class, rule_texts
from .game import Action, ActionError, Event, Game, ImpossibleAction, shown
from .options import Option, check_options

__all__ = ["Table", "Window", "Court", "Timer", "NotNow", "HonestReplayRequired", "TABLE_OPTIONS", "TABLE_DEFAULTS",
           "table_options", "known_options"]


class NotNow(ActionError):
    """The request is well formed but the table is not in a state to take it."""

    code = "not_now"


class HonestReplayRequired(ActionError):
    """T6/D11: after a guilty verdict the accused's next action must be honest."""

    code = "must_play_honestly"


#: Options every table has, whatever the game (clocks in seconds; ``None`` = no clock).
TABLE_OPTIONS: tuple[Option, ...] = (
    Option("call_window", 2.0, "seconds", {"en": "T3: how long the table waits for «пидор!» after an action",
                                           "ru": "T3: сколько стол ждёт крика «пидор!» после хода"}),
    Option("vote_timeout", 30.0, "seconds", {"en": "T4: how long a court waits for the votes",
                                             "ru": "T4: сколько суд ждёт голосов"}),
    Option("turn_timeout", None, "seconds", {"en": "T9: the turn clock of a person (the server's: 60 s)",
                                             "ru": "T9: время на ход человека (на сервере 60 с)"}),
    Option("tutorial", True, "bool", {"en": "T11: hints for a newcomer at a table of bots",
                                      "ru": "T11: подсказки новичку за столом с ботами"}),
)
#: ``{name: default}`` of every table's options, with the default game.
TABLE_DEFAULTS: dict[str, Any] = {"game": "pidor", **{o.name: o.default for o in TABLE_OPTIONS}}


def table_options(options: dict | None) -> dict:
    """Complete and validate a table's options: the table's own (:data:`TABLE_OPTIONS`), its
    game's (``Game.OPTIONS``) and its game's clocks (``Game.CLOCKS``). Each value's exact
    type and range is checked before anything uses it; ``ValueError`` says what is wrong in
    words fit for the wire."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a map, not {shown(options)}")
    name = options.get("game", TABLE_DEFAULTS["game"])
    if type(name) is not str or name not in GAME_IDS:
        raise ValueError(f"game must be one of {', '.join(GAME_IDS)}, not {shown(name)}")
    cls = game_class(name)
    game_opts = cls.options({k: v for k, v in options.items() if k in cls.DEFAULTS})
    declared = TABLE_OPTIONS + cls.CLOCKS
    table = {k: v for k, v in options.items() if k not in cls.DEFAULTS and k != "game"}
    known = {o.name for o in declared}
    for key in table:
        if key not in known:
            raise ValueError(f"unknown table option {shown(key)} for {name}; known: "
                             f"{', '.join(sorted(known | set(cls.DEFAULTS) | {'game'}))}")
    return {"game": name, **check_options(table, declared, "a table"), **game_opts}


def known_options(options: dict, cls: type[Game]) -> dict:
    """``options`` without the keys a table of ``cls`` does not know (a log written when
    every table had every game's clocks: they never changed a game)."""
    known = {o.name for o in TABLE_OPTIONS + cls.CLOCKS} | set(cls.DEFAULTS) | {"game"}
    return {k: v for k, v in options.items() if k in known}


def _not_owing() -> ImpossibleAction:
    """An answer (``call``, ``pass``) from a seat the open window does not wait for (T3)."""
    return ImpossibleAction("you owe this window no answer: you have answered it already, or the action is your own, "
                            "or you are out of the game (T3)", rule="T3")


@dataclass(slots=True)
class Window:
    """The open call window on one callable action (T3): who still owes an answer."""

    seat: int  # who acted
    action: dict  # the action as its event shows it
    violations: list[str]  # the rule ids it broke (empty: honest, T5)
    owing: list[int]  # seats still to answer ``call``/``pass``, in seat order
    deadline: float | None  # ``None``: no clock
    snapshot: Any  # ``game.snapshot()`` from before the action; ``None`` when honest (never undone)
    mark_before: int | None  # the mark before the action (an undo restores it)

    def to_data(self) -> dict:
        return {"seat": self.seat, "action": self.action, "violations": self.violations,
                "owing": sorted(self.owing), "deadline": self.deadline, "snapshot": self.snapshot,
                "mark_before": self.mark_before}

    @classmethod
    def from_data(cls, data: dict) -> "Window":
        return cls(data["seat"], data["action"], data["violations"], list(data["owing"]), data["deadline"],
                   data["snapshot"], data["mark_before"])


@dataclass(slots=True)
class Court:
    """The court sitting on a called action that broke a rule (T4)."""

    caller: int  # a fixed «пидор» vote
    accused: int
    action: dict
    violations: list[str]
    votes: dict[int, bool]  # seat -> guilty, as cast
    owing: set[int]  # voters still to vote
    deadline: float | None
    snapshot: Any  # the window's: undone to on a guilty verdict or a tie (T6)
    mark_before: int | None

    def to_data(self) -> dict:
        return {"caller": self.caller, "accused": self.accused, "action": self.action,
                "violations": self.violations, "votes": [[s, v] for s, v in sorted(self.votes.items())],
                "owing": sorted(self.owing), "deadline": self.deadline, "snapshot": self.snapshot,
                "mark_before": self.mark_before}

    @classmethod
    def from_data(cls, data: dict) -> "Court":
        return cls(data["caller"], data["accused"], data["action"], data["violations"],
                   {s: v for s, v in data["votes"]}, set(data["owing"]), data["deadline"],
                   data["snapshot"], data["mark_before"])


@dataclass(slots=True)
class Timer:
    """A game clock the table runs (``Game.timer()``): restarted whenever ``token`` changes."""

    name: str  # the option that gives its length, e.g. ``bito_timeout``
    token: int
    deadline: float | None  # ``None``: the option is off, the clock never runs out

    def to_data(self) -> list:
        return [self.name, self.token, self.deadline]

    @classmethod
    def from_data(cls, data: list) -> "Timer":
        name, token, deadline = data
        return cls(name, token, deadline)


class Table:
    """One table: a sequence of games of one kind with the same seats and one mark."""

    def __init__(self, options: dict | None = None, seats: list[dict] | None = None) -> None:
        self.options = table_options(options)
        self.game_cls = game_class(self.options["game"])
        n = self.options["players"]
        #: Who sits where: ``{"kind": "bot" | "human"}`` per seat (T11 needs it).
        self.seats = [dict(s) for s in seats] if seats else [{"kind": "bot"} for _ in range(n)]
        if len(self.seats) != n:
            raise ValueError(f"{len(self.seats)} seats given for a {n}-player table")
        self.tutorial = [self.options["tutorial"] and s.get("kind") == "human" for s in self.seats]
        self.game: Game | None = None
        self.mark: int | None = None  # T7: one mark per table
        self.previous: dict | None = None  # the last game's result (P1, D2)
        self.games = 0
        self._reset_game_state()

    def _reset_game_state(self) -> None:
        self.window: Window | None = None  # the open call window (T3)
        self.court: Court | None = None  # the sitting court (T4)
        self.honest_only: set[int] = set()  # T6 / D11
        self.timer: Timer | None = None
        #: The game is over at this table: its result stands. A game's end has one word,
        #: "over", at every level: ``Game.over`` (the rules reached a result), ``Table.over``
        #: (that result can no longer be called and undone: no window is open, no court sits,
        #: the mark went to the loser, T7) and the table's ``state`` ``"over"``. Only the
        #: plain data of :meth:`to_data` keeps its ``"finished"`` key.
        self.over = False

    # ------------------------------------------------------------------ setup

    def start(
        self,
        *,
        seed: bytes | None = None,
        deck: list[int] | None = None,
        first: int | None = None,
        now: float = 0.0,
    ) -> list[Event]:
        """Deal the next game at this table (the first one, or the next after a result)."""
        if self.game is not None and not self.over:
            raise NotNow("a game is still being played at this table")
        game_opts = {k: self.options[k] for k in self.game_cls.DEFAULTS}
        self.game = self.game_cls.new(game_opts, seed=seed, deck=deck, first=first, previous=self.previous)
        self._reset_game_state()
        self.games += 1
        events: list[Event] = [{"type": "game_start", "game": self.game_cls.name, "number": self.games,
                                "players": self.game.players}]
        return events + self.game.opening() + self._settle(now)

    # ---------------------------------------------------------------- queries

    @property
    def state(self) -> str:
        """``idle`` (no game yet), ``play``, ``window``, ``court`` or ``over``."""
        if self.game is None:
            return "idle"
        if self.over:
            return "over"
        if self.court is not None:
            return "court"
        return "window" if self.window is not None else "play"

    def to_act(self) -> list[int]:
        """Seats that may take a game action now. While a window is open or the court
        sits this is empty (actions that do not open windows, like durak's «бито»,
        are still accepted during a window, T3)."""
        if self.game is None or self.over or self.window is not None or self.court is not None:
            return []
        return self.game.to_act()

    def honest_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        return self.game.honest_actions(seat)

    def actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        return self.game.actions(seat)

    def waiting_answers(self) -> list[int]:
        """Seats that still owe a ``call``/``pass`` answer to the open window."""
        return list(self.window.owing) if self.window is not None else []

    def waiting_votes(self) -> list[int]:
        return sorted(self.court.owing) if self.court is not None else []

    def deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (``None``: nothing on a clock)."""
        if self.court is not None:
            return self.court.deadline
        if self.window is not None:
            return self.window.deadline
        if self.timer is not None:
            return self.timer.deadline
        return None

    def view(self, seat: int | None) -> dict:
        """The game's view for ``seat`` plus the table's public state under ``status``."""
        out = self.game.view(seat) if self.game is not None else {}
        out["status"] = {
            "state": self.state,
            "mark": self.mark,
            "game": self.options["game"],
            "number": self.games,
            "window": None if self.window is None else {
                "seat": self.window.seat, "owing": self.waiting_answers(), "deadline": self.window.deadline},
            "court": None if self.court is None else self._court_public(),
            "honest_only": sorted(self.honest_only),
        }
        return out

    def hints(self, seat: int) -> dict | None:
        """T11: the rule in force and the honest options, for a newcomer with the tutorial on,
        on his turn, when every other seat is a bot."""
        if not self.tutorial[seat] or seat not in self.to_act():
            return None
        if any(s.get("kind") != "bot" for i, s in enumerate(self.seats) if i != seat):
            return None
        game = self.game
        return {
            "type": "hint",
            "seat": seat,
            "rule": rule_texts(game.rule_in_force(seat)),
            "options": [game.action_data(a) for a in game.honest_actions(seat)],
        }

    def tutorial_off(self, seat: int) -> None:
        """T11: one message at the table switches hints off (on again only from the lobby)."""
        self.tutorial[seat] = False

    # ------------------------------------------------------------------ acts

    #: :meth:`act` takes ``passed`` (the driver's table of bots that never call uses it).
    TAKES_PASSED = True

    def act(self, seat: int, action: Action, now: float = 0.0, *, honest: bool = False,
            parsed: bool = False, passed: bool = False) -> list[Event]:
        """A game action of ``seat`` (honest or not, T1). Opens a call window (T3).
        ``honest=True``: the caller took ``action`` as it is from :meth:`honest_actions`
        for this seat in this very state (the driver's policies do), so it is possible and
        breaks no rule: the check is not run again. ``parsed=True``: ``action`` is what
        ``game.parse_action`` returned, so it is well formed: only the seat, the state and
        the rules are checked (``Game.judge``). ``passed=True``: every seat the window waits
        for passes at once (bots that never call): ``passes(waiting_answers())`` in this call."""
        game = self.game
        if game is None or self.over:
            raise NotNow("no game has started at this table" if game is None else "the game is over")
        if self.court is not None:
            raise NotNow("the court is sitting: only votes are accepted (T4)")
        # The check raises, changing nothing, if the action is malformed or impossible.
        violations = () if honest else game.judge(seat, action) if parsed else game.check(seat, action)
        callable_ = game.is_callable(action)
        if self.window is not None and callable_:
            raise NotNow("wait: the call window of the last action is still open (T3)")
        if violations and seat in self.honest_only:
            raise HonestReplayRequired("after the verdict your next action must be honest (T6)", rule="T6r")
        # Only a violating action can reach the court and be undone (T5, T6), so only it
        # needs a snapshot: honest actions, the vast majority, skip the copy.
        snapshot = game.snapshot() if callable_ and violations and not passed else None
        mark_before = self.mark
        events = game.perform(seat, action, violations)
        honest_only = self.honest_only
        if honest_only:
            if seat in honest_only:  # T6: his action was honest; he is free again
                self._honest(events, honest_only - {seat})
            events += self._after_game_events(events)
        elif mark_before is not None:  # (with no mark and nobody bound to honest play, no reaction)
            events += self._after_game_events(events)
        if callable_:
            owing = game.in_game_seats()
            if seat in owing:
                owing.remove(seat)
            if owing:
                length = self.options["call_window"]
                for e in events:
                    if "_hold" in e:  # (the rest of _window_length, only when it has something to do)
                        length = self._window_length(events)
                        break
                deadline = None if length is None else now + length
                if passed:  # the window opens and everyone passes: it closes (T3; _close_window)
                    events.append({"type": "window", "seat": seat, "owing": owing, "deadline": deadline})
                    events.append({"type": "window_closed", "seat": seat})
                    events += self._settle(now)
                    return events
                self.window = Window(seat, events[0]["action"], list(violations), owing, deadline,
                                     snapshot, mark_before)
                events.append({"type": "window", "seat": seat, "owing": owing[:], "deadline": deadline})
                return events
        events += self._settle(now)
        return events

    def answer(self, seat: int, call: bool, now: float = 0.0) -> list[Event]:
        """``call`` («пидор!») or ``pass`` on the action in the open window (T2, T3)."""
        window = self.window or self._no_window()
        if seat not in window.owing:
            raise _not_owing()
        if not call:
            window.owing.remove(seat)
            if window.owing:
                return []
            return self._close_window(now)
        accused = window.seat
        events: list[Event] = [{"type": "call", "caller": seat, "accused": accused, "action": window.action}]
        if not window.violations:
            # T5: an honest action called: no court, the caller gets the mark at once.
            self.window = None
            events.append({"type": "verdict", "outcome": "honest", "caller": seat, "accused": accused})
            events += self._set_mark(seat, "false_call")
            return events + self._settle(now)
        self.window = None
        voters = {s for s in self.game.in_game_seats() if s not in (seat, accused)}
        timeout = self.options["vote_timeout"]
        self.court = Court(seat, accused, window.action, window.violations, {}, voters,
                           None if timeout is None else now + timeout, window.snapshot, window.mark_before)
        events.append({"type": "court", **self._court_public()})
        if not voters:
            events += self._verdict(now)
        return events

    def passes(self, seats: list[int], now: float = 0.0) -> list[Event]:
        """``answer(seat, False, now)`` for each of ``seats`` in order, in one call (bots
        that pass together): the same events and the same state. Refused as a whole,
        changing nothing, when one of them could not pass (T3)."""
        window = self.window or self._no_window()
        owing = window.owing
        if seats == owing:  # everyone passes (bots at once): the window closes
            return self._close_window(now)
        if not all(s in owing for s in seats) or len(set(seats)) != len(seats):
            raise _not_owing()
        if len(seats) == len(owing):
            return self._close_window(now)
        for seat in seats:
            owing.remove(seat)
        return []

    def vote(self, seat: int, guilty: bool, now: float = 0.0) -> list[Event]:
        """«пидор» (``guilty=True``) or «чист» in the sitting court (T4)."""
        court = self.court
        if court is None:
            raise NotNow("no court is sitting")
        if seat not in court.owing:
            raise ImpossibleAction("you have already voted, or you do not vote in this court (T4)")
        court.owing.discard(seat)
        court.votes[seat] = bool(guilty)
        events: list[Event] = [{"type": "vote", "seat": seat, "guilty": bool(guilty)}]
        if not court.owing:
            events += self._verdict(now)
        return events

    def abstain(self, seat: int, now: float = 0.0) -> list[Event]:
        """A voter who will not vote (gone from the table): T4 counts him as abstaining
        now instead of at the vote's deadline."""
        court = self.court
        if court is None or seat not in court.owing:
            raise NotNow("there is no vote owed by this seat")
        court.owing.discard(seat)
        events: list[Event] = [{"type": "abstain", "seat": seat}]
        if not court.owing:
            events += self._verdict(now)
        return events

    def tick(self, now: float) -> list[Event]:
        """Run whatever is due by ``now``: a window's end, a verdict, a game clock."""
        events: list[Event] = []
        if self.court is not None:
            if self.court.deadline is not None and now >= self.court.deadline:
                events += self._verdict(now)  # T4: a missing vote is an abstention
            return events
        if self.window is not None:
            if self.window.deadline is not None and now >= self.window.deadline:
                events += self._close_window(now)  # T3: silence counts as a pass
            return events
        if self.timer is not None and self.timer.deadline is not None and now >= self.timer.deadline:
            name = self.timer.name
            self.timer = None
            got = self.game.on_timer(name)
            events += got + self._after_game_events(got) + self._settle(now)
        return events

    # ------------------------------------------------------------- internals

    def _no_window(self) -> Window:
        raise NotNow("there is no action to call now" if self.court is None
                     else "the court is already sitting on this action (T2: one call per action)")

    def _window_length(self, events: list[Event]) -> float | None:
        """T3: every callable action gets at least the full ``call_window``; an event with
        ``_hold`` (P14: the closed trick stays visible) may keep the window open longer,
        never shorter (``None``: no clock). Engine pidor-1 (``hold_sets_window``, its logs):
        the hold alone, however short."""
        length = self.options["call_window"]
        for e in events:
            hold = e.get("_hold")
            if hold is not None:
                held = self.options[hold]
                if self.game.hold_sets_window:
                    length = held
                else:
                    length = None if length is None or held is None else max(length, held)
        return length

    def _close_window(self, now: float) -> list[Event]:
        """Every answer was a pass, or the window's time ran out (T3)."""
        seat, self.window = self.window.seat, None
        return [{"type": "window_closed", "seat": seat}, *self._settle(now)]

    def _court_public(self) -> dict:
        c = self.court
        return {
            "caller": c.caller,
            "accused": c.accused,
            "action": c.action,
            "rules": [rule_texts(v) for v in c.violations],
            "voters": sorted(set(c.votes) | c.owing),
            "deadline": c.deadline,
        }

    def _verdict(self, now: float) -> list[Event]:
        """T6: more «пидор» convicts, more «чист» acquits, a tie undoes and keeps the mark."""
        c, self.court = self.court, None
        guilty = 1 + sum(map(bool, c.votes.values()))  # the caller is a fixed «пидор»
        clean = len(c.votes) + 1 - guilty
        outcome = "guilty" if guilty > clean else "clean" if clean > guilty else "tie"
        events: list[Event] = [{"type": "verdict", "outcome": outcome, "caller": c.caller,
                                "accused": c.accused, "pidor": guilty, "clean": clean}]
        if outcome == "clean":
            events += self._set_mark(c.caller, "lost_vote")
        else:
            # Undo the action with all its automatic consequences (P6, T3).
            self.game.restore(c.snapshot)
            self.mark = c.mark_before
            events.append({"type": "undo", "seat": c.accused, "action": c.action})
            if outcome == "guilty":
                events += self._set_mark(c.accused, "convicted")
                self._honest(events, self.honest_only | {c.accused})
        return events + self._settle(now)

    def _set_mark(self, seat: int | None, reason: str) -> list[Event]:
        self.mark = seat
        events: list[Event] = [{"type": "mark", "seat": seat, "reason": reason}]
        if seat is not None and reason != "loser":
            got = self.game.on_mark(seat)
            events += got + self._after_game_events(got)
        return events

    def _after_game_events(self, events: list[Event]) -> list[Event]:
        """The table's reaction to game events: T7 (a leaver sheds the mark), D11 resets."""
        out: list[Event] = []
        for e in events:
            kind = e["type"]
            if kind == "out" and self.mark == e["seat"]:
                self.mark = None
                out.append({"type": "mark", "seat": None, "reason": "left"})
            elif self.honest_only and e.get("_reset_honest"):
                self._honest(out, set())  # D11: the honest replay ends with the bout
        return out

    def _honest(self, events: list[Event], seats: set[int]) -> None:
        """The seats that must play honestly (T6, D11) are now ``seats``: told in a public
        ``honest_only`` event (a client keeps ``status.honest_only`` from it; engines that
        wrote logs before it existed keep it to themselves: ``Game.HONEST_EVENTS``)."""
        self.honest_only = seats
        if self.game.HONEST_EVENTS:
            events.append({"type": "honest_only", "seats": sorted(seats)})

    def _settle(self, now: float) -> list[Event]:
        """With no window open and no court sitting: run the game's deferred consequences
        (T8), finish the game (T7: the mark goes to the loser) and restart game clocks."""
        if self.window is not None or self.court is not None or self.over:
            return []
        game = self.game
        events = game.advance()
        if events and (self.mark is not None or self.honest_only):  # (else no reaction: _after_game_events)
            events += self._after_game_events(events)
        if game.result is not None:
            self.over = True
            self.previous = game.result
            self.timer = None
            self.honest_only.clear()
            loser = game.result.get("loser")
            if loser is not None:
                events += self._set_mark(loser, "loser")
            return events
        t = game.timer() if game.TIMED else None
        if t is None:
            self.timer = None
        else:
            name, token = t
            if self.timer is None or self.timer.name != name or self.timer.token != token:
                seconds = self.options[name]
                self.timer = Timer(name, token, None if seconds is None else now + seconds)
        return events

    # ------------------------------------------------------------------ data

    def to_data(self) -> dict:
        """The table's whole state as plain data (the game's own ``to_data`` inside);
        :meth:`from_data` reads it back."""
        return {
            "options": dict(self.options),
            "seats": [dict(s) for s in self.seats],
            "tutorial": list(self.tutorial),
            "mark": self.mark,
            "previous": self.previous,
            "games": self.games,
            "game": None if self.game is None else self.game.to_data(),
            "window": None if self.window is None else self.window.to_data(),
            "court": None if self.court is None else self.court.to_data(),
            "honest_only": sorted(self.honest_only),
            "timer": None if self.timer is None else self.timer.to_data(),
            "finished": self.over,
        }

    @classmethod
    def from_data(cls, data: dict) -> "Table":
        t = cls(data["options"], data["seats"])
        t.tutorial = list(data["tutorial"])
        t.mark = data["mark"]
        t.previous = data["previous"]
        t.games = data["games"]
        t.game = None if data["game"] is None else t.game_cls.from_data(data["game"])
        if data["window"] is not None:
            t.window = Window.from_data(data["window"])
        if data["court"] is not None:
            t.court = Court.from_data(data["court"])
        t.honest_only = set(data["honest_only"])
        t.timer = None if data["timer"] is None else Timer.from_data(data["timer"])
        t.over = data["finished"]
        return t
