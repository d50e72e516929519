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

from dataclasses import dataclass, field

from ..engine.seeds import Rng

__all__ = ["RandomBot", "parse_spec", "PARAMS"]

PARAMS = ("cheat", "attention", "false_call", "acquit")


def parse_spec(spec: str) -> dict:
    """``builtin:random:cheat=0.1`` -> ``{"policy": "random", "cheat": 0.1}``; ``ValueError``
    with a clear message on anything else."""
    parts = spec.split(":", 2)
    if len(parts) < 2 or parts[0] != "builtin" or parts[1] != "random":
        raise ValueError(f"unknown seat spec {spec!r}: use builtin:random[:cheat=P,attention=P,false_call=P]")
    out: dict = {"policy": "random"}
    if len(parts) == 3 and parts[2]:
        for item in parts[2].split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or key not in PARAMS:
                raise ValueError(f"bad parameter {item!r} in {spec!r}; known: {', '.join(PARAMS)}")
            try:
                p = float(value)
            except ValueError:
                raise ValueError(f"{key} must be a number in [0, 1], not {value!r}") from None
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"{key} must be in [0, 1], not {p}")
            out[key] = p
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
        p = self.attention if table.window["violations"] else self.false_call
        return bool(p) and self.rng.random() < p

    def vote(self, table) -> bool:
        """``True`` for «пидор», ``False`` for «чист»."""
        return not (self.acquit and self.rng.random() < self.acquit)
