"""The same seed gives byte-identical logs, before and after speed work (issue 11, T10).

``tests/data/same-seed-logs.json`` holds the SHA-256 of every log of a few small matches
(honest and cheating, calling bots; every game; several player counts, decks and variants),
recorded by the code of the commit it names, before the engine, the driver and the bots'
knowledge were made faster. Each match is played again here and its logs must hash the same:
the same deals, the same bots' decisions, the same events, the same bytes. Any change that
alters a log fails here; a deliberate one bumps the log format (issue 11) and records the
manifest again: ``python tests/test_same_seed_logs.py --record``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor.match import run_match  # noqa: E402

MANIFEST = ROOT / "tests" / "data" / "same-seed-logs.json"
CHEATY = "builtin:random:cheat=0.3,attention=0.6,false_call=0.05,acquit=0.2"
#: name -> run_match arguments (every seat plays ``spec``).
MATCHES: dict[str, dict] = {
    "pidor-4-honest": {"game": "pidor", "players": 4, "games": 3, "spec": "builtin:random"},
    "pidor-4-cheaty": {"game": "pidor", "players": 4, "games": 6, "spec": CHEATY},
    "pidor-2-cheaty": {"game": "pidor", "players": 2, "games": 3, "spec": CHEATY},
    "pidor-6-52-cheaty": {"game": "pidor", "players": 6, "games": 2, "deck": 52, "spec": CHEATY},
    "podkidnoy-4-cheaty": {"game": "podkidnoy", "players": 4, "games": 4, "spec": CHEATY},
    "podkidnoy-3-hard-cheaty": {"game": "podkidnoy", "players": 3, "games": 2, "hard": True, "spec": CHEATY},
    "podkidnoy-2x2-cheaty": {"game": "podkidnoy", "players": 4, "games": 2, "variant": {"teams": "2x2"},
                             "spec": CHEATY},
    "perevodnoy-4-cheaty": {"game": "perevodnoy", "players": 4, "games": 4, "spec": CHEATY},
    "perevodnoy-2-honest": {"game": "perevodnoy", "players": 2, "games": 2, "spec": "builtin:random"},
    "simple-4-pairs-cheaty": {"game": "simple", "players": 4, "games": 3, "variant": {"lead": "pairs"},
                              "spec": CHEATY},
}


def play(name: str, logs: Path) -> dict[str, str]:
    """Play match ``name`` with its logs in ``logs``; each log's name -> its SHA-256."""
    args = dict(MATCHES[name])
    spec = args.pop("spec")
    options = {**args.pop("variant", {}), **{k: args.pop(k) for k in ("deck", "hard") if k in args}}
    run_match(seed=f"same-seed/{name}", specs=[spec] * args["players"], logs=logs, options=options, **args)
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(logs.iterdir())}


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_same_seed_gives_the_logs_recorded_before(name, tmp_path):
    recorded = json.loads(MANIFEST.read_text())
    assert play(name, tmp_path) == recorded["matches"][name], (
        f"{name}: the logs differ from those recorded by {recorded['commit']}")


def test_the_manifest_covers_every_match():
    assert sorted(json.loads(MANIFEST.read_text())["matches"]) == sorted(MATCHES)


def record() -> None:
    import tempfile

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    out = {"commit": commit, "matches": {}}
    for name in sorted(MATCHES):
        with tempfile.TemporaryDirectory() as tmp:
            out["matches"][name] = play(name, Path(tmp))
    MANIFEST.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"recorded {sum(map(len, out['matches'].values()))} logs of {len(MATCHES)} matches into {MANIFEST}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: python tests/test_same_seed_logs.py --record")
    record()
