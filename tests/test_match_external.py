"""`pidor match` with external programs (issue 9 items 1 and 2): ``cmd:`` entrants play on
a local server, stay seated from game to game (across tables and seats), and a bot that
crashes, hangs or sends garbage forfeits its game to an honest stand-in; the match goes on
and every game is recorded and logged. Issue 21: the summary says why each forfeited and
how its stderr ends; a bot that forfeits its first games stops the match (exit 3); a bot's
children end with it; its stderr file is capped; its token gives it its seat and nothing
more. These tests launch real processes; the hang is found by the server's turn clock
(``--move-time 0.5``), the only real time they wait."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import announced_port, ended

from pidor.client import Client, ServerError
from pidor.gamelog.replay import Replay
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.match.command import match
from pidor.match.launch import STDERR_HEAD, STDERR_TAIL

ROOT = Path(__file__).resolve().parent.parent
# (the bot finds its server and token in PIDOR_HOST, PIDOR_PORT and PIDOR_TOKEN)
SAMPLE = f"cmd:{sys.executable} {ROOT / 'clients/python/random_bot.py'} --games 0"
BAD = f"cmd:{sys.executable} {ROOT / 'tests/bots/bad_bot.py'} {{mode}}"


def invoke(tmp_path, *args: str):
    return CliRunner().invoke(match, [*args, "--seed", "ext", "--logs", str(tmp_path / "logs"),
                                                      "--stderr", str(tmp_path / "err"), "--results",
                                                      str(tmp_path / "results.jsonl"), "--json"])


def run(tmp_path, *args: str) -> tuple[dict, list[dict]]:
    r = invoke(tmp_path, *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def verified(record: dict) -> dict:
    log = read_log(record["log"])
    report = verify(log, record["log"])
    assert report.ok, report
    assert log.footer["result"]["order"] == record["order"] and log.footer["result"]["loser"] == record["loser"]
    assert log.footer["forfeits"] == record["forfeits"]
    return log


@pytest.mark.slow
def test_two_sample_bots_and_a_builtin_rotate_over_two_tables_and_the_logs_verify(tmp_path):
    summary, records = run(tmp_path, "--players", "3", "--games", "6", "--rotate", "--concurrency", "2",
                           "--entrant", f"a={SAMPLE} --stats", "--entrant", f"b={SAMPLE}", "--seat", "builtin:random")
    # (rows are sorted by rating, and the sample bots' games are not reproducible)
    assert summary["games"] == 6 and sorted(e["name"] for e in summary["entrants"]) == ["a", "b", "builtin:random"]
    assert sorted(r["index"] for r in records) == list(range(6))
    for r in records:
        assert r["forfeits"] == [], r  # the sample bots answered every turn in time
        log = verified(r)
        seats = log.header["seats"]
        assert [s["name"] for s in seats] == r["seating"]
        assert [s["kind"] for s in seats] == ["bot" if n == "builtin:random" else "human" for n in r["seating"]]
        header = Replay(log, None, "ru").header_lines()[1:1 + len(seats)]  # a program is not a person (issue 28 §2)
        assert [x.endswith(": программа") for x in header] == [n != "builtin:random" for n in r["seating"]]
    for e in summary["entrants"]:
        assert e["games"] == 6 and e["forfeits"] == 0
    # Every entrant held every seat on each deal (duplicate deals).
    for deal in (0, 1):
        rows = [r["seating"] for r in records if r["deal"] == deal]
        assert {s[0] for s in rows} == {"a", "b", "builtin:random"}
    assert sorted(p.name for p in (tmp_path / "err").iterdir()) == ["a.stderr", "b.stderr"]
    # Stopped by the runner (SIGTERM) at the end, each of a's programs said what it received and sent.
    traffic = re.findall(r"traffic: received (\d+) frames \((\d+) bytes\), sent (\d+) frames \((\d+) bytes\)",
                         (tmp_path / "err" / "a.stderr").read_text())
    assert traffic and "traffic" not in (tmp_path / "err" / "b.stderr").read_text()
    for frames_in, bytes_in, frames_out, bytes_out in traffic:
        assert int(frames_in) > 100 and int(frames_out) > 10  # (an act or a pass per few frames received)
        assert int(bytes_in) > 5 * int(frames_in) and int(bytes_out) > 5 * int(frames_out)


@pytest.mark.slow
def test_bots_that_crash_hang_or_send_garbage_forfeit_and_the_match_goes_on(tmp_path):
    """``refused``: a bot whose every request is refused as malformed forfeits after
    MAX_REFUSED of them (else it could hold its turn for ever: each refusal prompts anew)."""
    summary, records = run(tmp_path, "--players", "4", "--games", "2", "--move-time", "0.5",
                           "--entrant", f"crash={BAD.format(mode='crash')}",
                           "--entrant", f"hang={BAD.format(mode='hang')}",
                           "--entrant", f"garbage={BAD.format(mode='garbage')}",
                           "--entrant", f"refused={BAD.format(mode='refused')}")
    assert summary["games"] == 2 and len(records) == 2
    reasons = {"crash": "crash", "hang": "timeout", "garbage": "garbage", "refused": "garbage"}
    for r in records:
        log = verified(r)
        assert sorted((r["seating"][f["seat"]], f["reason"]) for f in r["forfeits"]) == sorted(reasons.items())
        autos = {rec["seat"] for rec in log.records if rec.get("auto") == "forfeit"}
        assert autos <= {0, 1, 2, 3} and autos  # the stand-ins' actions are marked in the log
        assert log.header["extra"]["match"] == {"index": r["index"], "deal": r["deal"], "seating": r["seating"]}
    assert {e["name"]: e["forfeits"] for e in summary["entrants"]} == {n: 2 for n in reasons}
    for name in reasons:  # each bot's stderr, in its entrant's file, from both launches
        assert (tmp_path / "err" / f"{name}.stderr").read_text().count(f"misbehaving: {name}") == 2
    # Issue 21: why each forfeited, where its stderr is and what it said last.
    rows = {e["name"]: e for e in summary["entrants"]}
    assert {n: rows[n]["forfeit_reasons"] for n in reasons} == {n: {why: 2} for n, why in reasons.items()}
    assert {n: rows[n]["stderr"] for n in reasons} == {n: str(tmp_path / "err" / f"{n}.stderr") for n in reasons}
    assert rows["crash"]["stderr_last"] == "misbehaving: crash" and rows["hang"]["stderr_last"] == "misbehaving: hang"


def test_a_bot_that_cannot_start_stops_the_match_with_exit_3_and_its_stderr(tmp_path):
    """Issue 21 §2: a program that cannot start forfeits every game to the stand-in; it is
    no player to rate. It forfeits its first 3 games (--max-forfeits' default) and the
    match stops, exit 3, with one line naming it, why and its stderr's last line."""
    missing = tmp_path / "nosuchfile.py"
    r = invoke(tmp_path, "--players", "2", "--games", "10", "--entrant", f"bad=cmd:{sys.executable} {missing}",
               "--seat", "builtin:random", "--report-every", "0")
    assert r.exit_code == 3, r.output
    assert r.stdout == ""
    [line] = r.stderr.splitlines()
    assert line.startswith("Error: stopped: bad forfeited its first 3 games (absent 3); its stderr ("
                           f"{tmp_path / 'err' / 'bad.stderr'}): ") and "can't open file" in line, line
    assert "--max-forfeits 0" in line
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(records) == 3 and all(x["forfeits"] == [{"seat": x["seating"].index("bad"), "reason": "absent"}]
                                     for x in records)


def test_max_forfeits_0_plays_on_and_the_summary_says_why(tmp_path):
    missing = tmp_path / "nosuchfile.py"
    r = invoke(tmp_path, "--players", "2", "--games", "4", "--max-forfeits", "0",
               "--entrant", f"bad=cmd:{sys.executable} {missing}", "--seat", "builtin:random")
    assert r.exit_code == 0, r.output
    bad = {e["name"]: e for e in json.loads(r.stdout)["entrants"]}["bad"]
    assert bad["forfeits"] == 4 and bad["forfeit_reasons"] == {"absent": 4}
    assert bad["stderr"] == str(tmp_path / "err" / "bad.stderr") and "can't open file" in bad["stderr_last"]
    text = CliRunner().invoke(match, ["--players", "2", "--games", "4", "--max-forfeits", "0",
                                                      "--entrant", f"bad=cmd:{sys.executable} {missing}",
                                                      "--stderr", str(tmp_path / "err2")])
    assert text.exit_code == 0, text.output
    said = next(line for line in text.stdout.splitlines() if line.startswith("bad: "))
    assert said.startswith(f"bad: forfeits absent 4; stderr {tmp_path / 'err2' / 'bad.stderr'}, last line: ")
    assert "can't open file" in said


def test_what_a_bot_forks_ends_with_it(tmp_path):
    """Issue 21 §8: each program runs in a process group of its own, and the whole group
    is ended: a child it forked is not left running after the match."""
    summary, records = run(tmp_path, "--players", "2", "--games", "2", "--entrant", f"fork={BAD.format(mode='fork')}",
                           "--seat", "builtin:random")
    assert all(r["forfeits"] == [] for r in records)
    err = (tmp_path / "err" / "fork.stderr").read_text()
    children = [int(pid) for pid in re.findall(r"forked (\d+)", err)]
    bots = [int(pid) for pid in re.findall(r"^pid (\d+)", err, re.M)]
    assert children and bots
    assert all(ended(pid) for pid in children + bots)


def test_a_flooding_bot_s_stderr_is_cut_to_its_head_and_tail(tmp_path):
    """Issue 21 §8: a bot that writes megabytes to stderr fills no disk: its file keeps the
    first STDERR_HEAD bytes and the last STDERR_TAIL, and says how much was cut."""
    from bots.bad_bot import FLOOD, FLOOD_LINE

    summary, records = run(tmp_path, "--players", "2", "--games", "1", "--entrant",
                           f"flood={BAD.format(mode='flood')}", "--seat", "builtin:random")
    assert records[0]["forfeits"] == []
    data = (tmp_path / "err" / "flood.stderr").read_bytes()
    head, marker, tail = re.split(rb"\n(\[pidor: \d+ bytes of stderr cut here[^\n]*\])\n", data)
    assert len(head) == STDERR_HEAD and len(tail) == STDERR_TAIL
    pid_line = data[:data.index(b"\n") + 1]
    cut = len(pid_line) + FLOOD - STDERR_HEAD - STDERR_TAIL
    assert marker.startswith(f"[pidor: {cut} bytes".encode())
    assert head.startswith(pid_line + FLOOD_LINE.format(0).encode())
    assert tail.endswith(FLOOD_LINE.format(FLOOD // 64 - 1).encode())
    assert {e["name"]: e for e in summary["entrants"]}["flood"]["stderr_last"] == FLOOD_LINE.format(FLOOD // 64 - 1).strip()


def test_a_seat_s_token_gives_that_seat_and_nothing_else_for_the_match_s_life(tmp_path):
    """Issue 21 §8: with its token a bot plays the seats the match gives it. It cannot
    open a table of its own, watch its table (a rotated match deals the same cards at
    other tables) or seed the deal (the match's seed deals); after the match the token
    opens nothing."""
    summary, records = run(tmp_path, "--players", "2", "--games", "2", "--rotate", "--entrant",
                           f"nosy={BAD.format(mode='intrude')}", "--seat", "builtin:random")
    assert all(r["forfeits"] == [] for r in records) and all(verify(read_log(r["log"]), r["log"]).ok for r in records)
    err = (tmp_path / "err" / "nosy.stderr").read_text()
    for asked, code in (("create", "server_full"), ("watch", "spectators_full"), ("seed", "not_host")):
        assert f"{asked}: {code}" in err, err
    port, token = re.search(r"address (\d+) (\S+)", err).groups()
    try:
        Client("127.0.0.1", int(port), "late", token, timeout=5).connect()
    except ServerError as e:  # (another server took the port meanwhile)
        assert e.code == "unknown_token"
    except OSError:
        pass  # the match's server is gone
    else:
        pytest.fail("the token still worked after the match")


@pytest.mark.slow
def test_a_tcp_entrant_is_a_running_bot_that_connects_with_its_token(tmp_path):
    """``tcp:TOKEN``: the runner says where it listens and waits; the sample bot, started
    by hand with ``--token``, is seated for every game of that entrant in one connection."""
    token = "far-away-bot-01"
    match_proc = subprocess.Popen(
        [sys.executable, "-m", "pidor.cli", "match", "--players", "2", "--games", "3", "--seed", "tcp",
         "--entrant", f"far=tcp:{token}", "--seat", "builtin:random", "--logs", str(tmp_path / "logs"), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    bot = None
    try:
        port = announced_port(match_proc.stderr, r"waiting for tcp: bots at 127\.0\.0\.1:(\d+)")
        assert port, "the runner did not say where it listens"
        bot = subprocess.Popen([sys.executable, str(ROOT / "clients/python/random_bot.py"), "--port", str(port),
                                "--token", token, "--name", "far", "--games", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out, _ = match_proc.communicate(timeout=60)
        assert match_proc.returncode == 0
        summary = json.loads(out)
        bot_out, _ = bot.communicate(timeout=30)
    finally:
        for p in (match_proc, bot):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
    far = {e["name"]: e for e in summary["entrants"]}["far"]
    assert far["games"] == 3 and far["forfeits"] == 0
    assert bot_out.count(" over: ") == 3 and "back at table" in bot_out  # one connection, seated by its token
    assert "not_host" not in bot_out  # (it never asked to start: the runner is the host)
    for path in sorted((tmp_path / "logs").iterdir()):
        log = read_log(path)
        assert verify(log, str(path)).ok
        seat = log.header["extra"]["match"]["seating"].index("far")
        assert log.header["seats"][seat]["kind"] == "human" and log.header["seats"][seat]["name"] == "far"


@pytest.mark.slow
def test_programs_that_exit_after_each_game_are_launched_again(tmp_path):
    """``--games 1``: the sample bot leaves and exits after its game; the runner does not
    seat it on that connection again but launches it afresh for its next game (or at once,
    when its leave came after that game began: the seat is away meanwhile). No game is
    forfeited and every log verifies."""
    once = SAMPLE.replace("--games 0", "--games 1")
    summary, records = run(tmp_path, "--players", "3", "--games", "6", "--rotate", "--concurrency", "2",
                           "--entrant", f"a={once}", "--entrant", f"b={once}", "--seat", "builtin:random")
    assert sorted(r["index"] for r in records) == list(range(6))
    for r in records:
        assert r["forfeits"] == [], r
        verified(r)
    assert {e["name"]: (e["games"], e["forfeits"]) for e in summary["entrants"]} == {
        "a": (6, 0), "b": (6, 0), "builtin:random": (6, 0)}
