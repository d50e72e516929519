"""The suite every game passes (OpenSpiel's ``RandomSimTest`` and API test, for this house):
read off the registry, so a new game is covered by adding its folder.

* its folder declares a whole spec (the registry's own test: an incomplete folder fails
  here, not a user at run time), and its parts are what the house expects;
* every event its engine makes, and every field of one, is documented;
* its logs verify, replay and export, in every variant, with cheats, calls and courts;
* every built-in policy plays every game it declares to the end (the policy × game matrix),
  and refuses one it does not.

The invariants after every action (zones, projections, undo, honest ⊆ possible, the end)
are ``test_conformance.py``'s; the belief judging as the engine does, ``test_observe.py``'s.
"""

from __future__ import annotations

from string import Formatter

import pytest
from helpers import game_variants, one_fast_per_game, players_of

from pidor.autoplay import play_game
from pidor.bots import POLICIES, RandomBot, make_policy
from pidor.bots.belief import Belief
from pidor.bots.specs import check_plays
from pidor.bots.tactics import Tactics
from pidor.engine.options import Option
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.jsonl import export_jsonl, read_jsonl
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import replay_lines
from pidor.gamelog.verify import verify
from pidor.games import GAME_IDS, part, spec, text_of
from pidor.games.spec import TABLE_EVENTS
from pidor.games.text import GameText
from pidor.match import run_match
from pidor.play.commands import TABLE_WORDS

CHEATY = "builtin:random:cheat=0.3,attention=0.6,false_call=0.05,acquit=0.2"
VARIANTS = game_variants()
KINDS = ("bool", "int", "choice", "seconds", "cards")


# ------------------------------------------------------------------ the spec


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_folder_declares_a_whole_spec(game):
    s = spec(game)
    engine = s.engine
    assert engine.name == game and engine.version and s.folder
    assert {"ru", "en"} <= set(s.title) and {"ru", "en"} <= set(s.loser)
    assert [o.name for o in engine.OPTIONS[:2]] == ["players", "deck"] and s.players and s.decks
    for o in engine.OPTIONS + engine.CLOCKS:
        assert isinstance(o, Option) and o.kind in KINDS and {"ru", "en"} <= set(o.help), o
        assert o.check(o.default) == o.default, o  # a default is a value it allows
    assert all(o.kind == "seconds" for o in engine.CLOCKS)
    for version in s.versions:
        assert s.engine_class(version).version == version
    ids = [r.id for r in s.rules]
    assert ids and len(set(ids)) == len(ids) and all(r.ru and r.en for r in s.rules)
    for variant in s.variants:
        engine.options(variant)  # (raises if the spec names a variant the engine refuses)
    game_ = engine.new({}, seed=b"spec")
    assert s.conform is not None and game_.parse_action(s.conform.impossible)
    if s.idle is not None:
        assert game_.parse_action(s.idle)
    for f in s.results:
        assert f.kind in ("title", "seats", "scores", "letters") and {"ru", "en"} <= set(f.help)
    assert not set(s.events) & set(TABLE_EVENTS) - {"out", "give"}, "a game's event may not take a table event's name"
    assert not set(engine.ACTIONS) & TABLE_WORDS, "a game's action may not take a word pidor play keeps for the table"
    aliases = text_of(game).ALIASES
    assert not set(aliases) & TABLE_WORDS, "a game's alias may not take a word pidor play keeps for the table"
    assert not set(aliases) & set(engine.ACTIONS), "an alias may not name another of the game's actions"
    assert all(1 <= len(a.split()) <= 2 and a == a.lower() for a in aliases), "aliases are one or two lowercase words"


def test_the_suite_seats_every_game_whatever_players_it_takes():
    """A game that takes none of the player counts a test asks for (a game of two, of four
    only) is played with the count it takes nearest: the suite leaves no game out."""
    assert {options["game"] for _, options in game_variants(players=(7,))} == set(GAME_IDS)
    for game in GAME_IDS:
        assert players_of(game, 7) == max(spec(game).players) and players_of(game, 1) == min(spec(game).players)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_folders_parts_are_what_the_house_reads(game):
    """``belief.py``, ``text.py`` and ``bots.py`` are optional; each that is there gives
    the object the house reads, of the right kind; both languages say the same things."""
    belief, text, bots = part(game, "belief"), part(game, "text"), part(game, "bots")
    if belief is not None:
        assert isinstance(belief.BELIEF, Belief)
    if bots is not None:
        assert issubclass(bots.TACTICS, Tactics)
    if text is not None:
        assert isinstance(text.TEXT, GameText)
    words = text_of(game).WORDS

    def fields(template: str) -> set[str]:
        return {f for _, f, _, _ in Formatter().parse(template) if f}

    base = {lang: {k: v for k, v in words[lang].items() if "@" not in k} for lang in ("ru", "en")}  # (@me, @to_me: optional)
    assert base["ru"].keys() == base["en"].keys()
    for key, template in words["en"].items():
        other = words["ru"].get(key)
        assert other is None or fields(other) == fields(template), key


# ------------------------------------------------------------------ events


def _random_game(options: dict, seed: bytes) -> list[dict]:
    """The events of one game of cheating, calling random bots at a fresh table."""
    t = Table(options)
    events = t.start(seed=seed)
    bots = [RandomBot(s, seed, cheat=0.3, attention=0.6, false_call=0.05, acquit=0.3)
            for s in range(options["players"])]
    play_game(t, bots, Rng(seed, b"driver"), on_events=events.extend)
    return events


@pytest.mark.parametrize("name,options", one_fast_per_game(VARIANTS))
def test_every_event_and_field_is_documented(name, options):
    documented = {**TABLE_EVENTS, **spec(options["game"]).events}
    for k in range(3):
        for e in _random_game(options, b"documented %d" % k):
            doc = documented.get(e["type"])
            assert doc is not None, f"{e['type']} is not documented (GameSpec.events)"
            public = set(e) - {"type"} - {k for k in e if k.startswith("_")}
            assert public <= set(doc.public), (e["type"], public - set(doc.public))
            for fields in (e.get("_private") or {}).values():
                assert set(fields) <= set(doc.private) | {"action"}, (e["type"], fields)


# ------------------------------------------------------------------ logs


@pytest.mark.parametrize("name,options", one_fast_per_game(VARIANTS))
def test_its_logs_verify_replay_and_export(name, options, tmp_path):
    extra = {k: v for k, v in options.items() if k not in ("game", "players")}
    n = options["players"]
    r = run_match(options["game"], n, 2, options=extra, seed=f"logs {name}", specs=[CHEATY] * n, logs=tmp_path)
    assert len(r.logs) == 2
    for path in r.logs:
        report = verify(read_log(path))
        assert report.ok, (path, report.status, report.reason)
        lines = list(replay_lines(read_log(path), lang="ru"))
        assert len(lines) > 10 and any("==" in line for line in lines)
        assert verify(read_jsonl(export_jsonl(read_log(path)))).ok


# ------------------------------------------------------------------ policies


#: Small search budgets: the matrix checks that a policy plays a game through, not how well.
_PARAMS = {"ismcts": ":iterations=20,steps=200"}
#: Every policy at every variant; the fast tier has the first variant of each game with one
#: policy, and every policy at the first game.
MATRIX = [(name, options, policy) for name, options in VARIANTS for policy in POLICIES]


@pytest.mark.parametrize("name,options,policy", one_fast_per_game(
    MATRIX, by=lambda p: [p[1]["game"], p[2]], ids=[f"{name}-{policy}" for name, _, policy in MATRIX]))
def test_every_policy_plays_every_game_it_declares_to_the_end(name, options, policy):
    """Issue 22 §2: each built-in policy at a table of its own kind, two games (the second
    after a result), to the end; a game it does not declare is refused in one line."""
    text = f"builtin:{policy}{_PARAMS.get(policy, '')}"
    game = options["game"]
    if not POLICIES[policy].plays(game):
        with pytest.raises(ValueError, match=f"builtin:{policy} does not play {game}"):
            check_plays(text, game)
        return
    t = Table(options)
    for k in range(2):
        t.start(seed=b"matrix %d" % k)
        bots = [make_policy(text, s, b"matrix") for s in range(options["players"])]
        play_game(t, bots, Rng(b"matrix", b"%d" % k))  # GameTooLong if a seat waits for nothing
        assert t.over and t.game.result is not None
