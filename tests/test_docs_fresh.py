"""docs/RULES.md and protocol/GAMES.md are what the game registry says today: generating them
again gives the same text. A game's folder changed (its RULES.md, its spec, its rules' texts)
without the documents cannot pass silently. After a deliberate change, write them again:
``python scripts/gen_docs.py``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_docs.py"


@pytest.fixture(scope="module")
def gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_docs"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_the_generated_documents_are_fresh():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + "\n(write them again: python scripts/gen_docs.py)"


def test_a_stale_document_is_named_with_the_command_to_run(gen_docs, tmp_path, monkeypatch, capsys):
    """--check names each stale file and the command, exits 1 and writes nothing; without
    it, the file is written."""
    stale, fresh = tmp_path / "RULES.md", tmp_path / "GAMES.md"
    stale.write_text("an old text\n")
    fresh.write_text("")
    monkeypatch.setattr(gen_docs, "OUTPUTS", {stale: lambda: "the new text\n", fresh: lambda: ""})
    monkeypatch.setattr(sys, "argv", ["gen_docs.py", "--check"])
    assert gen_docs.main() == 1
    assert capsys.readouterr().err == f"{stale} is stale: run python scripts/gen_docs.py\n"
    assert stale.read_text() == "an old text\n"
    monkeypatch.setattr(sys, "argv", ["gen_docs.py"])
    assert gen_docs.main() == 0
    assert stale.read_text() == "the new text\n"


def test_a_source_in_the_wrong_shape_is_refused_by_name(gen_docs, tmp_path):
    """A RULES.md without both languages, or whose languages do not have the same sections,
    is refused in one line naming it (both languages say the same things)."""
    path = tmp_path / "RULES.md"
    path.write_text("## По-русски\n\n### Одно\n\n### Другое\n\n## In English\n\n### One\n")
    with pytest.raises(gen_docs.SourceError, match="2 '###' headings in Russian, 1 in English"):
        gen_docs.read_source(path)
    path.write_text("## По-русски\n\nтекст\n")
    with pytest.raises(gen_docs.SourceError, match="has no '## In English' section"):
        gen_docs.read_source(path)
