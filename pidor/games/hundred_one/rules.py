"""«Сто одно»'s rulings and violations (H1–H9) with their ru/en texts; ids as in
``shared/RULINGS.md``. The table's rulings it leans on most: T13a (a T13 end voids the
deal), T14 (a mark from the court is paid in a card) and T15 (a game is a series of deals)."""

from __future__ import annotations

from ...engine.rules import Rule

__all__ = ["RULES"]

RULES = (
    Rule("H1", "2–6 игроков, 36 карт; партия — серия сдач, пока чей-нибудь счёт не перевалит за 101.",
         "2–6 players, 36 cards; a game is a series of deals until a score goes over 101."),
    Rule("H2", "Сдают по четыре карты по кругу со следующего за сдающим; свою четвёртую сдающий не глядя "
               "открывает на стол — это его первый ход (на даму он называет масть, увидев её).",
         "Four cards each, clockwise from the player after the dealer; the dealer turns his fourth card face up "
         "on the table unseen: it is his first play (a queen: he names the suit once it shows)."),
    Rule("H3", "Кроют в масть или в чин (даму — заказанной мастью или дамой); вместо этого можно взять одну "
               "карту, а после неё крыть или пасовать.",
         "Cover by suit or by rank (a queen: with the named suit or a queen); instead you may draw one card, "
         "then cover or pass."),
    Rule("H4", "Шестёрку кроет сам сходивший, добирая, пока нечем; семёрка: следующий берёт две и пропускает ход; "
               "восьмёрка: одну и пропускает; пиковый король: пять и пропускает; туз: пропускает; дама: "
               "сходивший заказывает масть.",
         "A six is covered by its own player, drawing until he can; a seven: the next player takes two and loses "
         "his turn; an eight: one, and loses his turn; the king of spades: five, and loses his turn; an ace: he "
         "loses his turn; a queen: its player names a suit."),
    Rule("H4a", "Штраф — ход наказанного: он сам берёт карты (за туза — ноль); вдвоём потом ход снова у сходившего.",
         "A penalty is the penalised player's turn: he takes the cards himself (none for an ace); with two players "
         "the turn then returns to the card's player."),
    Rule("H5", "Вдвоём после карты, от которой соперник пропускает ход, сходивший ходит снова (серии); втроём и "
               "больше — по карте за ход, кроме своих шестёрок.",
         "With two players a card that makes the opponent lose his turn gives the turn back (series); with three "
         "or more, one card a turn but one's own sixes."),
    Rule("H6", "Колода кончилась — стол, кроме верхней карты, тасуется в новую колоду; брать нечего — остаток "
               "штрафа прощён, а берущий тянет случайную карту у следующего, у кого их две и больше.",
         "When the deck runs out the table but its top card is shuffled into a new deck; with nothing left, the "
         "rest of a penalty is forgiven and a draw takes a random card from the next player holding two or more."),
    Rule("H7", "Махлёж: не та масть и не тот чин, своя шестёрка не покрыта, штраф не взят, не та масть на даму, "
               "второй добор, вторая карта за ход, пас без добора.",
         "Cheating: a card of another suit and rank, one's own six left uncovered, a penalty not taken, a queen "
         "covered with another suit, a second draw, a second card in a turn, a pass without a draw."),
    Rule("H7c", "Покрыл картой другой масти и другого чина.", "Covered with a card of another suit and rank.", True),
    Rule("H7s", "Не покрыл свою шестёрку и отдал ход.", "Left his own six uncovered and ended his turn.", True),
    Rule("H7p", "Не взял штраф: сходил вместо этого или взял меньше карт, чем должен.",
         "Ignored a penalty: played instead of taking, or took fewer cards than owed.", True),
    Rule("H7q", "Покрыл даму не заказанной мастью.", "Covered a queen with a suit other than the one named.", True),
    Rule("H7d", "Взял из колоды второй раз за ход.", "Drew a second card in one turn.", True),
    Rule("H7m", "Сходил второй картой за один ход.", "Played a second card in one turn.", True),
    Rule("H7n", "Спасовал, не взяв карты.", "Passed without having drawn.", True),
    Rule("H8", "Сдача кончается, когда у игрока не осталось карт; остальные пишут себе очки руки (В 2, Д 3, К 4, "
               "6–10 по номиналу, Т 11); вышедший дамой снимает 20, пиковой дамой 40, пиковым королём 50; "
               "ровно 101 — в ноль.",
         "A deal ends when a player has no cards; the others add their hands (J 2, Q 3, K 4, 6–10 by face, A 11); "
         "going out on a queen takes off 20, on the queen of spades 40, on the king of spades 50; exactly 101 "
         "becomes 0."),
    Rule("H9", "Чей-то счёт перевалил за 101 — партия окончена: у кого больше всех, тот проиграл (при равенстве — "
               "первый по кругу от вышедшего); остальные — по очкам, меньше — выше.",
         "When a score goes over 101 the game ends: the highest score loses (of equal ones, the first clockwise "
         "from the player who went out); the rest are placed by score, lowest first."),
)
