"""``pidor match``: the command line of :func:`pidor.match.runner.run_match`."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time

import click

from ..autoplay import GameTooLong
from ..engine.table import TABLE_DEFAULTS
from ..gamelog.deal import MAX_SEAT_SEED
from ..gamelog.format import LogWriteError
from ..games import GAME_IDS, game_class, parse_options
from .entrants import named_entrant, parse_entrant
from .pool import RayUnavailable
from .runner import (
    MAX_FORFEITS,
    EntrantFailing,
    MatchError,
    MatchFailed,
    MatchInterrupted,
    TimeControl,
    run_match,
)
from .progress import Progress, default_every
from .stats import RANKINGS, parse_sprt
from .summary import summary_text

__all__ = ["match"]


def _seat_seed(text: str) -> bytes | None:
    if text in ("", "-"):
        return None
    data = text.encode("utf-8")
    if len(data) > MAX_SEAT_SEED:
        raise click.BadParameter(f"a seat seed is at most {MAX_SEAT_SEED} bytes", param_hint="--seat-seed")
    return data


def _interrupted(e: MatchInterrupted, seed: str) -> str:
    """The one line Ctrl-C leaves: how far the match got, and how to go on (the seed too:
    without --seed it was drawn at random)."""
    if e.results is None:
        return (f"interrupted after {e.done} of {e.total} games; they are not kept: give --results FILE to "
                "continue a match later with --resume FILE")
    return (f"interrupted after {e.done} of {e.total} games; continue with --resume {shlex.quote(str(e.results))} "
            f"--seed {shlex.quote(seed)} and the same other options")


def _listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise click.BadParameter(f"HOST:PORT, e.g. 0.0.0.0:7777 (port 0: any free port), not {text!r}",
                                 param_hint="--listen")
    return host, int(port)


SECONDS = click.FloatRange(0.001, 3600.0)


@click.command()
@click.option("--game", type=click.Choice(GAME_IDS), default=TABLE_DEFAULTS["game"], show_default=True)
@click.option("--players", type=click.IntRange(1), default=None, help="Seats at each table [default: the game's].")
@click.option("--games", type=click.IntRange(0), default=10, show_default=True,
              help="Games in all (with --rotate or more entrants than seats: a multiple of one round).")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE",
              help="A game option, e.g. --opt teams=2x2 --opt deck=52 (`pidor games` lists each game's).")
@click.option("--deck", type=click.IntRange(1), default=None, help="Deck size (--opt deck=N) [default: the game's].")
@click.option("--hard", is_flag=True, default=None, help="The same as --opt hard=true (durak, D12).")
@click.option("--variant", default=None, metavar="LEAD", help="The same as --opt lead=LEAD (simple durak, V2-V4).")
@click.option("--teams", default=None, metavar="TEAMS", help="The same as --opt teams=TEAMS (durak team play, V6).")
@click.option("--seed", default=None, help="Seed text; the same seed and entrants give the same schedule and deals.")
@click.option("--seat", "specs", multiple=True, metavar="SPEC",
              help="An entrant for the next seat: builtin:random[:cheat=P,attention=P,false_call=P,acquit=P], "
                   "py:MODULE:CLASS[:k=v,...] (your pidor.bots.Policy subclass, in-process), "
                   "stdio:COMMAND LINE (a program that answers JSON lines on stdin and stdout: protocol/STDIO.md), "
                   "cmd:COMMAND LINE (an external program; placeholders {host} {port} {table} {seat} {token}) "
                   "or tcp:TOKEN (a running bot that connects with this token).")
@click.option("--entrant", "named", multiple=True, metavar="NAME=SPEC",
              help="A named entrant (SPEC as for --seat); more entrants than seats play a round robin.")
@click.option("--seat-seed", "seat_seeds", multiple=True, metavar="TEXT",
              help="A seat's contribution to every deal (one per seat in order; '-' for none).")
@click.option("--rotate", is_flag=True,
              help="Play every deal once per rotation of the seats (duplicate deals: same cards, every seat).")
@click.option("--keep-policies", is_flag=True,
              help="Each built-in or py: entrant's policy plays all its games of the match, so it may learn "
                   "between them (the heuristic learns who calls). The games then depend on their order: the same "
                   "seed gives the same results at --concurrency 1 only (with more, each worker keeps its own).")
@click.option("--concurrency", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Games at once: worker processes (in-process entrants) or tables on the local server.")
@click.option("--ray", metavar="ADDRESS", default=None,
              help="Play on a Ray cluster (ADDRESS or 'auto'; pip install 'pidor[ray]'): in-process games in "
              "Ray workers; with cmd: entrants, --concurrency tasks, each a server with its programs on the node "
              "that runs it (the command must work on every node).")
@click.option("--move-time", type=SECONDS, default=None, metavar="SECONDS",
              help="External bots: seconds for each action; a bot that takes longer forfeits the game.")
@click.option("--game-time", type=SECONDS, default=None, metavar="SECONDS",
              help="External bots: seconds for all of a game's actions; beyond, the bot forfeits the game.")
@click.option("--results", type=click.Path(dir_okay=False), default=None,
              help="Write one JSON line per game here (a new file).")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Continue the interrupted match whose --results file this is (same options).")
@click.option("--logs", type=click.Path(file_okay=False), default=None, help="Write one log per game here.")
@click.option("--stderr", "stderr_dir", type=click.Path(file_okay=False), default=None,
              help="External bots' stderr, one file per entrant [default: the --logs directory, "
                   "else ./pidor-match-stderr].")
@click.option("--listen", default="127.0.0.1:0", show_default=True, metavar="HOST:PORT",
              help="Where the local server for external bots listens (tcp: bots on other machines: 0.0.0.0:PORT).")
@click.option("--sprt", default=None, metavar="elo0=X,elo1=Y[,alpha=A,beta=B]",
              help="Stop early once a sequential probability ratio test of the first entrant against the second "
                   "decides (fastchess's logistic GSPRT on the loss rates; alpha and beta default to 0.05).")
@click.option("--max-forfeits", type=click.IntRange(0), default=MAX_FORFEITS, show_default=True, metavar="N",
              help="Stop (exit 3) when an entrant forfeits its first N games in a row: a bot that cannot start "
                   "or play is no player to rate (0: never stop).")
@click.option("--rank-by", type=click.Choice(sorted(RANKINGS)), default="loss", show_default=True,
              help="How the summary ranks the entrants: loss rate (a game's one result is its loser), openskill "
                   "rating of the finishing order, or mean place.")
@click.option("--report-every", type=click.IntRange(0), default=None, metavar="N",
              help="Every N games, a line on stderr: games done, pace, ETA, standings so far, the SPRT's LLR, "
                   "forfeits [default: about every tenth of the match; 0: never].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def match(game, players, games, opts, deck, hard, variant, teams, seed, specs, named, seat_seeds, rotate, keep_policies,
          concurrency, ray, move_time, game_time, results, resume, logs, stderr_dir, listen, sprt, max_forfeits, rank_by,
          report_every, as_json) -> None:
    """Run scripted bot-vs-bot matches: built-in bots in-process, external programs on a
    local server. Every game is played at a fresh table; the summary is the same for any
    --concurrency (unless --keep-policies).

    \b
    A stdio: bot (protocol/STDIO.md) reads one JSON line per decision on stdin and answers
    one line on stdout; it plays in this process (through pidor bridge at the local server
    when a cmd: or tcp: entrant plays too). While the match runs, a line on stderr every
    --report-every games: the pace, the ETA, the standings so far, the SPRT, the forfeits.

    \b
    A cmd: program gets PIDOR_HOST, PIDOR_PORT, PIDOR_TABLE, PIDOR_SEAT and PIDOR_TOKEN in
    its environment (and as {placeholders}); it is seated before it starts: its hello with
    the token puts it at its seat. Pass the token by the environment: arguments are
    visible to every user in ps. Programs run as you, in process groups of their own;
    each entrant's stderr goes to ENTRANT.stderr (at most about 1.3 MB: its head and tail).

    \b
    Exit status: 0 done; 1 failed; 2 usage error; 3 an entrant forfeited its first
    --max-forfeits games (its stderr's last line is shown); 130 interrupted (Ctrl-C: the
    games done are in --results: the line says how to continue)."""
    if seed is None:
        seed = os.urandom(8).hex()
    aliases = [f"{k}={v}" for k, v in (("deck", deck), ("hard", hard and "true"), ("lead", variant), ("teams", teams))
               if v is not None]
    try:
        options = parse_options(game, [*aliases, *opts])
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--opt") from None
    entrants = []
    for text in named:
        try:
            entrants.append(named_entrant(text))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--entrant") from None
    for spec in specs:
        try:
            parse_entrant(spec)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--seat") from None
    if resume is not None and results is not None and os.path.abspath(results) != os.path.abspath(resume):
        raise click.UsageError("--resume FILE continues FILE: give no other --results")
    seeds = [_seat_seed(t) for t in seat_seeds]
    test = None
    if sprt is not None:
        try:
            test = parse_sprt(sprt)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--sprt") from None
    where = _listen(listen)
    progress = Progress(f"{game} ×{players or game_class(game).DEFAULTS['players']}",
                        default_every(games) if report_every is None else report_every, sys.stderr,
                        sys.stderr.isatty())
    started = time.perf_counter()
    try:
        result = run_match(game, players, games, options=options,
                           seed=seed,
                           specs=list(specs), entrants=entrants, seat_seeds=seeds, logs=logs, rotate=rotate,
                           concurrency=concurrency, ray=ray, results=resume or results, resume=resume is not None,
                           clock=TimeControl(move_time, game_time),
                           stderr_dir=stderr_dir or logs or "pidor-match-stderr", listen=where, sprt=test,
                           max_forfeits=max_forfeits, rank_by=rank_by, progress=progress,
                           keep_policies=keep_policies)
    except MatchInterrupted as e:
        progress.close()
        click.echo(_interrupted(e, seed), err=True)
        sys.exit(130)
    except MatchError as e:
        raise click.UsageError(str(e)) from None
    except EntrantFailing as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(3)
    except (MatchFailed, LogWriteError, RayUnavailable) as e:
        raise click.ClickException(str(e)) from None
    except GameTooLong as e:
        raise click.ClickException(f"a game did not end (seed {seed!r}): {e}") from None
    except OSError as e:  # a directory or file of the match's own (issue 10 §5: no traceback)
        raise click.ClickException(f"cannot write {e.filename or logs or results}: {e.strerror or e}; "
                                   "give --logs and --results a place you may write") from None
    finally:
        progress.close()
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        click.echo(summary_text(result.summary, result.logs, seconds))
