"""The game requests at a table: ``act``, ``call``, ``pass`` and ``vote``, each judged
against what the client had seen when it decided (PROTOCOL.md §5 "Acting on what you
saw": a request decided on a situation that no longer exists is ``stale``, changes nothing,
is not logged and is never a cheat).

A part of the table's task (:mod:`.state`): its ``_do_<kind>`` methods are the handlers
the runner's table binds to those requests; each accepted one is one table call through
the runner (``Runner.call_for``: the ``ok``, then its events).
"""

from __future__ import annotations

from functools import partial

import trio

from ..engine.table import Table
from .requests import RequestError, field_bool, field_int
from .state import Runner, TableState

__all__ = ["Plays", "PLAYS"]

#: The game requests (the ``_do_<kind>`` methods of :class:`Plays`).
PLAYS = frozenset({"act", "call", "pass", "vote"})


class Plays:
    """The game requests of one table: ``state`` is the table's, ``out`` its task."""

    __slots__ = ("state", "out")

    def __init__(self, state: TableState, out: Runner) -> None:
        self.state = state
        self.out = out

    def handlers(self) -> dict:
        """Each game request's handler, by kind (:data:`PLAYS`)."""
        return {"act": self._do_act, "call": self._do_call, "pass": self._do_pass, "vote": self._do_vote}

    def _playing_table(self) -> Table:
        """The table, while a game is being played at it (else the request is refused)."""
        if not self.state.playing:
            raise RequestError("not_now", "no game is being played at this table")
        return self.state.table

    def _seen(self, msg: dict) -> int:
        """The ``seq`` a game request was decided on: the last event (or ``turn``,
        ``snapshot``) the client had seen."""
        seen = field_int(msg, "seq")
        seq = self.state.seq
        if not 0 <= seen <= seq:
            raise RequestError("bad_request", f"{msg['type']}.seq must be a seq you have seen: 0..{seq}, not {seen}")
        return seen

    def _do_act(self, conn, player, msg, rid) -> None:
        st = self.state
        seat = st.seat(player)
        t = self._playing_table()
        seen = self._seen(msg)
        action = t.game.parse_action(msg.get("action"))
        if seen < st.choice_seq:
            raise RequestError("stale", f"the game moved on at event {st.choice_seq}, after the event {seen} "
                                        "you chose from; choose again from the next turn")
        if seen < seat.acted_seq:
            raise RequestError("stale", f"you acted at event {seat.acted_seq}, after the event {seen} you chose "
                                        "this from; choose again from the next turn")
        offers = seat.offers
        if not (seen == st.seq and offers and offers[-1][0] == seen):  # (else: the turn of now, below)
            offer = next((o for o in reversed(offers) if st.choice_seq <= o[0] <= seen), None)
            if (offer is not None and offer[0] < st.seq and action in offer[1] and seat.index in t.to_act()
                    and t.game.judge(seat.index, action)):
                # Honest when the turn it was chosen from offered it, a violation only because
                # others played since (durak: the bout's limit filled up): refused, not a cheat.
                # (An offer of the latest seq is the present state: honest still, no check.)
                raise RequestError("stale", f"that action was honest at your turn (event {offer[0]}) but others "
                                            "have played since and it would break a rule now; choose again")
        # (parsed above: the table judges it without checking its shape again.) When every
        # other seat is a connected client that never calls (PROTOCOL.md §3), the window
        # the action may open is passed by all in the same table call, as the driver would
        # pass it for them (drive.PASSER) right after: the same table calls, log and frames.
        passed = True
        for s in st.seats:
            if s is not seat and (s.kind != "human" or s.conn is None or s.conn.may_call):
                passed = False
                break
        self.out.call_for(conn, rid, partial(st.rec.act, parsed=True, passed=passed), seat.index, action,
                          trio.current_time())

    def _do_call(self, conn, player, msg, rid) -> None:
        self._answer(conn, player, msg, rid, True)

    def _do_pass(self, conn, player, msg, rid) -> None:
        self._answer(conn, player, msg, rid, False)

    def _answer(self, conn, player, msg, rid, call: bool) -> None:
        st = self.state
        seat = st.seat(player)
        t = self._playing_table()
        seen = self._seen(msg)
        if t.window is not None and seen < st.window_seq:
            raise RequestError("stale", f"the open window opened at event {st.window_seq}, after the event "
                                        f"{seen} you answered from: your answer was decided before it (on an "
                                        "earlier window, or it names an older seq); answer from its window event")
        self.out.call_for(conn, rid, st.rec.answer, seat.index, call, trio.current_time())

    def _do_vote(self, conn, player, msg, rid) -> None:
        st = self.state
        seat = st.seat(player)
        t = self._playing_table()
        guilty = field_bool(msg, "guilty")
        seen = self._seen(msg)
        if t.court is not None and seen < st.court_seq:
            raise RequestError("stale", f"the sitting court opened at event {st.court_seq}, after the event "
                                        f"{seen} you voted from: your vote was decided before it (in an earlier "
                                        "court, or it names an older seq); vote from its court event")
        self.out.call_for(conn, rid, st.rec.vote, seat.index, guilty, trio.current_time())
