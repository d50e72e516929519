"""A game's log at a server table (protocol/LOGS.md), with its committed deal (T10).

Every table holds the secret server seed of its *next* deal and shows its commitment in the
table info before anyone contributes; a seated player may add his own seed
(:mod:`pidor.server.seeds`). At ``start`` the runner first creates the game's
:class:`GameLog`, which creates its file ``DATA/logs/table-<id>-game-<n>.plog`` at once: a
game that cannot be logged is refused (``no_log``) before anything changes. Then
:meth:`GameLog.begin` puts a :class:`~pidor.gamelog.record.Recorder` in front of the table,
writing that file, with the committed server seed and the seats' seeds (the deal key is
:func:`pidor.gamelog.deal.deal_key` of them); the table then commits to a fresh seed for
the deal after. Every table call of the runner goes through ``GameLog.rec``, so the log
holds every input and ``pidor verify`` re-runs it.

At the end the footer reveals the server seed, and the ``results`` event carries the same
reveal (:meth:`GameLog.reveal`) so a client can check its deal. A game cut off (shutdown,
every human gone, a server error) closes its log as aborted. A log that cannot be written
(a full disk) is reported once at error level and in the games index; the game goes on,
and the file stays an unfinished log up to its last whole record. No write failure (log
or index) raises out of a :class:`GameLog`: the table goes on.
"""

from __future__ import annotations

import logging
import time
from typing import BinaryIO

from ..engine.table import Table
from ..gamelog.format import LogWriteError
from ..gamelog.record import Recorder, seat_info
from .requests import RequestError
from .seams import GameIndex
from .seating import Seat

__all__ = ["GameLog", "header_seats"]

log = logging.getLogger(__name__)

#: Bytes of a game log file's write buffer (the recorder flushes after each record).
LOG_BUFFER = 512


def header_seats(seats: list[Seat], bot_seed: bytes) -> list[dict]:
    """The log header's seats: humans (anyone over the protocol) by name and player id,
    built-in bots with their policy, parameters and seed (T10)."""
    out = []
    for s in seats:
        if s.kind == "bot":
            spec = s.spec or {"policy": "random"}
            out.append(seat_info("bot", name=s.name, policy=spec.get("policy", "random"),
                                 params={k: v for k, v in spec.items() if k != "policy"}, seed=bot_seed.hex()))
        else:
            out.append(seat_info("human", name=s.name, player=s.player))
    return out


class GameLog:
    """One game at a table: its log file, its recorder and its row in the games index.

    ``GameLog(index, path, table_id, number)`` creates the log file at ``path`` (``None``:
    the server keeps no logs) and raises ``RequestError("no_log")`` if it cannot: the
    runner makes it before it changes anything, so a refused ``start`` leaves the table as
    it was. ``begin`` then starts the recorder and the game's row in ``index``."""

    def __init__(self, index: GameIndex, path: str | None, table_id: int, number: int) -> None:
        self.index = index
        self.path = path
        self.table_id = table_id
        self.number = number
        self.file: BinaryIO | None = None
        if path is not None:
            try:
                # The recorder flushes after every record: a small buffer does (8 KiB a table
                # is 8 MiB at 1,000 tables); a longer record goes to the file whole.
                self.file = open(path, "xb", buffering=LOG_BUFFER)  # noqa: SIM115 - closed by finish/abort
            except OSError as e:
                raise RequestError("no_log", f"the server cannot write this game's log ({e.strerror or e}); "
                                             "the game was not started") from None
        self.rec: Recorder | None = None
        self.row: int | None = None

    def begin(self, table: Table, seats: list[Seat], server_seed: bytes, bot_seed: bytes,
              standin_seed: bytes, extra: dict | None = None) -> None:
        """The recorder in front of ``table`` (it writes the header at ``rec.start``) and
        the game's row in the index (``None`` if it could not be written). ``extra``: more
        fields for the header's ``extra`` (a match's game, ``extra.match``)."""
        self.rec = Recorder(
            table, self.file, seats=header_seats(seats, bot_seed), server_seed=server_seed,
            seat_seeds=[s.seed if s.kind == "human" else None for s in seats],
            extra={"table": self.table_id, "started": time.time(), "standin_seed": standin_seed.hex(), **(extra or {})},
            on_error=self._failed)
        self.row = self.index.game_started(self.table_id, self.number, [s.info() for s in seats],
                                           log=self.path, commitment=self.rec.commitment)

    def _failed(self, error: LogWriteError) -> None:
        """The Recorder's ``on_error``: once per game; it stops writing, the game goes on."""
        log.error("table %s, game %s: %s; the game goes on, its log stays unfinished",
                  self.table_id, self.number, error)
        self.index.log_failed(self.row, str(error))

    def _close(self, aborted: str | None = None) -> None:
        """The footer, then the file (a recorder does not close a file it was handed)."""
        self.rec.close(aborted=aborted)
        if self.file is not None:
            try:
                self.file.close()
            except OSError as e:  # what stayed in its buffer is lost: the log is unfinished
                if self.rec.error is None:
                    self._failed(LogWriteError(f"cannot close game log {self.path}: {e.strerror or e}"))
        # Nothing is written after the footer: the recorder lets go of this GameLog (its
        # on_error, a bound method, is a cycle that only the rare cyclic GC would free).
        self.rec.on_error = None

    def reveal(self) -> dict:
        """What the ``results`` event shows after the game: the deal's inputs."""
        rec = self.rec
        return {"commitment": rec.commitment, "server_seed": rec.server_seed.hex(),
                "seat_seeds": [None if s is None else bytes(s).hex() for s in rec.seat_seeds]}

    def finish(self, result: dict | None) -> None:
        """The game is over: the footer (result, reveal), then the index."""
        self._close()
        self.index.game_ended(self.row, result)

    def abort(self, reason: str) -> None:
        """The game is cut off: an ``aborted`` footer (with the reveal), then the index.
        Never raises (it runs while a table task ends)."""
        try:
            self._close(aborted=reason)
        except Exception:
            log.exception("table %s, game %s: cannot close the log", self.table_id, self.number)
        self.index.game_aborted(self.row, reason)

