#!/usr/bin/env python3
"""Engine + table speed: random honest bots that answer ``pass`` to every call window.

Counts game actions (move, draw, lay, beat, take, …); the ``pass`` answers are done but
not counted. One process, one core. Time is CPU time of this process by default
(``--clock cpu``: on a shared, loaded machine wall-clock figures measure the neighbours
too); ``--clock wall`` for elapsed time. Example::

    python scripts/bench_engine.py                      # every game, every player count it allows
    python scripts/bench_engine.py --game pidor --players 4 --seconds 5 --json
    python scripts/bench_engine.py --game simple --opt lead=pairs --players 4
    python scripts/bench_engine.py --game podkidnoy --opt teams=2x2
    python scripts/bench_engine.py --variants --players 4   # and each variant of each game's spec
    python scripts/bench_engine.py --bare --players 4   # engine + table alone, no bots
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pidor.autoplay import play_game  # noqa: E402
from pidor.bots import RandomBot  # noqa: E402
from pidor.games import GAME_IDS, parse_options, spec  # noqa: E402
from pidor.engine.seeds import Rng  # noqa: E402
from pidor.engine.table import Table  # noqa: E402


#: The clocks a figure may be measured with.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def bare_game(table: Table, rng: Rng) -> int:
    """What the bots' figure costs without bots: the benchmark itself picks the actions as
    the driver's random bots would (seats that may act asked in a rotation from a random
    one, a random honest action, ``pass`` from everyone in one call), with no driver,
    policies or observations. Returns the actions."""
    actions = 0
    while not table.over:
        if table.window is not None:
            table.passes(table.waiting_answers())
            continue
        game = table.game
        seats = table.to_act()
        k = rng.below(len(seats)) if len(seats) > 1 else 0
        for seat in seats[k:] + seats[:k]:
            honest = game.honest_actions(seat)
            if honest and not game.may_wait(seat):
                table.act(seat, honest[rng.below(len(honest))], honest=True)
                actions += 1
                break
        else:
            deadline = table.deadline()
            if deadline is None:
                raise RuntimeError("stuck: nobody may act and no clock runs")
            table.tick(deadline)
    return actions


def bench(game: str, players: int, deck: int | None, seconds: float, variant: dict, clock: str = "cpu",
          bare: bool = False) -> dict:
    options = {"game": game, "players": players, **variant}
    if deck:
        options["deck"] = deck
    actions = games = 0
    now = CLOCKS[clock]
    start = now()
    while True:
        seed = games.to_bytes(8, "big")
        table = Table(options)
        table.start(seed=seed)
        if bare:
            actions += bare_game(table, Rng(seed, b"bare"))
        else:
            bots = [RandomBot(s, seed) for s in range(players)]
            actions += play_game(table, bots, Rng(seed, b"driver"))
        games += 1
        elapsed = now() - start
        if elapsed >= seconds:
            break
    return {
        "game": game,
        **variant,
        "players": players,
        "deck": table.options["deck"],
        "games": games,
        "actions": actions,
        "bots": "none (bare)" if bare else "random",
        "clock": clock,
        "seconds": round(elapsed, 3),
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(games / elapsed, 1),
    }


def configurations(game: str, opts: tuple[str, ...], variants: bool) -> list[dict]:
    """The option sets to measure ``game`` in: ``--opt`` values of the keys it takes (none:
    not measured when ``--opt`` was given and it takes none of them), and with
    ``variants`` each variant of its spec too."""
    s = spec(game)
    declared = {o.name for o in s.engine.OPTIONS + s.engine.CLOCKS}
    mine = [text for text in opts if text.partition("=")[0].strip() in declared]
    if opts and not mine:
        return []
    try:
        base = parse_options(game, mine)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--opt") from None
    return [base] + ([{**v, **base} for v in s.variants] if variants else [])


@click.command()
@click.option("--game", "games", multiple=True, type=click.Choice(GAME_IDS),
              help="Game to measure (repeatable; default: every game of the registry).")
@click.option("--players", "players", multiple=True, type=click.IntRange(1),
              help="Player count (repeatable; default: every count the game allows).")
@click.option("--deck", type=click.IntRange(1), default=None, help="Deck size (default: the game's).")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. --opt lead=pairs, --opt teams=2x2 (`pidor games` lists each game's); "
                   "a game that takes none of the keys given is left out.")
@click.option("--variants", is_flag=True, help="Also measure each variant of each game's spec (GameSpec.variants).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=2.0, show_default=True,
              help="Time per configuration (on --clock).")
@click.option("--clock", type=click.Choice(list(CLOCKS)), default="cpu", show_default=True,
              help="cpu: this process's CPU time (fair on a loaded machine); wall: elapsed time.")
@click.option("--bare", is_flag=True,
              help="No bots: the benchmark picks random honest actions itself (engine + table alone).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def main(games, players, deck, opts, variants, seconds, clock, bare, as_json):
    """Measure engine + table actions/s and games/s with honest random bots. Configurations
    a game does not allow (simple durak with 6 players or 52 cards, teams of 2x2 with 3
    players) are left out."""
    rows = []
    for g in games or GAME_IDS:
        for options in configurations(g, opts, variants):
            variant = {k: v for k, v in options.items() if k != "players"}
            for p in ([options["players"]] if "players" in options else players or spec(g).players):
                try:
                    Table({"game": g, "players": p, **variant, **({"deck": deck} if deck else {})})
                except ValueError:
                    continue
                row = bench(g, p, deck, seconds, variant, clock, bare)
                rows.append(row)
                if not as_json:
                    name = " ".join([g, *(f"{k}={v}" for k, v in variant.items())])
                    click.echo(f"{name:<16} {p} players, {row['deck']} cards: {row['actions_per_s']:>8,} actions/s  "
                               f"{row['games_per_s']:>8,.1f} games/s  ({row['games']} games)", err=False)
    if as_json:
        click.echo(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
