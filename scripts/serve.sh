#!/usr/bin/env bash
# The README's run command: make a venv, install the package, start the server with its defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/pidor serve "$@"
