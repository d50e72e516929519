"""How a replay says what happened: one short sentence per action or event, with its
cards, in Russian or English (``pidor replay``, and the timeline of ``--html``).

An action's sentence may name cards that lay in public before it (the open card a
``move`` carries, the card a ``beat`` covers): :class:`Phrases` takes the table's public
view from just before the action (``before``) for that, never a hidden card. Window
bookkeeping (``window``, ``window_closed``, passes) is ``verbose``: shown only on demand.
"""

from __future__ import annotations

import re

from ..cards import card_text, parse_card
from ..games import known, rule

__all__ = ["Phrases", "VERBOSE", "card"]

#: Events that are window bookkeeping: shown only with ``--verbose``.
VERBOSE = frozenset({"window", "window_closed"})

_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")
_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# Sentences: {who} the actor, {to} another seat, {card}/{cards} cards, {n} a count.
_TEXT = {
    "en": {
        "seat": "seat {n}",
        "draw": "{who} draws {card} (deck {n})", "draw_hidden": "{who} draws a card (deck {n})",
        "keep": "{who} keeps {card} on their stack", "lay": "{who} lays {card} on {to}'s {onto}",
        "move": "{who} moves {card} from their stack onto {to}'s {onto}",
        "lead": "{who} leads {card}", "beat": "{who} covers {onto} with {card}",
        "take_card": "{who} takes {card} from the table", "close": "{who} closes the trick",
        "give": "{who} gives {card} to {to}", "give_hidden": "{who} gives a card to {to}",
        "attack": "{who} attacks with {card}", "cover": "{who} covers {onto} with {card}",
        "transfer": "{who} transfers with {card}", "bito": "{who}: «бито»", "take": "{who}: «беру»",
        "deal_cards": "{who} draws {n} cards: {cards}", "deal_count": "{who} draws {n} cards",
        "deal_end": "the deal is over: trump {trump}, {who} leads; hands {hands}",
        "hand": "{who}'s hand: {cards}",
        "settlement": "settlement: {dues}", "due": "{to} is owed {n}",
        "payment": "{who} owes {to} {n} more", "payment_due": "{who} owe {to} a card each (D12)",
        "trick": "a trick of {n} cards; {who} leads", "trick_closed": "{who} closes the trick: {cards}",
        "trick_empty": "{who} empties the table: the trick is over", "discard": "{n} cards to the discard",
        "prikup": "{who} picks up the prikup ({n})", "prikup_cards": "{who} picks up the prikup: {cards}",
        "pidorstvo": "{who}'s «пидорство»: {n}", "out": "{who} is out, place {n}",
        "bout": "bout: {who} attacks {to} (at most {n})", "bout_take": "{to} takes {n} cards from the table",
        "bout_bito": "«бито»: {n} cards to the discard", "new_defender": "now {to} defends (at most {n})",
        "skip": "{who} is passed over", "bito_timeout": "silence counts as «бито»",
        "timeout": "{who}'s clock ran out ({reason})", "seat_state": "{who} is {state}",
        "game_start": "game {n} of {game} begins",
        "window": "window on {who}'s action", "window_closed": "window closed", "passes": "pass: {seats}",
        "call": "!! {who} calls «пидор!» on {to}", "court": "court on {who}: {rules}",
        "vote_guilty": "{who} votes «пидор»", "vote_clean": "{who} votes «чист»",
        "abstain": "{who} abstains (away, T4)",
        "verdict": "⚖ verdict: {outcome}", "guilty": "guilty", "honest": "the action was honest",
        "tie": "a tie: the action is undone", "clean": "«чист»",
        "undo": "↶ undone: {who}'s {action}", "mark": "● the mark goes to {who} ({reason})", "nobody": "nobody",
        "cheat": "✗ cheat", "auto": "(the honest bot plays for {who}: {reason}, T9)", "tick": "⏱ {n} s",
        "result_loser": "== result: {who} lost; order {order}", "result_draw": "== result: a draw; order {order}",
        "aborted": "== aborted: {reason}", "mark_end": "   mark: {who}",
        "header": "{game} — {players} players, deck {deck}, engine {engine}, game {number} at the table",
        "committed": "   deal committed: SHA-256(server seed) = {commitment}",
        "explicit_deck": "   deal: an explicit deck (not committed)",
        "no_board": "   (the board cannot be shown: {note})",
    },
    "ru": {
        "seat": "место {n}",
        "draw": "{who} тянет {card} (в колоде {n})", "draw_hidden": "{who} тянет карту (в колоде {n})",
        "keep": "{who} оставляет {card} себе", "lay": "{who} кладёт {card} на {onto} ({to})",
        "move": "{who} перекладывает {card} со своей стопки на {onto} ({to})",
        "lead": "{who} ходит {card}", "beat": "{who} кроет {onto} картой {card}",
        "take_card": "{who} берёт со стола {card}", "close": "{who} закрывает взятку",
        "give": "{who} отдаёт {card} → {to}", "give_hidden": "{who} отдаёт карту → {to}",
        "attack": "{who} заходит с {card}", "cover": "{who} кроет {onto} картой {card}",
        "transfer": "{who} переводит картой {card}", "bito": "{who}: «бито»", "take": "{who}: «беру»",
        "deal_cards": "{who} добирает {n}: {cards}", "deal_count": "{who} добирает {n}",
        "deal_end": "раздача окончена: козырь {trump}, ходит {who}; на руках {hands}",
        "hand": "рука {who}: {cards}",
        "settlement": "расчёт: {dues}", "due": "{to} получает {n}",
        "payment": "{who} должен {to} ещё {n}", "payment_due": "{who} платят {to} по карте (D12)",
        "trick": "взятка из {n} карт; ходит {who}", "trick_closed": "{who} закрывает взятку: {cards}",
        "trick_empty": "{who} очистил стол: взятка окончена", "discard": "в отбой: {n}",
        "prikup": "{who} берёт прикуп ({n})", "prikup_cards": "{who} берёт прикуп: {cards}",
        "pidorstvo": "пидорство {who}: {n}", "out": "{who} выходит, место {n}",
        "bout": "заход: {who} под {to} (не больше {n})", "bout_take": "{to} забирает со стола: {n}",
        "bout_bito": "«бито»: в отбой {n}", "new_defender": "теперь отбивается {to} (не больше {n})",
        "skip": "{who} пропускает ход", "bito_timeout": "тишина — «бито»",
        "timeout": "у {who} вышло время ({reason})", "seat_state": "{who}: {state}",
        "game_start": "партия {n}, {game}",
        "window": "окно на ход {who}", "window_closed": "окно закрыто", "passes": "пас: {seats}",
        "call": "!! {who} кричит «пидор!» на {to}", "court": "суд над {who}: {rules}",
        "vote_guilty": "{who} голосует «пидор»", "vote_clean": "{who} голосует «чист»",
        "abstain": "{who} воздерживается (отошёл, T4)",
        "verdict": "⚖ приговор: {outcome}", "guilty": "виновен", "honest": "ход честный",
        "tie": "поровну: ход отменён", "clean": "«чист»",
        "undo": "↶ отменено: {who}, {action}", "mark": "● метка → {who} ({reason})", "nobody": "никому",
        "cheat": "✗ махлёж", "auto": "(за {who} ходит честный бот: {reason}, T9)", "tick": "⏱ {n} с",
        "result_loser": "== итог: проиграл {who}; порядок {order}", "result_draw": "== итог: ничья; порядок {order}",
        "aborted": "== прервана: {reason}", "mark_end": "   метка: {who}",
        "header": "{game} — игроков {players}, колода {deck}, движок {engine}, партия {number} за этим столом",
        "committed": "   раздача заверена: SHA-256(сид сервера) = {commitment}",
        "explicit_deck": "   раздача: заданная колода (не заверена)",
        "no_board": "   (доску не показать: {note})",
    },
}


def card(value) -> str:
    """A card code (``Th``) as people write it (``10♥``); anything else as it is."""
    if isinstance(value, str) and _CODE.match(value):
        return card_text(parse_card(value))
    return "?" if value is None else str(value)


def cards(values) -> str:
    return " ".join(card(v) for v in values or []) or "—"


class Phrases:
    """Sentences for one log: ``seats`` are the header's seat infos (for names)."""

    def __init__(self, seats: list[dict], lang: str = "ru") -> None:
        self.seats = seats
        self.lang = lang if lang in _TEXT else "ru"
        self.t = _TEXT[self.lang]

    def say(self, key: str, **fields) -> str:
        return self.t[key].format(**fields)

    def who(self, seat) -> str:
        """A seat as people call it: its player's name, ``bot-N``, or ``seat N``."""
        if not isinstance(seat, int):
            return str(seat)
        info = self.seats[seat] if 0 <= seat < len(self.seats) else {}
        if info.get("name"):
            return f"{info['name']} ({seat})"
        return f"bot-{seat}" if info.get("kind") == "bot" else self.say("seat", n=seat)

    def rule(self, rule_id: str) -> str:
        return f"{rule_id}: {rule(rule_id).text(self.lang)}" if known(rule_id) else rule_id

    # ------------------------------------------------------------------ actions

    def action(self, seat: int, action: dict, before: dict | None, follow: list[dict]) -> str:
        """One action in a sentence. ``before``: the public view just before it (for
        the cards it lands on); ``follow``: the events it caused (a ``draw`` names the
        card drawn)."""
        who, kind = self.who(seat), action.get("type")
        before = before or {}
        c = card(action.get("card"))
        if kind == "draw" and "card" not in action:  # «пидор»: from the deck
            drawn = next((e for e in follow if e.get("type") == "draw"), {})
            if drawn.get("card"):
                return self.say("draw", who=who, card=card(drawn["card"]), n=drawn.get("deck"))
            return self.say("draw_hidden", who=who, n=drawn.get("deck"))
        if kind in ("keep", "lay", "move"):
            stacks = before.get("stacks") or []
            held = before.get("held")
            to = action.get("to", seat)
            moved = held if kind != "move" else _top(stacks, seat)
            return self.say(kind, who=who, card=card(moved), to=self.who(to), onto=card(_top(stacks, to)))
        if kind in ("beat", "cover"):
            return self.say(kind, who=who, card=c, onto=card(_on_table(before, action.get("target"))))
        if kind == "take" and "index" in action:
            return self.say("take_card", who=who, card=card(_on_table(before, action["index"])))
        if kind == "give":
            to = next((e.get("to") for e in follow if e.get("type") == "give"), None)
            key = "give" if action.get("card") else "give_hidden"
            return self.say(key, who=who, card=c, to=self.who(to))
        if kind in self.t:
            return self.say(kind, who=who, card=c)
        return f"{who}: {kind} {c if action.get('card') else ''}".rstrip()

    # ------------------------------------------------------------------ events

    def event(self, e: dict, full: bool) -> str | None:
        """A sentence for an event other than ``action`` (``None``: nothing to say).
        ``full``: the event is shown whole (private fields included)."""
        kind = e.get("type")
        who = self.who(e.get("seat"))
        if kind == "draw" and "count" not in e:
            return None  # «пидор»: said by the action
        if kind == "draw":  # durak: refilling hands
            if e.get("cards"):
                return self.say("deal_cards", who=who, n=e.get("count"), cards=cards(e["cards"]))
            return self.say("deal_count", who=who, n=e.get("count"))
        if kind == "deal_end":
            return self.say("deal_end", trump=_SUITS.get(e.get("trump"), "—"), who=self.who(e.get("first")),
                            hands="/".join(str(n) for n in e.get("hands", [])))
        if kind == "settlement":
            dues = ", ".join(self.say("due", to=self.who(d.get("to")), n=d.get("count")) for d in e.get("dues", []))
            return self.say("settlement", dues=dues or "—")
        if kind == "payment":
            return self.say("payment", who=self.who(e.get("from")), to=self.who(e.get("to")), n=e.get("left"))
        if kind == "payment_due":
            return self.say("payment_due", who=", ".join(self.who(s) for s in e.get("from", [])),
                            to=self.who(e.get("to")))
        if kind == "give":
            return None  # said by the action
        if kind == "trick":
            return self.say("trick", who=who, n=e.get("size"))
        if kind == "trick_closed":
            if e.get("empty"):
                return self.say("trick_empty", who=who)
            return self.say("trick_closed", who=who, cards=cards(e.get("cards")))
        if kind == "discard":
            return self.say("discard", n=e.get("count"))
        if kind == "prikup":
            if e.get("cards"):
                return self.say("prikup_cards", who=who, cards=cards(e["cards"]))
            return self.say("prikup", who=who, n=e.get("count"))
        if kind in ("pidorstvo",):
            return self.say("pidorstvo", who=who, n=e.get("count"))
        if kind == "out":
            return self.say("out", who=who, n=e.get("place"))
        if kind == "bout":
            return self.say("bout", who=self.who(e.get("attacker")), to=self.who(e.get("defender")), n=e.get("limit"))
        if kind == "bout_over":
            key = "bout_take" if e.get("outcome") == "take" else "bout_bito"
            return self.say(key, to=self.who(e.get("defender")), n=e.get("count"))
        if kind == "transfer":
            return self.say("new_defender", to=self.who(e.get("defender")), n=e.get("limit"))
        if kind == "skip":
            return self.say("skip", who=who)
        if kind == "bito_timeout":
            return self.say("bito_timeout")
        if kind == "timeout":
            return self.say("timeout", who=who, reason=e.get("reason"))
        if kind == "seat":
            return self.say("seat_state", who=who, state=e.get("state"))
        if kind == "game_start":
            return self.say("game_start", n=e.get("number"), game=e.get("game"))
        if kind == "window":
            return self.say("window", who=who)
        if kind == "window_closed":
            return self.say("window_closed")
        if kind == "call":
            return self.say("call", who=self.who(e.get("caller")), to=self.who(e.get("accused")))
        if kind == "court":
            rules = "; ".join(self.rule(r["id"]) for r in e.get("rules", []))
            return self.say("court", who=self.who(e.get("accused")), rules=rules)
        if kind == "vote":
            return self.say("vote_guilty" if e.get("guilty") else "vote_clean", who=who)
        if kind == "abstain":
            return self.say("abstain", who=who)
        if kind == "verdict":
            outcome = self.t.get(e.get("outcome"), e.get("outcome"))
            if "pidor" in e:
                outcome += f" ({e['pidor']}:{e['clean']})"
            return self.say("verdict", outcome=outcome)
        if kind == "undo":
            return self.say("undo", who=who, action=self.plain_action(e.get("action")))
        if kind == "mark":
            target = self.t["nobody"] if e.get("seat") is None else who
            return self.say("mark", who=target, reason=e.get("reason"))
        if kind == "game_over":
            return None  # the footer's result says it
        fields = " ".join(f"{k}={v}" for k, v in e.items() if k != "type" and not k.startswith("_"))
        return f"{kind} {fields}".rstrip()

    def plain_action(self, action) -> str:
        if not isinstance(action, dict):
            return str(action)
        parts = [str(action.get("type"))]
        parts += [card(v) if k == "card" else f"→ {self.who(v)}" if k == "to" else f"#{v}"
                  for k, v in action.items() if k != "type"]
        return " ".join(parts)

    def cheat(self, violations: list[str]) -> str:
        return f"   {self.t['cheat']}: " + "; ".join(self.rule(v) for v in violations)

    def result(self, result: dict | None) -> str:
        if not result:
            return self.say("result_draw", order="—")
        order = ", ".join(self.who(s) for s in result.get("order", []))
        if result.get("draw"):
            return self.say("result_draw", order=order)
        return self.say("result_loser", who=self.who(result.get("loser")), order=order)


def _top(stacks: list, seat) -> str | None:
    if isinstance(seat, int) and 0 <= seat < len(stacks):
        shown = stacks[seat].get("cards") or []
        return shown[-1] if shown else None
    return None


def _on_table(view: dict, index) -> str | None:
    """The card at ``index`` on the table: «пидор»'s table is a row of cards, durak's a
    row of [attack, cover] pairs (the attack is covered)."""
    table = view.get("table") or []
    if not isinstance(index, int) or not 0 <= index < len(table):
        return None
    slot = table[index]
    return slot[0] if isinstance(slot, list) else slot
