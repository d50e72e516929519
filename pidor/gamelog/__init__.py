"""Game logs: append-only msgpack records with a SHA-256 hash chain, committed deals,
verification by re-running the engine, replay as text, JSON Lines export.

The specification is ``protocol/LOGS.md``. Entry points:

* :class:`~pidor.gamelog.record.Recorder`: put it in front of a ``Table`` to log a game
  (the server and ``pidor match`` use it);
* :class:`~pidor.gamelog.format.LogWriter`: the low-level writer (``record``, ``close``);
* :func:`~pidor.gamelog.reader.read_log`: read either form, never raising on bad content;
* :func:`~pidor.gamelog.verify.verify`: check one log; :mod:`~pidor.gamelog.replay`: text.
"""

from .deal import commitment, deal_key, new_server_seed
from .format import LogError, LogFile, LogWriteError, LogWriter
from .reader import read_log
from .record import Recorder, seat_info
from .verify import Report, verify

__all__ = [
    "Recorder",
    "seat_info",
    "LogWriter",
    "LogError",
    "LogWriteError",
    "LogFile",
    "read_log",
    "verify",
    "Report",
    "commitment",
    "deal_key",
    "new_server_seed",
]
