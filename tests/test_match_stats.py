"""pidor/match/stats.py: the statistics match hand-computed values (issue 9 item 4).

Hand computations are written out beside each expected number. The SPRT is checked against
the log-likelihood ratios of fastchess's own test suite (tests of its SPRT, logistic model)
and against the closed form of a binomial SPRT."""

from __future__ import annotations

import json
import math

import pytest

from pidor.games import GAME_IDS, spec
from openskill.models import PlackettLuce

from pidor.match.stats import (Sprt, SprtTest, elo_to_score, llr, pair_summary, parse_sprt, places, sprt_status,
                               summarize, summary_table, wilson)


def rec(seating, order, loser, *, draw=False, cheats=None, convicted=None, false_calls=None,
        forfeits=(), deal=0, actions=10):
    n = len(seating)
    return {"index": 0, "deal": deal, "seating": list(seating), "order": list(order), "loser": loser,
            "draw": draw, "cheats": cheats or [0] * n, "convicted": convicted or [0] * n,
            "false_calls": false_calls or [0] * n, "forfeits": list(forfeits), "actions": actions}


# --- Wilson ---------------------------------------------------------------------------------

def test_wilson_hand_computed():
    z = 1.959963984540054
    # 0 of 10: centre z²/20, half z·√(z²/400) = z²/20, so lo = 0 and hi = (z²/10) / (1 + z²/10)
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx((z * z / 10) / (1 + z * z / 10))
    assert hi == pytest.approx(0.27753, abs=1e-5)
    # 2 of 100 (a published example: 0.0055 – 0.0700)
    lo, hi = wilson(2, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.0055, 0.0700)
    # 5 of 5 mirrors 0 of 5
    assert wilson(5, 5)[0] == pytest.approx(1 - wilson(0, 5)[1])
    assert wilson(0, 0) is None


# --- places ---------------------------------------------------------------------------------

def test_places_loser_last_and_draw_shares_the_places_left():
    assert places(rec("abcd", [2, 0, 1], 3)) == [2.0, 3.0, 1.0, 4.0]
    # P16a draw: seat 1 went out first; seats 0, 2, 3 share places 2, 3, 4 -> 3 each
    assert places(rec("abcd", [1], None, draw=True)) == [3.0, 1.0, 3.0, 3.0]
    # a draw with nobody out: 1.5 each of two
    assert places(rec("ab", [], None, draw=True)) == [1.5, 1.5]


# --- per entrant ----------------------------------------------------------------------------

GAMES = [
    # X first out, Y second, Z third, W the loser
    rec("XYZW", [0, 1, 2], 3, cheats=[1, 0, 2, 0], convicted=[0, 0, 1, 0], false_calls=[0, 1, 0, 0]),
    # Z, W, X out; Y the loser; W forfeited (a stand-in played on)
    rec("XYZW", [2, 3, 0], 1, cheats=[0, 3, 0, 0], forfeits=[{"seat": 3, "reason": "crashed"}]),
    # draw: Y out first, the others share places 2..4 (3 each)
    rec("XYZW", [1], None, draw=True, false_calls=[0, 0, 0, 2]),
]


def test_per_entrant_counts_hand_computed():
    s = summarize(GAMES)
    assert (s["games"], s["draws"], s["actions"]) == (3, 1, 30)
    e = {r["name"]: r for r in s["entrants"]}
    assert set(e) == set("XYZW")
    x, y, z, w = e["X"], e["Y"], e["Z"], e["W"]
    assert [r["games"] for r in (x, y, z, w)] == [3, 3, 3, 3]
    assert [r["losses"] for r in (x, y, z, w)] == [0, 1, 0, 1]
    assert [r["draws"] for r in (x, y, z, w)] == [1, 1, 1, 1]
    # places: X 1, 3, 3 -> 7/3; Y 2, 4, 1 -> 7/3; Z 3, 1, 3 -> 7/3; W 4, 2, 3 -> 3
    assert [r["mean_place"] for r in (x, y, z, w)] == [2.3333, 2.3333, 2.3333, 3.0]
    assert [r["cheats"] for r in (x, y, z, w)] == [1, 3, 2, 0]
    assert [r["convicted"] for r in (x, y, z, w)] == [0, 0, 1, 0]
    assert [r["false_calls"] for r in (x, y, z, w)] == [0, 1, 0, 2]
    assert [r["forfeits"] for r in (x, y, z, w)] == [0, 0, 0, 1]
    # loss rate 1/3 and its Wilson interval
    lo, hi = wilson(1, 3)
    assert y["loss_rate"] == 0.3333 and y["loss_rate_95"] == [round(lo, 4), round(hi, 4)]
    assert x["loss_rate"] == 0.0 and x["loss_rate_95"] == [0.0, round(wilson(0, 3)[1], 4)]


def test_rating_is_openskill_plackett_luce_over_the_finishing_order():
    """Each entrant in one seat: the ratings equal openskill's own, game by game."""
    model = PlackettLuce()
    ratings = {name: model.rating() for name in "XYZW"}
    for g in GAMES:
        teams = [[ratings[name]] for name in g["seating"]]
        new = model.rate(teams, ranks=places(g))
        for name, [r] in zip(g["seating"], new):
            ratings[name] = r
    s = summarize(GAMES, rank_by="rating")
    for e in s["entrants"]:
        r = ratings[e["name"]]
        assert (e["mu"], e["sigma"]) == (round(r.mu, 4), round(r.sigma, 4))
        assert e["rating"] == round(r.mu - 3 * r.sigma, 4)
    # ranked by rating, best first: X (1st, 3rd, 3rd) is above W (4th, 2nd, 3rd)
    names = [e["name"] for e in s["entrants"]]
    assert names.index("X") < names.index("W")
    ratings_ = [e["rating"] for e in s["entrants"]]
    assert ratings_ == sorted(ratings_, reverse=True)


def test_an_entrant_in_two_seats_adds_both_updates():
    """A holds seats 0 and 2, B seats 1 and 3; places 1, 2, 3, 4: A's mu moves by the
    updates of first and third place, B's by second and last (openskill's numbers)."""
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 2.0, 3.0, 4.0])
    mu = [t[0].mu for t in new]
    var0 = model.sigma ** 2 + model.tau ** 2
    s = summarize([rec("ABAB", [0, 1, 2], 3)])
    e = {r["name"]: r for r in s["entrants"]}
    assert e["A"]["mu"] == round(25 + (mu[0] - 25) + (mu[2] - 25), 4)
    assert e["B"]["mu"] == round(25 + (mu[1] - 25) + (mu[3] - 25), 4)
    sigma_a = math.sqrt(var0 * (new[0][0].sigma ** 2 / var0) * (new[2][0].sigma ** 2 / var0))
    assert e["A"]["sigma"] == round(sigma_a, 4)
    assert e["A"]["mu"] > 25 > e["B"]["mu"]
    assert e["A"]["games"] == 2 and e["B"]["losses"] == 1 and e["B"]["games"] == 2


def test_summary_is_deterministic_and_ties_sort_by_name():
    same = [rec("ba", [1], 0), rec("ab", [1], 0)]  # each loses once from the same rating path
    a = json.dumps(summarize(same), sort_keys=False)
    assert a == json.dumps(summarize([dict(r) for r in same]))
    ents = summarize([rec("ab", [], None, draw=True)])["entrants"]
    assert [e["name"] for e in ents] == ["a", "b"]  # equal ratings: by name
    assert ents[0]["rating"] == ents[1]["rating"]


# --- two entrants ---------------------------------------------------------------------------

def test_pair_hand_computed():
    games = ([rec("AB", [0], 1)] * 5          # B lost: A scores 1
             + [rec("BA", [0], 1)] * 1        # A lost: 0
             + [rec("ABC", [0, 1], 2)] * 2    # a third party lost: 1/2
             + [rec("CD", [0], 1)])           # A and B not both seated: not counted
    p = pair_summary(games, "A", "B")
    assert (p["games"], p["wins"], p["draws"], p["losses"]) == (8, 5, 2, 1)
    assert p["score"] == 0.75  # (5 + 2/2) / 8
    assert p["elo"] == round(400 * math.log10(3), 4)  # 0.75 = 1 / (1 + 10^(-elo/400))
    # LOS = Φ((5 - 1) / √6) = ½(1 + erf(4 / √12))
    assert p["los"] == round(0.5 * (1 + math.erf(4 / math.sqrt(12))), 4)
    lo, hi = p["elo_95"]
    assert lo < p["elo"] < hi
    # per game variance: (5·0.25² + 2·0.25² + 1·0.75²) / 8 = 0.125, se = √(0.125/8) = 0.125
    assert hi == round(-400 * math.log10(1 / (0.75 + 1.959963984540054 * 0.125) - 1), 4)
    # summarize adds it for exactly two entrants, A first by name
    s = summarize(games[:6])
    assert s["pair"]["a"] == "A" and s["pair"]["wins"] == 5
    assert "A vs B in 6 games: B lost 5, A lost 1, neither 0" in summary_table(s)


# --- SPRT -----------------------------------------------------------------------------------

@pytest.mark.parametrize("counts, elo0, elo1, expected", [
    # fastchess tests/sprt: "logistic trinomial 1/2" (wins, losses, draws) -> our (L, D, W)
    ([21184, 40708, 21404], 0.5, 2.5, -1.57),
    ([57030, 106593, 57433], 0.0, 2.0, -2.59),
    # "logistic pentanomial 1/2" (LL, LD, WL, DD, WD, WW) -> (LL, LD, WL+DD, WD, WW)
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
])
def test_llr_matches_fastchess(counts, elo0, elo1, expected):
    assert llr(counts, elo0, elo1) == pytest.approx(expected, rel=0.01)


def test_llr_without_draws_is_the_binomial_sprt():
    s0, s1 = elo_to_score(0), elo_to_score(100)
    closed = 30 * math.log(s1 / s0) + 10 * math.log((1 - s1) / (1 - s0))
    assert llr([10, 0, 30], 0, 100) == pytest.approx(closed, abs=0.01)


def test_sprt_bounds_and_decisions_on_known_sequences():
    sprt = parse_sprt("elo0=0,elo1=100,alpha=0.05,beta=0.05")
    assert sprt.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    win, lose, third = rec("AB", [0], 1), rec("AB", [1], 0), rec("ABC", [0, 1], 2)
    # A never loses: each game adds log(s1/s0) = log(0.6401/0.5) ≈ 0.247; 2.944/0.247 -> 12 games
    seq = [win] * 20
    steps = [sprt_status(seq[:k], sprt, "A", "B")["decision"] for k in range(1, 21)]
    first_h1 = steps.index("H1") + 1
    assert steps[:first_h1 - 1] == ["continue"] * (first_h1 - 1)
    assert first_h1 == math.ceil(sprt.bounds[1] / math.log(elo_to_score(100) / 0.5))
    # A always loses: H0, and sooner (log((1-s1)/(1-s0)) ≈ -0.327 per game)
    assert sprt_status([lose] * 9, sprt, "A", "B")["decision"] == "H0"
    assert sprt_status([lose] * 8, sprt, "A", "B")["decision"] == "continue"
    # games where a third seat lost are draws for A vs B
    st = sprt_status([win, third, lose], sprt, "A", "B")
    assert st["counts"] == [1, 1, 1] and st["outcomes"] == 3 and st["decision"] == "continue"
    assert st["llr"] == round(llr([1, 1, 1], 0, 100), 4)


def test_sprt_pentanomial_counts_only_whole_deals():
    """per_deal=2: the two games of a deal make one outcome, their mean score."""
    def pair(deal, first, second):
        return [dict(first, deal=deal), dict(second, deal=deal)]
    win, lose, third = rec("AB", [0], 1), rec("BA", [0], 1), rec("ABC", [0, 1], 2)  # lose: A in seat 1
    records = pair(1, win, win) + pair(2, win, lose) + pair(3, third, win) + [dict(lose, deal=4)]
    st = sprt_status(records, Sprt(0, 10), "A", "B", per_deal=2)
    # WW -> bucket 4, WL -> 2, DW -> 3; deal 4 is incomplete
    assert st["counts"] == [0, 0, 1, 1, 1] and st["outcomes"] == 3


def test_fastchess_pentanomial_through_records():
    """fastchess's "logistic pentanomial 1" as deals of two games: H0 accepted (-3.07 < -2.94)."""
    win, lose, third = rec("AB", [0], 1), rec("AB", [1], 0), rec("ABC", [0, 1], 2)
    kinds = [((lose, lose), 223), ((lose, third), 9863), ((win, lose), 20279), ((third, third), 1000),
             ((win, third), 10037), ((win, win), 246)]
    records, deal = [], 0
    for (g1, g2), count in kinds:
        for _ in range(count):
            records += [dict(g1, deal=deal), dict(g2, deal=deal)]
            deal += 1
    st = sprt_status(records, parse_sprt("elo0=0.5,elo1=2.5"), "A", "B", per_deal=2)
    assert st["llr"] == pytest.approx(-3.07, rel=0.01) and st["decision"] == "H0"


@pytest.mark.parametrize("text, why", [
    ("elo0=0", "both elo0 and elo1"),
    ("elo0=5,elo1=0", "less than elo1"),
    ("elo0=0,elo1=5,alpha=1", "between 0 and 1"),
    ("elo0=0,elo1=5,alpha=0.6,beta=0.5", "less than 1"),
    ("elo0=0,elo1=x", "not a number"),
    ("elo0=0,elo1=5,gamma=1", "expected"),
    ("elo0=0,elo0=1,elo1=5", "twice"),
    ("elo0=0,elo1=inf", "finite"),
])
def test_parse_sprt_refuses_bad_input(text, why):
    with pytest.raises(ValueError, match=why):
        parse_sprt(text)


def test_parse_sprt_defaults_and_text():
    sprt = parse_sprt("elo0=-2.5, elo1=2.5")
    assert sprt == Sprt(-2.5, 2.5, 0.05, 0.05)
    assert parse_sprt(str(sprt)) == sprt


def test_sprt_fed_game_by_game_equals_the_whole_sequence():
    """The runner feeds SprtTest one record at a time; each status equals sprt_status of
    the records so far (pairs of games of one deal, the last one left open)."""
    win, lose, third = rec("AB", [0], 1), rec("BA", [0], 1), rec("ABC", [0, 1], 2)
    games = [dict(g, deal=k // 2) for k, g in enumerate([win, lose, win, win, third, win, lose])]
    sprt = parse_sprt("elo0=0,elo1=50")
    test = SprtTest(sprt, "A", "B", per_deal=2)
    for k, g in enumerate(games, start=1):
        test.add(g)
        assert test.status() == sprt_status(games[:k], sprt, "A", "B", per_deal=2)
    assert test.status()["counts"] == [0, 0, 1, 1, 1]  # WL, WW, DW; the lone last game waits


def test_team_losses_and_pogony_are_counted_per_entrant_V6_V8():
    """V6: a team game's record names the losing team (its seats); V8: the durak's
    «погоны». Each entrant counts the games its seat's team lost, and its losses with
    погоны; summaries of games without them carry neither column."""
    a = dict(rec(["A", "B", "C", "D"], [1, 0, 3], 2), game="podkidnoy", losing_team=[0, 2], pogony=True)
    b = dict(rec(["B", "A", "D", "C"], [0, 2, 1], 3), game="podkidnoy", losing_team=[1, 3], pogony=False)
    c = dict(rec(["A", "B", "C", "D"], [], None, draw=True), game="podkidnoy", losing_team=None, pogony=False)
    rows = {e["name"]: e for e in summarize([a, b, c])["entrants"]}
    assert {n: rows[n]["team_losses"] for n in "ABCD"} == {"A": 2, "B": 0, "C": 2, "D": 0}
    assert {n: rows[n]["pogony"] for n in "ABCD"} == {"A": 0, "B": 0, "C": 1, "D": 0}
    table = summary_table(summarize([a, b, c]))
    assert "team losses" in table and "pogony" in table
    plain = summarize([rec(["A", "B"], [0], 1)])["entrants"][0]
    assert "team_losses" not in plain and "pogony" not in plain
    assert "pogony" not in summary_table(summarize([rec(["A", "B"], [0], 1)]))


def test_a_mean_score_stands_beside_the_loss_rate_T15():
    """T15: a game scored over a series of deals (a result field of kind ``scores``): each
    entrant's mean score, in the table right after its loss rate, to one decimal."""
    game = next(g for g in GAME_IDS if any(f.kind == "scores" for f in spec(g).results))
    field = next(f for f in spec(game).results if f.kind == "scores")
    a = dict(rec(["A", "B"], [0], 1), game=game, **{field.name: [-20, 113]})
    b = dict(rec(["B", "A"], [1], 0), game=game, **{field.name: [110, 0]})
    summary = summarize([a, b])
    rows = {e["name"]: e for e in summary["entrants"]}
    assert rows["A"][field.tally] == -10.0 and rows["B"][field.tally] == 111.5
    _ranking, head, _, *lines = summary_table(summary).splitlines()
    title = field.tally.replace("_", " ")
    assert head.index("loss rate (95%)") < head.index(title) < head.index("draws")
    means = {line.split()[0]: line.split(")", 1)[1].split()[0] for line in lines[:2]}
    assert means == {"A": "-10.0", "B": "111.5"}
