#!/usr/bin/env python3
"""The floor under the server path (issue 29 goal 1, docs/SPEED.md): the CPU that one
action's round trip costs a trio server before any table work. An external action costs the
match's server one wake-up of a connection's reader, one read and one write (strace of
``pidor match`` with four C bots: 1.0 ``read``, ``write``, ``epoll_wait`` and ``epoll_ctl``
per action); this does exactly that, as ``pidor.server.connection`` does it
(``trio.lowlevel.wait_readable``, ``os.read``, ``os.write``), and nothing else:

* ``bare``: four connections in lockstep, each frame read is answered by a frame of 180
  bytes to the next connection (as a turn goes to the next seat);
* ``codec``: the same, with the frame read decoded (``pidor.wire.decode_frame``: an ``act``)
  and a ``turn`` of six options encoded (``pidor.wire.encode``) for each.

The four clients run in a child process (their CPU is not counted). Prints the server
process's CPU (user + system, ``getrusage``) per round trip in µs, best of ``--repeat``.

    .venv/bin/python scripts/bench_floor.py [--trips 20000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import selectors
import socket
import subprocess
import sys
from pathlib import Path

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pidor import wire  # noqa: E402

ACT = wire.encode({"type": "act", "id": 12, "seq": 40, "action": {"type": "beat", "card": "Th", "target": 2}})
TURN = {"type": "turn", "table": 1, "seq": 40, "seat": 1, "deadline": 5.0,
        "options": [{"type": "play", "card": c} for c in ("Th", "Js", "Qd", "Kc", "Ac", "7h")]}
FRAME = wire.encode({"type": "event", "pad": "x" * 160})
WARM = 1000  # round trips before the count starts


def clients(port: int) -> None:
    """Four connections: each frame that arrives is answered at once with an act."""
    sel = selectors.DefaultSelector()
    for _ in range(4):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sel.register(s, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if not key.fileobj.recv(65536):
                return
            key.fileobj.sendall(ACT)


async def serve(trips: int, codec: bool) -> dict:
    listener = trio.socket.socket()
    await listener.bind(("127.0.0.1", 0))
    listener.listen()
    child = subprocess.Popen([sys.executable, __file__, "--clients", str(listener.getsockname()[1])])
    socks = [(await listener.accept())[0] for _ in range(4)]
    fds = [s.fileno() for s in socks]
    done, count, start = trio.Event(), [0], []

    async def reader(k: int) -> None:
        fd, decoder = fds[k], wire.Decoder()
        while True:
            await trio.lowlevel.wait_readable(fd)
            data = os.read(fd, 65536)
            if codec:
                decoder.receive_data(data)
                decoder.next_message()
                out = wire.encode(TURN)
            else:
                out = FRAME
            count[0] += 1
            if count[0] == WARM:
                start.append(resource.getrusage(resource.RUSAGE_SELF))
            elif count[0] == WARM + trips:
                done.set()
                return
            os.write(fds[(k + 1) % 4], out)

    async with trio.open_nursery() as nursery:
        for k in range(4):
            nursery.start_soon(reader, k)
        os.write(fds[0], FRAME)
        await done.wait()
        end = resource.getrusage(resource.RUSAGE_SELF)
        nursery.cancel_scope.cancel()
    for s in socks:
        s.close()
    child.wait()
    user, system = (end.ru_utime - start[0].ru_utime) / trips * 1e6, (end.ru_stime - start[0].ru_stime) / trips * 1e6
    return {"us_per_trip": round(user + system, 1), "user": round(user, 1), "system": round(system, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trips", type=int, default=20000, help="round trips counted per run")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each kind, interleaved")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--clients", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.clients is not None:
        clients(args.clients)
        return
    runs: dict[str, list[dict]] = {"bare": [], "codec": []}
    for _ in range(args.repeat):
        for kind in runs:
            runs[kind].append(trio.run(serve, args.trips, kind == "codec"))
    out = {"load": round(os.getloadavg()[0], 2), "trips": args.trips, "runs": runs,
           "best": {kind: min(rs, key=lambda r: r["us_per_trip"]) for kind, rs in runs.items()}}
    if args.json:
        print(json.dumps(out))
        return
    for kind, best in out["best"].items():
        print(f"{kind}: {best['us_per_trip']} µs of CPU per round trip (user {best['user']}, system "
              f"{best['system']}), best of {args.repeat}; load {out['load']}")


if __name__ == "__main__":
    main()
