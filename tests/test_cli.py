"""The ``pidor`` command group: a command this build leaves out says so; an import that
fails for any other reason (a bug, a missing dependency) is not hidden behind that message."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from pidor import cli


def test_a_command_left_out_of_the_build_says_so(monkeypatch):
    monkeypatch.setitem(cli.COMMANDS, "ghost", ("pidor.no_such_module", "ghost", "A command not built."))
    result = CliRunner().invoke(cli.main, ["ghost"])
    assert result.exit_code == 1
    assert "'pidor ghost' is not available in this build" in result.output
    assert "pidor.no_such_module" in result.output
    assert re.search(r"\n  ghost +A command not built\.", CliRunner().invoke(cli.main, ["--help"]).output)
    helped = CliRunner().invoke(cli.main, ["ghost", "--help"])
    assert helped.exit_code == 0 and "(unavailable: No module named 'pidor.no_such_module')" in helped.output


@pytest.mark.parametrize("body, missing", [
    ("from pidor.cards import no_such_name\n", "no_such_name"),  # a bug in the command's code
    ("import no_such_dependency_14\n", "no_such_dependency_14"),  # a dependency not installed
])
def test_any_other_import_error_is_raised(monkeypatch, tmp_path, body, missing):
    (tmp_path / "broken_command_14.py").write_text(body, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(cli.COMMANDS, "broken", ("broken_command_14", "broken", "A broken command."))
    result = CliRunner().invoke(cli.main, ["broken"])
    assert isinstance(result.exception, ImportError) and missing in str(result.exception)
    assert "not available in this build" not in result.output


def test_every_command_of_this_build_loads():
    for name in cli.COMMANDS:
        result = CliRunner().invoke(cli.main, [name, "--help"])
        assert result.exit_code == 0 and "unavailable" not in result.output, (name, result.output)


# ------------------------------------------------------------------ pidor games


def test_pidor_games_lists_every_game_with_its_options_clocks_and_policies():
    """``pidor games``: one block per game of the registry, each option and clock with the
    values it allows and its default, and the built-in policies that play it."""
    from pidor.bots import POLICIES
    from pidor.games import GAME_IDS, spec

    out = CliRunner().invoke(cli.main, ["games"]).output
    blocks = out.split("\n\n")
    assert [b.split(":", 1)[0] for b in blocks] == list(GAME_IDS)
    for game, block in zip(GAME_IDS, blocks):
        s = spec(game)
        for o in s.engine.OPTIONS + s.engine.CLOCKS:
            assert f"    {o.describe('en')}\n" in block, (game, o.name)
        plays = [f"builtin:{name}" for name, cls in POLICIES.items() if cls.plays(game)]
        assert block.rstrip().endswith("played by: " + ", ".join(plays))


def test_pidor_games_json_is_the_registry():
    import json

    from pidor.games import SPECS

    result = CliRunner().invoke(cli.main, ["games", "--json"])
    found = json.loads(result.output)
    assert [g["id"] for g in found] == list(SPECS)
    for g, s in zip(found, SPECS.values()):
        assert (g["players"], g["decks"], g["engine"]) == (list(s.players), list(s.decks), s.version)
        assert [(o["name"], o["default"]) for o in g["options"]] == [(o.name, o.default) for o in s.engine.OPTIONS]
        assert [o["name"] for o in g["clocks"]] == [o.name for o in s.engine.CLOCKS]
        assert set(g["actions"]) == set(s.engine.ACTIONS) and "builtin:random" in g["policies"]


def test_pidor_games_of_an_unknown_game_is_a_usage_error():
    result = CliRunner().invoke(cli.main, ["games", "--game", "bridge"])
    assert result.exit_code == 2 and "'bridge' is not one of" in result.output
