"""Scenario tests of «пьяница»: one test per ruling W1–W6 (and the table's T13, T14 as this
game reads them), on decks built from fixed card orders, driven on the engine the way the
table drives it (apply, then advance once the window is closed) or at a table where the
court and the mark take part."""

from __future__ import annotations

import pytest
from helpers import pass_all

from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.games.drunkard.engine import DrunkardGame

C = parse_card


def new(d0: str, d1: str, *, size: int = 36, first: int = 0, rest: tuple[int, ...] = (0, 1), seed: bytes | None = None,
        known: str = "", **options) -> DrunkardGame:
    """A game whose decks begin (top first) with the cards ``d0`` and ``d1``; the deck's
    other cards follow, dealt in turn to the seats of ``rest``; ``known``: cards of the
    decks whose places everybody knows (they went back from the table in the open)."""
    tops = [parse_cards(d0), parse_cards(d1)]
    named = tops[0] + tops[1]
    assert len(set(named)) == len(named), "a card is named twice"
    decks = [list(tops[0]), list(tops[1])]
    for i, c in enumerate(c for c in full_deck(size) if c not in named):
        decks[rest[i % len(rest)]].append(c)
    data = DrunkardGame.new({"deck": size, **options}, deck=full_deck(size), first=first, seed=seed).to_data()
    data.update(decks=decks, known=sorted(parse_cards(known)))
    return DrunkardGame.from_data(data)


def table_of(game: DrunkardGame, **options) -> Table:
    """A table (its court, its mark) playing ``game``."""
    t = Table({"game": "drunkard", "deck": game.deck_size, "call_window": None, **options})
    t.start(deck=full_deck(game.deck_size))
    t.game.restore(game.to_data())
    return t


def act(g: DrunkardGame, seat: int, action: tuple) -> list[dict]:
    """An action and what follows once its window has closed (T8)."""
    return g.apply(seat, action) + g.advance()


def flip(g: DrunkardGame, seat: int, index: int = 0) -> dict:
    """``seat`` flips; the ``flipped`` event."""
    return next(e for e in act(g, seat, ("flip", index)) if e["type"] == "flipped")


def collect(g: DrunkardGame, seat: int) -> list[dict]:
    return act(g, seat, ("collect", g.order(seat)))


def codes(cards) -> list[str]:
    return [card_code(c) for c in cards]


# ------------------------------------------------------------------ W1


def test_W1_two_players_the_whole_deck_dealt_and_nobody_looks_into_a_deck():
    with pytest.raises(ValueError, match="players must be 2"):
        Table({"game": "drunkard", "players": 3})
    for size in (36, 52):
        g = DrunkardGame.new({"deck": size}, seed=b"W1")
        assert [len(d) for d in g.decks] == [size // 2] * 2 and not g.table[0] + g.table[1]
        assert sorted(g.decks[0] + g.decks[1]) == full_deck(size)
        everything = set(codes(full_deck(size)))
        for seat in (0, 1, None):  # nobody looks into a deck, its owner neither
            assert g.hidden_from(seat) == everything
            assert g.view(seat)["decks"] == [[None] * (size // 2)] * 2


# ------------------------------------------------------------------ W2


def test_W2_the_higher_rank_wins_whatever_the_suit():
    g = new("6h", "Ks", first=1)
    assert g.to_act() == [1] and g.honest_actions(0) == []
    with pytest.raises(ImpossibleAction, match="not your turn"):
        g.apply(0, ("flip", 0))
    assert flip(g, 1) == {"type": "flipped", "seat": 1, "card": "Ks", "deck": 17}
    assert flip(g, 0) == {"type": "flipped", "seat": 0, "card": "6h", "deck": 17, "winner": 1}
    g = new("Ac", "Kh")
    flip(g, 0)
    assert flip(g, 1)["winner"] == 0 and g.winner == 0


def test_W2_who_flips_first_is_drawn_by_lot_and_said_at_the_first_battle():
    firsts = set()
    for k in range(20):
        g = DrunkardGame.new({}, seed=b"lot %d" % k)
        assert g.opening() == [{"type": "battle", "number": 1, "decks": [18, 18], "first": g.first}]
        assert DrunkardGame.new({}, seed=b"lot %d" % k).first == g.first  # (from the seed: T10)
        firsts.add(g.first)
        for _ in range(3):  # the first flips first in every round
            assert g.to_act() == [g.first]
            flip(g, g.first)
            flip(g, 1 - g.first)
            if g.winner is not None:
                collect(g, g.winner)
    assert firsts == {0, 1}


def test_W2_equal_ranks_are_a_dispute_flipped_on_until_one_is_higher():
    g = new("7h 8c 9d", "7s 8d Js")
    flip(g, 0)
    assert flip(g, 1)["dispute"] is True and g.winner is None and g.disputed()
    flip(g, 0)
    assert flip(g, 1)["dispute"] is True
    flip(g, 0)
    assert flip(g, 1)["winner"] == 1
    assert codes(g.table[0]) == ["7h", "8c", "9d"] and codes(g.table[1]) == ["7s", "8d", "Js"]


def test_W2a_either_may_collect_a_decided_battle_and_nobody_flips_on_it():
    g = new("6h", "Ks")
    flip(g, 0)
    flip(g, 1)
    assert g.to_act() == [1, 0] and g.obliged() == [1]
    assert g.honest_actions(0) == [] and g.honest_actions(1) == [("collect", (C("Ks"), C("6h")))]
    for seat in (0, 1):
        with pytest.raises(ImpossibleAction, match="decided"):
            g.apply(seat, ("flip", 0))
    assert g.check(0, ("collect", (C("6h"), C("Ks")))) == ("W5g",)  # the loser may grab: махлёж
    before = g.to_data()
    with pytest.raises(ImpossibleAction, match="every card on the table"):
        g.apply(1, ("collect", (C("Ks"),)))
    assert g.to_data() == before
    collect(g, 1)  # the first collect counts: the battle is over
    with pytest.raises(ImpossibleAction, match="no cards on the table"):
        g.apply(0, ("collect", (C("6h"), C("Ks"))))
    assert g.battle == 2 and g.to_act() == [0]


def test_W2b_the_honest_order_latest_first_winners_card_first_under_his_deck():
    g = new("7h 8c Ad", "7s 8d 9s")
    for _ in range(3):
        flip(g, 0)
        flip(g, 1)
    honest = (C("Ad"), C("9s"), C("8c"), C("8d"), C("7h"), C("7s"))
    assert g.winner == 0 and g.order(0) == honest and g.honest_actions(0) == [("collect", honest)]
    events = collect(g, 0)
    assert events[0]["action"] == {"type": "collect", "cards": codes(honest)}
    assert tuple(g.decks[0][-6:]) == honest and len(g.decks[0]) == 21
    # they went in the open: everybody knows their places now, and nothing else
    assert g.view(1)["decks"][0] == [None] * 15 + codes(honest)
    assert g.view(1)["decks"][1] == [None] * 15
    assert events[-1] == {"type": "battle", "number": 2, "decks": [21, 15]}


# ------------------------------------------------------------------ W3


def test_W3_out_of_cards_in_a_dispute_draws_a_random_card_of_the_opponents_after_his_flip():
    g = new("7h", "7s", rest=(1,), seed=b"W3")
    flip(g, 0)
    assert flip(g, 1)["dispute"] is True and g.decks[0] == []
    assert g.to_act() == [1]  # the one out of cards flips after his opponent
    flip(g, 1)
    assert g.to_act() == [0] and g.rule_in_force(0) == "W3"
    with pytest.raises(ImpossibleAction, match="your deck is empty"):
        g.apply(0, ("flip", 3))
    deck = list(g.decks[1])
    place = Rng(b"W3", b"draw 1").below(len(deck))  # the game's first random event (T10)
    shown = flip(g, 0)
    assert shown["from"] == 1 and shown["index"] == place and shown["card"] == card_code(deck[place])
    assert g.decks[1] == deck[:place] + deck[place + 1:] and g.draws == 1


def test_W3_both_out_of_cards_in_a_dispute_is_a_draw():
    """The seed's "18 disputes in a row": decks alike but for the suits."""
    ranks = [r for r in "6789TJQKA" for _ in (0, 1)]
    g = new(" ".join(r + s for r, s in zip(ranks, "cd" * 9)), " ".join(r + s for r, s in zip(ranks, "hs" * 9)))
    for _ in range(18):
        flip(g, 0)
        assert flip(g, 1)["dispute"] is True
    assert g.result == {"loser": None, "draw": True, "order": []}


# ------------------------------------------------------------------ W4


def test_W4_no_card_to_flip_outside_a_dispute_loses_and_gets_the_mark():
    t = table_of(new("6h", "7s", rest=(1,)))
    for seat in (0, 1):
        t.act(seat, ("flip", 0))
        pass_all(t)
    t.act(1, t.honest_actions(1)[0])
    events = pass_all(t)
    assert {"type": "game_over", "result": {"loser": 0, "draw": False, "order": [1]}} in events
    assert t.over and t.mark == 0
    assert not [e for e in events if e["type"] == "paid"]  # (the loser's mark is not paid: T14)


def test_W4a_four_aces_in_sight_win_at_the_end_of_a_battle():
    def won_ace(**options) -> list[dict]:
        """Seat 0 holds three aces whose places are known and wins the fourth in a dispute."""
        g = new("7h Ad Kc Ah As", "7s Ac Qh", **options)
        for _ in range(3):
            flip(g, 0)
            flip(g, 1)
        assert g.winner == 0
        return collect(g, 0)

    assert won_ace(known="Ah As")[-2:] == [{"type": "four_aces", "seat": 0},
                                           {"type": "game_over", "result": {"loser": 1, "draw": False, "order": [0]}}]
    assert won_ace(known="As")[-1]["type"] == "battle"  # the ace of hearts was never seen there
    for option in ("six_beats_ace", "face_down_dispute"):  # (not with the W6 options that break it)
        events = won_ace(known="Ah As", **{option: True})
        assert "four_aces" not in [e["type"] for e in events]


# ------------------------------------------------------------------ W5


def test_W5g_grabbing_a_battle_lost_or_a_dispute_on_your_turn():
    g = new("6h 8c", "Ks 8d")
    flip(g, 0)
    flip(g, 1)
    assert g.check(0, ("collect", g.order(0))) == ("W5g",)
    g = new("8h 9c", "8s 9d")
    flip(g, 0)
    flip(g, 1)  # a dispute: seat 0 flips next
    assert g.check(0, ("collect", g.order(0))) == ("W5g",)
    with pytest.raises(ImpossibleAction, match="not your turn"):
        g.check(1, ("collect", g.order(1)))


def test_W5o_W5t_collecting_in_another_order_or_onto_the_deck():
    g = new("Kh", "6s")
    flip(g, 0)
    flip(g, 1)
    honest = g.order(0)
    assert g.check(0, ("collect", honest[::-1])) == ("W5o",)
    assert g.check(0, ("top", honest)) == ("W5t",)
    assert g.check(0, ("top", honest[::-1])) == ("W5o", "W5t")
    act(g, 0, ("top", honest[::-1]))
    assert codes(g.decks[0][:2]) == ["6s", "Kh"] and g.view(1)["decks"][0][:3] == ["6s", "Kh", None]


def test_W5b_flipping_any_card_but_the_top_one():
    g = new("6h 7h 8h Ah", "Ks", known="Ah")
    assert g.check(0, ("flip", 3)) == ("W5b",) and g.check(0, ("flip", 0)) == ()
    with pytest.raises(ImpossibleAction):
        g.check(0, ("flip", len(g.decks[0])))
    assert flip(g, 0, 3)["card"] == "Ah" and codes(g.decks[0][:3]) == ["6h", "7h", "8h"]


def test_W5_a_cheat_called_is_convicted_by_the_callers_vote_alone_undone_and_paid_for():
    """T4 at a table of two: no other voter, the caller's vote convicts; T6: undone; T14."""
    t = table_of(new("6h", "Ks", known=""), call_window=2.0)
    t.act(0, ("flip", 0))
    pass_all(t)
    t.act(1, ("flip", 0))
    pass_all(t)
    before = t.game.to_data()
    t.act(0, ("collect", t.game.order(0)))  # grabbing the battle it lost
    events = t.answer(1, call=True)
    verdict = next(e for e in events if e["type"] == "verdict")
    assert verdict["outcome"] == "guilty" and (verdict["pidor"], verdict["clean"]) == (1, 0)
    assert t.mark == 0 and {"type": "paid", "from": 0, "to": 1} in events
    undone = t.game.to_data()
    assert undone["table"] == before["table"] and undone["decks"][1] == before["decks"][1] + before["decks"][0][:1]


# ------------------------------------------------------------------ W6


def test_W6_face_down_dispute_a_card_that_does_not_count_then_one_that_decides():
    g = new("7h 9c Ks", "7s Ac Qh", face_down_dispute=True)
    flip(g, 0)
    assert flip(g, 1)["dispute"] is True
    assert flip(g, 0)["counts"] is False
    assert flip(g, 1) == {"type": "flipped", "seat": 1, "card": "Ac", "deck": 16, "counts": False}
    assert g.winner is None  # the ace did not count
    flip(g, 0)
    assert flip(g, 1)["winner"] == 0 and len(g.order(0)) == 6  # six cards, not four (the seed)
    assert g.view(None)["face_down_dispute"] is True


@pytest.mark.parametrize("size,low", [(36, "6"), (52, "2")])
def test_W6_six_beats_ace_the_lowest_rank_beats_the_ace(size, low):
    for options, winner in (({}, 1), ({"six_beats_ace": True}, 0)):
        g = new(low + "h", "Ac", size=size, **options)
        flip(g, 0)
        assert flip(g, 1)["winner"] == winner
    g = new(low + "h", "7c", size=size, six_beats_ace=True)
    flip(g, 0)
    assert flip(g, 1)["winner"] == 1  # (only the ace)


def test_W6_reshuffle_won_cards_aside_shuffled_in_when_the_deck_runs_out():
    g = new("Kh", "6s", rest=(1,), seed=b"W6", reshuffle=True)
    flip(g, 0)
    flip(g, 1)
    g.apply(0, ("collect", g.order(0)))
    assert g.sides[0] == [C("Kh"), C("6s")] and g.view(1)["sides"][0] == ["Kh", "6s"]
    events = g.advance()
    # his deck ran out: no cards means the side pile too, so he plays on with it shuffled in
    assert {"type": "reshuffle", "seat": 0, "count": 2} in events and g.result is None
    assert g.decks[0] == shuffled([C("Kh"), C("6s")], b"W6" + b"reshuffle 1") and g.sides[0] == []
    assert g.view(1)["decks"][0] == [None, None]  # shuffled: their places are unknown again


# ------------------------------------------------------------------ T13, T14


def test_T13_the_battle_is_the_unit_unit_limit_ends_a_long_game_as_a_draw():
    stalled = 0
    for k in range(10):
        g = DrunkardGame.new({"unit_limit": 100, "six_beats_ace": True}, seed=b"T13 %d" % k)
        assert "quiet_limit" not in g.limits  # T13b: repetition and unit_limit only
        while g.result is None:
            seat = g.obliged()[0]
            assert g.units.count == g.battle - 1
            act(g, seat, g.honest_actions(seat)[0])
        if g.result["draw"]:
            assert g.result == {"loser": None, "draw": True, "order": [], "stalled": "units"}
            assert g.units.count == 100
            stalled += 1
        else:
            assert g.units.count < 100
    assert stalled


def test_T13_a_position_seen_the_third_time_is_a_draw():
    """Two battles that put every card back (махлёж nobody calls): the position at the end
    of the first is seen again after the third and the fifth, which is a draw."""
    g = new("Kh 6s", "7c")
    battles = 0
    while g.result is None:
        flip(g, 0)  # K♥
        flip(g, 1)  # 7♣
        act(g, 1, ("top", (C("7c"), C("Kh"))))  # grabbed onto his deck (W5g, W5t)
        battles += 1
        if g.result is not None:
            break
        flip(g, 0)  # 6♠
        flip(g, 1, 1)  # K♥, from under the 7♣ (W5b)
        act(g, 0, ("top", (C("Kh"), C("6s"))))  # grabbed back onto his deck (W5g, W5o, W5t)
        battles += 1
    assert battles == 5 and g.result == {"loser": None, "draw": True, "order": [], "stalled": "repetition"}
    assert max(g.units.seen.values()) == 3


def test_T14_the_marked_player_puts_his_top_card_unseen_under_his_opponents_deck():
    t = table_of(new("Kh", "6s 7s"), call_window=2.0)
    t.act(0, ("flip", 0))
    deck1 = list(t.game.decks[1])
    events = t.answer(1, call=True)  # an honest flip called (T5): the caller gets the mark
    assert t.mark == 1 and {"type": "paid", "from": 1, "to": 0} in events
    assert t.game.decks[1] == deck1[1:] and t.game.decks[0][-1] == deck1[0]
    assert t.view(0)["decks"][0][-1] is None and card_code(deck1[0]) in t.game.hidden_from(0)  # unseen
    # with an empty deck he pays nothing
    t = table_of(new("7h", "7s", rest=(1,)), call_window=2.0)
    t.act(0, ("flip", 0))
    pass_all(t)
    t.act(1, ("flip", 0))
    events = t.answer(0, call=True)
    assert t.mark == 0 and not [e for e in events if e["type"] == "paid"] and t.game.decks[0] == []
