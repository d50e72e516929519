"""``pidor games``: every game of the registry, with what a table of it may be set up with
(its players, decks, options and clocks: ``--opt KEY=VALUE`` in ``pidor play`` and ``pidor
match``, ``options`` in ``create``) and the built-in policies that play it."""

from __future__ import annotations

import json

import click

from ..engine.options import Option
from . import GAME_IDS, SPECS, GameSpec


def _option(o: Option) -> dict:
    return {"name": o.name, "kind": o.kind, "default": o.default, "allowed": o.allowed(),
            **({"choices": list(o.choices)} if o.choices else {}),
            **({"low": o.low, "high": o.high} if o.low is not None else {}), "help": o.help}


def describe(s: GameSpec) -> dict:
    """What ``pidor games --json`` says of one game."""
    from ..bots import POLICIES  # (the bots import the registry: only when asked)

    engine = s.engine
    return {
        "id": s.id, "title": s.title, "loser": s.loser, "folder": s.folder,
        "players": list(s.players), "decks": list(s.decks),
        "options": [_option(o) for o in engine.OPTIONS], "clocks": [_option(o) for o in engine.CLOCKS],
        "variants": list(s.variants),
        "actions": {kind: [list(arg) for arg in args] for kind, args in engine.ACTIONS.items()},
        "results": [f.name for f in s.results],
        "engine": s.version, "older_engines": list(engine.OLDER),
        "policies": [f"builtin:{name}" for name, cls in POLICIES.items() if cls.plays(s.id)],
    }


def _span(values: tuple[int, ...]) -> str:
    if len(values) > 2 and values == tuple(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return " or ".join(map(str, values))


def _lines(s: GameSpec, policies: list[str], lang: str) -> list[str]:
    other = "en" if lang == "ru" else "ru"
    out = [f"{s.id}: {s.title_of(lang)} ({s.title_of(other)}), {_span(s.players)} players, "
           f"deck {_span(s.decks)}, engine {s.version}"]
    for what, options in (("options", s.engine.OPTIONS), ("clocks, in seconds", s.engine.CLOCKS)):
        if options:
            out.append(f"  {what} (--opt KEY=VALUE):")
            out += [f"    {o.describe(lang)}" for o in options]
    out.append(f"  played by: {', '.join(policies)}")
    return out


@click.command(name="games")
@click.option("--game", "only", type=click.Choice(GAME_IDS), default=None, help="Only this game.")
@click.option("--lang", type=click.Choice(["ru", "en"]), default="en", show_default=True,
              help="The language of the titles and the options' help.")
@click.option("--json", "as_json", is_flag=True, help="One JSON list of the games, for scripts.")
def games(only: str | None, lang: str, as_json: bool) -> None:
    """List every game: its titles, players and decks, its options with the values they
    allow and their defaults, its clocks, and the built-in policies that play it.

    \b
    The options go to `pidor play` and `pidor match` as --opt KEY=VALUE, and in the
    `options` of the protocol's `create`; protocol/GAMES.md says the same and more
    (actions, events, results), docs/RULES.md the rules.
    """
    chosen = [s for s in SPECS.values() if only in (None, s.id)]
    found = [describe(s) for s in chosen]
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=1))
        return
    click.echo("\n\n".join("\n".join(_lines(s, game["policies"], lang)) for s, game in zip(chosen, found)))
