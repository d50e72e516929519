"""A bot that misbehaves, for the match runner's tests; launched as a ``cmd:`` entrant, it
finds its server and token in ``PIDOR_HOST``, ``PIDOR_PORT`` and ``PIDOR_TOKEN``:

    python tests/bots/bad_bot.py crash|hang|garbage|refused|silent|fork|flood|intrude|launch [ARG...]

On its first turn, ``crash`` exits (status 3), ``hang`` stops answering (it waits on an
event nobody sets), ``garbage`` sends bytes that are no frame, ``refused`` answers every
turn with an action that is none (the server refuses it and asks again). Until then it
plays like the sample bot. From the start:

* ``silent`` forks a child that sleeps, connects and never says hello;
* ``fork`` forks a child that sleeps, then plays every game well;
* ``flood`` writes FLOOD bytes of numbered lines to stderr, then plays every game well;
* ``intrude`` asks, with its token, for what a match's seat does not give (a table of
  its own, to watch its table, to seed the deal), prints each answer's error code, then
  plays every game well;
* ``launch`` prints ``launched`` and a JSON object of how it was launched (its ``PIDOR_``
  environment, its arguments after the mode, whether it leads a process group and a
  session of its own), then plays every game well.

Each prints ``pid N`` for itself and ``forked N`` for a child to stderr.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from pidor_client import Bot, Client, ServerError  # noqa: E402

#: The bytes ``flood`` writes: four times what a stderr file keeps.
FLOOD = 5 << 20
FLOOD_LINE = "flood line {:08d} " + "x" * 43 + "\n"  # 64 bytes


class BadBot(Bot):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.refused = 0

    def on_turn(self, options, turn):
        if self.mode in ("fork", "flood", "intrude", "launch"):
            return options[0] if options else None
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


def fork_sleeper() -> None:
    child = os.fork()
    if child == 0:
        time.sleep(3600)
        os._exit(0)
    print(f"forked {child}", file=sys.stderr, flush=True)


def intrude(client: Client) -> None:
    table = client.welcome["table"]
    for what, ask in (("create", lambda: client.create(game="pidor", players=2, bots=1)),
                      ("watch", lambda: client.watch(table)), ("seed", lambda: client.seed(b"mine"))):
        try:
            ask()
            print(f"{what}: ok", file=sys.stderr, flush=True)
        except ServerError as e:
            print(f"{what}: {e.code}", file=sys.stderr, flush=True)
    print(f"address {os.environ['PIDOR_PORT']} {client.token}", file=sys.stderr, flush=True)


def main() -> None:
    mode = sys.argv[1]
    print(f"pid {os.getpid()}", file=sys.stderr, flush=True)
    if mode in ("silent", "fork"):
        fork_sleeper()
    if mode == "silent":
        sock = socket.create_connection((os.environ["PIDOR_HOST"], int(os.environ["PIDOR_PORT"])))
        threading.Event().wait()
        sock.close()
    if mode == "launch":
        how = {"env": {k: v for k, v in os.environ.items() if k.startswith("PIDOR_")}, "argv": sys.argv[2:],
               "own_group": os.getpgid(0) == os.getpid() == os.getsid(0)}
        print("launched " + json.dumps(how), file=sys.stderr, flush=True)
    if mode == "flood":
        sys.stderr.write("".join(FLOOD_LINE.format(k) for k in range(FLOOD // 64)))
        sys.stderr.flush()
    client = Client.from_env("bad")
    client.connect()
    if mode == "intrude":
        intrude(client)
    BadBot(mode).run(client, games=None, reconnect=0)


if __name__ == "__main__":
    main()
