"""Issue 26 §1-2: a ``stdio:`` bot at a server, through ``pidor bridge``: the sample bots
pass ``pidor conform``; at a match's server (beside a ``cmd:`` entrant) they play through
the bridge and their logs verify; ``pidor bridge`` plays games at a ``pidor serve``, comes
back after the server restarts (its token) and leaves the table on Ctrl-C. Real processes;
the tests wait on their lines of output, not on the clock."""

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
from helpers import announced_port, ended

from pidor.conform import conform
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.match.command import match
from pidor.stdio.bridge import create_options

ROOT = Path(__file__).resolve().parent.parent
BOTS = {"py": f"{sys.executable} {ROOT / 'clients/stdio/bot.py'}", "sh": f"sh {ROOT / 'clients/stdio/bot.sh'}"}
SDK = f"cmd:{sys.executable} {ROOT / 'clients/python/random_bot.py'} --games 0"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_the_sample_stdio_bots_pass_conform(bot):
    r = CliRunner().invoke(conform, [f"stdio:{BOTS[bot]}", "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 0 and out["passed"], [c for c in out["checks"] if not c["passed"]]
    assert "pidor.stdio.bridge" in out["command"]


@pytest.mark.slow
def test_stdio_bots_play_through_the_bridge_at_a_match_with_a_cmd_entrant(tmp_path):
    r = CliRunner().invoke(match, ["--players", "3", "--games", "3", "--rotate", "--seed", "mixed",
                                   "--entrant", f"py=stdio:{BOTS['py']}", "--entrant", f"sh=stdio:{BOTS['sh']}",
                                   "--entrant", f"sdk={SDK}", "--logs", str(tmp_path / "logs"),
                                   "--results", str(tmp_path / "r.jsonl"), "--json"])
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(records) == 3
    for record in records:
        assert record["forfeits"] == []
        log = read_log(record["log"])
        assert verify(log, record["log"]).ok
        assert [s["kind"] for s in log.header["seats"]] == ["human"] * 3  # (all over the protocol)
        assert all(turns > 0 and 0 <= longest <= seconds for turns, seconds, longest in record["time"])
    said = (tmp_path / "logs" / "py.stderr").read_text()
    assert "pidor bridge: the bot runs (pid " in said and "game 1 over" in said


def test_create_options_read_the_table_and_the_games_options():
    assert create_options("game=pidor,players=3,bots=2,call_window=1") == {
        "game": "pidor", "players": 3, "bots": 2, "call_window": 1.0}
    for bad, why in (("players", "KEY=VALUE"), ("game=chess", "no game 'chess'"), ("bots=x", "built-in bots"),
                     ("game=pidor,nope=1", "no option 'nope'")):
        with pytest.raises(ValueError, match=why):
            create_options(bad)


class Lines:
    """A process's stderr, read line by line up to the lines asked for."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc, self.seen = proc, []

    def until(self, pattern: str) -> re.Match:
        for line in self.proc.stderr:
            self.seen.append(line)
            m = re.search(pattern, line)
            if m:
                return m
        pytest.fail(f"never said {pattern!r}: {''.join(self.seen)}")


def serve(data: Path, port: int = 0) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "pidor.cli", "serve", "--port", str(port), "--data", str(data)],
                            stderr=subprocess.PIPE, text=True, env=ENV)
    return proc, announced_port(proc.stderr, r"listening on 127\.0\.0\.1:(\d+)")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


@pytest.mark.slow
def test_bridge_plays_at_a_server_comes_back_after_a_restart_and_leaves_on_ctrl_c(tmp_path):
    server, port = serve(tmp_path / "data")
    bridge = subprocess.Popen([sys.executable, "-m", "pidor.cli", "bridge", "--server", f"127.0.0.1:{port}",
                               "--create", "game=pidor,players=2,bots=1,call_window=0.2", "--",
                               *BOTS["py"].split()], stderr=subprocess.PIPE, text=True, env=ENV)
    said = Lines(bridge)
    try:
        bot = int(said.until(r"the bot runs \(pid (\d+): ").group(1))
        player = said.until(r"new player (\d+) \(bot\.py\); its token, to come back as it: \S+").group(1)
        said.until(r"created table \d+ \(pidor\)")
        said.until(r"game 1 over \(table \d+, seat 0\): (lost|place 1|a draw)")
        server.send_signal(signal.SIGINT)  # the server goes; the bridge waits for it to come back
        server.wait()
        said.until(r"connection lost .*; coming back in 1 s")
        server, _ = serve(tmp_path / "data", port)
        assert said.until(r"connected to 127\.0\.0\.1:\d+ as player (\d+)").group(1) == player
        said.until(r"created table \d+ \(pidor\)")  # (its table went with the server: a new one)
        said.until(r"game 2 over")
        bridge.send_signal(signal.SIGINT)
        said.until(r"stopped after \d+ games; leaving the table")
        assert bridge.wait(timeout=60) == 130
        assert ended(bot)
    finally:
        stop(bridge)
        stop(server)
