"""The heuristic policy (``builtin:heuristic``): sound play for «пидор», podkidnoy and
perevodnoy, and judgement at the table.

* It plays the honest move of :mod:`.durak` or :mod:`.pidor`.
* It cheats when the expected gain beats the expected cost (:mod:`.judgement`): the gain of
  each cheat worth a thought, in cards, against the chance that an opponent calls it,
  estimated from what each one did with the rule-breaking actions he had the chance to call.
* It calls an action when it notices that the action visibly broke a rule (with chance
  ``attention``), and votes by what it saw.

Parameters: ``cheat`` (0 honest, 0.5 weighs gain against cost, 1 reckless), ``attention``
(the chance it notices a visible violation), ``risk`` (the highest chance of being called
it accepts).
"""

from __future__ import annotations

from ..policy import Observation, Policy
from ..specs import register
from .durak import TableSeen, durak_action, durak_cheats, plainly_clean
from .judgement import CallRates, caught, worth_cheating
from .pidor import pidor_action, pidor_cheats, seen_discard

__all__ = ["HeuristicPolicy"]

#: The games whose window actions :func:`.durak.plainly_clean` reads off the table.
CLEAR_TABLE = ("podkidnoy", "perevodnoy")


@register
class HeuristicPolicy(Policy):
    name = "heuristic"
    PARAMS = {"cheat": 0.5, "attention": 0.9, "risk": 0.5}

    def __init__(self, seat: int, seed: bytes = b"", **params) -> None:
        super().__init__(seat, seed, **params)
        self.gone: set[int] = set()  # «пидор»: cards seen go to the discard
        self.rates: CallRates | None = None
        self._cheated = False  # the last action of this seat was a cheat
        self.table_seen = TableSeen()  # durak: the table as laid (for calls)
        self._trump: str | None = None  # durak: this game's trump letter, once seen
        self._pidor = False  # the game is «пидор»

    def observe(self, obs: Observation, event: dict) -> None:
        kind = event["type"]
        if kind == "game_start" or self.rates is None:
            if self.rates is None:
                self.rates = CallRates(obs.players)
            self.gone = set()
            self._trump = None
            self._pidor = obs.game == "pidor"
        if self._pidor:
            seen_discard(event, self.gone)
        elif kind in TableSeen.EVENTS:
            self.table_seen.see(event)
        if kind in CallRates.EVENTS:
            self.rates.see(event, my_cheat=kind == "window" and event["seat"] == self.seat and self._cheated)

    def honest_choice(self, obs: Observation, view: dict) -> dict | None:
        """The best honest move (``None``: wait); ``view`` is ``obs.view`` (asked once a decision)."""
        if obs.game == "pidor":
            return pidor_action(view, obs.honest, self.gone, obs.rules["deck"])
        return durak_action(view, obs.honest)

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
        honest = obs.honest
        if obs.game == "pidor":
            options = pidor_cheats(view, choice, obs.actions(), honest, self.gone, obs.rules["deck"])
            cost = 1.0 if view["phase"] == "deal" else 0.1  # P7/P10: a pidorstvo; P17: nothing
        else:
            options = durak_cheats(view, choice, honest)
            givers = obs.players - 1 - len(view["out"]) if view["hard"] else 1
            cost = givers + 0.3  # D12: paid in cards for the mark, and the tempo lost
        if not options:
            return []
        in_game = [s for s in range(obs.players) if s not in view["out"]]
        p = caught(self.rates or CallRates(obs.players), self.seat, in_game)
        return [(g, a) for g, a in options if worth_cheating(g, cost, p, self.cheat, self.risk)]

    def call(self, obs: Observation) -> bool:
        window = obs.window
        if window is None or window["seat"] == self.seat:
            return False
        if obs.game in CLEAR_TABLE and not obs.rules.get("teams") and self._plainly_clean(obs, window["action"]):
            return False  # skips the belief (the engine's check) for the plainly honest card
        if not obs.visible_violations(window["seat"], window["action"]):
            return False
        if self.rates is not None:
            self.rates.cheat_window()
        return self.attention > 0.0 and self.rng.random() < self.attention

    def _plainly_clean(self, obs: Observation, action: dict) -> bool:
        seen = self.table_seen
        if self._trump is None or seen.pairs is None:
            view = obs.view
            self._trump = view["trump"]
            if seen.pairs is None:
                return plainly_clean(view["table"], view["limit"], self._trump, action)
        return plainly_clean(seen.pairs, seen.limit, self._trump, action)

    def vote(self, obs: Observation) -> bool | None:
        court = obs.court
        if court is None:
            return None
        return bool(obs.visible_violations(court["accused"], court["action"]))
