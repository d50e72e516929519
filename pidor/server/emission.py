"""The events a table call returned, as they go out (a part of the table's task,
:class:`~pidor.server.runner.TableRunner`): in full form to the owner's hook, the log sink
and the bots' driver; numbered by ``seq``, then projected (``project(event, seat)``) for
each seated client and the spectators. A public event is projected and packed once for all
of them; a private one once a seat. Without the audit, each seat's frames of the call are
queued at once (:meth:`~pidor.server.outbox.Outbox.put_all`); with it, each as the audit
sees it. A client whose hello said ``windows: false`` (PROTOCOL.md §3, minor 2) gets no
``window`` or ``window_closed`` event: they are neither projected, packed nor queued for it
(nor at all when no other client and no spectator would get them).
"""

from __future__ import annotations

import trio

from .. import wire
from ..engine.game import Event, project
from .outbox import ASKING
from .state import TableState

__all__ = ["emit", "rel", "WINDOW_EVENTS"]

#: The events a client whose hello said ``windows: false`` does not get (PROTOCOL.md §3).
WINDOW_EVENTS = frozenset({"window", "window_closed"})


def rel(deadline: float | None, now: float) -> float | None:
    """Deadlines go on the wire as seconds from now (the server's clock is its own)."""
    return None if deadline is None else round(max(0.0, deadline - now), 3)


def _view(view: dict, owing: list[int] | None, acted: dict | None, now: float) -> dict:
    """An event's projection as it goes out: a window's with the action it is about and
    the seats that owe an answer; a deadline in seconds from ``now``."""
    if owing is not None:
        view["action"] = acted  # public: payments, the only private actions, open none
        view["owing"] = owing
    if "deadline" in view:  # (as of the event: a delayed spectator gets it later)
        view["deadline"] = rel(view["deadline"], now)
    return view


def emit(runner, events: list[Event], before: dict | None = None) -> None:
    """``TableRunner.emit`` (``runner``: the table's task; this module does not import
    it, which imports this): ``events`` go out (``before``: the cards hidden from each
    seat before the call, for the audit)."""
    st = runner.state
    if st.game_open:
        runner.hooks.events(events)
    if not events:
        return
    runner.house.log_sink(st.game_ref, events)  # an observer (tests); the game log is state.rec's
    if st.driver is not None:
        st.driver.feed(events)  # the bots' knowledge: every event, whoever made it
    after = runner._hidden()
    now = trio.current_time()
    seats = st.seats
    humans = [s for s in seats if s.kind == "human" and s.conn is not None]
    everyone = range(len(humans))
    sighted = [k for k in everyone if humans[k].conn.windows]  # who gets WINDOW_EVENTS
    audit = runner.house.audit
    # Without the audit each seat's frames are gathered here and queued at once, after
    # the loop (nothing else is queued for a seat meanwhile); the audit queues each.
    gathered: list[list[bytes]] | None = [[] for _ in humans] if audit is None else None
    urgent = False
    encode_event = wire.encode_event
    table_id = st.id
    undo = False
    acted = None  # the action a call window is about (it comes first in the same batch)
    choices = st.table.game_cls.CHOICE_EVENTS
    spectators = len(runner.spectators) > 0
    for e in events:
        st.seq += 1
        seq = st.seq
        kind = e["type"]
        if kind in choices or kind == "game_start" or kind == "undo":
            st.choice_seq = seq
        elif kind == "window":
            st.window_seq = seq
        elif kind == "court":
            st.court_seq = seq
        if kind == "action":
            seats[e["seat"]].acted_seq = seq
            acted = e["action"]
        undo = undo or kind == "undo"
        to = everyone
        if kind in WINDOW_EVENTS:
            to = sighted
            if not (to or spectators):
                continue
        asks = kind in ASKING  # (a frame that is never held, outbox.py)
        urgent = urgent or asks
        owing = _owing(st, e) if kind == "window" else None
        public = None  # the public form's frame: every seat's if nothing is private, the spectators'
        if "_private" in e:
            for k in to:
                s = humans[k]
                frame = encode_event(table_id, seq, _view(project(e, s.index), owing, acted, now))
                if gathered is not None:
                    gathered[k].append(frame)
                else:
                    runner._queue(s.conn, frame, s.index,
                                  None if before is None else before[s.index] & after[s.index], asks)
        else:
            public = encode_event(table_id, seq, _view(project(e, None), owing, acted, now))
            if gathered is not None:
                for k in to:
                    gathered[k].append(public)
            else:
                for k in to:
                    s = humans[k]
                    runner._queue(s.conn, public, s.index,
                                  None if before is None else before[s.index] & after[s.index], asks)
        if spectators:
            if public is None:
                public = encode_event(table_id, seq, _view(project(e, None), owing, acted, now))
            runner._to_spectators(public, now, hidden=None if before is None else before[None] & after[None])
    if gathered is not None:
        put_all = runner.outbox.put_all
        for s, frames in zip(humans, gathered):
            if frames:  # (none: only window events, and its hello said windows false)
                put_all(s.conn, frames, urgent)
    if undo:
        for s in humans:
            runner.snapshot(s, now)
        runner.snapshot_spectators(now)
    if st.game_open and st.table.over:
        runner.hosting.game_over()


def _owing(st: TableState, window: Event) -> list[int]:
    """The seats a ``window`` event shows as owing an answer: not those whose client
    said ``may_call: false`` (PROTOCOL.md §3), for whom the table passes in the same
    cycle (drive.PASSER); the log keeps the table's own list."""
    seats = st.seats
    return [i for i in window["owing"]
            if seats[i].kind != "human" or seats[i].conn is None or seats[i].conn.may_call]
