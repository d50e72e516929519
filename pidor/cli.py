"""The ``pidor`` command. Each subcommand lives in the module that does its work and is
imported only when it runs, so ``pidor --help`` stays fast."""

from __future__ import annotations

from importlib import import_module

import click

from . import __version__

#: command name -> (module, attribute, one-line help)
COMMANDS = {
    "serve": ("pidor.server.command", "serve", "Run the match server (msgpack over TCP)."),
    "play": ("pidor.play.command", "play", "Play at a server from this terminal."),
    "match": ("pidor.match.command", "match", "Run scripted bot-vs-bot matches (built-in and external bots)."),
    "standings": ("pidor.match.standings", "standings_command",
                  "Rank entrants from game logs and match results files."),
    "replay": ("pidor.gamelog.commands", "replay", "Show a logged game as text, action by action."),
    "verify": ("pidor.gamelog.commands", "verify", "Verify game logs: hash chain, deal, every consequence."),
    "export": ("pidor.gamelog.commands", "export", "Export game logs: JSON Lines, rows of results (csv), text."),
    "conform": ("pidor.conform", "conform", "Check a bot in any language against the protocol."),
    "bridge": ("pidor.stdio.bridge", "bridge", "Play a local bot (stdio: or py:) at a server until stopped."),
    "games": ("pidor.games.command", "games", "List the games, their options and clocks, and who plays them."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, short = COMMANDS[name]
        try:
            loaded = import_module(module)
        except ModuleNotFoundError as e:
            if not _is_left_out(module, e.name):
                raise  # a bug or a broken install: never passed off as a build choice
            return _unavailable(name, short, str(e))
        return getattr(loaded, attr)


def _unavailable(name: str, short: str, why: str) -> click.Command:
    """A stand-in for a command this build leaves out: it says so, and why."""

    @click.command(name=name, help=f"{short} (unavailable: {why})")
    def unavailable() -> None:
        raise click.ClickException(f"'pidor {name}' is not available in this build: {why}")

    return unavailable


def _is_left_out(module: str, missing: str | None) -> bool:
    """Whether the missing module is the command's module or a package holding it (this
    build leaves the command out). A missing dependency, or an ``ImportError`` raised
    inside the command's code, is not: it is raised as it is."""
    return missing is not None and (module == missing or module.startswith(missing + "."))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pidor")
def main() -> None:
    """pidor: a match server for Russian yard card games where cheating is part of the game.

    \b
    Games, their options:   pidor games
    Start a server:         pidor serve
    Play from a terminal:   pidor play --name me
    Bot-vs-bot matches:     pidor match --game pidor --players 4 --games 100
    Audit a game log:       pidor verify LOG...   /   pidor replay LOG
    Rank from logs:         pidor standings DIR...
    Check your own bot:     pidor conform "stdio:python3 my_bot.py"
    Your bot at a server:   pidor bridge --server HOST:PORT --create game=pidor -- python3 my_bot.py
    """


if __name__ == "__main__":
    main()
