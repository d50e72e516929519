"""A bot with flaws to order, for the tests of ``pidor conform``: each ``--flaw`` breaks one
rule of PROTOCOL.md that a check of the kit enforces. Without flaws it plays correctly
(a second implementation beside the SDK, written from the document with sockets and
msgpack only). It says hello with the token it was given (``PIDOR_TOKEN``, as ``pidor
match`` and ``pidor conform`` give it, at ``PIDOR_HOST``:``PIDOR_PORT``), which seats it,
and plays one game.

    PIDOR_PORT=7777 PIDOR_TOKEN=... python tests/conform_broken_bot.py --flaw no-vote --flaw slow
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import struct
import sys
import time

import msgpack

FLAWS = {
    "old-version": "says hello with version pidor/1",
    "double-act": "acts on every turn message, a repeated one too",
    "no-rearm": "never acts again on a turn whose action was refused",
    "no-windows": "never answers a call window",
    "pass-after-call": "calls «пидор!» in its first call window, then passes in it too",
    "no-vote": "never votes",
    "cheat-again": "after its conviction, plays the convicted action again",
    "no-pay": "ignores a turn that asks for a card (give)",
    "no-reconnect": "gives up when its connection drops",
    "strict": "quits on a message field or type it does not know",
    "slow": "thinks 1.5 s before its first action",
    "pidor-only": "quits at a table of another game than pidor",
    "own-table": "asks for a table of its own though the welcome named the one it is seated at",
}
KNOWN_FIELDS = {"type", "id", "seq", "table", "seat", "event", "options", "deadline", "code", "message", "fatal",
                "rule", "version", "server", "player", "name", "token", "tables", "total", "next", "view", "info",
                "reason", "rules"}
KNOWN_TYPES = {"welcome", "tables", "joined", "pong", "rules", "ok", "error", "event", "turn", "hint", "snapshot",
               "table", "closed"}


class Dropped(Exception):
    pass


class Bot:
    def __init__(self, host: str, port: int, token: str, flaws: set[str]) -> None:
        self.host, self.port, self.flaws = host, port, flaws
        self.token = token
        self.seat = None
        self.ids = iter(range(1, 1 << 30))
        self.acted = None  # (request id, seq) of our last action
        self.acted_once = False
        self.convicted_for = None  # the action a court convicted us of
        self.called = False
        self.rng = random.Random(1)

    def connect(self) -> None:
        self.sock = socket.create_connection((self.host, self.port), timeout=10)
        self.sock.settimeout(None)
        self.buf = b""
        version = "pidor/1" if "old-version" in self.flaws else "pidor/2"
        self.send({"type": "hello", "id": next(self.ids), "version": version, "name": "broken",
                   **({"token": self.token} if self.token else {})})

    def send(self, msg: dict) -> None:
        body = msgpack.packb(msg)
        try:
            self.sock.sendall(struct.pack(">I", len(body)) + body)
        except OSError:
            raise Dropped() from None

    def receive(self) -> dict:
        while len(self.buf) < 4 or len(self.buf) < 4 + struct.unpack(">I", self.buf[:4])[0]:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                raise Dropped()
            self.buf += data
        n = struct.unpack(">I", self.buf[:4])[0]
        msg, self.buf = msgpack.unpackb(self.buf[4:4 + n]), self.buf[4 + n:]
        return msg

    def act(self, action: dict, seq: int) -> None:
        if "slow" in self.flaws and not self.acted_once:
            time.sleep(1.5)
        self.acted_once = True
        rid = next(self.ids)
        self.acted = (rid, seq)
        self.send({"type": "act", "id": rid, "action": action, "seq": seq})

    def handle(self, msg: dict) -> bool:
        """One message; False when the game is over."""
        kind = msg.get("type")
        if "strict" in self.flaws and (kind not in KNOWN_TYPES or set(msg) - KNOWN_FIELDS):
            sys.exit(f"unknown message: {msg}")
        if kind == "welcome" and "own-table" in self.flaws:
            self.send({"type": "create", "id": next(self.ids), "options": {"game": "pidor", "players": 2, "bots": 1}})
        elif kind == "snapshot":
            self.seat = msg["seat"]
            if "pidor-only" in self.flaws and msg["info"]["game"] != "pidor":
                sys.exit("I only play pidor")
        elif kind == "error" and self.acted and msg.get("id") == self.acted[0] and "no-rearm" not in self.flaws:
            self.acted = None  # our last action was refused: act on the turn that follows
        elif kind == "turn" and msg.get("seat") == self.seat:
            self.turn(msg)
        elif kind == "event":
            return self.event(msg["event"], msg["seq"])
        return True

    def turn(self, msg: dict) -> None:
        seq, options = msg["seq"], msg["options"]
        if self.acted and self.acted[1] == seq and "double-act" not in self.flaws:
            return  # once per turn
        if not options or ("no-pay" in self.flaws and all(o["type"] == "give" for o in options)):
            return
        if self.convicted_for is not None:
            action, self.convicted_for = self.convicted_for, None
            self.act(action, seq)
            return
        self.act(self.rng.choice(options), seq)

    def event(self, e: dict, seq: int) -> bool:
        t = e["type"]
        if t == "court":
            self.court = e
        if t == "window" and self.seat in e["owing"] and "no-windows" not in self.flaws:
            if "pass-after-call" in self.flaws and not self.called:
                self.called = True
                self.send({"type": "call", "id": next(self.ids), "seq": seq})
            self.send({"type": "pass", "seq": seq})
        elif t == "court" and self.seat in e["voters"] and "no-vote" not in self.flaws:
            self.send({"type": "vote", "guilty": True, "seq": seq})
        elif t == "verdict" and e["outcome"] == "guilty" and e["accused"] == self.seat and "cheat-again" in self.flaws:
            self.convicted_for = self.court["action"]
        return t != "results"

    def play(self) -> int:
        self.connect()
        while True:
            try:
                while self.handle(self.receive()):
                    pass
                return 0
            except Dropped:
                if "no-reconnect" in self.flaws:
                    return 1
                self.acted = None
                self.connect()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flaw", action="append", default=[], choices=sorted(FLAWS))
    args = p.parse_args()
    env = os.environ
    return Bot(env["PIDOR_HOST"], int(env["PIDOR_PORT"]), env["PIDOR_TOKEN"], set(args.flaw)).play()


if __name__ == "__main__":
    sys.exit(main())
