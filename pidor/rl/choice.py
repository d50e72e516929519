"""One decision of one seat in the encoding of :mod:`.codec`: the ids it may choose now
(every possible one, and the honest ones), and the action its ids make.

A decision is a table move (an answer to a call window, a vote) or a game action; a game
action with a ``cards`` argument takes several ids (its head, its cards, ``end``), each
chosen from the engine's own lists of actions that begin with the ids chosen so far.
"""

from __future__ import annotations

from ..engine.game import Action
from .codec import ActionCodec

__all__ = ["Choice"]


class Choice:
    """The ids a seat may choose now. ``moves``: the table moves it may make (all honest);
    ``possible`` and ``honest``: its game actions as the engine lists them."""

    __slots__ = ("codec", "possible", "honest", "prefix", "_seqs", "_honest_seqs", "_simple")

    def __init__(self, codec: ActionCodec, moves: tuple[int, ...] = (), possible: list[Action] = (),
                 honest: list[Action] = ()) -> None:
        self.codec = codec
        self.prefix: list[int] = []  # the ids of a composite action chosen so far
        head = codec.head
        ids = list(moves)
        honest_ids = list(moves)
        simple: dict[int, Action] = {}
        seqs: dict[int, list[tuple[int, ...]]] | None = None
        honest_seqs: dict[tuple[int, ...], None] = {}  # (ordered: the engine's order)
        composite = codec.card0 is not None
        for a in possible:
            if composite and codec.composite(a[0]):
                t = codec.tokens(a)
                if seqs is None:
                    seqs = {}
                if t[0] not in seqs:
                    seqs[t[0]] = []
                    ids.append(t[0])
                if t not in seqs[t[0]]:
                    seqs[t[0]].append(t)
            else:
                i = head(a)
                simple[i] = a
                ids.append(i)
        for a in honest:
            if composite and codec.composite(a[0]):
                t = codec.tokens(a)
                if t not in honest_seqs:
                    honest_seqs[t] = None
                    honest_ids.append(t[0])
            else:
                honest_ids.append(head(a))
        self.possible = ids
        self.honest = honest_ids
        self._simple = simple
        self._seqs = seqs
        self._honest_seqs = honest_seqs

    def offers(self, tokens: tuple[int, ...]) -> bool:
        """Whether ``tokens`` (:meth:`ActionCodec.tokens`) make one of the possible actions
        (asked before any id is chosen)."""
        if len(tokens) == 1:
            return tokens[0] in self._simple
        return self._seqs is not None and tokens in self._seqs.get(tokens[0], ())

    def tokens_of(self, i: int) -> tuple[int, ...]:
        """The ids of the first action that begins with id ``i``: an honest one if there is."""
        if self._seqs is None or i not in self._seqs:
            return (i,)
        return next((t for t in self._honest_seqs if t[0] == i), self._seqs[i][0])

    def choose(self, i: int) -> Action | int | None:
        """Take id ``i`` (one of :attr:`possible`): a table move (its id), a whole game
        action, or ``None`` when a composite action needs more ids (:attr:`possible` and
        :attr:`honest` then say which)."""
        if not self.prefix:
            action = self._simple.get(i)
            if action is not None:
                return action
            if self._seqs is None or i not in self._seqs:
                return i  # a table move
        prefix = self.prefix
        prefix.append(i)
        seqs = [t for t in self._seqs[prefix[0]] if t[:len(prefix)] == tuple(prefix)]
        while True:
            if len(seqs) == 1 and len(seqs[0]) == len(prefix):
                return self.codec.decode(seqs[0])
            nxt = {t[len(prefix)] for t in seqs}
            if len(nxt) > 1:
                break
            prefix.append(nxt.pop())  # forced: taken without asking
            seqs = [t for t in seqs if t[len(prefix) - 1] == prefix[-1]]
        k = len(prefix)
        self.possible = sorted(nxt)
        key = tuple(prefix)
        self.honest = sorted({t[k] for t in self._honest_seqs if len(t) > k and t[:k] == key})
        self._seqs[prefix[0]] = seqs
        return None
