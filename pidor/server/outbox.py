"""A table's outbox: the frames its task queued in one cycle for each connection, handed
over at the end of the cycle (never blocking: a connection that cannot keep up is
dropped by its own queue, :class:`~pidor.server.connection.Connection`).

One exception (PROTOCOL.md §3): a client whose hello said ``may_call: false`` owes no call
window, so what asks nothing of it (other seats' actions and their consequences, the
``ok`` to its own game request) waits, at most :data:`HOLD` seconds, for the next frame
that asks it something (a turn, a court it votes in, the game's results, any other
reply), and goes out in the same write: one wake-up of the bot per turn of its own rather
than one per table call. A request of its own hands over what waits first
(:meth:`Outbox.release`), so no reply overtakes it.
"""

from __future__ import annotations

from .seams import Peer

__all__ = ["Outbox", "HOLD", "ASKING"]

#: Seconds at most that frames wait for a client that never calls while none of them
#: asks it anything.
HOLD = 0.1
#: Events that ask something of a seat or end its game: never held (a court's voters
#: vote; a client counts its games by ``results``).
ASKING = frozenset({"court", "results"})


class Outbox:
    __slots__ = ("_pending", "_urgent", "_held")

    def __init__(self) -> None:
        self._pending: dict[Peer, list[bytes]] = {}
        self._urgent: set[Peer] = set()  # connections that a pending frame asks something of
        self._held: dict[Peer, float] = {}  # connection -> since when its pending frames wait

    def put(self, conn: Peer, frame: bytes, urgent: bool = False) -> None:
        """Queue an encoded frame; ``urgent``: it asks something of ``conn`` (never held)."""
        self._pending.setdefault(conn, []).append(frame)
        if urgent:
            self._urgent.add(conn)

    def put_all(self, conn: Peer, frames: list[bytes], urgent: bool = False) -> None:
        """Queue encoded frames; ``urgent``: one of them asks something of ``conn``."""
        pending = self._pending.get(conn)
        if pending is None:
            self._pending[conn] = frames
        else:
            pending += frames
        if urgent:
            self._urgent.add(conn)

    def extend(self, conn: Peer, frames: list[bytes]) -> None:
        """Queue frames that ask nothing (a spectator's, due now)."""
        self._pending.setdefault(conn, []).extend(frames)

    def flush(self, now: float, hold: bool = True) -> None:
        """Hand every connection its frames; those of a client that never calls wait while
        none asks it anything, ``HOLD`` seconds at most (``hold=False``: none waits, the
        table closes)."""
        pending, self._pending = self._pending, {}
        urgent, self._urgent = self._urgent, set()
        held = self._held
        for conn, frames in pending.items():
            if hold and not (conn.may_call or conn in urgent or conn.closed):
                if now < held.setdefault(conn, now) + HOLD:
                    self._pending[conn] = frames
                    continue
            if held:
                held.pop(conn, None)
            conn.send_frames(frames)

    def release(self, conn: Peer) -> None:
        """Hand ``conn`` what waits for it now (it sent a request: the answer must not
        overtake it, PROTOCOL.md §2)."""
        frames = self._pending.pop(conn, None)
        self._held.pop(conn, None)
        if frames:
            conn.send_frames(frames)

    def next_due(self) -> float | None:
        """When the frames that have waited longest must go, or ``None``."""
        return min(self._held.values()) + HOLD if self._held else None
