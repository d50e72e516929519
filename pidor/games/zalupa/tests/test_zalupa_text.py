"""How «залупа» reads (issue 28 §2): no English T13 reason, «вы» with plural verbs on the
board's turn line, the cards a take moves (Z3) for a court's panel."""

from __future__ import annotations

from pidor.games.text import Say
from pidor.games.zalupa.text import TEXT


def test_T13_a_void_kon_says_its_reason_in_words():
    line = TEXT.event(Say("ru", str), {"type": "kon_void", "kon": 7, "reason": "repetition", "voids": 1})
    assert line == "кон 7 не в счёт (T13: позиция повторяется), пересдача; 1 подряд"


def test_Z3_the_turn_line_says_vy_with_plural_verbs():
    view = {"hands": [3, 2], "suits": ["s", "h"], "stack": ["7h"], "stack_seats": [1], "state": "beat",
            "turn": 0, "kon": 0}
    assert "вы бьёте 7♥ или забираете стопку" in TEXT.board(Say("ru", lambda s: "вы" if s == 0 else "игрок1", 0), view)


def test_Z3_a_take_plays_the_stacks_top_cards():
    before = {"stack": ["6c", "7c", "8c"]}
    assert TEXT.action_cards(0, {"type": "take", "count": 2}, before) == ["7c", "8c"]
