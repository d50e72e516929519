"""``pidor serve`` as a process: default data directory, logs on stderr, and a clean stop
on SIGINT and SIGTERM that tells connected clients."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys

import pytest

from helpers import first_fast, read_frame
from pidor import wire


@first_fast
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_cleanly_on_a_signal(tmp_path, signum):
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": "", "PIDOR_DATA": ""}
    proc = subprocess.Popen([sys.executable, "-m", "pidor.cli", "serve", "--port", "0"],
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        port = None
        lines = []
        for line in proc.stderr:
            lines.append(line)
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        assert port, lines
        assert any(" INFO pidor.server.command: data in " in line for line in lines)
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(wire.encode({"type": "hello", "version": wire.PROTOCOL_VERSION, "name": "x", "id": 1}))
        assert read_frame(sock)["type"] == "welcome"
        proc.send_signal(signum)
        err = read_frame(sock)
        assert err["code"] == "shutdown" and err["fatal"] is True
        assert proc.wait(timeout=20) == 0
        rest = proc.stderr.read()
        assert "stopped" in rest
        assert (tmp_path / ".local" / "share" / "pidor" / "pidor.sqlite3").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
