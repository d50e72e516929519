#!/usr/bin/env bash
# The README's test command, on a fresh machine too. It installs what the tests need when it
# is missing: Chromium (the replay viewer's browser test) and msgpack-c (the C sample bot)
# with apt-get, which needs root; the JavaScript client's locked packages with npm ci. Then it
# makes the venv, runs pytest, and the JavaScript and C clients' own tests. A missing tool
# fails here, loudly, naming what to install: no test is ever skipped (the Ray test skips
# itself where Ray is missing, so the test extra's Ray is checked here).
# Arguments go on to pytest: `bash scripts/test.sh -m "not slow"` is the fast tier (README).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "test.sh: $*" >&2; exit 1; }
apt_install() {  # Debian packages, as root; apt's own error above the line that says what to do
    [ "$(id -u)" -eq 0 ] || fail "missing: $*; install them (sudo apt-get install -y $*) or run this as root"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" > /dev/null; } \
        || fail "apt-get could not install $* (its error is above: e.g. another apt or dpkg holds the lock);" \
                "install them yourself (apt-get install -y $*) and run this again"
}

command -v python3 > /dev/null || fail "no python3: install Python 3.11 or later"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$(python3 --version 2>&1) is too old: pidor needs Python 3.11 or later (as python3)"
venv_pkg="python3.$(python3 -c 'import sys; print(sys.version_info[1])')-venv"
python3 -c 'import ensurepip, venv' 2> /dev/null \
    || fail "python3 -m venv cannot work here (no ensurepip): install $venv_pkg" \
            "(Debian, Ubuntu: apt-get install -y $venv_pkg), or use a Python that has venv"

command -v chromium > /dev/null || apt_install chromium
command -v cc > /dev/null || fail "no C compiler (cc): install gcc"
command -v make > /dev/null || fail "no make: install make"
pkg-config --exists msgpack 2> /dev/null || apt_install libmsgpack-dev pkg-config
pkg-config --exists msgpack || fail "msgpack-c did not install (libmsgpack-dev)"
command -v node > /dev/null || fail "no node: install Node.js 20 or later"
command -v npm > /dev/null || fail "no npm: install npm"
major=$(node --version | sed 's/^v\([0-9]*\).*/\1/')
[ "$major" -ge 20 ] || fail "node $(node --version) is too old: clients/js needs Node.js 20 or later"

(cd clients/js && npm ci --no-audit --no-fund --loglevel=error)
make -s -C clients/c
python3 -m venv .venv || fail "python3 -m venv .venv failed (above: why); remove .venv and run this again"
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/python -c 'import importlib.util as u; raise SystemExit(u.find_spec("ray") is None)' \
    || fail "Ray did not install with the test extra (tests/test_match_ray.py would be skipped): pip install 'ray>=2.9'"

.venv/bin/python -m pytest "$@"
(cd clients/js && npm test --silent)
make -s -C clients/c test
