"""The exact endgame of two-player durak (podkidnoy and perevodnoy, D3-D9): once the deck
is empty, or holds only the trump card face up under it (D1), and two players remain, each
can tell the other's hand (every card not in his own hand, on the table, in the discard or
set aside, V10), and the rest of the game is a game of perfect information.
:class:`Endgame` searches it to the end: negamax with alpha-beta over win (1), draw (0)
and loss (-1), a transposition table, and a node limit (:class:`TooDeep` when it is
exceeded: the caller plays its own policy then).

The moves are the honest ones (D3-D7): lead any card; throw in a rank on the table while
the bout has fewer attacking cards than its limit; «бито» when all is covered; cover an
uncovered card with a card that beats it (D4); take (D6); in perevodnoy transfer with a
card of the rank while nothing is covered and the other holds more cards than the table's
attack (D7). Taking a table that is all covered (never better in practice) is left out.

The table lets both act at once (D3); the search orders them as the attacker first: where
the attacker may throw in, he throws in or passes (with cards uncovered the defender then
moves; with all covered, passing is «бито»); after each cover the attacker may throw in
again. So the attacker may pile cards on before the defender answers, as he can at the
table when he acts first; a defender's win here holds whoever acts first.

The rest of the rules as the engine plays them: at most ``cap`` (6, D3) attacking cards
and no more than the defender held when he became defender; a player whose hand is empty
leaves (D9) at once, the bout goes on without him; the bout ends «бито» when all is covered
and the attacker cannot or will not throw in (the defender then attacks, D5) or «беру» (the
attacker attacks again, D6); then the trump card, if it is still under the deck, goes to
the attacker if he holds fewer than six, else to the defender if he does (D8; nobody leaves
while it lies there, D9); then with both hands empty the game is drawn, with one empty its
holder's opponent is the durak.

A position is ``(attacker's hand, defender's hand, uncovered attacking cards, every card on
the table, limit, kind, deck)``, hands, table and deck (0, or the trump card still to
draw) as bit masks over card numbers (``suit * 13 + rank - 2``); ``kind`` is
:data:`ATTACK` (the attacker to move: a lead on an empty table) or :data:`DEFEND`. Values
are for the player to move; seats do not matter (the game is the same for either seat).
"""

from __future__ import annotations

from .engine import HAND

__all__ = ["Endgame", "TooDeep", "ATTACK", "DEFEND", "NODES", "mask", "cards_of"]

ATTACK, DEFEND = 0, 1
#: The nodes a search may visit before it gives up (:class:`TooDeep`): about 0.1 s of CPU
#: here (a solved position stays in the table for the next moves).
NODES = 20000

#: Every card of a rank (bit mask), by rank index.
_RANKS = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]


class TooDeep(Exception):
    """The search visited more nodes than its limit allows."""


def mask(cards) -> int:
    """The bit mask of card numbers."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(m: int) -> list[int]:
    """The card numbers of a bit mask, lowest first."""
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


def _ranks(table: int, _cache: dict = {}) -> int:  # noqa: B006 (a cache: the same for every game)
    """Every card of a rank on ``table``."""
    r = _cache.get(table)
    if r is None:
        r = 0
        for c in cards_of(table):
            r |= _RANKS[c % 13]
        if len(_cache) < 1 << 16:
            _cache[table] = r
    return r


class Endgame:
    """The exact search for one game's endgame: ``trump`` suit, ``transfers`` (perevodnoy,
    D7), ``cap`` (the most attacking cards in a bout, D3; V9 ``no_limit``: the deck's size).
    The transposition table is kept between searches: the positions of later moves are
    mostly in it."""

    def __init__(self, trump: int, transfers: bool = False, cap: int = 6, nodes: int = NODES) -> None:
        self.trump = trump
        self.transfers = transfers
        self.cap = cap
        self.nodes = nodes
        self.visited = 0  # nodes of the current search
        self.table: dict[tuple, tuple[int, int]] = {}
        self.first: dict[tuple, int] = {}  # the move that was best, by its place among the moves
        self.path: set[tuple] = set()  # the bouts begun on the way here (perevodnoy can go round)
        # the cards that beat each card (D4), and the order a card is tried in (cheapest first)
        self.beaters = [self._beaters(t) for t in range(52)]
        self.order = sorted(range(52), key=lambda c: (c // 13 == trump, c % 13, c))

    def _beaters(self, t: int) -> int:
        suit, m = t // 13, 0
        for c in range(52):
            if (c > t) if c // 13 == suit else (c // 13 == self.trump):
                m |= 1 << c
        return m

    def _cheap(self, m: int) -> list[int]:
        return [c for c in self.order if m >> c & 1]

    # --- the search -----------------------------------------------------------------

    def value(self, pos: tuple) -> int:
        """The value of ``pos`` for the player to move (1 win, 0 draw, -1 loss); raises
        :class:`TooDeep` past the node limit."""
        self.visited = 0
        self.path = set()
        return self._node(*pos, -1, 1)

    def moves(self, pos: tuple) -> list[tuple]:
        """The moves of the player to move: ``("attack", c)`` (a lead or a throw-in),
        ``("pass",)`` (the attacker: «бито» when all is covered, else let the defender
        answer), ``("cover", c, t)`` (``c`` on the attacking card ``t``), ``("take",)``,
        ``("transfer", c)``."""
        return [m for m, _ in self._children(*pos)]

    def best(self, pos: tuple, prefer: tuple | None = None) -> tuple[tuple, int]:
        """The best move of ``pos`` and its value. ``prefer`` (the caller's own choice, if it
        is among the moves) is kept unless another move is worth more; in a lost position
        every move loses and ``prefer`` stands."""
        self.visited = 0
        self.path = set()
        children = self._children(*pos)
        if prefer is not None:
            children.sort(key=lambda mc: mc[0] != prefer)
        best_move, best = None, -2
        for move, child in children:
            v = self._child(child, best if best > -2 else -1, 1)
            if v > best:
                best_move, best = move, v
                if v == 1:
                    break
        return best_move, best

    def swindle(self, pos: tuple, prefer: tuple | None = None) -> tuple:
        """In a lost position (every move loses against best play): the move after which the
        other has the smallest share of winning answers, so the likeliest to go wrong
        (``prefer`` on a tie). Raises :class:`TooDeep` like :meth:`value`."""
        self.visited = 0
        self.path = set()
        return min(self._shares(pos), key=lambda ms: (ms[1], ms[0] != prefer))[0]

    def _shares(self, pos: tuple) -> list[tuple[tuple, float]]:
        """Each move of ``pos`` with the share of the other's answers that win after it (a
        move after which the mover moves again: the least share of his next moves)."""
        out = []
        for move, (same, rest) in self._children(*pos):
            if type(rest) is int:
                share = 0.0 if rest > -1 else 1.0
            elif same:
                share = min(s for _, s in self._shares(rest))
            else:
                answers = self._children(*rest)
                share = sum(self._child(c, 0, 1) >= 1 for _, c in answers) / len(answers)
            out.append((move, share))
        return out

    def _child(self, child: tuple, alpha: int, beta: int) -> int:
        """The value of a child for the player who moved to it: ``(True, v)`` a finished
        game; ``(same, pos)`` a position moved by the same player or the other."""
        same, rest = child
        if type(rest) is int:
            return rest
        if same:
            return self._node(*rest, alpha, beta)
        return -self._node(*rest, -beta, -alpha)

    def _node(self, A: int, D: int, U: int, C: int, lim: int, kind: int, K: int, alpha: int, beta: int) -> int:
        key = (A, D, U, C, lim, kind, K)
        tt = self.table
        lo, hi = tt.get(key, (-1, 1))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        self.visited += 1
        if self.visited > self.nodes:
            raise TooDeep
        bout = kind == ATTACK and not C
        if bout:
            if key in self.path:
                return 0  # T13: round in circles, a draw (its third time; here at once)
            self.path.add(key)
        a0 = alpha
        best, best_i = -2, 0
        children = self._children(A, D, U, C, lim, kind, K)
        i0 = self.first.get(key, 0)
        if i0:
            children.insert(0, children.pop(i0))
        for i, (_, child) in enumerate(children):
            same, rest = child
            if type(rest) is int:
                v = rest
            elif same:
                v = self._node(*rest, alpha, beta)
            else:
                v = -self._node(*rest, -beta, -alpha)
            if v > best:
                best, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if bout:
            self.path.discard(key)
        if best_i:
            self.first[key] = best_i if not i0 else (i0 if best_i == 0 else best_i - (best_i <= i0))
        if best <= a0:
            tt[key] = (lo, best)
        elif best >= beta:
            tt[key] = (best, hi)
        else:
            tt[key] = (best, best)
        return best

    # --- the rules --------------------------------------------------------------------

    def _children(self, A: int, D: int, U: int, C: int, lim: int, kind: int, K: int) -> list[tuple]:
        """Each move with its child: ``(move, (same mover, position or value for the mover))``."""
        out = []
        if kind == ATTACK:
            if not C:  # the lead (D3): any card
                for c in self._cheap(A):
                    b = 1 << c
                    out.append((("attack", c), self._after_attack(A ^ b, D, b, b, lim, K)))
                return out
            natt = (C.bit_count() + U.bit_count()) // 2
            if natt < lim:
                for c in self._cheap(A & _ranks(C)):
                    b = 1 << c
                    out.append((("attack", c), self._after_attack(A ^ b, D, U | b, C | b, lim, K)))
            if U:
                out.append((("pass",), (False, (A, D, U, C, lim, DEFEND, K))))
            else:
                out.append((("pass",), self._bito(A, D, K, True)))
            return out
        # the defender: transfers (D7), covers (D4), take (D6)
        if self.transfers and U == C:
            rank = (U & -U).bit_length() - 1
            natt = U.bit_count()
            rm = _RANKS[rank % 13]
            if U & rm == U and A.bit_count() > natt:
                for c in self._cheap(D & rm):
                    b = 1 << c
                    # the defender now attacks with the table; the attacker defends
                    new_lim = min(self.cap, A.bit_count())
                    # (from the transferring player's side: his if he may throw in, else his opponent's)
                    out.append((("transfer", c), self._after_attack(D ^ b, A, U | b, C | b, new_lim, K)))
        for t in cards_of(U):
            for c in self._cheap(D & self.beaters[t]):
                b = 1 << c
                out.append((("cover", c, t), self._after_cover(A, D ^ b, U ^ (1 << t), C | b, lim, K)))
        out.append((("take",), self._take(A, D | C, K)))
        return out

    def _after_attack(self, A: int, D: int, U: int, C: int, lim: int, K: int) -> tuple:
        """After the attacker laid a card: he moves on if he may throw in more, else the
        defender answers (the child from the attacker's side)."""
        natt = (C.bit_count() + U.bit_count()) // 2
        if A and natt < lim and A & _ranks(C):
            return (True, (A, D, U, C, lim, ATTACK, K))
        return (False, (A, D, U, C, lim, DEFEND, K))

    def _after_cover(self, A: int, D: int, U: int, C: int, lim: int, K: int) -> tuple:
        """After a cover (the child from the defender's side)."""
        natt = (C.bit_count() + U.bit_count()) // 2
        if A and natt < lim and A & _ranks(C):
            return (False, (A, D, U, C, lim, ATTACK, K))
        if U:
            return (True, (A, D, U, C, lim, DEFEND, K))
        v = self._bito(A, D, K, False)  # from the attacker's side: turned to the defender's
        return (not v[0], v[1]) if type(v[1]) is not int else (True, -v[1])

    def _draw(self, A: int, D: int, K: int) -> tuple[int, int, int]:
        """D8: the deck's last card (the trump card, face up) to the attacker if he holds
        fewer than six, else to the defender if he does."""
        if K:
            if A.bit_count() < HAND:
                return A | K, D, 0
            if D.bit_count() < HAND:
                return A, D | K, 0
        return A, D, K

    def _bito(self, A: int, D: int, K: int, attacker: bool) -> tuple:
        """D5: the table to the discard; the child from the attacker's side (``attacker``
        moved last; else the caller turns it). The defender leads next."""
        A, D, K = self._draw(A, D, K)
        if not K and (not A or not D):
            # D9: with both hands empty a draw; else whoever still holds cards is the durak
            v = 0 if not A and not D else (1 if not A else -1)
            return (True, v)
        # the defender attacks: from the attacker's side, his opponent moves
        return (False, (D, A, 0, 0, min(self.cap, A.bit_count()), ATTACK, K))

    def _take(self, A: int, D: int, K: int) -> tuple:
        """D6: the defender took (the child from the defender's side): the attacker leads again."""
        A, D, K = self._draw(A, D, K)
        if not A:
            return (True, -1)  # D9: the attacker is out, the defender is the durak
        return (False, (A, D, 0, 0, min(self.cap, D.bit_count()), ATTACK, K))
