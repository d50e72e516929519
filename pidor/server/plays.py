"""The game requests at a table: ``act``, ``call``, ``pass`` and ``vote``, each judged
against what the client had seen when it decided (PROTOCOL.md §5 "Acting on what you
saw": a request decided on a situation that no longer exists is ``stale``, changes nothing,
is not logged and is never a cheat).

A mixin of :class:`pidor.server.runner.TableRunner`, like :mod:`.drive`.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import trio

from ..engine.table import Table
from .requests import RequestError, field_bool, field_int
from .seating import Seat

__all__ = ["Plays", "PLAYS"]

#: The game requests (``_do_`` methods of :class:`Plays`).
PLAYS = frozenset({"act", "call", "pass", "vote"})


class Plays:
    """The mixin's contract: what it reads and calls of the :class:`TableRunner` it is
    mixed into (all defined there)."""

    # state
    table: Any  # the Table (None before the first game)
    rec: Any  # the running game's Recorder: every table call goes through it
    seq: int  # the last event's seq
    playing: bool
    # §5: where the current situation began, where the open window and the sitting court opened
    _choice_seq: int
    _window_seq: int
    _court_seq: int
    # calls
    _seat: Callable[[int], Seat]  # (player) -> his seat, or RequestError not_seated
    _call_for: Any  # (connection, id, table call, *args): ok, then its events

    def _playing_table(self) -> Table:
        """The table, while a game is being played at it (else the request is refused)."""
        if not self.playing:
            raise RequestError("not_now", "no game is being played at this table")
        return self.table

    def _seen(self, msg: dict) -> int:
        """The ``seq`` a game request was decided on: the last event (or ``turn``,
        ``snapshot``) the client had seen."""
        seen = field_int(msg, "seq")
        if not 0 <= seen <= self.seq:
            raise RequestError("bad_request", f"{msg['type']}.seq must be a seq you have seen: 0..{self.seq}, "
                                              f"not {seen}")
        return seen

    def _do_act(self, conn, player, msg, rid) -> None:
        seat = self._seat(player)
        t = self._playing_table()
        seen = self._seen(msg)
        action = t.game.parse_action(msg.get("action"))
        if seen < self._choice_seq:
            raise RequestError("stale", f"the game moved on at event {self._choice_seq}, after the event {seen} "
                                        "you chose from; choose again from the next turn")
        if seen < seat.acted_seq:
            raise RequestError("stale", f"you acted at event {seat.acted_seq}, after the event {seen} you chose "
                                        "this from; choose again from the next turn")
        offer = next((o for o in reversed(seat.offers) if self._choice_seq <= o[0] <= seen), None)
        if (offer is not None and offer[0] < self.seq and action in offer[1] and seat.index in t.to_act()
                and t.game.judge(seat.index, action)):
            # Honest when the turn it was chosen from offered it, a violation only because
            # others played since (durak: the bout's limit filled up): refused, not a cheat.
            # (An offer of the latest seq is the present state: honest still, no check.)
            raise RequestError("stale", f"that action was honest at your turn (event {offer[0]}) but others "
                                        "have played since and it would break a rule now; choose again")
        # (parsed above: the table judges it without checking its shape again)
        self._call_for(conn, rid, partial(self.rec.act, parsed=True), seat.index, action, trio.current_time())

    def _do_call(self, conn, player, msg, rid) -> None:
        self._answer(conn, player, msg, rid, True)

    def _do_pass(self, conn, player, msg, rid) -> None:
        self._answer(conn, player, msg, rid, False)

    def _answer(self, conn, player, msg, rid, call: bool) -> None:
        seat = self._seat(player)
        t = self._playing_table()
        seen = self._seen(msg)
        if t.window is not None and seen < self._window_seq:
            raise RequestError("stale", f"the open window opened at event {self._window_seq}, after the event "
                                        f"{seen} you answered from: your answer was decided before it (on an "
                                        "earlier window, or it names an older seq); answer from its window event")
        self._call_for(conn, rid, self.rec.answer, seat.index, call, trio.current_time())

    def _do_vote(self, conn, player, msg, rid) -> None:
        seat = self._seat(player)
        t = self._playing_table()
        guilty = field_bool(msg, "guilty")
        seen = self._seen(msg)
        if t.court is not None and seen < self._court_seq:
            raise RequestError("stale", f"the sitting court opened at event {self._court_seq}, after the event "
                                        f"{seen} you voted from: your vote was decided before it (in an earlier "
                                        "court, or it names an older seq); vote from its court event")
        self._call_for(conn, rid, self.rec.vote, seat.index, guilty, trio.current_time())
