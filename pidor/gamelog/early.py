"""The table's events as the logs of the first release's time wrote them.

From the first logs (5512783) to the first release (6172737) the table changed two of its
public events without a new engine version (pidor-1 and durak-1 throughout):

* ``window_closed``, when everyone passed or the window's time ran out, came with 8977bf4:
  before it a closing window had no event;
* ``window`` repeated the action it opened for (``action``, as its ``action`` event shows
  it) from 2366e78 to 87fb629 (66c16ba left it to the server's messages).

A log of those engine versions (``Game.early_events``) keeps to one form throughout: its
first closing window says whether it has ``window_closed`` events, its first window whether
windows carry their action. :class:`EarlyEvents` turns the events today's table gives into
that form, so the verifier compares them whole; every other event, and every field of
these, is checked as it is.
"""

from __future__ import annotations

__all__ = ["EarlyEvents"]


class EarlyEvents:
    """The form of one log's table events, found as its first windows show it."""

    def __init__(self) -> None:
        self.closes: bool | None = None  # a closing window has a window_closed event
        self.actions: bool | None = None  # a window event repeats its action

    def read(self, produced: list[dict], recorded) -> list[dict]:
        """``produced`` (today's table's events, in their log form) as this log writes them;
        ``recorded``: the record's events, which decide the form where it is still open."""
        out = []
        action = None
        for e in produced:
            kind = e["type"]
            if kind == "action":
                action = e["action"]
            elif kind == "window_closed":
                if self.closes is None:
                    self.closes = any(_is(r, "window_closed") for r in _events(recorded))
                if not self.closes:
                    continue
            elif kind == "window":
                if self.actions is None:
                    first = next((r for r in _events(recorded) if _is(r, "window")), {})
                    self.actions = "action" in first
                if self.actions:
                    e = {**e, "action": action}
            out.append(e)
        return out


def _events(recorded) -> list:
    return recorded if type(recorded) is list else []


def _is(event, kind: str) -> bool:
    return type(event) is dict and event.get("type") == kind
