"""«Пидор» engine scenarios for the deal phase and settlement (P1–P10), impossible actions,
data and random playouts; trick play (P11–P17) is in ``test_pidor_tricks.py``. Each
scenario is built from an explicit deck order (``pidor_scenarios.py``) and driven on the
engine directly.
"""

from __future__ import annotations

import pytest
from pidor_scenarios import (
    C,
    assert_unchanged,
    deal_deck,
    hand,
    new,
    of_type,
    play_deal,
    tricks_game,
    zones_partition,
)

from pidor.cards import card_code, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction, project
from pidor.engine.seeds import Rng, shuffled
from pidor.games.pidor.engine import PidorGame
from pidor.games.pidor.tricks import QUIET_TRICKS

# ----------------------------------------------------------------------------- P1


def test_P1_first_player_given_then_after_the_pidor_then_bottle():
    deck = deal_deck(4, "2c 3c 4c 5c")
    assert PidorGame.new({}, deck=deck, first=2).turn == 2
    # The next game: the player after the previous pidor, wrapping round.
    assert PidorGame.new({}, deck=deck, previous={"loser": 1, "draw": False, "order": [0, 2, 3]}).turn == 2
    assert PidorGame.new({}, deck=deck, previous={"loser": 3, "draw": False, "order": [0, 1, 2]}).turn == 0
    # After a draw (or at the first game): the «бутылка», from the seed.
    firsts = set()
    for i in range(24):
        seed = b"bottle-%d" % i
        g = PidorGame.new({}, seed=seed, previous={"loser": None, "draw": True, "order": [0, 1, 2, 3]})
        assert g.turn == Rng(seed, b"bottle").below(4)
        firsts.add(g.turn)
    assert firsts == {0, 1, 2, 3}
    assert PidorGame.new({}, deck=deck).turn == 0  # no seed, no previous: seat 0


# ----------------------------------------------------------------------------- P2


def test_P2_deal_two_face_down_one_face_up_rest_is_the_deck():
    deck = shuffled(full_deck(36), b"p2")
    g = PidorGame.new({"players": 3, "deck": 36}, deck=deck)
    for s in range(3):
        assert g.stacks[s] == [deck[s], deck[3 + s], deck[6 + s]]
    assert g.zones()["deck"] == deck[9:]  # top first
    v = g.view(None)
    assert v["deck"] == 27 and v["phase"] == "deal"
    assert [st["cards"] for st in v["stacks"]] == [[card_code(deck[6 + s])] for s in range(3)]
    assert [st["hidden"] for st in v["stacks"]] == [2, 2, 2]
    hidden = g.hidden_from(0)
    assert {card_code(c) for c in deck[:6]} <= hidden  # face-down cards: hidden from all
    assert not {card_code(c) for c in deck[6:9]} & hidden  # open cards: public
    events = g.apply(0, ("draw",))
    assert events[1] == {"type": "draw", "seat": 0, "card": card_code(deck[9]), "deck": 26}


# ----------------------------------------------------------------------------- P3


def test_P3_lay_honest_and_dishonest_turn_goes_on_until_keep():
    # Seat 0: 8h, seat 1: 7c, seat 2: Kd, seat 3: Ac.
    g = new(4, "8h 7c Kd Ac", "9s 2d Qc 5h")
    assert g.check(0, ("draw",)) == ()
    g.apply(0, ("draw",))
    assert g.held == C("9s")
    ev = g.apply(0, ("lay", 0))  # on your own open card
    assert ev[0]["_violations"] == [] and g.stacks[0][-1] == C("9s") and g.held is None
    assert g.to_act() == [0]  # P3: after a lay the turn goes on
    g.apply(0, ("draw",))
    assert g.check(0, ("lay", 3)) == ()  # the lowest rank goes on the ace (cyclic)
    assert g.check(0, ("lay", 2)) == ("P3l",)
    g.apply(0, ("lay", 3))
    g.apply(0, ("draw",))  # Qc fits nowhere
    assert g.honest_actions(0) == [("keep",)]
    ev = g.apply(0, ("keep",))
    assert ev[0]["_violations"] == [] and g.turn == 1 and not g.drew
    assert g.stacks[0][-1] == C("Qc")
    g.apply(1, ("draw",))  # 5h
    ev = g.apply(1, ("lay", 2))  # onto Kd: махлёж, accepted and recorded
    assert ev[0]["_violations"] == ["P3l"] and g.stacks[2][-1] == C("5h")


def test_P3_move_onto_a_card_one_rank_lower_any_time_of_the_turn():
    # Seat 0 lays 9s on its 8h (4 cards), then may move 9s onto seat 1's 8c.
    g = new(3, "8h 8c Kd", "9s 3h")
    g.apply(0, ("draw",))
    g.apply(0, ("lay", 0))
    assert ("move", 1) in g.honest_actions(0) and ("move", 2) not in g.honest_actions(0)
    assert g.check(0, ("move", 2)) == ("P3m",)
    g.apply(0, ("draw",))  # 3h: a move is allowed while holding a drawn card too
    ev = g.apply(0, ("move", 1))
    assert ev[0]["_violations"] == [] and g.stacks[1][-1] == C("9s") and g.stacks[0][-1] == C("8h")
    assert g.held == C("3h") and g.to_act() == [0]  # the turn does not end


def test_P3_36_card_deck_six_goes_on_the_ace():
    g = new(2, "Ah Kc", "6d 7d", size=36)
    g.apply(0, ("draw",))
    assert g.honest_actions(0) == [("lay", 0)]
    assert g.apply(0, ("lay", 0))[0]["_violations"] == []
    g.apply(0, ("draw",))  # 7d: onto the 6d
    assert g.check(0, ("lay", 1)) == ("P3l",) and g.check(0, ("lay", 0)) == ()


# ----------------------------------------------------------------------------- P4


def test_P4_open_card_of_a_three_card_stack_cannot_move():
    g = new(2, "9h 8c")
    assert g.honest_actions(0) == [("draw",)]  # the 9h would fit, but the stack has 3 cards
    assert not any(a[0] == "move" for a in g.actions(0))
    before = g.to_data()
    with pytest.raises(ImpossibleAction) as e:
        g.apply(0, ("move", 1))
    assert e.value.rule == "P4"
    assert g.to_data() == before


# ----------------------------------------------------------------------------- P5


def _p5a_game() -> PidorGame:
    """Seat 0 ends its first turn with Kc open on a 5-card stack; seat 1 then keeps Qs."""
    g = new(3, "5h 9c 8d", "6d Kc Qs 4c 5s 2h")
    g.apply(0, ("draw",))
    g.apply(0, ("lay", 0))  # 6d on 5h
    g.apply(0, ("draw",))
    g.apply(0, ("keep",))  # Kc
    # Seat 1's 9c would fit on seat 2's 8d, but a 3-card stack cannot move (P4): no провтык.
    assert g.check(1, ("draw",)) == ()
    g.apply(1, ("draw",))
    g.apply(1, ("keep",))  # Qs
    g.apply(2, ("draw",))
    g.apply(2, ("keep",))  # 4c
    return g


def test_P5a_first_draw_while_own_open_card_could_move():
    g = _p5a_game()
    assert g.turn == 0 and g.honest_actions(0) == [("move", 1)]  # Kc onto Qs; drawing is P5a
    ev = g.apply(0, ("draw",))
    assert ev[0]["_violations"] == ["P5a"]
    g.apply(0, ("lay", 2))  # 5s on 4c
    # Only the first draw of a turn counts: the Kc could still move, drawing is now honest.
    assert g.check(0, ("draw",)) == ()
    assert ("draw",) in g.honest_actions(0) and ("move", 1) in g.honest_actions(0)


def test_P5b_keep_while_the_card_fits_another_players_open_card():
    g = new(2, "5h 9c", "Td")
    g.apply(0, ("draw",))
    assert g.check(0, ("keep",)) == ("P5b",)
    assert g.honest_actions(0) == [("lay", 1)]
    assert g.apply(0, ("keep",))[0]["_violations"] == ["P5b"]
    assert g.turn == 1 and g.stacks[0][-1] == C("Td")


def test_P5c_keep_while_the_card_fits_only_your_own_open_card():
    g = new(2, "5h 9c", "6d")
    g.apply(0, ("draw",))
    assert g.honest_actions(0) == [("lay", 0)]
    assert g.apply(0, ("keep",))[0]["_violations"] == ["P5c"]
    # Fits both: another player's card decides (P5b).
    g = new(2, "5h 5c", "6d")
    g.apply(0, ("draw",))
    assert g.check(0, ("keep",)) == ("P5b",)


# ----------------------------------------------------------------------------- P6


def test_P6_undo_puts_every_card_back_where_it_came_from():
    g = new(3, "8h 8c Kd", "9s 3h Qd")
    start = g.snapshot()
    g.apply(0, ("draw",))
    g.restore(start)  # undone draw: the card is back on top of the deck
    assert g.held is None and g.zones()["deck"][0] == C("9s") and not g.drew
    assert g.snapshot() == start
    g.apply(0, ("draw",))
    before_lay = g.snapshot()
    g.apply(0, ("lay", 0))
    g.restore(before_lay)  # undone lay: back in the player's hold
    assert g.held == C("9s") and g.stacks[0][-1] == C("8h")
    g.apply(0, ("lay", 0))
    g.apply(0, ("draw",))
    before_move = g.snapshot()
    g.apply(0, ("move", 1))
    g.restore(before_move)  # undone move: back on the mover's stack
    assert g.stacks[0][-1] == C("9s") and g.stacks[1][-1] == C("8c") and g.held == C("3h")
    before_keep = g.snapshot()
    g.apply(0, ("keep",))
    g.restore(before_keep)  # undone keep: back in the hold, the turn is his again
    assert g.held == C("3h") and g.turn == 0 and g.stacks[0][-1] == C("9s")
    assert g.snapshot() == before_keep
    # The snapshot is not aliased to the live state.
    g.apply(0, ("keep",))
    assert before_keep["held"] == C("3h") and before_keep["turn"] == 0


# ----------------------------------------------------------------------------- P7


def test_P7_every_mark_in_the_deal_phase_counts():
    g = new(3, "8h 8c Kd", "9s")
    assert g.on_mark(1) == [{"type": "pidorstvo", "seat": 1, "count": 1}]
    g.on_mark(1)  # he already holds the mark: it counts again
    g.on_mark(2)
    assert g.pidorstvo == [0, 2, 1] and g.view(None)["pidorstvo"] == [0, 2, 1]
    snap = g.snapshot()
    g.on_mark(0)
    g.restore(snap)  # an undo restores the count (the table marks after undoing)
    assert g.pidorstvo == [0, 2, 1]


# ----------------------------------------------------------------------------- P8


def test_P8_end_of_deal_after_the_window_hand_above_two_bottom_cards_prikup_unknown():
    n = 3
    # Prikups: seat 0 = 2c 3c, seat 1 = 2d 3d, seat 2 = 2h 3h; open cards Ac, Kd, Qh.
    order = parse_cards("2c 2d 2h 3c 3d 3h Ac Kd Qh")
    rest = [c for c in full_deck(52) if c not in order]
    g = PidorGame.new({"players": n, "deck": 52}, deck=order + rest, first=0)
    for _ in rest[:-1]:
        g.apply(0, ("draw",))
        g.apply(0, ("lay", 1))
    g.apply(0, ("draw",))
    last = g.held
    g.apply(0, ("keep",))
    # The deck is empty but the window of the keep may still be open: nothing revealed yet.
    assert g.phase == "deal" and g.to_act() == [] and g.hands == [[], [], []]
    assert g.actions(1) == [] and g.honest_actions(1) == []
    with pytest.raises(ImpossibleAction):
        g.apply(1, ("draw",))
    events = g.advance()
    assert g.advance() == []  # nothing more to run: advance is idempotent
    end = of_type(events, "deal_end")[0]
    assert g.prikups == [parse_cards("2c 3c"), parse_cards("2d 3d"), parse_cards("2h 3h")]
    assert g.hands[0] == [C("Ac"), last]
    assert g.hands[1] == [C("Kd")] + rest[:-1]
    assert g.hands[2] == [C("Qh")]
    assert end["hands"] == [2, 1 + len(rest) - 1, 1] and end["prikups"] == [2, 2, 2]
    assert project(end, 0)["hand"] == ["Ac", card_code(last)]
    assert "hand" not in project(end, None)
    # Nobody, the owner included, sees the prikup.
    v0 = g.view(0)
    assert v0["prikups"] == [2, 2, 2] and "2c" not in str(v0) and "3c" not in str(v0)
    assert {"2c", "3c"} <= g.hidden_from(0)
    assert zones_partition(g)


# ----------------------------------------------------------------------------- P9


def test_P9_trump_is_the_suit_of_the_last_card_drawn_never_spades():
    g, events = play_deal(2, 36, "Ac Kd", draws=[("7h", 0), ("9d", 1)])
    assert g.trump == 1 and of_type(events, "deal_end")[0]["trump"] == "d" and g.view(0)["trump"] == "d"
    # The last card is a spade: the nearest earlier card that is not a spade decides.
    g, events = play_deal(2, 36, "Ac Kd", draws=[("7h", 0), ("9s", 1), ("Qs", "keep")])
    assert g.trump == 2 and g.view(None)["trump"] == "h"
    # Unknown (not shown) while the deal goes on.
    g = new(2, "5h 9c", "Td")
    g.apply(0, ("draw",))
    assert g.view(None)["trump"] is None


# ----------------------------------------------------------------------------- P10


def test_P10_settlement_one_card_per_pidorstvo_from_the_next_players():
    # Seat 0 (who draws last, so he leads: recipients start with him) has 1 pidorstvo,
    # seat 2 has 2. Seat 1 holds one card.
    g, events = play_deal(3, 36, "Ac Kd Qh", prikups="6c 7c 6d 7d 6h 7h", draws=[("8c", 0)],
                          marks=[2, 0, 2])
    assert g.phase == "settle"
    assert of_type(events, "settlement")[0]["dues"] == [{"to": 0, "count": 1}, {"to": 2, "count": 2}]
    assert of_type(events, "payment")[-1] == {"type": "payment", "from": 1, "to": 0, "left": 1}
    assert g.to_act() == [1] and g.honest_actions(1) == [("give", C("Kd"))]
    assert not g.is_callable(("give", C("Kd")))
    assert_unchanged(g, 0, ("give", C("Ac")))  # not his payment
    assert_unchanged(g, 1, ("give", C("Ac")))  # a card he does not hold
    ev = g.apply(1, ("give", C("Kd")))
    assert ev[0]["_violations"] == []
    give = of_type(ev, "give")[0]
    assert project(give, None) == {"type": "give", "from": 1, "to": 0}
    assert project(give, 0)["card"] == "Kd" and "card" not in project(give, 2)
    assert "Kd" not in str(project(ev[0], 2)) and project(ev[0], 0)["action"]["card"] == "Kd"
    # His hand emptied: he takes his prikup at once.
    pk = of_type(ev, "prikup")[0]
    assert pk["seat"] == 1 and project(pk, 1)["cards"] == ["6d", "7d"] and "cards" not in project(pk, 0)
    assert hand(g, 1) == ["6d", "7d"] and g.prikups[1] == []
    assert hand(g, 0) == ["Ac", "8c", "Kd"]
    # Seat 2's two cards: from seat 0, then seat 1.
    assert g.to_act() == [0] and g.view(2)["payment"] == {"from": 0, "to": 2, "left": 2}
    g.apply(0, ("give", C("Ac")))
    assert g.to_act() == [1]
    ev = g.apply(1, ("give", C("7d")))
    assert g.phase == "tricks" and g.turn == 0 and g.trick_size == 3
    assert of_type(ev, "trick")[0] == {"type": "trick", "seat": 0, "size": 3}
    assert hand(g, 2)[-2:] == ["Ac", "7d"] and hand(g, 1) == ["6d"]
    assert [p["from"] for p in g.view(2)["payments"]] == [1, 0, 1]
    assert zones_partition(g)


def test_P10_a_giver_with_no_cards_is_skipped():
    # Seat 1 has three cards in all (Kd + prikup). Seat 0 gets 7 cards: givers 1 2 1 2 1 2,
    # then seat 1 has nothing left and seat 2 gives again.
    g, _ = play_deal(3, 36, "Ac Kd Qh", prikups="6c 7c 6d 7d 6h 7h", draws=[("8c", 0)], marks=[0] * 7)
    givers = []
    while g.phase == "settle":
        (giver,) = g.to_act()
        givers.append(giver)
        g.apply(giver, g.honest_actions(giver)[0])
    assert givers == [1, 2, 1, 2, 1, 2, 2]
    assert len(g.hands[0]) == 2 + 7


# ------------------------------------------------------------- impossible actions (T1)


def test_impossible_and_malformed_actions_raise_and_change_nothing():
    g = new(4, "8h 8c Kd Ac", "9s 3h")
    assert_unchanged(g, 1, ("draw",))  # out of turn
    assert_unchanged(g, 0, ("lay", 1))  # nothing held
    assert_unchanged(g, 0, ("keep",))
    assert_unchanged(g, 0, ("move", 1))  # P4
    assert_unchanged(g, 0, ("lead", C("8h")))  # wrong phase
    assert_unchanged(g, 0, ("give", C("8h")))
    assert_unchanged(g, 7, ("draw",))  # no such seat
    g.apply(0, ("draw",))
    assert_unchanged(g, 0, ("draw",))  # draw while holding
    assert_unchanged(g, 0, ("lay", 4))  # no such seat
    g.apply(0, ("lay", 0))
    g.apply(0, ("draw",))
    assert_unchanged(g, 0, ("move", 0))  # onto yourself
    assert_unchanged(g, 0, ("move", -1))
    for bad in [("fly",), ("move",), ("move", "1"), ("move", True), ("lead", 99), ("draw", 1), (), "draw", None]:
        assert_unchanged(g, 0, bad, InvalidAction)
    t = tricks_game()
    assert_unchanged(t, 0, ("lead", C("Kc")))  # a card he does not hold
    assert_unchanged(t, 0, ("beat", C("5c"), 0))  # nothing to beat
    assert_unchanged(t, 0, ("take", 0))
    assert_unchanged(t, 0, ("close",))
    t.apply(0, ("lead", C("5c")))
    assert_unchanged(t, 1, ("lead", C("9c")))  # the table is not empty
    assert_unchanged(t, 1, ("beat", C("9c"), 1))  # no such table card
    assert_unchanged(t, 1, ("take", 3))
    assert_unchanged(t, 2, ("take", 0))  # not his turn


def test_view_and_data():
    g = tricks_game()
    g.apply(0, ("lead", C("5c")))
    v = g.view(1)
    assert v["hand"] == ["9c", "Kc", "Th"] and v["hands"][:2] == [1, 3] and v["table"] == ["5c"]
    assert v["trump"] == "h" and v["turn"] == 1 and v["to_act"] == [1] and v["prikups"] == [2, 2, 2]
    assert "hand" not in g.view(None)
    assert set(hand(g, 2)) <= g.hidden_from(1) and not set(hand(g, 1)) & g.hidden_from(1)
    d = g.to_data()
    assert PidorGame.from_data(d).to_data() == d
    with pytest.raises(ValueError):
        PidorGame.from_data({**d, "version": "pidor-0"})
    with pytest.raises(ValueError):
        PidorGame.new({"players": 2}, deck=parse_cards("2c 3c 4c 5c 6c 7c"))


# ----------------------------------------------------------------- random playouts


def test_random_honest_playouts_end_and_keep_every_card():
    for i in range(50):
        players = 2 + i % 5
        size = (52, 36)[i % 3 == 2]
        g = PidorGame.new({"players": players, "deck": size}, seed=b"smoke-%d" % i)
        rng = Rng(b"smoke-%d" % i, b"choices")
        for step in range(20000):
            g.advance()
            if g.over:
                break
            (seat,) = g.to_act()
            honest = g.honest_actions(seat)
            if step % 17 == 0:
                d = g.to_data()
                assert PidorGame.from_data(d).to_data() == d
            events = g.apply(seat, honest[rng.below(len(honest))])
            assert events[0]["_violations"] == []
            assert zones_partition(g)
        else:
            pytest.fail(f"game {i} did not end")
        r = g.result
        assert r["draw"] == (r["loser"] is None)
        if r["draw"] and g.quiet_tricks >= QUIET_TRICKS:  # P16a: those still in the game are not in the order
            assert len(r["order"]) < players
            continue
        assert sorted(r["order"] + ([r["loser"]] if r["loser"] is not None else [])) == list(range(players))
