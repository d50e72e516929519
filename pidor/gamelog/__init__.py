"""Game logs: append-only msgpack records with a SHA-256 hash chain, committed deals,
verification by re-running the engine, replay as text, JSON Lines export.

The specification is ``protocol/LOGS.md``. Entry points:

* :class:`~pidor.gamelog.record.Recorder`: put it in front of a ``Table`` to log a game
  (the server and ``pidor match`` use it);
* :class:`~pidor.gamelog.format.LogWriter`: the low-level writer (``record``, ``close``);
* :func:`~pidor.gamelog.reader.read_log`: read either form, never raising on bad content;
* :func:`~pidor.gamelog.verify.verify`: check one log; :func:`~pidor.gamelog.verify.verify_file`:
  check a log file as ``pidor verify`` does, in bounded memory whatever the file;
  :mod:`~pidor.gamelog.replay`: text.

The package imports none of them: each command imports only the modules it needs (``pidor
verify`` starts without the recorder, the replay and the JSON Lines writer).
"""
