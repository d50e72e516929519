"""The ``pidor`` command. Each subcommand lives in the module that does its work and is
imported only when it runs, so ``pidor --help`` stays fast."""

from __future__ import annotations

from importlib import import_module

import click

from . import __version__

#: command name -> (module, attribute, one-line help)
COMMANDS = {
    "serve": ("pidor.server.command", "serve", "Run the match server (msgpack over TCP)."),
    "play": ("pidor.play", "play", "Play at a server from this terminal."),
    "match": ("pidor.match", "match", "Run scripted bot-vs-bot matches in-process."),
    "replay": ("pidor.gamelog.commands", "replay", "Show a logged game as text, action by action."),
    "verify": ("pidor.gamelog.commands", "verify", "Verify game logs: hash chain, deal, every consequence."),
    "export": ("pidor.gamelog.commands", "export", "Export a game log as JSON Lines."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, short = COMMANDS[name]
        try:
            return getattr(import_module(module), attr)
        except (ImportError, AttributeError) as e:  # a command not installed in this build
            why = str(e)

            @click.command(name=name, help=f"{short} (unavailable: {why})")
            def unavailable() -> None:
                raise click.ClickException(f"'pidor {name}' is not available in this build: {why}")

            return unavailable


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pidor")
def main() -> None:
    """pidor: a match server for Russian yard card games where cheating is part of the game.

    \b
    Games: «пидор» (pidor), «дурак» podkidnoy and perevodnoy.
    Start a server:         pidor serve
    Play from a terminal:   pidor play --name me
    Bot-vs-bot matches:     pidor match --game pidor --players 4 --games 100
    Audit a game log:       pidor verify LOG...   /   pidor replay LOG
    """


if __name__ == "__main__":
    main()
