"""The sample bots in Python, JavaScript and C pass every check of ``pidor conform``.

Both ways of meeting a call window are run (PROTOCOL.md section 3): the Python and C bots
never call and say hello ``may_call: false`` and ``windows: false`` (the server passes for
them and sends them no window events); the JavaScript bot calls now and then (``--call
0.02``), so it answers every window it owes itself.

The JavaScript and C bots are built first when they are not (``npm ci`` in clients/js,
``make -C clients/c``; ``.ci/run`` installs the toolchains). A missing toolchain fails
these tests, naming what to install: it is never skipped. The three ``pidor conform``
runs go at once, each in its own process."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from pidor.conform import SCENARIOS
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.match.command import match

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOTS = {
    "python": [sys.executable, "clients/python/random_bot.py"],
    "js": ["node", "clients/js/random_bot.js", "--call", "0.02"],
    "c": ["clients/c/random_bot"],
}
# the windows check's detail: passed for it by the server, or answered by the bot
UNSEEN = (r"\d+ actions of other seats, no window event sent: the server passes for it "
          r"\(hello may_call and windows false\)")
ANSWERED = r"\d+ call windows owed, each answered once, with its seq"
WINDOWS = {"python": UNSEEN, "js": ANSWERED, "c": UNSEEN}


def _need(program: str, package: str) -> None:
    if shutil.which(program) is None:
        pytest.fail(f"{program} is missing: install {package} (.ci/run does)")


def _run(args: list[str], cwd: pathlib.Path) -> None:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed in {cwd}:\n{done.stdout}{done.stderr}")


def _build() -> None:
    _need("node", "Node.js 20 or later")
    major = int(subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip().lstrip("v")
                .split(".")[0])
    if major < 20:
        pytest.fail(f"node {major} is too old: clients/js needs Node.js 20 or later")
    if not (ROOT / "clients/js/node_modules/@msgpack/msgpack").is_dir():
        _need("npm", "npm")
        _run(["npm", "ci", "--no-audit", "--no-fund"], ROOT / "clients/js")
    _need("make", "make")
    _run(["make", "-C", "clients/c"], ROOT)


@pytest.fixture(scope="module")
def conform_runs():
    _build()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # A budget of 3 s per answer: a busy machine is not the bot's fault (the budget check
    # itself is tested with the broken bot's slow flaw, in test_conform.py).
    runs = {name: subprocess.Popen([sys.executable, "-m", "pidor.cli", "conform", "--json", "--budget", "3", "--",
                                    *command],
                                   cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name, command in BOTS.items()}
    yield runs
    for process in runs.values():
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("bot", list(BOTS))
def test_the_sample_bot_passes_every_check(conform_runs, bot):
    out, err = conform_runs[bot].communicate(timeout=600)
    assert conform_runs[bot].returncode in (0, 1), err
    report = json.loads(out)
    failed = [f"{c['check']}: {c['scenario']}: {c['detail']}\n    {c['frame']}" for c in report["checks"]
              if not c["passed"]]
    assert report["passed"] and not failed, "\n".join(failed)
    assert [c["check"] for c in report["checks"]] == ["handshake", "turns", "rearm", "windows", "courts",
                                                      "honest_only", "payment", "reconnect", "games", "forward",
                                                      "budget"]
    assert all(s["done"] for s in report["scenarios"]) and len(report["scenarios"]) == len(SCENARIOS)
    windows = next(c["detail"] for c in report["checks"] if c["check"] == "windows")
    assert re.fullmatch(WINDOWS[bot], windows), windows


@pytest.mark.slow
def test_the_sample_bots_of_every_language_play_a_match(tmp_path):
    """Each sample bot, the command that passes ``pidor conform``, can be a ``cmd:`` entrant
    of ``pidor match`` (it finds its server and token in the environment and, with ``--games
    0``, stays seated from game to game): a rotated match of the three has no forfeit and
    every log verifies."""
    _build()
    entrants = [f"{name}=cmd:{' '.join(str(ROOT / a) if a.startswith('clients/') else a for a in command)} --games 0"
                for name, command in BOTS.items()]
    results = tmp_path / "results.jsonl"
    args = ["--players", "3", "--games", "6", "--rotate", "--seed", "langs", "--logs", str(tmp_path / "logs"),
            "--results", str(results), "--json"]
    for entrant in entrants:
        args += ["--entrant", entrant]
    r = CliRunner().invoke(match, args)
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert sorted(e["name"] for e in summary["entrants"]) == sorted(BOTS)
    assert all(e["games"] == 6 and e["forfeits"] == 0 for e in summary["entrants"]), summary["entrants"]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == 6 and all(verify(read_log(x["log"]), x["log"]).ok for x in records)


def _readme_bot(readme: str, marker: str, fence: str) -> str:
    """The code block of ``readme`` that holds ``marker``."""
    text = (ROOT / readme).read_text()
    blocks = re.findall(rf"```{fence}\n(.*?)```", text, re.S)
    return next(b for b in blocks if marker in b)


def _example_commands(tmp_path: pathlib.Path) -> dict[str, list[str]]:
    """The bot examples of clients/python/README.md and clients/js/README.md, as files."""
    py = tmp_path / "my_bot.py"
    py.write_text(_readme_bot("clients/python/README.md", "class MyBot(Bot)", "python"))
    js = tmp_path / "my_bot.mjs"
    js.write_text(_readme_bot("clients/js/README.md", "class MyBot extends Bot", "js"))
    (tmp_path / "pidor_client.js").symlink_to(ROOT / "clients/js/pidor_client.js")  # (its packages: clients/js's)
    return {"python": [sys.executable, str(py)], "js": ["node", str(js)]}


@pytest.mark.slow
def test_the_readme_bot_examples_pass_conform_and_play_a_match(tmp_path):
    """Issue 21 §3: the READMEs' bot examples, as written, pass ``pidor conform`` and play a
    ``pidor match`` without a forfeit: the kit and the match launch a bot alike."""
    _build()
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'clients/python'}:{ROOT}"}
    commands = _example_commands(tmp_path)
    runs = {name: subprocess.Popen([sys.executable, "-m", "pidor.cli", "conform", "--json", "--budget", "3", "--",
                                    *command], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
            for name, command in commands.items()}
    try:
        for name, run in runs.items():
            out, err = run.communicate(timeout=600)
            report = json.loads(out)
            failed = [f"{c['check']}: {c['scenario']}: {c['detail']}" for c in report["checks"] if not c["passed"]]
            assert report["passed"], f"{name}: " + "\n".join(failed)
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.wait()
    args = ["--players", "3", "--games", "4", "--seed", "readme", "--json", "--stderr", str(tmp_path / "err")]
    for name, command in commands.items():
        args += ["--entrant", f"{name}=cmd:{' '.join(command)}"]
    r = subprocess.run([sys.executable, "-m", "pidor.cli", "match", *args], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = {e["name"]: e for e in json.loads(r.stdout)["entrants"]}
    assert {n: (rows[n]["games"], rows[n]["forfeits"]) for n in commands} == {n: (4, 0) for n in commands}, rows


@pytest.mark.slow
def test_conform_shows_the_error_above_the_last_line_of_a_bot_that_crashes(tmp_path):
    """Issue 21 §3: a Node bot whose package is missing ends its stderr with "Node.js
    v20…"; the kit shows the ERR_MODULE_NOT_FOUND line above it, in the check's detail and
    in the last lines of stderr under the checks."""
    _build()
    bot = tmp_path / "bot.mjs"
    bot.write_text('import { encode } from "@no-such-scope/no-such-package";\nencode({});\n')
    r = subprocess.run([sys.executable, "-m", "pidor.cli", "conform", "--check", "handshake", "--", "node", str(bot)],
                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert re.match(r"FAIL  handshake  \S+: the bot never sent a message \(it exited with status 1; "
                    r"its stderr: \"Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package "
                    r"'@no-such-scope/no-such-package'", lines[1]), lines[1]
    head = next(i for i, line in enumerate(lines) if re.fullmatch(r"the bot's stderr in \S+ ends:", line))
    shown = lines[head + 1:-1]
    assert any("Error [ERR_MODULE_NOT_FOUND]" in line for line in shown), lines
    assert not any(line.strip().startswith("at ") or line.strip().startswith("Node.js v") for line in shown), shown
