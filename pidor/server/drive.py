"""What moves a table besides requests: clocks, bots, stand-ins and prompts.

A part of the table's task (:mod:`.state`), :class:`Drive`:

* ``tick``: the table's own clocks (T3 call window, T4 vote, D5 «бито», P14 trick
  display) and the turn clocks of human seats (T9). An expired turn is played by the
  seat's stand-in, an honest random bot, after a ``timeout`` event.
* ``drive``: the one bot driver (:class:`pidor.driver.Driver`) plays every seat that has
  a policy: bot seats act, answer every call window and vote at once (T3); an away seat's
  :class:`AwayStandIn` passes its windows, abstains in the court (T4: the court does not
  wait for its vote deadline) and says «бито» at once; its obliged actions are left to
  the turn clock, ``AWAY_TURN`` seconds after each is due (T9), so the game keeps a human
  pace. A connected player's seat has no policy: the driver awaits him, except in a call
  window when his hello said ``may_call: false`` (:data:`PASSER`: he passes at once).
  A bot seat no clock watches is played here only: when its policy gives no action it
  owes, ``drive`` is where the table finds out.
* Every table call goes through the game's recorder (``state.rec``), via the runner's
  ``call`` (:class:`ServerTable` for the driver's calls): an action played for a human
  seat by its stand-in, or by the bot that replaced a player who left
  (:class:`Replacement`), is logged with ``auto`` (``timeout``: his turn clock ran out;
  ``absent``: away or gone).
* ``prompt``: a ``turn`` message (the seat's honest options and its clock) to every
  human who may act, again whenever something happened since; a tutorial ``hint`` (T11).

The table's owner may look at the clocks first and shorten the turn clocks
(:meth:`~pidor.server.hooks.TableHooks.tick`, :meth:`~pidor.server.hooks.TableHooks.prompted`).
"""

from __future__ import annotations

import logging

from ..bots import Policy, RandomBot
from ..driver import Driver
from ..engine.game import Action, ActionError, Event
from ..engine.seeds import Rng
from ..games import spec
from .hooks import TableHooks
from .state import Runner, TableState

__all__ = ["Drive", "SeatPolicies", "ServerTable", "AwayStandIn", "Passer", "PASSER", "Replacement",
           "CYCLE_BUDGET", "AWAY_TURN", "ABANDON_AFTER"]

#: Table calls made by bots and stand-ins in one cycle before the table task yields.
CYCLE_BUDGET = 200
#: Seconds an away seat's stand-in waits before each obliged action (T9): the game goes
#: on at a human pace, so a player who drops for a moment comes back to it.
AWAY_TURN = 2.0
#: Seconds a game goes on at the away pace once every person at it is away; then it is
#: aborted (log footer ``aborted: abandoned``) and the table closes, so a table nobody
#: comes back to does not hold a log file, memory and a lobby slot for the rest of a game.
ABANDON_AFTER = 60.0

log = logging.getLogger(__name__)


class AwayStandIn(Policy):
    """The policy of an away player's seat (T9): it never calls, abstains in the court
    (T4), makes the game's idle action when it is honest (``GameSpec.idle``: durak's «бито»;
    the game never waits on a seat for it: silence would count as «бито» anyway, D5) and
    leaves every obliged action to his turn clock (``AWAY_TURN``)."""

    name = "away"
    auto = "absent"

    def act(self, obs) -> dict | None:
        idle = spec(obs.game).idle
        return idle if idle is not None and idle in obs.honest else None


class Passer(Policy):
    """A connected player who said he never calls (hello ``may_call: false``), in a call
    window he owes: he passes (T3), at once, in the table call that opened it, so the
    window closes without a round trip. Asked nothing else."""

    name = "passer"


#: The one :class:`Passer` (it holds no state: its seat is never read).
PASSER = Passer(0)


class Replacement(Policy):
    """The honest bot that replaced a player who left during the game (T9): it plays for
    him, so its actions are logged ``auto="absent"``."""

    name = "replacement"
    auto = "absent"

    def __init__(self, bot: Policy) -> None:
        super().__init__(bot.seat, bot.seed)
        self.bot = bot

    def act(self, obs) -> dict | None:
        return self.bot.act(obs)

    def call(self, obs) -> bool:
        return self.bot.call(obs)

    def vote(self, obs) -> bool | None:
        return self.bot.vote(obs)


class SeatPolicies:
    """Who decides for each seat, as the seats are now (the driver reads it at every
    step): a bot seat's bot; for an away player, his stand-in; a connected player decides
    himself (``None``: the driver awaits him), but while a call window is open one who
    never calls is :data:`PASSER`."""

    __slots__ = ("_seats", "_state")

    def __init__(self, state: TableState) -> None:
        self._seats = state.seats
        self._state = state

    def __len__(self) -> int:
        return len(self._seats)

    def __getitem__(self, index: int) -> Policy | None:
        seat = self._seats[index]
        if seat.kind == "bot":
            return Replacement(seat.bot) if seat.replaced else seat.bot
        if seat.kind == "human":
            conn = seat.conn
            if conn is None:
                return AwayStandIn(seat.index)
            if not conn.may_call and self._state.table.window is not None:
                return PASSER
        return None

    def listening(self) -> list[int]:
        """The seats whose policy listens to events (:meth:`Policy.observe`), without making
        each seat's policy (the driver asks at every batch of events): bot seats only, a
        stand-in, a replacement and the passer do not listen."""
        listens = Policy.observe
        return [s.index for s in self._seats
                if s.kind == "bot" and s.bot is not None and not s.replaced and type(s.bot).observe is not listens]


class ServerTable:
    """The game's table as the server's driver and its policies see it: the driver's
    table surface (:class:`pidor.driver.DrivenTable`). Reads go to the table; every call
    goes through the runner's ``call`` to the game's recorder (logged, its events sent
    out). An action played for an away player is announced first (``timeout``, reason
    ``away``)."""

    __slots__ = ("_state", "_out", "_rec", "_table")

    def __init__(self, state: TableState, out: Runner) -> None:
        self._state = state
        self._out = out
        self._rec = state.rec
        self._table = state.table

    window = property(lambda self: self._table.window)
    court = property(lambda self: self._table.court)
    game = property(lambda self: self._table.game)
    honest_only = property(lambda self: self._table.honest_only)
    mark = property(lambda self: self._table.mark)
    options = property(lambda self: self._table.options)

    def to_act(self) -> list[int]:
        return self._table.to_act()

    def waiting_answers(self) -> list[int]:
        return self._table.waiting_answers()

    def waiting_votes(self) -> list[int]:
        return self._table.waiting_votes()

    def honest_actions(self, seat: int) -> list[Action]:
        return self._table.honest_actions(seat)

    def actions(self, seat: int) -> list[Action]:
        return self._table.actions(seat)

    def view(self, seat: int | None) -> dict:
        return self._table.view(seat)

    def to_data(self) -> dict:
        return self._table.to_data()

    def act(self, seat: int, action: Action, now: float, auto: str | None = None, honest: bool = False) -> list[Event]:
        if self._state.seats[seat].away:
            self._out.server_event({"type": "timeout", "seat": seat, "reason": "away"})
        return self._out.call(self._rec.act, seat, action, now, auto=auto, honest=honest)

    def answer(self, seat: int, call: bool, now: float) -> list[Event]:
        return self._out.call(self._rec.answer, seat, call, now)

    def passes(self, seats: list[int], now: float) -> list[Event]:
        return self._out.call(self._rec.passes, seats, now)

    def vote(self, seat: int, guilty: bool, now: float) -> list[Event]:
        return self._out.call(self._rec.vote, seat, guilty, now)

    def abstain(self, seat: int, now: float) -> list[Event]:
        return self._out.call(self._rec.abstain, seat, now)


class Drive:
    """The clocks, bots and prompts of one table: ``state`` is the table's, ``out`` its
    task, ``hooks`` its owner's; ``rng`` decides who of several seats acts first."""

    def __init__(self, state: TableState, out: Runner, hooks: TableHooks, rng: Rng) -> None:
        self.state = state
        self.out = out
        self.hooks = hooks
        self.rng = rng
        self._standins: dict[int, RandomBot] = {}  # the turn clock's honest stand-ins, per seat
        self._standin_seed = b""
        self._abandoned_at: float | None = None  # every person at a running game is away since

    def new_game(self, standin_seed: bytes) -> Driver:
        """The driver of a game that starts (``state.rec`` is its recorder); the stand-ins
        of its turn clocks play from ``standin_seed``."""
        self._standins = {}
        self._standin_seed = standin_seed
        return Driver(ServerTable(self.state, self.out), SeatPolicies(self.state), self.rng, watch=False)

    def next_deadline(self) -> float | None:
        """When a clock of the running game runs out next (a turn, the abandoned game's,
        the table's own)."""
        t = self.state.table
        if t is None or t.over:
            return None
        first = t.deadline()
        for s in self.state.seats:
            d = s.turn_deadline
            if d is not None and (first is None or d < first):
                first = d
        if self._abandoned_at is not None:
            d = self._abandoned_at + ABANDON_AFTER
            if first is None or d < first:
                first = d
        return first

    def stuck(self) -> str | None:
        """Why the running game can never go on, if it cannot (issue 22 §2): every seat that
        may act is a bot's, their policies gave no action, and no clock runs (a bot seat has
        no turn clock). Asked once the driver has stopped with nothing done; ``None`` while
        a person, a clock or a bot may still move the table."""
        st = self.state
        t = st.table
        if t is None or t.over or st.closed or t.window is not None or t.court is not None:
            return None
        seats = t.to_act()
        if not seats:
            return None
        for s in seats:
            if st.seats[s].kind != "bot":
                return None  # a person is awaited (he may take his time: no turn clock is his choice)
        if self.next_deadline() is not None:
            return None
        bots = ", ".join(f"{s} (builtin:{(st.seats[s].spec or {}).get('policy', '?')})" for s in seats)
        return f"stuck: seats {bots} have no action to make and no clock runs"

    def halt_if_stuck(self) -> None:
        """A game nothing can move on is ended (issue 22 §2): the table closes with reason
        ``stuck``, its log ends as aborted with the seats named, and the server's log says
        so. Asked when the driver stopped with nothing more to do."""
        reason = self.stuck()
        if reason is not None:
            st = self.state
            log.error("table %s: %s; the game is aborted", st.id, reason)
            st.closed, st.close_reason, st.close_detail = True, "stuck", reason

    def _obliged(self) -> set[int]:
        """Seats the game waits on (their turn clock runs, T9): none while a call window is
        open or the court sits, else what the game says (durak: the defender, D3/D5)."""
        t = self.state.table
        return set(t.game.obliged()) if t.to_act() else set()

    def _stand_in_action(self, seat: int) -> Action | None:
        """The honest bot's action for a human seat whose turn clock ran out (T9): one of
        his honest options (the game gives every seat it waits on one)."""
        bot = self._standins.get(seat)
        if bot is None:
            bot = self._standins[seat] = RandomBot(seat, self._standin_seed)  # honest: cheat=0
        return self.state.driver.decide(seat, bot, honest=True)

    def watch_presence(self, now: float) -> None:
        """Note when every person at a running game went away (``ABANDON_AFTER``)."""
        st = self.state
        if st.playing:  # (every cycle: a loop, not two generators)
            humans = False
            for s in st.seats:
                if s.kind == "human":
                    if s.conn is not None:
                        break
                    humans = True
            else:
                if humans:  # every person is away
                    if self._abandoned_at is None:
                        self._abandoned_at = now
                    return
        self._abandoned_at = None

    def tick(self, now: float) -> None:
        st = self.state
        t = st.table
        if t is None or t.over:
            return
        self.hooks.tick(self.out, now)
        if self._abandoned_at is not None and now >= self._abandoned_at + ABANDON_AFTER:
            log.info("table %s: every person has been away for %g s; the game is aborted", st.id, ABANDON_AFTER)
            st.closed, st.close_reason = True, "abandoned"
            return
        d = t.deadline()
        if d is not None and now >= d:
            self.out.call(st.rec.tick, now)
        for seat in st.seats:
            if seat.turn_deadline is None or now < seat.turn_deadline or t.over:
                continue
            seat.turn_deadline = None
            if seat.kind != "human" or seat.index not in t.to_act():
                continue
            action = self._stand_in_action(seat.index)
            if action is not None:
                reason = "away" if seat.conn is None else "turn"
                self.out.server_event({"type": "timeout", "seat": seat.index, "reason": reason})
                auto = "absent" if seat.conn is None else "timeout"  # the log marks it (T9)
                try:
                    self.out.call(st.rec.act, seat.index, action, now, auto=auto, honest=True)
                except ActionError as e:
                    log.warning("table %s: the stand-in of seat %s cannot act (%s)", st.id, seat.index, e)

    def drive(self, now: float) -> bool:
        """Bots and stand-ins until only humans are awaited; ``True`` if the cycle budget
        ran out with more to do."""
        driver = self.state.driver
        if driver is None or self.state.closed:  # (closed by tick, e.g. abandoned)
            return False
        return driver.play(now, CYCLE_BUDGET) == CYCLE_BUDGET

    def prompt(self, now: float) -> None:
        """Prompt each person whose turn it is, then the owner's turn clocks."""
        if self.state.table is not None:
            self._prompt_turns(now)
        self.hooks.prompted(self.out, now)

    def _prompt_turns(self, now: float) -> None:
        st = self.state
        t = st.table
        seats = set(t.to_act()) if not t.over else set()
        obliged = self._obliged() if seats else set()
        clock = st.options["turn_timeout"]
        for seat in st.seats:
            if seat.kind != "human":
                continue
            if seat.index not in seats:
                seat.turn_seq = seat.turn_deadline = None
                continue
            if seat.turn_seq == st.seq:
                continue
            seat.turn_seq = st.seq
            i = seat.index
            if seat.conn is None:
                seat.turn_deadline = now + AWAY_TURN if i in obliged else None
                continue
            seat.turn_deadline = now + clock if (clock is not None and i in obliged) else None
            game = t.game
            honest = game.honest_actions(i)
            if seat.offers and seat.offers[0][0] < st.choice_seq:
                seat.offers = [o for o in seat.offers if o[0] >= st.choice_seq]
            seat.offers.append((st.seq, honest))
            turn = {
                "type": "turn", "table": st.id, "seq": st.seq, "seat": i,
                "options": [game.action_form(a) for a in honest],  # (encoded at once, never changed)
                "deadline": None if seat.turn_deadline is None else float(clock),
            }
            if t.timer is not None and t.timer.deadline is not None:  # a game clock runs (durak's «бито», D5)
                turn["clock"] = {"name": t.timer.name, "left": round(max(0.0, t.timer.deadline - now), 3)}
            self.out.send(seat.conn, turn, i)
            hint = t.hints(i)
            if hint is not None:
                self.out.send(seat.conn, {"type": "hint", "table": st.id, "seq": st.seq, "seat": i,
                                          "rule": hint["rule"], "options": hint["options"]}, i)
