"""How «залупа» reads (:class:`pidor.games.text.GameText`): its actions, its events (the suit
lot, each deal with its hand-over, each kon's loser and letters) and its board (every player's
trump, letters and cards set aside; the stack)."""

from __future__ import annotations

from typing import Any

from ..text import GameText, Say, by_suit, card, cards

__all__ = ["TEXT"]


def _names(say: Say, seats: Any) -> str:
    return ", ".join(say.who(s) for s in seats or ()) or "—"


class ZalupaText(GameText):
    WORDS = {
        "en": {
            "lead": "{who} leads {card}", "lead@me": "you lead {card}",
            "beat": "{who} beats {onto} with {card}", "beat@me": "you beat {onto} with {card}",
            "take": "{who} takes the stack ({n})", "take@me": "you take the stack ({n})",
            "take_some": "{who} takes {n} cards of the stack", "take_some@me": "you take {n} cards of the stack",
            "otboy": "{who}: «отбой»", "otboy@me": "you: «отбой»",
            "done": "{who} passes the stack on", "done@me": "you pass the stack on",
            "deal_action": "{who} deals", "deal_action@me": "you deal",
            "give": "{who} gives {card}", "give@me": "you give {card}", "give_hidden": "{who} gives a card",
            "suits": "trumps by lot: {list}", "suit": "{who} {suit}",
            "deal": "kon {kon}: {who} deals; cards in hand {hands}",
            "deal@me": "kon {kon}: you deal; cards in hand {hands}", "stock": "; {n} left undealt",
            "deal_cards": "your cards: {cards}", "handed": "you hand over the lowest trump of {to}",
            "got": "{who} hands you {card}",
            "kon_over": "{who} loses kon {kon} and sets aside {card}: «{letters}»",
            "kon_over@me": "you lose kon {kon} and set aside {card}: «{letters}»",
            "leaves": "; out of the game", "leaves@me": "; you are out of the game",
            "kon_void": "kon {kon} does not count (T13: {reason}), dealt again; {n} in a row",
            "void_repetition": "a position seen again and again", "void_quiet": "too long without progress",
            "void_units": "too many moves",
            "phase_play": "play", "phase_pay": "payment", "phase_over": "over",
            "player": "{who}: trump {suit}, «{letters}», set aside {aside}, cards {n}{extra}",
            "dealer": " · deals", "out": " · out of the kon", "left": " · out of the game",
            "stack": "the stack (bottom first): {cards}", "stack_empty": "the table is empty",
            "on": "{card} ({who})",
            "state_lead": "{who} leads", "state_lead@me": "you lead",
            "state_beat": "{who} beats {card} or takes the stack",
            "state_beat@me": "you beat {card} or take the stack",
            "state_beaten": "{who} leads on top or says «отбой»",
            "state_beaten@me": "you lead on top or say «отбой»",
            "state_last": "{who} says «отбой» or passes the stack on",
            "state_last@me": "you say «отбой» or pass the stack on",
            "state_deal": "{who} deals kon {kon}", "state_deal@me": "you deal kon {kon}", "discard": "in the отбой: {n}",
            "payments": "to pay: {list}", "pays": "{who} → {to}",
        },
        "ru": {
            "lead": "{who} ходит {card}", "lead@me": "вы ходите {card}",
            "beat": "{who} бьёт {onto} картой {card}", "beat@me": "вы бьёте {onto} картой {card}",
            "take": "{who} забирает стопку ({n})", "take@me": "вы забираете стопку ({n})",
            "take_some": "{who} берёт из стопки {n}", "take_some@me": "вы берёте из стопки {n}",
            "otboy": "{who}: «отбой»", "otboy@me": "вы: «отбой»",
            "done": "{who} передаёт стопку дальше", "done@me": "вы передаёте стопку дальше",
            "deal_action": "{who} сдаёт", "deal_action@me": "вы сдаёте",
            "give": "{who} отдаёт {card}", "give@me": "вы отдаёте {card}", "give_hidden": "{who} отдаёт карту",
            "suits": "козыри по жребию: {list}", "suit": "{who} {suit}",
            "deal": "кон {kon}: сдаёт {who}; карт на руках {hands}",
            "deal@me": "кон {kon}: сдаёте вы; карт на руках {hands}", "stock": "; не сдано {n}",
            "deal_cards": "ваши карты: {cards}", "handed": "вы отдаёте младший козырь хозяину — {to}",
            "got": "{who} отдаёт вам {card}",
            "kon_over": "{who} проигрывает кон {kon} и откладывает {card}: «{letters}»",
            "kon_over@me": "вы проигрываете кон {kon} и откладываете {card}: «{letters}»",
            "leaves": "; выбывает из игры", "leaves@me": "; вы выбываете из игры",
            "kon_void": "кон {kon} не в счёт (T13: {reason}), пересдача; {n} подряд",
            "void_repetition": "позиция повторяется", "void_quiet": "слишком долго без продвижения",
            "void_units": "слишком много ходов",
            "phase_play": "игра", "phase_pay": "расплата", "phase_over": "конец",
            "player": "{who}: козырь {suit}, «{letters}», отложены {aside}, карт {n}{extra}",
            "dealer": " · сдаёт", "out": " · вышел из кона", "left": " · выбыл из игры",
            "stack": "стопка (снизу вверх): {cards}", "stack_empty": "стол пуст",
            "on": "{card} ({who})",
            "state_lead": "ходит {who}", "state_lead@me": "ходите вы",
            "state_beat": "{who} бьёт {card} или забирает стопку",
            "state_beat@me": "вы бьёте {card} или забираете стопку",
            "state_beaten": "{who} ходит сверху или говорит «отбой»",
            "state_beaten@me": "вы ходите сверху или говорите «отбой»",
            "state_last": "{who} говорит «отбой» или передаёт стопку дальше",
            "state_last@me": "вы говорите «отбой» или передаёте стопку дальше",
            "state_deal": "{who} сдаёт кон {kon}", "state_deal@me": "вы сдаёте кон {kon}", "discard": "в отбое: {n}",
            "payments": "платят: {list}", "pays": "{who} → {to}",
        },
    }
    ZONES = {**GameText.ZONES,
             "discard": {"ru": "отбой", "en": "discard", "look": "fan"},  # Z4
             "stock": {"ru": "несданные", "en": "undealt", "look": "fan"},  # Z2
             "aside": {"ru": "отложенные", "en": "set aside", "look": "row"}}  # Z5: each lost kon's trump
    ALIASES = {"b": "beat", "l": "lead", "t": "take", "o": "otboy", "d": "done",
               "хожу": "lead", "бью": "beat", "беру": "take", "отбой": "otboy", "дальше": "done", "сдаю": "deal",
               "отдаю": "give"}
    #: a kon is over, a new one dealt
    REDRAW = frozenset({"kon_over", "deal"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        stack = (before or {}).get("stack") or []
        if kind == "beat":
            return w(say, "beat", seat, who=who, card=card(action.get("card")), onto=card(stack[-1] if stack else None))
        if kind == "take":
            n = action.get("count")
            return w(say, "take" if n == len(stack) or not stack else "take_some", seat, who=who, n=n)
        if kind == "give":
            return w(say, "give" if action.get("card") else "give_hidden", seat, who=who, card=card(action.get("card")))
        if kind == "deal":
            return w(say, "deal_action", seat, who=who)
        if kind in ("lead", "otboy", "done"):
            return w(say, kind, seat, who=who, card=card(action.get("card")))
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind = self.word, e.get("type")
        if kind == "suits":
            return w(say, "suits", list=", ".join(w(say, "suit", who=say.who(s), suit=card(x))
                                                 for s, x in enumerate(e.get("suits") or ())))
        if kind == "deal":
            parts = [w(say, "deal", e.get("dealer"), kon=e.get("kon"), who=say.who(e.get("dealer")),
                       hands="/".join(str(n) for n in e.get("hands") or ()))]
            if e.get("stock"):
                parts.append(w(say, "stock", n=e["stock"]))
            line = "".join(parts)
            if e.get("to"):
                line += "; " + w(say, "handed", to=_names(say, e["to"]))
            if e.get("got"):
                line += "; " + w(say, "got", who=say.who(e.get("giver")), card=card(e["got"]))
            if e.get("cards"):
                line += "; " + w(say, "deal_cards", cards=cards(e["cards"]))
            return line
        if kind == "kon_over":
            loser = e.get("loser")
            line = w(say, "kon_over", loser, who=say.who(loser), kon=e.get("kon"), card=card(e.get("card")),
                     letters=e.get("letters"))
            return line + (w(say, "leaves", loser) if e.get("leaves") else "")
        if kind == "kon_void":
            reason = e.get("reason")
            return w(say, "kon_void", kon=e.get("kon"), n=e.get("voids"),
                     reason=w(say, "void_" + reason) if reason in ("repetition", "quiet", "units") else reason)
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        lines = []
        suits, letters, aside = view.get("suits") or [], view.get("letters") or [], view.get("aside") or []
        out, left = view.get("out") or [], view.get("left") or []
        for s, n in enumerate(view.get("hands") or ()):
            extra = "".join(w(say, key) for key, yes in (("dealer", s == view.get("dealer")),
                                                         ("left", s in left), ("out", s in out and s not in left))
                            if yes)
            lines.append(w(say, "player", who=say.who(s), suit=card(suits[s] if s < len(suits) else None),
                           letters=letters[s] if s < len(letters) else "", n=n, extra=extra,
                           aside=cards(aside[s] if s < len(aside) else ())))
        stack, by = view.get("stack") or [], view.get("stack_seats") or []
        if stack:
            shown = " ← ".join(w(say, "on", card=card(c), who=say.who(by[i]) if i < len(by) else "?")
                               for i, c in enumerate(stack))
            lines.append(w(say, "stack", cards=shown))
        else:
            lines.append(w(say, "stack_empty"))
        if view.get("discard"):
            lines.append(w(say, "discard", n=view["discard"]))
        state, t, hands = view.get("state"), view.get("turn"), view.get("hands") or []
        turn = say.who(t)
        if view.get("result") is None and not view.get("payments") and state is not None:
            if state == "beaten" and isinstance(t, int) and 0 <= t < len(hands) and not hands[t]:
                state = "last"  # Z3a
            lines.append(w(say, f"state_{state}", t, who=turn, card=card(stack[-1] if stack else None),
                           kon=(view.get("kon") or 0) + 1))
        if view.get("payments"):
            pays = ", ".join(w(say, "pays", who=say.who(p.get("from")), to=say.who(p.get("to")))
                             for p in view["payments"])
            lines.append(w(say, "payments", list=pays))
        return lines

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        # by suit, then by rank: the view names no table trump (Z1: each player's own, on the board)
        return by_suit(hand, view.get("trump"))

    def action_cards(self, seat: int, action: dict, before: dict | None) -> list[str]:
        n, stack = action.get("count"), (before or {}).get("stack") or []
        if action.get("type") == "take" and isinstance(n, int) and 0 < n <= len(stack):
            return stack[-n:]  # Z3 (Z7t): the stack's top cards
        return super().action_cards(seat, action, before)

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        if kind == "take":
            return len((view or {}).get("stack") or ()) or None  # the whole stack (Z3)
        return None


TEXT = ZalupaText()
