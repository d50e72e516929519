"""Scenario tests of the table layer shared by every game (T1–T8, T11), on «пидор» deals
built from fixed deck orders (tests/helpers.py)."""

from __future__ import annotations

import msgpack
import pytest
from helpers import pass_all, pidor_table, types

from pidor.engine.game import ImpossibleAction, InvalidAction
from pidor.engine.table import HonestReplayRequired, NotNow, Table
from pidor.games import GAME_IDS, spec

# Seat 0 leads the deal phase. Open cards 5♥ 9♣ K♦ 3♠; the first draw is 7♦, which fits
# on no open card (a 6 is needed), so `keep` is honest and `lay` anywhere is махлёж (P3l).
OPENS = "5h 9c Kd 3s"
DRAWS = "7d Tc 2d 4h"


def cheat_table(**options) -> Table:
    t = pidor_table(OPENS, DRAWS, **options)
    t.act(0, ("draw",))
    pass_all(t)
    t.act(0, ("lay", 1))  # 7♦ on 9♣: not one rank higher (P3l)
    return t


def test_T1_cheating_is_accepted_but_impossible_actions_change_nothing():
    t = pidor_table(OPENS, DRAWS)
    before = t.to_data()
    for seat, action in [(1, ("draw",)),  # out of turn
                         (0, ("keep",)),  # nothing drawn to keep
                         (0, ("move", 1)),  # P4: the open card of a 3-card stack cannot move
                         (0, ("move", 9))]:  # no such seat
        with pytest.raises(ImpossibleAction):
            t.act(seat, action)
        assert t.to_data() == before
    t.act(0, ("draw",))
    pass_all(t)
    events = t.act(0, ("lay", 1))
    assert events[0]["type"] == "action" and events[0]["_violations"] == ["P3l"]
    assert "_violations" not in str([{k: v for k, v in e.items() if not k.startswith("_")} for e in events])


def test_T2_one_call_per_action():
    t = cheat_table()
    with pytest.raises(ImpossibleAction):
        t.answer(0, call=True)  # the actor never answers his own window
    events = t.answer(1, call=True)
    assert types(events) == ["call", "court"]
    with pytest.raises(NotNow):
        t.answer(2, call=True)  # the action already has its call


def test_T3_the_window_blocks_the_next_action_until_answered_or_timed_out():
    t = cheat_table(call_window=2.0)
    assert t.waiting_answers() == [1, 2, 3]
    assert t.to_act() == []
    with pytest.raises(NotNow):
        t.act(0, ("draw",))
    t.answer(1, call=False, now=0.5)
    assert t.waiting_answers() == [2, 3]
    assert t.deadline() == 2.0
    assert t.tick(1.9) == [] and t.window is not None
    t.tick(2.0)  # silence counts as pass
    assert t.window is None and t.to_act() == [0]
    t.act(0, ("draw",), now=3.0)


def test_T3_a_seat_the_window_does_not_wait_for_is_refused_citing_T3():
    """Answering a window twice, or one's own, or passing for such seats together: the
    window (T3) waits for none of them; the refusal says so and names T3."""
    t = cheat_table(call_window=2.0)
    t.answer(1, call=False)
    for answer in (lambda: t.answer(1, call=False), lambda: t.answer(1, call=True), lambda: t.answer(0, call=False),
                   lambda: t.passes([1, 2], 0.0), lambda: t.passes([2, 2], 0.0)):
        with pytest.raises(ImpossibleAction) as refused:
            answer()
        assert refused.value.rule == "T3" and "(T3)" in refused.value.message and "T4" not in refused.value.message
    assert t.waiting_answers() == [2, 3]


def test_T4_voters_and_the_vote_deadline():
    t = cheat_table(vote_timeout=30.0)
    events = t.answer(2, call=True, now=1.0)
    court = events[-1]
    assert court["caller"] == 2 and court["accused"] == 0
    assert court["voters"] == [1, 3]  # not the caller (a fixed «пидор»), not the accused
    assert court["rules"][0]["id"] == "P3l" and court["rules"][0]["ru"] and court["rules"][0]["en"]
    assert court["deadline"] == 31.0
    with pytest.raises(ImpossibleAction):
        t.vote(0, False)  # the accused does not vote
    with pytest.raises(NotNow):
        t.act(0, ("draw",))  # the table is frozen
    t.vote(1, False, now=2.0)
    assert t.tick(30.9) == []
    events = t.tick(31.0)  # seat 3 abstains: 1 «пидор» (the caller) to 1 «чист»: a tie
    verdict = [e for e in events if e["type"] == "verdict"][0]
    assert (verdict["outcome"], verdict["pidor"], verdict["clean"]) == ("tie", 1, 1)


def test_a_table_with_a_window_or_a_court_goes_on_the_same_from_its_plain_data():
    def copied(t: Table) -> Table:  # through bytes: nothing but plain data survives
        return Table.from_data(msgpack.unpackb(msgpack.packb(t.to_data()), strict_map_key=False))

    t = cheat_table(vote_timeout=30.0)
    w = copied(t)
    assert w.to_data() == t.to_data() and w.waiting_answers() == [1, 2, 3] and w.deadline() == 2.0
    assert w.answer(1, call=True, now=1.0) == t.answer(1, call=True, now=1.0)
    assert w.vote(2, True, now=2.0) == t.vote(2, True, now=2.0)
    c = copied(t)
    assert c.to_data() == t.to_data() and c.waiting_votes() == [3] and c.deadline() == 31.0
    verdict = c.vote(3, False, now=3.0)  # 2 «пидор» to 1: guilty, undone from the copied snapshot
    assert verdict == t.vote(3, False, now=3.0) and "undo" in types(verdict)
    assert c.to_data() == t.to_data()


def test_T5_calling_an_honest_action_marks_the_caller_at_once():
    t = pidor_table(OPENS, DRAWS)
    t.act(0, ("draw",))
    events = t.answer(3, call=True)
    assert types(events)[:3] == ["call", "verdict", "mark"]
    assert events[1]["outcome"] == "honest"
    assert t.mark == 3 and t.court is None and t.window is None
    assert t.to_act() == [0]


def test_T6_guilty_undoes_marks_and_requires_an_honest_replay():
    t = cheat_table()
    t.answer(1, call=True)
    t.vote(2, True)
    events = t.vote(3, False)
    assert [e for e in events if e["type"] == "verdict"][0]["outcome"] == "guilty"
    assert "undo" in types(events)
    assert t.mark == 0
    view = t.view(0)
    assert view["status"]["honest_only"] == [0]
    assert {"type": "honest_only", "seats": [0]} in events  # told in public (minor 1)
    with pytest.raises(HonestReplayRequired):
        t.act(0, ("lay", 2))  # 7♦ on K♦: махлёж again, refused
    events = t.act(0, ("keep",))  # the honest replay
    assert t.honest_only == set() and {"type": "honest_only", "seats": []} in events


def test_T6_clean_verdict_marks_the_caller_and_the_action_stands():
    t = cheat_table()
    stacks_before = t.game.view(None)["stacks"]
    t.answer(1, call=True)
    t.vote(2, False)
    events = t.vote(3, False)
    assert [e for e in events if e["type"] == "verdict"][0]["outcome"] == "clean"
    assert "undo" not in types(events)
    assert t.mark == 1
    assert t.game.view(None)["stacks"] == stacks_before  # the lay stands


def test_T6_tie_undoes_and_keeps_the_mark_where_it_was():
    t = pidor_table(OPENS, DRAWS)
    t.act(0, ("draw",))
    t.answer(3, call=True)  # T5: a false call puts the mark on seat 3
    assert t.mark == 3
    t.act(0, ("lay", 1))  # махлёж (P3l)
    before_lay = t.game.to_data()
    t.answer(2, call=True)
    t.vote(1, False)
    events = t.tick(1e9)  # seat 3 abstains: 1 «пидор» (the caller) to 1 «чист»
    verdict = [e for e in events if e["type"] == "verdict"][0]
    assert verdict["outcome"] == "tie"
    assert "undo" in types(events)
    assert t.game.to_data() != before_lay  # the lay is undone: 7♦ is back in seat 0's hold
    assert t.mark == 3  # the mark stays where it was
    assert t.honest_only == set()  # the accused may cheat again
    events = t.act(0, ("lay", 2))  # and he does: accepted, recorded
    assert events[0]["_violations"] == ["P3l"]


def test_T7_one_mark_and_it_moves():
    t = pidor_table(OPENS, DRAWS)
    t.act(0, ("draw",))
    t.answer(1, call=True)  # false call: mark on 1
    assert t.mark == 1
    t.act(0, ("lay", 2))  # махлёж
    t.answer(2, call=True)
    t.vote(1, True)
    t.vote(3, True)
    assert t.mark == 0  # one mark: it moved from 1 to 0
    assert t.to_data()["mark"] == 0


def test_T11_hints_only_for_a_newcomer_among_bots():
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    t = Table({"game": "pidor", "players": 4}, seats)
    from helpers import pidor_deck
    t.start(deck=pidor_deck(OPENS, DRAWS), first=0)
    hint = t.hints(0)
    assert hint["rule"]["id"] and hint["rule"]["ru"] and hint["rule"]["en"]
    assert {"type": "draw"} in hint["options"]
    assert t.hints(1) is None  # a bot gets none
    t.tutorial_off(0)
    assert t.hints(0) is None
    two_humans = Table({"game": "pidor", "players": 4}, [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    two_humans.start(deck=pidor_deck(OPENS, DRAWS), first=0)
    assert two_humans.hints(0) is None  # with people, everyone plays on his own


def test_T8_the_end_of_the_deal_phase_waits_for_the_window():
    # Two players; seat 0 draws every card and lays it on seat 1's stack (махлёж nobody
    # calls). Taking the stacks into hand (P8) reveals cards, so it waits for the window
    # of the last lay (T8): a call upheld there must not have to hide cards again.
    t = pidor_table("5h 9c", "", call_window=2.0)
    now = 0.0
    while t.game.view(None)["deck"] > 0:
        t.act(0, ("draw",), now=now)
        pass_all(t, now)
        t.act(0, ("lay", 1), now=now)
        if t.game.view(None)["deck"] > 0:
            pass_all(t, now)
    assert t.window is not None  # the last lay's window is open
    assert t.game.view(None)["phase"] == "deal" and t.view(1)["hand"] == []
    events = t.tick(now + 2.0)  # the window closes by its clock
    assert t.game.view(None)["phase"] != "deal"
    assert len(t.view(1)["hand"]) == 1 + 46  # above the two bottom cards: the open card and every lay
    assert any(e.get("_private") for e in events)  # the hands went out privately


def test_T4_a_voter_who_is_gone_abstains_at_once():
    t = cheat_table(vote_timeout=30.0)
    t.answer(1, call=True)
    t.vote(2, True)
    with pytest.raises(NotNow):
        t.abstain(1)  # the caller owes no vote
    events = t.abstain(3)  # 2 «пидор» (caller + seat 2) to 0: guilty without waiting 30 s
    assert types(events)[:2] == ["abstain", "verdict"]
    assert events[1]["outcome"] == "guilty" and t.mark == 0


def test_T3_the_window_says_when_it_closes():
    t = pidor_table(OPENS, DRAWS)
    t.act(0, ("draw",))
    assert t.answer(1, call=False) == [] and t.answer(2, call=False) == []
    assert types(t.answer(3, call=False))[0] == "window_closed"


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("action", [None, 5, (), ("x",), [1], ("draw", 1, 2), ("attack",), ("beat", "Th", 0)])
def test_T1_malformed_actions_are_clear_errors_and_change_nothing(game, action):
    t = Table({"game": game, "players": min(spec(game).players, key=lambda n: abs(n - 3))})
    t.start(seed=b"malformed")
    before = t.to_data()
    seat = t.to_act()[0]
    with pytest.raises(InvalidAction):
        t.act(seat, action)
    assert t.to_data() == before


def test_T9_the_turn_clock_runs_for_the_seats_the_game_waits_on():
    t = pidor_table(OPENS, DRAWS)
    assert t.game.obliged() == t.to_act() == [0]
    d = Table({"game": "podkidnoy", "players": 3})
    d.start(seed=b"obliged")
    g = d.game
    assert g.obliged() == [g.attacker]  # the lead is owed
    card = g.hands[g.attacker][0]
    d.act(g.attacker, ("attack", card))
    pass_all(d)
    assert len(d.to_act()) > 1 and g.obliged() == [g.defender]  # throw-ins are never owed
    cover = next((a for a in g.actions(g.defender) if a[0] == "cover"), None)
    d.act(g.defender, cover)
    pass_all(d)
    assert g.obliged() == [] and g.may_wait(g.defender)  # all covered: «бито» is on its clock (D5)
