"""Scenario tests of «сто одно»: one test per ruling H1–H9 (each violation of H7 too), on
deals built from fixed hands, driven on the engine the way the table drives it (apply,
then advance once the window is over, T8); the seed's two-player combo; bad input that
changes nothing."""

from __future__ import annotations

import pytest
from hundred_scenarios import C, act, action, deal_order, hand, kinds, new, play

from pidor.cards import card_code
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.games.hundred_one.engine import HundredOneGame


def test_H1_two_to_six_players_and_the_36_card_deck():
    for n in (2, 6):
        g = HundredOneGame.new({"players": n}, seed=b"h1")
        assert sorted(c for z in g.zones().values() for c in z) == full_deck(36)
    for bad in ({"players": 1}, {"players": 7}, {"deck": 52}):
        with pytest.raises(ValueError):
            HundredOneGame.options(bad)


def test_H2_four_each_from_the_player_after_the_dealer_his_fourth_face_up():
    g = new(["7c 8c 9c Tc", "7d 8d 9d", "7h 8h 9h Th"], blind="Jd", dealer=1)
    assert [hand(g, s) for s in range(3)] == [["7c", "8c", "9c", "Tc"], ["7d", "8d", "9d"], ["7h", "8h", "9h", "Th"]]
    assert g.table == [C("Jd")] and len(g.deck) == 36 - 12 and g.dealer == 1
    assert g.to_act() == [2]  # the blind card is the dealer's first play: the next player covers it
    ev = g.opening()[0]
    assert ev["type"] == "deal" and ev["card"] == "Jd" and ev["_private"][0] == {"cards": ["7c", "8c", "9c", "Tc"]}
    # the order dealt (LOGS.md §3): card i of the deck to seat dealer + 1 + i, the last face up
    order = deal_order(["7c 8c 9c Tc", "7d 8d 9d", "7h 8h 9h Th"], "Jd", dealer=1)
    assert [card_code(c) for c in order[:3]] == ["7h", "7c", "7d"] and card_code(order[11]) == "Jd"


def test_H2_a_blind_queen_is_named_by_the_dealer_once_it_shows():
    g = new(["7c 8c 9c Tc", "7d 8d 9d"], blind="Qh", dealer=1)
    assert g.to_act() == [1] and g.naming
    assert g.honest_actions(1) == [("name", s) for s in range(4)]
    with pytest.raises(ImpossibleAction):
        g.apply(1, action("cover 7d"))
    act(g, 1, "name c")
    assert g.to_act() == [0] and g.suit == 0
    act(g, 0, "cover 7c")  # the named suit (H4)


def test_H2_the_first_dealer_by_lot_then_clockwise_and_the_loser_deals_the_next_game():
    seed = b"lot"
    g = HundredOneGame.new({"players": 4}, seed=seed)
    assert g.dealer == Rng(seed, b"bottle").below(4)
    assert HundredOneGame.new({"players": 4}, seed=seed, previous={"loser": 2, "draw": False}).dealer == 2
    assert HundredOneGame.new({"players": 4}, seed=seed, previous={"loser": None, "draw": True}).dealer == g.dealer


def test_H3_cover_by_suit_or_rank_or_draw_one_card_then_cover_or_pass():
    g = new(["7c 8d 9h Ts", "7h 8h 9c"], blind="9s", dealer=1)
    assert sorted(g.honest_actions(0)) == sorted([("cover", C("9h")), ("cover", C("Ts")), ("draw",)])
    act(g, 0, "draw")
    assert len(g.hands[0]) == 5 and ("skip",) in g.honest_actions(0) and ("draw",) not in g.honest_actions(0)
    act(g, 0, "skip")
    assert g.to_act() == [1]
    play(g, "1: cover 9c; 0: cover 8d !H7c")


def test_H4_six_its_player_covers_himself_drawing_until_he_can():
    g = new(["6c 9d 9h 9s", "7h 8h 9c"], blind="Tc", dealer=1, draws="Jd Kc")
    play(g, "0: cover 6c")
    assert g.to_act() == [0] and g.six
    assert ("skip",) not in g.honest_actions(0)
    play(g, "0: draw; 0: draw")  # (no H7d: covering his own six, H3)
    assert hand(g, 0) == ["9d", "9h", "9s", "Jd", "Kc"]
    play(g, "0: cover Kc")
    assert g.to_act() == [1] and not g.six


@pytest.mark.parametrize("card,owed", [("7h", 2), ("8h", 1), ("Ks", 5), ("Ah", 0)])
def test_H4_seven_eight_king_of_spades_and_ace_make_the_next_player_take_and_lose_his_turn(card, owed):
    g = new(["7c 8c 9c Tc", "7d 8d 9d 6s", "Jc Jd Jh"], blind=card, dealer=2)  # (the dealer's first play)
    assert g.penalty == [0, owed] and g.honest_actions(0) == [("take_penalty", owed)]
    act(g, 0, f"take_penalty {owed}")
    assert len(g.hands[0]) == 4 + owed and g.to_act() == [1] and g.penalty is None


def test_H4a_the_penalty_is_the_penalised_players_own_turn():
    g = new(["9c 9d 9h 9s", "8h Td Th", "7h 8c 8d 8s"], blind="Ts", dealer=1)
    assert g.honest_actions(2) != [] and g.owes(0) is None
    play(g, "2: cover 8s")
    assert g.honest_actions(0) == [("take_penalty", 1)]
    play(g, "0: take_penalty 1")  # an eight: one card, and he loses his turn
    assert len(g.hands[0]) == 5 and g.to_act() == [1]  # 3 players: the turn goes past him
    g = new(["9c 9d 9h 9s", "Tc Td Th"], blind="8d", dealer=1)  # two players: the dealer's eight
    play(g, "0: take_penalty 0 !H7p")  # fewer than owed
    assert len(g.hands[0]) == 4 and g.to_act() == [1]  # the turn returns to the card's player


def test_H4a_a_six_left_uncovered_is_covered_by_the_next_player_like_any_card():
    g = new(["6c 9d 9h 9s", "6d 8h 9c"], blind="Tc", dealer=1)
    play(g, "0: cover 6c; 0: skip !H7s")
    assert g.to_act() == [1] and not g.six
    play(g, "1: cover 6d")  # a six of its rank: his own six now
    assert g.to_act() == [1] and g.six


def test_H5_two_players_a_skip_card_gives_the_turn_back_three_play_one_card_a_turn():
    g = new(["7c Ac 9d 9h", "Tc Td Th"], blind="9c", dealer=1)
    play(g, "0: cover 7c; 1: take_penalty 2; 0: cover Ac; 1: take_penalty 0")
    assert g.to_act() == [0] and len(g.hands[1]) == 5
    g = new(["7s Ac 9d 9h", "Js Td Th", "Jd Jh Jc 8s"], blind="Ts", dealer=1)
    play(g, "2: cover 8s; 0: take_penalty 1; 1: cover Js; 2: draw; 2: skip; 0: cover 7s; 1: take_penalty 2")
    assert g.to_act() == [2]
    with pytest.raises(ImpossibleAction):
        g.apply(0, action("cover Ac"))  # not his turn: his turn ended with his seven (H7m only till someone acts)


def test_H6_the_deck_runs_out_the_table_is_shuffled_into_a_new_deck_from_the_key():
    g = new(["9c 9d 9h 9s", "Tc Td Th"], blind="Ts", dealer=1)
    g.deck = []  # (everything else is drawn)
    g.table = [C("Jc"), C("Jd"), C("Qh"), C("Ts")]
    events = act(g, 0, "draw")
    assert kinds(events)[-2:] == ["reshuffle", "draw"]
    assert g.table == [C("Ts")]
    rebuilt = shuffled([C("Jc"), C("Jd"), C("Qh")], g.key, b"deal 1 event 1")  # T15: deal 1, its first random event
    assert g.hands[0][-1] == rebuilt[0] and g.deck == rebuilt[1:][::-1]


def test_H6_nothing_left_a_penalty_is_forgiven_and_a_draw_takes_a_random_card():
    g = new(["9c 9d 9h 9s", "Tc Td Th"], blind="Ts", dealer=1)
    g.deck, g.table = [], [C("Ts")]
    g.penalty = [0, 2]
    events = act(g, 0, "take_penalty 2")
    draw = events[-1]
    assert draw["type"] == "draw" and draw["count"] == 0 and draw["forgiven"] == 2 and g.to_act() == [1]
    events = act(g, 1, "draw")  # from the next player holding two or more: seat 0
    pull = events[-1]
    taken = C(pull["_private"][1]["cards"][0])
    assert pull["type"] == "pull" and pull["from"] == 0 and taken in g.hands[1] and len(g.hands[0]) == 3
    assert pull["_private"][0] == {"index": Rng(g.key, b"deal 1 event 1").below(4)}  # (T15: from the key)
    g.hands[0] = g.hands[0][:1]
    assert not g.can_draw(1) and ("skip",) in g.honest_actions(1) and ("draw",) not in g.actions(1)


def test_H7_each_way_to_cheat():
    g = new(["7c 8d 9h Ts", "7h 8h 9c"], blind="9s", dealer=1)
    play(g, "0: cover 8d !H7c")  # H7c: another suit and rank
    g = new(["7c 8d 9h Ts", "7h 8h 9c"], blind="9s", dealer=1)
    play(g, "0: skip !H7n; 1: draw; 1: draw !H7d")  # H7n, H7d
    g = new(["7c 8d 9h Ts", "7h 8h 9c"], blind="Qs", dealer=1)
    play(g, "1: name h; 0: cover Ts !H7q; 1: cover 9c !H7c")  # H7q: on a queen, the named suit (or a queen)
    g = new(["7c 8d 9h Ts", "7h 8h 9c"], blind="7s", dealer=1)
    play(g, "0: take_penalty 1 !H7p")  # H7p: fewer cards than owed (two)
    g = new(["6c 8d 9h Ts", "7h 8h 9d"], blind="9c", dealer=1)
    play(g, "0: cover 6c; 0: skip !H7s")  # H7s
    g = new(["9c 8d 9h Ts", "7h 8h 9d"], blind="Tc", dealer=1)
    play(g, "0: cover 9c; 0: cover 9h !H7m")  # H7m: a second card before the next player moved
    assert g.to_act() == [1]


def test_H7_when_a_queen_is_on_top_only_H7q_applies():
    g = new(["7c Qd 9h Ts", "7h 8h 9c"], blind="Qs", dealer=1)
    play(g, "1: name h; 0: queen Qd c")  # a queen covers a queen, and names again
    play(g, "1: cover 7h !H7q")  # the named suit is clubs: not H7c although it fits neither


def test_H7p_ignoring_a_penalty_playing_drawing_or_passing_instead():
    for instead, extra in (("cover 8s", ()), ("cover Jh", ("H7c",)), ("draw", ()), ("skip", ())):
        g = new(["9s Jh 9h 8s", "7s 8h Jc"], blind="Ts", dealer=1)
        play(g, "0: cover 9s; 1: cover 7s")
        act(g, 0, instead, ("H7p", *extra))
        assert g.penalty is None or g.penalty[0] == 1


def test_H8_the_deal_ends_the_others_count_their_hands_a_queen_goes_out_for_minus_20():
    g = new(["Qc 9d 9h 9s", "Ad Kd Jd 6d", "7d 8d Td"], blind="9c", dealer=2)
    g.hands[0] = [C("Qc")]
    events = act(g, 0, "queen Qc d")
    assert kinds(events) == ["action", "out", "deal_over"]  # (after the window, T15)
    over = events[-1]
    assert over["points"] == [-20, 11 + 4 + 2 + 6, 7 + 8 + 10] and g.scores == [-20, 23, 25]  # below 0 too
    assert over["hands"] == [[], ["Ad", "Kd", "Jd", "6d"], ["7d", "8d", "Td"]]
    assert g.dealing and g.to_act() == [0] and not g.hands[1]  # the cards are gathered; the next dealer deals


@pytest.mark.parametrize("last,top,bonus", [("Qh", "9h", 20), ("Qs", "Ts", 40), ("Ks", "Ts", 50), ("9s", "Ts", 0)])
def test_H8_the_bonus_of_the_last_card(last, top, bonus):
    g = new(["Tc Td 9d 9c", "7d 8d 7h 6h", "Jc Jd Jh"], blind=top, dealer=2)
    g.hands[0] = [C(last)]
    act(g, 0, f"queen {last} s" if last[0] == "Q" else f"cover {last}")
    assert g.history[-1]["points"][0] == -bonus


def test_H8_a_last_seven_is_not_taken_and_a_last_six_is_not_a_last_card():
    g = new(["7s 9d 9h 9c", "7d 8d 9s 6d", "Jc Jd Jh"], blind="Ts", dealer=2)
    g.hands[0] = [C("7s")]
    events = act(g, 0, "cover 7s")
    assert "deal_over" in kinds(events) and g.history[-1]["points"][1] == 7 + 8 + 9 + 6  # no penalty taken
    g = new(["6s 9d 9h 9c", "7d 8d 9s 6d", "Jc Jd Jh"], blind="Ts", dealer=2, draws="Js")
    g.hands[0] = [C("6s")]
    events = act(g, 0, "cover 6s")
    assert "deal_over" not in kinds(events) and g.to_act() == [0] and g.six
    play(g, "0: draw; 0: cover Js")
    assert g.history[-1]["winner"] == 0


def test_H8_exactly_101_becomes_0():
    g = new(["Qc 9d 9h 9s", "Ad Kd Jd 6d", "7d 8d Td"], blind="9c", dealer=2)
    g.hands[0] = [C("Qc")]
    g.scores = [10, 101 - 23, 50]
    act(g, 0, "queen Qc d")
    assert g.scores == [-10, 0, 75]


@pytest.mark.parametrize("bonus_hand,points", [(True, [-(50 + 20), -(40 + 20 + 20), 33]), (False, [-20, 6, 33])])
def test_H8_bonus_hand_a_hand_of_bonus_cards_takes_off_with_the_run_played_last(bonus_hand, points):
    g = new(["Qc 9d 9h 9s", "Qd Qs 9c 6d", "Ac Ad Ah"], blind="Jc", dealer=2, bonus_hand=bonus_hand)
    g.hands[0], g.hands[1] = [C("Qc")], [C("Qs"), C("Qd")]
    g.runs[0], g.runs[1] = [50], [20]  # their last plays: the king of spades; a queen
    act(g, 0, "queen Qc h")
    assert g.history[-1]["points"] == points


def test_H9_over_101_the_highest_loses_the_rest_by_score():
    g = new(["Qc 9d 9h 9s", "Ad Kd Jd 6d", "Tc Td Th Ts", "Ac Ah As"], blind="9c", dealer=3)
    g.hands[0] = [C("Qc")]
    g.scores = [0, 90, 75, 90]  # + 23, + 40, + 33
    events = act(g, 0, "queen Qc d")
    result = g.result
    assert result["loser"] == 3 and result["order"] == [0, 1, 2] and result["scores"] == [-20, 113, 115, 123]
    assert events[-1] == {"type": "game_over", "result": result} and len(result["deals"]) == 1


def test_H9_equal_scores_the_first_clockwise_from_the_player_who_went_out_loses():
    g = new(["Qc 9d 9h 9s", "Ad Kd Jd 6d", "Tc Td Th Ts", "Ac Ah As"], blind="9c", dealer=3)
    g.hands[0] = [C("Qc")]
    g.scores = [0, 92, 10, 82]  # seats 1 and 3 end equal on 115
    act(g, 0, "queen Qc d")
    assert g.result["scores"][1] == g.result["scores"][3] and g.result["loser"] == 1


def test_the_seeds_two_player_combo_the_opponent_draws_seventeen():
    """«4 шестерки - 4 семерки - 4 восьмерки - 4 туза - пиковый король - дама»: 18 cards in
    one turn (H4, H5), the opponent takes 8 + 4 + 0 + 5 = 17 (H4a; the deck is rebuilt from
    the table when it runs out, H6), the last card a queen (H8: −40 for the queen of spades)."""
    combo = "6c 6d 6s 6h 7h 7c 7d 7s 8s 8h 8c 8d Ad Ac Ah As Ks Qs"
    g = new(["9h 9d 9s Jh", "Tc Td Th"], blind="9c", dealer=1)
    g.hands[0] = [C(c) for c in combo.split()]
    g.deck = [c for c in g.deck if c not in g.hands[0]]
    before = len(g.hands[1])
    taken = 0
    for card in combo.split():
        owed = g.owes(1)
        if owed is not None:
            events = act(g, 1, f"take_penalty {owed}")
            taken += sum(e["count"] for e in events if e["type"] == "draw")
            assert g.to_act() == [0]  # H5: the turn comes back
        act(g, 0, f"queen {card} s" if card[0] == "Q" else f"cover {card}")
    assert taken == 17 and len(g.history) == 1 and g.dealing  # the deal is over: seat 0 went out
    assert before == 3 and g.history[-1]["points"][0] == -40 and len(g.history[-1]["points"]) == 2


def test_bad_input_changes_nothing():
    g = new(["7c 8d Qh Ts", "7h 8h 9c"], blind="9s", dealer=1)
    before = g.to_data()
    with pytest.raises(ImpossibleAction):
        g.apply(0, action("cover Ac"))  # a card not held
    with pytest.raises(InvalidAction):
        g.apply(0, ("cover", C("Qh")))  # a queen without a named suit
    with pytest.raises(InvalidAction):
        g.apply(0, ("queen", C("Qh"), 7))  # a suit that does not exist
    with pytest.raises(InvalidAction):
        g.parse_action({"type": "queen", "card": "Qh", "suit": "x"})
    with pytest.raises(InvalidAction):
        g.apply(0, ("queen", C("Ts"), 1))  # only a queen names a suit
    with pytest.raises(ImpossibleAction):
        g.apply(0, ("take_penalty", 2))  # nothing owed
    with pytest.raises(ImpossibleAction):
        g.apply(1, ("draw",))  # not his turn
    assert g.to_data() == before
    t = Table({"game": "hundred_one", "players": 2})
    t.start(deck=deal_order(["7c 8d 9h Ts", "7h 8h 9c"], "9s", dealer=1), first=0)
    before = t.to_data()
    with pytest.raises(InvalidAction):
        t.act(0, t.game.parse_action({"type": "cover", "card": "Qs"}), parsed=True)
    assert t.to_data() == before
