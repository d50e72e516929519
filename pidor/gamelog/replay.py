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
    groups: dict[str, list[list[str]]] = field(default_factory=dict)  # cards lying on one another (GameText.groups)
    has_trump: bool = True  # the game has a trump (its view says which, or that there is none yet)


@dataclass
class Court:
    """A call and what came of it, as far as a step (the viewer's court panel): its texts
    in the replay's language, as its viewer may see them."""

    caller: str
    accused: str
    action: str  # the accused action, in a sentence
    cards: list[str]  # the cards it played (codes)
    rules: list[str] = field(default_factory=list)  # "D4b: …", the rules it broke
    votes: list[str] = field(default_factory=list)
    verdict: str | None = None
    undo: str | None = None
    mark: str | None = None

    def data(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v not in (None, [])}


@dataclass
class Step:
    index: int  # the record's index in the log
    kind: str  # the record's kind: start, act, call, vote, abstain, tick, pass
    lines: list[tuple[str, bool]] = field(default_factory=list)  # (text, bookkeeping: only with --verbose)
    marks: set[str] = field(default_factory=set)  # cheat, call, court
    board: Board | None = None
    court: dict | None = None  # the court panel (:meth:`Court.data`) while a call is judged

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
        self._acted: dict[int, tuple[dict, str, list[str]]] = {}  # seat -> its last action, sentence, cards
        self._court: Court | None = None
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
                action = e.get("action") or {}
                sentence = say.action(e.get("seat"), action, before, follow)
                step.lines.append((sentence, False))
                self._acted[e.get("seat")] = (action, sentence, say.text.action_cards(e.get("seat"), action, before))
                acted = True
                violations = full.get("_violations") or []
                if violations and (seat is None or seat == e.get("seat")):
                    step.lines.append((say.cheat(violations), False))
                    step.marks.add("cheat")
                continue
            text = say.event(e, full=seat is None, said=acted, acted=self._acted_sentence(e))
            self._follow_court(e, text)
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
        if self._court is not None:
            step.court = self._court.data()
            if self._court.verdict is not None:
                self._court = None  # judged: the next step shows no panel
        return step

    def _acted_sentence(self, e: dict) -> str | None:
        """The sentence of the action a call, court or undo is about (the accused's last)."""
        if e.get("type") not in ("call", "court", "undo"):
            return None
        seat = e.get("accused", e.get("seat"))
        last = self._acted.get(seat)
        return last[1] if last is not None and last[0] == e.get("action") else None

    def _follow_court(self, e: dict, text: str | None) -> None:
        """Keep the court panel up to date with a table event (``text``: its sentence)."""
        say, kind = self.say, e.get("type")
        if kind == "call":
            sentence = self._acted_sentence(e)
            last = self._acted.get(e.get("accused"))
            self._court = Court(say.who(e.get("caller")), say.who(e.get("accused")),
                                say.predicate(e.get("accused"), e.get("action"), sentence),
                                last[2] if sentence and last else [])
            return
        court = self._court
        if court is None:
            return
        if kind == "court":
            court.rules = [say.rule(r.get("id")) for r in e.get("rules", []) if isinstance(r, dict)]
        elif kind in ("vote", "abstain"):
            court.votes.append(text)
        elif kind in ("verdict", "undo", "mark"):
            setattr(court, kind, text)

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
        return Board(zones, hidden, view.get("trump"), t.mark, list(view.get("to_act") or []),
                     self.say.text.groups(zones, view), "trump" in view)

    # ------------------------------------------------------------------ text

    def header_lines(self) -> list[str]:
        h = self.header
        opts = h.get("options") or {}
        say = self.say.say
        lines = [say("header", game=self.say.game_title(h.get("game")), players=opts.get("players"), deck=opts.get("deck"),
                     engine=h.get("engine"), number=(h.get("table") or {}).get("number"))]
        in_match = "match" in (h.get("extra") or {})
        for i, s in enumerate(self.seats):
            kind = s.get("kind")
            if kind == "human" and in_match:  # (a match seats programs: cmd:, tcp:; the server logs them as players)
                kind = "external"
            lines.append(f"   {self.say.who(i)}: {s.get('spec') or self.say.word(kind)}")
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
            out.append(self.say.say("server_seed", seed=reveal["server_seed"]))
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
        head = [say.say("board_trump", trump=trump)] if board.has_trump else []
        if "deck" in board.zones:  # (a game without a deck, or whose decks are the players': none)
            head.append(say.say("board_deck", deck=len(board.zones["deck"])))
        head += [say.say("board_mark", mark=mark), say.say("board_to_act", to_act=to_act)]
        out = ["   ┌ " + " · ".join(head)]
        rows = [(say.zone(zone), codes) for zone, codes in board.zones.items() if zone != "deck" and codes]
        width = max((len(name) for name, _ in rows), default=0)
        for name, codes in rows:
            face_down = sum(1 for c in codes if c in hidden)
            shown = " ".join(card(c) for c in codes if c not in hidden)
            cells = ("▒" * face_down if face_down <= 4 else f"▒×{face_down}") + (" " if face_down and shown else "")
            out.append(f"   │ {name:<{width}} {cells}{shown}")
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
        answer = ask(replay.say.say("step_prompt", k=k, n=len(steps)))
        if answer is None:
            stopping = False
        elif answer.strip().lower().startswith("q"):
            return
        elif answer.strip().lower().startswith("n"):
            while k < len(steps) and not steps[k].marks:
                k += 1
    for line in [*replay.footer_lines(), *replay.audit.lines(replay.say, replay.log.footer)]:
        show(line)
