#!/usr/bin/env bash
# The README's test command: make a venv, install the package with its test extra, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest "$@"
