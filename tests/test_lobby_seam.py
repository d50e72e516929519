"""The lobby through its seam, with a fake server (:class:`~server_helpers.FakeLobbyServer`):
hello and tokens, creating, listing and routing to tables, the per-address limits."""

from __future__ import annotations

import sqlite3

import pytest
import trio
import trio.testing
from seam_helpers import ask, hello_msg, lobby_with, refused, welcome
from server_helpers import FakePeer

from pidor import wire
from pidor.games import GAME_IDS
from pidor.server.limits import Limits
from pidor.server.requests import RequestError
from pidor.server.runner import TableRunner


async def test_lobby_hello_gives_a_player_a_token_and_knows_the_token_again(autojump_clock):
    async with lobby_with() as (server, lobby):
        old = FakePeer("vasya")
        lobby.hello(old, hello_msg("vasya", version="pidor/0"), 1)
        assert old.closed and old.messages[-1]["code"] == "version_mismatch" and old.player is None

        first = FakePeer("  vasya  ")
        lobby.hello(first, hello_msg(first.name), 1)
        w = first.messages[-1]
        assert (w["type"], w["id"], w["name"], w["table"]) == ("welcome", 1, "vasya", None)
        assert first.player == w["player"] and lobby.online == {first.player: first}
        assert server.store.find_player(w["token"]) == (first.player, "vasya")

        again = FakePeer("Вася")
        lobby.hello(again, hello_msg(again.name, w["token"]), 2)
        assert again.player == first.player and "token" not in again.messages[-1]
        assert first.closed and first.messages[-1]["code"] == "replaced"
        assert lobby.online == {first.player: again}
        lobby.gone(first)  # the replaced connection ends: the player stays online
        assert lobby.online == {first.player: again}

        with pytest.raises(RequestError) as e:
            lobby.hello(FakePeer("x"), hello_msg("x", "no such token"), 3)
        assert e.value.code == "unknown_token"

        # may_call (section 3): true by default, false for a client that never calls;
        # anything else is refused before a player is made
        assert again.may_call is True
        quiet = FakePeer("quiet")
        lobby.hello(quiet, {**hello_msg("quiet", w["token"]), "may_call": False}, 4)
        assert quiet.may_call is False and lobby.online == {first.player: quiet}
        bad = FakePeer("bad")
        with pytest.raises(RequestError) as e:
            lobby.hello(bad, {**hello_msg("bad"), "may_call": "no"}, 5)
        assert e.value.code == "bad_request" and "may_call" in str(e.value) and bad.player is None


async def test_lobby_creates_lists_and_routes_table_requests(autojump_clock):
    async with lobby_with() as (server, lobby):
        ann, bob, cat, dan = (welcome(lobby, FakePeer(n)) for n in ("ann", "bob", "cat", "dan"))
        joined = await ask(lobby, ann, {"type": "create", "options": {"game": "pidor", "players": 3, "bots": 1}})
        a = joined["table"]["id"]
        assert joined["type"] == "joined" and joined["seat"] == 0
        assert [r.id for r in server.opened] == [a] and lobby.table_of(ann.player) == a
        assert server.store.table_row(a)["host"] == ann.player
        joined = await ask(lobby, cat, {"type": "create", "options": {"game": "podkidnoy", "players": 2, "bots": 1}})
        b = joined["table"]["id"]
        assert [r.id for r in server.opened] == [a, b]

        def ids(reply):
            return [t["id"] for t in reply["tables"]]

        every = await ask(lobby, dan, {"type": "list"})
        assert (ids(every), every["total"], every["next"]) == ([a, b], 2, None)
        assert ids(await ask(lobby, dan, {"type": "list", "open": True})) == [a]  # b has no free seat
        assert ids(await ask(lobby, dan, {"type": "list", "open": None, "game": None})) == [a, b]  # null: absent
        assert ids(await ask(lobby, dan, {"type": "list", "game": "podkidnoy"})) == [b]
        page = await ask(lobby, dan, {"type": "list", "limit": 1})
        assert (ids(page), page["total"], page["next"]) == ([a], 2, a)
        assert ids(await ask(lobby, dan, {"type": "list", "after": page["next"]})) == [b]

        # By id to the table named; without one, to the player's own table.
        joined = await ask(lobby, bob, {"type": "join", "table": a})
        assert (joined["type"], joined["table"]["id"], joined["seat"]) == ("joined", a, 1)
        assert lobby.table_of(bob.player) == a
        assert (await ask(lobby, bob, {"type": "seed", "seed": "00ff"}))["type"] == "ok"
        assert server.opened[0].seats[1].seed == b"\x00\xff"
        elsewhere = await ask(lobby, cat, {"type": "join", "table": a})  # table a asks where else she sits
        assert elsewhere["code"] == "already_seated" and f"table {b}" in elsewhere["message"]
        assert refused(lobby, dan, {"type": "join", "table": 999}).code == "no_table"
        assert refused(lobby, dan, {"type": "start"}).code == "no_table"
        assert refused(lobby, ann, {"type": "create"}).code == "already_seated"

        # The last person leaves: the table closes and the lobby forgets it.
        assert (await ask(lobby, bob, {"type": "leave"}))["type"] == "ok"
        assert (await ask(lobby, ann, {"type": "leave"}))["type"] == "ok"
        assert list(lobby.tables) == [b] and lobby.table_of(ann.player) is None
        assert server.store.table_row(a)["closed"] is not None
        # A seated player's connection ends: the table hears of it and closes when empty.
        lobby.gone(cat)
        await trio.testing.wait_all_tasks_blocked()
        assert lobby.tables == {} and lobby.seated == {} and cat.player not in lobby.online


class RoomyLimits(Limits):
    MAX_TABLES_PER_ADDRESS = TABLES_PER_MINUTE = PLAYERS_PER_MINUTE = 10_000


async def test_a_list_page_always_fits_in_one_frame(autojump_clock):
    """100 six-seat tables of people with 32-letter Cyrillic names take more than a frame
    (MAX_FRAME) to describe: the page stops before that and says where to go on (a reply
    over the limit used to raise in the lobby and close the asking connection)."""
    name = "Ж" * 32
    async with lobby_with(RoomyLimits) as (server, lobby):
        for t in range(100):
            host = welcome(lobby, FakePeer(name))
            joined = await ask(lobby, host, {"type": "create", "options": {"game": "pidor", "players": 6}})
            for _ in range(5):
                assert (await ask(lobby, welcome(lobby, FakePeer(name)),
                                  {"type": "join", "table": joined["table"]["id"]}))["type"] == "joined"
        reader = welcome(lobby, FakePeer("reader"))
        seen, after = [], None
        while True:
            page = await ask(lobby, reader, {"type": "list"} if after is None else {"type": "list", "after": after})
            assert page["type"] == "tables" and page["total"] == 100
            assert len(wire.encode(page)) <= wire.MAX_FRAME
            seen += [t["id"] for t in page["tables"]]
            after = page["next"]
            if after is None:
                break
        assert seen == sorted(lobby.tables) and len(seen) == 100
        assert len(seen) > len(page["tables"])  # more than one page was needed


class TightLimits(Limits):
    MAX_TABLES_PER_ADDRESS = 2
    TABLES_PER_MINUTE = 3
    PLAYERS_PER_MINUTE = 3


async def test_lobby_limits_new_players_and_tables_per_address(autojump_clock):
    create = {"type": "create", "options": {"game": "podkidnoy", "players": 2}}
    async with lobby_with(TightLimits) as (server, lobby):
        here = [welcome(lobby, FakePeer(f"h{i}", address="10.0.0.1")) for i in range(3)]
        with pytest.raises(RequestError) as e:
            lobby.hello(FakePeer("h3", address="10.0.0.1"), hello_msg("h3"), 1)
        assert e.value.code == "rate_limited" and "try again in 20 s" in e.value.message
        token = here[0].messages[0]["token"]
        here[0] = welcome(lobby, FakePeer("h0", address="10.0.0.1"), token)  # a token is no new player
        there = welcome(lobby, FakePeer("t0", address="10.0.0.2"))  # another address counts apart

        assert (await ask(lobby, here[0], create))["type"] == "joined"
        assert (await ask(lobby, here[1], create))["type"] == "joined"
        assert refused(lobby, here[2], create).code == "server_full"  # two tables of this address are open
        assert (await ask(lobby, there, create))["type"] == "joined"
        assert (await ask(lobby, here[0], {"type": "leave"}))["type"] == "ok"  # its table closes
        assert (await ask(lobby, here[2], create))["type"] == "joined"  # the third this minute
        assert (await ask(lobby, here[1], {"type": "leave"}))["type"] == "ok"
        late = refused(lobby, here[0], create)
        assert late.code == "rate_limited" and "try again in" in late.message
        await trio.sleep(60 / TightLimits.TABLES_PER_MINUTE)
        assert (await ask(lobby, here[0], create))["type"] == "joined"


async def test_a_refused_write_costs_no_rate_token(autojump_clock, monkeypatch):
    """A new player or table the store cannot write (``unavailable``: a full disk) did not
    happen: the client may try again at once, as often as it likes, without being
    ``rate_limited`` for attempts that changed nothing; once the store writes again, it
    gets in at once."""
    from pidor.server.store import StoreError
    create = {"type": "create", "options": {"game": "podkidnoy", "players": 2}}
    async with lobby_with(TightLimits) as (server, lobby):
        host = welcome(lobby, FakePeer("host", address="10.0.0.9"))

        def full(*args, **kwargs):
            raise StoreError(sqlite3.OperationalError("database or disk is full"))

        with monkeypatch.context() as m:
            m.setattr(server.store, "new_player", full)
            m.setattr(server.store, "new_table", full)
            for i in range(3 * TightLimits.PLAYERS_PER_MINUTE):
                with pytest.raises(RequestError) as e:
                    lobby.hello(FakePeer(f"p{i}", address="10.0.0.9"), hello_msg(f"p{i}"), i)
                assert e.value.code == "unavailable"
            for _ in range(3 * TightLimits.TABLES_PER_MINUTE):
                assert refused(lobby, host, create).code == "unavailable"
        for i in range(TightLimits.PLAYERS_PER_MINUTE - 1):  # (host took one token)
            welcome(lobby, FakePeer(f"q{i}", address="10.0.0.9"))
        assert (await ask(lobby, host, create))["type"] == "joined"


class FewLists(Limits):
    CONNECTION_LISTS_PER_MINUTE = 3
    LISTS_PER_MINUTE = 5


async def test_list_is_limited_per_connection_and_per_address(autojump_clock, monkeypatch):
    """Issue 21 item 6: every ``list`` page costs up to 48 KiB to make and send, so a
    connection and an address get only so many a minute; beyond, ``rate_limited`` with
    the wait, which makes nothing and takes no token of the connection's."""
    async with lobby_with(FewLists) as (server, lobby):
        made = []
        page = type(lobby)._page
        monkeypatch.setattr(type(lobby), "_page", lambda self, *a: made.append(a) or page(self, *a))
        first, second = (welcome(lobby, FakePeer(n, address="10.0.0.1")) for n in ("first", "second"))
        elsewhere = welcome(lobby, FakePeer("elsewhere", address="10.0.0.2"))
        for after in range(3):
            assert (await ask(lobby, first, {"type": "list", "after": after}))["type"] == "tables"
        late = refused(lobby, first, {"type": "list", "after": 9})
        assert late.code == "rate_limited" and "3 lists a minute may come from one connection" in late.message
        assert "try again in 20 s" in late.message
        for _ in range(2):
            assert (await ask(lobby, second, {"type": "list"}))["type"] == "tables"
        assert refused(lobby, second, {"type": "list", "after": 9}).code == "rate_limited"  # the address's 5
        assert (await ask(lobby, elsewhere, {"type": "list"}))["type"] == "tables"
        assert len(made) == 4  # (second asked for one page twice) and nothing for the refused
        await trio.sleep(60 / FewLists.LISTS_PER_MINUTE)
        assert (await ask(lobby, second, {"type": "list"}))["type"] == "tables"  # its own token was not taken
        assert refused(lobby, first, {"type": "list"}).code == "rate_limited"  # 12 s: not a token of its own yet
        lobby.gone(first)
        assert first not in lobby._conn_list_rate._buckets


class Renaming(TableRunner):
    """A table whose inbox takes ``rename`` (as a match's table takes ``seat``): it changes
    a seat without telling anyone."""

    def _handle(self, item: tuple) -> None:
        if item[0] == "rename":
            self.seats[item[2]].name = item[3]
        else:
            super()._handle(item)


async def test_a_list_page_is_made_once_until_a_table_changes(autojump_clock, monkeypatch):
    """Issue 21 item 6: asking again for a page nothing changed in makes nothing (the
    page is kept, each table's info packed once); whatever changes a table (a join, a
    start, the end of a game, an item of its inbox) shows in the next page."""
    async with lobby_with() as (server, lobby):
        described = []
        info = TableRunner.info
        monkeypatch.setattr(TableRunner, "info", lambda self: described.append(self.id) or info(self))
        ann, bob, reader = (welcome(lobby, FakePeer(n)) for n in ("ann", "bob", "reader"))
        a = (await ask(lobby, ann, {"type": "create", "options": {"game": "podkidnoy", "players": 2}}))["table"]["id"]
        b = (await ask(lobby, bob, {"type": "create", "options": {"game": "pidor", "players": 2, "bots": 1}}))
        b = b["table"]["id"]
        described.clear()

        async def seats(table_id: int) -> list[tuple]:
            page = await ask(lobby, reader, {"type": "list"})
            table = next(t for t in page["tables"] if t["id"] == table_id)
            return [(s["kind"], s["name"]) for s in table["seats"]] + [table["state"]]

        assert await seats(a) == [("human", "ann"), ("vacant", ""), "waiting"]
        assert sorted(described) == [a, b]
        described.clear()
        for _ in range(3):
            assert await seats(a) == [("human", "ann"), ("vacant", ""), "waiting"]
        assert described == []

        assert (await ask(lobby, bob, {"type": "leave"}))["type"] == "ok"  # b closes: a is as it was
        assert (await ask(lobby, bob, {"type": "join", "table": a}))["type"] == "joined"
        assert await seats(a) == [("human", "ann"), ("human", "bob"), "waiting"]
        assert (await ask(lobby, ann, {"type": "start"}))["type"] == "ok"
        assert await seats(a) == [("human", "ann"), ("human", "bob"), "playing"]

        # An item of the table's inbox that changes a seat and tells nobody.
        runner = Renaming(server.house, server.store.new_table("pidor", lobby.tables[a].options, None),
                          lobby.tables[a].options, [{"policy": "random"}])
        lobby.tables[runner.id] = runner  # (as a match opens its tables)
        server.nursery.start_soon(runner.run)
        assert wire.decode_frame(runner.packed_info())["seats"][1]["name"] == "bot-1"
        runner.submit(("rename", None, 1, "robot"))
        await trio.testing.wait_all_tasks_blocked()
        assert await seats(runner.id) == [("vacant", ""), ("bot", "robot"), "waiting"]


async def test_list_and_rules_refuse_an_unknown_game_alike(autojump_clock):
    """Issue 21 item 9: ``list`` with a game that does not exist is ``bad_request``, as
    ``rules`` is (it used to answer an empty page); each game is known to both."""
    async with lobby_with() as (server, lobby):
        reader = welcome(lobby, FakePeer("reader"))
        for kind in ("list", "rules"):
            e = refused(lobby, reader, {"type": kind, "game": "chess"})
            assert e.code == "bad_request" and f"{kind}.game must be one of" in e.message and "'chess'" in e.message
            for game in GAME_IDS:
                assert (await ask(lobby, reader, {"type": kind, "game": game}))["type"] in ("tables", "rules")
