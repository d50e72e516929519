"""Where in-process games are played: here, in local worker processes, or on a Ray cluster.

``multiprocessing.Pool`` and ``ray.util.multiprocessing.Pool`` have the same interface:
each worker gets the match's :class:`~pidor.match.play.Setup` once (the initializer), then
plays the games it is handed (:func:`pidor.match.play.play`). Records come back in the
order of the games given, whatever the number of workers, so the summary is the same.
"""

from __future__ import annotations

import multiprocessing
import signal
from typing import Iterable, Iterator

from .play import Setup, play
from .schedule import Game

__all__ = ["play_all", "ray_connected", "RayUnavailable"]

_setup: Setup | None = None  # a worker's setup


class RayUnavailable(RuntimeError):
    """``--ray`` was asked for and Ray is not installed (``pip install 'pidor[ray]'``), or
    its cluster cannot be reached."""


def _init(setup: Setup) -> None:
    global _setup
    _setup = setup


def _init_local(setup: Setup) -> None:
    """A local worker: Ctrl-C at the terminal reaches it too; the parent ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init(setup)


def _play(game: Game) -> dict:
    return play(_setup, game)


def _chunk(games: int, workers: int) -> int:
    """Games handed to a worker at once: few enough that every worker gets some to the
    end, enough to keep the messages few (a game takes a few milliseconds)."""
    return max(1, min(16, games // (workers * 8)))


def ray_connected(address: str):
    """The ``ray`` module, connected to the cluster at ``address`` (``auto``: as ``ray.init()``
    finds one, else a local one), unless this process is connected already."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'pidor[ray]'") from None
    if not ray.is_initialized():
        try:
            ray.init(address=None if address == "auto" else address)
        except Exception as e:  # (ConnectionError is an OSError: the match would blame its files)
            raise RayUnavailable(f"--ray {address}: {e}") from None
    return ray


def _ray_pool(workers: int, address: str, setup: Setup):
    ray_connected(address)
    from ray.util.multiprocessing import Pool

    return Pool(processes=workers, initializer=_init, initargs=(setup,))


def play_all(setup: Setup, games: Iterable[Game], workers: int = 1, ray: str | None = None) -> Iterator[dict]:
    """The records of ``games``, in their order: played here (one worker, no Ray), by
    ``workers`` local processes, or by ``workers`` Ray actors (``ray``: a cluster address,
    or ``auto``)."""
    games = list(games)
    if workers <= 1 and ray is None:
        for game in games:
            yield play(setup, game)
        return
    if ray is not None:
        pool = _ray_pool(workers, ray, setup)
    else:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_init_local, initargs=(setup,))
    try:
        yield from pool.imap(_play, games, chunksize=_chunk(len(games), workers))
    finally:
        pool.terminate()
