"""A game log as text, record by record, from every seat's view or from one seat's.

From all seats (the default) every event is shown whole: hidden cards, and the rules each
action broke (махлёж is marked ``✗`` with the rule ids and texts even when nobody called
it). From one seat (``seat=N``) only what that seat saw at the table: its projection of
every event (:func:`~pidor.engine.game.project`), so no hidden card of another seat and
no uncalled violation shows.

When the deal can be rebuilt (a finished log with its reveal, or an explicit deck) the
log is re-run alongside, and the board is shown after the deal and, with ``step``, after
every step.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

from ..cards import card_text, parse_card
from ..engine.rules import RULES
from .format import LogFile
from .verify import Mismatch, Rerun, Unusable

__all__ = ["replay_lines", "Replay"]

_CARD = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")

_WORDS = {
    "ru": {"pidor": "«пидор»", "clean": "«чист»", "pass": "пас", "call": "«пидор!»", "seat": "место",
           "verdict": "приговор", "guilty": "виновен", "honest": "ход честный", "tie": "поровну",
           "mark": "метка", "undo": "отменено", "court": "суд", "cheat": "махлёж", "votes": "голосует",
           "abstains": "воздерживается (отошёл, T4)",
           "aborted": "прервана", "result": "итог", "loser": "проиграл", "draw": "ничья"},
    "en": {"pidor": "«pidor»", "clean": "«clean»", "pass": "pass", "call": "«pidor!»", "seat": "seat",
           "verdict": "verdict", "guilty": "guilty", "honest": "the action was honest", "tie": "a tie",
           "mark": "mark", "undo": "undone", "court": "court", "cheat": "cheat", "votes": "votes",
           "abstains": "abstains (away, T4)",
           "aborted": "aborted", "result": "result", "loser": "lost", "draw": "a draw"},
}


def _card(value):
    if isinstance(value, str) and _CARD.match(value):
        return card_text(parse_card(value))
    if isinstance(value, list) and value and all(isinstance(v, str) and _CARD.match(v) for v in value):
        return " ".join(card_text(parse_card(v)) for v in value)
    return value


def _project(event: dict, seat: int | None) -> dict:
    """The seat's form of a logged event (``_private`` keys are strings in logs)."""
    out = {k: v for k, v in event.items() if k[0] != "_"}
    if seat is not None:
        mine = (event.get("_private") or {}).get(str(seat))
        if mine:
            out.update(mine)
    return out


class Replay:
    def __init__(self, log: LogFile, seat: int | None = None, lang: str = "ru") -> None:
        self.log = log
        self.seat = seat
        self.lang = lang if lang in _WORDS else "ru"
        self.w = _WORDS[self.lang]
        header = log.header or {}
        self.seats = header.get("seats") or []
        self.rerun: Rerun | None = None
        self.start_args: dict | None = None
        self.note: str | None = None
        try:
            self.rerun = Rerun(header)
            footer = log.footer
            self.start_args = self.rerun.start_args(None if footer is None else
                                                    dict(footer, _index=len(log.records) - 1))
        except (Mismatch, Unusable) as e:
            self.rerun = None
            self.note = f"(the board cannot be shown: {getattr(e, 'reason', e)})"

    # ------------------------------------------------------------------ names

    def who(self, seat) -> str:
        if not isinstance(seat, int):
            return str(seat)
        info = self.seats[seat] if 0 <= seat < len(self.seats) else {}
        name = info.get("name") or (f"bot {info.get('policy', '')}".strip() if info.get("kind") == "bot"
                                    else info.get("kind", ""))
        return f"{self.w['seat']} {seat} ({name})" if name else f"{self.w['seat']} {seat}"

    def rule(self, rule_id: str) -> str:
        r = RULES.get(rule_id)
        return f"{rule_id}: {r.text(self.lang)}" if r else rule_id

    # ------------------------------------------------------------------ events

    def action_text(self, action: dict) -> str:
        if not isinstance(action, dict):
            return str(action)
        parts = [str(action.get("type"))]
        for k, v in action.items():
            if k == "type":
                continue
            if k == "to":
                parts.append(f"→ {self.w['seat']} {v}")
            elif k in ("target", "index"):
                parts.append(f"#{v}")
            else:
                parts.append(str(_card(v)))
        return " ".join(parts)

    def event_text(self, e: dict, full: dict) -> str | None:
        w = self.w
        kind = e.get("type")
        if kind == "action":
            text = f"{self.who(e.get('seat'))}: {self.action_text(e.get('action'))}"
            violations = full.get("_violations") or []
            if self.seat is None and violations:
                text += f"   ✗ {w['cheat']}: " + "; ".join(self.rule(v) for v in violations)
            return text
        if kind == "window":
            return None  # every action opens one; the pass/call lines say how it ended
        if kind == "call":
            return f"!! {self.who(e['caller'])}: {w['call']} → {self.who(e['accused'])} " \
                   f"({self.action_text(e.get('action'))})"
        if kind == "court":
            rules = "; ".join(self.rule(r["id"]) for r in e.get("rules", []))
            return f"   {w['court']}: {rules}"
        if kind == "vote":
            return f"   {self.who(e['seat'])} {w['votes']} {w['pidor'] if e['guilty'] else w['clean']}"
        if kind == "abstain":
            return f"   {self.who(e['seat'])} {w['abstains']}"
        if kind == "verdict":
            outcome = {"guilty": w["guilty"], "honest": w["honest"], "tie": w["tie"],
                       "clean": w["clean"]}.get(e["outcome"], e["outcome"])
            score = f" ({e['pidor']}:{e['clean']})" if "pidor" in e else ""
            return f"   ⚖ {w['verdict']}: {outcome}{score}"
        if kind == "undo":
            return f"   ↶ {w['undo']}: {self.who(e['seat'])} {self.action_text(e.get('action'))}"
        if kind == "mark":
            return f"   ● {w['mark']} → {'—' if e['seat'] is None else self.who(e['seat'])} ({e['reason']})"
        if kind == "game_over":
            return self.result_text(e.get("result"))
        fields = " ".join(f"{k}={_card(v)}" for k, v in e.items() if k != "type")
        return f"   · {kind} {fields}".rstrip()

    def value_text(self, value) -> str:
        if isinstance(value, dict) and "type" in value:
            return self.action_text(value)
        return str(_card(value))

    def result_text(self, result) -> str:
        w = self.w
        if not result:
            return f"== {w['result']}: —"
        if result.get("draw"):
            return f"== {w['result']}: {w['draw']}; order {result.get('order')}"
        return f"== {w['result']}: {self.who(result.get('loser'))} {w['loser']}; order {result.get('order')}"

    # ------------------------------------------------------------------ board

    def board(self) -> list[str]:
        t = self.rerun.table if self.rerun else None
        if t is None or t.game is None:
            return []
        if self.seat is None:
            return [f"   [{zone}] {' '.join(card_text(c) for c in cards) or '—'}"
                    for zone, cards in t.game.zones().items()]
        view = t.view(self.seat)
        out = []
        for key, value in view.items():
            if key in ("table", "game", "players", "seat", "result", "to_act"):
                continue
            out.append(f"   [{key}] {_deep_cards(value)}")
        return out

    # ------------------------------------------------------------------ records

    def records(self) -> Iterator[tuple[str, list[str]]]:
        """``(kind, lines)`` per record."""
        log = self.log
        header = log.header
        if header is None:
            yield "header", ["(not a game log)"]
            return
        opts = header.get("options", {})
        lines = [f"{header.get('game')} — {opts.get('players')} players, deck {opts.get('deck')}, "
                 f"engine {header.get('engine')}, game {header.get('table', {}).get('number')} at the table"]
        for i, s in enumerate(self.seats):
            lines.append(f"   {self.who(i)}: {s.get('spec') or s.get('kind')}")
        deal = header.get("deal") or {}
        if "commitment" in deal:
            lines.append(f"   deal committed: SHA-256(server seed) = {deal['commitment']}")
        elif "deck" in deal:
            lines.append("   deal: an explicit deck (not committed)")
        if self.note:
            lines.append("   " + self.note)
        yield "header", lines
        rerun = self.rerun
        for index, rec in enumerate(log.records[1:], start=1):
            kind = rec.get("kind")
            if kind == "end":
                yield "end", self.footer_lines(rec)
                continue
            lines = []
            passed = rec.get("passed")
            if isinstance(passed, dict):
                lines.append(f"   {self.w['pass']}: " + ", ".join(str(s) for s in passed.get("seats", [])))
            if kind == "tick":
                lines.append(f"   ⏱ {rec.get('now')}")
            if kind == "act" and rec.get("auto"):
                lines.append(f"   ({self.who(rec.get('seat'))}: {rec['auto']}, the honest bot plays, T9)")
            for e in rec.get("events", []):
                text = self.event_text(_project(e, self.seat), e)
                if text:
                    if self.seat is None and e.get("_private"):
                        text += "   ⟨" + "; ".join(
                            f"{s}: " + " ".join(f"{k}={self.value_text(v)}" for k, v in fields.items())
                            for s, fields in e["_private"].items()) + "⟩"
                    lines.append(text)
            if rerun is not None:
                try:
                    rerun.run(index, rec, self.start_args)
                except Exception as e:  # noqa: BLE001 - show the log anyway
                    lines.append(f"   (the engine cannot follow the log from here: {getattr(e, 'reason', e)})")
                    rerun = self.rerun = None
            if kind == "start":
                lines.extend(self.board())
            yield kind, lines
        if log.problem is not None:
            yield "problem", [f"!! {log.problem.kind} at record {log.problem.index}: {log.problem.reason}"]

    def footer_lines(self, rec: dict) -> list[str]:
        out = []
        if rec.get("status") == "aborted":
            out.append(f"== {self.w['aborted']}: {rec.get('reason')}")
        else:
            out.append(self.result_text(rec.get("result")))
        out.append(f"   {self.w['mark']}: {'—' if rec.get('mark') is None else self.who(rec.get('mark'))}")
        reveal = rec.get("reveal") or {}
        if reveal.get("server_seed"):
            out.append(f"   server seed revealed: {reveal['server_seed']}")
        return out


def _deep_cards(value):
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_deep_cards(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        conv = _card(value)
        if conv is not value:
            return conv
        return "[" + ", ".join(str(_deep_cards(v)) for v in value) + "]"
    return _card(value)


def replay_lines(log: LogFile, seat: int | None = None, lang: str = "ru", *, step: bool = False,
                 wait: Callable[[], bool] | None = None) -> Iterator[str]:
    """The replay text line by line. With ``step``, the board follows every step and
    ``wait()`` is called between steps (return ``False`` to stop waiting)."""
    r = Replay(log, seat, lang)
    for kind, lines in r.records():
        if not lines:
            continue
        yield from lines
        if step and kind in ("act", "call", "vote", "abstain", "tick", "pass"):
            yield from r.board()
            if wait is not None and not wait():
                wait = None
