"""How the durak family reads (:class:`pidor.games.text.GameText`): its actions, events and
board (attacking cards with the cards that cover them)."""

from __future__ import annotations

from ..text import GameText, Say, card, cards

__all__ = ["TEXT"]

_SUIT_ORDER = "shcd"  # ♠ ♥ ♣ ♦: black and red by turns
_RANKS = "23456789TJQKA"


class DurakText(GameText):
    WORDS = {
        "en": {
            "attack": "{who} attacks with {card}", "attack@me": "you attack with {card}",
            "lead": "{who} leads {cards}", "lead@me": "you lead {cards}",
            "cover": "{who} covers {onto} with {card}", "cover@me": "you cover {onto} with {card}",
            "transfer": "{who} transfers with {card}", "transfer@me": "you transfer with {card}",
            "bito": "{who}: «бито»", "take": "{who}: «беру»",
            "give": "{who} gives {card}", "give@me": "you give {card}", "give_hidden": "{who} gives a card",
            "give_hidden@me": "you give a card",
            "bout@me": "bout: you attack {to} (at most {n})", "bout@to_me": "bout: {who} attacks you (at most {n})",
            "bout_take@me": "you take {n} cards from the table", "new_defender@me": "now you defend (at most {n})",
            "attack_line@me": "you attack {to} (at most {n} cards)",
            "attack_line@to_me": "{who} attacks you (at most {n} cards)",
            "bout": "bout: {who} attacks {to} (at most {n})", "bout_take": "{to} takes {n} cards from the table",
            "bout_bito": "«бито»: {n} cards to the discard", "new_defender": "now {to} defends (at most {n})",
            "bito_timeout": "silence counts as «бито» for {seats}",
            "drawn": "{who} draws {n} cards: {cards}", "drawn@me": "you draw {n} cards: {cards}",
            "drawn_count": "{who} draws {n} cards (deck {deck})",
            "phase_bout": "bout", "phase_pay": "payment", "phase_draw": "drawing", "phase_over": "over",
            "attack_line": "{who} attacks {to} (at most {n} cards)", "bito_said": "«бито» said: {seats}",
            "pair": "{attack} ← {cover}", "open_pair": "{attack} ← not covered",
            "table": "on the table: {pairs}", "table_empty": "the table is empty",
            "clock_bito_timeout": "⏱ «бито» in {left}: throw in now or let it be",
            "counts": "cards: {counts}", "payments": "to pay: {list}", "pays": "{who} → {to}",
            # the yard variants (V10-V12)
            "show": "{who} shows {card} as a проездной",
            "show@me": "you show {card} as a проездной",
            "reserve": "{who} takes up the поджопники", "reserve@me": "you take up your поджопники",
            "reserve_up": "{who} takes up {n} поджопники", "reserve_cards": "{who} takes up the поджопники: {cards}",
            "reserve_cards@me": "you take up your поджопники: {cards}",
            "trump_turned": "the deck is out: {card} turns up, trump is {trump} now",
            "second_hidden": "under the trump card: a card face down (V10)",
            "second_trump": "the second trump: {card} (V10)",
            "reserves": "поджопники: {counts}", "pass_cards": "проездной: {cards}",
            "shown": "shown as a проездной, still held: {list}",
        },
        "ru": {
            "attack": "{who} ходит с {card}", "attack@me": "вы ходите с {card}",
            "lead": "{who} ходит: {cards}", "lead@me": "вы ходите: {cards}",
            "cover": "{who} кроет {onto} картой {card}", "cover@me": "вы кроете {onto} картой {card}",
            "transfer": "{who} переводит картой {card}", "transfer@me": "вы переводите картой {card}",
            "bito": "{who}: «бито»", "take": "{who}: «беру»",
            "give": "{who} отдаёт {card}", "give@me": "вы отдаёте {card}", "give_hidden": "{who} отдаёт карту",
            "give_hidden@me": "вы отдаёте карту",
            "bout": "заход: {who} ходит под {to} (не больше {n})",
            "bout@me": "заход: вы ходите под {to} (не больше {n})",
            "bout@to_me": "заход: {who} ходит под вас (не больше {n})",
            "bout_take": "{to} забирает со стола: {n}", "bout_take@me": "вы забираете со стола: {n}",
            "bout_bito": "«бито»: в отбой {n}",
            "new_defender": "теперь отбивается {to} (не больше {n})",
            "new_defender@me": "теперь отбиваетесь вы (не больше {n})",
            "bito_timeout": "молчание — «бито» за {seats}",
            "drawn": "{who} добирает {n}: {cards}", "drawn@me": "вы добираете {n}: {cards}",
            "drawn_count": "{who} добирает {n} (в колоде {deck})",
            "phase_bout": "заход", "phase_pay": "расплата", "phase_draw": "добор", "phase_over": "конец",
            "attack_line": "{who} ходит под {to} (не больше {n} карт)",
            "attack_line@me": "вы ходите под {to} (не больше {n} карт)",
            "attack_line@to_me": "{who} ходит под вас (не больше {n} карт)", "bito_said": "«бито» сказали: {seats}",
            "pair": "{attack} ← {cover}", "open_pair": "{attack} ← не покрыта",
            "table": "на столе: {pairs}", "table_empty": "стол пуст",
            "clock_bito_timeout": "⏱ «бито» через {left}: подкидывайте или ждите",
            "counts": "карт: {counts}", "payments": "расплата за метку: {list}",
            "pays": "{who} → {to}",
            # дворовые разновидности (V10-V12)
            "show": "{who} показывает {card} как проездной",
            "show@me": "вы показываете {card} как проездной",
            "reserve": "{who} достаёт поджопники", "reserve@me": "вы достаёте поджопники",
            "reserve_up": "{who} берёт поджопники: {n}", "reserve_cards": "{who} берёт поджопники: {cards}",
            "reserve_cards@me": "вы берёте поджопники: {cards}",
            "trump_turned": "колода кончилась: открыта {card}, теперь козырь {trump}",
            "second_hidden": "под козырем карта рубашкой вверх (V10)",
            "second_trump": "второй козырь: {card} (V10)",
            "reserves": "поджопники: {counts}", "pass_cards": "проездной: {cards}",
            "shown": "показаны как проездной и ещё на руках: {list}",
        },
    }
    ZONES = {**GameText.ZONES,
             "table": {"ru": "стол", "en": "table", "look": "pairs"},
             "discard": {"ru": "отбой", "en": "discard", "look": "fan"}}
    ALIASES = {"c": "cover", "a": "attack", "t": "transfer", "b": "bito",
               "хожу": "attack", "захожу": "lead", "крою": "cover", "перевожу": "transfer", "бито": "bito",
               "беру": "take", "отдаю": "give", "показываю": "show", "поджопники": "reserve"}
    #: a bout is over
    REDRAW = frozenset({"bout_over"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        c = card(action.get("card"))
        if kind == "cover":
            table = (before or {}).get("table") or []
            t = action.get("target")
            onto = table[t][0] if isinstance(t, int) and 0 <= t < len(table) else None
            return w(say, "cover", seat, who=who, card=c, onto=card(onto))
        if kind == "lead":
            return w(say, "lead", seat, who=who, cards=cards(action.get("cards")))
        if kind == "give":
            return w(say, "give" if action.get("card") else "give_hidden", seat, who=who, card=c)
        if kind in ("attack", "transfer", "bito", "take", "show", "reserve"):
            return w(say, kind, seat, who=who, card=c)
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        if kind == "draw":  # refilling hands (D8): the cards only to the drawer
            if e.get("cards"):
                return w(say, "drawn", seat, who=say.who(seat), n=e.get("count"), cards=cards(e["cards"]))
            return w(say, "drawn_count", seat, who=say.who(seat), n=e.get("count"), deck=e.get("deck"))
        if kind == "bout":
            return w(say, "bout", e.get("attacker"), e.get("defender"), who=say.who(e.get("attacker")),
                     to=say.who(e.get("defender")), n=e.get("limit"))
        if kind == "bout_over":
            key = "bout_take" if e.get("outcome") == "take" else "bout_bito"
            return w(say, key, e.get("defender"), to=say.who(e.get("defender")), n=e.get("count"))
        if kind == "transfer":
            return w(say, "new_defender", e.get("defender"), to=say.who(e.get("defender")), n=e.get("limit"))
        if kind == "bito_timeout":
            return w(say, "bito_timeout", seats=", ".join(say.who(s) for s in e.get("seats", [])) or "—")
        if kind == "reserve":  # V11: the cards only to their owner
            if e.get("cards"):
                return w(say, "reserve_cards", seat, who=say.who(seat), cards=cards(e["cards"]))
            return w(say, "reserve_up", seat, who=say.who(seat), n=e.get("count"))
        if kind == "trump_turned":  # V10
            return w(say, "trump_turned", card=card(e.get("card")), trump=card(e.get("trump")))
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        lines = [w(say, "attack_line", view.get("attacker"), view.get("defender"), who=say.who(view.get("attacker")),
                   to=say.who(view.get("defender")),
                   n=view.get("limit"))]
        if view.get("bito"):
            lines.append(w(say, "bito_said", seats=", ".join(say.who(s) for s in view["bito"])))
        pairs = []
        for i, (a, b) in enumerate(view.get("table") or []):
            pair = w(say, "pair", attack=card(a), cover=card(b)) if b else w(say, "open_pair", attack=card(a))
            pairs.append(f"{i}) {pair}")
        lines.append(w(say, "table", pairs="   ".join(pairs)) if pairs else w(say, "table_empty"))
        counts = ", ".join(f"{say.who(s)} {h}" for s, h in enumerate(view.get("hands", [])))
        lines.append(w(say, "counts", counts=counts))
        if view.get("payments"):
            pays = ", ".join(w(say, "pays", who=say.who(p.get("from")), to=say.who(p.get("to")))
                             for p in view["payments"])
            lines.append(w(say, "payments", list=pays))
        lines += self._yard_lines(say, view)
        return lines

    def _yard_lines(self, say: Say, view: dict) -> list[str]:
        """V10: the card under the trump card, face down or turned; V11: the поджопники as
        counts; V12: the проездные, and the cards shown as such that are still held."""
        w, lines = self.word, []
        if "second_trump" in view:
            turned = view["second_trump"]
            lines.append(w(say, "second_trump", card=card(turned)) if turned else w(say, "second_hidden"))
        if isinstance(view.get("reserve"), list):
            counts = ", ".join(f"{say.who(s)} {k}" for s, k in enumerate(view["reserve"]))
            lines.append(w(say, "reserves", counts=counts))
        if view.get("pass_card"):
            lines.append(w(say, "pass_cards", cards=cards(view["pass_card"])))
        shown = [f"{say.who(s)} {cards(held)}" for s, held in enumerate(view.get("shown") or []) if held]
        if shown:
            lines.append(w(say, "shown", list=", ".join(shown)))
        return lines

    def groups(self, zones: dict[str, list[str]], view: dict) -> dict[str, list[list[str]]]:
        # each attacking card with the card that covers it (D4)
        return {"table": [[a] if c is None else [a, c] for a, c in view.get("table") or []]}

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        # by suit, trumps last, then by rank (issue 28 §3)
        trump = view.get("trump")
        return sorted(hand, key=lambda c: (c[1] == trump, _SUIT_ORDER.find(c[1]), _RANKS.find(c[0])))

    def turn(self, view: dict) -> list[int]:
        # the attacker leads, the defender covers, the others may throw in
        return [s for s in (view.get("attacker"), view.get("defender")) if s is not None]

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        if kind == "cover":  # the first uncovered card (issue 28 §3)
            open_ = [i for i, pair in enumerate((view or {}).get("table") or []) if pair[1] is None]
            if open_:
                return open_[0]
        return None


TEXT = DurakText()
