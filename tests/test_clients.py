"""The clients: the bot SDK (pidor/client.py, re-exported by clients/python/pidor_client.py),
the sample random bot and ``pidor play``, against the recorded vectors and the real server
on port 0. The blocking clients run in threads (``trio.to_thread.run_sync``) while the
server runs in the test's trio loop; nothing waits on the real clock."""

from __future__ import annotations

import hashlib
import json
import pathlib
import socket
import sys

import pytest
import trio
from server_helpers import serve

from pidor import client as sdk
from pidor.engine.table import TABLE_DEFAULTS
from pidor.games import GAME_IDS, spec

ROOT = pathlib.Path(__file__).resolve().parents[1]
VECTORS = ROOT / "protocol" / "vectors"
sys.path.insert(0, str(ROOT / "clients" / "python"))

import pidor_client  # the bot writers' import
import random_bot

SESSIONS = sorted(p.name for p in VECTORS.glob("*-session.json"))


def in_thread(fn, *args, **kwargs):
    return trio.to_thread.run_sync(lambda: fn(*args, **kwargs))


# --- codec and framing against protocol/vectors ------------------------------------------------


def test_the_bot_sdk_file_is_the_one_implementation():
    assert pidor_client.Client is sdk.Client and pidor_client.Bot is sdk.Bot
    source = (ROOT / "pidor" / "client.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert not [line for line in imports if "pidor" in line or "trio" in line], imports


def test_codec_vectors_accept_and_refuse():
    codec = json.loads((VECTORS / "codec.json").read_text())
    assert codec["limits"] == {"MAX_FRAME": sdk.MAX_FRAME, "MAX_DEPTH": sdk.MAX_DEPTH, "MAX_ARRAY": sdk.MAX_ARRAY,
                               "MAX_MAP": sdk.MAX_MAP, "MAX_STR": sdk.MAX_STR, "MAX_BIN": sdk.MAX_BIN}
    for case in codec["accept"]:
        frame = bytes.fromhex(case["hex"])
        assert sdk.decode_body(frame[4:]) == case["data"]
        assert sdk.decode_body(sdk.encode(case["data"])[4:]) == case["data"]
    for case in codec["refuse"]:
        a, b = socket.socketpair()
        try:
            a.sendall(bytes.fromhex(case["hex"]))
            a.close()
            with pytest.raises(sdk.ProtocolError) as err:
                sdk.Connection(b).receive(timeout=5)
            assert err.value.code == case["code"], case["why"]
            assert not err.value.local
        finally:
            b.close()


def test_a_wait_longer_than_a_step_blocks_in_recv_and_goes_on_after_each_step():
    """A deadline further off than WAIT_STEP: no select, a recv bounded by SO_RCVTIMEO;
    one that comes back empty-handed (EAGAIN) is tried again until the frame comes."""
    frame = sdk.encode({"type": "pong", "id": 1})

    class Steps:
        def __init__(self):
            self.calls = 0

        def setsockopt(self, *args):
            pass

        def recv(self, n):
            self.calls += 1
            if self.calls < 3:
                raise BlockingIOError  # a step went by without a byte
            return frame

    sock = Steps()
    conn = sdk.Connection(sock)
    assert conn.receive(timeout=60 * sdk.WAIT_STEP) == {"type": "pong", "id": 1} and sock.calls == 3
    assert (conn.traffic.frames_in, conn.traffic.bytes_in) == (1, len(frame))


def test_encode_refuses_what_the_server_would_refuse():
    for msg, code in [({"type": "x", "s": "я" * 9000}, "too_large"), ({"type": "x", "f": float("nan")}, "bad_frame"),
                      ({"type": "x", "a": list(range(1025))}, "too_large"), ({1: 2}, "bad_frame")]:
        with pytest.raises(sdk.ProtocolError) as err:
            sdk.encode(msg)
        assert err.value.code == code and err.value.local


@pytest.mark.parametrize("name", SESSIONS)
def test_recorded_session_through_connection_and_state(name):
    """Every server frame of a recorded session, fed through a socket in odd-sized chunks,
    decodes to the recorded data; TableState applies every event once, in order, and its
    live table status agrees with each snapshot the server sent."""
    frames = [f for f in json.loads((VECTORS / name).read_text())["frames"] if f["dir"] == "s2c"]
    stream = b"".join(bytes.fromhex(f["hex"]) for f in frames)
    a, b = socket.socketpair()
    conn, state = sdk.Connection(b), sdk.TableState()
    compared = 0
    try:
        a.setblocking(False)
        pos, received = 0, []
        while len(received) < len(frames):
            if pos < len(stream):
                pos += a.send(stream[pos:pos + 777])
            msg = conn.receive(timeout=0)
            while msg is not None:
                received.append(msg)
                msg = conn.receive(timeout=0)
        assert received == [f["data"] for f in frames]
        assert (conn.traffic.frames_in, conn.traffic.bytes_in) == (len(frames), len(stream))
    finally:
        a.close()
        b.close()
    for msg in received:
        if msg["type"] == "snapshot" and state.seq is not None:
            live, snap = state.status, msg["view"]["status"]
            assert msg["seq"] == state.seq
            for key in ("mark", "number", "court", "honest_only"):
                assert live[key] == snap[key], (key, msg["seq"])
            compared += 1
        assert state.absorb(msg)
    events = [m["seq"] for m in received if m["type"] == "event"]
    assert state.seq == events[-1] and not state.gap and compared >= 1
    # A repeated event is dropped; a jump is a gap.
    last = next(m for m in reversed(received) if m["type"] == "event")
    assert state.absorb(last) is False
    assert state.absorb({**last, "seq": last["seq"] + 2}) and state.gap


# --- the SDK and the random bot against the real server ----------------------------------------


class CountingBot(random_bot.RandomBot):
    """The sample bot, with a ceiling on messages (a hung game fails, it does not hang)."""

    def __init__(self, seed=0, out=None):
        super().__init__(seed, out or (lambda text: None))
        self.seen = 0
        self.events: list[dict] = []
        self.errors: list[sdk.ServerError] = []
        self.windows: list[dict] = []

    def on_message(self, msg):
        self.seen += 1
        assert self.seen < 50000, "the game does not end"

    def on_event(self, event, seq):
        self.events.append(event)

    def on_error(self, error):
        self.errors.append(error)

    def on_window(self, event):
        self.windows.append(event)
        return super().on_window(event)


@pytest.mark.parametrize("game", GAME_IDS)
async def test_random_bot_command_plays_a_whole_game(game):
    players = spec(game).players[min(1, len(spec(game).players) - 1)]  # 3 where the game allows it
    async with serve(seeds=f"clients-{game}") as (_server, port):
        lines: list[str] = []
        code = await in_thread(random_bot.main, ["--port", str(port), "--name", "rb", "--create", game,
                                                 "--players", str(players), "--seed", "3"], out=lines.append)
        assert code == 0, lines
        assert lines[0].startswith("player ") and "token" in lines[0]
        assert lines[1].startswith(f"created table 1 ({game}, {players} seats, {players - 1} bots)")
        assert lines[2].startswith("game 1 over:") and "I am seat 0" in lines[2]
        assert not [t for t in lines if t.startswith(("error", "refused"))]


async def test_random_bot_takes_the_games_from_the_server():
    """--create names any game; the bot knows none by name: one the server does not have is
    its refusal in one line (naming the games), and without --create or an open table the
    bot creates a table of the server's default game."""
    async with serve(seeds="clients-games") as (_server, port):
        lines: list[str] = []
        code = await in_thread(random_bot.main, ["--port", str(port), "--name", "rb", "--create", "bridge"],
                               out=lines.append, err=lines.append)
        assert code == 1 and lines[-1].startswith("error: ") and all(g in lines[-1] for g in GAME_IDS)
        lines.clear()
        code = await in_thread(random_bot.main, ["--port", str(port), "--name", "rb", "--players", "2", "--seed", "2"],
                               out=lines.append)
        assert code == 0 and lines[1].startswith(f"created table 1 ({TABLE_DEFAULTS['game']}, 2 seats, 1 bots)")


async def test_client_seed_is_revealed_in_the_results_deal_T10():
    """Client.seed: bytes go as bin, a string as hex, None takes the seed back; the table
    shows the seat as seeded, and the game's ``results`` reveals the seed at our seat with
    the server seed behind the commitment shown before the game."""
    async with serve(seeds="clients-seed") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "seeder", timeout=10)
        bot = CountingBot(seed=4)

        def go():
            c.connect()
            c.create(game="pidor", players=3, bots=2, deck=36)
            for bad in ("xyz", "abc", bytes(65)):
                with pytest.raises(sdk.ServerError) as err:
                    c.seed(bad)
                assert err.value.code == "bad_seed", bad
            with pytest.raises(TypeError):
                c.seed(12345)
            assert c.seed(b"first")["type"] == "ok"
            assert c.seed("616C696365")["type"] == "ok"  # hex, either case; replaces the last
            msg = c.receive(timeout=10)
            while not (msg["type"] == "table" and msg["table"]["seats"][0].get("seeded")):
                msg = c.receive(timeout=10)
            before = c.state.info["commitment"]
            first = bot.run(c, games=1)[0]
            c.seed(b"\x00\xff")
            c.seed(None)  # taken back: the next deal has no seed of ours
            msg = c.receive(timeout=10)  # the table pushes since the game's end, up to the last seed's
            while not (msg["type"] == "table" and msg["table"]["state"] == "waiting"
                       and msg["table"]["seats"][0].get("seeded") is False):
                msg = c.receive(timeout=10)
            second = bot.run(c, games=1)[-1]
            return before, first, second

        before, first, second = await in_thread(go)
        deal = first["deal"]
        assert deal["seat_seeds"] == ["616c696365", None, None]  # "alice", shown as lowercase hex
        assert deal["commitment"] == before
        assert hashlib.sha256(bytes.fromhex(deal["server_seed"])).hexdigest() == before
        assert second["number"] == 2 and second["deal"]["seat_seeds"] == [None, None, None]
        assert second["deal"]["commitment"] != before
        await in_thread(c.close)


async def test_random_bot_gives_its_seed_hex_before_the_game():
    async with serve(seeds="clients-seed-hex") as (_server, port):
        lines: list[str] = []
        code = await in_thread(random_bot.main, ["--port", str(port), "--name", "rb", "--create", "pidor",
                                                 "--players", "3", "--seed", "1", "--seed-hex", "616C696365"],
                               out=lines.append)
        assert code == 0, lines
        assert "seed for the next deal: 616c696365" in lines
        assert "deal reveal: my seed 616c696365, as given" in lines
        assert not [t for t in lines if t.startswith(("error", "refused"))]


async def test_sdk_bot_plays_turns_windows_and_two_games():
    async with serve(seeds="clients-sdk") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "sdk", timeout=10)
        bot = CountingBot(seed=5)

        def go():
            welcome = c.connect()
            assert welcome["player"] and welcome["token"] and welcome["table"] is None
            joined = c.create(game="pidor", players=3, bots=2, deck=36)
            assert joined["seat"] == 0 and c.state.is_host
            return bot.run(c, games=2)

        results = await in_thread(go)
        assert [r["number"] for r in results] == [1, 2]
        assert bot.turns > 5
        kinds = {e["type"] for e in bot.events}
        assert {"game_start", "action", "window", "game_over", "results"} <= kinds
        mine = [e for e in bot.events if e["type"] == "action" and e["seat"] == 0]
        assert len(mine) >= bot.turns - 1  # every answered turn became our action (one may be refused)
        assert c.state.result == results[-1]["result"] and c.state.status["state"] == "over"
        assert bot.errors == []  # a random honest option is never refused
        # Each window we answered names the action it is about (from the action event before it).
        assert len(bot.windows) > 10
        pidor_actions = {"draw", "move", "lay", "keep", "lead", "beat", "take", "close"}
        assert all(w["seat"] != 0 and w["action"]["type"] in pidor_actions for w in bot.windows)
        await in_thread(c.close)


class QuietBot(sdk.Bot):
    """Never calls (no ``on_window``), votes «пидор» in every court; keeps what it saw."""

    def __init__(self):
        super().__init__()
        self.seqs: list[int] = []
        self.events: list[dict] = []

    def on_event(self, event, seq):
        self.seqs.append(seq)
        self.events.append(event)


async def test_sdk_bot_that_asks_for_no_windows_still_votes_and_never_resyncs():
    """PROTOCOL.md §3, minor 2: ``Client(may_call=False, windows=False)`` gets no window
    event; the seq numbers they leave out are no gap (it never asks to resync); the
    courts on the bots' cheats still reach it and it votes in them."""
    with pytest.raises(ValueError, match="windows=False needs may_call=False"):
        sdk.Client("127.0.0.1", 1, "loud", windows=False)
    async with serve(seeds="clients-sdk-windows") as (_server, port):
        bot = QuietBot()
        c = sdk.Client("127.0.0.1", port, "quiet", timeout=10, may_call=bot.may_call(), windows=bot.may_call())
        resyncs = []
        c.resync = lambda: resyncs.append(True)  # (Bot.run asks for one on a gap)

        def go():
            c.connect()
            c.create(game="pidor", players=3, bots=["builtin:random:cheat=0.3,attention=0.9"] * 2, deck=36)
            return bot.run(c, games=2)

        results = await in_thread(go)
        await in_thread(c.close)
    assert [r["number"] for r in results] == [1, 2]
    kinds = [e["type"] for e in bot.events]
    assert "window" not in kinds and "window_closed" not in kinds and "action" in kinds
    assert bot.seqs == sorted(set(bot.seqs)) and any(b - a > 1 for a, b in zip(bot.seqs, bot.seqs[1:]))
    assert resyncs == [] and not c.state.gap
    courts = [(q, e) for q, e in zip(bot.seqs, bot.events) if e["type"] == "court" and c.state.seat in e["voters"]]
    assert courts, "the bots call each other's cheats: courts ask for its vote"
    assert sum(e["type"] == "vote" and e["seat"] == c.state.seat for e in bot.events) == len(courts)


async def test_bot_run_twice_in_a_row_plays_one_more_game():
    # run() counts the games it plays from the results it sees, not from table info that
    # may still say "playing" right after a game's results.
    async with serve(seeds="clients-run-twice") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "again", timeout=10)
        bot = CountingBot(seed=6)

        def go():
            c.connect()
            c.create(game="podkidnoy", players=2, bots=1)
            return bot.run(c, games=1) + bot.run(c, games=1)

        results = await in_thread(go)
        assert [r["number"] for r in results] == [1, 2]
        await in_thread(c.close)


async def test_bot_with_want_view_sees_a_fresh_view_on_every_turn():
    class Looking(CountingBot):
        want_view = True
        checked = 0

        def on_turn(self, options, turn):
            view = self.state.view
            assert self.state.view_seq == turn["seq"] == self.state.seq
            for option in options:
                if "card" in option:
                    assert option["card"] in view["hand"]
                    self.checked += 1
            return super().on_turn(options, turn)

    async with serve(seeds="clients-view") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "looker", timeout=10)
        bot = Looking(seed=2)

        def go():
            c.connect()
            c.create(game="perevodnoy", players=3, bots=2)
            return bot.run(c, games=1)

        assert (await in_thread(go))[0]["number"] == 1
        assert bot.checked > 5 and bot.turns > 3
        assert bot.errors == []  # each turn answered once, though the server repeats it after a resync
        await in_thread(c.close)


async def test_two_sdk_players_join_and_the_host_starts():
    async with serve(seeds="clients-join") as (_server, port):
        host = sdk.Client("127.0.0.1", port, "host", timeout=10)
        guest = sdk.Client("127.0.0.1", port, "guest", timeout=10)

        def setup():
            host.connect()
            guest.connect()
            table = host.create(game="podkidnoy", players=3, bots=1)["table"]["id"]
            listed = guest.list_tables(game="podkidnoy", open=True)
            assert [t["id"] for t in listed["tables"]] == [table] and listed["total"] == 1
            with pytest.raises(sdk.ServerError) as err:
                guest.join(table, seat=2)  # the bot's seat (bots take the last seats)
            assert err.value.code == "seat_taken"
            assert guest.join(table)["seat"] == 1

        await in_thread(setup)
        results = {}
        async with trio.open_nursery() as nursery:
            for who, c in (("host", host), ("guest", guest)):
                async def one(who=who, c=c):
                    results[who] = await in_thread(CountingBot(seed=len(who)).run, c, 1)
                nursery.start_soon(one)
        assert results["host"][0]["result"] == results["guest"][0]["result"]
        await in_thread(host.close)
        await in_thread(guest.close)


async def test_refused_requests_are_clear_errors():
    async with serve(seeds="clients-errors") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "err", timeout=10)

        def go():
            c.connect()
            with pytest.raises(sdk.ServerError) as err:
                c.join(99)
            assert err.value.code == "no_table" and not err.value.fatal
            assert "no_table" in str(err.value) and "join" in str(err.value)
            c.create(game="pidor", players=2, bots=1)
            rid = c.act({"type": "draw"})  # no game yet
            msg = c.receive(timeout=10)
            while msg["type"] == "table":  # the push about our new table
                msg = c.receive(timeout=10)
            assert msg["type"] == "error" and msg["id"] == rid and msg["request"]["type"] == "act"
            assert msg["code"] == "not_now"
            with pytest.raises(sdk.ServerError) as err:
                c.request("fly")
            assert err.value.code == "unknown_type"
            bad = sdk.Client("127.0.0.1", port, "x", token="no-such-token", timeout=10)
            with pytest.raises(sdk.ServerError) as err:
                bad.connect()
            assert err.value.code == "unknown_token"
            bad.close()

        await in_thread(go)
        await in_thread(c.close)


async def test_a_dropped_bot_comes_back_with_its_token_and_finishes():
    class DroppingBot(CountingBot):
        dropped = False

        def __init__(self, seed):
            super().__init__(seed)
            self.snapshots = []

        def on_turn(self, options, turn):
            if self.turns == 3 and not self.dropped:
                self.dropped = True
                self.client.conn.sock.shutdown(socket.SHUT_RDWR)  # the network goes away
            return super().on_turn(options, turn)

        def on_snapshot(self, msg):
            self.snapshots.append(msg)

    async with serve(seeds="clients-reconnect") as (_server, port):
        c = sdk.Client("127.0.0.1", port, "phoenix", timeout=10)
        bot = DroppingBot(seed=1)

        def go():
            c.connect()
            token, player = c.token, c.player
            c.create(game="pidor", players=3, bots=2)
            results = bot.run(c, games=1, reconnect=1)
            assert c.token == token and c.player == player
            return results

        results = await in_thread(go)
        assert bot.dropped and results and results[0]["number"] == 1
        start, back = bot.snapshots[:2]  # the deal's, then the one sent at once after the welcome (§9)
        assert start["view"]["phase"] == "deal" and start["seq"] < back["seq"]
        assert back["seat"] == 0 and back["info"]["seats"][0]["player"] == c.player and back["seq"] > 1
        assert {"type": "seat", "seat": 0, "state": "back"} in bot.events
        assert {"type": "seat", "seat": 0, "state": "away"} not in bot.events  # we were not there to see it
        await in_thread(c.close)


class ScriptedClient:
    """Hands ``Bot.run`` the messages given, in order, and keeps the seqs it acts on."""

    def __init__(self, seat: int, messages: list[dict]) -> None:
        self.state = sdk.TableState()
        self.state.seat = seat
        self.messages = list(messages)
        self.last_sent = 0.0
        self.acted: list[int] = []

    def receive(self, timeout=None):
        return self.messages.pop(0)

    def act(self, action, seq):
        self.acted.append(seq)


@pytest.mark.parametrize("refused,acted", [(418, [418, 421]), (421, [418, 421, 421])])
def test_bot_acts_again_only_when_its_last_action_was_refused(refused, acted):
    """§5: act once per turn seq, again only when that action was refused. A refusal of an
    older action that arrives after a newer turn was answered changes nothing (else the
    turn repeated after that refusal is answered twice)."""
    turn = lambda seq: {"type": "turn", "seq": seq, "seat": 1, "options": [{"type": "draw"}]}  # noqa: E731
    error = {"type": "error", "id": 5, "code": "stale", "message": "moved on",
             "request": {"type": "act", "id": 5, "seq": refused}}
    client = ScriptedClient(1, [turn(418), turn(421), error, turn(421),
                                {"type": "event", "seq": 422, "event": {"type": "results", "number": 1}}])
    sdk.Bot().run(client, games=1)
    assert client.acted == acted
