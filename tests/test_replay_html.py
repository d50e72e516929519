"""`pidor replay LOG --html OUT.html` (issue 10 section 3, issue 28 section 1), in a real
browser: headless Chromium (Debian's ``chromium``; ``.ci/run`` installs it) opens the page,
which steps by its URL fragment as its buttons and keys do (``#view=all&do=next,court``,
``#keys=ArrowRight,c,v``), and the test reads back the DOM it shows: the step, its lines,
the timeline's marks, the seats around the table and the cards in each, the court panel,
from all seats and from one (whose hidden cards must be drawn face down). Screenshots are
kept in ``test-artifacts/``. A machine without chromium fails here: never a skip."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pidor.games import GAME_IDS, spec
from pidor.gamelog.commands import replay as replay_cmd
from pidor.gamelog.html import game_data
from pidor.gamelog.reader import read_log
from pidor.match import run_match

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHEATY = "builtin:random:cheat=0.15,attention=0.8,false_call=0.02"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("chromium is not installed (apt-get install -y chromium; .ci/run installs it)")
    return path


def browse(page: Path, fragment: str, tmp_path: Path, *extra: str) -> str:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    out = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *extra, f"{page.as_uri()}#{fragment}"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def dom_of(page: Path, fragment: str, tmp_path: Path) -> str:
    return browse(page, fragment, tmp_path, "--dump-dom")


def screenshot(page: Path, fragment: str, tmp_path: Path, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / name
    shot.unlink(missing_ok=True)
    browse(page, fragment, tmp_path, f"--screenshot={shot}", "--window-size=1280,800", "--hide-scrollbars")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    return shot


def section(dom: str, name: str) -> str:
    m = re.search(rf'<(section|ol|aside) id="{name}"[^>]*>(.*?)</\1>', dom, re.S)
    assert m, name
    return m.group(2)


def page_of(dom: str) -> str:
    """What the page shows: its DOM without its scripts (the data, the labels of both languages)."""
    return dom.split("<script", 1)[0]


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def seats(dom: str) -> dict[int, str]:
    """Each seat's box on the table: seat -> its HTML."""
    board = section(dom, "board")
    starts = [(m.start(), int(m.group(1))) for m in re.finditer(r'<div class="seat[^"]*" data-seat="(\d+)"', board)]
    ends = [s for s, _ in starts[1:]] + [len(board)]
    return {seat: board[start:end] for (start, seat), end in zip(starts, ends)}


def at(dom: str) -> int:
    return int(re.search(r'<body[^>]*data-step="(\d+)"', dom).group(1))


def make_page(d: Path, game: str, lang: str, seed: str = "replay-1", players: int = 3) -> tuple[Path, dict]:
    log = run_match(game, players, 1, seed=seed, specs=[CHEATY] * players, logs=d).logs[0]
    page = d / f"{game}.html"
    r = CliRunner().invoke(replay_cmd, [log, "--html", str(page), "--lang", lang])
    assert r.exit_code == 0, r.output
    return page, game_data(read_log(log), lang)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A «пидор» game, its page in English."""
    return make_page(tmp_path_factory.mktemp("html"), "pidor", "en")


@pytest.fixture(scope="module")
def durak(tmp_path_factory):
    """A podkidnoy game, its page in Russian."""
    return make_page(tmp_path_factory.mktemp("html"), "podkidnoy", "ru")


def court_step(steps: list[dict]) -> int:
    """A step whose court has rules, votes, a verdict and an undo."""
    return next(k for k, s in enumerate(steps)
                if {"rules", "votes", "verdict", "undo"} <= set(s.get("j") or {}))


def test_the_page_is_one_small_file_that_needs_no_network(game):
    page, data = game
    text_ = page.read_text(encoding="utf-8")
    assert page.stat().st_size < 400 * 1024  # fits in a bug report
    assert not re.search(r"(?:src|href)\s*=|https?://|@import|url\(", text_)
    assert "default-src 'none'" in text_  # and the browser is told so
    assert any("x" in s["k"] for s in data["steps"]) and any("j" in s["k"] for s in data["steps"])


@pytest.mark.slow
def test_chromium_steps_through_a_cheat_and_a_court_from_all_seats(game, tmp_path):
    page, data = game
    steps = data["steps"]
    dom = dom_of(page, "view=all&do=next,next,marked,court", tmp_path)
    cheat = next(k for k, s in enumerate(steps) if k > 2 and set(s["k"]) & set("xcj"))
    court = next(k for k, s in enumerate(steps) if k > cheat and "j" in s["k"])
    assert at(dom) == court and 'data-view="all"' in dom
    now = text(section(dom, "now"))
    assert now.strip() == "\n".join(steps[court]["t"]).strip() and "accuses bot-" in now
    timeline = section(dom, "timeline")
    items = [m.group(1) or "" for m in re.finditer(r'<li(?: class="([^"]*)")?', timeline)]
    assert len(items) == len(steps)
    assert sum("court" in c for c in items) == sum("j" in s["k"] for s in steps)
    assert sum("cheat" in c for c in items) == sum("x" in s["k"] for s in steps)
    assert "current" in items[court]
    shown = re.findall(r'data-card="(..)"', section(dom, "board"))
    b = next(steps[j] for j in range(court, -1, -1) if "z" in steps[j])
    assert Counter(shown) == Counter(re.findall("..", "".join(b["z"].values())))  # every card, face up
    assert 'class="card back"' not in section(dom, "board")


@pytest.mark.slow
def test_the_seats_sit_around_the_table_with_name_mark_count_and_cards(game, tmp_path):
    page, data = game
    steps = data["steps"]
    k = next(k for k, s in enumerate(steps) if s.get("a") is not None and "z" in s)
    dom = dom_of(page, f"step={k}", tmp_path)
    boxes = seats(dom)
    assert sorted(boxes) == list(range(data["players"]))
    b = steps[k]
    for seat, box in boxes.items():
        assert text(box).startswith(data["names"][seat])
        own = "".join(codes for zone, codes in b["z"].items() if zone.endswith(f".{seat}"))
        assert f"cards: {len(own) // 2}" in text(box)
        assert Counter(re.findall(r'data-card="(..)"', box)) == Counter(re.findall("..", own))
        assert ('class="badge mark"' in box) == (seat == b["a"])
        assert ('class="badge act"' in box) == (seat in b["o"])
    shown = text(section(dom, "board"))
    assert "stack.0" not in shown and "hand.1" not in shown  # zones by their names, not ids
    assert re.search(r'data-zone="stack\.\d"><span class="name">stack<', dom)


@pytest.mark.slow
def test_one_seat_sees_the_others_hidden_cards_face_down(game, tmp_path):
    page, data = game
    steps = data["steps"]
    deal_end = next(k for k, s in enumerate(steps) if any("the deal is over" in x for x in s["t"]))
    dom = dom_of(page, f"step={deal_end}&view=1", tmp_path)
    assert at(dom) == deal_end and 'data-view="1"' in dom
    board = section(dom, "board")
    b = steps[deal_end]
    cards = re.findall("..", "".join(b["z"].values()))
    hidden = [c for c, m in zip(cards, b["m"]) if (ord(m) - 48) & 2]
    assert hidden and board.count('class="card back"') == len(hidden)
    assert set(re.findall(r'data-card="(..)"', board)) == set(cards) - set(hidden)
    now = text(section(dom, "now"))
    assert "bot-0's hand" not in now and "bot-2's hand" not in now  # the others' hands: not in seat 1's lines
    assert 'class="seat viewer" data-seat="1"' in dom or 'class="seat acting viewer" data-seat="1"' in dom


@pytest.mark.slow
def test_keys_step_jump_and_cycle_the_view(game, tmp_path):
    page, data = game
    steps = data["steps"]
    dom = dom_of(page, "keys=ArrowRight,ArrowRight,ArrowRight,ArrowLeft", tmp_path)
    assert at(dom) == 2
    dom = dom_of(page, "keys=End", tmp_path)
    assert at(dom) == len(steps) - 1 and "slider" in dom
    dom = dom_of(page, "keys=End,Home", tmp_path)
    assert at(dom) == 0
    dom = dom_of(page, "keys=c", tmp_path)
    assert at(dom) == next(k for k, s in enumerate(steps) if k > 0 and s["k"])
    views = [re.search(r'data-view="([^"]+)"', dom_of(page, "keys=" + ",".join("v" * n), tmp_path)).group(1)
             for n in (1, 2, data["players"] + 1)]
    assert views == ["0", "1", "all"]


@pytest.mark.slow
def test_the_labels_follow_lang_and_switch(game, durak, tmp_path):
    page, _ = game
    dom = page_of(dom_of(page, "", tmp_path))
    assert '<html lang="en"' in dom and "next court" in dom and "к суду" not in dom
    dom = page_of(dom_of(page, "lang=ru", tmp_path))
    assert '<html lang="ru"' in dom and "к суду" in dom and "next court" not in dom
    page, _ = durak
    dom = page_of(dom_of(page, "", tmp_path))
    assert '<html lang="ru"' in dom and "к суду" in dom and 'class="name">рука<' in dom
    assert not re.search(r">\s*(trump|deck|mark|hand|to act)\b", dom)


@pytest.mark.slow
def test_a_court_is_a_panel_with_the_card_rules_votes_verdict_and_undo(durak, tmp_path):
    page, data = durak
    steps = data["steps"]
    k = court_step(steps)
    court = steps[k]["j"]
    dom = dom_of(page, f"step={k}", tmp_path)
    panel = section(dom, "court-panel")
    said = text(panel)
    assert f"{court['caller']} обвиняет {court['accused']}" in said
    assert court["action"] in said and all(r in said for r in court["rules"])
    assert all(v in said for v in court["votes"]) and court["verdict"] in said and court["undo"] in said
    assert court["cards"] and re.findall(r'class="card[^"]* accused" data-card="(..)"', panel) == court["cards"]
    lit = re.findall(r'class="card[^"]* accused" data-card="(..)"', section(dom, "board"))
    assert lit and set(lit) <= set(court["cards"])  # the accused card, highlighted on the table
    dom = dom_of(page, f"step={k + 1}", tmp_path)
    assert "j" in steps[k + 1] or re.search(r'id="court-panel"[^>]*hidden', dom)


@pytest.mark.slow
def test_durak_covers_lie_on_the_cards_they_cover(durak, tmp_path):
    page, data = durak
    steps = data["steps"]
    k = next(k for k, s in enumerate(steps) if 2 in (s.get("g") or {}).get("table", []) and len(s["g"]["table"]) > 1)
    dom = dom_of(page, f"step={k}", tmp_path)
    groups = [re.findall(r'data-card="(..)"', g) for g in re.findall(r'<span class="group">(.*?)</span></span>',
                                                                    section(dom, "board"))]
    codes = re.findall("..", steps[k]["z"]["table"])
    want, n = [], 0
    for size in steps[k]["g"]["table"]:
        want.append(codes[n:n + size])
        n += size
    assert groups == want and any(len(g) == 2 for g in groups)


@pytest.mark.slow
def test_screenshots_of_a_deal_a_trick_a_bout_and_a_court(game, durak, tmp_path):
    page, data = game
    steps = data["steps"]
    deal_end = next(k for k, s in enumerate(steps) if any("the deal is over" in x for x in s["t"]))
    deal = deal_end // 2
    assert any(z.startswith("stack.") and codes for z, codes in steps[deal].get("z", {}).items())
    screenshot(page, f"step={deal}", tmp_path, "viewer-pidor-deal.png")
    trick = next(k for k, s in enumerate(steps) if k > deal_end and len(s.get("z", {}).get("table", "")) >= 6)
    screenshot(page, f"step={trick}&lang=ru", tmp_path, "viewer-pidor-trick.png")
    page, data = durak
    steps = data["steps"]
    bout = max(range(len(steps)), key=lambda k: (steps[k].get("g") or {}).get("table", []).count(2))
    assert (steps[bout].get("g") or {}).get("table", []).count(2) >= 2
    screenshot(page, f"step={bout}", tmp_path, "viewer-durak-bout.png")
    screenshot(page, f"step={court_step(steps)}", tmp_path, "viewer-durak-court.png")


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_drawn_on_the_table_in_its_own_words(game_id, tmp_path_factory, tmp_path):
    """A game's page needs nothing of the viewer but its zones and their names (its
    folder's text.py): every card of the board is drawn, each seat's in its box."""
    players = min(spec(game_id).players)
    page, data = make_page(tmp_path_factory.mktemp(game_id), game_id, "ru", players=players)
    steps = data["steps"]
    k = len(steps) // 2
    b = next(steps[j] for j in range(k, -1, -1) if "z" in steps[j])
    dom = dom_of(page, f"step={k}", tmp_path)
    assert Counter(re.findall(r'data-card="(..)"', section(dom, "board"))) == Counter(
        re.findall("..", "".join(b["z"].values())))
    for seat, box in seats(dom).items():
        own = "".join(codes for zone, codes in b["z"].items() if zone.endswith(f".{seat}"))
        assert Counter(re.findall(r'data-card="(..)"', box)) == Counter(re.findall("..", own))
    assert all(not re.search(r"[A-Za-z]", z["ru"]) for z in data["zones"].values())  # Russian zone names
