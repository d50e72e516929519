"""How «сто одно» reads (:class:`pidor.games.text.GameText`): its actions, its events (each
deal's end with the points and the running scores) and its board (the top card with the
suit named, what is owed, the scores and the score table by deal)."""

from __future__ import annotations

from ...cards import parse_rank
from ..text import GameText, Say, card, cards

__all__ = ["TEXT"]

_SUIT_ORDER = "shcd"  # ♠ ♥ ♣ ♦: black and red by turns
#: The board shows the score table's last rows (one per deal).
TABLE_ROWS = 6


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


class HundredText(GameText):
    WORDS = {
        "en": {
            "cover": "{who} covers {onto} with {card}", "cover@me": "you cover {onto} with {card}",
            "queen": "{who} covers {onto} with {card}, naming {suit}",
            "queen@me": "you cover {onto} with {card}, naming {suit}",
            "name": "{who} names {suit}", "name@me": "you name {suit}",
            "draw": "{who} draws a card", "draw@me": "you draw a card",
            "skip": "{who} passes", "skip@me": "you pass",
            "lose_turn": "{who} loses the turn", "lose_turn@me": "you lose the turn",
            "take_penalty": "{who} takes the penalty: {n}", "take_penalty@me": "you take the penalty: {n}",
            "give": "{who} gives {card}", "give@me": "you give {card}", "give_hidden": "{who} gives a card",
            "deal_action": "{who} deals", "deal_action@me": "you deal",
            "deal": "deal {number}: {who} deals, face up {card}", "deal@me": "deal {number}: you deal, face up {card}",
            "deal_mine": "deal {number}: {who} deals, face up {card}; your cards: {cards}",
            "deal_mine@me": "deal {number}: you deal, face up {card}; your cards: {cards}",
            "drawn": "{who} draws {n}: {cards}", "drawn@me": "you draw {n}: {cards}",
            "drawn_count": "{who} draws {n} (deck {deck})", "drawn_count@me": "you draw {n} (deck {deck})", "forgiven": "{line}; {n} forgiven: nothing left",
            "reshuffle": "the table but its top card is shuffled into a new deck ({n})",
            "pull": "{who} takes a card at random from {giver}", "pull@to_me": "{who} takes a card at random from you",
            "pull_mine": "{who} takes {card} at random from {giver}", "pull_mine@me": "you take {card} at random from {giver}",
            "pull_mine@to_me": "{who} takes {card} at random from you",
            "deal_over": "deal {number} is over: {who} went out; points {points}; scores {scores}",
            "deal_over@me": "deal {number} is over: you went out; points {points}; scores {scores}",
            "void": "deal {number} is void (T13: {reason}); {voids} in a row",
            "repetition": "a position seen again and again", "quiet": "too long without a card laid",
            "units": "too many turns",
            "deal_line": "deal {number}, {who} dealt", "deal_line@me": "deal {number}, you dealt",
            "dealing": "{who} is to deal the next deal", "dealing@me": "you are to deal the next deal",
            "top": "on the table: {card} ({under} under it)", "top_queen": "on the table: {card}, {suit} named "
                                                                           "({under} under it)",
            "naming": "{who} is to name the queen's suit", "naming@me": "you are to name the queen's suit",
            "six": "{who} must cover their own six", "six@me": "you must cover your own six",
            "owes": "{who} owes the penalty: {n}", "owes@me": "you owe the penalty: {n}",
            "owes_skip": "{who} loses the turn", "owes_skip@me": "you lose the turn",
            "counts": "cards: {counts}", "scores": "scores: {scores}", "table_head": "by deal: {names}",
            "table_row": "  {number}) {scores}", "table_void": "  {number}) void", "payments": "to pay: {list}",
            "pays": "{who} → {to}",
        },
        "ru": {
            "cover": "{who} кроет {onto} картой {card}", "cover@me": "вы кроете {onto} картой {card}",
            "queen": "{who} кроет {onto} дамой {card} и заказывает {suit}",
            "queen@me": "вы кроете {onto} дамой {card} и заказываете {suit}",
            "name": "{who} заказывает {suit}", "name@me": "вы заказываете {suit}",
            "draw": "{who} берёт карту из колоды", "draw@me": "вы берёте карту из колоды",
            "skip": "{who}: пас", "skip@me": "вы пасуете",
            "lose_turn": "{who} пропускает ход", "lose_turn@me": "вы пропускаете ход",
            "take_penalty": "{who} берёт штраф: {n}", "take_penalty@me": "вы берёте штраф: {n}",
            "give": "{who} отдаёт {card}", "give@me": "вы отдаёте {card}", "give_hidden": "{who} отдаёт карту",
            "deal_action": "{who} сдаёт", "deal_action@me": "вы сдаёте",
            "deal": "сдача {number}: сдаёт {who}, открыта {card}", "deal@me": "сдача {number}: сдаёте вы, открыта {card}",
            "deal_mine": "сдача {number}: сдаёт {who}, открыта {card}; ваши карты: {cards}",
            "deal_mine@me": "сдача {number}: сдаёте вы, открыта {card}; ваши карты: {cards}",
            "drawn": "{who} берёт {n}: {cards}", "drawn@me": "вы берёте {n}: {cards}",
            "drawn_count": "{who} берёт {n} (в колоде {deck})", "drawn_count@me": "вы берёте {n} (в колоде {deck})", "forgiven": "{line}; прощено {n}: брать нечего",
            "reshuffle": "стол, кроме верхней карты, перетасован в новую колоду ({n})",
            "pull": "{who} тянет наугад карту у {giver}", "pull@to_me": "{who} тянет наугад карту у вас",
            "pull_mine": "{who} тянет наугад {card} у {giver}", "pull_mine@me": "вы тянете наугад {card} у {giver}",
            "pull_mine@to_me": "{who} тянет наугад {card} у вас",
            "deal_over": "сдача {number} окончена, вышел {who}; очки {points}; счёт {scores}",
            "deal_over@me": "сдача {number} окончена, вышли вы; очки {points}; счёт {scores}",
            "void": "сдача {number} не засчитана (T13: {reason}); подряд: {voids}",
            "repetition": "позиция повторяется", "quiet": "слишком долго никто не кроет", "units": "слишком много ходов",
            "deal_line": "сдача {number}, сдавал {who}", "deal_line@me": "сдача {number}, сдавали вы",
            "dealing": "следующую сдаёт {who}", "dealing@me": "следующую сдаёте вы",
            "top": "на столе: {card} (под ней {under})", "top_queen": "на столе: {card}, заказ {suit} (под ней {under})",
            "naming": "{who} заказывает масть дамы", "naming@me": "вы заказываете масть дамы",
            "six": "{who} кроет свою шестёрку", "six@me": "вы кроете свою шестёрку",
            "owes": "{who} должен взять штраф: {n}", "owes@me": "вы должны взять штраф: {n}",
            "owes_skip": "{who} пропускает ход", "owes_skip@me": "вы пропускаете ход",
            "counts": "карт: {counts}", "scores": "счёт: {scores}", "table_head": "по сдачам: {names}",
            "table_row": "  {number}) {scores}", "table_void": "  {number}) не засчитана", "payments": "платят: {list}",
            "pays": "{who} → {to}",
        },
    }
    ZONES = {**GameText.ZONES,
             "table": {"ru": "стол", "en": "table", "look": "fan"},
             "gathered": {"ru": "собранные карты", "en": "gathered cards", "look": "fan"}}
    ALIASES = {"c": "cover", "n": "name", "d": "draw", "s": "skip", "t": "take_penalty",
               "крою": "cover", "дама": "queen", "заказываю": "name", "беру": "draw", "пас": "skip",
               "штраф": "take_penalty", "сдаю": "deal", "отдаю": "give"}
    #: a deal is over, a deal is dealt
    REDRAW = frozenset({"deal_over", "deal", "void"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        table = (before or {}).get("table") or []
        onto = card(table[-1]) if table else "?"
        c, suit = card(action.get("card")), card(action.get("suit"))
        if kind in ("cover", "queen"):
            return w(say, kind, seat, who=who, card=c, onto=onto, suit=suit)
        if kind == "name":
            return w(say, "name", seat, who=who, suit=suit)
        if kind == "take_penalty":
            n = action.get("count")
            return w(say, "take_penalty" if n else "lose_turn", seat, who=who, n=n)
        if kind == "give":
            return w(say, "give" if action.get("card") else "give_hidden", seat, who=who, card=c)
        if kind == "deal":
            return w(say, "deal_action", seat, who=who)
        if kind in ("draw", "skip"):
            return w(say, kind, seat, who=who)
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        if kind == "deal":
            key = "deal_mine" if e.get("cards") else "deal"
            return w(say, key, e.get("dealer"), number=e.get("number"), who=say.who(e.get("dealer")), card=card(e.get("card")),
                     cards=cards(e.get("cards")))
        if kind == "draw":
            if e.get("cards"):
                line = w(say, "drawn", seat, who=say.who(seat), n=e.get("count"), cards=cards(e["cards"]))
            else:
                line = w(say, "drawn_count", seat, who=say.who(seat), n=e.get("count"), deck=e.get("deck"))
            return w(say, "forgiven", line=line, n=e["forgiven"]) if e.get("forgiven") else line
        if kind == "reshuffle":
            return w(say, "reshuffle", n=e.get("count"))
        if kind == "pull":
            key = "pull_mine" if e.get("cards") else "pull"
            return w(say, key, seat, e.get("from"), who=say.who(seat), giver=say.who(e.get("from")), card=card((e.get("cards") or [None])[0]))
        if kind == "deal_over":
            return w(say, "deal_over", e.get("winner"), number=e.get("number"), who=say.who(e.get("winner")),
                     points=" · ".join(_signed(p) for p in e.get("points") or []),
                     scores=" · ".join(str(s) for s in e.get("scores") or []))
        if kind == "void":
            reason = e.get("reason")
            return w(say, "void", number=e.get("number"), voids=e.get("voids"),
                     reason=w(say, reason) if reason in ("repetition", "quiet", "units") else reason)
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        lines = [w(say, "deal_line", view.get("dealer"), number=view.get("deal"), who=say.who(view.get("dealer")))]
        table = view.get("table") or []
        if view.get("dealing"):
            lines.append(w(say, "dealing", view.get("turn"), who=say.who(view.get("turn"))))
        elif table:
            key = "top_queen" if view.get("suit") else "top"
            lines.append(w(say, key, card=card(table[-1]), suit=card(view.get("suit")), under=len(table) - 1))
        turn = say.who(view.get("turn"))
        penalty = view.get("penalty")
        if view.get("naming"):
            lines.append(w(say, "naming", view.get("turn"), who=turn))
        elif view.get("six"):
            lines.append(w(say, "six", view.get("turn"), who=turn))
        if penalty:
            who = say.who(penalty.get("seat"))
            lines.append(w(say, "owes", penalty.get("seat"), who=who, n=penalty["count"]) if penalty.get("count")
                         else w(say, "owes_skip", penalty.get("seat"), who=who))
        hands = view.get("hands") or []
        lines.append(w(say, "counts", counts=", ".join(f"{say.who(s)} {n}" for s, n in enumerate(hands))))
        scores = view.get("scores") or []
        lines.append(w(say, "scores", scores=", ".join(f"{say.who(s)} {n}" for s, n in enumerate(scores))))
        history = view.get("history") or []
        if history:
            lines.append(w(say, "table_head", names=" · ".join(say.who(s) for s in range(len(scores)))))
            for d in history[-TABLE_ROWS:]:
                if "void" in d:
                    lines.append(w(say, "table_void", number=d.get("number")))
                else:
                    lines.append(w(say, "table_row", number=d.get("number"),
                                   scores=" · ".join(str(s) for s in d.get("scores") or [])))
        if view.get("payments"):
            pays = ", ".join(w(say, "pays", who=say.who(p.get("from")), to=say.who(p.get("to")))
                             for p in view["payments"])
            lines.append(w(say, "payments", list=pays))
        return lines

    def turn(self, view: dict) -> list[int]:
        return list(view.get("to_act") or [])

    def hand_order(self, view: dict, hand: list[str]) -> list[str]:
        # by suit, then by rank: what covers the top card shows at a glance (H3)
        return sorted(hand, key=lambda c: (_SUIT_ORDER.find(c[-1]), parse_rank(c[:-1])))

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        penalty = (view or {}).get("penalty")
        if kind == "take_penalty" and penalty and penalty.get("seat") == (view or {}).get("seat"):
            return penalty.get("count")  # what he owes (H4a)
        return None


TEXT = HundredText()
