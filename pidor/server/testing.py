"""A small protocol client over a trio stream, for tests, benchmarks and recordings.

It keeps every frame it receives (``frames``: raw bytes, ``messages``: decoded), so a
test can inspect exactly what crossed the wire. ``transcript`` (when set to a list)
records both directions as ``(direction, frame bytes)``. A game request sent without
``seq`` gets the latest ``seq`` received (PROTOCOL.md §5: what the client had seen); a
test of stale requests gives its own.
"""

from __future__ import annotations

import itertools
import math

import trio

from .. import wire
from ..client import GAME_REQUESTS

__all__ = ["Client", "connect", "latest_seq", "with_seq"]

#: Messages whose ``seq`` a client has seen (PROTOCOL.md §5 "Acting on what you saw").
SEQ_MESSAGES = frozenset({"event", "turn", "snapshot", "hint"})


def latest_seq(seq: int, msg: dict) -> int:
    """The latest seq seen, once ``msg`` has arrived."""
    if msg.get("type") in SEQ_MESSAGES and type(msg.get("seq")) is int:
        return max(seq, msg["seq"])
    return seq


def with_seq(msg: dict, seq: int) -> dict:
    """A game request that names no ``seq`` names ``seq`` (a fuzzed type goes as it is)."""
    kind = msg.get("type")
    if isinstance(kind, str) and kind in GAME_REQUESTS and "seq" not in msg:
        return {**msg, "seq": seq}
    return msg


class Client:
    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.decoder = wire.Decoder()
        self.messages: list[dict] = []  # everything received, in order
        self.frames: list[bytes] = []  # the raw frames of ``messages``
        self.transcript: list[tuple[str, bytes]] | None = None
        self._ids = itertools.count(1)
        self._read = 0  # index into messages: what ``receive`` has returned or skipped
        self._taken: set[int] = set()  # replies returned by ``request`` ahead of ``_read``
        self.eof = False
        self.seq = 0  # the latest seq received (events, turns, snapshots)

    async def send(self, message: dict) -> None:
        frame = wire.encode(with_seq(message, self.seq))
        if self.transcript is not None:
            self.transcript.append(("c2s", frame))
        await self.stream.send_all(frame)

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def request(self, message: dict) -> dict:
        """Send with a fresh ``id``; return the reply carrying it (``ok``, ``error``, ...).
        Other messages that arrive meanwhile stay unread for :meth:`receive`."""
        rid = next(self._ids)
        await self.send({**message, "id": rid})
        start = self._read
        while True:
            for i in range(start, len(self.messages)):
                msg = self.messages[i]
                if msg.get("id") == rid and i not in self._taken:
                    self._taken.add(i)
                    return msg
            start = len(self.messages)
            if self.eof or not await self._fill():
                raise EOFError("the server closed the connection")

    async def _fill(self) -> bool:
        data = await self.stream.receive_some(65536)
        if not data:
            self.eof = True
            return False
        self.decoder.receive_data(data)
        while True:
            body = self.decoder.next_frame()
            if body is None:
                return True
            frame = len(body).to_bytes(4, "big") + body
            self.frames.append(frame)
            msg = wire.decode_frame(body)
            self.messages.append(msg)
            self.seq = latest_seq(self.seq, msg)
            if self.transcript is not None:
                self.transcript.append(("s2c", frame))

    async def receive(self, pred=None, timeout: float = math.inf) -> dict:
        """The next received message (with ``pred``: the next matching one; the messages
        before it are skipped). Raises ``EOFError`` at the end of the stream."""
        with trio.fail_after(timeout):
            while True:
                while self._read < len(self.messages):
                    i = self._read
                    self._read += 1
                    if i in self._taken:
                        continue
                    msg = self.messages[i]
                    if pred is None or pred(msg):
                        return msg
                if self.eof or not await self._fill():
                    raise EOFError("the server closed the connection")

    async def hello(self, name: str, token: str | None = None, version: str = wire.PROTOCOL_VERSION) -> dict:
        msg = {"type": "hello", "version": version, "name": name}
        if token is not None:
            msg["token"] = token
        return await self.request(msg)

    async def aclose(self) -> None:
        await self.stream.aclose()


async def connect(port: int, host: str = "127.0.0.1") -> Client:
    return Client(await trio.open_tcp_stream(host, port))
