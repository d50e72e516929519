"""Russian that reads as Russian (issue 28 §2): ``pidor replay --lang ru`` of a game of
every registry game, from all seats and from each, its ``--step`` prompt and its HTML
viewer's lines, court panels and zone names carry no Latin letters but cards, names, rule
ids and hashes (``pidor play`` is scanned the same way in ``test_play_pty.py``)."""

from __future__ import annotations

import pytest

from helpers import latin_outside_names
from pidor.gamelog.html import game_data
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import Replay, replay_lines, step_through
from pidor.games import GAME_IDS, spec
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.2,attention=0.8,false_call=0.05"


#: Every game; the fast tier reads only the first (a match and its log: a second each).
@pytest.fixture(scope="module", params=[pytest.param(g, marks=[pytest.mark.slow] if k else []) for k, g in enumerate(GAME_IDS)])
def log(request, tmp_path_factory):
    game = request.param
    players = 3 if 3 in spec(game).players else min(spec(game).players)
    path = run_match(game, players, 1, seed=f"russian-{game}", specs=[CHEATY] * players,
                     logs=tmp_path_factory.mktemp(game)).logs[0]
    return read_log(path)


def names(log) -> list[str]:
    """The seats' specs in the header (what a bot is called), the engine version."""
    return [s.get("spec") or "" for s in log.header.get("seats", [])] + [str(log.header.get("engine"))]


def test_a_replay_in_russian_has_no_latin_but_cards_names_and_rule_ids(log):
    text = "\n".join(replay_lines(log, lang="ru", verbose=True))
    for seat in range(len(log.header["seats"])):
        text += "\n" + "\n".join(replay_lines(log, seat, lang="ru"))
    shown: list[str] = []
    step_through(Replay(log, None, "ru"), lambda prompt: shown.append(prompt) or "", shown.append)
    text += "\n" + "\n".join(shown)
    assert "✗ махлёж" in text and "суд: " in text  # (a game with a cheat and a court)
    assert latin_outside_names(text, names(log)) == []


def test_the_viewer_in_russian_has_no_latin_but_cards_names_and_rule_ids(log):
    data = game_data(log, "ru")
    parts = [*data["header"], *data["footer"], *(z["ru"] for z in data["zones"].values())]
    for step in data["steps"]:
        parts += step["t"] + [line for lines in (step.get("s") or {}).values() for line in lines]
        for court in [step.get("j"), *(step.get("sj") or {}).values()]:
            parts += [str(v) for k, v in (court or {}).items() if k != "cards"]
    assert latin_outside_names("\n".join(parts), names(log)) == []


def test_the_scan_finds_english(log):
    """The scan itself: an English replay of the same game does not pass it."""
    assert latin_outside_names("\n".join(replay_lines(log, lang="en")), names(log))
