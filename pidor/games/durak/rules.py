"""The durak family's rulings and violations (D1–D12, V1–V12) with their ru/en texts; ids as
in ``shared/RULINGS.md``. Each game of the family takes the rulings it plays
(:data:`RULINGS`)."""

from __future__ import annotations

from ...engine.rules import Rule

RULES = (
    Rule("D1", "Колода 36 (или 52); нижняя карта — козырь, уходит последней.",
       "A 36- (or 52-) card deck; the bottom card is trump and is drawn last."),
    Rule("D2", "Первую партию — бутылка; дальше ходит сидящий перед дураком.",
       "The bottle picks the first attacker; later the player before the durak attacks."),
    Rule("D3", "Подкидывают ранги, что уже на столе; за отбой не больше шести и не больше, чем карт у отбивающегося.",
       "Throw in ranks already on the table; at most six per bout and no more than the defender held."),
    Rule("D3r", "Подкинул ранг, которого нет на столе.", "Threw in a rank that is not on the table.", True),
    Rule("D3n", "Подкинул сверх предела.", "Threw in over the limit.", True),
    Rule("D4", "Кроют старшей той же масти или козырем; козырь — старшим козырем.",
       "Cover with a higher card of the suit or a trump; a trump only with a higher trump."),
    Rule("D4b", "Покрыл картой, которая не бьёт.", "Covered with a card that does not beat it.", True),
    Rule("D5", "Всё побито — «бито» или подкидывай; молчание засчитывается как «бито».",
       "All covered: say «bito» or throw in; silence counts as «bito»."),
    Rule("D6", "«Беру»: все карты со стола в руку.", "«Take»: every card on the table goes to the defender's hand."),
    Rule("D7", "Перевод: карта того же ранга, пока ничего не побито, и у следующего хватает карт.",
       "Transfer: a card of the same rank while nothing is covered, if the next player holds enough cards."),
    Rule("D7r", "Перевёл картой другого ранга.", "Transferred with a card of another rank.", True),
    Rule("D7c", "Перевёл, когда карта уже была побита.", "Transferred after a card was covered.", True),
    Rule("D7n", "Перевёл на игрока, у которого меньше карт, чем окажется на столе.",
       "Transferred to a player holding fewer cards than will be on the table.", True),
    Rule("D8", "Добор до шести: ходивший первым, отбивавшийся последним.",
       "Draw up to six: the lead attacker first, the defender last."),
    Rule("D9", "Пока в колоде есть карты, никто не выходит; последний с картами — дурак.",
       "Nobody leaves while the deck has cards; the last player with cards is the durak."),
    Rule("D10", "Махлёж в дураке: не та карта, не тот ранг, лишняя карта, неверный перевод.",
       "Cheating in durak: a wrong cover, rank, extra card, or transfer."),
    Rule("D11", "После осуждения карта возвращается в руку, переиграть честно.",
       "After a guilty verdict the card returns to the hand; replay honestly."),
    Rule("D12", "За метку платят картами: следующий по кругу (в жёстком режиме — все).",
       "The mark is paid in cards: by the next player (in hard mode, by everyone)."),
    # --- The durak family's other variants (V) ---
    Rule("V1", "Дурак простой: по пять карт, не подкидывают, «бито» само, когда всё покрыто; ход — не больше пяти карт и не больше, чем у отбивающегося.",
       "Simple durak: five cards each, no throwing in, «bito» once all is covered; a lead holds at most five cards and no more than the defender holds."),
    Rule("V2", "1.а: ходят одной картой, двумя одного ранга или двумя одного ранга и ещё одной; не покрыл все — берёшь все.",
       "1.a: lead one card, two of a rank, or two of a rank and one more; cover them all or take them all."),
    Rule("V3", "1.б: ходят одной картой, парой и картой или двумя парами и картой; можно покрыть часть и взять остальные, но ход тогда переходит дальше.",
       "1.b: lead one card, a pair and a card, or two pairs and a card; you may cover some and take the rest, and then lose your turn to attack."),
    Rule("V4", "«Пятки»: ходят только двумя картами одного ранга; нет пары — ход переходит к следующему.",
       "«Пятки»: lead exactly two cards of one rank; without a pair the attack passes to the next player."),
    Rule("V5", "Махлёж в простом дураке: не тот ход, ход сверх предела, покрыл не той картой, подкинул после хода.",
       "Cheating in simple durak: a wrong lead, a lead over the limit, a wrong cover, a card added after the lead."),
    Rule("V5s", "Пошёл так, как этот вариант ходить не позволяет.", "Led a set of cards this variant does not allow.", True),
    Rule("V5n", "Пошёл большим числом карт, чем пять или чем у отбивающегося.",
       "Led more cards than five or than the defender holds.", True),
    Rule("V5a", "Подкинул карту после хода: в простом дураке не подкидывают.",
       "Added a card after the lead: simple durak has no throwing in.", True),
    Rule("V6", "Командная игра: партнёры сидят через одного; подкидывают только противники отбивающегося; за вышедшего играет его партнёр.",
       "Team play: partners sit apart; only the defender's opponents throw in; a partner plays for a player who is out."),
    Rule("V7", "Выигрывает команда, вся вышедшая, пока у другой есть карты; вышли обе разом — ничья.",
       "A team wins when all its players are out while the other team holds cards; both at once: a draw."),
    Rule("V7p", "Подкинул под своего партнёра.", "Threw in under your own partner.", True),
    Rule("V8", "Последний ход под дурака был двумя младшими картами (шестёрками) — дурак с погонами.",
       "If the last attack on the durak was two cards of the lowest rank (two sixes), he wears «погоны»."),
    Rule("V9", "Домашние правила: первый ход «под дурака» не переводят; «до завала» — предел только по картам отбивающегося.",
       "House options: the first attack under the durak cannot be transferred; «до завала»: only the defender's hand limits the attack."),
    Rule("V9t", "Перевёл первый ход «под дурака», а в этой компании так нельзя.",
       "Transferred the first attack under the durak, which this table forbids.", True),
    # --- The yard variants (yard-games.ru.txt, «Дворовые разновидности») ---
    Rule("V10", "Двухкозырной: под козырем карта рубашкой вверх; кончилась колода — она открывается, и её масть — козырь до конца партии.",
       "Two trumps: a card lies face down under the trump card; when the deck runs out it turns, and its suit is trump for the rest of the game."),
    Rule("V11", "С поджопниками: по две или четыре карты под себя не глядя; их берут, когда кончились и колода, и рука, а выходят, когда кончились и они.",
       "«Поджопники»: two or four cards each, face down and unseen; taken up when deck and hand are empty; out only when they are gone too."),
    Rule("V11p", "Взял поджопники, когда ещё были карты в колоде или в руке.",
       "Took up your поджопники while the deck or your hand still held cards.", True),
    Rule("V12", "С проездным: отбивающийся показывает проездной и переводит дальше, какие бы ни были ранги, пока ничего не покрыто и у следующего хватает карт.",
       "Travel pass: a defender shows a проездной and transfers whatever the ranks, while nothing is covered and the next player holds enough cards."),
    Rule("V12f", "Показал как проездной карту, которая не проездной.",
       "Showed as a проездной a card that is not one.", True),)

_DURAK = ("D1", "D2", "D3", "D4", "D5", "D6", "D8", "D9", "D10", "D11", "D12", "V6", "V7", "V8", "V9", "V10", "V11")
#: The rulings each game plays; a violation goes with its ruling.
RULINGS = {
    "podkidnoy": _DURAK,
    "perevodnoy": (*_DURAK, "D7", "V12"),
    # V1-V5; of D: the deck, covering, «беру», drawing, leaving and the court's (V5: D4b).
    "simple": ("D1", "D4", "D6", "D8", "D9", "D11", "D12", "V1", "V2", "V3", "V4", "V5", "V8"),
}
#: Violations a game's rulings would take in but it cannot commit.
_NOT = {"podkidnoy": ("V9t",)}  # no transfers in podkidnoy


def rules_of(game: str) -> tuple[Rule, ...]:
    """The rules of one game of the family."""
    take, skip = RULINGS[game], _NOT.get(game, ())
    return tuple(r for r in RULES if r.ruling in take and r.id not in skip)
