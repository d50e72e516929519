"""Scenario tests of the durak family's yard variants, one test per ruling (V10 «двухкозырной»,
V11 «с поджопниками», V12 «с проездным»), on deals built from fixed deck orders, driven on
the engine the way the table drives it, and through the table where the court and the
seats' knowledge are involved."""

from __future__ import annotations

import pytest
from helpers import pass_all, types

from pidor.bots.observe import Knowledge
from pidor.cards import card_code, parse_card, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction, project
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.games.durak.engine import DurakGame, PerevodnoyGame, PodkidnoyGame

C = parse_card


def yard_deck(hands: list[str], reserves: list[str] | None = None, draws: str = "", trump: str | None = None,
              aside: str | None = None, size: int = 36) -> list[int]:
    """A deck order (top first) dealing ``hands`` (six each, one at a time round the table
    from seat 0), then the поджопники (V11, the same way), then ``draws``, the unnamed cards,
    the face-up ``trump`` card and, under it, the set-aside card (V10)."""
    hs = [parse_cards(h) for h in hands]
    rs = [parse_cards(r) for r in reserves or ["" for _ in hands]]
    n = len(hs)
    dealt = [hs[i % n][i // n] for i in range(6 * n)]
    dealt += [rs[i % n][i // n] for i in range(len(rs[0]) * n)]
    top = dealt + parse_cards(draws)
    bottom = [C(c) for c in (trump, aside) if c is not None]
    named = top + bottom
    assert len(set(named)) == len(named), "a card is named twice"
    return top + [c for c in full_deck(size) if c not in set(named)] + bottom


def new(cls: type[DurakGame], hands: list[str], *, first: int = 0, **deal_and_options) -> DurakGame:
    deal = {k: deal_and_options.pop(k) for k in ("reserves", "draws", "trump", "aside") if k in deal_and_options}
    return cls.new({"players": len(hands), **deal_and_options}, deck=yard_deck(hands, **deal), first=first)


def act(g: DurakGame, seat: int, *action, violations: tuple = ()) -> list[dict]:
    action = tuple(C(a) if isinstance(a, str) and len(a) == 2 else a for a in action)
    events = g.apply(seat, action)
    assert events[0]["_violations"] == list(violations), (action, events[0]["_violations"])
    return events


def hand(g: DurakGame, seat: int) -> list[str]:
    return sorted(card_code(c) for c in g.hands[seat])


def codes(text: str) -> set[str]:
    return set(text.split())


# ---------------------------------------------------------------------------- V10


def test_V10_the_trump_turns_after_the_last_draw_with_a_bout_in_progress():
    hands = ["7c 7s 8c 9c Tc Jc", "7d 6h 7h 8h 9h Th"]
    g = new(PodkidnoyGame, hands, trump="6d", aside="Qh", two_trumps=True)
    # The face-up 6♦ names the trump; under it the set-aside Q♥, face down, never drawn.
    assert g.trump == C("6d") // 13 and g.view(0)["trump_card"] == "6d" and g.deck[0] == C("6d")
    assert g.zones()["aside"] == [C("Qh")] and C("Qh") not in g.deck and len(g.deck) == 36 - 12 - 1
    for seat in (0, 1, None):  # unknown to everyone until it turns
        assert "Qh" in g.hidden_from(seat) and g.view(seat)["second_trump"] is None
    plain = PodkidnoyGame.new({"players": 2}, deck=yard_deck(hands, trump="6d", aside="Qh"), first=0)
    assert plain.trump_card == C("Qh") and "second_trump" not in plain.view(0)  # (without the option)

    # Late: four cards left in the deck, the 6♦ last; a bout under the old trump.
    data = g.to_data()
    data.update(deck=["Js", "Qs", "Ks", "6d"], discard=[card_code(c) for c in full_deck(36) if card_code(c) not in
                                                        {*" ".join(hands).split(), "Js", "Qs", "Ks", "6d", "Qh"}])
    g = PodkidnoyGame.from_data(data)
    act(g, 0, "attack", "7c")
    act(g, 1, "cover", "7d", 0)  # 7♦ beats 7♣: a trump on a plain card
    act(g, 0, "attack", "7s")
    act(g, 1, "cover", "6h", 1, violations=("D4b",))  # 6♥ is no trump yet
    act(g, 0, "bito")
    assert g.ended == "bito" and g.trump == C("6d") // 13  # the table is cleared; drawing waits (T8)
    events = g.advance()  # 0 draws two, 1 the last two, the 6♦ last; then the Q♥ turns
    assert types(events) == ["draw", "draw", "trump_turned", "bout"] and not g.deck and "6d" in hand(g, 1)
    assert events[2] == {"type": "trump_turned", "card": "Qh", "trump": "h"}
    assert g.trump == C("Qh") // 13
    for seat in (0, 1, None):
        assert "Qh" not in g.hidden_from(seat) and g.view(seat)["second_trump"] == "Qh"
        assert g.view(seat)["trump"] == "h" and g.view(seat)["trump_card"] is None
    assert C("Qh") not in g.hands[0] + g.hands[1] and g.zones()["aside"] == [C("Qh")]  # out of play
    # The next bout under the new trump: a heart beats a plain card, the 6♦ no longer does.
    assert g.beats(C("7h"), C("Ac")) and not g.beats(C("6d"), C("8c"))
    act(g, 1, "attack", "8h")
    act(g, 0, "cover", "Jc", 0, violations=("D4b",))
    again = PodkidnoyGame.from_data(g.to_data())
    assert again.trump == g.trump and again.to_data() == g.to_data()  # the turn survives the data


def test_V10_two_trumps_needs_a_deck_left_after_the_deal():
    with pytest.raises(ValueError, match="the deal must leave a deck"):
        PodkidnoyGame.options({"players": 6, "two_trumps": True})
    assert PodkidnoyGame.options({"players": 6, "deck": 52, "two_trumps": True})["two_trumps"] is True
    assert PodkidnoyGame.options({"players": 5, "two_trumps": True})
    with pytest.raises(ValueError):
        PodkidnoyGame.options({"two_trumps": "yes"})


# ---------------------------------------------------------------------------- V11


def test_V11_poddzhopniki_taken_up_and_out_only_when_both_are_empty():
    g = new(PodkidnoyGame, ["6c 7c 8c 9c Tc Jc", "6h 7h 8h 9h Th Jh"], reserves=["Ac Kc", "Ah Kh"],
            trump="6s", reserve=2)
    assert g.zones()["reserve.0"] == [C("Ac"), C("Kc")] and g.zones()["reserve.1"] == [C("Ah"), C("Kh")]
    for seat in (0, 1, None):  # unknown to everyone, their owner too
        assert codes("Ac Kc Ah Kh") <= g.hidden_from(seat)
        assert g.view(seat)["reserve"] == [2, 2]
    assert len(g.deck) == 36 - 16
    # A late game: the deck is gone; seat 0 holds one card, seat 1 two.
    data = g.to_data()
    data.update(deck=[], hands=[["7c"], ["8c", "9h"]], attacker=0, defender=1, limit=2,
                discard=[card_code(c) for c in full_deck(36) if card_code(c) not in
                         {"7c", "8c", "9h", "Ac", "Kc", "Ah", "Kh"}])
    g = PodkidnoyGame.from_data(data)
    act(g, 0, "attack", "7c")
    events = g.advance()  # hand and deck empty: his поджопники come up, and he plays on
    assert types(events) == ["reserve"] and events[0]["seat"] == 0 and events[0]["count"] == 2
    assert project(events[0], 0)["cards"] == ["Ac", "Kc"] and "cards" not in project(events[0], 1)
    assert hand(g, 0) == ["Ac", "Kc"] and not g.out[0] and g.reserves[0] == []
    assert "Ac" not in g.hidden_from(0) and "Ac" in g.hidden_from(1) and g.view(1)["reserve"] == [0, 2]
    act(g, 1, "cover", "8c", 0)
    act(g, 0, "bito")  # (he holds cards: the table waits for his «бито», D5)
    g.advance()
    assert (g.attacker, g.defender) == (1, 0)  # 1 beat off: he attacks
    act(g, 1, "attack", "9h")  # his last card in hand: his поджопники come up
    events = g.advance()
    assert types(events) == ["reserve"] and hand(g, 1) == ["Ah", "Kh"] and not g.out[1]
    act(g, 0, "cover", "Ac", 0, violations=("D4b",))
    act(g, 1, "bito")
    g.advance()
    # 0 holds K♣ and nothing under him: once his hand is empty he is out.
    act(g, 0, "attack", "Kc")
    events = g.advance()
    assert types(events) == ["out"] and events[0]["seat"] == 0 and g.out[0]
    act(g, 1, "cover", "Ah", 0, violations=("D4b",))
    events = g.advance()
    assert types(events) == ["game_over"] and g.result["loser"] == 1


def test_V11p_taking_them_up_early_is_cheating_and_they_come_up_after_the_window():
    t = Table({"game": "perevodnoy", "players": 2, "reserve": 4, "call_window": 1.0})
    t.start(deck=yard_deck(["6c 7c 8c 9c Tc Jc", "6h 7h 8h 9h Th Jh"], reserves=["Ac Kc Qc 6d", "Ah Kh Qh 7d"],
                           trump="6s"), first=0)
    game = t.game
    know = Knowledge(0, t.options)  # seat 0's knowledge of the table
    know.reset(t.view(0))
    assert ("reserve",) in game.actions(1) and ("reserve",) not in game.honest_actions(1)
    events = t.act(1, ("reserve",))  # the deck and his hand still hold cards: махлёж
    assert events[0]["_violations"] == ["V11p"] and types(events) == ["action", "window"]
    assert game.reserves[1] and hand(game, 1) == sorted("6h 7h 8h 9h Th Jh".split())  # nothing yet (T8)
    with pytest.raises(ImpossibleAction):
        game.check(1, ("reserve",))  # once is enough
    # The seats' knowledge sees it: the engine judges it on the belief as on the table.
    know.feed(events)
    assert know.visible_violations(1, {"type": "reserve"}) == ("V11p",)
    # Called and convicted: undone, and nobody ever saw them.
    snapshot = t.to_data()
    events = t.answer(0, True)
    assert [e for e in events if e["type"] == "verdict"][0]["outcome"] == "guilty"
    assert game.reserves[1] == [C(c) for c in "Ah Kh Qh 7d".split()] and not any(e["type"] == "reserve" for e in events)
    # Not called: they come up once the window closes.
    t = Table.from_data(snapshot)
    events = pass_all(t)
    up = [e for e in events if e["type"] == "reserve"]
    assert up and up[0]["seat"] == 1 and project(up[0], 1)["cards"] == ["Ah", "Kh", "Qh", "7d"]
    assert len(t.game.hands[1]) == 10 and t.game.reserves[1] == [] and ("reserve",) not in t.game.actions(1)
    with pytest.raises(ImpossibleAction):  # and without the option there is nothing to take up
        PodkidnoyGame.new({"players": 2}, seed=b"x").check(0, ("reserve",))


def test_V11_the_deal_must_leave_a_deck():
    with pytest.raises(ValueError, match="reserve=4 with 4 players deals 40 of the 36 cards: the deal must leave"):
        PodkidnoyGame.options({"players": 4, "reserve": 4})
    with pytest.raises(ValueError, match="reserve=4 and two_trumps with 4 players deals 41"):
        PodkidnoyGame.options({"players": 4, "reserve": 4, "two_trumps": True})
    assert PodkidnoyGame.options({"players": 3, "reserve": 4})["reserve"] == 4  # 30 of 36: six left
    assert PodkidnoyGame.options({"players": 4, "reserve": 4, "deck": 52})["reserve"] == 4
    for bad in (1, 3, 6, True):
        with pytest.raises(ValueError, match="reserve must be 0 or 2 or 4"):
            PodkidnoyGame.options({"reserve": bad})


# ---------------------------------------------------------------------------- V12


def perevodnoy(hands: list[str], **options) -> PerevodnoyGame:
    """Trump ♦ (the A♦ under the deck); the Q♠ is the проездной."""
    return new(PerevodnoyGame, hands, trump="Ad", **{"pass_card": ["Qs"], **options})


def test_V12_a_proezdnoy_shown_transfers_whatever_the_ranks_and_stays_in_the_hand():
    g = perevodnoy(["6c 7c 8c 9c Tc Jc", "Qs 6h 7h 8h 9h Th", "6d 7d 8d 9d Td Jd"])
    assert g.view(2)["pass_card"] == ["Qs"] and g.view(2)["shown"] == [[], [], []]
    act(g, 0, "attack", "Jc")
    assert ("show", C("Qs")) in g.honest_actions(1)  # 1 cannot beat J♣ nor transfer by rank
    assert g.rule_in_force(1) == "V12"
    events = act(g, 1, "show", "Qs")
    assert events[0]["action"] == {"type": "show", "card": "Qs"}  # seen by all
    assert events[1] == {"type": "transfer", "defender": 2, "limit": 6}
    assert "Qs" in hand(g, 1) and g.attack == [C("Jc")]  # it stays in his hand; no card is laid
    for seat in (0, 2, None):  # face up in his hand for everyone: a zone of its own
        assert "Qs" not in g.hidden_from(seat) and g.view(seat)["shown"] == [[], ["Qs"], []]
    assert g.zones()["shown.1"] == [C("Qs")] and C("Qs") not in g.zones()["hand.1"]
    # Shown while he could cover or transfer by rank is honest too.
    g = perevodnoy(["6c 8c 9c Tc Jc Kc", "Qs 6h 7h 8h 9h 7c", "6d 7d 8d 9d Td Jd"])
    act(g, 0, "attack", "6c")
    assert {("show", C("Qs")), ("transfer", C("6h")), ("cover", C("7c"), 0)} <= set(g.honest_actions(1))
    # A card that is no проездной: махлёж, seen by all (V12f).
    events = act(g, 1, "show", "7c", violations=("V12f",))
    assert events[0]["action"]["card"] == "7c" and "7c" not in g.hidden_from(0) and g.shown == [C("7c")]
    # Played from the hand, a shown card is an ordinary card on the table.
    act(g, 2, "cover", "7d", 0)
    act(g, 1, "attack", "7c")
    assert g.shown == [] and g.view(0)["shown"] == [[], [], []]
    # There is no проездной in podkidnoy, nor at a table without one.
    with pytest.raises(InvalidAction):
        PodkidnoyGame.new({"players": 2}, seed=b"x").parse_action({"type": "show", "card": "Qs"})
    g = new(PerevodnoyGame, ["6c 7c 8c 9c Tc Jc", "Qs 6h 7h 8h 9h Th"], trump="6s")
    act(g, 0, "attack", "Jc")
    with pytest.raises(ImpossibleAction):
        g.check(1, ("show", C("Qs")))


def test_V12_T13_players_who_pass_the_attack_round_by_their_proezdnye_end_in_a_draw():
    """A show lays no card, so shows may go round for ever (a seat that plays two places of a
    team passes to itself); T13: the position after each show counts, and it repeats."""
    g = perevodnoy(["Qc 7c 8c 9c Tc Jc", "Qs 6h 7h 8h 9h Th", "Qh 7d 8d 9d Td Jd"], pass_card=["Qs", "Qh", "Qc"])
    act(g, 0, "attack", "Jc")
    seat, shows = 1, 0
    while g.result is None:
        assert shows < 20, "the shows never end"
        act(g, seat, "show", {1: "Qs", 2: "Qh", 0: "Qc"}[seat])
        g.advance()
        seat, shows = (seat + 1) % 3, shows + 1
    assert g.result["draw"] and g.result["stalled"] == "repetition"
    assert shows == 7  # the position after the 1st show is seen again after the 4th and the 7th


def test_V12_a_proezdnoy_shown_with_a_covered_card_on_the_table_is_cheating():
    """As a transfer (D7, D10): after a card was covered it is махлёж (D7c)."""
    g = perevodnoy(["6c 6d 8c 9c Tc Jc", "Qs 7c 7h 8h 9h Th", "7d 8d 9d Td Jd As"])
    act(g, 0, "attack", "6c")
    act(g, 0, "attack", "6d")
    act(g, 1, "cover", "7c", 0)
    assert not any(a[0] == "show" for a in g.honest_actions(1)) and ("show", C("Qs")) in g.actions(1)
    events = act(g, 1, "show", "Qs", violations=("D7c",))
    assert events[1]["defender"] == 2 and g.attack == [C("6c"), C("6d")]


def test_V12_a_proezdnoy_shown_to_a_defender_with_too_few_cards_is_cheating():
    """The new defender must hold at least as many cards as there are attacking cards (D7n)."""
    data = perevodnoy(["6c 6d 8c 9c Tc Jc", "Qs 7c 7h 8h 9h Th", "7d 8d 9d Td Jd As"]).to_data()
    data.update(deck=[], hands=[["6c", "6d", "8c"], ["Qs", "7h"], ["7d"]], limit=2,
                discard=[card_code(c) for c in full_deck(36)
                         if card_code(c) not in {"6c", "6d", "8c", "Qs", "7h", "7d"}])
    g = PerevodnoyGame.from_data(data)
    act(g, 0, "attack", "6c")
    act(g, 0, "attack", "6d")
    assert ("show", C("Qs")) not in g.honest_actions(1)
    events = act(g, 1, "show", "Qs", violations=("D7n",))
    assert events[1] == {"type": "transfer", "defender": 2, "limit": 1}
    # Barred by V9 (the first attack under the durak) it is махлёж too.
    g = PerevodnoyGame.new({"players": 3, "pass_card": ["Qs"], "no_first_transfer": True},
                           deck=yard_deck(["6c 7c 8c 9c Tc Jc", "Qs 6h 7h 8h 9h Th", "6d 7d 8d 9d Td Jd"],
                                          trump="6s"), previous={"loser": 1, "draw": False, "order": [0, 2]})
    act(g, 0, "attack", "Jc")
    act(g, 1, "show", "Qs", violations=("V9t",))


def test_V12_the_pass_card_must_be_in_the_deck():
    with pytest.raises(ValueError, match="pass_card 2c is not in the 36-card deck"):
        PerevodnoyGame.options({"pass_card": ["2c"]})
    assert PerevodnoyGame.options({"pass_card": ["2c"], "deck": 52})["pass_card"] == ["2c"]
    with pytest.raises(ValueError, match="unknown option 'pass_card'"):
        PodkidnoyGame.options({"pass_card": ["Qs"]})
    with pytest.raises(ValueError):
        PerevodnoyGame.options({"pass_card": ["Qs", "Qs"]})


# ---------------------------------------------------------------------------- the belief


def test_the_belief_deals_the_set_aside_card_and_the_poddzhopniki_as_unknown_cards_in_known_slots():
    t = Table({"game": "perevodnoy", "players": 3, "reserve": 2, "two_trumps": True, "pass_card": ["Qs"]})
    t.start(seed=b"belief", first=0)
    game = t.game
    know = Knowledge(0, t.options)
    know.reset(t.view(0))
    mine = set(game.hands[0])
    asides, reserves0 = set(), set()
    for k in range(40):
        d = know.determinize(Rng(b"deal", b"%d" % k))
        assert sorted(c for z in d.zones().values() for c in z) == full_deck(36)
        assert d.hands[0] == game.hands[0] and len(d.aside) == 1
        assert [len(r) for r in d.reserves] == [2, 2, 2] and not mine & set(d.aside + d.reserves[0])
        asides.add(d.aside[0])
        reserves0.update(d.reserves[0])
    assert len(asides) > 10 and len(reserves0) > 10  # anything unseen: his own поджопники too


def test_V10_the_belief_places_the_card_that_turns():
    """A seat's knowledge guesses the set-aside card among the unseen ones; when it turns, the
    belief puts the real card there (``Belief.placed``) and follows the new trump."""
    hands = ["7c 7s 8c 9c Tc Jc", "7d 6h 7h 8h 9h Th"]
    t = Table({"game": "podkidnoy", "players": 2, "two_trumps": True})
    t.start(deck=yard_deck(hands, trump="6d", aside="Qh"), first=0)
    data = t.game.to_data()
    data.update(deck=["Js", "Qs", "Ks", "6d"], discard=[card_code(c) for c in full_deck(36) if card_code(c) not in
                                                        {*" ".join(hands).split(), "Js", "Qs", "Ks", "6d", "Qh"}])
    t.game = PodkidnoyGame.from_data(data)
    know = Knowledge(0, t.options)
    know.reset(t.view(0))
    assert know.belief().game.aside != [C("Qh")]  # (a guess: the first unseen card)
    for seat, action in ((0, ("attack", C("7c"))), (1, ("cover", C("7d"), 0)), (0, ("attack", C("7s"))),
                         (1, ("cover", C("6h"), 1)), (0, ("bito",))):
        events = t.act(seat, action) + pass_all(t)
        know.feed(events)
    assert "trump_turned" in types(events)
    belief = know.belief().game
    assert belief.aside == [C("Qh")] and belief.trump == t.game.trump == C("Qh") // 13
    assert know.belief().view(0) == t.view(0)
    for k in range(5):
        assert know.determinize(Rng(b"after", b"%d" % k)).aside == [C("Qh")]  # no longer dealt


def test_V10_V11_V12_the_board_says_them_in_both_languages():
    from pidor.games.durak.text import TEXT
    from pidor.games.text import Say

    g = new(PerevodnoyGame, ["6c 7c 8c 9c Tc Jc", "Qs 6h 7h 8h 9h Th", "6d 7d 8d 9d Td Jd"],
            reserves=["Ac Kc", "Ah Kh", "As Ks"], trump="Ad", aside="Qh", two_trumps=True, reserve=2,
            pass_card=["Qs"])
    act(g, 0, "attack", "Jc")
    act(g, 1, "show", "Qs")
    board = {lang: "\n".join(TEXT.board(Say(lang, lambda s: f"p{s}", 2), g.view(2))) for lang in ("ru", "en")}
    assert "под козырем карта рубашкой вверх" in board["ru"] and "a card face down" in board["en"]
    assert "поджопники: p0 2, p1 2, p2 2" in board["ru"] and "поджопники: p0 2, p1 2, p2 2" in board["en"]
    assert "проездной: Q♠" in board["ru"] and "ещё на руках: p1 Q♠" in board["ru"] and "still held: p1 Q♠" in board["en"]
    assert "Qh" not in board["ru"] + board["en"] and "Q♥" not in board["ru"] + board["en"]
    turned = TEXT.event(Say("ru", str), {"type": "trump_turned", "card": "Qh", "trump": "h"})
    assert turned == "колода кончилась: открыта Q♥, теперь козырь ♥"
    up = {"type": "reserve", "seat": 2, "count": 2, "cards": ["As", "Ks"]}
    assert TEXT.event(Say("ru", lambda s: f"p{s}", 2), up) == "вы берёте поджопники: A♠ K♠"
    assert TEXT.event(Say("en", lambda s: f"p{s}", 0), {**up, "cards": None}) == "p2 takes up 2 поджопники"
