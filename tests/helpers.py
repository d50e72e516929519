"""Helpers for scenario tests: build explicit deck orders and drive tables."""

from __future__ import annotations

import os
import re
import select
import socket
import sqlite3

import msgpack
import pytest

from pidor.cards import deck as full_deck
from pidor.cards import parse_cards
from pidor.engine.table import Table
from pidor.games import GAME_IDS, spec


def deck_near(game: str, wanted: int) -> int:
    """The deck ``game`` plays nearest in size to ``wanted``."""
    return min(spec(game).decks, key=lambda n: (abs(n - wanted), n))


def pidor_deck(opens: str, draws: str = "", size: int = 52) -> list[int]:
    """A «пидор» deck order (top first) with the given open cards (one per seat, seat 0
    first) and the given first draws; closed cards and the rest come from the unused cards
    in a fixed order. Deal: two face-down rounds then the open round, seat order (P2)."""
    opens_c, draws_c = parse_cards(opens), parse_cards(draws)
    used = set(opens_c) | set(draws_c)
    assert len(used) == len(opens_c) + len(draws_c), "a card is named twice"
    rest = [c for c in full_deck(size) if c not in used]
    n = len(opens_c)
    closed, rest = rest[: 2 * n], rest[2 * n:]
    return closed + opens_c + draws_c + rest


def pidor_table(opens: str, draws: str = "", *, size: int = 52, first: int = 0, **options) -> Table:
    players = len(opens.split())
    table = Table({"game": "pidor", "players": players, "deck": size, **options})
    table.start(deck=pidor_deck(opens, draws, size), first=first)
    return table


def pass_all(table: Table, now: float = 0.0) -> list[dict]:
    events = []
    for s in table.waiting_answers():
        events += table.answer(s, call=False, now=now)
    return events


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def announced_port(lines, pattern: str) -> int | None:
    """The port a subprocess names on a line of its output (``pattern``'s group 1), read
    up to that line; ``None`` if it never says."""
    for line in lines:
        m = re.search(pattern, line)
        if m:
            return int(m.group(1))
    return None


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def ended(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` has ended or ends within ``within`` seconds (it may be dying:
    SIGKILL takes effect a moment after it is sent). Waits on the process's exit, not on
    the clock."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], within)[0]) or not alive(pid)
    finally:
        os.close(fd)


def read_frame(sock: socket.socket) -> dict:
    """One whole frame off a blocking socket (for tests of a server in a subprocess)."""
    buf = b""
    while len(buf) < 4 or len(buf) < 4 + int.from_bytes(buf[:4], "big"):
        chunk = sock.recv(65536)
        assert chunk, "closed before a whole frame"
        buf += chunk
    return msgpack.unpackb(buf[4:4 + int.from_bytes(buf[:4], "big")])


def old_database(path, *statements: str):
    """A SQLite file made by ``statements`` (a store of an earlier version); returns ``path``."""
    db = sqlite3.connect(path)
    for sql in statements:
        db.execute(sql)
    db.commit()
    db.close()
    return path


def players_of(game: str, wanted: int = 3) -> int:
    """The player count ``game`` allows nearest ``wanted`` (the fewer of two as near): a
    test written for a table of three plays a game of two with two."""
    return min(spec(game).players, key=lambda n: abs(n - wanted))


def game_variants(players: tuple[int, ...] = (3, 4, 6)) -> list[tuple[str, dict]]:
    """``(id, table options)`` of every game (``GAME_IDS``) in its defaults with each deck
    it allows, then in each variant its spec names (``GameSpec.variants``); each with the
    first of ``players`` that it allows (a game that allows none of them: the count it
    allows nearest the first), unless the variant sets its own."""
    out = []
    for game in GAME_IDS:
        s = spec(game)
        wanted = players if set(players) & set(s.players) else (players_of(game, players[0]),)
        for change in [{"deck": d} for d in s.decks] + list(s.variants):
            for n in ([change["players"]] if "players" in change else wanted):
                try:
                    options = s.engine.options({"players": n, **change})
                except ValueError:
                    continue
                name = "-".join([game, *(str(v) if type(v) is not bool else k for k, v in change.items()
                                         if k != "players")] + ([f"{n}p"] if "players" in change else []))
                out.append((name, {"game": game, **options}))
                break
    return out


def one_fast_per_game(params: list, by=lambda p: [p[1]["game"]], ids=None) -> list:
    """``params`` (tuples, e.g. ``game_variants()``) as pytest params, in order: a param runs
    in the fast tier when it is the first with one of its keys, ``by(param)`` (default: its
    game), else it is marked ``slow`` (``-m "not slow"`` leaves it out); so the fast tier
    still touches every game (and every key). ``ids``: the params' ids (default: the first
    item of each)."""
    seen, out = set(), []
    for k, p in enumerate(params):
        keys = set(by(p))
        out.append(pytest.param(*p, id=ids[k] if ids else str(p[0]), marks=[] if keys - seen else [pytest.mark.slow]))
        seen |= keys
    return out


_ParameterSet = type(pytest.param(None))


def first_fast(test):
    """Above a test's ``@pytest.mark.parametrize``: its first case stays in the fast tier, the
    others are marked ``slow`` (for a case that costs a second or more: the full run, the CI's,
    has them all)."""
    mark = test.pytestmark[-1]  # (the decorator just below this one)
    assert mark.name == "parametrize", test
    names, values = mark.args[:2]
    several = not isinstance(names, str) or "," in names  # (then each value is a tuple)
    cases = []
    for k, v in enumerate(values):
        p = v if isinstance(v, _ParameterSet) else pytest.param(*v) if several else pytest.param(v)
        cases.append(p if k == 0 else pytest.param(*p.values, id=p.id, marks=[*p.marks, pytest.mark.slow]))
    test.pytestmark[-1] = pytest.mark.parametrize(names, cases, *mark.args[2:], **mark.kwargs).mark
    return test


#: What may be in Latin letters on a Russian screen (issue 28 §2): cards (10♥), names (bot-2,
#: a player's name, given by the caller), rule ids (D4b, T6, B5f: any game's letter), hashes and
#: seeds, the commands a person types (`start`, `bot МЕСТО`, an option's command before its «—»:
#: «1) крою 7♠ 0 — …», «1) кладу K 9♥ — …», «1) take_penalty — …»; a key: [y], «n — …») and what
#: the person typed (a line after the prompt «> »).
_ALLOWED_LATIN = [
    re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]"),
    re.compile(r"\b(?:bot|seat)-\d+\b"),
    re.compile(r"\b[A-Z]\d+[a-z]?\b"),
    re.compile(r"\bSHA-256\b|\b[0-9a-f]{16,}\b"),
    re.compile(r"`[^`\n]*`|\[[a-z]\]|\b(?:Enter|[a-z]) —"),
    re.compile(r"^ {2}\d+\) [a-zа-яё_]+[^—\n]*", re.M),
    re.compile(r"> .*$", re.M),
]


def latin_outside_names(text: str, names: list[str] = ()) -> list[str]:
    """The lines of ``text`` with Latin letters left once cards, names, rule ids, hashes
    and typed commands are taken out: what a Russian reader would stumble on."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    for pattern in _ALLOWED_LATIN:
        text = pattern.sub("", text)
    return sorted({line.strip() for line in text.splitlines() if re.search(r"[A-Za-z]", line)})
