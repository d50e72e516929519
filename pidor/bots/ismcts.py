"""``builtin:ismcts``: information-set Monte Carlo tree search (single observer).

Each iteration samples a deal consistent with everything the seat has seen
(``Observation.determinize``: cards played, taken and paid, the public hand counts, the
trump), walks the one tree of the seat's information set with UCB1 over the moves legal in
that deal (honest moves of everyone; the seat's own cheats at the root), plays on with the
game's own playout rule for the rest (its folder's ``Tactics.playout``, at most ``Tactics.DEPTH``
actions), and scores the end: 1 for every seat but the loser, or, cut off, by
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
same moves), or ``ms=N`` (CPU time: not reproducible); a game's folder may count both
several times over in some positions (``Tactics.budget``: durak heads-up, 3 ×). The defaults
take about 20 ms of CPU a move on average here, and 50–70 ms at most (early moves, long
playouts); durak heads-up about 70 ms on average. The move played is the most visited one, unless the heuristic's
own choice was visited nearly as often (:data:`UNDECIDED`).
"""

from __future__ import annotations

import math
import time

from ..engine.game import ActionError, Game
from .heuristic import HeuristicPolicy
from .heuristic.judgement import caught
from .policy import Observation
from .specs import register
from .tactics import Tactics

__all__ = ["IsmctsPolicy"]

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
    Where several may act at once, the one the game waits on (``Game.obliged``: durak's
    defender with a card to cover, D3); else in durak the first non-defender (from the
    attacker) who has not said «бито»."""
    seats = game.to_act()
    if len(seats) <= 1:
        return (seats[0], game.honest_actions(seats[0])) if seats else None
    for s in game.obliged():
        return s, game.honest_actions(s)
    d = game.owner[game.defender]
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
    clock = game.timer() if turn is None else None
    if clock is not None and game.on_timer(clock[0]):  # (a game clock runs out at once: D5 «бито»)
        game.advance()
        if game.result is None:
            turn = _turn(game)
    return turn if turn and turn[1] else None


def _score(game: Game, tactics: Tactics) -> list[float]:
    """Each seat's reward: 0 for the loser and 1 for the rest (½ each in a draw); cut off,
    the share of the others in the game holding more cards."""
    custom = tactics.reward(game)
    if custom is not None:
        return custom
    n = game.players
    r = game.result
    if r is not None:
        if r["draw"]:
            return [0.5] * n
        return [0.0 if s == r["loser"] else 1.0 for s in range(n)]
    sizes = [tactics.holding(game, s) for s in range(n)]
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


@register
class IsmctsPolicy(HeuristicPolicy):
    name = "ismcts"
    PARAMS = {**HeuristicPolicy.PARAMS, "iterations": 1000, "steps": 4500, "ms": 0}
    NEEDS = ("bots", "belief")

    def act(self, obs: Observation) -> dict | None:
        honest = obs.honest
        view = obs.view
        choice = self.honest_choice(obs, view)
        self._cheated = False
        if not honest or choice is None:
            return choice
        weighs = self.cheat > 0.0 and obs.may_cheat and self._tactics(obs).SEARCH_CHEATS
        cheats = self.cheat_options(obs, view, choice) if weighs else []
        if len(honest) == 1 and not cheats:
            return honest[0]
        if not self._tactics(obs).searches(view):
            return choice
        action = self._search(obs, view, honest, cheats, choice) or choice
        # (its call rates learn from the windows on its own cheats, as the heuristic's do)
        self._cheated = any(action is cheat for _, cheat in cheats)
        return action

    def _search(self, obs: Observation, view: dict, honest: list[dict], cheats: list[tuple[float, dict]],
                choice: dict) -> dict | None:
        me = self.seat
        tactics = self._tactics(obs)
        in_game = [s for s in range(obs.players) if s not in view["out"]]
        p_called = caught(self.rates, me, in_game) if self.rates is not None else 0.5
        game = obs.determinize(self.rng)
        if game is None:
            return None
        # Moves keyed by their engine form; the seat's honest moves hang only on its own
        # hand and the public table, the same in every deal.
        parse = game.parse_action
        wire = {parse(a): a for a in honest}
        moves = {a: wire[a] for a in tactics.distinct(game, list(wire))}
        mine = parse(choice)
        if mine not in moves and self._honest(game, mine):
            moves[mine] = choice  # the heuristic's honest choice, where the options do not list it
        cheat_keys = set()
        for _, a in cheats:
            key = game.parse_action(a)
            moves[key] = a
            cheat_keys.add(key)
        root = _Node()
        deadline = time.process_time() + self.ms / 1000.0 if self.ms else None
        scale = tactics.budget(view)  # (durak: 3 × at a two-player table)
        budget = self.iterations * scale if not self.ms else 1 << 30
        steps = self.steps * tactics.BUDGET * scale if not self.ms and self.steps else 1 << 30
        done = spent = 0
        while game is not None:
            spent += DEAL_STEPS + self._iterate(game, root, moves, cheat_keys, p_called, tactics)
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

    def _iterate(self, game: Game, root: _Node, moves: dict, cheat_keys: set, p_called: float,
                 tactics: Tactics) -> int:
        """One iteration; the number of actions it simulated."""
        me = self.seat
        rng = self.rng
        limit = tactics.DEPTH
        path: list[tuple[_Node, int]] = []
        node = root
        # The root: the seat's own move, cheats included, the court's outcome drawn; only
        # cheats its hands can make in this deal.
        check = tactics.CHECK_HONEST  # its honest moves may hang on the deal («пидор», P3: stacks)
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
                game.perform(me, tactics.playout(game, me, turn[1]), ())
        else:
            game.apply(me, key)
        node = child
        depth = 0
        # The tree below: everyone's honest moves, alike cards merged (Tactics.distinct).
        turn = _step(game)
        stop = tactics.stop
        while turn is not None and depth < limit and not stop(game):
            seat, honest = turn
            legal = tactics.distinct(game, honest)
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
        while turn is not None and depth < limit and not stop(game):  # the playout: the heuristic for everyone
            seat, honest = turn
            game.perform(seat, tactics.playout(game, seat, honest), ())
            depth += 1
            turn = _step(game)
        if game.result is None:
            game.advance()
        scores = _score(game, tactics)
        for n_, seat in path:
            n_.visits += 1
            n_.reward += scores[seat]
        return depth + 1  # the root's move and the rest

    def _honest(self, game: Game, action: tuple) -> bool:
        try:
            return not game.check(self.seat, action)
        except ActionError:
            return False

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
