"""Request fields and request errors: the checks every handler shares.

A refused request is answered with ``{"type": "error", "id", "code", "message"}``; the
codes are listed in ``protocol/PROTOCOL.md`` (``ERRORS`` below is the same list).
"""

from __future__ import annotations

from typing import Any

from ..gamelog.deal import MAX_SEAT_SEED

__all__ = ["RequestError", "ERRORS", "field_int", "field_bool", "field_str", "request_id"]

#: Every error code the server sends, with its meaning (PROTOCOL.md "Errors").
ERRORS = {
    # connection level (fatal: the server closes the connection after sending them)
    "bad_frame": "the frame is not one msgpack map with string keys (or uses ext types)",
    "frame_too_large": "the frame's announced length is over the limit",
    "too_large": "a string, bin, array or map in the frame is over its limit",
    "too_deep": "maps and arrays are nested too deep",
    "version_mismatch": "the hello's protocol version is not this server's",
    "hello_timeout": "no hello arrived in time after connecting",
    "idle_timeout": "nothing arrived for too long",
    "replaced": "the same player connected again; this older connection is closed",
    "shutdown": "the server is shutting down",
    # request level (the connection stays open)
    "bad_request": "a field is missing or has the wrong type",
    "unknown_type": "the message type is not one the server knows",
    "hello_first": "the first message must be hello",
    "already_hello": "hello was already accepted on this connection",
    "unknown_token": "no player has this token",
    "bad_options": "a table option is unknown, of another game, of the wrong type, or out of range",
    "no_table": "no such table (or it is closed)",
    "not_seated": "you have no seat at this table",
    "already_seated": "you already sit at another table (watch: at this one)",
    "table_full": "the table has no free seat",
    "spectators_full": "the table has as many spectators as it takes",
    "seat_taken": "the seat you asked for is not free",
    "game_running": "a game is being played at this table",
    "seats_empty": "a game starts only when every seat is taken",
    "not_host": "only the host starts a game or seats a bot",
    "busy": "the table is flooded with requests; try again",
    "server_full": "the server holds as many connections or tables as it may (in all or from your address)",
    "rate_limited": "your address (or connection) made too many of these lately (tables, new players, list pages); "
                    "retry after the wait named",
    "bad_seed": f"T10: a seat seed is bin or hex of at most {MAX_SEAT_SEED} bytes",
    "unavailable": "the server cannot store this now (its disk is full?); try later",
    "no_log": "the server cannot write this game's log; the game was not started",
    # from the rules (the table layer): the request changed nothing
    "invalid_action": "the action is malformed (unknown type, missing or mistyped fields)",
    "impossible_action": "T1: not possible at a real table (a card you do not hold, not your turn, ...)",
    "not_now": "well formed, but not now (a window is open, the court sits, no game ...)",
    "must_play_honestly": "T6/D11: after a guilty verdict your next action must be honest",
    "stale": "the game moved on since the event you decided from; decide again from what followed",
}


class RequestError(Exception):
    """A refused request. ``hold``: seconds the connection is read no further (a
    ``rate_limited`` list: a client that asks again at once gets nothing for it)."""

    def __init__(self, code: str, message: str, hold: float | None = None) -> None:
        assert code in ERRORS, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.hold = hold


def request_id(msg: dict) -> Any:
    """The request id to echo: absent/nil, an integer or a string of at most 64 bytes."""
    rid = msg.get("id")
    if rid is None or (type(rid) is int) or (isinstance(rid, str) and len(rid) <= 64):
        return rid
    raise RequestError("bad_request", "id must be an integer or a string of at most 64 characters")


def field_int(msg: dict, name: str, optional: bool = False) -> int | None:
    value = msg.get(name)
    if value is None and optional:
        return None
    if type(value) is not int:
        raise RequestError("bad_request", f"{msg.get('type')}.{name} must be an integer")
    return value


def field_bool(msg: dict, name: str, default: bool | None = None) -> bool:
    value = msg.get(name)
    if value is None and default is not None:
        return default
    if type(value) is not bool:
        raise RequestError("bad_request", f"{msg.get('type')}.{name} must be true or false")
    return value


def field_str(msg: dict, name: str, optional: bool = False, max_len: int = 256) -> str | None:
    value = msg.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > max_len:
        raise RequestError("bad_request", f"{msg.get('type')}.{name} must be a string of 1..{max_len} characters")
    return value
