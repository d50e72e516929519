"""A ``stdio:`` bot that misbehaves, for the host's tests (protocol/STDIO.md):

    python tests/bots/bad_stdio_bot.py MODE [PATH]

It says hello (``hello``: not JSON instead), then on its first turn, after writing
``misbehaving: MODE`` to stderr: ``garbage`` writes a line that is not JSON, ``range`` an
option number past the last, ``action`` an action that is none of its options, ``null``
lets a turn go that it must play, ``crash`` exits (status 3), ``silent`` answers nothing
(and reads on), ``long`` writes a line longer than the host takes, ``fork`` forks a child
that sleeps (``forked N`` on stderr), then exits.

``play PATH`` misbehaves not: it writes ``pid N`` to PATH (a file or a FIFO), then every
line it reads, and plays its first honest option (or lets the turn go when it may).
"""

from __future__ import annotations

import json
import os
import sys
import time

mode = sys.argv[1]
seen = open(sys.argv[2], "a", encoding="utf-8") if mode == "play" else None  # noqa: SIM115
if seen is not None:
    seen.write(f"pid {os.getpid()}\n")
    seen.flush()


def misbehave(msg: dict) -> str | None:
    """The line it answers a turn with (``None``: none)."""
    if mode == "play":
        return "null" if msg["may_wait"] else "0"
    print(f"misbehaving: {mode}", file=sys.stderr, flush=True)
    if mode == "fork":
        child = os.fork()
        if child == 0:
            time.sleep(3600)
        print(f"forked {child}", file=sys.stderr, flush=True)
    if mode in ("crash", "fork"):
        sys.exit(3)
    if mode == "long":
        sys.stdout.write("1" * (70 << 10))
        sys.stdout.flush()
        time.sleep(3600)
    return {"garbage": "{oops", "range": str(len(msg["options"])), "action": '{"type": "no such action"}',
            "null": "null"}.get(mode)


for line in sys.stdin:
    if seen is not None:
        seen.write(line)
        seen.flush()
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "quit":
        break
    if kind == "hello":
        print("hello!" if mode == "hello" else json.dumps({"name": "bad", "calls": False}), flush=True)
    elif kind in ("turn", "pay"):
        said = misbehave(msg)
        if said is not None:
            print(said, flush=True)
    elif kind == "court":
        print("true", flush=True)
