"""DESIGN lesson 1: the engine is sans-IO. Nothing under pidor/engine/ may import trio,
socket, time, random or msgpack (directly, in any form of import statement)."""

import ast
from pathlib import Path

import pidor.engine

FORBIDDEN = {"trio", "socket", "time", "random", "msgpack"}
ENGINE = Path(pidor.engine.__file__).parent


def imported_roots(tree: ast.AST) -> set[str]:
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "__import__", "import_module"):
            for arg in node.args[:1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    roots.add(arg.value.lstrip(".").split(".")[0] if not arg.value.startswith(".") else "")
    return roots


def test_scanner_catches_forbidden_imports():
    # The check itself must be able to fail.
    for src in ("import time", "from trio import sleep", "import socket as s", "import msgpack.fallback",
                "__import__('random')"):
        assert imported_roots(ast.parse(src)) & FORBIDDEN, src


def test_engine_imports_no_io_clock_or_global_random():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5
    offenders = {}
    for path in files:
        bad = imported_roots(ast.parse(path.read_text(encoding="utf-8"))) & FORBIDDEN
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}
