"""One game of in-process entrants (built-in policies), played to its end with no clock:
a pure function of the match's setup and the game, so that worker processes (local or
Ray, :mod:`pidor.match.pool`) can play any game anywhere and give the same record."""

from __future__ import annotations

from dataclasses import dataclass

from ..autoplay import GameTooLong, play_game
from ..bots import make_policy
from ..engine.seeds import Rng
from ..engine.table import Table
from ..gamelog.record import Recorder, seat_info
from .entrants import Entrant
from .record import (
    bot_seed,
    count_events,
    driver_key,
    finish_record,
    log_path,
    match_extra,
    new_record,
    server_seed,
)
from .schedule import Game

__all__ = ["Setup", "play"]


@dataclass(frozen=True)
class Setup:
    """What every game of a match shares (picklable: it goes to the workers once)."""

    options: dict  # the table's options, complete (game, players, deck, hard, …)
    entrants: tuple[Entrant, ...]
    base: bytes  # record.match_base of the seed text
    seat_seeds: tuple[bytes | None, ...]  # each seat's part of every deal (--seat-seed)
    logs: str | None = None  # a directory: one log per game


def play(setup: Setup, game: Game) -> dict:
    """Play ``game`` at a fresh table; its record (and its log, with ``setup.logs``)."""
    options = setup.options
    n = options["players"]
    table = Table(options)
    entrants = [setup.entrants[e] for e in game.seating]
    seeds = [bot_seed(setup.base, game.index, s) for s in range(n)]
    bots = [make_policy(entrants[s].params, s, seeds[s]) for s in range(n)]
    seats = [seat_info("bot", policy=e.params["policy"], spec=e.spec,
                       params={k: v for k, v in e.params.items() if k != "policy"}, seed=seeds[s].hex())
             for s, e in enumerate(entrants)]
    deal = server_seed(setup.base, game.deal)
    record = new_record(options, game.index, game.deal, deal, [e.name for e in entrants])
    path = log_path(setup.logs, options["game"], game.index)
    rec = Recorder(table, path, seats=seats, server_seed=deal, seat_seeds=list(setup.seat_seeds),
                   extra=match_extra(record))

    def count(events: list[dict]) -> None:
        count_events(record, events)

    count(rec.start())
    target = rec if path is not None else table  # without a log, skip the recorder
    try:
        actions = play_game(target, bots, Rng(driver_key(setup.base, game.index), b"driver"), on_events=count)
    except GameTooLong:
        rec.close(aborted="the game did not end within the step bound")
        raise
    rec.close()
    return finish_record(record, table.game.result, actions, path)
