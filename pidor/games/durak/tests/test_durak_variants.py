"""Scenario tests of the durak family's other variants: one test per ruling V1–V9 (simple
durak, team play, «погоны», house options), on deals built from fixed deck orders, driven
on the engine the way the table drives it, and through the table where the court is
involved (V5)."""

from __future__ import annotations

import pytest
from helpers import pass_all, types

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction
from pidor.engine.seeds import Rng
from pidor.engine.table import HonestReplayRequired, Table
from pidor.games.durak.engine import DurakGame, PerevodnoyGame, PodkidnoyGame
from pidor.games.durak.simple import QUIET_BOUTS, SimpleGame

C = parse_card


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


def make_deck(hands: list[str], per: int, draws: str = "", trump: str | None = None) -> list[int]:
    """A 36-card deck order (top first) dealing ``hands`` (``per`` cards each, one at a time
    round the table from seat 0), then ``draws``, the unnamed cards, and ``trump`` last."""
    hs = [parse_cards(h) for h in hands]
    n = len(hs)
    assert all(len(h) == per for h in hs)
    dealt = [hs[i % n][i // n] for i in range(per * n)]
    named = dealt + parse_cards(draws) + ([] if trump is None else [C(trump)])
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in full_deck(36) if c not in set(named)]
    return dealt + parse_cards(draws) + rest + ([] if trump is None else [C(trump)])


def new(cls: type[DurakGame], hands: list[str], draws: str = "", trump: str | None = None, *,
        first: int = 0, **options) -> DurakGame:
    return cls.new({"players": len(hands), **options}, deck=make_deck(hands, cls.HAND, draws, trump), first=first)


def late(cls: type[DurakGame], hands: list[str], trump: str, attacker: int = 0, **options) -> DurakGame:
    """A late game: the deck is gone, the given hands are left, every other card is in the
    discard; ``attacker`` is about to lead the next place."""
    n = len(hands)
    data = cls.new({"players": n, **options}, deck=full_deck(36), first=attacker).to_data()
    hs = [h.split() for h in hands]
    held = {C(c) for h in hs for c in h}
    defender = (attacker + 1) % n
    data.update(hands=hs, deck=[], trump_card=trump, defender=defender,
                discard=[card_code(c) for c in full_deck(36) if c not in held],
                limit=min(data["cap"], len(hs[defender])))
    return cls.from_data(data)


def hand(g: DurakGame, seat: int) -> list[str]:
    return sorted(card_code(c) for c in g.hands[seat])


def violations(g: DurakGame, seat: int, action: tuple) -> list[str]:
    events = g.apply(seat, action)
    return events[0]["_violations"]


# --------------------------------------------------------------------------- simple


def test_V1_simple_durak_common_part():
    hands = ["6c 7c 8c 9c Tc", "6d 7d 8d 9d 6s", "6h 7h 8h 9h Th"]
    g = new(SimpleGame, hands, draws="Jc Jd Jh", trump="As")
    assert hand(g, 0) == ["6c", "7c", "8c", "9c", "Tc"] and g.trump == C("As") // 13  # five each
    assert g.limit == 5 and g.to_act() == [0]
    assert violations(g, 0, ("lead", cards("6c"))) == []
    # No throwing in: nothing honest to add, and nobody is waited for («бито» is automatic).
    assert g.honest_actions(2) == [] and g.obliged() == [1] and g.timer() is None
    events = g.apply(1, ("cover", C("6s"), 0))
    assert types(events) == ["action", "bout_over"] and events[1]["outcome"] == "bito"
    events = g.advance()  # up to five: the attacker first, the others clockwise, the defender last
    assert [(e["seat"], e["count"]) for e in events if e["type"] == "draw"] == [(0, 1), (1, 1)]
    assert hand(g, 0) == ["7c", "8c", "9c", "Jc", "Tc"] and "Jd" in hand(g, 1)
    assert events[-1] == {"type": "bout", "attacker": 1, "defender": 2, "limit": 5}  # the defender attacks next
    # The lead limit: five, and at most what the defender holds.
    assert late(SimpleGame, ["6c 7c 8c 9c Tc Jc Qc", "6d"], "As").limit == 1
    assert late(SimpleGame, ["6d", "6c 7c 8c 9c Tc Jc Qc"], "As").limit == 5
    # After a loss the player after the loser leads (the loser deals); 2..5 players, 36 cards.
    after = SimpleGame.new({"players": 3}, seed=b"x", previous={"loser": 1, "draw": False, "order": [0, 2]})
    assert after.attacker == 2
    for bad in ({"players": 6}, {"deck": 52}, {"lead": "all"}, {"teams": "2x2"}):
        with pytest.raises(ValueError):
            SimpleGame.options(bad)


def lead_shapes(g: SimpleGame, seat: int) -> set:
    return {len(a[1]) for a in g.honest_actions(seat)}


def test_V2_classic_leads_and_cover_all_or_take_all():
    hands = ["6c 6d 7c 8h 9s", "7d 8d 9d Td 7s", "6h 7h 8s 9h Th"]
    g = new(SimpleGame, hands, trump="As", lead="classic")
    assert lead_shapes(g, 0) == {1, 2, 3}
    assert g.check(0, ("lead", cards("6c 6d"))) == ()  # two of one rank
    assert g.check(0, ("lead", cards("6c 6d 9s"))) == ()  # two of one rank and one more
    assert g.check(0, ("lead", cards("6c 7c"))) == ("V5s",)
    assert g.check(0, ("lead", cards("6c 6d 7c 8h"))) == ("V5s",)
    g.apply(0, ("lead", cards("6c 6d 9s")))
    g.apply(1, ("cover", C("7d"), 1))  # covers some, cannot cover 6c and 9s: takes them all
    events = g.apply(1, ("take",))
    assert events[1]["outcome"] == "take" and events[1]["count"] == 4
    assert {"6c", "6d", "9s", "7d"} <= set(hand(g, 1))
    assert g.advance()[-1]["attacker"] == 2  # the player after the taker attacks
    # All covered: to the discard, the defender attacks next.
    g = new(SimpleGame, hands, trump="As", lead="classic")
    g.apply(0, ("lead", cards("6c 6d")))
    g.apply(1, ("cover", C("7d"), 1))
    events = g.apply(1, ("cover", C("7s"), 0))
    assert events[1]["outcome"] == "bito" and len(g.discard) == 4
    assert g.advance()[-1]["attacker"] == 1


def test_V3_partial_cover_some_take_the_rest():
    hands = ["6c 6d 7c 7h 9s", "7d 8c 9d Td Jd", "6h 8h 8s 9h Th"]
    g = new(SimpleGame, hands, trump="As", lead="partial")
    assert lead_shapes(g, 0) == {1, 3, 5}
    assert g.check(0, ("lead", cards("6c 6d"))) == ("V5s",)  # a pair alone is not a lead in 1.б
    assert g.check(0, ("lead", cards("6c 6d 9s"))) == ()
    assert g.check(0, ("lead", cards("6c 6d 7c 7h 9s"))) == ()  # two pairs and one card
    assert g.check(0, ("lead", cards("6c 7c 9s"))) == ("V5s",)
    g.apply(0, ("lead", cards("6c 6d 9s")))
    g.apply(1, ("cover", C("8c"), 0))
    g.apply(1, ("cover", C("7d"), 1))
    events = g.apply(1, ("take",))  # 9s stays uncovered: he takes it, the covered pairs go out
    assert events[1] == {"type": "bout_over", "outcome": "take", "defender": 1, "count": 1, "discarded": 4,
                         "_reset_honest": True}
    assert hand(g, 1) == ["9d", "9s", "Jd", "Td"] and len(g.discard) == 4
    assert g.advance()[-1]["attacker"] == 2  # he left a card uncovered: he loses his turn


def test_V4_pairs_lead_and_the_attack_passes_without_a_pair():
    hands = ["6c 7d 8h 9s Tc", "6d 6h 8c 9c Jc", "7c 7h 8s Qd Kd"]
    g = new(SimpleGame, hands, trump="As", lead="pairs")
    # Seat 0 holds no pair: the attack passes to seat 1, who attacks seat 2.
    assert g.opening() == [{"type": "bout", "attacker": 1, "defender": 2, "limit": 5, "passed": [0], "forced": False}]
    assert lead_shapes(g, 1) == {2}
    assert g.check(1, ("lead", cards("6d"))) == ("V5s",)
    assert g.check(1, ("lead", cards("6d 8c"))) == ("V5s",)
    assert g.check(1, ("lead", cards("6d 6h"))) == ()
    # Nobody holds a pair: once round the table, then the player with most cards leads any two.
    g = late(SimpleGame, ["6c 7d", "8h 9s Tc", "Jc Qd"], "As", attacker=0, lead="pairs")
    g.ended = "take"
    events = g.advance()
    assert events[-1] == {"type": "bout", "attacker": 1, "defender": 2, "limit": 2, "passed": [2, 0, 1],
                          "forced": True}
    assert {frozenset(a[1]) for a in g.honest_actions(1)} == {frozenset(cards(x)) for x in ("8h 9s", "8h Tc", "9s Tc")}


def test_V1a_T13_a_loop_of_passed_pairs_ends_in_a_draw():
    """V1a, T13: honest play in «пятки» can loop (a pair taken is passed back and led
    again); the position at a bout's start seen for the third time ends the game as a draw."""
    g = late(SimpleGame, ["Jd Jh Kc", "9c Qh Th"], "As", attacker=0, lead="pairs")
    bouts = 0
    while g.result is None:
        a, d = g.owner[g.attacker], g.owner[g.defender]
        pair = next(x for x in g.honest_actions(a) if x[0] == "lead")
        g.apply(a, pair)
        g.apply(d, ("take",))
        g.advance()
        bouts += 1
    # The pair goes round and comes back: a position at a bout's start repeats, long before
    # the 30 quiet bouts of engine simple-1.
    assert max(g.units.seen.values()) == g.limits["repeat_limit"] and bouts < QUIET_BOUTS // 3
    assert g.result == {"loser": None, "draw": True, "order": [], "pogony": False, "stalled": "repetition"}


def test_V1a_simple_1_ended_such_a_loop_after_30_quiet_bouts():
    """Logs of engine simple-1 still verify: it ended the loop after QUIET_BOUTS quiet bouts."""
    old = SimpleGame.OLDER["simple-1"]
    g = late(old, ["Jd Jh Kc", "9c Qh Th"], "As", attacker=0, lead="pairs")
    bouts = 0
    while g.result is None:
        a, d = g.owner[g.attacker], g.owner[g.defender]
        g.apply(a, next(x for x in g.honest_actions(a) if x[0] == "lead"))
        g.apply(d, ("take",))
        g.advance()
        bouts += 1
    assert bouts == QUIET_BOUTS and g.result == {"loser": None, "draw": True, "order": [], "pogony": False}


def test_V5_simple_durak_violations_go_to_the_court():
    t = Table({"game": "simple", "players": 2, "call_window": None})
    t.start(deck=make_deck(["6c 7c 8h 9s Tc", "6d 7d 8d 9d Td"], 5, trump="As"), first=0)
    g = t.game
    events = t.act(0, ("lead", cards("6c 7c")))  # not a shape 1.а allows
    assert events[0]["_violations"] == ["V5s"] and types(events)[-1] == "window"
    events = t.answer(1, True)  # called: the court (nobody else votes) convicts at once
    assert [e["type"] for e in events][:4] == ["call", "court", "verdict", "undo"]
    assert events[1]["rules"][0]["id"] == "V5s" and events[2]["outcome"] == "guilty"
    assert "6c" in hand(g, 0) and "7c" in hand(g, 0) and g.attack == []
    assert t.mark == 0 and g.payments == [[1, 0]]  # D12: the next player pays him a card
    t.act(1, ("give", C("9d")))
    with pytest.raises(HonestReplayRequired):
        t.act(0, ("lead", cards("6c 7c 8h")))
    t.act(0, ("lead", cards("6c")))
    pass_all(t)
    assert t.game.check(0, ("attack", C("7c"))) == ("V5a",)  # adding after the lead
    assert t.game.check(1, ("cover", C("7d"), 0)) == ("D4b",)
    with pytest.raises(ImpossibleAction):
        t.game.check(1, ("attack", C("7d")))  # the defender adds nothing
    with pytest.raises(ImpossibleAction):
        t.game.check(0, ("lead", cards("7c")))  # the lead is made
    g = late(SimpleGame, ["6c 6h 7c 8c", "7d 8d"], "As")
    assert g.check(0, ("lead", cards("6c 6h 7c"))) == ("V5n",)  # more than the defender holds
    assert g.check(0, ("lead", cards("6c 7c 8c"))) == ("V5s", "V5n")
    with pytest.raises(ImpossibleAction):
        g.check(0, ("lead", (C("6c"), C("6c"))))  # one card twice


# --------------------------------------------------------------------------- teams


def test_V6_teams_alternate_only_opponents_throw_in_and_a_partner_plays_both_seats():
    with pytest.raises(ValueError, match="players 4"):
        PodkidnoyGame.options({"teams": "2x2", "players": 6})
    with pytest.raises(ValueError):
        PodkidnoyGame.options({"teams": "4x4"})
    hands = ["6c 7c 8c 9c Tc Jc", "6d 7d 8d 9d Td Jd", "6h 7h 8h 9h Th Jh", "6s 7s 8s 9s Ts Js"]
    g = new(PodkidnoyGame, hands, trump="Ac", teams="2x2")
    g.apply(0, ("attack", C("6c")))
    # Seat 1 defends; 0 and 2 are his opponents, 3 his partner.
    assert g.honest_actions(2) == [("attack", C("6h"))] and g.honest_actions(3) == []
    assert g.check(3, ("attack", C("6s"))) == ("V7p",)
    with pytest.raises(ImpossibleAction):
        g.check(3, ("bito",))
    # Seat 3 is out: his partner 1 plays from both seats, so 2 attacks 1 (at seat 3's place)
    # and no one attacks his own partner.
    g = late(PodkidnoyGame, ["6c 7c", "6d 7d 8d", "6h 7h", ""], "As", attacker=2, teams="2x2")
    events: list = []
    g._leave(events)
    assert events == [{"type": "out", "seat": 3, "place": 1, "partner": 1}] and g.owner == [0, 1, 2, 1]
    assert g._start_bout(2) == {"type": "bout", "attacker": 2, "defender": 1, "limit": 3}
    g.apply(2, ("attack", C("6h")))
    g.apply(1, ("take",))
    assert g.advance()[-1] == {"type": "bout", "attacker": 0, "defender": 1, "limit": 4}  # from place 0


def team_endgame(hands: list[str]) -> DurakGame:
    """2×2 podkidnoy (teams 0, 2 and 1, 3), deck empty, seats without cards out, seat 0 to
    lead under seat 1 (trump spades)."""
    g = late(PodkidnoyGame, hands, "As", attacker=0, teams="2x2")
    g._leave([])
    g._start_bout(0)
    return g


def test_V7_a_team_wins_when_all_its_players_are_out():
    g = team_endgame(["6c", "7c 8d", "", "9h Th"])
    g.apply(0, ("attack", C("6c")))
    events = g.apply(1, ("cover", C("7c"), 0))  # nobody left to throw in: «бито»
    assert events[-1]["outcome"] == "bito"
    events = g.advance()
    assert events[0] == {"type": "out", "seat": 0, "place": 2, "partner": None}
    # Team 0, 2 is out while 1 and 3 hold cards: the mark goes to the one holding most (3).
    assert g.result == {"loser": 3, "draw": False, "order": [2, 0], "pogony": False, "losing_team": [1, 3]}
    g = team_endgame(["6c", "7c", "", ""])
    g.apply(0, ("attack", C("6c")))
    g.apply(1, ("cover", C("7c"), 0))
    g.advance()  # the last attacker and defender of the two teams run out at once
    assert g.result == {"loser": None, "draw": True, "order": [2, 3, 0, 1], "pogony": False, "losing_team": None}
    # A whole game at the table: the mark goes to the loser, the result names his team.
    t = Table({"game": "perevodnoy", "players": 4, "teams": "2x2"})
    t.start(seed=b"V7")
    play_game(t, [RandomBot(s, b"V7") for s in range(4)], Rng(b"V7", b"driver"))
    result = t.game.result
    assert result["draw"] or (t.mark == result["loser"] and result["loser"] in result["losing_team"]
                              and not set(result["losing_team"]) <= set(result["order"]))


def test_V8_pogony_when_the_last_attack_on_the_durak_was_two_sixes():
    g = late(PodkidnoyGame, ["6c 6d", "7h 8h 9h"], "As")
    g.apply(0, ("attack", C("6c")))
    g.apply(0, ("attack", C("6d")))
    g.apply(1, ("take",))
    events = g.advance()
    assert events[-1] == {"type": "game_over",
                          "result": {"loser": 1, "draw": False, "order": [0], "pogony": True}}
    g = late(PodkidnoyGame, ["6c 6d 6h", "7h 8h 9h"], "As")  # three sixes are not «погоны»
    for c in ("6c", "6d", "6h"):
        g.apply(0, ("attack", C(c)))
    g.apply(1, ("take",))
    g.advance()
    assert g.result["loser"] == 1 and g.result["pogony"] is False
    g = late(SimpleGame, ["6c 6d", "7h 8h 9h"], "As")  # simple durak too (a lead of two sixes)
    g.apply(0, ("lead", cards("6c 6d")))
    g.apply(1, ("take",))
    g.advance()
    assert g.result["pogony"] is True


def test_V9_no_first_transfer_and_no_limit():
    hands = ["6c 7c 8c 9c Tc Jc", "6d 7d 8d 9d Td Jd", "6h 7h 8h 9h Th Jh"]
    deck = make_deck(hands, 6, trump="As")
    lost = {"loser": 1, "draw": False, "order": [0, 2]}
    g = PerevodnoyGame.new({"players": 3, "no_first_transfer": True}, deck=deck, previous=lost)
    assert (g.attacker, g.defender) == (0, 1)  # under the durak (D2)
    g.apply(0, ("attack", C("6c")))
    assert g.check(1, ("transfer", C("6d"))) == ("V9t",) and ("transfer", C("6d")) not in g.honest_actions(1)
    assert g.rule_in_force(1) == "V9"
    g.apply(1, ("take",))
    g.advance()
    assert g.barred is False  # only the first attack
    for options, previous in (({"no_first_transfer": True}, None), ({}, lost)):
        g = PerevodnoyGame.new({"players": 3, **options}, deck=deck, previous=previous, first=0)
        g.apply(0, ("attack", C("6c")))
        assert g.check(1, ("transfer", C("6d"))) == ()
    with pytest.raises(ValueError):
        PodkidnoyGame.options({"no_first_transfer": True})  # no transfers in podkidnoy
    # «До завала»: no limit but the defender's hand.
    hands = ["6c 6d 6h 6s 7c 7d 7h", "8c 8d 8h 9c 9d 9h Tc Td"]
    for options, limit, seventh in (({"no_limit": True}, 8, ()), ({}, 6, ("D3n",))):
        g = late(PodkidnoyGame, hands, "As", **options)
        assert g.limit == limit
        for c in ("6c", "6d", "6h", "6s", "7c", "7d"):
            g.apply(0, ("attack", C(c)))
        assert g.check(0, ("attack", C("7h"))) == seventh
