"""How «верю — не верю» reads (:class:`pidor.games.text.GameText`): its plays and claims,
«верю» / «не верю» (the game's own challenge, not the table's «пидор!»), the opened play,
the pile and the board (the plays stacked with their counts, the named rank)."""

from __future__ import annotations

from typing import Any

from ...cards import parse_rank
from ..text import GameText, Say, card, cards

__all__ = ["TEXT"]

#: Russian rank names: (one, two to four, five and more) — «1 король», «3 короля», «5 королей».
_RU = {2: ("двойка", "двойки", "двоек"), 3: ("тройка", "тройки", "троек"), 4: ("четвёрка", "четвёрки", "четвёрок"),
       5: ("пятёрка", "пятёрки", "пятёрок"), 6: ("шестёрка", "шестёрки", "шестёрок"),
       7: ("семёрка", "семёрки", "семёрок"), 8: ("восьмёрка", "восьмёрки", "восьмёрок"),
       9: ("девятка", "девятки", "девяток"), 10: ("десятка", "десятки", "десяток"),
       11: ("валет", "валета", "валетов"), 12: ("дама", "дамы", "дам"), 13: ("король", "короля", "королей"),
       14: ("туз", "туза", "тузов")}
_EN = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
       11: "jack", 12: "queen", 13: "king", 14: "ace"}
#: Russian numbers as words up to four: (feminine, masculine) — «две дамы», «два короля».
_FEW_RU = {1: ("одна", "один"), 2: ("две", "два"), 3: ("три", "три"), 4: ("четыре", "четыре")}
#: Russian «N карт» (one, two to four, five and more): as the object of a verb («кладёт 1 карту»),
#: and alone (on the board: «1 карта»).
_CARDS_RU = {True: ("карту", "карты", "карт"), False: ("карта", "карты", "карт")}


def _form(n: int) -> int:
    """Which Russian form a number takes: 0 (1, 21…), 1 (2–4, 22–24…) or 2 (the rest)."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


def claim(lang: str, n: int, rank: Any) -> str:
    """«3 короля», «1 дама», "3 kings": ``n`` cards of the ``rank`` (a code) named."""
    if rank is None:  # (a sentence without the view before it: a court's, a live line)
        return n_cards(lang, n, False)
    try:
        r = parse_rank(rank)
    except ValueError:
        return f"{n} × {rank}"
    if lang == "ru":
        words = _FEW_RU.get(n)
        number = str(n) if words is None else words[r in (11, 13, 14)]  # (валет, король, туз: masculine)
        return f"{number} {_RU[r][_form(n)]}"
    return f"{n} {_EN[r]}" if n == 1 else f"{n} {ranks(lang, rank)}"


def ranks(lang: str, rank: Any) -> str:
    """A rank's cards as a kind, on the board: «валеты», «дамы», "jacks"."""
    try:
        r = parse_rank(rank)
    except ValueError:
        return str(rank)
    if lang == "ru":
        return {11: "валеты", 13: "короли", 14: "тузы"}.get(r, _RU[r][1])
    return f"{_EN[r]}es" if r == 6 else f"{_EN[r]}s"


def n_cards(lang: str, n: int, laid: bool = True) -> str:
    """«3 карты», "3 cards"; ``laid``: the object of a verb (Russian «кладёт 1 карту»)."""
    return f"{n} {_CARDS_RU[laid][_form(n)]}" if lang == "ru" else f"{n} card" if n == 1 else f"{n} cards"


class DoubtText(GameText):
    WORDS = {
        "en": {
            "lead": "{who} lays {n} face down: «{claim}»", "lead@me": "you lay {n} face down: «{claim}»",
            "lead_seen": "{who} lays {cards}: «{claim}»",
            "lead_seen@me": "you lay {cards}: «{claim}»",
            "add": "{who} adds {n} face down: «{claim} more»", "add@me": "you add {n} face down: «{claim} more»",
            "add_seen": "{who} adds {cards}: «{claim} more»",
            "add_seen@me": "you add {cards}: «{claim} more»",
            "believe": "{who}: «верю!» — believes it", "believe@me": "you: «верю!» — you believe it",
            "doubt": "{who}: «не верю!» — doubts it", "doubt@me": "you: «не верю!» — you doubt it",
            "believe_one": "{who}: «верю!» — opens card {i}", "believe_one@me": "you: «верю!» — you open card {i}",
            "doubt_one": "{who}: «не верю!» — opens card {i}", "doubt_one@me": "you: «не верю!» — you open card {i}",
            "discard": "{who} discards {n} face down: «{claim}»",
            "discard@me": "you discard {n} face down: «{claim}»", "discard_seen": "{who} discards {cards}: «{claim}»",
            "discard_seen@me": "you discard {cards}: «{claim}»",
            "give": "{who} gives {card}", "give@me": "you give {card}", "give_hidden": "{who} gives a card",
            "open": "{who}'s «{claim}»: {cards} — {verdict}", "open_one": "{who}'s «{claim}», card {i}: {cards} — {verdict}",
            "true": "true", "false": "a lie",
            "pile_discard": "the pile ({n}) goes to the discard", "pile_take": "{who} takes the pile ({n})",
            "pile_take@me": "you take the pile ({n})", "pile_cards": "{who} takes the pile: {cards}",
            "pile_cards@me": "you take the pile: {cards}",
            "leader": "{who} leads", "leader@me": "you lead",
            "phase_play": "play", "phase_pay": "payment", "phase_over": "over",
            "table": "on the table, «{claim}» so far: {plays}", "table_empty": "the table is empty: {who} leads",
            "table_empty@me": "the table is empty: you lead",
            "play": "{who} {n}", "play_mine": "{who} {cards}",
            "opened": "last opened: {who}'s «{claim}» by {by}: {cards} — {verdict}",
            "opened@to_me": "last opened: {who}'s «{claim}» by you: {cards} — {verdict}",
            "counts": "cards: {counts}", "known": "seen in hands: {list}", "known_one": "{who} {cards}",
            "gone": "discard: {n}; sets: {sets}; open in it: {cards}", "aside": "set aside: 1 card",
            "payments": "to pay: {list}", "pays": "{who} → {to}",
        },
        "ru": {
            "lead": "{who} кладёт {n} рубашкой вверх: «это {claim}»",
            "lead@me": "вы кладёте {n} рубашкой вверх: «это {claim}»", "lead_seen": "{who} кладёт {cards}: «это {claim}»",
            "lead_seen@me": "вы кладёте {cards}: «это {claim}»",
            "add": "{who} подкидывает {n}: «ещё {claim}»", "add@me": "вы подкидываете {n}: «ещё {claim}»",
            "add_seen": "{who} подкидывает {cards}: «ещё {claim}»",
            "add_seen@me": "вы подкидываете {cards}: «ещё {claim}»",
            "believe": "{who}: «верю!»", "believe@me": "вы: «верю!»",
            "doubt": "{who}: «не верю!»", "doubt@me": "вы: «не верю!»",
            "believe_one": "{who}: «верю!» — вскрывает карту {i}", "believe_one@me": "вы: «верю!» — вскрываете карту {i}",
            "doubt_one": "{who}: «не верю!» — вскрывает карту {i}",
            "doubt_one@me": "вы: «не верю!» — вскрываете карту {i}",
            "discard": "{who} скидывает в отбой {n} рубашкой вверх: «{claim}»",
            "discard@me": "вы скидываете в отбой {n} рубашкой вверх: «{claim}»",
            "discard_seen": "{who} скидывает в отбой {cards}: «{claim}»",
            "discard_seen@me": "вы скидываете в отбой {cards}: «{claim}»",
            "give": "{who} отдаёт {card}", "give@me": "вы отдаёте {card}", "give_hidden": "{who} отдаёт карту",
            "open": "{who}, «{claim}»: {cards} — {verdict}", "open_one": "{who}, «{claim}», карта {i}: {cards} — {verdict}",
            "true": "правда", "false": "враньё",
            "pile_discard": "стопка ({n}) уходит в отбой", "pile_take": "{who} забирает стопку ({n})",
            "pile_take@me": "вы забираете стопку ({n})", "pile_cards": "{who} забирает стопку: {cards}",
            "pile_cards@me": "вы забираете стопку: {cards}",
            "leader": "ходит {who}", "leader@me": "ходите вы",
            "phase_play": "игра", "phase_pay": "расплата", "phase_over": "конец",
            "table": "на столе, пока «{claim}»: {plays}", "table_empty": "стол пуст: ходит {who}",
            "table_empty@me": "стол пуст: ходите вы",
            "play": "{who} {n}", "play_mine": "{who} {cards}",
            "opened": "вскрыто последним: {who}, «{claim}», вскрыл {by}: {cards} — {verdict}",
            "opened@to_me": "вскрыто последним: {who}, «{claim}», вскрыли вы: {cards} — {verdict}",
            "counts": "карт: {counts}", "known": "видели на руках: {list}", "known_one": "{who} {cards}",
            "gone": "в отбое: {n}; четвёрки: {sets}; открытые там: {cards}", "aside": "отложена 1 карта",
            "payments": "платят: {list}", "pays": "{who} → {to}",
        },
    }
    ZONES = {**GameText.ZONES,
             "pile": {"ru": "стопка", "en": "pile", "look": "plays"},
             "discard": {"ru": "отбой", "en": "discard", "look": "fan"},
             "aside": {"ru": "отложена", "en": "set aside", "look": "row"},
             "shown": {"ru": "показанные карты", "en": "shown cards", "look": "row"}}
    ALIASES = {"l": "lead", "a": "add", "b": "believe", "d": "doubt",
               "кладу": "lead", "ещё": "add", "еще": "add", "верю": "believe", "не верю": "doubt", "скидываю": "discard",
               "отдаю": "give"}

    def groups(self, zones: dict[str, list[str]], view: dict) -> dict[str, list[list[str]]]:
        # the pile as the plays it is made of, bottom first (B2, B3): a play opened lies face up
        cards, out, at = zones.get("pile") or [], [], 0
        for play in view.get("pile") or []:
            out.append(cards[at:at + play["count"]])
            at += play["count"]
        return {"pile": out}
    #: a pile has left the table
    REDRAW = frozenset({"pile"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        before = before or {}
        shown = action.get("cards")
        n = len(shown) if isinstance(shown, list) else action.get("count", 0)
        lang = say.lang
        if kind in ("lead", "add", "discard"):
            rank = action.get("rank") if kind != "add" else before.get("rank")
            key = kind + "_seen" if shown else kind  # (the cards: one's own, a set face up, the auditor's)
            return w(say, key, seat, who=who, n=n_cards(lang, n), cards=cards(shown), claim=claim(lang, n, rank))
        if kind in ("believe", "doubt"):
            one = before.get("check_one")
            return w(say, kind + "_one" if one else kind, seat, who=who, i=(action.get("index") or 0) + 1)
        if kind == "give":  # T14 (the give event after it names the recipient)
            c = action.get("card")
            return w(say, "give" if c else "give_hidden", seat, who=who, card=card(c))
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        if kind == "open":
            return self._opened(say, e, "open_one" if "index" in e else "open")
        if kind == "pile":
            n = e.get("count")
            if e.get("outcome") != "take":
                return w(say, "pile_discard", n=n)
            if e.get("cards"):
                return w(say, "pile_cards", seat, who=say.who(seat), n=n, cards=cards(e["cards"]))
            return w(say, "pile_take", seat, who=say.who(seat), n=n)
        if kind == "leader":
            return w(say, "leader", seat, who=say.who(seat))
        return None

    def _opened(self, say: Say, e: dict, key: str) -> str:
        w = self.word
        verdict = w(say, "true" if e.get("true") else "false")
        return w(say, key, who=say.who(e.get("seat")), by=say.who(e.get("by")), claim=claim(say.lang, e.get("count", 0),
                 e.get("rank")), cards=cards(e.get("cards")), verdict=verdict, i=(e.get("index") or 0) + 1)

    def board(self, say: Say, view: dict) -> list[str]:
        w, lang = self.word, say.lang
        pile = view.get("pile") or []
        if pile:
            plays = "  ←  ".join(w(say, "play_mine", who=say.who(p.get("seat")), cards=cards(p["cards"]))
                                 if p.get("cards") else w(say, "play", who=say.who(p.get("seat")),
                                                           n=n_cards(lang, p.get("count", 0), False)) for p in pile)
            total = sum(p.get("count", 0) for p in pile)
            lines = [w(say, "table", claim=claim(lang, total, view.get("rank")), plays=plays)]
        else:
            lines = [w(say, "table_empty", view.get("turn"), who=say.who(view.get("turn")))]
        opened = view.get("opened")
        if opened:
            lines.append(w(say, "opened", None, opened.get("by"), who=say.who(opened.get("seat")), by=say.who(opened.get("by")),
                           claim=claim(lang, opened.get("count", 0), opened.get("rank")),
                           cards=cards(opened.get("cards")),
                           verdict=w(say, "true" if opened.get("true") else "false")))
        lines.append(w(say, "counts", counts=", ".join(f"{say.who(s)} {h}" for s, h in enumerate(view.get("hands", [])))))
        known = [w(say, "known_one", who=say.who(s), cards=cards(k)) for s, k in enumerate(view.get("known") or []) if k]
        if known:
            lines.append(w(say, "known", list=", ".join(known)))
        if view.get("discard"):
            sets = ", ".join(f"{ranks(lang, s.get('rank'))} ({say.who(s.get('seat'))})"
                             for s in view.get("sets") or []) or "—"
            lines.append(w(say, "gone", n=view["discard"], sets=sets, cards=cards(view.get("discarded"))))
        if view.get("aside"):
            lines.append(w(say, "aside"))
        if view.get("payments"):
            pays = ", ".join(w(say, "pays", who=say.who(p.get("from")), to=say.who(p.get("to")))
                             for p in view["payments"])
            lines.append(w(say, "payments", list=pays))
        return lines

    def turn(self, view: dict) -> list[int]:
        return list(view.get("to_act") or [])

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        # by rank, a rank's cards side by side: the plays name ranks (B2)
        return sorted(hand, key=lambda c: (parse_rank(c[:-1]), c[-1]))


TEXT = DoubtText()
