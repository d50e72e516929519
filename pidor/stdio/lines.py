"""The lines of the ``stdio:`` bot protocol (``protocol/STDIO.md``), sans-IO: what the host
writes to a bot's stdin, made from the seat's :class:`~pidor.bots.policy.Observation`, and
what it reads back from its stdout, checked.

The host writes one JSON object per line (``type``: ``hello``, ``start``, ``turn``,
``pay``, ``window``, ``court``, ``end``, ``quit``), ``type`` first, then the decision's own
fields, ``view`` and ``events`` last (so that a line-oriented tool finds them first), and
reads one JSON value per line, only after ``hello`` and the four decisions. Every line of a
game but ``quit`` carries ``events``: the seat's projected events since the line before
(all of them, in order, over the game's lines). A decision's line also carries ``view``,
the seat's view now.

An answer that is not what was asked raises :class:`BadAnswer` with one line that says
why: the seat forfeits its game (``garbage``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..bots.policy import Observation

__all__ = ["PROTOCOL", "MAX_ANSWER", "BadAnswer", "Hello", "encode", "hello", "parse_hello", "start", "turn",
           "window", "court", "end", "QUIT", "parse_choice", "parse_call", "parse_vote"]

PROTOCOL = "pidor-stdio/1"
#: The longest answer line taken, in bytes (an action is a few dozen): beyond, garbage.
MAX_ANSWER = 64 << 10
#: The action that pays a card for the mark (``pidor.engine.payments``, D12, T14): a turn
#: whose honest options are all of it is a payment choice (``pay``), as the SDK's ``on_payment``.
GIVE = "give"


class BadAnswer(ValueError):
    """The bot's line is not an answer to what it was asked (its game is forfeited: garbage)."""


@dataclass(frozen=True)
class Hello:
    """What a bot says of itself: its ``name``; ``calls: false``, that it never calls
    «пидор!» (the host passes every call window for it without asking); ``cheats: false``,
    that it plays honest options only (its turns list no cheats)."""

    name: str | None = None
    calls: bool = True
    cheats: bool = True


def encode(msg: dict) -> bytes:
    """One line: compact JSON (no spaces), UTF-8, ending in a newline."""
    return (json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _value(line: bytes | str, what: str):
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAnswer(f"its answer to {what} is not UTF-8") from None
    try:
        return json.loads(line)
    except ValueError:
        raise BadAnswer(f"its answer to {what} is not JSON: {_shown(line)}") from None


def _shown(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")


def hello() -> dict:
    return {"type": "hello", "protocol": PROTOCOL}


def parse_hello(line: bytes | str) -> Hello:
    """The bot's answer to ``hello``: an object with ``name``, ``calls``, ``cheats`` (each
    optional; other fields are ignored)."""
    value = _value(line, "hello")
    if not isinstance(value, dict):
        raise BadAnswer(f"its answer to hello is not an object: {_shown(json.dumps(value))}")
    name = value.get("name")
    if name is not None and not (isinstance(name, str) and name.isprintable() and 0 < len(name) <= 32):
        raise BadAnswer("its name (hello) is not 1..32 printable characters")
    for key in ("calls", "cheats"):
        if type(value.get(key, True)) is not bool:
            raise BadAnswer(f"{key} (hello) is not true or false")
    return Hello(name, value.get("calls", True), value.get("cheats", True))


def start(obs: Observation, events: list[dict], seed: bytes | None) -> dict:
    """A game begins: the seat, the game and its options, the seed a bot may draw its
    chance from (the match's, for this seat and game: the same bot then plays the same
    games whatever ran before, T10), the view and the events so far."""
    return {"type": "start", "game": obs.game, "seat": obs.seat, "players": obs.players, "rules": obs.rules,
            "seed": None if seed is None else seed.hex(), "view": obs.view, "events": events}


def turn(obs: Observation, events: list[dict], options: list[dict], honest: int) -> dict:
    """The seat may act: ``options`` (the honest ones first, ``honest`` of them, then the
    cheats its hands can make), ``may_wait`` (it may also let the turn go: durak's
    thrower, D5; and a seat with no honest option). A payment for the mark (its honest
    options all ``give``) is ``pay``."""
    kind = "pay" if honest and all(o.get("type") == GIVE for o in options[:honest]) else "turn"
    return {"type": kind, "seat": obs.seat, "honest": honest, "may_wait": not honest or obs.may_wait,
            "options": options, "view": obs.view, "events": events}


def window(obs: Observation, events: list[dict]) -> dict:
    """A call window on another seat's action (T3): who acted, what, and the rules the
    action visibly broke (judged on what the seat saw; empty: it looked honest)."""
    w = obs.window
    return {"type": "window", "seat": obs.seat, "actor": w["seat"], "action": w["action"],
            "visible": list(obs.visible_violations(w["seat"], w["action"])), "view": obs.view, "events": events}


def court(obs: Observation, events: list[dict]) -> dict:
    """The court sits on a called action (T4): who called whom, the action and the rules
    it broke (the court shows them)."""
    c = obs.court
    return {"type": "court", "seat": obs.seat, "caller": c["caller"], "accused": c["accused"], "action": c["action"],
            "rules": [r["id"] for r in c["rules"]], "view": obs.view, "events": events}


def end(result: dict, events: list[dict]) -> dict:
    """The game is over: its result (``loser``, ``draw``, ``order`` and the game's own
    fields) and the last events."""
    return {"type": "end", "result": result, "events": events}


QUIT = {"type": "quit"}


def parse_choice(line: bytes | str, options: list[dict], may_wait: bool) -> int | None:
    """The answer to ``turn`` or ``pay``: an option's number, the option itself (an action
    object equal to one), or ``null`` to let the turn go where ``may_wait``; the option's
    index, ``None`` for null."""
    value = _value(line, "a turn")
    if value is None:
        if not may_wait:
            raise BadAnswer("it answered null to a turn it must play")
        return None
    if type(value) is int:
        if not 0 <= value < len(options):
            raise BadAnswer(f"it chose option {value} of {len(options)} (0..{len(options) - 1})")
        return value
    if isinstance(value, dict):
        for i, o in enumerate(options):
            if o == value:
                return i
        raise BadAnswer(f"its action {_shown(json.dumps(value, ensure_ascii=False))} is none of the options")
    raise BadAnswer(f"its answer to a turn is no option number, action or null: {_shown(json.dumps(value))}")


def parse_call(line: bytes | str) -> bool:
    """The answer to ``window``: ``true`` calls «пидор!», ``false`` passes."""
    value = _value(line, "a call window")
    if type(value) is not bool:
        raise BadAnswer(f"its answer to a call window is not true or false: {_shown(json.dumps(value))}")
    return value


def parse_vote(line: bytes | str) -> bool | None:
    """The answer to ``court``: ``true`` «пидор» (guilty), ``false`` «чист», ``null`` abstains."""
    value = _value(line, "a court")
    if value is not None and type(value) is not bool:
        raise BadAnswer(f"its vote is not true, false or null: {_shown(json.dumps(value))}")
    return value
