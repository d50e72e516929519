"""«Верю — не верю» as Russian reads it (issue 28 §2): «вы» with plural verbs, ranks in words
on the board (B2), no «None» when a sentence is said without the view before it."""

from __future__ import annotations

from pidor.games.doubt.text import TEXT
from pidor.games.text import Say


def say(me=0) -> Say:
    return Say("ru", lambda s: "вы" if s == me else f"bot-{s}", me)


def test_B3_an_addition_said_without_the_view_names_the_count():
    assert TEXT.action(say(), 1, {"type": "add", "count": 2}, None, None) == "bot-1 подкидывает 2 карты: «ещё 2 карты»"


def test_B5_the_board_names_discarded_sets_in_words_and_you_with_plural_verbs():
    view = {"pile": [], "turn": 0, "hands": [3, 4, 5], "discard": 8, "sets": [{"rank": "J", "seat": 1},
                                                                              {"rank": "A", "seat": 0}],
            "opened": {"seat": 1, "by": 0, "count": 1, "rank": "K", "cards": ["Kh"], "true": True}}
    lines = "\n".join(TEXT.board(say(), view))
    assert "стол пуст: ходите вы" in lines and "вскрыли вы" in lines
    assert "четвёрки: валеты (bot-1), тузы (вы)" in lines


def test_the_hand_is_shown_by_rank():
    assert TEXT.hand_order({}, ["Ah", "6s", "Th", "6c", "Jd"]) == ["6c", "6s", "Th", "Jd", "Ah"]
