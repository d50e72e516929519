"""Policies of a bot author's own, for the ``py:`` entrant tests (``py:my_policies:CLASS``
with ``tests/bots`` on the path):

* :class:`Plain` is :class:`~pidor.bots.RandomBot` under another name: it must play
  exactly the games ``builtin:random`` plays (same seeds, same decisions);
* :class:`Cheater` cheats whenever it can unless its ``cheat`` parameter says otherwise
  (its own default: 1);
* :class:`NotAPolicy` does not subclass ``Policy``;
* :class:`Announcer` plays as :class:`Plain` and says ``playing in pid N`` on stderr the
  first time it acts in a process (a worker's pid, for the Ctrl-C test).
"""

from __future__ import annotations

import os
import sys

from pidor.bots import RandomBot


class Plain(RandomBot):
    pass


class Cheater(RandomBot):
    PARAMS = {**RandomBot.PARAMS, "cheat": 1.0}


class NotAPolicy:
    pass


_announced: set[int] = set()


class Announcer(RandomBot):
    def act(self, obs):
        if os.getpid() not in _announced:
            _announced.add(os.getpid())
            sys.stderr.write(f"playing in pid {os.getpid()}\n")  # (one write: the workers share the pipe)
            sys.stderr.flush()
        return super().act(obs)
