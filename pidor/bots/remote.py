"""A policy over TCP: :class:`PolicyBot` runs any :class:`~pidor.bots.policy.Policy` as a
remote player through the SDK (:class:`pidor.client.Bot`), from what the client receives.

Its observation has the same shape as in-process: the seat's knowledge is built from the
``snapshot`` the server sends at each game's start (and after a resync) and the events
after it (:class:`~pidor.bots.observe.Knowledge`); ``honest`` is the ``turn`` message's
options; ``window`` and ``court`` are the events the seat answers. The view now is the
belief's view of the seat (the events after the last snapshot applied by the engine).

    from pidor.bots.remote import PolicyBot
    PolicyBot("builtin:random:cheat=0.1,attention=0.5", seed=b"mine").run(client, games=3)

(:mod:`pidor.client` itself stays one standalone file; this module needs the package.)
"""

from __future__ import annotations


from ..client import Bot, ServerError
from ..engine.game import Game
from ..games import game_class
from .observe import KnowingSeat, Knowledge
from .policy import Policy
from .specs import make_policy

__all__ = ["PolicyBot", "RemoteSeat"]


class RemoteSeat(KnowingSeat):
    """The observation of the client's seat, from what the client received: its knowledge
    (snapshots and events), the ``turn`` being answered, the window or court answered."""

    def __init__(self, bot: "PolicyBot", seat: int, rules: dict) -> None:
        super().__init__(seat, rules)
        self._bot = bot
        self.knowledge = Knowledge(seat, rules)
        # A game whose seats never may wait («пидор») needs no belief to say so: a policy
        # that asks (before each turn) does not advance it through every event for that.
        self._waits = game_class(rules["game"]).may_wait is not Game.may_wait
        self.options: list[dict] = []  # the turn being answered
        self.window_event: dict | None = None
        self.court_event: dict | None = None

    @property
    def view(self) -> dict:
        belief = self.knowledge.belief()
        return belief.view(self.seat) if belief is not None else self._bot.state.view or {}

    @property
    def honest(self) -> list[dict]:
        return self.options

    @property
    def may_cheat(self) -> bool:
        return self.seat not in (self._bot.state.status.get("honest_only") or ())

    @property
    def may_wait(self) -> bool:
        return self._waits and self.knowledge.may_wait()

    @property
    def obliged(self) -> bool:
        return self.knowledge.obliged()

    @property
    def window(self) -> dict | None:
        return self.window_event

    @property
    def court(self) -> dict | None:
        return self.court_event

    @property
    def mark(self) -> int | None:
        return self._bot.state.status.get("mark")



class PolicyBot(Bot):
    """Plays the SDK's seat with ``policy``: a :class:`Policy`, or a spec text (then built
    for the seat the server gives, with ``seed``, T10)."""

    def __init__(self, policy: Policy | str, seed: bytes = b"") -> None:
        super().__init__()
        self._spec = policy
        self._seed = seed
        self.policy: Policy | None = policy if isinstance(policy, Policy) else None
        self._seat: RemoteSeat | None = None  # the seat's observation
        self._new_game = True  # until a snapshot of the game has come
        self._fed: int | None = None  # the seq of the last event fed to the knowledge
        self._gap = False  # an event was missed: the knowledge waits for a snapshot

    # -- knowledge from what arrives --

    def on_event(self, event: dict, seq: int) -> None:
        if self._fed is not None and seq <= self._fed:
            return  # a repeat
        self._gap = self._gap or (self._fed is not None and seq != self._fed + 1)
        self._fed = seq
        if event.get("type") == "game_start":
            self._new_game = True  # the snapshot that follows shows the deal
        if self._seat is not None and not self._new_game and not self._gap:
            self._seat.knowledge.feed([event])
            if type(self.policy).observe is not Policy.observe:
                self.policy.observe(self._seat, event)

    def on_snapshot(self, snapshot: dict) -> None:
        st = self.state
        seat, rules = st.seat, (st.info or {}).get("options")
        if seat is None or rules is None or st.view is None:
            return
        if self._seat is None or self._seat.seat != seat:
            if self.policy is None or self.policy.seat != seat:
                self.policy = self._spec if isinstance(self._spec, Policy) else make_policy(self._spec, seat, self._seed)
            self._seat = RemoteSeat(self, seat, rules)
            self._new_game = True
        knowledge = self._seat.knowledge
        # A snapshot after an undo shows what the belief already holds; one after a gap,
        # a reconnect or a game's start is the belief's new ground.
        seq = snapshot.get("seq")
        if self._new_game or self._gap or seq != self._fed or knowledge.belief() is None:
            knowledge.reset(st.view, [] if self._new_game else None)
            self._new_game = self._gap = False
            self._fed = seq

    # -- decisions --

    def on_turn(self, options: list[dict], turn: dict) -> dict | None:
        if self._seat is None:
            return None
        self._seat.options = options
        self._seat.window_event = self._seat.court_event = None
        action = self.policy.act(self._seat)
        if action is not None:
            self._seat.knowledge.sent(action)
        return action

    def may_call(self) -> bool:
        policy = self.policy if self.policy is not None else make_policy(self._spec, 0, self._seed)
        return policy.may_call()

    def on_window(self, event: dict) -> bool:
        if self._seat is None:
            return False
        self._seat.options, self._seat.window_event, self._seat.court_event = [], event, None
        return bool(self.policy.call(self._seat))

    def on_court(self, event: dict) -> bool | None:
        if self._seat is None:
            return None
        self._seat.options, self._seat.window_event, self._seat.court_event = [], None, event
        return self.policy.vote(self._seat)

    def on_error(self, error: ServerError) -> None:
        if (error.request or {}).get("type") == "act" and self._seat is not None:
            self._seat.knowledge.unsent()
