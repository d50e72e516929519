"""Seats and table options as the server sees them (the lobby's side of a table).

A seat is ``vacant``, a ``human`` (a player connected over the protocol, or away), or a
``bot`` (a built-in policy playing in-process). A human who leaves during a game is
replaced by an honest bot for the rest of that game (T9); the seat is vacant after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..bots import Policy, parse_spec
from ..bots.specs import check_plays
from ..engine.game import shown
from ..engine.table import table_options
from .seams import Peer
from .spectators import MAX_WATCH_DELAY

__all__ = ["Seat", "server_options", "HUMAN_TURN_TIMEOUT", "NAME_MAX"]

#: T9: the turn clock when the creator does not choose one (a human always sits).
HUMAN_TURN_TIMEOUT = 60.0
#: Longest player name, in characters.
NAME_MAX = 32


def server_options(raw: Any) -> tuple[dict, list[dict]]:
    """Validate a ``create`` request's options: ``(table options, bot specs)``.

    ``bots`` is a count of seats for the built-in random bot, or a list of spec strings
    (``builtin:random:cheat=0.1,attention=0.5``); bots take the last seats. ``watch_delay``
    (seconds, 0 by default) holds back what spectators see (the runner keeps it out of
    the :class:`~pidor.engine.table.Table`'s options). Every value is
    checked (type and range) before it is used, so a bad one costs nothing. Raises
    ``ValueError`` with a message fit for the wire.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ValueError(f"options must be a map, not {shown(raw)}")
    options = dict(raw)
    bots = options.pop("bots", 0)
    delay = options.pop("watch_delay", 0.0)
    options.setdefault("turn_timeout", HUMAN_TURN_TIMEOUT)
    full = table_options(options)
    if type(delay) not in (int, float) or not 0 <= delay <= MAX_WATCH_DELAY:
        raise ValueError(f"watch_delay must be a number of seconds 0..{MAX_WATCH_DELAY:g}, not {shown(delay)}")
    specs = _bot_specs(bots, full["players"] - 1)
    for s in specs:  # a policy that does not play the game is refused at once
        check_plays(s, full["game"])
    return {**full, "watch_delay": float(delay)}, specs


def _bot_specs(bots: Any, most: int) -> list[dict]:
    """The ``bots`` option as one spec per bot seat: a count (exactly an ``int``) or a list
    of spec strings, at most ``most`` either way. The count, or the list's length, is
    checked before anything is built or parsed."""
    example = "like 'builtin:random:cheat=0.1'"
    if type(bots) is int:
        count = bots
    elif type(bots) is list:
        count = len(bots)
    else:
        raise ValueError(f"bots must be a count or a list of bot specs {example}, not {shown(bots)}")
    if not 0 <= count <= most:
        asked = shown(bots) if type(bots) is int else f"a list of {count}"
        raise ValueError(f"bots must be 0..{most} (one seat at least is the creator's), not {asked}")
    if type(bots) is int:
        return [{"policy": "random"} for _ in range(count)]
    for spec in bots:
        if type(spec) is not str:
            raise ValueError(f"a bot spec is a string {example}, not {shown(spec)}")
    return [parse_spec(spec) for spec in bots]


@dataclass(eq=False)
class Seat:
    index: int
    kind: str = "vacant"  # vacant | human | bot
    player: int | None = None
    name: str = ""
    conn: Peer | None = None  # the player's connection; None while away
    spec: dict | None = None  # bot seats: the policy spec
    replaced: bool = False  # a human who left during the game (T9)
    bot: Policy | None = field(default=None, repr=False)  # bot seats: this game's policy
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

    def seat_bot(self, spec: dict) -> None:
        """A built-in bot takes this seat (``spec`` as ``parse_spec`` gives it)."""
        self.kind, self.spec, self.name = "bot", spec, f"bot-{self.index}"

    def vacate(self) -> None:
        self.kind, self.player, self.name, self.conn = "vacant", None, "", None
        self.spec, self.replaced, self.bot, self.seed = None, False, None, None
        self.turn_seq = self.turn_deadline = None
        self.offers, self.acted_seq = [], 0
