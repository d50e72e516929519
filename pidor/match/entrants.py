"""The entrants of a match: who plays, as ``--seat SPEC`` or ``--entrant NAME=SPEC``.

* ``builtin:POLICY[:params]``: a built-in policy, in-process (:func:`pidor.bots.parse_spec`);
* ``py:MODULE:CLASS[:params]``: your own :class:`pidor.bots.Policy` subclass, in-process
  (imported by name, here and in each worker; the parameters are its ``PARAMS``);
* ``cmd:COMMAND LINE``: an external program in any language. The runner starts one local
  server and launches the command for a seat as :mod:`pidor.match.launch` says (``PIDOR_HOST``
  … ``PIDOR_TOKEN`` in its environment, ``{host}`` … ``{token}`` in its arguments);
* ``stdio:COMMAND LINE``: a program in any language that reads the host's lines on stdin
  and answers on stdout (``protocol/STDIO.md``, :mod:`pidor.stdio`); played in-process, or
  through ``pidor bridge`` as a ``cmd:`` program when the match has its local server;
* ``tcp:TOKEN``: a bot that is already running, maybe on another machine: it connects to
  the runner's server with this token (``hello`` with ``token``) and is seated for it.

An entrant without a name is named by its spec (``builtin:random``; a second one with the
same spec ``builtin:random#2``), a ``cmd:`` one by its program: the file name of the last
word before the first option (``cmd:python bots/mine.py --port {port}`` is ``mine.py``), a
``stdio:`` one likewise.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from ..bots import parse_spec
from ..engine.game import shown
from .launch import check_command

__all__ = ["Entrant", "parse_entrant", "named_entrant", "name_entrants"]

#: An entrant's name: printable, no ``=``, at most 32 characters (a player name's limit).
NAME_MAX = 32
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.~-]{7,127}")  # (no leading "-": a bot's --token would take it for an option)
_KINDS = "builtin:POLICY[:params], py:MODULE:CLASS[:params], cmd:COMMAND LINE, stdio:COMMAND LINE or tcp:TOKEN"


@dataclass(frozen=True)
class Entrant:
    name: str
    spec: str
    kind: str  # builtin | py | cmd | stdio | tcp
    params: dict = field(default_factory=dict, compare=False)  # builtin, py: the policy spec
    argv: tuple[str, ...] = ()  # cmd: the command line, placeholders unfilled; stdio: the command line
    token: str | None = None  # tcp: the token the bot says hello with
    given: bool = False  # named by --entrant (else by its spec or program)

    @property
    def external(self) -> bool:
        """Plays over the protocol, on the runner's local server."""
        return self.kind in ("cmd", "tcp")


def parse_entrant(spec: str, name: str | None = None) -> Entrant:
    """An entrant from its spec; ``ValueError`` with a one-line reason."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in ("builtin", "py", "cmd", "stdio", "tcp"):
        raise ValueError(f"unknown entrant {shown(spec)}: use {_KINDS}")
    given = name is not None
    name = spec if name is None else name
    if kind in ("builtin", "py"):
        return Entrant(name, spec, kind, params=parse_spec(spec, python=True), given=given)
    if kind == "tcp":
        if not _TOKEN.fullmatch(rest):
            raise ValueError(f"a tcp: token is 8..128 letters, digits or _.~-, the first a letter or digit "
                             f"(the bot says hello with it), "
                             f"not {shown(rest)}")
        return Entrant(name, spec, kind, token=rest, given=given)
    try:
        argv = tuple(shlex.split(rest))
    except ValueError as e:
        raise ValueError(f"cannot split the command line {shown(rest)}: {e}") from None
    if not argv:
        example = "cmd:python my_bot.py --games 0" if kind == "cmd" else "stdio:python3 my_bot.py"
        raise ValueError(f"{kind}: needs a command line, e.g. {example}")
    if kind == "cmd":
        check_command(argv)
    return Entrant(name if given else _program(argv), spec, kind, argv=argv, given=given)


def _program(argv: tuple[str, ...]) -> str:
    words = argv[:next((k for k, a in enumerate(argv) if a.startswith("-")), len(argv))]
    last = (words or argv)[-1]
    return (last.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or last)[:NAME_MAX]


def named_entrant(text: str) -> Entrant:
    """``NAME=SPEC`` (``--entrant``)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"an entrant is NAME=SPEC, e.g. mine=cmd:python my_bot.py, not {shown(text)}")
    if len(name) > NAME_MAX or not name.isprintable():
        raise ValueError(f"an entrant's name is 1..{NAME_MAX} printable characters, not {shown(name)}")
    return parse_entrant(spec, name)


def name_entrants(entrants: list[Entrant]) -> list[Entrant]:
    """Unique names: a repeated name gets ``#2``, ``#3``… in order; ``ValueError`` when two
    ``--entrant`` s were given the same name."""
    seen: dict[str, int] = {}
    out = []
    for e in entrants:
        k = seen.get(e.name, 0) + 1
        seen[e.name] = k
        if k > 1:
            if e.given:
                raise ValueError(f"two entrants are named {shown(e.name)}")
            e = Entrant(f"{e.name}#{k}", e.spec, e.kind, e.params, e.argv, e.token)
        out.append(e)
    return out

