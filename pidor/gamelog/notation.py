"""A game log as a compact text record, one line per move (``pidor export --format text``):
for people who read games and diff them, as PGN is for chess.

    [Game "pidor"]
    [Engine "pidor-3"]
    [Players "3"]
    [Deck "52"]
    [Seat0 "builtin:random:cheat=0.2"]
    [Seat1 "builtin:random"]
    [Seat2 "mine"]
    [Match "game 1, deal 0"]
    [Deal "a3f1…"]
       1. s2 draw
       2. s2 keep
      57. s0 move to=2 ✗P3
      58. s1 call · court P3
      59. s2 vote guilty
      60. s0 vote clean · verdict guilty · undo s0 move to=2 · mark s0 convicted
     212. s1 beat card=Th target=0 · s1 out 2
    [Result "s2 lost; order s0 s1"]

Tags first: the game, its engine, the options that are not the table's clocks, each seat's
player (its match entrant, name or spec), the match's game and deal, the deal's commitment.
Then one line per input of the log, numbered as its records are: a seat's action (its wire
fields as ``key=value``; ``✗`` and the rules it broke; ``(auto: REASON)`` when a stand-in
made it, T9), call, vote or abstention, and a clock that did something; after ``·`` what
it led to at the table: a court and the rules it sits on, the verdict, an undo, the mark,
a player out and his place. Window bookkeeping (windows, passes) is left out. The result
closes it (``[Aborted "…"]`` for a game cut off). Nothing here depends on the game: its
actions and the table's events are read as they are.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..engine.table import TABLE_OPTIONS
from ..games import GAME_IDS, game_class

__all__ = ["notation"]

#: Options not shown among the game's own: the table's (clocks, tutorial) and those with tags of their own.
_NOT_OWN = frozenset(o.name for o in TABLE_OPTIONS) | {"game", "players", "deck"}


def _value(v) -> str:
    if isinstance(v, list):
        return ",".join(map(_value, v))
    if isinstance(v, dict):
        return "{" + " ".join(f"{k}={_value(x)}" for k, x in v.items()) + "}"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _action(action: dict) -> str:
    return " ".join([str(action.get("type")), *(f"{k}={_value(v)}" for k, v in action.items() if k != "type")])


def _seat_name(seat: dict, match: list | None, index: int) -> str:
    if match is not None and index < len(match):
        return str(match[index])
    return str(seat.get("name") or seat.get("spec") or f"{seat.get('kind')}:{seat.get('policy', '?')}")


def _tags(header: dict) -> Iterator[str]:
    options = header.get("options") or {}
    match = (header.get("extra") or {}).get("match") or {}
    yield f'[Game "{header.get("game")}"]'
    yield f'[Engine "{header.get("engine")}"]'
    yield f'[Players "{options.get("players")}"]'
    yield f'[Deck "{options.get("deck")}"]'
    clocks = {o.name for o in game_class(header["game"]).CLOCKS} if header.get("game") in GAME_IDS else set()
    own = [f"{k}={_value(v)}" for k, v in options.items() if k not in _NOT_OWN and k not in clocks]
    if own:
        yield f'[Options "{" ".join(own)}"]'
    for i, seat in enumerate(header.get("seats") or []):
        yield f'[Seat{i} "{_seat_name(seat, match.get("seating"), i)}"]'
    if "index" in match:
        yield f'[Match "game {match["index"] + 1}, deal {match.get("deal")}"]'
    deal = header.get("deal") or {}
    if deal.get("commitment"):
        yield f'[Deal "{deal["commitment"]}"]'


def _consequences(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        kind = e.get("type")
        if kind == "court":
            out.append("court " + ",".join(r["id"] if isinstance(r, dict) else str(r) for r in e.get("rules", ())))
        elif kind == "verdict":
            out.append(f"verdict {e.get('outcome')}")
        elif kind == "undo":
            out.append(f"undo s{e.get('seat')} {_action(e.get('action') or {})}")
        elif kind == "mark":
            out.append(f"mark s{e.get('seat')} {e.get('reason')}")
        elif kind == "out":
            out.append(f"s{e.get('seat')} out {e.get('place')}")
        elif kind == "timeout":
            out.append(f"s{e.get('seat')} timeout {e.get('reason')}")
    return out


def _input(body: dict) -> str | None:
    """What the record's input was, or ``None`` for one shown only by what it led to."""
    kind, seat = body.get("kind"), body.get("seat")
    if kind == "act":
        action = body.get("action") or {}
        made = next((e for e in body.get("events", ()) if e.get("type") == "action" and e.get("seat") == seat), {})
        broke = made.get("_violations") or []
        return (f"s{seat} {_action(action)}" + (f" ✗{','.join(broke)}" if broke else "")
                + (f" (auto: {body['auto']})" if body.get("auto") else ""))
    if kind == "call":
        return f"s{seat} call"
    if kind == "vote":
        return f"s{seat} vote {'guilty' if body.get('guilty') else 'clean'}"
    if kind == "abstain":
        return f"s{seat} abstain"
    return None


def _result(footer: dict) -> str:
    if footer.get("status") == "aborted":
        return f'[Aborted "{footer.get("reason")}"]'
    result = footer.get("result") or {}
    order = " ".join(f"s{s}" for s in result.get("order") or [])
    lost = "a draw" if result.get("draw") or result.get("loser") is None else f"s{result['loser']} lost"
    return f'[Result "{lost}; order {order or "-"}"]'


def notation(bodies: Iterable[dict]) -> Iterator[str]:
    """The lines of a log's records (``bodies``: the header first, in order)."""
    number = 0
    for body in bodies:
        kind = body.get("kind")
        if kind == "header":
            yield from _tags(body)
            continue
        if kind == "end":
            yield _result(body)
            continue
        if kind != "start":
            number += 1
        said = _input(body)
        after = _consequences(body.get("events") or [])
        if said is None and not after:
            continue
        parts = [said or kind] + after
        yield f"{number:>4}. " + " · ".join(parts)
