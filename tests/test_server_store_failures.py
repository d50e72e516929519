"""Issue 8, item 12: a game whose log cannot be created is not started (``no_log``). No
filesystem is mounted: the failures are injected where the server meets the disk."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from server_helpers import is_event, play_until, seated_client, serve

from pidor.gamelog.format import read_log
from pidor.gamelog.verify import verify
from pidor.server import deals

is_results = is_event("results")


# --- item 12: a game that cannot be logged ---------------------------------------------------


@pytest.mark.parametrize("cause", ["Not a directory", "Too many open files"])
async def test_a_game_that_cannot_be_logged_is_not_started(tmp_path, autojump_clock, monkeypatch, cause):
    """``start`` gets ``no_log`` and changes nothing: the table waits with the same
    commitment and seeds, no game counted, no index row, no event. When logs can be
    written again, the same committed deal is played and logged."""
    good, not_a_directory = tmp_path / "logs", tmp_path / "file"
    not_a_directory.write_bytes(b"")
    out_of_files = False

    def open_log(path, mode="r", *args, **kwargs):
        if out_of_files:
            raise OSError(errno.EMFILE, "Too many open files")
        return open(path, mode, *args, **kwargs)  # noqa: SIM115 - the log closes it

    monkeypatch.setattr(deals, "open", open_log, raising=False)

    async with serve(seeds="no-log", logs=good) as (server, port):

        def logs_fail(yes: bool) -> None:
            nonlocal out_of_files
            if cause == "Not a directory":
                server.logs = not_a_directory if yes else good
            else:
                out_of_files = yes

        c = await seated_client(port, "host", options={"game": "podkidnoy", "players": 2, "bots": 1})
        assert (await c.request({"type": "seed", "seed": "ab"}))["type"] == "ok"
        runner = server.lobby.tables[c.table]
        for number in (1, 2):
            await c.request({"type": "resync"})  # the table info as it is now
            before = runner.info()
            seq = runner.seq
            logs_fail(True)
            r = await c.request({"type": "start"})
            assert r["type"] == "error" and r["code"] == "no_log", r
            assert cause in r["message"] and "not started" in r["message"]
            assert runner.info() == before and before["state"] == "waiting" and runner.seq == seq
            assert len(server.store.games_of(c.table)) == number - 1
            assert not any(m["type"] == "event" and m["seq"] > seq for m in c.messages)

            logs_fail(False)
            assert (await c.request({"type": "start"}))["type"] == "ok"
            end = (await play_until(c, is_results))["event"]
            assert end["number"] == number and end["deal"]["commitment"] == before["commitment"]
            if number == 1:  # the seed given before the refused start counted for this deal
                assert end["deal"]["seat_seeds"][c.seat] == "ab"
            row = server.store.games_of(c.table)[number - 1]
            assert row["commitment"] == before["commitment"]
            assert verify(read_log(Path(row["log"]).read_bytes())).status == "verified"
        assert sorted(p.name for p in good.iterdir()) == [f"table-{c.table}-game-{n}.plog" for n in (1, 2)]
