"""What ``pidor play`` prints: the board, events and options, in Russian or English.

Pure functions of decoded protocol data (protocol/PROTOCOL.md §5–§7); cards are shown as
``10♥`` (``pidor.cards.card_text``). ``name(seat)`` is passed in by the caller. Every
sentence comes from :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import card_text, parse_card
from ..games import known, rule
from .words import BOARD, ERRORS, EVENTS, GAMES, TEXTS, WORDS

__all__ = [
    "action_text", "card", "cards", "error_text", "event_lines", "game_name", "option_command",
    "rule_line", "say", "view_lines",
]

Name = Callable[[int | None], str]

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def _of(table: dict, lang: str) -> dict:
    return table.get(lang, table["en"])


def say(lang: str, key: str, **kw) -> str:
    return _of(TEXTS, lang)[key].format(**kw)


def _word(lang: str, key) -> str:
    return _of(WORDS, lang).get(key, str(key))


def game_name(game: str | None, lang: str) -> str:
    return _of(GAMES, lang).get(game, str(game))


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
    text = (texts or {}).get(lang)
    if not text and known(rule_id):
        text = rule(rule_id).text(lang)
    text = text or (texts or {}).get("en")
    return f"[{rule_id}] {text}" if text else f"[{rule_id}]"


def error_text(msg: dict, lang: str) -> str:
    """A refusal as one sentence in the session's language: the code's meaning (translated
    here), then in English the server's own detail; a broken rule follows on its own line."""
    texts = _of(ERRORS, lang)
    text = texts.get(msg.get("code"), texts["unknown"])
    if lang == "en" and msg.get("message"):
        text += f" ({msg['message']})"
    return say(lang, "error", text=text)


def option_command(action: dict) -> str:
    """The command a person types for an action: ``beat 10♥ 2``, ``lay 1``, ``bito``."""
    parts = [action.get("type", "?")]
    if "card" in action:
        parts.append(card(action["card"]))
    parts += [card(c) for c in action.get("cards") or []]  # simple durak's lead (V1)
    for key in ("to", "target", "index"):
        if key in action:
            parts.append(str(action[key]))
    return " ".join(parts)


def action_text(action: dict | None, name: Name, lang: str, moved: str | None = None) -> str:
    """What a seat did, as prose: ``lays 7♣ on bot-2(2)``, ``beats with 10♥``. ``moved`` is
    the card of a ``draw``/``move``/``lay``/``keep`` when the caller knows it (the action
    does not say it)."""
    if not action:
        return "?"
    t = action.get("type")
    words = [_word(lang, "a_" + str(t))]
    if moved and t in ("draw", "move", "lay", "keep"):
        words.append(card(moved))
    if t in ("move", "lay"):
        words += [_word(lang, "on"), name(action.get("to"))]
    elif "card" in action:
        words.append(card(action["card"]))
    elif action.get("cards"):
        words.append(cards(action["cards"]))
    if t == "take" and "index" in action and action["index"] != 0:
        words.append(_word(lang, "from_bottom").format(index=action["index"]))
    return " ".join(words)


def event_lines(e: dict, me: int | None, name: Name, lang: str = "en", *, game: str | None = None,
                moved: str | None = None) -> list[str]:
    """How one event reads; ``[]`` for events not worth a line (windows: the session
    prompts for the ones we owe; a «пидор» draw: its ``draw`` event says it). ``game``
    names the loser after a game (дурак or пидор); ``moved``: see :func:`action_text`."""
    t = e.get("type")
    T = _of(EVENTS, lang)
    w = lambda k: _word(lang, k)
    n = name
    if t == "action":
        if (e.get("action") or {}).get("type") == "draw":
            return []
        return [f"{n(e.get('seat'))} {action_text(e.get('action'), n, lang, moved)}"]
    if t in ("window", "window_closed"):
        return []
    if t == "call":
        return [T["call"].format(caller=n(e.get("caller")), accused=n(e.get("accused")),
                                 action=action_text(e.get("action"), n, lang))]
    if t == "court":
        lines = [T["court"].format(caller=n(e.get("caller")), accused=n(e.get("accused")),
                                   action=action_text(e.get("action"), n, lang),
                                   voters=", ".join(n(v) for v in e.get("voters", [])) or "—")]
        return lines + ["   " + rule_line(r.get("id", "?"), lang, r) for r in e.get("rules", [])]
    if t == "vote":
        return [T["vote"].format(seat=n(e.get("seat")), vote=w("pidor") if e.get("guilty") else w("chist"))]
    if t == "abstain":
        return [T["abstain"].format(seat=n(e.get("seat")))]
    if t == "verdict":
        counts = "" if e.get("outcome") == "honest" else f" ({w('pidor')} {e.get('pidor')} : {e.get('clean')} {w('chist')})"
        return [T["verdict"].format(outcome=w(e.get("outcome")), counts=counts)]
    if t == "undo":
        return [T["undo"].format(seat=n(e.get("seat")), action=action_text(e.get("action"), n, lang))]
    if t == "mark":
        if e.get("seat") is None:
            return [T["mark_none"].format(reason=w(e.get("reason")))]
        return [T["mark"].format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "game_over":
        return [T["game_over"].format(loser=loser_text(e.get("result") or {}, game, n, lang),
                                      order=", ".join(n(s) for s in (e.get("result") or {}).get("order", [])) or "—")]
    if t == "results":
        mark = n(e.get("mark")) if e.get("mark") is not None else w("nobody")
        return [T["results"].format(number=e.get("number"), mark=mark)]
    if t == "timeout":
        return [T["timeout"].format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "seat":
        return [T["seat"].format(seat=n(e.get("seat")), state=w(e.get("state")))]
    if t == "game_start":
        return [T["game_start"].format(number=e.get("number"), game=game_name(e.get("game"), lang),
                                       players=e.get("players"))]
    if t == "draw" and "card" in e:  # «пидор»: the drawn card is public
        return [T["pdraw"].format(seat=n(e.get("seat")), card=card(e["card"]), deck=e.get("deck"))]
    if t == "draw":  # durak: the cards only to the drawer
        extra = f": {cards(e['cards'])}" if e.get("cards") else ""
        return [T["ddraw"].format(seat=n(e.get("seat")), count=e.get("count"), deck=e.get("deck"), cards=extra)]
    if t == "pidorstvo":
        return [T["pidorstvo"].format(seat=n(e.get("seat")), count=e.get("count"))]
    if t == "deal_end":
        hands = ", ".join(f"{n(s)} {h}" for s, h in enumerate(e.get("hands") or []))
        lines = [T["deal_end"].format(trump=card(e.get("trump")), first=n(e.get("first")), hands=hands)]
        if "hand" in e:
            lines.append(say(lang, "hand", cards=cards(e["hand"])))
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
    fields = ", ".join(f"{k} {v}" for k, v in e.items() if k != "type")  # a newer server's event
    return [T["other"].format(type=t, fields=fields)]


def loser_text(result: dict, game: str | None, name: Name, lang: str) -> str:
    """«дурак — X» after a durak game, «пидор — X» after «пидор»; a draw says so."""
    T = _of(EVENTS, lang)
    if result.get("draw"):
        return T["draw_game"]
    key = "loser_pidor" if game == "pidor" else "loser_durak"  # every other game is a durak
    return T[key].format(seat=name(result.get("loser")))


def view_lines(view: dict, me: int | None, name: Name, lang: str = "en") -> list[str]:
    """The board: what the game is and where, whose turn, the trump, the table (which
    card lies on which), the others' card counts, who holds the mark, and your hand."""
    B = _of(BOARD, lang)
    status = view.get("status") or {}
    game = view.get("game")
    head = [game_name(game, lang), B["game"].format(number=status.get("number", "?"))]
    phase = view.get("phase")
    if phase:
        head.append(B.get(phase, str(phase)))
    if view.get("trump") and view.get("trump_card"):
        head.append(B["trump_card"].format(trump=card(view["trump"]), card=card(view["trump_card"])))
    elif view.get("trump"):
        head.append(B["trump"].format(trump=card(view["trump"])))
    else:
        head.append(B["no_trump"])
    head.append(B["deck"].format(count=view.get("deck")))
    mark = status.get("mark")
    head.append(B["mark"].format(seat=name(mark) if mark is not None else _word(lang, "nobody")))
    lines = ["── " + " · ".join(head) + " ──"]
    lines.append("  " + _whose_turn(view, status, name, B))
    if game == "pidor":
        lines += _pidor_lines(view, name, B)
    else:
        lines += _durak_lines(view, name, B)
    if view.get("out"):
        lines.append("  " + B["out"].format(seats=", ".join(name(s) for s in view["out"])))
    if me is not None:  # a spectator has no hand
        lines.append(say(lang, "hand", cards=cards(view.get("hand"))))
    return lines


def _whose_turn(view: dict, status: dict, name: Name, B: dict) -> str:
    court, window = status.get("court"), status.get("window")
    if court:
        return B["court"].format(caller=name(court.get("caller")), accused=name(court.get("accused")))
    if window:
        return B["window"].format(seat=name(window.get("seat")))
    if view.get("game") == "pidor":
        seats = view.get("to_act") or ([view["turn"]] if view.get("turn") is not None else [])
    else:  # durak: the attacker leads, the defender covers, the others may throw in
        seats = [s for s in (view.get("attacker"), view.get("defender")) if s is not None]
    return B["turn"].format(seats=", ".join(name(s) for s in seats) or B["none"])


def _pidor_lines(view: dict, name: Name, B: dict) -> list[str]:
    lines = []
    if view.get("phase") == "deal":
        pid = view.get("pidorstvo") or []
        for seat, stack in enumerate(view.get("stacks", [])):
            shown = stack.get("cards") or []
            text = " ".join(card(c) for c in shown[:-1])
            if shown:
                text = (text + " " if text else "") + f"[{card(shown[-1])}]"
            extra = B["pidorstvo"].format(count=pid[seat]) if seat < len(pid) and pid[seat] else ""
            lines.append("  " + B["stack"].format(name=name(seat), cards=text or B["none"],
                                                  hidden=stack.get("hidden", 0), extra=extra))
        if view.get("held"):
            lines.append("  " + B["held"].format(seat=name(view.get("turn")), card=card(view["held"])))
    else:
        pile = view.get("table") or []
        who = view.get("table_seats") or []
        if pile:
            shown = " ← ".join(f"{card(c)} ({name(who[i]) if i < len(who) else '?'})" for i, c in enumerate(pile))
            lines.append("  " + B["pile"].format(count=len(pile), size=view.get("trick_size"), cards=shown))
        else:
            lines.append("  " + B["pile_empty"])
        counts = []
        for s, (h, p) in enumerate(zip(view.get("hands", []), view.get("prikups", []))):
            counts.append(B["prikup" if p else "count"].format(name=name(s), hand=h, prikup=p))
        lines.append("  " + B["counts"].format(counts=", ".join(counts)))
    if view.get("dues"):
        dues = ", ".join(B["due"].format(seat=name(d.get("to")), count=d.get("count")) for d in view["dues"])
        lines.append("  " + B["dues"].format(dues=dues))
    payment = view.get("payment")
    if payment:
        lines.append("  " + B["payment"].format(from_=name(payment.get("from")), to=name(payment.get("to")),
                                                left=payment.get("left")))
    return lines


def _durak_lines(view: dict, name: Name, B: dict) -> list[str]:
    lines = ["  " + B["attack"].format(attacker=name(view.get("attacker")), defender=name(view.get("defender")),
                                       limit=view.get("limit"))]
    if view.get("bito"):
        lines.append("  " + B["bito_said"].format(seats=", ".join(name(s) for s in view["bito"])))
    pairs = []
    for i, (a, b) in enumerate(view.get("table") or []):
        pair = B["pair"].format(attack=card(a), cover=card(b)) if b else B["open_pair"].format(attack=card(a))
        pairs.append(f"{i}) {pair}")
    lines.append("  " + (B["bout_table"].format(pairs="   ".join(pairs)) if pairs else B["pile_empty"]))
    counts = ", ".join(B["count"].format(name=name(s), hand=h) for s, h in enumerate(view.get("hands", [])))
    lines.append("  " + B["counts"].format(counts=counts))
    if view.get("payments"):
        pays = ", ".join(B["pays"].format(from_=name(p.get("from")), to=name(p.get("to"))) for p in view["payments"])
        lines.append("  " + B["payments"].format(list=pays))
    return lines
