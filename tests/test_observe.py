"""A seat's knowledge (pidor.bots.observe): the belief follows the real table exactly in
everything the seat may see, and the public check of a called action agrees with the
table's recorded violations (T5/T6: the table judges every rule from open cards)."""

from __future__ import annotations

import pytest
from helpers import first_fast, players_of

from pidor.bots import RandomBot
from pidor.cards import deck as full_deck
from pidor.cards import parse_card
from pidor.driver import Driver
from pidor.games import GAME_IDS, spec
from pidor.engine.seeds import Rng, shuffled
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


@first_fast
@pytest.mark.parametrize("game,options", SETUPS, ids=IDS)
def test_visible_violations_agree_with_the_tables_record_on_every_callable_action(game, options):
    """The property behind ``attention``: on every action that opens a call window, every
    seat that owes an answer judges from its own knowledge exactly the rules the table
    recorded. Many cheating games, every player count."""
    windows = cheats = 0
    hidden = spec(game).hidden_rules  # (broken out of sight: seen only where what the seat knows proves it)

    def judged(got: tuple, recorded: list) -> bool:
        if not hidden:
            return got == tuple(recorded)
        return set(got) <= set(recorded) and set(recorded) - hidden <= set(got)

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
                        assert judged(got, w.violations), (players, s, w, got)
                        # what the seat's observation answers in-process: the public knowledge
                        # (a spectator's belief, shared by every seat) judges the same
                        public = driver.seats[s].visible_violations(w.seat, w.action)
                        assert public == got if hidden else judged(public, w.violations), (players, s, w)
                _step(driver, t)
            assert t.over
    enough = 500 if not options else 250  # (a variant's row: fewer, longer actions)
    assert windows > enough and cheats > enough // 5


@first_fast
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


def _deals(t: Table, seat: int, seed: bytes) -> tuple[list[int], list[int]]:
    """A deal of ``t``'s game, and the same with two cards swapped that ``seat`` cannot see
    at the start, from two places (others' hands, the deck, face-down cards): two tables
    that differ only in what ``seat`` cannot see."""
    order = shuffled(full_deck(t.options["deck"]), seed)
    t.start(deck=order, seed=seed)
    hidden = {parse_card(c) for c in t.game.hidden_from(seat)}
    where = {c: zone for zone, cards in t.game.zones().items() for c in cards if c in hidden}
    view = t.view(seat)
    for a in [c for c in reversed(order) if c in where]:  # (the last dealt first: the longest unseen)
        for b in [c for c in reversed(order) if c in where and where[c] != where[a]]:
            swapped = list(order)
            i, j = order.index(a), order.index(b)
            swapped[i], swapped[j] = b, a
            probe = Table(t.options)
            probe.start(deck=swapped, seed=seed)
            if probe.view(seat) == view:  # (not a swap the deal shows: «залупа» hands each his lowest trump, Z2)
                return order, swapped
    raise AssertionError("no two hidden cards swap unseen")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_policy_decides_the_same_whatever_the_cards_it_cannot_see(game):
    """Two tables that differ only in other seats' hidden cards: a cheating, calling random
    bot with the same seed makes the same decisions at both, all game long, while its
    knowledge follows each table (it is handed its observation, never the table). The
    other seats play their first honest option at each table."""
    decided = 0
    n = players_of(game)
    for g in range(40):  # (until seat 0 has decided enough: in some games it acts once a turn)
        if decided >= 5 and g >= 6:
            break
        tables = [Table({"game": game, "players": n}) for _ in range(2)]
        for t, deal in zip(tables, _deals(Table({"game": game, "players": n}), 0, b"same-%d" % g)):
            t.start(deck=deal, seed=b"same-%d" % g)
        assert tables[0].to_data() != tables[1].to_data() and tables[0].view(0) == tables[1].view(0)
        drivers = [Driver(t, [RandomBot(0, b"same", cheat=0.5, attention=0.5, false_call=0.2)] + [None] * (n - 1),
                          Rng(b"same", b"driver")) for t in tables]
        for _ in range(15):  # until the deal shows the difference to seat 0
            if 0 in tables[0].to_act():
                choices = [d.decide(0) for d in drivers]
                assert choices[0] == choices[1]
                if choices[0] is None:  # (it waits: durak's silence, D5)
                    break
                decided += 1
                moves = [(0, choices[0])] * 2
            else:
                moves = [(s, tb.honest_actions(s)[0]) for tb in tables for s in tb.to_act()[:1] if tb.honest_actions(s)]
                if len(moves) < 2:
                    break
            for d, tb, (seat, action) in zip(drivers, tables, moves):
                d.feed(tb.act(seat, action))
                while tb.window is not None:
                    for s in tb.waiting_answers():
                        d.feed(tb.answer(s, False))
            views = [tb.view(0) for tb in tables]
            if views[0] != views[1] or tables[0].over:
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


def test_a_games_belief_says_which_cards_an_event_placed_and_may_hold_no_hands():
    """Issue 22 §8: what the house asks of a game's belief (pidor.bots.belief.Belief), for a
    game whose actions take no card from a hand (it may have no hands at all) and whose
    events turn cards face up in places the belief only guessed: the cards ``follow`` put in
    place are no longer unknown to the seat (``determinize`` leaves them where they are)."""
    from types import SimpleNamespace

    from pidor.bots.belief import Belief
    from pidor.bots.observe import Knowledge

    class Shown(Belief):
        def from_hand(self, action: tuple) -> tuple[int, ...]:
            return ()

        def follow(self, game, event: dict) -> set[int] | None:
            return {parse_card(event["card"])} if event["type"] == "shown" else None

    game = GAME_IDS[0]
    knowledge = Knowledge(0, {"game": game, "players": players_of(game)})
    knowledge._cards = Shown()
    knowledge._into_hand(SimpleNamespace(), 1, ("anything",))  # (nothing from a hand: no hands asked for)
    knowledge._table = SimpleNamespace(game=SimpleNamespace())
    knowledge._unknown = {parse_card("Th"), parse_card("6c")}
    knowledge._reveal({"type": "shown", "card": "Th"})
    knowledge._reveal({"type": "other"})
    assert knowledge._unknown == {parse_card("6c")}
