"""Provably fair deals (T10): the server commits to a secret seed, the seats may add
their own seeds, and the deal key comes from all of them.

* ``server_seed``: 32 secret bytes chosen by the server (``os.urandom``).
* ``commitment = SHA-256(server_seed)``: published in the log header (and to the seats)
  before the deal.
* ``seat_seeds``: one optional byte string per seat (at most :data:`MAX_SEAT_SEED` bytes);
  a seat that gives none counts as the empty string.
* ``key = HMAC-SHA-256(server_seed, message)`` with
  ``message = b"pidor-deal/1" ‖ u8(number of seats) ‖ for each seat in order:
  u16-BE(len(seed)) ‖ seed``.
* The engine deals from ``key``: the deck is ``shuffled(cards.deck(size), key)``
  (``pidor.engine.seeds``) and the «бутылка» (P1, D2) is ``Rng(key, b"bottle")``.
* The footer reveals ``server_seed``; anyone recomputes the commitment, the key and the deal.

``protocol/LOGS.md`` states all of this with a worked example (all the bytes), and a test
checks that example against this code.
"""

from __future__ import annotations

import hashlib
import hmac
import os

__all__ = [
    "DEAL_LABEL",
    "MAX_SEAT_SEED",
    "SERVER_SEED_BYTES",
    "new_server_seed",
    "commitment",
    "deal_message",
    "deal_key",
    "check_reveal",
]

DEAL_LABEL = b"pidor-deal/1"
SERVER_SEED_BYTES = 32
MAX_SEAT_SEED = 64


def new_server_seed() -> bytes:
    """A fresh secret server seed (the server's; matches derive theirs from ``--seed``)."""
    return os.urandom(SERVER_SEED_BYTES)


def commitment(server_seed: bytes) -> bytes:
    """``SHA-256(server_seed)``: what the header publishes before the deal."""
    return hashlib.sha256(server_seed).digest()


def _check_seeds(server_seed: bytes, seat_seeds: list) -> None:
    if not isinstance(server_seed, (bytes, bytearray)) or len(server_seed) != SERVER_SEED_BYTES:
        raise ValueError(f"the server seed must be {SERVER_SEED_BYTES} bytes")
    if not 1 <= len(seat_seeds) <= 255:
        raise ValueError("between 1 and 255 seats")
    for i, s in enumerate(seat_seeds):
        if s is not None and (not isinstance(s, (bytes, bytearray)) or len(s) > MAX_SEAT_SEED):
            raise ValueError(f"seat {i}: a seat seed is at most {MAX_SEAT_SEED} bytes")


def deal_message(seat_seeds: list[bytes | None]) -> bytes:
    """The canonical encoding of the seats' seeds that the key is computed over."""
    out = [DEAL_LABEL, bytes([len(seat_seeds)])]
    for s in seat_seeds:
        s = s or b""
        out.append(len(s).to_bytes(2, "big"))
        out.append(bytes(s))
    return b"".join(out)


def deal_key(server_seed: bytes, seat_seeds: list[bytes | None]) -> bytes:
    """The key the engine shuffles and picks the first player with."""
    _check_seeds(server_seed, seat_seeds)
    return hmac.new(bytes(server_seed), deal_message(seat_seeds), hashlib.sha256).digest()


def check_reveal(commitment_bytes: bytes, server_seed: bytes) -> bool:
    """Whether the revealed seed is the one the header committed to."""
    return hmac.compare_digest(commitment(server_seed), commitment_bytes)
