"""A peer's value, shortened for an error message."""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = ["shown"]


class _Short(reprlib.Repr):
    """``reprlib`` bounds strings, containers and nesting; this also bounds integers
    without writing out their digits (``repr`` of a 5000-digit integer raises), and
    writes ``true``/``false``/``null`` as the peer wrote them."""

    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if x.bit_length() <= 128 else f"<a {x.bit_length()}-bit integer>"

    def repr_bool(self, x: bool, level: int) -> str:
        return "true" if x else "false"

    def repr_NoneType(self, x: None, level: int) -> str:
        return "null"


_SHORT = _Short()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 60, 60
_SHOWN_MAX = 100


def shown(value: Any) -> str:
    """A short ``repr`` of a value a peer sent, for an error message: the message goes back
    on the wire, and a frame or a string over the protocol's limits must never leave."""
    text = _SHORT.repr(value)
    return text if len(text) <= _SHOWN_MAX else text[:_SHOWN_MAX - 3] + "..."
