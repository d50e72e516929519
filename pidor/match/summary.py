"""The summary of a match: per entrant, counted over the seats it held in the records."""

from __future__ import annotations

from pathlib import Path

from .entrants import Entrant

__all__ = ["summarize", "summary_text"]

_COUNTS = ("cheats", "convicted", "false_calls")


def summarize(records: list[dict], entrants: list[Entrant], options: dict, seed: str) -> dict:
    rows = {e.name: {"name": e.name, "spec": e.spec, "games": 0, "losses": 0, "draws": 0, "places": 0,
                     "cheats": 0, "convicted": 0, "false_calls": 0, "forfeits": 0} for e in entrants}
    for r in records:
        n = len(r["seating"])
        order = r["order"]
        for seat, name in enumerate(r["seating"]):
            row = rows[name]
            row["games"] += 1
            row["places"] += order.index(seat) + 1 if seat in order else n
            if r["loser"] == seat:
                row["losses"] += 1
            elif r["draw"]:
                row["draws"] += 1
            for key in _COUNTS:
                row[key] += r[key][seat]
        for f in r["forfeits"]:
            rows[r["seating"][f["seat"]]]["forfeits"] += 1
    for row in rows.values():
        places = row.pop("places")
        row["mean_place"] = round(places / row["games"], 4) if row["games"] else None
    out = {"game": options["game"], "players": options["players"], "deck": options["deck"], "seed": seed,
           "games": len(records), "draws": sum(r["draw"] for r in records),
           "actions": sum(r["actions"] for r in records), "entrants": list(rows.values())}
    if "hard" in options:
        out["hard"] = options["hard"]
    return out


def summary_text(summary: dict, logs: list[str], seconds: float | None = None) -> str:
    s = summary
    lines = [f"{s['game']}: {s['players']} players, deck {s['deck']}" + (", hard" if s.get("hard") else "")
             + f", {s['games']} games, seed {s['seed']!r}: {s['draws']} draws, {s['actions']} actions"
             + (f" ({s['games'] / seconds:.0f} games/s)" if seconds else "")]
    head = ("entrant", "games", "losses", "draws", "mean place", "cheats", "convicted", "false calls", "forfeits")
    rows = [head] + [(e["name"], str(e["games"]), str(e["losses"]), str(e["draws"]),
                      "—" if e["mean_place"] is None else f"{e['mean_place']:.2f}", str(e["cheats"]),
                      str(e["convicted"]), str(e["false_calls"]), str(e["forfeits"])) for e in s["entrants"]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for k, row in enumerate(rows):
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    if logs:
        lines.append(f"logs: {len(logs)} files in {Path(logs[0]).parent}")
    return "\n".join(lines)
