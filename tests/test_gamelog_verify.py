"""`pidor verify`: logs of every game type verify (with cheats, calls, verdicts of every
kind, ties, payments, timeouts), and every falsification fails at the right record —
including forgeries that recompute the hash chain, which only the re-run can catch."""

from __future__ import annotations

import copy
import io
import json

import msgpack
import pytest
from click.testing import CliRunner

from pidor.autoplay import play_game
from pidor.bots import RandomBot
from pidor.driver import Driver
from pidor.engine.options import Option, logged
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.commands import verify as verify_cmd
from pidor.gamelog.format import ZERO, chain, frame
from pidor.gamelog.jsonl import export_jsonl
from pidor.gamelog.reader import read_log
from pidor.gamelog.record import Recorder
from pidor.gamelog.verify import verify, verify_data
from pidor.games import GAME_IDS, spec
from pidor.match import run_match

CHEATY = "builtin:random:cheat=0.2,attention=0.6,false_call=0.05,acquit=0.4"


def bodies(data: bytes) -> list[dict]:
    return [msgpack.unpackb(b) for b, _ in msgpack.Unpacker(io.BytesIO(data))]


def forge(records: list[dict], fix_footer: bool = True) -> bytes:
    """A log with a freshly computed chain (a forger can always do this)."""
    out, head = [], ZERO
    for k, rec in enumerate(records):
        rec = dict(rec)
        if fix_footer and rec["kind"] == "end":
            rec["records"] = len(records)
            rec["head"] = head.hex()
        body = msgpack.packb(rec)
        head = chain(head, body)
        out.append(frame(body, head))
    return b"".join(out)


def check(data: bytes, **kw):
    """As ``pidor verify`` checks a log (records packed alike read as one shared object)."""
    return verify_data(data, "test", **kw)


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, list[bytes]]:
    d = tmp_path_factory.mktemp("logs")
    out = {}
    for game, players, hard in (("pidor", 3, None), ("pidor", 4, None), ("podkidnoy", 4, True),
                                ("perevodnoy", 3, None)):
        r = run_match(game, players, 3, seed=f"verify-{game}-{players}", options={} if hard is None else {"hard": hard},
                      specs=[CHEATY] * players, logs=d / f"{game}{players}")
        out[f"{game}{players}"] = [open(p, "rb").read() for p in r.logs]
    return out


def all_events(data: bytes) -> list[dict]:
    return [e for rec in bodies(data) for e in rec.get("events", [])]


def test_logs_of_every_game_verify_with_cheats_calls_ties_and_payments(logs):
    outcomes, reasons, kinds = set(), set(), set()
    for name, datas in logs.items():
        for data in datas:
            report = check(data)
            assert report.ok, (name, report)
            assert report.deal == "committed" and report.chained
            events = all_events(data)
            outcomes |= {e["outcome"] for e in events if e["type"] == "verdict"}
            reasons |= {e["reason"] for e in events if e["type"] == "mark"}
            kinds |= {e["type"] for e in events}
            assert any(e.get("_violations") for e in events if e["type"] == "action"), name
    assert outcomes == {"honest", "guilty", "clean", "tie"}
    assert {"false_call", "lost_vote", "convicted", "loser"} <= reasons
    assert {"payment", "give", "payment_due", "undo", "court", "vote"} <= kinds


def test_a_quiet_option_at_its_default_is_left_out_of_the_header():
    """An option a game gained after its logs were first written is named in a header only
    when set (``Option.quiet``), so a game played without it logs as before."""
    declared = (Option("old", False, "bool"), Option("new", False, "bool", quiet=True),
                Option("cards", [], "cards", quiet=True))
    assert logged({"game": "g", "old": False, "new": False, "cards": []}, declared) == {"game": "g", "old": False}
    assert logged({"old": True, "new": True, "cards": ["Qs"]}, declared) == {"old": True, "new": True, "cards": ["Qs"]}


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_log_without_its_quiet_options_verifies_with_their_defaults(game, tmp_path):
    quiet = [o.name for o in spec(game).options if o.quiet]
    r = run_match(game, spec(game).players[0], 1, seed="quiet", specs=["builtin:random"] * spec(game).players[0],
                  logs=tmp_path)
    log = read_log(r.logs[0])
    assert not set(quiet) & set(log.header["options"])
    assert verify(log).ok


def test_verify_changes_no_record_so_records_packed_alike_may_be_one_object(logs):
    for name, datas in logs.items():
        for data in datas:
            log = read_log(data, shared=True)
            assert log.records == read_log(data).records
            before = copy.deepcopy(log.records)
            assert verify(log, "test").ok, name
            assert log.records == before, name
    # a log of `pidor match` (its clock stands still) repeats records: they are shared
    records = read_log(logs["pidor4"][0], shared=True).records
    assert len({id(r) for r in records}) < len(records) * 0.8


def test_an_action_map_of_records_packed_alike_is_parsed_once(logs, monkeypatch):
    """Records packed alike are one object (``shared``): verify parses their action once; the
    rules judge each of them still, in the state of its own time (the re-run checks)."""
    from pidor.engine.game import Game

    log = read_log(logs["pidor4"][0], shared=True)
    maps = [r["action"] for r in log.records if r.get("kind") == "act"]
    parsed = []
    parse = Game.parse_action
    monkeypatch.setattr(Game, "parse_action", lambda self, data: parsed.append(data) or parse(self, data))
    assert verify(log, "test").ok
    assert len(parsed) == len({id(m) for m in maps}) < len(maps)


def test_timeouts_and_clocks_are_logged_and_verified():
    """T3/T4/D5: windows, courts and «бито» that end on the clock, as ticks; T9 auto acts.
    Seats 3 and 4 are people who never answer, vote or act: the driver awaits them (no
    policy), so their windows, votes and silence run out on the clock, and when the game
    waits on one of them his turn clock runs out and the honest bot plays for him
    (``auto: timeout``)."""
    for game in (g for g in GAME_IDS if 5 in spec(g).players):
        t = Table({"game": game, "players": 5})
        buf = io.BytesIO()
        rec = Recorder(t, buf, server_seed=bytes(range(32)), seat_seeds=[b"x", None, b"y", None, None])
        rec.start(now=100.0)
        bots = [RandomBot(s, b"tick", cheat=0.3, attention=0.6, acquit=0.3) for s in range(3)]
        driver = Driver(rec, [*bots, None, None], Rng(b"tick", b"driver"))
        stand_ins = {s: RandomBot(s, b"stand-in") for s in (3, 4)}
        now = 100.0
        for _ in range(100_000):
            driver.play(now)  # the bots answer, vote and act at once (T3)
            if t.over:
                break
            owed = [s for s in t.game.obliged() if s in stand_ins and s in t.to_act()]
            if owed:
                now += 5.0  # his turn clock
                driver.feed(rec.act(owed[0], driver.decide(owed[0], stand_ins[owed[0]]), now, auto="timeout"))
            else:
                now = t.deadline()
                driver.feed(rec.tick(now))
        assert t.over
        rec.close()
        data = buf.getvalue()
        kinds = [r["kind"] for r in bodies(data)]
        assert kinds.count("tick") >= 5 and "vote" in kinds and "call" in kinds
        assert any(r.get("auto") == "timeout" for r in bodies(data))
        report = check(data)
        assert report.ok, report
        # A different clock reading changes the deadlines the events carry.
        recs = bodies(data)
        k = next(i for i, r in enumerate(recs) if r["kind"] == "act" and any("deadline" in e for e in r["events"]))
        recs[k]["now"] += 0.25
        report = check(forge(recs))
        assert report.status == "failed" and report.record == k and "event" in report.reason


def act_or_tick(rec, driver, now: float, step: float = 0.0) -> float:
    """The first seat whose bot has an action acts ``step`` seconds on; when no bot will act,
    the table's clock runs out (durak's «бито», D5). Returns the new time."""
    t = rec.table
    seat, action = next(((s, a) for s in t.to_act() if (a := driver.decide(s)) is not None), (None, None))
    if seat is None:
        now = t.deadline()
        driver.feed(rec.tick(now))
    else:
        now += step
        driver.feed(rec.act(seat, action, now))
    return now


def test_passes_ride_with_the_next_record_and_their_clock_is_checked():
    """A pass is no record of its own: the next record carries it (``passed``), and the
    events of the closing lead that record's events. D5: the «бито» clock starts when the
    last pass closes the window, so the passes' own clock matters and is checked."""
    t = Table({"game": "podkidnoy", "players": 2, "bito_timeout": 10.0})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(range(32)))
    rec.start(now=0.0)
    driver = Driver(rec, [RandomBot(s, b"bito") for s in range(2)], Rng(b"bito", b"driver"))
    now, steps = 0.0, 0
    while not t.over and steps < 3000:
        steps += 1
        if t.window is not None:
            now += 0.5
            for s in t.waiting_answers():
                driver.feed(rec.answer(s, False, now))
        elif t.timer is not None and t.timer.name == "bito_timeout":
            now = t.deadline()
            driver.feed(rec.tick(now))
        else:
            now = act_or_tick(rec, driver, now, 1.0)
    assert t.over
    rec.close()
    data = buf.getvalue()
    recs = bodies(data)
    assert check(data).ok
    assert "pass" not in [r["kind"] for r in recs[:-2]]  # only before the footer, if at all
    bito = [k for k, r in enumerate(recs) if r["kind"] == "tick" and "passed" in r
            and any(e["type"] == "bito_timeout" for e in r["events"])]
    assert bito
    k = bito[0]
    assert recs[k]["passed"]["now"] + 10.0 == recs[k]["now"]
    recs[k]["passed"]["now"] += 0.25  # the clock would start later and not have run out
    report = check(forge(recs))
    assert report.status == "failed" and report.record == k and "event" in report.reason


@pytest.fixture(scope="module")
def sample(logs) -> bytes:
    """A 4-player «пидор» log with a guilty verdict and a loser."""
    for data in logs["pidor4"]:
        events = all_events(data)
        if any(e["type"] == "verdict" and e["outcome"] == "guilty" for e in events) and \
                any(e["type"] == "game_over" and e["result"]["loser"] is not None for e in events):
            return data
    raise AssertionError("no guilty verdict in the sample games")


def index_of(recs, pred, start: int = 2) -> int:
    return next(i for i, r in enumerate(recs) if i >= start and pred(r))


def action_event(record: dict) -> dict:
    """The ``action`` event of an ``act`` record (passes folded into it come first)."""
    return next(e for e in record["events"] if e["type"] == "action")


def test_forgeries_with_a_recomputed_chain_fail_at_the_right_record(sample):
    recs = bodies(sample)
    assert check(forge(recs)).ok  # the forge helper itself changes nothing
    cheat = index_of(recs, lambda r: r["kind"] == "act" and action_event(r)["_violations"])
    guilty = index_of(recs, lambda r: any(e["type"] == "verdict" and e.get("outcome") == "guilty"
                                          for e in r["events"]))
    passes = index_of(recs, lambda r: "passed" in r and r["kind"] == "act")
    # Passes that closed a window with consequences (a trick taken, a card drawn…): they
    # lead the events of the record that carries them.
    closing = index_of(recs, lambda r: r["kind"] == "act" and "passed" in r
                       and r["events"][0]["type"] == "window_closed" and r["events"][1]["type"] != "action")
    acts = [i for i, r in enumerate(recs) if r["kind"] == "act"]

    def tampered(change) -> "Report":  # noqa: F821
        copy = bodies(sample)
        change(copy)
        return check(forge(copy))

    cases = {
        # A hidden violation removed from the record.
        "violations": (lambda c: action_event(c[cheat]).__setitem__("_violations", []), cheat),
        # A verdict changed.
        "verdict": (lambda c: [e.__setitem__("outcome", "clean") for e in c[guilty]["events"]
                               if e["type"] == "verdict"], guilty),
        # Another action in place of the recorded one (its events kept).
        "action": (lambda c: c[acts[3]].__setitem__("seat", (c[acts[3]]["seat"] + 1) % 4), acts[3]),
        # Passes removed: the next action comes while the window is still open.
        "passes": (lambda c: c[passes].pop("passed"), passes),
        "a pass": (lambda c: c[passes]["passed"]["seats"].pop(), passes),
        # The consequences of a window's closing left out.
        "closing": (lambda c: c[closing]["events"].pop(1), closing),
        # A record removed (an action with the passes it carries).
        "removed": (lambda c: c.pop(acts[4]), acts[4]),
        # Two records swapped.
        "reordered": (lambda c: c.__setitem__(slice(acts[5], acts[5] + 2), [c[acts[5] + 1], c[acts[5]]]), acts[5]),
        # A record inserted (a copy of an action with its passes).
        "inserted": (lambda c: c.insert(passes + 1, dict(c[passes])), passes + 1),
        # Another result.
        "result": (lambda c: c[-1].__setitem__("result", dict(c[-1]["result"], loser=(c[-1]["result"]["loser"] + 1) % 4)),
                   len(recs) - 1),
        "order": (lambda c: c[-1].__setitem__("order", c[-1]["order"][::-1]), len(recs) - 1),
        "mark": (lambda c: c[-1].__setitem__("mark", None), len(recs) - 1),
        # A reveal that does not match the commitment, and a changed seat seed.
        "reveal": (lambda c: c[-1].__setitem__("reveal", {"server_seed": "00" * 32}), len(recs) - 1),
        "seat_seed": (lambda c: c[0]["deal"].__setitem__("seat_seeds", ["aa", None, None, None]), 2),
        # The game cut short but called over.
        "truncated": (lambda c: c.__delitem__(slice(len(c) - 40, len(c) - 1)), len(recs) - 40),
    }
    for name, (change, where) in cases.items():
        report = tampered(change)
        assert report.status == "failed", (name, report)
        assert report.record == where, (name, report.record, where, report.reason)
        assert report.reason


def test_a_stale_head_or_count_in_the_footer_fails(sample):
    recs = bodies(sample)
    recs[-1]["head"] = "00" * 32
    report = check(forge(recs, fix_footer=False))
    assert report.status == "failed" and "head" in report.reason and report.record == len(recs) - 1
    recs = bodies(sample)
    recs[-1]["records"] += 1
    report = check(forge(recs, fix_footer=False))
    assert report.status == "failed" and "records" in report.reason


def test_an_auto_action_must_be_honest():
    t = Table({"game": "pidor", "players": 3})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(32))
    rec.start()
    driver = Driver(rec, [RandomBot(s, b"auto") for s in range(3)], Rng(b"auto", b"driver"))
    while True:  # honest play until the seat on turn could cheat
        seat = t.to_act()[0]
        dishonest = [a for a in t.game.actions(seat) if t.game.check(seat, a)]
        if dishonest:
            break
        driver.feed(rec.act(seat, driver.decide(seat), auto="timeout"))  # honest auto acts are fine
        for o in t.waiting_answers():
            driver.feed(rec.answer(o, False))
    assert check_partial(rec, buf).ok
    rec.act(seat, dishonest[0], auto="timeout")
    where = len(bodies(buf.getvalue()))
    rec.close(aborted="test")
    report = check(buf.getvalue())
    assert report.status == "failed" and report.record == where - 1 and "T9" in report.reason


def check_partial(rec: Recorder, buf: io.BytesIO):
    """Verify what is written so far, closed as aborted (on a copy)."""
    data = buf.getvalue()
    recs = bodies(data) + [dict(rec.footer(aborted="copy"), kind="end")]
    return check(forge(recs))


def test_aborted_games_verify_and_unfinished_ones_do_not():
    t = Table({"game": "podkidnoy", "players": 2})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(32))
    rec.start()
    driver = Driver(rec, [RandomBot(s, b"abort") for s in range(2)], Rng(b"abort", b"driver"))
    for _ in range(5):
        s, action = next((s, a) for s in t.to_act() if (a := driver.decide(s)) is not None)
        driver.feed(rec.act(s, action))
        for o in t.waiting_answers():
            driver.feed(rec.answer(o, False))
    rec.close(aborted="server stopped")
    report = check(buf.getvalue())
    assert report.ok and "aborted" in report.notes[0]
    recs = bodies(buf.getvalue())
    recs[-1]["status"] = "over"
    assert check(forge(recs)).status == "failed"
    # Cut short: unfinished, never verified (the deal cannot be checked without the reveal).
    report = check(buf.getvalue()[:-50])
    assert report.status == "unfinished" and not report.ok


def test_explicit_decks_need_allow_explicit_and_hand_written_logs_without_h(sample):
    from pidor.cards import card_code
    from pidor.cards import deck as full_deck
    from pidor.engine.seeds import shuffled
    from pidor.gamelog.verify import Rerun

    log = read_log(sample)
    # Rebuild the same game with its deal written out as a deck instead of committed.
    rerun = Rerun(log.header)
    args = rerun.start_args(dict(log.footer, _index=len(log.records) - 1))
    rerun.run(1, log.records[1], args)
    order = shuffled(full_deck(52), args["seed"])
    recs = bodies(sample)
    recs[0]["deal"] = {"deck": [card_code(c) for c in order], "first": rerun.table.game.turn}
    recs[-1]["reveal"] = None
    data = forge(recs)
    report = check(data)
    assert report.status == "failed" and report.record == 0 and "allow-explicit" in report.reason
    assert check(data, allow_explicit=True).ok
    # The same, hand-written style: JSON Lines with no "h" at all.
    text = "".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "h"}, ensure_ascii=False) + "\n"
                   for line in export_jsonl(read_log(data)).splitlines())
    report = verify(read_log(text.encode()), allow_explicit=True)
    assert report.ok and not report.chained and "unchained" in report.notes[0]
    broken = text.replace('"outcome": "guilty"', '"outcome": "tie"', 1)
    assert verify(read_log(broken.encode()), allow_explicit=True).status == "failed"


def test_another_engine_version_is_unusable(sample):
    recs = bodies(sample)
    recs[0]["engine"] = "pidor-0"
    report = check(forge(recs))
    assert report.status == "unusable" and "engine" in report.reason


def test_cli_exit_status_and_json(tmp_path, logs, sample):
    good = tmp_path / "good.plog"
    good.write_bytes(sample)
    jsonl = tmp_path / "good.jsonl"
    jsonl.write_text(export_jsonl(read_log(sample)), encoding="utf-8")
    bad = tmp_path / "bad.plog"
    data = bytearray(sample)
    data[len(data) // 2] ^= 0x40
    bad.write_bytes(bytes(data))
    cut = tmp_path / "cut.plog"
    cut.write_bytes(sample[: len(sample) - 10])
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    runner = CliRunner()

    r = runner.invoke(verify_cmd, [str(good), str(jsonl)])
    assert r.exit_code == 0, r.output
    assert r.output.count(": verified") == 2
    assert r.output.endswith("\n2 verified, 0 failed, 0 unusable\n")
    r = runner.invoke(verify_cmd, [str(good)])
    assert r.exit_code == 0 and r.output.count("\n") == 1  # one log: its line, no total

    # -q: only what does not verify, then the total
    r = runner.invoke(verify_cmd, [str(good), str(bad), str(cut), str(jsonl), str(junk), "-q"])
    assert r.exit_code == 2
    assert [line.split(":")[0] for line in r.output.splitlines()[:-1]] == [str(bad), str(cut), str(junk)]
    assert r.output.splitlines()[-1] == "2 verified, 2 failed (1 of them unfinished), 1 unusable"
    r = runner.invoke(verify_cmd, [str(good), "-q"])
    assert (r.exit_code, r.output) == (0, "1 verified, 0 failed, 0 unusable\n")

    r = runner.invoke(verify_cmd, [str(good), str(bad), "--json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["ok"] is False
    assert [x["status"] for x in out["logs"]] == ["verified", "failed"]
    assert isinstance(out["logs"][1]["record"], int) and out["logs"][1]["reason"]

    r = runner.invoke(verify_cmd, [str(cut)])
    assert r.exit_code == 1 and "UNFINISHED" in r.output

    for args in ([str(junk)], [str(tmp_path / "missing.plog")], [str(good), str(junk)]):
        r = runner.invoke(verify_cmd, args)
        assert r.exit_code == 2, (args, r.output)

    # --jobs: worker processes; the same reports in the order given, the same exit status
    paths = [str(good), str(bad), str(jsonl), str(cut), str(tmp_path / "missing.plog")]
    one = runner.invoke(verify_cmd, [*paths, "--json"])
    two = runner.invoke(verify_cmd, [*paths, "--json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 2 and one.output == two.output
    assert [x["status"] for x in json.loads(two.output)["logs"]] == [
        "verified", "failed", "verified", "unfinished", "unusable"]
    r = runner.invoke(verify_cmd, [str(good), "--jobs", "0"])
    assert r.exit_code == 2 and "--jobs" in r.output

    # A directory: every *.plog and *.jsonl under it, in natural order (other files left out)
    logs = tmp_path / "logs"
    (logs / "more").mkdir(parents=True)
    for name in ("game-10.plog", "game-2.plog", "more/game-1.jsonl"):
        (logs / name).write_bytes(good.read_bytes() if name.endswith(".plog") else jsonl.read_bytes())
    (logs / "bot.stderr").write_text("not a log")
    r = runner.invoke(verify_cmd, [str(logs), "--json"])
    assert r.exit_code == 0, r.output
    assert [x["path"][len(str(logs)) + 1:] for x in json.loads(r.output)["logs"]] == [
        "game-2.plog", "game-10.plog", "more/game-1.jsonl"]
    (logs / "empty").mkdir()
    r = runner.invoke(verify_cmd, [str(logs / "empty")])
    assert r.exit_code == 2 and "no *.plog or *.jsonl" in r.output


def test_cli_every_flipped_byte_fails(tmp_path):
    """Any changed byte of a whole (short) log: exit status 1 (2 only if the very first
    byte no longer looks like a log)."""
    t = Table({"game": "podkidnoy", "players": 2})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(range(32)))
    rec.start()
    bots = [RandomBot(s, b"flip", cheat=0.3, attention=0.5) for s in range(2)]
    play_game(rec, bots, Rng(b"flip", b"driver"))
    rec.close()
    data = buf.getvalue()
    assert check(data).ok
    for off in range(0, len(data), max(1, len(data) // 400)):
        changed = bytearray(data)
        changed[off] ^= 0x10
        report = check(bytes(changed))
        assert report.status in ("failed", "unfinished") or (off == 0 and report.status == "unusable"), off


class AwayVoter(RandomBot):
    """Calls every violation; in a court with two voters the first abstains (T4: as if
    he were away) and the other votes."""

    def vote(self, obs) -> bool | None:
        voters = obs.court["voters"]
        return None if len(voters) > 1 and voters[0] == self.seat else super().vote(obs)


def abstain_log() -> bytes:
    """A 4-player «пидор» game where, in every court, the first voter abstains and the
    other votes; every violation is called."""
    t = Table({"game": "pidor", "players": 4})
    buf = io.BytesIO()
    rec = Recorder(t, buf, server_seed=bytes(range(32)))
    rec.start()
    play_game(rec, [AwayVoter(s, b"abstain", cheat=0.3, attention=1.0, acquit=0.5) for s in range(4)],
              Rng(b"abstain", b"driver"))
    rec.close()
    return buf.getvalue()


def test_abstain_records_verify_round_trip_and_their_removal_fails_T4():
    data = abstain_log()
    recs = bodies(data)
    assert recs[0]["version"] == 3
    where = [k for k, r in enumerate(recs) if r["kind"] == "abstain"]
    assert where
    k = where[0]
    assert set(recs[k]) - {"passed"} == {"kind", "seat", "now", "events"}  # a vote without guilty
    assert recs[k]["events"][0] == {"type": "abstain", "seat": recs[k]["seat"]}
    assert check(data).ok
    # JSON Lines round trip, byte for byte, and it still verifies.
    log = read_log(data)
    back = read_log(export_jsonl(log).encode())
    assert back.problem is None and back.records == log.records and back.hashes == log.hashes
    assert verify(back).ok
    # Replay shows who abstained.
    from pidor.gamelog.replay import replay_lines

    text = "\n".join(replay_lines(log, lang="en"))
    assert f"bot-{recs[k]['seat']} abstains" in text
    # Without the abstain the court still owes his vote: the next record is refused or
    # produces other events.
    report = check(forge(recs[:k] + recs[k + 1:]))
    assert report.status == "failed" and report.record == k, report
    # Another seat's abstain (one who owes no vote, or already voted) is refused.
    forged = [dict(r) for r in recs]
    forged[k]["seat"] = recs[k + 1]["seat"] if recs[k + 1]["kind"] == "vote" else 99
    report = check(forge(forged))
    assert report.status == "failed" and report.record == k, report


def test_format_versions_2_and_3_are_read_abstain_only_in_3(sample):
    recs = bodies(sample)
    assert recs[0]["version"] == 3
    recs[0]["version"] = 2  # a version 2 log has no abstain and reads as it is
    assert check(forge(recs)).ok
    recs[0]["version"] = 4
    report = check(forge(recs))
    assert report.status == "unusable" and "version 4" in report.reason
    recs = bodies(abstain_log())
    recs[0]["version"] = 2
    k = index_of(recs, lambda r: r["kind"] == "abstain")
    report = check(forge(recs))
    assert report.status == "failed" and report.record == k and "version 2" in report.reason
