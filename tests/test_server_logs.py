"""The server writes a game log for every game (issue 5), with provably fair deals (T10):
the commitment shown in the table info before the deal, the seats' own seeds over the
protocol (the ``seed`` request), the reveal in the footer and in ``results``; the T9
stand-ins' actions marked ``auto``; a game cut off closed as aborted; a log that cannot be
written (a full disk) leaves the game going and the file an unfinished log, not a corrupt one."""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import random
from pathlib import Path

import pytest
import server_helpers
import trio
from helpers import old_database
from server_helpers import events_of, is_event, play_until, seated_client, serve

from pidor.cards import card_code
from pidor.engine.game import project
from pidor.engine.table import Table
from pidor.gamelog.deal import deal_key
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.server import game_log
from pidor.server.drive import ABANDON_AFTER, AWAY_TURN
from pidor.server.seating import server_options
from pidor.server.store import Store

SEED = "616c696365"  # "alice": the human's part of the deal


def is_results(m) -> bool:
    return m["type"] == "event" and m["event"]["type"] == "results"


def shown_commitment(client) -> str:
    """The next-deal commitment of the last table info the client got before the deal."""
    infos = []
    for m in client.messages:
        if m["type"] == "event" and m["event"]["type"] == "game_start":
            break
        if m["type"] in ("joined", "table"):
            infos.append(m["table"])
    return infos[-1]["commitment"]


def load(path: str):
    data = Path(path).read_bytes()
    return data, read_log(data)


def inputs(log, kind: str) -> list[dict]:
    return [r for r in log.records if r["kind"] == kind]


def logged_events(log) -> list[dict]:
    return [e for r in log.records for e in r.get("events", [])]


async def test_full_game_log_verifies_with_the_committed_deal_and_the_seat_seed_T10(tmp_path, autojump_clock):
    bots = ["builtin:random:cheat=0.3,attention=0.8"] * 3
    async with serve(seeds="logs-full", logs=tmp_path / "logs") as (server, port):
        c = await seated_client(port, "alice", options={"game": "pidor", "players": 4, "deck": 36, "bots": bots})
        before = shown_commitment(c)
        joined = next(m["table"] for m in c.messages if m["type"] == "joined")
        assert len(before) == 64 and joined["seats"][c.seat]["seeded"] is False
        assert (await c.request({"type": "seed", "seed": SEED}))["type"] == "ok"
        info = (await c.receive(lambda m: m["type"] == "table" and m["table"]["seats"][c.seat]["seeded"],
                                timeout=10))["table"]
        assert info["commitment"] == before  # a seed does not change the commitment
        assert (await c.request({"type": "start"}))["type"] == "ok"
        rng = random.Random(5)
        end = (await play_until(c, is_results, choose=lambda options, m: rng.choice(options),
                                answer=lambda e: rng.random() < 0.2, vote=lambda e: rng.random() < 0.5))["event"]
        assert shown_commitment(c) == before
        after = next(m["table"] for m in c.messages if m["type"] == "table" and m["table"]["state"] == "playing")
        assert after["game_commitment"] == before and after["commitment"] != before  # a fresh seed for game 2

        # The reveal in ``results``: the seed behind the commitment, and every seat's seed.
        deal = end["deal"]
        assert deal["commitment"] == before
        assert hashlib.sha256(bytes.fromhex(deal["server_seed"])).hexdigest() == before
        assert deal["seat_seeds"] == [SEED if s == c.seat else None for s in range(4)]

        # The client checks its deal from the reveal alone: the key gives the first player
        # («бутылка») and the deck, whose top card is the first one drawn in public.
        key = deal_key(bytes.fromhex(deal["server_seed"]),
                       [None if s is None else bytes.fromhex(s) for s in deal["seat_seeds"]])
        fresh = Table(after["options"], [{"kind": "human"}] + [{"kind": "bot"}] * 3)
        fresh.start(seed=key)
        got = events_of(c)
        first_action = next(e for e in got if e["type"] == "action")
        first_draw = next(e for e in got if e["type"] == "draw")
        assert first_action["seat"] == fresh.to_act()[0]
        assert first_draw["card"] == card_code(fresh.game.zones()["deck"][0])

        # The log: in the games index, verified, with the same commitment, seeds and reveal.
        row = server.store.games_of(c.table)[0]
        assert row["log"] == str(tmp_path / "logs" / f"table-{c.table}-game-1.plog")
        assert row["commitment"] == before and row["ended"] is not None and row["log_error"] is None
        _, log = load(row["log"])
        report = verify(log, row["log"])
        assert report.status == "verified", report
        header, footer = log.header, log.footer
        assert header["deal"]["commitment"] == before
        assert header["deal"]["seat_seeds"] == deal["seat_seeds"]
        assert [s["kind"] for s in header["seats"]] == ["human", "bot", "bot", "bot"]
        assert header["seats"][0]["name"] == "alice" and header["seats"][1]["params"] == {"cheat": 0.3, "attention": 0.8}
        assert header["extra"]["table"] == c.table
        assert footer["status"] == "over" and footer["reveal"]["server_seed"] == deal["server_seed"]
        assert footer["result"] == end["result"] == report.result

        # Cheats were called: courts, votes and verdicts are in the log as the seats saw them.
        kinds = [e["type"] for e in logged_events(log)]
        assert "court" in kinds and "verdict" in kinds and inputs(log, "vote")
        def courts(events):  # deadlines differ: absolute in the log, relative on the wire
            return [{k: v for k, v in e.items() if k != "deadline"} for e in events
                    if e["type"] in ("court", "verdict", "vote")]

        assert courts(events_of(c)) == courts(project(e, c.seat) for e in logged_events(log))
        mine = [r for r in inputs(log, "act") if r["seat"] == c.seat]
        assert mine and all("auto" not in r for r in mine)  # the human played every action himself

        # Game 2: its own log and a fresh commitment; the seed counted for one deal only.
        assert (await c.request({"type": "start"}))["type"] == "ok"
        end2 = (await play_until(c, is_results, choose=lambda options, m: rng.choice(options)))["event"]
        assert end2["number"] == 2 and end2["deal"]["commitment"] == after["commitment"]
        assert end2["deal"]["seat_seeds"] == [None] * 4
        row2 = server.store.games_of(c.table)[1]
        assert row2["log"].endswith(f"table-{c.table}-game-2.plog")
        _, log2 = load(row2["log"])
        assert verify(log2).status == "verified"
        assert log2.header["table"]["number"] == 2 and log2.header["table"]["previous"] == end["result"]


async def test_stand_in_actions_are_logged_auto_timeout_and_absent_T9(tmp_path, autojump_clock):
    """The human lets one turn clock run out (``timeout``), then disconnects for good: the
    stand-in plays the rest (``absent``); the log verifies (auto actions must be honest)."""
    async with serve(seeds="logs-auto", logs=tmp_path) as (server, port):
        c = await seated_client(port, "sleepy", options={"game": "podkidnoy", "players": 2, "bots": 1})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await play_until(c, is_event("timeout"), choose=lambda options, m: None)
        await c.aclose()
        runner = server.lobby.tables[c.table]
        with trio.fail_after(100000):
            while runner.playing or not runner.closed:
                await trio.sleep(AWAY_TURN)
        row = server.store.games_of(c.table)[0]
        assert row["ended"] is not None and row["aborted"] is None
        _, log = load(row["log"])
        report = verify(log)
        assert report.status == "verified", report
        auto = [r["auto"] for r in inputs(log, "act") if r["seat"] == c.seat]
        assert auto[0] == "timeout" and auto.count("timeout") == 1 and "absent" in auto
        assert None not in auto  # after the timeout he never acted himself


async def test_shutdown_mid_game_closes_the_log_as_aborted(tmp_path, autojump_clock):
    async with serve(seeds="logs-shutdown", logs=tmp_path) as (server, port):
        c = await seated_client(port, "host", options={"game": "pidor", "players": 3, "bots": 2})
        assert (await c.request({"type": "seed", "seed": b"\x00\xff"}))["type"] == "ok"  # bin works too
        assert (await c.request({"type": "start"}))["type"] == "ok"
        acted = 0

        def choose(options, m):
            nonlocal acted
            acted += 1
            return options[0]

        await play_until(c, lambda m: m["type"] == "turn" and acted >= 3, choose=choose)
        await server.shutdown()
        row = server.store.games_of(c.table)[0]
        assert row["aborted"] == "shutdown" and row["result"] is None
        _, log = load(row["log"])
        assert log.footer["status"] == "aborted" and log.footer["reason"] == "shutdown"
        assert log.header["deal"]["seat_seeds"][c.seat] == "00ff"
        report = verify(log)
        assert report.status == "verified" and report.notes == ["aborted: shutdown"], report


async def test_last_human_leaving_mid_game_aborts_the_log(tmp_path, autojump_clock):
    async with serve(seeds="logs-empty", logs=tmp_path) as (server, port):
        c = await seated_client(port, "quitter", options={"game": "perevodnoy", "players": 3, "bots": 2})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await c.receive(lambda m: m["type"] == "turn")
        assert (await c.request({"type": "leave"}))["type"] == "ok"
        with trio.fail_after(60):
            while server.lobby.tables:
                await trio.sleep(0.01)  # virtual time (autojump_clock): lets the table task close
        row = server.store.games_of(c.table)[0]
        assert row["aborted"] == "empty"
        _, log = load(row["log"])
        assert log.footer["status"] == "aborted" and verify(log).status == "verified"


async def test_a_game_every_person_left_is_aborted_after_the_grace(tmp_path, autojump_clock):
    """Issue 8 item 3: a table whose people have all disconnected played on at the away
    pace (2 s per owed action, 20 minutes and more for «пидор»). Coming back within
    ``ABANDON_AFTER`` plays on; after it the game is aborted (the log verifies as aborted)
    and the table closes."""
    async with serve(seeds="logs-abandoned", logs=tmp_path) as (server, port):
        c = await seated_client(port, "gone", options={"game": "pidor", "players": 4, "bots": 3})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await c.receive(lambda m: m["type"] == "turn")
        runner = server.lobby.tables[c.table]
        await c.aclose()
        await trio.sleep(ABANDON_AFTER - 5)
        assert runner.playing and not runner.closed
        back = await server_helpers.connect(port)
        assert (await back.hello("gone", token=c.token))["table"] == c.table  # back in time: plays on
        await back.receive(lambda m: m["type"] == "snapshot")
        await trio.sleep(ABANDON_AFTER + 5)
        assert runner.playing and not runner.closed
        start = trio.current_time()
        await back.aclose()
        with trio.fail_after(ABANDON_AFTER + 10):
            while not runner.closed or server.lobby.tables:
                await trio.sleep(0.5)
        assert trio.current_time() - start >= ABANDON_AFTER
        assert runner.close_reason == "abandoned"
        row = server.store.games_of(c.table)[0]
        assert row["aborted"] == "abandoned" and row["result"] is None
        _, log = load(row["log"])
        assert log.footer["status"] == "aborted" and log.footer["reason"] == "abandoned"
        report = verify(log)
        assert report.status == "verified" and report.notes == ["aborted: abandoned"], report


class FullDisk:
    """A log file on a disk that fills up after ``budget`` bytes: the write that crosses
    it puts what fits and fails with ENOSPC, as a real full disk does."""

    def __init__(self, f, budget: int) -> None:
        self.f, self.left, self.name = f, budget, f.name

    def write(self, data: bytes) -> int:
        if len(data) > self.left:
            self.f.write(data[:self.left])
            self.f.flush()
            self.left = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self.left -= len(data)
        return self.f.write(data)

    def flush(self) -> None:
        self.f.flush()

    def close(self) -> None:
        self.f.close()


async def test_a_full_disk_leaves_the_game_going_and_the_log_unfinished(tmp_path, autojump_clock, monkeypatch, caplog):
    opened = []

    def open_on_a_small_disk(path, mode="r", *args, **kwargs):
        f = open(path, mode, *args, **kwargs)  # noqa: SIM115 - the log writer closes it
        opened.append(path)
        return FullDisk(f, 3000) if len(opened) == 1 else f  # only the first game's disk is full

    monkeypatch.setattr(game_log, "open", open_on_a_small_disk, raising=False)
    caplog.set_level(logging.ERROR, logger="pidor.server")
    async with serve(seeds="logs-full-disk", logs=tmp_path) as (server, port):
        c = await seated_client(port, "solo", options={"game": "pidor", "players": 3, "bots": 2})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        end = (await play_until(c, is_results))["event"]
        assert end["result"] is not None and end["deal"]["server_seed"]  # the game ended normally
        row = server.store.games_of(c.table)[0]
        assert row["ended"] is not None and row["result"] == end["result"]
        assert "No space left" in row["log_error"]
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "No space left" in errors[0].getMessage()  # reported once
        data, log = load(row["log"])
        assert len(data) == 3000  # the last record is cut in the middle
        report = verify(log)
        assert report.status == "unfinished" and report.records >= 2, report  # not "failed"
        assert log.header["deal"]["commitment"] == end["deal"]["commitment"]

        # The table is fine: the next game is logged in full.
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await play_until(c, is_results)
        _, log2 = load(server.store.games_of(c.table)[1]["log"])
        assert verify(log2).status == "verified"


async def test_seed_request_rules_and_errors_T10(tmp_path):
    async with serve(seeds="logs-seed") as (server, port):
        c = await seated_client(port, "s", options={"game": "podkidnoy", "players": 2, "bots": 1})
        errors = [("zz", "bad_seed"), ("abc", "bad_seed"), ("ab cd", "bad_seed"), ("00" * 65, "bad_seed"),
                  (b"\x01" * 65, "bad_seed"), (7, "bad_request"), (True, "bad_request"), (["ab"], "bad_request")]
        for value, code in errors:
            r = await c.request({"type": "seed", "seed": value})
            assert r["type"] == "error" and r["code"] == code, (value, r)
        r = await c.request({"type": "seed"})
        assert r["code"] == "bad_request"
        runner = server.lobby.tables[c.table]
        assert runner.seats[c.seat].seed is None  # nothing refused was kept
        assert (await c.request({"type": "seed", "seed": "AB" * 64}))["type"] == "ok"  # 64 bytes, either case
        assert runner.seats[c.seat].seed == b"\xab" * 64
        assert (await c.request({"type": "seed", "seed": None}))["type"] == "ok"  # taken back
        assert runner.seats[c.seat].seed is None
        info = [m["table"] for m in c.messages if m["type"] == "table"][-1]
        assert info["seats"][c.seat]["seeded"] is False
        other = await seated_client(port, "elsewhere", options={"game": "pidor", "players": 3})
        r = await other.request({"type": "seed", "table": c.table, "seed": "00"})
        assert r["code"] == "not_seated"
        # During a game a seed counts for the next deal (the one "commitment" announces).
        assert (await c.request({"type": "start"}))["type"] == "ok"
        assert (await c.request({"type": "seed", "seed": "01"}))["type"] == "ok"
        assert runner.rec.seat_seeds == [None, None] and runner.seats[c.seat].seed == b"\x01"


def test_an_older_games_index_gets_the_new_columns(tmp_path):
    path = old_database(tmp_path / "old.sqlite3",
                        "CREATE TABLE games (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, number INTEGER "
                        "NOT NULL, seats TEXT NOT NULL, started REAL NOT NULL, ended REAL, result TEXT, "
                        "UNIQUE (table_id, number))",
                        "INSERT INTO games (table_id, number, seats, started) VALUES (1, 1, '[]', 0)")
    store = Store(path)
    old = store.games_of(1)[0]
    assert old["log"] is None and old["commitment"] is None
    row = store.game_started(1, 2, [], log="x.plog", commitment="ab")
    store.log_failed(row, "disk full")
    store.game_aborted(row, "shutdown")
    new = store.games_of(1)[1]
    assert (new["log"], new["commitment"], new["log_error"], new["aborted"]) == ("x.plog", "ab", "disk full", "shutdown")
    store.close()


VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"


@pytest.mark.parametrize("name", sorted(p.name for p in VECTORS.glob("*-session.json")))
def test_recorded_session_reveals_the_deal_it_committed_to_T10(name):
    """protocol/vectors/*-session.json: the commitment the client saw before the deal,
    its seed, and the reveal in ``results`` agree, and the reveal gives the first player."""
    session = json.loads((VECTORS / name).read_text())
    shown, seed, results, first_action, dealt = None, None, None, None, False
    for f in session["frames"]:
        m = f["data"]
        if f["dir"] == "c2s" and m["type"] == "seed":
            seed = m["seed"]
        elif m["type"] in ("joined", "table") and not dealt:
            shown = m["table"]["commitment"]
        elif m["type"] == "event" and m["event"]["type"] == "game_start":
            dealt = True
        elif m["type"] == "event" and m["event"]["type"] == "action" and first_action is None:
            first_action = m["event"]
        elif m["type"] == "event" and m["event"]["type"] == "results":
            results = m["event"]
    deal = results["deal"]
    assert deal["commitment"] == shown == hashlib.sha256(bytes.fromhex(deal["server_seed"])).hexdigest()
    assert seed is not None and deal["seat_seeds"][0] == seed
    key = deal_key(bytes.fromhex(deal["server_seed"]), [None if s is None else bytes.fromhex(s) for s in deal["seat_seeds"]])
    options = server_options(session["options"])[0]
    del options["watch_delay"]  # the spectators' (the server's), not the Table's
    fresh = Table(options, [{"kind": "human"}] + [{"kind": "bot"}] * (options["players"] - 1))
    fresh.start(seed=key)
    assert first_action["seat"] == fresh.to_act()[0]


async def test_a_table_a_bot_stalls_ends_its_game_with_a_clear_error(tmp_path, autojump_clock, caplog):
    """Issue 22 §2: a bot seat has no turn clock; a policy that gives no action when its
    seat owes one would leave the table waiting forever. The table ends the game instead:
    it closes (reason ``stuck``), its log ends as aborted naming the seats, the server's
    log says so, and the log verifies as aborted."""
    from pidor.bots import POLICIES, Policy, register

    @register
    class Silent(Policy):
        """Never acts (a broken policy): the table may not wait for it forever."""

        name = "test-silent"

    try:
        await _play_until_stuck(tmp_path, caplog)
    finally:
        del POLICIES["test-silent"]


async def _play_until_stuck(tmp_path, caplog) -> None:
    async with serve(seeds="logs-stuck", logs=tmp_path) as (server, port):
        c = await seated_client(port, "host", options={"game": "pidor", "players": 2,
                                                       "bots": ["builtin:test-silent"]})
        runner = server.lobby.tables[c.table]
        assert (await c.request({"type": "start"}))["type"] == "ok"
        while not runner.closed:  # the person acts whenever he may, until the bot's turn comes
            msg = await c.receive(lambda m: m["type"] in ("turn", "closed"))
            if msg["type"] == "turn" and msg["options"]:
                await c.request({"type": "act", "seq": msg["seq"], "action": msg["options"][0]})
        assert runner.close_reason == "stuck"
        row = server.store.games_of(c.table)[0]
        _, log = load(row["log"])
        assert log.footer["status"] == "aborted" and log.footer["reason"].startswith("stuck: seats 1 (builtin:test-silent)")
        assert verify(log).status == "verified"
        assert any("stuck: seats 1" in r.getMessage() for r in caplog.records)
