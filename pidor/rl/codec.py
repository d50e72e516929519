"""The fixed discrete action encoding of a game (``docs/RL.md`` "Actions"), read off its
engine's ``ACTIONS``, its deck and its players: never off its name.

Ids, in this order:

1. the table's moves, the same in every game: ``pass`` and ``call`` (a call window, T2,
   T3), ``guilty``, ``clean`` and ``abstain`` (a court, T4), ``wait`` (a seat that may act
   but need not: durak's thrower-in, D5);
2. one *head* per game action kind and values of its arguments other than ``cards``, kinds
   in the order the engine declares them, each argument's values in a fixed order
   (:data:`DOMAINS`): ``card`` the deck's cards (suit by suit, low to high), ``seat``
   ``0..players-1``, ``index`` ``0..deck`` (an index or a count of cards never exceeds the
   deck), ``rank`` 2..14, ``suit`` 0..3 (clubs, diamonds, hearts, spades);
3. when some kind takes a ``cards`` argument: one *card token* per card of the deck and an
   ``end`` token.

A ``cards`` argument (a set or a sequence of cards: simple durak's lead) is chosen one
card at a time: its kind's head, then each card in the order the engine lists it, then
``end``. The masks of each of these steps come from the engine's own lists of possible and
honest actions (a prefix tree of them), so every action the engine lists is reachable,
nothing else is, and a step whose continuation is forced is taken without asking. The
alternative, one id per subset of the deck, is 2^36 ids; one per subset the engine could
ever list is not fixed; this scheme is fixed, small (a deck and one id more) and exact.
"""

from __future__ import annotations

from typing import Callable

from ..cards import card_code, deck as full_deck, rank_code, suit_code
from ..engine.game import Action, Game

__all__ = ["ActionCodec", "TABLE_MOVES", "DOMAINS", "Encoding"]

#: The table's moves (ids ``0..5``).
TABLE_MOVES = ("pass", "call", "guilty", "clean", "abstain", "wait")
PASS, CALL, GUILTY, CLEAN, ABSTAIN, WAIT = range(len(TABLE_MOVES))

#: An argument type -> (its values given (players, deck size), how a value reads: its wire
#: form, ``engine.game.action_to_data``).
DOMAINS: dict[str, tuple[Callable[[int, int], tuple[int, ...]], Callable[[int], str]]] = {
    "card": (lambda players, size: tuple(full_deck(size)), card_code),
    "seat": (lambda players, size: tuple(range(players)), str),
    "index": (lambda players, size: tuple(range(size + 1)), str),
    "rank": (lambda players, size: tuple(range(2, 15)), rank_code),
    "suit": (lambda players, size: tuple(range(4)), suit_code),
}


class Encoding(ValueError):
    """An action the encoding has no id for (a game whose argument falls outside its type's
    domain): a bug to report, never a player's mistake."""


class _Kind:
    __slots__ = ("name", "offset", "size", "args", "cards")

    def __init__(self, name: str, offset: int, args: list[tuple[int, tuple[int, ...], dict[int, int]]],
                 cards: tuple[int, ...]) -> None:
        self.name = name
        self.offset = offset
        self.args = args  # (position in the action, values, value -> its index), non-cards arguments
        self.cards = cards  # positions of the cards arguments
        size = 1
        for _, values, _ in args:
            size *= len(values)
        self.size = size


class ActionCodec:
    """The encoding of ``engine``'s actions at a table of ``players`` with a ``deck``-card deck."""

    def __init__(self, engine: type[Game], players: int, deck: int) -> None:
        self.engine = engine
        self.players = players
        self.deck = tuple(full_deck(deck))
        self.card_index = {c: i for i, c in enumerate(self.deck)}
        self.kinds: list[_Kind] = []
        offset = len(TABLE_MOVES)
        for name, spec in engine.ACTIONS.items():
            args, cards = [], []
            for pos, (arg, typ) in enumerate(spec, start=1):
                if typ == "cards":
                    cards.append(pos)
                    continue
                domain = DOMAINS.get(typ)
                if domain is None:
                    raise Encoding(f"{engine.name}: action {name}.{arg} has type {typ!r}, which the RL encoding "
                                   f"does not know (it knows {', '.join([*DOMAINS, 'cards'])})")
                values = domain[0](players, deck)
                args.append((pos, values, {v: i for i, v in enumerate(values)}))
            kind = _Kind(name, offset, args, tuple(cards))
            self.kinds.append(kind)
            offset += kind.size
        self.by_name = {k.name: k for k in self.kinds}
        self.heads = offset
        composite = any(k.cards for k in self.kinds)
        #: The first card token and the ``end`` token (``None``: no kind takes ``cards``).
        self.card0 = offset if composite else None
        self.end = offset + len(self.deck) if composite else None
        #: The number of ids.
        self.size = offset + len(self.deck) + 1 if composite else offset
        self._ids: dict[Action, int] = {}  # simple actions met so far -> their ids
        self._heads: list[tuple[_Kind, tuple[int, ...]]] | None = None

    # ------------------------------------------------------------------ encode

    def composite(self, kind: str) -> bool:
        return bool(self.by_name[kind].cards)

    def head(self, action: Action) -> int:
        """The id of ``action``'s kind and non-``cards`` arguments (the whole action when it
        has no ``cards`` argument)."""
        found = self._ids.get(action)
        if found is not None:
            return found
        kind = self.by_name.get(action[0])
        if kind is None:
            raise Encoding(f"{self.engine.name} has no action kind {action[0]!r}")
        i = 0
        for pos, values, index in kind.args:
            k = index.get(action[pos])
            if k is None:
                raise Encoding(f"{self.engine.name}: {action!r}: argument {pos} is outside the encoding's "
                               f"{len(values)} values")
            i = i * len(values) + k
        found = kind.offset + i
        if not kind.cards:
            self._ids[action] = found
        return found

    def tokens(self, action: Action) -> tuple[int, ...]:
        """The ids that choose ``action``: its head, then for each ``cards`` argument its
        cards' tokens and ``end``."""
        head = self.head(action)
        kind = self.by_name[action[0]]
        if not kind.cards:
            return (head,)
        out = [head]
        card0, index = self.card0, self.card_index
        for pos in kind.cards:
            for c in action[pos]:
                k = index.get(c)
                if k is None:
                    raise Encoding(f"{self.engine.name}: {action!r}: card {c!r} is not in the deck")
                out.append(card0 + k)
            out.append(self.end)
        return tuple(out)

    # ------------------------------------------------------------------ decode

    def decode(self, tokens: tuple[int, ...]) -> Action:
        """The action ``tokens`` choose (as :meth:`tokens` made them)."""
        kind, values = self._head(tokens[0])
        args: dict[int, object] = dict(zip((pos for pos, _, _ in kind.args), values))
        rest = list(tokens[1:])
        for pos in kind.cards:
            cards = []
            while rest[0] != self.end:
                cards.append(self.deck[rest.pop(0) - self.card0])
            rest.pop(0)
            args[pos] = tuple(cards)
        return (kind.name, *(args[p] for p in range(1, len(args) + 1)))

    def _head(self, head: int) -> tuple[_Kind, tuple[int, ...]]:
        heads = self._heads
        if heads is None:
            heads = self._heads = [self._unrank(k, i) for k in self.kinds for i in range(k.size)]
        return heads[head - len(TABLE_MOVES)]

    @staticmethod
    def _unrank(kind: _Kind, i: int) -> tuple[_Kind, tuple[int, ...]]:
        values = []
        for _, domain, _ in reversed(kind.args):
            i, k = divmod(i, len(domain))
            values.append(domain[k])
        return kind, tuple(reversed(values))

    def name(self, i: int) -> str:
        """How id ``i`` reads: ``pass``, ``cover Th 0``, ``lead …`` (a head waiting for its
        cards), ``card 6h``, ``end``."""
        if not 0 <= i < self.size:
            raise IndexError(f"no id {i}: the ids are 0..{self.size - 1}")
        if i < len(TABLE_MOVES):
            return TABLE_MOVES[i]
        if i < self.heads:
            kind, values = self._head(i)
            spec = self.engine.ACTIONS[kind.name]
            words = [kind.name]
            for (pos, _, _), value in zip(kind.args, values):
                words.append(DOMAINS[spec[pos - 1][1]][1](value))
            return " ".join(words) + (" …" if kind.cards else "")
        if i == self.end:
            return "end"
        return "card " + card_code(self.deck[i - self.card0])
