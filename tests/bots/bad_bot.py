"""A bot that misbehaves on its first turn, for the match runner's forfeit tests:

    python tests/bots/bad_bot.py crash|hang|garbage|refused --port PORT --token TOKEN

``crash`` exits (status 3), ``hang`` stops answering (it waits on an event nobody sets),
``garbage`` sends bytes that are no frame, ``refused`` answers every turn with an action
that is none (the server refuses it and asks again). Until then it plays like the sample
bot.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from pidor_client import Bot, Client  # noqa: E402


class BadBot(Bot):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.refused = 0

    def on_turn(self, options, turn):
        if self.mode == "refused":
            self.refused += 1
            if self.refused == 1:
                print(f"misbehaving: {self.mode}", file=sys.stderr, flush=True)
            return {"type": "nonsense"}
        print(f"misbehaving: {self.mode}", file=sys.stderr, flush=True)
        if self.mode == "crash":
            sys.exit(3)
        if self.mode == "hang":
            threading.Event().wait()
        self.client.conn.sock.sendall(b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1")  # 0xc1: never used in msgpack
        return None


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["crash", "hang", "garbage", "refused"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--token", required=True)
    args = p.parse_args()
    client = Client("127.0.0.1", args.port, "bad", args.token)
    client.connect()
    BadBot(args.mode).run(client, games=None, reconnect=0)


if __name__ == "__main__":
    main()
