"""Textbook decisions of the greedy and heuristic policies in durak (issue 15), judged on
a seat's wire-form view and honest options (what an Observation hands a policy)."""

from __future__ import annotations

from pidor.autoplay import play_game
from pidor.bots import make_policy
from pidor.bots.heuristic import HeuristicPolicy
from pidor.cards import parse_card, parse_cards
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.games.durak.bots import _playout_move, durak_action, durak_cheats, greedy_action, trump_weights
from pidor.games.durak.engine import PerevodnoyGame, PodkidnoyGame


def durak(cls=PodkidnoyGame, *, trump="6h", hands, attack=(), cover=(), deck=10, attacker=1, defender=0,
          aside=None, **options):
    """A 2-player durak game in a chosen position (trump card under a deck of ``deck`` cards;
    V10: ``aside`` set aside under it, face down)."""
    g = cls.new({"players": 2, "two_trumps": aside is not None, **options}, seed=b"scenario", first=attacker)
    g.trump_card = parse_card(trump)
    g.trump = g.trump_card // 13
    g.aside = [] if aside is None else [parse_card(aside)]
    g.hands = [parse_cards(h) for h in hands]
    g.attack = parse_cards(list(attack))
    g.cover = [parse_card(c) if c else -1 for c in cover] or [-1] * len(g.attack)
    used = {*g.attack, *(c for c in g.cover if c >= 0), *(c for h in g.hands for c in h), g.trump_card, *g.aside}
    g.deck = ([g.trump_card] + [c for c in range(52) if c % 13 >= 4 and c not in used][:deck - 1])[:deck]
    g.attacker, g.defender, g.limit = attacker, defender, 6
    return g


def wire(game, seat):
    return game.view(seat), [game.action_data(a) for a in game.honest_actions(seat)]


# --- durak (D4, D6, D7) ----------------------------------------------------------------------


def test_D4_covers_with_the_smallest_trump_only_when_no_plain_card_beats():
    g = durak(hands=["9c 7h Qh 8s", "Ac"], attack=["7c"])  # hearts are trump
    for choose in (greedy_action, durak_action):
        assert choose(*wire(g, 0)) == {"type": "cover", "card": "9c", "target": 0}
    g = durak(hands=["Qh 7h 6c 8s", "Ac"], attack=["Tc"], deck=4)
    for choose in (greedy_action, durak_action):
        assert choose(*wire(g, 0)) == {"type": "cover", "card": "7h", "target": 0}


def test_D6_takes_when_a_card_cannot_be_covered():
    g = durak(hands=["9c 8s", "Ac"], attack=["Td", "7c"])
    for choose in (greedy_action, durak_action):
        assert choose(*wire(g, 0)) == {"type": "take"}


def test_D6_heuristic_keeps_its_ace_of_trumps_for_a_small_table_early():
    g = durak(hands=["Ah 9s 8s Tc", "Ac"], attack=["7d"], deck=20)
    assert greedy_action(*wire(g, 0))["card"] == "Ah"
    assert durak_action(*wire(g, 0)) == {"type": "take"}
    g = durak(hands=["Ah 9s 8s Tc", "Ac"], attack=["7d"], deck=0)  # the deck is gone: cover
    assert durak_action(*wire(g, 0))["card"] == "Ah"
    g = durak(hands=["Qh 7h 6c 8s", "Ac"], attack=["Tc"], deck=10)  # any trump above the 6
    assert greedy_action(*wire(g, 0))["card"] == "7h"
    assert durak_action(*wire(g, 0)) == {"type": "take"}


def test_D7_transfers_with_a_plain_card_when_honest():
    g = durak(PerevodnoyGame, hands=["7s Ac 9h", "Kc Kd Qs"], attack=["7d"])
    for choose in (greedy_action, durak_action):
        assert choose(*wire(g, 0)) == {"type": "transfer", "card": "7s"}


def test_D3_leads_the_cheapest_plain_card_and_a_pair_before_a_single():
    g = durak(hands=["Kc", "7h 9c 9d 8s"], attacker=1, defender=0)
    assert greedy_action(*wire(g, 1)) == {"type": "attack", "card": "8s"}
    assert durak_action(*wire(g, 1)) == {"type": "attack", "card": "9c"}


def test_D4b_cheats_by_covering_rather_than_taking_a_big_table():
    g = durak(hands=["6c 8s", "Ac"], attack=["Td", "Jd"], cover=[None, None])
    view, honest = wire(g, 0)
    choice = durak_action(view, honest)
    assert choice == {"type": "take"}
    (gain, cheat), = durak_cheats(view, choice, honest)
    assert cheat in [g.action_data(a) for a in g.actions(0)]
    assert cheat["type"] == "cover" and gain > 1.0 and g.check(0, g.parse_action(cheat)) == ("D4b",)



def test_D3_D4_plainly_clean_never_hides_a_visible_violation():
    """The heuristic skips the engine's check for a card plainly honest on the table
    (the speed of its calls), read off the table it follows from the events: over
    cheating games that table is the view's (or, when the window's card ended the bout,
    the one it lay on), every window it reads as plainly clean is
    one the engine's visible check finds clean too, and cheats are still seen."""
    seen = {"clean": 0, "asked": 0, "broken": 0, "followed": 0}

    class Checking(HeuristicPolicy):
        name = "checking-heuristic"

        def call(self, obs):
            window = obs.window
            if window is not None and window["seat"] != self.seat:
                view = obs.view
                table_seen = self._tactics(obs).table_seen
                pairs = table_seen.pairs
                if pairs is not None and view["table"]:
                    seen["followed"] += 1
                    assert pairs == [list(p) for p in view["table"]] and table_seen.limit == view["limit"]
                elif pairs is not None:  # the window's card ended the bout (D5): the view's table is clear
                    assert window["action"]["card"] in {c for p in pairs for c in p}
                broken = obs.visible_violations(window["seat"], window["action"])
                if self._tactics(obs).plainly_clean(obs, window["action"]):
                    seen["clean"] += 1
                    assert broken == (), (window["action"], view["table"], broken)
                else:
                    seen["asked"] += 1
                    seen["broken"] += bool(broken)
            return False

    # (V10: the trump turns, the table's glance must follow it: eight games see it matter)
    for game, options, games in (("podkidnoy", {}, 4), ("perevodnoy", {}, 4), ("podkidnoy", {"two_trumps": True}, 8)):
        for k in range(games):
            table = Table({"game": game, "players": 3, **options})
            table.start(seed=f"clean {k}".encode(), first=k % 3)
            bots = [Checking(0, b"c")] + [make_policy("builtin:random:cheat=0.4,attention=0.5", s, b"%d" % s)
                                          for s in (1, 2)]
            play_game(table, bots, Rng(b"clean", game.encode()))
    assert seen["clean"] > 50 and seen["broken"] > 5 and seen["followed"] > 50


# --- the yard variants (V10, V12) --------------------------------------------------------


def test_V10_greedy_and_heuristic_know_the_trump_can_change():
    """While the second trump lies face down and the deck is nearly out, a trump now is
    likely plain soon: spent like a plain card (thrown in, covered with) rather than kept."""
    hands = ["9c 6h Ks", "7c 8h Ah Kd"]
    g = durak(hands=hands, attack=["7c"], deck=1, aside="Qd")
    w = trump_weights(g.view(0))
    assert 0.1 < w[2] < 0.5 and abs(sum(w) - 1.0) < 1e-9  # hearts: trump only if the Q♦'s suit were ♥
    for choose in (greedy_action, durak_action):
        assert choose(*wire(g, 0)) == {"type": "cover", "card": "6h", "target": 0}
    plain = durak(hands=hands, attack=["7c"], deck=1)  # one trump all game: keep it, cover with the 9♣
    for choose in (greedy_action, durak_action):
        assert choose(*wire(plain, 0)) == {"type": "cover", "card": "9c", "target": 0}
    assert trump_weights(plain.view(0)) == (0.0, 0.0, 1.0, 0.0)
    # Thrown in: the 8♥ (trump now) goes in with two_trumps; without, greedy keeps it back.
    g = durak(hands=["Jc", "8h 9s Kd"], attack=["8c"], cover=["Jc"], deck=1, attacker=1, aside="Qd")
    assert greedy_action(*wire(g, 1)) == {"type": "attack", "card": "8h"}
    g = durak(hands=["Jc", "8h 9s Kd"], attack=["8c"], cover=["Jc"], deck=1, attacker=1)
    assert greedy_action(*wire(g, 1)) == {"type": "bito"}
    # Once it has turned the weights are the plain ones again.
    g = durak(hands=hands, attack=["7c"], deck=0, aside="Qd")
    g.trump = parse_card("Qd") // 13
    assert trump_weights(g.view(0)) == (0.0, 1.0, 0.0, 0.0)


def test_V12_the_heuristic_keeps_a_proezdnoy_for_when_it_saves_a_take():
    # The Q♠ is the проездной; hearts are trump. Greedy covers the 8♠ with its cheapest
    # beater, the Q♠ itself; the heuristic keeps it (as dear as the 7♥, and either is dear
    # early): where it would take, it shows the проездной instead.
    g = durak(PerevodnoyGame, hands=["Qs 7h 9d", "8s Kc Kd Ad"], attack=["8s"], pass_card=["Qs"])
    view, honest = wire(g, 0)
    assert {"type": "show", "card": "Qs"} in honest
    assert greedy_action(view, honest) == {"type": "cover", "card": "Qs", "target": 0}
    assert durak_action(view, honest) == {"type": "show", "card": "Qs"}
    # With a cheap beater it covers and keeps the проездной.
    g = durak(PerevodnoyGame, hands=["Qs 9s 9d", "8s Kc Kd Ad"], attack=["8s"], pass_card=["Qs"])
    assert durak_action(*wire(g, 0)) == {"type": "cover", "card": "9s", "target": 0}
    # Greedy shows it only when it would take (the seed's own case).
    g = durak(PerevodnoyGame, hands=["Qs 7d 9d", "8h Kc Kd Ad"], attack=["Ah"], pass_card=["Qs"])
    assert greedy_action(*wire(g, 0)) == durak_action(*wire(g, 0)) == {"type": "show", "card": "Qs"}
    # Leading, it is the last card the heuristic would part with.
    g = durak(PerevodnoyGame, hands=["Kc", "Qs Ks Kd 7h"], attacker=1, defender=0, pass_card=["Qs"])
    assert greedy_action(*wire(g, 1)) == {"type": "attack", "card": "Qs"}
    assert durak_action(*wire(g, 1)) == {"type": "attack", "card": "Ks"}
    # The search's playouts keep it too (ismcts): shown for a take, never led while another card will do.
    g = durak(PerevodnoyGame, hands=["Qs 7d 9d", "8h Kc Kd Ad"], attack=["Ah"], pass_card=["Qs"])
    assert _playout_move(g, 0, g.honest_actions(0)) == ("show", parse_card("Qs"))
    g = durak(PerevodnoyGame, hands=["Kc", "Qs Ks Kd 7h"], attacker=1, defender=0, pass_card=["Qs"])
    assert _playout_move(g, 1, g.honest_actions(1)) == ("attack", parse_card("Ks"))
