"""The conformance kit's relay: it stands between the bot under test and a real server,
records every frame both ways, and plays the scenario's twist on the way.

The bot connects to the relay as to a server; each of its connections gets one to the
server. Frames pass through decoded, so the record holds what the bot sent and what it
was sent, with the time the relay saw each. A twist changes what crosses, the way a real
server could have (:class:`Twist` and its subclasses): it repeats a ``turn`` (as after a
snapshot), turns an ``act`` into one the server refuses, offers a cheat as the only
option, closes the connection, or adds fields and messages a later protocol might have.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

import trio

from . import wire
from .client import GAME_REQUESTS
from .games import spec

__all__ = ["Frame", "Record", "Relay", "Twist", "TWISTS"]


@dataclass
class Frame:
    t: float  # time.monotonic() when the relay passed it on
    conn: int  # the bot's connection, 0, 1, ... in the order it opened them
    dir: str  # "c2s" (the bot sent it), "s2c" (the bot was sent it), "drop" (the kit closed the connection)
    msg: dict | None  # as the bot sent or got it; None for a frame that does not decode
    note: str = ""  # what the kit did to it


@dataclass
class Record:
    """Everything that crossed in one scenario."""

    name: str
    frames: list[Frame] = field(default_factory=list)
    seat: int | None = None  # the bot's seat
    table: int | None = None
    token: str | None = None  # the token the bot was given (it is seated for it)
    connections: int = 0
    done: bool = False  # the bot was sent its game's results
    exit: int | None = None  # the bot's exit status, when it ended by itself
    stderr: list[str] = field(default_factory=list)  # the last lines of its stderr
    seconds: float = 0.0
    timed_out: bool = False
    missed: bool = False  # the kit stopped the game when the bot missed what it owed (or got a fatal error)
    may_call: bool = True  # its hello's may_call (False: it owes no call window, §3)
    windows: bool = True  # its hello's windows (False: it is sent no window events, §3 minor 2)
    trouble: str = ""  # the kit could not play the scenario (not the bot's fault)

    def add(self, conn: int, direction: str, msg: dict | None, note: str = "") -> Frame:
        frame = Frame(time.monotonic(), conn, direction, msg, note)
        self.frames.append(frame)
        return frame


def _is_turn(msg: dict, seat: int | None) -> bool:
    return msg.get("type") == "turn" and msg.get("seat") == seat and seat is not None


class Twist:
    """No twist: frames cross unchanged. Subclasses change ``to_bot`` (what the bot is
    sent for one server frame) and ``to_server`` (what the server gets for one bot frame:
    ``(message, note)``). ``relay.drop(conn)`` closes one of the bot's connections."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    @property
    def seat(self) -> int | None:
        return self.relay.record.seat

    def to_bot(self, conn: int, msg: dict) -> list[tuple[dict, str]]:
        return [(msg, "")]

    def to_server(self, conn: int, msg: dict) -> tuple[dict, str]:
        return msg, ""


class Guard(Twist):
    """Every ``turn`` comes twice (as after a snapshot: act once per ``seq``); the bot's
    2nd action goes with the ``seq`` before its game began (refused ``stale``), its 4th
    as an impossible one (refused ``impossible_action``). The server then sends the turn
    again; the bot must act on it."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(relay)
        self.acts = 0
        self.game_start = None

    def to_bot(self, conn, msg):
        if msg.get("type") == "event" and msg["event"].get("type") == "game_start":
            self.game_start = msg["seq"]
        if _is_turn(msg, self.seat):
            return [(msg, ""), (copy.deepcopy(msg), "repeated")]
        return [(msg, "")]

    def to_server(self, conn, msg):
        if msg.get("type") != "act" or self.game_start is None:
            return msg, ""
        self.acts += 1
        if self.acts == 2:
            return {**msg, "seq": self.game_start - 1}, "made stale"
        if self.acts == 4:
            # (an action of the game the server refuses in any state, T1: its spec's)
            return {**msg, "action": spec(self.relay.game).conform.impossible}, "made impossible"
        return msg, ""


class Conviction(Twist):
    """The bot's first turn that allows a callable cheat offers only that cheat (the kit's
    seat calls it, the table convicts); after that, every turn is as the server sent it."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(relay)
        self.offered = False

    def to_bot(self, conn, msg):
        if not self.offered and _is_turn(msg, self.seat):
            cheat = self.relay.cheat_for(self.seat)
            if cheat is not None:
                self.offered = True
                return [({**msg, "options": [cheat]}, "offered a cheat")]
        return [(msg, "")]


class Reconnect(Twist):
    """The kit closes the bot's first connection after its 3rd action: the bot must come
    back with its token."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(relay)
        self.acts = 0

    def to_server(self, conn, msg):
        if conn == 0 and msg.get("type") == "act":
            self.acts += 1
            if self.acts == 3:
                self.relay.drop(conn)
        return msg, ""


#: What the kit adds: a field no message has, an event type and a message type no server sends yet.
UNKNOWN_FIELD = "x_conform"
UNKNOWN_EVENT = "x_conform_event"
UNKNOWN_PUSH = "x_conform_push"


class Forward(Twist):
    """Forward compatibility: every message, event and offered action gets a field the
    bot does not know; a message of an unknown type comes before every turn; an event of
    an unknown type follows every 4th event. The events after one are numbered on (the
    bot's ``seq`` are mapped back for the server)."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(relay)
        self.added: list[int] = []  # the bot's seqs of the added events
        self.events = 0

    def _bot_seq(self, seq):
        return seq + len(self.added) if type(seq) is int else seq

    def _server_seq(self, seq):
        return seq - sum(1 for s in self.added if s <= seq) if type(seq) is int else seq

    def to_bot(self, conn, msg):
        msg = {**msg, UNKNOWN_FIELD: {"since": "pidor/3", "list": [1, 2.5, None]}}
        if "seq" in msg and msg.get("type") in ("event", "turn", "hint", "snapshot"):
            msg["seq"] = self._bot_seq(msg["seq"])
        if isinstance(msg.get("event"), dict):
            msg["event"] = {**msg["event"], UNKNOWN_FIELD: True}
        if isinstance(msg.get("options"), list):
            msg["options"] = [{**o, UNKNOWN_FIELD: 1} if isinstance(o, dict) else o for o in msg["options"]]
        out = [(msg, "unknown fields")]
        if msg.get("type") == "turn":
            out.insert(0, ({"type": UNKNOWN_PUSH, "table": msg.get("table"), "text": "a message of a later protocol"},
                           "unknown message type"))
        if msg.get("type") == "event":
            self.events += 1
            if self.events % 4 == 0:
                seq = msg["seq"] + 1
                self.added.append(seq)
                out.append(({"type": "event", "table": msg.get("table"), "seq": seq,
                             "event": {"type": UNKNOWN_EVENT, "seat": 0, "detail": {"a": [1]}}}, "unknown event type"))
        return out

    def to_server(self, conn, msg):
        if msg.get("type") in GAME_REQUESTS and "seq" in msg:
            return {**msg, "seq": self._server_seq(msg["seq"])}, ""
        return msg, ""


TWISTS: dict[str, type[Twist]] = {"": Twist, "guard": Guard, "conviction": Conviction, "reconnect": Reconnect,
                                  "forward": Forward}


class Relay:
    """Between the bot and the server at ``server_port`` (``server``: the in-process
    :class:`~pidor.server.app.Server`, read only to find a cheat), recording in ``record``."""

    def __init__(self, record: Record, twist: str, game: str, server, server_port: int) -> None:
        self.record = record
        self.game = game
        self.server = server
        self.server_port = server_port
        self.twist = TWISTS[twist](self)
        self.results = trio.Event()  # the bot was sent its game's results
        self.missed = trio.Event()  # it missed an answer it owed: the game need not go on
        self._scopes: dict[int, trio.CancelScope] = {}
        self._owed: dict[str, bool] = {}  # "window"/"court" the bot owes now -> answered
        self._dropped: set[int] = set()  # the connections the kit closed

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self._session, listeners)

    def drop(self, conn: int) -> None:
        """Close one of the bot's connections (and the server's end of it). What the bot
        owed on it is owed no more: while it is away the server answers for its seat (T9),
        and a window or court it owed may be over by the time it is back."""
        self.record.add(conn, "drop", None, "the kit closed the connection")
        self._dropped.add(conn)
        self._owed.clear()
        self._scopes[conn].cancel()

    def cheat_for(self, seat: int) -> dict | None:
        """A callable action that breaks a rule, for ``seat`` now, from the server's own table."""
        runner = self.server.lobby.tables.get(self.record.table)
        table = None if runner is None else runner.table
        if table is None or table.game is None or seat not in table.to_act():
            return None
        game = table.game
        for action in game.actions(seat):
            if game.is_callable(action) and game.check(seat, action):
                return game.action_data(action)
        return None

    async def _session(self, bot: trio.SocketStream) -> None:
        conn = self.record.connections
        self.record.connections += 1
        with trio.CancelScope() as scope:
            self._scopes[conn] = scope
            async with bot, await trio.open_tcp_stream("127.0.0.1", self.server_port) as server:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._pump, self._from_bot, conn, bot, server, nursery.cancel_scope)
                    nursery.start_soon(self._pump, self._to_bot, conn, server, bot, nursery.cancel_scope)

    @staticmethod
    async def _pump(direction, conn, source, sink, done: trio.CancelScope) -> None:
        """One direction until either side closes (a reset is a close); then both end."""
        try:
            await direction(conn, source, sink)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.cancel()

    async def _from_bot(self, conn, bot, server) -> None:
        buf = bytearray()
        raw = False  # after a frame that does not decode, bytes pass as they come (the server ends it)
        async for data in bot:
            buf += data
            out = []
            while not raw and len(buf) >= 4:
                n = int.from_bytes(buf[:4], "big")
                if n <= wire.MAX_FRAME and len(buf) < 4 + n:
                    break
                try:
                    if n > wire.MAX_FRAME:
                        raise wire.RemoteProtocolError(f"a frame of {n} bytes announced", "frame_too_large")
                    msg = wire.decode_frame(bytes(buf[4:4 + n]))
                except wire.ProtocolError as e:
                    self.record.add(conn, "c2s", None, f"{e.code}: {e.message}")
                    raw = True
                    break
                del buf[:4 + n]
                frame = self.record.add(conn, "c2s", msg)
                self._answered(msg)
                sent, frame.note = self.twist.to_server(conn, msg)
                out.append(wire.encode(sent))
            if raw:
                out.append(bytes(buf))
                buf.clear()
            await server.send_all(b"".join(out))

    async def _to_bot(self, conn, server, bot) -> None:
        decoder = wire.Decoder()
        async for data in server:
            if conn in self._dropped:  # (read as the kit closed it: the bot never gets it)
                return
            decoder.receive_data(data)
            out, over = [], False
            while (msg := decoder.next_message()) is not None:
                self._learn(msg)
                self._watch(msg)
                for sent, note in self.twist.to_bot(conn, msg):
                    self.record.add(conn, "s2c", sent, note)  # before the bot can answer it
                    out.append(wire.encode(sent))
                    over = over or sent.get("type") == "event" and sent["event"].get("type") == "results"
            await bot.send_all(b"".join(out))  # what came in one piece goes in one
            if over:
                self.results.set()

    def _answered(self, msg: dict) -> None:
        if msg.get("type") == "hello":
            self.record.may_call = msg.get("may_call") is not False
            self.record.windows = msg.get("windows") is not False
        kind = {"pass": "window", "call": "window", "vote": "court"}.get(msg.get("type"))
        if kind in self._owed:
            self._owed[kind] = True

    def _watch(self, msg: dict) -> None:
        """A window closed by its clock or a verdict without the bot's answer, the server
        acting for it (T9), or a fatal error: a miss, which the checks report; the game
        need not go on."""
        if msg.get("type") == "error" and msg.get("fatal"):
            self.record.missed = True
            self.missed.set()
        e = msg.get("event") if msg.get("type") == "event" else None
        if not isinstance(e, dict):
            return
        seat, kind = self.record.seat, e.get("type")
        if kind == "window" and self.record.may_call and seat in e.get("owing", ()) and e.get("seat") != seat:
            self._owed["window"] = False
        elif kind == "court" and seat in e.get("voters", ()):
            self._owed["court"] = False
        elif kind == "call":
            self._owed.pop("window", None)
        elif (kind == "window_closed" and self._owed.pop("window", True) is False
              or kind == "verdict" and self._owed.pop("court", True) is False
              or kind == "timeout" and e.get("seat") == seat):
            self.record.missed = True
            self.missed.set()

    def _learn(self, msg: dict) -> None:
        if msg.get("type") in ("joined", "snapshot") and "seat" in msg:
            self.record.seat = msg["seat"]
            table = msg.get("table")
            self.record.table = table.get("id") if isinstance(table, dict) else table
