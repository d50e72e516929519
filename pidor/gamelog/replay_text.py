"""How a replay says what happened: one short sentence per action or event, with its
cards, in Russian or English (``pidor replay``, and the timeline of ``--html``).

An action's sentence may name cards that lay in public before it (the open card a
``move`` carries, the card a ``beat`` covers): :class:`Phrases` takes the table's public
view from just before the action (``before``) for that, never a hidden card. Window
bookkeeping (``window``, ``window_closed``, passes) is ``verbose``: shown only on demand.
"""

from __future__ import annotations

from ..games import SPECS, known, rule, spec, text_of
from ..games.text import Say, card, cards, predicate

__all__ = ["Phrases", "VERBOSE", "card", "cards"]

#: Events that are window bookkeeping: shown only with ``--verbose``.
VERBOSE = frozenset({"window", "window_closed"})


# Sentences: {who} the actor, {to} another seat, {card}/{cards} cards, {n} a count.
_TEXT = {
    "en": {
        "seat": "seat {n}",
        "hand": "{who}'s hand: {cards}",
        "out": "{who} is out, place {n}", "payment_due": "{who} owe {to} a card each",
        "timeout": "{who}'s clock ran out ({reason})", "seat_state": "{who} is {state}",
        "game_start": "game {n} of {game} begins",
        "window": "window on {who}'s action", "window_closed": "window closed", "passes": "pass: {seats}",
        "call": "!! {who} calls «пидор!» on {to}", "court": "court: {caller} accuses {who}: {action} ({rules})",
        "vote_guilty": "{who} votes «пидор»", "vote_clean": "{who} votes «чист»",
        "abstain": "{who} abstains (away, T4)",
        "verdict": "⚖ verdict: {outcome}", "guilty": "guilty", "honest": "the action was honest",
        "tie": "a tie: the action is undone", "clean": "«чист»",
        "undo": "↶ undone: {action}", "mark": "● the mark goes to {who} ({reason})",
        "mark_gone": "● nobody has the mark: {who} is out of the game",
        "convicted": "convicted", "false_call": "a false call", "lost_vote": "the vote went against the caller",
        "loser": "lost the game", "left": "out of the game",
        "away": "away", "back": "back", "bot": "a bot plays for them", "turn": "the turn's time",
        "absent": "away", "stuck": "the game could not go on", "abandoned": "everybody left",
        "server_seed": "   server seed revealed: {seed}",
        "honest_only": "{who} must play honestly now (T6)",
        "human": "a person", "external": "a program",
        "board_trump": "trump {trump}", "board_deck": "deck {deck}", "board_mark": "mark: {mark}",
        "board_to_act": "to act: {to_act}",
        "zone_of": "{zone} of {who}",
        "step_prompt": "[{k}/{n}] Enter: next · n: next cheat/call/court · q: quit > ",
        "cheat": "✗ cheat", "auto": "(the honest bot plays for {who}: {reason}, T9)", "tick": "⏱ {n} s",
        "result_loser": "== result: {who} lost; order {order}", "result_draw": "== result: a draw; order {order}",
        "aborted": "== aborted: {reason}", "mark_end": "   the mark: {who}",
        "header": "{game} — {players} players, deck {deck}, engine {engine}, game {number} at the table",
        "committed": "   deal committed: SHA-256(server seed) = {commitment}",
        "explicit_deck": "   deal: an explicit deck (not committed)",
        "no_board": "   (the board cannot be shown: {note})",
    },
    "ru": {
        "seat": "место {n}",
        "hand": "рука {who}: {cards}",
        "out": "{who} выходит, место {n}", "payment_due": "{who} → {to}: по карте за метку",
        "timeout": "у {who} вышло время ({reason})", "seat_state": "{who}: {state}",
        "game_start": "партия {n}, {game}",
        "window": "окно на ход {who}", "window_closed": "окно закрыто", "passes": "пас: {seats}",
        "call": "!! {who} кричит «пидор!» на {to}", "court": "суд: {caller} обвиняет {who}: {action} ({rules})",
        "vote_guilty": "{who} голосует «пидор»", "vote_clean": "{who} голосует «чист»",
        "abstain": "{who} воздерживается (отошёл, T4)",
        "verdict": "⚖ приговор: {outcome}", "guilty": "виновен", "honest": "ход честный",
        "tie": "поровну: ход отменён", "clean": "«чист»",
        "undo": "↶ отменено: {action}", "mark": "● метка → {who} ({reason})",
        "mark_gone": "● метки ни у кого: {who} вышел из игры",
        "convicted": "осуждён", "false_call": "ложный «пидор!»", "lost_vote": "суд не поддержал",
        "loser": "проиграл", "left": "вышел из игры",
        "away": "отошёл", "back": "вернулся", "bot": "за него играет бот", "turn": "время хода",
        "absent": "отошёл", "stuck": "игре не сдвинуться", "abandoned": "все ушли",
        "server_seed": "   сид сервера раскрыт: {seed}",
        "honest_only": "{who}: теперь только честные ходы (T6)",
        "human": "человек", "external": "программа",
        "board_trump": "козырь {trump}", "board_deck": "в колоде {deck}", "board_mark": "метка: {mark}",
        "board_to_act": "ходит: {to_act}",
        "zone_of": "{zone} {who}",
        "step_prompt": "[{k}/{n}] Enter — дальше · n — к махлежу, «пидор!» или суду · q — выйти > ",
        "cheat": "✗ махлёж", "auto": "(за {who} ходит честный бот: {reason}, T9)", "tick": "⏱ {n} с",
        "result_loser": "== итог: проиграл {who}; порядок {order}", "result_draw": "== итог: ничья; порядок {order}",
        "aborted": "== прервана: {reason}", "mark_end": "   метка: {who}",
        "header": "{game} — игроков {players}, колода {deck}, движок {engine}, партия {number} за этим столом",
        "committed": "   раздача заверена: SHA-256(сид сервера) = {commitment}",
        "explicit_deck": "   раздача: заданная колода (не заверена)",
        "no_board": "   (доску не показать: {note})",
    },
}


class Phrases:
    """Sentences for one log: ``seats`` are the header's seat infos (for names)."""

    def __init__(self, seats: list[dict], lang: str = "ru", game: str | None = None) -> None:
        self.seats = seats
        self.lang = lang if lang in _TEXT else "ru"
        self.t = _TEXT[self.lang]
        self.text = text_of(game)  # the game's sentences (its folder's text.py)
        self.sayer = Say(self.lang, self.who)
        self.holder: int | None = None  # who has the mark (a mark event that takes it names him)

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
        return f"{rule_id}: {rule(rule_id).text(self.lang).rstrip('.')}" if known(rule_id) else str(rule_id)

    # ------------------------------------------------------------------ actions

    def action(self, seat: int, action: dict, before: dict | None, follow: list[dict]) -> str:
        """One action in a sentence (the game's text says it). ``before``: the public view
        just before it (for the cards it lands on); ``follow``: the events it caused."""
        return self.text.action(self.sayer, seat, action, before, follow)

    # ------------------------------------------------------------------ events

    def event(self, e: dict, full: bool, said: bool = False, acted: str | None = None) -> str | None:
        """A sentence for an event other than ``action`` (``None``: nothing to say).
        ``full``: the event is shown whole (private fields included); ``said``: it follows
        an action of the same record, whose sentence may have told it; ``acted``: the
        sentence of the action a call, court or undo is about, as it was said."""
        kind = e.get("type")
        who = self.who(e.get("seat"))
        if kind == "timeout":
            return self.say("timeout", who=who, reason=self.word(e.get("reason")))
        if kind == "seat":
            return self.say("seat_state", who=who, state=self.word(e.get("state")))
        if kind == "game_start":
            return self.say("game_start", n=e.get("number"), game=self.game_title(e.get("game")))
        if kind == "window":
            return self.say("window", who=who)
        if kind == "window_closed":
            return self.say("window_closed")
        if kind == "call":
            return self.say("call", who=self.who(e.get("caller")), to=self.who(e.get("accused")))
        if kind == "court":
            rules = "; ".join(self.rule(r.get("id")) for r in e.get("rules", []) if isinstance(r, dict))
            return self.say("court", caller=self.who(e.get("caller")), who=self.who(e.get("accused")),
                            action=self.predicate(e.get("accused"), e.get("action"), acted), rules=rules)
        if kind == "vote":
            return self.say("vote_guilty" if e.get("guilty") else "vote_clean", who=who)
        if kind == "abstain":
            return self.say("abstain", who=who)
        if kind == "verdict":
            outcome = self.word(e.get("outcome"))
            if "pidor" in e:
                outcome += f" ({e['pidor']}:{e['clean']})"
            return self.say("verdict", outcome=outcome)
        if kind == "undo":
            action = acted or self.action(e.get("seat"), e.get("action") or {}, None, None)
            return self.say("undo", action=action)
        if kind == "mark":
            holder, self.holder = self.holder, e.get("seat")
            if e.get("seat") is None:
                return self.say("mark_gone", who=self.who(holder))
            return self.say("mark", who=who, reason=self.word(e.get("reason")))
        if kind == "honest_only":  # (its end is not news)
            seats = e.get("seats") or []
            return self.say("honest_only", who=", ".join(self.who(s) for s in seats)) if seats else None
        if kind == "game_over" or kind == "give":
            return None  # the footer's result says it; the action said the payment
        if kind == "out":
            return self.say("out", who=who, n=e.get("place"))
        if kind == "payment_due":
            return self.say("payment_due", who=", ".join(self.who(s) for s in e.get("from", [])),
                            to=self.who(e.get("to")))
        text = self.text.event(self.sayer, e, said)
        if text is not None:
            return text or None
        fields = " ".join(f"{k}={v}" for k, v in e.items() if k != "type" and not k.startswith("_"))
        return f"{kind} {fields}".rstrip()

    def zone(self, zone: str) -> str:
        """A zone of the board by name (``hand.0``: ``рука bot-0``)."""
        name, _, seat = zone.partition(".")
        label = self.text.zone_name(self.lang, name)
        return self.say("zone_of", zone=label, who=self.who(int(seat))) if seat.isdigit() else label

    def word(self, key) -> str:
        """A reason, state or outcome the table names by an id, in words (the id if none)."""
        return self.t.get(key, str(key)) if isinstance(key, str) else str(key)

    def game_title(self, game) -> str:
        return spec(game).title_of(self.lang) if game in SPECS else str(game)

    def predicate(self, seat, action, acted: str | None) -> str:
        """An action's sentence without its subject (``кроет 7♠ картой 6♣``), for a line
        that has named the seat."""
        sentence = acted or self.action(seat, action if isinstance(action, dict) else {}, None, None)
        return predicate(sentence, self.who(seat))

    def cheat(self, violations: list[str]) -> str:
        return f"   {self.t['cheat']}: " + "; ".join(self.rule(v) for v in violations)

    def result(self, result: dict | None) -> str:
        if not result:
            return self.say("result_draw", order="—")
        order = ", ".join(self.who(s) for s in result.get("order", []))
        if result.get("draw"):
            return self.say("result_draw", order=order)
        return self.say("result_loser", who=self.who(result.get("loser")), order=order)
