"""The registry of games: game id -> its ``Game`` class."""

from __future__ import annotations

from importlib import import_module

from .game import Game

__all__ = ["GAME_IDS", "game_class", "engine_class"]

_WHERE = {
    "pidor": ("pidor", "PidorGame"),
    "podkidnoy": ("durak", "PodkidnoyGame"),
    "perevodnoy": ("durak", "PerevodnoyGame"),
    "simple": ("simple", "SimpleGame"),
}

GAME_IDS = tuple(_WHERE)


#: The classes imported so far (every table, seat and belief asks for one: once is enough).
_LOADED: dict[str, type[Game]] = {}


def game_class(name: str) -> type[Game]:
    cls = _LOADED.get(name)
    if cls is None:
        try:
            module, cls_name = _WHERE[name]
        except KeyError:
            raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAME_IDS)}") from None
        cls = _LOADED[name] = getattr(import_module(f".{module}", __package__), cls_name)
    return cls


def engine_class(name: str, engine: str) -> type[Game]:
    """The class that plays ``name`` as engine version ``engine`` did (to verify and replay
    its logs): the game's own class, or one of its ``OLDER`` versions; ``ValueError`` if
    this program has neither."""
    cls = game_class(name)
    if engine == cls.version:
        return cls
    older = getattr(cls, "OLDER", {})
    if type(engine) is str and engine in older:
        return older[engine]
    known = ", ".join(repr(v) for v in (cls.version, *older))
    raise ValueError(f"the log was written by {name} engine {engine!r}; this program plays {known}")
