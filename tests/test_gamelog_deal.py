"""Provably fair deals (T10): the worked example in protocol/LOGS.md is recomputed here from
the code, line by line, and the engines deal what the document says they deal."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import msgpack
import pytest
from helpers import players_of

from pidor.cards import card_code, deck as full_deck, parse_cards
from pidor.games import GAME_IDS, spec
from pidor.engine.seeds import Rng, shuffled
from pidor.engine.table import Table
from pidor.gamelog.deal import check_reveal, commitment, deal_key, deal_message
from pidor.gamelog.format import ZERO, chain, frame

LOGS_MD = Path(__file__).resolve().parent.parent / "protocol" / "LOGS.md"


def doc_block(name: str) -> dict[str, str]:
    """The ``name: value`` lines of the fenced block ```text <name> in LOGS.md."""
    text = LOGS_MD.read_text(encoding="utf-8")
    m = re.search(rf"```text {re.escape(name)}\n(.*?)```", text, re.S)
    assert m, f"LOGS.md has no ```text {name} block"
    out = {}
    for line in m.group(1).splitlines():
        key, _, value = line.partition(":")
        out[key.strip()] = value.strip()
    return out


def hexbytes(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


@pytest.fixture(scope="module")
def example() -> dict[str, str]:
    return doc_block("deal-example")


def example_seeds(example) -> list[bytes | None]:
    return [None if s == "-" else bytes.fromhex(s) for s in example["seat_seeds"].split()]


def test_T10_worked_example_commitment_message_and_key(example):
    server = hexbytes(example["server_seed"])
    seeds = example_seeds(example)
    assert seeds == [b"alice", None, b"\xff\x00", None]
    assert commitment(server).hex() == example["commitment"]
    assert deal_message(seeds) == hexbytes(example["message"])
    assert deal_key(server, seeds).hex() == example["key"]


def test_T10_worked_example_stream_swaps_and_deck(example):
    key = hexbytes(example["key"])
    start = parse_cards(example["start"])
    assert start == full_deck(36)
    # The stream blocks, computed as the document defines them.
    blocks = sorted(k for k in example if k.startswith("deck."))
    for k in blocks:
        n = int(k.split(".")[1])
        assert hmac.new(key, b"deck" + n.to_bytes(8, "big"), hashlib.sha256).hexdigest() == example[k]
    # Fisher–Yates by hand from the documented blocks and j values.
    stream = b"".join(hexbytes(example[k]) for k in blocks)
    us = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, len(stream), 4)]
    js = [int(x) for x in example["j"].split()]
    cards = list(start)
    for step, i in enumerate(range(35, 0, -1)):
        limit = 2**32 - (2**32 % (i + 1))
        assert us[step] < limit  # the document says no draw is rejected
        assert us[step] % (i + 1) == js[step]
        cards[i], cards[js[step]] = cards[js[step]], cards[i]
    assert [card_code(c) for c in cards] == example["deck"].split()
    assert shuffled(start, key) == cards


def test_T10_worked_example_bottle_and_the_engines_deal(example):
    key = hexbytes(example["key"])
    assert hmac.new(key, b"bottle" + bytes(8), hashlib.sha256).hexdigest() == example["bottle.0"]
    first = int(example["first"])
    assert Rng(key, b"bottle").below(4) == first
    deck = example["deck"].split()
    # «пидор» (P2): seat s has cards s and n+s face down, 2n+s face up; seat `first` is on turn.
    t = Table({"game": "pidor", "players": 4, "deck": 36})
    t.start(seed=key)
    view = t.view(None)
    assert view["turn"] == first
    assert [s["cards"][-1] for s in view["stacks"]] == deck[8:12]
    zones = t.game.zones()
    assert [card_code(c) for c in zones["stack.0"]] == [deck[0], deck[4], deck[8]]
    # «дурак» (D1, D2): seat s gets s, n+s, …; the last card is the trump card; `first` attacks.
    t = Table({"game": "podkidnoy", "players": 4, "deck": 36})
    t.start(seed=key)
    assert sorted(t.view(0)["hand"]) == sorted(deck[0:24:4]) == sorted("Jh 8d Jc Js Qs 8h".split())
    assert t.view(None)["trump_card"] == deck[-1] == "Ad"
    assert t.to_act() == [first]
    # simple durak (V1): a hand of five
    t = Table({"game": "simple", "players": 4, "deck": 36})
    t.start(seed=key)
    assert sorted(t.view(0)["hand"]) == sorted(deck[0:20:4]) == sorted("Jh 8d Jc Js Qs".split())
    assert t.view(None)["trump_card"] == "Ad"


@pytest.mark.parametrize("game", [g for g in GAME_IDS if 36 in spec(g).decks])
def test_T10_every_game_deals_round_the_table_from_the_top(example, game):
    """LOGS.md section 3, step 5: the j-th seat from where the deal starts (seat 0, or the
    seat the game names) gets cards j, n + j, …, (k − 1)n + j of the shuffled deck, the rest
    is the deck, top first; a trump card is the deck's last. A game with a dealer (its view
    names him) deals from the seat after him, and his last card may lie face up on the table
    («сто одно», H2)."""
    key, deck = hexbytes(example["key"]), example["deck"].split()
    n = players_of(game, 4)
    t = Table({"game": game, "players": n, "deck": 36})
    t.start(seed=key)
    zones = {name: [card_code(c) for c in cards] for name, cards in t.game.zones().items()}
    rest = zones.get("deck", [])  # (a game that deals the whole deck has none)
    k = (36 - len(rest)) // n
    assert k * n + len(rest) == 36 and k >= 3
    assert rest == deck[k * n:]
    start = next(s for s in range(n) for name, cards in zones.items() if name.endswith(f".{s}") and deck[0] in cards)
    dealer = t.view(None).get("dealer")
    for j in range(n):
        s = (start + j) % n
        dealt = sorted(c for name, cards in zones.items() if name.endswith(f".{s}") for c in cards)
        own = deck[j:k * n:n]
        if s == dealer and len(dealt) < k:  # his last card, face up on the table
            assert own[-1] == deck[k * n - 1] in zones["table"] and dealt == sorted(own[:-1])
        else:
            assert dealt == sorted(own), s
    assert t.view(None).get("trump_card", deck[-1]) == deck[-1]


def test_T10_chain_example_in_the_doc():
    ex = doc_block("chain-example")
    body = hexbytes(ex["body"])
    assert msgpack.unpackb(body) == {"kind": "tick", "now": 2.5, "events": []}
    assert msgpack.packb({"kind": "tick", "now": 2.5, "events": []}) == body
    assert chain(ZERO, body).hex() == ex["h"]
    assert frame(body, chain(ZERO, body)) == b"\x92\xc4\x20" + body + b"\xc4\x20" + hexbytes(ex["h"])


def test_T10_every_seed_changes_the_key_and_none_equals_empty():
    server = bytes(range(32))
    base = deal_key(server, [b"a", None, None])
    assert deal_key(server, [b"a", b"", None]) == base  # no seed is the empty seed
    assert deal_key(server, [b"a", b"b", None]) != base
    assert deal_key(server, [None, b"a", None]) != base  # the seat matters
    assert deal_key(server, [b"a", None]) != deal_key(server, [b"a", None, None])  # the count matters
    assert deal_key(bytes(32), [b"a", None, None]) != base
    # Lengths are encoded: moving a byte across the seat boundary changes the key.
    assert deal_key(server, [b"ab", b"c"]) != deal_key(server, [b"a", b"bc"])


def test_T10_reveal_check_and_seed_limits():
    server = bytes(range(32))
    assert check_reveal(commitment(server), server)
    assert not check_reveal(commitment(server), bytes(32))
    with pytest.raises(ValueError):
        deal_key(b"short", [None])
    with pytest.raises(ValueError):
        deal_key(server, [b"x" * 65])


@pytest.mark.parametrize("key", [b"", b"k", bytes(range(64)), bytes(range(65)), b"\xff" * 200])
def test_T10_the_stream_is_hmac_sha256_of_label_and_counter(key):
    """Rng keys SHA-256 once and copies the states (fast); its numbers are exactly the
    u32s of ``hmac.new(key, label ‖ counter)`` as T10 defines them, and ``below``
    rejects what T10 rejects."""
    for label in (b"deck", "bot:3", b""):
        raw = label.encode() if isinstance(label, str) else label
        stream = b"".join(hmac.new(key, raw + n.to_bytes(8, "big"), hashlib.sha256).digest() for n in range(5))
        us = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, len(stream), 4)]
        rng = Rng(key, label)
        assert [rng._u32() for _ in range(len(us))] == us
        # below(n): u % n for the first u under the limit; n = 3·2^30 rejects u >= 3·2^30.
        n, rng, expected, i = 3 << 30, Rng(key, label), [], 0
        for _ in range(8):
            while us[i] >= n:
                i += 1
            expected.append(us[i] % n)
            i += 1
        assert [rng.below(n) for _ in range(8)] == expected


def test_T15_a_later_shuffle_is_fisher_yates_on_the_stream_of_its_own_label():
    """T15: a game of several deals shuffles each later deal (and each deck rebuilt from the
    table) from the same key on a stream of its own label: Fisher–Yates as for the first deal
    (section 3, step 5), its ``below`` drawn from ``Rng(key, label)``; the default label is ``deck``."""
    key, cards = bytes(range(32)), full_deck(36)
    rng = Rng(key, b"deal 2")
    expected = list(cards)
    for i in range(len(expected) - 1, 0, -1):
        j = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled(cards, key, b"deal 2") == expected != shuffled(cards, key)
    assert shuffled(cards, key, b"deck") == shuffled(cards, key)
