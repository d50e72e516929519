"""«Пень» and «пеньки» over the wire: a whole game of a scripted player against cheating,
calling bots on a real server, every frame checked by the server's leak audit (no frame to a
seat names a card hidden from it then: other hands, the deck, and every пенёк until its owner
picks it up, and then from everyone else, S5)."""

from __future__ import annotations

import random

import pytest
from helpers import first_fast
from server_helpers import Audit, events_of, play_until, seated_client, serve


def is_results(msg) -> bool:
    return msg["type"] == "event" and msg["event"]["type"] == "results"


@first_fast
@pytest.mark.parametrize("variant", [None, "penki"])
async def test_S5_no_frame_shows_a_stub_before_its_owner_picks_it_up_nor_to_anyone_else(variant, autojump_clock):
    audit = Audit()
    async with serve(audit=audit, seeds=f"stump-wire-{variant}", memory=True) as (_server, listener):
        options = {"game": "stump", "players": 3, "variant": variant,
                   "bots": ["builtin:random:cheat=0.2,attention=0.5"] * 2}
        c = await seated_client(listener, "solo", options=options)
        assert (await c.request({"type": "start"}))["type"] == "ok"
        rng = random.Random(3)
        for number in (1, 2):
            end = await play_until(c, is_results, choose=lambda options, m: rng.choice(options))
            assert end["event"]["number"] == number and end["event"]["result"] is not None
            if number == 1:
                assert (await c.request({"type": "start"}))["type"] == "ok"
    stubs = events_of(c, "stub")
    assert stubs and all(("cards" in e) == (e["seat"] == c.seat) for e in stubs)  # his own пенёк only
    assert sum(e["type"] == "action" and e["seat"] == c.seat for e in events_of(c)) > 10
    assert audit.frames > 200 and audit.leaks == []
