"""The exact endgame of two-player durak (:mod:`pidor.games.durak.endgame`): positions whose
answer is known by hand, the search's play checked against the engine's rules, and its use
by the heuristic (issue 30)."""

from __future__ import annotations

import random

import pytest

from pidor.cards import parse_card
from pidor.games.durak import endgame as eg
from pidor.games.durak.bots import durak_move
from pidor.games.durak.endgame import ATTACK, DEFEND, Endgame, TooDeep, mask
from pidor.games.durak.engine import PerevodnoyGame, PodkidnoyGame

HEARTS = 2  # the trump suit in these positions (``cdhs``)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def lead(attacker: str, defender: str) -> tuple:
    """A bout's start: the attacker to lead (the limit: the defender's hand, D3)."""
    a, d = cards(attacker), cards(defender)
    return (mask(a), mask(d), 0, 0, min(6, len(d)), ATTACK, 0)


def test_forced_win():
    # D3: 7c led, 7s thrown in; the defender holds no club, spade or trump: he takes, and
    # the attacker is out (D9)
    e = Endgame(HEARTS)
    pos = lead("7c 7s", "6d 8d")
    assert e.value(pos) == 1
    move, value = e.best(pos)
    assert value == 1 and move in (("attack", parse_card("7c")), ("attack", parse_card("7s")))


def test_forced_loss():
    # the limit is one card (the defender holds one, D3): whichever six is led, the ace of
    # trumps covers it with the defender's last card, and the attacker is the durak (D9)
    e = Endgame(HEARTS)
    pos = lead("6c 6s", "Ah")
    assert e.value(pos) == -1
    assert e.best(pos)[1] == -1


def test_both_out_at_once_is_a_draw():
    # D9: the last card covered with the last card: nobody holds cards
    assert Endgame(HEARTS).value(lead("6c", "7c")) == 0


def test_the_cheapest_lead_loses():
    # 9c (the cheapest, the heuristic's lead) is covered by Tc; then the defender leads Jd and
    # Ad one at a time (the limit is the one card the attacker holds) and the attacker takes
    # both: the durak. Ks cannot be covered (no spade, no trump): the defender takes it, and
    # 9c, the attacker's last card, leaves him out with four cards in the other hand.
    hand, other = cards("9c Ks"), cards("Tc Jd Ad")
    obvious = durak_move(hand, [], [], HEARTS, 4, 0, False, [("attack", c) for c in hand])
    assert obvious == ("attack", parse_card("9c"))
    e = Endgame(HEARTS)
    pos = lead("9c Ks", "Tc Jd Ad")
    move, value = e.best(pos, prefer=obvious)
    assert (move, value) == (("attack", parse_card("Ks")), 1)


def test_the_defender_takes_rather_than_cover():
    # 6s led (limit 2; the attacker keeps Kc 6c). Covered with the trump 9h, 6c follows it
    # in (D3) and only a club or a trump beats it: the defender takes four cards, Kc is led
    # as the attacker's last and the defender is the durak. Taken (D6), the defender covers
    # whatever comes next with 9h and leads 9d and 6s, one at a time, to the one card left.
    e = Endgame(HEARTS)
    six = parse_card("6s")
    pos = (mask(cards("Kc 6c")), mask(cards("9d 9h")), 1 << six, 1 << six, 2, DEFEND, 0)
    cover = ("cover", parse_card("9h"), six)
    assert e.moves(pos) == [cover, ("take",)]
    assert e.best(pos, prefer=cover) == (("take",), 1)
    at_table = ("cover", parse_card("9h"), 0)  # (the engine's form: the table's index)
    assert durak_move(cards("9d 9h"), [six], [-1], HEARTS, 4, 0, True, [at_table, ("take",)]) == at_table


def test_too_deep():
    rng = random.Random(3)
    deck = [c for c in range(52) if c % 13 >= 4]
    hands = rng.sample(deck, 18)
    e = Endgame(HEARTS, nodes=50)
    with pytest.raises(TooDeep):
        e.value((mask(hands[:9]), mask(hands[9:]), 0, 0, 6, ATTACK, 0))


# --- the search's moves on the engine ------------------------------------------------------


def _setup(cls, hands: list[list[int]], trump_card: int, attacker: int, last: bool = False):
    """Two hands; the deck empty, or (``last``) only the trump card left in it (D1)."""
    g = cls.new({"players": 2}, seed=b"endgame")
    g.trump_card, g.trump = trump_card, trump_card // 13
    used = set(hands[0]) | set(hands[1]) | ({trump_card} if last else set())
    g.deck, g.hands = [trump_card] if last else [], [list(h) for h in hands]
    g.discard = [c for c in range(52) if c % 13 >= 4 and c not in used]
    g.attack, g.cover = [], []
    g._start_bout(attacker)
    return g


def _position(g, kind: int) -> tuple:
    d = g.owner[g.defender]
    U = mask(x for x, c in zip(g.attack, g.cover) if c < 0)
    C = mask(g.attack + [c for c in g.cover if c >= 0])
    return (mask(g.hands[1 - d]), mask(g.hands[d]), U, C, g.limit, kind, mask(g.deck))


def _drive(g, e: Endgame) -> tuple[int, int]:
    """Both players by the search, the attacker first where he may throw in (the search's
    order); each move must be honest on the engine. The first mover's value and seat."""
    passed, root = False, None
    for _ in range(500):
        if g.result is not None:
            return root
        d = g.owner[g.defender]
        a = 1 - d
        if not g.attack:
            kind, passed = ATTACK, False
        elif passed:
            kind = DEFEND
        else:
            A, _, U, C, lim, _, _ = _position(g, ATTACK)
            if A and len(g.attack) < lim and A & eg._ranks(C):
                kind = ATTACK
            elif U:
                kind = DEFEND
            else:  # all covered, nothing to throw in: the attacker says «бито» (D5)
                g.perform(a, ("bito",), ())
                g.advance()
                continue
        pos = _position(g, kind)
        move, value = e.best(pos)
        mover = a if kind == ATTACK else d
        if root is None:
            root = (value, mover)
        if move[0] == "pass":
            if pos[2]:
                passed = True
                continue
            action = ("bito",)
        elif move[0] == "cover":
            action = ("cover", move[1], g.attack.index(move[2]))
        else:
            action = move
        assert action in g.honest_actions(mover)
        g.perform(mover, action, ())
        g.advance()
        if move[0] != "attack":
            passed = False
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("cls", [PodkidnoyGame, PerevodnoyGame])
def test_search_agrees_with_the_engine(cls, last):
    """Played out on the engine by the search for both sides, every endgame ends as the
    search said at its start (D3-D9; D7 in perevodnoy); ``last``: the trump card still to
    draw (D8: to whoever holds fewer than six first)."""
    rng = random.Random(7)
    deck = [c for c in range(52) if c % 13 >= 4]
    for sizes in [(2, 2), (3, 3), (3, 4), (4, 3), (6, 2), (2, 6)] * 4:
        dealt = rng.sample(deck, sum(sizes))
        hands = [dealt[:sizes[0]], dealt[sizes[0]:]]
        trump_card = rng.choice([c for c in deck if c not in dealt])
        g = _setup(cls, hands, trump_card, rng.randrange(2), last)
        value, seat = _drive(g, Endgame(g.trump, cls.transfers, nodes=200000))
        result = g.result
        got = 0 if result["draw"] else (1 if result["loser"] != seat else -1)
        assert got == value, (hands, trump_card)


def test_the_heuristic_solves_heads_up_endgames(monkeypatch):
    """Heads-up, the heuristic counts the cards gone to the discard and, once the deck is
    empty, plays the exact endgame (its moves honest: the table takes them as they are)."""
    from pidor.match import run_match

    solved = []
    best = Endgame.best

    def counted(self, pos, prefer=None):
        out = best(self, pos, prefer)
        solved.append(out[1])
        return out

    monkeypatch.setattr(Endgame, "best", counted)
    r = run_match("podkidnoy", 2, 4, seed="endgame", specs=["builtin:heuristic:cheat=0", "builtin:greedy"])
    assert len(r.records) == 4 and solved
    assert set(solved) <= {-1, 0, 1}


def test_a_lost_endgame_leaves_the_fewest_winning_answers():
    """Lost against best play, the heuristic plays the move after which the other has the
    smallest share of winning answers (the likeliest slip)."""
    rng = random.Random(11)
    deck = [c for c in range(52) if c % 13 >= 4]
    checked = 0
    while checked < 5:
        dealt = rng.sample(deck, 7)
        pos = (mask(dealt[:3]), mask(dealt[3:]), 0, 0, 4, ATTACK, 0)
        e = Endgame(HEARTS)
        if e.value(pos) != -1:
            continue
        shares = dict(e._shares(pos))
        move = e.swindle(pos)
        assert shares[move] == min(shares.values())
        checked += 1


def _view(hand: str, other: int, table: list, discard_seen: int, deck: int = 0, trump_card=None) -> dict:
    return {"game": "podkidnoy", "players": 2, "deck_size": 36, "deck": deck, "trump": "h",
            "trump_card": trump_card, "hands": [len(hand.split()), other], "hand": hand.split(), "table": table,
            "seat": 0, "defender": 1, "attacker": 0, "limit": other, "out": [], "payments": [], "phase": "bout",
            "discard": discard_seen, "bito": []}


def test_counting_places_the_other_hand():
    """The discard is every «бито» table (D5); a taken table goes to the defender's hand
    (D6): with the deck empty, the other holds exactly the cards not seen go."""
    from pidor.games.durak.counting import CardCount, endgame_position

    count = CardCount()
    for e in [{"type": "bout", "attacker": 0, "defender": 1, "limit": 6},
              {"type": "action", "seat": 0, "action": {"type": "attack", "card": "6c"}},
              {"type": "action", "seat": 1, "action": {"type": "cover", "card": "7c", "target": 0}},
              {"type": "bout_over", "outcome": "bito", "defender": 1, "count": 2},
              {"type": "action", "seat": 1, "action": {"type": "attack", "card": "8c"}},
              {"type": "bout_over", "outcome": "take", "defender": 0, "count": 1}]:
        count.see(e)
    assert count.discard == set(cards("6c 7c")) and count.took == {0: set(cards("8c"))}
    gone = "6c 7c"
    rest = [c for c in range(52) if c % 13 >= 4 and c not in cards(gone)]
    mine = "8c Ah"
    others = [c for c in rest if c not in cards(mine)]
    # everything else went to the discard unseen by this count: not sure of his hand
    assert endgame_position(_view(mine, 3, [], 2 + len(others) - 3), count) is None
    count.discard.update(others[3:])
    pos = endgame_position(_view(mine, 3, [], len(count.discard)), count)
    assert pos == (mask(cards(mine)), mask(others[:3]), 0, 0, 3, ATTACK, 0)
    count.see({"type": "undo", "seat": 1, "action": {"type": "cover", "card": "7c", "target": 0}})
    assert endgame_position(_view(mine, 3, [], len(count.discard)), count) is None  # D11: a card went back
