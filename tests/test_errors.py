"""Every error is one line that says what failed and what to do; usage errors exit 2,
failures 1; no traceback (issue 10 §5). Each case the issue lists is run here."""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from pidor.cli import main


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        f"a traceback: {result.exception!r}"
    return result


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("args,says", [
    (["match", "--players", "2", "--seat", "builtin:random", "--seat", "builtin:random", "--seat",
      "builtin:random", "--games", "1"], "3 seat specs for 2 players"),
    (["match", "--game", "pidor", "--hard", "--games", "1"], "pidor has no option 'hard'"),
    (["match", "--game", "podkidnoy", "--opt", "teams=4x4", "--games", "1"], "teams must be none, 2x2, 3x3"),
    (["match", "--seat", "human", "--games", "1"], "unknown entrant 'human'"),
    (["play", "--bot", "builtin:random:cheat=2"], "cheat must be a decimal number in [0, 1]"),
    (["play", "--call-window", "-1"], "--call-window"),
    # the protocol's rule for a name, checked before connecting (issue 21, item 9)
    (["play", "--name", ""], "a name is 1..32 printable characters, not ''"),
    (["play", "--name", " \t "], "--name"),
    (["play", "--name", "x" * 33], "--name"),
    (["play", "--name", "a\x1bb"], "--name"),
])
def test_usage_errors_exit_2(args, says):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert says in one_error_line(result)


def test_match_logs_where_none_can_be_written(tmp_path):
    result = run("match", "--logs", "/proc/nope", "--games", "1")
    assert result.exit_code == 1
    assert one_error_line(result) == ("Error: cannot write /proc/nope: No such file or directory; "
                                      "give --logs and --results a place you may write")


def test_export_to_a_directory_that_does_not_exist(tmp_path):
    logs = tmp_path / "logs"
    assert run("match", "--game", "podkidnoy", "--players", "2", "--games", "1", "--logs", str(logs)).exit_code == 0
    [log] = logs.iterdir()
    result = run("export", str(log), "-o", "/nonexistent/dir/x.jsonl")
    assert result.exit_code == 1
    assert one_error_line(result) == ("Error: cannot write /nonexistent/dir/x.jsonl: No such file or directory; "
                                      "give -o a file in a directory that exists and you may write")


def test_serve_with_a_data_directory_it_cannot_make():
    result = run("serve", "--port", "0", "--data", "/proc/nope")
    assert result.exit_code == 1
    assert one_error_line(result) == ("Error: cannot keep the store in /proc/nope: No such file or directory; "
                                      "give a writable directory with --data (or PIDOR_DATA)")


def test_serve_on_a_busy_port_says_so_and_creates_nothing(tmp_path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        result = run("serve", "--port", str(port), "--data", str(tmp_path / "data"))
    finally:
        busy.close()
    assert result.exit_code == 1
    assert one_error_line(result) == (f"Error: port {port} is in use on 127.0.0.1; try --port 0 (any free port) "
                                      "or stop the other server")
    assert not (tmp_path / "data").exists()  # bound first: nothing made on disk


@pytest.mark.parametrize("host,says", [
    ("192.0.2.1", "Error: cannot listen on 192.0.2.1: it is not an address of this machine; use --host 127.0.0.1 "
                  "(this machine only) or 0.0.0.0 (every address)"),  # TEST-NET-1: nobody's address
    ("nosuch.invalid", "Error: cannot listen on nosuch.invalid: no such host ("),
])
def test_serve_on_an_address_of_another_machine(tmp_path, host, says):
    result = run("serve", "--host", host, "--port", "0", "--data", str(tmp_path / "data"))
    assert result.exit_code == 1
    assert one_error_line(result).startswith(says)
    assert not (tmp_path / "data").exists()
