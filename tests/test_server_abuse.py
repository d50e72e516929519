"""Clients that break the protocol or stop reading get a clear error or are dropped,
while a game at another table finishes normally."""

from __future__ import annotations

import logging

import msgpack
import pytest
import trio

from pidor import wire
from pidor.server.testing import connect

from server_helpers import play_until, seated_client, serve


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


BAD = [
    ("garbage", frame(b"abc"), "bad_frame"),
    ("not a map", frame(msgpack.packb([1, 2, 3])), "bad_frame"),
    ("int keys", frame(msgpack.packb({1: 2})), "bad_frame"),
    ("ext type", frame(msgpack.packb({"type": msgpack.ExtType(5, b"x")})), "bad_frame"),
    ("oversized frame", (wire.MAX_FRAME + 1).to_bytes(4, "big") + b"\x80", "frame_too_large"),
    ("huge string", frame(msgpack.packb({"type": "hello", "name": "x" * (wire.MAX_STR + 1)})), "too_large"),
    ("deep nesting", frame(b"\x81\xa1a" + b"\x91" * 40 + b"\x01"), "too_deep"),
    ("invalid utf-8", frame(b"\x81\xa4type\xa2\xff\xfe"), "bad_frame"),
]


@pytest.mark.parametrize("name,data,code", BAD, ids=[b[0] for b in BAD])
async def test_protocol_violations_get_an_error_then_close(name, data, code):
    async with serve() as (server, port):
        c = await connect(port)
        await c.hello("x")
        await c.send_raw(data)
        r = await c.receive(lambda m: m["type"] == "error")
        assert r["code"] == code and r["fatal"] is True, r
        with pytest.raises(EOFError):
            await c.receive()


async def test_misbehaving_clients_do_not_disturb_another_table(autojump_clock, caplog):
    async with serve() as (server, port):
        player = await seated_client(port, "good", options={"game": "pidor", "players": 3, "bots": 2})
        assert (await player.request({"type": "start"}))["type"] == "ok"
        # A silent reader: seated at a table of its own, asks and asks and never reads.
        hog = await seated_client(port, "hog", options={"game": "podkidnoy", "players": 2, "bots": 1})
        assert (await hog.request({"type": "start"}))["type"] == "ok"
        hog_player = hog.player
        dropped = trio.Event()
        results = {}

        async def spam():
            burst = b"".join(wire.encode({"type": "resync", "id": i}) for i in range(100))
            try:
                for _ in range(2000):
                    await hog.send_raw(burst)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
            dropped.set()

        async def abusers():
            for data in (frame(b"\x00garbage"), (10 ** 9).to_bytes(4, "big")):
                c = await connect(port)
                await c.send_raw(data)
                r = await c.receive(lambda m: m["type"] == "error")
                assert r["fatal"]
            c = await connect(port)
            r = await c.hello("old", version="pidor/0")
            assert r["code"] == "version_mismatch"

        async def play():
            end = await play_until(player, lambda m: m["type"] == "event" and m["event"]["type"] == "results")
            results["good"] = end["event"]

        async with trio.open_nursery() as nursery:
            nursery.start_soon(spam)
            nursery.start_soon(abusers)
            nursery.start_soon(play)
        assert dropped.is_set()
        assert hog_player not in server.lobby.online  # the slow reader was dropped, as a slow reader:
        why = [r.getMessage().split(" dropped: ")[1] for r in caplog.records
               if r.levelno == logging.WARNING and f"player={hog_player}> dropped: " in r.getMessage()]
        limits = server.limits
        assert why in ([f"over {limits.QUEUE_BYTES} bytes wait to be sent (a slow reader)"],
                       [f"a write took longer than {limits.WRITE_TIMEOUT:g} s"]), why
        assert results["good"]["number"] == 1 and results["good"]["result"] is not None
