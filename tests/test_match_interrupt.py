"""Issue 21 §2: Ctrl-C stops a match with one line that says how far it got and how to go
on, exit 130, and no process left behind (no traceback, no worker's); a bot that does not
come is reported while the match waits for it. Real SIGINTs to a ``pidor match``
subprocess; the tests wait on its lines of output, never on the clock."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ended, first_fast

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": f"{ROOT / 'tests/bots'}:{ROOT}"}


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pidor.cli", "match", *args], cwd=tmp_path, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def interrupt(process: subprocess.Popen) -> tuple[str, str]:
    """SIGINT, then the rest of its stdout and stderr once it has ended."""
    try:
        process.send_signal(signal.SIGINT)
        err = process.stderr.read()
        out = process.stdout.read()
        process.wait(timeout=60)
        return out, err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
def test_a_bot_that_never_says_hello_is_reported_and_ctrl_c_ends_the_match_and_its_programs(tmp_path):
    """The bot connects and says nothing (and forked a child before): the runner says,
    while it waits, whom it waits for and what it sees; Ctrl-C then ends the match, the
    bot and its child."""
    silent = f"cmd:{sys.executable} {ROOT / 'tests/bots/bad_bot.py'} silent"
    results = tmp_path / "r.jsonl"
    match = start(tmp_path, "--players", "2", "--games", "2", "--entrant", f"silent={silent}", "--seat",
                  "builtin:random", "--results", str(results), "--stderr", str(tmp_path / "err"))
    line = match.stderr.readline()
    said = re.fullmatch(r"game 1, seat (\d): waiting (\d+) s for silent \(pid (\d+)\) to say hello with its token; "
                        r"1 connection to the match's server said no hello yet; it forfeits the game \(absent\) in "
                        r"(\d+) s\n", line)
    if said is None:
        interrupt(match)
        pytest.fail(f"not a report of the wait: {line!r}")
    out, err = interrupt(match)
    assert match.returncode == 130, err
    *waits, last = err.splitlines()
    assert re.fullmatch(rf"interrupted after 0 of 2 games; continue with --resume {re.escape(str(results))} --seed "
                        r"[0-9a-f]{16} and the same other options", last), last
    assert all(w.startswith("game 1, seat ") for w in waits), err  # (more of the same report, if it was slow)
    assert out == ""
    bot = int(said.group(3))
    log = (tmp_path / "err" / "silent.stderr").read_text()
    child = int(re.search(r"forked (\d+)", log).group(1))
    assert f"pid {bot}" in log
    assert ended(bot) and ended(child)


def play_then_interrupt(tmp_path: Path, concurrency: int, *args: str) -> tuple[subprocess.Popen, str, set[int]]:
    """Start an in-process match of 100,000 games, SIGINT it once each of its
    ``concurrency`` processes has played; the match, its one line and the pids that played."""
    match = start(tmp_path, "--players", "4", "--games", "100000", "--concurrency", str(concurrency),
                  "--seat", "py:my_policies:Announcer", *args)
    players = set()
    while len(players) < concurrency:
        line = match.stderr.readline()
        said = re.fullmatch(r"playing in pid (\d+)\n", line)
        if said is None:
            interrupt(match)
            pytest.fail(f"not a worker's announcement: {line!r}")
        players.add(int(said.group(1)))
    out, err = interrupt(match)
    assert match.returncode == 130, err
    assert "Traceback" not in err and "ForkPoolWorker" not in err and "Aborted" not in err, err
    assert out == ""
    [line] = err.splitlines()
    return match, line, players


@first_fast
@pytest.mark.parametrize("concurrency", [2, 1])
def test_ctrl_c_stops_in_process_games_with_one_line_and_no_worker_left(tmp_path, concurrency):
    """In worker processes (``--concurrency 2``) or in the runner's own: one line, exit 130,
    no worker left; the games finished are in ``--results``, and the line's ``--resume`` and
    ``--seed`` continue the match."""
    results = tmp_path / "r.jsonl"
    match, line, players = play_then_interrupt(tmp_path, concurrency, "--results", str(results))
    assert all(ended(pid) for pid in players if pid != match.pid)
    done = len(results.read_text().splitlines())
    said = re.fullmatch(rf"interrupted after {done} of 100000 games; continue with --resume {re.escape(str(results))} "
                        r"--seed ([0-9a-f]{16}) and the same other options", line)
    assert said, line
    _, again, _ = play_then_interrupt(tmp_path, concurrency, "--resume", str(results), "--seed", said.group(1))
    more = int(re.match(r"interrupted after (\d+) of 100000", again).group(1))  # (not a usage error: the same match)
    assert more == len(results.read_text().splitlines()) >= done


def test_ctrl_c_without_results_says_how_to_keep_them(tmp_path):
    _, line, _ = play_then_interrupt(tmp_path, 1)
    assert re.fullmatch(r"interrupted after \d+ of 100000 games; they are not kept: give --results FILE to "
                        r"continue a match later with --resume FILE", line), line
