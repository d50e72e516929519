"""How a bot program is launched for a seat: by ``pidor match`` (a ``cmd:`` entrant) and by
``pidor conform`` alike, so that a bot that plays matches passes the kit and the other way
round.

* The command line is split as a shell would (without a shell); ``{host}`` ``{port}``
  ``{table}`` ``{seat}`` ``{token}`` in its words are replaced (``{{`` and ``}}`` for
  braces), and the same values are in its environment as ``PIDOR_HOST``, ``PIDOR_PORT``,
  ``PIDOR_TABLE``, ``PIDOR_SEAT`` and ``PIDOR_TOKEN``. The player is seated before the
  program starts: its ``hello`` with the token puts it at its seat (``welcome.table``).
* It runs in a session (and process group) of its own: a Ctrl-C at the terminal does not
  reach it. :meth:`Program.end` ends it with whatever it started, and when it exits by
  itself what it left in its group is ended too, before it is reaped (while the group's
  id cannot be another's). A child that starts a session of its own escapes the group.
* stdin and stdout are ``/dev/null``; stderr goes through a pipe to a :class:`Stderr`,
  which keeps at most :data:`STDERR_HEAD` bytes from the start and :data:`STDERR_TAIL`
  from the end in its file (a line says how much was cut between), and the last lines in
  memory, to show.

Every program runs as the user who runs the match: entrants can read each other's
environment (``/proc/PID/environ``), tokens included. Run bots you do not trust as other
users or in containers.
"""

from __future__ import annotations

import collections
import os
import re
import signal
import string
import subprocess
import threading
from pathlib import Path

import trio

from ..engine.game import shown

__all__ = ["PLACEHOLDERS", "check_command", "fill_command", "literal", "bot_environment", "launch", "Program", "Stderr",
           "STDERR_HEAD", "STDERR_TAIL", "telling_lines", "telling_line", "DEFAULT_MOVE_TIME"]

#: Seconds for each action of a bot program (``stdio:``, ``cmd:``, ``tcp:``) when
#: ``--move-time`` is not given.
DEFAULT_MOVE_TIME = 5.0

#: The fields a command line may name, and the environment gives as ``PIDOR_<FIELD>``.
PLACEHOLDERS = ("host", "port", "table", "seat", "token")
#: Bytes of a stderr file written as they come; beyond, only the last STDERR_TAIL are kept.
STDERR_HEAD = 1 << 20
STDERR_TAIL = 256 << 10
#: Lines of a bot's stderr kept in memory (the last ones), and the longest shown.
KEPT_LINES = 40
LINE_MAX = 300
#: A line left unfinished is written once it is this long.
PARTIAL_MAX = 64 << 10

# Lines that tell nothing of why a program failed: blank ones, stack frames of JavaScript
# ("    at f (file:1:2)"), lines of punctuation ("}", "^"), Node's version line.
_NOISE = re.compile(r"\s+at\s|[\s^{}()\[\]~]*$|Node\.js v\d")
# A line that names an error ("KeyError: 'x'", "Error [ERR_MODULE_NOT_FOUND]: …", "error: …").
_ERROR = re.compile(r".*(\b\w*(Error|Exception)\b|\berror\b|\bpanic)")
#: The last telling lines among which one that names an error is preferred.
ERROR_LINES = 6


def check_command(argv: tuple[str, ...]) -> None:
    """``ValueError`` (one line) for braces or placeholders that :func:`fill_command`
    would not fill."""
    for arg in argv:
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(arg) if f is not None]
        except ValueError as e:
            raise ValueError(f"bad braces in {shown(arg)} ({e}); write {{{{ and }}}} for braces") from None
        unknown = [f for f in fields if f not in PLACEHOLDERS]
        if unknown:
            raise ValueError(f"unknown placeholder {{{unknown[0]}}} in {shown(arg)}; known: "
                             + " ".join(f"{{{p}}}" for p in PLACEHOLDERS))


def fill_command(argv: tuple[str, ...] | list[str], values: dict) -> list[str]:
    """The command line with its placeholders filled in."""
    return [arg.format(**values) for arg in argv]


def literal(arg: str) -> str:
    """``arg`` as :func:`fill_command` leaves it (its braces doubled)."""
    return arg.replace("{", "{{").replace("}", "}}")


def bot_environment(values: dict) -> dict[str, str]:
    """This process's environment and ``PIDOR_HOST`` … ``PIDOR_TOKEN``."""
    return {**os.environ, **{f"PIDOR_{key.upper()}": str(values[key]) for key in PLACEHOLDERS}}


async def launch(nursery: trio.Nursery, argv: tuple[str, ...] | list[str], values: dict,
                 stderr: Stderr | None) -> Program:
    """Start the program for a seat (``values``: host, port, table, seat, token); its stderr
    is pumped into ``stderr`` (``None``: thrown away) and its exit watched by tasks in
    ``nursery``. Raises ``OSError`` when it cannot be started."""
    process = await trio.lowlevel.open_process(
        fill_command(argv, values), env=bot_environment(values), stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if stderr is None else subprocess.PIPE,
        start_new_session=True)
    if stderr is not None:
        stderr.follow(nursery, process.stderr)
    program = Program(process)
    nursery.start_soon(program.watch)
    return program


def _end_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):  # the group is gone
        pass


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # (not Linux 5.3+)
        return None


class Program:
    """A launched program, the leader of its process group. ``exited`` is set once it has
    exited, what it left in its group has been ended and it has been reaped."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self.pid = process.pid
        self.exited = trio.Event()

    @property
    def running(self) -> bool:
        return not self.exited.is_set()

    def end(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to its process group (it and what it started), unless it is gone."""
        if self.running:
            _end_group(self.pid, sig)

    async def watch(self) -> None:
        """Until it exits (cancelled or not: :meth:`end` makes it exit), then end what it
        left in its group: while it is not reaped its pid names the group, and no other."""
        with trio.CancelScope(shield=True):
            fd = _pidfd(self.pid)
            if fd is not None:
                try:
                    await trio.lowlevel.wait_readable(fd)
                finally:
                    os.close(fd)
                _end_group(self.pid, signal.SIGKILL)
            await self.process.wait()
            if fd is None:
                _end_group(self.pid, signal.SIGKILL)  # (just after: a small window for a new group to take its id)
        self.exited.set()


def telling_lines(lines, n: int) -> list[str]:
    """The last ``n`` of ``lines`` that may tell why a program failed (no stack frames,
    blank or punctuation lines, Node's version line), each cut to LINE_MAX characters."""
    telling = [line for line in lines if not _NOISE.match(line)]
    return [line if len(line) <= LINE_MAX else line[:LINE_MAX - 1] + "…" for line in telling[-n:]]


def telling_line(lines) -> str | None:
    """The one line that best tells why a program failed: of the last ERROR_LINES
    telling lines, the last that names an error, else the last (``None``: none)."""
    last = telling_lines(lines, ERROR_LINES)
    return next((line for line in reversed(last) if _ERROR.match(line)), last[-1] if last else None)


class Stderr:
    """The stderr of one bot's programs: into ``path`` (appended; ``None``: no file), the
    first :data:`STDERR_HEAD` bytes as they come, then only the last :data:`STDERR_TAIL`,
    written with a line that says how much was cut when it is closed; the last lines in
    ``lines``. Several programs may write at once, from several threads too (a ``stdio:``
    bot's pipe is read by a thread): each one's lines go in whole."""

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.file = None
        self.head = STDERR_HEAD  # bytes still written as they come
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(self.path, "ab", buffering=0)  # noqa: SIM115 - closed by close()
            self.head = max(0, STDERR_HEAD - self.file.tell())
        self.tail = bytearray()  # beyond the head: the last STDERR_TAIL bytes
        self.cut = 0  # bytes dropped between the head and the tail
        self.lines: collections.deque[str] = collections.deque(maxlen=KEPT_LINES)
        self.pumping = 0  # pipes being read
        self.drained = trio.Event()  # set whenever no pipe is being read
        self.drained.set()
        self._lock = threading.Lock()

    def last(self) -> str | None:
        """The line that best tells why its program failed (:func:`telling_line`)."""
        return telling_line(self.lines)

    def follow(self, nursery: trio.Nursery, stream: trio.abc.ReceiveStream) -> None:
        """Read one program's stderr to its end (or until cancelled) in a task of ``nursery``."""
        self.pumping += 1
        if self.drained.is_set():
            self.drained = trio.Event()
        nursery.start_soon(self._pump, stream)

    async def _pump(self, stream: trio.abc.ReceiveStream) -> None:
        partial = b""
        try:
            async with stream:
                async for chunk in stream:
                    data = partial + chunk
                    end = data.rfind(b"\n") + 1
                    if not end and len(data) >= PARTIAL_MAX:
                        end = len(data)
                    partial = data[end:]
                    if end:
                        self.write(data[:end])
        finally:
            if partial:
                self.write(partial + b"\n")
            self.pumping -= 1
            if not self.pumping:
                self.drained.set()

    def write(self, data: bytes) -> None:
        with self._lock:
            self._write(data)

    def _write(self, data: bytes) -> None:
        for raw in data.rsplit(b"\n", KEPT_LINES + 1)[-KEPT_LINES - 1:]:
            if raw:
                self.lines.append(raw.decode("utf-8", "replace").rstrip())
        if self.file is None:
            return
        n = min(self.head, len(data))
        if n:
            self.file.write(data[:n])
            self.head -= n
        if len(data) > n:
            self.tail += data[n:]
            over = len(self.tail) - STDERR_TAIL
            if over > 0:
                del self.tail[:over]
                self.cut += over

    def close(self) -> None:
        """Write the kept tail (after a line that says what was cut) and close the file."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self.file is None:
            return
        if self.cut:
            self.file.write(f"\n[pidor: {self.cut} bytes of stderr cut here; the first {STDERR_HEAD} and the "
                            f"last {STDERR_TAIL} are kept]\n".encode())
        self.file.write(bytes(self.tail))
        self.file.close()
        self.file = None
        self.tail.clear()
