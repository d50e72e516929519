"""What moves a table besides requests: clocks, bots, stand-ins and prompts.

A mixin of :class:`pidor.server.runner.TableRunner`:

* ``_tick``: the table's own clocks (T3 call window, T4 vote, D5 «бито», P14 trick
  display) and the turn clocks of human seats (T9). An expired turn is played by the
  seat's stand-in, an honest random bot, after a ``timeout`` event.
* ``_drive``: bot seats act, answer every call window and vote at once (T3); an away
  seat passes its windows, abstains in the court (T4: the court does not wait for its
  vote deadline) and says «бито» at once; its stand-in plays each obliged
  action ``AWAY_TURN`` seconds after it is due (T9), so the game keeps a human pace.
* Every table call goes through the game's recorder (``self.rec``): an action played for
  a human seat by its stand-in, or by the bot that replaced a player who left, is logged
  with ``auto`` (``timeout``: his turn clock ran out; ``absent``: away or gone).
* ``_prompt``: a ``turn`` message (the seat's honest options and its clock) to every
  human who may act, again whenever something happened since; a tutorial ``hint`` (T11).
"""

from __future__ import annotations

import logging

from ..bots import RandomBot
from ..engine.game import ActionError

__all__ = ["Drive", "CYCLE_BUDGET", "AWAY_TURN", "ABANDON_AFTER"]

#: Table calls made by bots and stand-ins in one cycle before the table task yields.
CYCLE_BUDGET = 200
#: Seconds an away seat's stand-in waits before each obliged action (T9): the game goes
#: on at a human pace, so a player who drops for a moment comes back to it.
AWAY_TURN = 2.0
#: Seconds a game goes on at the away pace once every person at it is away; then it is
#: aborted (log footer ``aborted: abandoned``) and the table closes, so a table nobody
#: comes back to does not hold a log file, memory and a lobby slot for the rest of a game.
ABANDON_AFTER = 60.0

log = logging.getLogger("pidor.server.table")


class Drive:
    def _obliged(self) -> set[int]:
        """Seats the game waits on (their turn clock runs, T9): none while a call window is
        open or the court sits, else what the game says (durak: the defender, D3/D5)."""
        t = self.table
        return set(t.game.obliged()) if t.to_act() else set()

    def _stand_in(self, seat: int) -> RandomBot:
        bot = self._standins.get(seat)
        if bot is None:
            bot = self._standins[seat] = RandomBot(seat, self._standin_seed)  # honest: cheat=0
        return bot

    def _stand_in_action(self, seat: int, obliged: bool) -> tuple | None:
        """The honest bot's action for a human seat; a seat the game does not wait on only
        says «бито» (silence would count as «бито» anyway, D5)."""
        t = self.table
        if obliged:
            action = self._stand_in(seat).choose_action(t)
            if action is None:  # no honest way on: any possible action keeps the game going
                possible = t.game.actions(seat)
                action = possible[0] if possible else None
            return action
        return ("bito",) if ("bito",) in t.game.honest_actions(seat) else None

    def _watch_presence(self, now: float) -> None:
        """Note when every person at a running game went away (``ABANDON_AFTER``)."""
        humans = [s for s in self.seats if s.kind == "human"]
        if self.playing and humans and all(s.conn is None for s in humans):
            if self._abandoned_at is None:
                self._abandoned_at = now
        else:
            self._abandoned_at = None

    def _tick(self, now: float) -> None:
        t = self.table
        if t is None or t.over:
            return
        if self._abandoned_at is not None and now >= self._abandoned_at + ABANDON_AFTER:
            log.info("table %s: every person has been away for %g s; the game is aborted", self.id, ABANDON_AFTER)
            self.closed, self.close_reason = True, "abandoned"
            return
        d = t.deadline()
        if d is not None and now >= d:
            self._call(self.rec.tick, now)
        for seat in self.seats:
            if seat.turn_deadline is None or now < seat.turn_deadline or t.over:
                continue
            seat.turn_deadline = None
            if seat.kind != "human" or seat.index not in t.to_act():
                continue
            action = self._stand_in_action(seat.index, True)
            if action is not None:
                reason = "away" if seat.conn is None else "turn"
                self._server_event({"type": "timeout", "seat": seat.index, "reason": reason})
                # The log marks the stand-in's action (T9); it is honest unless the seat had
                # no honest action at all (then it is logged as the seat's own).
                auto = "absent" if seat.conn is None else "timeout"
                if action not in t.game.honest_actions(seat.index):
                    auto = None
                try:
                    self._call(self.rec.act, seat.index, action, now, auto=auto)
                except ActionError as e:
                    log.warning("table %s: the stand-in of seat %s cannot act (%s)", self.id, seat.index, e)

    def _drive(self, now: float) -> bool:
        """Bots and stand-ins until only humans are awaited; ``True`` if the cycle budget
        ran out with more to do."""
        for _ in range(CYCLE_BUDGET):
            t = self.table
            if t is None or t.over or self.closed:
                return False
            if t.court is not None:
                if not self._bot_votes(now):
                    return False
            elif t.window is not None:
                if not self._bot_answers(now):
                    return False
            elif not self._bot_acts(now):
                return False
        return True

    def _bot_votes(self, now: float) -> bool:
        t = self.table
        for s in t.waiting_votes():
            seat = self.seats[s]
            if seat.kind == "bot":
                self._call(self.rec.vote, s, seat.bot.vote(t), now)
                return True
            if seat.conn is None:  # away when the court opened, or since: abstains now (T4)
                self._call(self.rec.abstain, s, now)
                return True
        return False

    def _bot_answers(self, now: float) -> bool:
        t = self.table
        for s in t.waiting_answers():
            seat = self.seats[s]
            if seat.kind == "bot":
                call = seat.bot.answer(t)
            elif seat.conn is None:
                call = False  # an away seat never calls
            else:
                continue
            self._call(self.rec.answer, s, call, now)
            return True
        return False

    def _bot_acts(self, now: float) -> bool:
        t = self.table
        seats = t.to_act()
        if not seats:
            return False
        if len(seats) > 1:  # several may act at once (durak): a fair order
            k = self._rng.below(len(seats))
            seats = seats[k:] + seats[:k]
        obliged = None
        for s in seats:
            seat = self.seats[s]
            if seat.kind == "bot":
                action = seat.bot.choose_action(t)
                if action is not None:
                    # T9: a bot that took over from a player who left plays honestly for him.
                    self._call(self.rec.act, s, action, now, auto="absent" if seat.replaced else None)
                    return True
            elif seat.conn is None:  # away: «бито» at once; obliged actions wait for the clock
                if obliged is None:
                    obliged = self._obliged()
                action = None if s in obliged else self._stand_in_action(s, False)
                if action is not None:
                    self._server_event({"type": "timeout", "seat": s, "reason": "away"})
                    self._call(self.rec.act, s, action, now, auto="absent")
                    return True
        return False

    def _prompt(self, now: float) -> None:
        t = self.table
        if t is None:
            return
        seats = set(t.to_act()) if not t.over else set()
        obliged = self._obliged() if seats else set()
        clock = self.options["turn_timeout"]
        for seat in self.seats:
            if seat.kind != "human":
                continue
            if seat.index not in seats:
                seat.turn_seq = seat.turn_deadline = None
                continue
            if seat.turn_seq == self.seq:
                continue
            seat.turn_seq = self.seq
            i = seat.index
            if seat.conn is None:
                seat.turn_deadline = now + AWAY_TURN if i in obliged else None
                continue
            seat.turn_deadline = now + clock if (clock is not None and i in obliged) else None
            game = t.game
            honest = game.honest_actions(i)
            if seat.offers and seat.offers[0][0] < self._choice_seq:
                seat.offers = [o for o in seat.offers if o[0] >= self._choice_seq]
            seat.offers.append((self.seq, honest))
            self._send(seat.conn, {
                "type": "turn", "table": self.id, "seq": self.seq, "seat": i,
                "options": [game.action_data(a) for a in honest],
                "deadline": None if seat.turn_deadline is None else float(clock),
            }, i)
            hint = t.hints(i)
            if hint is not None:
                self._send(seat.conn, {"type": "hint", "table": self.id, "seq": self.seq, "seat": i,
                                       "rule": hint["rule"], "options": hint["options"]}, i)
