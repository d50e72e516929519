"""Logs of every durak variant (V1–V9) verify, with cheats, calls and payments; tampering
with a lead, a team result or «погоны» fails; and logs written by engine durak-2 (before
V8) still verify (``tests/data/``, written by that engine)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_gamelog_verify import bodies, forge

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.reader import read_log
from pidor.gamelog.record import Recorder
from pidor.gamelog.verify import Rerun, Unusable, verify
from pidor.games.durak.engine import PerevodnoyGame, PodkidnoyGame

DATA = Path(__file__).resolve().parents[4] / "tests" / "data"
VARIANTS = {
    "simple-classic": {"game": "simple", "players": 3, "lead": "classic"},
    "simple-partial": {"game": "simple", "players": 4, "lead": "partial", "hard": True},
    "simple-pairs": {"game": "simple", "players": 3, "lead": "pairs"},
    "podkidnoy-2x2": {"game": "podkidnoy", "players": 4, "teams": "2x2", "no_limit": True},
    "perevodnoy-3x3": {"game": "perevodnoy", "players": 6, "teams": "3x3", "no_first_transfer": True},
}


def record(options: dict, seed: bytes) -> bytes:
    t = Table(options)
    if options.get("no_first_transfer"):
        t.previous = {"loser": 1, "draw": False, "order": [0, 2, 3, 4, 5]}  # V9: after a loss
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=seed.ljust(32, b"-"), seat_seeds=[None] * options["players"])
    rec.start()
    n = options["players"]
    bots = [RandomBot(s, seed, cheat=0.2, attention=0.6, false_call=0.05, acquit=0.3) for s in range(n)]
    play_game(rec, bots, Rng(seed, b"driver"))
    rec.close()
    return buf.getvalue()


@pytest.fixture(scope="module")
def logs() -> dict[str, bytes]:
    return {name: record(options, name.encode()) for name, options in VARIANTS.items()}


def check(data: bytes):
    return verify(read_log(data), "test")


def test_logs_of_every_variant_verify(logs):
    for name, data in logs.items():
        report = check(data)
        assert report.ok, (name, report)
        events = [e for r in bodies(data) for e in r.get("events", [])]
        assert any(e.get("_violations") for e in events if e["type"] == "action"), name
        result = bodies(data)[-1]["result"]
        assert "pogony" in result and ("losing_team" in result) == ("teams" in VARIANTS[name])


def test_a_changed_lead_fails(logs):
    recs = bodies(logs["simple-classic"])
    k = next(i for i, r in enumerate(recs) if r["kind"] == "act" and r["action"]["type"] == "lead")
    lead = recs[k]["action"]["cards"]
    recs[k]["action"] = {"type": "lead", "cards": lead[:1]} if len(lead) > 1 else {"type": "lead", "cards": lead * 2}
    report = check(forge(recs))
    assert report.status == "failed" and report.record == k, report


@pytest.mark.parametrize("name,key", [("podkidnoy-2x2", "losing_team"), ("simple-pairs", "pogony"),
                                      ("perevodnoy-3x3", "loser")])
def test_a_changed_result_fails(logs, name, key):
    recs = bodies(logs[name])
    result = recs[-1]["result"]
    result[key] = {"losing_team": [0, 2, 4, 6], "pogony": not result["pogony"], "loser": 7}[key]
    report = check(forge(recs))
    assert report.status == "failed" and report.record == len(recs) - 1 and "result" in report.reason


@pytest.mark.parametrize("game", ["podkidnoy", "perevodnoy"])
def test_durak_2_logs_still_verify_without_pogony(game):
    """These games (by engine durak-2) ended with two sixes on the durak: today's engine
    titles him «с погонами» (V8); the log, which does not, verifies as its engine wrote it."""
    log = read_log((DATA / f"durak-2-{game}.plog").read_bytes())
    assert log.header["engine"] == "durak-2"
    report = verify(log, game)
    assert report.ok, report
    assert "pogony" not in report.result
    # The same inputs on today's engine give «погоны»: a durak-3 header would not verify.
    rerun = Rerun(log.header)
    rerun.table.game_cls = {"podkidnoy": PodkidnoyGame, "perevodnoy": PerevodnoyGame}[game]
    start = rerun.start_args(dict(log.footer, _index=len(log.records) - 1))
    for k, rec in enumerate(log.records[1:-1], start=1):
        rerun.run(k, rec, start)
    assert rerun.table.game.result["pogony"] is True
    unknown = dict(log.header, engine="durak-9")
    with pytest.raises(Unusable, match="durak-9"):
        Rerun(unknown)
