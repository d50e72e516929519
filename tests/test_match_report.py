"""Issue 26 §3: match reports. While a match runs: an interim line every ``--report-every``
games (standings so far, the SPRT's LLR, the forfeits), on a terminal a bar too, and an ETA
that bursts of games (worker chunks, ``--concurrency``) do not fool. In the summary: the
ranking (``--rank-by``, said on the table), a crosstable for more than two entrants, the
time per turn of each bot program. The clock is a fake one: no test waits on time."""

from __future__ import annotations

import io
import json
import re

import pytest
from click.testing import CliRunner
from test_match_stats import rec

from pidor.match.command import match
from pidor.match.progress import Progress, default_every, eta_text
from pidor.match.runner import Interim
from pidor.match.standings import standings_command
from pidor.match.stats import crosstable, summarize, summary_table


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def interims(records: list[dict], total: int, resumed: int = 0, sprt=None):
    """The runner's Interim after each of ``records`` (indexes from ``resumed`` on)."""
    done = {i: rec(["a", "b"], [0], 1) for i in range(resumed)}
    for k, r in enumerate(records, start=resumed):
        done[k] = r
        yield Interim(len(done), total, resumed, sprt, dict(done), None, "loss")


def test_the_eta_is_the_runs_pace_and_bursts_of_games_do_not_fool_it():
    """Games come back twelve at once every twelve seconds (a worker's chunk): one a second.
    After 12 and 24 of 120 games the ETA is 108 s and 96 s (click's bar, which averaged the
    last steps, said a few seconds: the steps of a burst take no time)."""
    clock, out = Clock(), io.StringIO()
    progress = Progress("pidor ×2", 12, out, tty=False, clock=clock)
    games = [rec(["a", "b"], [0], 1) for _ in range(36)]
    steps = interims(games, 120)
    for burst in range(3):
        clock.now += 12
        for _ in range(12):
            progress(next(steps))
    lines = out.getvalue().splitlines()
    assert [re.match(r"\[(\d+)/120 games \(\d+%\), ([\d.]+) games/s, ETA ([\d:]+)\]", x).groups() for x in lines] == [
        ("12", "1.0", "1:48"), ("24", "1.0", "1:36"), ("36", "1.0", "1:24")]


def test_a_resumed_match_counts_its_pace_from_the_games_of_this_run():
    clock, out = Clock(), io.StringIO()
    progress = Progress("x", 5, out, tty=False, clock=clock)
    steps = interims([rec(["a", "b"], [0], 1) for _ in range(5)], 100, resumed=50)
    clock.now += 10
    for step in steps:
        progress(step)
    assert out.getvalue().startswith("[55/100 games (55%), 0.5 games/s, ETA 1:30] ")


def test_an_interim_line_has_the_standings_so_far_the_sprt_and_the_forfeits():
    games = [rec("abc", [0, 1], 2, forfeits=[{"seat": 2, "reason": "crash"}]), rec("abc", [1, 0], 2)]
    sprt = {"llr": 0.4213, "lower": -2.944, "upper": 2.944}
    clock, out = Clock(), io.StringIO()
    progress = Progress("x", 2, out, tty=False, clock=clock)
    clock.now += 1
    for step in interims(games, 10):
        progress(Interim(step.done, step.total, 0, sprt, step.records, ("a", "b"), "loss"))
    assert out.getvalue() == ("[2/10 games (20%), 2.0 games/s, ETA 0:04] by loss rate: a 0.000 (0 of 2), "
                              "b 0.000 (0 of 2), c 1.000 (2 of 2); SPRT a vs b: LLR 0.42 in (-2.94, 2.94); "
                              "forfeits: c crash 1\n")


def test_on_a_terminal_a_bar_under_the_interim_lines():
    clock, out = Clock(), io.StringIO()
    progress = Progress("pidor ×2", 2, out, tty=True, clock=clock)
    for step in interims([rec(["a", "b"], [0], 1) for _ in range(3)], 4):
        clock.now += 1
        progress(step)
    progress.close()
    text = out.getvalue()
    assert text.startswith("\rpidor ×2 [######                  ] 1/4 games (25%), 1.0 games/s, ETA 0:03\x1b[K")
    assert "\r\x1b[K[2/4 games (50%)" in text and text.endswith("\r\x1b[K")
    assert eta_text(3725) == "1:02:05" and [default_every(n) for n in (4, 100, 1000)] == [1, 10, 100]


def test_a_match_off_a_terminal_prints_interim_lines_not_a_bar():
    r = CliRunner().invoke(match, ["--players", "2", "--games", "6", "--seed", "i", "--report-every", "2", "--json"])
    assert r.exit_code == 0, r.output
    lines = r.stderr.splitlines()
    assert [line.split(" games ")[0] for line in lines] == ["[2/6", "[4/6", "[6/6"]
    assert "\r" not in r.stderr and json.loads(r.stdout)["games"] == 6
    quiet = CliRunner().invoke(match, ["--players", "2", "--games", "6", "--seed", "i", "--report-every", "0"])
    assert quiet.stderr == ""


# --- the summary ------------------------------------------------------------------------------

# In durak the loss decides: L goes out first in seven games and is the durak in two; S is
# never the durak and always goes out second. The rating (the finishing order) puts L, with
# its 2 losses, above S with none (the case).
RANKED = [rec("LSC", [0, 1], 2)] * 7 + [rec("LSC", [2, 1], 0)] * 2


def test_the_loss_rate_ranks_by_default_and_the_table_says_so():
    by_loss = summarize(RANKED)
    assert by_loss["rank_by"] == "loss"
    assert [(e["rank"], e["name"], e["losses"]) for e in by_loss["entrants"]] == [(1, "S", 0), (2, "L", 2), (3, "C", 7)]
    by_rating = summarize(RANKED, rank_by="rating")
    assert by_rating["entrants"][0]["name"] == "L" and by_rating["entrants"][0]["losses"] == 2
    assert [e["name"] for e in summarize(RANKED, rank_by="place")["entrants"]] == ["L", "S", "C"]
    assert summary_table(by_loss).splitlines()[0] == (
        "ranked by loss rate, lowest first: a game has one result, its loser (the pidor, the durak) "
        "(--rank-by rating|place)")
    with pytest.raises(ValueError, match="rank by loss, rating, place"):
        summarize(RANKED, rank_by="wins")


def test_the_crosstable_gives_each_entrants_loss_rate_against_each():
    games = [rec("ABC", [0, 1], 2), rec("ABC", [2, 0], 1), rec("ABD", [0, 1], 2), rec("AB", [0], 1)]
    s = summarize(games)
    assert s["crosstable"] == crosstable(games, [e["name"] for e in s["entrants"]])
    cross = s["crosstable"]
    assert cross["B"]["A"] == {"games": 4, "losses": 2, "loss_rate": 0.5}  # B lost games 2 and 4 of 4 with A
    assert cross["A"]["B"] == {"games": 4, "losses": 0, "loss_rate": 0.0}
    assert cross["C"] == {"A": {"games": 2, "losses": 1, "loss_rate": 0.5}, "B": {"games": 2, "losses": 1,
                                                                               "loss_rate": 0.5}}
    assert "D" not in cross["C"] and "C" not in cross["D"]  # (they never met)
    table = summary_table(s).splitlines()
    at = table.index("loss rate of each (row) in its games with each (column):")
    assert table[at + 1].split() == [e["name"] for e in s["entrants"]]
    assert "crosstable" not in summarize(games[-1:])  # two entrants: A against B instead


def test_time_a_turn_per_entrant_from_the_records():
    games = [{**rec("AB", [0], 1), "time": [[10, 0.05, 0.02], None]}, {**rec("AB", [1], 0), "time": [[30, 0.15, 0.03],
                                                                                                  None]}]
    rows = {e["name"]: e for e in summarize(games)["entrants"]}
    assert rows["A"]["time"] == {"turns": 40, "mean_ms": 5.0, "max_ms": 30.0} and rows["B"]["time"] is None
    table = summary_table(summarize(games))
    assert "ms a turn (max)" in table and "5.00 (30.0)" in table
    assert "ms a turn" not in summary_table(summarize([rec("AB", [0], 1)]))


def test_standings_rank_by(tmp_path):
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps({**g, "index": i, "game": "pidor"}) + "\n" for i, g in enumerate(RANKED)))
    out = json.loads(CliRunner().invoke(standings_command, [str(results), "--json", "--rank-by", "rating"]).stdout)
    assert out["rank_by"] == "rating" and out["entrants"][0]["name"] == "L"
