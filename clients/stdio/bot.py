#!/usr/bin/env python3
"""A stdio: bot (protocol/STDIO.md): a random honest option; it calls «пидор!» on an action
that visibly broke a rule and votes guilty. pidor match --entrant me="stdio:python3 bot.py" """
import json
import random
import sys

rng = random.Random()
CALLS = "--never-call" not in sys.argv  # (never: the host passes every call window for it)


def answer(msg):
    kind = msg["type"]
    if kind == "hello":
        return {"name": "bot.py", "calls": CALLS, "cheats": False}
    if kind in ("turn", "pay"):  # the honest options come first: msg["honest"] of them
        return None if msg["may_wait"] else rng.randrange(msg["honest"])
    if kind == "window":  # the rules the action visibly broke, judged on what this seat saw
        return bool(msg["visible"])
    return True  # court: it sits on an action that broke a rule (msg["rules"])


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "quit":
        break
    if msg["type"] == "start":
        rng.seed(msg["seed"])  # the match's seed for this seat and game (null: none)
    elif msg["type"] != "end":
        print(json.dumps(answer(msg)), flush=True)
