"""T9: a stand-in plays only honest options, whoever it plays for (issue 21 item 1).

* a match seat whose bot forfeited (``auto: "forfeit"``): its honest bot used to take any
  possible action (a cheat) whenever it had no honest one, though the game did not wait on
  it (a durak thrower with nothing honest to throw in); the match counted the cheats and
  ``pidor verify`` refused every such log;
* a person away from the server (``auto: "absent"``): his «бито» and, on his turn clock,
  his obliged actions; and a person who left for good (his replacement).

In every game and variant (``helpers.game_variants``), no action a stand-in takes is
recorded with a violation, and every log verifies.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest
import trio
from helpers import first_fast, game_variants, one_fast_per_game, players_of
from server_helpers import play_until, seated_client, serve

from pidor.bots import Policy, RandomBot
from pidor.driver import Driver
from pidor.engine.seeds import Rng
from pidor.engine.table import Table
from pidor.gamelog.format import LogFile
from pidor.gamelog.reader import read_log
from pidor.gamelog.record import Recorder
from pidor.gamelog.verify import verify
from pidor.games import GAME_IDS, game_class
from pidor.match import run_match
from pidor.match.house import Forfeited

VARIANTS = game_variants()
IDS = [name for name, _ in VARIANTS]
ROOT = Path(__file__).resolve().parent.parent
CHEATY = "builtin:random:cheat=0.2,attention=0.5,false_call=0.05,acquit=0.3"


def stand_in_cheats(log: LogFile) -> list[tuple[int, list[str]]]:
    """(record, rules) of every action a stand-in took (``auto``) that broke a rule."""
    out = []
    for i, rec in enumerate(log.records):
        if rec["kind"] == "act" and rec.get("auto") is not None:
            action = next(e for e in rec["events"] if e["type"] == "action")
            if action["_violations"]:
                out.append((i, action["_violations"]))
    return out


def assert_honest_and_verified(log: LogFile, where: str) -> int:
    """The log verifies and no stand-in's action in it broke a rule; returns how many
    actions stand-ins took."""
    assert stand_in_cheats(log) == [], where
    report = verify(log, where)
    assert report.ok, report
    return sum(rec["kind"] == "act" and rec.get("auto") is not None for rec in log.records)


# --- the driver: a stand-in's choice is made only if it is honest ------------------------


class Told(Policy):
    """A stand-in that chooses what it is told (``choice``)."""

    auto = "absent"

    def __init__(self, seat: int, choice: dict) -> None:
        super().__init__(seat)
        self.choice = choice

    def act(self, obs) -> dict | None:
        return self.choice


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_driver_makes_no_choice_of_a_stand_in_but_an_honest_option_T9(game):
    """Where a seat could cheat, its stand-in's cheat is refused and changes nothing; one of
    its honest options (an equal copy will do) is made, logged ``auto``, with no violation."""
    n = players_of(game)
    t = Table({"game": game, "players": n})
    rec = Recorder(t, io.BytesIO(), server_seed=b"told".ljust(32, b"-"), seat_seeds=[None] * n)
    rec.start()
    bots = [RandomBot(s, b"told", attention=0.5) for s in range(n)]
    driver = Driver(rec, bots, Rng(b"told", b"driver"))

    def cheats(seat: int) -> list:
        return [a for a in t.game.actions(seat) if a not in t.game.honest_actions(seat)]

    def chooser() -> int | None:
        """A seat that may act now, and cheat, and has an honest option."""
        if t.window is not None or t.court is not None:
            return None
        return next((s for s in t.to_act() if cheats(s) and t.game.honest_actions(s)), None)

    while (seat := chooser()) is None:
        if driver.play(0.0, 1) == 0:
            driver.feed(rec.tick(rec.deadline()))
    made: list[dict] = []
    told = Told(seat, t.game.action_data(cheats(seat)[0]))
    stand_in = Driver(rec, [told if s == seat else None for s in range(n)], Rng(b"told", b"stand-in"), made.extend)
    before = t.to_data()
    assert stand_in.play(0.0) == 0 and stand_in.refused == 1 and t.to_data() == before and not made
    honest = stand_in.observation(seat).honest
    told.choice = dict(honest[len(honest) - 1])
    assert stand_in.play(0.0, 1) == 1
    action = next(e for e in made if e["type"] == "action")
    assert action["seat"] == seat and action["_violations"] == []


# --- the honest bot of a forfeited seat, in-process ---------------------------------------


def play_seat_forfeited(table: Table, seed: bytes, after: int) -> bytes:
    """One game at ``table``: every seat a cheating, calling random bot, seat 0's until
    ``after`` table calls were made, then a match's stand-in (:class:`Forfeited`); its log."""
    n = table.options["players"]
    buf = io.BytesIO()
    rec = Recorder(table, buf, server_seed=seed.ljust(32, b"-"), seat_seeds=[None] * n)
    rec.start()
    policies = [RandomBot(s, seed, cheat=0.2, attention=0.5, false_call=0.05, acquit=0.3) for s in range(n)]
    driver = Driver(rec, policies, Rng(seed, b"driver"))
    calls = 0
    while not rec.over:
        if calls == after:
            policies[0] = Forfeited(RandomBot(0, seed + b"stand-in"))
        if driver.play(0.0, 1) == 0:  # nobody acts: the game's clock runs out («бито», D5)
            assert rec.deadline() is not None, f"stuck: {rec.to_act()} owe an action and no clock runs"
            driver.feed(rec.tick(rec.deadline()))
        calls += 1
        assert calls < 100_000
    rec.close()
    return buf.getvalue()


@first_fast
@pytest.mark.parametrize("options", [o for _, o in VARIANTS], ids=IDS)
def test_a_forfeited_seats_stand_in_never_cheats_and_the_logs_verify_T9(options):
    """From the deal, or from the middle of the game on; two games at each table, so the
    second follows a result (D2, V9 ``no_first_transfer``, P1)."""
    acted = 0
    for k, after in enumerate((0, 25, 60)):
        table = Table(options)
        for number in (1, 2):
            seed = f"forfeit-{k}-{number}".encode()
            acted += assert_honest_and_verified(read_log(play_seat_forfeited(table, seed, after)),
                                                f"{options} seed {seed!r}")
    assert acted


# --- forfeits in a match -----------------------------------------------------------------

NEVER_COMES = f"cmd:{sys.executable} -c pass"
CRASHES = f"cmd:{sys.executable} {ROOT / 'tests/bots/bad_bot.py'} crash --port {{port}} --token {{token}}"


@first_fast
@pytest.mark.parametrize("options", [o for _, o in VARIANTS], ids=IDS)
def test_a_match_seat_that_forfeits_is_played_honestly_and_its_logs_verify_T9(options, tmp_path):
    """The issue's reproduction in every variant: a bot that never comes (forfeits at the
    start: ``absent``) and one that crashes on its first turn (``crash``, in the middle of
    a bout), against cheating random bots: their stand-ins cheat 0 times, and every log
    verifies."""
    extra = {k: v for k, v in options.items() if k not in ("game", "players")}
    n = options["players"]
    result = run_match(options["game"], n, 2, options=extra, seed="forfeits",
                       specs=[NEVER_COMES, CRASHES] + [CHEATY] * (n - 2), logs=tmp_path / "logs",
                       stderr_dir=tmp_path / "err")
    rows = {e["spec"]: e for e in result.summary["entrants"]}
    for spec in (NEVER_COMES, CRASHES):
        assert rows[spec]["forfeits"] == 2 and rows[spec]["cheats"] == 0, rows[spec]
    acted = 0
    for record in result.records:
        assert {f["reason"] for f in record["forfeits"]} == {"absent", "crash"}, record["forfeits"]
        acted += assert_honest_and_verified(read_log(record["log"]), record["log"])
    assert acted


# --- a person away from the server, or gone -----------------------------------------------


def is_results(m: dict) -> bool:
    return m["type"] == "event" and m["event"]["type"] == "results"


#: When and how the person goes: he disconnects (then he is away) at his first turn, after
#: four actions, or when he owes a payment (the «пидор» settlement, P10; durak's payment for
#: the mark, D12); or he says ``leave`` after four actions (a bot plays his seat on).
DROPS = {
    "first": (lambda acted, options: True, None),
    "fourth": (lambda acted, options: acted >= 4, None),
    "paying": (lambda acted, options: {o["type"] for o in options} == {"give"}, None),
    "leaves": (lambda acted, options: acted >= 4, {"type": "leave"}),
}
#: Every variant with every way to go (one pays only in a game whose payments are ``give``s,
#: and at a table with a cheating bot to be convicted: two persons alone play honestly).
AWAY = [(options, drop) for _, options in VARIANTS for drop in DROPS
        if drop != "paying" or "give" in game_class(options["game"]).ACTIONS and options["players"] > 2]


async def person(client, drop, rng: random.Random) -> bool:
    """A person who plays honest options at random until the game ends (``False``) or
    ``drop(actions so far, turn options)`` says he goes (``True``)."""
    acted = 0

    def choose(options, msg):
        nonlocal acted
        acted += 1
        return rng.choice(options)

    def stop(m):
        return is_results(m) or (m["type"] == "turn" and m["options"] and drop(acted, m["options"]))

    return not is_results(await play_until(client, stop, choose=choose))


@pytest.mark.parametrize("options,drop", one_fast_per_game(  # (fast: the first of each game and of each way to go)
    AWAY, by=lambda p: [p[0]["game"], p[1]], ids=[f"{name}-{drop}" for (name, options) in VARIANTS for drop in DROPS
                                                if (options, drop) in AWAY]))
async def test_a_person_who_goes_mid_game_is_played_honestly_and_the_log_verifies_T9(options, drop, tmp_path,
                                                                                   autojump_clock):
    """Two persons and cheating bots; one goes at his turn. His stand-in says «бито»,
    passes, abstains and plays what he owes on his turn clock (or his replacement plays
    on): all of it honest (logged ``auto: "absent"``). A game in which he never went (no
    payment came his way) is played again on other seeds."""
    when, request = DROPS[drop]
    n = options["players"]
    for attempt in range(8):
        async with serve(seeds=f"away-{drop}-{attempt}", logs=tmp_path / str(attempt), memory=True) as (server, where):
            away = await seated_client(where, "away", options={**options, "bots": [CHEATY] * (n - 2)})
            stay = await seated_client(where, "stay", table=away.table)
            assert (await away.request({"type": "start"}))["type"] == "ok"
            async with trio.open_nursery() as nursery:
                nursery.start_soon(person, stay, lambda acted, options: False, random.Random(attempt))
                went = await person(away, when, random.Random(-attempt))
                if went and request is not None:
                    assert (await away.request(request))["type"] == "ok"
                await away.aclose()
            row = server.store.games_of(away.table)[0]
            assert row["aborted"] is None, row
            log = read_log(row["log"])
            assert_honest_and_verified(log, row["log"])
            if went:
                kinds = {rec["action"]["type"] for rec in log.records if rec.get("auto") == "absent"}
                assert kinds - {"bito"}  # (his turn clock's or his replacement's, not only «бито»)
                return
    raise AssertionError(f"he never went ({drop}) in {attempt + 1} games")
