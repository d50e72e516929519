"""T9: a player who drops keeps the seat (the honest stand-in plays it meanwhile) and
takes it back with the token: a full snapshot, then events from its sequence number.
A player who leaves for good is replaced by a bot."""

from __future__ import annotations

import trio

from pidor.server.drive import AWAY_TURN
from pidor.server.testing import connect

from server_helpers import is_event, play_until, seated_client, serve


def is_results(m):
    return m["type"] == "event" and m["event"]["type"] == "results"


async def test_reconnect_in_the_middle_of_a_game(autojump_clock):
    log = []
    async with serve(seeds="reconnect", log_sink=lambda record, events: log.extend(events)) as (server, port):
        c = await seated_client(port, "wanderer", options={"game": "pidor", "players": 3, "bots": 2})
        table, seat, token = c.table, c.seat, c.token
        assert (await c.request({"type": "start"}))["type"] == "ok"
        acted = 0

        def choose(options, msg):
            nonlocal acted
            acted += 1
            return options[0]

        await play_until(c, lambda m: m["type"] == "turn" and acted >= 5, choose=choose)
        last_seq = max(m["seq"] for m in c.messages if m["type"] == "event")
        await c.aclose()
        # While away, the stand-in plays the seat's turns at once (T9).
        runner = server.lobby.tables[table]
        while not any(e["type"] == "timeout" and e["seat"] == seat and e["reason"] == "away" for e in log):
            await trio.sleep(AWAY_TURN)  # virtual time (autojump_clock)
        assert runner.seats[seat].away and runner.playing

        d = await connect(port)
        welcome = await d.hello("wanderer", token=token)
        assert welcome["player"] == c.player and welcome["table"] == table
        snap = await d.receive(lambda m: m["type"] == "snapshot")
        assert snap["table"] == table and snap["seat"] == seat and snap["seq"] > last_seq
        assert "hand" in snap["view"] or "stacks" in snap["view"]
        assert snap["info"]["seats"][seat]["away"] is False
        d.seat = seat
        end = await play_until(d, is_results)
        seqs = [m["seq"] for m in d.messages if m["type"] == "event"]
        assert seqs[0] == snap["seq"] + 1 and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert end["event"]["number"] == 1
        back = [e for e in log if e["type"] == "seat" and e["seat"] == seat]
        assert [e["state"] for e in back] == ["away", "back"]


async def test_resync_gives_a_full_snapshot():
    async with serve(seeds="resync") as (server, port):
        c = await seated_client(port, "r", options={"game": "podkidnoy", "players": 2, "bots": 1})
        assert (await c.request({"type": "start"}))["type"] == "ok"
        await c.receive(lambda m: m["type"] == "turn")
        r = await c.request({"type": "resync"})
        assert r["type"] == "ok"
        snap = next(m for m in c.messages if m["type"] == "snapshot")
        runner = server.lobby.tables[c.table]
        assert snap["seq"] == runner.seq
        assert sorted(snap["view"]["hand"]) == sorted(runner.table.view(c.seat)["hand"])
        assert snap["view"]["status"]["state"] == "play"


async def test_leaving_for_good_hands_the_seat_to_a_bot(autojump_clock):
    log = []
    async with serve(seeds="leave", log_sink=lambda record, events: log.extend(events)) as (server, port):
        host = await seated_client(port, "host", options={"game": "pidor", "players": 3, "bots": 1})
        quitter = await seated_client(port, "quitter", table=host.table)
        assert (await host.request({"type": "start"}))["type"] == "ok"
        await quitter.receive(is_event("game_start"))
        assert (await quitter.request({"type": "leave"}))["type"] == "ok"
        runner = server.lobby.tables[host.table]
        assert runner.seats[quitter.seat].kind == "bot" and runner.seats[quitter.seat].replaced
        end = await play_until(host, is_results)
        assert end["event"]["number"] == 1
        assert {"type": "seat", "seat": quitter.seat, "state": "bot"} in log
        info = await host.receive(lambda m: m["type"] == "table" and m["table"]["state"] == "waiting")
        assert info["table"]["seats"][quitter.seat]["kind"] == "vacant"  # free after the game
        assert quitter.player not in server.lobby.seated
