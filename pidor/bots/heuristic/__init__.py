"""The heuristic policy (``builtin:heuristic``): sound play in every game whose folder
brings tactics (``pidor/games/<folder>/bots.py``), and judgement at the table.

* It plays the honest move its game's tactics choose (``Tactics.choice``).
* It cheats when the expected gain beats the expected cost (:mod:`.judgement`): the gain of
  each cheat worth a thought (``Tactics.cheats``), in cards, against what a conviction
  costs (``Tactics.cost``) and the chance that an opponent calls it, estimated from what
  each one did with the rule-breaking actions he had the chance to call.
* It calls an action when it notices that the action visibly broke a rule (with chance
  ``attention``), and votes by what it saw (and, for a rule broken out of sight, by what
  the court says).

Parameters: ``cheat`` (0 honest, 0.5 weighs gain against cost, 1 reckless), ``attention``
(the chance it notices a visible violation), ``risk`` (the highest chance of being called
it accepts).
"""

from __future__ import annotations

from ...games import spec
from ..policy import Observation, Policy
from ..specs import register
from ..tactics import Tactics, tactics
from .judgement import CallRates, caught, worth_cheating

__all__ = ["HeuristicPolicy"]


@register
class HeuristicPolicy(Policy):
    name = "heuristic"
    PARAMS = {"cheat": 0.5, "attention": 0.9, "risk": 0.5}
    NEEDS = ("bots",)

    def __init__(self, seat: int, seed: bytes = b"", **params) -> None:
        super().__init__(seat, seed, **params)
        self.rates: CallRates | None = None
        self._cheated = False  # the last action of this seat was a cheat
        self.tactics: Tactics | None = None  # the game's, made afresh at each game

    def new_game(self, seat: int, seed: bytes) -> None:
        """The call rates stay (a match's worth of who calls, by seat); the game's tactics go."""
        super().new_game(seat, seed)
        self.tactics = None
        self._cheated = False
        if self.rates is not None:
            self.rates.see({"type": "game_start"})

    def observe(self, obs: Observation, event: dict) -> None:
        kind = event["type"]
        if self.rates is None:
            self.rates = CallRates(obs.players)
        if kind == "game_start" or self.tactics is None:
            self.tactics = tactics(obs.game, self.seat, obs.rules)
        self.tactics.observe(event)
        if kind in CallRates.EVENTS:
            self.rates.see(event, my_cheat=kind == "window" and event["seat"] == self.seat and self._cheated)

    def _tactics(self, obs: Observation) -> Tactics:
        if self.tactics is None:  # (asked before any event: a belief rebuilt from a view)
            self.tactics = tactics(obs.game, self.seat, obs.rules)
        return self.tactics

    def honest_choice(self, obs: Observation, view: dict) -> dict | None:
        """The best honest move (``None``: wait); ``view`` is ``obs.view`` (asked once a decision)."""
        return self._tactics(obs).choice(view, obs.honest)

    def act(self, obs: Observation) -> dict | None:
        view = obs.view
        choice = self.honest_choice(obs, view)
        self._cheated = False
        if self.cheat > 0.0 and obs.may_cheat:
            options = self.cheat_options(obs, view, choice)
            if options:
                self._cheated = True
                return max(options, key=lambda o: o[0])[1]
        return choice

    def cheat_options(self, obs: Observation, view: dict, choice: dict | None) -> list[tuple[float, dict]]:
        """The cheats worth making now instead of ``choice``, each with its gain in cards."""
        t = self._tactics(obs)
        options = t.cheats(obs, view, choice)
        if not options:
            return []
        cost = t.cost(view)
        in_game = [s for s in range(obs.players) if s not in view["out"]]
        p = caught(self.rates or CallRates(obs.players), self.seat, in_game)
        return [(g, a) for g, a in options if worth_cheating(g, cost, p, self.cheat, self.risk)]

    def call(self, obs: Observation) -> bool:
        window = obs.window
        if window is None or window["seat"] == self.seat:
            return False
        if self._tactics(obs).plainly_clean(obs, window["action"]):
            return False  # skips the belief (the engine's check) for the plainly honest card
        if not obs.visible_violations(window["seat"], window["action"]):
            return False
        if self.rates is not None:
            self.rates.cheat_window()
        return self.attention > 0.0 and self.rng.random() < self.attention

    def vote(self, obs: Observation) -> bool | None:
        court = obs.court
        if court is None:
            return None
        if obs.visible_violations(court["accused"], court["action"]):
            return True
        # a rule broken out of sight (cards laid face down, Rule.hidden): the court says it was
        hidden = spec(obs.game).hidden_rules
        return any(r.get("id") in hidden for r in court.get("rules") or ())
