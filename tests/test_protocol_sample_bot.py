"""The whole bot of PROTOCOL.md section 11, run as it is written (its port and its table's
options aside) against a server, in every game: it plays a game to its end, acting once
per turn (a repeated turn only after its act was refused), against bots that cheat and
call, so that its passes are refused now and then (a call ended the window first) and the
turn comes again (issue 21 item 9: the example acted on every repeated turn)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import trio

from pidor.engine.game import ActionError
from pidor.games import GAME_IDS
from pidor.server.plays import Plays
from pidor.server.requests import RequestError
from helpers import first_fast, players_of
from server_helpers import serve

DOC = Path(__file__).resolve().parent.parent / "protocol" / "PROTOCOL.md"


def sample_bot() -> str:
    """The Python code of section 11."""
    text = DOC.read_text()
    section = text[text.index("## 11. A whole bot"):text.index("## 12. Test vectors")]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@first_fast
@pytest.mark.parametrize("game", GAME_IDS)
async def test_the_sample_bot_of_section_11_acts_once_per_turn(game, monkeypatch):
    acts: list[tuple[int, bool]] = []  # (seq, accepted) of each act, in order
    do_act = Plays._do_act

    def recording(self, conn, player, msg, rid):
        try:
            do_act(self, conn, player, msg, rid)
        except (RequestError, ActionError):
            acts.append((msg.get("seq"), False))
            raise
        acts.append((msg.get("seq"), True))

    monkeypatch.setattr(Plays, "_do_act", recording)
    code = sample_bot()
    options = '{"game": "pidor", "players": 3, "bots": 2}'
    assert options in code and '("127.0.0.1", 7777)' in code
    n = players_of(game)
    bots = ["builtin:random:cheat=0.3,attention=1,false_call=0.1"] * (n - 1)
    async with serve(seeds=f"sample-{game}") as (server, port):
        code = code.replace(options, repr({"game": game, "players": n, "bots": bots, "call_window": 0.5}))
        code = code.replace('("127.0.0.1", 7777)', f'("127.0.0.1", {port})')
        with trio.fail_after(120):
            done = await trio.run_process([sys.executable, "-c", code], capture_stdout=True, capture_stderr=True,
                                          check=False)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "game over:" in out
    assert acts and all(ok for seq, ok in acts if seq is None)
    for k, (seq, ok) in enumerate(acts):
        earlier = [was for s, was in acts[:k] if s == seq]
        assert not earlier or not earlier[-1], f"acted twice on turn {seq}: {acts}"
