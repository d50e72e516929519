"""pidor: a headless match server for Russian yard card games where cheating is part of the game."""

__version__ = "0.1.0"
