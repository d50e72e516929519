"""The audit at the end of a replay: per seat, cheats (called / uncalled), convictions,
false calls, cards paid and received, and the final order.

It is counted from the log's full events. From one seat's view (``seat=N``) the uncalled
cheats of the others are not known to that seat and show as ``?``.
"""

from __future__ import annotations

__all__ = ["Audit"]

_HEAD = {
    "en": ("audit", "cheats called/uncalled", "convicted", "false calls", "paid/got", "order", "lost", "a draw"),
    "ru": ("аудит", "махлёж пойман/нет", "осуждён", "ложных «пидор!»", "отдал/получил", "порядок", "проиграл",
           "ничья"),
}


class Audit:
    def __init__(self, players: int, seat: int | None = None) -> None:
        self.seat = seat
        self.cheats = [0] * players
        self.called = [0] * players
        self.convicted = [0] * players
        self.false_calls = [0] * players
        self.paid = [0] * players
        self.got = [0] * players
        self._last: dict[int, list] = {}  # seat -> the violations of its last action

    def event(self, e: dict) -> None:
        """Count one event (in full form), in the log's order."""
        kind = e.get("type")
        try:
            if kind == "action":
                seat = e["seat"]
                self._last[seat] = list(e.get("_violations") or [])
                if self._last[seat]:
                    self.cheats[seat] += 1
            elif kind == "call" and self._last.get(e["accused"]):
                self.called[e["accused"]] += 1
            elif kind == "verdict":
                if e.get("outcome") == "guilty":
                    self.convicted[e["accused"]] += 1
                elif e.get("outcome") == "honest":
                    self.false_calls[e["caller"]] += 1
            elif kind == "give":
                self.paid[e["from"]] += 1
                self.got[e["to"]] += 1
        except (KeyError, IndexError, TypeError):
            pass  # a malformed event of a broken log: not counted (the replay says the log is broken)

    def lines(self, say, footer: dict | None) -> list[str]:
        head = _HEAD[say.lang]
        rows = [(head[0], head[1], head[2], head[3], head[4])]
        for s in range(len(self.cheats)):
            uncalled = self.cheats[s] - self.called[s]
            known = self.seat is None or self.seat == s
            rows.append((say.who(s), f"{self.called[s]}/{uncalled if known else '?'}", str(self.convicted[s]),
                         str(self.false_calls[s]), f"{self.paid[s]}/{self.got[s]}"))
        widths = [max(len(r[k]) for r in rows) for k in range(5)]
        out = ["   " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
        result = (footer or {}).get("result")
        if result:
            order = ", ".join(say.who(s) for s in result.get("order", []))
            end = head[7] if result.get("draw") else f"{head[6]}: {say.who(result.get('loser'))}"
            out.append(f"   {head[5]}: {order or '—'}; {end}")
        return out
