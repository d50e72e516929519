#!/usr/bin/env python3
"""Write the documents that come from the game registry (``pidor.games``), so that a new
game needs no hand edit outside its folder:

* ``docs/RULES.md``, the rules as the server plays them, Russian then English: the table's
  part (``docs/rules/table.md``), each game's section (its folder's ``RULES.md``, in
  registry order, headed by its ids, players, decks and rulings, ended by its options from
  the spec) and the violations the server records (every rule that an action can break,
  by game, from the rules' texts), numbered.
* ``protocol/GAMES.md``, each game's part of the protocol, from its spec: ids and titles,
  players and decks, options and clocks, actions and their arguments, events and their
  fields, what its result holds, its engine versions, and its folder's ``WIRE.md``.

A bilingual source has two sections, ``## По-русски`` and ``## In English``, with the same
``###`` headings in each (a game's ``RULES.md``: its subsections; ``table.md``: its
sections, with ``####`` subsections, and the lines ``<!-- games -->`` and ``<!-- violations
-->`` where the generated parts go). An ``# Ru title · En title`` first line names a game
family's section; without it, its games' titles do.

    python scripts/gen_docs.py            # write them
    python scripts/gen_docs.py --check    # exit 1, naming each stale file, if one is
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pidor.engine.options import MAX_SECONDS, Option  # noqa: E402
from pidor.engine.rules import TABLE_RULES  # noqa: E402
from pidor.engine.table import TABLE_OPTIONS  # noqa: E402
from pidor.games import SPECS, GameSpec  # noqa: E402
from pidor.games.spec import TABLE_EVENTS  # noqa: E402

GAMES_DIR = ROOT / "pidor" / "games"
TABLE_SOURCE = ROOT / "docs" / "rules" / "table.md"
COMMAND = "python scripts/gen_docs.py"
#: The two languages of a bilingual source: its section heading, and the part's in RULES.md.
LANGS = {"ru": ("## По-русски", "## Часть I. По-русски"), "en": ("## In English", "## Part II. In English")}
GAMES_MARK, VIOLATIONS_MARK = "<!-- games -->", "<!-- violations -->"


class SourceError(ValueError):
    """A source file is not in the shape this script reads (one line, naming the file)."""


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


# ------------------------------------------------------------------ bilingual sources


@dataclass
class Source:
    title: dict[str, str] | None  # from "# Ru · En"
    preamble: str  # between the title and the first language
    parts: dict[str, str]  # lang -> its text


def read_source(path: Path) -> Source:
    if not path.is_file():
        raise SourceError(f"{rel(path)} is missing")
    text = path.read_text()
    title = None
    first, _, rest = text.partition("\n")
    if first.startswith("# "):
        ru, sep, en = first[2:].partition(" · ")
        title = {"ru": ru.strip(), "en": en.strip()} if sep else None
        text = rest
    heads = {lang: text.find(head + "\n") for lang, (head, _) in LANGS.items()}
    for lang, at in heads.items():
        if at < 0:
            raise SourceError(f"{rel(path)} has no '{LANGS[lang][0]}' section")
    if not heads["ru"] < heads["en"]:
        raise SourceError(f"{rel(path)}: '{LANGS['ru'][0]}' comes before '{LANGS['en'][0]}'")
    parts = {"ru": text[heads["ru"] + len(LANGS["ru"][0]):heads["en"]],
             "en": text[heads["en"] + len(LANGS["en"][0]):]}
    counts = {lang: len(re.findall(r"^### ", part, re.M)) for lang, part in parts.items()}
    if counts["ru"] != counts["en"]:
        raise SourceError(f"{rel(path)}: {counts['ru']} '###' headings in Russian, {counts['en']} in English: "
                          "both languages say the same things")
    return Source(title, text[:heads["ru"]].strip(), {k: v.strip() for k, v in parts.items()})


def sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A part's text -> its lead (before the first ``###``) and its ``(heading, body)``
    sections; a marker line is a section of its own, with the marker as its heading."""
    lead: list[str] = []
    out: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        if line.startswith("### ") or line.strip() in (GAMES_MARK, VIOLATIONS_MARK):
            out.append((line.strip().removeprefix("### "), []))
        elif out:
            out[-1][1].append(line)
        else:
            lead.append(line)
    return "\n".join(lead).strip(), [(h, "\n".join(body).strip()) for h, body in out]


def demoted(text: str) -> str:
    """A game's section inside RULES.md: its headings one level down."""
    return re.sub(r"^(#{3,5}) ", lambda m: "#" + m.group(1) + " ", text, flags=re.M)


def numbered(number: int, heading: str, body: str) -> str:
    """``### N. heading`` with its ``####`` subsections numbered ``N.k``."""
    k = 0

    def sub(m: re.Match) -> str:
        nonlocal k
        k += 1
        return f"#### {number}.{k} {m.group(1)}"

    return f"### {number}. {heading}\n\n" + re.sub(r"^#### (.*)$", sub, body, flags=re.M)


# ------------------------------------------------------------------ the registry, by folder


def folders() -> dict[str, list[GameSpec]]:
    """Folder -> its specs, in registry order."""
    out: dict[str, list[GameSpec]] = {}
    for s in SPECS.values():
        out.setdefault(s.folder, []).append(s)
    return out


def family_title(specs: list[GameSpec], source: Source, lang: str) -> str:
    if source.title:
        return source.title[lang]
    return ", ".join(s.title_of(lang) for s in specs)


def ruling_ranges(specs: list[GameSpec]) -> str:
    """``P1–P17`` or ``D1–D12, V1–V9``: the rulings a folder's games cite."""
    numbers: dict[str, list[int]] = {}
    for s in specs:
        for r in s.rules:
            m = re.fullmatch(r"([A-Z]+)(\d+)", r.ruling)
            if m:
                numbers.setdefault(m.group(1), []).append(int(m.group(2)))
    return ", ".join(f"{p}{min(n)}–{p}{max(n)}" if min(n) != max(n) else f"{p}{n[0]}" for p, n in numbers.items())


def span(values: tuple[int, ...], lang: str) -> str:
    """``2..6`` -> ``2–6``; ``(36, 52)`` -> ``36 или 52``."""
    if len(values) > 2 and values == tuple(range(values[0], values[-1] + 1)):
        return f"{values[0]}–{values[-1]}"
    return (" или " if lang == "ru" else " or ").join(str(v) for v in values)


def allowed(o: Option, lang: str) -> str:
    """The values an option allows, in words of ``lang``."""
    if lang == "en":
        return o.allowed()
    if o.kind == "bool":
        return "да или нет (`true`, `false`)"
    if o.kind == "int":
        return " или ".join(map(str, o.choices)) if o.choices else f"целое {o.low}..{o.high}"
    if o.kind == "choice":
        return ", ".join("нет (`none`)" if c is None else f"`{c}`" for c in o.choices)
    if o.kind == "seconds":
        return f"секунды 0..{MAX_SECONDS:g} или `none` — без часов"
    return "коды карт через запятую (`Qs,Jd`) или `none`"


WORDS = {
    "ru": {"players": "игроков", "deck": "колода", "default": "по умолчанию", "rulings": "Решения",
           "options": "Параметры (`--opt`)", "option": "параметр", "games": "игры", "values": "значения",
           "what": "что это", "clock": "часы", "all": "все",
           "options_lead": "Параметры игры задаются в `create` (поле `options`) и в `pidor play`, `pidor match` "
                           "(`--opt КЛЮЧ=ЗНАЧЕНИЕ`); `pidor games` перечисляет их. Часы — тоже параметры, в секундах.",
           "id": "номер", "ruling": "решение", "text": "текст", "section": "раздел"},
    "en": {"players": "players", "deck": "deck", "default": "default", "rulings": "Rulings",
           "options": "Options (`--opt`)", "option": "option", "games": "games", "values": "values",
           "what": "what it is", "clock": "clock", "all": "all",
           "options_lead": "A game's options are set in `create` (its `options`) and in `pidor play` and `pidor "
                           "match` (`--opt KEY=VALUE`); `pidor games` lists them. Its clocks are options too, in "
                           "seconds.",
           "id": "id", "ruling": "ruling", "text": "text", "section": "section"},
}


def shown_default(o: Option) -> str:
    return f"`{o.shown_default()}`"


def game_lead(specs: list[GameSpec], lang: str) -> str:
    """The lines that open a game family's section: each game's id, title, players and
    decks; the rulings the section cites."""
    w = WORDS[lang]
    games = []
    for s in specs:
        deck = s.option("deck")
        decks = span(s.decks, lang) + (f" ({w['default']} {deck.default})" if len(s.decks) > 1 else "")
        games.append(f"`{s.id}` ({s.title_of(lang)}): {span(s.players, lang)} {w['players']}, {w['deck']} {decks}")
    rulings = f"{w['rulings']}: {ruling_ranges(specs)}."
    if len(games) == 1:
        return f"{games[0]}. {rulings}"
    return "\n".join(f"- {g};" if i < len(games) - 1 else f"- {g}." for i, g in enumerate(games)) + f"\n\n{rulings}"


def options_table(specs: list[GameSpec], lang: str) -> str:
    """The options of a family's games: one row per option and way it is allowed, naming
    the games that take it so when they are not all of the family's."""
    w = WORDS[lang]
    rows: dict[tuple, list[str]] = {}
    first: dict[tuple, Option] = {}
    for s in specs:
        for o in s.engine.OPTIONS + s.engine.CLOCKS:
            key = (o.name, o.kind, o.choices, o.low, o.high, repr(o.default))
            rows.setdefault(key, []).append(s.id)
            first.setdefault(key, o)
    names = list(dict.fromkeys(key[0] for key in rows))  # (sorted is stable: each name's rows in order)
    several = len(specs) > 1
    head = [w["option"], *([w["games"]] if several else []), w["values"], w["default"], w["what"]]
    lines = [f"| {' | '.join(head)} |", "|" + "---|" * len(head)]
    for key, ids in sorted(rows.items(), key=lambda item: names.index(item[0][0])):
        o = first[key]
        games = [w["all"] if len(ids) == len(specs) else ", ".join(f"`{i}`" for i in ids)] if several else []
        what = o.help.get(lang) or o.help.get("en", "")
        name = f"`{o.name}`" + (f" ({w['clock']})" if o.kind == "seconds" else "")
        lines.append(f"| {' | '.join([name, *games, allowed(o, lang), shown_default(o), what])} |")
    return f"{w['options_lead']}\n\n" + "\n".join(lines)


def violations(numbers: dict[str, int], lang: str) -> str:
    """Every rule an action can break, by game family, with its ruling and text."""
    w = WORDS[lang]
    out = []
    for folder, specs in folders().items():
        seen: dict[str, tuple] = {}
        for s in specs:
            for r in s.rules:
                if r.violation:
                    seen.setdefault(r.id, (r, []))[1].append(s.id)
        if not seen:
            continue
        letters = list(dict.fromkeys(re.match(r"[A-Z]*", r).group() for r in seen))
        order = sorted(seen, key=lambda i: (letters.index(re.match(r"[A-Z]*", i).group()),
                                            int(re.sub(r"\D", "", seen[i][0].ruling) or 0)))
        several = any(len(ids) != len(specs) for _, ids in seen.values())
        head = [w["id"], w["ruling"], *([w["games"]] if several else []), w["text"]]
        lines = [f"| {' | '.join(head)} |", "|" + "---|" * len(head)]
        for r, ids in (seen[i] for i in order):
            games = [w["all"] if len(ids) == len(specs) else ", ".join(f"`{i}`" for i in ids)] if several else []
            lines.append(f"| {' | '.join([r.id, r.ruling, *games, r.text(lang)])} |")
        title = family_title(specs, read_source(GAMES_DIR / folder / "RULES.md"), lang)
        out.append(f"**{title}** ({w['section']} {numbers[folder]})\n\n" + "\n".join(lines))
    return "\n\n".join(out)


# ------------------------------------------------------------------ docs/RULES.md


def rules_md() -> str:
    table = read_source(TABLE_SOURCE)
    games = {folder: (specs, read_source(GAMES_DIR / folder / "RULES.md")) for folder, specs in folders().items()}
    out = [f"<!-- Written by {COMMAND} from {rel(TABLE_SOURCE)} and pidor/games/*/RULES.md: edit those. -->",
           f"# {table.title['ru']} · {table.title['en']}" if table.title else "", table.preamble]
    for lang, (_, part_head) in LANGS.items():
        lead, parts = sections(table.parts[lang])
        # Number the table's sections and the games' in order, first, so that the
        # violations can name the games' sections.
        numbers: dict[str, int] = {}
        n = 0
        for heading, _ in parts:
            if heading == GAMES_MARK:
                for folder in games:
                    n += 1
                    numbers[folder] = n
            elif heading != VIOLATIONS_MARK:
                n += 1
        body = [part_head, lead] if lead else [part_head]
        n = 0
        for heading, text in parts:
            if heading == GAMES_MARK:
                for folder, (specs, source) in games.items():
                    n += 1
                    glead, gparts = sections(source.parts[lang])
                    inner = [game_lead(specs, lang), glead] + [f"#### {h}\n\n{demoted(t)}" for h, t in gparts]
                    inner.append(f"#### {WORDS[lang]['options']}\n\n{options_table(specs, lang)}")
                    body.append(numbered(n, family_title(specs, source, lang), "\n\n".join(x for x in inner if x)))
            elif heading == VIOLATIONS_MARK:
                body[-1] += "\n\n" + violations(numbers, lang) + ("\n\n" + text if text else "")
            else:
                n += 1
                body.append(numbered(n, heading, text))
        out.append("---")
        out.append("\n\n".join(body))
    return "\n\n".join(x for x in out if x).rstrip() + "\n"


# ------------------------------------------------------------------ protocol/GAMES.md


def md_table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join([f"| {' | '.join(head)} |", "|" + "---|" * len(head),
                      *(f"| {' | '.join(r)} |" for r in rows)])


def fields(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "—"


OPTION_HEAD = ["option", "kind", "values", "default", "help", "по-русски"]


def option_rows(options: tuple[Option, ...]) -> list[list[str]]:
    return [[f"`{o.name}`", o.kind, o.allowed(), shown_default(o), o.help.get("en", ""), o.help.get("ru", "")]
            for o in options]


#: An argument of each type as an action's example shows it.
EXAMPLE = {"seat": 1, "card": "Th", "index": 0, "cards": ["9d", "9h"], "rank": "Q", "suit": "h"}
#: What a result field of each kind holds (``ResultField.kind``).
RESULT_KINDS = {"title": "a flag about the loser", "seats": "a list of seats", "scores": "a number per seat",
                "letters": "a string per seat"}


def game_md(s: GameSpec) -> str:
    """One game's part of protocol/GAMES.md, from its spec."""
    engine = s.engine
    fresh = engine.new({}, seed=b"protocol/GAMES.md")
    older = ", ".join(f"`{v}`" for v in engine.OLDER) or "none"
    out = [f"### `{s.id}`: {s.title['en']} ({s.title['ru']})",
           f"The loser is {s.loser['en']}. Players: {span(s.players, 'en')}; decks: {span(s.decks, 'en')}. "
           f"Engine version `{s.version}`; older versions whose logs it still verifies: {older}."]
    out += ["#### Options", "Set in `create` (`options`, beside the table's) and by `--opt KEY=VALUE`.",
            md_table(OPTION_HEAD, option_rows(engine.OPTIONS))]
    if engine.CLOCKS:
        out += ["#### Clocks", "Its own clocks: options in seconds (`null`: no clock), set as the table's are.",
                md_table(OPTION_HEAD, option_rows(engine.CLOCKS))]
    else:
        out += ["#### Clocks", "None of its own: only the table's."]
    if s.variants:
        out.append("Variants the house tests, conforms and measures besides the defaults: "
                   + "; ".join(", ".join(f"`{k}={json.dumps(v)}`" for k, v in variant.items())
                               for variant in s.variants) + ".")
    rows = []
    for kind, args in engine.ACTIONS.items():
        example = {"type": kind, **{name: EXAMPLE[typ] for name, typ in args}}
        opens = fresh.is_callable(fresh.parse_action(example))
        rows.append([f"`{kind}`", ", ".join(f"`{name}` ({typ})" for name, typ in args) or "—",
                     "yes" if opens else "no", f"`{json.dumps(example)}`"])
    out += ["#### Actions", md_table(["type", "arguments", "opens a call window", "for example"], rows),
            "An `act` decided before one of these events is refused as `stale` (PROTOCOL.md §5), besides a new "
            "game and an `undo`: " + fields(tuple(sorted(engine.CHOICE_EVENTS))) + "."]
    if s.idle is not None:
        out.append(f"An away player's stand-in makes `{json.dumps(s.idle)}` unasked whenever it is honest (T9).")
    rows = [[f"`{kind}`", fields(doc.public), fields(doc.private), doc.about] for kind, doc in s.events.items()]
    out += ["#### Events", "Its own, besides the table's. *Private* fields reach only the seats allowed to see them.",
            md_table(["type", "fields", "private fields", "what it says"], rows)]
    rows = [["`loser`", "a seat or `null`", "who lost (he gets the mark, T7)"],
            ["`draw`", "bool", "nobody lost"],
            ["`order`", "a list of seats", "the order in which the players went out"],
            ["`stalled`", "a string, only on a T13 draw", "why: `repetition`, `quiet` or `units`"]]
    rows += [[f"`{f.name}`", RESULT_KINDS.get(f.kind, f.kind), f.help.get("en", "")] for f in s.results]
    out += ["#### Result", "The `result` of `game_over` and `results`:", md_table(["field", "holds", "what it says"],
                                                                                 rows)]
    out += ["#### View", "Seat 0's `view` of a new game in the default options (in a `snapshot`, beside the "
                         "table's `status`; PROTOCOL.md §5):",
            "```json\n" + json.dumps(fresh.view(0), ensure_ascii=False) + "\n```"]
    return "\n\n".join(out)


def family_md(folder: str, specs: list[GameSpec]) -> str:
    """A folder's games: their own notes (its ``WIRE.md``), then each game from its spec."""
    title = family_title(specs, read_source(GAMES_DIR / folder / "RULES.md"), "en")
    out = [f"## {title}", f"Folder `pidor/games/{folder}/`: " + ", ".join(f"`{s.id}`" for s in specs) + "."]
    wire = GAMES_DIR / folder / "WIRE.md"
    if wire.is_file():
        out.append(wire.read_text().strip())
    out += [game_md(s) for s in specs]
    return "\n\n".join(out)


def games_md() -> str:
    out = [f"<!-- Written by {COMMAND} from the game registry (pidor.games): edit the games' folders. -->",
           "# The games on the wire",
           "Each game's part of the protocol; [PROTOCOL.md](PROTOCOL.md) is the table's and the server's. What "
           "`create` takes for a game, its actions, its events and their fields, what its result and its view "
           "hold: written from each game's spec and its folder's `WIRE.md` (`pidor/games/<folder>/`, "
           "[docs/GAMES.md](../docs/GAMES.md)). `pidor games` (`--json`) lists the same at the command line; the "
           "rules are in [docs/RULES.md](../docs/RULES.md).",
           "Games: " + ", ".join(f"`{s.id}` ({s.title['en']})" for s in SPECS.values()) + ".",
           "## Every table",
           "The table's own options, in every game (PROTOCOL.md §4 `create`, §8):",
           md_table(OPTION_HEAD, option_rows(TABLE_OPTIONS)),
           "The table's events, the same in every game (PROTOCOL.md §6 says more of each):",
           md_table(["type", "fields", "what it says"],
                    [[f"`{kind}`", fields(doc.public), doc.about] for kind, doc in TABLE_EVENTS.items()]),
           "The table's rules, with every game's (the `rules` request): "
           + ", ".join(r.id for r in TABLE_RULES) + "."]
    out += [family_md(folder, specs) for folder, specs in folders().items()]
    return "\n\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------ main

OUTPUTS = {ROOT / "docs" / "RULES.md": rules_md, ROOT / "protocol" / "GAMES.md": games_md}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not what it would be")
    args = ap.parse_args()
    try:
        made = {path: make() for path, make in OUTPUTS.items()}
    except SourceError as e:
        print(f"gen_docs: {e}", file=sys.stderr)
        return 1
    stale = [path for path, text in made.items() if not path.is_file() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{rel(path)} is stale: run {COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(made[path])
        print(f"wrote {rel(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
