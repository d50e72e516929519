"""The loop of ``pidor play``: socket messages, typed lines and single keys through one
queue, so that everything that touches the session runs in one thread, one item at a time.

On a terminal (stdin and stdout both ttys) keys are read one by one (cbreak mode, no echo:
the line being typed is drawn here), so that one key on an empty line answers a call
window or a court (``Session.key``), and the bottom line shows the open window's
countdown. Elsewhere (a pipe, a script, a screen reader's line mode) whole lines are read
and every prompt is printed once, as a line.
"""

from __future__ import annotations

import codecs
import os
import queue
import sys
import threading
from contextlib import contextmanager

from ..client import FINAL_ERRORS, Client, ConnectionClosed, PidorError
from .session import Session

__all__ = ["Screen", "run_session", "wants_keys"]

#: how often the bottom line's countdown is redrawn (seconds)
TICK = 0.1
_CLEAR = "\r\x1b[K"
_ERASE = ("\x7f", "\b")


def wants_keys(stdin, stdout) -> bool:
    try:
        return stdin.isatty() and stdout.isatty()
    except (AttributeError, ValueError):
        return False


class Screen:
    """Lines above, and in key mode one bottom line: the prompt owed, or the line being typed."""

    def __init__(self, stdout, keys: bool) -> None:
        self.stdout, self.keys = stdout, keys
        self.typed = ""
        self.bottom = ""

    def line(self, text: str) -> None:
        if self.keys:
            self.stdout.write(_CLEAR + text.replace("\n", "\r\n") + "\r\n" + self.bottom)
        else:
            self.stdout.write(text + "\n")
        self.stdout.flush()

    def draw(self, prompt: str | None) -> None:
        if not self.keys:
            return
        bottom = (prompt + ("  > " + self.typed if self.typed else "")) if prompt else "> " + self.typed
        if bottom != self.bottom:
            self.bottom = bottom
            self.stdout.write(_CLEAR + bottom)
            self.stdout.flush()

    def close(self) -> None:
        if self.keys and self.bottom:
            self.stdout.write(_CLEAR)
            self.stdout.flush()


@contextmanager
def _cbreak(fd: int):
    """Keys one by one, not echoed (the screen draws the typed line); Ctrl-C still works."""
    import termios

    old = termios.tcgetattr(fd)
    new = termios.tcgetattr(fd)
    new[3] &= ~(termios.ICANON | termios.ECHO)
    new[6][termios.VMIN], new[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSANOW, new)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def run_session(client: Client, session: Session, stdin=None, stdout=None, *, reconnect: bool = True) -> None:
    """Run until the session ends (``quit``, end of input, a closed table, a lost server)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    keys = session.keys
    screen = Screen(stdout, keys)
    session.out = screen.line
    inbox: queue.Queue = queue.Queue()

    def read_socket() -> None:
        try:
            while True:
                inbox.put(("msg", client.read()))
        except (PidorError, OSError) as e:
            inbox.put(("closed", e))

    def read_lines() -> None:
        for text in iter(stdin.readline, ""):
            inbox.put(("line", text))
        inbox.put(("eof", None))

    def read_keys() -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        fd = stdin.fileno()
        while True:
            try:
                data = os.read(fd, 64)
            except OSError:
                data = b""
            if not data:
                break
            for ch in decoder.decode(data):
                inbox.put(("key", ch))
        inbox.put(("eof", None))

    def key(ch: str) -> None:
        if ch == "\x04" and not screen.typed:  # Ctrl-D on an empty line
            session.line("quit")
        elif not screen.typed and session.key(ch):
            pass
        elif ch in "\r\n":
            typed, screen.typed = screen.typed, ""
            screen.draw(session.prompt_line())
            screen.line("> " + typed if typed else "")
            session.line(typed)
        elif ch in _ERASE:
            screen.typed = screen.typed[:-1]
        elif ch.isprintable():
            screen.typed += ch

    threading.Thread(target=read_socket, daemon=True, name="pidor-play-socket").start()
    threading.Thread(target=read_keys if keys else read_lines, daemon=True, name="pidor-play-input").start()
    with _cbreak(stdin.fileno()) if keys else _nothing():
        try:
            while not session.done:
                try:
                    kind, item = inbox.get(timeout=TICK if session.ticking else None)
                except queue.Empty:
                    kind, item = "tick", None
                if kind == "msg":
                    msg = client.handle(item)
                    if msg is not None:
                        session.message(msg)
                elif kind == "line":
                    session.line(item)
                elif kind == "key":
                    key(item)
                elif kind == "eof":
                    session.line("quit")
                elif kind == "closed":
                    session.say("lost", why=item)
                    error = getattr(item, "error", None)
                    if not reconnect or not isinstance(item, ConnectionClosed) or (error and error.code in FINAL_ERRORS):
                        break
                    try:
                        client.reconnect(attempts=3)
                    except (PidorError, OSError):
                        break
                    session.say("reconnected")
                    threading.Thread(target=read_socket, daemon=True, name="pidor-play-socket").start()
                if not session.done:
                    screen.draw(session.prompt_line())
        except KeyboardInterrupt:
            session.line("quit")
        finally:
            screen.close()
            client.close()


@contextmanager
def _nothing():
    yield
