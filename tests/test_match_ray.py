"""`pidor match --ray` (issue 9 item 5): in-process games on a local Ray cluster give the
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
