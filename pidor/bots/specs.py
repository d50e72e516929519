"""The one registry of built-in policies and their spec text: ``builtin:NAME[:k=v,...]``.

``pidor match --seat``, the server's ``bots`` option, ``pidor play --bot`` and the SDK's
``--policy`` all parse through :func:`parse_spec` and build through :func:`make_policy`.
A policy class joins with :func:`register` (its ``name`` and ``PARAMS``, see
:class:`.policy.Policy`).

``py:MODULE:CLASS[:k=v,...]`` (``parse_spec(text, python=True)``: ``pidor match`` and the
SDK, never the server's ``bots`` option) names a :class:`~.policy.Policy` subclass of your
own, imported by name (:func:`python_policy`; the current directory is searched too), its
parameters parsed against its ``PARAMS`` as a built-in's.

Parameter values: a float parameter is a plain decimal number in [0, 1] (a rate or a
probability: no exponent, NaN or infinity), an int parameter a whole number ≥ 0; each is
given at most once. The messages quote a peer's text only shortened (``shown``).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Any

from ..engine.game import shown
from .policy import Policy

__all__ = ["POLICIES", "register", "parse_spec", "parse_params", "python_policy", "policy_class", "check_plays",
           "make_policy", "usage"]

#: name -> class, in the order registered.
POLICIES: dict[str, type[Policy]] = {}

_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_COUNT = re.compile(r"[0-9]{1,9}")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CLASS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: How a ``py:`` spec is written (in messages).
PY_SPEC = "py:MODULE:CLASS[:k=v,...]"


def register(cls: type[Policy]) -> type[Policy]:
    """Name ``cls`` in specs as ``builtin:<cls.name>`` (usable as a class decorator)."""
    if not cls.name or cls.name in POLICIES and POLICIES[cls.name] is not cls:
        raise ValueError(f"a policy needs a name of its own, not {cls.name!r}")
    POLICIES[cls.name] = cls
    return cls


def usage() -> str:
    """One line per policy: how to write its spec."""
    def one(cls: type[Policy]) -> str:
        params = ",".join(f"{k}={'P' if type(v) is float else 'N'}" for k, v in cls.PARAMS.items())
        return f"builtin:{cls.name}" + (f"[:{params}]" if params else "")
    return " or ".join(one(c) for c in POLICIES.values())


def parse_spec(spec: Any, *, python: bool = False) -> dict:
    """``builtin:random:cheat=0.1`` -> ``{"policy": "random", "cheat": 0.1}``; with
    ``python``, also ``py:mybots:Careful:cheat=0.1`` -> ``{"policy": "py:mybots:Careful",
    "cheat": 0.1}`` (the class imported to check it and its parameters). ``ValueError``
    with a clear one-line message on anything else."""
    if python and type(spec) is str and spec.startswith("py:"):
        parts = spec.split(":", 3)
        target = ":".join(parts[1:3])
        cls = python_policy(target)
        return {"policy": f"py:{target}", **parse_params(cls, parts[3] if len(parts) == 4 else "", spec)}
    if type(spec) is not str:
        raise ValueError(f"a seat spec is a string; use {usage()}, not {shown(spec)}")
    parts = spec.split(":", 2)
    cls = POLICIES.get(parts[1]) if len(parts) >= 2 and parts[0] == "builtin" else None
    if cls is None:
        raise ValueError(f"unknown seat spec {shown(spec)}: use {usage()}")
    return {"policy": cls.name, **parse_params(cls, parts[2] if len(parts) == 3 else "", spec)}


def parse_params(cls: type[Policy], text: str, spec: str | None = None) -> dict:
    """``cheat=0.1,attention=0.5`` -> ``{"cheat": 0.1, "attention": 0.5}`` for ``cls``
    (also for policies named otherwise than ``builtin:``, e.g. a match's ``py:`` entrants)."""
    where = shown(text if spec is None else spec)
    out: dict = {}
    if not text:
        return out
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in cls.PARAMS:
            known = ", ".join(cls.PARAMS) or "none"
            raise ValueError(f"bad parameter {shown(item)} in {where}; known: {known}")
        if key in out:
            raise ValueError(f"{key} is given twice in {where}")
        if type(cls.PARAMS[key]) is int:
            if not _COUNT.fullmatch(value):
                raise ValueError(f"{key} must be a whole number ≥ 0 like 100, not {shown(value)}")
            out[key] = int(value)
        else:
            if not _DECIMAL.fullmatch(value) or not float(value) <= 1.0:
                raise ValueError(f"{key} must be a decimal number in [0, 1] like 0.25, not {shown(value)}")
            out[key] = float(value)
    return out


def python_policy(target: str) -> type[Policy]:
    """The :class:`Policy` subclass ``MODULE:CLASS`` names, imported by name (so a worker
    process imports it too); ``ValueError`` with a one-line reason when the module cannot
    be imported or has no such class, or the class is not a policy."""
    module, sep, name = target.partition(":")
    if not sep or not _MODULE.fullmatch(module) or not _CLASS.fullmatch(name):
        raise ValueError(f"a Python policy is {PY_SPEC} (a module on the path, a class in it), not "
                         f"{shown('py:' + target)}")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # a bot module beside where the command runs
    try:
        found = importlib.import_module(module)
    except ImportError as e:
        raise ValueError(f"cannot import {module} for py:{target}: {e}") from None
    except Exception as e:  # the module itself fails: one line, not its traceback
        raise ValueError(f"importing {module} for py:{target} failed: {type(e).__name__}: {e}") from None
    cls = getattr(found, name, None)
    if cls is None:
        raise ValueError(f"module {module} has no {name} (py:{target})")
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise ValueError(f"py:{target} is not a policy: a class must subclass pidor.bots.Policy")
    return cls


def policy_class(spec: str | dict) -> type[Policy]:
    """The class a spec names (text, ``py:`` included, or a dict from :func:`parse_spec`)."""
    if type(spec) is str:
        spec = parse_spec(spec, python=True)
    name = spec.get("policy")
    cls = python_policy(name[3:]) if type(name) is str and name.startswith("py:") else POLICIES.get(name)
    if cls is None:
        raise ValueError(f"unknown policy {shown(spec.get('policy'))}: use {usage()}")
    return cls


def check_plays(spec: str | dict, game: str) -> None:
    """``ValueError`` in one line when the policy does not play ``game`` (``Policy.plays``):
    ``builtin:ismcts does not play drunkard``."""
    if type(spec) is str:
        spec = parse_spec(spec, python=True)
    if not policy_class(spec).plays(game):
        name = spec["policy"]
        raise ValueError(f"{name if name.startswith('py:') else 'builtin:' + name} does not play {game}")


def make_policy(spec: str | dict, seat: int, seed: bytes) -> Policy:
    """The policy a spec names (text, ``py:`` included, or a dict from :func:`parse_spec`)
    for ``seat``."""
    if type(spec) is str:
        spec = parse_spec(spec, python=True)
    return policy_class(spec)(seat, seed, **{k: v for k, v in spec.items() if k != "policy"})
