"""Seats and table options as the server sees them (the lobby's side of a table).

A seat is ``vacant``, a ``human`` (a player connected over the protocol, or away), or a
``bot`` (a built-in policy playing in-process). A human who leaves during a game is
replaced by an honest bot for the rest of that game (T9); the seat is vacant after it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..bots import RandomBot, parse_spec
from ..engine.table import table_options

__all__ = ["Seat", "server_options", "HUMAN_TURN_TIMEOUT", "MAX_SECONDS", "NAME_MAX"]

#: T9: the turn clock when the creator does not choose one (a human always sits).
HUMAN_TURN_TIMEOUT = 60.0
#: No clock option may be longer than an hour.
MAX_SECONDS = 3600.0
#: Longest player name, in characters.
NAME_MAX = 32

_SECONDS = ("call_window", "vote_timeout", "bito_timeout", "turn_timeout", "trick_display")


def server_options(raw: Any) -> tuple[dict, list[dict]]:
    """Validate a ``create`` request's options: ``(table options, bot specs)``.

    ``bots`` is a count of seats for the built-in random bot, or a list of spec strings
    (``builtin:random:cheat=0.1,attention=0.5``); bots take the last seats. Raises
    ``ValueError`` with a message fit for the wire.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ValueError("options must be a map")
    options = dict(raw)
    bots = options.pop("bots", 0)
    options.setdefault("turn_timeout", HUMAN_TURN_TIMEOUT)
    for key in _SECONDS:
        value = options.get(key)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{key} must be finite")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > MAX_SECONDS:
            raise ValueError(f"{key} must be at most {MAX_SECONDS:g} seconds")
    if "game" in options and not isinstance(options["game"], str):
        raise ValueError("game must be a string")
    full = table_options(options)
    players = full["players"]
    if isinstance(bots, bool):
        raise ValueError("bots must be a count or a list of bot specs")
    if isinstance(bots, int):
        specs = [{"policy": "random"}] * bots
    elif isinstance(bots, list) and all(isinstance(b, str) for b in bots):
        specs = [parse_spec(b) for b in bots]
    else:
        raise ValueError("bots must be a count or a list of bot specs like 'builtin:random:cheat=0.1'")
    if not 0 <= len(specs) <= players - 1:
        raise ValueError(f"bots must be 0..{players - 1}: one seat at least is the creator's")
    return full, specs


@dataclass(eq=False)
class Seat:
    index: int
    kind: str = "vacant"  # vacant | human | bot
    player: int | None = None
    name: str = ""
    conn: Any = None  # the player's connection; None while away
    spec: dict | None = None  # bot seats: the policy spec
    replaced: bool = False  # a human who left during the game (T9)
    bot: RandomBot | None = field(default=None, repr=False)  # bot seats: this game's policy
    turn_seq: int | None = None  # the event seq of the last "turn" sent (None: not prompted)
    turn_deadline: float | None = None  # T9: when the turn clock of this seat runs out
    # §5 "Acting on what you saw": the turns sent since the situation began, as (seq, honest
    # actions), and the seq of this seat's last accepted action.
    offers: list[tuple[int, list]] = field(default_factory=list, repr=False)
    acted_seq: int = 0
    seed: bytes | None = field(default=None, repr=False)  # T10: the player's part of the next deal

    @property
    def away(self) -> bool:
        return self.kind == "human" and self.conn is None

    def info(self) -> dict:
        out: dict = {"seat": self.index, "kind": self.kind, "name": self.name}
        if self.kind == "human":
            out["player"] = self.player
            out["away"] = self.conn is None
            out["seeded"] = self.seed is not None
        if self.kind == "bot":
            out["replaced"] = self.replaced
        return out

    def vacate(self) -> None:
        self.kind, self.player, self.name, self.conn = "vacant", None, "", None
        self.spec, self.replaced, self.bot, self.seed = None, False, None, None
        self.turn_seq = self.turn_deadline = None
        self.offers, self.acted_seq = [], 0
