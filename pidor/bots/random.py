"""The random policy: plays a random honest action, sometimes cheats, calls and votes.

Its parameters (all probabilities, default 0):

* ``cheat``: play a dishonest action, when one exists;
* ``attention``: call («пидор!») an action that broke a rule;
* ``false_call``: call an honest action.

It votes by the rule the court shows: «пидор» when the shown rule was broken, which a
court always shows (T6: only violating actions reach the court), so it votes guilty
unless ``acquit`` (the chance to vote «чист» anyway) says otherwise.

Spec text (``pidor match --seat``): ``builtin:random`` or
``builtin:random:cheat=0.1,attention=0.5,false_call=0.01``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..engine.game import shown
from ..engine.seeds import Rng

__all__ = ["RandomBot", "parse_spec", "PARAMS"]

PARAMS = ("cheat", "attention", "false_call", "acquit")


#: A probability in a spec: a plain decimal number (no exponent, NaN or infinity).
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_USAGE = "use builtin:random[:cheat=P,attention=P,false_call=P,acquit=P]"


def parse_spec(spec: str) -> dict:
    """``builtin:random:cheat=0.1`` -> ``{"policy": "random", "cheat": 0.1}``; ``ValueError``
    with a clear message on anything else. Each parameter is given at most once, as a
    decimal number in [0, 1]; the messages quote a peer's text only shortened."""
    if type(spec) is not str:
        raise ValueError(f"a seat spec is a string; {_USAGE}, not {shown(spec)}")
    parts = spec.split(":", 2)
    if len(parts) < 2 or parts[0] != "builtin" or parts[1] != "random":
        raise ValueError(f"unknown seat spec {shown(spec)}: {_USAGE}")
    out: dict = {"policy": "random"}
    if len(parts) == 3 and parts[2]:
        for item in parts[2].split(","):
            key, sep, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or key not in PARAMS:
                raise ValueError(f"bad parameter {shown(item)} in {shown(spec)}; known: {', '.join(PARAMS)}")
            if key in out:
                raise ValueError(f"{key} is given twice in {shown(spec)}")
            if not _DECIMAL.fullmatch(value) or not float(value) <= 1.0:
                raise ValueError(f"{key} must be a decimal number in [0, 1] like 0.25, not {shown(value)}")
            out[key] = float(value)
    return out


@dataclass
class RandomBot:
    seat: int
    seed: bytes = b""
    cheat: float = 0.0
    attention: float = 0.0
    false_call: float = 0.0
    acquit: float = 0.0
    rng: Rng = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = Rng(self.seed, f"bot:{self.seat}")

    @classmethod
    def from_spec(cls, seat: int, seed: bytes, spec: dict) -> "RandomBot":
        return cls(seat, seed, **{k: spec[k] for k in PARAMS if k in spec})

    def choose_action(self, table) -> tuple | None:
        """An action for this seat now, or ``None`` when it has nothing to do."""
        game = table.game
        honest = game.honest_actions(self.seat)
        if self.cheat and self.seat not in table.honest_only and self.rng.random() < self.cheat:
            dishonest = [a for a in game.actions(self.seat) if game.check(self.seat, a)]
            if dishonest:
                return dishonest[self.rng.below(len(dishonest))]
        if not honest or game.may_wait(self.seat):
            return None
        return honest[self.rng.below(len(honest))]

    def answer(self, table) -> bool:
        """``True`` to call the action in the open window."""
        p = self.attention if table.window.violations else self.false_call
        return bool(p) and self.rng.random() < p

    def vote(self, table) -> bool:
        """``True`` for «пидор», ``False`` for «чист»."""
        return not (self.acquit and self.rng.random() < self.acquit)
