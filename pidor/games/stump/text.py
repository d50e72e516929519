"""How «пень» and «пеньки» read (:class:`pidor.games.text.GameText`): the moves, the deal, the
draws and the пеньки picked up, and the board (the stack's top cards, what the player on
turn owes, hand sizes and who still has his пенёк face down)."""

from __future__ import annotations

from ..text import GameText, Say, by_suit, card, cards

__all__ = ["TEXT"]

#: The stack's top cards the board shows (the rest as a count).
SHOWN = 6


def _taken(stack: list[str], action: dict) -> list[str]:
    """The cards a ``take`` moves: ``count`` from under the top ``below`` (S4); none when
    the stack has not so many."""
    n, below = action.get("count"), action.get("below")
    if isinstance(n, int) and isinstance(below, int) and 0 < n and 0 <= below and n + below <= len(stack):
        return stack[len(stack) - below - n:len(stack) - below]
    return []


class StumpText(GameText):
    WORDS = {
        "en": {
            "beat": "{who} beats {onto} with {card}", "beat@me": "you beat {onto} with {card}",
            "lead": "{who} leads {card}", "lead@me": "you lead {card}",
            "take": "{who} takes {n} from the stack: {cards}", "take@me": "you take {n} from the stack: {cards}",
            "dig": "{who} digs {n} out from under {below}: {cards}",
            "dig@me": "you dig {n} out from under {below}: {cards}",
            "draw": "{who} draws {n}", "draw@me": "you draw {n}",
            "pick": "{who} picks up the пенёк", "pick@me": "you pick up your пенёк",
            "give": "{who} gives {card}", "give@me": "you give {card}", "give_hidden": "{who} gives a card",
            "deal": "{who} deals", "deal@me": "you deal", "first": "{who} leads", "first@me": "you lead",
            "trump_card": "trump {trump} ({card} under the deck)", "trump_dealt": "trump {trump} (the last card dealt)",
            "drawn": "{who} gets {cards} (deck {deck})", "drawn@me": "you get {cards} (deck {deck})",
            "stub": "{who}'s пенёк: {cards}", "stub@me": "your пенёк: {cards}",
            "phase_play": "play", "phase_pay": "payment", "phase_over": "over",
            "stack": "the stack ({n}, top last): {cards}", "stack_empty": "the stack is empty",
            "owe_beat": "{who} beats {card} or takes {n}", "owe_beat@me": "you beat {card} or take {n}",
            "owe_lead": "{who} leads", "owe_lead@me": "you lead",
            "owe_draw": "{who} draws {n}", "owe_draw@me": "you draw {n}",
            "owe_pick": "{who} picks up the пенёк", "owe_pick@me": "you pick up your пенёк",
            "counts": "cards: {counts}", "count": "{name} {hand}", "count_stub": "{name} {hand} + пенёк {stub}",
            "payments": "to pay: {list}", "pays": "{who} → {to}",
        },
        "ru": {
            "beat": "{who} бьёт {onto} картой {card}", "beat@me": "вы бьёте {onto} картой {card}",
            "lead": "{who} ходит {card}", "lead@me": "вы ходите {card}",
            "take": "{who} берёт из стопки {n}: {cards}", "take@me": "вы берёте из стопки {n}: {cards}",
            "dig": "{who} выкапывает {n} из-под {below}: {cards}",
            "dig@me": "вы выкапываете {n} из-под {below}: {cards}",
            "draw": "{who} добирает {n}", "draw@me": "вы добираете {n}",
            "pick": "{who} берёт пенёк", "pick@me": "вы берёте свой пенёк",
            "give": "{who} отдаёт {card}", "give@me": "вы отдаёте {card}", "give_hidden": "{who} отдаёт карту",
            "deal": "сдаёт {who}", "deal@me": "сдаёте вы", "first": "ходит {who}", "first@me": "ходите вы",
            "trump_card": "козырь {trump} ({card} под колодой)", "trump_dealt": "козырь {trump} (последняя карта сдачи)",
            "drawn": "{who} получает {cards} (в колоде {deck})", "drawn@me": "вам пришли {cards} (в колоде {deck})",
            "stub": "пенёк {who}: {cards}", "stub@me": "ваш пенёк: {cards}",
            "phase_play": "игра", "phase_pay": "расплата", "phase_over": "конец",
            "stack": "стопка ({n}, верхняя последней): {cards}", "stack_empty": "стопка пуста",
            "owe_beat": "{who} бьёт {card} или берёт {n}", "owe_beat@me": "вы бьёте {card} или берёте {n}",
            "owe_lead": "{who} ходит", "owe_lead@me": "вы ходите",
            "owe_draw": "{who} добирает {n}", "owe_draw@me": "вы добираете {n}",
            "owe_pick": "{who} берёт пенёк", "owe_pick@me": "вы берёте свой пенёк",
            "counts": "карт: {counts}", "count": "{name} {hand}", "count_stub": "{name} {hand} + пенёк {stub}",
            "payments": "платят: {list}", "pays": "{who} → {to}",
        },
    }
    ZONES = {**GameText.ZONES,
             "stub": {"ru": "пенёк", "en": "пенёк", "look": "row"}}  # two cards face down (S5)
    ALIASES = {"b": "beat", "l": "lead", "t": "take", "d": "draw", "p": "pick",
               "бью": "beat", "хожу": "lead", "беру": "take", "добираю": "draw", "пенёк": "pick", "пенек": "pick",
               "отдаю": "give"}

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        stack = (before or {}).get("stack") or []
        if kind == "beat":
            return w(say, "beat", seat, who=who, card=card(action.get("card")), onto=card(stack[-1] if stack else None))
        if kind == "take":
            taken = _taken(stack, action)
            return w(say, "dig" if action.get("below") else "take", seat, who=who, n=action.get("count"),
                     below=action.get("below"), cards=cards(taken) if taken else "?")
        if kind == "draw":
            return w(say, "draw", seat, who=who, n=action.get("count"))
        if kind == "give":
            return w(say, "give" if action.get("card") else "give_hidden", seat, who=who, card=card(action.get("card")))
        if kind in ("lead", "pick"):
            return w(say, kind, seat, who=who, card=card(action.get("card")))
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        if kind == "deal":
            dealer, first = e.get("dealer"), e.get("first")
            return (w(say, "deal", dealer, who=say.who(dealer)) + ", " + w(say, "first", first, who=say.who(first))
                    + "; " + w(say, "trump_card" if e.get("trump_card") else "trump_dealt",
                               trump=card(e.get("trump")), card=card(e.get("trump_card"))))
        if kind in ("draw", "stub"):  # S3, S5: the cards only to the drawer, to the пенёк's owner
            if not e.get("cards"):
                return ""  # (the action told it)
            return w(say, "drawn" if kind == "draw" else "stub", seat, who=say.who(seat), cards=cards(e["cards"]),
                     deck=e.get("deck"))
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        stack = view.get("stack") or []
        if stack:
            top = " ← ".join(card(c) for c in stack[-SHOWN:])
            lines = [w(say, "stack", n=len(stack), cards=("… " if len(stack) > SHOWN else "") + top)]
        else:
            lines = [w(say, "stack_empty")]
        turn, owe = view.get("turn"), view.get("owe")
        if turn is not None and owe in ("beat", "lead", "draw", "pick"):
            lines.append(w(say, "owe_" + owe, turn, who=say.who(turn), n=view.get("owed"),
                           card=card(stack[-1] if stack else None)))
        stubs = view.get("stubs") or []
        counts = [w(say, "count_stub" if s < len(stubs) and stubs[s] else "count", name=say.who(s), hand=h,
                    stub=stubs[s] if s < len(stubs) else 0)
                  for s, h in enumerate(view.get("hands") or [])]
        lines.append(w(say, "counts", counts=", ".join(counts)))
        if view.get("payments"):
            pays = ", ".join(w(say, "pays", who=say.who(p.get("from")), to=say.who(p.get("to")))
                             for p in view["payments"])
            lines.append(w(say, "payments", list=pays))
        return lines

    def turn(self, view: dict) -> list[int]:
        return list(view.get("to_act") or [])

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        return by_suit(hand, view.get("trump"))

    def action_cards(self, seat: int, action: dict, before: dict | None) -> list[str]:
        if action.get("type") == "take":  # S4: the stack's top cards (or those under ``below``)
            return _taken((before or {}).get("stack") or [], action)
        return super().action_cards(seat, action, before)

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        if name == "below":
            return 0  # S4: from the top
        if name == "count" and kind in ("take", "draw"):
            return (view or {}).get("owed")  # S3, S4: what the card or the hand says
        return None


TEXT = StumpText()
