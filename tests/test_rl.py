"""Every game of the registry as a PettingZoo environment (issue 27, ``docs/RL.md``): the
API and seed tests of PettingZoo for every game and player count; the action encoding
against the engine's own lists; the masks and the steps of calls and votes; seeding like
``pidor match --seed``; logs that verify; bad input; the Gymnasium wrapper; a policy in the
encoding that plays in matches and sees there what the environment showed it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import first_fast
from pettingzoo.test import api_test, seed_test

import pidor.rl
from pidor.cards import card_code, deck as full_deck
from pidor.engine.game import action_from_data, action_to_data, project
from pidor.gamelog.reader import read_log
from pidor.gamelog.verify import verify
from pidor.games import GAME_IDS, part, spec
from pidor.match import run_match
from pidor.match.entrants import parse_entrant
from pidor.rl.choice import Choice
from pidor.rl.codec import CALL, DOMAINS, PASS, TABLE_MOVES, WAIT, ActionCodec
from pidor.rl.env import PidorEnv

ROOT = Path(__file__).resolve().parent.parent
#: Every game at its smallest player count (fast), and at every other one (slow).
FAST = [(g, spec(g).players[0]) for g in GAME_IDS]
SLOW = [pytest.param(g, n, marks=pytest.mark.slow) for g in GAME_IDS for n in spec(g).players[1:]]
#: The games of which some action takes a ``cards`` argument (chosen card by card).
CARDS_GAMES = [g for g in GAME_IDS if any(t == "cards" for a in spec(g).engine.ACTIONS.values() for _, t in a)]
#: The game options whose value is a list of cards (durak's pass_card, V12).
CARDS_OPTIONS = [(g, o.name) for g in GAME_IDS for o in spec(g).engine.OPTIONS if o.kind == "cards"]
#: Every game with at least three players where it can (a court needs a voter, T4).
COURTS = [(g, next((n for n in spec(g).players if n >= 3), spec(g).players[-1])) for g in GAME_IDS]


def random_steps(env, steps: int, key: str = "action_mask", seed: int = 0, through: bool = True):
    """Play ``steps`` random ids (among ``key``'s) through a raw env, past game ends
    (``through=False``: up to the first game's end); yields each agent asked and its
    observation before its step."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            if not through:
                return
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        obs = env.observe(agent)
        mask = obs[key] if obs[key].any() else obs["action_mask"]
        ids = np.flatnonzero(mask)
        yield agent, obs  # (before the step)
        env.step(int(ids[rng.integers(len(ids))]))


@first_fast
@pytest.mark.parametrize("game,players", FAST + SLOW)
def test_pettingzoo_api_and_seed_tests_pass(game, players):
    api_test(pidor.rl.env(game, players=players), num_cycles=400)
    seed_test(lambda: pidor.rl.env(game, players=players), num_cycles=200)


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_every_action_the_engine_lists_has_ids_that_make_it_again(game, players):
    """The encoding is exact: the tokens of every possible action decode to it, two actions
    never share tokens, and honest actions are among the possible ones."""
    env = PidorEnv(game, players)
    env.reset(seed=1)
    codec = env.codec
    met = composite = 0
    for _ in random_steps(env, 1500):
        t = env.table
        for seat in t.to_act():
            possible, honest = t.game.actions(seat), t.game.honest_actions(seat)
            tokens = {a: codec.tokens(a) for a in possible}
            assert len(set(tokens.values())) == len(possible)
            for a, ts in tokens.items():
                assert codec.decode(ts) == a and all(0 <= i < codec.size for i in ts)
                composite += len(ts) > 1
            assert set(honest) <= set(possible)
            met += len(possible)
    assert met > 500
    if any(k.cards for k in codec.kinds):
        assert composite > 0  # (a cards argument was met and chosen card by card)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_head_reads_as_its_action_on_the_wire(game):
    """Every id of a kind without a ``cards`` argument is one action whose wire form
    (card, seat, index, rank, suit) is the id's name, and comes back from the wire as it."""
    cls = spec(game).engine
    codec = ActionCodec(cls, spec(game).players[0], cls.DEFAULTS["deck"])
    types = set()
    for i in range(len(TABLE_MOVES), codec.heads):
        kind = codec.name(i).split()[0]
        if codec.composite(kind):
            continue
        action = codec.decode((i,))
        data = action_to_data(cls.ACTIONS, action)
        assert codec.name(i).split() == [str(v) for v in data.values()]
        assert action_from_data(cls.ACTIONS, data) == action and codec.head(action) == i
        types.update(t for _, t in cls.ACTIONS[kind])
    assert types <= set(DOMAINS)


@first_fast
@pytest.mark.parametrize("game", CARDS_GAMES)
def test_a_cards_argument_is_chosen_card_by_card_from_the_engines_own_list(game):
    """Every action of a kind with a ``cards`` argument is reached by its head, its cards
    and ``end``; each step offers exactly the continuations the engine lists (possible and
    honest: the first step's honest ids are every honest action's first id), and a forced
    step is not asked."""
    env = PidorEnv(game, spec(game).players[0])
    env.reset(seed=3)
    codec = env.codec
    checked = 0
    for _ in random_steps(env, 600, "honest_mask"):
        t = env.table
        if env.terminations[env.agent_selection] or t.window or t.court:
            continue
        seat = env._seat[env.agent_selection]
        possible, honest = t.game.actions(seat), t.game.honest_actions(seat)
        leads = [a for a in possible if codec.composite(a[0])]
        for a in leads:
            choice = Choice(codec, (), possible, honest)
            ts = codec.tokens(a)
            k, got = 0, None
            while got is None:
                assert ts[k] in choice.possible
                before = [x for x in leads if codec.tokens(x)[:k] == ts[:k]]
                assert set(choice.possible) >= {codec.tokens(x)[k] for x in before}
                honest_next = {codec.tokens(x)[k] for x in honest if codec.tokens(x)[:k] == ts[:k]}
                assert set(choice.honest) == honest_next
                got = choice.choose(ts[k])
                k = len(choice.prefix)
            assert got == a
            checked += 1
    assert checked > 50


@first_fast
@pytest.mark.parametrize("game,players", COURTS)
def test_windows_and_courts_are_steps_of_the_agents_asked(game, players):
    """A call window asks each seat that owes it an answer, one at a time (pass, call: T3);
    a court asks its voters (guilty, clean, abstain: T4); every such move is honest."""
    env = PidorEnv(game, players)
    env.reset(seed=5)
    kinds = set()
    for agent, obs in random_steps(env, 3000):
        t = env.table
        moves = [TABLE_MOVES[i] for i in np.flatnonzero(obs["action_mask"]) if i < len(TABLE_MOVES)]
        if t.window is not None:
            assert env._seat[agent] == t.window.owing[0] and moves == ["pass", "call"]
            kinds.add("window")
        elif t.court is not None:
            assert env._seat[agent] in t.court.owing and moves == ["guilty", "clean", "abstain"]
            kinds.add("court")
        if moves and moves != ["wait"]:
            assert (obs["honest_mask"] == obs["action_mask"]).all()
    assert kinds == ({"window", "court"} if players > 2 else {"window"})


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_a_seat_that_must_replay_honestly_is_offered_honest_actions_only(game, players):
    """T6: after a guilty verdict the accused's possible ids are its honest ones."""
    env = PidorEnv(game, players)
    env.reset(seed=2)
    seen = 0
    for agent, obs in random_steps(env, 4000):
        if env._seat[agent] in env.table.honest_only and env.table.window is None and env.table.court is None:
            assert (obs["action_mask"] == obs["honest_mask"]).all()
            seen += 1
    assert seen > 0


@pytest.mark.slow
def test_wait_is_offered_only_to_a_seat_the_game_does_not_wait_on():
    found = 0
    for game in GAME_IDS:
        env = PidorEnv(game, spec(game).players[0])
        env.reset(seed=4)
        for agent, obs in random_steps(env, 800):
            t = env.table
            if obs["action_mask"][WAIT]:
                assert t.window is None and t.court is None
                assert env._seat[agent] not in t.game.obliged()
                found += 1
    assert found > 0  # (some game lets seats wait: durak's thrower-in, D5)


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_a_game_ends_with_minus_one_to_the_loser_and_plus_one_shared(game, players):
    env = pidor.rl.env(game, players=players)
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated else int(np.flatnonzero(obs["honest_mask"])[0]))
    result = env.unwrapped.table.game.result
    if result.get("draw"):
        assert set(totals.values()) == {0.0}
    else:
        loser = env.unwrapped.possible_agents[result["loser"]]
        assert totals[loser] == -1.0
        assert sum(totals.values()) == pytest.approx(0.0)
        assert all(v == pytest.approx(1 / (players - 1)) for a, v in totals.items() if a != loser)


def test_rewards_by_place_and_for_a_draw():
    env = PidorEnv(GAME_IDS[0], 4, reward="place")
    assert env.payoffs({"loser": 2, "draw": False, "order": [3, 0, 1]}) == pytest.approx([2 / 6, 1 / 6, -1, 3 / 6])
    assert env.payoffs({"loser": None, "draw": True, "order": []}) == [0.0] * 4
    shared = PidorEnv(GAME_IDS[0], 4)
    assert shared.payoffs({"loser": 2, "draw": False, "order": [3, 0, 1]}) == pytest.approx([1 / 3, 1 / 3, -1, 1 / 3])


@pytest.mark.slow
def test_court_shaping_is_off_by_default_and_rewards_the_courts_when_asked():
    """With ``shaping``, a seat the mark goes to by a call or a court gets -shaping at
    once, the caller of a guilty verdict +shaping; without it, only the game's end pays."""
    game = GAME_IDS[0]
    for shaping in (0.0, 0.25):
        env = PidorEnv(game, 3, shaping=shaping)
        env.reset(seed=9)
        rng = np.random.default_rng(0)
        shaped = 0
        for _ in range(3000):
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            ids = np.flatnonzero(env.observe(agent)["action_mask"])
            known = len(env._log)
            env.step(int(ids[rng.integers(len(ids))]))
            expected = dict.fromkeys(env.possible_agents, 0.0)
            for e in env._log[known:]:
                if e["type"] == "mark" and e["reason"] in ("convicted", "false_call", "lost_vote"):
                    expected[env.possible_agents[e["seat"]]] -= shaping
                elif e["type"] == "verdict" and e["outcome"] == "guilty":
                    expected[env.possible_agents[e["caller"]]] += shaping
            if env.table.over:  # (the game's end pays too)
                for a, value in zip(env.possible_agents, env.payoffs(env.table.game.result)):
                    expected[a] += value
            assert env.rewards == pytest.approx(expected)
            shaped += any(expected.values()) and not env.table.over
        assert bool(shaped) == bool(shaping)


def test_reset_with_a_seed_deals_the_first_game_of_pidor_match_with_that_seed(tmp_path):
    game = GAME_IDS[-1]
    players = spec(game).players[0]
    run_match(game, players, 2, seed="77", specs=["builtin:random"] * players, logs=tmp_path)
    logs = sorted(tmp_path.iterdir())
    env = PidorEnv(game, players)
    for k, log in enumerate(logs):
        if k == 0:
            env.reset(seed=77)
        else:
            env.reset()
        footer = read_log(log).footer
        assert footer["reveal"]["server_seed"] == env._server_seed.hex()
    again = PidorEnv(game, players)
    again.reset(seed=77)
    first = [e for e in again._log if e["type"] != "game_start"]
    env.reset(seed=77)
    assert env._log[1:] == first and env.table.game.zones() == again.table.game.zones()


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_a_finished_episode_writes_a_log_that_verifies(game, players, tmp_path):
    env = PidorEnv(game, players)
    env.reset(seed=11)
    for _ in random_steps(env, 100_000, through=False):
        pass
    assert env.table.over
    path = tmp_path / "episode.plog"
    env.write_log(path)
    report = verify(read_log(path))
    assert report.ok, report.reason
    assert report.result == env.table.game.result
    cut = PidorEnv(game, players)
    cut.reset(seed=11)
    list(random_steps(cut, 10))
    cut.write_log(tmp_path / "cut.plog")
    assert read_log(tmp_path / "cut.plog").footer["status"] == "aborted"


def test_a_step_outside_the_mask_raises_and_changes_nothing():
    env = pidor.rl.env(GAME_IDS[0], players=spec(GAME_IDS[0]).players[0])
    env.reset(seed=12)
    agent = env.agent_selection
    before = env.observe(agent)
    bad = int(np.flatnonzero(before["action_mask"] == 0)[0])
    for action in (bad, -1, env.action_space(agent).n, 2.5, "move", True):
        with pytest.raises(pidor.rl.IllegalAction, match="action mask|an action is an id"):
            env.step(action)
        assert env.agent_selection == agent
        after = env.observe(agent)
        for key in before:
            assert (after[key] == before[key]).all()
    env.step(int(np.flatnonzero(before["action_mask"])[0]))  # still usable
    assert env.unwrapped.steps == 1


@pytest.mark.parametrize("game,name", CARDS_OPTIONS)
def test_an_option_of_cards_sets_the_table_up_like_any_other(game, name):
    """A list of cards as an option's value (V12's pass_card) keys the layout and deals a
    game that plays to its end."""
    players = spec(game).players[0]
    card = card_code(full_deck(36)[-1])
    env = PidorEnv(game, players, **{name: [card]})
    assert env.options[name] == [card]
    env.reset(seed=6)
    for _ in random_steps(env, 20_000, "honest_mask", through=False):
        pass
    assert env.table.over


def test_an_unknown_game_or_option_is_one_line_naming_what_exists():
    with pytest.raises(ValueError) as e:
        pidor.rl.env("chess")
    assert "\n" not in str(e.value) and all(g in str(e.value) for g in GAME_IDS)
    game = GAME_IDS[0]
    with pytest.raises(ValueError) as e:
        pidor.rl.env(game, colour="red")
    text = str(e.value)
    assert "\n" not in text and "colour" in text and "reward" in text
    assert all(o.name in text for o in spec(game).engine.OPTIONS)
    with pytest.raises(ValueError, match="players"):
        pidor.rl.env(game, players=99)
    with pytest.raises(ValueError, match="reward must be"):
        pidor.rl.env(game, reward="money")


def test_the_base_install_does_not_import_the_rl_extra():
    code = ("import sys, pidor.cli, pidor.match, pidor.server, pidor.bots;"
            "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pidor.rl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game,players", FAST)
def test_the_single_agent_wrapper_plays_against_builtin_policies(game, players):
    env = pidor.rl.SingleAgentEnv(game, players, seat=players - 1, opponents="builtin:random:cheat=0.2,attention=0.5")
    obs, _ = env.reset(seed=13)
    assert env.observation_space.contains(obs)
    total, steps = 0.0, 0
    while True:
        assert env.aec.agent_selection == env.agent
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["honest_mask"])[0]))
        total += reward
        steps += 1
        if terminated:
            break
    result = env.aec.table.game.result
    assert total == pytest.approx(env.aec.payoffs(result)[players - 1])
    assert steps > 5


def test_the_wrapper_refuses_a_policy_that_does_not_play_the_game_or_a_bad_seat():
    game = next((g for g in GAME_IDS if part(g, "bots") is None), None)
    with pytest.raises(ValueError, match="seat must be"):
        pidor.rl.SingleAgentEnv(GAME_IDS[0], spec(GAME_IDS[0]).players[0], seat=6)
    with pytest.raises(ValueError, match="unknown seat spec"):
        pidor.rl.SingleAgentEnv(GAME_IDS[0], spec(GAME_IDS[0]).players[0], opponents="builtin:genius")
    if game is not None:
        with pytest.raises(ValueError, match="does not play"):
            pidor.rl.SingleAgentEnv(game, spec(game).players[0], opponents="builtin:heuristic")


class Recording(pidor.rl.EncodedPolicy):
    """Takes the first honest id; keeps what it was shown at each id."""

    def __init__(self, seat, seed=b"", **params):
        super().__init__(seat, seed, **params)
        self.shown = []

    def choose(self, vector, mask, honest):
        ids = [i for i in np.flatnonzero(honest if honest.any() else mask) if i != WAIT]
        chosen = int(ids[0]) if ids else WAIT
        self.shown.append((vector, mask, honest, chosen))
        return chosen


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_a_policy_sees_in_a_match_what_the_environment_showed(game, players):
    """The vector and the masks an EncodedPolicy computes from its Observation (the
    driver's, as in ``pidor match``) are the environment's, id by id."""
    env = pidor.rl.SingleAgentEnv(game, players, opponents="builtin:random:cheat=0.2,attention=0.5")
    obs, _ = env.reset(seed=14)
    policy = Recording(0)
    fed = compared = 0
    while compared < 300:
        seat_obs = env.driver.observation(0)
        for e in env.aec._log[fed:]:
            policy.observe(seat_obs, project(e, 0))
        fed = len(env.aec._log)
        table = env.aec.table
        policy.shown.clear()
        if table.window is not None:
            policy.call(seat_obs)
        elif table.court is not None:
            policy.vote(seat_obs)
        else:
            policy.act(seat_obs)
        for vector, mask, honest, chosen in policy.shown:
            assert (vector == obs["observation"]).all()
            assert (mask == obs["action_mask"]).all() and (honest == obs["honest_mask"]).all()
            obs, _, terminated, _, _ = env.step(chosen)
            compared += 1
        if terminated:
            obs, _ = env.reset()
            policy = Recording(0)
            fed = 0


@pytest.fixture
def rl_bots(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tests/bots"))
    monkeypatch.setenv("PYTHONPATH", f"{ROOT / 'tests/bots'}:{ROOT}")


@first_fast
@pytest.mark.parametrize("game,players", FAST)
def test_an_encoded_policy_plays_in_pidor_match(game, players, rl_bots, tmp_path):
    entrants = [parse_entrant("py:rl_policies:Honest", "honest"), parse_entrant("py:rl_policies:Cheat",
                                                                                        "cheat")]
    entrants += [parse_entrant("builtin:random", f"r{i}") for i in range(players - 2)]
    out = run_match(game, players, players, seed="rl", entrants=entrants, rotate=True, logs=tmp_path)
    rows = {e["name"]: e for e in out.summary["entrants"]}
    assert rows["honest"]["cheats"] == 0
    assert rows["cheat"]["cheats"] > 0
    for log in tmp_path.iterdir():
        assert verify(read_log(log)).ok


def test_the_trained_example_plays_its_game_in_pidor_match(monkeypatch, tmp_path):
    """examples/rl/policy.py loads the weights train.py wrote (and the layout they were
    trained on) and plays the game they were trained for as a py: entrant, honestly."""
    import json

    monkeypatch.syspath_prepend(str(ROOT / "examples/rl"))
    options = json.loads(str(np.load(ROOT / "examples/rl/podkidnoy-2.npz")["layout"]))["options"]
    game, players = options["game"], options["players"]
    entrants = [parse_entrant("py:policy:Trained", "trained")]
    entrants += [parse_entrant("builtin:random", f"r{i}") for i in range(players - 1)]
    out = run_match(game, players, 2 * players, seed="example", entrants=entrants, rotate=True, logs=tmp_path)
    rows = {e["name"]: e for e in out.summary["entrants"]}
    assert rows["trained"]["games"] == 2 * players and rows["trained"]["cheats"] == 0
    for log in tmp_path.iterdir():
        assert verify(read_log(log)).ok


async def test_an_encoded_policy_plays_over_tcp(rl_bots):
    import trio
    from server_helpers import serve

    from pidor import client as sdk
    from pidor.bots.remote import PolicyBot

    game = GAME_IDS[0]
    players = spec(game).players[0]
    async with serve(seeds="rl-tcp") as (_server, port):
        bot = PolicyBot("py:rl_policies:Honest", b"rl")
        c = sdk.Client("127.0.0.1", port, "rl", timeout=10)

        def go():
            c.connect()
            c.create(game=game, players=players, bots=["builtin:random"] * (players - 1))
            try:
                return bot.run(c, games=1)
            finally:
                c.close()

        results = await trio.to_thread.run_sync(go)
    assert len(results) == 1 and results[0]["result"] is not None


def test_the_layout_names_every_entry_and_round_trips_as_data():
    env = PidorEnv(GAME_IDS[0], spec(GAME_IDS[0]).players[0])
    layout = env.layout
    names = layout.names()
    assert len(names) == layout.size == env.observation_space("player_0")["observation"].shape[0]
    again = pidor.rl.Layout.from_data(layout.to_data(), env.codec)
    assert again.names() == names
    assert [env.codec.name(i) for i in range(len(TABLE_MOVES))] == list(TABLE_MOVES)
    assert env.codec.name(PASS) == "pass" and env.codec.name(CALL) == "call"
