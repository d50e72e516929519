"""The observation vector kept up to date (``pidor.rl.tracker``, issue 27's speed) equals
the vector read from scratch: every view the seat was asked about walked whole, in order,
with the events between them (the definition in ``docs/RL.md`` "Observation", written here
the plain way, as the tracker did before it kept its vector)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import first_fast

from pidor.engine.game import project
from pidor.games import GAME_IDS, spec
from pidor.rl.env import PidorEnv
from pidor.rl.features import SCALE_LIMIT, STATES, _Walk

COURTS = [(g, next((n for n in spec(g).players if n >= 3), spec(g).players[-1])) for g in GAME_IDS]


class Plain:
    """One seat's vector read from scratch at every decision (the reference)."""

    def __init__(self, layout, seat: int) -> None:
        self.layout, self.seat = layout, seat
        self.last = [-1] * len(layout.deck)
        self.counts: dict[int, int] = {}

    def event(self, event: dict) -> None:
        layout = self.layout
        k = layout._event.get(event["type"], layout.other_event)
        self.counts[k] = self.counts.get(k, 0) + 1
        event = project(event, self.seat)
        for keys, i in layout.card_events.get(event["type"], ()):
            v = event
            for key in keys:
                v = v.get(key) if type(v) is dict else None
            for x in (v if type(v) is list else (v,)):
                if type(x) is str and x in layout.code:
                    self.last[layout.code[x]] = i

    def vector(self, view: dict, agenda: dict | None, pending) -> np.ndarray:
        layout, seat, n, off = self.layout, self.seat, self.layout.players, self.layout.offset
        w = _Walk(layout.code, n, seat, layout.per_seat)
        w.value({k: x for k, x in view.items() if k != "status"}, "")
        out = np.zeros(layout.size, np.float32)
        places = len(layout.places)
        out[off["seat"] + seat] = 1
        for p in w.words:
            out[off["word"] + layout._word.get(p, len(layout.words) - 1)] = 1
        values: dict[int, float] = {}
        for p, v in w.numbers:
            i = off["number"] + layout._number.get(p, len(layout.numbers) - 1)
            values[i] = values.get(i, 0.0) + v / len(layout.deck)
        visible = set()
        for c, p in w.cards:
            i = layout._place.get(p, places - 1)
            out[off["now"] + c * places + i] = 1
            self.last[c] = i
            visible.add(c)
        for c, i in enumerate(self.last):
            if i >= 0 and c not in visible:
                out[off["seen"] + c * places + i] = 1
        status = view.get("status") or {}
        if status.get("state") in STATES:
            out[off["state"] + STATES.index(status["state"])] = 1
        mark = status.get("mark")
        out[off["mark"] + (n if mark is None else (mark - seat) % n)] = 1
        honest_only = status.get("honest_only") or ()
        if seat in honest_only:
            out[off["honest_only"]] = 1
        others = sum(1 for s in honest_only if s != seat)
        if others:
            values[off["honest_only"] + 1] = others / n
        court = status.get("court")
        if court is not None:
            out[off["court_caller"] + (court["caller"] - seat) % n] = 1
            out[off["court_accused"] + (court["accused"] - seat) % n] = 1
            for r in court.get("rules") or ():
                if r["id"] in layout._rule:
                    out[off["court_rule"] + layout._rule[r["id"]]] = 1
            agenda = {"seat": court["accused"], "action": court["action"]}
        if agenda is not None:
            out[off["agenda_seat"] + (agenda["seat"] - seat) % n] = 1
            action = agenda["action"]
            if action.get("type") in layout._kind:
                out[off["agenda_kind"] + layout._kind[action["type"]]] = 1
            for v in action.values():
                for x in (v if type(v) is list else (v,)):
                    if type(x) is str and x in layout.code:
                        out[off["agenda_card"] + layout.code[x]] = 1
        if pending is not None:
            head, cards = pending
            out[off["pending_head"] + layout._head[head]] = 1
            for c in cards:
                out[off["pending_card"] + layout.codec.card_index[c]] = 1
        for k, count in self.counts.items():
            values[off["event"] + k] = min(count, 3) / 3.0
        self.counts = {}
        for i, v in values.items():
            out[i] = max(-SCALE_LIMIT, min(SCALE_LIMIT, v))
        return out


@first_fast
@pytest.mark.parametrize("game, players", COURTS)
def test_the_kept_vector_is_the_vector_read_from_scratch(game, players):
    """Random play that cheats (the possible ids: windows, courts, payments show up), every
    seat asked at every step besides the agent, over several games of one env."""
    env = PidorEnv(game, players)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    plain: list[Plain] = []
    fed = 0
    for step in range(1500):
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        if env.steps == 0 and fed == 0 or not plain or len(env._log) < fed:
            plain, fed = [Plain(env.layout, s) for s in range(players)], 0
        for e in env._log[fed:]:
            for p in plain:
                p.event(e)
        fed = len(env._log)
        choice = env._choice
        for s, other in enumerate(env.possible_agents):  # (the agent last: its pending cards)
            if other == agent:
                continue
            env._cache.pop(other, None)
            got = env.observe(other)["observation"]
            window = env.table.window
            want = plain[s].vector(env.view(other), None if window is None else
                                   {"seat": window.seat, "action": window.action}, None)
            np.testing.assert_array_equal(got, want, err_msg=f"{game}: step {step}, {other}")
        obs = env.observe(agent)
        seat = env.possible_agents.index(agent)
        pending = None
        if choice.prefix:
            codec = env.codec
            pending = (choice.prefix[0], [codec.deck[t - codec.card0] for t in choice.prefix[1:] if t != codec.end])
        window = env.table.window
        want = plain[seat].vector(env.view(agent), None if window is None else
                                  {"seat": window.seat, "action": window.action}, pending)
        np.testing.assert_array_equal(obs["observation"], want, err_msg=f"{game}: step {step}, {agent}")
        ids = np.flatnonzero(obs["action_mask"])
        env.step(int(ids[rng.integers(len(ids))]))
