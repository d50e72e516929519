"""`pidor match`: in-process scripted matches — the JSON summary, reproducibility (the same
seed gives the same JSON and the same log bytes), statistics that agree with the logs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.match import match, run_match

SPEC = "builtin:random:cheat=0.1,attention=0.5,false_call=0.01"


def run(*args: str) -> dict:
    r = CliRunner().invoke(match, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.mark.parametrize("game,deck", [("pidor", "52"), ("podkidnoy", "36"), ("perevodnoy", "52")])
def test_json_summary_fields_and_totals(game, deck):
    out = run("--game", game, "--players", "3", "--games", "4", "--deck", deck, "--seed", "t", "--seat", SPEC)
    assert (out["game"], out["players"], out["games"], out["deck"]) == (game, 3, 4, int(deck))
    seats = out["seats"]
    assert [s["spec"] for s in seats] == [SPEC, "builtin:random", "builtin:random"]
    assert sum(s["losses"] for s in seats) + out["draws"] == out["games"]
    for s in seats:
        assert {"spec", "losses", "mean_place", "cheats", "convicted", "false_calls"} <= set(s)
        assert s["games"] == 4 and 1 <= s["mean_place"] <= 3
    # Only seat 0 cheats; the others never call (attention 0), so nobody is convicted.
    assert seats[0]["cheats"] > 0 and seats[1]["cheats"] == seats[2]["cheats"] == 0
    assert sum(s["convicted"] for s in seats) == 0
    # Places: each game hands out 1..n once.
    assert sum(s["mean_place"] for s in seats) * 4 == pytest.approx(4 * (1 + 2 + 3))


def test_same_seed_same_json_and_identical_logs(tmp_path):
    a = run("--game", "pidor", "--games", "3", "--seed", "42", "--seat", SPEC, "--seat", SPEC,
            "--seat-seed", "alice", "--logs", str(tmp_path / "a"))
    b = run("--game", "pidor", "--games", "3", "--seed", "42", "--seat", SPEC, "--seat", SPEC,
            "--seat-seed", "alice", "--logs", str(tmp_path / "b"))
    assert a == b
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["pidor-00001.plog", "pidor-00002.plog", "pidor-00003.plog"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    c = run("--game", "pidor", "--games", "3", "--seed", "43", "--seat", SPEC, "--seat", SPEC)
    assert c["seats"] != a["seats"]
    d = run("--game", "pidor", "--games", "3", "--seed", "42", "--seat", SPEC, "--seat", SPEC,
            "--seat-seed", "bob")
    assert d["seats"] != a["seats"]  # a seat's seed changes the deals


def test_statistics_agree_with_the_logs_and_the_logs_verify(tmp_path):
    r = run_match("podkidnoy", 4, 5, seed="stats", hard=True, specs=[SPEC] * 4, logs=tmp_path)
    cheats = [0] * 4
    convicted = [0] * 4
    false_calls = [0] * 4
    losses = [0] * 4
    for i, path in enumerate(r.logs):
        log = read_log(path)
        report = verify(log, path)
        assert report.ok, report
        assert log.header["table"]["number"] == i + 1  # one table, games in a row
        assert log.header["options"]["hard"] is True
        assert log.header["seats"][0]["params"] == {"cheat": 0.1, "attention": 0.5, "false_call": 0.01}
        for rec in log.records:
            for e in rec.get("events", []):
                if e["type"] == "action" and e["_violations"]:
                    cheats[e["seat"]] += 1
                elif e["type"] == "mark" and e["reason"] == "convicted":
                    convicted[e["seat"]] += 1
                elif e["type"] == "mark" and e["reason"] in ("false_call", "lost_vote"):
                    false_calls[e["seat"]] += 1
        if log.footer["result"]["loser"] is not None:
            losses[log.footer["result"]["loser"]] += 1
    assert [s.cheats for s in r.seats] == cheats and sum(cheats) > 0
    assert [s.convicted for s in r.seats] == convicted and sum(convicted) > 0
    assert [s.false_calls for s in r.seats] == false_calls
    assert [s.losses for s in r.seats] == losses


def test_text_summary_and_bad_options():
    runner = CliRunner()
    r = runner.invoke(match, ["--game", "podkidnoy", "--players", "2", "--games", "2", "--seed", "x"])
    assert r.exit_code == 0, r.output
    assert "mean place" in r.output and "false calls" in r.output and "builtin:random" in r.output
    assert runner.invoke(match, ["--seat", "builtin:smart"]).exit_code == 2
    assert runner.invoke(match, ["--seat", "builtin:random:cheat=2"]).exit_code == 2
    # usage errors exit 2 (issue 10 §5)
    r = runner.invoke(match, ["--game", "pidor", "--hard", "--games", "1"])
    assert r.exit_code == 2 and "hard" in r.output
    r = runner.invoke(match, ["--players", "2", "--seat", SPEC, "--seat", SPEC, "--seat", SPEC])
    assert r.exit_code == 2 and "3 seat specs for 2 players" in r.output
