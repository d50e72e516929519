"""T13 in «сто одно»: a turn that never ends. A player who must cover his own six (H4) draws
on, from the next player's hand once the deck is gone (H6); a caller who cries «пидор!» at
every draw gets the mark and is paid a card back (T14), so the cards go round and the turn
never ends. Each such draw counts as a unit without progress (our reading of T13's unit
that never ends), so the deal is void after ``quiet_limit`` of them (T13a)."""

from __future__ import annotations

from pidor.autoplay import play_game
from pidor.bots.policy import Policy
from pidor.engine.seeds import Rng
from pidor.engine.table import Table


class Draws(Policy):
    """Draws whenever drawing is honest, else the first honest option."""

    name = "draws"

    def act(self, obs):
        honest = list(obs.honest)
        return next((a for a in honest if a["type"] == "draw"), honest[0] if honest else None)


class CallsAlways(Draws):
    """Cries «пидор!» at every action, and votes guilty."""

    name = "calls-always"

    def call(self, obs) -> bool:
        return True

    def vote(self, obs) -> bool:
        return True


def test_T13_T13a_draws_for_ones_own_six_that_go_round_void_the_deal():
    t = Table({"game": "hundred_one", "players": 2})
    voided = []
    for k in range(3):  # (seed "loop 2" went round for ever before)
        t.start(seed=b"loop %d" % k)
        play_game(t, [Draws(0, b"t13"), CallsAlways(1, b"t13")], Rng(b"loop", b"%d" % k), max_calls=50_000)
        assert t.game.result is not None
        voided += [d for d in t.game.result["deals"] if d.get("void")]
    assert any(d["void"] == "quiet" for d in voided), voided
