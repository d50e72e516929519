"""``pidor bridge``: one local bot plays at a server, game after game, until stopped
(lichess-bot's job for pidor).

The bot is a ``stdio:`` program (``-- COMMAND``: protocol/STDIO.md) or a policy
(``-- py:MODULE:CLASS[:params]``, ``-- builtin:NAME[:params]``). The bridge speaks the
protocol for it through the SDK (:class:`~pidor.bots.remote.PolicyBot`): hello and its
token, joining or creating a table, ``seq`` and stale refusals, passing every call window
for a bot that never calls, coming back after a drop (with its token, for ever, waiting
longer each time up to :data:`MAX_WAIT`). It says on stderr what it does: each connection,
table and game, each drop, and why it stops.

It stops when the table closes (exit 0), when the bot fails (it exits, answers late or out
of turn: exit 1, without leaving, so that a match's server sees it gone) and on Ctrl-C
(SIGINT) or SIGTERM, which leave the table first (exit 130).

Launched by ``pidor match`` or ``pidor conform`` for a ``stdio:`` entrant, it finds the
server and its token in ``PIDOR_HOST``, ``PIDOR_PORT`` and ``PIDOR_TOKEN`` (its seat is
given: no ``--table``); ``python -m pidor.stdio.bridge`` runs it without the ``pidor``
command.
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time

import click

from ..bots.remote import PolicyBot
from ..bots.specs import check_plays, parse_spec
from ..client import FINAL_ERRORS, Client, ConnectionClosed, PidorError, ServerError, TableClosed
from ..engine.table import TABLE_DEFAULTS, TABLE_OPTIONS
from ..games import GAME_IDS, parse_options
from . import PREFIX
from .program import QUIT_GRACE, BotProgram, Failed
from .seat import Clock, StdioBot, StdioPolicy

__all__ = ["bridge", "BridgeBot", "create_options", "MAX_WAIT"]

#: The longest wait between two attempts to come back (seconds; the first waits 1 s).
MAX_WAIT = 30.0
#: Seconds a stdio: bot has for each answer (the server's own clock forfeits or stands in sooner).
MOVE_TIME = 60.0


def _say(text: str) -> None:
    click.echo(f"{time.strftime('%H:%M:%S')} pidor bridge: {text}", err=True)


class BridgeBot(PolicyBot):
    """The SDK's loop for the bridged policy: it also tells a ``stdio:`` bot each game's
    end, and says on stderr how each game went."""

    def __init__(self, policy, name: str) -> None:
        super().__init__(policy)
        self.name = name
        self.games = 0

    def on_snapshot(self, snapshot: dict) -> None:
        seated = self.state.table, self.state.seat
        super().on_snapshot(snapshot)
        if seated != getattr(self, "_seated", None):
            self._seated = seated
            _say(f"at table {seated[0]}, seat {seated[1]}")

    def on_results(self, event: dict) -> None:
        self.games += 1
        result = event.get("result") or {}
        if isinstance(self.policy, StdioPolicy):
            self.policy.end(result)
        seat = self.state.seat
        order = result.get("order") or []
        outcome = ("a draw" if result.get("draw") else "lost" if result.get("loser") == seat
                   else f"place {order.index(seat) + 1}" if seat in order else "done")
        _say(f"game {self.games} over (table {self.state.table}, seat {seat}): {outcome}")


def create_options(text: str) -> dict:
    """``--create KEY=VALUE,...``: the ``create`` request's options (PROTOCOL.md §4):
    ``game``, ``players``, ``bots`` (how many built-in bots), the table's clocks and the
    game's options; ``ValueError`` in one line."""
    pairs = [p.strip() for p in text.split(",") if p.strip()]
    given = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep:
            raise ValueError(f"write KEY=VALUE, not {p!r}")
        given[key.strip()] = value.strip()
    game = given.pop("game", TABLE_DEFAULTS["game"])
    if game not in GAME_IDS:
        raise ValueError(f"no game {game!r}; the games: {', '.join(GAME_IDS)}")
    out: dict = {"game": game}
    table = {o.name: o for o in TABLE_OPTIONS}
    for key in list(given):
        if key == "bots":
            value = given.pop(key)
            if not value.isdigit():
                raise ValueError(f"bots is how many built-in bots sit at the table, not {value!r}")
            out["bots"] = int(value)
        elif key in table:
            out[key] = table[key].parse(given.pop(key))
    out.update(parse_options(game, [f"{k}={v}" for k, v in given.items()]))
    return out


def _create(ctx, param, text: str | None) -> dict | None:
    try:
        return None if text is None else create_options(text)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


def _server(text: str | None) -> tuple[str, int]:
    env = os.environ
    if text is None:
        return env.get("PIDOR_HOST") or "127.0.0.1", int(env.get("PIDOR_PORT") or 7777)
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"HOST:PORT, e.g. 127.0.0.1:7777, not {text!r}", param_hint="--server")
    return host, int(port)


def _policy(command: tuple[str, ...]):
    """The bot: a spec text (py:, builtin:) or a started stdio: bot's policy."""
    argv = list(command)
    if len(argv) == 1 and argv[0].startswith(("py:", "builtin:")):
        try:
            parse_spec(argv[0], python=True)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="COMMAND") from None
        return argv[0]
    if argv and argv[0].startswith(PREFIX):
        argv = shlex.split(argv[0][len(PREFIX):]) + argv[1:]
    elif len(argv) == 1 and " " in argv[0].strip():
        argv = shlex.split(argv[0])
    if not argv:
        raise click.UsageError("give the bot's command after --")
    try:
        bot = StdioBot.launch(BotProgram(argv))  # (its stderr is ours)
    except Failed as e:
        raise click.ClickException(f"the bot did not start ({e.reason}): {e.detail}") from None
    hello = bot.hello
    _say(f"the bot runs (pid {bot.program.pid}: {shlex.join(argv)}); it says it is {hello.name or 'nameless'}, "
         f"{'calls' if hello.calls else 'never calls'}, {'may cheat' if hello.cheats else 'plays honestly'}")
    return StdioPolicy(0, None, bot, Clock(MOVE_TIME))


@click.command()
@click.argument("command", nargs=-1, required=True)
@click.option("--server", default=None, metavar="HOST:PORT",
              help="The server [default: PIDOR_HOST:PIDOR_PORT, else 127.0.0.1:7777].")
@click.option("--token", default=None, help="Come back as this player (a token from an earlier session) "
                                             "[default: PIDOR_TOKEN].")
@click.option("--name", default=None, help="A new player's name [default: the bot's, from its hello].")
@click.option("--table", type=click.IntRange(1), default=None, help="Join this table.")
@click.option("--create", "create", default=None, metavar="KEY=VALUE,...", callback=_create,
              help="Create a table and host it: game=, players=, bots= (built-in bots), the clocks "
                   "(call_window=, turn_timeout=...) and the game's options, e.g. game=podkidnoy,players=3,bots=2.")
def bridge(command, server, token, name, table, create) -> None:
    """Play one local bot at a server, game after game, until stopped.

    \b
    COMMAND is a stdio: bot (protocol/STDIO.md: it reads one JSON line per decision
    and answers one), or py:MODULE:CLASS[:params] / builtin:NAME[:params]:
      pidor bridge --server 127.0.0.1:7777 --create game=podkidnoy,players=3,bots=2 -- python3 bot.py
      pidor bridge --server host:7777 --token TOKEN -- ./my_bot
      pidor bridge --server host:7777 --table 5 --name mine -- py:my_policies:Mine

    The bridge does the protocol for the bot: hello and its token, seq and stale
    refusals, passes for a bot that never calls, coming back after a dropped
    connection (with its token, again and again); it says what it does on stderr.
    A new player's token is shown once: give --token to come back as that player.

    \b
    Exit status: 0 the table closed; 1 the bot failed or the server refused;
    2 usage error; 130 Ctrl-C (the bridge leaves the table first).
    """
    if table is not None and create is not None:
        raise click.UsageError("--table and --create do not go together: join a table, or create one")
    token = token or os.environ.get("PIDOR_TOKEN") or None
    if token is not None and name is not None:
        raise click.UsageError("--token and --name do not go together: a token's player has a name")
    host, port = _server(server)
    options = create
    policy = _policy(command)
    try:
        if options is not None and isinstance(policy, str):
            try:
                check_plays(parse_spec(policy, python=True), options["game"])
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="COMMAND") from None
        hello = getattr(getattr(policy, "bot", None), "hello", None)
        name = name or (hello.name if hello is not None and hello.name else "bridge")
        sys.exit(_run(policy, name, host, port, token, table, options))
    finally:
        if isinstance(policy, StdioPolicy):
            policy.bot.program.quit(time.monotonic() + QUIT_GRACE)
            policy.bot.program.end(time.monotonic() + QUIT_GRACE)


class _Stop(Exception):
    """SIGTERM: stop as Ctrl-C does."""


def _stop(signum, frame) -> None:
    raise _Stop


def _run(policy, name: str, host: str, port: int, token: str | None, table: int | None, options: dict | None,
         wait=time.sleep) -> int:
    """Connect, sit and play until stopped; the exit status."""
    bot = BridgeBot(policy, name)
    client = Client(host, port, name, token, may_call=bot.may_call())
    previous = signal.signal(signal.SIGTERM, _stop)
    delay = 1.0
    try:
        while True:
            try:
                welcome = client.connect()
                delay = 1.0
                if "token" in welcome and token is None:
                    _say(f"new player {welcome.get('player')} ({name}); its token, to come back as it: "
                         f"{welcome['token']}")
                    token = welcome["token"]
                else:
                    _say(f"connected to {host}:{port} as player {welcome.get('player')}")
                if welcome.get("table") is None:  # (seated by its token, it is back at its seat)
                    if table is not None:
                        client.join(table)
                    elif options is not None:
                        joined = client.create(**options)
                        _say(f"created table {joined['table']['id']} ({options['game']})")
                    else:
                        _say("not seated at any table: give --table ID or --create OPTIONS")
                        return 1
                bot.run(client, None, start=True, reconnect=0)
                return 0
            except TableClosed as e:
                _say(f"the table closed ({e.reason}); stopping")
                return 0
            except ConnectionClosed as e:
                if e.error is not None and e.error.code in FINAL_ERRORS:
                    _say(f"the server closed the connection for good: {e.error}")
                    return 1
                _say(f"connection lost ({e}); coming back in {delay:g} s")
            except OSError as e:
                _say(f"cannot reach {host}:{port} ({e.strerror or e}); trying again in {delay:g} s")
            wait(delay)
            delay = min(2 * delay, MAX_WAIT)
    except Failed as e:
        _say(f"the bot failed ({e.reason}): {e.detail}; stopping")
        client.close()
        return 1
    except ServerError as e:
        _say(f"the server refused: {e}")
        client.close()
        return 1
    except PidorError as e:
        _say(f"stopping: {e}")
        client.close()
        return 1
    except (KeyboardInterrupt, _Stop):
        _say(f"stopped after {bot.games} games; leaving the table")
        try:
            if client.conn is not None and client.state.table is not None:
                client.leave()
        except (PidorError, OSError):
            pass
        client.close()
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    bridge(prog_name="pidor bridge")
