"""Statistics of a match or of standings: pure functions of per-game records.

A **record** is one game, as ``pidor match --results`` writes it (one JSON object a line)
and as ``pidor standings`` rebuilds it from a log: at least ``seating`` (the entrant's name
of each seat), ``order`` (the seats that went out, first out first), ``loser`` (a seat or
``None``), ``draw``, and per seat ``cheats``, ``convicted``, ``false_calls``; ``forfeits`` is
a list of ``{"seat", "reason"}`` and ``actions`` a count. Records are taken in the order given
(the rating is updated game by game).

Per entrant (:func:`summarize`), counted per seat it held — an entrant that holds two seats
of a game plays two games of it:

* ``games``, ``losses`` (its seat was the loser), ``draws`` (the game was a draw);
* ``mean_place``: 1 = first out; the loser's place is the last; the seats still holding
  cards when a game is drawn (P16, P16a) share the places left, e.g. 3.5 each for two of four;
* ``cheats``, ``convicted``, ``false_calls``, ``forfeits``: summed over its seats;
  ``forfeit_reasons``: the forfeits by reason (``{"crash": 2}``);
* ``loss_rate`` = losses / games with its 95% Wilson score interval ``loss_rate_95``;
* ``mu``, ``sigma``, ``rating``: an openskill Plackett–Luce rating (Weng & Lin 2011,
  algorithm 4, the ``openskill`` package with its defaults: mu 25, sigma 25/3) updated with
  each game's finishing order (ranks = places, so the seats of a drawn game tie);
  ``rating = mu - 3 sigma``, a conservative estimate. An entrant that holds several seats of
  a game is rated once per seat from its rating before the game, and the updates are added:
  the mu changes summed, the variance factors multiplied;
* ``time`` (records with ``time``: bot programs): the turns it answered, their mean and
  longest time in ms; ``None`` for an entrant with no timed turn.

**Ranking** (``rank_by``, :data:`RANKINGS`; each row's ``rank``): by the loss rate, lowest
first (the default: the games have one result, who is the pidor, the durak; going out first
or last among the others is worth nothing), by the rating (the finishing order: it counts
going out early, which a bot that only avoids losing does not try for) or by the mean place.
Ties go to the mean place, then the loss rate, then the name.

**Crosstable** (more than two entrants): for each entrant A and each B it met, the games
both sat in and how many of them A lost (its seat was the loser), A's loss rate against B.

**Two entrants A and B** (:func:`pair_summary`, :func:`sprt_status`): each game in which both
sit gives A a *score* on the loss rates: 1 if a seat of B lost, 0 if a seat of A lost, 1/2
otherwise (a draw, or a third party lost). Its mean is 1/2 + (P(B loses) − P(A loses)) / 2,
and **Elo** is the logistic Elo of that score, ``score = 1 / (1 + 10^(−elo/400))``: A is
``elo`` stronger when it is the pidor less often than B. The likelihood of superiority is
``LOS = Φ((W − L) / √(W + L))`` over A's wins W and losses L (draws carry no information).

**SPRT** (:class:`SprtTest`, :func:`sprt_status`) as fastchess's ``-sprt … model=logistic``: the generalized SPRT
of M. Van den Bergh ("Comments on Normalized Elo", proposition 1.1): the log-likelihood ratio
``N Σ p̂ᵢ log(p₁ᵢ / p₀ᵢ)`` of the empirical distribution p̂ of the outcomes, where pₖ is the
maximum-likelihood distribution whose mean score is ``score(eloₖ)``; zero counts are
regularized to 0.001 as fastchess does; bounds ``log(β/(1−α))`` and ``log((1−β)/α)``. One
outcome is one game (trinomial: 0, ½, 1) or, when every deal is played k ≥ 2 times (seat
rotation), the mean score over one deal's k games (2k + 1 outcomes; k = 2 is fastchess's
pentanomial model over game pairs); only complete deals count.
"""

from __future__ import annotations

import math
from typing import Iterable, NamedTuple

from openskill.models import PlackettLuce

from ..games import GAME_IDS, ResultField, spec

__all__ = ["Z95", "wilson", "places", "summarize", "pair_summary", "crosstable", "summary_table", "RANKINGS",
           "ranking_line", "Sprt", "parse_sprt", "SprtTest", "sprt_status", "llr", "elo_to_score"]

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%
_COUNTS = ("cheats", "convicted", "false_calls")
_DIGITS = 4  # floats in a summary are rounded to this, so that it prints the same everywhere
#: How the entrants may be ranked (``--rank-by``), and why each.
RANKINGS = {
    "loss": "by loss rate, lowest first: a game has one result, its loser (the pidor, the durak)",
    "rating": "by openskill rating (mu - 3 sigma) of the finishing order: going out early counts too",
    "place": "by mean place, lowest first: the finishing order, as it fell",
}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion ``k / n`` (``None`` when ``n`` is 0)."""
    if n == 0:
        return None
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    div = 1 + z * z / n
    return (centre - half) / div, (centre + half) / div


def places(record: dict) -> list[float]:
    """Each seat's place in a game: first out 1, …; the seats not in ``order`` (the loser,
    or those holding cards at a draw) share the places left (fractional ranking)."""
    order = record["order"]
    n = len(record["seating"])
    out = [(len(order) + 1 + n) / 2] * n  # the mean of places len(order)+1 … n
    for place, seat in enumerate(order, start=1):
        out[seat] = float(place)
    return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, _DIGITS)


class _Entrant:
    __slots__ = ("games", "losses", "draws", "places", "cheats", "convicted", "false_calls", "forfeits",
                 "reasons", "tallies", "time")

    def __init__(self) -> None:
        self.games = self.losses = self.draws = self.cheats = self.convicted = self.false_calls = 0
        self.forfeits = self.places = 0
        self.time: list | None = None  # turns answered, seconds in all, the longest
        self.reasons: dict[str, int] = {}  # forfeits by reason
        self.tallies: dict[str, list] = {}  # the game's result fields (ResultField.tally): each game's count


def _rate(model, ratings: dict, record: dict, seat_places: list[float]) -> None:
    """One game's openskill update of ``ratings`` (name -> [mu, sigma]), each seat a team."""
    names = record["seating"]
    teams = [[model.rating(*ratings[name])] for name in names]
    rated = model.rate(teams, ranks=seat_places)
    change: dict[str, list[float]] = {name: [0.0, 1.0] for name in names}  # mu added, variance factor
    for name, [r] in zip(names, rated):
        mu, sigma = ratings[name]
        var = sigma * sigma + model.tau * model.tau  # openskill adds tau² before the update
        change[name][0] += r.mu - mu
        change[name][1] *= r.sigma * r.sigma / var
    for name, (dmu, factor) in change.items():
        mu, sigma = ratings[name]
        ratings[name] = [mu + dmu, math.sqrt((sigma * sigma + model.tau * model.tau) * factor)]


def _tallied(records: list[dict]) -> list[ResultField]:
    """The result fields of the records' games that a summary counts and that their
    results hold (the losing team only in team play)."""
    games = {rec["game"] for rec in records if rec.get("game") in GAME_IDS}
    return [f for g in sorted(games) for f in spec(g).results
            if f.tally and any(f.name in rec for rec in records)]


def _tally(f: ResultField, counts: list) -> float | int | str | None:
    """An entrant's tally of one result field: a sum of flags, a mean score, the last letters."""
    if f.kind in ("title", "seats"):
        return sum(counts)
    if f.kind == "scores":
        return _round(sum(counts) / len(counts)) if counts else None
    return counts[-1] if counts else None


def summarize(records: Iterable[dict], pair: tuple[str, str] | None = None, rank_by: str = "loss") -> dict:
    """The summary of games: ``games``, ``draws``, ``actions``, ``rank_by``, ``entrants``
    (ranked, best first: module docstring) and, with exactly two entrants or an explicit
    ``pair``, ``pair`` (:func:`pair_summary`); with more than two, ``crosstable``. The same
    records in the same order give the same dict."""
    if rank_by not in RANKINGS:
        raise ValueError(f"rank by {', '.join(RANKINGS)}, not {rank_by!r}")
    records = list(records)
    model = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
    stats: dict[str, _Entrant] = {}
    ratings: dict[str, list[float]] = {}
    draws = actions = 0
    fields = _tallied(records)
    for rec in records:
        seat_places = places(rec)
        draws += bool(rec["draw"])
        actions += rec.get("actions", 0)
        for seat, name in enumerate(rec["seating"]):
            st = stats.get(name)
            if st is None:
                st = stats[name] = _Entrant()
                ratings[name] = [model.mu, model.sigma]
            st.games += 1
            st.places += seat_places[seat]
            st.losses += rec["loser"] == seat
            st.draws += bool(rec["draw"])
            for f in fields:
                counted = f.count(rec, seat)
                if counted is not None:
                    st.tallies.setdefault(f.tally, []).append(counted)
            for key in _COUNTS:
                setattr(st, key, getattr(st, key) + rec[key][seat])
            timed = (rec.get("time") or [None] * (seat + 1))[seat]
            if timed is not None:
                t = st.time = st.time or [0, 0.0, 0.0]
                t[0] += timed[0]
                t[1] += timed[1]
                t[2] = max(t[2], timed[2])
        for f in rec.get("forfeits", ()):
            st = stats[rec["seating"][f["seat"]]]
            st.forfeits += 1
            reason = str(f.get("reason"))
            st.reasons[reason] = st.reasons.get(reason, 0) + 1
        _rate(model, ratings, rec, seat_places)
    rows = []
    for name, st in stats.items():
        mu, sigma = ratings[name]
        interval = wilson(st.losses, st.games)
        rows.append({
            "name": name, "games": st.games, "losses": st.losses, "draws": st.draws,
            "mean_place": _round(st.places / st.games),
            "cheats": st.cheats, "convicted": st.convicted, "false_calls": st.false_calls,
            "forfeits": st.forfeits, "forfeit_reasons": dict(sorted(st.reasons.items())),
            "loss_rate": _round(st.losses / st.games), "loss_rate_95": [_round(x) for x in interval],
            "mu": _round(mu), "sigma": _round(sigma), "rating": _round(mu - 3 * sigma),
            "time": None if st.time is None else {
                "turns": st.time[0], "mean_ms": _round(1000 * st.time[1] / st.time[0]) if st.time[0] else None,
                "max_ms": _round(1000 * st.time[2])},
        })
        for f in fields:
            rows[-1][f.tally] = _tally(f, st.tallies.get(f.tally, []))
    rows.sort(key=_RANK_KEYS[rank_by])
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    out = {"games": len(records), "draws": draws, "actions": actions, "rank_by": rank_by, "entrants": rows}
    if pair is None and len(rows) == 2:
        pair = tuple(sorted(r["name"] for r in rows))
    if pair is not None:
        out["pair"] = pair_summary(records, *pair)
    if len(rows) > 2:
        out["crosstable"] = crosstable(records, [r["name"] for r in rows])
    return out


_RANK_KEYS = {
    "loss": lambda r: (r["loss_rate"], r["mean_place"], r["name"]),
    "rating": lambda r: (-r["rating"], r["name"]),
    "place": lambda r: (r["mean_place"], r["loss_rate"], r["name"]),
}


def crosstable(records: Iterable[dict], names: list[str]) -> dict:
    """For each entrant A (of ``names``, in that order) and each B it met: ``{"games",
    "losses", "loss_rate"}``, A's losses in the games where both sat."""
    cells: dict[tuple[str, str], list[int]] = {}
    for rec in records:
        seating = rec["seating"]
        loser = None if rec["loser"] is None else seating[rec["loser"]]
        present = set(seating)
        for a in present:
            for b in present - {a}:
                cell = cells.setdefault((a, b), [0, 0])
                cell[0] += 1
                cell[1] += loser == a
    return {a: {b: {"games": g, "losses": lost, "loss_rate": _round(lost / g)}
                for b in names if (a, b) in cells for g, lost in [cells[a, b]]} for a in names}


# --- two entrants ---------------------------------------------------------------------------

def _score(record: dict, a: str, b: str) -> float | None:
    """A's score against B in one game (module docstring); ``None`` if one of them is absent."""
    seating = record["seating"]
    if a not in seating or b not in seating:
        return None
    loser = record["loser"]
    if loser is not None and seating[loser] == b:
        return 1.0
    if loser is not None and seating[loser] == a:
        return 0.0
    return 0.5


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def _score_to_elo(score: float) -> float | None:
    return None if not 0 < score < 1 else -400 * math.log10(1 / score - 1)


def pair_summary(records: Iterable[dict], a: str, b: str) -> dict:
    """A against B over the games where both sit: ``wins`` (B lost), ``draws`` (neither),
    ``losses`` (A lost), A's mean ``score``, its ``elo`` with a 95% interval, and ``los``,
    the likelihood that A is stronger (module docstring)."""
    scores = [s for s in (_score(r, a, b) for r in records) if s is not None]
    n = len(scores)
    wins, losses = scores.count(1.0), scores.count(0.0)
    out = {"a": a, "b": b, "games": n, "wins": wins, "draws": n - wins - losses, "losses": losses,
           "score": None, "elo": None, "elo_95": None,
           "los": _round(0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))))
           if wins + losses else 0.5}
    if n:
        mean = sum(scores) / n
        se = math.sqrt(sum((s - mean) ** 2 for s in scores) / n / n)
        out["score"] = _round(mean)
        out["elo"] = _round(_score_to_elo(mean))
        lo, hi = _score_to_elo(max(mean - Z95 * se, 0.0)), _score_to_elo(min(mean + Z95 * se, 1.0))
        out["elo_95"] = [_round(lo), _round(hi)]
    return out


# --- SPRT -----------------------------------------------------------------------------------

class Sprt(NamedTuple):
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def __str__(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> Sprt:
    """``elo0=0,elo1=10[,alpha=0.05][,beta=0.05]`` -> :class:`Sprt`; ``ValueError`` with a
    one-line reason otherwise (the checks fastchess makes)."""
    values: dict[str, float] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in Sprt._fields:
            raise ValueError(f"expected elo0=X,elo1=Y[,alpha=A][,beta=B], not {part.strip()!r}")
        if key in values:
            raise ValueError(f"{key} given twice")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"{key}={value.strip()!r} is not a number") from None
        if not math.isfinite(values[key]):
            raise ValueError(f"{key} must be finite")
    if "elo0" not in values or "elo1" not in values:
        raise ValueError("both elo0 and elo1 are needed")
    sprt = Sprt(**values)
    if sprt.elo0 >= sprt.elo1:
        raise ValueError("elo0 must be less than elo1")
    if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1):
        raise ValueError("alpha and beta must be between 0 and 1")
    if sprt.alpha + sprt.beta >= 1:
        raise ValueError("alpha + beta must be less than 1")
    return sprt


def _mle(scores: list[float], probs: list[float], s: float) -> list[float]:
    """The distribution on ``scores`` nearest ``probs`` (maximum likelihood) whose mean is
    ``s``: ``pᵢ = p̂ᵢ / (1 + θ(aᵢ − s))`` with θ the root of ``Σ p̂ᵢ (aᵢ − s) / (1 + θ(aᵢ − s))``
    (Van den Bergh, equations 1.2 and 1.3), found by bisection: the sum falls as θ grows."""
    lo, hi = -1 / (max(scores) - s), -1 / (min(scores) - s)

    def f(theta: float) -> float:
        return sum(p * (a - s) / (1 + theta * (a - s)) for a, p in zip(scores, probs))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2
    return [p / (1 + theta * (a - s)) for a, p in zip(scores, probs)]


def llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of ``counts[j]`` outcomes of score ``j / (len - 1)``
    (trinomial: losses, draws, wins; pentanomial: LL, LD, WL+DD, WD, WW)."""
    top = len(counts) - 1
    scores = [j / top for j in range(len(counts))]
    regular = [c if c else 1e-3 for c in counts]
    total = sum(regular)
    probs = [c / total for c in regular]
    p0 = _mle(scores, probs, elo_to_score(elo0))
    p1 = _mle(scores, probs, elo_to_score(elo1))
    return total * sum(p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(probs, p0, p1))


class SprtTest:
    """The SPRT of A against B, fed one record at a time (:meth:`add`, in game order: then
    the decision after each game is the same however the games were run); :meth:`status`
    at any point. With ``per_deal`` k ≥ 2 an outcome is a deal's k games (records of one
    ``deal``), counted once the deal is complete."""

    def __init__(self, sprt: Sprt, a: str, b: str, per_deal: int = 1) -> None:
        if per_deal < 1:
            raise ValueError("per_deal must be at least 1")
        self.sprt, self.a, self.b, self.per_deal = sprt, a, b, per_deal
        self.counts = [0] * (2 * per_deal + 1)  # outcomes by total score × 2
        self._open: dict[object, list[float]] = {}  # deal -> scores of its games so far

    def add(self, record: dict) -> None:
        s = _score(record, self.a, self.b)
        if s is None:
            return
        scores = self._open.setdefault(record["deal"] if self.per_deal > 1 else None, [])
        scores.append(s)
        if len(scores) == self.per_deal:
            self.counts[round(2 * sum(scores))] += 1
            scores.clear()

    def status(self) -> dict:
        """``{"elo0", "elo1", "alpha", "beta", "outcomes", "counts", "llr", "lower", "upper",
        "decision"}``; the decision is ``continue``, ``H0`` (A is not ``elo1`` stronger: stop)
        or ``H1`` (A is at least ``elo0`` stronger: stop)."""
        lower, upper = self.sprt.bounds
        used = sum(self.counts)
        value = llr(self.counts, self.sprt.elo0, self.sprt.elo1) if used else 0.0
        decision = "H1" if value >= upper else "H0" if value <= lower else "continue"
        return {**self.sprt._asdict(), "outcomes": used, "counts": list(self.counts), "llr": _round(value),
                "lower": _round(lower), "upper": _round(upper), "decision": decision}


def sprt_status(records: Iterable[dict], sprt: Sprt, a: str, b: str, per_deal: int = 1) -> dict:
    """:meth:`SprtTest.status` after ``records``."""
    test = SprtTest(sprt, a, b, per_deal)
    for rec in records:
        test.add(rec)
    return test.status()


# --- text -----------------------------------------------------------------------------------

def _num(x, fmt: str = "{:.2f}") -> str:
    return "—" if x is None else fmt.format(x)


def ranking_line(rank_by: str) -> str:
    """What the table's order means: ``ranked by loss rate, lowest first: …``."""
    others = "|".join(k for k in RANKINGS if k != rank_by)
    return f"ranked {RANKINGS[rank_by]} (--rank-by {others})"


def _columns(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells as aligned lines (the first column to the left), a rule under the first."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for k, row in enumerate(rows):
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def summary_table(summary: dict) -> str:
    """The summary as the lines of a table (entrants best first, as ranked), then for two
    entrants one line of A against B, for more the crosstable of loss rates."""
    entrants = summary["entrants"]
    known = ("name", "spec", "rank", "games", "losses", "draws", "mean_place", "cheats", "convicted", "false_calls",
             "forfeits", "forfeit_reasons", "loss_rate", "loss_rate_95", "mu", "sigma", "rating", "time", "stderr",
             "stderr_last")
    # the game's own tallies (ResultField.tally: «погоны», team losses, mean score…), beside the loss rate
    extra = [(key, key.replace("_", " ")) for key in (entrants[0] if entrants else {}) if key not in known]
    timed = any(e.get("time") for e in entrants)
    head = ("entrant", "games", "losses", "loss rate (95%)", *(title for _, title in extra), "draws", "mean place",
            "cheats", "convicted", "false calls", "forfeits", "rating (mu ± sigma)",
            *(("ms a turn (max)",) if timed else ()))
    rows = [head]
    for e in entrants:
        lo, hi = e["loss_rate_95"]
        t = e.get("time")
        rows.append((e["name"], str(e["games"]), str(e["losses"]),
                     f"{e['loss_rate']:.3f} ({lo:.3f}–{hi:.3f})",
                     *(_num(e[key], "{:.1f}") if type(e[key]) is float else str(e[key]) for key, _ in extra),
                     str(e["draws"]), _num(e["mean_place"]), str(e["cheats"]), str(e["convicted"]),
                     str(e["false_calls"]), str(e["forfeits"]),
                     f"{e['rating']:.2f} ({e['mu']:.2f} ± {e['sigma']:.2f})",
                     *((("—" if not t else f"{_num(t['mean_ms'])} ({t['max_ms']:.1f})"),) if timed else ())))
    lines = [ranking_line(summary.get("rank_by", "rating")), *_columns(rows)]
    p = summary.get("pair")
    if p is not None:
        interval = "" if p["elo_95"] is None else f" [{_num(p['elo_95'][0], '{:.1f}')}, {_num(p['elo_95'][1], '{:.1f}')}]"
        lines.append(f"{p['a']} vs {p['b']} in {p['games']} games: {p['b']} lost {p['wins']}, {p['a']} lost "
                     f"{p['losses']}, neither {p['draws']}; score {_num(p['score'], '{:.3f}')}, "
                     f"elo {_num(p['elo'], '{:+.1f}')}{interval}, LOS {p['los'] * 100:.1f}%")
    cross = summary.get("crosstable")
    if cross:
        names = [e["name"] for e in entrants]
        lines.append("loss rate of each (row) in its games with each (column):")
        lines += _columns([("", *names)] + [(a, *(_num((cross[a].get(b) or {}).get("loss_rate"), "{:.3f}")
                                                  if a != b else "" for b in names)) for a in names])
    return "\n".join(lines)
