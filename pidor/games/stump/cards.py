"""What a card is worth in «пень» and «пеньки»: its strength in its suit (S1, S6), what beats
it (S2) and how many cards a player takes when he does not beat it (S4, S6).

The engine, the belief and the bots ask these same questions; each answer is a table made
once per variant (and trump) and cached.
"""

from __future__ import annotations

__all__ = ["strength", "take_count", "beaters", "beats"]

#: S1: «пень» ranks the ten above the king: a rank's place in its suit, lowest first.
_STUMP = {6: 0, 7: 1, 8: 2, 9: 3, 11: 4, 12: 5, 13: 6, 10: 7, 14: 8}


def _strength(card: int, penki: bool) -> int:
    rank = card % 13 + 2
    return rank if penki else _STUMP.get(rank, rank - 6)


def _take(card: int, penki: bool) -> int:
    rank = card % 13 + 2
    if rank == 14:
        return 11 if penki else 6  # S6: the ace takes 11 in «пеньки»; S4: 6 in «пень»
    return {13: 4, 12: 3, 11: 2}.get(rank, rank)  # K 4, Q 3, J 2, ten to six by face


#: ``_STRENGTH[penki][card]`` and ``_TAKE[penki][card]`` for every card of the 52.
_STRENGTH = {p: tuple(_strength(c, p) for c in range(52)) for p in (False, True)}
_TAKE = {p: tuple(_take(c, p) for c in range(52)) for p in (False, True)}


def strength(card: int, penki: bool) -> int:
    """How high ``card`` ranks in its suit (S1: «пень»'s ten above the king; S6: ordinary)."""
    return _STRENGTH[penki][card]


def take_count(card: int, penki: bool) -> int:
    """S4, S6: how many cards a player takes from the stack when he does not beat ``card``
    (the whole stack if it holds fewer)."""
    return _TAKE[penki][card]


def _beats(card: int, target: int, trump: int, penki: bool) -> bool:
    suit, on = card // 13, target // 13
    if suit == on:
        return _STRENGTH[penki][card] > _STRENGTH[penki][target]
    return suit == trump


_BEATERS: dict[tuple[int, bool], tuple[frozenset, ...]] = {}


def beaters(trump: int, penki: bool) -> tuple[frozenset, ...]:
    """For every target card, the cards that beat it (S2: a higher card of its suit, or a
    trump on a non-trump); cached per trump and variant."""
    key = (trump, penki)
    table = _BEATERS.get(key)
    if table is None:
        table = _BEATERS[key] = tuple(frozenset(c for c in range(52) if _beats(c, t, trump, penki))
                                      for t in range(52))
    return table


def beats(card: int, target: int, trump: int, penki: bool) -> bool:
    """S2: whether ``card`` honestly beats ``target``."""
    return card in beaters(trump, penki)[target]
