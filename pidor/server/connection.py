"""One client connection: a reader task and a writer task over a trio stream.

* The reader bounds every read (``RECV_SIZE``), feeds :class:`pidor.wire.Decoder`, and
  dispatches each message: ``hello`` and lobby requests at once, table requests to the
  table's task. A connection handles its requests one at a time: once it has handed one
  to a table, the reader dispatches nothing more (it may read on) until the table has
  answered it, so replies come in the order of the requests (PROTOCOL.md section 2). A
  protocol violation gets one ``error`` frame and the connection closes.
  The peer has ``HELLO_TIMEOUT`` seconds from connecting to say ``hello`` (however much
  else it sends meanwhile); after it, silence longer than ``IDLE_TIMEOUT`` closes the
  connection (clients ``ping``). A refusal with a ``hold`` (a ``rate_limited`` list)
  stops the dispatching for that long: asking again at once costs the server nothing.
* Frames go straight to the socket while nothing is queued and the kernel takes them
  (a non-blocking write; no task switch). Otherwise they wait in a queue bounded to
  ``QUEUE_BYTES`` that the writer task drains, each write within ``WRITE_TIMEOUT``. A
  full queue or a missed write deadline drops the client: a slow or dead reader never
  stalls a table (tables only hand over frames, they never wait for a connection).

A connection is the :class:`~pidor.server.seams.Peer` the lobby and the tables send to; it
hands what it reads to its :class:`~pidor.server.seams.Handler` (the lobby).
"""

from __future__ import annotations

import logging
import math
import os

import trio

from .. import wire
from .limits import Limits
from .requests import RequestError, request_id
from .seams import Handler

__all__ = ["Connection"]

log = logging.getLogger(__name__)


class Connection:
    def __init__(self, handler: Handler, limits: type[Limits] | Limits, stream: trio.abc.Stream, peer: str,
                 address: str) -> None:
        self.handler = handler
        self.limits = limits
        self.stream = stream
        self.peer = peer  # "address:port", for logs
        self.address = address  # what per-address limits count: the peer's IP (IPv6: its /64, limits.address_of)
        self.player: int | None = None
        self.name = ""
        self.may_call = True  # hello's may_call (False: its tables pass every call window for it)
        self.windows = True  # hello's windows (False: its tables send it no window/window_closed events)
        self.closed = False
        self._closing = False
        self.fatal_code: str | None = None  # the code of the fatal error that closed it, if any
        # Items are byte strings (whole frames, joined); ``queued`` bounds their total.
        self._out_send, self._out_recv = trio.open_memory_channel(math.inf)
        self.queued = 0
        self._scope: trio.CancelScope | None = None
        self._writer_done = trio.Event()
        self._unanswered = False  # a request of ours waits in a table's inbox
        self._answered: trio.Event | None = None  # the reader waits for that answer
        self._held_until: float | None = None  # a refusal holds the connection (RequestError.hold)
        # A TCP stream's descriptor, for writes that need not wait (see send_frames) and
        # reads without the stream's layers (_receive).
        sock = getattr(stream, "socket", None)
        self._fd = sock.fileno() if sock is not None else None

    def __repr__(self) -> str:
        return f"<Connection {self.peer} player={self.player}>"

    # --- sending (never blocks) --------------------------------------------------

    def send(self, message: dict) -> None:
        self.send_frames([wire.encode(message)])

    def send_frames(self, frames: list[bytes]) -> None:
        if self.closed or self._closing:
            return
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        if self.queued == 0 and self._fd is not None:
            # Nothing waits in the queue: hand the bytes to the kernel now, without
            # waking the writer; whatever the socket buffer cannot take is queued.
            try:
                sent = os.write(self._fd, data)
            except BlockingIOError:
                sent = 0
            except OSError as e:
                self.drop(f"the peer is gone ({e.strerror})", level=logging.INFO)
                return
            if sent == len(data):
                return
            data = data[sent:]
        self.queued += len(data)
        if self.queued > self.limits.QUEUE_BYTES:
            self.drop(f"over {self.limits.QUEUE_BYTES} bytes wait to be sent (a slow reader)")
            return
        self._out_send.send_nowait(data)

    def fatal(self, code: str, message: str, rid=None) -> None:
        """Send one last error and close once it is written."""
        if self.closed or self._closing:
            return
        log.info("%r: %s: %s", self, code, message)
        self.fatal_code = code
        self.send({"type": "error", "id": rid, "code": code, "message": message, "fatal": True})
        self._closing = True
        self._out_send.send_nowait(None)

    def drop(self, reason: str, level: int = logging.WARNING) -> None:
        """Close at once, without flushing. A peer that simply went away is ``INFO``: a
        warning is for what the server did to a client (a slow reader, a stuck write)."""
        if self.closed:
            return
        log.log(level, "%r dropped: %s", self, reason)
        self.closed = True
        if self._scope is not None:
            self._scope.cancel()

    # --- table requests (answered in the table's task) ------------------------------

    def wait_for_table(self) -> None:
        """A request of this connection is in a table's inbox (``TableRunner.submit``):
        the reader dispatches nothing more until ``table_answered``."""
        self._unanswered = True

    def table_answered(self) -> None:
        """The table's task has handled the request (its reply is handed over by the time
        the reader runs again: the task flushes before it yields)."""
        self._unanswered = False
        if self._answered is not None:
            self._answered.set()

    async def _table_answer(self) -> None:
        """Wait, if need be, until the table has answered this connection's last request.
        Called before the next message is dispatched, not right after the request: with
        one request a read, the usual case, the answer is in by then and nothing waits."""
        if self._unanswered:
            self._answered = trio.Event()
            await self._answered.wait()
            self._answered = None

    # --- the tasks -------------------------------------------------------------------

    async def run(self) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._scope = nursery.cancel_scope
                nursery.start_soon(self._writer)
                await self._reader()
                if not self._closing:
                    self._closing = True
                    self._out_send.send_nowait(None)
                with trio.move_on_after(self.limits.WRITE_TIMEOUT):
                    await self._writer_done.wait()
                nursery.cancel_scope.cancel()
        except Exception:
            log.exception("%r failed", self)
        finally:
            self.closed = True
            self.handler.gone(self)
            with trio.CancelScope(shield=True), trio.move_on_after(1):
                try:
                    await self.stream.aclose()
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass

    async def _reader(self) -> None:
        decoder = wire.Decoder()
        limits = self.limits
        # One cancel scope for the whole loop. Until hello its deadline stays where it was
        # set at connecting; from the hello on it is IDLE_TIMEOUT after the last read. It
        # moves before the read's messages are handled, and at the hello among them: their
        # handling may wait for tables (a busy server), which is no silence of the peer's.
        with trio.CancelScope(deadline=trio.current_time() + limits.HELLO_TIMEOUT) as idle:
            try:
                while not self._closing:
                    data = await self._receive(limits.RECV_SIZE)
                    due = trio.current_time() + limits.IDLE_TIMEOUT
                    # Moving a deadline costs; a second of slack on a 600 s one is fine.
                    if self.player is not None and due - idle.deadline > 1.0:
                        idle.deadline = due
                    decoder.receive_data(data)
                    first = True
                    while not self._closing:
                        msg = decoder.next_message()
                        if msg is None:
                            break
                        if not first:
                            # A table may have handled the last request in this task
                            # (TableRunner.submit): one request a step, as when it waited.
                            await trio.lowlevel.checkpoint()
                        first = False
                        if self._unanswered:
                            await self._table_answer()
                        if self._held_until is not None:
                            await trio.sleep_until(self._held_until)
                            self._held_until = None
                        if self._closing:
                            break
                        before_hello = self.player is None
                        self._dispatch(msg)
                        if before_hello and self.player is not None:  # the hello, in time: the idle clock
                            idle.deadline = due
                    if not data:
                        await self._table_answer()  # (a half-closed peer gets it)
                        return
            except wire.RemoteProtocolError as e:
                await self._table_answer()  # the replies to earlier requests come first
                self.fatal(e.code, e.message)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass  # the peer is gone (a reset connection: OSError from _receive)
        if idle.cancelled_caught:
            if self.player is None:
                self.fatal("hello_timeout", f"no hello within {limits.HELLO_TIMEOUT:g} s of connecting")
            else:
                self.fatal("idle_timeout", f"nothing received for {limits.IDLE_TIMEOUT:g} s")

    async def _receive(self, size: int) -> bytes:
        """At most ``size`` bytes, once there are some (``b""``: the peer closed its side).
        A TCP stream is read straight from its descriptor: wait until it is readable (a
        checkpoint, always), then one non-blocking read."""
        if self._fd is None:
            return await self.stream.receive_some(size)
        while True:
            await trio.lowlevel.wait_readable(self._fd)
            try:
                return os.read(self._fd, size)
            except BlockingIOError:  # (readable, then not: wait again)
                pass

    async def _writer(self) -> None:
        recv = self._out_recv
        limits = self.limits
        # One cancel scope for the whole loop: armed only while a write is under way.
        with trio.CancelScope() as deadline:
            try:
                while True:
                    frame = await recv.receive()
                    if frame is None:
                        break
                    batch = [frame]
                    stop = False
                    while True:
                        try:
                            more = recv.receive_nowait()
                        except trio.WouldBlock:
                            break
                        if more is None:
                            stop = True
                            break
                        batch.append(more)
                    data = batch[0] if len(batch) == 1 else b"".join(batch)
                    deadline.deadline = trio.current_time() + limits.WRITE_TIMEOUT
                    await self.stream.send_all(data)
                    deadline.deadline = math.inf
                    self.queued -= len(data)
                    if stop:
                        break
                # A closing connection has written its last frame: stop the reader too.
                self._scope.cancel()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self.drop("the peer is gone", level=logging.INFO)
            finally:
                self._writer_done.set()
        if deadline.cancelled_caught:
            self.drop(f"a write took longer than {limits.WRITE_TIMEOUT:g} s")

    # --- dispatch ----------------------------------------------------------------------

    def _dispatch(self, msg: dict) -> None:
        rid = None
        try:
            rid = request_id(msg)
            kind = msg.get("type")
            if self.player is None:
                if not isinstance(kind, str):
                    raise RequestError("bad_request", "every message needs a string 'type'")
                if kind != "hello":
                    raise RequestError("hello_first", "say hello first (with the protocol version)")
                self.handler.hello(self, msg, rid)
            else:
                self.handler.request(self, msg, rid)
        except RequestError as e:
            self.send({"type": "error", "id": rid, "code": e.code, "message": e.message})
            if e.hold:
                self._held_until = trio.current_time() + e.hold
