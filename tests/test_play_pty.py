"""``pidor play`` through a pseudo-terminal against a real server: a whole game of each
game type, in Russian and in English, with a cheat, a call and a vote, played the way a
person plays it (issue 10 §1).

The measurement: the person types no more commands than their own moves, calls and votes
(counted in the game's log): windows are never answered with a typed `pass`, they run out
by themselves (`--call-window`), and a call or a vote is one key.
"""

from __future__ import annotations

import re
import time

import pytest

from pidor.cards import card_code, parse_card
from pidor.games import GAME_IDS, game_class, spec, text_of
from pidor.games.text import Say
from pidor.play.words import EVENTS
import trio

from pidor.gamelog.reader import read_log
from helpers import deck_near, first_fast, latin_outside_names, players_of
from pty_play import Person, Terminal
from server_helpers import serve

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs a pty (POSIX)")

#: words that must not appear on a Russian screen (they did: headers, held, bout, errors)
ENGLISH = re.compile(r"\b(?:your|turn|game|trump|deck|mark|held|table|bout|settle|pidorstvo|seat|"
                     r"impossible_action|not_now|stale|verdict|court|hand)\b")
BOTS = "builtin:random:cheat=0.3,attention=1"


def _person_moves(log_path) -> dict[str, int]:
    """Seat 0's actions, calls and votes in the game log."""
    counts = {"actions": 0, "calls": 0, "votes": 0}
    for rec in read_log(str(log_path)).records:
        for e in rec.get("events", []) if isinstance(rec, dict) else []:
            t = e.get("type")
            if t == "action" and e.get("seat") == 0:
                counts["actions"] += 1
            elif t == "call" and e.get("caller") == 0:
                counts["calls"] += 1
            elif t == "vote" and e.get("seat") == 0:
                counts["votes"] += 1
    return counts


#: Every game in both languages; the fast tier plays only the first (each takes seconds; in
#: Russian the clocks run on the real clock).
TERMINALS = [pytest.param(g, lang, id=f"{g}-{lang}", marks=[pytest.mark.slow] if k else [])
             for k, (g, lang) in enumerate((g, lang) for g in GAME_IDS for lang in ("en", "ru"))]


@pytest.mark.parametrize("game,lang", TERMINALS)
async def test_a_person_plays_a_whole_game_in_a_terminal(game, lang, tmp_path):
    seeds = f"pty-{game}-{lang}"
    # the game's own clocks: at once, but in Russian a second, to see them count down (issue 28 §3)
    clocks = [a for o in game_class(game).CLOCKS for a in ("--opt", f"{o.name}={1 if lang == 'ru' else 0}")]
    n = players_of(game)  # (at a table of two nobody but the caller and the accused is in court: no votes, T4)
    async with serve(seeds=seeds, logs=tmp_path) as (_server, port):
        def go():
            term = Terminal(["--port", str(port), "--name", "person", "--game", game, "--players", str(n),
                             "--deck", str(deck_near(game, 36)), "--lang", lang, "--bot", BOTS, "--call-window", "0.05",
                             *clocks])
            person = Person(term, sets=game_class(game).ACTIONS.get("discard") == (("rank", "rank"), ("cards", "cards")),
                            short=text_of(game).ALIASES)
            try:
                screen = person.play()
                end = screen.index("── " + EVENTS[lang]["results"].split(" {")[0].strip("─ "))
                deadline = time.monotonic() + 20  # (the end's hint is printed after the results line)
                start = "`start`" if lang == "en" else "`старт`"
                while start not in term.text[end:] and time.monotonic() < deadline:
                    term.read(0.1)
                screen = term.text
                term.send("quit\r" if lang == "en" else "выход\r")
                term.expect("bye|пока")
            finally:
                code = term.close()
            return person, screen, code

        person, screen, code = await trio.to_thread.run_sync(go)
    assert code == 0
    counts = _person_moves(next(tmp_path.rglob("*.plog")))
    typed = len(person.typed)
    refused = screen.count("✗ ") + len(re.findall(r"there is no option|сейчас нет варианта", screen))
    decisions = counts["actions"] + counts["calls"] + counts["votes"]
    print(f"{game}/{lang}: typed {typed} ({person.count('move')} moves, {person.count('cheat')} cheats, "
          f"{person.count('call')} calls, {person.count('vote')} votes), refused {refused}; "
          f"{person.windows} windows; log: {counts}; {person.keystrokes} keys for {decisions} decisions: "
          f"{person.keystrokes / max(1, decisions):.2f} a decision")
    assert person.count("cheat") == 1 and (person.count("vote") >= 1 or n == 2)
    assert counts["calls"] == 1 and counts["votes"] == person.count("vote")
    # The measurement: every command typed was a move, a call or a vote (no `pass`: the
    # windows ran out by themselves), and every move typed is one in the log (but a
    # refused one, e.g. stale because a bot threw in first, which is typed again).
    assert {kind for kind, _ in person.typed} == {"move", "cheat", "call", "vote"} - ({"vote"} if n == 2 else set())
    assert person.count("move") + person.count("cheat") <= counts["actions"] + refused
    assert person.windows > 10 * person.count("call")
    said = EVENTS[lang]["loser"].format(seat="", word=spec(game).loser[lang])  # («дурак — X», «X is the durak»)
    assert said.strip() in screen or EVENTS[lang]["draw_game"] in screen
    if lang == "ru":  # no Latin but cards, names, rule ids and commands (issue 28 §2)
        english = sorted(set(ENGLISH.findall(screen)))
        assert not english, f"English on a Russian screen: {english}"
        said = re.sub(r"^(игрок \d+ на|ваш токен) .*$", "", screen, flags=re.M)  # (the server's name, the token)
        assert latin_outside_names(said, ["person"]) == []
        russian_play_without_surprises(game, screen, person)


def russian_play_without_surprises(game: str, screen: str, person: Person) -> None:
    """Issue 28 §3 on a Russian screen: the hand in the game's order, an undone move said in
    one line, one hint at the end (the game clock: the test below)."""
    text = text_of(game)
    trump = None
    for line in screen.splitlines():
        if line.startswith("── ") and (m := re.search(r"козырь (.)", line)):
            trump = "cdhs"["♣♦♥♠".index(m.group(1))]
        if line.startswith("ваша рука: ") and "—" not in line:
            hand = [card_code(parse_card(c)) for c in line.split(": ", 1)[1].split()]
            assert text.hand_order({"trump": trump}, hand) == hand, line
    if "метка у вас (осуждён)" in screen:
        assert "ваш ход отменён — ходите снова честно (T6)" in screen
    end = screen[screen.index("── итоги партии"):]
    assert end.count("`старт`") == 1, end  # one hint, in Russian


async def test_a_spectator_watches_a_whole_game_and_sees_no_hand(tmp_path):
    """`pidor play --watch TABLE`: the public view of a table someone else plays (§4)."""
    from pidor import client as sdk

    async with serve(seeds="pty-watch") as (_server, port):
        player = sdk.Client("127.0.0.1", port, "player", timeout=10)

        def create():
            player.connect()
            return player.create(game="podkidnoy", players=2, bots=1, call_window=0, bito_timeout=0)["table"]["id"]

        table = await trio.to_thread.run_sync(create)

        def watch():
            term = Terminal(["--port", str(port), "--name", "watcher", "--lang", "ru", "--watch", str(table)])
            try:
                term.expect(f"вы смотрите стол {table}")
                term.send("attack 6h\r")
                term.expect("вы зритель: работают только `стол`, `помощь` и `выход`")
                return term
            except BaseException:
                term.close()
                raise

        term = await trio.to_thread.run_sync(watch)
        try:
            await trio.to_thread.run_sync(lambda: sdk.Bot().run(player, games=1))

            def end():
                term.expect(r"── итоги партии 1")
                boards = term.text.count("── подкидной дурак · партия 1")
                # (at least the first; the server's snapshots to a spectator are paced, so a game
                # the bots play through in a burst may show no other before its end)
                assert boards >= 1, f"the board was drawn {boards} time(s) in a whole game"
                term.send("view\r")
                term.expect(r"── подкидной дурак · партия 1 · [^\n]*\n  ходит: ")
                term.send("выход\r")
                term.expect("пока")
                return term.close()

            assert await trio.to_thread.run_sync(end) == 0
        finally:
            await trio.to_thread.run_sync(player.close)
    screen = term.text
    assert "player(0) ходит с " in screen or "bot-1(1) ходит с " in screen  # the game's events
    assert "дурак — " in screen or "ничья" in screen
    assert "ваша рука" not in screen and "ваш ход" not in screen  # a spectator has neither


def _counted(game: str) -> list[str]:
    """The game's clocks that ``pidor play`` counts down by name (durak's «бито»)."""
    return [o.name for o in game_class(game).CLOCKS if text_of(game).clock_line(Say("ru", str), o.name, "1 с")]


@first_fast
@pytest.mark.parametrize("game", [g for g in GAME_IDS if _counted(g)])
async def test_a_game_clock_counts_down_while_you_may_still_act(game, tmp_path):
    """Issue 28 §3: durak's «бито» clock on the person's turn (everything covered, he may
    throw in) shows as a countdown on the bottom line, in Russian."""
    async with serve(seeds=f"pty-clock-{game}", logs=tmp_path) as (_server, port):
        def go():
            term = Terminal(["--port", str(port), "--name", "person", "--game", game, "--players", "2",
                             "--lang", "ru", "--bot", "builtin:random", "--call-window", "0.05",
                             *[a for name in _counted(game) for a in ("--opt", f"{name}=3")]])
            try:
                pos = 0
                for _ in range(200):
                    m = term.expect(r"ваш ход[^\n]*:\n(  \d+\) [^\n]*\n)*|⏱ [^\n]* через \d\.\d с")
                    if m.group(0).startswith("⏱"):
                        break
                    if re.findall(r"  \d+\) (\w+)", m.group(0)) != ["бито"]:  # (all covered: wait for it)
                        term.send("1\r")
                    pos = m.end()
                else:
                    raise AssertionError("no clock in 200 turns")
                first = later = m.group(0)
                while later == first:  # redrawn as it runs
                    later = term.expect(r"⏱ [^\n]* через \d\.\d с").group(0)
                term.send("выход\r")
                term.expect("пока")
                return first, later, pos
            finally:
                term.close()

        first, later, _ = await trio.to_thread.run_sync(go)
    assert first.startswith("⏱ «бито» через ")
    left = [float(re.search(r"через (\d\.\d)", x).group(1)) for x in (first, later)]
    assert 0 < left[1] < left[0] <= 3.0
