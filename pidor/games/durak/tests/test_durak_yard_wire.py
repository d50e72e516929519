"""The yard variants over the wire (V10–V12): a table created with them, a scripted player
and built-in bots, and no frame to the player showing a card hidden from him (the set-aside
card before it turns, anybody's поджопники before they come up: his own too)."""

from __future__ import annotations

from server_helpers import Audit, events_of, play_until, seated_client, serve

BOTS = ["builtin:random:cheat=0.3,attention=0.5", "builtin:greedy"]
YARD = {"game": "perevodnoy", "players": 3, "deck": 36, "two_trumps": True, "reserve": 2, "pass_card": ["Qs", "6h"]}


#: The player's preference: pass the attack on, cover, throw in or lead his lowest card; take last.
PREFER = {"show": 0, "transfer": 1, "cover": 2, "attack": 3, "give": 3, "bito": 4, "take": 5}


def choose(options: list[dict], msg: dict) -> dict:
    return min(options, key=lambda o: (PREFER.get(o["type"], 6), "6789TJQKA".find(o.get("card", "A")[0])))


def is_results(msg) -> bool:
    return msg["type"] == "event" and msg["event"]["type"] == "results"


async def test_V10_V11_V12_a_yard_table_over_the_wire_leaks_nothing(autojump_clock):
    audit = Audit()
    async with serve(audit=audit, seeds="yard-wire", memory=True) as (_server, listener):
        c = await seated_client(listener, "solo", options={**YARD, "bots": BOTS})
        assert c.table is not None
        for number in range(1, 7):  # (until his own поджопники came up in a game)
            assert (await c.request({"type": "start"}))["type"] == "ok"
            end = await play_until(c, is_results, choose=choose)  # (a false call would pay him cards, D12)
            assert end["event"]["number"] == number and end["event"]["result"] is not None
            if any(e["seat"] == c.seat for e in events_of(c, "reserve")) and number > 1:
                break
        seen = {e["type"] for e in events_of(c)}
        assert {"trump_turned", "reserve", "transfer"} <= seen
        mine = [e for e in events_of(c, "reserve") if e["seat"] == c.seat]
        assert mine and all(len(e["cards"]) == e["count"] for e in mine)  # his own, named to him alone
        assert all("cards" not in e for e in events_of(c, "reserve") if e["seat"] != c.seat)
        assert any(e["action"]["type"] == "show" for e in events_of(c, "action"))
        snapshots = [m for m in c.messages if m["type"] == "snapshot"]
        assert snapshots and snapshots[-1]["info"]["options"]["pass_card"] == ["Qs", "6h"]
    assert audit.frames > 100 and audit.leaks == []
