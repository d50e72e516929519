"""Scenario tests of «верю — не верю»: one test per ruling B1–B8 (named after it), on games
set up card by card and driven the way the table drives them; the table's махлёж, call and
court on a set that is not one (B5f, T14); what each seat and a replay may see (B7); bad
input that changes nothing."""

from __future__ import annotations

import pytest

from pidor.bots import make_policy
from pidor.bots.observe import Knowledge
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction, deal_order, first_seat, project
from pidor.engine.table import Table
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import Replay
from pidor.games.doubt.engine import PUBLIC, DoubtGame
from pidor.match import run_match

C = parse_card
K, NINE, ACE = 13, 9, 14


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def setup(hands: list[str], turn: int = 0, pile: list[tuple[int, str]] = (), rank: int | None = None,
          size: int = 36, **options) -> DoubtGame:
    """A game where seat ``s`` holds ``hands[s]``, ``pile`` lies on the table (``(seat, cards)``,
    bottom first) with its ``rank``, ``turn`` acts, and every other card is in the discard
    (seen by all)."""
    g = DoubtGame.new({"players": len(hands), "deck": size, **options}, deck=full_deck(size), first=turn)
    data = g.to_data()
    held = [c for h in hands for c in parse_cards(h)] + [c for _, p in pile for c in parse_cards(p)]
    assert len(set(held)) == len(held), "a card is named twice"
    rest = [c for c in full_deck(size) if c not in held and c not in g.aside]
    data.update(hands=[[card_code(c) for c in parse_cards(h)] for h in hands],
                pile=[[s, [card_code(c) for c in parse_cards(p)]] for s, p in pile], rank=rank, turn=turn,
                discard=[card_code(c) for c in rest], placer=[PUBLIC] * len(rest))
    return DoubtGame.from_data(data)


def table(g: DoubtGame) -> Table:
    """A table playing ``g`` (3 to 6 seats, the game's options)."""
    t = Table({"game": "doubt", "players": g.players, "deck": g.deck_size, "check_one": g.check_one,
               "no_believe": g.no_believe, "hard": g.hard})
    t.start(deck=full_deck(g.deck_size), first=0)
    t.game = g
    return t


def act(g: DoubtGame, seat: int, action: tuple) -> list[dict]:
    """One action and what follows it once its window has closed (T8), as the table does."""
    return g.apply(seat, action) + g.advance()


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# ------------------------------------------------------------------ B1


def test_B1_the_whole_deck_is_dealt_from_the_player_after_the_dealer_who_leads():
    order = deal_order(36, b"b1", None)
    first = first_seat(5, None, b"b1", None)  # the «бутылка» picks the dealer; the next leads
    g = DoubtGame.new({"players": 5}, seed=b"b1")
    assert g.turn == first and g.to_act() == [first] and g.opening() == [{"type": "leader", "seat": first}]
    for i, c in enumerate(order):  # one by one, clockwise, from the player after the dealer
        assert c in g.hands[(first + i) % 5]
    assert [len(h) for h in g.hands] == [8 if s == first else 7 for s in range(5)]  # 36 = 5 × 7 + 1
    after_loss = DoubtGame.new({"players": 5}, seed=b"b1", previous={"loser": 2, "draw": False, "order": []})
    assert after_loss.turn == 3 and len(after_loss.hands[3]) == 8  # the loser deals
    after_draw = DoubtGame.new({"players": 5}, seed=b"b1", previous={"loser": None, "draw": True, "order": []})
    assert after_draw.turn == first  # the bottle again
    assert [len(h) for h in DoubtGame.new({"players": 4, "deck": 52}, seed=b"b1").hands] == [13] * 4
    for bad in ({"players": 2}, {"players": 7}, {"deck": 54}):
        with pytest.raises(ValueError):
            DoubtGame.options(bad)


# ------------------------------------------------------------------ B2


def test_B2_a_lead_is_cards_face_down_and_a_rank_named_a_lie_is_no_cheat():
    g = setup(["Kh Kd 7c 8c", "9c 9d", "Tc Td"])
    events = act(g, 0, ("lead", K, cards("Kh 7c Kd")))  # «three kings»: a lie, and legal
    assert events[0]["_violations"] == []
    assert project(events[0], 1)["action"] == project(events[0], None)["action"] == {"type": "lead", "count": 3,
                                                                                       "rank": "K"}
    assert project(events[0], 0)["action"]["cards"] == ["Kh", "7c", "Kd"]  # in the order sent
    assert g.pile == [[0, list(cards("Kh 7c Kd"))]] and g.rank == K and g.turn == 1
    assert g.view(1)["pile"] == [{"seat": 0, "count": 3}] and g.view(0)["pile"][0]["cards"] == ["Kh", "7c", "Kd"]
    # any rank of the deck, aces too; more than eight is a sure lie, not махлёж
    many = setup(["6c 6d 6h 6s 7c 7d 7h 7s 8c 8d", "9c", "Tc"])
    assert many.check(0, ("lead", ACE, cards("6c 6d 6h 6s 7c 7d 7h 7s 8c"))) == ()


def test_B2_bad_input_a_lead_of_no_cards_or_of_a_rank_the_deck_has_not_is_invalid_and_changes_nothing():
    g = setup(["Kh Kd 7c", "9c 9d", "Tc Td"])
    before = g.to_data()
    with pytest.raises(InvalidAction, match="cards"):
        g.parse_action({"type": "lead", "rank": "K", "cards": []})
    with pytest.raises(InvalidAction, match="rank"):
        g.parse_action({"type": "lead", "rank": "Z", "cards": ["Kh"]})
    with pytest.raises(InvalidAction, match="no rank 3 in the 36-card deck"):
        g.apply(0, g.parse_action({"type": "lead", "rank": "3", "cards": ["Kh"]}))
    with pytest.raises(ImpossibleAction, match="you do not hold 9c"):
        g.apply(0, ("lead", K, cards("9c")))
    with pytest.raises(ImpossibleAction):
        g.apply(1, ("lead", NINE, cards("9c")))  # not his turn (T1)
    assert g.to_data() == before


# ------------------------------------------------------------------ B3


def test_B3_only_the_next_player_decides_and_the_rank_holds_for_the_pile():
    g = setup(["Kh 7c", "Kd 8c", "Ks 9c", "Kc 6c"], turn=0)
    act(g, 0, ("lead", K, cards("Kh")))
    assert g.to_act() == [1]
    before = g.to_data()
    for seat, action in ((2, ("believe", 0)), (3, ("doubt", 0)), (0, ("doubt", 0)), (2, ("add", cards("Ks")))):
        with pytest.raises(ImpossibleAction):  # believe, doubt or add by a player who is not next (T1)
            g.apply(seat, action)
    assert g.to_data() == before
    act(g, 1, ("add", cards("8c")))  # «one more king»
    assert g.rank == K and [s for s, _ in g.pile] == [0, 1] and g.to_act() == [2]
    # a player who is out is skipped
    g = setup(["Kh 7c", "Kd 8c", "", "Kc 6c"], turn=0)
    g.out[2], g.order = True, [2]
    act(g, 0, ("lead", K, cards("Kh")))
    act(g, 1, ("add", cards("Kd")))
    assert g.to_act() == [3]


def test_B3_bad_input_an_add_with_no_pile_or_a_lead_on_one_is_invalid():
    g = setup(["Kh 7c", "Kd 8c", "Ks 9c"])
    with pytest.raises(InvalidAction, match="nothing to add to"):
        g.apply(0, ("add", cards("Kh")))
    act(g, 0, ("lead", K, cards("Kh")))
    with pytest.raises(InvalidAction, match="pile on the table"):
        g.apply(1, ("lead", K, cards("Kd")))


def test_B3a_a_decider_with_no_cards_may_only_believe_or_doubt():
    for no_believe, expected in ((False, [("doubt", 0), ("believe", 0)]), (True, [("doubt", 0)])):
        g = setup(["Kh 7c", "9c 9d 9h 9s", "Tc Td"], turn=0, no_believe=no_believe)
        act(g, 0, ("lead", K, cards("Kh")))
        act(g, 1, ("discard", NINE, cards("9c 9d 9h 9s")))  # his last cards: a set (B5)
        assert g.hands[1] == [] and g.to_act() == [1] and not g.out[1]
        assert g.honest_actions(1) == g.actions(1) == expected


# ------------------------------------------------------------------ B4


@pytest.mark.parametrize("says,last,true,taker,leader", [
    ("believe", "Kd", True, None, 2),  # the pile to the discard, the believer leads
    ("believe", "Ah", True, None, 2),  # an ace stands for any rank
    ("believe", "8c", False, 2, 3),  # the believer takes, the player after him leads
    ("doubt", "8c", False, 1, 2),  # the liar takes, the doubter leads
    ("doubt", "Kd", True, 2, 3),  # the doubter takes, the player after him leads
])
def test_B4_only_the_last_play_is_opened_and_decides_who_takes_and_who_leads(says, last, true, taker, leader):
    g = setup(["7c 6c", f"{last} 6d", "Ks 6h", "Kc 6s"])
    act(g, 0, ("lead", K, cards("7c")))  # a lie under it: never opened
    act(g, 1, ("add", cards(last)))
    events = act(g, 2, (says, 0))
    opened = next(e for e in events if e["type"] == "open")
    assert opened == {"type": "open", "seat": 1, "by": 2, "says": says, "rank": "K", "count": 1, "cards": [last],
                      "true": true}
    pile = next(e for e in events if e["type"] == "pile")
    assert pile["seat"] == taker and pile["count"] == 2
    if taker is None:
        assert pile["outcome"] == "discard" and C("7c") in g.discard and C(last) in g.discard
    else:
        assert g.hands[taker][-2:] == list(cards(f"7c {last}"))  # the pile in its order
        assert project(pile, taker)["cards"] == ["7c", last] and "cards" not in project(pile, 0)
    assert g.pile == [] and g.rank is None and g.to_act() == [leader]
    assert events[-1] == {"type": "leader", "seat": leader}


# ------------------------------------------------------------------ B5


def test_B5_a_set_goes_to_the_discard_face_down_and_aces_count_only_as_aces():
    g = setup(["9c 9d 9h 9s Ac Ad Ah As 7c", "Tc", "Jc"])
    events = act(g, 0, ("discard", NINE, cards("9c 9d 9h 9s")))
    assert events[0]["_violations"] == [] and g.to_act() == [0]  # still his turn: sets come before the move
    assert project(events[0], 1)["action"] == {"type": "discard", "count": 4, "rank": "9"}
    assert g.sets == [[0, NINE]] and g.view(2)["sets"] == [{"seat": 0, "rank": "9"}]
    assert {card_code(c) for c in cards("9c 9d 9h 9s")} <= g.hidden_from(1) and not g.hidden_from(0) & {"9c"}
    assert g.check(0, ("discard", ACE, cards("Ac Ad Ah As"))) == ()  # four aces are a set
    assert g.check(0, ("discard", NINE, cards("Ac Ad Ah 7c"))) == ("B5f",)  # an ace is not a nine
    g = setup(["9c 9d 9h Ac 7c", "Tc", "Jc"])
    assert g.check(0, ("discard", NINE, cards("9c 9d 9h Ac"))) == ("B5f",)
    assert g.check(0, ("discard", NINE, cards("9c 9d 9h"))) == ("B5f",)  # three cards
    with pytest.raises(ImpossibleAction):
        g.check(1, ("discard", 10, cards("Tc")))  # not his turn


def test_B5f_a_false_set_is_out_of_sight_but_to_whom_it_is_proved_and_the_court_says_which_rule():
    """Махлёж on top of the game: seat 1 holds the nine seat 0 claims to discard, so he can
    prove it and call; seat 2 cannot see it, and votes by what the court says. The action
    is undone and the mark is paid for in a card (T14)."""
    g = setup(["9c 9d 9h 7c Kc", "9s Td Th", "Jc Jd Jh"])
    t = table(g)
    driver = Driver(t, [None, None, None], Rng(b"b5f", b"driver"))
    public = Knowledge(None, t.options)
    public.reset(t.view(None))
    events = t.act(0, ("discard", NINE, cards("9c 9d 9h 7c")))
    assert t.window.violations == ["B5f"]
    driver.feed(events)
    public.feed(events)
    window = t.window.action
    assert driver.seats[1].visible_violations(0, window) == ("B5f",)  # he holds the fourth nine
    assert driver.seats[2].visible_violations(0, window) == () == public.visible_violations(0, window)
    events = t.answer(1, True)
    driver.feed(events)
    court = next(e for e in events if e["type"] == "court")
    assert [r["id"] for r in court["rules"]] == ["B5f"]
    assert make_policy("builtin:heuristic", 2, b"v").vote(driver.observation(2)) is True  # the court says so
    events += t.vote(2, True)
    assert "undo" in kinds(events) and t.mark == 0
    assert sorted(t.game.hands[0]) == sorted(cards("9c 9d 9h 7c Kc")) and t.game.sets == []
    assert t.game.payments == [[1, 0]]  # T14: the first after him holding two or more pays him


# ------------------------------------------------------------------ B6


def test_B6_a_player_with_no_cards_is_out_once_the_pile_cannot_come_back_to_him():
    # added on: out at once
    g = setup(["Kh", "8c 6d", "Ks 6h", "Kc 6s"])
    act(g, 0, ("lead", K, cards("Kh")))
    events = act(g, 1, ("add", cards("8c")))
    assert {"type": "out", "seat": 0, "place": 1} in events and g.to_act() == [2]
    # believed (true or false): out; doubted and true: out
    for says, last in (("believe", "Kh"), ("believe", "7c"), ("doubt", "Kh")):
        g = setup([last, "8c 6d", "Ks 6h"])
        act(g, 0, ("lead", K, cards(last)))
        assert not g.out[0]
        act(g, 1, (says, 0))
        assert g.out[0] and g.order == [0]
    # doubted and false: the pile comes back to him, he plays on
    g = setup(["7c", "8c 6d", "Ks 6h"])
    act(g, 0, ("lead", K, cards("7c")))
    act(g, 1, ("doubt", 0))
    assert not g.out[0] and g.hands[0] == [C("7c")] and g.to_act() == [1]
    # a player with no cards who should lead is out, the next leads
    g = setup(["Kh Kd Ks Kc", "8c 6d", "Ks 6h".replace("Ks", "9s")])
    events = act(g, 0, ("discard", K, cards("Kh Kd Ks Kc")))
    assert g.out[0] and g.to_act() == [1] and events[-1] == {"type": "leader", "seat": 1}
    # the one left with cards loses
    g = setup(["Kh", "8c 6d", ""])
    g.out[2], g.order = True, [2]
    events = act(g, 0, ("lead", K, cards("Kh")))
    events = act(g, 1, ("believe", 0))
    assert g.result == {"loser": 1, "draw": False, "order": [2, 0]} and kinds(events)[-1] == "game_over"


def test_B6a_the_last_two_going_out_together_is_a_draw():
    # the decider adds his last cards on the last play of the only other
    g = setup(["Kh", "8c 6d", ""])
    g.out[2], g.order = True, [2]
    act(g, 0, ("lead", K, cards("Kh")))
    events = act(g, 1, ("add", cards("8c 6d")))
    assert g.result == {"loser": None, "draw": True, "order": [2, 0, 1]}
    assert g.pile == [] and C("8c") in g.discard  # to the discard unopened
    assert "open" not in kinds(events)
    # A played his last cards; B discards his last set and believes A, and it is true
    g = setup(["Kh", "9c 9d 9h 9s", ""])
    g.out[2], g.order = True, [2]
    act(g, 0, ("lead", K, cards("Kh")))
    act(g, 1, ("discard", NINE, cards("9c 9d 9h 9s")))
    act(g, 1, ("believe", 0))
    assert g.result == {"loser": None, "draw": True, "order": [2, 0, 1]}


# ------------------------------------------------------------------ B7


def test_B7_a_play_is_known_to_its_player_an_opened_one_to_all_a_pile_taken_to_its_taker():
    g = setup(["7c 8c Kh", "8d Qh", "Ks 6h", "Kc 6s"])
    act(g, 0, ("lead", K, cards("7c 8c")))
    act(g, 1, ("add", cards("8d")))
    assert {"7c", "8c"} <= g.hidden_from(1) and {"7c", "8c"} & g.hidden_from(0) == set()
    act(g, 2, ("doubt", 0))  # 8d opened: seat 1 takes the pile back
    assert "8d" not in g.hidden_from(3) and g.view(3)["known"][1] == ["8d"]  # seen going into his hand
    assert {"7c", "8c"} <= g.hidden_from(0) & g.hidden_from(2) & g.hidden_from(None)  # unopened: only in his hand
    assert not {"7c", "8c"} & g.hidden_from(1)
    act(g, 2, ("lead", K, cards("Ks")))
    act(g, 3, ("add", cards("Kc")))
    act(g, 0, ("believe", 0))  # Kc true: the pile to the discard, Ks face down
    assert "Ks" in g.hidden_from(None) and "Ks" in g.hidden_from(0) and "Kc" not in g.hidden_from(0)
    assert "Ks" not in g.hidden_from(2)  # (he laid it there himself)
    assert "Kc" in g.view(None)["discarded"] and "Ks" not in str(g.view(None)) + str(g.view(0))
    # a face-down play makes the shown cards of its player unknown again
    act(g, 0, ("lead", 6, cards("Kh")))
    act(g, 1, ("add", cards("Qh")))
    assert g.view(3)["known"][1] == [] and "8d" in g.hidden_from(3)


def test_B7_a_replay_from_one_seat_or_a_spectator_never_shows_a_card_laid_face_down_by_another(tmp_path):
    log = read_log(run_match("doubt", 4, 1, seed="b7", specs=["builtin:heuristic"] * 4, logs=tmp_path).logs[0])
    public: set[str] = set()  # cards opened, or discarded face up
    laid: dict[int, set[str]] = {s: set() for s in range(4)}  # the cards each seat laid face down
    replays = {s: Replay(log, seat=s) for s in (0, 1, 2, 3, None)}
    steps = {s: iter(r.steps) for s, r in replays.items()}
    checked = 0
    for rec in log.records[1:]:
        if rec.get("kind") == "end":
            continue
        for e in rec.get("events", []):
            if e["type"] == "open":
                public.update(e["cards"])
            private = (e.get("_private") or {}).get(str(e.get("seat")), {})
            if e["type"] == "action" and "cards" in private.get("action", {}):
                laid[e["seat"]].update(private["action"]["cards"])
        for s, it in steps.items():
            board = next(it).board
            if board is None:
                continue
            seen = set(board.zones["discard"]) - board.hidden[s] if s is not None else \
                set(board.zones["discard"]) - board.hidden[None]
            assert seen <= public | (laid[s] if s is not None else set()), (s, seen - public)
            checked += 1
    auditor = Replay(log)  # all seats: the auditor sees every card
    lines = [x for st in auditor.steps if st.board for x in auditor.board_lines(st.board) if " discard " in x]
    assert lines and not any("▒" in x for x in lines)
    seat = Replay(log, seat=0)
    assert any("▒" in x for st in seat.steps if st.board for x in seat.board_lines(st.board) if " discard " in x)
    assert checked > 100


# ------------------------------------------------------------------ B8


def test_B8_check_one_opens_the_card_the_decider_chooses_and_judges_by_it():
    g = setup(["7c Kd 6c", "8c 6d", "Ks 6h"], check_one=True)
    act(g, 0, ("lead", K, cards("7c Kd")))
    assert g.honest_actions(1)[:0] == [] and ("doubt", 1) in g.honest_actions(1) and ("believe", 1) in g.actions(1)
    with pytest.raises(ImpossibleAction, match="no card number 2"):
        g.apply(1, ("doubt", 2))
    events = act(g, 1, ("believe", 1))  # the king: true, though the seven is a lie
    opened = next(e for e in events if e["type"] == "open")
    assert opened["cards"] == ["Kd"] and opened["index"] == 1 and opened["true"]
    assert C("7c") in g.discard and "7c" in g.hidden_from(None) and "Kd" not in g.hidden_from(None)
    # without check_one the whole play is opened: the index is 0
    g = setup(["7c Kd 6c", "8c 6d", "Ks 6h"])
    act(g, 0, ("lead", K, cards("7c Kd")))
    with pytest.raises(InvalidAction, match="index 0"):
        g.apply(1, ("doubt", 1))


def test_B8_no_believe_sets_a_card_aside_has_no_believe_and_shows_the_sets():
    g = DoubtGame.new({"players": 3, "no_believe": True}, seed=b"b8")
    order = deal_order(36, b"b8", None)
    assert g.aside == order[:1] and sum(map(len, g.hands)) == 35
    assert all(card_code(order[0]) in g.hidden_from(s) for s in (0, 1, 2, None))
    g = setup(["9c 9d 9h 9s 7c", "8c 6d", "Ks 6h"], no_believe=True)
    events = act(g, 0, ("discard", NINE, cards("9c 9d 9h 9s")))
    assert project(events[0], 1)["action"]["cards"] == ["9c", "9d", "9h", "9s"]  # face up
    assert {"9c", "9d", "9h", "9s"} <= set(g.view(2)["discarded"]) and not g.hidden_from(2) & {"9c", "9d"}
    act(g, 0, ("lead", K, cards("7c")))
    assert ("believe", 0) not in g.actions(1)
    with pytest.raises(ImpossibleAction, match="no «believe»"):
        g.apply(1, ("believe", 0))
