"""``builtin:ismcts``: information-set Monte Carlo tree search (single observer).

Each iteration samples a deal consistent with everything the seat has seen
(``Observation.determinize``: cards played, taken and paid, the public hand counts, the
trump), walks the one tree of the seat's information set with UCB1 over the moves legal in
that deal (honest moves of everyone; the seat's own cheats at the root), plays on with the
heuristic («пидор», at most :data:`DEPTH` actions) or the greedy rule on engine actions
(durak, to the end), and scores the end: 1 for every seat but the loser, or, cut off, by
how many players hold more cards.

The court is modelled at the root: a cheat the seat tries is called with the chance the
heuristic's :class:`~.heuristic.judgement.CallRates` gives; then it is undone and the mark
is paid (``Game.on_mark``: a card in durak, D12; a pidorstvo in the deal phase of «пидор»,
P7), and the seat plays on honestly.

The rules are the engine's: a determinization is a :class:`~pidor.engine.game.Game`, moves
are its ``honest_actions`` and ``perform`` (``apply`` for a cheat: its check gives the
violations), consequences its ``advance`` (T8); each iteration plays on a fresh copy.

Budget per move, whichever runs out first: ``iterations=N`` and ``steps=N`` (engine actions
simulated, a deal counted as :data:`DEAL_STEPS`; both reproducible: the same seed gives the
same moves), or ``ms=N`` (CPU time: not reproducible). The defaults take about 20 ms of
CPU a move on average here, and 50–70 ms at most (early moves, long playouts). The move played is the most visited one, unless the heuristic's
own choice was visited nearly as often (:data:`UNDECIDED`).
"""

from __future__ import annotations

import math
import time

from ..engine.game import ActionError, Game
from .heuristic import HeuristicPolicy
from .heuristic.judgement import caught
from .heuristic.pidor import pidor_action
from .policy import Observation
from .specs import register

__all__ = ["IsmctsPolicy", "DEPTH", "FULL"]

#: Playout length in actions before the position is scored by hand sizes: durak to its
#: end; «пидор» (hundreds of actions a game) a few tricks ahead.
DEPTH = {"pidor": 40}
FULL = 400
#: What a deal costs (``Observation.determinize``, a copy of the belief's game) in the
#: ``steps`` budget: about as much CPU as this many simulated actions.
DEAL_STEPS = 6
#: The heuristic's own choice stands when the search visited it at least this share as
#: often as its favourite: a few hundred noisy deals tell near-equal moves apart badly,
#: and the heuristic knows durak. (The heuristic lost 72.3% of decided games against
#: ismcts with this rule, 64.8% without: bench_bots.py, seed bench, 400 games each.)
UNDECIDED = 0.8
#: UCB1 exploration constant.
EXPLORE = 0.7


class _Node:
    __slots__ = ("children", "visits", "reward", "seen")

    def __init__(self) -> None:
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.seen = 0  # availability: iterations in which this move was legal


def _turn(game: Game) -> tuple[int, list[tuple]] | None:
    """Who moves next in a simulated game and his honest moves (engine form), or ``None``.
    In durak several may act at once (D3): the giver of a payment, the defender with a card
    to cover, else the first non-defender (from the attacker) who has not said «бито»."""
    seats = game.to_act()
    if len(seats) <= 1:
        return (seats[0], game.honest_actions(seats[0])) if seats else None
    if game.payments:
        s = game.payments[0][0]
        return s, game.honest_actions(s)
    d = game.owner[game.defender]
    if d in seats and not game.may_wait(d):
        return d, game.honest_actions(d)
    for s in seats:
        if s != d and not game.bito[s]:
            honest = game.honest_actions(s)
            if honest:
                return s, honest
    return None


def _step(game: Game) -> tuple[int, list[tuple]] | None:
    """Run what waits (T8); with nobody to move in durak, the «бито» clock runs out (D5).
    The next turn, ``None`` once the game is over or stuck."""
    game.advance()
    if game.result is not None:
        return None
    turn = _turn(game)
    if turn is None and game.on_timer("bito_timeout"):
        game.advance()
        if game.result is None:
            turn = _turn(game)
    return turn if turn and turn[1] else None


def _playout_move(game: Game, seat: int, honest: list[tuple], size: int) -> tuple:
    """The playouts' move: the heuristic's honest choice in «пидор»; in durak the greedy
    rule on the engine's own actions (cheapest cover, take what cannot be covered, lead
    and throw in the cheapest non-trump), which is many times faster than the wire form.
    (The heuristic's own rule, ``durak_move``, made weaker playouts at the same budget:
    the heuristic lost 58.6% of 140 decided games against it, 65.9% of 138 with this.)"""
    if game.name == "pidor":
        view = game.view(seat)
        data = pidor_action(view, [game.action_data(a) for a in honest], set(), size)
        return game.parse_action(data)
    return _durak_move(game, seat, honest)


def _durak_move(game: Game, seat: int, honest: list[tuple]) -> tuple:
    trump = game.trump
    key = lambda a: (a[1] // 13 == trump, a[1] % 13)  # noqa: E731
    kinds: dict[str, list[tuple]] = {}
    for a in honest:
        kinds.setdefault(a[0], []).append(a)
    if "give" in kinds:
        return min(kinds["give"], key=key)
    if seat == game.owner[game.defender] and game.attack:
        plain = [a for a in kinds.get("transfer", ()) if a[1] // 13 != trump]
        if plain:
            return min(plain, key=key)
        covers = kinds.get("cover", [])
        uncovered = [i for i, c in enumerate(game.cover) if c < 0]
        if any(not any(a[2] == i for a in covers) for i in uncovered):
            return ("take",)
        return min(covers, key=key)
    attacks = kinds.get("attack", [])
    if not game.attack:
        return min(attacks, key=key)
    plain = [a for a in attacks if a[1] // 13 != trump or not game.deck]
    if plain:
        return min(plain, key=key)
    return ("bito",)


def _distinct(game: Game, honest: list[tuple]) -> list[tuple]:
    """The moves worth telling apart in durak: of cards alike for the move (a plain card or
    a trump of one rank to lead, throw in or transfer; a plain or a trump beater of the
    hardest uncovered card) only the cheapest. Covering with a dearer card than needed, or
    leading one suit of a rank rather than another, is rarely better, and the search then
    spends its iterations on the choices that matter («пидор»: every honest move)."""
    if game.name == "pidor":
        return honest
    trump = game.trump
    best: dict[tuple, tuple] = {}
    target = None
    if any(a[0] == "cover" for a in honest):
        cover = game.cover
        target = max((t for t, c in enumerate(cover) if c < 0),
                     key=lambda t: (game.attack[t] // 13 == trump, game.attack[t] % 13))
    for a in honest:
        kind = a[0]
        if kind in ("take", "bito"):
            best[(kind,)] = a
            continue
        if kind == "cover" and a[2] != target:
            continue
        card = a[1]
        group = (kind, card // 13 == trump, None if kind == "cover" else card % 13)
        old = best.get(group)
        if old is None or card % 13 < old[1] % 13:
            best[group] = a
    return list(best.values())


def _score(game: Game, seat: int) -> list[float]:
    """Each seat's reward: 0 for the loser and 1 for the rest (½ each in a draw); cut off,
    the share of the others in the game holding more cards."""
    n = game.players
    r = game.result
    if r is not None:
        if r["draw"]:
            return [0.5] * n
        return [0.0 if s == r["loser"] else 1.0 for s in range(n)]
    sizes = [_cards_held(game, s) for s in range(n)]
    alive = [s for s in range(n) if game.in_game(s)]
    out = []
    for s in range(n):
        if not game.in_game(s):
            out.append(1.0)
            continue
        others = [t for t in alive if t != s]
        more = sum(1.0 if sizes[t] > sizes[s] else 0.5 if sizes[t] == sizes[s] else 0.0 for t in others)
        out.append(more / len(others) if others else 0.5)
    return out


def _cards_held(game: Game, seat: int) -> int:
    held = len(game.hands[seat])
    if game.name == "pidor":
        held += len(game.prikups[seat]) + max(0, len(game.stacks[seat]) - 2)
    return held


@register
class IsmctsPolicy(HeuristicPolicy):
    name = "ismcts"
    PARAMS = {**HeuristicPolicy.PARAMS, "iterations": 1000, "steps": 4500, "ms": 0}

    def act(self, obs: Observation) -> dict | None:
        honest = obs.honest
        view = obs.view
        choice = self.honest_choice(obs, view)
        if not honest or choice is None:
            return choice
        cheats = self.cheat_options(obs, view, choice) if self.cheat > 0.0 and obs.may_cheat else []
        if len(honest) == 1 and not cheats:
            return honest[0]
        if obs.game != "pidor":
            if view["seat"] != view["defender"] and view["table"] and any(c is None for _, c in view["table"]):
                return choice  # throwing in while the defender covers: the heuristic's call
        return self._search(obs, view, honest, cheats, choice) or choice

    def _search(self, obs: Observation, view: dict, honest: list[dict], cheats: list[tuple[float, dict]],
                choice: dict) -> dict | None:
        me = self.seat
        size = obs.rules["deck"]
        in_game = [s for s in range(obs.players) if s not in view["out"]]
        p_called = caught(self.rates, me, in_game) if self.rates is not None else 0.5
        game = obs.determinize(self.rng)
        if game is None:
            return None
        # Moves keyed by their engine form; the seat's honest moves hang only on its own
        # hand and the public table, the same in every deal.
        parse = game.parse_action
        wire = {parse(a): a for a in honest}
        moves = {a: wire[a] for a in _distinct(game, list(wire))}
        cheat_keys = set()
        for _, a in cheats:
            key = game.parse_action(a)
            moves[key] = a
            cheat_keys.add(key)
        root = _Node()
        deadline = time.process_time() + self.ms / 1000.0 if self.ms else None
        budget = self.iterations if not self.ms else 1 << 30
        steps = self.steps if not self.ms and self.steps else 1 << 30
        done = spent = 0
        while game is not None:
            spent += DEAL_STEPS + self._iterate(game, root, moves, cheat_keys, p_called, size)
            done += 1
            if done >= budget or spent >= steps or (deadline is not None and time.process_time() >= deadline):
                break
            game = obs.determinize(self.rng)
        if not root.children:
            return None
        best = max(root.children, key=lambda k: root.children[k].visits)
        mine = root.children.get(parse(choice))
        if mine is not None and mine.visits >= UNDECIDED * root.children[best].visits:
            return choice  # the search barely prefers another move: the heuristic's
        return moves[best]

    def _iterate(self, game: Game, root: _Node, moves: dict, cheat_keys: set, p_called: float, size: int) -> int:
        """One iteration; the number of actions it simulated."""
        me = self.seat
        rng = self.rng
        limit = DEPTH.get(game.name, FULL)
        path: list[tuple[_Node, int]] = []
        node = root
        # The root: the seat's own move, cheats included, the court's outcome drawn; only
        # cheats its hands can make in this deal.
        check = game.name == "pidor"  # its honest moves may hang on the deal (P3: stacks)
        legal = [k for k in moves if (not check and k not in cheat_keys) or self._legal(game, k)]
        if not legal:
            return 0
        key = self._select(node, legal)
        child = node.children.setdefault(key, _Node())
        path.append((child, me))
        if key not in cheat_keys:
            game.perform(me, key, ())
        elif rng.random() < p_called:
            game.on_mark(me)  # T6: undone, the mark paid (D12 / P7); the seat plays on honestly
            turn = _step(game)
            if turn is not None and turn[0] == me:
                game.perform(me, _playout_move(game, me, turn[1], size), ())
        else:
            game.apply(me, key)
        node = child
        depth = 0
        # The tree below: everyone's honest moves, alike cards merged (_distinct).
        turn = _step(game)
        while turn is not None and depth < limit:
            seat, honest = turn
            legal = _distinct(game, honest)
            key = self._select(node, legal)
            new = key not in node.children
            child = node.children.setdefault(key, _Node())
            path.append((child, seat))
            game.perform(seat, key, ())
            node = child
            depth += 1
            turn = _step(game)
            if new:
                break
        while turn is not None and depth < limit:  # the playout: the heuristic for everyone
            seat, honest = turn
            game.perform(seat, _playout_move(game, seat, honest, size), ())
            depth += 1
            turn = _step(game)
        if game.result is None:
            game.advance()
        scores = _score(game, me)
        for n_, seat in path:
            n_.visits += 1
            n_.reward += scores[seat]
        return depth + 1  # the root's move and the rest

    def _legal(self, game: Game, action: tuple) -> bool:
        try:
            game.check(self.seat, action)
        except ActionError:
            return False
        return True

    def _select(self, node: _Node, keys: list[tuple]) -> tuple:
        """UCB1 with availability counts over the moves legal in this deal; an untried move first."""
        children = node.children
        untried = [k for k in keys if k not in children]
        for k in keys:
            if k in children:
                children[k].seen += 1
        if untried:
            return untried[self.rng.below(len(untried))]
        def ucb(k: tuple) -> float:
            c = children[k]
            return c.reward / c.visits + EXPLORE * math.sqrt(math.log(max(c.seen, 1)) / c.visits)
        return max(keys, key=ucb)
