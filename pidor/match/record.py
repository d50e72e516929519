"""One game of a match as a record: what ``--results`` writes (one JSON object a line),
what ``--resume`` reads back and what the summary is computed from.

Every bit of chance comes from the match's seed text (T10), so the same seed and entrants
give the same games:

* ``base = SHA-256(b"pidor-match/1" ‖ 0x00 ‖ UTF-8 seed text)``;
* deal ``d``: ``server_seed = HMAC-SHA-256(base, b"server" ‖ u32-BE d)``, dealt as in
  ``protocol/LOGS.md`` with the seats' ``--seat-seed`` contributions (the games of one deal
  get the same cards: duplicate deals, :mod:`pidor.match.schedule`);
* the built-in bot of seat ``s`` in game ``g``: ``HMAC-SHA-256(base, b"bot" ‖ u32-BE g ‖ u8 s)``
  (recorded in the log header); the honest stand-in of a seat that forfeits likewise with
  ``b"standin"``;
* the driver (who moves first when several seats may act, durak):
  ``Rng(HMAC-SHA-256(base, b"driver" ‖ u32-BE g), b"driver")``.

Every game is the first at a fresh table (no mark, no previous game: P1, D2, T7), so a
game is the same whichever games ran before it or beside it.

Counts per seat: ``cheats`` are action events with violations; ``convicted`` are ``mark``
events with reason ``convicted``; ``false_calls`` are ``mark`` events with reason
``false_call`` (T5: an honest action called) or ``lost_vote`` (T6: the court acquitted).
``order`` is the result's finishing order (first out first; the loser is not in it).
``forfeits``: the seats whose bot crashed, hung, ran out of time, sent garbage, never came or left, with the
reason; an honest stand-in played each of them from then on.

``time`` (only in a game with a bot that runs as a program: ``stdio:``, ``cmd:``, ``tcp:``):
per seat ``[turns, seconds, longest]``, the turns its bot answered, the seconds they took in
all (from the question to the answer, as the host saw it) and the longest one; ``null`` for
the seats of built-in and ``py:`` policies, which run with no clock.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from ..games import spec

__all__ = ["match_base", "mac", "server_seed", "bot_seed", "standin_seed", "driver_key", "new_record",
           "match_extra", "count_events", "timed", "finish_record", "log_path"]


def mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def match_base(seed: str) -> bytes:
    return hashlib.sha256(b"pidor-match/1\x00" + seed.encode("utf-8")).digest()


def server_seed(base: bytes, deal: int) -> bytes:
    return mac(base, b"server", deal.to_bytes(4, "big"))


def bot_seed(base: bytes, index: int, seat: int) -> bytes:
    return mac(base, b"bot", index.to_bytes(4, "big"), bytes((seat,)))


def standin_seed(base: bytes, index: int, seat: int) -> bytes:
    return mac(base, b"standin", index.to_bytes(4, "big"), bytes((seat,)))


def driver_key(base: bytes, index: int) -> bytes:
    return mac(base, b"driver", index.to_bytes(4, "big"))


def log_path(logs: str | None, game: str, index: int) -> str | None:
    return None if logs is None else str(Path(logs) / f"{game}-{index + 1:05d}.plog")


def new_record(options: dict, index: int, deal: int, seed: bytes, seating: list[str]) -> dict:
    n = len(seating)
    return {"index": index, "deal": deal, "seed": seed.hex(), "game": options["game"], "players": n,
            "deck": options["deck"], "seating": seating, "order": [], "loser": None, "draw": False,
            "cheats": [0] * n, "convicted": [0] * n, "false_calls": [0] * n, "forfeits": [], "actions": 0,
            "log": None}


def match_extra(record: dict) -> dict:
    """The log header's ``extra.match``: which game of the match this is and the entrant of
    each seat, so that ``pidor standings`` can rank entrants from the logs alone."""
    return {"match": {key: record[key] for key in ("index", "deal", "seating")}}


def count_events(record: dict, events: list[dict]) -> None:
    """Add a table call's events (full form, violations included) to the counts."""
    for e in events:
        kind = e["type"]
        if kind == "action":
            if e.get("_violations"):
                record["cheats"][e["seat"]] += 1
        elif kind == "mark":
            reason = e["reason"]
            if reason == "convicted":
                record["convicted"][e["seat"]] += 1
            elif reason == "false_call" or reason == "lost_vote":
                record["false_calls"][e["seat"]] += 1


def timed(record: dict, seat: int, moves: list) -> None:
    """The seat's bot answered ``moves[0]`` turns in ``moves[1]`` seconds, the longest
    ``moves[2]`` (the record's ``time``)."""
    times = record.setdefault("time", [None] * len(record["seating"]))
    times[seat] = [moves[0], round(moves[1], 6), round(moves[2], 6)]


def finish_record(record: dict, result: dict, actions: int, log: str | None) -> dict:
    record["order"] = list(result["order"])
    record["loser"] = result["loser"]
    record["draw"] = bool(result["draw"])
    for f in spec(record["game"]).results:  # what the game's result holds besides (V6, V8, scores…)
        if f.name in result:
            record[f.name] = result[f.name]
    if "stalled" in result:  # T13: why a draw was declared
        record["stalled"] = result["stalled"]
    record["actions"] = actions
    record["log"] = log
    return record
