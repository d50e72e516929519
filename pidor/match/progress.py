"""What a running match says on stderr (``pidor match``): every ``--report-every`` games an
**interim line** (games done, the pace, the ETA, the standings so far as ranked, the SPRT's
log-likelihood ratio, the forfeits so far), and on a terminal a progress bar under them.
Elsewhere (a pipe, a log file) the interim lines only.

The pace and the ETA are the games finished in this run over the time since it began:
games come back in bursts (a worker hands back several at once; with ``--concurrency`` many
end together), and an average over the whole run takes a burst for what it is, where one
over the last few games (click's bar's) takes it for a sudden speed.
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

from .runner import Interim

__all__ = ["Progress", "default_every", "eta_text"]

#: The bar is drawn again at most this often (seconds).
REDRAW = 0.1
BAR = 24
#: Each ranking's column in an interim line, and its name there.
_SHOWN = {"loss": ("loss_rate", "by loss rate"), "rating": ("rating", "by rating"),
          "place": ("mean_place", "by mean place")}


def default_every(games: int) -> int:
    """About every tenth of the match (every game for fewer than 20)."""
    return max(1, round(games / 10))


def eta_text(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """``progress`` for :func:`~pidor.match.runner.run_match`: ``every`` games (0: never)
    an interim line to ``stream``; with ``tty`` a bar too. ``clock``: seconds (monotonic)."""

    def __init__(self, label: str, every: int, stream: TextIO, tty: bool,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.every, self.stream, self.tty, self.clock = label, every, stream, tty, clock
        self.began = clock()
        self.drawn: float | None = None  # when the bar was last drawn

    def pace(self, interim: Interim) -> tuple[float | None, float | None]:
        """Games per second in this run, and the seconds left (``None``: not known yet)."""
        played = interim.done - interim.resumed
        elapsed = self.clock() - self.began
        if played <= 0 or elapsed <= 0:
            return None, None
        rate = played / elapsed
        return rate, (interim.total - interim.done) / rate

    def __call__(self, interim: Interim) -> None:
        if self.every and (interim.done % self.every == 0 or interim.done == interim.total):
            self._put(self.line(interim))
        if self.tty and (self.drawn is None or self.clock() - self.drawn >= REDRAW or interim.done == interim.total):
            self.drawn = self.clock()
            self.stream.write("\r" + self.bar(interim) + "\x1b[K")
            self.stream.flush()

    def _put(self, line: str) -> None:
        self.stream.write(("\r\x1b[K" if self.tty and self.drawn is not None else "") + line + "\n")
        self.stream.flush()
        self.drawn = None

    def close(self) -> None:
        if self.tty and self.drawn is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def head(self, interim: Interim) -> str:
        rate, left = self.pace(interim)
        share = 100 * interim.done // interim.total if interim.total else 100
        return (f"{interim.done}/{interim.total} games ({share}%), "
                f"{'?' if rate is None else f'{rate:.1f}'} games/s, ETA {eta_text(left)}")

    def bar(self, interim: Interim) -> str:
        filled = BAR * interim.done // interim.total if interim.total else BAR
        return f"{self.label} [{'#' * filled}{' ' * (BAR - filled)}] {self.head(interim)}"

    def line(self, interim: Interim) -> str:
        """``[40/400 games (10%), 12.3 games/s, ETA 0:29] by loss rate: a 0.225 (9 of 40), …;
        SPRT a vs b: LLR 0.42 in (-2.94, 2.94); forfeits: a crash 1``"""
        s = interim.summary()
        key, rank = _SHOWN[s["rank_by"]]
        rows = ", ".join(f"{e['name']} {e[key]:.3f}" + (f" ({e['losses']} of {e['games']})" if key == "loss_rate"
                                                        else "") for e in s["entrants"])
        parts = [f"[{self.head(interim)}] {rank}: {rows}"]
        t = interim.sprt
        if t is not None:
            parts.append(f"SPRT {s['pair']['a']} vs {s['pair']['b']}: LLR {t['llr']:.2f} in ({t['lower']:.2f}, "
                         f"{t['upper']:.2f})" if "pair" in s else f"SPRT: LLR {t['llr']:.2f}")
        forfeits = [f"{e['name']} " + " ".join(f"{why} {n}" for why, n in e["forfeit_reasons"].items())
                    for e in s["entrants"] if e["forfeits"]]
        parts.append("forfeits: " + (", ".join(forfeits) if forfeits else "none"))
        return "; ".join(parts)
