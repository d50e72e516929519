"""The registry of games: game id -> its ``Game`` class."""

from __future__ import annotations

from importlib import import_module

from .game import Game

__all__ = ["GAME_IDS", "game_class"]

_WHERE = {
    "pidor": ("pidor", "PidorGame"),
    "podkidnoy": ("durak", "PodkidnoyGame"),
    "perevodnoy": ("durak", "PerevodnoyGame"),
}

GAME_IDS = tuple(_WHERE)


def game_class(name: str) -> type[Game]:
    try:
        module, cls = _WHERE[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAME_IDS)}") from None
    return getattr(import_module(f".{module}", __package__), cls)
