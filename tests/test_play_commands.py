"""``pidor play``'s commands: a typed line becomes one protocol request or a clear refusal,
in English and the table's Russian, and ``help`` is made from the game's folder."""

from __future__ import annotations

import pytest
from helpers import game_variants, one_fast_per_game

from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.games import GAME_IDS, game_class, text_of
from pidor.play import commands
from pidor.play.commands import CommandError, help_text, parse_command
from pidor.play.text import option_command

PIDOR_TURN = [{"type": "beat", "card": "Th", "target": 1}, {"type": "take", "index": 0}]


@pytest.mark.parametrize("line,game,message", [
    ("draw", "pidor", {"type": "act", "action": {"type": "draw"}}),
    ("move 2", "pidor", {"type": "act", "action": {"type": "move", "to": 2}}),
    ("lay 0", "pidor", {"type": "act", "action": {"type": "lay", "to": 0}}),
    ("lead 10♥", "pidor", {"type": "act", "action": {"type": "lead", "card": "Th"}}),
    ("beat th 0", "pidor", {"type": "act", "action": {"type": "beat", "card": "Th", "target": 0}}),
    ("beat Th", "pidor", {"type": "act", "action": {"type": "beat", "card": "Th", "target": 1}}),  # from the options
    ("beat Qs", "pidor", {"type": "act", "action": {"type": "beat", "card": "Qs", "target": 1}}),  # top of the pile
    ("take", "pidor", {"type": "act", "action": {"type": "take", "index": 0}}),
    ("take 1", "pidor", {"type": "act", "action": {"type": "take", "index": 1}}),
    ("give 6c", "pidor", {"type": "act", "action": {"type": "give", "card": "6c"}}),
    ("2", "pidor", {"type": "act", "action": {"type": "take", "index": 0}}),
    ("attack 6s", "podkidnoy", {"type": "act", "action": {"type": "attack", "card": "6s"}}),
    ("cover 7s 0", "podkidnoy", {"type": "act", "action": {"type": "cover", "card": "7s", "target": 0}}),
    ("cover As", "perevodnoy", {"type": "act", "action": {"type": "cover", "card": "As", "target": 1}}),  # one uncovered
    ("transfer 9d", "perevodnoy", {"type": "act", "action": {"type": "transfer", "card": "9d"}}),
    ("bito", "podkidnoy", {"type": "act", "action": {"type": "bito"}}),
    ("lead 9d 9h", "simple", {"type": "act", "action": {"type": "lead", "cards": ["9d", "9h"]}}),
    ("cover Ks 0", "simple", {"type": "act", "action": {"type": "cover", "card": "Ks", "target": 0}}),
    ("take", "podkidnoy", {"type": "act", "action": {"type": "take"}}),
    ("call", "pidor", {"type": "call"}),
    ("  pass ", "pidor", {"type": "pass"}),
    ("vote pidor", "pidor", {"type": "vote", "guilty": True}),
    ("vote clean", "podkidnoy", {"type": "vote", "guilty": False}),
    ("start", None, {"type": "start"}),
    # the table's Russian: the same requests
    ("крою 7s 0", "podkidnoy", {"type": "act", "action": {"type": "cover", "card": "7s", "target": 0}}),
    ("Беру", "podkidnoy", {"type": "act", "action": {"type": "take"}}),
    ("бито", "podkidnoy", {"type": "act", "action": {"type": "bito"}}),
    ("бью Qs", "pidor", {"type": "act", "action": {"type": "beat", "card": "Qs", "target": 1}}),
    ("не верю 1", "doubt", {"type": "act", "action": {"type": "doubt", "index": 1}}),
    ("НЕ ВЕРЮ 0", "doubt", {"type": "act", "action": {"type": "doubt", "index": 0}}),
    ("пас", "hundred_one", {"type": "act", "action": {"type": "skip"}}),
    ("пидор", "pidor", {"type": "call"}),
    ("мимо", "pidor", {"type": "pass"}),
    ("голос пидор", "pidor", {"type": "vote", "guilty": True}),
    ("голос чист", "podkidnoy", {"type": "vote", "guilty": False}),
    ("старт", None, {"type": "start"}),
    ("бот 2 builtin:random", None, {"type": "bot", "seat": 2, "spec": "builtin:random"}),
])
def test_play_commands_become_protocol_requests(line, game, message):
    view = {"pidor": {"table": ["8h", "9h"]}, "podkidnoy": None,
            "perevodnoy": {"table": [["6s", "7s"], ["Ks", None]]}, "simple": None, None: None}.get(game)
    cmd = parse_command(line, game=game, options=PIDOR_TURN if game == "pidor" else [], view=view, players=4)
    assert cmd.kind == "send" and cmd.message == message


@pytest.mark.parametrize("line,game,key", [
    ("fly", "pidor", "unknown"),
    ("attack Th", "pidor", "not_this_game"),
    ("draw", "podkidnoy", "not_this_game"),
    ("lead", "pidor", "usage"),
    ("lead Th Jh", "pidor", "usage"),
    ("lead 11h", "pidor", "bad_card"),
    ("move x", "pidor", "bad_number"),
    ("move 7", "pidor", "bad_seat"),
    ("beat Th", "podkidnoy", "not_this_game"),
    ("cover Th", "podkidnoy", "which"),  # no view, no option: which attacking card?
    ("vote maybe", "pidor", "bad_vote"),
    ("3", "pidor", "no_option"),
    ("draw", None, "no_game"),
    ("hint on", "pidor", "usage"),
    ("call now", "pidor", "usage"),
])
def test_play_rejects_bad_input_with_a_clear_message(line, game, key):
    with pytest.raises(CommandError) as err:
        parse_command(line, game=game, options=PIDOR_TURN if game == "pidor" else [], players=4)
    assert err.value.key == key


@pytest.mark.parametrize("name,options", one_fast_per_game(game_variants()))
def test_every_option_typed_as_shown_is_that_option(name, options):
    """The command shown for each honest option (``option_command``), typed back, is that
    option, in every game: the action's arguments (cards, a rank, seats, positions) read in
    the order the game declares them."""
    t = Table(options)
    t.start(seed=b"typed")
    driver = Driver(t, [RandomBot(s, b"typed") for s in range(options["players"])], Rng(b"typed", b"d"))
    seen = 0
    for _ in range(200):
        if t.over:
            break
        for seat in t.to_act():
            honest = [t.game.action_data(a) for a in t.honest_actions(seat)]
            for action in honest:
                for lang in ("en", "ru"):  # (in Russian with the game's Russian words: ``крою 7♠ 0``)
                    typed = option_command(action, options["game"], lang)
                    cmd = parse_command(typed, game=options["game"], options=honest,
                                        view=t.view(seat), players=options["players"])
                    assert cmd.message == {"type": "act", "action": action}, typed
                seen += 1
        if driver.play(0.0, 1) == 0:
            driver.feed(t.tick(t.deadline()))
    assert seen > 20


def test_a_suit_argument_is_typed_as_a_letter_or_a_sign(monkeypatch):
    """An action that names a suit (a queen's, «сто одно» H4): ``queen Q♥ ♠`` or ``queen qh S``
    sends the suit's letter; anything else is refused in one line, nothing sent."""
    class Queens:
        ACTIONS = {"queen": (("card", "card"), ("suit", "suit"))}

    monkeypatch.setattr(commands, "game_class", lambda game: Queens)
    for line, suit in (("queen Q♥ ♠", "s"), ("queen qh S", "s"), ("queen Qh c", "c"), ("queen Qh ♢", "d")):
        cmd = parse_command(line, game="queens", players=2)
        assert cmd.message == {"type": "act", "action": {"type": "queen", "card": "Qh", "suit": suit}}, line
    for line in ("queen Qh x", "queen Qh 3", "queen Qh пики"):
        with pytest.raises(CommandError) as err:
            parse_command(line, game="queens", players=2)
        assert err.value.key == "bad_suit"
    assert commands.usage("queens", "queen") == "queen CARD SUIT"
    assert option_command({"type": "queen", "card": "Qh", "suit": "s"}) == "queen Q♥ ♠"


def test_play_local_commands():
    assert parse_command("", game="pidor") is None
    assert [parse_command(w, game="pidor").kind for w in ("help", "quit", "view", "hint off")] == \
        ["help", "quit", "view", "hints_off"]
    assert [parse_command(w, game="pidor").kind for w in ("помощь", "выход", "стол", "подсказки выкл")] == \
        ["help", "quit", "view", "hints_off"]


def test_play_usage_is_in_the_session_language():
    with pytest.raises(CommandError) as err:
        parse_command("крою", game="podkidnoy", lang="ru")
    assert err.value.key == "usage" and err.value.params["usage"] == "cover КАРТА [НОМЕР]"
    with pytest.raises(CommandError) as err:
        parse_command("бот", game="pidor", lang="ru")
    assert err.value.params["usage"] == "бот МЕСТО [БОТ]"
    with pytest.raises(CommandError) as err:
        parse_command("cover", game="podkidnoy")
    assert err.value.params["usage"] == "cover CARD [TARGET]"


@pytest.mark.parametrize("game", GAME_IDS)
def test_play_help_lists_the_games_own_actions(game):
    """``help`` is made from the game's folder: every action of the game with its other
    words, in both languages, and no other game's actions (issue 28's one folder a game)."""
    for lang in ("ru", "en"):
        text = help_text(game, lang)
        rows = [line.split()[0] for line in text.split("\n")[2:2 + len(game_class(game).ACTIONS)]]
        assert rows == list(game_class(game).ACTIONS), (game, lang)
        for alias in text_of(game).ALIASES:
            if text_of(game).ALIASES[alias] in game_class(game).ACTIONS:
                assert alias in text, (game, alias)
    assert "действия игры будут здесь" in help_text(None, "ru")
