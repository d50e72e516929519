"""A seat played by a ``stdio:`` bot: a :class:`~pidor.bots.policy.Policy` that asks the
bot's process (:class:`StdioBot`) for each decision, in the lines of
:mod:`pidor.stdio.lines`. Being a policy, it plays wherever policies play: in-process in
``pidor match`` (:mod:`pidor.driver`), and over TCP in ``pidor bridge`` (through the SDK,
:class:`~pidor.bots.remote.PolicyBot`, which keeps ``seq``, stale refusals and reconnects).

The host asks only what the bot must decide: its turn (``turn``, ``pay``), a call window
(``window``, unless the bot said it never calls: the host passes for it), a court
(``court``). ``start`` goes before the first line of each game, ``end`` after its last.

A bot that fails (:class:`~pidor.stdio.program.Failed`: it exits, answers late, or a line
that is not an answer) is ended. With a ``standin`` (a match), the seat's game goes on with
that honest stand-in, its actions logged ``auto: "forfeit"``, and ``on_forfeit`` is told
why; without one (the bridge), :class:`~pidor.stdio.program.Failed` is raised.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..bots.policy import Observation, Policy
from . import lines
from .lines import BadAnswer, Hello
from .program import BotProgram, Failed

__all__ = ["Clock", "StdioBot", "StdioPolicy", "HELLO_TIME"]

#: Seconds a bot has to answer ``hello`` once started (an interpreter may take a while).
HELLO_TIME = 30.0


@dataclass(frozen=True)
class Clock:
    """``move``: seconds for each answer; ``game``: seconds for all of one game's answers
    (``None``: no limit)."""

    move: float | None = None
    game: float | None = None


class StdioBot:
    """A started ``stdio:`` bot that has said hello: its :class:`BotProgram` and
    :class:`~pidor.stdio.lines.Hello`. It plays one seat at a time, game after game."""

    def __init__(self, program: BotProgram, hello: Hello) -> None:
        self.program = program
        self.hello = hello

    @classmethod
    def launch(cls, program: BotProgram, hello_time: float = HELLO_TIME) -> StdioBot:
        """Start ``program`` and exchange hellos; :class:`Failed` (``absent``: no hello in
        time; ``crash``; ``garbage``), the program ended."""
        program.start()
        try:
            line = program.ask(lines.hello(), time.monotonic() + hello_time)
            return cls(program, lines.parse_hello(line))
        except Failed as e:
            program.end()
            raise Failed("absent" if e.reason == "timeout" else e.reason, f"{e.detail} (hello)") from None
        except BadAnswer as e:
            program.end()
            raise Failed("garbage", str(e)) from None


class StdioPolicy(Policy):
    """The seat's policy for one game, played by ``bot`` (``None``: none came; call
    :meth:`forfeit` at once). ``seed``: the seat's seed (sent in ``start``; ``None``: none).
    ``standin`` and ``on_forfeit(seat, reason, detail)``: see the module's docstring."""

    name = "stdio"

    def __init__(self, seat: int, seed: bytes | None, bot: StdioBot | None, clock: Clock = Clock(), *,
                 standin: Policy | None = None, on_forfeit: Callable[[int, str, str], None] | None = None) -> None:
        super().__init__(seat, seed or b"")
        self.bot = bot
        self.game_seed = seed
        self.clock = clock
        self.standin = standin
        self.on_forfeit = on_forfeit
        self.failed: str | None = None  # the forfeit reason, once it failed
        self.spent = 0.0  # seconds of this game's answers
        self.moves = [0, 0.0, 0.0]  # this game's turns answered: how many, seconds in all, the longest
        self.last: Observation | None = None  # the observation of the last line (for end)
        self._sent = 0  # the seat's events sent so far this game

    def may_call(self) -> bool:
        return self.failed is None and self.bot.hello.calls

    # --- decisions --------------------------------------------------------------

    def act(self, obs: Observation) -> dict | None:
        if self.failed is None:
            honest = obs.honest
            options = list(honest)
            n = len(options)
            if self.bot.hello.cheats and obs.may_cheat:
                options += [a for a in obs.actions() if a not in options[:n]]
            try:
                msg = lines.turn(obs, self._events(obs), options, n)
                began = time.monotonic()
                line = self._ask(msg)
                took = time.monotonic() - began
                moves = self.moves
                moves[0] += 1
                moves[1] += took
                moves[2] = max(moves[2], took)
                chosen = lines.parse_choice(line, options, msg["may_wait"])
                return None if chosen is None else options[chosen]
            except (Failed, BadAnswer) as e:
                self.forfeit(e)
        return self.standin.act(obs)

    def call(self, obs: Observation) -> bool:
        if self.failed is None and self.bot.hello.calls:
            try:
                return lines.parse_call(self._ask(lines.window(obs, self._events(obs))))
            except (Failed, BadAnswer) as e:
                self.forfeit(e)
        return False

    def vote(self, obs: Observation) -> bool | None:
        if self.failed is None:
            try:
                return lines.parse_vote(self._ask(lines.court(obs, self._events(obs))))
            except (Failed, BadAnswer) as e:
                self.forfeit(e)
        return self.standin.vote(obs)

    def end(self, result: dict) -> bool:
        """The game is over: ``end`` with its result (nothing if the bot saw nothing of it).
        ``False`` when the bot failed, in the game or now (then it is ended; the game it
        played to the end is not forfeited for that)."""
        if self.failed is None and self.last is not None:
            try:
                self.bot.program.tell(lines.end(result, self._events(self.last)), self._deadline()[0])
            except Failed:
                self.bot.program.end()
                return False
        self.last, self._sent, self.spent = None, 0, 0.0  # (the next game's first line is start)
        return self.failed is None

    # --- the lines --------------------------------------------------------------

    def _events(self, obs: Observation) -> list[dict]:
        """The seat's events since the last line; ``start`` first, before the game's first line."""
        events = obs.events_from(self._sent)
        self._sent += len(events)
        if self.last is None:
            self.last = obs
            self.bot.program.tell(lines.start(obs, events, self.game_seed), self._deadline()[0])
            return []
        self.last = obs
        return events

    def _deadline(self) -> tuple[float, bool]:
        """When the answer is due (``time.monotonic()``), and whether the game's budget sets it."""
        move, game = self.clock.move, self.clock.game
        left = None if game is None else max(0.0, game - self.spent)
        by_game = left is not None and (move is None or left < move)
        limit = left if by_game else move
        return (float("inf") if limit is None else time.monotonic() + limit), by_game

    def _ask(self, msg: dict) -> bytes:
        began = time.monotonic()
        deadline, by_game = self._deadline()
        try:
            return self.bot.program.ask(msg, deadline)
        except Failed as e:
            if e.reason == "timeout" and by_game:
                raise Failed("game_time", f"its answers took more than {self.clock.game:g} s in all") from None
            raise
        finally:
            self.spent += time.monotonic() - began

    def forfeit(self, e: Failed | BadAnswer) -> None:
        """The bot failed (a bad answer is ``garbage``): it is ended; the stand-in plays on,
        or (none) :class:`Failed` is raised."""
        failed = e if isinstance(e, Failed) else Failed("garbage", str(e))
        self.failed = failed.reason
        if self.bot is not None:
            self.bot.program.end()
        if self.standin is None:
            raise failed
        self.auto = "forfeit"  # (the driver logs the stand-in's actions so, T9)
        if self.on_forfeit is not None:
            self.on_forfeit(self.seat, failed.reason, failed.detail)
