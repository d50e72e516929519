"""Scripted in-process matches: ``pidor match``.

One table of built-in bots plays ``G`` games in a row (P1/D2: who starts depends on the
last game, T7: the mark stays at the table). Every bit of chance comes from ``--seed``
(T10), so the same seed and seat specs give the same games, the same summary and the same
logs, byte for byte:

* ``base = SHA-256(b"pidor-match/1" ‖ 0x00 ‖ UTF-8 seed text)``;
* game ``g`` (0-based): ``server_seed = HMAC-SHA-256(base, b"server" ‖ u32-BE g)``, dealt
  as in ``protocol/LOGS.md`` with the seats' ``--seat-seed`` contributions;
* the bot of seat ``s`` in game ``g``: seed ``HMAC-SHA-256(base, b"bot" ‖ u32-BE g ‖ u8 s)``
  (recorded in the log header);
* the driver (who moves first when several seats may act, durak):
  ``Rng(HMAC-SHA-256(base, b"driver" ‖ u32-BE g), b"driver")``.

Statistics per seat: ``cheats`` are action events with violations; ``convicted`` are
``mark`` events with reason ``convicted``; ``false_calls`` are ``mark`` events with reason
``false_call`` (T5: an honest action called) or ``lost_vote`` (T6: the court acquitted).
Places come from the result's finishing order (1 = first out, the loser last).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

from .autoplay import GameTooLong, play_game
from .bots import RandomBot, parse_spec
from .engine.games import GAME_IDS, game_class
from .engine.seeds import Rng
from .engine.table import Table
from .gamelog.deal import MAX_SEAT_SEED
from .gamelog.format import LogWriteError
from .gamelog.record import Recorder, seat_info

__all__ = ["SeatStats", "MatchResult", "run_match", "match", "DEFAULT_SPEC"]

DEFAULT_SPEC = "builtin:random"


@dataclass
class SeatStats:
    seat: int
    spec: str
    games: int = 0
    losses: int = 0
    draws: int = 0
    places: int = 0  # sum of finishing places
    cheats: int = 0
    convicted: int = 0
    false_calls: int = 0

    @property
    def mean_place(self) -> float | None:
        return round(self.places / self.games, 4) if self.games else None

    def to_dict(self) -> dict:
        return {"seat": self.seat, "spec": self.spec, "games": self.games, "losses": self.losses,
                "draws": self.draws, "mean_place": self.mean_place, "cheats": self.cheats,
                "convicted": self.convicted, "false_calls": self.false_calls}


@dataclass
class MatchResult:
    game: str
    players: int
    deck: int
    hard: bool | None
    seed: str
    games: int = 0
    draws: int = 0
    actions: int = 0
    seats: list[SeatStats] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        out = {"game": self.game, "players": self.players, "deck": self.deck, "seed": self.seed,
               "games": self.games, "draws": self.draws, "actions": self.actions,
               "seats": [s.to_dict() for s in self.seats]}
        if self.hard is not None:
            out["hard"] = self.hard
        return out


def _mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def match_base(seed: str) -> bytes:
    return hashlib.sha256(b"pidor-match/1\x00" + seed.encode("utf-8")).digest()


def run_match(
    game: str,
    players: int,
    games: int,
    *,
    deck: int | None = None,
    hard: bool | None = None,
    seed: str = "0",
    specs: list[str] | None = None,
    seat_seeds: list[bytes | None] | None = None,
    logs: str | os.PathLike | None = None,
    progress=None,
) -> MatchResult:
    """Play ``games`` games at one table of built-in bots; ``progress(1)`` after each."""
    cls = game_class(game)
    options: dict = {"game": game, "players": players}
    if deck is not None:
        options["deck"] = deck
    if hard is not None:
        if "hard" not in cls.DEFAULTS:
            raise ValueError(f"--hard is a durak option; {game} has no hard mode")
        options["hard"] = hard
    table = Table(options)
    n = table.options["players"]
    specs = list(specs or [])
    if len(specs) > n:
        raise ValueError(f"{len(specs)} seat specs for {n} players")
    specs += [DEFAULT_SPEC] * (n - len(specs))
    params = [parse_spec(s) for s in specs]
    seat_seeds = list(seat_seeds or [])
    if len(seat_seeds) > n:
        raise ValueError(f"{len(seat_seeds)} seat seeds for {n} players")
    seat_seeds += [None] * (n - len(seat_seeds))
    out_dir = None
    if logs is not None:
        out_dir = Path(logs)
        out_dir.mkdir(parents=True, exist_ok=True)
    result = MatchResult(game=game, players=n, deck=table.options["deck"],
                         hard=table.options.get("hard") if "hard" in cls.DEFAULTS else None, seed=seed,
                         seats=[SeatStats(s, specs[s]) for s in range(n)])
    stats = result.seats
    base = match_base(seed)

    def count(events: list[dict]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "action":
                if e.get("_violations"):
                    stats[e["seat"]].cheats += 1
            elif kind == "mark":
                reason = e["reason"]
                if reason == "convicted":
                    stats[e["seat"]].convicted += 1
                elif reason == "false_call" or reason == "lost_vote":
                    stats[e["seat"]].false_calls += 1

    for g in range(games):
        gb = g.to_bytes(4, "big")
        bot_seeds = [_mac(base, b"bot", gb, bytes((s,))) for s in range(n)]
        bots = [RandomBot.from_spec(s, bot_seeds[s], params[s]) for s in range(n)]
        seats = [seat_info("bot", policy=params[s]["policy"], spec=specs[s],
                           params={k: v for k, v in params[s].items() if k != "policy"},
                           seed=bot_seeds[s].hex()) for s in range(n)]
        path = None if out_dir is None else out_dir / f"{game}-{g + 1:05d}.plog"
        rec = Recorder(table, path, seats=seats, server_seed=_mac(base, b"server", gb), seat_seeds=seat_seeds)
        count(rec.start())
        target = rec if path is not None else table  # without a log, skip the recorder
        try:
            result.actions += play_game(target, bots, Rng(_mac(base, b"driver", gb), b"driver"), on_events=count)
        except GameTooLong:
            rec.close(aborted="the game did not end within the step bound")
            raise
        rec.close()
        if path is not None:
            result.logs.append(str(path))
        res = table.game.result
        result.games += 1
        if res["draw"]:
            result.draws += 1
        order = res["order"]
        for s in range(n):
            st = stats[s]
            st.games += 1
            st.places += order.index(s) + 1 if s in order else n
            if res["loser"] == s:
                st.losses += 1
            elif res["draw"]:
                st.draws += 1
        if progress is not None:
            progress(1)
    return result


def summary_text(r: MatchResult, seconds: float | None = None) -> str:
    lines = [f"{r.game}: {r.players} players, deck {r.deck}" + (", hard" if r.hard else "")
             + f", {r.games} games, seed {r.seed!r}: {r.draws} draws, {r.actions} actions"
             + (f" ({r.games / seconds:.0f} games/s)" if seconds else "")]
    head = ("seat", "spec", "games", "losses", "draws", "mean place", "cheats", "convicted", "false calls")
    rows = [head] + [(str(s.seat), s.spec, str(s.games), str(s.losses), str(s.draws),
                      "—" if s.mean_place is None else f"{s.mean_place:.2f}", str(s.cheats),
                      str(s.convicted), str(s.false_calls)) for s in r.seats]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for k, row in enumerate(rows):
        cells = [c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    if r.logs:
        lines.append(f"logs: {len(r.logs)} files in {Path(r.logs[0]).parent}")
    return "\n".join(lines)


def _seat_seed(text: str) -> bytes | None:
    if text in ("", "-"):
        return None
    data = text.encode("utf-8")
    if len(data) > MAX_SEAT_SEED:
        raise click.BadParameter(f"a seat seed is at most {MAX_SEAT_SEED} bytes", param_hint="--seat-seed")
    return data


@click.command()
@click.option("--game", type=click.Choice(GAME_IDS), default="pidor", show_default=True)
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True)
@click.option("--games", type=click.IntRange(0), default=10, show_default=True)
@click.option("--deck", type=click.Choice(["36", "52"]), default=None, help="Deck size (default: the game's).")
@click.option("--hard", is_flag=True, default=None, help="Durak hard mode: everyone pays for the mark (D12).")
@click.option("--seed", default=None, help="Seed text; the same seed and seats give the same games.")
@click.option("--seat", "specs", multiple=True, metavar="SPEC",
              help="builtin:random[:cheat=P,attention=P,false_call=P], one per seat in order.")
@click.option("--seat-seed", "seat_seeds", multiple=True, metavar="TEXT",
              help="A seat's contribution to the deal (one per seat in order; '-' for none).")
@click.option("--logs", type=click.Path(file_okay=False), default=None, help="Write one log per game here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def match(game, players, games, deck, hard, seed, specs, seat_seeds, logs, as_json) -> None:
    """Run scripted bot-vs-bot matches in-process (one table, GAMES games in a row)."""
    if seed is None:
        seed = os.urandom(8).hex()
    for spec in specs:
        try:
            parse_spec(spec)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--seat") from None
    seeds = [_seat_seed(t) for t in seat_seeds]
    bar = None
    if sys.stderr.isatty() and games > 1:
        bar = click.progressbar(length=games, label=f"{game} ×{players}", file=sys.stderr)
        bar.__enter__()
    started = time.perf_counter()
    try:
        result = run_match(game, players, games, deck=None if deck is None else int(deck), hard=hard,
                           seed=seed, specs=list(specs), seat_seeds=seeds, logs=logs,
                           progress=None if bar is None else bar.update)
    except ValueError as e:  # the arguments do not fit together (specs, seeds, options): usage
        raise click.UsageError(str(e)) from None
    except LogWriteError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        if logs is None:
            raise
        raise click.ClickException(f"cannot write game logs in {logs}: {e.strerror or e}; "
                                   "give --logs a directory you may write") from None
    except GameTooLong as e:
        raise click.ClickException(f"a game did not end (seed {seed!r}): {e}") from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        click.echo(summary_text(result, seconds))
