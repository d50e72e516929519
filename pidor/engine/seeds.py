"""Deterministic randomness from seeds (T10), with no dependence on Python's ``random``.

A :class:`Rng` is a stream of bytes ``HMAC-SHA-256(key, label ‖ counter)`` with an
8-byte big-endian counter starting at 0, read four bytes at a time as big-endian
unsigned integers. ``below(n)`` uses rejection sampling (no modulo bias):
draw ``u`` until ``u < 2**32 - (2**32 % n)``, then return ``u % n``.

``shuffled(cards, key)`` is Fisher–Yates on a copy: for ``i`` from ``len-1`` down
to ``1``, ``j = below(i + 1)`` on the stream labelled ``b"deck"``, swap ``i`` and
``j``. ``protocol/LOGS.md`` gives a worked example with all the bytes.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["Rng", "shuffled"]

_U32 = 1 << 32


class Rng:
    __slots__ = ("_key", "_label", "_counter", "_buf", "_pos")

    def __init__(self, key: bytes, label: bytes | str) -> None:
        if isinstance(label, str):
            label = label.encode()
        self._key = bytes(key)
        self._label = label
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def _u32(self) -> int:
        if self._pos + 4 > len(self._buf):
            msg = self._label + self._counter.to_bytes(8, "big")
            self._buf = hmac.new(self._key, msg, hashlib.sha256).digest()
            self._counter += 1
            self._pos = 0
        u = int.from_bytes(self._buf[self._pos:self._pos + 4], "big")
        self._pos += 4
        return u

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _U32:
            raise ValueError(f"below() needs 0 < n <= 2**32, got {n}")
        limit = _U32 - (_U32 % n)
        while True:
            u = self._u32()
            if u < limit:
                return u % n

    def random(self) -> float:
        """A float in ``[0, 1)`` with 32 bits of resolution."""
        return self._u32() / _U32

    def choice(self, seq):
        return seq[self.below(len(seq))]



def shuffled(cards: list[int], key: bytes) -> list[int]:
    """Fisher–Yates with rejection sampling on the ``deck`` stream of ``key``."""
    out = list(cards)
    rng = Rng(key, b"deck")
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
