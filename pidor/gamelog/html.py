"""``pidor replay LOG --html OUT.html``: one self-contained page that plays a logged game.

The page is this package's ``replay_page.html`` with its script (``replay_page.js``) and
style (``replay_page.css``) inlined and the game as JSON: no network, nothing else to
carry. It draws a card table: the seats around it (name, the mark, who acts, their cards
as the chosen view may see them), the shared zones in the middle, a court as a panel; a
timeline with cheats, calls and courts marked; buttons, a slider and keys to step.

Nothing in the page names a game: the zones are :meth:`pidor.engine.game.Game.zones`, a
zone ``name.N`` being seat N's; how each is named and laid out comes from the game's
``text.py`` (:attr:`~pidor.games.text.GameText.ZONES`, :meth:`~pidor.games.text.GameText.groups`).

The data: ``zones`` each zone name's ``ru``/``en`` name and ``look``; per step (one per
log record): ``t`` the lines of the all-seats view and ``s`` those of each seat whose
lines differ; ``k`` marks (``x`` cheat, ``c`` call, ``j`` court); ``j`` the court panel
(:class:`~.replay.Court`) while a call is judged, ``sj`` a seat's where it differs; ``z``
the board's zones (card codes run together; the deck is a count ``d``), ``g`` for a zone
drawn in groups the groups' sizes (its cards in ``z`` group after group); ``m`` one
character per card of ``z`` (in zone order): the seats that may not see it, as a bit mask
(``chr(48 + mask)``); ``r`` trump, ``a`` the mark, ``o`` seats to act. The board of a step
without one (a log the engine cannot follow) is the last one shown.
"""

from __future__ import annotations

import json
from importlib import resources

from .format import LogFile
from .replay import Board, Replay

__all__ = ["page", "write_page", "game_data"]


def _board(board: Board | None, players: int) -> dict | None:
    if board is None:
        return None
    zones, mask, groups = {}, [], {}
    for zone, codes in board.zones.items():
        if zone == "deck":
            continue
        if zone in board.groups:
            codes = [c for group in board.groups[zone] for c in group]
            groups[zone] = [len(group) for group in board.groups[zone]]
        zones[zone] = "".join(codes)
        for c in codes:
            bits = sum(1 << s for s in range(players) if c in board.hidden[s])
            mask.append(chr(48 + bits))
    deck = len(board.zones["deck"]) if "deck" in board.zones else None  # (a game without a deck: None)
    out = {"z": zones, "m": "".join(mask), "d": deck, "r": board.trump, "a": board.mark, "o": board.to_act}
    if groups:
        out["g"] = groups
    return out


def game_data(log: LogFile, lang: str = "ru") -> dict:
    everyone = Replay(log, None, lang)
    players = everyone.players
    seats = [Replay(log, s, lang) for s in range(players)]
    steps = []
    names: set[str] = set()
    for k, step in enumerate(everyone.steps):
        lines = step.text()
        own = {str(s): r.steps[k].text() for s, r in enumerate(seats) if r.steps[k].text() != lines}
        item = {"i": step.index, "t": lines, "k": "".join(sorted({"cheat": "x", "call": "c", "court": "j"}[m]
                                                                  for m in step.marks))}
        if own:
            item["s"] = own
        if step.court is not None:
            item["j"] = step.court
            own_court = {str(s): r.steps[k].court for s, r in enumerate(seats) if r.steps[k].court != step.court}
            if own_court:
                item["sj"] = own_court
        board = _board(step.board, players)
        if board is not None:
            item.update(board)
            names.update(zone.partition(".")[0] for zone in board["z"])
        steps.append(item)
    text = everyone.say.text
    zones = {name: {"ru": text.zone_name("ru", name), "en": text.zone_name("en", name),
                    "look": (text.ZONES.get(name) or {}).get("look", "row")} for name in sorted(names)}
    return {"lang": everyone.say.lang, "players": players, "names": [everyone.say.who(s) for s in range(players)],
            "header": everyone.header_lines(), "steps": steps, "zones": zones,
            "footer": everyone.footer_lines() + everyone.audit.lines(everyone.say, log.footer),
            "problem": everyone.problem}


def page(log: LogFile, lang: str = "ru") -> str:
    here = resources.files(__package__)
    template = (here / "replay_page.html").read_text(encoding="utf-8")
    data = json.dumps(game_data(log, lang), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("</", "<\\/")  # nothing in the data may close the script element
    parts = {"/*CSS*/": (here / "replay_page.css").read_text(encoding="utf-8"),
             "/*JS*/": (here / "replay_page.js").read_text(encoding="utf-8"),
             "/*DATA*/": data}
    for mark, text in parts.items():
        template = template.replace(mark, text, 1)
    return template


def write_page(log: LogFile, path: str, lang: str = "ru") -> int:
    """Write the page; returns its size in bytes."""
    text = page(log, lang).encode("utf-8")
    with open(path, "wb") as f:
        f.write(text)
    return len(text)
