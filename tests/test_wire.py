"""The sans-IO codec: framing, limits, no ext types, any split of the byte stream."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pidor import wire


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def test_encode_is_a_length_then_one_map():
    data = wire.encode({"type": "ping", "id": 7})
    n = int.from_bytes(data[:4], "big")
    assert n == len(data) - 4
    assert msgpack.unpackb(data[4:]) == {"type": "ping", "id": 7}


def test_decoder_accepts_any_split():
    messages = [{"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "Вася"},
                {"type": "act", "action": {"type": "beat", "card": "Th", "target": 2}, "id": "x"},
                {"type": "ping"}]
    data = b"".join(wire.encode(m) for m in messages)
    for step in (1, 2, 3, 5, 7, len(data)):
        d = wire.Decoder()
        out = []
        for i in range(0, len(data), step):
            d.receive_data(data[i:i + step])
            while (m := d.next_message()) is not None:
                out.append(m)
        assert out == messages


def test_oversized_frame_is_refused_from_its_header():
    d = wire.Decoder()
    with pytest.raises(wire.RemoteProtocolError) as e:
        d.receive_data((wire.MAX_FRAME + 1).to_bytes(4, "big"))
    assert e.value.code == "frame_too_large"
    # A frame of exactly the limit is fine.
    parts = {k: "x" * (wire.MAX_STR - 100) for k in "abcd"}
    parts["e"] = ""
    parts["e"] = "y" * (wire.MAX_FRAME - len(msgpack.packb(parts)) - 2)  # str16 header grows by 2
    body = msgpack.packb(parts)
    assert len(body) == wire.MAX_FRAME
    d = wire.Decoder()
    d.receive_data(frame(body))
    assert d.next_message() == parts


@pytest.mark.parametrize("body,code", [
    (msgpack.packb({"a": "x" * (wire.MAX_STR + 1)}), "too_large"),
    (msgpack.packb({"a": b"x" * (wire.MAX_BIN + 1)}), "too_large"),
    (msgpack.packb({"a": list(range(wire.MAX_ARRAY + 1))}), "too_large"),
    (msgpack.packb({str(i): i for i in range(wire.MAX_MAP + 1)}), "too_large"),
    (b"\x81\xa1a" + b"\x91" * wire.MAX_DEPTH + b"\x01", "too_deep"),
    (b"\x81\xa1a" + b"\x91" * 5000 + b"\x01", "too_deep"),
    (msgpack.packb({"a": msgpack.ExtType(1, b"x")}), "bad_frame"),
    (msgpack.packb({1: "int key"}), "bad_frame"),
    (msgpack.packb({b"bin key": 1}), "bad_frame"),
    (msgpack.packb([1, 2]), "bad_frame"),
    (msgpack.packb({"a": 1}) + b"\x01", "bad_frame"),
    (msgpack.packb({"a": float("nan")}), "bad_frame"),
    (b"\x81\xa1a\xc1", "bad_frame"),  # 0xc1 is never used
    (b"\x81", "bad_frame"),  # truncated inside the frame
])
def test_limits_and_forbidden_values(body, code):
    with pytest.raises(wire.RemoteProtocolError) as e:
        wire.decode_frame(body)
    assert e.value.code == code


def test_nesting_up_to_the_limit_is_accepted():
    body = b"\x81\xa1a" + b"\x91" * (wire.MAX_DEPTH - 2) + b"\x01"
    assert wire.decode_frame(body)["a"] is not None


def test_end_of_stream_inside_a_frame():
    d = wire.Decoder()
    d.receive_data(wire.encode({"type": "ping"})[:-1])
    assert d.next_message() is None
    d.receive_data(b"")
    with pytest.raises(wire.RemoteProtocolError):
        d.next_message()


def test_encode_refuses_what_the_peer_would_refuse():
    with pytest.raises(wire.LocalProtocolError):
        wire.encode({"big": "x" * (wire.MAX_FRAME + 1)})
    with pytest.raises(wire.LocalProtocolError):
        wire.encode(["not", "a", "map"])


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), values, max_size=6), st.integers(1, 40))
def test_round_trip(message, step):
    data = wire.encode(message)
    d = wire.Decoder()
    out = []
    for i in range(0, len(data), step):
        d.receive_data(data[i:i + step])
        while (m := d.next_message()) is not None:
            out.append(m)
    assert out == [message]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), values, max_size=6), st.text(max_size=8), st.lists(values, max_size=20))
def test_a_frame_of_packed_parts_is_the_frame_of_the_values(message, key, items):
    """``encode_packed`` (the lobby's list page, from each table's cached packed info)
    writes the very bytes ``encode`` writes for the same values, and refuses a frame over
    the limit alike."""
    message = {**message, key: items}
    assert wire.encode_packed({**message, key: [wire.pack(v) for v in items]}, key) == wire.encode(message)


def test_a_frame_of_packed_parts_over_the_limit_is_refused():
    with pytest.raises(wire.LocalProtocolError):
        wire.encode_packed({"tables": [wire.pack("x" * 1000)] * 70}, "tables")


VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"


@pytest.mark.parametrize("name", sorted(p.name for p in VECTORS.glob("*-session.json")))
def test_session_vectors_decode_and_encode_exactly(name):
    session = json.loads((VECTORS / name).read_text())
    assert session["protocol"] == wire.PROTOCOL_VERSION
    stream = {"c2s": wire.Decoder(), "s2c": wire.Decoder()}
    kinds = set()
    for f in session["frames"]:
        raw = bytes.fromhex(f["hex"])
        d = stream[f["dir"]]
        d.receive_data(raw)
        assert d.next_message() == f["data"]
        assert wire.encode(f["data"]) == raw
        kinds.add(f["data"]["type"])
    assert {"welcome", "joined", "turn", "event", "ok"} <= kinds
    results = [f["data"]["event"] for f in session["frames"]
               if f["data"]["type"] == "event" and f["data"]["event"]["type"] == "results"]
    assert len(results) == 1  # a whole game


def test_codec_vectors():
    vectors = json.loads((VECTORS / "codec.json").read_text())
    assert vectors["limits"]["MAX_FRAME"] == wire.MAX_FRAME
    for v in vectors["accept"]:
        d = wire.Decoder()
        d.receive_data(bytes.fromhex(v["hex"]))
        assert d.next_message() == v["data"]
    for v in vectors["refuse"]:
        with pytest.raises(wire.RemoteProtocolError) as e:
            d = wire.Decoder()
            d.receive_data(bytes.fromhex(v["hex"]))
            d.next_message()
        assert e.value.code == v["code"], v["why"]
