"""A table's spectators (PROTOCOL.md §4 ``watch``): connections that see the table's
public view, the projection for seat ``None``, never a hidden card. They hold no seat:
they never act, call or vote, and no seat count, start rule or vote counts them.

Each spectator has a tape: frames wait on it until ``delay`` seconds (the table's
``watch_delay``) after the table made them, then :meth:`Spectators.release` hands them
over in order. With no delay they go out in the table's cycle that made them. A tape
holds at most ``TAPE_BYTES``: a spectator further behind than that is dropped (told
``closed``, reason ``behind``), never allowed to grow a table's memory.
"""

from __future__ import annotations

from collections import deque

from .seams import Peer

__all__ = ["Spectators", "MAX_SPECTATORS", "TAPE_BYTES", "MAX_WATCH_DELAY"]

#: Spectators a table takes; more get ``spectators_full``.
MAX_SPECTATORS = 32
#: Bytes waiting on one spectator's tape.
TAPE_BYTES = 4 * 1024 * 1024
#: The longest ``watch_delay`` a table may set, in seconds.
MAX_WATCH_DELAY = 600.0


class _Tape:
    __slots__ = ("frames", "size")

    def __init__(self) -> None:
        self.frames: deque[tuple[float, bytes]] = deque()  # (when due, frame)
        self.size = 0


class Spectators:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self._tapes: dict[Peer, _Tape] = {}

    def __len__(self) -> int:
        return len(self._tapes)

    def __contains__(self, conn: Peer) -> bool:
        return conn in self._tapes

    def __iter__(self):
        return iter(list(self._tapes))

    def add(self, conn: Peer) -> None:
        self._tapes.setdefault(conn, _Tape())

    def remove(self, conn: Peer) -> None:
        self._tapes.pop(conn, None)

    def record(self, frame: bytes, now: float, conn: Peer | None = None) -> list[Peer]:
        """Put ``frame`` on the tape of ``conn`` (``None``: of every spectator), due
        ``delay`` seconds from ``now``. Returns the spectators dropped for being too far
        behind (their tapes are gone)."""
        due = now + self.delay
        dropped = []
        for c in ([conn] if conn is not None else list(self._tapes)):
            tape = self._tapes[c]
            tape.frames.append((due, frame))
            tape.size += len(frame)
            if tape.size > TAPE_BYTES:
                del self._tapes[c]
                dropped.append(c)
        return dropped

    def release(self, now: float | None) -> list[tuple[Peer, list[bytes]]]:
        """The frames due by ``now`` (``None``: every frame), each spectator's in order."""
        out = []
        for conn, tape in self._tapes.items():
            frames = []
            while tape.frames and (now is None or tape.frames[0][0] <= now):
                frame = tape.frames.popleft()[1]
                tape.size -= len(frame)
                frames.append(frame)
            if frames:
                out.append((conn, frames))
        return out

    def next_due(self) -> float | None:
        """When the next frame on any tape is due (``None``: none waits)."""
        dues = [tape.frames[0][0] for tape in self._tapes.values() if tape.frames]
        return min(dues) if dues else None
