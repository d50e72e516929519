"""Bot policies: functions of one seat's situation plus the bot's own seeded RNG (T10)."""

from .random import RandomBot, parse_spec

__all__ = ["RandomBot", "parse_spec"]
