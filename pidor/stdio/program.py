"""A ``stdio:`` bot's process, seen from its host: lines in, lines out, each answer within
its time, blocking (the host is synchronous: the in-process driver, the SDK's loop).

* It runs in a session (and process group) of its own, as a ``cmd:`` program does
  (:mod:`pidor.match.launch`): a Ctrl-C at the terminal does not reach it; :meth:`end`
  ends it with whatever it started. On Linux the kernel kills it when the thread that
  started it dies (``PR_SET_PDEATHSIG``): a host that is killed (a ``pidor bridge`` that
  a match stops) leaves no bot behind.
* Its stderr goes through a pipe to a :class:`~pidor.match.launch.Stderr` (capped, its
  last lines kept), read by a thread of its own, or (none given) where the host's goes.
* Every write and read has a deadline. :class:`Failed` says how it failed, as a match's
  forfeit reason: ``absent`` (it could not be started), ``crash`` (it exited, or closed
  its stdin or stdout), ``timeout`` (no whole line in time, or it did not read its
  stdin), ``garbage`` (a line longer than :data:`~pidor.stdio.lines.MAX_ANSWER`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import signal
import subprocess
import sys
import threading
import time

from typing import TYPE_CHECKING

from .lines import MAX_ANSWER, QUIT, encode

if TYPE_CHECKING:
    from ..match.launch import Stderr

__all__ = ["Failed", "BotProgram", "QUIT_GRACE"]

#: Seconds a bot has to exit after ``quit`` before it is killed.
QUIT_GRACE = 2.0


def _parent_death_signal():
    """On Linux, a function for ``preexec_fn`` that has the kernel kill the child when the
    thread that started it dies (``PR_SET_PDEATHSIG``): a host killed with SIGKILL leaves no
    bot behind (looked up here, before any fork). ``None`` elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    set_pdeathsig, kill = 1, int(signal.SIGKILL)

    def die_with_parent() -> None:
        prctl(set_pdeathsig, kill, 0, 0, 0)

    return die_with_parent


_DIE_WITH_PARENT = _parent_death_signal()


class Failed(Exception):
    """The bot failed: ``reason`` (a forfeit reason) and a line that says what it did."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class BotProgram:
    """One running bot. ``argv``: its command line; ``stderr``: where its stderr goes
    (``None``: where the host's goes)."""

    def __init__(self, argv: list[str] | tuple[str, ...], stderr: Stderr | None = None) -> None:
        self.argv = list(argv)
        self.stderr = stderr
        self.process: subprocess.Popen | None = None
        self.ended = False
        self._exit_fd: int | None = None  # readable once it has exited (a pidfd; None: not Linux 5.3+)
        self._buffer = b""
        self._pump: threading.Thread | None = None
        self._lock = threading.Lock()  # end() and kill() (from another thread)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def start(self) -> None:
        """Launch it; :class:`Failed` (``absent``) when it cannot be started."""
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=None if self.stderr is None else subprocess.PIPE, start_new_session=True,
                preexec_fn=_DIE_WITH_PARENT)
        except OSError as e:
            raise Failed("absent", f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        os.set_blocking(self.process.stdin.fileno(), False)
        try:
            self._exit_fd = os.pidfd_open(self.process.pid)
        except (AttributeError, OSError):
            pass
        if self.stderr is not None:
            self._pump = threading.Thread(target=self._read_stderr, args=(self.process.stderr,), daemon=True)
            self._pump.start()

    def _read_stderr(self, pipe) -> None:
        partial = b""
        with pipe:
            for chunk in iter(lambda: pipe.read1(65536), b""):
                data = partial + chunk
                cut = data.rfind(b"\n") + 1
                partial = data[cut:]
                if cut:
                    self.stderr.write(data[:cut])
        if partial:
            self.stderr.write(partial + b"\n")

    def tell(self, msg: dict, deadline: float) -> None:
        """Write one line (by ``deadline``, a ``time.monotonic()``)."""
        data = memoryview(encode(msg))
        fd = self.process.stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                raise Failed("timeout", "it did not read its stdin in time")
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise Failed("crash", self._gone("closed its stdin")) from None
            data = data[n:]

    def ask(self, msg: dict, deadline: float) -> bytes:
        """Write one line, then read one line back (without its newline) by ``deadline``."""
        self.tell(msg, deadline)
        return self.read(deadline)

    def read(self, deadline: float) -> bytes:
        """One line (without its newline) by ``deadline``; a bot that exits is found at once,
        even if what it forked keeps its stdout open."""
        fd = self.process.stdout.fileno()
        watched = [fd] if self._exit_fd is None else [fd, self._exit_fd]
        while True:
            cut = self._buffer.find(b"\n")
            if cut >= 0:
                line, self._buffer = self._buffer[:cut], self._buffer[cut + 1:]
                return line
            if len(self._buffer) > MAX_ANSWER:
                raise Failed("garbage", f"it wrote a line of more than {MAX_ANSWER} bytes")
            left = deadline - time.monotonic()
            ready = select.select(watched, [], [], left)[0] if left > 0 else []
            if not ready:
                raise Failed("timeout", "it gave no answer in time")
            if fd not in ready:  # (it exited; nothing more to read now)
                raise Failed("crash", self._gone("exited"))
            chunk = os.read(fd, 65536)
            if not chunk:
                raise Failed("crash", self._gone("closed its stdout"))
            self._buffer += chunk

    def _exited(self, deadline: float):
        """Its exit (``os.waitid``'s result) once it has exited, waiting until ``deadline``
        at most; ``None`` if it is still running. It is not reaped here: until :meth:`end`,
        its id names its process group and no other."""
        while True:
            try:
                exited = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
            except ChildProcessError:
                return None
            if exited is not None or time.monotonic() >= deadline:
                return exited
            time.sleep(0.005)

    def _gone(self, what: str) -> str:
        """Why its pipe ended: its exit status if it exits within a moment."""
        exited = self._exited(time.monotonic() + 0.2)
        if exited is None:
            return f"it {what}"
        if exited.si_code == os.CLD_EXITED:
            return f"it exited with status {exited.si_status}"
        return f"it was killed by signal {exited.si_status}"

    def kill(self) -> None:
        """SIGKILL to its process group now, from any thread (a read waiting on it ends)."""
        with self._lock:
            if self.process is not None and not self.ended:
                self._killpg()

    def _killpg(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # (its group: what it left too, while it is not reaped)
        except (ProcessLookupError, PermissionError):
            pass

    def quit(self, deadline: float) -> None:
        """Say ``quit`` (if it can be said by ``deadline``); :meth:`end` then waits for it."""
        if self.process is not None and not self.ended:
            try:
                self.tell(QUIT, deadline)
            except Failed:
                pass

    def end(self, deadline: float | None = None) -> None:
        """Stop it (once): it may exit by itself until ``deadline`` (after :meth:`quit`),
        then SIGKILL to its process group; reap it and close its pipes."""
        p = self.process
        if p is None or self.ended:
            return
        if deadline is not None:
            self._exited(deadline)
        with self._lock:
            self._killpg()
            p.wait()
            self.ended = True
        if self._exit_fd is not None:
            os.close(self._exit_fd)
        for pipe in (p.stdin, p.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        if self._pump is not None:
            self._pump.join(1.0)
