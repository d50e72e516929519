"""Deterministic randomness from seeds (T10), with no dependence on Python's ``random``.

A :class:`Rng` is a stream of bytes ``HMAC-SHA-256(key, label ‖ counter)`` with an
8-byte big-endian counter starting at 0, read four bytes at a time as big-endian
unsigned integers. ``below(n)`` uses rejection sampling (no modulo bias):
draw ``u`` until ``u < 2**32 - (2**32 % n)``, then return ``u % n``.

``shuffled(cards, key)`` is Fisher–Yates on a copy: for ``i`` from ``len-1`` down
to ``1``, ``j = below(i + 1)`` on the stream labelled ``b"deck"``, swap ``i`` and
``j``. ``protocol/LOGS.md`` gives a worked example with all the bytes. A game of several
deals (T15) shuffles its later deals from the same key on streams of their own labels
(``shuffled(cards, key, b"deal 2")``).
"""

from __future__ import annotations

import hashlib
import struct

__all__ = ["Rng", "shuffled"]

_U32 = 1 << 32
#: HMAC's pads (RFC 2104) as byte translations: ``key.translate(_IPAD)`` is ``key XOR 0x36…``.
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))
_BLOCK_U32S = struct.Struct(">8I").unpack  # one HMAC-SHA-256 block: eight u32, big-endian


class Rng:
    """The stream above. HMAC is computed from SHA-256 states keyed once (the inner one
    has absorbed the label too), copied for each block; a block is read as eight u32 at
    once. The numbers are exactly ``hmac.new(key, label ‖ counter, sha256)``'s (tested)."""

    __slots__ = ("_inner", "_outer", "_counter", "_block", "_pos")

    def __init__(self, key: bytes, label: bytes | str) -> None:
        if isinstance(label, str):
            label = label.encode()
        key = bytes(key)
        if len(key) > 64:  # RFC 2104: a key longer than the hash's block is hashed first
            key = hashlib.sha256(key).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._inner.update(label)
        self._outer = hashlib.sha256(key.translate(_OPAD))
        self._counter = 0
        self._block: tuple[int, ...] = ()
        self._pos = 8  # the next u32 of ``_block``; 8: a new block is due

    def _next_block(self) -> tuple[int, ...]:
        inner = self._inner.copy()
        inner.update(self._counter.to_bytes(8, "big"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        self._counter += 1
        self._block = _BLOCK_U32S(outer.digest())
        return self._block

    def _u32(self) -> int:
        pos = self._pos
        if pos == 8:
            self._next_block()
            pos = 0
        self._pos = pos + 1
        return self._block[pos]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _U32:
            raise ValueError(f"below() needs 0 < n <= 2**32, got {n}")
        limit = _U32 - (_U32 % n)
        while True:
            pos = self._pos  # (_u32, inline: every bot decision draws)
            if pos == 8:
                self._next_block()
                pos = 0
            self._pos = pos + 1
            u = self._block[pos]
            if u < limit:
                return u % n

    def random(self) -> float:
        """A float in ``[0, 1)`` with 32 bits of resolution."""
        return self._u32() / _U32

    def choice(self, seq):
        return seq[self.below(len(seq))]



def shuffled(cards: list[int], key: bytes, label: bytes = b"deck") -> list[int]:
    """Fisher–Yates with rejection sampling on the ``label`` stream of ``key`` (``deck``:
    every game's deal; T15: a later shuffle of a game of several deals, its own label)."""
    out = list(cards)
    rng = Rng(key, label)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
