"""The game registry: every game, found by scanning this package's folders.

A game family is one folder here (``pidor/games/<folder>/``) whose ``__init__.py`` sets
``GAMES``, a tuple of :class:`~.spec.GameSpec`. Nothing else names a game: the server,
matches, ``play``, ``replay``, ``verify``, ``conform`` and the bots read the specs, and a
folder's own modules (``belief``, ``text``, ``bots``: :func:`part`) say what differs. To
add a game, add its folder.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Iterable
from dataclasses import replace
from importlib import import_module
from types import ModuleType

from ..engine.game import Game
from ..engine.rules import TABLE_RULES, Rule
from .spec import Conform, EventDoc, GameSpec, ResultField
from .text import GENERIC, GameText

__all__ = ["GAME_IDS", "SPECS", "spec", "game_class", "engine_class", "part", "RULES", "rule", "known", "rule_texts",
           "rules_of", "text_of", "parse_options",
           "GameSpec", "EventDoc", "ResultField", "Conform"]


def _scan() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = import_module(f"{__name__}.{info.name}")
        for s in getattr(module, "GAMES", ()):
            if s.id in found:
                raise ValueError(f"game id {s.id!r} is declared by two folders: {found[s.id].folder} and {info.name}")
            found[s.id] = replace(s, folder=info.name)
    return found


#: game id -> its spec, folders in alphabetical order, each folder's games as it lists them.
SPECS: dict[str, GameSpec] = _scan()
GAME_IDS: tuple[str, ...] = tuple(SPECS)


def spec(game: object) -> GameSpec:
    """The spec of ``game``; ``ValueError`` naming the games there are."""
    found = SPECS.get(game) if type(game) is str else None
    if found is None:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAME_IDS)}")
    return found


def game_class(game: str) -> type[Game]:
    return spec(game).engine


def engine_class(game: str, version: object) -> type[Game]:
    """The class that plays ``game`` as engine ``version`` did (to verify and replay its logs)."""
    return spec(game).engine_class(version)


_PARTS: dict[tuple[str, str], ModuleType | None] = {}


def part(game: str, name: str) -> ModuleType | None:
    """The module ``name`` (``belief``, ``text``, ``bots``) of ``game``'s folder, imported
    when first asked; ``None`` when the folder has none (the caller's generic fallback)."""
    folder = spec(game).folder
    key = (folder, name)
    if key not in _PARTS:
        try:
            _PARTS[key] = import_module(f"{__name__}.{folder}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{folder}.{name}":
                raise
            _PARTS[key] = None
    return _PARTS[key]


def parse_options(game: str, texts: Iterable[str]) -> dict:
    """``--opt KEY=VALUE`` texts for ``game`` (its options and its clocks) -> the values,
    each parsed and checked; ``ValueError`` in one line naming what ``game`` takes."""
    engine = spec(game).engine
    declared = {o.name: o for o in engine.OPTIONS + engine.CLOCKS}
    out: dict = {}
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        option = declared.get(key)
        if not sep or option is None:
            takes = ", ".join(o.brief() for o in declared.values())
            raise ValueError(f"{game} has no option {key!r} (write KEY=VALUE); it takes: {takes}")
        out[key] = option.parse(value)
    return out


def text_of(game: str | None) -> GameText:
    """How ``game`` reads (its folder's ``text.py``; the generic text for a game without one,
    or for ``None``: a log whose game is unknown)."""
    found = part(game, "text") if game in SPECS else None
    return GENERIC if found is None else found.TEXT


def _rules() -> dict[str, Rule]:
    out = {r.id: r for r in TABLE_RULES}
    for s in SPECS.values():  # (games of one family share theirs)
        for r in s.rules:
            out.setdefault(r.id, r)
    return out


#: Every rule id, the table's and every game's -> its rule.
RULES: dict[str, Rule] = _rules()


def rule(rule_id: str) -> Rule:
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule id {rule_id!r}") from None


def known(rule_id: object) -> bool:
    return rule_id in RULES


def rule_texts(rule_id: str) -> dict:
    """The wire/log form of a rule: ``{"id", "ru", "en"}``."""
    r = rule(rule_id)
    return {"id": r.id, "ru": r.ru, "en": r.en}


def rules_of(game: str | None = None) -> list[dict]:
    """Every rule (of ``game``, if given: the table's and that game's) as ``{"id", "ru",
    "en", "violation"}``: what a bot needs to cheat on purpose or to judge a call (the
    ``rules`` request)."""
    rules = RULES.values() if game is None else (*TABLE_RULES, *spec(game).rules)
    return [{"id": r.id, "ru": r.ru, "en": r.en, "violation": r.violation} for r in rules]
