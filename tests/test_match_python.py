"""`pidor match` with ``py:MODULE:CLASS[:params]`` entrants (issue 9 item 1): a bot author's
own Policy subclass plays in-process, in worker processes too, with its parameters parsed
against its ``PARAMS``; a module or class that is not there, or a class that is not a
policy, is a one-line usage error. The same class plays over TCP through the SDK's
``random_bot.py --policy py:…`` (``pidor.bots.remote.PolicyBot``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pidor.gamelog.reader import read_log
from pidor.match import run_match
from pidor.match.command import match
from pidor.match.entrants import parse_entrant

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = f"cmd:{sys.executable} {ROOT / 'clients/python/random_bot.py'} --port {{port}} --token {{token}} --games 0"


@pytest.fixture(autouse=True)
def bots_on_path(monkeypatch):
    """``tests/bots`` importable here, in forked workers and in launched programs."""
    monkeypatch.syspath_prepend(str(ROOT / "tests/bots"))
    monkeypatch.setenv("PYTHONPATH", f"{ROOT / 'tests/bots'}:{ROOT}")


def invoke(*args: str):
    return CliRunner().invoke(match, [*args, "--json"])


def test_a_subclass_plays_exactly_as_the_builtin_it_extends():
    def play(spec: str):
        entrants = [parse_entrant(spec, name) for name in ("a", "b", "c")]
        return run_match("pidor", 3, 6, seed="py", entrants=entrants, rotate=True)

    spec = "py:my_policies:Plain:cheat=0.2,attention=0.5"
    builtin, mine = play("builtin:random:cheat=0.2,attention=0.5"), play(spec)
    assert mine.records == builtin.records
    assert mine.summary["entrants"] == [dict(e, spec=spec) for e in builtin.summary["entrants"]]
    assert sum(sum(r["cheats"]) for r in mine.records) > 0  # (its parameters took effect)


def test_its_parameters_and_worker_processes(tmp_path):
    one = invoke("--players", "3", "--games", "6", "--rotate", "--seed", "w", "--seat", "py:my_policies:Cheater",
                 "--logs", str(tmp_path / "logs"))
    two = invoke("--players", "3", "--games", "6", "--rotate", "--seed", "w", "--seat", "py:my_policies:Cheater",
                 "--concurrency", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    rows = {e["name"]: e for e in json.loads(one.stdout)["entrants"]}
    assert rows["py:my_policies:Cheater"]["cheats"] > 0  # its own default: cheat=1
    assert rows["builtin:random"]["cheats"] == rows["builtin:random#2"]["cheats"] == 0
    log = read_log(sorted((tmp_path / "logs").iterdir())[0])
    seat = next(s for s in log.header["seats"] if s["spec"] == "py:my_policies:Cheater")
    assert seat["policy"] == "py:my_policies:Cheater" and seat["params"] == {}
    honest = invoke("--players", "3", "--games", "3", "--seed", "w", "--seat", "py:my_policies:Cheater:cheat=0")
    assert [e["cheats"] for e in json.loads(honest.stdout)["entrants"]] == [0, 0, 0]


@pytest.mark.parametrize("spec,message", [
    ("py:no_such_module_here:Bot", "cannot import no_such_module_here for py:no_such_module_here:Bot: "
                                   "No module named 'no_such_module_here'"),
    ("py:my_policies:Missing", "module my_policies has no Missing (py:my_policies:Missing)"),
    ("py:my_policies:NotAPolicy", "py:my_policies:NotAPolicy is not a policy: a class must subclass "
                                  "pidor.bots.Policy"),
    ("py:my_policies", "a Python policy is py:MODULE:CLASS[:k=v,...]"),
    ("py:my_policies:Cheater:nerve=1", "bad parameter 'nerve=1' in 'py:my_policies:Cheater:nerve=1'; known: "
                                       "cheat, attention, false_call, acquit"),
    ("py:my_policies:Cheater:cheat=2", "cheat must be a decimal number in [0, 1]"),
])
def test_a_bad_python_entrant_is_a_one_line_usage_error(spec, message):
    r = invoke("--games", "1", "--seat", spec)
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output


def test_the_same_class_plays_over_tcp_through_the_sdk(tmp_path):
    """``random_bot.py --policy py:my_policies:Cheater`` as a cmd: entrant: the class plays
    from what the client receives, and cheats as it does in-process; beside it, the same
    class as a ``py:`` seat of that server table."""
    bot = SAMPLE + " --policy py:my_policies:Cheater"
    result = run_match("pidor", 3, 2, seed="tcp", specs=[bot, "py:my_policies:Cheater"], stderr_dir=tmp_path / "err")
    rows = {e["name"]: e for e in result.summary["entrants"]}
    for name in ("random_bot.py", "py:my_policies:Cheater"):
        assert rows[name]["games"] == 2 and rows[name]["forfeits"] == 0 and rows[name]["cheats"] > 0
    assert rows["builtin:random"]["cheats"] == 0
