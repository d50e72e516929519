"""`pidor standings` (issue 9 item 6): the summary of pidor/match/stats.py from logs and
results files; a log counts only if it verifies and its game is over."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pidor.cli import main
from pidor.match import run_match
from pidor.match.entrants import parse_entrant
from pidor.gamelog.reader import read_log
from pidor.match.standings import entrant_name, log_record
from pidor.match.stats import places, summarize

ROOT = Path(__file__).resolve().parent.parent
SPECS = ["builtin:random:cheat=0.2,attention=0.5,false_call=0.02", "builtin:random:attention=0.9",
         "builtin:random:cheat=0.05", "builtin:random"]


def standings(*args: str, code: int = 0):
    r = CliRunner().invoke(main, ["standings", *args])
    assert r.exit_code == code, r.output
    return r


def standings_json(*args: str) -> dict:
    return json.loads(standings(*args, "--json").stdout)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Eight games of four distinct bots, with logs and a results file."""
    tmp = tmp_path_factory.mktemp("match")
    result = run_match("pidor", 4, 8, seed="standings", specs=SPECS, logs=tmp / "logs",
                       results=tmp / "results.jsonl")
    return result, tmp / "logs"


def test_records_from_logs_equal_the_match_runners(played):
    result, logs = played
    out = standings_json(str(logs))
    assert out["game"] == "pidor"
    assert out["sources"] == {"logs": 8, "results": 0, "skipped": [], "ignored": 0}
    rebuilt = [log_record(read_log(path), path) for path in result.logs]
    assert rebuilt == result.records
    assert sum(sum(r["cheats"]) for r in rebuilt) > 0  # the counts are not all zero by accident
    expected = summarize(result.records)
    assert {k: out[k] for k in expected} == expected
    # the results file gives the same standings as the logs
    from_results = standings_json(str(logs.parent / "results.jsonl"))
    assert {k: from_results[k] for k in expected} == expected


def test_only_verified_finished_logs_count(played, tmp_path):
    _, logs = played
    files = sorted(logs.iterdir())
    for f in files:
        (tmp_path / f.name).write_bytes(f.read_bytes())
    tampered = tmp_path / files[0].name
    data = bytearray(tampered.read_bytes())
    data[len(data) // 2] ^= 0x01
    tampered.write_bytes(bytes(data))
    cut = tmp_path / files[1].name
    cut.write_bytes(cut.read_bytes()[:-200])
    (tmp_path / "pidor.sqlite3").write_bytes(b"SQLite format 3\x00" + bytes(100))
    (tmp_path / "bot.stderr").write_text("Traceback (most recent call last):\n", encoding="utf-8")
    (tmp_path / "quiet.stderr").write_bytes(b"")
    out = standings_json(str(tmp_path))
    s = out["sources"]
    assert s["logs"] == 6 and s["ignored"] == 3
    assert [(k["path"], k["status"]) for k in s["skipped"]] == [(str(tampered), "failed"), (str(cut), "unfinished")]
    assert out["games"] == 6
    text = standings(str(tmp_path)).output
    assert f"{tampered}: skipped, failed" in text and "6 games (6 verified logs, 0 results records, 2 logs skipped, " \
                                                       "3 other files ignored)" in text


def _record(i, seating, order, loser, game="pidor"):
    n = len(seating)
    return {"index": i, "deal": i, "seed": f"{i:02x}", "game": game, "players": n, "deck": 52,
            "seating": seating, "order": order, "loser": loser, "draw": loser is None,
            "cheats": [1] * n, "convicted": [0] * n, "false_calls": [0] * n,
            "forfeits": [{"seat": 0, "reason": "hang"}] if i == 2 else [], "actions": 7, "log": None}


RECORDS = [_record(0, ["a", "b", "c"], [0, 1], 2), _record(1, ["b", "c", "a"], [2], None),
           _record(2, ["c", "a", "b"], [1, 0], 2), _record(3, ["a", "b", "c"], [2, 1], 0)]


def write_results(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_results_files_give_the_summary_of_their_records(tmp_path):
    f = tmp_path / "results.jsonl"
    write_results(f, [RECORDS[2], RECORDS[0], RECORDS[3], RECORDS[1]])  # written out of order
    out = standings_json(str(f))
    expected = summarize(RECORDS)  # rated in index order
    assert {k: out[k] for k in expected} == expected
    assert out["sources"] == {"logs": 0, "results": 4, "skipped": [], "ignored": 0}
    a = {e["name"]: e for e in out["entrants"]}["a"]
    # a's places: game 0 seat 0 out first: 1; game 1 (a draw) seat 2 out first: 1, the other
    # two share 2..3; game 2 seat 1 out first: 1; game 3 seat 0 the loser: 3
    assert places(RECORDS[1]) == [2.5, 2.5, 1.0]
    assert (a["games"], a["losses"], a["draws"], a["forfeits"], a["cheats"]) == (4, 1, 1, 0, 4)
    assert a["mean_place"] == (1 + 1 + 1 + 3) / 4
    assert {e["name"]: e for e in out["entrants"]}["c"]["forfeits"] == 1
    # the same input gives byte-identical JSON
    assert standings(str(f), "--json").stdout == standings(str(f), "--json").stdout


def test_directories_are_read_in_natural_order(tmp_path):
    """r-9 before r-10: the ratings depend on the order of the games."""
    write_results(tmp_path / "r-10.jsonl", RECORDS[2:])
    write_results(tmp_path / "r-9.jsonl", RECORDS[:2])
    out = standings_json(str(tmp_path))
    assert out["entrants"] == summarize(RECORDS)["entrants"]
    assert out["entrants"] != summarize(RECORDS[2:] + RECORDS[:2])["entrants"]


def test_pair_and_game_choice(tmp_path):
    f = tmp_path / "r.jsonl"
    write_results(f, RECORDS + [_record(4, ["a", "b"], [0], 1, game="podkidnoy")])
    r = standings(str(f), code=2)
    assert "the inputs hold games of pidor, podkidnoy: choose one with --game" in r.output
    out = standings_json(str(f), "--game", "pidor", "--pair", "b", "a")
    assert out["games"] == 4 and out["pair"]["a"] == "b" and out["pair"]["b"] == "a"
    # b against a: a lost game 3 (a win for b), b lost game 2; c lost game 0, game 1 a draw
    assert (out["pair"]["wins"], out["pair"]["draws"], out["pair"]["losses"]) == (1, 2, 1)
    only = standings_json(str(f), "--game", "podkidnoy")
    assert only["games"] == 1 and only["pair"]["a"] == "a"
    assert "no games of 'zed'" in standings(str(f), "--game", "pidor", "--pair", "a", "zed", code=2).output


GOOD = ('{"index": 0, "seating": ["a", "b"], "order": [0], "loser": 1, "draw": false, '
        '"cheats": [0, 0], "convicted": [0, 0], "false_calls": [0, 0]}\n')


@pytest.mark.parametrize("content, message", [
    ("hello\n", "neither a game log nor a results file"),
    (GOOD + '{"index": 1, "seating": ["a"]}\n',
     "record 2: not a game record: 'seating' must be a list of at least two entrant names"),
    (GOOD.replace('"order": [0]', '"order": [0, 5]'), "'order' must be a list of distinct seats"),
    (GOOD.replace('"loser": 1', '"loser": null'), "'draw' must be true exactly when 'loser' is null"),
    (GOOD.replace('"cheats": [0, 0]', '"cheats": [0]'), "'cheats' must be a count per seat"),
    (GOOD.replace('"index": 0, ', ''), "line 1: not a game record"),
    (GOOD + 'not json\n' + GOOD, "line 2: not a JSON record"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, content, message):
    f = tmp_path / "in.jsonl"
    f.write_text(content, encoding="utf-8")
    r = standings(str(f), code=2)
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_torn_last_line_is_left_out(tmp_path):
    """A match killed while it wrote its results file: the whole records count."""
    f = tmp_path / "r.jsonl"
    f.write_text(GOOD + GOOD.replace('"index": 0', '"index": 1')[:30], encoding="utf-8")
    assert standings_json(str(f))["games"] == 1


def test_usage_errors():
    assert "does not exist" in standings("/no/such/path", code=2).output
    assert "Missing argument" in standings(code=2).output


def test_entrant_names_of_server_seats():
    """Without a match's names (extra.match.seating): a player by name, a bot by its spec."""
    assert entrant_name({"kind": "human", "name": "vasya", "player": 7}) == "vasya"
    assert entrant_name({"kind": "bot", "policy": "random", "spec": "builtin:random:cheat=0.1"}) == \
        "builtin:random:cheat=0.1"
    assert entrant_name({"kind": "bot", "policy": "random"}) == "builtin:random"


def test_an_external_match_with_a_forfeit_reads_back_from_its_logs(tmp_path):
    """A cmd: bot that crashes forfeits (the footer says so): its log gives the runner's
    record, forfeit included, and the standings count it."""
    bad = f"cmd:{sys.executable} {ROOT / 'tests/bots/bad_bot.py'} crash --port {{port}} --token {{token}}"
    result = run_match("pidor", 2, 2, seed="forfeit", entrants=[parse_entrant(bad, "crash")],
                       logs=tmp_path / "logs", stderr_dir=tmp_path / "err")
    assert all(r["forfeits"] for r in result.records)
    rebuilt = [log_record(read_log(path), path) for path in result.logs]
    # index, deal and seating from the header's extra.match; the time its bot took is the
    # run's, not the game's: a log does not keep it
    assert [{k: v for k, v in r.items() if k != "time"} for r in result.records] == rebuilt
    out = standings_json(str(tmp_path / "logs"))
    assert {e["name"]: e["forfeits"] for e in out["entrants"]} == {"crash": 2, "builtin:random": 0}


def test_a_directory_without_logs_or_results_is_an_error_as_in_verify(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = standings(str(empty), code=2)
    assert r.output == f"Error: {empty}: no game log or results file in it\n"
    (tmp_path / "stderr").mkdir()
    (tmp_path / "stderr" / "bot.stderr").write_text("Traceback (most recent call last):\n", encoding="utf-8")
    r = standings(str(tmp_path / "stderr"), code=2)
    assert "no game log or results file in it" in r.output
