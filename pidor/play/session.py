"""The session of ``pidor play``: received messages become printed lines, typed lines and
single keys become requests.

``message(msg)`` takes what ``Client.handle`` returns; ``line(text)`` one typed line;
``key(ch)`` one key pressed on an empty line (True when it meant something: «пидор!» in a
call window, a vote in a court). ``prompt_line()`` is the call window or court the person
owes an answer to, or the game clock running on their turn (durak's «бито»), with its
countdown, for the terminal to keep on screen (``ticking``: redraw it). Output goes
through ``out``; nothing here blocks or reads a clock other than ``clock``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..bots.observe import Knowledge
from ..client import GAME_REQUESTS, Client
from ..games import GAME_IDS, text_of
from ..games.text import Say
from .commands import CommandError, help_text, parse_command
from .text import (
    action_text,
    error_text,
    event_lines,
    option_command,
    rule_line,
    say,
    view_lines,
)

__all__ = ["CALL_KEYS", "PASS_KEYS", "Session"]

#: one key on an empty line: «пидор!» in a window, a pass, a vote (ru layout included)
CALL_KEYS = frozenset("!")
PASS_KEYS = frozenset(" \r\n")
GUILTY_KEYS, CLEAN_KEYS = frozenset("yYдД"), frozenset("nNнН")
#: the events after which a prompt is no longer owed (T3: a window closes when every
#: answer is in, its time runs out or someone calls; T4: a court ends with its verdict)
ENDS = {
    "window": frozenset({"window_closed", "call", "window", "court", "undo", "game_over", "game_start"}),
    "court": frozenset({"verdict", "undo", "game_over", "game_start"}),
}



@dataclass
class Prompt:
    """What the person owes an answer to: a call window (``window``) or a court (``court``)."""

    kind: str
    seq: int
    text: str  # the window's action or the court's accusation, for the prompt
    expires: float | None  # clock() when it runs out


class Session:
    def __init__(self, client: Client, *, lang: str = "en", out=print, keys: bool = False,
                 auto_pass: bool = False, watching: int | None = None, clock=time.monotonic) -> None:
        self.client = client
        self.lang = lang
        self.out = out
        self.keys = keys  # one-key answers (a terminal); else typed `call`/`vote` lines
        self.auto_pass = auto_pass
        self.watching = watching  # the table watched as a spectator (§4 watch), or None
        self.clock = clock
        self.done = False
        self.hints = True
        self.awaiting = False  # a turn's options are shown and fresh: the player may answer
        self.prompt: Prompt | None = None
        self._show_turn = False  # show the turn when the fresh view arrives
        self._resyncing = False
        self._want_view = False
        self._after_undo = False  # the last event was an undo: the next snapshot restores
        self._shown_view: dict | None = None
        self._shown_options: list | None = None
        # the latest turn shown, (seq, options): a typed move is decided on it (§5), and the
        # server refuses it as stale if the table has moved on in a way that matters
        self._offer: tuple[int | None, list] = (None, [])
        self._seats: list | None = None
        self._host: int | None = None
        self._hint: dict | None = None  # the latest hint, shown once after its turn
        self._hint_shown: tuple | None = None
        # What the seat has seen, played on the engine (the cards an action lands on are
        # public, yet the wire names only where it goes, PROTOCOL §7); rebuilt at each snapshot.
        self._known: Knowledge | None = None
        self._last: tuple[dict, dict | None] | None = None  # the last action event, and the view before it
        self._clock: tuple[str, float] | None = None  # a game clock on our turn: its name, clock() when it runs out

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
            return say(self.lang, "you")  # (no number: «вы», issue 28 §2)
        for s in (st.info or {}).get("seats", []):
            if s.get("seat") == seat and s.get("name"):
                return f"{s['name']}({seat})"
        return f"#{seat}"

    def _rewatch(self) -> None:
        """A spectator's fresh board: watching again sends a snapshot, in order on the
        spectator's stream (after the events before it, delayed as they are)."""
        self._want_view = self._resyncing = True
        self.client.post("watch", table=self.watching)

    def _resync(self) -> None:
        if self.watching is not None:
            return  # a spectator has no resync; `view` watches again
        if not self._resyncing:
            self._resyncing = True
            self.client.resync()

    # -- what the terminal keeps on screen --

    @property
    def ticking(self) -> bool:
        """Something on screen counts down (the terminal redraws it)."""
        return self.prompt is not None or (self._clock is not None and self.awaiting)

    def _seconds(self, expires: float) -> str:
        return say(self.lang, "seconds", n=f"{max(0.0, expires - self.clock()):.1f}")

    def prompt_line(self) -> str | None:
        """The open window or court the person owes, with the seconds left, or the game
        clock running on our turn (durak's «бито»); None if none."""
        p = self.prompt
        if p is None:
            return self._clock_line() if self.awaiting else None
        left = "" if p.expires is None else " · " + self._seconds(p.expires)
        if p.kind == "window":
            return say(self.lang, "window_you" if self.keys else "window_line", what=p.text, clock=left)
        return say(self.lang, "court_vote" if self.keys else "court_line", clock=left)

    def _clock_line(self) -> str | None:
        if self._clock is None:
            return None
        name, expires = self._clock
        sayer = Say(self.lang, self.name, self.state.seat)
        left = self._seconds(expires)
        return text_of(self.state.game).clock_line(sayer, name, left) or say(self.lang, "clock", left=left)

    def _set_prompt(self, prompt: Prompt | None) -> None:
        self.prompt = prompt
        if prompt is not None and not self.keys:
            self.out(self.prompt_line())  # a line terminal or a script: said once

    # -- from the server --

    def message(self, msg: dict) -> None:
        kind = msg.get("type")
        st = self.state
        if kind == "event":
            self._event(msg["event"], msg.get("seq"))
        elif kind == "turn":
            if msg.get("seat") != st.seat:
                return
            if st.view_seq is None or st.view_seq < msg.get("seq", 0):
                self._show_turn = True
                self._resync()
            else:
                self._turn(msg, force=False)
        elif kind == "snapshot":
            self._follow_view(st.view)
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
            self.out(error_text(msg, self.lang))
            if msg.get("rule"):
                self.out("  " + rule_line(msg["rule"], self.lang))
            if msg.get("fatal"):
                self.done = True
        elif kind == "closed":
            self.say("closed", reason=msg.get("reason"))
            self.done = True

    def _event(self, e: dict, seq) -> None:
        st = self.state
        self.awaiting = False
        self._clock = None  # (a turn that follows says it again)
        t = e.get("type")
        before = self._follow(e)
        lines = event_lines(e, st.seat, self.name, self.lang, game=st.game, before=before)
        if t == "call" and self.prompt is not None and self.prompt.kind == "window" and e.get("caller") != st.seat:
            lines.append(say(self.lang, "called_first", caller=self.name(e.get("caller"))))
        if self.prompt is not None and t in ENDS[self.prompt.kind]:
            self.prompt = None
        for text in lines:
            self.out(text)
        self._after_undo = t == "undo"
        if t == "window" and st.seat in e.get("owing", ()) and e.get("seat") != st.seat:
            if self.auto_pass:
                self.client.pass_(seq)
            else:
                self._set_prompt(Prompt("window", seq, self._window_text(e), self._expires(e.get("deadline"))))
        if t in ("court", "undo", "game_over"):
            self._offer = (None, [])  # the turn shown is gone: a new one comes after
        if t == "court" and st.seat in e.get("voters", ()):
            self._set_prompt(Prompt("court", seq, "", self._expires(e.get("deadline"))))
        elif t == "results":  # one hint (issue 28 §3)
            if st.is_host:
                self._host_hint(st.info or {}, between_games=True)
            else:
                self.say("results_wait")
        elif t in ("game_start", "deal_end"):
            self._shown_view = None
        if self.watching is not None and t in text_of(st.game).REDRAW:
            self._rewatch()
        if st.gap:
            self._resync()

    def _expires(self, deadline) -> float | None:
        return None if deadline is None else self.clock() + deadline

    def _window_text(self, e: dict) -> str:
        event, before = self._last if self._last is not None else ({}, None)
        action = event.get("action") if event.get("seat") == e.get("seat") else None
        st = self.state
        return action_text(action, self.name, self.lang, game=st.game, seat=e.get("seat"), me=st.seat,
                           before=before) if action else self.name(e.get("seat"))

    def _follow_view(self, view: dict | None) -> None:
        """A fresh view: what the seat knows starts again from it."""
        st = self.state
        options = (st.info or {}).get("options")
        if view is None or not isinstance(options, dict) or st.game not in GAME_IDS:
            self._known = None
            return
        self._known = Knowledge(st.seat, options)
        self._known.reset(view)

    def _public(self) -> dict | None:
        """The public view as the seat knows it now (``None``: it cannot tell)."""
        table = None if self._known is None else self._known.belief()
        return None if table is None or table.game is None else table.view(None)

    def _follow(self, e: dict) -> dict | None:
        """Play ``e`` on what the seat knows; the public view just before the action ``e``
        is, or is about (a call, a court, an undo: the last action)."""
        before = None
        if e.get("type") == "action":
            before = self._public()
            self._last = (e, before)
        elif self._last is not None and e.get("type") in ("call", "court", "undo"):
            before = self._last[1]
        if self._known is not None:
            self._known.feed([e])
        return before

    def _view(self, force: bool) -> bool:
        view = self.state.view
        if view is None or (not force and view == self._shown_view):
            return False
        self.out("\n".join(view_lines(view, self.state.seat, self.name, self.lang)))  # one block
        self._shown_view = view
        self._shown_options = None  # a board shown: the turn that follows is said again
        return True

    def _turn(self, turn: dict, force: bool) -> None:
        shown = self._view(force)
        options = turn.get("options") or []
        if shown or force or options != self._shown_options:
            deadline = turn.get("deadline")
            clock = "" if deadline is None else " (" + say(self.lang, "seconds", n=f"{deadline:g}") + ")"
            lines = [say(self.lang, "your_turn", clock=clock)]
            # the command to type (in Russian with the game's Russian words), and in Russian what it does
            st, public = self.state, self._public()
            lines += [f"  {i}) {option_command(action, st.game, self.lang)}" + ("" if self.lang == "en" else " — " + action_text(
                action, self.name, self.lang, game=st.game, seat=st.seat, me=st.seat, before=public))
                for i, action in enumerate(options, 1)]
            self.out("\n".join(lines if options else lines + [say(self.lang, "no_options")]))  # one block
            self._shown_options = options
        clock = turn.get("clock")
        self._clock = (str(clock.get("name")), self.clock() + float(clock.get("left") or 0)) \
            if isinstance(clock, dict) else None
        if self._clock is not None and not self.keys:
            self.out(self._clock_line())  # a line terminal: said once
        self._offer = (turn.get("seq"), options)
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
            self.say("hint", id=rule.get("id"), text=rule_line(rule.get("id"), self.lang, rule).split("] ", 1)[-1])

    def _table(self, info: dict) -> None:
        seats = [(s.get("kind"), s.get("name"), s.get("away")) for s in info.get("seats", [])]
        waiting = info.get("state") == "waiting"
        changed = self._seats is not None and seats != self._seats
        if changed and waiting:
            self.say("seats", seats=", ".join(f"{i} {n or '—'}" for i, (_, n, _) in enumerate(seats)))
        me, host = self.state.seat, info.get("host")
        mine = me is not None and host == me  # (a spectator hosts nothing, whoever leaves: issue 28 §3)
        if mine and self._host is not None and self._host != me:
            self.say("host_now")
        if waiting and (changed or host != self._host):
            if mine:
                self._host_hint(info)
            elif changed:
                free = sum(kind == "vacant" for kind, _, _ in seats)
                if free:
                    self.say("waiting", free=free)
        self._seats, self._host = seats, host

    def _host_hint(self, info: dict, between_games: bool = False) -> None:
        free = [str(s.get("seat")) for s in info.get("seats", []) if s.get("kind") == "vacant"]
        if free:
            self.say("host_free", seats=", ".join(free))
        else:
            self.say("results_host" if between_games else "host_start")

    # -- from the player --

    def key(self, ch: str) -> bool:
        """One key on an empty line: True when it answered the window or the court."""
        p = self.prompt
        if p is None:
            return False
        if p.kind == "window" and (ch in CALL_KEYS or ch in PASS_KEYS):
            self._answer("call" if ch in CALL_KEYS else "pass")
            return True
        if p.kind == "court" and (ch in GUILTY_KEYS or ch in CLEAN_KEYS):
            self._vote(ch in GUILTY_KEYS)
            return True
        return False

    def line(self, text: str) -> None:
        st = self.state
        players = (st.info or {}).get("options", {}).get("players")
        try:
            cmd = parse_command(text, game=st.game, options=self._offer[1],
                                view=st.view, players=players, lang=self.lang)
        except CommandError as e:
            self.say(e.key, **e.params)
            return
        if cmd is None:
            return
        if self.watching is not None and cmd.kind not in ("help", "quit", "view"):
            self.say("watch_only")
            return
        if cmd.kind == "help":
            self.out(help_text(st.game, self.lang))
        elif cmd.kind == "quit":
            if self.watching is not None:
                self.client.post("unwatch")
            elif st.table is not None:
                self.client.post("leave")
            self.say("bye")
            self.done = True
        elif cmd.kind == "view":
            if self.watching is not None:
                self._rewatch()
            else:
                self._want_view = True
                self._resync()
        elif cmd.kind == "hints_off":
            self.hints = False
            self.client.tutorial_off()
            self.say("hints_off")
        elif cmd.message["type"] in ("call", "pass"):
            self._answer(cmd.message["type"])
        elif cmd.message["type"] == "vote":
            self._vote(cmd.message["guilty"])
        else:
            self.send(cmd.message)

    def _answer(self, kind: str) -> None:
        """``call`` or ``pass`` on the window the prompt shows, decided on its ``seq``."""
        p = self.prompt
        if p is None or p.kind != "window":
            self.say("no_window")
            return
        self.prompt = None
        if kind == "call":
            self.client.call(p.seq)
        else:
            self.client.pass_(p.seq)

    def _vote(self, guilty: bool) -> None:
        p = self.prompt
        if p is None or p.kind != "court":
            self.say("no_court")
            return
        self.prompt = None
        self.client.vote(guilty, p.seq)

    def send(self, message: dict) -> None:
        kind = message["type"]
        fields = {k: v for k, v in message.items() if k != "type"}
        if kind == "act" and self._offer[0] is not None:  # decided on the turn shown (§5)
            fields.setdefault("seq", self._offer[0])
        elif kind in GAME_REQUESTS:
            fields.setdefault("seq", self.state.seq or 0)
        self.client.post(kind, **fields)
        if kind == "act":
            self.awaiting = False
            self._offer = (None, [])
