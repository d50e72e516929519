"""«Верю — не верю»'s rulings and violations (B1–B8) with their ru/en texts; ids as in
``shared/RULINGS.md``. Lying about the rank is the game, not махлёж: only B5f is a violation."""

from __future__ import annotations

from ...engine.rules import Rule

RULES = (
    Rule("B1", "3–6 игроков, 36 карт (или 52); сдаётся вся колода; ходит сидящий за сдающим.",
         "3–6 players, 36 cards (or 52); the whole deck is dealt; the player after the dealer leads."),
    Rule("B2", "Ход: карты рубашкой вверх и ранг («это три короля»); сколько карт — видно всем; врать можно.",
         "A lead: cards face down and a rank («three kings»); the count is seen by all; lying is allowed."),
    Rule("B3", "Следующий решает о последнем ходе: «верю», «не верю» или подкинуть ещё того же ранга.",
         "The next player decides about the last play: believe, doubt, or add more of the same rank."),
    Rule("B3a", "Решающий без карт может только верить или не верить.",
         "A decider with no cards may only believe or doubt."),
    Rule("B4", "Вскрывают только последний ход; туз идёт за любую карту. Поверил правде — стопка в отбой, "
               "ходишь сам; поверил вранью — берёшь; не поверил вранью — берёт совравший, ходишь сам; "
               "не поверил правде — берёшь.",
         "Only the last play is opened; an ace stands for any rank. Believed and true: the pile to the discard, "
         "the believer leads; believed and false: the believer takes; doubted and false: its player takes, the "
         "doubter leads; doubted and true: the doubter takes."),
    Rule("B5", "В свой ход можно скинуть в отбой четыре карты одного ранга, назвав ранг.",
         "On his turn a player may discard four cards of one rank, naming the rank."),
    Rule("B5f", "Скинул в отбой не четыре карты названного ранга.",
         "Discarded something other than four cards of the named rank.", True, hidden=True),
    Rule("B6", "Без карт выходишь, когда стопка к тебе уже не вернётся; последний с картами проиграл.",
         "With no cards you are out once the pile cannot come back to you; the last with cards loses."),
    Rule("B6a", "Двое последних вышли вместе — ничья.", "The last two out together: a draw."),
    Rule("B7", "Видно всем: сколько карт в каждом ходе, вскрытые ходы, скинутые ранги, кто что взял, сколько у кого карт.",
         "Everyone sees each play's count, every opened play, every set's rank, who took what, every hand's size."),
    Rule("B8", "check_one: вскрывают одну карту хода по выбору решающего. no_believe: одна карта отложена, "
               "«верю» нет, четвёрки скидывают в открытую.",
         "check_one: one card of the play is opened, the decider's choice. no_believe: one card is set aside, "
         "no «believe», sets are discarded face up."),
)
