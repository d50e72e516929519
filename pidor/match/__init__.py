"""Scripted matches: ``pidor match`` (see :mod:`pidor.match.runner`)."""

from .runner import DEFAULT_SPEC, MatchResult, SeatStats, match, run_match

__all__ = ["SeatStats", "MatchResult", "run_match", "match", "DEFAULT_SPEC"]
