"""The lobby: who is online, which tables exist, who sits where; hello, list and create.

Everything here runs synchronously in the calling connection's or table's task (no
awaits), so the maps stay consistent without locks. Requests about one table go to that
table's task. The lobby is each connection's :class:`~pidor.server.seams.Handler`; it sees
clients as :class:`~pidor.server.seams.Peer` objects and the server as a
:class:`~pidor.server.seams.LobbyServer` (the store, and a table task for each table it
creates); the tables reach its seat bookkeeping through their house (the server).

One address (the peer's IP) may not fill the lobby (``Limits``): it holds at most
``MAX_TABLES_PER_ADDRESS`` open tables (``server_full``), and creates at most
``TABLES_PER_MINUTE`` tables and ``PLAYERS_PER_MINUTE`` new players a minute
(``rate_limited``, with the wait in the message). ``list`` pages, up to 48 KiB each, are
limited alike: ``LISTS_PER_MINUTE`` from one address, ``CONNECTION_LISTS_PER_MINUTE``
from one connection. A page is made of each table's packed info, kept by its runner until
the table changes, and is itself kept until a table changes, opens or closes: asking for
the same page again costs next to nothing.
"""

from __future__ import annotations

import logging
import math
import unicodedata
from collections import Counter

import trio

from .. import __version__, wire
from ..engine.game import shown
from ..games import GAME_IDS, rules_of
from .limits import Limits
from .requests import RequestError, field_bool, field_int, field_str
from .runner import TABLE_REQUESTS, Busy, TableRunner
from .seams import LobbyServer, Peer
from .seating import NAME_MAX, server_options

__all__ = ["Lobby", "Rate", "LIST_MAX"]

log = logging.getLogger(__name__)

#: Tables in one ``tables`` reply.
LIST_MAX = 100
#: Bytes of table infos in one ``tables`` reply: with names of 32 Cyrillic characters a
#: page of 100 six-seat tables would not fit in one frame (``wire.MAX_FRAME``).
PAGE_BYTES = 48 * 1024
#: Pages the lobby keeps (each for one ``game``, ``open``, ``after`` and ``limit``) until a
#: table changes; more are made afresh.
PAGES_KEPT = 64


def _clean_name(raw: str) -> str:
    name = " ".join(raw.split())
    if not name or any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise RequestError("bad_request", f"hello.name must be 1..{NAME_MAX} printable characters")
    return name


def _game(msg: dict) -> str | None:
    """A request's optional ``game`` (``list``, ``rules``): one of the games, or ``None``."""
    game = field_str(msg, "game", optional=True, max_len=32)
    if game is not None and game not in GAME_IDS:
        raise RequestError("bad_request", f"{msg['type']}.game must be one of {', '.join(GAME_IDS)}, not {shown(game)}")
    return game


def _retry(wait: float) -> str:
    return f"try again in {math.ceil(wait * 10) / 10:g} s"


class Rate:
    """At most ``per_minute`` events a minute for each key (an address), in bursts of as
    many: a token bucket per key, refilled continuously. A bucket that has refilled is
    the same as none, so those are dropped whenever the map has doubled."""

    def __init__(self, per_minute: int) -> None:
        self.capacity = per_minute
        self.refill = per_minute / 60.0  # tokens a second
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self._prune_at = 1024

    def take(self, key: str, now: float) -> float:
        """Take a token for ``key``: 0.0 if there was one, else the seconds until there is."""
        tokens, then = self._buckets.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - then) * self.refill)
        if tokens < 1:
            return (1 - tokens) / self.refill
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) >= self._prune_at:
            self._buckets = {k: (t, w) for k, (t, w) in self._buckets.items()
                             if t + (now - w) * self.refill < self.capacity}
            self._prune_at = max(1024, 2 * len(self._buckets))
        return 0.0

    def give_back(self, key: str) -> None:
        """Return the token just taken for ``key``: what it was taken for did not happen
        (the store could not write it), so a client trying again is not also rate limited."""
        if key in self._buckets:
            tokens, then = self._buckets[key]
            self._buckets[key] = (min(self.capacity, tokens + 1), then)

    def forget(self, key) -> None:
        """``key`` is gone for good (a connection that closed)."""
        self._buckets.pop(key, None)


class Lobby:
    def __init__(self, server: LobbyServer, limits: type[Limits] | Limits) -> None:
        self.server = server
        self.store = server.store
        self.limits = limits
        self.tables: dict[int, TableRunner] = {}  # in order of creation, which is id order
        self.online: dict[int, Peer] = {}  # player -> their connection
        self.seated: dict[int, TableRunner] = {}  # player -> the table they sit at
        self._players_at: dict[int, set[int]] = {}  # open table -> the players seated there (as in seated)
        self.watching: dict[Peer, int] = {}  # connection -> the table it last asked to watch
        self._creator: dict[int, str] = {}  # open table -> its creator's address
        self._open_by: Counter[str] = Counter()  # address -> open tables it created
        self._table_rate = Rate(limits.TABLES_PER_MINUTE)
        self._player_rate = Rate(limits.PLAYERS_PER_MINUTE)
        self._list_rate = Rate(limits.LISTS_PER_MINUTE)  # per address
        self._conn_list_rate = Rate(limits.CONNECTION_LISTS_PER_MINUTE)  # per connection
        # (game, open, after, limit) -> a list page: the packed infos, total, next
        self._pages: dict[tuple, tuple[list[bytes], int, int | None]] = {}

    # --- seats (the tables' part of the House, which the server hands on) ------------

    def seat(self, player: int, table_id: int) -> None:
        self.unseat(player, self.table_of(player))
        self.seated[player] = self.tables[table_id]
        self._players_at.setdefault(table_id, set()).add(player)
        self.store.player_seated(player)  # kept for good (Store.forget_players)

    def unseat(self, player: int | None, table_id: int) -> None:
        runner = self.seated.get(player)
        if runner is not None and runner.id == table_id:
            del self.seated[player]
            self._players_at[table_id].discard(player)

    def table_of(self, player: int) -> int | None:
        runner = self.seated.get(player)
        return None if runner is None else runner.id

    def table_changed(self, table_id: int) -> None:
        self._pages.clear()

    def table_closed(self, table_id: int, reason: str) -> None:
        self._pages.clear()
        self.tables.pop(table_id, None)
        address = self._creator.pop(table_id, None)
        if address is not None:
            self._open_by[address] -= 1
            if not self._open_by[address]:
                del self._open_by[address]
        for conn in [c for c, t in self.watching.items() if t == table_id]:
            del self.watching[conn]  # (the table told its spectators)
        for player in self._players_at.pop(table_id, ()):  # (not a scan of every seated player)
            del self.seated[player]
            conn = self.online.get(player)
            if conn is not None:
                conn.send({"type": "closed", "table": table_id, "reason": reason})
        self.store.close_table(table_id)
        log.info("table %s closed", table_id)

    # --- connections ---------------------------------------------------------------

    def hello(self, conn: Peer, msg: dict, rid) -> None:
        version = msg.get("version")
        if version != wire.PROTOCOL_VERSION:
            conn.fatal("version_mismatch",
                       f"this server speaks protocol {wire.PROTOCOL_VERSION!r}, not {shown(version)}", rid)
            return
        name = _clean_name(field_str(msg, "name", max_len=NAME_MAX))
        token = field_str(msg, "token", optional=True, max_len=128)
        may_call = field_bool(msg, "may_call", default=True)
        windows = field_bool(msg, "windows", default=True)
        if may_call and not windows:
            raise RequestError("bad_request", "hello.windows false needs may_call false: a client that may call "
                                              "must see the call windows it answers")
        store = self.store
        issued = None
        if token is not None:
            found = store.find_player(token)
            if found is None:
                raise RequestError("unknown_token", "no player has this token; say hello without one to get a new one")
            player = found[0]
        else:
            wait = self._player_rate.take(conn.address, trio.current_time())
            if wait:
                raise RequestError("rate_limited", f"{self.limits.PLAYERS_PER_MINUTE} new players a minute "
                                   f"may come from one address; {_retry(wait)}, or say hello with your token")
            try:
                player, issued = store.new_player(name)
            except RequestError:  # (unavailable: the disk is full) nothing happened
                self._player_rate.give_back(conn.address)
                raise
        store.seen(player, name)
        old = self.online.get(player)
        if old is not None and old is not conn:
            old.fatal("replaced", "you connected again from elsewhere; this connection is closed")
        conn.player, conn.name, conn.may_call, conn.windows = player, name, may_call, windows
        self.online[player] = conn
        runner = self.seated.get(player)
        welcome = {"type": "welcome", "id": rid, "version": wire.PROTOCOL_VERSION, "minor": wire.PROTOCOL_MINOR,
                   "server": f"pidor {__version__}",
                   "player": player, "name": name, "table": None if runner is None else runner.id}
        if issued is not None:
            welcome["token"] = issued
        conn.send(welcome)
        log.info("player %s (%s) connected from %s%s", player, name, conn.peer, " (new)" if issued else "")
        if runner is not None:
            runner.submit(("back", conn, player, None))

    def gone(self, conn: Peer) -> None:
        self._unwatch(conn)
        self._conn_list_rate.forget(conn)
        player = conn.player
        if player is None or self.online.get(player) is not conn:
            return
        del self.online[player]
        runner = self.seated.get(player)
        if runner is not None:
            runner.submit(("away", conn, player, None))

    # --- requests ------------------------------------------------------------------

    def request(self, conn: Peer, msg: dict, rid) -> None:
        runner = self.seated.get(conn.player)
        if runner is not None:
            runner.release(conn)  # what its table holds for it goes before any answer to this
        kind = msg.get("type")
        if not isinstance(kind, str):
            raise RequestError("bad_request", "every message needs a string 'type'")
        if kind == "ping":
            conn.send({"type": "pong", "id": rid})
        elif kind == "list":
            self._list(conn, msg, rid)
        elif kind == "rules":
            conn.send({"type": "rules", "id": rid, "rules": rules_of(_game(msg))})
        elif kind == "create":
            self._create(conn, msg, rid)
        elif kind in TABLE_REQUESTS:
            table = field_int(msg, "table", optional=(kind not in ("join", "watch")))
            if table is not None:
                runner = self.tables.get(table)
            elif kind == "unwatch":
                runner = self.tables.get(self.watching.get(conn))
            else:  # the player's table; for resync, else the one he watches
                runner = self.seated.get(conn.player)
                if runner is None and kind == "resync":
                    runner = self.tables.get(self.watching.get(conn))
            if runner is None or runner.closed:
                raise RequestError("no_table", "no such table" if table is not None
                                   else "you watch no table" if kind == "unwatch"
                                   else "you sit at or watch no table" if kind == "resync" else "you sit at no table")
            if kind == "watch" and self.watching.get(conn) != runner.id:
                self._unwatch(conn)  # a connection watches one table at a time
                self.watching[conn] = runner.id
            elif kind == "unwatch" and self.watching.get(conn) == runner.id:
                del self.watching[conn]
            try:
                runner.submit(("request", conn, conn.player, msg))
            except Busy:
                raise RequestError("busy", f"table {runner.id} is busy; try again") from None
        elif kind == "hello":
            raise RequestError("already_hello", "hello was already accepted on this connection")
        else:
            raise RequestError("unknown_type", f"unknown message type {shown(kind)}")

    def _unwatch(self, conn: Peer) -> None:
        """The connection no longer watches the table it watched (if any)."""
        runner = self.tables.get(self.watching.pop(conn, None))
        if runner is not None:
            runner.submit(("unwatch", conn, conn.player, None))

    def _list(self, conn: Peer, msg: dict, rid) -> None:
        """The tables that match, by id, from after ``after``: ``limit`` of them (at most
        ``LIST_MAX``), within the connection's and the address's rates."""
        game = _game(msg)
        only_open = msg.get("open")
        if only_open is None:  # absent or null, as for every optional field
            only_open = False
        elif type(only_open) is not bool:
            only_open = field_bool(msg, "open")
        after = field_int(msg, "after", optional=True)
        limit = field_int(msg, "limit", optional=True)
        if limit is None:
            limit = LIST_MAX
        elif not 1 <= limit <= LIST_MAX:
            raise RequestError("bad_request", f"list.limit must be 1..{LIST_MAX}")
        self._charge_list(conn)
        key = (game, only_open, after, limit)
        page = self._pages.get(key)
        if page is None:
            if len(self._pages) >= PAGES_KEPT:
                self._pages.clear()
            page = self._pages[key] = self._page(game, only_open, after, limit)
        infos, total, after_page = page
        conn.send_frames([wire.encode_packed({"type": "tables", "id": rid, "tables": infos, "total": total,
                                              "next": after_page}, "tables")])

    def _charge_list(self, conn: Peer) -> None:
        """Take a ``list`` from the connection's rate and its address's, or refuse it
        (``rate_limited``) and take from neither; the connection is then held (read no
        further) until the wait has passed, so a greedy client's refusals cost nothing
        either."""
        limits, now = self.limits, trio.current_time()
        wait = self._conn_list_rate.take(conn, now)
        if not wait:
            wait = self._list_rate.take(conn.address, now)
            if wait:
                self._conn_list_rate.give_back(conn)
        if wait:  # (the connection is read no further until then: a refusal costs too)
            raise RequestError("rate_limited", f"{limits.CONNECTION_LISTS_PER_MINUTE} lists a minute may come from "
                               f"one connection, {limits.LISTS_PER_MINUTE} from one address; {_retry(wait)}",
                               hold=wait)

    def _page(self, game: str | None, only_open: bool, after: int | None,
              limit: int) -> tuple[list[bytes], int, int | None]:
        """The packed infos of the tables that match, by id, from after ``after``: ``limit``
        of them at most, and no more than ``PAGE_BYTES``; the count of all that match
        (``total``); the ``after`` of the next page (``None``: this is the last)."""
        infos: list[bytes] = []
        size = 0  # bytes of the page's table infos: the reply must fit in one frame
        total = 0
        more = False
        last = None
        for runner in self.tables.values():  # in id order
            if runner.closed or (game is not None and runner.options["game"] != game):
                continue
            if only_open and (runner.playing or all(s.kind != "vacant" for s in runner.seats)):
                continue
            total += 1
            if (after is None or runner.id > after) and not more:
                info = runner.packed_info() if len(infos) < limit else None
                if info is None or size + len(info) > PAGE_BYTES:
                    more = True
                else:
                    infos.append(info)
                    size += len(info)
                    last = runner.id
        return infos, total, last if more else None

    def _create(self, conn: Peer, msg: dict, rid) -> None:
        player = conn.player
        if player in self.seated:
            raise RequestError("already_seated", f"you already sit at table {self.seated[player].id}; leave it first")
        limits = self.limits
        if len(self.tables) >= limits.MAX_TABLES:
            raise RequestError("server_full", f"the server holds {limits.MAX_TABLES} tables; try later")
        if self._open_by[conn.address] >= limits.MAX_TABLES_PER_ADDRESS:
            raise RequestError("server_full", f"{limits.MAX_TABLES_PER_ADDRESS} tables created from your address "
                               "are open, the most allowed; join one, or create when one has closed")
        try:
            options, bots = server_options(msg.get("options"))
        except (ValueError, TypeError) as e:
            raise RequestError("bad_options", str(e)) from None
        wait = self._table_rate.take(conn.address, trio.current_time())
        if wait:
            raise RequestError("rate_limited", f"{limits.TABLES_PER_MINUTE} tables a minute may be created from "
                               f"one address; {_retry(wait)}")
        try:
            table_id = self.store.new_table(options["game"], options, player)
        except RequestError:  # (unavailable) nothing happened
            self._table_rate.give_back(conn.address)
            raise
        runner = self.server.open_table(table_id, options, bots)
        self.tables[table_id] = runner
        self._pages.clear()
        self._creator[table_id] = conn.address
        self._open_by[conn.address] += 1
        self.seat(player, table_id)  # at once: a pipelined "start" must find the table
        log.info("table %s created by player %s: %s", table_id, player, options)
        runner.submit(("request", conn, player, {"type": "join", "id": rid, "table": table_id}))
