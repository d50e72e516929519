"""The ``pidor play`` command: connect, create or join a table, then run the session."""

from __future__ import annotations

import sys

import click

from ..bots import parse_spec
from ..bots.specs import check_plays
from ..client import Client, PidorError, ServerError
from ..engine.table import TABLE_DEFAULTS
from ..games import GAME_IDS, game_class, parse_options
from .session import Session
from .terminal import run_session, wants_keys
from .text import error_text, game_name

__all__ = ["BOT_SPEC", "play"]

#: the longest name a player may have (PROTOCOL.md, hello)
NAME_MAX = 32

#: the built-in bots of a table made by ``pidor play``: they cheat now and then and often
#: notice a cheat, so that махлёж and the court are part of the game from the start
BOT_SPEC = "builtin:random:cheat=0.05,attention=0.5"

#: option -> the table option it sets (PROTOCOL.md §4 ``create``, §8 clocks); a game's own
#: clocks (durak's «бито», «пидор»'s trick display) are ``--opt`` options like its others
CLOCKS = {"call_window": "T3: time to call «пидор!» after each move",
          "vote_timeout": "T4: time for a court's vote",
          "turn_timeout": "T9: time for each move a seat owes"}


def _bot_spec(ctx, param, value: str) -> str:
    try:
        parse_spec(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    return value


def _name(ctx, param, value: str) -> str:
    """The protocol's rule for a name (PROTOCOL.md, hello): 1..32 printable characters once
    blank space is folded, so that the server does not refuse it after connecting."""
    folded = " ".join(value.split())
    if not folded or len(value) > NAME_MAX or not folded.isprintable():
        raise click.BadParameter(f"a name is 1..{NAME_MAX} printable characters, not {value!r}")
    return value


def _seconds(what: str):
    return click.option(f"--{what.replace('_', '-')}", what, type=click.FloatRange(0, 3600), default=None,
                        metavar="S", help=f"{CLOCKS[what]}, in seconds, for a table you create [default: the server's].")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The server's address.")
@click.option("--port", default=7777, show_default=True, type=click.IntRange(1, 65535))
@click.option("--name", default="player", show_default=True, callback=_name,
              help=f"Your name at the table (1..{NAME_MAX} printable characters).")
@click.option("--game", type=click.Choice(GAME_IDS), default=TABLE_DEFAULTS["game"], show_default=True)
@click.option("--players", type=click.IntRange(1), default=None,
              help="Seats at the new table; all but yours get built-in bots [default: the game's].")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE",
              help="A game option for a table you create, e.g. --opt teams=2x2 --opt bito_timeout=5 "
                   "(`pidor games` lists each game's).")
@click.option("--deck", type=click.IntRange(1), default=None, help="Deck size (--opt deck=N) [default: the game's].")
@click.option("--variant", default=None, metavar="LEAD", help="The same as --opt lead=LEAD (simple durak, V2-V4).")
@click.option("--teams", default=None, metavar="TEAMS", help="The same as --opt teams=TEAMS (durak team play, V6).")
@click.option("--lang", type=click.Choice(["ru", "en"]), default="ru", show_default=True,
              help="Language of everything shown: the board, events, rules, hints, errors.")
@click.option("--table", type=click.IntRange(1), default=None, help="Join this table instead of creating one.")
@click.option("--watch", type=click.IntRange(1), default=None, metavar="TABLE",
              help="Watch this table as a spectator: the public view, nobody's hidden cards.")
@click.option("--token", default=None, help="The token from an earlier session: be the same player (and get your seat back).")
@click.option("--bot", "bot_spec", default=BOT_SPEC, show_default=True, callback=_bot_spec,
              help="The built-in bots of a new table (cheat: how often they cheat; attention: how often they call a cheat).")
@_seconds("call_window")
@_seconds("vote_timeout")
@_seconds("turn_timeout")
@click.option("--auto-pass", is_flag=True, help="Pass every call window at once (you never call «пидор!»).")
def play(host, port, name, game, players, opts, deck, variant, teams, lang, table, watch, token, bot_spec, auto_pass,
         **clocks) -> None:
    """Play at a server from this terminal: `pidor play --name me`, then `помощь` (`help`):
    the game's actions and the table's commands, in Russian and English words.

    \b
    In a call window one key answers: `!` calls «пидор!», space lets it go at once,
    or just wait: the window runs out by itself (--call-window sets how long, for a
    table you create). In a court: `y` votes «пидор», `n` «чист». Without a terminal
    (a pipe, a script) type `call`, `pass`, `vote pidor|clean` (`пидор`, `мимо`,
    `голос пидор|чист`) instead."""
    if watch is not None and table is not None:
        raise click.UsageError("--watch and --table do not go together: watch a table, or sit at one")
    aliases = [f"{k}={v}" for k, v in (("deck", deck), ("lead", variant), ("teams", teams)) if v is not None]
    try:
        game_opts = parse_options(game, [*aliases, *opts])
        check_plays(bot_spec, game)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--opt" if "does not play" not in str(e) else "--bot") from None
    if players is None:
        players = game_opts.get("players") or game_class(game).DEFAULTS["players"]
    client = Client(host, port, name, token)
    session = Session(client, lang=lang, out=click.echo, keys=wants_keys(sys.stdin, sys.stdout), auto_pass=auto_pass,
                      watching=watch)
    try:
        welcome = client.connect()
        session.say("welcome", player=welcome.get("player"), server=welcome.get("server"))
        if watch is not None:
            client.watch(watch)
            session.say("watching", table=watch)
        elif welcome.get("table") is not None:
            session.say("back", table=welcome["table"])
        elif table is not None:
            joined = client.join(table)
            session.say("joined", table=table, seat=joined["seat"])
        else:
            options = {**game_opts, "game": game, "players": players, "bots": [bot_spec] * (players - 1)}
            options.update({k: v for k, v in clocks.items() if v is not None})
            joined = client.create(**options)
            session.say("created", table=joined["table"]["id"], game=game_name(game, lang), players=players,
                        seat=joined["seat"])
            client.start()
        if "token" in welcome:  # (only now: a failed join or watch needs no coming back)
            session.say("token", token=welcome["token"])
    except OSError as e:
        client.close()
        raise click.ClickException(f"cannot reach {host}:{port}: {e.strerror or e}; is `pidor serve` running there? "
                                   "(--host, --port)") from None
    except ServerError as e:
        client.close()
        raise click.ClickException(error_text(e.msg, lang).removeprefix("✗ ")) from None
    except PidorError as e:
        client.close()
        raise click.ClickException(str(e)) from None
    run_session(client, session)
