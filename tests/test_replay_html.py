"""`pidor replay LOG --html OUT.html` (issue 10 section 3), in a real browser: headless
Chromium (Debian's ``chromium``; ``.ci/run`` installs it) opens the page, which steps by
its URL fragment as its buttons do (``#view=all&do=next,court``), and the test reads
back the DOM it shows: the step, its lines, the timeline's marks and the board's cards,
from all seats and from one (whose hidden cards must be drawn face down). A screenshot
is kept in ``test-artifacts/``. A machine without chromium fails here: never a skip."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

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


def section(dom: str, name: str) -> str:
    m = re.search(rf'<(section|ol) id="{name}"[^>]*>(.*?)</\1>', dom, re.S)
    assert m, name
    return m.group(2)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    d = tmp_path_factory.mktemp("html")
    log = run_match("pidor", 3, 1, seed="replay-1", specs=[CHEATY] * 3, logs=d).logs[0]
    page = d / "game.html"
    r = CliRunner().invoke(replay_cmd, [log, "--html", str(page), "--lang", "en"])
    assert r.exit_code == 0, r.output
    return page, game_data(read_log(log), "en")


def test_the_page_is_one_small_file_that_needs_no_network(game):
    page, data = game
    text = page.read_text(encoding="utf-8")
    assert page.stat().st_size < 400 * 1024  # fits in a bug report
    assert not re.search(r"(?:src|href)\s*=|https?://|@import|url\(", text)
    assert "default-src 'none'" in text  # and the browser is told so
    assert any("x" in s["k"] for s in data["steps"]) and any("j" in s["k"] for s in data["steps"])


def test_chromium_steps_through_a_cheat_and_a_court_from_all_seats(game, tmp_path):
    page, data = game
    steps = data["steps"]
    dom = browse(page, "view=all&do=next,next,marked,court", tmp_path, "--dump-dom")
    cheat = next(k for k, s in enumerate(steps) if k > 2 and set(s["k"]) & set("xcj"))
    court = next(k for k, s in enumerate(steps) if k > cheat and "j" in s["k"])
    assert f'data-step="{court}"' in dom and 'data-view="all"' in dom
    now = html.unescape(re.sub(r"<[^>]+>", "", section(dom, "now")))
    assert now.strip() == "\n".join(steps[court]["t"]).strip() and "court on bot-" in now
    timeline = section(dom, "timeline")
    items = re.findall(r'<li class="([^"]*)"', timeline)
    assert len(re.findall(r"<li", timeline)) == len(steps)
    assert sum("court" in c for c in items) == sum("j" in s["k"] for s in steps)
    assert sum("cheat" in c for c in items) == sum("x" in s["k"] for s in steps)
    assert "current" in items[court] if len(items) == len(steps) else True
    board = section(dom, "board")
    shown = re.findall(r'data-card="(..)"', board)
    b = next(steps[j] for j in range(court, -1, -1) if "z" in steps[j])
    assert shown == re.findall("..", "".join(b["z"].values()))  # every card, face up, in zone order
    assert 'class="card back"' not in board


def test_one_seat_sees_the_others_hidden_cards_face_down(game, tmp_path):
    page, data = game
    steps = data["steps"]
    deal_end = next(k for k, s in enumerate(steps) if any("the deal is over" in x for x in s["t"]))
    dom = browse(page, f"step={deal_end}&view=1", tmp_path, "--dump-dom")
    assert f'data-step="{deal_end}"' in dom and 'data-view="1"' in dom
    board = section(dom, "board")
    b = steps[deal_end]
    cards = re.findall("..", "".join(b["z"].values()))
    hidden = [c for c, m in zip(cards, b["m"]) if (ord(m) - 48) & 2]
    assert hidden and board.count('class="card back"') == len(hidden)
    assert set(re.findall(r'data-card="(..)"', board)) == set(cards) - set(hidden)
    now = html.unescape(re.sub(r"<[^>]+>", "", section(dom, "now")))
    assert "bot-0's hand" not in now and "bot-2's hand" not in now  # the others' hands: not in seat 1's lines


def test_a_screenshot_of_a_court_is_kept(game, tmp_path):
    page, _ = game
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "replay-viewer.png"
    shot.unlink(missing_ok=True)
    browse(page, "view=all&do=court", tmp_path, f"--screenshot={shot}", "--window-size=1280,900",
           "--hide-scrollbars")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
