"""External matches on every core (issue 29 goal 2, ``pidor.match.processes``): with
``--concurrency 2`` and ``cmd:`` entrants the games are played by two server processes,
each game once, every log verifies; Ctrl-C ends both, their programs too, with one line.
Each bot tells the test which server it was launched for through a FIFO the test reads
(a blocking read: the tests wait on it, never on the clock)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ended

from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.match.entrants import parse_entrant
from pidor.match.processes import processes

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def telling(fifo: Path) -> str:
    """A ``cmd:`` sample bot that first writes ``PORT PID`` to ``fifo``."""
    bot = f"{sys.executable} {ROOT / 'clients/python/random_bot.py'} --games 0"
    return f'cmd:sh -c "echo {{port}} $$ > {fifo}; exec {bot}"'


def opened(fifo: Path):
    """The FIFO to read, held open for writing too: it never reads as ended between two bots'
    lines, and a bot's line never waits for a reader."""
    return os.fdopen(os.open(fifo, os.O_RDWR), "r")


def start(tmp_path: Path, games: int, fifo: Path, *args: str) -> subprocess.Popen:
    os.mkfifo(fifo)
    return subprocess.Popen([sys.executable, "-m", "pidor.cli", "match", "--players", "2", "--games", str(games),
                             "--concurrency", "2", "--seed", "proc", "--seat", telling(fifo), "--seat",
                             "builtin:random", "--stderr", str(tmp_path / "err"), *args],
                            cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_how_many_servers_an_external_match_gets():
    cmd, tcp = parse_entrant("cmd:./bot"), parse_entrant("tcp:secret-token")
    cores = os.cpu_count() or 1
    assert processes([cmd], 2, 10, ("127.0.0.1", 0)) == min(2, cores)
    assert processes([cmd], 8, 10, ("127.0.0.1", 0)) == cores  # (at most one a core)
    assert processes([cmd], 1, 10, ("127.0.0.1", 0)) == 1
    assert processes([cmd], 2, 1, ("127.0.0.1", 0)) == 1  # one game
    assert processes([cmd, tcp], 2, 10, ("127.0.0.1", 0)) == 1  # a tcp: bot connects to one address
    assert processes([cmd], 2, 10, ("127.0.0.1", 7000)) == 1  # a port of the user's choice


@pytest.mark.slow
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: one server process")
def test_two_server_processes_play_the_games_once_each_and_the_logs_verify(tmp_path):
    fifo = tmp_path / "ports"
    match = start(tmp_path, 8, fifo, "--logs", str(tmp_path / "logs"), "--results", str(tmp_path / "r.jsonl"),
                  "--json")
    told = []
    with opened(fifo) as said:
        while len({port for port, _ in told}) < 2:  # (a bot of each server has come)
            told.append(said.readline().split())
        out, err = match.communicate(timeout=300)
    assert match.returncode == 0, err
    ports = {port for port, _ in told}
    assert len(ports) == 2, told  # two servers, each launched its own bot
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert sorted(r["index"] for r in records) == list(range(8))
    for r in records:
        assert r["forfeits"] == [], r
        assert verify(read_log(r["log"]), r["log"]).ok
    summary = json.loads(out)
    assert summary["games"] == 8 and {e["games"] for e in summary["entrants"]} == {8}


@pytest.mark.slow
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: one server process")
def test_ctrl_c_ends_both_servers_and_their_programs_with_one_line(tmp_path):
    fifo = tmp_path / "ports"
    results = tmp_path / "r.jsonl"
    match = start(tmp_path, 100_000, fifo, "--results", str(results))
    told = []
    with opened(fifo) as said:
        while len({port for port, _ in told}) < 2:  # (a bot of each server has come)
            told.append(said.readline().split())
        match.send_signal(signal.SIGINT)
        err = match.stderr.read()
        match.wait(timeout=120)
    assert match.returncode == 130, err
    assert "Traceback" not in err, err
    [line] = err.splitlines()
    done = len(results.read_text().splitlines())
    assert re.fullmatch(rf"interrupted after {done} of 100000 games; continue with --resume {re.escape(str(results))} "
                        r"--seed proc and the same other options", line), line
    assert all(ended(int(pid)) for _, pid in told)


def test_ray_refuses_what_needs_one_address_with_one_line():
    """--ray runs each table's server on a node of the cluster: a tcp: entrant or a fixed
    port cannot follow it; the match refuses before it starts (nothing played)."""
    from pidor.match import MatchError, run_match

    with pytest.raises(MatchError, match="tcp: entrant"):
        run_match("podkidnoy", 2, 2, specs=["tcp:secret-token", "builtin:random"], ray="auto")
    with pytest.raises(MatchError, match="--listen"):
        run_match("podkidnoy", 2, 2, specs=["cmd:./bot", "builtin:random"], ray="auto", listen=("127.0.0.1", 7000))
