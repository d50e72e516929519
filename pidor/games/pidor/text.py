"""How «пидор» reads (:class:`pidor.games.text.GameText`): its actions, events and board."""

from __future__ import annotations

from typing import Any

from ..text import GameText, Say, card, cards

__all__ = ["TEXT"]


def _top(stacks: list, seat: Any) -> str | None:
    """The open card of ``seat``'s stack in a view."""
    if isinstance(seat, int) and 0 <= seat < len(stacks):
        shown = stacks[seat].get("cards") or []
        return shown[-1] if shown else None
    return None


def _on_table(view: dict, index: Any) -> str | None:
    table = view.get("table") or []
    return table[index] if isinstance(index, int) and 0 <= index < len(table) else None


class PidorText(GameText):
    WORDS = {
        "en": {
            "a_card": "a card",
            "draw": "{who} draws {card} (deck {n})", "draw@me": "you draw {card} (deck {n})",
            "draw_hidden": "{who} draws a card (deck {n})", "draw_hidden@me": "you draw a card (deck {n})",
            "draw_live": "{who} draws from the deck", "draw_live@me": "you draw from the deck",
            "drawn": "drawn: {card} (deck {n})",
            "keep": "{who} keeps {card} on their stack", "keep@me": "you keep {card} on your stack",
            "lay": "{who} lays {card} on {to}'s {onto}", "lay@me": "you lay {card} on {to}'s {onto}",
            "move": "{who} moves {card} from their stack onto {to}'s {onto}",
            "move@me": "you move {card} from your stack onto {to}'s {onto}",
            "lay_stack": "{who} lays {card} on {to}'s stack", "lay_stack@me": "you lay {card} on {to}'s stack",
            "move_stack": "{who} moves {card} from their stack onto {to}'s stack",
            "move_stack@me": "you move {card} from your stack onto {to}'s stack",
            "lead": "{who} leads {card}", "lead@me": "you lead {card}",
            "beat": "{who} covers {onto} with {card}", "beat@me": "you cover {onto} with {card}",
            "take_card": "{who} takes {card} from the table", "take_card@me": "you take {card} from the table",
            "close": "{who} closes the trick", "close@me": "you close the trick",
            "give": "{who} gives {card} to {to}", "give@me": "you give {card} to {to}",
            "give_hidden": "{who} gives a card to {to}",
            "deal_end": "the deal is over: trump {trump}, {who} leads; hands {hands}",
            "settlement": "settlement: {dues}", "due": "{to} is owed {n}",
            "payment": "{who} owes {to} {n} more", "skip": "{who} has no card to give",
            "trick": "a trick of {n} cards; {who} leads", "trick_closed": "{who} closes the trick: {cards}",
            "trick_empty": "{who} empties the table: the trick is over", "discard": "{n} cards to the discard",
            "prikup": "{who} picks up the prikup ({n})", "prikup@me": "you pick up the prikup ({n})",
            "prikup_cards": "{who} picks up the prikup: {cards}", "prikup_cards@me": "you pick up the prikup: {cards}",
            "pidorstvo": "{who}'s «пидорство»: {n}",
            "phase_deal": "deal", "phase_settle": "settlement", "phase_tricks": "tricks", "phase_over": "over",
            "stack": "{name}: {cards} (+{hidden} face down){extra}", "stack_pidorstvo": "; pidorstvo {count}",
            "held": "{who} holds the drawn card {card}",
            "pile": "on the table ({count} of {size}, bottom first): {cards}", "pile_empty": "the table is empty",
            "counts": "cards: {counts}", "count": "{name} {hand}", "count_prikup": "{name} {hand} + prikup {prikup}",
            "dues": "owed: {dues}", "owed": "{who} ×{count}", "paying": "{who} pays {to}: {left} card(s) left",
        },
        "ru": {
            "a_card": "карту",
            "draw": "{who} тянет {card} (в колоде {n})", "draw@me": "вы тянете {card} (в колоде {n})",
            "draw_hidden": "{who} тянет карту (в колоде {n})", "draw_hidden@me": "вы тянете карту (в колоде {n})",
            "draw_live": "{who} тянет из колоды", "draw_live@me": "вы тянете из колоды",
            "drawn": "вытянута {card} (в колоде {n})",
            "keep": "{who} оставляет {card} себе", "keep@me": "вы оставляете {card} себе",
            "lay": "{who} кладёт {card} на {onto} ({to})", "lay@me": "вы кладёте {card} на {onto} ({to})",
            "move": "{who} перекладывает {card} со своей стопки на {onto} ({to})",
            "move@me": "вы перекладываете {card} со своей стопки на {onto} ({to})",
            "lay_stack": "{who} кладёт {card} на стопку {to}", "lay_stack@me": "вы кладёте {card} на стопку {to}",
            "move_stack": "{who} перекладывает {card} со своей стопки на стопку {to}",
            "move_stack@me": "вы перекладываете {card} со своей стопки на стопку {to}",
            "lead": "{who} ходит {card}", "lead@me": "вы ходите {card}",
            "beat": "{who} кроет {onto} картой {card}", "beat@me": "вы кроете {onto} картой {card}",
            "take_card": "{who} берёт со стола {card}", "take_card@me": "вы берёте со стола {card}",
            "close": "{who} закрывает взятку", "close@me": "вы закрываете взятку",
            "give": "{who} отдаёт {card} → {to}", "give@me": "вы отдаёте {card} → {to}",
            "give_hidden": "{who} отдаёт карту → {to}", "give_hidden@me": "вы отдаёте карту → {to}",
            "give@to_me": "{who} отдаёт вам {card}", "give_hidden@to_me": "{who} отдаёт вам карту",
            "deal_end": "раздача окончена: козырь {trump}, ходит {who}; на руках {hands}",
            "deal_end@to_me": "раздача окончена: козырь {trump}, ходите вы; на руках {hands}",
            "settlement": "расчёт: {dues}", "due": "{to} получает {n}", "due@me": "вы получаете {n}",
            "payment": "{who} должен {to} ещё {n}", "payment@me": "вы должны {to} ещё {n}",
            "payment@to_me": "{who} должен вам ещё {n}", "skip": "{who}: нечем платить", "skip@me": "вам нечем платить",
            "trick": "взятка из {n} карт; ходит {who}", "trick@me": "взятка из {n} карт; ходите вы",
            "trick_closed": "{who} закрывает взятку: {cards}", "trick_closed@me": "вы закрываете взятку: {cards}",
            "trick_empty": "{who} очищает стол: взятка окончена", "trick_empty@me": "вы очищаете стол: взятка окончена",
            "discard": "в отбой: {n}",
            "prikup": "{who} берёт прикуп ({n})", "prikup@me": "вы берёте прикуп ({n})",
            "prikup_cards": "{who} берёт прикуп: {cards}", "prikup_cards@me": "вы берёте прикуп: {cards}",
            "pidorstvo": "пидорство у {who}: {n}", "pidorstvo@me": "пидорство у вас: {n}",
            "phase_deal": "раздача", "phase_settle": "расплата", "phase_tricks": "розыгрыш", "phase_over": "конец",
            "stack": "{name}: {cards} (+{hidden} закрытых){extra}", "stack_pidorstvo": "; пидорство {count}",
            "held": "{who} держит вытянутую карту {card}", "held@me": "вы держите вытянутую карту {card}",
            "pile": "на столе ({count} из {size}, снизу вверх): {cards}", "pile_empty": "стол пуст",
            "counts": "карт: {counts}", "count": "{name} {hand}", "count_prikup": "{name} {hand} + прикуп {prikup}",
            "dues": "долги: {dues}", "owed": "{who} ×{count}", "paying": "{who} платит {to}: осталось {left}",
            "paying@me": "вы платите {to}: осталось {left}", "paying@to_me": "{who} платит вам: осталось {left}",
        },
    }
    ZONES = {**GameText.ZONES,
             "held": {"ru": "вытянутая карта", "en": "drawn card", "look": "row"},
             "table": {"ru": "стол", "en": "table", "look": "fan"},
             "discard": {"ru": "отбой", "en": "discard", "look": "fan"},
             "prikup": {"ru": "прикуп", "en": "prikup", "look": "fan"}}
    #: a trick is over, the deal phase has ended
    ALIASES = {"тяну": "draw", "перекладываю": "move", "кладу": "lay", "оставляю": "keep", "хожу": "lead",
               "крою": "beat", "бью": "beat", "беру": "take", "закрываю": "close", "отдаю": "give"}
    REDRAW = frozenset({"trick_closed", "deal_end"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        before = before or {}
        c = card(action.get("card"))
        if kind == "draw":  # P3: the card shows in the draw event after it
            drawn = next((e for e in follow or () if e.get("type") == "draw"), None)
            if drawn is None:  # live: the draw event that follows shows the card
                return w(say, "draw_live", seat, who=who)
            if drawn.get("card"):
                return w(say, "draw", seat, who=who, card=card(drawn["card"]), n=drawn.get("deck"))
            return w(say, "draw_hidden", seat, who=who, n=drawn.get("deck"))
        if kind in ("keep", "lay", "move"):
            stacks = before.get("stacks") or []
            to = action.get("to", seat)
            moved = before.get("held") if kind != "move" else _top(stacks, seat)
            onto = _top(stacks, to)
            key = kind if onto or kind == "keep" else kind + "_stack"  # (a view not known: no card to name)
            return w(say, key, seat, who=who, card=card(moved) if moved else w(say, "a_card"), to=say.who(to),
                     onto=card(onto))
        if kind == "beat":
            return w(say, "beat", seat, who=who, card=c, onto=card(_on_table(before, action.get("target"))))
        if kind == "take":
            return w(say, "take_card", seat, who=who, card=card(_on_table(before, action.get("index"))))
        if kind == "give":
            to = before.get("payment", {}).get("to") if isinstance(before.get("payment"), dict) else None
            return w(say, "give" if action.get("card") else "give_hidden", seat, to, who=who, card=c, to=say.who(to))
        if kind in ("lead", "close"):
            return w(say, kind, seat, who=who, card=c)
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        who = say.who(seat)
        if kind == "draw":
            if said:
                return ""  # the draw action told it
            if e.get("card") is None:
                return w(say, "draw_hidden", seat, who=who, n=e.get("deck"))
            return w(say, "drawn", seat, who=who, card=card(e.get("card")), n=e.get("deck"))
        if kind == "deal_end":
            return w(say, "deal_end", None, e.get("first"), trump=card(e.get("trump")), who=say.who(e.get("first")),
                     hands="/".join(str(n) for n in e.get("hands", [])))
        if kind == "settlement":
            dues = ", ".join(w(say, "due", d.get("to"), to=say.who(d.get("to")), n=d.get("count"))
                             for d in e.get("dues", []))
            return w(say, "settlement", dues=dues or "—")
        if kind == "payment":
            return w(say, "payment", e.get("from"), e.get("to"), who=say.who(e.get("from")), to=say.who(e.get("to")),
                     n=e.get("left"))
        if kind == "skip":
            return w(say, "skip", seat, who=who)
        if kind == "trick":
            return w(say, "trick", seat, who=who, n=e.get("size"))
        if kind == "trick_closed":
            if e.get("empty"):
                return w(say, "trick_empty", seat, who=who)
            return w(say, "trick_closed", seat, who=who, cards=cards(e.get("cards")))
        if kind == "discard":
            return w(say, "discard", n=e.get("count"))
        if kind == "prikup":
            if e.get("cards"):
                return w(say, "prikup_cards", seat, who=who, cards=cards(e["cards"]))
            return w(say, "prikup", seat, who=who, n=e.get("count"))
        if kind == "pidorstvo":
            return w(say, "pidorstvo", seat, who=who, n=e.get("count"))
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        lines = []
        if view.get("phase") == "deal":
            pid = view.get("pidorstvo") or []
            for seat, stack in enumerate(view.get("stacks", [])):
                shown = stack.get("cards") or []
                text = " ".join(card(c) for c in shown[:-1])
                if shown:
                    text = (text + " " if text else "") + f"[{card(shown[-1])}]"
                extra = w(say, "stack_pidorstvo", count=pid[seat]) if seat < len(pid) and pid[seat] else ""
                lines.append(w(say, "stack", name=say.who(seat), cards=text or "—",
                               hidden=stack.get("hidden", 0), extra=extra))
            if view.get("held"):
                lines.append(w(say, "held", view.get("turn"), who=say.who(view.get("turn")), card=card(view["held"])))
        else:
            pile = view.get("table") or []
            by = view.get("table_seats") or []
            if pile:
                shown = " ← ".join(f"{card(c)} ({say.who(by[i]) if i < len(by) else '?'})" for i, c in enumerate(pile))
                lines.append(w(say, "pile", count=len(pile), size=view.get("trick_size"), cards=shown))
            else:
                lines.append(w(say, "pile_empty"))
            counts = [w(say, "count_prikup" if p else "count", name=say.who(s), hand=h, prikup=p)
                      for s, (h, p) in enumerate(zip(view.get("hands", []), view.get("prikups", [])))]
            lines.append(w(say, "counts", counts=", ".join(counts)))
        if view.get("dues"):
            dues = ", ".join(w(say, "owed", who=say.who(d.get("to")), count=d.get("count")) for d in view["dues"])
            lines.append(w(say, "dues", dues=dues))
        payment = view.get("payment")
        if payment:
            lines.append(w(say, "paying", payment.get("from"), payment.get("to"), who=say.who(payment.get("from")),
                           to=say.who(payment.get("to")),
                           left=payment.get("left")))
        return lines

    def action_cards(self, seat: int, action: dict, before: dict | None) -> list[str]:
        kind = action.get("type")
        if kind in ("keep", "lay"):  # the drawn card (P3)
            held = (before or {}).get("held")
            return [held] if held else []
        if kind == "move":  # the top of the mover's stack
            top = _top((before or {}).get("stacks") or [], seat)
            return [top] if top else []
        if kind == "take":
            taken = _on_table(before or {}, action.get("index"))
            return [taken] if taken else []
        return super().action_cards(seat, action, before)

    def turn(self, view: dict) -> list[int]:
        return list(view.get("to_act") or ([view["turn"]] if view.get("turn") is not None else []))

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        if kind == "take":
            return 0  # the bottom card: the honest take (P13)
        pile = (view or {}).get("table") or []
        if kind == "beat" and pile:
            return len(pile) - 1  # the top of the pile (P12)
        return None


TEXT = PidorText()
