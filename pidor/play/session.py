"""``pidor play``: a thin terminal client for people.

By default it creates a table with the other seats taken by built-in bots, starts the game
and plays: the seat's view, the events as they happen, tutorial hints and court notices
are printed; commands are read from stdin (``help`` lists them). The protocol side is
``pidor.client`` (the same SDK bots use); a reader thread feeds the socket's messages and
a second one stdin's lines into one queue, so everything that touches the state runs in
the main thread, one item at a time.
"""

from __future__ import annotations

import queue
import sys
import threading

import click

from ..client import FINAL_ERRORS, GAME_REQUESTS, Client, ConnectionClosed, PidorError, ServerError
from .commands import HELP, CommandError, parse_command
from .text import event_lines, option_command, rule_line, say, view_lines

__all__ = ["BOT_SPEC", "Session", "play", "run_session"]

#: the built-in bots of a table made by ``pidor play``: they cheat now and then and often
#: notice a cheat, so that махлёж and the court are part of the game from the start
BOT_SPEC = "builtin:random:cheat=0.05,attention=0.5"


class Session:
    """Turns received messages into printed lines and typed lines into requests.

    ``message(msg)`` takes what ``Client.receive``/``Client.handle`` return; ``line(text)``
    one line of input. Output goes through ``out``; nothing here blocks.
    """

    def __init__(self, client: Client, *, lang: str = "en", out=print, auto_pass: bool = False) -> None:
        self.client = client
        self.lang = lang
        self.out = out
        self.auto_pass = auto_pass
        self.done = False
        self.hints = True
        self.awaiting = False  # a turn's options are shown and fresh: the player may answer
        self._show_turn = False  # show the turn when the fresh view arrives
        self._resyncing = False
        self._want_view = False
        self._after_undo = False  # the last event was an undo: the next snapshot restores
        self._shown_view: dict | None = None
        self._shown_options: list | None = None
        self._seats: list | None = None
        self._hint: dict | None = None  # the latest hint, shown once after its turn
        self._hint_shown: tuple | None = None

    @property
    def state(self):
        return self.client.state

    def say(self, key: str, **kw) -> None:
        self.out(say(self.lang, key, **kw))

    def name(self, seat) -> str:
        if seat is None:
            return "—"
        st = self.state
        if seat == st.seat:
            return f"{say(self.lang, 'you')}({seat})"
        for s in (st.info or {}).get("seats", []):
            if s.get("seat") == seat and s.get("name"):
                return f"{s['name']}({seat})"
        return f"#{seat}"

    def _resync(self) -> None:
        if not self._resyncing:
            self._resyncing = True
            self.client.resync()

    # -- from the server --

    def message(self, msg: dict) -> None:
        kind = msg.get("type")
        st = self.state
        if kind == "event":
            self.awaiting = False
            e = msg["event"]
            for text in event_lines(e, st.seat, self.name, self.lang):
                self.out(text)
            t = e.get("type")
            self._after_undo = t == "undo"
            if t == "window" and st.seat in e.get("owing", ()) and e.get("seat") != st.seat:
                if self.auto_pass:
                    self.client.pass_(msg["seq"])
                else:
                    self.say("window_you", clock=_clock(e.get("deadline")))
            elif t == "court" and st.seat in e.get("voters", ()):
                self.say("court_vote", clock=_clock(e.get("deadline")))
            elif t == "results":
                self.say("results_host" if st.is_host else "results_wait")
            elif t in ("game_start", "deal_end"):
                self._shown_view = None
            if st.gap:
                self._resync()
        elif kind == "turn":
            if msg.get("seat") != st.seat:
                return
            if st.view_seq is None or st.view_seq < msg.get("seq", 0):
                self._show_turn = True
                self._resync()
            else:
                self._turn(msg, force=False)
        elif kind == "snapshot":
            ours, self._resyncing = self._resyncing, False
            if self._show_turn and st.turn is not None:
                self._show_turn = False
                self._turn(st.turn, force=self._want_view)
            elif self._want_view or not ours:
                if not ours and self._after_undo:
                    self.say("restored")
                self._view(force=True)
            self._want_view = False
        elif kind == "hint":
            self._hint = msg
            if self.awaiting and st.turn is not None and st.turn.get("seq") == msg.get("seq"):
                self._show_hint()
        elif kind == "table":
            self._table(msg.get("table") or {})
        elif kind == "error":
            self.say("error", code=msg.get("code"), message=msg.get("message"))
            if msg.get("rule"):
                self.out("  " + rule_line(msg["rule"], self.lang))
            if msg.get("fatal"):
                self.done = True
        elif kind == "closed":
            self.say("closed", reason=msg.get("reason"))
            self.done = True

    def _view(self, force: bool) -> bool:
        view = self.state.view
        if view is None or (not force and view == self._shown_view):
            return False
        for text in view_lines(view, self.state.seat, self.name, self.lang):
            self.out(text)
        self._shown_view = view
        return True

    def _turn(self, turn: dict, force: bool) -> None:
        shown = self._view(force)
        options = turn.get("options") or []
        if shown or force or options != self._shown_options:
            self.say("your_turn", clock=_clock(turn.get("deadline")))
            if options:
                for i, action in enumerate(options, 1):
                    self.out(f"  {i}) {option_command(action)}")
            else:
                self.say("no_options")
            self._shown_options = options
        self.awaiting = True
        self._show_hint()

    def _show_hint(self) -> None:
        hint, st = self._hint, self.state
        if not self.hints or hint is None or st.turn is None or hint.get("seq") != st.turn.get("seq"):
            return
        rule = hint.get("rule") or {}
        key = (hint.get("seq"), rule.get("id"))
        if key != self._hint_shown:
            self._hint_shown = key
            self.say("hint", id=rule.get("id"), text=rule.get(self.lang) or rule.get("en"))

    def _table(self, info: dict) -> None:
        seats = [(s.get("kind"), s.get("name"), s.get("away")) for s in info.get("seats", [])]
        if self._seats is not None and seats != self._seats and info.get("state") == "waiting":
            free = sum(kind == "vacant" for kind, _, _ in seats)
            self.out("seats: " + ", ".join(f"{i} {n or '—'}" for i, (_, n, _) in enumerate(seats)))
            if free:
                self.say("waiting", free=free)
        self._seats = seats

    # -- from the player --

    def line(self, text: str) -> None:
        st = self.state
        players = (st.info or {}).get("options", {}).get("players")
        try:
            cmd = parse_command(text, game=st.game, options=(st.turn or {}).get("options") or [],
                                view=st.view, players=players)
        except CommandError as e:
            self.say(e.key, **e.params)
            return
        if cmd is None:
            return
        if cmd.kind == "help":
            self.out(HELP.get(self.lang, HELP["en"]))
        elif cmd.kind == "quit":
            if st.table is not None:
                self.client.post("leave")
            self.say("bye")
            self.done = True
        elif cmd.kind == "view":
            self._want_view = True
            self._resync()
        elif cmd.kind == "hints_off":
            self.hints = False
            self.client.tutorial_off()
            self.say("hints_off")
        else:
            self.send(cmd.message)

    def send(self, message: dict) -> None:
        kind = message["type"]
        fields = {k: v for k, v in message.items() if k != "type"}
        if kind in GAME_REQUESTS:  # decided on what the screen shows: the latest event (§5)
            fields.setdefault("seq", self.state.seq or 0)
        if kind in ("pass", "vote"):  # no round trip (§2)
            self.client.send(kind, **fields)
        else:
            self.client.post(kind, **fields)
        if kind == "act":
            self.awaiting = False


def _clock(deadline) -> str:
    return "" if deadline is None else f" ({deadline:g} s)"


def run_session(client: Client, session: Session, stdin, *, reconnect: bool = True) -> None:
    """The main loop: socket messages and stdin lines through one queue until the session ends."""
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

    threading.Thread(target=read_socket, daemon=True, name="pidor-play-socket").start()
    threading.Thread(target=read_lines, daemon=True, name="pidor-play-stdin").start()
    try:
        while not session.done:
            kind, item = inbox.get()
            if kind == "msg":
                msg = client.handle(item)
                if msg is not None:
                    session.message(msg)
            elif kind == "line":
                session.line(item)
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
    finally:
        client.close()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The server's address.")
@click.option("--port", default=7777, show_default=True, type=click.IntRange(1, 65535))
@click.option("--name", default="player", show_default=True, help="Your name at the table (1..32 characters).")
@click.option("--game", type=click.Choice(["pidor", "podkidnoy", "perevodnoy", "simple"]), default="pidor",
              show_default=True)
@click.option("--variant", type=click.Choice(["classic", "partial", "pairs"]), default=None,
              help="Simple durak's lead (V2-V4).")
@click.option("--teams", type=click.Choice(["2x2", "3x3"]), default=None, help="Durak team play (V6).")
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True,
              help="Seats at the new table; all but yours get built-in bots.")
@click.option("--deck", type=click.Choice(["36", "52"]), default=None, help="Deck size [default: 52 pidor, 36 durak].")
@click.option("--lang", type=click.Choice(["ru", "en"]), default="ru", show_default=True,
              help="Language of rule texts, hints and messages.")
@click.option("--table", type=int, default=None, help="Join this table instead of creating one.")
@click.option("--token", default=None, help="The token from an earlier session: be the same player (and get your seat back).")
@click.option("--bot", "bot_spec", default=BOT_SPEC, show_default=True,
              help="The built-in bots of a new table (cheat: how often they cheat; attention: how often they call a cheat).")
@click.option("--auto-pass", is_flag=True, help="Pass every call window at once (you never call «пидор!»).")
def play(host, port, name, game, variant, teams, players, deck, lang, table, token, bot_spec, auto_pass) -> None:
    """Play at a server from this terminal: `pidor play --name me`, then `help`."""
    client = Client(host, port, name, token)
    session = Session(client, lang=lang, out=click.echo, auto_pass=auto_pass)
    try:
        welcome = client.connect()
        session.say("welcome", player=welcome.get("player"), server=welcome.get("server"))
        if "token" in welcome:
            session.say("token", token=welcome["token"])
        if welcome.get("table") is not None:
            session.say("back", table=welcome["table"])
        elif table is not None:
            joined = client.join(table)
            session.say("joined", table=table, seat=joined["seat"])
        else:
            options = {"game": game, "players": players, "bots": [bot_spec] * (players - 1)}
            if deck is not None:
                options["deck"] = int(deck)
            options.update({k: v for k, v in (("lead", variant), ("teams", teams)) if v is not None})
            joined = client.create(**options)
            session.say("created", table=joined["table"]["id"], game=game, players=players, seat=joined["seat"])
            client.start()
    except OSError as e:
        client.close()
        raise click.ClickException(f"cannot reach {host}:{port}: {e}") from None
    except (ServerError, PidorError) as e:
        client.close()
        raise click.ClickException(str(e)) from None
    run_session(client, session, sys.stdin)
