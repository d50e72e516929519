"""Scenario tests of «дурак» (podkidnoy, perevodnoy): one test per ruling D1–D12, on deals
built from fixed deck orders, driven directly on the engine (apply / advance / on_mark /
on_timer) the way the table drives it; plus the table's T3 rollback over «бито» / «беру»,
random honest games, and impossible actions that change nothing."""

from __future__ import annotations

import pytest
from helpers import first_fast, pass_all, types

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.cards import CLUBS, SPADES, card_code, parse_card, parse_cards, suit_of
from pidor.cards import deck as full_deck
from pidor.engine.game import ImpossibleAction, InvalidAction, project
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import HonestReplayRequired, Table
from pidor.games.durak.engine import DurakGame, PerevodnoyGame, PodkidnoyGame

C = parse_card
GAMES = (PodkidnoyGame, PerevodnoyGame)


def make_deck(hands: list[str], draws: str = "", trump: str | None = None, size: int = 36) -> list[int]:
    """A deck order (top first) dealing ``hands`` (six cards per seat, one card at a time round
    the table from seat 0), then ``draws`` on top of the rest, the unnamed cards in a fixed
    order, and ``trump`` at the bottom. With 6 players and 36 cards the whole deck is dealt
    and the bottom card is the last card dealt (seat 5's sixth)."""
    hs = [parse_cards(h) for h in hands]
    n = len(hs)
    assert all(len(h) == 6 for h in hs)
    dealt = [hs[i % n][i // n] for i in range(6 * n)]
    top = parse_cards(draws)
    bottom = [] if trump is None else [C(trump)]
    named = dealt + top + bottom
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in full_deck(size) if c not in set(named)]
    order = dealt + top + rest + bottom
    assert sorted(order) == sorted(full_deck(size))
    return order


def new(cls: type[DurakGame], hands: list[str], draws: str = "", trump: str | None = None, *,
        size: int = 36, first: int = 0, hard: bool = False) -> DurakGame:
    opts = {"players": len(hands), "deck": size, "hard": hard}
    return cls.new(opts, deck=make_deck(hands, draws, trump, size), first=first)


def endgame(cls: type[DurakGame], hands: list[str], trump: str, attacker: int = 0, *,
            hard: bool = False) -> DurakGame:
    """A late game: the deck is gone (the trump card was drawn and played), the given hands
    are left and every other card is in the discard; ``attacker`` is about to lead."""
    n = len(hands)
    data = cls.new({"players": n, "hard": hard}, deck=full_deck(36), first=attacker).to_data()
    hs = [h.split() for h in hands]
    held = {C(c) for h in hs for c in h}
    assert C(trump) not in held
    defender = (attacker + 1) % n
    data.update(hands=hs, deck=[], trump_card=trump, defender=defender,
                discard=[card_code(c) for c in full_deck(36) if c not in held],
                limit=min(6, len(hs[defender])))
    return cls.from_data(data)


def act(g: DurakGame, seat: int, text: str, violations: list[str] | tuple = ()) -> list[dict]:
    """``act(g, 1, "cover Qh 2")``: apply and check the recorded violations."""
    kind, *args = text.split()
    action = (kind, *[C(a) if i == 0 else int(a) for i, a in enumerate(args)])
    events = g.apply(seat, action)
    assert events[0]["type"] == "action" and events[0]["seat"] == seat
    assert events[0]["_violations"] == list(violations), (text, events[0]["_violations"])
    return events


def play(g: DurakGame, script: str) -> list[dict]:
    """Steps ``"seat: action [!violations]"`` separated by ``;``, each checked by :func:`act`:
    ``play(g, "0: attack 6c; 1: cover 8h 0 !D4b")``."""
    events = []
    for step in script.split(";"):
        seat, _, rest = step.partition(":")
        text, _, bad = rest.partition("!")
        events += act(g, int(seat), text.strip(), bad.strip().split(",") if bad.strip() else ())
    return events


def refused(g: DurakGame, seat: int, action: tuple, error: type = ImpossibleAction) -> None:
    """T1: the action raises in check() and apply() and changes nothing."""
    before = g.to_data()
    with pytest.raises(error):
        g.check(seat, action)
    with pytest.raises(error):
        g.apply(seat, action)
    assert g.to_data() == before


def hand(g: DurakGame, seat: int) -> list[str]:
    return [card_code(c) for c in g.hands[seat]]


def table(g: DurakGame) -> list[list]:
    return g.view(None)["table"]


def check_zones(g: DurakGame) -> None:
    cards = [c for zone in g.zones().values() for c in zone]
    assert sorted(cards) == sorted(full_deck(g.deck_size))


# ---------------------------------------------------------------------------- D1


def test_D1_deck_deal_and_the_face_up_trump():
    assert PodkidnoyGame.options(None) == {"players": 4, "deck": 36, "hard": False, "teams": None, "no_limit": False,
                                           "two_trumps": False, "reserve": 0,
                                           "repeat_limit": 3, "quiet_limit": 100, "unit_limit": 5000}
    for bad in ({"deck": 40}, {"players": 7}, {"players": 1}, {"hard": "yes"}, {"colour": 1}):
        with pytest.raises(ValueError):
            PodkidnoyGame.options(bad)
    with pytest.raises(ValueError):
        PodkidnoyGame.new(None, deck=full_deck(36)[:-1])  # not a whole deck

    # Seeded shuffle; six each, one card at a time round the table from seat 0.
    order = shuffled(full_deck(36), b"d1")
    g = PodkidnoyGame.new(None, seed=b"d1")
    assert g.hands == [order[s:24:4] for s in range(4)]
    assert g.zones()["deck"] == order[24:]  # top first; the bottom card is the trump card
    assert g.trump_card == order[-1] and g.trump == suit_of(order[-1])
    view = g.view(2)
    assert view["trump_card"] == card_code(order[-1]) and view["trump"] == "cdhs"[g.trump]
    assert view["deck"] == 12 and view["hand"] == hand(g, 2) and view["hands"] == [6, 6, 6, 6]
    assert card_code(order[-1]) not in g.hidden_from(2)  # face up under the deck
    assert {card_code(c) for c in order[24:-1]} <= g.hidden_from(None)
    check_zones(g)

    # Spades may be trump; ordinary ranking: nothing special beats the ace.
    g = new(PodkidnoyGame, ["6c 7c 8c 9c Tc Jc", "6h 7h 8h 9h Th Jh"], trump="6s")
    assert g.trump == SPADES and g.view(0)["trump"] == "s"
    assert g.beats(C("6s"), C("Ah")) and g.beats(C("7s"), C("6s"))
    assert not g.beats(C("Kh"), C("Ah")) and not g.beats(C("6h"), C("Ah"))
    g = new(PodkidnoyGame, ["6c 7c 8c 9c Tc Jc", "6h 7h 8h 9h Th Jh"], trump="3c", size=52)
    assert g.trump == CLUBS
    assert not g.beats(C("2h"), C("Ah"))  # unlike «пидор» (P12), no low card beats the ace

    # 52 cards: six each is still dealt; the rest is the deck.
    g = PodkidnoyGame.new({"players": 6, "deck": 52}, seed=b"d1")
    assert [len(h) for h in g.hands] == [6] * 6 and len(g.deck) == 16
    assert g.trump_card == shuffled(full_deck(52), b"d1")[-1]

    # 6 players × 6 = the whole 36-card deck: the bottom card is dealt last (to seat 5), shown
    # as trump, and from then on is an ordinary card of seat 5's hand.
    order = shuffled(full_deck(36), b"six")
    g = PodkidnoyGame.new({"players": 6}, seed=b"six")
    assert not g.deck and g.trump_card == order[-1] == g.hands[5][-1]
    assert g.view(0)["trump"] == "cdhs"[suit_of(order[-1])] and g.view(0)["trump_card"] is None
    assert card_code(order[-1]) in g.hidden_from(0)
    check_zones(g)


# ---------------------------------------------------------------------------- D2


def test_D2_first_attacker_bottle_then_the_seat_before_the_durak():
    opts = {"players": 4}
    g = PodkidnoyGame.new(opts, seed=b"s", first=2)
    assert (g.attacker, g.defender, g.to_act()) == (2, 3, [2])
    durak = {"loser": 1, "draw": False, "order": [0, 2, 3]}
    g = PodkidnoyGame.new(opts, seed=b"s", previous=durak)
    assert (g.attacker, g.defender) == (0, 1)  # the seat before the durak attacks him
    g = PodkidnoyGame.new(opts, seed=b"s", previous={"loser": 0, "draw": False, "order": [1, 2, 3]})
    assert (g.attacker, g.defender) == (3, 0)
    # First game and after a draw: the bottle, from the seed's own stream (T10).
    draw = {"loser": None, "draw": True, "order": [0, 1, 2, 3]}
    for seed in (b"a", b"b", b"c"):
        bottle = Rng(seed, b"bottle").below(4)
        assert PodkidnoyGame.new(opts, seed=seed).attacker == bottle
        assert PerevodnoyGame.new(opts, seed=seed, previous=draw).attacker == bottle
    assert {PodkidnoyGame.new(opts, seed=bytes([i])).attacker for i in range(40)} == {0, 1, 2, 3}
    assert PodkidnoyGame.new(opts, deck=full_deck(36)).attacker == 0  # no seed: seat 0

    # At a table the next game starts under the durak of the previous one.
    t = Table({"game": "podkidnoy", "players": 3})
    t.start(seed=b"d2")
    first = t.game.attacker
    assert first == Rng(b"d2", b"bottle").below(3)
    play_game(t, [RandomBot(s, b"d2") for s in range(3)], Rng(b"d2", b"driver"))
    loser = t.game.result["loser"]
    assert loser is not None and t.mark == loser
    t.start(seed=b"d2 again")
    assert (t.game.attacker, t.game.defender) == ((loser - 1) % 3, loser)


# ---------------------------------------------------------------------------- D3

SIX = [  # 6 players, 36 cards: the deck is all dealt; the trump card is A♦ (seat 5's last)
    "6c 7c 8c 9c Tc Jc",
    "Qc Kc Ac Qh Kh Ah",
    "6h 7h 8h 9h Th 7d",
    "6s 7s 8s 9s Ts Js",
    "Qs Ks As 6d Jh 8d",
    "9d Td Jd Qd Kd Ad",
]


def test_D3_throw_ins_by_everyone_ranks_on_the_table_and_the_limit():
    g = new(PodkidnoyGame, SIX)
    assert g.trump_card == C("Ad") and (g.attacker, g.defender, g.limit) == (0, 1, 6)
    refused(g, 2, ("attack", C("6h")))  # only the attacker leads
    refused(g, 1, ("attack", C("Qc")))  # the defender never attacks
    play(g, "0: attack 6c; 2: attack 6h")  # thrown in at once, without waiting for the defender
    assert g.to_act() == [0, 1, 2, 3, 4, 5]
    refused(g, 1, ("attack", C("Qc")))  # the defender does not throw in
    play(g, "1: cover Qh 1; 1: cover Qc 0")
    assert g.check(4, ("attack", C("Qs"))) == ()  # a covering card's rank counts too
    assert g.check(3, ("attack", C("7s"))) == ("D3r",)
    for s in (0, 2, 3, 4):
        assert act(g, s, "bito")[-1]["type"] == "action"
    assert act(g, 5, "bito")[-1]["type"] == "bout_over"
    events = g.advance()
    assert events[-1] == {"type": "bout", "attacker": 1, "defender": 2, "limit": 5}

    # Seat 2 threw in a card, so he holds five: his bout takes at most five attacking cards.
    # The attacker throws in as well; the cover 7♦ puts the rank 7 on the table; 7♣ is the
    # fifth card: the limit.
    play(g, "1: attack Kc; 4: attack Ks; 5: attack Kd; 1: attack Kh; 2: cover 7d 0; 0: attack 7c")
    assert len(g.attack) == g.limit == 5
    assert g.check(3, ("attack", C("9s"))) == ("D3r", "D3n")
    act(g, 3, "attack 7s", ["D3n"])
    assert g.honest_actions(3) == [] and ("attack", C("7s")) not in g.honest_actions(0)


# ---------------------------------------------------------------------------- D4


def test_D4_covering_same_suit_higher_or_trump_in_any_order():
    g = new(PodkidnoyGame, ["9c 9d 9h Kc 7s 8s", "Tc 8c Qh 7h Td 6s",
                            "6c 7c Jc Qc Ac 6d", "Jd Qd Kd Ad Js Qs"], trump="Ah")
    assert g.rule_in_force(0) == "D2"  # the tutorial's rule for the bout's first card (T11)
    play(g, "0: attack 9c; 0: attack 9d; 0: attack 9h")
    assert g.check(1, ("cover", C("8c"), 0)) == ("D4b",)  # same suit, lower
    assert g.check(1, ("cover", C("6s"), 0)) == ("D4b",)  # another suit, not trump
    assert g.check(1, ("cover", C("Td"), 0)) == ("D4b",)  # higher, but another suit
    assert g.check(1, ("cover", C("7h"), 0)) == ()  # any trump on a non-trump
    assert g.check(1, ("cover", C("7h"), 2)) == ("D4b",)  # a trump only by a higher trump
    assert g.check(1, ("cover", C("Qh"), 2)) == ()
    assert g.rule_in_force(1) == "D4" and g.rule_in_force(0) == "D3"
    honest = g.honest_actions(1)
    assert ("cover", C("Tc"), 0) in honest and ("cover", C("8c"), 0) not in honest
    act(g, 1, "cover Td 1")  # any order
    refused(g, 1, ("cover", C("7h"), 1))  # already covered
    refused(g, 1, ("cover", C("Ac"), 0))  # a card he does not hold
    refused(g, 1, ("cover", C("Qh"), 3))  # no such attacking card
    refused(g, 2, ("cover", C("Jc"), 0))  # not the defender
    play(g, "1: cover Qh 2; 1: cover Tc 0")
    assert table(g) == [["9c", "Tc"], ["9d", "Td"], ["9h", "Qh"]]
    assert g.ended is None  # covered, but the bout waits for «бито» (D5)


# ---------------------------------------------------------------------------- D5

BITO = ["6c 6d Kc Ks 7s 8s", "7c 7h Ac Ad 9s Ts", "6h Jc Qc Jd Qd Js", "8c 9c Tc 8d 9d Td"]


def test_D5_bito_from_every_non_defender_reset_by_a_new_card_or_the_clock():
    g = new(PodkidnoyGame, BITO, trump="Ah")
    act(g, 0, "attack 6c")
    assert g.timer() is None  # a card is uncovered
    refused(g, 2, ("bito",))
    act(g, 1, "cover 7c 0")
    tok = g.timer()
    assert tok is not None and tok[0] == "bito_timeout"
    assert g.to_act() == [0, 1, 2, 3] and g.rule_in_force(2) == "D5"
    refused(g, 1, ("bito",))  # the defender covers or takes
    act(g, 0, "bito")
    refused(g, 0, ("bito",))  # said already
    assert g.view(3)["bito"] == [0]
    act(g, 2, "attack 6h")  # a new card resets everyone's «бито»
    assert g.view(3)["bito"] == [] and g.timer() is None
    act(g, 1, "cover 7h 1")
    assert g.timer() is not None and g.timer() != tok  # a new clock for the new card
    play(g, "0: bito; 2: bito")
    # Seat 3 holds no 6 or 7, yet the bout waits for him too.
    assert g.ended is None and g.honest_actions(3) == [("bito",)]
    assert g.on_timer("something else") == []
    events = g.on_timer("bito_timeout")  # silence counts as «бито»
    assert types(events) == ["bito_timeout", "bout_over"] and events[0]["seats"] == [3]
    assert events[1]["outcome"] == "bito" and events[1]["_reset_honest"] is True
    assert [card_code(c) for c in g.discard] == ["6c", "6h", "7c", "7h"]
    assert table(g) == [] and g.timer() is None and g.on_timer("bito_timeout") == []
    assert not g.is_callable(("bito",)) and not g.is_callable(("take",))
    assert g.is_callable(("attack", C("6c"))) and g.is_callable(("cover", C("7c"), 0))
    events = g.advance()
    assert events[-1] == {"type": "bout", "attacker": 1, "defender": 2, "limit": 6}

    # When the limit is reached «бито» is automatic. The defender holds 8: the limit is 6.
    g = endgame(PodkidnoyGame, ["6c 6d 6h 7c", "7s 8c 8d 8h 9s Ts Js Qs", "6s 7d 8s"], trump="As")
    assert g.limit == 6
    play(g, "0: attack 6c; 0: attack 6d; 2: attack 6s; 0: attack 6h; 1: cover 8c 0; 1: cover 8d 1; "
             "1: cover 7s 2; 1: cover 8h 3; 0: attack 7c; 2: attack 7d")
    assert g.check(2, ("attack", C("8s"))) == ("D3n",)  # a seventh card: over six
    act(g, 1, "cover 9s 4")
    events = act(g, 1, "cover Ts 5")
    assert types(events) == ["action", "bout_over"] and not any(g.bito)
    assert hand(g, 1) == ["Js", "Qs"]


# ---------------------------------------------------------------------------- D6


def test_D6_take_at_any_moment_everything_at_once_next_attacker_after_him():
    g = new(PodkidnoyGame, ["6c 9h Jc Qc Kc Ac", "7c 7d 8s 9s Ts Js", "6d 8h Jd Qd Kd Ad"],
            draws="Th Qh", trump="Ah")
    refused(g, 1, ("take",))  # nothing to take yet
    play(g, "0: attack 6c; 2: attack 6d; 1: cover 7c 0")
    refused(g, 0, ("take",))  # only the defender takes
    assert g.check(1, ("cover", C("7d"), 1)) == ()  # he could cover…
    events = act(g, 1, "take")  # …and takes anyway
    assert types(events) == ["action", "bout_over"]
    assert events[1]["outcome"] == "take" and events[1]["_reset_honest"] is True
    assert sorted(hand(g, 1)) == sorted(["7d", "8s", "9s", "Ts", "Js", "6c", "6d", "7c"])
    assert table(g) == [] and g.to_act() == []
    refused(g, 0, ("attack", C("9h")))  # no throwing in after «беру»
    events = g.advance()
    draws = [(e["seat"], e["count"]) for e in events if e["type"] == "draw"]
    assert draws == [(0, 1), (2, 1)]  # the taker holds 8: he draws nothing
    assert events[-1] == {"type": "bout", "attacker": 2, "defender": 0, "limit": 6}

    # The taker defends with eight cards: at most six attacking cards still (D3).
    assert hand(g, 0) == ["9h", "Jc", "Qc", "Kc", "Ac", "Th"]
    play(g, "2: attack Jd; 0: cover 9h 0; 1: bito; 2: bito")
    events = g.advance()
    assert events[-1]["type"] == "bout" and (g.attacker, g.defender) == (0, 1)
    assert len(g.hands[1]) == 8 and g.limit == 6


# ---------------------------------------------------------------------------- D7

RANKS = ["6c 7c 8c 9c Tc Jc", "6d 7d 8d 9d Td Jd", "6h 7h 8h 9h Th Jh", "6s 7s 8s 9s Ts Js"]


def test_D7_transfer_round_the_circle_while_nothing_is_covered():
    p = new(PodkidnoyGame, RANKS, trump="As")
    act(p, 0, "attack 6c")
    refused(p, 1, ("transfer", C("6d")))  # no transfers in podkidnoy

    g = new(PerevodnoyGame, RANKS, trump="As")
    act(g, 0, "attack 6c")
    assert g.rule_in_force(1) == "D7"
    assert g.check(1, ("transfer", C("7d"))) == ("D7r",)
    assert ("transfer", C("6d")) in g.honest_actions(1)
    refused(g, 2, ("transfer", C("6h")))  # not the defender
    events = act(g, 1, "transfer 6d")
    assert events[1] == {"type": "transfer", "defender": 2, "limit": 6}
    assert (g.attacker, g.defender) == (0, 2) and 1 in g.to_act()
    refused(g, 1, ("cover", C("7d"), 0))  # no longer the defender
    act(g, 2, "transfer 6h")  # and on round the circle
    assert g.defender == 3 and table(g) == [["6c", None], ["6d", None], ["6h", None]]
    act(g, 3, "cover 7s 0")
    assert g.check(3, ("transfer", C("6s"))) == ("D7c",)  # a card is covered now
    assert ("transfer", C("6s")) not in g.honest_actions(3) and g.rule_in_force(3) == "D4"

    # Honest only if the new defender holds as many cards as will be on the table; his
    # limit is his own hand size.
    g = endgame(PerevodnoyGame, ["6c 9d", "6d 8h 9h", "7c"], trump="Ah")
    act(g, 0, "attack 6c")
    assert g.check(1, ("transfer", C("6d"))) == ("D7n",)
    act(g, 1, "transfer 6d", ["D7n"])
    assert g.defender == 2 and g.limit == 1

    # Two players: the transfer goes back to the attacker, and back again.
    g = endgame(PerevodnoyGame, ["6c 6h 9d", "6d 8h"], trump="Ac")
    play(g, "0: attack 6c; 1: transfer 6d")
    assert (g.attacker, g.defender, g.limit) == (0, 0, 2)
    act(g, 0, "transfer 6h", ["D7n"])  # seat 1 holds one card, three would be on the table
    assert g.defender == 1


# ---------------------------------------------------------------------------- D8

DRAW4 = ["6c Qc Qd Qs Kc Kd", "7c 7d 7h Jc Jd Js", "6d 8c 8d 8s 9c 9d", "6s Tc Td Ts Ac Ad"]


def test_D8_drawing_after_the_window_lead_attacker_first_defender_last():
    g = new(PodkidnoyGame, DRAW4, draws="Ks 9s As 6h 8h 9h", trump="Ah")
    play(g, "0: attack 6c; 2: attack 6d; 3: attack 6s; 1: cover 7c 0; 1: cover 7d 1; 1: cover 7h 2; "
             "0: bito; 2: bito; 3: bito")
    # T8: nothing is drawn until the table calls advance() with no window open.
    assert g.ended == "bito" and len(g.deck) == 12 and [len(h) for h in g.hands] == [5, 3, 5, 5]
    assert g.rule_in_force(0) == "D8"
    events = g.advance()
    draws = [e for e in events if e["type"] == "draw"]
    assert [(e["seat"], e["count"]) for e in draws] == [(0, 1), (2, 1), (3, 1), (1, 3)]
    assert [e["_private"][e["seat"]]["cards"] for e in draws] == [["Ks"], ["9s"], ["As"], ["6h", "8h", "9h"]]
    assert "cards" not in project(draws[3], 0) and project(draws[3], 1)["cards"] == ["6h", "8h", "9h"]
    assert [len(h) for h in g.hands] == [6] * 4 and len(g.deck) == 6
    state = g.to_data()
    assert g.advance() == [] and g.to_data() == state  # idempotent

    # The trump card comes last; with a transfer the lead attacker still draws first.
    g = new(PerevodnoyGame, ["6c Jc Qc Kc Ac Jd", "6d 7d Qd Kd Jh Qh", "7c 9d 7h 8h 9h Th",
                             "8c 9c Tc 8d Td Kh", "6h Ad Ah 6s 7s 8s"], draws="9s Ts Js Qs Ks", trump="As")
    play(g, "0: attack 6c; 1: transfer 6d; 4: attack 6h; 2: cover 7c 0; 2: cover 9d 1; "
             "2: cover 7h 2; 0: bito; 1: bito; 3: bito; 4: bito")
    events = g.advance()
    draws = [(e["seat"], e["_private"][e["seat"]]["cards"]) for e in events if e["type"] == "draw"]
    assert draws == [(0, ["9s"]), (1, ["Ts"]), (4, ["Js"]), (2, ["Qs", "Ks", "As"])]
    assert not g.deck and g.hands[2][-1] == g.trump_card
    assert g.view(0)["trump"] == "s" and g.view(0)["trump_card"] is None
    assert "As" in g.hidden_from(0) and "As" not in g.hidden_from(2)
    check_zones(g)


# ---------------------------------------------------------------------------- D9


def test_D9_nobody_leaves_while_the_deck_has_cards():
    g = new(PodkidnoyGame, ["6c 6d 6h 7c 7d 7h", "7s 8c 8d 9c 9d Tc"], trump="As")
    play(g, "0: attack 6c; 0: attack 6d; 0: attack 6h; 1: cover 7s 0; "
             "0: attack 7c; 0: attack 7d; 0: attack 7h")
    assert g.hands[0] == [] and g.deck
    assert g.advance() == [] and g.in_game(0)  # no cards, but the deck is not empty
    act(g, 1, "take")
    events = g.advance()
    assert "out" not in types(events) and len(g.hands[0]) == 6 and g.in_game(0)


def test_D9_leaving_at_once_and_the_durak():
    g = endgame(PodkidnoyGame, ["6h", "7h 8c", "9s"], trump="Ac")
    act(g, 0, "attack 6h")  # his last card
    assert g.in_game(0)  # leaving waits for the window (T8)…
    assert g.advance() == [{"type": "out", "seat": 0, "place": 1}]  # …then happens at once
    assert not g.in_game(0) and 0 not in g.to_act()
    refused(g, 0, ("bito",))
    play(g, "1: cover 7h 0; 2: bito")
    assert g.advance()[-1] == {"type": "bout", "attacker": 1, "defender": 2, "limit": 1}
    act(g, 1, "attack 8c")
    assert g.advance() == [{"type": "out", "seat": 1, "place": 2}]
    assert g.result is None  # the bout goes on: seat 2 may still get rid of his cards
    assert g.check(2, ("cover", C("9s"), 0)) == ("D4b",)
    act(g, 2, "take")
    events = g.advance()
    result = {"loser": 2, "draw": False, "order": [0, 1], "pogony": False}
    assert events == [{"type": "game_over", "result": result}]
    assert g.result == result and g.over and g.to_act() == [] and g.rule_in_force(2) == "D9"
    refused(g, 2, ("attack", C("9s")))


def test_D9_the_defender_covers_with_his_last_card_and_leaves():
    g = endgame(PodkidnoyGame, ["6h 9d", "7h", "Td Jd"], trump="Ac")
    act(g, 0, "attack 6h")
    events = act(g, 1, "cover 7h 0")  # seat 2 has said nothing: the bout ends as «бито»
    assert types(events) == ["action", "bout_over"] and events[1]["outcome"] == "bito"
    events = g.advance()
    assert events[0] == {"type": "out", "seat": 1, "place": 1}
    assert events[-1] == {"type": "bout", "attacker": 2, "defender": 0, "limit": 1}

    # Below his limit because he paid a card for the mark (D12): he leaves, the bout ends.
    g = endgame(PodkidnoyGame, ["6h 9d", "7h Qs", "Td Jd"], trump="Ac")
    act(g, 0, "attack 6h")
    g.on_mark(0)
    events = play(g, "1: give Qs; 1: cover 7h 0")
    assert "bout_over" not in types(events) and g.limit == 2
    events = g.advance()
    assert types(events) == ["out", "bout_over", "bout"] and events[1]["outcome"] == "bito"
    assert (g.attacker, g.defender) == (2, 0) and [card_code(c) for c in g.discard][-2:] == ["6h", "7h"]


def test_D9_everyone_out_at_once_is_a_draw():
    g = endgame(PodkidnoyGame, ["6h", "7h"], trump="Ac")
    act(g, 0, "attack 6h")
    assert types(g.advance()) == ["out"] and g.result is None
    assert g.to_act() == [1]
    act(g, 1, "cover 7h 0")
    events = g.advance()
    result = {"loser": None, "draw": True, "order": [0, 1], "pogony": False}
    assert events == [{"type": "out", "seat": 1, "place": 2}, {"type": "game_over", "result": result}]
    assert g.result == result


# ---------------------------------------------------------------------------- D10


def test_D10_every_cheat_is_accepted_recorded_and_shown_to_nobody():
    g = new(PerevodnoyGame, RANKS, trump="As")
    log = play(g, "0: attack 6c; 1: transfer 7d !D7r; 3: attack Js !D3r; 2: cover 8h 0 !D4b; "
                  "2: transfer 7h !D7r,D7c")
    assert g.defender == 3 and g.limit == 5
    log += play(g, "0: attack 7c; 1: attack Jd !D3n; 3: transfer 7s !D7r,D7c,D7n")
    assert g.defender == 0 and len(g.attack) == 7
    for e in log:
        for seat in (None, 0, 1, 2, 3):
            assert "_violations" not in project(e, seat)
    check_zones(g)


def test_D10_impossible_actions_raise_and_change_nothing():
    g = new(PodkidnoyGame, RANKS, trump="As")
    refused(g, 0, ("cover", C("6c"), 0))  # not the defender, nothing to cover
    refused(g, 0, ("attack", C("6d")))  # a card he does not hold
    refused(g, 0, ("give", C("6c")))  # he owes nothing
    refused(g, 0, ("bito",))  # nothing on the table
    refused(g, 0, ("attack", 99), InvalidAction)  # no such card
    refused(g, 0, ("jump",), InvalidAction)
    refused(g, 0, ("attack", "6c"), InvalidAction)
    refused(g, 0, ("attack",), InvalidAction)
    refused(g, 0, ["attack", C("6c")], InvalidAction)
    refused(g, 7, ("attack", C("6c")), InvalidAction)
    act(g, 0, "attack 6c")
    refused(g, 1, ("bito",))  # the defender never says «бито»
    refused(g, 2, ("take",))  # only the defender takes
    refused(g, 1, ("transfer", C("6d")))  # podkidnoy
    refused(g, 1, ("cover", C("7d"), -1))
    assert g.actions(2) == [("attack", c) for c in g.hands[2]]
    assert len(g.actions(1)) == 6 + 1 and g.actions(1)[-1] == ("take",)


# ---------------------------------------------------------------------------- D11


def test_D11_undo_puts_the_card_back_and_the_bout_end_clears_honest_replay():
    g = new(PodkidnoyGame, BITO, trump="Ah")
    act(g, 0, "attack 6c")
    snap = g.snapshot()
    before = g.to_data()
    act(g, 2, "attack Jc", ["D3r"])
    g.restore(snap)  # the table's undo after a guilty verdict
    assert g.to_data() == before and "Jc" in hand(g, 2)
    act(g, 2, "attack Jc", ["D3r"])
    g.restore(snap)
    assert g.to_data() == before  # a snapshot restores any number of times

    # Through the table: convicted, he owes an honest action until the bout ends.
    t = Table({"game": "podkidnoy", "players": 4})
    t.start(deck=make_deck(BITO, trump="Ah"), first=0)
    t.act(0, ("attack", C("6c")))
    pass_all(t)
    t.act(2, ("attack", C("Jc")))
    t.answer(1, call=True)
    t.vote(0, True)
    events = t.vote(3, True)
    assert "undo" in types(events) and t.mark == 2 and t.honest_only == {2}
    assert "Jc" in hand(t.game, 2) and table(t.game) == [["6c", None]]
    assert t.to_act() == [3]  # D12: seat 3 pays him first
    t.act(3, ("give", C("8c")))
    with pytest.raises(HonestReplayRequired):
        t.act(2, ("attack", C("Jc")))
    t.act(1, ("cover", C("7c"), 0))  # he may also simply not act again
    pass_all(t)
    events = t.act(1, ("take",))
    assert "bout_over" in types(events) and t.honest_only == set()
    assert {"type": "honest_only", "seats": []} in events  # said in public, not folklore (minor 1)
    t.act(2, ("attack", C("Jc")))  # a new bout: seat 2 leads, any card is honest
    assert t.window.violations == []


# ---------------------------------------------------------------------------- D12


def test_D12_the_next_player_pays_one_card():
    g = new(PodkidnoyGame, RANKS, trump="As")
    act(g, 0, "attack 6c")
    assert g.on_mark(2) == [{"type": "payment_due", "to": 2, "from": [3]}]
    assert g.to_act() == [3] and g.rule_in_force(3) == "D12" and g.timer() is None
    assert g.view(0)["payments"] == [{"from": 3, "to": 2}] and g.view(0)["phase"] == "pay"
    refused(g, 1, ("cover", C("7d"), 0))  # the bout waits for the payment
    refused(g, 2, ("give", C("6h")))  # not his to give
    refused(g, 3, ("attack", C("6s")))  # he pays first
    assert g.honest_actions(3) == [("give", c) for c in g.hands[3]]
    assert g.advance() == []
    events = act(g, 3, "give 9s")
    assert not g.is_callable(("give", C("9s")))
    assert [project(e, 0) for e in events] == [
        {"type": "action", "seat": 3, "action": {"type": "give"}},
        {"type": "give", "from": 3, "to": 2}]
    assert project(events[1], 2)["card"] == "9s" and project(events[0], 2)["action"]["card"] == "9s"
    assert "card" not in project(events[1], 3)  # in another hand now: hidden from the giver too
    assert "9s" in hand(g, 2) and "9s" not in hand(g, 3) and len(g.hands[2]) == 7
    assert g.to_act() == [0, 1, 2, 3] and g.payments == []


def test_D12_hard_mode_everyone_pays_and_givers_without_cards_are_skipped():
    g = new(PodkidnoyGame, RANKS, trump="As", hard=True)
    assert g.on_mark(2) == [{"type": "payment_due", "to": 2, "from": [3, 0, 1]}]
    for giver, card in ((3, "6s"), (0, "9c"), (1, "Td")):
        assert g.to_act() == [giver]
        act(g, giver, f"give {card}")
    assert len(g.hands[2]) == 9 and g.to_act() == [0]

    # Seat 0 led his last card; until the window closes he is in the game with no cards.
    for hard, givers in ((False, []), (True, [1])):
        g = endgame(PodkidnoyGame, ["6c", "7c 8c", "9c Tc"], trump="Ah", hard=hard)
        act(g, 0, "attack 6c")
        due = g.on_mark(2)
        assert (due[0]["from"] if due else []) == givers
    assert g.advance() == [] and g.to_act() == [1]  # the payment first
    act(g, 1, "give 8c")
    assert g.advance() == [{"type": "out", "seat": 0, "place": 1}]
    assert g.on_mark(2)[0]["from"] == [1]  # the next player *in the game*


# ---------------------------------------------------------------------------- T3 at a durak table


def test_T3_bito_and_take_do_not_close_the_window_of_the_card_before_them():
    t = Table({"game": "podkidnoy", "players": 4})
    t.start(deck=make_deck(BITO, trump="Ah"), first=0)
    t.act(0, ("attack", C("6c")))
    pass_all(t)
    t.act(1, ("cover", C("Ac"), 0))
    pass_all(t)
    t.act(2, ("attack", C("6h")))
    pass_all(t)
    before = state_but_payments(t.game)
    t.act(1, ("cover", C("9s"), 1))  # 9♠ does not beat 6♥ (trump): D4b, window open
    for s in (0, 2, 3):
        t.act(s, ("bito",))  # accepted while the window is open
    assert t.game.ended == "bito" and t.window is not None
    t.answer(3, call=True)
    t.vote(0, True)
    events = t.vote(2, True)
    assert "undo" in types(events)
    assert state_but_payments(t.game) == before and t.game.ended is None and not any(t.game.bito)
    assert table(t.game) == [["6c", "Ac"], ["6h", None]] and t.mark == 1
    assert t.game.payments == [[2, 1]]  # D12: seat 2 pays seat 1 for the mark

    # «Беру» during the window of a dishonest throw-in is rolled back with it.
    t.act(2, ("give", C("Jc")))
    before = state_but_payments(t.game)
    t.act(0, ("attack", C("Kc")), now=1.0)  # D3r
    t.act(1, ("take",), now=1.1)
    assert t.game.ended == "take" and "Kc" in hand(t.game, 1)
    t.answer(2, call=True, now=1.2)
    t.vote(1, True)
    t.vote(3, True)
    assert state_but_payments(t.game) == before and "Kc" in hand(t.game, 0) and t.mark == 0


def state_but_payments(g: DurakGame) -> dict:
    return {k: v for k, v in g.to_data().items() if k != "payments"}


# ---------------------------------------------------------------------------- random games


@first_fast
@pytest.mark.parametrize("cls", GAMES)
def test_random_honest_games_end_with_a_result_and_keep_every_card(cls):
    for i in range(50):
        rng = Rng(b"smoke %d" % i, cls.name)
        players = 2 + rng.below(5)
        g = cls.new({"players": players, "deck": (36, 52)[rng.below(2)]}, seed=b"game %d" % i)
        for step in range(3000):
            g.advance()
            if g.over:
                break
            seats = [s for s in g.to_act() if g.honest_actions(s)]
            if not seats:
                assert g.timer() is not None
                g.on_timer("bito_timeout")
                continue
            s = rng.choice(seats)
            action = rng.choice(g.honest_actions(s))
            assert g.apply(s, action)[0]["_violations"] == []
            check_zones(g)
            if step % 17 == 0:
                assert cls.from_data(g.to_data()).to_data() == g.to_data()
        else:
            pytest.fail("the game did not end")
        r = g.result
        assert r["draw"] == (r["loser"] is None)
        assert sorted(r["order"] + ([r["loser"]] if r["loser"] is not None else [])) == list(range(players))
        assert [bool(h) for h in g.hands] == [s == r["loser"] for s in range(players)]


@pytest.mark.parametrize("game", ["podkidnoy", "perevodnoy"])
def test_D3_the_first_bout_is_announced_like_every_other(game):
    """Issue 8 (protocol gaps): a client learns who attacks and defends the first bout
    from a ``bout`` event, as for every later bout, not only from a snapshot."""
    t = Table({"game": game, "players": 3})
    events = t.start(seed=b"first bout")
    assert types(events)[:2] == ["game_start", "bout"]
    g = t.game
    assert events[1] == {"type": "bout", "attacker": g.attacker, "defender": g.defender, "limit": g.limit}
