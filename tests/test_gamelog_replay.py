"""`pidor replay` and `pidor export` (issue 10 section 2): one line per action with its
cards; cheats, calls, courts, votes, verdicts, undos, marks and payments each a line;
window bookkeeping only with --verbose; --step with a board and a jump to the next cheat,
call or court; an audit at the end; broken logs exit 1 with the problem on stderr first.
One seat's view hides what that seat did not see."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pidor.cards import card_code, parse_card
from pidor.games import rule
from pidor.gamelog.commands import export as export_cmd, replay as replay_cmd, verify as verify_cmd
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import Replay, replay_lines
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.15,attention=0.8,false_call=0.02"
CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


@pytest.fixture(scope="module")
def durak_log(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("replay")
    return run_match("perevodnoy", 3, 1, seed="replay", specs=[CHEATY] * 3, logs=d).logs[0]


@pytest.fixture(scope="module")
def pidor_log(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("replay")
    return run_match("pidor", 3, 1, seed="replay-1", specs=[CHEATY] * 3, logs=d).logs[0]


def events(log, kind):
    return [e for r in log.records for e in r.get("events", []) if e["type"] == kind]


def codes(line: str) -> set[str]:
    return {card_code(parse_card(c)) for c in CARD.findall(line)}


def test_one_line_per_action_and_a_line_for_each_cheat_call_court_vote_verdict_undo_mark(pidor_log):
    log = read_log(pidor_log)
    lines = list(replay_lines(log, lang="en"))
    acts = [r for r in log.records if r["kind"] == "act"]
    assert len([x for x in lines if x.startswith("bot-")]) == len(acts)  # actions start the line
    cheats = [e for e in events(log, "action") if e["_violations"]]
    assert cheats and len([x for x in lines if x.startswith("   ✗ cheat: ")]) == len(cheats)
    for v in {v for e in cheats for v in e["_violations"]}:
        assert any(f"{v}: {rule(v).en.rstrip('.')}" in x for x in lines)
    for kind, mark in (("call", "!! "), ("court", "court: "), ("verdict", "⚖ verdict: "), ("undo", "↶ undone: "),
                       ("mark", "● the mark goes to "), ("vote", " votes «")):
        assert events(log, kind), kind
        assert len([x for x in lines if mark in x]) == len(events(log, kind)), kind
    assert events(log, "court") and events(log, "give")
    # Window bookkeeping only with --verbose.
    assert not [x for x in lines if "pass:" in x or "window" in x]
    verbose = list(replay_lines(log, lang="en", verbose=True))
    assert len([x for x in verbose if x.strip() == "window closed"]) == len(events(log, "window_closed"))
    assert [x for x in verbose if x.startswith("   pass: ")]
    # Russian by default.
    assert any("кричит «пидор!»" in x for x in replay_lines(log))


def test_each_action_names_its_cards_as_they_lay(pidor_log):
    """A move names the open card it carries and the card it lands on; a lay the drawn
    card; a cover the card it covers: checked against the board the engine re-ran."""
    log = read_log(pidor_log)
    r = Replay(log, lang="en")
    checked = set()
    previous = None
    for step in r.steps:
        line = step.text()[0] if step.text() else ""
        m = re.match(r"bot-\d (moves|lays) (\S+) (?:from their stack )?onto bot-(\d)'s (\S+)|"
                     r"bot-\d (lays) (\S+) on bot-(\d)'s (\S+)", line)
        if m and step.board is not None and not step.marks:  # (an undone cheat leaves no trace on the board)
            kind, moved, to, onto = [g for g in m.groups() if g is not None]
            stack = step.board.zones[f"stack.{to}"]
            assert stack[-1] == card_code(parse_card(moved)) and stack[-2] == card_code(parse_card(onto)), line
            checked.add(kind)
        m = re.match(r"bot-\d covers (\S+) with (\S+)", line)
        if m and previous is not None and "cheat" not in step.marks:
            assert card_code(parse_card(m.group(1))) in previous.zones["table"], line
            checked.add("covers")
        previous = step.board or previous
    assert checked == {"moves", "lays", "covers"}


def test_one_seat_sees_no_hidden_card_and_no_uncalled_cheat_but_its_own(durak_log):
    log = read_log(durak_log)
    full = list(replay_lines(log))
    assert [x for x in full if "✗" in x]
    r = Replay(log, seat=0)
    before = None
    for step in r.steps:
        if step.board is None:
            continue
        hidden = step.board.hidden[0] if before is None else step.board.hidden[0] & before.hidden[0]
        for line in step.text(verbose=True) + r.board_lines(step.board):
            assert not codes(line) & hidden, (step.index, line)
        before = step.board
    seat0 = [x for s in r.steps for x in s.text()]
    own = {i for i, e in enumerate(events(log, "action")) if e["_violations"] and e["seat"] == 0}
    assert len([x for x in seat0 if "✗" in x]) == len(own)
    assert any(x.startswith("   │ рука bot-0") and "▒" not in x for x in r.board_lines(r.steps[0].board))


def test_the_audit_counts_cheats_convictions_false_calls_payments_and_the_order(pidor_log):
    log = read_log(pidor_log)
    lines = list(replay_lines(log, lang="en"))
    actions = events(log, "action")
    rows = {int(m.group(1)): m.groups()[1:] for x in lines
            if (m := re.match(r"   bot-(\d)\s+(\d+)/(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/(\d+)$", x))}
    assert sorted(rows) == [0, 1, 2]
    for seat, (called, uncalled, convicted, false_calls, paid, got) in rows.items():
        cheats = sum(1 for e in actions if e["seat"] == seat and e["_violations"])
        assert int(called) + int(uncalled) == cheats
        assert int(convicted) == sum(1 for e in events(log, "verdict")
                                     if e["outcome"] == "guilty" and e["accused"] == seat)
        assert int(false_calls) == sum(1 for e in events(log, "verdict")
                                       if e["outcome"] == "honest" and e["caller"] == seat)
        assert int(paid) == sum(1 for e in events(log, "give") if e["from"] == seat)
        assert int(got) == sum(1 for e in events(log, "give") if e["to"] == seat)
    assert sum(int(v[0]) for v in rows.values()) == len(events(log, "court"))  # every called cheat was judged
    result = log.footer["result"]
    assert lines[-1].startswith("   order: " + ", ".join(f"bot-{s}" for s in result["order"]))
    assert lines[-1].endswith(f"lost: bot-{result['loser']}")
    # One seat does not know the others' uncalled cheats.
    seat_lines = list(replay_lines(log, seat=1, lang="en"))
    assert any(re.match(r"   bot-0\s+\d+/\?", x) for x in seat_lines)
    assert any(re.match(r"   bot-1\s+\d+/\d+", x) for x in seat_lines)


def test_step_shows_the_board_and_jumps_to_the_next_cheat_call_or_court(pidor_log):
    runner = CliRunner()
    log = read_log(pidor_log)
    first = next(s for s in Replay(log, lang="en").steps if s.marks)
    r = runner.invoke(replay_cmd, [pidor_log, "--step", "--lang", "en"], input="n\nq\n")
    assert r.exit_code == 0, r.output
    shown = r.output.split("> ")
    assert len(shown) == 3  # the deal, the jump, quit
    assert "┌ trump" in shown[1] and "│ stack of bot-0" in shown[1]
    assert shown[1].splitlines()[0] in first.text()[0] or first.text()[0] in shown[1]
    assert "audit" not in r.output  # q stops
    r = runner.invoke(replay_cmd, [pidor_log, "--step", "--lang", "en"], input="\n\n")
    assert r.exit_code == 0 and r.output.count("> ") == 3  # then the end of input: the rest, unstopped
    assert "audit" in r.output and r.output.count("┌ trump") == 3


def test_broken_logs_exit_1_with_the_problem_on_stderr_first(durak_log, tmp_path):
    runner = CliRunner()
    raw = open(durak_log, "rb").read()
    cut = tmp_path / "cut.plog"
    cut.write_bytes(raw[: len(raw) // 2])
    tampered = tmp_path / "tampered.plog"
    tampered.write_bytes(raw[:3000] + bytes([raw[3000] ^ 1]) + raw[3001:])
    out = tmp_path / "game.jsonl"
    assert runner.invoke(export_cmd, [durak_log, "-o", str(out)]).exit_code == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    act = next(k for k, rec in enumerate(lines) if rec["kind"] == "act" and rec["action"].get("card"))
    lines[act]["action"]["card"] = "Ah" if lines[act]["action"]["card"] != "Ah" else "Kh"
    forged = tmp_path / "forged.jsonl"  # an unchained form (no "h"), with an altered action
    forged.write_text("\n".join(json.dumps({k: v for k, v in rec.items() if k != "h"}) for rec in lines) + "\n")
    for path, why in ((cut, "unfinished"), (tampered, "corrupt"), (forged, "at record")):
        r = runner.invoke(replay_cmd, [str(path), "--lang", "en"])
        assert r.exit_code == 1, (path, r.output)
        assert r.output.splitlines()[0].startswith(f"{path}: broken log: ") and why in r.output.splitlines()[0]
        assert r.stderr.count("broken log") == 1 and "broken" not in r.stdout
        assert r.stdout.startswith("perevodnoy")  # what can be shown still is
    r = runner.invoke(export_cmd, [str(cut), "-o", str(tmp_path / "cut.jsonl")])
    assert r.exit_code == 1 and r.output.startswith(f"{cut}: broken log: unfinished")
    written = (tmp_path / "cut.jsonl").read_text().splitlines()
    assert written and json.loads(written[0])["kind"] == "header"
    assert runner.invoke(replay_cmd, [durak_log]).exit_code == 0


def test_cli_replay_export_and_jsonl_input(durak_log, tmp_path):
    runner = CliRunner()
    r = runner.invoke(replay_cmd, [durak_log, "--seat", "1"])
    assert r.exit_code == 0, r.output
    assert "переводной дурак — игроков 3" in r.output  # the game by its name (issue 28 §2)
    assert runner.invoke(replay_cmd, [durak_log, "--seat", "7"]).exit_code == 2
    assert runner.invoke(replay_cmd, [durak_log, "--html", str(tmp_path / "x.html"), "--seat", "1"]).exit_code == 2
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


def test_the_header_speaks_the_replays_language(pidor_log):
    """Russian (the default) is Russian from the first line; English stays English."""
    log = read_log(pidor_log)
    ru = list(replay_lines(log))[:6]
    en = list(replay_lines(log, lang="en"))[:6]
    assert ru[0].startswith("«пидор» — игроков 3, колода 52") and "players" not in " ".join(ru)
    assert any("раздача заверена: SHA-256" in line for line in ru)
    assert en[0].startswith("«pidor» — 3 players, deck 52") and any("deal committed: SHA-256" in line for line in en)
