"""The server's SQLite store: players with hashed tokens, and an index of tables and games
(each game's log file, its deal commitment, how it ended).

Tokens are 32 random bytes (``secrets.token_urlsafe``); only their SHA-256 is stored. A
fast hash is enough for a secret of that entropy (no password to stretch), and it lets
the lookup be one indexed query.

All calls are short synchronous statements on one connection, made from the trio thread
(WAL journal, ``synchronous=NORMAL``: a commit does not wait for the disk).

A write can fail (a full disk, a read-only file). The index's bookkeeping (games started
and ended, tables closed, players seen) is secondary to the games: such a write that fails
is lost, and the store says so in one ERROR line per failure episode (until a write
succeeds again), so a full disk never stops a table. A write a request depends on (a new
player, a new table) raises :class:`StoreError`, the request's ``unavailable`` error.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import time
from pathlib import Path

from .requests import RequestError

__all__ = ["Store", "StoreError", "default_data_dir", "hash_token", "new_token"]

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    created REAL NOT NULL,
    seen REAL NOT NULL,
    seated INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    host INTEGER,
    created REAL NOT NULL,
    closed REAL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seats TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    result TEXT,
    log TEXT,
    commitment TEXT,
    aborted TEXT,
    log_error TEXT,
    UNIQUE (table_id, number)
);
"""

#: Columns added to ``games`` after its first version (an older database gets them).
GAME_COLUMNS = ("log", "commitment", "aborted", "log_error")


def default_data_dir() -> Path:
    """``$PIDOR_DATA``, else ``$XDG_DATA_HOME/pidor``, else ``~/.local/share/pidor``."""
    if os.environ.get("PIDOR_DATA"):
        return Path(os.environ["PIDOR_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "pidor"


def new_token() -> str:
    """A fresh token, never starting with ``-``: a bot given it on its command line
    (``--token {token}`` in a ``pidor match`` entrant) must not take it for an option."""
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith("-"):
            return token


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class StoreError(RequestError):
    """A write a request depends on failed: the request is refused (``unavailable``) and
    changes nothing; the connection stays open. A :class:`RequestError`, so ``hello`` and
    ``create`` in the lobby answer it like any refused request, with no code of their own."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__("unavailable", f"the server cannot store this now ({error}); try later")


class Store:
    """``Store(path)`` opens (and creates) the database; ``Store(":memory:")`` for tests.

    Opening raises ``OSError`` or ``sqlite3.Error`` when the file cannot be created, opened
    or written: ``pidor serve`` refuses to start rather than lose its index."""

    def __init__(self, path: str | os.PathLike) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.failed = 0  # writes failed in the current failure episode
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            have = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
            for column in GAME_COLUMNS:
                if column not in have:
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
            if "seated" not in {row[1] for row in self.db.execute("PRAGMA table_info(players)")}:
                # Whether the players of an older database ever sat is not known: keep them.
                self.db.execute("ALTER TABLE players ADD COLUMN seated INTEGER NOT NULL DEFAULT 0")
                self.db.execute("UPDATE players SET seated = 1")
            # A write that changes nothing but reaches the disk (the WAL): a full or
            # read-only store fails here, at start, and not at the first game's end.
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            self.db.execute(f"PRAGMA user_version = {int(version)}")
        except sqlite3.Error:
            self.db.close()
            raise

    @classmethod
    def in_dir(cls, data_dir: str | os.PathLike) -> "Store":
        return cls(Path(data_dir) / "pidor.sqlite3")

    def close(self) -> None:
        self.db.close()

    # --- writes ----------------------------------------------------------------------

    def _write(self, what: str, sql: str, args: tuple, *, needed: bool = False) -> sqlite3.Cursor | None:
        """One write; ``None`` when it failed, or with ``needed`` (a request depends on
        it) :class:`StoreError`. The first failure of an episode is one ERROR line; the
        first success after it ends the episode (a WARNING line)."""
        try:
            cur = self.db.execute(sql, args)
        except sqlite3.Error as e:
            if not self.failed:
                log.error("the store cannot write (%s) at: %s; until a write succeeds, index updates "
                          "are lost and new players and tables refused", e, what)
            self.failed += 1
            if needed:
                raise StoreError(e) from None
            return None
        if self.failed:
            log.warning("the store writes again, after %d failed writes", self.failed)
            self.failed = 0
        return cur

    # --- players --------------------------------------------------------------

    def new_player(self, name: str, token: str | None = None) -> tuple[int, str]:
        """A new player; returns ``(id, token)``. The token is shown once and never stored.
        ``token``: the one to give (a match's ``tcp:`` entrant), else a fresh one."""
        token = token or new_token()
        now = time.time()
        cur = self._write("a new player", "INSERT INTO players (name, token_hash, created, seen) VALUES (?, ?, ?, ?)",
                          (name, hash_token(token), now, now), needed=True)
        return cur.lastrowid, token

    def find_player(self, token: str) -> tuple[int, str] | None:
        """``(id, name)`` of the token's player, or ``None``."""
        row = self.db.execute("SELECT id, name FROM players WHERE token_hash = ?", (hash_token(token),)).fetchone()
        return None if row is None else (row[0], row[1])

    def seen(self, player: int, name: str) -> None:
        self._write(f"player {player} seen", "UPDATE players SET seen = ?, name = ? WHERE id = ?",
                    (time.time(), name, player))

    def player_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM players").fetchone()[0]

    # --- tables and games --------------------------------------------------------

    def new_table(self, game: str, options: dict, host: int | None) -> int:
        cur = self._write("a new table", "INSERT INTO tables (game, options, host, created) VALUES (?, ?, ?, ?)",
                          (game, json.dumps(options, sort_keys=True), host, time.time()), needed=True)
        return cur.lastrowid

    def close_table(self, table_id: int) -> None:
        self._write(f"table {table_id} closed", "UPDATE tables SET closed = ? WHERE id = ? AND closed IS NULL",
                    (time.time(), table_id))

    def close_open_tables(self) -> int:
        """Mark tables left open by an earlier run as closed (at start and at shutdown)."""
        cur = self._write("open tables closed", "UPDATE tables SET closed = ? WHERE closed IS NULL", (time.time(),))
        return 0 if cur is None else cur.rowcount

    def close_crashed_games(self) -> int:
        """At start: games an earlier run left open (killed, or it could not write their
        end) are marked aborted with reason ``crash``; their logs are unfinished."""
        cur = self._write("crashed games aborted",
                          "UPDATE games SET ended = ?, aborted = 'crash' WHERE ended IS NULL", (time.time(),))
        return 0 if cur is None else cur.rowcount

    # Games: ``game_started`` returns ``None`` when its row could not be written; the
    # game goes on, and the calls about it with a ``None`` row do nothing.

    def game_started(self, table_id: int, number: int, seats: list, log: str | None = None,
                     commitment: str | None = None) -> int | None:
        """A game dealt: its seats, the path of its log (``None``: the server keeps no logs)
        and the commitment to its server seed (hex)."""
        cur = self._write(f"table {table_id} game {number} started",
                          "INSERT INTO games (table_id, number, seats, started, log, commitment) "
                          "VALUES (?, ?, ?, ?, ?, ?)",
                          (table_id, number, json.dumps(seats), time.time(), log, commitment))
        return None if cur is None else cur.lastrowid

    def game_ended(self, game_id: int | None, result: dict | None) -> None:
        if game_id is not None:
            self._write(f"game {game_id} ended", "UPDATE games SET ended = ?, result = ? WHERE id = ?",
                        (time.time(), json.dumps(result, sort_keys=True), game_id))

    def game_aborted(self, game_id: int | None, reason: str) -> None:
        """A game cut off before its end (shutdown, every human gone, a server error)."""
        if game_id is not None:
            self._write(f"game {game_id} aborted", "UPDATE games SET ended = ?, aborted = ? WHERE id = ?",
                        (time.time(), reason, game_id))

    def log_failed(self, game_id: int | None, reason: str) -> None:
        """The game's log could not be written to the end (it is unfinished)."""
        if game_id is not None:
            self._write(f"game {game_id} log failed", "UPDATE games SET log_error = ? WHERE id = ?",
                        (reason, game_id))

    def games_of(self, table_id: int) -> list[dict]:
        rows = self.db.execute(
            "SELECT id, number, seats, started, ended, result, log, commitment, aborted, log_error "
            "FROM games WHERE table_id = ? ORDER BY number", (table_id,)).fetchall()
        return [{"id": r[0], "number": r[1], "seats": json.loads(r[2]), "started": r[3], "ended": r[4],
                 "result": None if r[5] is None else json.loads(r[5]), "log": r[6], "commitment": r[7],
                 "aborted": r[8], "log_error": r[9]} for r in rows]

    def table_row(self, table_id: int) -> dict | None:
        r = self.db.execute("SELECT id, game, options, host, created, closed FROM tables WHERE id = ?",
                            (table_id,)).fetchone()
        if r is None:
            return None
        return {"id": r[0], "game": r[1], "options": json.loads(r[2]), "host": r[3], "created": r[4], "closed": r[5]}

    # --- forgetting players who never played (Limits.PLAYER_TTL) -------------------

    def player_seated(self, player: int) -> None:
        """The player took a seat: from now on the store keeps them for good."""
        self._write("a player seated", "UPDATE players SET seated = 1 WHERE id = ? AND seated = 0", (player,))

    def forget_players(self, unseen_since: float, keep=()) -> int:
        """Delete the players who never took a seat and whose token was last used (their
        last ``hello``) before ``unseen_since`` (a ``time.time()``), except the ids in
        ``keep`` (those online); returns how many. Nothing refers to them: a player who
        created a table sat at it."""
        return self.db.execute(
            "DELETE FROM players WHERE seated = 0 AND seen < ? AND id NOT IN (SELECT value FROM json_each(?))",
            (unseen_since, json.dumps(list(keep)))).rowcount
