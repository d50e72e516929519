"""How «пьяница» reads (:class:`pidor.games.text.GameText`): its actions, events and board."""

from __future__ import annotations

from typing import Any

from ..text import GameText, Say, card, cards

__all__ = ["TEXT"]


def _deck(view: dict, seat: Any) -> list:
    decks = view.get("decks") or []
    return decks[seat] if isinstance(seat, int) and 0 <= seat < len(decks) and isinstance(decks[seat], list) else []


def _run(deck: list) -> list:
    """The cards in a row at the start of ``deck`` whose faces everybody knows."""
    out = []
    for c in deck:
        if c is None:
            break
        out.append(c)
    return out


#: The most known cards the board names at the top and at the bottom of a deck (the view has them all).
SHOWN = 8


class DrunkardText(GameText):
    WORDS = {
        "en": {
            "flip": "{who} flips the top card", "flip@me": "you flip the top card",
            "flip_card": "{who} flips {card} ({n} left)", "flip_card@me": "you flip {card} ({n} left)",
            "pull": "{who} pulls card no. {k} from the top and flips it",
            "pull@me": "you pull card no. {k} from the top and flip it",
            "pull_card": "{who} pulls card no. {k} from the top: {card} ({n} left)",
            "pull_card@me": "you pull card no. {k} from the top: {card} ({n} left)",
            "draw": "{who} draws a card from {to}'s deck", "draw@me": "you draw a card from {to}'s deck",
            "draw@to_me": "{who} draws a card from your deck",
            "draw_card": "{who} draws {card} from {to}'s deck (its no. {k})",
            "draw_card@me": "you draw {card} from {to}'s deck (its no. {k})",
            "draw_card@to_me": "{who} draws {card} from your deck (its no. {k})",
            "collect": "{who} collects {cards} under their deck", "collect@me": "you collect {cards} under your deck",
            "collect_side": "{who} collects {cards} to the side", "collect_side@me": "you collect {cards} to the side",
            "top": "{who} puts {cards} on top of their deck", "top@me": "you put {cards} on top of your deck",
            "flipped": "{who}: {card} ({n} left)", "flipped_idle": "{who}: {card}, it does not count ({n} left)",
            "drawn": "{who} draws {card} from {to}'s deck (its no. {k})",
            "drawn@me": "you draw {card} from {to}'s deck (its no. {k})",
            "drawn@to_me": "{who} draws {card} from your deck (its no. {k})",
            "won": "the battle is {who}'s", "won@me": "the battle is yours", "dispute": "a dispute!",
            "first": "{who} flips first (drawn by lot)", "first@me": "you flip first (drawn by lot)",
            "paid": "{who} puts their top card under {to}'s deck (T14)",
            "paid@me": "you put your top card under {to}'s deck (T14)",
            "paid@to_me": "{who} puts their top card under your deck (T14)",
            "reshuffle": "{who} shuffles the {n} cards put aside into their deck",
            "reshuffle@me": "you shuffle the {n} cards put aside into your deck",
            "four_aces": "{who} holds all four aces", "four_aces@me": "you hold all four aces",
            "phase_flip": "flipping", "phase_collect": "collecting", "phase_end": "battle over", "phase_over": "over",
            "battle": "battle {n}",
            "on_table": "on the table: {cards}", "table_empty": "the table is empty",
            "laid": "{who} {cards}", "idle": "({card})",
            "decks": "decks: {decks}", "deck": "{who} {n}", "deck_known": "{who} {n} ({known})",
            "top_known": "on top {cards}", "bottom_known": "at the bottom {cards}",
            "sides": "put aside: {sides}",
        },
        "ru": {
            "flip": "{who} открывает верхнюю карту", "flip@me": "вы открываете верхнюю карту",
            "flip_card": "{who} открывает {card} (в колоде {n})", "flip_card@me": "вы открываете {card} (в колоде {n})",
            "pull": "{who} вытаскивает {k}-ю карту сверху и открывает её",
            "pull@me": "вы вытаскиваете {k}-ю карту сверху и открываете её",
            "pull_card": "{who} вытаскивает {k}-ю карту сверху: {card} (в колоде {n})",
            "pull_card@me": "вы вытаскиваете {k}-ю карту сверху: {card} (в колоде {n})",
            "draw": "{who} тянет карту из колоды {to}", "draw@me": "вы тянете карту из колоды {to}",
            "draw@to_me": "{who} тянет карту из вашей колоды",
            "draw_card": "{who} тянет {card} из колоды {to} ({k}-ю сверху)",
            "draw_card@me": "вы тянете {card} из колоды {to} ({k}-ю сверху)",
            "draw_card@to_me": "{who} тянет {card} из вашей колоды ({k}-ю сверху)",
            "collect": "{who} забирает {cards} под колоду", "collect@me": "вы забираете {cards} под колоду",
            "collect_side": "{who} забирает {cards} в сторону", "collect_side@me": "вы забираете {cards} в сторону",
            "top": "{who} кладёт {cards} на верх колоды", "top@me": "вы кладёте {cards} на верх колоды",
            "flipped": "{who}: {card} (в колоде {n})", "flipped_idle": "{who}: {card}, не в счёт (в колоде {n})",
            "drawn": "{who} тянет {card} из колоды {to} ({k}-ю сверху)",
            "drawn@me": "вы тянете {card} из колоды {to} ({k}-ю сверху)",
            "drawn@to_me": "{who} тянет {card} из вашей колоды ({k}-ю сверху)",
            "won": "бой за {who}", "won@me": "бой ваш", "dispute": "спорная!",
            "first": "первым открывает {who} (по жребию)", "first@me": "первыми открываете вы (по жребию)",
            "paid": "{who} отдаёт верхнюю карту под колоду {to} (T14)",
            "paid@me": "вы отдаёте верхнюю карту под колоду {to} (T14)",
            "paid@to_me": "{who} отдаёт верхнюю карту под вашу колоду (T14)",
            "reshuffle": "{who} тасует отложенные карты ({n}) в колоду",
            "reshuffle@me": "вы тасуете отложенные карты ({n}) в колоду",
            "four_aces": "у {who} все четыре туза", "four_aces@me": "у вас все четыре туза",
            "phase_flip": "открывают", "phase_collect": "забирают", "phase_end": "бой окончен", "phase_over": "конец",
            "battle": "бой {n}",
            "on_table": "на столе: {cards}", "table_empty": "стол пуст",
            "laid": "{who} {cards}", "idle": "({card})",
            "decks": "колоды: {decks}", "deck": "{who} {n}", "deck_known": "{who} {n} ({known})",
            "top_known": "сверху {cards}", "bottom_known": "снизу {cards}",
            "sides": "отложено: {sides}",
        },
    }
    ZONES = {**GameText.ZONES,
             "table": {"ru": "стол", "en": "table", "look": "pairs"},
             "side": {"ru": "отложено", "en": "put aside", "look": "fan"}}
    ALIASES = {"f": "flip", "c": "collect", "t": "top",
               "открываю": "flip", "забираю": "collect", "наверх": "top"}
    #: a battle begins
    REDRAW = frozenset({"battle"})

    def action(self, say: Say, seat: int, action: dict, before: dict | None, follow: list[dict] | None) -> str:
        w, who, kind = self.word, say.who(seat), action.get("type")
        before = before or {}
        if kind == "flip":
            shown = next((e for e in follow or () if e.get("type") == "flipped"), None)
            other = 1 - seat if seat in (0, 1) else None
            fields = {"who": who, "k": _number(action.get("index")), "to": say.who(other)}
            if shown is not None:
                fields.update(card=card(shown.get("card")), n=shown.get("deck"))
                if "from" in shown:
                    return w(say, "draw_card", seat, other, **{**fields, "k": _number(shown.get("index"))})
            key = "flip" if action.get("index") == 0 else "pull"
            if before and not _deck(before, seat) and before.get("decks"):
                key = "draw"  # W3: an empty deck draws from the opponent's
            return w(say, key + ("_card" if shown is not None and key != "draw" else ""), seat, other, **fields)
        if kind in ("collect", "top"):
            key = "collect_side" if kind == "collect" and "sides" in before else kind
            return w(say, key, seat, who=who, cards=cards(action.get("cards")))
        return super().action(say, seat, action, before, follow)

    def event(self, say: Say, e: dict, said: bool = False) -> str | None:
        w, kind, seat = self.word, e.get("type"), e.get("seat")
        who = say.who(seat)
        if kind == "flipped":
            outcome = ([w(say, "won", e["winner"], who=say.who(e["winner"]))] if e.get("winner") is not None
                       else [w(say, "dispute")] if e.get("dispute") else [])
            if said:  # (a replay: the action's sentence named the card)
                return " — ".join(outcome)
            if "from" in e:
                line = w(say, "drawn", seat, e.get("from"), who=who, card=card(e.get("card")), to=say.who(e.get("from")),
                         k=_number(e.get("index")))
            else:
                line = w(say, "flipped" if e.get("counts", True) else "flipped_idle", who=who, card=card(e.get("card")),
                         n=e.get("deck"))
            return " — ".join([line, *outcome])
        if kind == "battle":
            return w(say, "first", e["first"], who=say.who(e["first"])) if "first" in e else ""
        if kind == "paid":
            return w(say, "paid", e.get("from"), e.get("to"), who=say.who(e.get("from")), to=say.who(e.get("to")))
        if kind == "reshuffle":
            return w(say, "reshuffle", seat, who=who, n=e.get("count"))
        if kind == "four_aces":
            return w(say, "four_aces", seat, who=who)
        return None

    def board(self, say: Say, view: dict) -> list[str]:
        w = self.word
        lines = [w(say, "battle", n=view.get("battle"))]
        table = view.get("table") or []
        laid = []
        for s, put in enumerate(table):
            if put:
                shown = [card(c) if i % 2 == 0 or not view.get("face_down_dispute") else w(say, "idle", card=card(c))
                         for i, c in enumerate(put)]
                laid.append(w(say, "laid", who=say.who(s), cards=" ".join(shown)))
        if laid:
            line = w(say, "on_table", cards=" · ".join(laid))
            if view.get("winner") is not None:
                line += " — " + w(say, "won", view["winner"], who=say.who(view["winner"]))
            elif view.get("dispute"):
                line += " — " + w(say, "dispute")
            lines.append(line)
        else:
            lines.append(w(say, "table_empty"))
        decks = []
        for s, deck in enumerate(view.get("decks") or []):
            deck = deck if isinstance(deck, list) else []
            known = []
            top, bottom = _run(deck), _run(deck[::-1])[::-1]
            if top and len(top) < len(deck):
                more = " …" if len(top) > SHOWN else ""
                known.append(w(say, "top_known", cards=cards(top[:SHOWN]) + more))
            if bottom:
                more = "… " if len(bottom) > SHOWN else ""
                known.append(w(say, "bottom_known", cards=more + cards(bottom[-SHOWN:])))
            decks.append(w(say, "deck_known" if known else "deck", who=say.who(s), n=len(deck), known=", ".join(known)))
        lines.append(w(say, "decks", decks=", ".join(decks)))
        if view.get("sides") is not None:
            sides = ", ".join(w(say, "deck", who=say.who(s), n=len(p)) for s, p in enumerate(view["sides"]))
            lines.append(w(say, "sides", sides=sides))
        return lines

    def groups(self, zones: dict[str, list[str]], view: dict) -> dict[str, list[list[str]]]:
        # the battle's flips side by side, one seat's against the other's (W2)
        laid = view.get("table") or []
        if len(laid) != 2 or not all(isinstance(t, list) for t in laid):
            return {}
        cards_ = zones.get("table") or []
        if len(cards_) != len(laid[0]) + len(laid[1]):
            return {}
        mine, theirs = cards_[:len(laid[0])], cards_[len(laid[0]):]
        return {"table": [[*mine[i:i + 1], *theirs[i:i + 1]] for i in range(max(len(mine), len(theirs)))]}

    def turn(self, view: dict) -> list[int]:
        winner = view.get("winner")
        return [winner] if isinstance(winner, int) else list(view.get("to_act") or [])

    def default_index(self, kind: str, name: str, view: dict | None) -> int | None:
        return 0 if kind == "flip" else None  # the top card (W2)


def _number(index: Any) -> Any:
    """An index from the top as people count: the top card is the 1st."""
    return index + 1 if isinstance(index, int) else "?"


TEXT = DrunkardText()
