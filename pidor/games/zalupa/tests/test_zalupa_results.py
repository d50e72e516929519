"""What a «залупа» series leaves: its result holds the letters and, with ``titles``, the titles
(Z5, Z6); `pidor match` summaries and `pidor standings` show them beside the loss rate; the
board, the replay and the HTML page show each player's trump, letters and cards set aside."""

from __future__ import annotations

import pytest
from zalupa_scenes import act, of_type, scene

from pidor.gamelog.html import page
from pidor.gamelog.reader import read_log
from pidor.gamelog.replay import replay_lines
from pidor.games.text import Say
from pidor.games.zalupa.text import TEXT
from pidor.match import run_match
from pidor.match.standings import standings
from pidor.match.stats import summarize, summary_table

SPECS = ["builtin:random:cheat=0.1,attention=0.5"] * 4


def test_Z6_a_summary_and_the_standings_show_letters_kons_lost_and_the_muzhik(tmp_path):
    r = run_match("zalupa", 4, 4, options={"titles": True}, seed="Z6 results", logs=tmp_path,
                  specs=["builtin:random", "builtin:random:cheat=0.1", "builtin:random", "builtin:random"])
    for record in r.records:
        assert sorted(record["titles"]) == ["left_egg", "muzhik", "right_egg", "zalupa"]
        assert record["muzhik"] == [record["titles"].index("muzhik")]
        assert record["letters"][record["loser"]] == "залупа" and len(record["kons"]) == 4
    rows = {row["name"]: row for row in summarize(r.records)["entrants"]}
    for row in rows.values():
        assert {"letters", "kons_lost", "muzhik"} <= set(row) and 0 <= row["muzhik"] <= row["games"]
    assert sum(row["muzhik"] for row in rows.values()) == 4  # one «мужик» a series
    table = summary_table(summarize(r.records))
    assert "kons lost" in table and "muzhik" in table and "letters" in table
    from_logs = {row["name"]: row for row in standings([tmp_path])["entrants"]}
    assert {name: (row["kons_lost"], row["muzhik"]) for name, row in from_logs.items()} == \
        {name: (row["kons_lost"], row["muzhik"]) for name, row in rows.items()}


def test_Z5_without_titles_a_result_holds_letters_and_kons_only():
    r = run_match("zalupa", 4, 2, seed="Z5 results", specs=SPECS)
    for record in r.records:
        assert "titles" not in record and "muzhik" not in record
        assert sorted(record["kons"])[-1] == 5 or record["draw"]
    assert "muzhik" not in summary_table(summarize(r.records))


def test_Z1_Z5_the_board_shows_each_trump_the_letters_and_the_cards_set_aside():
    g = scene(["Ac Jc", "Qd", "Kh Qh", "As"], stack="Ks", by=[0], turn=1, state="beat", losses=[0, 2, 0, 1])
    ru = TEXT.board(Say("ru", lambda s: f"игрок{s}"), g.view(None))
    assert ru[1] == "игрок1: козырь ♦, «за», отложены 9♦ 10♦, карт 1"
    assert ru[3] == "игрок3: козырь ♠, «з», отложены 9♠, карт 1"
    assert "стопка (снизу вверх): K♠ (игрок0)" in ru and "игрок1 бьёт K♠ или забирает стопку" in ru
    en = TEXT.board(Say("en", lambda s: f"p{s}"), g.view(1))
    assert en[1] == "p1: trump ♦, «за», set aside 9♦ 10♦, cards 1"


@pytest.mark.slow
def test_Z5_the_replay_and_the_page_tell_the_trumps_the_deals_and_each_kons_loser(tmp_path):
    r = run_match("zalupa", 4, 1, seed="Z5 replay", specs=SPECS, logs=tmp_path)
    log = read_log(r.logs[0])
    lines = list(replay_lines(log, lang="ru"))
    assert any(line.strip().startswith("козыри по жребию: ") for line in lines)
    assert any("проигрывает кон 1 и откладывает 9" in line for line in lines)
    assert any(line.strip().startswith("кон 2: сдаёт ") for line in lines)
    mine = list(replay_lines(log, seat=0, lang="en"))
    assert any("your cards: " in line for line in mine)
    html = page(log, "ru")
    assert "проигрывает кон" in html and "aside.0" in html


def test_Z2_the_deal_line_tells_a_seat_its_own_hand_over_only():
    g = scene(["", "Qd", "Kh Qh", ""], turn=1, out=[0, 3])
    act(g, 1, "lead Qd")
    act(g, 2, "beat Kh")
    events = g.advance()
    assert of_type(events, "kon_over")[0]["loser"] == 2
    deal = of_type(act(g, 2, "deal"), "deal")[0]
    say = Say("ru", lambda s: f"игрок{s}", 2)
    for seat in range(4):
        fields = {k: v for k, v in deal.items() if k != "_private"} | deal["_private"].get(seat, {})
        line = TEXT.event(Say("ru", lambda s: f"игрок{s}", seat), fields)
        dealer = "сдаёте вы" if seat == 2 else "сдаёт игрок2"  # (the dealer reads «вы», issue 28 §2)
        assert line.startswith(f"кон 2: {dealer}; карт на руках ") and "ваши карты: " in line
        if "got" in fields:
            assert "отдаёт вам" in line
    assert TEXT.event(say, {k: v for k, v in deal.items() if k != "_private"}).count("ваши") == 0
