"""Scripted matches, ``pidor match``: entrants (:mod:`.entrants`), the schedule of seats and
deals (:mod:`.schedule`), one record per game (:mod:`.record`), in-process games
(:mod:`.play`) spread over workers (:mod:`.pool`), external bots on a local server
(:mod:`.external`) launched for their seats (:mod:`.launch`, which ``pidor conform`` shares),
the whole run (:mod:`.runner`) and its command (:mod:`.command`)."""

from .runner import DEFAULT_SPEC, MatchError, MatchResult, TimeControl, run_match

__all__ = ["DEFAULT_SPEC", "MatchError", "MatchResult", "TimeControl", "run_match"]
