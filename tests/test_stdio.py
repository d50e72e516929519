"""Issue 26 §1: ``stdio:`` bots, one loop over stdin and stdout (protocol/STDIO.md). The
lines the host writes and the answers it takes; a match of them in-process (the sample
bots in Python and sh, a rotated match whose logs verify); a bot that misbehaves forfeits
with its reason and the match goes on; Ctrl-C leaves no bot behind. The only real time
waited is a silent bot's move time (0.3 s)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import ended, first_fast

from pidor.bots.policy import Observation
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import _project as project_logged
from pidor.gamelog.verify import verify
from pidor.match.command import match
from pidor.stdio import lines
from pidor.stdio.lines import BadAnswer

ROOT = Path(__file__).resolve().parent.parent
PY_BOT = f"stdio:{sys.executable} {ROOT / 'clients/stdio/bot.py'}"
SH_BOT = f"stdio:sh {ROOT / 'clients/stdio/bot.sh'}"
BAD = f"stdio:{sys.executable} {ROOT / 'tests/bots/bad_stdio_bot.py'} "


def invoke(tmp_path, *args: str):
    return CliRunner().invoke(match, [*args, "--seed", "stdio", "--logs", str(tmp_path / "logs"), "--stderr",
                                      str(tmp_path / "err"), "--results", str(tmp_path / "results.jsonl"), "--json"])


def run(tmp_path, *args: str) -> tuple[dict, list[dict]]:
    r = invoke(tmp_path, *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def verified(record: dict):
    log = read_log(record["log"])
    report = verify(log, record["log"])
    assert report.ok, report
    assert log.footer["result"]["loser"] == record["loser"] and log.footer["forfeits"] == record["forfeits"]
    return log


# --- the lines ------------------------------------------------------------------------------


class Seen(Observation):
    """An observation with fixed answers."""

    def __init__(self, seat=1, may_wait=False, window=None, court=None) -> None:
        super().__init__(seat, {"game": "g", "players": 3})
        self._may_wait, self._window, self._court = may_wait, window, court

    view = property(lambda self: {"hand": ["7c"]})
    may_wait = property(lambda self: self._may_wait)
    window = property(lambda self: self._window)
    court = property(lambda self: self._court)

    def visible_violations(self, seat, action):
        return ("P3",)


def test_a_line_names_its_type_first_then_what_is_decided_then_the_view_and_events():
    """A line-oriented bot (sh, awk) finds ``type`` at the start and the decision's own
    fields before anything the view or the events could hold."""
    options = [{"type": "draw"}, {"type": "move", "to": 2}]
    made = [lines.turn(Seen(), [], options, 1),
            lines.window(Seen(window={"seat": 2, "action": {"type": "draw"}}), []),
            lines.court(Seen(court={"caller": 0, "accused": 2, "action": {"type": "draw"},
                                    "rules": [{"id": "P3", "ru": "", "en": ""}]}), [])]
    assert [list(m) for m in made] == [
        ["type", "seat", "honest", "may_wait", "options", "view", "events"],
        ["type", "seat", "actor", "action", "visible", "view", "events"],
        ["type", "seat", "caller", "accused", "action", "rules", "view", "events"]]
    assert [lines.encode(m).decode().startswith('{"type":"' + m["type"] + '","seat":1,') for m in made] == [True] * 3
    assert made[1]["visible"] == ["P3"] and made[2]["rules"] == ["P3"]


def test_paying_for_the_mark_is_pay_and_a_turn_with_no_honest_option_may_wait():
    """D12, T14: a turn whose honest options all give a card is a payment choice."""
    give = [{"type": "give", "card": "7c"}, {"type": "give", "card": "8c"}]
    assert lines.turn(Seen(), [], give, 2)["type"] == "pay"
    assert lines.turn(Seen(), [], give + [{"type": "draw"}], 3)["type"] == "turn"
    assert lines.turn(Seen(), [], give, 0) == {**lines.turn(Seen(), [], give, 0), "type": "turn", "may_wait": True}
    assert lines.turn(Seen(), [], give, 1)["may_wait"] is False


@pytest.mark.parametrize("answer, why", [
    ("", "not JSON"), ("{oops", "not JSON"), (b"\xff", "not UTF-8"), ("2", "option 2 of 2 (0..1)"),
    ("-1", "option -1 of 2"), ("1.0", "no option number"), ("true", "no option number"),
    ('{"type": "move", "to": 9}', "none of the options"), ("null", "null to a turn it must play")])
def test_a_turn_answered_with_anything_but_an_option_is_a_bad_answer(answer, why):
    options = [{"type": "draw"}, {"type": "move", "to": 2}]
    with pytest.raises(BadAnswer, match=re.escape(why)):
        lines.parse_choice(answer, options, False)


def test_what_each_question_takes():
    options = [{"type": "draw"}, {"type": "move", "to": 2}]
    assert lines.parse_choice("1", options, False) == 1
    assert lines.parse_choice(' {"to": 2, "type": "move"} ', options, False) == 1  # (the option itself)
    assert lines.parse_choice("null", options, True) is None
    assert [lines.parse_call(a) for a in ("true", "false")] == [True, False]
    assert [lines.parse_vote(a) for a in ("true", "false", "null")] == [True, False, None]
    assert lines.parse_hello("{}") == lines.Hello(None, True, True)
    assert lines.parse_hello('{"name": "x", "calls": false, "cheats": false, "more": 1}') == lines.Hello("x", False,
                                                                                                         False)
    for bad, parse in (("null", lines.parse_call), ("1", lines.parse_call), ("1", lines.parse_vote),
                       ("[]", lines.parse_hello), ('{"name": ""}', lines.parse_hello),
                       ('{"calls": 1}', lines.parse_hello)):
        with pytest.raises(BadAnswer):
            parse(bad)


# --- matches ----------------------------------------------------------------------------------


def test_the_sample_bots_play_a_rotated_match_and_their_logs_verify(tmp_path):
    summary, records = run(tmp_path, "--players", "3", "--games", "6", "--rotate",
                           "--entrant", f"py={PY_BOT}", "--entrant", f"sh={SH_BOT}", "--seat", "builtin:random")
    assert summary["games"] == 6 and sorted(r["index"] for r in records) == list(range(6))
    rows = {e["name"]: e for e in summary["entrants"]}
    assert all(rows[n]["games"] == 6 and rows[n]["forfeits"] == 0 for n in rows)
    for r in records:
        assert r["forfeits"] == []
        log = verified(r)
        kinds = {name: seat["kind"] for name, seat in zip(r["seating"], log.header["seats"])}
        assert kinds == {"py": "external", "sh": "external", "builtin:random": "bot"}
        # every turn of a stdio seat was timed; a built-in one runs with no clock
        assert [t is None for t in r["time"]] == [name == "builtin:random" for name in r["seating"]]
        assert all(t[0] > 0 and 0 <= t[2] <= t[1] for t in r["time"] if t is not None)
    assert sorted(p.name for p in (tmp_path / "err").glob("*.stderr")) == ["py.stderr", "sh.stderr"]


@pytest.mark.slow
def test_a_bot_that_draws_its_chance_from_start_plays_the_same_games_at_any_concurrency(tmp_path):
    """T10: ``start`` gives the seat's seed of the match (the Python sample seeds its
    random choices with it), so its games do not depend on which process played before."""
    def games(concurrency: str) -> list[dict]:
        _, records = run(tmp_path / concurrency, "--players", "3", "--games", "4", "--seat", PY_BOT,
                         "--seat", PY_BOT, "--concurrency", concurrency)
        return sorted(({k: v for k, v in r.items() if k not in ("time", "log")} for r in records),
                      key=lambda r: r["index"])

    assert games("1") == games("2")


def test_a_bot_reads_hello_then_each_game_from_start_to_end_then_quit(tmp_path):
    """The lines one bot read over two games: hello, then per game start, its decisions and
    end; quit last. The events of a game's lines, put together, are the seat's projection
    of every event of the game, in order (the log's)."""
    seen = tmp_path / "seen.txt"
    _, records = run(tmp_path, "--players", "2", "--games", "2", "--seat", f"{BAD}play {seen}")
    got = [json.loads(line) for line in seen.read_text().splitlines()[1:]]
    assert got[0]["type"] == "hello" and got[0]["protocol"] == lines.PROTOCOL and got[-1] == {"type": "quit"}
    games, game = [], None
    for msg in got[1:-1]:
        if msg["type"] == "start":
            game = [msg]
            games.append(game)
        else:
            game.append(msg)
    assert len(games) == 2
    for game, record in zip(games, sorted(records, key=lambda r: r["index"])):
        assert game[-1]["type"] == "end" and game[-1]["result"]["loser"] == record["loser"]
        assert {m["type"] for m in game[1:-1]} <= {"turn", "pay", "court"}  # (it never calls: no window)
        seat = game[0]["seat"]
        logged = [project_logged(e, seat) for body in read_log(record["log"]).records[1:] for e in body.get("events", ())]
        assert [e for m in game for e in m["events"]] == logged


MISBEHAVING = {"garbage": "garbage", "range": "garbage", "action": "garbage", "null": "garbage",
               "long": "garbage", "hello": "garbage", "crash": "crash", "fork": "crash"}


@first_fast
@pytest.mark.parametrize("modes", [("garbage", "range", "action", "null"), ("long", "hello", "crash", "fork")])
def test_bots_that_misbehave_forfeit_with_their_reason_and_the_match_goes_on(tmp_path, modes):
    """A line that is no answer, an option that is none, a silent turn it must play, a line
    too long, a hello that is not one: ``garbage``; a bot that exits: ``crash`` (what it
    forked ends with it). An honest stand-in plays the seat on (logged ``auto:
    forfeit``); the entrant's stderr says why."""
    summary, records = run(tmp_path, "--players", "4", "--games", "2",
                           *[a for m in modes for a in ("--entrant", f"{m}={BAD}{m}")])
    for r in records:
        log = verified(r)
        assert sorted((r["seating"][f["seat"]], f["reason"]) for f in r["forfeits"]) == sorted(
            (m, MISBEHAVING[m]) for m in modes)
        assert {rec["seat"] for rec in log.records if rec.get("auto") == "forfeit"}
    rows = {e["name"]: e for e in summary["entrants"]}
    for m in modes:
        err = (tmp_path / "err" / f"{m}.stderr").read_text()
        said = re.findall(rf"pidor match: game \d, seat \d: forfeits \({MISBEHAVING[m]}\): (.*)", err)
        assert len(said) == 2, err
        assert rows[m]["forfeit_reasons"] == {MISBEHAVING[m]: 2} and rows[m]["stderr_last"].startswith("pidor match")
    if "fork" in modes:
        for child in re.findall(r"forked (\d+)", (tmp_path / "err" / "fork.stderr").read_text()):
            assert ended(int(child))


@first_fast
@pytest.mark.parametrize("limit, reason", [("--move-time", "timeout"), ("--game-time", "game_time")])
def test_a_silent_bot_forfeits_when_its_time_runs_out(tmp_path, limit, reason):
    summary, [record] = run(tmp_path, "--players", "2", "--games", "1", limit, "0.3", "--entrant", f"mute={BAD}silent")
    assert record["forfeits"] == [{"seat": 0, "reason": reason}]
    verified(record)


def test_a_bot_that_cannot_start_stops_the_match_with_exit_3(tmp_path):
    r = invoke(tmp_path, "--players", "2", "--games", "10", "--entrant", f"gone=stdio:{tmp_path / 'no-such-bot'}",
               "--report-every", "0")
    assert r.exit_code == 3, r.output
    [line] = r.stderr.splitlines()
    assert line.startswith("Error: stopped: gone forfeited its first 3 games (absent 3); its stderr (") and (
        "forfeits (absent): cannot start" in line), line


@pytest.mark.slow
def test_ctrl_c_ends_a_stdio_match_and_its_bots_with_one_line(tmp_path):
    """Exit 130, the one line of Ctrl-C, and the bot (whose pid it told through a FIFO,
    read here: no clock) has ended; the game under way is cut off, not played out by a
    stand-in as if the bot had crashed."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "pidor.cli", "match", "--players", "2", "--games", "100000",
                             "--seat", f"{BAD}play {fifo}", "--results", str(tmp_path / "r.jsonl"), "--seed", "c",
                             "--stderr", str(tmp_path / "err")],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with open(fifo, encoding="utf-8") as f:
            bot = int(f.readline().split()[1])
            f.readline()  # (it has read hello)
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert re.fullmatch(r"interrupted after \d+ of 100000 games; continue with --resume \S+ --seed c and the same "
                        r"other options\n", err), err
    assert ended(bot)
    assert "forfeits" not in (tmp_path / "err" / "fifo.stderr").read_text()
