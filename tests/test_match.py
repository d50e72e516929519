"""`pidor match`: in-process scripted matches — the JSON summary, reproducibility (the same
seed gives the same JSON and the same log bytes), statistics that agree with the logs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pidor.cards import card_code
from pidor.cards import deck as full_deck
from pidor.gamelog.reader import read_log
from pidor.games import GAME_IDS, spec
from pidor.gamelog.verify import verify
from pidor.match import run_match
from pidor.match.command import match
from pidor.match.runner import _ForfeitWatch
from pidor.server import store

SPEC = "builtin:random:cheat=0.1,attention=0.5,false_call=0.01"


def run(*args: str) -> dict:
    r = CliRunner().invoke(match, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("game,deck", [("pidor", "52"), ("podkidnoy", "36"), ("perevodnoy", "52")])
def test_json_summary_fields_and_totals(game, deck):
    out = run("--game", game, "--players", "3", "--games", "4", "--deck", deck, "--seed", "t", "--seat", SPEC)
    assert (out["game"], out["players"], out["games"], out["deck"]) == (game, 3, 4, int(deck))
    by_name = {s["name"]: s for s in out["entrants"]}  # (the rows come best rated first)
    seats = [by_name[name] for name in (SPEC, "builtin:random", "builtin:random#2")]
    assert [s["spec"] for s in seats] == [SPEC, "builtin:random", "builtin:random"]
    assert sum(s["losses"] for s in seats) + out["draws"] == out["games"]
    for s in seats:
        assert {"spec", "losses", "mean_place", "cheats", "convicted", "false_calls"} <= set(s)
        assert s["games"] == 4 and 1 <= s["mean_place"] <= 3
    # Only seat 0 cheats; the others never call (attention 0), so nobody is convicted.
    assert seats[0]["cheats"] > 0 and seats[1]["cheats"] == seats[2]["cheats"] == 0
    assert sum(s["convicted"] for s in seats) == 0
    # Places: each game hands out 1..n once.
    assert sum(s["mean_place"] for s in seats) * 4 == pytest.approx(4 * (1 + 2 + 3), abs=0.01)


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
    assert c["entrants"] != a["entrants"]
    d = run("--game", "pidor", "--games", "3", "--seed", "42", "--seat", SPEC, "--seat", SPEC,
            "--seat-seed", "bob")
    assert d["entrants"] != a["entrants"]  # a seat's seed changes the deals


def test_statistics_agree_with_the_logs_and_the_logs_verify(tmp_path):
    r = run_match("podkidnoy", 4, 5, seed="stats", options={"hard": True}, specs=[SPEC] * 4, logs=tmp_path)
    cheats = [0] * 4
    convicted = [0] * 4
    false_calls = [0] * 4
    losses = [0] * 4
    for i, path in enumerate(r.logs):
        log = read_log(path)
        report = verify(log, path)
        assert report.ok, report
        assert log.header["table"] == {"number": 1, "mark": None, "previous": None}  # every game at a fresh table
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
    by_name = {s["name"]: s for s in r.summary["entrants"]}
    rows = [by_name[name] for name in (SPEC, f"{SPEC}#2", f"{SPEC}#3", f"{SPEC}#4")]
    assert [s["cheats"] for s in rows] == cheats and sum(cheats) > 0
    assert [s["convicted"] for s in rows] == convicted and sum(convicted) > 0
    assert [s["false_calls"] for s in rows] == false_calls
    assert [s["losses"] for s in rows] == losses


def test_text_summary_and_bad_options():
    runner = CliRunner()
    r = runner.invoke(match, ["--game", "podkidnoy", "--players", "2", "--games", "2", "--seed", "x"])
    assert r.exit_code == 0, r.output
    assert "mean place" in r.output and "false calls" in r.output and "builtin:random#2" in r.output
    assert runner.invoke(match, ["--seat", "builtin:smart"]).exit_code == 2
    assert runner.invoke(match, ["--seat", "builtin:random:cheat=2"]).exit_code == 2
    # usage errors exit 2 (issue 10 §5)
    r = runner.invoke(match, ["--game", "pidor", "--hard", "--games", "1"])
    assert r.exit_code == 2 and "hard" in r.output
    r = runner.invoke(match, ["--players", "2", "--seat", SPEC, "--seat", SPEC, "--seat", SPEC])
    assert r.exit_code == 2 and "3 seat specs for 2 players" in r.output
    r = runner.invoke(match, ["--players", "2", "--rotate", "--games", "3"])
    assert r.exit_code == 2 and "--games must be a multiple of 2" in r.output
    for bad in ("x", "a=builtin:nope", "a=cmd:", "a=cmd:bot {nope}", "a=tcp:short", "a=tcp:-looks-like-an-option",
                "=builtin:random"):
        r = runner.invoke(match, ["--entrant", bad])
        assert r.exit_code == 2 and "Traceback" not in r.output, (bad, r.output)
    r = runner.invoke(match, ["--entrant", "a=builtin:random", "--entrant", "a=builtin:random"])
    assert r.exit_code == 2 and "two entrants are named 'a'" in r.output


@pytest.mark.parametrize("game", [g for g in GAME_IDS if any(o.kind == "cards" for o in spec(g).options)])
def test_the_text_summary_writes_a_cards_option_as_it_is_typed(game):
    """``--opt KEY=Qs,6h`` comes back as ``KEY=Qs,6h`` (a list of cards, not a Python list)."""
    option = next(o for o in spec(game).options if o.kind == "cards")
    cards = ",".join(card_code(c) for c in full_deck(spec(game).decks[0])[:2])
    r = CliRunner().invoke(match, ["--game", game, "--games", "1", "--seed", "x", "--opt", f"{option.name}={cards}"])
    assert r.exit_code == 0, r.output
    assert f", {option.name}={cards}," in r.stdout.splitlines()[0]  # (interim lines go to stderr)


@pytest.mark.slow
def test_concurrency_1_and_2_give_the_same_json_and_logs(tmp_path):
    args = ["--players", "3", "--games", "12", "--seed", "par", "--rotate", "--entrant", f"a={SPEC}",
            "--entrant", "b=builtin:random", "--entrant", "c=builtin:random:attention=1", "--entrant",
            "d=builtin:random:cheat=0.3"]
    one = run(*args, "--logs", str(tmp_path / "1"), "--results", str(tmp_path / "1.jsonl"))
    two = run(*args, "--logs", str(tmp_path / "2"), "--results", str(tmp_path / "2.jsonl"), "--concurrency", "2")
    assert one == two and one["games"] == 12
    assert (tmp_path / "1.jsonl").read_text() == (tmp_path / "2.jsonl").read_text().replace("/2/", "/1/")
    for p in (tmp_path / "1").iterdir():
        assert p.read_bytes() == (tmp_path / "2" / p.name).read_bytes()


def test_results_one_record_a_game_with_duplicate_deals(tmp_path):
    out = tmp_path / "r.jsonl"
    run("--players", "3", "--games", "6", "--seed", "rec", "--rotate", "--seat", SPEC, "--results", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in records] == list(range(6))
    assert [r["deal"] for r in records] == [0, 0, 0, 1, 1, 1]
    assert len({r["seed"] for r in records[:3]}) == 1 and records[0]["seed"] != records[3]["seed"]
    names = [SPEC, "builtin:random", "builtin:random#2"]
    assert [r["seating"] for r in records[:3]] == [names, names[1:] + names[:1], names[2:] + names[:2]]
    for r in records:
        assert set(r) >= {"game", "players", "deck", "order", "loser", "draw", "cheats", "convicted",
                          "false_calls", "forfeits", "actions", "log"}
        assert (r["loser"] is None) == r["draw"] or r["loser"] is not None
        assert r["forfeits"] == [] and r["log"] is None and len(r["cheats"]) == 3
    r = CliRunner().invoke(match, ["--games", "1", "--results", str(out)])
    assert r.exit_code == 2 and "--resume" in r.output  # never overwritten


def test_resume_after_a_kill_gives_the_same_summary(tmp_path):
    whole = run_match("pidor", 4, 8, seed="resume", specs=[SPEC] * 4, results=tmp_path / "whole.jsonl")
    path = tmp_path / "cut.jsonl"

    class Killed(Exception):
        pass

    played = []

    def kill_after_three(k: int) -> None:
        played.append(k)
        if len(played) == 3:
            raise Killed

    with pytest.raises(Killed):
        run_match("pidor", 4, 8, seed="resume", specs=[SPEC] * 4, results=path, progress=kill_after_three)
    with open(path, "a") as f:
        f.write('{"index": 3, "deal": 3, "se')  # a line the kill cut short
    r = CliRunner().invoke(match, ["--games", "8", "--seed", "resume", *["--seat", SPEC] * 4, "--resume", str(path),
                                   "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == whole.summary
    assert path.read_text() == (tmp_path / "whole.jsonl").read_text()
    # Another match's file is refused, and changes nothing.
    before = path.read_bytes()
    r = CliRunner().invoke(match, ["--games", "8", "--seed", "other", "--resume", str(path)])
    assert r.exit_code == 2 and "another match" in r.output and path.read_bytes() == before


@pytest.mark.slow
def test_sprt_stops_a_two_entrant_match_at_the_same_game_for_any_concurrency():
    args = ["--players", "2", "--games", "400", "--seed", "3", "--rotate", "--entrant",
            "cheater=builtin:random:cheat=0.3", "--entrant", "honest=builtin:random:attention=0.9",
            "--sprt", "elo0=0,elo1=50"]
    one = run(*args)
    assert one == run(*args, "--concurrency", "2")
    sprt = one["sprt"]
    assert sprt["decision"] == "H0" and sprt["llr"] <= sprt["lower"]
    assert one["games"] == 2 * sprt["outcomes"] < 400  # stopped early, after whole deals (2 games each)
    assert one["pair"]["games"] == one["games"]
    r = CliRunner().invoke(match, ["--sprt", "elo0=5,elo1=1"])
    assert r.exit_code == 2 and "elo0 must be less than elo1" in r.output


def test_tokens_never_look_like_options(monkeypatch):
    """A cmd: bot gets its token on its command line (``--token {token}``): a token that
    began with "-" (one in 64 of url-safe ones) made the sample bot's argparse fail, so
    that entrant forfeited every game as absent."""
    drawn = iter(["-starts-with-a-dash", "fine-token"])
    monkeypatch.setattr(store.secrets, "token_urlsafe", lambda n: next(drawn))
    assert store.new_token() == "fine-token"


def _game(seating: list[str], forfeits: list[tuple[int, str]]) -> dict:
    return {"seating": seating, "forfeits": [{"seat": s, "reason": r} for s, r in forfeits]}


def test_max_forfeits_counts_an_entrant_s_first_games_in_a_row():
    """Issue 21 §2: the match stops once an entrant has forfeited every one of its first N
    games (a seat of a game is a game, as in the summary); one game it played through
    clears it for good; 0 never stops."""
    watch = _ForfeitWatch(3)
    assert not watch.add(_game(["a", "b"], [(0, "crash")]))
    assert not watch.add(_game(["b", "a"], []))  # a played a game through
    assert not any(watch.add(_game(["a", "b"], [(0, "timeout")])) for _ in range(5))
    watch = _ForfeitWatch(3)
    assert not watch.add(_game(["a", "a", "b"], [(0, "absent"), (1, "absent")]))
    assert watch.add(_game(["b", "a", "b"], [(1, "crash")]))
    assert watch.failed == "a"
    assert watch.message({}).startswith("stopped: a forfeited its first 3 games (absent 2, crash 1). Fix it")
    never = _ForfeitWatch(0)
    assert not any(never.add(_game(["a", "b"], [(0, "absent")])) for _ in range(10))
