"""``stdio:`` bots: a bot in any language as one loop over stdin and stdout
(``protocol/STDIO.md``). The host (this package) does the rest: the protocol, ``seq`` and
stale refusals, call windows for a bot that never calls, reconnects and the clocks.

* :mod:`.lines`: the lines, made from a seat's observation and checked when read back;
* :mod:`.program`: the bot's process (pipes, deadlines, its stderr);
* :mod:`.seat`: the seat's :class:`~pidor.bots.policy.Policy` that asks the bot;
* :mod:`.bridge`: ``pidor bridge``, one bot at a server over TCP.

Where a ``stdio:`` bot plays: ``pidor match`` (in this process, or on the match's server
through ``pidor bridge`` when another entrant is a ``cmd:`` or ``tcp:`` one),
``pidor conform stdio:…`` (through ``pidor bridge``) and ``pidor bridge``.
"""

from __future__ import annotations

import sys

__all__ = ["PREFIX", "bridge_command"]

#: How a spec names a stdio bot: ``stdio:COMMAND LINE``.
PREFIX = "stdio:"


def bridge_command(argv: list[str] | tuple[str, ...]) -> list[str]:
    """The command line that plays the ``stdio:`` bot ``argv`` as a ``cmd:`` program (the
    seat, server and token from ``PIDOR_HOST`` … ``PIDOR_TOKEN``): ``pidor bridge``."""
    return [sys.executable, "-m", "pidor.stdio.bridge", "--", *argv]
