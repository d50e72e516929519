"""What ``pidor play`` prints: a seat's view, events, options, in Russian or English.

Pure functions of decoded protocol data (protocol/PROTOCOL.md §5–§7); cards are shown as
``10♥`` (``pidor.cards.card_text``). ``seat_name(seat)`` is passed in by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import card_text, parse_card
from ..engine.rules import RULES

__all__ = [
    "TEXTS", "action_text", "card", "cards", "event_lines", "option_command", "rule_line", "say",
    "view_lines",
]

Name = Callable[[int | None], str]

TEXTS = {
    "en": {
        "you": "you",
        "hand": "your hand: {cards}",
        "welcome": "player {player} at {server}",
        "token": "your token (use --token to come back): {token}",
        "back": "back at table {table}",
        "created": "table {table}: {game}, {players} seats; you are seat {seat}",
        "joined": "joined table {table} at seat {seat}",
        "waiting": "waiting for the host to start ({free} free seat(s))",
        "your_turn": "your turn{clock}:",
        "no_options": "no honest action right now (you may still act: махлёж is allowed)",
        "pick": "type a command, or the number of an option; `help` for all commands",
        "window_you": "  ⚑ call window{clock}: `call` («пидор!») or `pass`",
        "court_vote": "  ⚖ you vote: `vote pidor` or `vote clean`{clock}",
        "results_host": "type `start` for the next game, or `quit`",
        "results_wait": "waiting for the host to start the next game (`quit` to leave)",
        "error": "✗ {code}: {message}",
        "closed": "the table closed: {reason}",
        "lost": "connection lost: {why}",
        "reconnected": "reconnected",
        "bye": "bye",
        "restored": "(the state after the undo:)",
        "hint": "hint [{id}]: {text}",
        "hints_off": "hints off",
        "unknown": "unknown command {word!r}; `help` lists them",
        "usage": "usage: {usage}",
        "not_this_game": "{word!r} is not an action of {game}",
        "bad_card": "{text!r} is not a card (write it like Th, 10h or 10♥)",
        "bad_number": "{text!r} is not a number",
        "bad_seat": "there is no seat {seat} (seats are 0..{last})",
        "no_option": "there is no option {n} now",
        "no_game": "no game yet: wait for the table to start",
        "which": "say which card: {usage}",
        "bad_vote": "vote `pidor` (guilty) or `clean` (not guilty)",
        "sent": "",
    },
    "ru": {
        "you": "вы",
        "hand": "ваша рука: {cards}",
        "welcome": "игрок {player} на {server}",
        "token": "ваш токен (--token, чтобы вернуться): {token}",
        "back": "снова за столом {table}",
        "created": "стол {table}: {game}, мест {players}; ваше место {seat}",
        "joined": "вы за столом {table}, место {seat}",
        "waiting": "ждём, пока хозяин стола начнёт (свободных мест: {free})",
        "your_turn": "ваш ход{clock}:",
        "no_options": "честного хода сейчас нет (ходить всё равно можно: махлёж разрешён)",
        "pick": "введите команду или номер варианта; `help` — все команды",
        "window_you": "  ⚑ окно крика{clock}: `call` («пидор!») или `pass`",
        "court_vote": "  ⚖ ваш голос: `vote pidor` или `vote clean`{clock}",
        "results_host": "`start` — следующая партия, `quit` — выйти",
        "results_wait": "ждём, пока хозяин начнёт следующую партию (`quit` — выйти)",
        "error": "✗ {code}: {message}",
        "closed": "стол закрыт: {reason}",
        "lost": "связь потеряна: {why}",
        "reconnected": "связь восстановлена",
        "bye": "пока",
        "restored": "(после отмены хода:)",
        "hint": "подсказка [{id}]: {text}",
        "hints_off": "подсказки выключены",
        "unknown": "нет такой команды: {word!r}; список — `help`",
        "usage": "так: {usage}",
        "not_this_game": "{word!r} — не действие игры {game}",
        "bad_card": "{text!r} — не карта (пишите Th, 10h или 10♥)",
        "bad_number": "{text!r} — не число",
        "bad_seat": "нет места {seat} (места 0..{last})",
        "no_option": "сейчас нет варианта {n}",
        "no_game": "партия ещё не идёт",
        "which": "какую карту? {usage}",
        "bad_vote": "голос: `pidor` (виновен) или `clean` (чист)",
        "sent": "",
    },
}

_EVENTS = {
    "en": {
        "game_start": "── game {number}: {game}, {players} players ──",
        "call": "{caller}: «пидор!» on {accused} ({action})",
        "court": "⚖ court: {caller} accuses {accused} of {action}; voters: {voters}",
        "vote": "{seat} votes {vote}",
        "verdict": "verdict: {outcome}{counts}",
        "undo": "undone: {seat}'s {action}",
        "mark": "the mark goes to {seat} ({reason})",
        "mark_none": "nobody holds the mark ({reason})",
        "game_over": "game over: {loser}; finished in order: {order}",
        "draw_game": "a draw",
        "loser": "the loser is {seat}",
        "timeout": "{seat} ran out of time ({reason}): the server plays for them",
        "seat": "{seat}: {state}",
        "results": "── results of game {number}: mark on {mark} ──",
        "pdraw": "{seat} draws {card} (deck {deck})",
        "pidorstvo": "{seat}: pidorstvo #{count}",
        "deal_end": "deal over: trump {trump}; {first} leads; hands {hands}; prikups {prikups}",
        "hand": "your hand: {cards}",
        "settlement": "settlement: {dues}",
        "payment": "{from_} pays {to} ({left} to give)",
        "give": "{from_} gives {to} {card}",
        "skip": "{seat} has no card to give",
        "trick": "trick: {seat} leads; it closes at {size} cards",
        "trick_closed": "trick closed by {seat}: {cards}",
        "discard": "{count} card(s) to the discard",
        "prikup": "{seat} takes the prikup ({count}){cards}",
        "out": "{seat} is out (place {place})",
        "bout": "bout: {attacker} attacks {defender} (limit {limit})",
        "transfer": "transferred: {defender} defends now (limit {limit})",
        "bito_timeout": "silence counts as «бито» for {seats}",
        "bout_over": "bout over: {outcome} ({defender}, {count} cards)",
        "ddraw": "{seat} draws {count} (deck {deck}){cards}",
        "payment_due": "{from_} owe(s) {to} a card",
    },
    "ru": {
        "game_start": "── партия {number}: {game}, игроков {players} ──",
        "call": "{caller}: «пидор!» — на {accused} ({action})",
        "court": "⚖ суд: {caller} обвиняет {accused}: {action}; голосуют: {voters}",
        "vote": "{seat}: {vote}",
        "verdict": "приговор: {outcome}{counts}",
        "undo": "отменён ход {seat}: {action}",
        "mark": "метка у {seat} ({reason})",
        "mark_none": "метки ни у кого ({reason})",
        "game_over": "партия окончена: {loser}; вышли по порядку: {order}",
        "draw_game": "ничья",
        "loser": "пидор — {seat}",
        "timeout": "{seat}: время вышло ({reason}), за него ходит сервер",
        "seat": "{seat}: {state}",
        "results": "── итоги партии {number}: метка у {mark} ──",
        "pdraw": "{seat} тянет {card} (в колоде {deck})",
        "pidorstvo": "{seat}: пидорство №{count}",
        "deal_end": "раздача окончена: козырь {trump}; ходит {first}; руки {hands}; прикупы {prikups}",
        "hand": "ваша рука: {cards}",
        "settlement": "расплата: {dues}",
        "payment": "{from_} платит {to} (осталось {left})",
        "give": "{from_} отдаёт {to} {card}",
        "skip": "{seat}: нечем платить",
        "trick": "взятка: заходит {seat}; закроется на {size} картах",
        "trick_closed": "взятку закрыл {seat}: {cards}",
        "discard": "в отбой {count}",
        "prikup": "{seat} берёт прикуп ({count}){cards}",
        "out": "{seat} вышел (место {place})",
        "bout": "отбой: {attacker} ходит под {defender} (не больше {limit})",
        "transfer": "переведено: отбивается {defender} (не больше {limit})",
        "bito_timeout": "молчание — «бито» за {seats}",
        "bout_over": "отбой окончен: {outcome} ({defender}, карт {count})",
        "ddraw": "{seat} добирает {count} (в колоде {deck}){cards}",
        "payment_due": "{from_} должен {to} карту",
    },
}

_WORDS = {
    "en": {"guilty": "guilty", "clean": "clean", "honest": "the action was honest", "tie": "a tie",
           "pidor": "«пидор»", "chist": "«чист»", "convicted": "convicted", "false_call": "false call",
           "lost_vote": "lost the vote", "loser": "lost the game", "left": "left",
           "away": "away", "back": "back", "bot": "a bot plays on", "turn": "turn clock", "take": "take",
           "bito": "bito", "nobody": "nobody", "hidden": "hidden", "open": "open"},
    "ru": {"guilty": "виновен", "clean": "чист", "honest": "ход был честный", "tie": "поровну",
           "pidor": "«пидор»", "chist": "«чист»", "convicted": "осуждён", "false_call": "ложный крик",
           "lost_vote": "проиграл голосование", "loser": "проиграл партию", "left": "ушёл",
           "away": "отошёл", "back": "вернулся", "bot": "за него играет бот", "turn": "часы хода",
           "take": "беру", "bito": "бито", "nobody": "никто", "hidden": "закрытых", "open": "открытые"},
}

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def say(lang: str, key: str, **kw) -> str:
    return TEXTS.get(lang, TEXTS["en"])[key].format(**kw)


def _word(lang: str, key) -> str:
    return _WORDS.get(lang, _WORDS["en"]).get(key, str(key))


def card(code) -> str:
    """``"Th"`` -> ``"10♥"``; a suit alone (``"d"``) -> ``"♦"``; anything else as it is."""
    if isinstance(code, str) and code in _SUITS:
        return _SUITS[code]
    try:
        return card_text(parse_card(code))
    except ValueError:
        return str(code)


def cards(codes) -> str:
    return " ".join(card(c) for c in codes or []) or "—"


def rule_line(rule_id: str, lang: str, texts: dict | None = None) -> str:
    """``[P5b] text`` from the wire's ``{id, ru, en}`` or the rule vocabulary."""
    text = (texts or {}).get(lang) or (texts or {}).get("en")
    if not text and rule_id in RULES:
        text = RULES[rule_id].text(lang)
    return f"[{rule_id}] {text}" if text else f"[{rule_id}]"


def option_command(action: dict) -> str:
    """The command a person types for an action: ``beat 10♥ 2``, ``lay 1``, ``bito``."""
    t = action.get("type", "?")
    parts = [t]
    if "card" in action:
        parts.append(card(action["card"]))
    for key in ("to", "target", "index"):
        if key in action:
            parts.append(str(action[key]))
    return " ".join(parts)


def action_text(action: dict | None, name: Name) -> str:
    if not action:
        return "?"
    t = action.get("type")
    if t in ("move", "lay"):
        return f"{t} → {name(action.get('to'))}"
    return option_command(action)


def event_lines(e: dict, me: int | None, name: Name, lang: str = "en") -> list[str]:
    """How one event reads; ``[]`` for events not worth a line (a window we do not owe)."""
    t = e.get("type")
    T = _EVENTS.get(lang, _EVENTS["en"])
    w = lambda k: _word(lang, k)
    n = name
    if t == "action":
        return [f"{n(e.get('seat'))}: {action_text(e.get('action'), n)}"]
    if t in ("window", "window_closed"):
        return []  # the caller prompts when we owe an answer; a closing needs no line
    if t == "call":
        return [T["call"].format(caller=n(e.get("caller")), accused=n(e.get("accused")),
                                 action=action_text(e.get("action"), n))]
    if t == "court":
        lines = [T["court"].format(caller=n(e.get("caller")), accused=n(e.get("accused")),
                                   action=action_text(e.get("action"), n),
                                   voters=", ".join(n(v) for v in e.get("voters", [])) or "—")]
        lines += ["   " + rule_line(r.get("id", "?"), lang, r) for r in e.get("rules", [])]
        return lines
    if t == "vote":
        return [T["vote"].format(seat=n(e.get("seat")), vote=w("pidor") if e.get("guilty") else w("chist"))]
    if t == "abstain":
        return [f"{n(e.get('seat'))}: " + ("воздерживается (отошёл)" if lang == "ru" else "abstains (away)")]
    if t == "verdict":
        counts = "" if e.get("outcome") == "honest" else f" ({w('pidor')} {e.get('pidor')} : {e.get('clean')} {w('chist')})"
        return [T["verdict"].format(outcome=w(e.get("outcome")), counts=counts)]
    if t == "undo":
        return [T["undo"].format(seat=n(e.get("seat")), action=action_text(e.get("action"), n))]
    if t == "mark":
        if e.get("seat") is None:
            return [T["mark_none"].format(reason=w(e.get("reason")))]
        return [T["mark"].format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "game_over":
        r = e.get("result") or {}
        loser = T["draw_game"] if r.get("draw") else T["loser"].format(seat=n(r.get("loser")))
        return [T["game_over"].format(loser=loser, order=", ".join(n(s) for s in r.get("order", [])) or "—")]
    if t == "results":
        return [T["results"].format(number=e.get("number"), mark=n(e.get("mark")) if e.get("mark") is not None else w("nobody"))]
    if t == "timeout":
        return [T["timeout"].format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "seat":
        return [T["seat"].format(seat=n(e.get("seat")), state=w(e.get("state")))]
    if t == "game_start":
        return [T["game_start"].format(number=e.get("number"), game=e.get("game"), players=e.get("players"))]
    if t == "draw" and "card" in e:  # «пидор»: the drawn card is public
        return [T["pdraw"].format(seat=n(e.get("seat")), card=card(e["card"]), deck=e.get("deck"))]
    if t == "draw":  # durak: the cards only to the drawer
        extra = f": {cards(e['cards'])}" if e.get("cards") else ""
        return [T["ddraw"].format(seat=n(e.get("seat")), count=e.get("count"), deck=e.get("deck"), cards=extra)]
    if t == "pidorstvo":
        return [T["pidorstvo"].format(seat=n(e.get("seat")), count=e.get("count"))]
    if t == "deal_end":
        lines = [T["deal_end"].format(trump=card(e.get("trump")), first=n(e.get("first")),
                                      hands=e.get("hands"), prikups=e.get("prikups"))]
        if "hand" in e:
            lines.append(T["hand"].format(cards=cards(e["hand"])))
        return lines
    if t == "settlement":
        dues = ", ".join(f"{n(d.get('to'))} ×{d.get('count')}" for d in e.get("dues", [])) or "—"
        return [T["settlement"].format(dues=dues)]
    if t == "payment":
        return [T["payment"].format(from_=n(e.get("from")), to=n(e.get("to")), left=e.get("left"))]
    if t == "give":
        return [T["give"].format(from_=n(e.get("from")), to=n(e.get("to")), card=card(e["card"]) if "card" in e else "🂠")]
    if t == "skip":
        return [T["skip"].format(seat=n(e.get("seat")))]
    if t == "trick":
        return [T["trick"].format(seat=n(e.get("seat")), size=e.get("size"))]
    if t == "trick_closed":
        return [T["trick_closed"].format(seat=n(e.get("seat")), cards=cards(e.get("cards")))]
    if t == "discard":
        return [T["discard"].format(count=e.get("count"))]
    if t == "prikup":
        extra = f": {cards(e['cards'])}" if e.get("cards") else ""
        return [T["prikup"].format(seat=n(e.get("seat")), count=e.get("count"), cards=extra)]
    if t == "out":
        return [T["out"].format(seat=n(e.get("seat")), place=e.get("place"))]
    if t == "bout":
        return [T["bout"].format(attacker=n(e.get("attacker")), defender=n(e.get("defender")), limit=e.get("limit"))]
    if t == "transfer":
        return [T["transfer"].format(defender=n(e.get("defender")), limit=e.get("limit"))]
    if t == "bito_timeout":
        return [T["bito_timeout"].format(seats=", ".join(n(s) for s in e.get("seats", [])))]
    if t == "bout_over":
        return [T["bout_over"].format(outcome=w(e.get("outcome")), defender=n(e.get("defender")), count=e.get("count"))]
    if t == "payment_due":
        return [T["payment_due"].format(from_=", ".join(n(s) for s in e.get("from", [])), to=n(e.get("to")))]
    return [f"{t}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")]  # a newer server's event


def view_lines(view: dict, me: int | None, name: Name, lang: str = "en") -> list[str]:
    """The seat's view (a snapshot's ``view``), a few lines."""
    status = view.get("status") or {}
    mark = status.get("mark")
    head = [f"{view.get('game')} #{status.get('number', '?')}"]
    if view.get("phase"):
        head.append(str(view["phase"]))
    if view.get("trump"):
        head.append("trump " + card(view["trump"]) + (f" ({card(view['trump_card'])})" if view.get("trump_card") else ""))
    head.append(f"deck {view.get('deck')}")
    head.append("mark: " + (name(mark) if mark is not None else "—"))
    lines = [" · ".join(head)]
    players = view.get("players") or len(view.get("hands") or [])
    if view.get("game") == "pidor":
        lines += _pidor_lines(view, players, name, lang)
    else:
        lines += _durak_lines(view, players, name)
    if view.get("out"):
        lines.append("out: " + ", ".join(name(s) for s in view["out"]))
    if view.get("hand") or view.get("phase") != "deal":
        lines.append(say(lang, "hand", cards=cards(view.get("hand"))))
    return lines


def _pidor_lines(view: dict, players: int, name: Name, lang: str) -> list[str]:
    lines = []
    if view.get("phase") == "deal" or any(s.get("cards") or s.get("hidden") for s in view.get("stacks", [])):
        for seat, stack in enumerate(view.get("stacks", [])):
            shown = stack.get("cards") or []
            text = " ".join(card(c) for c in shown[:-1])
            if shown:
                text = (text + " " if text else "") + f"[{card(shown[-1])}]"
            pid = (view.get("pidorstvo") or [0] * players)[seat]
            lines.append(f"  {seat} {name(seat):<12} {text or '—'}  +{stack.get('hidden', 0)} {_word(lang, 'hidden')}"
                         + (f"  pidorstvo {pid}" if pid else ""))
        if view.get("held"):
            lines.append(f"  held: {card(view['held'])}")
    else:
        counts = ", ".join(f"{name(s)} {h}+{p}" for s, (h, p) in
                           enumerate(zip(view.get("hands", []), view.get("prikups", []))))
        lines.append(f"  hands+prikups: {counts}")
        pile = view.get("table") or []
        who = view.get("table_seats") or []
        shown = "  ".join(f"{i}:{card(c)}({name(who[i]) if i < len(who) else '?'})" for i, c in enumerate(pile))
        lines.append(f"  table ({len(pile)}/{view.get('trick_size')}): {shown or '—'}")
    if view.get("dues"):
        lines.append("  dues: " + ", ".join(f"{name(d.get('to'))} ×{d.get('count')}" for d in view["dues"]))
    if view.get("payment"):
        lines.append(f"  payment: {view['payment']}")
    return lines


def _durak_lines(view: dict, players: int, name: Name) -> list[str]:
    lines = [f"  {name(view.get('attacker'))} → {name(view.get('defender'))} (limit {view.get('limit')})"
             + (f"; bito: {', '.join(name(s) for s in view['bito'])}" if view.get("bito") else "")]
    pairs = view.get("table") or []
    shown = "  ".join(f"{i}) {card(a)}/{card(b) if b else '—'}" for i, (a, b) in enumerate(pairs))
    lines.append(f"  table: {shown or '—'}")
    lines.append("  hands: " + ", ".join(f"{name(s)} {h}" for s, h in enumerate(view.get("hands", []))))
    if view.get("payments"):
        lines.append(f"  payments: {view['payments']}")
    return lines
