"""Issue 26 §3: ``pidor export --format csv`` (one row per game and seat, from logs and
``--results`` files) and ``--format text`` (a compact record of each game, one line per
move, to read and diff)."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from pidor.gamelog.commands import export
from pidor.gamelog.reader import read_log
from pidor.match import run_match
from pidor.match.rows import COLUMNS
from pidor.match.stats import places

CHEATER, CALLER = "builtin:random:cheat=0.3", "builtin:random:attention=1,false_call=0.05"


def a_match(tmp_path, **kwargs):
    return run_match("pidor", 3, 3, seed="export", specs=[CHEATER, CALLER], logs=tmp_path / "logs",
                     results=tmp_path / "r.jsonl", **kwargs)


def test_csv_has_a_row_per_game_and_seat_from_logs_and_results_alike(tmp_path):
    result = a_match(tmp_path)
    for source in ("logs", "r.jsonl"):
        r = CliRunner().invoke(export, [str(tmp_path / source), "--format", "csv"])
        assert r.exit_code == 0, r.output
        got = list(csv.DictReader(io.StringIO(r.stdout)))
        assert tuple(got[0]) == COLUMNS and len(got) == 3 * 3
        for row in got:
            record = result.records[int(row["index"])]
            seat = int(row["seat"])
            assert row["entrant"] == record["seating"][seat] and row["log"] == record["log"]
            assert float(row["place"]) == places(record)[seat]
            assert int(row["loss"]) == (record["loser"] == seat)
            assert [int(row[k]) for k in ("cheats", "convicted", "false_calls")] == [
                record[k][seat] for k in ("cheats", "convicted", "false_calls")]
            assert row["forfeit"] == ""


def test_csv_names_the_forfeit_reason_and_skips_a_log_that_does_not_verify(tmp_path):
    gone = f"stdio:{tmp_path / 'no-such-bot'}"
    run_match("pidor", 2, 2, seed="f", specs=[gone], logs=tmp_path / "logs", max_forfeits=0,
              stderr_dir=tmp_path / "err")
    logs = sorted((tmp_path / "logs").glob("*.plog"))
    data = bytearray(logs[1].read_bytes())
    data[-40] ^= 1  # a bit flipped in the footer: the chain breaks
    logs[1].write_bytes(bytes(data))
    r = CliRunner().invoke(export, [str(tmp_path / "logs"), "--format", "csv"])
    assert r.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(row["seat"], row["forfeit"]) for row in rows] == [("0", "absent"), ("1", "")]
    assert r.stderr.startswith(f"{logs[1]}: skipped, ")


def test_text_is_one_line_per_move_and_the_same_games_give_the_same_text(tmp_path):
    result = a_match(tmp_path / "1")
    a_match(tmp_path / "2")
    texts = [CliRunner().invoke(export, [str(tmp_path / k / "logs"), "--format", "text"]) for k in "12"]
    assert texts[0].exit_code == 0 and texts[0].stdout == texts[1].stdout  # (diffable: no clock, no paths)
    games = texts[0].stdout.split("\n\n")
    assert len(games) == 3
    lines = games[0].splitlines()
    log = read_log(result.records[0]["log"])
    assert lines[:4] == ['[Game "pidor"]', f'[Engine "{log.header["engine"]}"]', '[Players "3"]', '[Deck "52"]']
    assert '[Seat0 "builtin:random:cheat=0.3"]' in lines and '[Match "game 1, deal 0"]' in lines
    assert lines[-1] == f'[Result "s{log.footer["result"]["loser"]} lost; order ' + " ".join(
        f"s{s}" for s in log.footer["result"]["order"]) + '"]'
    moves = [x for x in lines if not x.startswith("[")]
    acts = [r for r in log.records if r["kind"] == "act"]
    assert sum(" ✗" in m for m in moves) == sum(bool(e.get("_violations")) for r in acts for e in r["events"]
                                                if e["type"] == "action" and e["seat"] == r["seat"])
    calls = [m for m in moves if " call" in m]
    assert calls and all("· court " in m or "· verdict honest" in m for m in calls)
    assert any("verdict guilty" in m and "mark s0 convicted" in m for m in moves)  # (only seat 0 cheats)


def test_jsonl_exports_one_log(tmp_path):
    a_match(tmp_path)
    r = CliRunner().invoke(export, [str(tmp_path / "logs")])
    assert r.exit_code == 2 and "--format jsonl exports one log file" in r.output
    one = sorted((tmp_path / "logs").glob("*.plog"))[0]
    r = CliRunner().invoke(export, [str(one)])
    assert r.exit_code == 0 and json.loads(r.stdout.splitlines()[0])["kind"] == "header"
