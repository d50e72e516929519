"""A table's seeds at the server (T10; protocol/LOGS.md): a seat's part of the next deal as
the ``seed`` request gives it, and the commitment to the server's part that the table
info shows before anyone contributes. The deal key itself is
:func:`pidor.gamelog.deal.deal_key` of both."""

from __future__ import annotations

from ..gamelog.deal import MAX_SEAT_SEED, commitment
from .requests import RequestError

__all__ = ["parse_seed", "commitment_hex"]

_HEX = "0123456789abcdefABCDEF"


def parse_seed(value) -> bytes | None:
    """A ``seed`` request's ``seed``: bin or a hex string of at most ``MAX_SEAT_SEED``
    bytes, or nil (no seed)."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
    elif isinstance(value, str):
        if len(value) > 2 * MAX_SEAT_SEED:
            raise RequestError("bad_seed", f"a seed is at most {MAX_SEAT_SEED} bytes ({2 * MAX_SEAT_SEED} hex digits)")
        if len(value) % 2 or value.strip(_HEX):
            raise RequestError("bad_seed", "a seed given as a string must be hex, two digits a byte")
        raw = bytes.fromhex(value)
    else:
        raise RequestError("bad_request", "seed.seed must be bin, a hex string or null")
    if len(raw) > MAX_SEAT_SEED:
        raise RequestError("bad_seed", f"a seed is at most {MAX_SEAT_SEED} bytes, not {len(raw)}")
    return raw


def commitment_hex(server_seed: bytes) -> str:
    """The commitment to a server seed as the table info shows it: SHA-256, hex."""
    return commitment(server_seed).hex()
