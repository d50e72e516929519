"""Scenario tests of «пень» and «пеньки»: one test per ruling S1–S7 (and each violation of S7),
T8, T13 and T14 as this game has them, on deals from fixed deck orders and positions built
later in a game, driven on the engine (apply, then advance, as the table does) or at a table
where the call window, the court and the mark matter."""

from __future__ import annotations

import pytest
from helpers import pass_all
from stump_scenarios import C, act, deal, position, types

from pidor.cards import card_code, parse_cards
from pidor.engine.game import ImpossibleAction, InvalidAction, project
from pidor.engine.table import Table
from pidor.games.stump.cards import beats, strength, take_count
from pidor.games.stump.engine import StumpGame


def codes(text: str) -> list[str]:
    return [card_code(c) for c in parse_cards(text)]


# ------------------------------------------------------------------ S1: the deal


def test_S1_each_gets_a_stub_then_four_cards_and_the_card_under_the_deck_is_trump():
    g = deal(["6c 7c 8c 9c", "6d 7d 8d 9d", "6s 7s 8s 9s", "Jc Jd Js Qc"], stubs=["Ah Kh", "", "", ""],
             top="Qd", trump="Th", first=1)
    assert g.dealer == 0 and g.turn == 1 and g.owe == "lead"  # the player after the dealer leads (S2)
    assert [sorted(h) for h in g.hands] == [sorted(parse_cards(h)) for h in
                                            ["6c 7c 8c 9c", "6d 7d 8d 9d", "6s 7s 8s 9s", "Jc Jd Js Qc"]]
    assert sorted(g.stubs[0]) == sorted(parse_cards("Ah Kh")) and all(len(s) == 2 for s in g.stubs)
    assert len(g.deck) == 36 - 8 - 16 and g.deck[-1] == C("Qd") and g.deck[0] == C("Th")
    v = g.view(1)
    assert v["trump"] == "h" and v["trump_card"] == "Th" and v["deck"] == 12 and v["stubs"] == [2, 2, 2, 2]
    assert g.opening() == [{"type": "deal", "dealer": 0, "first": 1, "trump": "h", "trump_card": "Th"}]


def test_S1_the_ten_ranks_above_the_king_and_a_trump_beats_a_plain_card():
    assert strength(C("Th"), False) > strength(C("Kh"), False) > strength(C("Qh"), False)
    assert strength(C("Ah"), False) > strength(C("Th"), False) > strength(C("9h"), False)
    assert beats(C("Th"), C("Kh"), 0, False) and not beats(C("Kh"), C("Th"), 0, False)
    assert beats(C("6c"), C("Ah"), 0, False) and not beats(C("Ah"), C("6c"), 0, False)  # clubs trump
    assert not beats(C("Ad"), C("6h"), 0, False)  # another plain suit never beats


def test_S1_six_players_the_last_card_dealt_names_trump():
    g = deal([""] * 6, first=0)
    assert not g.deck and g.trump == g.hands[5][-1] // 13  # dealt last, to the dealer
    assert g.view(0)["trump_card"] is None  # in a hand: only its suit is on show
    assert card_code(g.hands[5][-1]) in g.hidden_from(0)


def test_S1_the_first_dealer_is_drawn_by_lot_and_S5_the_stump_deals_the_next_game():
    dealers = {StumpGame.new({"players": 4}, seed=b"lot %d" % k).dealer for k in range(20)}
    assert dealers == {0, 1, 2, 3}
    g = StumpGame.new({"players": 4}, seed=b"x", previous={"loser": 2, "draw": False, "order": [0, 1, 3]})
    assert g.dealer == 2 and g.turn == 3
    after_draw = StumpGame.new({"players": 4}, seed=b"x", previous={"loser": None, "draw": True, "order": []})
    assert after_draw.dealer == StumpGame.new({"players": 4}, seed=b"x").dealer  # the lot again


# ------------------------------------------------------------------ S2: beat, then lead


def test_S2_beat_and_lead_are_separate_moves_each_with_its_window():
    t = Table({"game": "stump", "players": 3})
    t.start(deck=_order3(), first=0)
    events = t.act(0, ("lead", C("7c")))
    assert t.window is not None and t.window.seat == 0  # T3: a window on the lead
    pass_all(t)
    assert t.to_act() == [0] and t.game.owe == "draw"  # S3: three cards left, he draws one
    t.act(0, ("draw", 1))
    pass_all(t)
    assert t.to_act() == [1] and t.game.owe == "beat"
    t.act(1, ("beat", C("9c")))
    assert t.window is not None  # the beat's own window
    pass_all(t)
    assert t.to_act() == [1] and t.game.owe == "lead"  # having beaten, he leads
    t.act(1, ("lead", C("6d")))
    pass_all(t)
    assert t.game.stack == parse_cards("7c 9c 6d") and t.game.turn == 1 and t.game.owe == "draw"
    assert "deal" not in types(events)


def _order3():
    from stump_scenarios import deal_order
    return deal_order(["7c Kc 6h 8h", "9c 6d 7h 8s", "Tc Jd 9h 9s"], trump="Ah", first=0)


def test_S2_only_a_higher_card_of_the_suit_or_a_trump_on_a_plain_card_beats_it():
    g = position(["6c", "7c Ac 6h Ts", "Kd"], "8c", trump="h", turn=1, owe="beat", by=0)
    assert sorted(g.honest_actions(1)) == sorted([("beat", C("Ac")), ("beat", C("6h")), ("take", 8, 0)])
    assert g.check(1, ("beat", C("7c"))) == ("S7b",)
    assert g.check(1, ("beat", C("Ts"))) == ("S7b",)
    with pytest.raises(ImpossibleAction):
        g.check(1, ("lead", C("7c")))  # the top card waits to be beaten (S4: or taken)


# ------------------------------------------------------------------ S3: drawing


def test_S3_after_his_lead_a_player_draws_up_to_four_in_one_action_once_the_window_closes():
    g = position(["6c 7c 8c 9c", "Jd Qd"], "", deck="Ah Kh Qh Jh 9h 8h", turn=0, owe="lead")
    act(g, 0, "lead 6c")
    assert g.owe == "draw" and g.owed() == 1 and g.turn == 0
    events = g.apply(0, ("draw", 1))
    assert len(g.hands[0]) == 3 and g.to_act() == []  # T8: the cards wait for the window
    events = g.advance()
    assert types(events) == ["draw"] and events[0]["count"] == 1 and events[0]["deck"] == 5
    assert project(events[0], 0)["cards"] == ["Ah"] and "cards" not in project(events[0], 1)
    assert len(g.hands[0]) == 4 and g.turn == 1 and g.owe == "beat"


def test_S3_a_player_who_beats_with_his_last_card_while_the_deck_lasts_draws_first_then_leads():
    g = position(["6c 7d", "9c"], "", deck="Ah Kh Qh Jh 9h 8h", turn=0, owe="lead")
    act(g, 0, "lead 6c")  # 1 card left: he draws 3
    act(g, 0, "draw 3")
    act(g, 1, "beat 9c")
    assert g.turn == 1 and g.owe == "draw" and g.owed() == 3  # hand empty: up to four... of what is left
    act(g, 1, "draw 3")
    assert g.turn == 1 and g.owe == "lead" and len(g.hands[1]) == 3


def test_S3_after_a_take_the_taker_draws_up_to_four_and_the_next_player_beats():
    g = position(["8h", "7c 8c 9c"], "Kc", deck="Ah Kh Qh", turn=0, owe="beat", by=1, rest=1)
    act(g, 0, "take 1 0")  # the whole stack (the king says 4)
    assert g.turn == 0 and g.owe == "draw" and g.owed() == 2
    act(g, 0, "draw 2")
    assert g.turn == 1 and g.owe == "lead" and len(g.hands[0]) == 4


# ------------------------------------------------------------------ S4: taking


@pytest.mark.parametrize("top,count", [("Ac", 6), ("Kc", 4), ("Qc", 3), ("Jc", 2), ("Tc", 10), ("9c", 9),
                                       ("6c", 6)])
def test_S4_a_player_who_does_not_beat_takes_as_many_as_the_card_says(top, count):
    assert take_count(C(top), False) == count
    g = position(["6d", "7d 8d"], top, trump="h", turn=1, owe="beat", by=0)
    assert g.owed() == count and ("take", count, 0) in g.honest_actions(1)
    stack = list(g.stack)
    act(g, 1, f"take {count} 0")
    assert sorted(g.hands[1]) == sorted(parse_cards("7d 8d") + stack[-count:]) and g.stack == stack[:-count]
    assert g.turn == 0 and g.owe == "beat" and g.by == 1  # the next beats the new top, as if the taker led it


def test_S4_the_whole_stack_when_it_holds_fewer_and_then_the_next_player_leads():
    g = position(["6d 7d", "8d 9d", "Jd"], "8c Tc", trump="h", turn=1, owe="beat", by=0, rest=2)
    assert g.owed() == 2  # the ten says 10, the stack holds 2
    act(g, 1, "take 2 0")
    assert g.stack == [] and sorted(g.hands[1]) == sorted(parse_cards("8d 9d 8c Tc"))
    assert g.turn == 2 and g.owe == "lead" and g.by is None


# ------------------------------------------------------------------ S5: the пенёк and going out


def test_S5_a_hand_emptied_with_no_deck_picks_up_the_stub_unseen_until_then():
    g = position(["6c", "7c 8c"], "", stubs=["Ah Ad", "Kh Kd"], turn=0, owe="lead")
    for seat in (0, 1, None):
        assert {"Ah", "Ad", "Kh", "Kd"} <= g.hidden_from(seat)  # nobody sees a пенёк, its owner neither
    act(g, 0, "lead 6c")
    assert g.turn == 0 and g.owe == "pick" and g.honest_actions(0) == [("pick",)]
    g.apply(0, ("pick",))
    assert g.hands[0] == [] and "Ah" in g.hidden_from(0)  # T8: shown once the window has closed
    events = g.advance()
    stub = next(e for e in events if e["type"] == "stub")
    assert project(stub, 0)["cards"] == ["Ah", "Ad"] and "cards" not in project(stub, 1) and stub["count"] == 2
    assert sorted(g.hands[0]) == sorted(parse_cards("Ah Ad")) and g.stubs[0] == []
    assert "Ah" not in g.hidden_from(0) and "Ah" in g.hidden_from(1) and "Ah" in g.hidden_from(None)
    assert g.view(1)["stubs"] == [0, 2] and g.turn == 1 and g.owe == "beat"


def test_S5_a_player_who_beats_with_his_last_card_leads_from_his_stub():
    g = position(["6c 7d", "9c"], "", stubs=["", "Ah Kd"], turn=0, owe="lead")
    act(g, 0, "lead 6c")
    act(g, 1, "beat 9c")
    assert g.turn == 1 and g.owe == "pick" and g.after == "lead"
    act(g, 1, "pick")
    assert g.turn == 1 and g.owe == "lead" and sorted(g.hands[1]) == sorted(parse_cards("Ah Kd"))


def test_S5_a_player_who_beats_with_his_last_card_and_has_nothing_to_lead_is_out_and_the_next_beats_it():
    g = position(["6h 7c", "Ah", "Kh 9s"], "", trump="s", turn=0, owe="lead")
    act(g, 0, "lead 6h")
    events = act(g, 1, "beat Ah")
    assert {"type": "out", "seat": 1, "place": 1} in events and g.result is None
    assert g.turn == 2 and g.owe == "beat" and g.stack[-1] == C("Ah") and g.by == 1 and g.owed() == 6
    assert g.honest_actions(2) == [("beat", C("9s")), ("take", 6, 0)]


def test_S5_the_last_two_running_out_together_is_a_draw():
    g = position(["Kc", "Ac", "7d 8d"], "", trump="h", turn=0, owe="lead", out=(2,), rest=2)
    events = act(g, 0, "lead Kc")
    assert {"type": "out", "seat": 0, "place": 2} in events
    assert g.result is None and g.turn == 1 and g.owe == "beat"  # the last one answers the last card
    events = act(g, 1, "beat Ac")
    assert g.result == {"loser": None, "draw": True, "order": [2, 0, 1]}
    assert types(events)[-1] == "game_over"


def test_S5_the_last_player_with_cards_is_the_stump_and_gets_the_mark():
    t = Table({"game": "stump", "players": 3})
    t.start(seed=b"S5")
    t.game = position(["Kc", "7d", "9d 8s"], "", trump="h", turn=0, owe="lead", out=(2,), rest=2)
    t.act(0, ("lead", C("Kc")))
    pass_all(t)
    assert not t.over and t.to_act() == [1]
    events = t.act(1, ("take", 1, 0))  # he cannot beat: he takes, and holds cards alone
    events += pass_all(t)
    assert t.over and t.game.result == {"loser": 1, "draw": False, "order": [2, 0]}
    assert t.mark == 1 and {"type": "mark", "seat": 1, "reason": "loser"} in events
    t.start(seed=b"next")
    assert t.game.dealer == 1  # S5: the пень deals the next game


def test_S5_the_last_player_who_beats_and_still_holds_cards_is_the_stump():
    g = position(["Kc", "Ac 6d", ""], "", trump="h", turn=0, owe="lead", out=(2,))
    act(g, 0, "lead Kc")
    act(g, 1, "beat Ac")
    assert g.result == {"loser": 1, "draw": False, "order": [2, 0]}


# ------------------------------------------------------------------ S6: «пеньки»


def test_S6_penki_the_whole_deck_is_dealt_and_the_last_card_dealt_names_trump():
    g = deal(["", "", "", ""], trump=None, first=1, variant="penki")
    assert g.deck == [] and [len(h) for h in g.hands] == [7, 7, 7, 7] and all(len(s) == 2 for s in g.stubs)
    assert g.view(0)["trump_card"] is None and g.view(0)["variant"] == "penki"
    five = deal([""] * 5, first=2, variant="penki")
    assert [len(five.hands[s]) for s in (2, 3, 4, 0, 1)] == [6, 5, 5, 5, 5]  # 26 cards from the player after the dealer
    assert five.trump == five.hands[2][-1] // 13  # the last card went to him


def test_S6_penki_ranks_as_usual_and_the_ace_takes_eleven_with_no_drawing():
    assert strength(C("Kh"), True) > strength(C("Th"), True)
    assert take_count(C("Ah"), True) == 11 and take_count(C("Th"), True) == 10
    g = position(["6d 7d", "8d"], "Ac", trump="h", turn=1, owe="beat", by=0, variant="penki")
    assert g.owed() == 11
    g = deal(["", "", ""], first=0, variant="penki")
    act(g, 0, f"lead {card_code(g.hands[0][0])}")
    assert g.owe == "beat" and g.turn == 1  # S6: no drawing after a lead


# ------------------------------------------------------------------ S7: махлёж


def test_S7b_beating_with_a_card_that_does_not_beat_is_accepted_and_recorded():
    g = position(["6c", "7d 8d"], "9c", trump="h", turn=1, owe="beat", by=0)
    act(g, 1, "beat 7d", ("S7b",))
    assert g.stack[-1] == C("7d") and g.owe == "lead"


def test_S7t_taking_fewer_cards_than_the_card_says():
    g = position(["6c", "7d 8d"], "Qc", trump="h", turn=1, owe="beat", by=0)
    with pytest.raises(ImpossibleAction):
        g.check(1, ("take", 4, 0))  # more than the card says: nobody takes it (S4)
    assert g.check(1, ("take", 2, 0)) == ("S7t",)
    act(g, 1, "take 1 0", ("S7t",))
    assert len(g.hands[1]) == 3


def test_S7d_and_S7n_drawing_past_four_or_fewer_than_owed():
    g = position(["6c 7c", "Jd Qd"], "", deck="Ah Kh Qh Jh 9h 8h", turn=0, owe="lead")
    act(g, 0, "lead 6c")
    assert g.owed() == 3
    assert g.check(0, ("draw", 4)) == ("S7d",) and g.check(0, ("draw", 2)) == ("S7n",)
    assert g.check(0, ("draw", 0)) == ("S7n",) and g.check(0, ("draw", 3)) == ()
    act(g, 0, "draw 5", ("S7d",))
    assert len(g.hands[0]) == 6


def test_S7m_taking_cards_from_below_the_top_is_digging():
    g = position(["6c", "7d 8d"], "Ah 6s Jc", trump="h", turn=1, owe="beat", by=0, rest=0)
    act(g, 1, "take 2 1", ("S7m",))
    assert sorted(g.hands[1]) == sorted(parse_cards("7d 8d Ah 6s")) and g.stack == [C("Jc")]
    assert g.turn == 0 and g.owe == "beat" and g.by == 1  # the jack still waits to be beaten


def test_S7p_picking_up_the_stub_early():
    g = position(["6c 7c", "Jd"], "8c", stubs=["Ah Kh", ""], deck="9h 9d", turn=0, owe="lead")
    assert g.check(0, ("pick",)) == ("S7p",)  # cards in hand, and the deck lasts
    act(g, 0, "pick", ("S7p",))
    assert sorted(g.hands[0]) == sorted(parse_cards("6c 7c Ah Kh")) and g.owe == "lead" and g.turn == 0
    with pytest.raises(ImpossibleAction):
        g.check(0, ("pick",))  # it is picked up


def test_S7_a_convicted_draw_is_undone_before_any_card_showed_T8():
    t = Table({"game": "stump", "players": 2})
    t.start(seed=b"S7 T8")
    t.game = position(["6c 7c", "Jd Qd"], "", deck="Ah Kh Qh Jh 9h 8h", turn=0, owe="lead", rest=1)
    t.act(0, ("lead", C("6c")))
    pass_all(t)
    deck = list(t.game.deck)
    events = t.act(0, ("draw", 5))
    assert t.game.deck == deck and "draw" not in types(events)  # nothing drawn while the window is open
    events = t.answer(1, True)  # «пидор!»: the court has no voters but the caller
    assert "undo" in types(events) and t.game.deck == deck and len(t.game.hands[0]) == 1
    assert t.mark == 0 and t.game.payments == [[1, 0]] and t.to_act() == [1]  # T14: paid first
    t.act(1, ("give", t.game.hands[1][0]))
    assert t.game.owe == "draw" and t.game.owed() == 2 and t.to_act() == [0]


# ------------------------------------------------------------------ T1: what hands cannot do


def test_T1_impossible_and_malformed_actions_change_nothing():
    g = position(["6c 7c", "Jd Qd"], "8c", trump="h", turn=1, owe="beat", by=0)
    before = g.to_data()
    for seat, action, error in [
        (0, ("beat", C("6c")), ImpossibleAction),  # out of turn
        (1, ("beat", C("6c")), ImpossibleAction),  # a card he does not hold
        (1, ("take", 0, 0), ImpossibleAction), (1, ("take", 9, 0), ImpossibleAction),
        (1, ("take", 1, -1), ImpossibleAction), (1, ("take", 1, 36), ImpossibleAction),
        (1, ("draw", 1), ImpossibleAction), (1, ("pick",), ImpossibleAction),
        (1, ("give", C("Jd")), ImpossibleAction), (5, ("pick",), ImpossibleAction),
        (1, ("beat", 99), InvalidAction), (1, ("beat",), InvalidAction), (1, ("jump",), InvalidAction),
        (1, ("take", "1", 0), InvalidAction),
    ]:
        with pytest.raises(error):
            g.apply(seat, action)
        assert g.to_data() == before, action


# ------------------------------------------------------------------ T13: every game ends


def test_T13_a_move_ends_with_the_turn_and_progress_is_a_draw_a_pick_an_exit_or_a_higher_stack():
    g = position(["6c 7c 8c", "9c Tc Jd"], "Qd", trump="h", turn=0, owe="beat", by=1, rest=1)
    g.high = 30
    act(g, 0, "take 1 0")  # no progress: lower stack, nothing drawn, nobody out
    assert (g.units.count, g.units.quiet) == (1, 1)
    g.high = 0
    act(g, 1, "lead 9c")  # the whole stack was taken: he leads, the stack higher than ever
    assert (g.units.count, g.units.quiet) == (2, 0)


def test_T13_quiet_moves_end_the_game_as_a_draw():
    g = position(["6c 7c 8c", "9c Tc Jd"], "Qd", trump="h", turn=0, owe="beat", by=1, rest=1, quiet_limit=30)
    g.high, g.units.quiet = 30, 29
    events = act(g, 0, "take 1 0")
    assert g.result == {"loser": None, "draw": True, "order": [], "stalled": "quiet"}
    assert types(events)[-1] == "game_over"


# ------------------------------------------------------------------ T14: paying for the mark


def test_T14_the_marked_player_is_paid_by_the_first_after_him_with_two_cards_or_more():
    g = position(["6c 7c", "Jd", "Qd Kd 9s"], "8c", trump="h", turn=0, owe="lead", rest=2)
    events = g.on_mark(0)
    assert events == [{"type": "payment_due", "to": 0, "from": [2]}]  # seat 1 holds one card
    assert g.to_act() == [2] and g.rule_in_force(2) == "T14"
    with pytest.raises(ImpossibleAction):
        g.apply(0, ("lead", C("6c")))
    events = g.apply(2, ("give", C("Qd")))
    assert C("Qd") in g.hands[0] and g.to_act() == [0]
    give = next(e for e in events if e["type"] == "give")
    assert project(give, 0)["card"] == "Qd" and "card" not in project(give, 1)
    assert not g.is_callable(("give", C("Qd")))


def test_T14_hard_every_other_player_with_two_cards_or_more_pays():
    g = position(["6c 7c", "Jd Ad", "Qd Kd 9s"], "8c", trump="h", turn=0, owe="lead", rest=2, hard=True)
    assert g.on_mark(0) == [{"type": "payment_due", "to": 0, "from": [1, 2]}]


# ------------------------------------------------------------------ random games


@pytest.mark.parametrize("variant", [None, "penki"])
def test_honest_random_games_end_with_one_stump_or_a_draw(variant):
    from pidor.autoplay import play_game
    from pidor.bots import RandomBot
    from pidor.engine.seeds import Rng

    for players in range(2, 7):
        t = Table({"game": "stump", "players": players, "variant": variant})
        t.start(seed=b"honest %d" % players)
        play_game(t, [RandomBot(s, b"h") for s in range(players)], Rng(b"h", b"driver"))
        r = t.game.result
        assert r["draw"] or (r["loser"] not in r["order"] and len(r["order"]) == players - 1)
