"""A sample bot: plays a random honest option, never calls (and says so: hello
``may_call: false``, the server passes every call window for it, and ``windows: false``, it
is sent no window events), votes at random.

    python clients/python/random_bot.py --host 127.0.0.1 --port 7777 --name bot1 --table 3
    python clients/python/random_bot.py --name bot1 --create pidor --players 4 --bots 3
    python clients/python/random_bot.py --name bot1 --create pidor --seed-hex 616c696365
    pidor match --seat "cmd:python clients/python/random_bot.py --games 0" --seat builtin:random
    pidor conform python clients/python/random_bot.py

``PIDOR_HOST``, ``PIDOR_PORT`` and ``PIDOR_TOKEN`` in the environment (``pidor match`` and
``pidor conform`` give them) are the defaults of ``--host``, ``--port`` and ``--token``: with
the token it is back at the seat it was given. Without a seat, ``--table`` or ``--create``
it joins the first open table, or creates a table of the server's default game with built-in
bots if there is none. Errors go to stderr. ``--seed-hex`` gives the bot's part of the next
deal (T10, the ``seed`` request) before the game; the ``results`` reveal shows it.
Needs only ``msgpack`` and ``pidor_client.py``.

``--policy SPEC`` plays a built-in policy instead (``builtin:random:cheat=0.1,attention=0.5``;
``docs/BOTS.md``), or your own ``pidor.bots.Policy`` subclass (``py:MODULE:CLASS[:k=v,...]``,
the module on ``PYTHONPATH`` or in the current directory), from what this client receives
(``pidor.bots.remote.PolicyBot``); that needs the ``pidor`` package installed::

    python clients/python/random_bot.py --create pidor --policy builtin:random:cheat=0.2,attention=0.5
    python clients/python/random_bot.py --create pidor --policy py:mybots:Careful:cheat=0.1
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys

from pidor_client import Bot, Client, PidorError, TableClosed


class Reporter:
    """What the sample bots print: refusals and each game's result."""

    def __init__(self, out=print, deal_seed=None) -> None:
        self.out = out
        self.deal_seed = deal_seed  # hex: our part of the first deal (T10), to find in its reveal

    def on_error(self, error):
        super().on_error(error)
        self.out(f"refused: {error}")

    def on_results(self, event):
        result = event["result"]
        names = event.get("names") or []
        loser = result.get("loser")
        who = "a draw" if result.get("draw") else f"loser: seat {loser} ({names[loser] if loser is not None and loser < len(names) else '?'})"
        self.out(f"game {event['number']} over: {who}; order {result.get('order')}; I am seat {self.seat}")
        if self.deal_seed is not None:
            seeds = (event.get("deal") or {}).get("seat_seeds") or []
            mine = seeds[self.seat] if self.seat is not None and self.seat < len(seeds) else None
            if mine == self.deal_seed:
                self.out(f"deal reveal: my seed {mine}, as given")
                self.deal_seed = None  # a seed counts for one deal
            else:  # given during a game, the seed counts for the game after
                self.out(f"deal reveal: my seed is {mine}, not {self.deal_seed}")


class RandomBot(Reporter, Bot):
    def __init__(self, seed=None, out=print, deal_seed=None) -> None:
        Bot.__init__(self)
        Reporter.__init__(self, out, deal_seed)
        self.rng = random.Random(seed)
        self.turns = 0

    def on_turn(self, options, turn):
        # Durak: options may be empty (no honest card to throw in now); then wait.
        if not options:
            return None
        self.turns += 1
        return self.rng.choice(options)

    # No on_window: it never calls «пидор!», and says so (may_call), so the server passes
    # every call window for it.

    def on_court(self, event):
        return self.rng.random() < 0.5  # «пидор» or «чист», at random


def policy_bot(spec, seed, out, deal_seed):
    """A bot that plays the policy ``spec``, built-in or ``py:`` (needs the ``pidor`` package)."""
    from pidor.bots.remote import PolicyBot
    from pidor.bots.specs import parse_spec

    class Bot_(Reporter, PolicyBot):
        def __init__(self) -> None:
            PolicyBot.__init__(self, spec, b"" if seed is None else str(seed).encode())
            Reporter.__init__(self, out, deal_seed)

    parse_spec(spec, python=True)  # a bad spec: a clear ValueError before connecting
    return Bot_()


def parse_args(argv):
    env = os.environ
    p = argparse.ArgumentParser(description="A random bot for the pidor match server.")
    p.add_argument("--host", default=env.get("PIDOR_HOST") or "127.0.0.1", help="default: PIDOR_HOST, else 127.0.0.1")
    p.add_argument("--port", type=int, default=int(env.get("PIDOR_PORT") or 7777), help="default: PIDOR_PORT, else 7777")
    p.add_argument("--name", default="random-bot")
    p.add_argument("--token", default=env.get("PIDOR_TOKEN") or None,
                   help="be that player again (default: PIDOR_TOKEN; prefer it: arguments show in ps)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--table", type=int, help="join this table")
    where.add_argument("--create", metavar="GAME",
                       help="create a table of this game (`pidor games` lists them; default, when there is no "
                            "open table: the server's default game)")
    p.add_argument("--players", type=int, default=4, help="seats at a created table (as the game allows)")
    p.add_argument("--bots", type=int, help="built-in bots at a created table (default: players - 1)")
    p.add_argument("--deck", type=int, help="deck of a created table (default: the game's)")
    p.add_argument("--games", type=int, default=1, help="games to play (0: until the table closes)")
    p.add_argument("--seed", type=int, help="seed of this bot's choices")
    p.add_argument("--seed-hex", help="this player's part of the next deal (T10): hex, at most 64 bytes")
    p.add_argument("--stats", action="store_true",
                   help="on exit (SIGTERM included) print the frames and bytes received and sent to stderr")
    p.add_argument("--policy", metavar="SPEC",
                   help="play a built-in policy, e.g. builtin:random:cheat=0.1,attention=0.5, or your own "
                        "Policy subclass, py:MODULE:CLASS[:k=v,...] (needs the pidor package)")
    return p.parse_args(argv)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv=None, out=print, err=_to_stderr) -> int:
    args = parse_args(argv)
    if args.stats:  # a match runner stops a bot that stays seated with SIGTERM: end as on any exit
        try:
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        except ValueError:  # main() called in another thread than the main one: no signal to catch
            pass
    deal_seed = None if args.seed_hex is None else args.seed_hex.lower()
    if args.policy is None:
        bot = RandomBot(args.seed, out, deal_seed)
    else:
        try:
            bot = policy_bot(args.policy, args.seed, out, deal_seed)
        except ValueError as e:
            err(f"error: {e}")
            return 2
    # The random bot has no use for window events; a policy's tracker replays them (its table's clocks).
    windows = bot.may_call() or args.policy is not None
    client = Client(args.host, args.port, args.name, args.token, may_call=bot.may_call(), windows=windows)
    try:
        welcome = client.connect()
        if "token" in welcome:
            out(f"player {welcome['player']}; token (keep it to come back): {welcome['token']}")
        if welcome.get("table") is not None:
            out(f"back at table {welcome['table']}")
        elif args.table is not None:
            out(f"joined table {args.table} at seat {client.join(args.table)['seat']}")
        else:
            create = args.create is not None
            if not create:
                tables = client.list_tables(open=True)["tables"]
                if tables:
                    joined = client.join(tables[0]["id"])
                    out(f"joined table {tables[0]['id']} at seat {joined['seat']}")
                create = not tables  # a table of the server's default game
            if create:
                bots = args.players - 1 if args.bots is None else args.bots
                options = {k: v for k, v in (("game", args.create), ("deck", args.deck)) if v is not None}
                joined = client.create(players=args.players, bots=bots, **options)
                table = joined["table"]
                out(f"created table {table['id']} ({table['game']}, {args.players} seats, {bots} bots)")
        if deal_seed is not None:
            client.seed(deal_seed)  # before the host starts the game: it counts for this deal
            out(f"seed for the next deal: {deal_seed}")
        bot.run(client, games=args.games or None)
        client.leave()
    except TableClosed as e:
        out(str(e))
    except (PidorError, OSError) as e:
        err(f"error: {e}")
        return 1
    finally:
        client.close()
        if args.stats:
            print(f"traffic: {client.traffic}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
