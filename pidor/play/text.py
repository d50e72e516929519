"""What ``pidor play`` prints: the board, events and options, in Russian or English.

Pure functions of decoded protocol data (protocol/PROTOCOL.md §5–§7); cards are shown as
``10♥`` (``pidor.cards.card_text``). ``name(seat)`` is passed in by the caller. The
table's sentences come from :mod:`.words`; a game's actions, events and board from its
folder's text (:func:`pidor.games.text_of`), the same that ``pidor replay`` reads.
"""

from __future__ import annotations

from collections.abc import Callable

from ..games import GAME_IDS, known, rule, spec, text_of
from ..games.text import GameText, Say, card, cards, predicate
from .words import BOARD, ERRORS, EVENTS, TEXTS, WORDS

__all__ = [
    "action_text", "action_word", "card", "cards", "error_text", "event_lines", "game_name", "option_command",
    "rule_line", "say", "view_lines",
]

Name = Callable[[int | None], str]

def _of(table: dict, lang: str) -> dict:
    return table.get(lang, table["en"])


def say(lang: str, key: str, **kw) -> str:
    return _of(TEXTS, lang)[key].format(**kw)


def _word(lang: str, key) -> str:
    return _of(WORDS, lang).get(key, str(key))


def game_name(game: str | None, lang: str) -> str:
    return spec(game).title_of(lang) if game in GAME_IDS else str(game)


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


def action_word(game: str | None, kind: str, lang: str) -> str:
    """The word for action ``kind`` in ``lang``: in Russian the game's first Russian alias
    (``крою`` for ``cover``), else the action's own name."""
    if lang == "ru" and game in GAME_IDS:
        for word, alias_of in text_of(game).ALIASES.items():
            if alias_of == kind and not word.isascii():
                return word
    return kind


def option_command(action: dict, game: str | None = None, lang: str = "en") -> str:
    """The command a person types for an action: ``beat 10♥ 2``, ``lay 1``, ``bito``,
    ``lead K 9♥ A♠`` (a rank named, then cards); in Russian with the game's Russian word
    where it has one (``бью 10♥ 2``)."""
    parts = [action_word(game, action.get("type", "?"), lang)]
    if isinstance(action.get("rank"), str):  # a rank named (a claim), before the cards it names
        parts.append(action["rank"].replace("T", "10"))
    if "card" in action:
        parts.append(card(action["card"]))
    parts += [card(c) for c in action.get("cards") or []]  # simple durak's lead (V1)
    if "suit" in action:
        parts.append(card(action["suit"]))  # a suit named (its sign)
    for key in ("to", "target", "index"):
        if key in action:
            parts.append(str(action[key]))
    return " ".join(parts)


def _say(lang: str, name: Name, me: int | None) -> Say:
    return Say(lang, name, me)


def action_text(action: dict | None, name: Name, lang: str, *, game: str | None = None, seat: int | None = None,
                me: int | None = None, before: dict | None = None) -> str:
    """What ``seat`` did (or may do), as the game says it: ``вы кроете 7♠ картой 8♠``.
    ``before``: the public view just before the action (the cards it lands on), if known."""
    if not action:
        return "?"
    return text_of(game).action(_say(lang, name, me), seat, action, before, None) or option_command(action)


def event_lines(e: dict, me: int | None, name: Name, lang: str = "en", *, game: str | None = None,
                before: dict | None = None) -> list[str]:
    """How one event reads; ``[]`` for events not worth a line (windows: the session
    prompts for the ones we owe). ``game`` says how its own events and actions read and
    names the loser; ``before``: the public view just before the action the event is or
    is about (a call, a court, an undo)."""
    t = e.get("type")
    T = _of(EVENTS, lang)
    w = lambda k: _word(lang, k)  # noqa: E731
    n = name

    def form(key: str, subject=None, about=None) -> str:  # «вы» takes its own form (issue 28 §2)
        if me is not None and subject == me and key + "@me" in T:
            return T[key + "@me"]
        if me is not None and about == me and key + "@to_me" in T:
            return T[key + "@to_me"]
        return T[key]

    def said(action: dict | None, seat: int | None) -> str:  # (the action called or undone: ``before`` it)
        return action_text(action, n, lang, game=game, seat=seat, me=me, before=before)

    if t == "action":
        line = action_text(e.get("action"), n, lang, game=game, seat=e.get("seat"), me=me, before=before)
        return [line] if line else []
    if t in ("window", "window_closed"):
        return []
    if t == "call":
        return [T["call"].format(caller=n(e.get("caller")), accused=n(e.get("accused")),
                                 action=said(e.get("action"), e.get("accused")))]
    if t == "court":
        lines = [form("court", None, e.get("accused")).format(
            caller=n(e.get("caller")), accused=n(e.get("accused")),
            action=predicate(said(e.get("action"), e.get("accused")), n(e.get("accused"))),
            voters=", ".join(n(v) for v in e.get("voters", [])) or "—")]
        return lines + ["   " + rule_line(r.get("id", "?"), lang, r) for r in e.get("rules", [])]
    if t == "vote":
        return [T["vote"].format(seat=n(e.get("seat")), vote=w("pidor") if e.get("guilty") else w("chist"))]
    if t == "abstain":
        return [form("abstain", e.get("seat")).format(seat=n(e.get("seat")))]
    if t == "verdict":
        counts = "" if e.get("outcome") == "honest" else f" ({w('pidor')} {e.get('pidor')} : {e.get('clean')} {w('chist')})"
        return [T["verdict"].format(outcome=w(e.get("outcome")), counts=counts)]
    if t == "undo":
        return [T["undo"].format(seat=n(e.get("seat")), action=said(e.get("action"), e.get("seat")))]
    if t == "mark":
        if e.get("seat") is None:
            return [T["mark_none"].format(reason=w(e.get("reason")))]
        return [form("mark", e.get("seat")).format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "game_over":
        return [T["game_over"].format(loser=loser_text(e.get("result") or {}, game, n, lang),
                                      order=", ".join(n(s) for s in (e.get("result") or {}).get("order", [])) or "—")]
    if t == "results":
        mark = n(e.get("mark")) if e.get("mark") is not None else w("nobody")
        return [form("results", None, e.get("mark")).format(number=e.get("number"), mark=mark)]
    if t == "timeout":
        return [form("timeout", e.get("seat")).format(seat=n(e.get("seat")), reason=w(e.get("reason")))]
    if t == "seat":
        return [T["seat"].format(seat=n(e.get("seat")), state=w(e.get("state")))]
    if t == "game_start":
        return [T["game_start"].format(number=e.get("number"), game=game_name(e.get("game"), lang),
                                       players=e.get("players"))]
    if t == "give":
        return [form("give", e.get("from"), e.get("to")).format(from_=n(e.get("from")), to=n(e.get("to")),
                                                                card=card(e["card"]) if "card" in e else "🂠")]
    if t == "out":
        return [form("out", e.get("seat")).format(seat=n(e.get("seat")), place=e.get("place"))]
    if t == "payment_due":
        payers = list(e.get("from", []))
        key = form("payment_due", payers[0], e.get("to")) if len(payers) == 1 else T["payment_due_many"]
        return [key.format(from_=", ".join(n(s) for s in payers), to=n(e.get("to")))]
    if t == "honest_only":  # (its end is not news)
        seats = list(e.get("seats") or [])
        if not seats:
            return []
        return [T["honest_only@me" if me in seats else "honest_only"].format(seats=", ".join(n(s) for s in seats))]
    line = text_of(game).event(_say(lang, name, me), e)
    if line is not None:
        lines = [line] if line else []
        if e.get("hand") is not None and me is not None:  # a private hand (the end of «пидор»'s deal)
            lines.append(say(lang, "hand", cards=cards(e["hand"])))
        return lines
    fields = ", ".join(f"{k} {v}" for k, v in e.items() if k != "type")  # a newer server's event
    return [T["other"].format(type=t, fields=fields)]


def loser_text(result: dict, game: str | None, name: Name, lang: str) -> str:
    """The loser in the game's own word («дурак — X», «пидор — X»); a draw says so."""
    T = _of(EVENTS, lang)
    if result.get("draw"):
        return T["draw_game"]
    word = spec(game).loser.get(lang) if game in GAME_IDS else None
    return T["loser"].format(seat=name(result.get("loser")), word=word or "?")


def view_lines(view: dict, me: int | None, name: Name, lang: str = "en") -> list[str]:
    """The board: what the game is and where, whose turn, the trump, the table (as the
    game draws it), who holds the mark, and your hand."""
    B = _of(BOARD, lang)
    status = view.get("status") or {}
    game = view.get("game")
    text = text_of(game)
    sayer = _say(lang, name, me)
    head = [game_name(game, lang), B["game"].format(number=status.get("number", "?"))]
    phase = view.get("phase")
    if phase:
        head.append(text.word(sayer, "phase_" + str(phase)))
    if view.get("trump") and view.get("trump_card"):
        head.append(B["trump_card"].format(trump=card(view["trump"]), card=card(view["trump_card"])))
    elif view.get("trump"):
        head.append(B["trump"].format(trump=card(view["trump"])))
    elif "trump" in view:
        head.append(B["no_trump"])
    if "deck" in view:
        head.append(B["deck"].format(count=view.get("deck")))
    mark = status.get("mark")
    head.append(B["mark"].format(seat=name(mark) if mark is not None else _word(lang, "nobody")))
    lines = ["── " + " · ".join(head) + " ──"]
    lines.append("  " + _whose_turn(view, status, name, B, text))
    lines += ["  " + line for line in text.board(sayer, view)]
    if view.get("out"):
        lines.append("  " + B["out"].format(seats=", ".join(name(s) for s in view["out"])))
    if me is not None and "hand" in view:  # a spectator has no hand (nor has anybody in a game of decks)
        lines.append(say(lang, "hand", cards=cards(text.hand_order(view, view.get("hand") or []))))
    return lines


def _whose_turn(view: dict, status: dict, name: Name, B: dict, text: GameText) -> str:
    court, window = status.get("court"), status.get("window")
    if court:
        return B["court"].format(caller=name(court.get("caller")), accused=name(court.get("accused")))
    if window:
        return B["window"].format(seat=name(window.get("seat")))
    return B["turn"].format(seats=", ".join(name(s) for s in text.turn(view)) or B["none"])
