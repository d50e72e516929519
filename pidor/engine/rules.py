"""The rule vocabulary: every ruling, violation and hint has an id and ru/en texts.

Ids are those of ``shared/RULINGS.md`` (``P…`` «пидор», ``D…`` «дурак», ``V…`` the durak
family's other variants, ``T…`` the table). A violation that one ruling covers in several ways gets a letter suffix
(``P5a``, ``D7b``); its ``ruling`` is the id without the suffix. The court shows
these texts when it opens; logs store only the ids. The table's rules are here; each game's
come with its folder, and the registry (:mod:`pidor.games`) looks any id up.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule", "TABLE_RULES", "ruling_of"]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    ru: str
    en: str
    violation: bool = False  # True: an action can break it (махлёж / провтык)
    #: True: breaking it can be out of the others' sight (it hangs on cards laid face down):
    #: a seat sees it broken only when what it knows proves it; the court says it was.
    hidden: bool = False

    @property
    def ruling(self) -> str:
        return ruling_of(self.id)

    def text(self, lang: str = "ru") -> str:
        return self.en if lang == "en" else self.ru


#: The table's rules (T), shared by every game.
TABLE_RULES = (
    Rule("T1", "Можно всё, что делается руками; нельзя смотреть чужие карты и ходить за другого.",
       "Anything hands can do is allowed; looking at hidden cards or acting for another is not."),
    Rule("T2", "Крик «пидор!» — на последний ход игрока; на один ход один крик.",
       "A call targets a player's latest action; one call per action."),
    Rule("T3", "После хода стол ждёт, пока все ответят «пидор!» или «пас», или пока не выйдет время окна.",
       "After an action the table waits for every call/pass answer or the call window's end."),
    Rule("T4", "Кричавший — голос «пидор», обвиняемый не голосует, остальные голосуют «пидор» или «чист».",
       "The caller counts as a «pidor» vote, the accused does not vote, the rest vote «pidor» or «clean»."),
    Rule("T5", "Крикнул на честный ход — суда нет, метка твоя.",
       "Calling an honest action: no court, the caller gets the mark."),
    Rule("T6", "Больше «пидор» — метка обвиняемому, ход отменён, переиграть честно; больше «чист» — метка кричавшему; поровну — ход отменён, метка на месте.",
       "More «pidor»: the accused gets the mark, the action is undone and must be replayed honestly; more «clean»: the caller gets the mark; a tie: the action is undone, the mark stays."),
    Rule("T7", "Метка одна; вышедший из партии её снимает; в конце она у проигравшего.",
       "One mark per table; a player who leaves sheds it; at the end it goes to the loser."),
    Rule("T8", "Открытие скрытых карт ждёт конца окна крика.",
       "Consequences that reveal hidden cards wait for the call window to close."),
    Rule("T9", "Кончилось время хода или игрок отключился — за него ходит честный бот.",
       "On a turn timeout or while disconnected, the honest bot plays the seat."),
    Rule("T10", "Вся случайность — из семян, записанных в лог.", "All randomness comes from seeds in the log."),
    Rule("T11", "Подсказки новичку — только за столом с ботами.", "Tutorial hints only at a table of bots."),
    Rule("T12", "Тексты — по-русски и по-английски.", "Texts exist in Russian and English."),
    Rule("T13", "Каждая партия кончается: третье повторение позиции, долго без продвижения или слишком долго — ничья.",
         "Every game ends: a position seen the third time, too long without progress, or too long in all is a draw."),
    Rule("T14", "За метку от суда платят картой: первый после получившего, у кого две карты и больше (жёстко — каждый).",
         "A mark from the court is paid in a card: by the first player after him holding two or more (hard: by each)."),
    Rule("T15", "Партия из нескольких сдач — одна партия: один лог, одна раздача сидов, один проигравший.",
         "A game of several deals is one game: one log, one committed seed, one loser."),
    Rule("T6r", "После осуждения ход нужно переиграть честно.",
       "After a guilty verdict the action must be replayed honestly."),
)

def ruling_of(rule_id: str) -> str:
    """``P5a`` -> ``P5``; ``T6r`` -> ``T6``; a ruling id is its own ruling."""
    return rule_id.rstrip("abcdefghijklmnopqrstuvwxyz")
