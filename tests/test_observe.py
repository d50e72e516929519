"""A seat's knowledge (pidor.bots.observe): the belief follows the real table exactly in
everything the seat may see, and the public check of a called action agrees with the
table's recorded violations (T5/T6: the table judges every rule from open cards)."""

from __future__ import annotations

import pytest
from helpers import players_near

from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.games import GAME_IDS, spec
from pidor.engine.seeds import Rng
from pidor.engine.table import Table


def _step(driver: Driver, t: Table) -> None:
    """One table call: a policy's, or the clock's when no policy acts."""
    if driver.play(0.0, 1) == 0:
        driver.feed(t.tick(t.deadline()))


#: Every game, and every variant its spec names (who may act, what a lead is: V2-V7).
SETUPS = [(g, {}) for g in GAME_IDS] + [(g, dict(v)) for g in GAME_IDS for v in spec(g).variants]
IDS = [g + "".join(f"-{k if v is True else v}" for k, v in o.items() if k != "players") for g, o in SETUPS]


def _sizes(game: str, options: dict, wanted) -> list[int]:
    """The player counts of ``wanted`` the game (and its variant) allows."""
    if "players" in options:  # (a variant that sets its own: team play)
        return [options["players"]]
    ok = []
    for n in wanted:
        try:
            Table({"game": game, "players": n, **options})
        except ValueError:
            continue
        ok.append(n)
    assert ok
    return ok


def _cheating_games(game: str, players: int, seeds: range, options: dict | None = None):
    for g in seeds:
        t = Table({"game": game, "players": players, **(options or {})})
        t.start(seed=b"observe-%d" % g)
        bots = [RandomBot(s, b"o%d" % g, cheat=0.3, attention=0.5, false_call=0.05, acquit=0.3)
                for s in range(players)]
        yield t, Driver(t, bots, Rng(b"observe-%d" % g, b"driver"))


@pytest.mark.parametrize("game,options", SETUPS, ids=IDS)
def test_visible_violations_agree_with_the_tables_record_on_every_callable_action(game, options):
    """The property behind ``attention``: on every action that opens a call window, every
    seat that owes an answer judges from its own knowledge exactly the rules the table
    recorded. Many cheating games, every player count."""
    windows = cheats = 0
    for players in _sizes(game, options, range(2, 7)):
        for t, driver in _cheating_games(game, players, range(4), options):
            last = None
            for _ in range(20_000):
                if t.over:
                    break
                w = t.window
                if w is not None and w is not last:
                    last = w
                    windows += 1
                    cheats += bool(w.violations)
                    for s in w.owing:
                        got = driver.seats[s].knowledge.visible_violations(w.seat, w.action)
                        assert got == tuple(w.violations), (players, s, w)
                        # what the seat's observation answers in-process: the public knowledge
                        # (a spectator's belief, shared by every seat) judges the same
                        got = driver.seats[s].visible_violations(w.seat, w.action)
                        assert got == tuple(w.violations), (players, s, w)
                _step(driver, t)
            assert t.over
    enough = 500 if not options else 250  # (a variant's row: fewer, longer actions)
    assert windows > enough and cheats > enough // 5


@pytest.mark.parametrize("game,options", SETUPS, ids=IDS)
def test_the_belief_shows_each_seat_exactly_its_own_view(game, options):
    """After every table call, each seat's belief table shows that seat the very view the
    real table shows it: public cards, counts, its own hand, the trump, the mark, the
    window and the court. Its honest and possible actions are the table's."""
    for players in _sizes(game, options, (2, 4, 6)):
        for t, driver in _cheating_games(game, players, range(1), options):
            steps = 0
            while not t.over and steps < 20_000:
                _step(driver, t)
                steps += 1
                for s in range(players):
                    belief = driver.seats[s].knowledge.belief()
                    assert belief is not None
                    real, mine = t.view(s), belief.view(s)
                    for v in (real, mine):  # the clocks' deadlines differ (the belief's run at 0 s);
                        status = v["status"]  # who passed a window is not shown (T3)
                        for key in ("window", "court"):
                            if status[key] is not None:
                                status[key] = {k: x for k, x in status[key].items() if k not in ("deadline", "owing")}
                    assert mine == real, (players, s, steps)
                    assert belief.honest_actions(s) == t.honest_actions(s)
                    assert belief.actions(s) == t.actions(s)
                # the public knowledge (every seat's in-process visible_violations): a
                # spectator's view, exactly
                public = driver.public.belief()
                assert public is not None
                real, seen = t.view(None), public.view(None)
                for v in (real, seen):
                    status = v["status"]
                    for key in ("window", "court"):
                        if status[key] is not None:
                            status[key] = {k: x for k, x in status[key].items() if k not in ("deadline", "owing")}
                assert seen == real, (players, steps)
            assert t.over


def _swap_hidden(t: Table, seat: int) -> None:
    """Exchange two cards hidden from ``seat`` (in others' hands; in «пидор», face down
    under others' stacks): a state that differs from ``t`` only in what ``seat`` cannot see."""
    piles = t.game.hands if t.game.name != "pidor" else t.game.stacks  # («пидор»: face-down stack cards)
    a, b = [s for s in range(t.game.players) if s != seat][:2]
    piles[a][0], piles[b][0] = piles[b][0], piles[a][0]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_policy_decides_the_same_whatever_the_cards_it_cannot_see(game):
    """Two tables that differ only in other seats' hidden cards: a cheating, calling random
    bot with the same seed makes the same decisions at both, all game long, while its
    knowledge follows each table (it is handed its observation, never the table). The
    other seats make the same moves at both tables while they can."""
    decided = 0
    for g in range(6):
        tables = []
        for swap in (False, True):
            t = Table({"game": game, "players": players_near(game, 3)})
            t.start(seed=b"same-%d" % g)
            if swap:
                _swap_hidden(t, 0)
            tables.append(t)
        assert tables[0].to_data() != tables[1].to_data() and tables[0].view(0) == tables[1].view(0)
        others = [None] * (tables[0].game.players - 1)
        drivers = [Driver(t, [RandomBot(0, b"same", cheat=0.5, attention=0.5, false_call=0.2), *others],
                          Rng(b"same", b"driver")) for t in tables]
        for _ in range(40):  # seat 0 decides until the deal shows the difference to it
            t = tables[0]
            movers = t.to_act()
            if 0 in movers:
                choices = [d.decide(0) for d in drivers]
                assert choices[0] == choices[1]
                decided += 1
                seat, action = 0, choices[0]
            else:  # another seat moves, the same at both tables: a move its hands have at both
                seat = movers[0] if movers else None
                action = next((a for a in t.honest_actions(seat) if a in tables[1].honest_actions(seat)), None) \
                    if movers else None
            if action is None:
                break
            for d, tb in zip(drivers, tables):
                d.feed(tb.act(seat, action))
                while tb.window is not None:
                    for s in tb.waiting_answers():
                        d.feed(tb.answer(s, False))
            views = [tb.view(0) for tb in tables]
            if views[0] != views[1]:
                break
    assert decided >= 5


def test_the_same_seed_gives_the_same_decisions():
    """T10: a policy's decisions come from its seed and its observation only."""
    logs = []
    for _ in range(2):
        t = Table({"game": "perevodnoy", "players": 4})
        t.start(seed=b"det")
        events: list[dict] = []
        bots = [RandomBot(s, b"det", cheat=0.3, attention=0.5, false_call=0.1, acquit=0.3) for s in range(4)]
        from pidor.autoplay import play_game
        play_game(t, bots, Rng(b"det", b"driver"), on_events=events.extend)
        logs.append(events)
    assert logs[0] == logs[1] and any(e["type"] == "court" for e in logs[0])


def test_V9_a_knowledge_rebuilt_from_a_view_knows_the_first_bout_is_barred():
    """V9 ``no_first_transfer``: the view says the bout may not be transferred
    (``barred``), so a seat whose knowledge is rebuilt from a snapshot mid-bout (a
    reconnect) judges a first transfer as the table does, not as clean."""
    from pidor.autoplay import play_game
    from pidor.bots.observe import Knowledge

    for g in range(20):
        t = Table({"game": "perevodnoy", "players": 3, "no_first_transfer": True})
        t.start(seed=b"barred-%d" % g)
        play_game(t, [RandomBot(s, b"b%d" % g) for s in range(3)], Rng(b"barred-%d" % g, b"driver"))
        if t.previous and not t.previous.get("draw"):
            break
    else:
        pytest.fail("no game of 20 had a loser")
    t.start(seed=b"barred-next")
    attacker, defender = t.game.owner[t.game.attacker], t.game.owner[t.game.defender]
    assert t.view(None)["barred"] is True
    t.act(attacker, t.honest_actions(attacker)[0])
    t.passes(t.waiting_answers())
    transfers = [a for a in t.actions(defender) if a[0] == "transfer"]
    assert transfers
    knowledge = Knowledge(defender, t.options)
    knowledge.reset(t.view(defender))
    for transfer in transfers:
        broken = t.game.check(defender, transfer)
        assert "V9t" in broken
        assert knowledge.visible_violations(defender, t.game.action_data(transfer)) == broken
