"""Scenario tests of «залупа»: one test (or more) per ruling Z1–Z7 and the table's T13–T15 as
this game reads them, on explicit deals and states set up mid-kon, driven on the engine the
way the table drives it (apply, then advance once the window has closed); then the same at
tables, with logs."""

from __future__ import annotations

import pytest
from zalupa_scenes import C, act, assert_unchanged, deal_order, hand, new, of_type, scene

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.cards import card_code, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction, project
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.games.zalupa.engine import ZalupaGame
from pidor.games.zalupa.state import LETTERS

#: Dealer 0 deals seats 1, 2, 3, 0 in turn. Seat 1 is dealt three other players' nines
#: (their lowest trumps: an explicit deck gives seat 0 ♣, 1 ♦, 2 ♥, 3 ♠) and not his own.
THREE_NINES = ["9d Kc Ac Td Jd Qd", "9c 9h 9s Tc Jc Qc", "Th Jh Qh Kh Ah Kd", "Ts Js Qs Ks As Ad"]


def settle(g: ZalupaGame) -> list[dict]:
    """What the table does once the last action's window has closed (T8)."""
    return g.advance()


# ------------------------------------------------------------------ Z1


def test_Z1_four_players_24_cards_and_a_trump_each_by_lot_for_the_whole_game():
    lots = set()
    for k in range(12):
        seed = b"Z1 %d" % k
        g = ZalupaGame.new({}, seed=seed)
        assert g.suits == shuffled([0, 1, 2, 3], seed, b"suits")  # T15: the lot from the committed key
        lots.add(tuple(g.suits))
        assert sorted(c for z in g.zones().values() for c in z) == full_deck(24)
        assert g.view(None)["suits"] == ["cdhs"[s] for s in g.suits]  # public
        assert (g.dealer, g.turn, g.state) == (Rng(seed, b"bottle").below(4), g.dealer, "lead")  # the lot; he leads
    assert len(lots) > 6
    for bad in ({"players": 3}, {"deck": 36}):
        with pytest.raises(ValueError):
            ZalupaGame.new(bad, seed=b"x")


def test_Z1_the_next_game_is_dealt_by_the_last_games_zalupa_and_after_a_draw_by_lot():
    assert ZalupaGame.new({}, seed=b"n", previous={"loser": 2, "draw": False, "order": [0, 1, 3]}).dealer == 2
    drawn = ZalupaGame.new({}, seed=b"n", previous={"loser": None, "draw": True, "order": []})
    assert drawn.dealer == Rng(b"n", b"bottle").below(4)


def test_Z1_the_trumps_hold_for_the_whole_series():
    t = Table({"game": "zalupa"})
    t.start(seed=b"Z1 series")
    suits = list(t.game.suits)
    events: list[dict] = []
    play_game(t, [RandomBot(s, b"Z1") for s in range(4)], Rng(b"Z1", b"driver"), on_events=events.extend)
    assert len(of_type(events, "deal")) >= 5 and t.game.suits == suits
    assert len(of_type(events, "suits")) == 0  # (the lot is drawn once, before the first deal: opening)


# ------------------------------------------------------------------ Z2


def test_Z2_hand_sizes_after_the_hand_over():
    """The seed's example: a player dealt three nines hands them to their owners and gets his
    own, so he plays with four cards against others' six and seven."""
    g = new(THREE_NINES)
    assert [len(h) for h in g.hands] == [6, 4, 7, 7]
    assert hand(g, 1) == ["Tc", "Jc", "Qc", "9d"]
    assert all(C(f"9{'cdhs'[s]}") in g.hands[s] for s in range(4))
    assert g.view(None)["hands"] == [6, 4, 7, 7]


def test_Z2_the_hand_over_is_seen_by_the_two_players_only():
    g = new(THREE_NINES)
    deal = g.opening()[1]
    assert deal["type"] == "deal" and deal["hands"] == [6, 4, 7, 7]
    assert set(deal) - {"_private"} == {"type", "kon", "dealer", "hands", "stock"}  # the public part: counts
    one = project(deal, 1)
    assert one["to"] == [2, 3, 0] and (one["got"], one["giver"]) == ("9d", 0) and one["cards"] == hand(g, 1)
    two = project(deal, 2)
    assert (two["got"], two["giver"]) == ("9h", 1) and "to" not in two
    assert project(deal, 0)["to"] == [1] and project(deal, 0)["got"] == "9c"
    for seat in (None, 0, 1, 2, 3):  # nobody sees a card in another's hand
        assert not {v for v in _strings(project(deal, seat))} & g.hidden_from(seat)
        assert "handed" not in g.view(seat)


def test_Z2_a_later_kon_deals_the_cards_in_play_six_each_while_they_last():
    """After a loss 23 cards are in play: the dealer (the loser) gets five (seed); he leads."""
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3])
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    settle(g)
    assert (g.state, g.dealer, g.to_act()) == ("deal", 2, [2])
    events = act(g, 2, "deal")
    dealt = [len(h) for h in g.hands]
    for giver, owner, _ in g.handed:
        dealt[giver] += 1
        dealt[owner] -= 1
    assert dealt == [6, 6, 5, 6] and sum(map(len, g.hands)) == 23
    assert (g.kon, g.turn, g.state) == (2, 2, "lead")
    assert of_type(events, "deal")[0]["hands"] == [len(h) for h in g.hands]


# ------------------------------------------------------------------ Z3


def test_Z3_each_player_beats_with_his_own_trump():
    g = scene(["Jd", "9d As Qs Ah", "9h Kh", "Qh Jc"], stack="Ks", by=[0], turn=1, state="beat")
    assert sorted(g.honest_actions(1)) == sorted([("beat", C("9d")), ("beat", C("As")), ("take", 1)])
    assert g.check(1, ("beat", C("Qs"))) == ("Z7b",)  # lower, same suit
    assert g.check(1, ("beat", C("Ah"))) == ("Z7b",)  # hearts are seat 2's trump, not his
    act(g, 1, "beat 9d")  # his trump (♦) on a spade
    assert (g.turn, g.state) == (1, "beaten") and g.to_act() == [1]  # the one who beats leads on top
    assert_unchanged(g, 1, ("beat", C("Qs")))
    act(g, 1, "lead Qs")
    assert (g.turn, g.state) == (2, "beat")
    assert g.check(2, ("beat", C("9h"))) == ()  # his trump (♥) on a spade
    act(g, 2, "take 3")  # the whole stack
    assert hand(g, 2) == ["9h", "Kh", "Ks", "9d", "Qs"] and g.stack == []
    assert (g.turn, g.state) == (3, "lead")  # the next player leads


def test_Z3_a_higher_trump_beats_a_trump_of_that_suit():
    g = scene(["Ac", "", "Qh 9h", "As"], stack="Jh", by=[0], turn=2, state="beat", out=[1])
    assert g.check(2, ("beat", C("Qh"))) == () and g.check(2, ("beat", C("9h"))) == ("Z7b",)
    assert g.check(2, ("take", 1)) == ()


# ------------------------------------------------------------------ Z3a


def test_Z3a_beating_with_the_last_card_takes_him_out_and_the_next_beats_that_card():
    g = scene(["Ac", "9d", "Ah Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    act(g, 1, "beat 9d")
    assert g.to_act() == [1] and sorted(g.honest_actions(1)) == [("done",), ("otboy",)]
    assert not settle(g)  # he still chooses: «отбой» or the next player beats his card
    act(g, 1, "done")
    assert (g.turn, g.state, g.stack[-1]) == (2, "beat", C("9d"))
    assert of_type(settle(g), "out") == [{"type": "out", "seat": 1, "place": 1}]
    assert not g.in_game(1) and g.check(2, ("beat", C("Kh"))) == ()  # his ♥ on a ♦


def test_Z3a_unless_he_says_otboy():
    g = scene(["Ac", "9d", "Ah Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    act(g, 1, "beat 9d")
    act(g, 1, "otboy")
    assert g.stack == [] and (g.turn, g.state) == (2, "lead") and C("9d") in g.discard
    assert [e["seat"] for e in of_type(settle(g), "out")] == [1]


def test_Z3a_with_one_other_left_his_last_beat_ends_the_kon():
    g = scene(["", "9d", "Ah Kh", ""], stack="Ks", by=[0], turn=1, state="beat", out=[0, 3])
    act(g, 1, "beat 9d")
    assert g.to_act() == []  # seat 2 is the last holding cards: the kon is over
    events = settle(g)
    assert [e["seat"] for e in of_type(events, "out")] == [1]
    assert of_type(events, "kon_over")[0]["loser"] == 2


def test_Z3a_done_is_only_for_the_last_card():
    g = scene(["Ac", "9d Qd", "Ah Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    act(g, 1, "beat 9d")
    assert_unchanged(g, 1, ("done",))


# ------------------------------------------------------------------ Z4


def test_Z4_otboy_sends_the_stack_to_the_discard_and_the_next_player_leads():
    g = scene(["Ac", "9d Qd", "Ah Kh", "As"], stack="Ts Ks", by=[3, 0], turn=1, state="beat")
    before = len(g.discard)
    act(g, 1, "beat 9d")
    assert ("otboy",) in g.honest_actions(1)
    events = act(g, 1, "otboy")
    assert events[0]["action"] == {"type": "otboy"}
    assert g.stack == [] and len(g.discard) == before + 3 and hand(g, 1) == ["Qd"]
    assert (g.turn, g.state) == (2, "lead")  # not he: the next player
    assert g.units.quiet == 0 and not settle(g) and g.units.count == 1 and g.units.quiet == 0  # T13b: progress


# ------------------------------------------------------------------ Z5


def test_Z5_the_last_two_run_out_together_and_the_one_who_beat_last_loses():
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3])
    act(g, 1, "lead Qd")  # his last card: the other must still beat it
    assert g.to_act() == [2]
    act(g, 2, "beat Kd")  # his last too: nobody holds cards
    assert g.to_act() == []
    events = settle(g)
    assert [e["seat"] for e in of_type(events, "out")] == [1]  # the loser is not «out»
    over = of_type(events, "kon_over")[0]
    assert (over["loser"], over["card"], over["letters"], over["leaves"]) == (2, "9h", "з", False)
    assert g.aside[2] == [C("9h")] and g.losses == [0, 0, 1, 0]


def test_Z5_the_last_one_holding_cards_loses_and_sets_aside_his_lowest_trump_wherever_it_lies():
    g = scene(["", "Qd", "9h Ah", ""], stack="", turn=1, out=[0, 3])  # his 9h is in his own hand
    act(g, 1, "lead Qd")
    act(g, 2, "beat Ah")  # he still holds 9h: he is the last holding cards
    events = settle(g)
    over = of_type(events, "kon_over")[0]
    assert over["loser"] == 2 and over["card"] == "9h" and C("9h") not in g.hands[2]
    assert g.view(None)["aside"][2] == ["9h"]


def test_Z5_the_loser_deals_and_leads_the_next_kon_and_his_lowest_trump_goes_up_a_rank():
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3])
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    settle(g)
    assert g.to_act() == [2] and g.honest_actions(2) == [("deal",)] and g.actions(2) == [("deal",)]
    assert_unchanged(g, 0, ("deal",))  # the loser deals
    act(g, 2, "deal")
    assert g.turn == 2 and g.state == "lead" and C("Th") in g.hands[2]  # Z2: his ten now comes to him
    assert sorted(c for z in g.zones().values() for c in z) == full_deck(24)
    assert C("9h") not in {c for h in g.hands for c in h}


def test_Z5_the_fifth_loss_writes_pa_and_six_letters_lose_the_game():
    assert LETTERS == ("", "з", "за", "зал", "залу", "залупа")
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3], losses=[1, 0, 4, 2])
    assert g.view(None)["letters"] == ["з", "", "залу", "за"]
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    events = settle(g)
    over = of_type(events, "kon_over")[0]
    assert (over["card"], over["letters"]) == ("Kh", "залупа")  # the king, and «па» at once
    result = of_type(events, "game_over")[0]["result"]
    assert result["loser"] == 2 and not result["draw"]
    assert result["letters"] == ["з", "", "залупа", "за"] and result["kons"] == [1, 0, 5, 2]
    assert g.over and g.to_act() == []


# ------------------------------------------------------------------ Z6


def test_Z6_the_others_are_placed_by_their_losses_then_by_the_earlier_last_loss():
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3], losses=[2, 1, 4, 2])
    g.last_loss = [6, 3, 7, 4]
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    result = of_type(settle(g), "game_over")[0]["result"]
    assert result["order"] == [1, 3, 0]  # one loss; then two each, seat 3's last loss came earlier


def test_Z6_with_titles_the_zalupa_leaves_and_the_rest_play_on_with_three():
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3], losses=[0, 0, 4, 0], titles=True)
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    events = settle(g)
    assert of_type(events, "kon_over")[0]["leaves"] is True
    assert of_type(events, "out")[-1] == {"type": "out", "seat": 2, "place": 4}  # (T7: he sheds the mark)
    assert not of_type(events, "game_over") and g.left == [2] and not g.in_game(2)
    assert g.to_act() == [3]  # the next player still in the game deals
    act(g, 3, "deal")
    assert g.hands[2] == [] and sum(map(len, g.hands)) == 18 and len(g.stock) == 19 - 18
    assert g.view(2)["hand"] == [] and g.hidden_from(2) >= {card_code(c) for c in g.stock}
    assert_unchanged(g, 2, ("lead", g.stock[0]))  # nothing to play with


def test_Z6_titles_end_when_three_have_left():
    g = scene(["", "Ah As", "", "Kd"], turn=3, losses=[5, 4, 5, 0], left=[2, 0], titles=True)
    act(g, 3, "lead Kd")  # his last card
    act(g, 1, "take 1")  # no higher ♦ (his trump): seat 1 holds cards, the last one
    events = settle(g)
    assert of_type(events, "kon_over")[0]["leaves"] is True
    result = of_type(events, "game_over")[0]["result"]
    assert result["loser"] == 2 and result["order"] == [3, 1, 0] and result["muzhik"] == [3]
    assert result["titles"] == ["left_egg", "right_egg", "zalupa", "muzhik"]
    assert result["letters"] == ["залупа"] * 3 + [""]


# ------------------------------------------------------------------ Z7


def test_Z7b_beating_with_another_players_trump_is_a_cheat():
    g = scene(["Ac", "Ah Qd", "Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    events = act(g, 1, "beat Ah", ("Z7b",))  # hearts are seat 2's trump
    assert events[0]["_violations"] == ["Z7b"] and (g.turn, g.state) == (1, "beaten")


def test_Z7t_taking_less_than_the_whole_stack_and_the_next_beats_the_new_top():
    g = scene(["Ac Jc", "Qd", "Kh", "As"], stack="Ts Js Ks", by=[2, 3, 0], turn=1, state="beat")
    assert [a for a in g.honest_actions(1) if a[0] == "take"] == [("take", 3)]
    act(g, 1, "take 1", ("Z7t",))
    assert hand(g, 1) == ["Qd", "Ks"] and [card_code(c) for c in g.stack] == ["Ts", "Js"]
    assert (g.turn, g.state) == (2, "beat") and g.stack_seats == [2, 3]
    for bad in (0, 4, -1):
        assert_unchanged(g, 2, ("take", bad))


def test_Z7o_otboy_on_a_lead_or_instead_of_beating_or_taking():
    g = scene(["Ac Jc", "Qd", "Kh", "As"], turn=0, state="lead")
    act(g, 0, "otboy", ("Z7o",))  # on a lead: he leads nothing, the next player leads
    assert (g.turn, g.state) == (1, "lead") and hand(g, 0) == ["Ac", "Jc"]
    g = scene(["Ac Jc", "Qd", "Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    act(g, 1, "otboy", ("Z7o",))  # instead of beating or taking
    assert g.stack == [] and (g.turn, g.state) == (2, "lead") and hand(g, 1) == ["Qd"]


# ------------------------------------------------------------------ T13 (T13a, T13b)


def test_T13b_the_unit_is_the_stack_a_take_is_no_progress():
    g = scene(["Ac Jc", "Qd", "Kh Qh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    act(g, 1, "take 1")
    settle(g)
    assert (g.units.count, g.units.quiet) == (1, 1)
    act(g, 2, "lead Kh")
    act(g, 3, "take 1")
    settle(g)
    assert (g.units.count, g.units.quiet) == (2, 2)


def test_T13b_a_player_out_is_progress():
    g = scene(["Ac Jc", "9d", "Kh Qh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    g.units.quiet = 5
    act(g, 1, "beat 9d")
    act(g, 1, "done")
    settle(g)  # seat 1 is out
    act(g, 2, "take 2")
    settle(g)
    assert (g.units.count, g.units.quiet) == (1, 0)


def _quiet_kon(g: ZalupaGame) -> list[dict]:
    """The kon's next stack ends without progress once ``quiet_limit`` stacks did (T13)."""
    g.units.quiet = g.limits["quiet_limit"] - 1
    leader = g.turn
    act(g, leader, "lead " + hand(g, leader)[0])
    taker = g.turn
    act(g, taker, f"take {len(g.stack)}")
    return settle(g)


def test_T13a_a_void_kon_has_no_loser_and_the_same_dealer_deals_again():
    g = new(THREE_NINES, dealer=0)
    events = _quiet_kon(g)
    void = of_type(events, "kon_void")[0]
    assert void == {"type": "kon_void", "kon": 1, "reason": "quiet", "voids": 1}
    assert not of_type(events, "kon_over") and g.losses == [0, 0, 0, 0]
    assert (g.state, g.dealer, g.to_act()) == ("deal", 0, [0])
    act(g, 0, "deal")
    assert (g.kon, g.turn) == (2, 0) and sum(map(len, g.hands)) == 24 and g.units.count == 0


def test_T13a_three_void_kons_in_a_row_end_the_game_as_a_draw():
    g = new(THREE_NINES, dealer=0)
    for k in (1, 2):
        _quiet_kon(g)
        assert g.voids == k and g.result is None
        act(g, 0, "deal")
    events = _quiet_kon(g)
    result = of_type(events, "game_over")[0]["result"]
    assert result == {"loser": None, "draw": True, "order": [], "stalled": "quiet", "letters": ["", "", "", ""],
                      "kons": [0, 0, 0, 0]}
    assert g.units.quiet >= g.limits["quiet_limit"]  # (what the conformance suite checks of a draw)


def test_T13a_a_kon_with_a_loser_starts_the_count_of_voids_again():
    g = scene(["", "Qd", "Kd", ""], turn=1, out=[0, 3])
    g.voids = 2
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kd")
    settle(g)
    assert g.voids == 0


# ------------------------------------------------------------------ T14


def test_T14_the_first_player_after_him_holding_two_cards_pays_a_card_seen_by_the_two():
    g = scene(["Ac Jc", "Qd", "Kh Qh", "As Ts"], turn=0, state="lead")
    events = g.on_mark(0)
    assert events == [{"type": "payment_due", "to": 0, "from": [2]}]  # seat 1 holds one card only
    assert g.to_act() == [2] and g.honest_actions(2) == [("give", C("Kh")), ("give", C("Qh"))]
    assert_unchanged(g, 0, ("lead", C("Ac")))
    events = act(g, 2, "give Qh")
    assert hand(g, 0) == ["Ac", "Jc", "Qh"] and g.to_act() == [0]
    assert "card" not in project(events[0], 3)["action"] and project(events[1], 0)["card"] == "Qh"
    assert not g.is_callable(("give", C("Qh")))


def test_T14_hard_every_such_player_pays():
    g = scene(["Ac Jc", "Qd", "Kh Qh", "As Ts"], turn=0, state="lead", hard=True)
    assert g.on_mark(0) == [{"type": "payment_due", "to": 0, "from": [2, 3]}]


# ------------------------------------------------------------------ T15


def _dealt(g: ZalupaGame, order: list[int]) -> list[list[int]]:
    """Z2 by hand: six each from the player after the dealer, then the hand-over."""
    seats = [(g.dealer + i) % 4 for i in range(1, 5) if (g.dealer + i) % 4 not in g.left]
    hands = [[] for _ in range(4)]
    for k, card in enumerate(order[:6 * len(seats)]):
        hands[seats[k % len(seats)]].append(card)
    for owner in seats:
        low = g.suits[owner] * 13 + 7 + len(g.aside[owner])
        holder = next((s for s in seats if low in hands[s]), owner)
        if holder != owner:
            hands[holder].remove(low)
            hands[owner].append(low)
    return hands


def test_T15_every_deal_of_the_series_comes_from_the_committed_key():
    key = b"T15 key"
    t = Table({"game": "zalupa"})
    t.start(seed=key)
    assert t.game.hands == _dealt(t.game, shuffled(full_deck(24), key))
    rng = Rng(key, b"choices")
    checked = 0
    while not t.over:
        g = t.game
        if g.state == "deal" and t.window is None:
            gone = {c for a in g.aside for c in a}
            expected = _dealt(g, shuffled([c for c in full_deck(24) if c not in gone], key, b"deal %d" % (g.kon + 1)))
            t.act(g.dealer, ("deal",))
            assert g.hands == expected
            checked += 1
            continue
        seat = t.to_act()[0]
        honest = t.honest_actions(seat)
        t.act(seat, honest[rng.below(len(honest))])
        if t.window is not None:
            t.passes(t.waiting_answers())
    assert checked >= 4


def test_T15_the_series_is_one_game_one_log_one_result(tmp_path):
    from pidor.gamelog.reader import read_log
    from pidor.gamelog.verify import verify
    from pidor.match import run_match

    r = run_match("zalupa", 4, 1, seed="T15 log", specs=["builtin:random:cheat=0.2,attention=0.5"] * 4,
                  logs=tmp_path)
    log = read_log(r.logs[0])
    assert verify(log).ok
    events = [e for rec in log.records for e in rec.get("events") or ()]
    assert len(of_type(events, "game_start")) == 1 and len(of_type(events, "game_over")) == 1
    assert len(of_type(events, "kon_over")) >= 5 and len(of_type(events, "deal")) == len(of_type(events, "kon_over")) \
        + len(of_type(events, "kon_void"))  # the first deal is the opening's; the last kon's deals nothing


# ------------------------------------------------------------------ bad input (T1)


def test_T1_malformed_is_invalid_and_what_hands_cannot_do_is_impossible_and_nothing_changes():
    g = scene(["Ac Jc", "Qd", "Kh", "As"], stack="Ks", by=[0], turn=1, state="beat")
    for bad in (("beat",), ("beat", "Qd"), ("take", C("Qd"), 1), ("jump",), ("beat", 99), [], ("otboy", 1)):
        assert_unchanged(g, 1, bad, InvalidAction)
    for seat, action in ((0, ("beat", C("Ac"))),  # not his turn
                         (1, ("beat", C("Ac"))),  # not his card
                         (1, ("lead", C("Qd"))),  # a card on the top card beats it
                         (1, ("deal",)), (1, ("done",)), (1, ("give", C("Qd"))), (4, ("take", 1)),
                         (1, ("take", 99))):
        assert_unchanged(g, seat, action)
    g = new(THREE_NINES)
    assert_unchanged(g, g.turn, ("take", 1))  # nothing to take
    assert_unchanged(g, g.turn, ("beat", g.hands[g.turn][0]))  # nothing to beat


def _strings(data) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values()), set(data)) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return set()


def test_the_deal_order_of_the_scenes_deals_from_the_player_after_the_dealer():
    g = new(THREE_NINES, dealer=2)
    assert deal_order(THREE_NINES, 2)[0] in parse_cards(THREE_NINES[3])
    assert g.dealer == 2 and g.turn == 2
