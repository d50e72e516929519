"""One game of in-process entrants, played to its end: built-in and ``py:`` policies with
no clock, a pure function of the match's setup and the game, so that worker processes
(local or Ray, :mod:`pidor.match.pool`) can play any game anywhere and give the same
record; ``stdio:`` bots through the :class:`~pidor.match.stdio.Stable` of the thread that
plays the game (their clock is the host's: a bot that fails forfeits to an honest
stand-in, :mod:`pidor.stdio.seat`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ..autoplay import GameTooLong, play_game
from ..bots import RandomBot, make_policy
from ..bots.policy import Policy
from ..bots.sealed import Sealed
from ..engine.seeds import Rng
from ..engine.table import Table
from ..gamelog.record import Recorder, seat_info
from ..stdio.seat import StdioPolicy
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
    standin_seed,
    timed,
)
from .schedule import Game
from .stdio import Stable

__all__ = ["Setup", "play"]


@dataclass(frozen=True)
class Setup:
    """What every game of a match shares (picklable: it goes to the workers once)."""

    options: dict  # the table's options, complete (game, players, deck, hard, …)
    entrants: tuple[Entrant, ...]
    base: bytes  # record.match_base of the seed text
    seat_seeds: tuple[bytes | None, ...]  # each seat's part of every deal (--seat-seed)
    logs: str | None = None  # a directory: one log per game
    keep: bool = False  # --keep-policies: each entrant's policy object plays all its games here


#: The policies kept for a match's life (``Setup.keep``), per thread (a thread plays one game
#: at a time): of the match played last (its setup, the very object: a worker's is the same
#: for all its games), by entrant name.
_kept = threading.local()


def _policy(setup: Setup, e: Entrant, seat: int, seed: bytes) -> Policy:
    """The policy of entrant ``e`` at ``seat`` for one game: a new one, or with
    ``setup.keep`` the one that played its games before here, told of its new game."""
    if not setup.keep:
        return _made(e, seat, seed)
    kept = getattr(_kept, "policies", None)
    if kept is None or getattr(_kept, "setup", None) is not setup:
        kept = _kept.policies = {}
        _kept.setup = setup
    policy = kept.get(e.name)
    if policy is None:
        policy = kept[e.name] = _made(e, seat, seed)
    else:
        policy.new_game(seat, seed)
    return policy


def _made(e: Entrant, seat: int, seed: bytes) -> Policy:
    policy = make_policy(e.params, seat, seed)
    return Sealed(policy) if e.kind == "py" else policy  # somebody else's class: no path to the table


def _seat_info(e: Entrant, seed: bytes) -> dict:
    if e.kind == "stdio":
        return seat_info("external", name=e.name, spec=e.spec, seed=seed.hex())
    return seat_info("bot", policy=e.params["policy"], spec=e.spec,
                     params={k: v for k, v in e.params.items() if k != "policy"}, seed=seed.hex())


def play(setup: Setup, game: Game, stable: Stable | None = None) -> dict:
    """Play ``game`` at a fresh table; its record (and its log, with ``setup.logs``).
    ``stable``: the ``stdio:`` bots of the thread that plays it."""
    options = setup.options
    n = options["players"]
    table = Table(options)
    entrants = [setup.entrants[e] for e in game.seating]
    seeds = [bot_seed(setup.base, game.index, s) for s in range(n)]
    deal = server_seed(setup.base, game.deal)
    record = new_record(options, game.index, game.deal, deal, [e.name for e in entrants])
    path = log_path(setup.logs, options["game"], game.index)
    rec = Recorder(table, path, seats=[_seat_info(e, seeds[s]) for s, e in enumerate(entrants)], server_seed=deal,
                   seat_seeds=list(setup.seat_seeds), extra=match_extra(record))

    def forfeit(seat: int, reason: str, detail: str) -> None:
        record["forfeits"].append({"seat": seat, "reason": reason})
        stable.forfeited(entrants[seat], game.index, seat, reason, detail)

    bots = []
    for s, e in enumerate(entrants):
        if e.kind == "stdio":
            bots.append(stable.seat(e, s, seeds[s], RandomBot(s, standin_seed(setup.base, game.index, s)), forfeit))
        else:
            bots.append(_policy(setup, e, s, seeds[s]))
    stdio = [b for b in bots if isinstance(b, StdioPolicy)]
    if stdio:
        rec.notes["forfeits"] = record["forfeits"]  # (the footer's, as at a match's server)

    def count(events: list[dict]) -> None:
        count_events(record, events)

    started = rec.start()
    count(started)
    # Without a log, skip the recorder; a stdio bot's stand-in needs it (its actions: auto, T9).
    target = rec if path is not None or stdio else table
    try:
        actions = play_game(target, bots, Rng(driver_key(setup.base, game.index), b"driver"), on_events=count,
                            started=started)
    except GameTooLong:
        rec.close(aborted="the game did not end within the step bound")
        raise
    finally:
        for b in stdio:
            stable.done(entrants[b.seat], b, table.game.result if table.over else None)
    rec.close()
    for b in stdio:
        timed(record, b.seat, b.moves)
    return finish_record(record, table.game.result, actions, path)
