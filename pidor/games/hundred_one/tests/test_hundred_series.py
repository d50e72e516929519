"""«Сто одно» as a series of deals (T15): the whole series to a loser over 101, a score of
exactly 101 going back to 0 (H8, H9); every deal's shuffle from the committed key; one log
and one result; the mark carried from deal to deal; payments for the mark (T14); a deal
that goes round in circles is void (T13a)."""

from __future__ import annotations

from hundred_scenarios import C, act, action, deal_order, hand, kinds, new, play

from pidor.autoplay import play_game
from pidor.bots import make_policy
from pidor.cards import card_code, parse_cards
from pidor.cards import deck as full_deck
from pidor.engine.seeds import shuffled
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import replay_lines
from pidor.gamelog.verify import verify
from pidor.games.hundred_one.engine import HundredOneGame
from pidor.match import run_match


def _two_player_deal(out: str, blind: str, dealer_cards: str, draws: str) -> list[int]:
    """A two-player deck (top first): the non-dealer gets ``out`` (four cards he lays one a
    turn), the dealer ``dealer_cards`` and ``blind`` face up, then the dealer's ``draws``."""
    n_cards, d_cards = parse_cards(out), parse_cards(dealer_cards)
    dealt = [c for pair in zip(n_cards, d_cards + [C(blind)]) for c in pair]
    named = dealt + parse_cards(draws)
    return named + [c for c in full_deck(36) if c not in set(named)]


class Scripted(HundredOneGame):
    """The engine with each later deal's deck given (the test's, not the key's)."""

    orders: dict[int, list[int]] = {}

    def _next_order(self) -> list[int]:
        return self.orders[self.number + 1]


def test_T15_H8_H9_a_whole_series_to_a_loser_over_101_with_a_score_of_exactly_101_back_to_0():
    """Four deals of two players; each the non-dealer goes out in four turns while the dealer
    draws a card a turn and passes: the dealer adds 50, 60, 51, 50. Seat 1 reaches exactly
    101 at the third deal: 0 (H8); seat 0 goes over 101 at the fourth: he loses (H9)."""
    chain, blind = "9h Th Jh Kh", "9c"  # 9h on 9c by rank, then hearts: nothing special (H4)
    worth = {50: ("Ac Ad As", "7d 8d Jd"), 60: ("Ac Ad As", "Ah 8c 8d"), 51: ("Ac Ad As", "Tc 6c Jc")}
    orders = [_two_player_deal(chain, blind, *worth[p]) for p in (50, 60, 51, 50)]
    Scripted.orders = {2: orders[1], 3: orders[2], 4: orders[3]}
    g = Scripted.new({"players": 2}, deck=orders[0], first=0)  # (seat 0 covers first: seat 1 deals)
    for number, adds in enumerate((50, 60, 51, 50), start=1):
        d = g.dealer
        assert (g.number, d) == (number, (number % 2))  # the deal passes clockwise (H2)
        out = 1 - d
        for card in chain.split():
            act(g, out, f"cover {card}")
            if g.hands[out]:
                play(g, f"{d}: draw; {d}: skip")
        assert g.history[-1]["points"] == [adds if s == d else 0 for s in range(2)]
        if number < 4:
            act(g, g.turn, "deal")
    assert [h["scores"] for h in g.history] == [[0, 50], [60, 50], [60, 0], [110, 0]]  # 50 + 51 = 101: 0
    assert g.result == {"loser": 0, "draw": False, "order": [1], "scores": [110, 0], "deals": g.history}


def test_T15_every_deal_is_shuffled_from_the_committed_key_and_its_number():
    key = b"series"
    t = Table({"game": "hundred_one", "players": 3})
    events = t.start(seed=key)
    play_game(t, [make_policy("builtin:greedy", s, b"g") for s in range(3)], Rng(key, b"driver"),
              on_events=events.extend)
    deals = [e for e in events if e["type"] == "deal"]
    assert len(deals) >= 2 and [d["number"] for d in deals] == list(range(1, len(deals) + 1))
    for d in deals:
        order = shuffled(full_deck(36), key, b"deck" if d["number"] == 1 else b"deal %d" % d["number"])
        dealer, n = d["dealer"], 3
        for s in range(n):
            own = [order[i] for i in range(4 * n - 1) if (dealer + 1 + i) % n == s]
            assert d["_private"][s]["cards"] == [card_code(c) for c in own]
        assert d["card"] == card_code(order[4 * n - 1])
    assert t.game.result["deals"] == t.game.history and len(t.game.result["deals"]) == len(deals)


def test_T15_one_log_one_commitment_one_result_and_the_replay_says_each_deals_scores(tmp_path):
    r = run_match("hundred_one", 3, 1, seed="one log", specs=["builtin:random:cheat=0.2,attention=0.5"] * 3,
                  logs=tmp_path)
    (path,) = r.logs
    log = read_log(path)
    report = verify(log)
    assert report.ok and report.deal == "committed"
    result = log.footer["result"]
    assert len(result["deals"]) >= 2 and len(result["scores"]) == 3 and r.records[0]["scores"] == result["scores"]
    lines = list(replay_lines(log, lang="ru"))
    done = [d for d in result["deals"] if "void" not in d]
    said = [line for line in lines if "окончена, вышел" in line]
    assert len(said) == len(done)
    assert all(" · ".join(str(s) for s in d["scores"]) in line for d, line in zip(done, said))


def _goes_out(t: Table, seat: int, card: str, top: str) -> None:
    """``seat`` lays his last card ``card`` on ``top`` and the window closes (H8)."""
    g = t.game
    g.hands[seat], g.table, g.turn = [C(card)], [C(top)], seat
    g.suit, g.naming, g.six, g.penalty, g.last = None, False, False, None, None
    t.act(seat, action(f"cover {card}"))
    t.passes(t.waiting_answers())


def test_T15_the_mark_carries_over_and_the_one_who_goes_out_sheds_it():
    t = Table({"game": "hundred_one", "players": 3})
    t.start(deck=deal_order(["9h Th Jh Kh", "7d 8d 9d Td", "Jc Jd Js"], "9c", dealer=2), first=0)
    t.act(0, action("cover 9h"))
    t.answer(1, call=True)  # an honest action called: the caller gets the mark (T5)
    t.act(2, action("give Jc"))  # (T14)
    assert t.mark == 1
    _goes_out(t, 0, "Th", "9h")
    assert t.game.dealing and t.mark == 1  # the deal is over; the mark stays where it is
    t.act(t.game.turn, action("deal"))
    assert t.game.number == 2 and t.mark == 1  # and carries over to the next deal (T15)
    _goes_out(t, 1, "9s", "Ts")
    assert t.game.number == 2 and t.game.dealing and t.mark is None  # the one who went out shed it (T7)


def test_T14_a_mark_is_paid_by_the_first_player_after_holding_two_or_more_hard_by_each():
    for hard, givers in ((False, [2]), (True, [2, 0])):
        t = Table({"game": "hundred_one", "players": 3, "hard": hard})
        t.start(deck=deal_order(["9h Th Jh Kh", "7d 8d 9d Td", "Jc Jd Js"], "9c", dealer=2), first=0)
        events = t.act(0, action("cover 9h"))
        events += t.answer(1, call=True)
        due = next(e for e in events if e["type"] == "payment_due")
        assert due == {"type": "payment_due", "to": 1, "from": givers}
        for giver in givers:
            assert t.to_act() == [giver] and t.game.rule_in_force(giver) == "T14"
            t.act(giver, ("give", t.game.hands[giver][0]))
        assert len(t.game.hands[1]) == 4 + len(givers) and t.to_act() == [1]


def test_T13a_a_deal_that_goes_round_in_circles_is_void_three_in_a_row_a_draw():
    g = new(["9h Th Jh Kh", "7d 8d 9d"], blind="9c", dealer=1, quiet_limit=30)
    for number in (1, 2, 3):
        g.units.quiet = 29  # (29 turns in a row without a card played)
        g.naming = g.six = False  # (whatever the face-up card asked)
        g.penalty = None
        events = play(g, f"{g.turn}: draw; {g.turn}: skip")
        void = next(e for e in events if e["type"] == "void")
        assert void == {"type": "void", "number": number, "reason": "quiet", "voids": number}
        assert g.scores == [0, 0] and g.history[-1] == {"number": number, "void": "quiet"}
        if number < 3:
            assert g.dealing and g.result is None
            act(g, g.turn, "deal")
    assert g.result == {"loser": None, "draw": True, "order": [], "stalled": "quiet", "scores": [0, 0],
                        "deals": g.history}
