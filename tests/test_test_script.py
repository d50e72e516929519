"""``scripts/test.sh`` on a machine that lacks something (issue 21, item 9): it stops before
making the venv, with a line that says what to install. Each case runs the script with a
PATH of stand-ins (a Python that is too old or has no venv, an apt-get whose lock is held),
so nothing is installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "test.sh"
PYTHON = f"python3.{sys.version_info[1]}"

STANDINS = {
    # the real Python of the tests, and root (apt_install's case)
    "ok": {"python3": f'exec {sys.executable} "$@"', "id": "echo 0"},
    "old": {"python3": 'if [ "$1" = --version ]; then echo "Python 3.10.12"; exit 0; fi; exit 1'},
    "no-venv": {"python3": f'case "$*" in *ensurepip*) exit 1;; esac; exec {sys.executable} "$@"'},
    "apt-locked": {"apt-get": 'echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 7 (apt)" >&2;'
                              ' exit 100'},
}


def run_script(tmp_path, *cases: str) -> subprocess.CompletedProcess:
    """test.sh with only ``dirname`` and the stand-ins of ``cases`` on its PATH (no chromium)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink("/usr/bin/dirname" if os.path.exists("/usr/bin/dirname") else "/bin/dirname", bin_dir / "dirname")
    for case in ("ok", *cases):
        for name, body in STANDINS[case].items():
            (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
            (bin_dir / name).chmod(0o755)
    return subprocess.run(["/bin/bash", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir), "HOME": str(tmp_path)})


@pytest.mark.parametrize("case, says", [
    ("old", "test.sh: Python 3.10.12 is too old: pidor needs Python 3.11 or later (as python3)\n"),
    ("no-venv", f"test.sh: python3 -m venv cannot work here (no ensurepip): install {PYTHON}-venv "
                f"(Debian, Ubuntu: apt-get install -y {PYTHON}-venv), or use a Python that has venv\n"),
])
def test_python_is_checked_before_the_venv(tmp_path, case, says):
    r = run_script(tmp_path, case)
    assert (r.returncode, r.stderr) == (1, says)


def test_a_failed_apt_get_says_what_to_install(tmp_path):
    r = run_script(tmp_path, "apt-locked")
    assert r.returncode == 1
    apt, ours = r.stderr.splitlines()
    assert apt.startswith("E: Could not get lock")
    assert ours == ("test.sh: apt-get could not install chromium (its error is above: e.g. another apt or dpkg "
                    "holds the lock); install them yourself (apt-get install -y chromium) and run this again")
