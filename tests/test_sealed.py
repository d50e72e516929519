"""A ``py:`` entrant decides from an observation with no path to the table (issue 30,
``pidor.bots.sealed``): no object reachable from it through any attribute, item, bound
method or closure is one the real table holds (its game, its state, the deck, other
hands, the hidden violations), in every game. The driver's own observation, which built-in
bots get, does reach the table: the walk finds what it looks for."""

from __future__ import annotations

import types

import pytest
from helpers import first_fast

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.bots.sealed import Sealed, SealedSeat
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.games import GAME_IDS, spec
from pidor.match import run_match

_ATOMS = (str, bytes, int, float, bool, type(None), type, types.ModuleType, types.BuiltinFunctionType)
_MUTABLE = (list, dict, set, bytearray)


def reachable(root: object, skip: tuple[object, ...] = ()) -> dict[int, object]:
    """Every object reachable from ``root`` by attributes (``__dict__``, ``__slots__``),
    container items, bound methods and closures; classes, modules and atoms end a path."""
    seen: dict[int, object] = {}
    stack = [root]
    skipped = {id(s) for s in skip}
    while stack:
        o = stack.pop()
        if id(o) in seen or id(o) in skipped or isinstance(o, _ATOMS):
            continue
        seen[id(o)] = o
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend(o)
        elif isinstance(o, types.MethodType):
            stack += [o.__self__, o.__func__]
        elif isinstance(o, types.FunctionType):
            stack.extend(c.cell_contents for c in o.__closure__ or () if _full(c))
            stack.extend(o.__defaults__ or ())
        else:
            stack.extend(getattr(o, "__dict__", {}).values())
            for cls in type(o).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(o, name):
                        stack.append(getattr(o, name))
    return seen


def _full(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def table_objects(table: Table) -> dict[int, object]:
    """The table and what it holds that could tell a hidden card (its mutable containers
    and its objects; shared constants such as a rule list's tuples are left out)."""
    return {i: o for i, o in reachable(table).items() if isinstance(o, _MUTABLE) or not isinstance(o, (tuple, frozenset))}


class Spy(RandomBot):
    """Random play (it cheats, calls and votes), walking its observation at every
    decision: what it reaches of the table is kept in :attr:`found`."""

    PARAMS = {**RandomBot.PARAMS, "cheat": 0.2, "attention": 0.5, "acquit": 0.2}

    def __init__(self, seat: int, seed: bytes, table: Table) -> None:
        super().__init__(seat, seed)
        self.table = table
        self.found: list[str] = []
        self.decisions = 0

    def _walk(self, obs) -> None:
        self.decisions += 1
        if self.decisions % 5 == 1:  # (every fifth: a walk costs)
            mine = reachable(obs, skip=(self,))
            bad = table_objects(self.table).keys() & mine.keys()
            self.found += [type(mine[i]).__name__ for i in bad]

    def act(self, obs):
        self._walk(obs)
        obs.actions(), obs.visible_violations(self.seat, obs.honest[0]) if obs.honest else None
        return super().act(obs)

    def call(self, obs):
        self._walk(obs)
        return super().call(obs)

    def vote(self, obs):
        self._walk(obs)
        return super().vote(obs)


def _play(game: str, sealed: bool) -> Spy:
    n = spec(game).players[0]
    table = Table({"game": game, "players": n})
    spy = Spy(0, b"sealed", table)
    bots = [Sealed(spy) if sealed else spy] + [RandomBot(s, b"sealed", cheat=0.2, attention=0.5) for s in range(1, n)]
    started = table.start(seed=b"sealed " + game.encode())
    play_game(table, bots, Rng(b"sealed", b"driver"), started=started)
    assert spy.decisions > 0
    return spy


@first_fast
@pytest.mark.parametrize("game", GAME_IDS)
def test_a_sealed_observation_reaches_nothing_the_table_holds(game):
    spy = _play(game, sealed=True)
    assert spy.found == [], f"{game}: reached the table's {sorted(set(spy.found))}"


def test_the_drivers_own_observation_reaches_the_table():
    """The walk can fail: the in-process observation built-in bots get holds the table."""
    spy = _play(GAME_IDS[0], sealed=False)
    assert "Table" in spy.found or any(name.endswith("Game") for name in spy.found), spy.found


def test_a_py_entrant_plays_sealed_in_a_match(tmp_path, monkeypatch):
    """``pidor match`` hands a ``py:`` entrant a :class:`SealedSeat`; a built-in gets the
    driver's own observation."""
    (tmp_path / "sealed_probe.py").write_text(
        "from pidor.bots import RandomBot\n"
        "class Probe(RandomBot):\n"
        "    kinds = set()\n"
        "    def act(self, obs):\n"
        "        Probe.kinds.add(type(obs).__name__)\n"
        "        return super().act(obs)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import sealed_probe

    run_match(game="podkidnoy", players=2, games=2, seed="s", specs=["py:sealed_probe:Probe", "builtin:random"])
    assert sealed_probe.Probe.kinds == {SealedSeat.__name__}
