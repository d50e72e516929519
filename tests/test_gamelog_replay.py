"""`pidor replay` and `pidor export`: the text marks cheats, calls, votes and verdicts with
rule texts; one seat's view hides what that seat did not see."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pidor.cards import card_text, parse_card
from pidor.engine.rules import RULES
from pidor.gamelog.commands import export as export_cmd, replay as replay_cmd, verify as verify_cmd
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import replay_lines
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.2,attention=0.5,false_call=0.05"


@pytest.fixture(scope="module")
def durak_log(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("replay")
    return run_match("podkidnoy", 3, 1, seed="replay", specs=[CHEATY] * 3, logs=d).logs[0]


@pytest.fixture(scope="module")
def pidor_log(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("replay")
    return run_match("pidor", 3, 1, seed="replay", specs=[CHEATY] * 3, logs=d).logs[0]


def test_all_seats_view_marks_cheats_calls_votes_and_verdicts_with_rule_texts(pidor_log):
    log = read_log(pidor_log)
    text = "\n".join(replay_lines(log))
    violations = {v for r in log.records for e in r.get("events", []) for v in e.get("_violations", ())}
    assert violations
    for v in violations:
        assert f"✗ махлёж: {v}: {RULES[v].ru}" in text or f"{v}: {RULES[v].ru}" in text
    assert "!! " in text and "«пидор!»" in text  # calls
    assert "⚖ приговор" in text and "● метка" in text
    votes = sum(1 for r in log.records if r["kind"] == "vote")
    assert text.count(" голосует ") == votes
    # Every action is shown, in order.
    acts = [r for r in log.records if r["kind"] == "act"]
    assert len(re.findall(r"^место \d \(bot random\): ", text, re.M)) == len(acts)
    # English.
    en = "\n".join(replay_lines(log, lang="en"))
    some = sorted(violations)[0]
    assert f"{some}: {RULES[some].en}" in en and "verdict" in en
    # The board after the deal: every card of the deck somewhere.
    assert text.count("♥") >= 13


def test_one_seat_sees_only_its_own_cards_and_no_uncalled_cheat(durak_log):
    log = read_log(durak_log)
    full = list(replay_lines(log))
    seat0 = list(replay_lines(log, seat=0))
    assert any("✗" in line for line in full)
    assert not any("✗" in line for line in seat0)
    others = [line for line in seat0 if re.match(r"\s+· draw seat=[12] ", line)]
    mine = [line for line in seat0 if re.match(r"\s+· draw seat=0 ", line)]
    assert others and mine
    assert all("cards=" not in line for line in others)
    assert all("cards=" in line for line in mine)
    assert any("cards=" in line for line in full if re.match(r"\s+· draw seat=1 ", line))
    # Seat 0's board shows its hand, and never a card only another seat held at the deal.
    from pidor.engine.table import Table
    from pidor.gamelog.verify import Rerun

    rerun = Rerun(log.header)
    rerun.run(1, log.records[1], rerun.start_args(dict(log.footer, _index=len(log.records) - 1)))
    t: Table = rerun.table
    hidden = [card_text(parse_card(c)) for c in t.game.hidden_from(0)]
    board = seat0[seat0.index(next(line for line in seat0 if "game_start" in line)) + 1:]
    board = [line for line in board if line.startswith("   [")]
    assert board and any(line.startswith("   [hand]") for line in board)
    for line in board:
        for card in hidden:
            assert card not in line.split("] ", 1)[1].split(), (line, card)


def test_step_mode_waits_and_shows_the_board(durak_log):
    log = read_log(durak_log)
    waits = []

    def wait() -> bool:
        waits.append(1)
        return len(waits) < 3

    lines = list(replay_lines(log, step=True, wait=wait))
    assert len(waits) == 3  # stops waiting when wait() says so, prints the rest
    assert sum(1 for line in lines if line.startswith("   [hand.0]")) > 10
    assert lines[-1].startswith("   server seed revealed") or "метка" in lines[-2]


def test_cli_replay_export_and_jsonl_input(durak_log, tmp_path):
    runner = CliRunner()
    r = runner.invoke(replay_cmd, [durak_log, "--seat", "1"])
    assert r.exit_code == 0, r.output
    assert "✗" not in r.output and "podkidnoy" in r.output
    r = runner.invoke(replay_cmd, [durak_log, "--seat", "7"])
    assert r.exit_code == 2
    out = tmp_path / "game.jsonl"
    r = runner.invoke(export_cmd, [durak_log, "--format", "jsonl", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["kind"] == "header" and json.loads(lines[-1])["kind"] == "end"
    r1 = runner.invoke(replay_cmd, [durak_log, "--step"], input="\n" * 5)
    r2 = runner.invoke(replay_cmd, [str(out), "--step"], input="\n" * 5)
    assert r1.exit_code == 0 and r1.output == r2.output
    assert runner.invoke(verify_cmd, [str(out)]).exit_code == 0
    r = runner.invoke(replay_cmd, [str(tmp_path / "missing")])
    assert r.exit_code != 0
