"""``pidor conform``: a deliberately broken bot (tests/conform_broken_bot.py) fails the
check each of its flaws breaks and passes the others its game reaches; the command's
usage; it launches a bot exactly as ``pidor match`` does. The sample bots in all three
languages are checked in test_sample_bots.py.

Each scenario is a real game: a server on a free loopback port, the relay, the bot as a
child process; nothing sleeps, every wait is for the bot or the server."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest
import trio
from click.testing import CliRunner

from pidor.cli import main
from pidor.conform import SCENARIOS, run_scenario
from pidor.conform_checks import run_checks
from pidor.conform_relay import Record, Relay
from pidor.match.command import match

ROOT = pathlib.Path(__file__).resolve().parents[1]
BROKEN = [sys.executable, str(ROOT / "tests" / "conform_broken_bot.py")]
SCENARIO = {s.name: s for s in SCENARIOS}

# flaw -> (scenario, the check it fails and words of its detail, checks its record still passes)
FLAWS = {
    "old-version": ("pidor-36", "handshake", "version 'pidor/1'", []),
    "double-act": ("guard", "turns", "acted twice on the turn", []),
    "no-rearm": ("guard", "rearm", "never acted again on the turn of seq", ["turns"]),
    "no-windows": ("pidor-36", "windows", "never answered the call window", ["handshake", "budget"]),
    "pass-after-call": ("pidor-36", "windows", "answered the call window of seq", ["handshake", "turns"]),
    "no-vote": ("pidor-36", "courts", "never answered the court", ["handshake", "windows", "budget"]),
    "cheat-again": ("conviction", "honest_only", "cheated again right after its conviction", []),
    "no-pay": ("podkidnoy-36", "payment", "never paid", ["handshake", "turns", "windows"]),
    "no-reconnect": ("reconnect", "reconnect", "never came back", []),
    "strict": ("forward", "forward", "stopped playing among unknown fields", []),
    "slow": ("pidor-36", "budget", "to answer; the budget is 1.0 s", ["handshake", "turns", "windows", "courts", "games"]),
    "pidor-only": ("podkidnoy-36", "games", "did not play podkidnoy-36 to its end", ["handshake"]),
    "own-table": ("pidor-36", "handshake", "sent create when its welcome named the table it is seated at",
                  ["turns", "games"]),
}


@pytest.mark.slow
async def test_each_flaw_of_the_broken_bot_fails_its_check_and_no_other():
    records = {}
    limit = trio.CapacityLimiter(4)

    async def play(flaw: str) -> None:
        async with limit:
            scenario = SCENARIO[FLAWS[flaw][0]]
            records[flaw] = await run_scenario(scenario, [*BROKEN, "--flaw", flaw], timeout=30)

    async with trio.open_nursery() as nursery:
        for flaw in FLAWS:
            nursery.start_soon(play, flaw)
    wrong = []
    for flaw, (_, check, words, others) in FLAWS.items():
        rec = records[flaw]
        [failed] = run_checks([check], {check: [rec]}, 1.0)
        if failed.passed or words not in failed.detail or failed.frame is None:
            wrong.append(f"{flaw}: {check} {'passed' if failed.passed else 'failed'}: {failed.detail}")
        # (a budget of 3 s for the others: a busy machine is not a flaw of the bot)
        wrong += [f"{flaw}: {r.name} failed too: {r.detail}" for r in run_checks(others, {n: [rec] for n in others}, 3.0)
                  if not r.passed]
    assert not wrong, "\n".join(wrong)


def test_the_kit_launches_a_bot_as_a_match_does(tmp_path):
    """Issue 21 §3: the same environment, the same placeholders, a process group of its
    own, seated before it starts: one launcher (pidor.match.launch) for both."""
    command = [sys.executable, str(ROOT / "tests/bots/bad_bot.py"), "launch", "{host}", "{port}", "{table}",
               "{seat}", "{token}"]
    record = trio.run(lambda: run_scenario(SCENARIO["pidor-36"], command, timeout=30))
    assert record.done, record.stderr
    r = CliRunner().invoke(match, ["--players", "2", "--games", "1", "--entrant", "b=cmd:" + " ".join(command),
                                   "--stderr", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    assert {e["name"]: e["forfeits"] for e in json.loads(r.stdout)["entrants"]}["b"] == 0
    launches = {"conform": record.stderr, "match": (tmp_path / "b.stderr").read_text().splitlines()}
    for who, lines in launches.items():
        how = json.loads(next(line for line in lines if line.startswith("launched "))[len("launched "):])
        env = how["env"]
        assert {"PIDOR_HOST", "PIDOR_PORT", "PIDOR_SEAT", "PIDOR_TABLE", "PIDOR_TOKEN"} <= set(env), who
        assert how["argv"] == [env[f"PIDOR_{k}"] for k in ("HOST", "PORT", "TABLE", "SEAT", "TOKEN")], who
        assert how["own_group"], who


def test_a_failed_check_names_the_frame_and_exits_1():
    result = CliRunner().invoke(main, ["conform", "--check", "handshake", "--", *BROKEN, "--flaw", "old-version"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("FAIL  handshake  ") and ": hello names version 'pidor/1'" in lines[1]
    assert lines[2].split() [:3] == ["bot", "sent:", '{"type":'] and '"version": "pidor/1"' in lines[2]
    assert lines[-1] == "0 of 1 checks passed"


@pytest.mark.parametrize("args,words", [
    (["no-such-bot-program"], "cannot run 'no-such-bot-program'"),
    (["--check", "nonsense", "python3"], "'nonsense' is not one of"),
    (["--budget", "0", "python3"], "0 is not in the range"),
    ([], "Missing argument 'COMMAND...'"),
])
def test_usage_errors_exit_2_with_one_line(args, words):
    result = CliRunner().invoke(main, ["conform", *args])
    assert result.exit_code == 2 and words in result.output, result.output
    assert "Traceback" not in result.output


async def test_what_a_bot_owed_on_a_connection_the_kit_closed_is_no_miss():
    """The ``reconnect`` scenario's race: the kit closes the bot's connection while it owes
    a window; the server's stand-in passes for the away seat (T9) and the bot, back,
    meets that window closed. Not a miss (the check would stop the game and fail); a
    window owed on its new connection and closed unanswered still is."""
    record = Record("reconnect")
    record.seat = 1
    relay = Relay(record, "reconnect", "pidor", None, 0)
    relay._scopes[0] = trio.CancelScope()

    def event(e: dict) -> dict:
        return {"type": "event", "table": 1, "seq": 1, "event": e}

    relay._watch(event({"type": "window", "seat": 0, "owing": [1, 2]}))
    relay.drop(0)
    relay._watch(event({"type": "window_closed", "seat": 0}))
    assert not record.missed
    relay._watch(event({"type": "window", "seat": 2, "owing": [0, 1]}))
    relay._watch(event({"type": "window_closed", "seat": 2}))
    assert record.missed
