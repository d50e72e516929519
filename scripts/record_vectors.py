#!/usr/bin/env python3
"""Record the protocol test vectors in ``protocol/vectors/``.

* ``<game>-session.json``: one whole session per game id of the registry, in its default
  options, over real TCP: a scripted client (hello, ping, list, create with bots, a ``seed``
  (T10: the client's part of the deal, revealed with the server seed in ``results``),
  start, a full game, the next game's start, leave) against an in-process server with fixed
  seeds and a frozen clock, so a rerun writes the same bytes. Every frame both ways, as hex
  and as decoded data. In every session the client plays its first dishonest action that
  can be called, and a bot that calls everything (``attention=1``) calls it (court, vote,
  guilty verdict, undo, snapshot, the honest replay, the mark paid where the game pays it);
  the client calls an honest action falsely once (T5); it gets tutorial hints and turns them
  off, asks ``resync``, and sends an action that is refused and one that is ``stale``.
* ``<game>-<variant>-session.json``: the same for each variant of the game's spec whose
  view shows fields the game's other sessions do not (team play's ``plays_for``, «пятки»'s
  ``passed``).
* ``codec.json``: frames a decoder must accept (with their data) or refuse (with the
  error code).

    python scripts/record_vectors.py [--out protocol/vectors]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from pathlib import Path

import msgpack
import trio
import trio.testing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor import wire  # noqa: E402
from pidor.games import SPECS, GameSpec  # noqa: E402
from pidor.server import store as store_module  # noqa: E402
from pidor.server.app import Server  # noqa: E402
from pidor.server.store import Store  # noqa: E402
from pidor.server.testing import connect  # noqa: E402

#: The table's seats besides the client's: one bot calls every cheat it sees, the rest play.
CALLER, PLAYER = "builtin:random:attention=1", "builtin:random"


def table_options(s: GameSpec, variant: dict) -> dict:
    """A short game of ``s`` in ``variant``: three seats where the game allows it (one to
    vote in court), the smallest deck."""
    players = variant.get("players", 3 if 3 in s.players else s.players[0])
    return {"game": s.id, "players": players, "deck": min(s.decks),
            **{k: v for k, v in variant.items() if k != "players"},
            "bots": [CALLER] + [PLAYER] * (players - 2)}


def variant_name(variant: dict) -> str:
    """``{"players": 4, "teams": "2x2"}`` -> ``2x2``; ``{"hard": True}`` -> ``hard``;
    ``{"reserve": 2}`` -> ``reserve2``; ``{"pass_card": ["6h", "Qs"]}`` -> ``pass_card-6h+Qs``."""
    def part(k: str, v) -> str:
        if type(v) is bool:
            return k
        if isinstance(v, int):
            return f"{k}{v}"
        if isinstance(v, (list, tuple)):
            return f"{k}-{'+'.join(map(str, v))}"
        return str(v)
    return "-".join(part(k, v) for k, v in variant.items() if k != "players")


def sessions() -> dict[str, dict]:
    """File stem -> table options: every game id, then its variants that show more."""
    out = {}
    for s in SPECS.values():
        out[s.id] = table_options(s, {})
        shown = set(s.engine.new({}, seed=b"vectors").view(0))
        for variant in s.variants:
            fields = set(s.engine.new(variant, seed=b"vectors").view(0))
            if fields - shown:
                shown |= fields
                out[f"{s.id}-{variant_name(variant)}"] = table_options(s, variant)
    return out


def counter_source(label: str):
    n = itertools.count()
    return lambda size: hashlib.sha256(f"{label}:{next(n)}".encode()).digest()[:size]


def is_event(m, kind):
    return m["type"] == "event" and m["event"]["type"] == kind


async def record_session(name: str, options: dict) -> list[tuple[str, bytes]]:
    tokens = (f"vector-token-{name}-{i}" for i in itertools.count())
    store_module.new_token = lambda: next(tokens)  # a fixed token, so reruns match
    server = Server(Store(":memory:"), seed_source=counter_source(f"vectors:{name}"))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.run, "127.0.0.1", 0)
        c = await connect(port)
        c.transcript = []
        await c.hello("vector")
        await c.request({"type": "ping"})
        await c.request({"type": "list"})
        joined = await c.request({"type": "create", "options": options})
        seat = joined["seat"]
        await c.request({"type": "seed", "seed": b"vector".hex()})  # T10: a part of the deal
        await c.request({"type": "start"})
        runner = server.lobby.tables[joined["table"]["id"]]
        state = {"cheated": False, "false_call": False, "hints": 0, "refused": False, "resync": False,
                 "stale": False}
        while True:
            m = await c.receive()
            if is_event(m, "results"):
                break
            kind = m["type"]
            if kind == "hint":
                state["hints"] += 1
                if state["hints"] == 3:
                    await c.request({"type": "tutorial_off"})
            elif kind == "turn" and m["options"]:
                game = runner.table.game
                if not state["refused"]:
                    state["refused"] = True
                    await c.request({"type": "act", "action": {"type": "fly"}})  # invalid_action
                if not state["stale"] and m["seq"] > runner.state.choice_seq > 0:
                    state["stale"] = True  # an act decided before the game moved on: refused as stale
                    await c.request({"type": "act", "action": m["options"][0], "seq": runner.state.choice_seq - 1})
                    continue
                if not state["resync"] and state["hints"] >= 1:
                    state["resync"] = True
                    await c.request({"type": "resync"})
                    continue
                if not state["cheated"] and seat in runner.table.to_act():
                    # The first cheat its hands can make that a call can catch (T1, T2).
                    cheats = [a for a in game.actions(seat) if game.is_callable(a) and game.check(seat, a)]
                    if cheats:
                        state["cheated"] = True
                        await c.request({"type": "act", "action": game.action_data(cheats[0])})
                        continue
                await c.request({"type": "act", "action": m["options"][0]})
            elif kind == "event":
                e = m["event"]
                if e["type"] == "window" and seat in e["owing"]:
                    # Once it has cheated, it calls the first honest action it may (T5).
                    call = state["cheated"] and not state["false_call"] and not runner.table.window.violations
                    state["false_call"] = state["false_call"] or call
                    await c.request({"type": "call" if call else "pass"})
                elif e["type"] == "court" and seat in e["voters"]:
                    await c.request({"type": "vote", "guilty": True})
        await c.request({"type": "start"})
        await c.receive(lambda m: is_event(m, "game_start"))
        await c.request({"type": "leave"})
        nursery.cancel_scope.cancel()
    return c.transcript


def shows(name: str, frames: list[dict]) -> str:
    """What the session shows of the махлёж layer; ``ValueError`` if it misses a court on
    the client's cheat or its false call (a game whose script never got there)."""
    events = [f["data"]["event"] for f in frames if f["dir"] == "s2c" and f["data"]["type"] == "event"]
    outcomes = [e["outcome"] for e in events if e["type"] == "verdict"]
    courts = sum(e["type"] == "court" for e in events)
    if not courts or "honest" not in outcomes:
        raise ValueError(f"{name}: the session has {courts} courts and verdicts {outcomes}: no cheat called, "
                         "or no false call")
    paid = sum(e["type"] == "action" and e["action"].get("type") == "give" for e in events)
    return f"{courts} courts, verdicts {', '.join(outcomes)}, {paid} cards paid"


def what(name: str, options: dict) -> str:
    """``«pidor»``, ``podkidnoy durak (2x2)``: the game of a session, in its variant."""
    game = options["game"]
    variant = name.removeprefix(game).removeprefix("-")
    return SPECS[game].title["en"] + (f" ({variant})" if variant else "")


def session_file(name: str, options: dict, transcript) -> dict:
    frames = []
    for direction, frame in transcript:
        frames.append({"dir": direction, "hex": frame.hex(), "data": wire.decode_frame(frame[4:])})
    return {
        "protocol": wire.PROTOCOL_VERSION,
        "description": f"A whole {what(name, options)} session: one client ('c2s') and the server ('s2c'); "
                       "each frame is the 4-byte length and the msgpack map, in hex, with its decoded data.",
        "options": options,
        "frames": frames,
    }


def codec_vectors() -> dict:
    def f(body: bytes) -> str:
        return (len(body).to_bytes(4, "big") + body).hex()

    accept = [
        {"type": "ping"},
        {"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "Вася", "token": None},
        {"type": "hello", "id": 1, "version": wire.PROTOCOL_VERSION, "name": "quiet", "may_call": False,
         "windows": False},
        {"type": "act", "id": 12, "seq": 40, "action": {"type": "beat", "card": "Th", "target": 2}},
        {"type": "ping", "id": "req-1", "unknown_field": [1, 2.5, True, None, {"nested": -7}]},
        {"type": "ping", "big": 2 ** 64 - 1, "small": -2 ** 63},
    ]
    refuse = [
        ("frame_too_large", (wire.MAX_FRAME + 1).to_bytes(4, "big").hex(), "the announced length is over MAX_FRAME"),
        ("bad_frame", f(msgpack.packb([1, 2, 3])), "the value is not a map"),
        ("bad_frame", f(msgpack.packb({1: 2})), "a map key is not a string"),
        ("bad_frame", f(msgpack.packb({"a": msgpack.ExtType(1, b"x")})), "ext types are not allowed"),
        ("bad_frame", f(msgpack.packb({"a": 1}) + b"\x00"), "bytes after the map"),
        ("bad_frame", f(b"\x81\xa1a\xc1"), "0xc1 is never used in msgpack"),
        ("bad_frame", f(b"\x81\xa1a\xa2\xff\xfe"), "a string that is not UTF-8"),
        ("bad_frame", f(msgpack.packb({"a": float("nan")})), "NaN and infinities are not allowed"),
        ("too_large", f(msgpack.packb({"a": "x" * (wire.MAX_STR + 1)})), "a string over MAX_STR bytes"),
        ("too_large", f(msgpack.packb({"a": list(range(wire.MAX_ARRAY + 1))})), "an array over MAX_ARRAY"),
        ("too_deep", f(b"\x81\xa1a" + b"\x91" * wire.MAX_DEPTH + b"\x01"), "nested deeper than MAX_DEPTH"),
    ]
    limits = {k: getattr(wire, k) for k in ("MAX_FRAME", "MAX_DEPTH", "MAX_ARRAY", "MAX_MAP", "MAX_STR", "MAX_BIN")}
    return {
        "protocol": wire.PROTOCOL_VERSION,
        "limits": limits,
        "accept": [{"hex": wire.encode(m).hex(), "data": m} for m in accept],
        "refuse": [{"hex": h, "code": code, "why": why} for code, h, why in refuse],
    }


async def record_all(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, options in sessions().items():
        transcript = await record_session(name, options)
        session = session_file(name, options, transcript)
        path = out / f"{name}-session.json"
        path.write_text(json.dumps(session, ensure_ascii=False, indent=1) + "\n")
        print(f"{path}: {len(transcript)} frames; {shows(name, session['frames'])}")
    path = out / "codec.json"
    path.write_text(json.dumps(codec_vectors(), ensure_ascii=False, indent=1) + "\n")
    print(f"{path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "protocol" / "vectors")
    args = ap.parse_args()
    # A frozen clock: deadlines on the wire are exact and the run is repeatable.
    trio.run(record_all, args.out, clock=trio.testing.MockClock())


if __name__ == "__main__":
    main()
