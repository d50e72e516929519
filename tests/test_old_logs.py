"""Every log ever written still verifies (issue 22 §7): the real logs of every engine version
and log format that earlier versions of this program wrote (``tests/data/``: made from the
project's git history by ``scripts/old_logs.py``, see ``tests/data/logs/README.md``) verify,
replay and export with today's program, each re-run as its own engine version played it.
The old behaviour is kept as switches of the versions' classes (``Game.OLDER``); each switch
is needed by some stored log, and the early forms of the table's events are one form per log."""

from __future__ import annotations

from pathlib import Path

import pytest

from pidor.games import GAME_IDS, spec
from pidor.gamelog.jsonl import export_jsonl, read_jsonl
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import Replay
from pidor.gamelog.verify import verify, verify_data, verify_file
from test_gamelog_verify import bodies, forge

DATA = Path(__file__).resolve().parent / "data"
LOGS = sorted(DATA.rglob("*.plog"))
STORED = DATA / "logs"


def name(path: Path) -> str:
    return path.relative_to(DATA).as_posix()


def header(path: Path) -> dict:
    return read_log(path).header


def older_classes() -> list[tuple[str, type]]:
    """(engine version, class) of every older engine version this program keeps."""
    return sorted({(v, cls) for g in GAME_IDS for v, cls in spec(g).engine.OLDER.items()},
                  key=lambda vc: (vc[0], vc[1].__name__))


def switches(cls: type) -> dict:
    """The behaviour switches an older version's class sets (its lowercase class attributes
    but ``version``) -> the value of the class it is made from (the next newer behaviour)."""
    newer = cls.__mro__[1]
    return {k: getattr(newer, k) for k in vars(cls) if k.islower() and not k.startswith("_") and k != "version"}


def test_there_are_logs_of_every_older_engine_version_and_every_format():
    """The data covers what this program reads: every engine version each game keeps, and
    every log format version."""
    from pidor.gamelog.format import READS

    headers = [header(p) for p in LOGS]
    engines = {h["engine"] for h in headers}
    for g in GAME_IDS:
        assert set(spec(g).engine.OLDER) <= engines, g
    assert {h["version"] for h in headers} == set(READS)
    for p in STORED.rglob("*.plog"):  # filed by the engine version that wrote them
        assert p.parent.name == header(p)["engine"], name(p)


@pytest.mark.parametrize("path", LOGS, ids=name)
def test_a_stored_log_verifies_replays_and_exports(path):
    report = verify_file(str(path))
    assert report.status == "verified", report
    log = read_log(path)
    replay = Replay(log, lang="en")
    assert replay.problem is None and replay.note is None, (replay.problem, replay.note)
    assert all(step.board is not None for step in replay.steps)
    assert any(replay.lines())
    # export: the JSON Lines form reads back to the same bytes and verifies too
    exported = read_jsonl(export_jsonl(log))
    assert exported.records == log.records and exported.hashes == log.hashes
    assert verify(exported, name(path)).ok


@pytest.mark.parametrize("version,cls", older_classes(), ids=lambda x: x if isinstance(x, str) else x.__name__)
def test_every_switch_of_an_older_version_is_needed_by_a_stored_log(version, cls, monkeypatch):
    """Turn a switch of an older version's class back to the newer behaviour: some stored log
    of that version no longer verifies (the switch is what it needs, and it is tested)."""
    mine = [p for p in LOGS if (header(p)["engine"], header(p)["game"]) == (version, cls.name)]
    assert mine, f"no stored log of {cls.name} engine {version}"
    for attr, newer in switches(cls).items():
        with monkeypatch.context() as m:
            m.setattr(cls, attr, newer)
            failed = [p for p in mine if not verify_file(str(p)).ok]
        assert failed, f"{version} {cls.__name__}.{attr}: every stored log verifies without it"


def early_logs() -> list[Path]:
    return [p for p in LOGS if spec(header(p)["game"]).engine_class(header(p)["engine"]).early_events]


@pytest.mark.parametrize("path", early_logs(), ids=name)
def test_a_log_keeps_to_one_early_form_of_window_closed(path):
    """A log of the first release's time has ``window_closed`` events or none throughout
    (:mod:`pidor.gamelog.early`): the last window that closes, told in the other form, fails."""
    recs = bodies(path.read_bytes())
    closed = [i for i, r in enumerate(recs) if any(e["type"] == "window_closed" for e in r.get("events", ()))]
    if closed:
        k = closed[-1]
        assert k > closed[0]
        recs[k]["events"] = [e for e in recs[k]["events"] if e["type"] != "window_closed"]
    else:  # the passes that closed the last window (format 1: a record of their own)
        k = max(i for i, r in enumerate(recs) if r["kind"] == "pass" or "passed" in r)
        recs[k]["events"].insert(0, {"type": "window_closed", "seat": 0})
    report = verify_data(forge(recs))
    assert report.status == "failed" and report.record == k, report


@pytest.mark.parametrize("path", early_logs(), ids=name)
def test_a_log_keeps_to_one_early_form_of_window_events(path):
    """A log of the first release's time has window events with their action or without
    throughout: the last one, in the other form, fails."""
    recs = bodies(path.read_bytes())
    k = max(i for i, r in enumerate(recs) if any(e["type"] == "window" for e in r.get("events", ())))
    events = recs[k]["events"]
    w = next(i for i, e in enumerate(events) if e["type"] == "window")
    e = events[w] = dict(events[w])
    if "action" in e:
        del e["action"]
    else:
        e["action"] = next(x["action"] for x in events if x["type"] == "action")
    report = verify_data(forge(recs))
    assert report.status == "failed" and report.record == k, report
