"""The summary of a match: the match's options and :func:`pidor.match.stats.summarize` of
its records (per entrant: games, losses with a Wilson interval, draws, mean place, cheats,
convictions, false calls, forfeits by reason, an openskill rating, the time its bot took a
turn; ranked by loss, rating or place; for two entrants, A against B; for more, the
crosstable); for a ``cmd:`` or ``stdio:`` entrant, its stderr file and the line of its end
that best tells why it failed (:func:`pidor.match.launch.telling_line`)."""

from __future__ import annotations

from pathlib import Path

from ..games import game_class
from .stats import summarize, summary_table

__all__ = ["match_summary", "summary_text"]


def match_summary(records: list[dict], entrants: list, options: dict, seed: str,
                  pair: tuple[str, str] | None = None, sprt: dict | None = None, stderr: dict | None = None,
                  rank_by: str = "loss") -> dict:
    """The match's summary, its entrants ranked ``rank_by``; each entrant's row also gives
    its ``spec``, and with its :class:`~pidor.match.launch.Stderr` in ``stderr`` (by name)
    ``stderr`` (the file, or ``None``) and ``stderr_last`` (``None`` when it wrote nothing)."""
    out = {"game": options["game"], "players": options["players"], "deck": options["deck"], "seed": seed}
    # the game's other options (durak's hard, teams, simple's lead…), as its spec declares them
    out.update({k: options[k] for k in game_class(options["game"]).DEFAULTS if k not in out})
    out.update(summarize(records, pair, rank_by))
    specs = {e.name: e.spec for e in entrants}
    out["entrants"] = [{"name": row["name"], "spec": specs[row["name"]], **row} for row in out["entrants"]]
    for row in out["entrants"]:
        err = (stderr or {}).get(row["name"])
        if err is not None:
            row["stderr"] = None if err.path is None else str(err.path)
            row["stderr_last"] = err.last()
    if sprt is not None:
        out["sprt"] = sprt
    return out


def summary_text(summary: dict, logs: list[str], seconds: float | None = None) -> str:
    s = summary
    changed = [f"{k}={str(v).lower() if type(v) is bool else ','.join(v) if type(v) is list else v}"
               for k, v in s.items()
               if k in game_class(s["game"]).DEFAULTS and k not in ("players", "deck")
               and v != game_class(s["game"]).DEFAULTS[k]]  # the options that differ from the game's own
    lines = [f"{s['game']}: {s['players']} players, deck {s['deck']}" + "".join(f", {c}" for c in changed)
             + f", {s['games']} games, seed {s['seed']!r}: {s['draws']} draws, {s['actions']} actions"
             + (f" ({s['games'] / seconds:.0f} games/s)" if seconds else ""), summary_table(s)]
    if "sprt" in s:
        t = s["sprt"]
        lines.append(f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g} alpha={t['alpha']:g} beta={t['beta']:g}: "
                     f"LLR {t['llr']:.2f} in ({t['lower']:.2f}, {t['upper']:.2f}) after {t['outcomes']} outcomes: "
                     + {"H0": "H0 accepted, stopped", "H1": "H1 accepted, stopped"}.get(t["decision"], "no decision"))
    for e in s["entrants"]:
        said = []
        if e["forfeits"]:
            said.append("forfeits " + ", ".join(f"{why} {n}" for why, n in e["forfeit_reasons"].items()))
        if e.get("stderr"):
            last = e["stderr_last"]
            said.append(f"stderr {e['stderr']}" + (f", last line: {last}" if last else " (empty)"))
        if said:
            lines.append(f"{e['name']}: " + "; ".join(said))
    if logs:
        lines.append(f"logs: {len(logs)} files in {Path(logs[0]).parent}")
    return "\n".join(lines)
