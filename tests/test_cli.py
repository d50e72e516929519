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
