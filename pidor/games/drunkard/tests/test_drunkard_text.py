"""How «пьяница» reads (text.py): every action, event and board of cheating games says a
sentence in each language, Russian in Russian, and the board names the cards whose places
everybody knows (W1)."""

from __future__ import annotations

import re

import pytest
from test_drunkard_rules import collect, flip, new

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.play.text import event_lines, view_lines

LATIN = re.compile(r"\b(?!W\d|T1\d)[A-Za-z]{3,}\b")  # (rule ids aside; card codes are shown as 10♥)


def name(seat) -> str:
    return "вы(0)" if seat == 0 else f"bot-{seat}({seat})"


@pytest.mark.parametrize("options", [{}, {"face_down_dispute": True}, {"reshuffle": True}, {"six_beats_ace": True}])
def test_every_event_and_board_reads_as_a_sentence_in_both_languages(options):
    t = Table({"game": "drunkard", **options})
    t.start(seed=b"text")
    lines = {"ru": [], "en": []}

    def read(events: list[dict]) -> None:
        before = t.view(None)
        for lang, out in lines.items():
            for e in events:
                out += event_lines(e, 0, name, lang, game="drunkard", before=before)
            out += view_lines(t.view(0), 0, name, lang)

    bots = [RandomBot(s, b"text", cheat=0.3, attention=0.5, false_call=0.1) for s in range(2)]
    play_game(t, bots, Rng(b"text", b"driver"), on_events=read)
    for lang, out in lines.items():
        text = "\n".join(out)
        assert "{" not in text and "None" not in text and "?" not in text, lang
        assert not [line for line in out if line.startswith("other")], lang  # (no event read as raw fields)
    russian = "\n".join(lines["ru"]).replace("«пьяница»", "")
    assert not LATIN.findall(russian.replace("bot", "")), sorted(set(LATIN.findall(russian)))[:10]
    said = "\n".join(lines["ru"])
    for words in ("открывает", "забирает", "бой за", "колоды:"):
        assert words in said


def test_the_board_names_the_known_cards_at_the_ends_of_a_deck():
    g = new("Kh 6d", "8s", rest=(0, 1))
    flip(g, 0)
    flip(g, 1)
    collect(g, 0)
    t = Table({"game": "drunkard"})
    t.start(seed=b"board")
    t.game.restore(g.to_data())
    board = "\n".join(view_lines(t.view(1), 1, name, "ru"))
    assert "колоды: вы(0) 20 (снизу K♥ 8♠), bot-1(1) 16" in board and "бой 2" in board
    assert "ваша рука" not in board  # (nobody holds a hand: W1)
