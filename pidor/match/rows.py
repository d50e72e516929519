"""Game results as rows, one per game and seat (``pidor export --format csv``): from match
records (``--results`` files, or rebuilt from verified logs by :mod:`.standings`), for a
spreadsheet or a script.

Columns (:data:`COLUMNS`): ``index`` and ``deal`` (the match's; empty for a server's
game), ``game``, ``seat``, ``entrant``, ``place`` (1 = first out; the seats still holding
cards at a draw share the places left, :func:`~pidor.match.stats.places`), ``loss`` (1
when its seat was the loser), ``draw``, ``cheats``, ``convicted``, ``false_calls``,
``forfeit`` (why its bot forfeited the game, empty if it did not), ``log`` (the game's log
file, empty if none was written).
"""

from __future__ import annotations

import csv
from typing import Iterable, TextIO

from .stats import places

__all__ = ["COLUMNS", "rows", "write_csv"]

COLUMNS = ("index", "deal", "game", "seat", "entrant", "place", "loss", "draw", "cheats", "convicted",
           "false_calls", "forfeit", "log")


def rows(records: Iterable[dict]) -> Iterable[dict]:
    """The rows of ``records``, each record's seats in order."""
    for rec in records:
        seat_places = places(rec)
        forfeits = {f["seat"]: f.get("reason") for f in rec.get("forfeits") or ()}
        for seat, name in enumerate(rec["seating"]):
            yield {"log": rec.get("log"), "index": rec.get("index"), "deal": rec.get("deal"), "game": rec.get("game"),
                   "seat": seat, "entrant": name, "place": f"{seat_places[seat]:g}", "loss": int(rec["loser"] == seat),
                   "draw": int(bool(rec["draw"])), "cheats": rec["cheats"][seat], "convicted": rec["convicted"][seat],
                   "false_calls": rec["false_calls"][seat], "forfeit": forfeits.get(seat)}


def write_csv(out: TextIO, records: Iterable[dict]) -> int:
    """Write the header and the rows; the rows written."""
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for row in rows(records):
        writer.writerow(row)
        n += 1
    return n
