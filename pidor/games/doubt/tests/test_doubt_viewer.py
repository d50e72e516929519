"""The replay viewer shows the pile as the plays it is made of (issue 23): each play a group of
its cards, face down but to its player, in the order they were laid (B2, B3)."""

from __future__ import annotations

from pidor.gamelog.html import game_data
from pidor.gamelog.reader import read_log
from pidor.match import run_match


def test_B2_B3_the_viewer_draws_the_pile_play_by_play(tmp_path):
    r = run_match("doubt", 4, 1, seed="viewer pile", logs=tmp_path, specs=["builtin:random:cheat=0.2"] * 4)
    data = game_data(read_log(r.logs[0]), "ru")
    assert data["zones"]["pile"]["look"] == "plays"
    piles = [s for s in data["steps"] if s.get("z", {}).get("pile")]
    assert piles
    for s in piles:
        sizes = s["g"]["pile"]
        assert all(size >= 1 for size in sizes) and 2 * sum(sizes) == len(s["z"]["pile"])  # every card in one play
    assert any(len(s["g"]["pile"]) >= 3 for s in piles)  # a pile of several plays
