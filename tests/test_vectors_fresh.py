"""protocol/vectors/ are what the server says today: recording them again gives the same
bytes. A change in the server's behaviour (a field, an order, a message) cannot pass
silently, and the clients of other languages are never tested against stale vectors.
After a deliberate change, record them again: ``python scripts/record_vectors.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "protocol" / "vectors"


@pytest.mark.slow
def test_recording_the_vectors_again_gives_the_same_bytes(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts" / "record_vectors.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True, timeout=120)
    recorded = sorted(p.name for p in tmp_path.iterdir())
    assert recorded == sorted(p.name for p in VECTORS.iterdir())
    changed = [name for name in recorded if (tmp_path / name).read_bytes() != (VECTORS / name).read_bytes()]
    assert changed == [], f"{changed} differ from protocol/vectors/: run scripts/record_vectors.py if intended"
