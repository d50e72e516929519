"""`pidor match --ray` (issue 9 item 5; issue 29 goal 2 for cmd: entrants): games on a local Ray cluster give the
same summary as the local run. Ray is the optional extra ``pidor[ray]``: without it this test
is skipped, with the reason; the test extra installs it, and ``scripts/test.sh`` (CI) checks
that it did, so the distributed path is always tested there."""

from __future__ import annotations

import pytest

from pidor.match import run_match

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'pidor[ray]' (the test extra has it)")

SPEC = "builtin:random:cheat=0.1,attention=0.5,false_call=0.01"


@pytest.mark.slow
def test_a_local_ray_gives_the_summary_of_the_local_run():
    local = run_match("pidor", 3, 6, seed="ray", specs=[SPEC] * 3, rotate=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_match("pidor", 3, 6, seed="ray", specs=[SPEC] * 3, rotate=True, concurrency=2,
                           ray=ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()
    assert on_ray.summary == local.summary and on_ray.records == local.records


@pytest.mark.slow
def test_an_external_match_on_ray_plays_each_game_once_in_two_tasks_and_the_logs_verify(tmp_path):
    """Issue 29 goal 2 on Ray: each share's server and its cmd: programs run in a Ray task
    (so on the node that hosts the table); each bot tells the test its server's port and
    its parent's pid (the task's process) through a FIFO, read blocking as in
    test_match_processes."""
    import os
    import sys
    from pathlib import Path

    from pidor.gamelog.reader import read_log
    from pidor.gamelog.verify import verify

    root = Path(__file__).resolve().parent.parent
    fifo = tmp_path / "ports"
    os.mkfifo(fifo)
    said = os.fdopen(os.open(fifo, os.O_RDWR), "r")  # (held open: never reads as ended)
    bot = f"{sys.executable} {root / 'clients/python/random_bot.py'} --games 0"
    seat = f'cmd:sh -c "echo {{port}} $PPID > {fifo}; exec {bot}"'
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(root)}})
    try:
        result = run_match("podkidnoy", 2, 6, seed="ray-external", specs=[seat, "builtin:random"], concurrency=2,
                           ray=ray.get_runtime_context().gcs_address, logs=tmp_path / "logs",
                           stderr_dir=tmp_path / "err")
    finally:
        ray.shutdown()
    told = [said.readline().split() for _ in range(2)]
    said.close()
    assert sorted(r["index"] for r in result.records) == list(range(6))
    assert all(r["forfeits"] == [] for r in result.records), result.records
    assert all(verify(read_log(r["log"]), r["log"]).ok for r in result.records)
    assert len({port for port, _ in told}) == 2, told  # two servers, one a task
    assert all(int(ppid) != os.getpid() for _, ppid in told), told  # launched by the tasks, not here


def test_a_cluster_that_cannot_be_reached_is_one_line_that_names_it(monkeypatch):
    """Ray's ConnectionError is an OSError: the match told the user to give its logs a place
    it may write. Now the line names the address and Ray's reason (exit status 1)."""
    from click.testing import CliRunner

    from pidor.cli import main

    def unreachable(address=None, **kwargs):
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}")

    monkeypatch.setattr(ray, "init", unreachable)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    result = CliRunner().invoke(main, ["match", "--players", "2", "--games", "2", "--concurrency", "2",
                                       "--ray", "10.9.9.9:1"])
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == (
        "Error: --ray 10.9.9.9:1: Failed to connect to Ray cluster at 10.9.9.9:1")
