"""``pidor play``: typed lines and keys become requests, the screens read as prose in
either language, error codes are translated, a person left alone hosts and seats bots
(issue 10 §1). The whole game through a pseudo-terminal is in ``test_play_pty.py``."""

from __future__ import annotations

import re
import socket

import pytest
import trio
from click.testing import CliRunner
from server_helpers import serve

from pidor import client as sdk
from pidor.play.command import play
from pidor.play.commands import CommandError, parse_command
from pidor.play.session import Session


def in_thread(fn, *args, **kwargs):
    return trio.to_thread.run_sync(lambda: fn(*args, **kwargs))


async def test_play_session_plays_a_game_from_typed_lines():
    """The terminal session against the server: typed lines (help, a typo, then the first
    option on every turn and `pass` in every window) play a whole durak game."""
    async with serve(seeds="clients-play") as (_server, port):
        out: list[str] = []
        c = sdk.Client("127.0.0.1", port, "human", timeout=10)
        session = Session(c, lang="en", out=out.append)
        sent: list[dict] = []

        def go():
            c.connect()
            c.create(game="podkidnoy", players=2, bots=1)
            c.start()
            real_send = c.conn.send
            c.conn.send = lambda msg: (sent.append(msg), real_send(msg))[1]
            session.line("help")
            assert any("attack CARD" in line for line in out)
            before = len(sent)
            session.line("fly 7")
            assert out[-1] == "unknown command 'fly'; `help` lists them" and len(sent) == before
            for _ in range(20000):
                msg = c.receive(timeout=10)
                assert msg is not None, "the server went silent"
                session.message(msg)
                if msg["type"] == "event" and msg["event"]["type"] == "results":
                    return msg["event"]
                if msg["type"] == "event" and msg["event"]["type"] == "window" and c.state.seat in msg["event"]["owing"] \
                        and msg["event"]["seat"] != c.state.seat:
                    session.line("pass")
                elif session.awaiting and c.state.turn and c.state.turn["options"]:
                    session.line("1")
            raise AssertionError("no results")

        results = await in_thread(go)
        assert results["number"] == 1
        acts = [m["action"] for m in sent if m["type"] == "act"]
        assert len(acts) > 3 and any(m["type"] == "pass" for m in sent)
        assert any(block.startswith("your turn") for block in out)
        assert any("\n  1) " in block for block in out)
        assert any(re.search(r"^your hand: .*[♣♦♥♠]", block, re.M) for block in out)  # the board
        assert any(re.search(r"^  to act: ", block, re.M) and "trump" in block and "the mark: " in block
                   and re.search(r"^  cards: you \d+, bot-1\(1\) \d+", block, re.M) for block in out)
        assert any(line.startswith("game over: ") and "is the durak" in line or "a draw" in line for line in out)
        assert any(line.startswith("hint [D") for line in out)  # tutorial: only bots at the table
        await in_thread(c.close)


async def test_play_session_shows_the_court_when_a_bot_calls_our_cheat():
    """Typed `keep` while a `lay` is honest (провтык, P5b/P5c): a watchful bot calls, the court
    sits and the session prints the broken rule's text, then the verdict and the mark."""
    async with serve(seeds="clients-court") as (_server, port):
        out: list[str] = []
        c = sdk.Client("127.0.0.1", port, "cheater", timeout=10)
        session = Session(c, lang="en", out=out.append)

        def go():
            c.connect()
            c.create(game="pidor", players=3, deck=36, bots=["builtin:random:attention=1"] * 2)
            c.start()
            cheated = False
            for _ in range(20000):
                msg = c.receive(timeout=10)
                assert msg is not None, "the server went silent"
                session.message(msg)
                kind = msg["type"]
                if kind == "event" and msg["event"]["type"] == "mark" and cheated:
                    return msg["event"]
                if kind == "event" and msg["event"]["type"] == "window" and c.state.seat in msg["event"]["owing"]:
                    session.line("pass")
                elif session.awaiting and c.state.turn and c.state.turn["options"]:
                    kinds = {o["type"] for o in c.state.turn["options"]}
                    if not cheated and "lay" in kinds and "keep" not in kinds:
                        cheated = True
                        session.line("keep")
                    else:
                        session.line("1")
            raise AssertionError("no court")

        mark = await in_thread(go)
        assert mark == {"type": "mark", "seat": 0, "reason": "convicted"}
        court = next(i for i, line in enumerate(out) if line.startswith("⚖ court:"))
        assert re.search(r"accuses you: keep \d*[2-9TJQKA10]+[♣♦♥♠] on your stack", out[court]), out[court]
        rule = out[court + 1]  # P5b (fits another's open card) or P5c (fits your own), with its English text
        assert rule.startswith(("   [P5b] ", "   [P5c] ")) and "Provtyk: kept a card that fits on" in rule
        assert any(line.startswith("verdict: guilty") for line in out[court:])
        assert "the mark goes to you (convicted)" in out
        await in_thread(c.close)


async def test_pidor_play_command_end_to_end():
    """`pidor play` itself: creates a table with bots, starts, reads stdin, quits."""
    async with serve(seeds="clients-cli") as (_server, port):
        runner = CliRunner()

        def go():
            return runner.invoke(play, ["--port", str(port), "--name", "cli", "--lang", "en", "--players", "3"],
                                 input="help\nfly\nlead 11h\nquit\n")

        result = await in_thread(go)
        assert result.exit_code == 0, result.output
        out = result.output
        assert "table 1: «pidor», 3 seats; you are seat 0" in out
        assert "commands (seats" in out
        assert "unknown command 'fly'" in out
        assert "'11h' is not a card" in out
        assert out.rstrip().endswith("bye")


async def test_a_failed_join_or_watch_prints_no_token():
    """The token is for coming back to a seat or a table: a join or a watch that fails gives
    no token to keep (issue 21, item 9)."""
    async with serve(seeds="clients-cli") as (_server, port):
        for args in (["--table", "99"], ["--watch", "99"]):
            result = await in_thread(CliRunner().invoke, play, ["--port", str(port), "--lang", "en", *args], input="")
            assert result.exit_code == 1 and "Error: " in result.output, result.output
            assert "token" not in result.output, (args, result.output)
        result = await in_thread(CliRunner().invoke, play, ["--port", str(port), "--lang", "en", "--players", "2"],
                                 input="quit\n")
        assert result.exit_code == 0 and "your token (use --token to come back): " in result.output


def test_pidor_play_says_clearly_when_no_server_listens():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    result = CliRunner().invoke(play, ["--port", str(port)], input="")
    assert result.exit_code == 1 and f"cannot reach 127.0.0.1:{port}" in result.output


def test_session_renders_a_court_with_rule_texts():
    class Fake:
        state = sdk.TableState()

    s = Session(Fake(), lang="ru", out=(out := []).append)
    s.state.seat = 2
    s.state.info = {"game": "pidor"}
    court = {"type": "court", "caller": 1, "accused": 0, "action": {"type": "keep"},
             "rules": [{"id": "P5b", "ru": "Провтык: оставил себе карту.", "en": "Provtyk."}],
             "voters": [2], "deadline": 30.0}
    s.state.absorb({"type": "event", "table": 1, "seq": 1, "event": court})
    s.message({"type": "event", "table": 1, "seq": 1, "event": court})
    assert out[0].startswith("⚖ суд: #1 обвиняет #0: оставляет карту себе")  # the card, when known
    assert out[1] == "   [P5b] Провтык: оставил себе карту."
    assert out[2] == "⚖ ваш голос: `голос пидор` или `голос чист` · 30.0 с"
    assert s.state.status["court"]["voters"] == [2]


# --- words, screens and errors in both languages ---------------------------------------------


def test_both_languages_say_the_same_things():
    from string import Formatter

    from pidor.games import GAME_IDS, text_of
    from pidor.play import words
    from pidor.server.requests import ERRORS

    def fields(text):
        return {f for _, f, _, _ in Formatter().parse(text) if f}

    def base(table):  # (a sentence's forms for the reader's own seat, ``@me``, ``@to_me``, are optional)
        return {k: v for k, v in table.items() if "@" not in k}

    games = [text_of(g).WORDS for g in GAME_IDS]
    for table in (words.TEXTS, words.EVENTS, words.WORDS, words.BOARD, words.ERRORS, *games):
        assert base(table["ru"]).keys() == base(table["en"]).keys()
        for key, text in table["en"].items():
            other = table["ru"].get(key)
            assert other is None or fields(other) == fields(text), key
    assert set(ERRORS) <= set(words.ERRORS["en"])  # every code the server sends is translated


def test_errors_are_sentences_in_the_session_language():
    from pidor.play.text import error_text

    msg = {"type": "error", "code": "impossible_action", "message": "you hold no drawn card"}
    assert error_text(msg, "ru") == "✗ за настоящим столом так не сделать"
    assert error_text(msg, "en") == "✗ that cannot be done at a real table (you hold no drawn card)"
    assert error_text({"code": "something_new"}, "ru") == "✗ сервер отказал"


def _name(seat):
    return "вы" if seat == 0 else f"bot-{seat}({seat})"


def test_the_board_says_everything_at_a_glance():
    from pidor.play.text import view_lines

    tricks = {"game": "pidor", "phase": "tricks", "players": 3, "turn": 1, "to_act": [1], "deck": 0, "trump": "d",
              "hands": [3, 5, 4], "prikups": [0, 2, 0], "table": ["8h", "9h"], "table_seats": [2, 0], "trick_size": 3,
              "payment": {"from": 0, "to": 2, "left": 1}, "dues": [], "hand": ["Th", "6c", "Ad"], "out": [],
              "status": {"mark": 2, "number": 4, "window": None, "court": None}}
    board = "\n".join(view_lines(tricks, 0, _name, "ru"))
    assert board.splitlines()[0] == ("── «пидор» · партия 4 · розыгрыш · козырь ♦ · в колоде 0 · метка: bot-2(2) ──")
    assert "  ходит: bot-1(1)" in board
    assert "  на столе (2 из 3, снизу вверх): 8♥ (bot-2(2)) ← 9♥ (вы)" in board
    assert "  карт: вы 3, bot-1(1) 5 + прикуп 2, bot-2(2) 4" in board
    assert "  вы платите bot-2(2): осталось 1" in board  # «вы» takes a plural verb (issue 28 §2)
    assert board.endswith("ваша рука: 10♥ 6♣ A♦")
    durak = {"game": "podkidnoy", "phase": "pay", "trump": "s", "trump_card": "7s", "deck": 3, "hands": [2, 6],
             "table": [["6h", "9h"], ["6d", None]], "attacker": 1, "defender": 0, "limit": 6, "bito": [1],
             "payments": [{"from": 1, "to": 0}], "hand": ["Ks", "Qs"], "out": [],
             "status": {"mark": None, "number": 1, "window": {"seat": 1}, "court": None}}
    board = "\n".join(view_lines(durak, 0, _name, "en"))
    assert "trump ♠ (7♠ under the deck)" in board and "the mark: nobody" in board
    assert "  call window on bot-1(1)'s action" in board
    assert "  on the table: 0) 6♥ ← 9♥   1) 6♦ ← not covered" in board
    assert "  cards: вы 2, bot-1(1) 6" in board and "  to pay: bot-1(1) → вы" in board
    assert "{" not in board and ": '" not in board  # prose, never a dict


def test_a_board_shows_no_hand_where_the_view_holds_none():
    """A game whose players hold no hand (each his face-down deck) draws no empty hand line."""
    from pidor.play.text import view_lines

    deckonly = {"game": "a game of decks", "status": {"mark": None, "number": 1, "window": None, "court": None}}
    board = view_lines(deckonly, 0, _name, "en")
    assert board[0].startswith("── a game of decks · game 1") and not [line for line in board if "hand" in line]


@pytest.mark.parametrize("game,lang,said", [
    ("podkidnoy", "ru", "дурак — bot-1(1)"), ("perevodnoy", "en", "bot-1(1) is the durak («дурак»)"),
    ("pidor", "ru", "пидор — bot-1(1)"), ("pidor", "en", "bot-1(1) is the «pidor»"),
])
def test_the_end_of_a_game_names_the_loser_in_the_games_own_word(game, lang, said):
    from pidor.play.text import event_lines

    over = {"type": "game_over", "result": {"loser": 1, "draw": False, "order": [0, 2, 1]}}
    assert said in event_lines(over, 0, _name, lang, game=game)[0]


# --- windows and courts: one key, and prompts true to the table --------------------------------


class _Recorder:
    """A client that records what the session sends."""

    def __init__(self, seat=0):
        self.state = sdk.TableState()
        self.state.seat = seat
        self.state.info = {"game": "pidor", "options": {"players": 3}, "host": seat,
                           "seats": [{"seat": i, "name": f"bot-{i}"} for i in range(3)]}
        self.sent = []

    def call(self, seq):
        self.sent.append(("call", seq))

    def pass_(self, seq):
        self.sent.append(("pass", seq))

    def vote(self, guilty, seq):
        self.sent.append(("vote", guilty, seq))

    def post(self, kind, **fields):
        self.sent.append((kind, fields))


def _feed(session, seq, event):
    session.state.absorb({"type": "event", "seq": seq, "event": event})
    session.message({"type": "event", "seq": seq, "event": event})


def _window(session, seq, seat=1):
    _feed(session, seq, {"type": "action", "seat": seat, "action": {"type": "lay", "to": 2}})
    _feed(session, seq + 1, {"type": "window", "seat": seat, "owing": [0, 2], "deadline": 2.0})


def test_one_key_calls_passes_and_votes_on_what_the_prompt_shows():
    now = [100.0]
    client = _Recorder()
    s = Session(client, lang="en", out=(out := []).append, keys=True, clock=lambda: now[0])
    assert not s.key("!") and client.sent == []  # no window: the key is typed text
    _window(s, 1)
    now[0] += 0.5
    assert s.prompt_line() == "⚑ bot-1(1) lays a card on bot-2(2)'s stack: [!] «пидор!» · [space] let it go · 1.5 s"
    assert s.key("!") and client.sent == [("call", 2)] and s.prompt is None
    _window(s, 3)
    assert s.key(" ") and client.sent[-1] == ("pass", 4)
    _feed(s, 5, {"type": "court", "caller": 2, "accused": 1, "action": {"type": "lay", "to": 2}, "rules": [],
                 "voters": [0], "deadline": 30.0})
    assert s.prompt_line().startswith("⚖ your vote: [y] «пидор» (guilty) · [n] «чист» (clean)")
    assert not s.key("!") and s.key("n") and client.sent[-1] == ("vote", False, 5)


def test_when_a_bot_calls_first_the_prompt_goes_and_pass_is_not_sent():
    client = _Recorder()
    s = Session(client, lang="ru", out=(out := []).append)
    _window(s, 1)
    assert out[-1].startswith("⚑ bot-1(1) кладёт карту на стопку bot-2(2): `пидор` («пидор!») или ждите")
    _feed(s, 3, {"type": "call", "caller": 2, "accused": 1, "action": {"type": "lay", "to": 2}})
    assert out[-1] == "⚑ bot-2(2) крикнул первым: кричать уже нечего" and s.prompt is None
    s.line("pass")
    s.line("call")
    assert out[-2:] == ["окна крика для вас сейчас нет"] * 2 and client.sent == []
    s.line("vote pidor")
    assert out[-1] == "суд сейчас не ждёт вашего голоса" and client.sent == []


def test_a_window_that_runs_out_needs_no_answer():
    client = _Recorder()
    s = Session(client, lang="en", out=[].append, keys=True)
    _window(s, 1)
    _feed(s, 3, {"type": "window_closed", "seat": 1})
    assert s.prompt is None and s.prompt_line() is None and client.sent == []


# --- a person left alone: the host's role, `bot SEAT`, `start` -------------------------------


def test_bot_command_checks_its_seat_and_spec():
    assert parse_command("bot 2", game=None, players=4).message == {"type": "bot", "seat": 2}
    assert parse_command("bot 1 builtin:random:cheat=0.5", game="pidor", players=4).message == \
        {"type": "bot", "seat": 1, "spec": "builtin:random:cheat=0.5"}
    for line, key in (("bot", "usage"), ("bot 9", "bad_seat"), ("bot 1 human", "bad_spec"), ("bot x", "bad_number")):
        with pytest.raises(CommandError) as err:
            parse_command(line, game=None, players=4)
        assert err.value.key == key


async def test_a_person_left_alone_becomes_host_seats_bots_and_starts():
    async with serve(seeds="play-alone") as (_server, port):
        out: list[str] = []
        host = sdk.Client("127.0.0.1", port, "host", timeout=10)
        guest = sdk.Client("127.0.0.1", port, "guest", timeout=10)
        session = Session(guest, lang="en", out=out.append)

        def pump(until):
            for _ in range(200):
                msg = guest.receive(timeout=10)
                assert msg is not None, "the server went silent"
                session.message(msg)
                if until(msg):
                    return msg
            raise AssertionError(out)

        def go():
            host.connect()
            table = host.create(game="podkidnoy", players=3, bots=1)["table"]["id"]
            guest.connect()
            guest.join(table)
            session.line("bot 0")  # not the host yet
            pump(lambda m: m["type"] == "error")
            assert out[-1].startswith("✗ only the host can do that")
            host.leave()
            pump(lambda m: m["type"] == "table" and m["table"]["host"] == 1)
            assert "you are the host now: `bot SEAT` fills a free seat with a bot, `start` starts the game" in out
            assert out[-1] == "free seats: 0; fill them with `bot SEAT [SPEC]`, then `start`"
            session.line("start")
            pump(lambda m: m["type"] == "error")
            assert out[-1].startswith("✗ a game starts only when every seat is taken: `bot SEAT` fills one")
            session.line("bot 2")
            pump(lambda m: m["type"] == "error")
            assert out[-1].startswith("✗ that seat is not free")
            session.line("bot 0 builtin:random:cheat=0.1")
            pump(lambda m: m["type"] == "table" and m["table"]["seats"][0]["kind"] == "bot")
            assert out[-1] == "every seat is taken: `start` starts the game"
            session.line("start")
            pump(lambda m: m["type"] == "event" and m["event"]["type"] == "game_start")
            session.line("bot 0")
            pump(lambda m: m["type"] == "error")
            assert out[-1].startswith("✗ a game is being played: wait until it ends")

        await in_thread(go)
        await in_thread(host.close)
        await in_thread(guest.close)


# --- durak play without surprises (issue 28 §3) ----------------------------------------------

def test_a_durak_hand_is_sorted_by_suit_trumps_last_then_by_rank():
    from pidor.play.text import view_lines

    view = {"game": "podkidnoy", "phase": "bout", "trump": "s", "deck": 3, "hands": [5, 6], "table": [],
            "attacker": 0, "defender": 1, "limit": 6, "bito": [], "payments": [], "out": [],
            "hand": ["Ks", "6h", "Qs", "7c", "Ah", "9d"], "status": {"number": 1}}
    board = "\n".join(view_lines(view, 0, _name, "ru"))
    assert board.endswith("ваша рука: 6♥ A♥ 7♣ 9♦ Q♠ K♠")


def test_a_short_cheat_covers_the_first_uncovered_card():
    view = {"table": [["7s", "8s"], ["9h", None], ["Td", None]]}
    for line in ("c 6c", "cover 6c"):  # 6♣ beats nothing: махлёж, typed short, no target
        cmd = parse_command(line, game="podkidnoy", options=[], view=view, players=3)
        assert cmd.message == {"type": "act", "action": {"type": "cover", "card": "6c", "target": 1}}
    honest = [{"type": "cover", "card": "Jd", "target": 2}]  # the first card it honestly covers
    cmd = parse_command("c Jd", game="podkidnoy", options=honest, view=view, players=3)
    assert cmd.message["action"]["target"] == 2
    assert parse_command("c 6c 2", game="podkidnoy", options=[], view=view, players=3).message["action"]["target"] == 2


class _Fake:
    def __init__(self):
        self.state = sdk.TableState()
        self.sent = []

    def post(self, kind, **fields):
        self.sent.append((kind, fields))


def _session(seat, **kw):
    now = [100.0]
    s = Session(_Fake(), lang="ru", out=(out := []).append, clock=lambda: now[0], **kw)
    s.state.seat = seat
    s.state.info = {"game": "podkidnoy", "seats": [{"seat": 0, "kind": "human", "name": "me"},
                                                  {"seat": 1, "kind": "bot", "name": "bot-1"}]}
    return s, out, now


def test_the_bito_clock_counts_down_while_you_may_throw_in():
    s, out, now = _session(0)
    s.state.view_seq = 5
    turn = {"type": "turn", "table": 1, "seq": 5, "seat": 0, "options": [{"type": "bito"}], "deadline": None,
            "clock": {"name": "bito_timeout", "left": 3.0}}
    s.state.absorb(turn)
    s.message(turn)
    assert s.ticking and s.prompt_line() == "⏱ «бито» через 3.0 с: подкидывайте или ждите"
    now[0] += 1.0
    assert s.prompt_line() == "⏱ «бито» через 2.0 с: подкидывайте или ждите"
    s.message({"type": "event", "table": 1, "seq": 6, "event": {"type": "action", "seat": 1,
                                                                "action": {"type": "bito"}}})
    assert s.prompt_line() is None and not s.ticking  # the turn is over


def test_an_undone_move_says_so_in_one_line():
    s, out, _ = _session(0)
    s.message({"type": "event", "table": 1, "seq": 3, "event": {"type": "honest_only", "seats": [0]}})
    s.message({"type": "event", "table": 1, "seq": 4, "event": {"type": "honest_only", "seats": []}})
    s.message({"type": "event", "table": 1, "seq": 5, "event": {"type": "honest_only", "seats": [1]}})
    assert out == ["ваш ход отменён — ходите снова честно (T6)", "bot-1(1): теперь только честные ходы (T6)"]


def test_the_end_of_a_game_gives_one_hint():
    s, out, _ = _session(0)
    s.state.info = dict(s.state.info, host=0, state="playing")
    s.message({"type": "event", "table": 1, "seq": 9, "event": {"type": "results", "number": 1, "mark": 1}})
    assert out[1:] == ["`старт` — следующая партия, `выход` — выйти"]


def test_a_spectator_is_never_told_he_hosts():
    s, out, _ = _session(None, watching=1)
    seats = [{"seat": 0, "kind": "human", "name": "p"}, {"seat": 1, "kind": "bot", "name": "b"}]
    s.message({"type": "table", "table": {"id": 1, "state": "waiting", "host": 0, "seats": seats}})
    s.message({"type": "table", "table": {"id": 1, "state": "waiting", "host": None,
                                          "seats": [{"seat": 0, "kind": "vacant"}, seats[1]]}})
    assert not [line for line in out if "хозяин стола вы" in line or "`start`" in line], out
