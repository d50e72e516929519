"""A game log made readable: its steps (one per record), each with short sentences
(:mod:`.replay_text`), marks (cheat, call, court) and the board after it; an audit at the
end (:mod:`.replay_audit`). ``pidor replay`` prints it as text, ``--step`` walks it,
``--html`` draws it (:mod:`.html`).

From all seats (the default) every event is shown whole: hidden cards, and the rules each
action broke (махлёж is marked ``✗`` with the rule ids and texts even when nobody called
it). From one seat (``seat=N``) only what that seat saw: its projection of every event
(:func:`~pidor.engine.game.project`), its own cards on the board and no uncalled violation
but its own.

The board comes from re-running the log through the engine alongside (it needs the deal:
a finished log with its reveal, or an explicit deck). A log that is cut short, fails its
hash chain or that the engine cannot follow is shown as far as it goes, and
:attr:`Replay.problem` says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..cards import card_code
from .format import LogFile
from .replay_audit import Audit
from .replay_text import VERBOSE, Phrases, card
from .verify import Mismatch, Rerun, Unusable

__all__ = ["Replay", "Step", "Board", "replay_lines", "step_through"]


@dataclass
class Board:
    """The table after a step: every zone's cards (codes), the cards each viewer may not
    see (``hidden[seat]``, ``hidden[None]`` the public's), and the table's state."""

    zones: dict[str, list[str]]
    hidden: dict[int | None, set[str]]
    trump: str | None
    mark: int | None
    to_act: list[int]


@dataclass
class Step:
    index: int  # the record's index in the log
    kind: str  # the record's kind: start, act, call, vote, abstain, tick, pass
    lines: list[tuple[str, bool]] = field(default_factory=list)  # (text, bookkeeping: only with --verbose)
    marks: set[str] = field(default_factory=set)  # cheat, call, court
    board: Board | None = None

    def text(self, verbose: bool = False) -> list[str]:
        return [line for line, quiet in self.lines if verbose or not quiet]


def _project(event: dict, seat: int | None) -> dict:
    """The seat's form of a logged event (``_private`` keys are strings in logs). From all
    seats (``None``) an action is shown whole: the cards it laid face down, the card paid."""
    out = {k: v for k, v in event.items() if k[0] != "_"}
    private = event.get("_private") or {}
    if seat is not None:
        mine = private.get(str(seat))
        if mine:
            out.update(mine)
    elif out.get("type") == "action":
        for fields in private.values():
            if "action" in fields:
                out["action"] = fields["action"]
    return out


class Replay:
    def __init__(self, log: LogFile, seat: int | None = None, lang: str = "ru") -> None:
        self.log = log
        self.seat = seat
        header = log.header or {}
        self.header = header
        self.seats = header.get("seats") or []
        self.players = (header.get("options") or {}).get("players") or len(self.seats)
        self.say = Phrases(self.seats, lang, header.get("game"))
        self.audit = Audit(self.players, seat)
        self.problem: str | None = None
        if log.problem is not None:
            self.problem = f"{log.problem.kind} at record {log.problem.index}: {log.problem.reason}"
        self.note: str | None = None  # why there is no board
        self.rerun: Rerun | None = None
        self._start: dict | None = None
        try:
            self.rerun = Rerun(header)
            footer = log.footer
            self._start = self.rerun.start_args(None if footer is None else dict(footer, _index=len(log.records) - 1))
        except (Mismatch, Unusable) as e:
            self.rerun = None
            self.note = str(getattr(e, "reason", e))
        self.steps: list[Step] = [self._step(i, rec) for i, rec in enumerate(log.records[1:], start=1)
                                  if rec.get("kind") != "end"]

    # ------------------------------------------------------------------ steps

    def _step(self, index: int, rec: dict) -> Step:
        say, seat = self.say, self.seat
        step = Step(index, str(rec.get("kind")))
        passed = rec.get("passed")
        if passed is None and step.kind == "pass":  # format 1: the passes are the record itself
            passed = rec
        if isinstance(passed, dict):
            step.lines.append(("   " + say.say("passes", seats=", ".join(say.who(s) for s in passed.get("seats", []))),
                               True))
        if step.kind == "tick":
            step.lines.append(("   " + say.say("tick", n=rec.get("now")), True))
        if step.kind == "act" and rec.get("auto"):
            step.lines.append(("   " + say.say("auto", who=say.who(rec.get("seat")), reason=rec["auto"]), False))
        before = self._public_view()
        events = rec.get("events") or []
        acted = False  # an action of this record has been said (its sentence may tell what follows)
        for k, full in enumerate(events):
            self.audit.event(full)
            e = _project(full, seat)
            kind = e.get("type")
            if kind == "action":
                follow = [_project(x, seat) for x in events[k + 1:]]
                step.lines.append((say.action(e.get("seat"), e.get("action") or {}, before, follow), False))
                acted = True
                violations = full.get("_violations") or []
                if violations and (seat is None or seat == e.get("seat")):
                    step.lines.append((say.cheat(violations), False))
                    step.marks.add("cheat")
                continue
            text = say.event(e, full=seat is None, said=acted)
            if not text:
                continue
            step.lines.append(("   " + text, kind in VERBOSE))
            if seat is None and full.get("_private") and kind in ("deal_end",):
                for s, fields in sorted(full["_private"].items()):
                    if fields.get("hand") is not None:
                        step.lines.append(("   " + say.say("hand", who=say.who(int(s)), cards=" ".join(
                            card(c) for c in fields["hand"])), False))
            if kind == "call":
                step.marks.add("call")
            elif kind == "court":
                step.marks.add("court")
        self._run(index, rec, step)
        return step

    def _run(self, index: int, rec: dict, step: Step) -> None:
        if self.rerun is None:
            return
        try:
            self.rerun.run(index, rec, self._start)
        except Mismatch as e:
            self.rerun = None
            self.problem = self.problem or f"the engine cannot follow the log at record {index}: {e.reason}"
            return
        step.board = self._board()

    def _public_view(self) -> dict | None:
        t = self.rerun.table if self.rerun else None
        return None if t is None or t.game is None else t.view(None)

    def _board(self) -> Board | None:
        t = self.rerun.table
        game = t.game
        if game is None:
            return None
        zones = {zone: [card_code(c) for c in cs] for zone, cs in game.zones().items()}
        hidden = {s: game.hidden_from(s) for s in [*range(self.players), None]}
        view = t.view(None)
        return Board(zones, hidden, view.get("trump"), t.mark, list(view.get("to_act") or []))

    # ------------------------------------------------------------------ text

    def header_lines(self) -> list[str]:
        h = self.header
        opts = h.get("options") or {}
        say = self.say.say
        lines = [say("header", game=h.get("game"), players=opts.get("players"), deck=opts.get("deck"),
                     engine=h.get("engine"), number=(h.get("table") or {}).get("number"))]
        for i, s in enumerate(self.seats):
            lines.append(f"   {self.say.who(i)}: {s.get('spec') or s.get('kind')}")
        deal = h.get("deal") or {}
        if "commitment" in deal:
            lines.append(say("committed", commitment=deal["commitment"]))
        elif "deck" in deal:
            lines.append(say("explicit_deck"))
        if self.note:
            lines.append(say("no_board", note=self.note))
        return lines

    def footer_lines(self) -> list[str]:
        rec = self.log.footer
        if rec is None:
            return []
        if rec.get("status") == "aborted":
            out = [self.say.say("aborted", reason=rec.get("reason"))]
        else:
            out = [self.say.result(rec.get("result"))]
        out.append(self.say.say("mark_end", who="—" if rec.get("mark") is None else self.say.who(rec.get("mark"))))
        reveal = rec.get("reveal") or {}
        if reveal.get("server_seed"):
            out.append(f"   server seed revealed: {reveal['server_seed']}")
        return out

    def board_lines(self, board: Board | None) -> list[str]:
        """The board as this replay's viewer sees it, compactly: a card the viewer may
        not see is ``▒``; the deck is a count."""
        if board is None:
            return []
        say = self.say
        hidden = set() if self.seat is None else board.hidden[self.seat]
        trump = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}.get(board.trump, "—")
        mark = "—" if board.mark is None else say.who(board.mark)
        to_act = ", ".join(say.who(s) for s in board.to_act) or "—"
        out = [f"   ┌ trump {trump} · deck {len(board.zones.get('deck', []))} · mark: {mark} · to act: {to_act}"]
        for zone, codes in board.zones.items():
            if zone == "deck" or not codes:
                continue
            face_down = sum(1 for c in codes if c in hidden)
            shown = " ".join(card(c) for c in codes if c not in hidden)
            cells = ("▒" * face_down if face_down <= 4 else f"▒×{face_down}") + (" " if face_down and shown else "")
            out.append(f"   │ {zone:<9} {cells}{shown}")
        return out

    def lines(self, verbose: bool = False) -> Iterator[str]:
        yield from self.header_lines()
        first_board = True
        for step in self.steps:
            yield from step.text(verbose)
            if first_board and step.board is not None:
                first_board = False  # the deal
                yield from self.board_lines(step.board)
        yield from self.footer_lines()
        yield from self.audit.lines(self.say, self.log.footer)


def replay_lines(log: LogFile, seat: int | None = None, lang: str = "ru", *, verbose: bool = False) -> Iterator[str]:
    """The replay as text, line by line: the steps, then the footer and the audit."""
    return Replay(log, seat, lang).lines(verbose)


def step_through(replay: Replay, ask: Callable[[str], str | None], show: Callable[[str], None],
                 verbose: bool = False) -> None:
    """``--step``: show each step and the board after it, then ``ask`` what next: Enter
    the next step, ``n`` jump to the next cheat, call or court, ``q`` stop (``None``, the
    end of input: the rest without stopping)."""
    for line in replay.header_lines():
        show(line)
    steps = replay.steps
    k, stopping = 0, True
    while k < len(steps):
        step = steps[k]
        for line in step.text(verbose):
            show(line)
        for line in replay.board_lines(step.board) if stopping else []:
            show(line)
        k += 1
        if not stopping:
            continue
        answer = ask(f"[{k}/{len(steps)}] Enter: next · n: next cheat/call/court · q: quit > ")
        if answer is None:
            stopping = False
        elif answer.strip().lower().startswith("q"):
            return
        elif answer.strip().lower().startswith("n"):
            while k < len(steps) and not steps[k].marks:
                k += 1
    for line in [*replay.footer_lines(), *replay.audit.lines(replay.say, replay.log.footer)]:
        show(line)
