"""«Пидор» engine scenarios for trick play (P11–P17), each from an explicit deck order
(``pidor_scenarios.py``: :func:`play_deal` finishes a deal phase with chosen hands).
"""

from __future__ import annotations

import pytest
from helpers import first_fast, pass_all
from pidor_scenarios import (
    C,
    assert_unchanged,
    codes,
    hand,
    of_type,
    p15_game,
    play_deal,
    tricks_game,
    zones_partition,
)

from pidor.bots import Policy
from pidor.cards import deck as full_deck
from pidor.cards import parse_card, parse_cards
from pidor.engine.game import project
from pidor.engine.table import Table
from pidor.games.pidor.engine import PidorGame
from pidor.games.pidor.tricks import _beats, beaters

# ----------------------------------------------------------------------------- P11


def test_P11_whoever_drew_the_last_card_leads():
    # Seat 0 lays the filler, keeps one card (the turn passes) and seat 1 draws the last card.
    g, events = play_deal(3, 36, "Ac Kd Qh", draws=[("8c", "keep"), ("9d", 2)])
    assert g.last_drawer == 1 and g.phase == "tricks" and g.turn == 1 and g.to_act() == [1]
    assert of_type(events, "deal_end")[0]["first"] == 1
    assert hand(g, 0) == ["Ac", "8c"]


def test_P11_a_player_without_cards_after_settlement_is_out_before_trick_play():
    g, _ = play_deal(3, 36, "Ac Kd Qh", prikups="6c 7c 6d 7d 6h 7h", draws=[("8c", 1)], first=1,
                     dump=0, marks=[1] * 6)
    # Seat 1 draws last and leads; his 6 cards come from seats 2 and 0 in turn. Seat 2 holds
    # Qh + prikup: three cards, so after its third card it has none.
    events = []
    while g.phase == "settle":
        (giver,) = g.to_act()
        events += g.apply(giver, g.honest_actions(giver)[0])
    assert of_type(events, "out") == [{"type": "out", "seat": 2, "place": 1}]
    assert not g.in_game(2) and g.in_game(0) and g.view(None)["out"] == [2]
    assert g.phase == "tricks" and g.turn == 1 and g.trick_size == 2


def test_P11_nobody_left_to_give_and_one_player_with_cards_ends_the_game():
    g, _ = play_deal(2, 36, "Ac Kd", prikups="6c 7c 6d 7d", draws=[("8c", 0)], dump=0, marks=[0] * 5)
    givers = []
    events = []
    while g.phase == "settle":
        (giver,) = g.to_act()
        givers.append(giver)
        events += g.apply(giver, g.honest_actions(giver)[0])
    assert givers == [1, 1, 1]  # then seat 1 has nothing: the payment stops
    assert of_type(events, "out") == [{"type": "out", "seat": 1, "place": 1}]
    assert g.result == {"loser": 0, "draw": False, "order": [1]} and g.over
    assert of_type(events, "game_over")[0]["result"]["loser"] == 0


# ----------------------------------------------------------------------------- P12


@pytest.mark.parametrize("card,target,trump,size,expected", [
    ("7c", "5c", 2, 52, True),    # same suit, higher
    ("5c", "7c", 2, 52, False),
    ("3h", "Ac", 2, 52, True),    # a trump on a non-trump card
    ("Ad", "3c", 2, 52, False),   # another plain suit
    ("Kh", "Qh", 2, 52, True),    # trump on trump: only higher
    ("Qh", "Kh", 2, 52, False),
    ("2c", "Ac", 2, 52, True),    # the lowest rank beats the ace of its suit
    ("2c", "Ad", 2, 52, False),
    ("2h", "Ac", 2, 52, False),   # ... and nothing else, not even as a trump
    ("2h", "Ah", 2, 52, True),
    ("2c", "Kc", 2, 52, False),
    ("3c", "2c", 2, 52, True),
    ("5s", "3s", 2, 52, True),    # only a higher spade beats a spade
    ("3s", "5s", 2, 52, False),
    ("Ah", "3s", 2, 52, False),   # a trump does not beat a spade
    ("2s", "As", 2, 52, True),    # the ace of spades only by the 2 of spades
    ("Ks", "As", 2, 52, False),
    ("As", "3c", 2, 52, False),   # a spade beats nothing but a lower spade
    ("As", "Kh", 2, 52, False),
    ("6c", "Ac", 1, 36, True),    # 36 cards: the 6 works as the 2
    ("6d", "7c", 1, 36, False),
    ("7d", "Ac", 1, 36, True),
    ("6s", "As", 1, 36, True),
    ("7s", "As", 1, 36, False),
])
def test_P12_what_beats_what(card, target, trump, size, expected):
    dealt = PidorGame.new({"players": 2, "deck": size}, seed=b"P12").to_data()
    g = PidorGame.from_data({**dealt, "trump": trump})
    assert g.beats(C(card), C(target)) is expected


@pytest.mark.parametrize("trump", [None, 0, 1, 2, 3])
@pytest.mark.parametrize("low_i", [0, 4])
def test_P12_the_table_of_beaters_is_what_beats_says_card_by_card(trump, low_i):
    table = beaters(trump, low_i)
    assert [sorted(table[t]) for t in range(52)] == [
        [c for c in range(52) if _beats(c, t, trump, low_i)] for t in range(52)]

def test_P12_beat_that_does_not_beat_is_recorded():
    g = tricks_game()
    g.apply(0, ("lead", C("5c")))
    assert g.check(1, ("beat", C("Th"), 0)) == ()  # trump (hearts) on a plain card
    ev = g.apply(1, ("beat", C("Kc"), 0))  # a higher club: honest
    assert ev[0]["_violations"] == []
    assert g.check(2, ("beat", C("Qc"), 1)) == ("P12b",)  # a lower club does not beat Kc
    # Seat 2 holds Ac and every heart but 2h 3h Th: the ace, any trump (the 2h could not), or take.
    assert set(g.honest_actions(2)) == {("take", 0)} | {
        ("beat", C(c), 1) for c in "Ac 4h 5h 6h 7h 8h 9h Jh Qh Kh Ah".split()}


# ----------------------------------------------------------------------------- P13


def test_P13_lead_beat_top_take_bottom():
    g = tricks_game()
    assert set(g.honest_actions(0)) == {("lead", C("5c")), ("lead", C("3d"))}
    assert g.apply(0, ("lead", C("5c")))[0]["_violations"] == []  # a lead is always honest
    assert g.turn == 1 and g.table == [C("5c")]
    g.apply(1, ("beat", C("9c"), 0))
    assert g.table == parse_cards("5c 9c") and g.table_seats == [0, 1] and g.turn == 2
    # Beating a card that is not the top one.
    assert g.check(2, ("beat", C("7c"), 0)) == ("P13t",)
    assert g.check(2, ("beat", C("4c"), 0)) == ("P12b", "P13t")
    assert g.check(2, ("beat", C("Jc"), 1)) == ()
    # Taking: the bottom card is honest (even when you could beat), any other is махлёж.
    assert g.check(2, ("take", 0)) == ()
    ev = g.apply(2, ("take", 1))
    assert ev[0]["_violations"] == ["P13k"] and ev[0]["action"] == {"type": "take", "index": 1}
    assert C("9c") in g.hands[2] and g.table == [C("5c")]
    assert g.turn == 0  # taking ends the turn; the trick goes on
    assert g.rule_in_force(0) == "P12"


# ----------------------------------------------------------------------------- P14


def test_P14_trick_closes_itself_when_table_holds_as_many_cards_as_players():
    g = tricks_game()
    g.apply(0, ("lead", C("5c")))
    g.apply(1, ("beat", C("9c"), 0))
    ev = g.apply(2, ("beat", C("Jc"), 1))
    closed = of_type(ev, "trick_closed")[0]
    assert closed["seat"] == 2 and closed["cards"] == codes("5c 9c Jc") and closed["_hold"] == "trick_display"
    # The closed trick stays on view during the window; nobody acts until advance().
    assert g.closed and g.to_act() == [] and g.view(0)["table"] == codes("5c 9c Jc")
    assert_unchanged(g, 0, ("lead", C("3d")))
    ev = g.advance()
    assert g.table == [] and g.discard == parse_cards("5c 9c Jc") and g.view(None)["discard"] == 3
    assert g.turn == 2 and of_type(ev, "trick")[0] == {"type": "trick", "seat": 2, "size": 3}


def test_P14_closing_early_is_cheating_and_the_closer_leads():
    g = tricks_game()
    g.apply(0, ("lead", C("5c")))
    assert g.check(1, ("close",)) == ("P14c",)
    ev = g.apply(1, ("close",))
    assert ev[0]["_violations"] == ["P14c"] and g.closed and of_type(ev, "trick_closed")[0]["cards"] == ["5c"]
    g.advance()
    assert g.turn == 1 and g.discard == [C("5c")]


# ----------------------------------------------------------------------------- P15


def test_P15_prikup_at_the_end_of_the_trick_then_out():
    g = p15_game()
    g.apply(0, ("lead", C("5c")))
    assert g.hands[0] == [] and g.prikups[0] == parse_cards("8d 8s")  # not in mid-trick
    g.apply(1, ("beat", C("9c"), 0))
    g.apply(2, ("beat", C("Jc"), 1))
    ev = g.advance()
    pk = of_type(ev, "prikup")[0]
    assert pk["seat"] == 0 and project(pk, 0)["cards"] == ["8d", "8s"] and "cards" not in project(pk, 1)
    assert hand(g, 0) == ["8d", "8s"] and g.prikups[0] == [] and g.turn == 2
    g.apply(2, ("lead", C("6d")))
    g.apply(0, ("beat", C("8d"), 0))
    g.apply(1, ("beat", C("Td"), 1))
    g.advance()
    g.apply(1, ("lead", C("3s")))
    g.apply(2, ("beat", C("4s"), 0))
    g.apply(0, ("beat", C("8s"), 1))
    ev = g.advance()  # seat 0: no hand, no prikup: out; he closed, so the next player leads
    assert of_type(ev, "out") == [{"type": "out", "seat": 0, "place": 1}]
    assert not g.in_game(0) and g.turn == 1 and g.trick_size == 2
    assert g.to_act() == [1] and g.actions(0) == []


def test_P15_empty_hand_in_mid_trick_can_only_take():
    g = p15_game()
    g.apply(0, ("lead", C("5c")))
    g.apply(1, ("beat", C("9c"), 0))
    g.apply(2, ("take", 0))  # table: 9c, seat 0 on turn with an empty hand
    assert g.turn == 0 and g.rule_in_force(0) == "P15"
    assert g.honest_actions(0) == [("take", 0)]
    assert set(g.actions(0)) == {("take", 0), ("close",)}
    assert_unchanged(g, 0, ("beat", C("8d"), 0))  # the prikup is not in his hand


def test_P15_take_that_empties_the_table_ends_the_trick():
    # Proposed reading (PidorGame.EMPTY_TABLE_ENDS_TRICK, see the report): without it the
    # trick could never end when the cards in hands cannot fill the table.
    g = p15_game()
    g.apply(0, ("lead", C("5c")))
    ev = g.apply(1, ("take", 0))
    assert of_type(ev, "trick_closed")[0]["cards"] == [] and g.closed and g.to_act() == []
    ev = g.advance()
    assert hand(g, 0) == ["8d", "8s"] and of_type(ev, "prikup")[0]["seat"] == 0
    assert g.turn == 2  # the player after the taker leads, as he would have anyway


class LiteralPidor(PidorGame):
    EMPTY_TABLE_ENDS_TRICK = False


def test_P15_literal_turn_passes_over_empty_hand_at_empty_table():
    g, _ = play_deal(2, 36, "6c 6d", prikups="7c 8c 7d 8d", dump=1)
    g = LiteralPidor.from_data(g.to_data())
    g.apply(0, ("lead", C("6c")))
    ev = g.apply(1, ("take", 0))  # table empty, seat 0 has no hand: his turn passes
    assert of_type(ev, "skip") == [{"type": "skip", "seat": 0}]
    assert g.turn == 1 and not g.closed and g.prikups[0] == parse_cards("7c 8c")


# ----------------------------------------------------------------------------- P16


def test_P16_the_last_player_with_cards_is_the_pidor():
    g, _ = play_deal(2, 36, "7c 9c", prikups="9d 7h Qs Ks", dump=1, draws=[("8h", 1), ("Kd", 1)])
    assert hand(g, 0) == ["7c"] and g.trump == 1
    g.apply(0, ("lead", C("7c")))
    g.apply(1, ("beat", C("9c"), 0))
    g.advance()  # seat 0 takes his prikup; seat 1 closed and leads
    g.apply(1, ("lead", C("6d")))
    g.apply(0, ("beat", C("9d"), 0))
    g.advance()
    g.apply(0, ("lead", C("7h")))
    g.apply(1, ("beat", C("8h"), 0))
    ev = g.advance()
    assert of_type(ev, "out") == [{"type": "out", "seat": 0, "place": 1}]
    over = of_type(ev, "game_over")[0]
    assert over["result"] == {"loser": 1, "draw": False, "order": [0]}
    assert g.result == over["result"] and g.over and g.to_act() == [] and not g.in_game(1)
    assert_unchanged(g, 1, ("lead", g.hands[1][0]))


def test_P16_nobody_left_with_cards_is_a_draw():
    g, _ = play_deal(2, 36, "7c 9c", prikups="9d 7h Qs Ks", dump=1)
    # Rearranged endgame: each player one card, no prikups, every other card discarded.
    d = g.to_data()
    d["hands"] = [[C("7c")], [C("9c")]]
    d["prikups"] = [[], []]
    d["discard"] = [c for c in full_deck(36) if c not in (C("7c"), C("9c"))]
    g = PidorGame.from_data(d)
    assert zones_partition(g)
    g.apply(0, ("lead", C("7c")))
    g.apply(1, ("beat", C("9c"), 0))
    ev = g.advance()
    assert [e["seat"] for e in of_type(ev, "out")] == [1, 0]
    assert g.result == {"loser": None, "draw": True, "order": [1, 0]}


# ----------------------------------------------------------------------------- P17


def test_P17_marks_after_the_deal_phase_cost_no_cards():
    g = tricks_game()
    before = g.to_data()
    assert g.on_mark(1) == []
    assert g.to_data() == before
    g, _ = play_deal(3, 36, "Ac Kd Qh", draws=[("8c", 0)], marks=[2])
    assert g.phase == "settle" and g.on_mark(0) == [] and g.pidorstvo == [0, 0, 1]


# ------------------------------------------------------- T3 with P14: the closing window


def _table_at_tricks(call_window, trick_display):
    from pidor.engine.table import Table

    t = Table({"game": "pidor", "players": 3, "call_window": call_window, "trick_display": trick_display})
    t.game, t.games = tricks_game(), 1
    now = 0.0
    for seat, action in ((0, ("lead", C("5c"))), (1, ("beat", C("9c"), 0))):
        t.act(seat, action, now)
        for s in t.waiting_answers():
            t.answer(s, False, now)
    return t


@pytest.mark.parametrize("call_window,trick_display,length", [
    (2.0, 0.0, 2.0), (2.0, 0.5, 2.0), (2.0, 5.0, 5.0), (None, 0.0, None), (2.0, None, None)])
def test_T3_P14_a_trick_closing_action_keeps_the_full_call_window(call_window, trick_display, length):
    """Issue 8 item 2: with ``trick_display`` 0 the cheat that closed a trick could not be
    called (its window lasted 0 s). Every callable action gets at least ``call_window``;
    P14's display may only hold the window open longer."""
    t = _table_at_tricks(call_window, trick_display)
    events = t.act(2, ("beat", C("4c"), 1), 10.0)  # 4c does not beat 9c: a cheat that closes the trick
    assert of_type(events, "trick_closed") and events[0]["_violations"]
    window = of_type(events, "window")[0]
    assert window["deadline"] == (None if length is None else 10.0 + length)
    assert t.tick(10.0 + 1.9) == [] and t.window is not None
    called = t.answer(0, True, 10.0 + 1.9)
    assert of_type(called, "court") and t.court.accused == 2


# ----------------------------------------------------------------------------- P16a


class LowestThenTake(Policy):
    """The issue's looping players: honest and deterministic; lead the lowest card, beat
    with the lowest honest beater, take (the bottom card, honestly) when none beats."""

    def act(self, obs):
        honest = obs.honest
        if not honest:
            return None
        rank = lambda a: parse_card(a["card"]) % 13 if a["type"] in ("lead", "beat") else 99  # noqa: E731
        for kind in ("lead", "beat"):
            mine = [a for a in honest if a["type"] == kind]
            if mine:
                return min(mine, key=rank)
        takes = [a for a in honest if a["type"] == "take"]
        return takes[0] if takes else honest[0]

    def vote(self, obs) -> bool:
        return True


def _loops(size: int, game_cls=None, games: int = 150):
    """The looping players' games (``game_cls``: an older engine, as ``pidor verify`` plays
    it), each with a mark from earlier on seat 2."""
    from pidor.autoplay import play_game
    from pidor.engine.seeds import Rng
    from pidor.engine.table import Table

    for i in range(games):
        t = Table({"game": "pidor", "players": 4, "deck": size})
        if game_cls is not None:
            t.game_cls = game_cls
        t.start(seed=b"loop-%d" % i)
        t.mark = 2  # a mark from earlier: a draw leaves it where it is
        play_game(t, [LowestThenTake(s) for s in range(4)], Rng(b"loop-%d" % i, b"driver"))  # never GameTooLong
        yield t


@first_fast
@pytest.mark.parametrize("size", [52, 36])
def test_T13_every_game_ends_even_when_honest_play_loops(size):
    """T13 (replaces P16a's count of 30): these players loop, between tricks and inside
    one (beat, take the bottom card, beat...); the third time a position comes back the
    game is a draw: those out keep their places, the mark stays where it was."""
    stalled = 0
    for t in _loops(size):
        result, g = t.game.result, t.game
        if result.get("stalled"):
            stalled += 1
            assert result["stalled"] == "repetition" and max(g.units.seen.values()) == g.limits["repeat_limit"]
            assert result["loser"] is None and result["draw"] and len(result["order"]) < 4
            assert t.mark == (None if 2 in result["order"] else 2)  # (T7: out sheds it)
        else:
            assert max(g.units.seen.values(), default=0) < g.limits["repeat_limit"]
    assert stalled > 10, stalled  # the loops are common: the rule is what ends these games


def test_T13_quiet_tricks_and_a_cap_on_tricks_end_a_game():
    """T13: ``quiet_limit`` tricks in a row with nothing discarded and nobody out, or
    ``unit_limit`` tricks in all, end the game as a draw too."""
    g = tricks_game()
    g.units.quiet, g.units.count = g.limits["quiet_limit"] - 1, 10
    g.apply(0, ("lead", C("5c")))
    g.apply(1, ("take", 0))  # the table is empty: the trick is over (P15a), nothing discarded
    events = g.advance()
    assert g.result == {"loser": None, "draw": True, "order": [], "stalled": "quiet"}
    assert of_type(events, "game_over")[0]["result"] == g.result
    g = tricks_game()
    g.units.count = g.limits["unit_limit"] - 1
    g.apply(0, ("lead", C("5c")))
    g.apply(1, ("take", 0))
    g.advance()
    assert g.result["stalled"] == "units"


@first_fast
@pytest.mark.parametrize("size", [52, 36])
def test_P16a_pidor_2_ended_such_games_after_30_quiet_tricks(size):
    """Logs of engine pidor-2 still verify: P16a ended a game as a draw after QUIET_TRICKS
    tricks in a row with nothing discarded and nobody out, or once one trick had had
    QUIET_TRICKS tricks' worth of moves (a loop inside one trick)."""
    from pidor.games.pidor.tricks import QUIET_TRICKS

    kinds = {"tricks": 0, "one trick": 0}
    for t in _loops(size, PidorGame.OLDER["pidor-2"]):
        result, g = t.game.result, t.game
        endless = g.trick_moves >= QUIET_TRICKS * g.trick_size  # a loop inside one trick
        if result["draw"] and len(result["order"]) < 4:
            kinds["tricks" if g.quiet_tricks == QUIET_TRICKS else "one trick"] += 1
            assert g.quiet_tricks == QUIET_TRICKS or endless
            assert result["loser"] is None and t.mark == (None if 2 in result["order"] else 2)
        else:
            assert g.quiet_tricks < QUIET_TRICKS and not endless
    assert kinds["tricks"] > 5 and kinds["one trick"] > 5, kinds


def test_P16a_a_trick_that_ends_with_a_discard_is_never_scored_endless():
    """Engine pidor-2: a trick whose last card reaches the move limit still ends normally:
    its cards go to the discard and the next trick starts (P14); only a trick that goes
    round and round without ending is a draw."""
    from pidor.games.pidor.tricks import QUIET_TRICKS

    g = PidorGame.OLDER["pidor-2"].from_data({**tricks_game().to_data(), "version": "pidor-2"})
    g.apply(0, ("lead", C("5c")))
    g.apply(1, ("beat", C("9c"), 0))
    g.trick_moves = QUIET_TRICKS * g.trick_size - 1  # the closing beat reaches the limit
    g.apply(2, ("beat", C("Jc"), 1))
    events = g.advance()
    assert of_type(events, "discard")[0]["count"] == 3
    assert not of_type(events, "game_over") and g.result is None
    assert of_type(events, "trick") and g.trick_moves == 0


def test_T7_a_player_who_leaves_sheds_the_mark_and_the_loser_gets_it_at_the_end():
    t = Table({"game": "pidor", "players": 3, "deck": 52})
    t.start(seed=b"any")
    t.game = p15_game()  # trick play: seat 0 holds 5♣ and a prikup 8♦ 8♠ (P15)

    def act(seat, action):
        events = t.act(seat, action)
        return events + pass_all(t)

    t.act(0, ("lead", C("5c")))
    t.answer(1, call=False)
    t.answer(2, call=True)  # an honest lead called: the caller gets the mark (T5)
    assert t.mark == 2
    act(1, ("beat", C("9c"), 0))
    act(2, ("beat", C("Jc"), 1))  # closes the trick; seat 0 takes his prikup
    act(2, ("lead", C("6d")))
    act(0, ("beat", C("8d"), 0))
    t.act(1, ("beat", C("Td"), 1))
    t.answer(2, call=False)
    t.answer(0, call=True)  # another false call: now seat 0 holds the mark
    assert t.mark == 0
    act(1, ("lead", C("3s")))
    act(2, ("beat", C("4s"), 0))
    events = act(0, ("beat", C("8s"), 1))  # seat 0 plays his last card and leaves
    assert {"type": "out", "seat": 0, "place": 1} in events
    assert {"type": "mark", "seat": None, "reason": "left"} in events
    assert t.mark is None and not t.game.in_game(0)
