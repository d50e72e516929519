"""Policies of a bot author's own, for the ``py:`` entrant tests (``py:my_policies:CLASS``
with ``tests/bots`` on the path):

* :class:`Plain` is :class:`~pidor.bots.RandomBot` under another name: it must play
  exactly the games ``builtin:random`` plays (same seeds, same decisions);
* :class:`Cheater` cheats whenever it can unless its ``cheat`` parameter says otherwise
  (its own default: 1);
* :class:`NotAPolicy` does not subclass ``Policy``.
"""

from __future__ import annotations

from pidor.bots import RandomBot


class Plain(RandomBot):
    pass


class Cheater(RandomBot):
    PARAMS = {**RandomBot.PARAMS, "cheat": 1.0}


class NotAPolicy:
    pass
