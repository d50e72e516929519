"""Typed options: what a game or a table may be set up with, checked in one place.

Every option a game or the table takes is an :class:`Option`: its name, default, kind and
range, and a line of help in Russian and English. The same declaration checks a value sent
over the wire (``create``), parses a value typed on the command line (``--opt key=value``),
and describes itself in ``--help``, in the ``rules`` reply and in the protocol's pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import parse_card
from .shown import shown

__all__ = ["Option", "check_options", "describe_options", "logged", "named"]

#: No clock may be longer than an hour.
MAX_SECONDS = 3600.0

_TRUE = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
_NONE = ("none", "null", "off", "")


@dataclass(frozen=True, slots=True)
class Option:
    """One option. ``kind`` is one of:

    * ``bool``: ``true`` or ``false``;
    * ``int``: a whole number in ``choices`` if given, else in ``low..high``;
    * ``choice``: one of ``choices`` (strings; ``None`` among them means "none");
    * ``seconds``: a number of seconds ``0..MAX_SECONDS``, or ``None`` for no clock;
    * ``cards``: a list of distinct card codes (``["Qs"]``), empty for none.

    ``quiet``: left out of a log's header while at its default (:func:`logged`). An option
    a game gained after logs were written without it is quiet, so that a game played
    without it is logged byte for byte as before; reading a header fills the default in.
    """

    name: str
    default: Any
    kind: str
    help: dict[str, str] = field(default_factory=dict)
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    quiet: bool = False

    def allowed(self) -> str:
        """The values allowed, in words (for messages and help)."""
        kind = self.kind
        if kind == "bool":
            return "true or false"
        if kind == "int":
            if self.choices:
                return " or ".join(str(c) for c in self.choices)
            return f"a whole number {self.low}..{self.high}"
        if kind == "choice":
            return ", ".join("none" if c is None else str(c) for c in self.choices)
        if kind == "seconds":
            return f"seconds 0..{MAX_SECONDS:g}, or none for no clock"
        if kind == "cards":
            return "card codes like Qs,Jd, or none"
        raise ValueError(f"option {self.name}: unknown kind {kind!r}")

    def check(self, value: Any) -> Any:
        """``value`` as the option holds it (exact types: ``true`` is not 1, ``36.0`` not a
        deck size); ``ValueError`` naming the option and what it allows."""
        kind = self.kind
        ok = False
        if kind == "bool":
            ok = type(value) is bool
        elif kind == "int":
            ok = type(value) is int and (value in self.choices if self.choices else self.low <= value <= self.high)
        elif kind == "choice":
            ok = (value is None or type(value) is str) and value in self.choices
        elif kind == "seconds":
            # (bool is not a number; NaN fails the comparison, infinity the bound)
            ok = value is None or (type(value) in (int, float) and 0 <= value <= MAX_SECONDS)
        elif kind == "cards":
            if value is None:
                value = []
            if type(value) in (list, tuple) and len(value) <= 52 and all(type(c) is str for c in value):
                try:
                    codes = [parse_card(c) for c in value]
                except ValueError:
                    codes = None
                ok = codes is not None and len(set(codes)) == len(codes)
                value = list(value)
        if not ok:
            raise ValueError(f"{self.name} must be {self.allowed()}, not {shown(value)}")
        return value

    def parse(self, text: str) -> Any:
        """A value typed on the command line (``--opt teams=2x2``), checked."""
        kind, low = self.kind, text.strip().lower()
        value: Any = text
        if kind == "bool":
            value = _TRUE.get(low, text)
        elif kind == "int":
            value = int(low) if low.isdigit() else text
        elif kind == "choice":
            value = None if low in _NONE and None in self.choices else text.strip()
        elif kind == "seconds":
            if low in _NONE:
                value = None
            else:
                try:
                    value = float(low)
                except ValueError:
                    value = text
        elif kind == "cards":
            value = [] if low in _NONE else [c.strip() for c in text.split(",") if c.strip()]
        return self.check(value)

    def shown_default(self) -> str:
        if self.default is None:
            return "none"
        if self.kind == "bool":
            return str(self.default).lower()
        return ",".join(self.default) if self.kind == "cards" else f"{self.default:g}" \
            if self.kind == "seconds" else str(self.default)

    def brief(self) -> str:
        """``teams (none, 2x2, 3x3; default none)``: for a one-line error."""
        return f"{self.name} ({self.allowed()}; default {self.shown_default()})"

    def describe(self, lang: str = "en") -> str:
        """``teams: none, 2x2, 3x3 (default none) — V6: team play``."""
        text = self.help.get(lang) or self.help.get("en", "")
        return f"{self.name}: {self.allowed()} (default {self.shown_default()})" + (f" — {text}" if text else "")


def check_options(options: Any, declared: tuple[Option, ...], what: str) -> dict:
    """Complete ``options`` with the defaults of ``declared`` and check every value;
    ``ValueError`` naming an unknown key (and the known ones) or a bad value."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a map, not {shown(options)}")
    known = {o.name: o for o in declared}
    for key in options:
        if key not in known:
            raise ValueError(f"unknown option {shown(key)} for {what}; known: {', '.join(sorted(known))}")
    return {o.name: o.check(options[o.name]) if o.name in options else o.default for o in declared}


def describe_options(declared: tuple[Option, ...], lang: str = "en") -> list[str]:
    """One line per option (``--help``, usage errors)."""
    return [o.describe(lang) for o in declared]


def logged(options: dict, declared: tuple[Option, ...]) -> dict:
    """``options`` as a log's header holds them: the ``quiet`` ones of ``declared`` only
    when they differ from their defaults."""
    quiet = {o.name: o.default for o in declared if o.quiet}
    return {k: v for k, v in options.items() if k not in quiet or v != quiet[k]}


def named(options: dict, declared: tuple[Option, ...]) -> set[str]:
    """The card codes ``options`` name (the values of ``cards`` options, e.g. durak's
    проездной): public as names wherever those cards lie, so an audit of what a seat sees
    does not count such a name as a sighting of the card."""
    return {c for o in declared if o.kind == "cards" for c in options.get(o.name) or ()}
