"""``pidor play``'s commands: a line of text -> one protocol request, or a clear refusal.

Only the form is checked here (the word, its arguments, the card's spelling, the seat's
range): whether an action is honest is the server's business, and a dishonest one is
allowed (махлёж, T1). A refused line raises :class:`CommandError` and nothing is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import parse_spec
from ..cards import card_code, parse_card, parse_rank, parse_suit, rank_code, suit_code
from ..games import GAME_IDS, game_class, text_of
from .text import game_name
from .words import HELP, HELP_ACTIONS

__all__ = ["Command", "CommandError", "game_help", "help_text", "parse_command", "usage"]

#: how an action's argument is written, by its type (``Game.ACTIONS``), in each language
_ARG = {"en": {"card": "CARD", "cards": "CARD...", "seat": "SEAT", "index": "[{name}]", "rank": "RANK", "suit": "SUIT"},
        "ru": {"card": "КАРТА", "cards": "КАРТА...", "seat": "МЕСТО", "index": "[{name}]", "rank": "РАНГ",
               "suit": "МАСТЬ"}}
#: an index's name in Russian (``[TARGET]`` is ``[НОМЕР]``); English says the argument's own name
_INDEX_RU = {"target": "НОМЕР", "index": "НОМЕР", "count": "ЧИСЛО", "below": "ЧИСЛО"}
USAGE = {"en": {"hint": "hint off", "bot": "bot SEAT [SPEC]"},
         "ru": {"hint": "подсказки выкл", "bot": "бот МЕСТО [БОТ]"}}
#: The words a person types for the table itself, never for a game's action, in English and
#: Russian -> what they do. No game may name an action so, nor give one as an alias
#: (``«сто одно»``'s pass is ``skip``/``пас``: ``pass``/``мимо`` lets a call window go).
TABLE = {"help": "help", "?": "help", "h": "help", "помощь": "help", "справка": "help",
         "quit": "quit", "exit": "quit", "q": "quit", "выход": "quit", "выйти": "quit",
         "view": "view", "look": "view", "v": "view", "стол": "view",
         "hint": "hint", "подсказки": "hint",
         "call": "call", "пидор": "call", "пидор!": "call", "крик": "call",
         "pass": "pass", "мимо": "pass",
         "start": "start", "старт": "start", "начать": "start",
         "bot": "bot", "бот": "bot",
         "vote": "vote", "голос": "vote"}
TABLE_WORDS = frozenset(TABLE)
HINTS_OFF = frozenset({"off", "выкл", "нет"})
GUILTY = {"pidor": True, "пидор": True, "guilty": True, "yes": True, "да": True, "виновен": True,
          "clean": False, "чист": False, "innocent": False, "no": False, "нет": False}


class CommandError(ValueError):
    """A line that cannot be sent. ``key``/``params`` name the message in ``pidor.play.words.TEXTS``."""

    def __init__(self, key: str, **params) -> None:
        super().__init__(key, params)
        self.key, self.params = key, params


@dataclass
class Command:
    kind: str  # "send" (``message`` goes to the server), "help", "view", "quit", "hints_off"
    message: dict | None = None


def _card(text: str) -> str:
    try:
        return card_code(parse_card(text))
    except ValueError:
        raise CommandError("bad_card", text=text) from None


def _rank(text: str) -> str:
    try:
        return rank_code(parse_rank(text))
    except ValueError:
        raise CommandError("bad_rank", text=text) from None


def _suit(text: str) -> str:
    try:
        return suit_code(parse_suit(text))
    except ValueError:
        raise CommandError("bad_suit", text=text) from None


def _number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise CommandError("bad_number", text=text) from None
    if n < 0:
        raise CommandError("bad_number", text=text)
    return n


def _seat(text: str, players: int | None) -> int:
    seat = _number(text)
    if players is not None and seat >= players:
        raise CommandError("bad_seat", seat=seat, last=players - 1)
    return seat


def usage(game: str, kind: str, lang: str = "en") -> str:
    """How to type action ``kind`` of ``game``: ``beat CARD [TARGET]`` (``beat КАРТА [НОМЕР]``)."""
    arg = _ARG.get(lang, _ARG["en"])
    names = _INDEX_RU if lang == "ru" else {}
    return " ".join([kind, *(arg[typ].format(name=names.get(name, name.upper()))
                             for name, typ in game_class(game).ACTIONS[kind])])


def game_help(game: str, lang: str = "en") -> list[str]:
    """The help's lines for ``game``'s actions: how each is typed, and its other words."""
    aliases: dict[str, list[str]] = {}
    for word, kind in text_of(game).ALIASES.items():
        aliases.setdefault(kind, []).append(word)
    lines = []
    for kind in game_class(game).ACTIONS:
        also = " · ".join(aliases.get(kind, ()))
        lines.append(f"  {usage(game, kind, lang):<26}{'  ' + also if also else ''}")
    return lines


def help_text(game: str | None, lang: str = "en") -> str:
    """``help``: the actions of the game being played (or a line saying they come), then the
    table's commands, in ``lang``."""
    lang = lang if lang in HELP else "en"
    heads = HELP_ACTIONS[lang]
    if game in GAME_IDS:
        actions = [heads["head"].format(game=game_name(game, lang)), *game_help(game, lang)]
    else:
        actions = [heads["no_game"]]
    return HELP[lang].format(actions="\n".join(actions))


def _default_index(game: str, kind: str, name: str, action: dict, options, view) -> int | None:
    """An index a person left out (``beat 10♥``): the first honest option that fits what he
    typed, else what the game's text says (the top of the pile, the first uncovered card)."""
    fits = {o.get(name) for o in options or () if o.get("type") == kind
            and all(o.get(k) == v for k, v in action.items() if k != "type")}
    if fits:
        return min(fits)  # (the first place it honestly goes)
    return text_of(game).default_index(kind, name, view)


def parse_command(line: str, *, game: str | None, options=(), view: dict | None = None,
                  players: int | None = None, lang: str = "en") -> Command | None:
    """One line -> a :class:`Command` (``None`` for an empty line). ``options`` are the
    current turn's honest actions (for ``N`` and default targets), ``view`` the latest view;
    ``lang`` the language of the usage a refusal shows (words are taken in both)."""
    lang = lang if lang in USAGE else "en"
    words = line.strip().split()
    if not words:
        return None
    word, args = words[0].lower(), words[1:]
    table = TABLE.get(word)
    if table in ("help", "quit", "view"):
        return Command(table)
    if table == "hint":
        if len(args) != 1 or args[0].lower() not in HINTS_OFF:
            raise CommandError("usage", usage=USAGE[lang]["hint"])
        return Command("hints_off", {"type": "tutorial_off"})
    if table in ("call", "pass", "start"):
        if args:
            raise CommandError("usage", usage=word)
        return Command("send", {"type": table})
    if table == "bot":  # the host seats a built-in bot between games
        if not 1 <= len(args) <= 2:
            raise CommandError("usage", usage=USAGE[lang]["bot"])
        seat = _seat(args[0], players)
        message = {"type": "bot", "seat": seat}
        if len(args) == 2:
            try:
                parse_spec(args[1])
            except ValueError as e:
                raise CommandError("bad_spec", why=str(e)) from None
            message["spec"] = args[1]
        return Command("send", message)
    if table == "vote":
        if len(args) != 1 or args[0].lower() not in GUILTY:
            raise CommandError("bad_vote")
        return Command("send", {"type": "vote", "guilty": GUILTY[args[0].lower()]})
    if word.isdigit():
        n = int(word)
        if args or not 1 <= n <= len(options or ()):
            raise CommandError("no_option", n=word)
        return Command("send", {"type": "act", "action": dict(options[n - 1])})
    kinds = {k for g in GAME_IDS for k in game_class(g).ACTIONS}
    if game is None:
        raise CommandError("no_game" if word in kinds else "unknown", word=word)
    aliases = text_of(game).ALIASES  # (``c 6♣``: cover, issue 28 §3; ``не верю 2``)
    if args and f"{word} {args[0].lower()}" in aliases:
        word, args = f"{word} {args[0].lower()}", args[1:]
    word = aliases.get(word, word)
    spec_ = game_class(game).ACTIONS.get(word)
    if spec_ is None:
        raise CommandError("not_this_game" if word in kinds else "unknown", word=word, game=game)
    # The arguments in the order the game declares them; ``cards`` takes every word left,
    # an ``index`` left out is filled in below.
    action: dict = {"type": word}
    words_left = list(args)
    for name, typ in spec_:
        if typ == "cards":
            if not words_left:
                raise CommandError("usage", usage=usage(game, word, lang))
            action[name], words_left = [_card(t) for t in words_left], []
        elif not words_left:
            if typ != "index":
                raise CommandError("usage", usage=usage(game, word, lang))
        else:
            text = words_left.pop(0)
            if typ == "card":
                action[name] = _card(text)
            elif typ == "seat":
                action[name] = _seat(text, players)
            elif typ == "rank":
                action[name] = _rank(text)
            elif typ == "suit":
                action[name] = _suit(text)
            else:  # an index: a position on the table
                action[name] = _number(text)
    if words_left:
        raise CommandError("usage", usage=usage(game, word, lang))
    for name, typ in spec_:
        if typ == "index" and name not in action:
            value = _default_index(game, word, name, action, options, view)
            if value is None:
                raise CommandError("which", usage=usage(game, word, lang))
            action[name] = value
    return Command("send", {"type": "act", "action": action})
