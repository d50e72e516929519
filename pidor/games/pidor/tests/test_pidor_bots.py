"""Textbook decisions of the heuristic policy in «пидор» (issue 15), judged on a seat's
wire-form view and honest options (what an Observation hands a policy)."""

from __future__ import annotations

from pidor.cards import parse_card, parse_cards
from pidor.games.pidor.bots import pidor_action, pidor_cheats
from pidor.games.pidor.engine import PidorGame


def wire(game, seat):
    return game.view(seat), [game.action_data(a) for a in game.honest_actions(seat)]


# --- «пидор» (P3, P12, P13) --------------------------------------------------------------------


def pidor(**fields):
    g = PidorGame.new({"players": 3}, seed=b"scenario", first=0)
    for k, v in fields.items():
        setattr(g, k, v)
    g._out = [False] * g.players
    return g


def test_P3_lays_the_drawn_card_on_the_smallest_other_stack():
    g = pidor(stacks=[parse_cards("2c 3c 9h"), parse_cards("2d 3d 7s 5h 9c"), parse_cards("4c 4d 9s")],
              held=parse_card("Td"), drew=True, deck=parse_cards("Ah Kh"))
    view, honest = wire(g, 0)
    assert {"type": "lay", "to": 2} in honest and {"type": "lay", "to": 1} in honest
    assert pidor_action(view, honest, set(), 52) == {"type": "lay", "to": 2}


def test_P12_beats_with_the_beater_least_useful_in_defence():
    # Trump hearts: Ah beats every heart below it and is worth keeping; Jc beats only clubs.
    g = pidor(phase="tricks", trump=2, hands=[parse_cards("Ah Jc 3d"), parse_cards("5c"), parse_cards("8d")],
              table=parse_cards("Tc"), table_seats=[2], trick_size=3, deck=[],
              stacks=[[], [], []])
    view, honest = wire(g, 0)
    assert pidor_action(view, honest, set(), 52) == {"type": "beat", "card": "Jc", "target": 0}


def test_P13_takes_the_bottom_card_when_nothing_beats_and_may_cheat_instead():
    g = pidor(phase="tricks", trump=2, hands=[parse_cards("3d 4c"), parse_cards("5c"), parse_cards("8d")],
              table=parse_cards("Ts"), table_seats=[2], trick_size=3, deck=[], stacks=[[], [], []])
    view, honest = wire(g, 0)
    choice = pidor_action(view, honest, set(), 52)
    assert choice == {"type": "take", "index": 0}
    actions = [g.action_data(a) for a in g.actions(0)]
    gain, cheat = max(pidor_cheats(view, choice, actions, honest, set(), 52), key=lambda o: o[0])
    assert cheat["type"] == "beat" and g.check(0, g.parse_action(cheat)) == ("P12b",)


def test_P13_leads_its_least_useful_card():
    g = pidor(phase="tricks", trump=2, hands=[parse_cards("Kh 3d 9c"), parse_cards("5c"), parse_cards("8d")],
              table=[], table_seats=[], trick_size=3, deck=[], stacks=[[], [], []])
    assert pidor_action(*wire(g, 0), set(), 52) == {"type": "lead", "card": "3d"}


