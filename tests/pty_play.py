"""``pidor play`` in a pseudo-terminal, driven like a person would: read the screen until
the expected prompt shows, then press keys. No sleeping: every wait is ``select`` on the
terminal, bounded by one generous overall timeout (a failure guard, not a pace).

:class:`Person` plays a whole game: the first option on every turn, one cheat, one call
(``!`` in a window), ``y`` in every court it is asked to vote in, and nothing else (no
``pass``: windows run out by themselves). It counts what it typed.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

__all__ = ["Terminal", "Person"]

ROOT = Path(__file__).resolve().parent.parent
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class Terminal:
    """A child ``pidor play`` on a pty; ``text`` is all it printed, cleaned of the
    line-redrawing escapes (each redraw becomes a line of its own)."""

    def __init__(self, args: list[str]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.execve(sys.executable, [sys.executable, "-m", "pidor.cli", "play", *args], env)
        self.raw = b""
        self._text = (0, "")
        self.pos = 0
        self.eof = False

    @property
    def text(self) -> str:
        """Every line printed, each redraw of the bottom line as a line of its own; an empty
        prompt (``> ``) only at the very end, where it says the screen is drawn and waits."""
        if self._text[0] != len(self.raw):
            self._text = (len(self.raw), self._clean())
        return self._text[1]

    def _clean(self) -> str:
        out = self.raw.decode("utf-8", "replace").replace("\r\x1b[K", "\n")
        out = _ANSI.sub("", out).replace("\r\n", "\n").replace("\r", "\n")
        lines = out.split("\n")
        kept = [line for line in lines[:-1] if line.strip() not in ("", ">")]
        return "\n".join(kept + lines[-1:])

    def read(self, wait: float) -> bool:
        """Read what is there within ``wait`` seconds; False at the end of output."""
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], wait)
        if ready:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.eof = True
                return False
            self.raw += data
        return True

    def expect(self, pattern: str, timeout: float = 20.0) -> re.Match:
        """The first match of ``pattern`` after the last one expected; waits for it."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > deadline or not self.read(0.2) and self.eof:
                raise AssertionError(f"no {pattern!r} on the screen; it shows:\n{self.text[-3000:]}")

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode("utf-8"))

    def close(self, timeout: float = 10.0) -> int:
        """Wait for the child to end (reading on, so it never blocks on a full pty)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self.read(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise AssertionError(f"pidor play did not end; it shows:\n{self.text[-2000:]}")


_TURN = re.compile(r"(?:your turn|ваш ход)[^\n]*:\n((?:  \d+\) [^\n]*\n)*)(?!  \d+\))(?=[^\n]*\n|> $)")
_WINDOW = re.compile(r"⚑ [^\n]*\[!\]")
_COURT = re.compile(r"⚖ (?:court|суд): ")
_VOTE = re.compile(r"⚖ (?:your vote|ваш голос): \[y\]")
_END = re.compile(r"── (?:results of game|итоги партии) ")
_HAND = re.compile(r"(?:your hand|ваша рука): ([^\n]*)\n")


class Person:
    """Plays the game on ``term`` to its end; ``typed`` lists every command sent."""

    def __init__(self, term: Terminal, *, call_after: int = 3, sets: bool = False,
                 short: dict[str, str] | None = None) -> None:
        self.term = term
        self.sets = sets  # the game has sets to discard, named by rank (махлёж: a set that is not one)
        self.short = short or {}  # the game's short commands (GameText.ALIASES: «c» for cover)
        self.typed: list[tuple[str, str]] = []  # (kind, keys): move, cheat, call, vote
        self.call_after = call_after  # call in the window after this many own moves
        self.courts = 0
        self.voted = 0

    def type(self, kind: str, keys: str) -> None:
        self.typed.append((kind, keys))
        self.term.send(keys)

    @property
    def windows(self) -> int:
        """The call windows the person was asked to answer (each prompt's first drawing)."""
        lines = self.term.text.split("\n")
        return sum(line.startswith("⚑ ") and "[!]" in line and not lines[i - 1].startswith("⚑ ")
                   for i, line in enumerate(lines))

    @staticmethod
    def called(text: str) -> bool:
        return bool(re.search(r"\n(?:you|вы): «пидор!»", text))

    def count(self, kind: str) -> int:
        return sum(k == kind for k, _ in self.typed)

    @property
    def keystrokes(self) -> int:
        """Every key pressed (Enter and the backspace after a late «!» included)."""
        return sum(len(keys) for _, keys in self.typed)

    def play(self, timeout: float = 120.0) -> str:
        term = self.term
        deadline = time.monotonic() + timeout
        pos = self.pos = 0
        in_window = False
        while time.monotonic() < deadline:
            text = term.text
            found = [(m.start(), name, m) for name, rx in
                     (("turn", _TURN), ("window", _WINDOW), ("court", _COURT), ("vote", _VOTE), ("end", _END))
                     if (m := rx.search(text, pos))]
            if not found:
                if not term.read(0.2) and term.eof:
                    break
                continue
            _, name, m = min(found, key=lambda f: f[0])
            pos = self.pos = m.end()
            if name == "end":
                return text
            if name == "turn":
                in_window = False
                self._turn(m.group(1), text[:m.start()])
            elif name == "window":
                if not in_window:
                    in_window = True
                    if not self.called(text) and self.count("move") >= self.call_after:
                        self.type("call", "!\x7f")  # the key; the backspace clears it if it came too late
            elif name == "court":
                in_window = False
                self.courts += 1
            elif name == "vote" and self.voted < self.courts:
                self.voted = self.courts
                self.type("vote", "y")
        raise AssertionError(f"the game did not end; the screen shows:\n{term.text[-3000:]}")

    def _turn(self, block: str, before: str) -> None:
        options = re.findall(r"  \d+\) ([^\n]*)\n", block)
        if self.count("cheat") == 0 and self.count("move") >= 1:
            cheat = self._cheat(options, before, self.sets, self.short) or self._other_place(options)
            if cheat:
                self.type("cheat", cheat + "\r")
                return
        if options:
            self.type("move", "1\r")

    @staticmethod
    def _cheat(options: list[str], before: str, sets: bool = False, short: dict[str, str] | None = None) -> str | None:
        """A dishonest action of the kind a hand does at a real table: «пидор»'s провтык
        (keep a drawn card that fits: P5b/P5c); where sets are discarded by rank, four cards of
        two ranks named as a set (B5f); in any game, the first option that plays a card, played
        with a card of the hand that no option offers (durak: cover with a card that does not
        beat, throw in a rank that is not on the table, D3, D4; «сто одно»: cover with a card of
        another suit and rank, H7c), by the game's short command where it has one (``c 6♣``);
        else :meth:`_other_place`."""
        kinds = {o.split()[0] for o in options}
        if kinds and kinds <= {"lay", "move"} and "lay" in kinds:
            return "keep"
        hands = _HAND.findall(before)
        if not hands:
            return None
        hand = hands[-1].split()
        if sets:
            ranks = {c[:-1] for c in hand}
            if len(hand) > 4 and len(ranks) > 1:
                first = hand[0][:-1]
                four = [hand[0]] + [c for c in hand if c[:-1] != first][:1] + [c for c in hand[1:] if c[:-1] == first][:2]
                four += [c for c in hand if c not in four][:4 - len(four)]
                return f"discard {first} {' '.join(four)}"
            return None
        named = {w for o in options for w in o.split()[1:2]}
        spare = [c for c in hand if c not in named]
        if not spare:
            return None
        cover = next((k for k, kind in (short or {}).items() if kind == "cover"), None)
        if cover and any(o.startswith("cover ") for o in options):
            return f"{cover} {spare[0]}"  # short, no target: the first uncovered card (issue 28 §3)
        for option in options:
            kind, *args = option.split(" — ")[0].split()
            if args and args[0] in hand:  # it plays a card of the hand
                return " ".join([kind, spare[0], *args[1:]])
        return None

    @staticmethod
    def _other_place(options: list[str]) -> str | None:
        """Any game: where every option is one kind of action that ends in a place (a
        number), the first option at the next place (a card taken from elsewhere than the
        honest place, say)."""
        words = [o.split(" — ")[0].split() for o in options]
        if not words or len({w[0] for w in words}) != 1 or not all(w[-1].isdigit() for w in words):
            return None
        return " ".join(words[0][:-1] + [str(int(words[0][-1]) + 1)])
