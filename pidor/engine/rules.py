"""The rule vocabulary: every ruling, violation and hint has an id and ru/en texts.

Ids are those of ``shared/RULINGS.md`` (``P…`` «пидор», ``D…`` «дурак», ``V…`` the durak
family's other variants, ``T…`` the table). A violation that one ruling covers in several ways gets a letter suffix
(``P5a``, ``D7b``); its ``ruling`` is the id without the suffix. The court shows
these texts when it opens; logs store only the ids.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule", "RULES", "rule", "ruling_of", "rule_texts", "rules_of"]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    ru: str
    en: str
    violation: bool  # True: an action can break it (махлёж / провтык)

    @property
    def ruling(self) -> str:
        return ruling_of(self.id)

    def text(self, lang: str = "ru") -> str:
        return self.en if lang == "en" else self.ru


def _r(id: str, ru: str, en: str, violation: bool = False) -> Rule:
    return Rule(id, ru, en, violation)


_ALL = [
    # --- The table (T) ---
    _r("T1", "Можно всё, что делается руками; нельзя смотреть чужие карты и ходить за другого.",
       "Anything hands can do is allowed; looking at hidden cards or acting for another is not."),
    _r("T2", "Крик «пидор!» — на последний ход игрока; на один ход один крик.",
       "A call targets a player's latest action; one call per action."),
    _r("T3", "После хода стол ждёт, пока все ответят «пидор!» или «пас», или пока не выйдет время окна.",
       "After an action the table waits for every call/pass answer or the call window's end."),
    _r("T4", "Кричавший — голос «пидор», обвиняемый не голосует, остальные голосуют «пидор» или «чист».",
       "The caller counts as a «pidor» vote, the accused does not vote, the rest vote «pidor» or «clean»."),
    _r("T5", "Крикнул на честный ход — суда нет, метка твоя.",
       "Calling an honest action: no court, the caller gets the mark."),
    _r("T6", "Больше «пидор» — метка обвиняемому, ход отменён, переиграть честно; больше «чист» — метка кричавшему; поровну — ход отменён, метка на месте.",
       "More «pidor»: the accused gets the mark, the action is undone and must be replayed honestly; more «clean»: the caller gets the mark; a tie: the action is undone, the mark stays."),
    _r("T7", "Метка одна; вышедший из партии её снимает; в конце она у проигравшего.",
       "One mark per table; a player who leaves sheds it; at the end it goes to the loser."),
    _r("T8", "Открытие скрытых карт ждёт конца окна крика.",
       "Consequences that reveal hidden cards wait for the call window to close."),
    _r("T9", "Кончилось время хода или игрок отключился — за него ходит честный бот.",
       "On a turn timeout or while disconnected, the honest bot plays the seat."),
    _r("T10", "Вся случайность — из семян, записанных в лог.", "All randomness comes from seeds in the log."),
    _r("T11", "Подсказки новичку — только за столом с ботами.", "Tutorial hints only at a table of bots."),
    _r("T12", "Тексты — по-русски и по-английски.", "Texts exist in Russian and English."),
    _r("T6r", "После осуждения ход нужно переиграть честно.",
       "After a guilty verdict the action must be replayed honestly."),
    # --- «Пидор» (P) ---
    _r("P1", "Первую партию начинает бутылка, следующую — сидящий за пидором.",
       "The bottle picks who starts the first game; the next is started by the player after the pidor."),
    _r("P2", "Каждому две карты рубашкой вверх и третья лицом вверх.", "Each player gets two cards face down and a third face up."),
    _r("P3", "Раздача: класть и перекладывать можно только на карту ровно на ранг младше (двойка — на туза).",
       "Deal phase: a card goes only on an open card exactly one rank lower (the lowest rank on the ace)."),
    _r("P3m", "Переложил свою открытую карту не на карту ровно на ранг младше.",
       "Moved your open card onto a card that is not exactly one rank lower.", True),
    _r("P3l", "Положил вытянутую карту не на карту ровно на ранг младше.",
       "Laid the drawn card on a card that is not exactly one rank lower.", True),
    _r("P4", "Стопка не бывает меньше трёх карт: открытую карту из трёх не переложить.",
       "A stack is never smaller than three cards: its open card cannot be moved then."),
    _r("P5", "Провтык: было что переложить, а потянул; или оставил себе карту, которую можно было положить.",
       "Provtyk: drawing while your open card could be moved, or keeping a card that could be laid."),
    _r("P5a", "Провтык: потянул из колоды, хотя свою открытую карту можно было переложить.",
       "Provtyk: drew while your open card could honestly be moved onto another player's card.", True),
    _r("P5b", "Провтык: оставил себе карту, которую можно было положить на чужую стопку.",
       "Provtyk: kept a card that fits on another player's open card.", True),
    _r("P5c", "Провтык: оставил себе карту, которую надо было положить на свою стопку и тянуть дальше.",
       "Provtyk: kept a card that fits on your own open card (lay it and draw on).", True),
    _r("P6", "Отменённый ход возвращает карту туда, откуда она пришла.", "An undone action puts the card back where it came from."),
    _r("P7", "Пидорство — каждая метка в раздаче.", "A pidorstvo is every mark received in the deal phase."),
    _r("P8", "Колода кончилась — всё выше двух нижних карт в руку, две нижние — прикуп.",
       "Deck empty: everything above the two bottom cards goes to hand; the two bottom cards are the prikup."),
    _r("P9", "Козырь — масть последней карты из колоды; пики козырем не бывают.",
       "Trump is the suit of the last card drawn; spades are never trump."),
    _r("P10", "Расплата: за каждое пидорство карта от следующего по кругу.",
       "Settlement: one card per pidorstvo, from the next players clockwise."),
    _r("P11", "Розыгрыш начинает тот, кто вытянул последнюю карту.", "Whoever drew the last card leads the first trick."),
    _r("P12", "Бьёт старшая той же масти или козырь по некозырной; двойка бьёт только туза своей масти; пику бьёт только старшая пика.",
       "Beat with a higher card of the suit or a trump on a non-trump; the lowest rank beats only its own ace; only a higher spade beats a spade."),
    _r("P12b", "Побил картой, которая не бьёт.", "Beat with a card that does not beat it.", True),
    _r("P13", "В розыгрыше бьют верхнюю карту; не побил — забираешь нижнюю.",
       "In trick play you beat the top card, or take the bottom card."),
    _r("P13t", "Побил не верхнюю карту стола.", "Beat a card that is not the top card.", True),
    _r("P13k", "Забрал со стола не нижнюю карту.", "Took a card that is not the bottom card.", True),
    _r("P14", "Взятка закрывается сама, когда карт на столе столько же, сколько игроков.",
       "A trick closes by itself when the table holds as many cards as there are players."),
    _r("P14c", "Закрыл взятку, когда карт на столе меньше, чем игроков.",
       "Closed the trick with fewer cards on the table than players.", True),
    _r("P15", "Прикуп берут в конце взятки; нет ни руки, ни прикупа — вышел.",
       "The prikup is taken at the end of a trick; no hand and no prikup: out."),
    _r("P16", "Остался с картами один — он пидор; ни у кого — ничья.", "The last player with cards is the pidor; nobody: a draw."),
    _r("P17", "Метки в розыгрыше картами не оплачиваются.", "Marks during trick play cost no cards."),
    # --- «Дурак» (D) ---
    _r("D1", "Колода 36 (или 52); нижняя карта — козырь, уходит последней.",
       "A 36- (or 52-) card deck; the bottom card is trump and is drawn last."),
    _r("D2", "Первую партию — бутылка; дальше ходит сидящий перед дураком.",
       "The bottle picks the first attacker; later the player before the durak attacks."),
    _r("D3", "Подкидывают ранги, что уже на столе; за отбой не больше шести и не больше, чем карт у отбивающегося.",
       "Throw in ranks already on the table; at most six per bout and no more than the defender held."),
    _r("D3r", "Подкинул ранг, которого нет на столе.", "Threw in a rank that is not on the table.", True),
    _r("D3n", "Подкинул сверх предела.", "Threw in over the limit.", True),
    _r("D4", "Кроют старшей той же масти или козырем; козырь — старшим козырем.",
       "Cover with a higher card of the suit or a trump; a trump only with a higher trump."),
    _r("D4b", "Покрыл картой, которая не бьёт.", "Covered with a card that does not beat it.", True),
    _r("D5", "Всё побито — «бито» или подкидывай; молчание засчитывается как «бито».",
       "All covered: say «bito» or throw in; silence counts as «bito»."),
    _r("D6", "«Беру»: все карты со стола в руку.", "«Take»: every card on the table goes to the defender's hand."),
    _r("D7", "Перевод: карта того же ранга, пока ничего не побито, и у следующего хватает карт.",
       "Transfer: a card of the same rank while nothing is covered, if the next player holds enough cards."),
    _r("D7r", "Перевёл картой другого ранга.", "Transferred with a card of another rank.", True),
    _r("D7c", "Перевёл, когда карта уже была побита.", "Transferred after a card was covered.", True),
    _r("D7n", "Перевёл на игрока, у которого меньше карт, чем окажется на столе.",
       "Transferred to a player holding fewer cards than will be on the table.", True),
    _r("D8", "Добор до шести: ходивший первым, отбивавшийся последним.",
       "Draw up to six: the lead attacker first, the defender last."),
    _r("D9", "Пока в колоде есть карты, никто не выходит; последний с картами — дурак.",
       "Nobody leaves while the deck has cards; the last player with cards is the durak."),
    _r("D10", "Махлёж в дураке: не та карта, не тот ранг, лишняя карта, неверный перевод.",
       "Cheating in durak: a wrong cover, rank, extra card, or transfer."),
    _r("D11", "После осуждения карта возвращается в руку, переиграть честно.",
       "After a guilty verdict the card returns to the hand; replay honestly."),
    _r("D12", "За метку платят картами: следующий по кругу (в жёстком режиме — все).",
       "The mark is paid in cards: by the next player (in hard mode, by everyone)."),
    # --- The durak family's other variants (V) ---
    _r("V1", "Дурак простой: по пять карт, не подкидывают, «бито» само, когда всё покрыто; ход — не больше пяти карт и не больше, чем у отбивающегося.",
       "Simple durak: five cards each, no throwing in, «bito» once all is covered; a lead holds at most five cards and no more than the defender holds."),
    _r("V2", "1.а: ходят одной картой, двумя одного ранга или двумя одного ранга и ещё одной; не покрыл все — берёшь все.",
       "1.a: lead one card, two of a rank, or two of a rank and one more; cover them all or take them all."),
    _r("V3", "1.б: ходят одной картой, парой и картой или двумя парами и картой; можно покрыть часть и взять остальные, но ход тогда переходит дальше.",
       "1.b: lead one card, a pair and a card, or two pairs and a card; you may cover some and take the rest, and then lose your turn to attack."),
    _r("V4", "«Пятки»: ходят только двумя картами одного ранга; нет пары — ход переходит к следующему.",
       "«Пятки»: lead exactly two cards of one rank; without a pair the attack passes to the next player."),
    _r("V5", "Махлёж в простом дураке: не тот ход, ход сверх предела, покрыл не той картой, подкинул после хода.",
       "Cheating in simple durak: a wrong lead, a lead over the limit, a wrong cover, a card added after the lead."),
    _r("V5s", "Пошёл так, как этот вариант ходить не позволяет.", "Led a set of cards this variant does not allow.", True),
    _r("V5n", "Пошёл большим числом карт, чем пять или чем у отбивающегося.",
       "Led more cards than five or than the defender holds.", True),
    _r("V5a", "Подкинул карту после хода: в простом дураке не подкидывают.",
       "Added a card after the lead: simple durak has no throwing in.", True),
    _r("V6", "Командная игра: партнёры сидят через одного; подкидывают только противники отбивающегося; за вышедшего играет его партнёр.",
       "Team play: partners sit apart; only the defender's opponents throw in; a partner plays for a player who is out."),
    _r("V7", "Выигрывает команда, вся вышедшая, пока у другой есть карты; вышли обе разом — ничья.",
       "A team wins when all its players are out while the other team holds cards; both at once: a draw."),
    _r("V7p", "Подкинул под своего партнёра.", "Threw in under your own partner.", True),
    _r("V8", "Последний ход под дурака был двумя младшими картами (шестёрками) — дурак с погонами.",
       "If the last attack on the durak was two cards of the lowest rank (two sixes), he wears «погоны»."),
    _r("V9", "Домашние правила: первый ход «под дурака» не переводят; «до завала» — предел только по картам отбивающегося.",
       "House options: the first attack under the durak cannot be transferred; «до завала»: only the defender's hand limits the attack."),
    _r("V9t", "Перевёл первый ход «под дурака», а в этой компании так нельзя.",
       "Transferred the first attack under the durak, which this table forbids.", True),
]

RULES: dict[str, Rule] = {r.id: r for r in _ALL}


def ruling_of(rule_id: str) -> str:
    """``P5a`` -> ``P5``; ``T6r`` -> ``T6``; a ruling id is its own ruling."""
    return rule_id.rstrip("abcdefghijklmnopqrstuvwxyz")


def rule(rule_id: str) -> Rule:
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule id {rule_id!r}") from None


def rule_texts(rule_id: str) -> dict:
    """The wire/log form of a rule: ``{"id", "ru", "en"}``."""
    r = rule(rule_id)
    return {"id": r.id, "ru": r.ru, "en": r.en}


#: The rulings of each game (``T``: the table, every game's); a violation goes with its ruling.
_DURAK = ("D1", "D2", "D3", "D4", "D5", "D6", "D8", "D9", "D10", "D11", "D12", "V6", "V7", "V8", "V9")
GAME_RULINGS = {
    "pidor": ("P",),
    "podkidnoy": _DURAK,
    "perevodnoy": (*_DURAK, "D7"),
    # V1-V5; of D: the deck, covering, «беру», drawing, leaving and the court's (V5: D4b).
    "simple": ("D1", "D4", "D6", "D8", "D9", "D11", "D12", "V1", "V2", "V3", "V4", "V5", "V8"),
}


def _of_game(r: Rule, game: str) -> bool:
    ruling = r.ruling
    if ruling.startswith("T"):
        return True
    if game == "podkidnoy" and r.id == "V9t":
        return False  # no transfers in podkidnoy
    return any(ruling == g or (len(g) == 1 and ruling.startswith(g)) for g in GAME_RULINGS[game])


def rules_of(game: str | None = None) -> list[dict]:
    """Every rule (of ``game``, if given: the table's and that game's) as ``{"id", "ru",
    "en", "violation"}``: what a bot needs to cheat on purpose or to judge a call (the
    ``rules`` request)."""
    return [{**rule_texts(r.id), "violation": r.violation} for r in _ALL if game is None or _of_game(r, game)]
