"""``pidor play``'s commands: a line of text -> one protocol request, or a clear refusal.

Only the form is checked here (the word, its arguments, the card's spelling, the seat's
range): whether an action is honest is the server's business, and a dishonest one is
allowed (махлёж, T1). A refused line raises :class:`CommandError` and nothing is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import parse_spec
from ..cards import card_code, parse_card

__all__ = ["DURAK_WORDS", "PIDOR_WORDS", "SIMPLE_WORDS", "Command", "CommandError", "parse_command"]

#: action word -> argument pattern ("card", "seat", "index", optional with "?")
PIDOR_WORDS = {
    "draw": (), "keep": (), "close": (), "move": ("seat",), "lay": ("seat",),
    "lead": ("card",), "beat": ("card", "target?"), "take": ("index?",), "give": ("card",),
}
DURAK_WORDS = {
    "attack": ("card",), "cover": ("card", "target?"), "transfer": ("card",),
    "bito": (), "take": (), "give": ("card",),
}
SIMPLE_WORDS = {  # simple durak (V1): the whole lead at once; an added card is махлёж (V5a)
    "lead": ("cards",), "cover": ("card", "target?"), "take": (), "give": ("card",), "attack": ("card",),
}
USAGE = {
    "move": "move SEAT", "lay": "lay SEAT", "lead": "lead CARD", "beat": "beat CARD [TARGET]",
    "take": "take [INDEX]", "give": "give CARD", "attack": "attack CARD", "cover": "cover CARD [TARGET]",
    "transfer": "transfer CARD", "vote": "vote pidor|clean", "lead_cards": "lead CARD...", "hint": "hint off", "bot": "bot SEAT [SPEC]",
}
GUILTY = {"pidor": True, "пидор": True, "guilty": True, "yes": True,
          "clean": False, "чист": False, "innocent": False, "no": False}


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


def _default_target(word: str, code: str, options, view) -> int | None:
    """``beat CARD`` / ``cover CARD`` without a number: the one honest option with this card,
    else the top of the pile («пидор») or the only uncovered card (durak)."""
    targets = {o.get("target") for o in options or () if o.get("type") == word and o.get("card") == code}
    if len(targets) == 1:
        return targets.pop()
    if view:
        pile = view.get("table") or []
        if word == "beat" and pile:
            return len(pile) - 1
        if word == "cover":
            open_ = [i for i, pair in enumerate(pile) if pair[1] is None]
            if len(open_) == 1:
                return open_[0]
    return None


def parse_command(line: str, *, game: str | None, options=(), view: dict | None = None,
                  players: int | None = None) -> Command | None:
    """One line -> a :class:`Command` (``None`` for an empty line). ``options`` are the
    current turn's honest actions (for ``N`` and default targets), ``view`` the latest view."""
    words = line.strip().split()
    if not words:
        return None
    word, args = words[0].lower(), words[1:]
    if word in ("help", "?", "h"):
        return Command("help")
    if word in ("quit", "exit", "q"):
        return Command("quit")
    if word in ("view", "look", "v"):
        return Command("view")
    if word == "hint":
        if args != ["off"]:
            raise CommandError("usage", usage=USAGE["hint"])
        return Command("hints_off", {"type": "tutorial_off"})
    if word in ("call", "pass", "start"):
        if args:
            raise CommandError("usage", usage=word)
        return Command("send", {"type": word})
    if word == "bot":  # the host seats a built-in bot between games
        if not 1 <= len(args) <= 2:
            raise CommandError("usage", usage=USAGE["bot"])
        seat = _seat(args[0], players)
        message = {"type": "bot", "seat": seat}
        if len(args) == 2:
            try:
                parse_spec(args[1])
            except ValueError as e:
                raise CommandError("bad_spec", why=str(e)) from None
            message["spec"] = args[1]
        return Command("send", message)
    if word == "vote":
        if len(args) != 1 or args[0].lower() not in GUILTY:
            raise CommandError("bad_vote")
        return Command("send", {"type": "vote", "guilty": GUILTY[args[0].lower()]})
    if word.isdigit():
        n = int(word)
        if args or not 1 <= n <= len(options or ()):
            raise CommandError("no_option", n=word)
        return Command("send", {"type": "act", "action": dict(options[n - 1])})
    if game is None:
        if word in PIDOR_WORDS or word in DURAK_WORDS:
            raise CommandError("no_game")
        raise CommandError("unknown", word=word)
    words_of = PIDOR_WORDS if game == "pidor" else SIMPLE_WORDS if game == "simple" else DURAK_WORDS
    if word not in words_of:
        if word in PIDOR_WORDS or word in DURAK_WORDS or word in SIMPLE_WORDS:
            raise CommandError("not_this_game", word=word, game=game)
        raise CommandError("unknown", word=word)
    pattern = words_of[word]
    if pattern == ("cards",):  # one card or more
        if not args:
            raise CommandError("usage", usage=USAGE["lead_cards"])
        return Command("send", {"type": "act", "action": {"type": word, "cards": [_card(t) for t in args]}})
    required = [p for p in pattern if not p.endswith("?")]
    if not len(required) <= len(args) <= len(pattern):
        raise CommandError("usage", usage=USAGE.get(word, word))
    action: dict = {"type": word}
    for spec, text in zip(pattern, args):
        spec = spec.rstrip("?")
        if spec == "card":
            action["card"] = _card(text)
        elif spec == "seat":
            action["to"] = _seat(text, players)
        else:  # "target" or "index"
            action[spec] = _number(text)
    if word in ("beat", "cover") and "target" not in action:
        target = _default_target(word, action["card"], options, view)
        if target is None:
            raise CommandError("which", usage=USAGE[word])
        action["target"] = target
    if word == "take" and game == "pidor" and "index" not in action:
        action["index"] = 0  # the bottom card: the honest take (P13)
    return Command("send", {"type": "act", "action": action})
