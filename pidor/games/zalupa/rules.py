"""«Залупа»'s rulings and violations (Z1–Z7) with their ru/en texts; ids as in
``shared/RULINGS.md``."""

from __future__ import annotations

from ...engine.rules import Rule

RULES = (
    Rule("Z1", "Вчетвером, 24 карты (от девятки до туза); у каждого свой козырь по жребию на всю игру.",
         "Four players, 24 cards (nine to ace); each player's own trump suit, drawn by lot for the whole game."),
    Rule("Z2", "По шесть карт, пока хватает; кто держит чужой младший козырь, отдаёт его хозяину.",
         "Six cards each while they last; whoever holds another player's lowest trump hands it to him."),
    Rule("Z3", "Бьют старшей той же масти или своим козырем; побил — ходи сверху; не побил — забирай всю стопку.",
         "Beat with a higher card of the suit or with your own trump; having beaten, lead on top; "
         "else take the whole stack."),
    Rule("Z3a", "Побил последней картой — вышел; следующий бьёт эту карту, если не было «отбоя».",
         "Beating with your last card takes you out; the next player beats that card unless you said «отбой»."),
    Rule("Z4", "Побив, можно сказать «отбой»: стопка уходит в отбой, ходит следующий.",
         "Having beaten, you may say «отбой»: the stack goes to the discard and the next player leads."),
    Rule("Z5", "Кон проигрывает последний с картами (или, если двое вышли разом, бившийся последним): "
               "он откладывает младший козырь и пишет букву.",
         "The last player holding cards (or, when the last two run out together, the one who beat last) "
         "loses the kon, sets aside his lowest trump and gets a letter."),
    Rule("Z6", "Шесть букв «залупа» — проиграл игру; с «титулами» играют до левого яйца, правого яйца и мужика.",
         "Six letters, «залупа», lose the game; with titles play goes on to «левое яйцо», «правое яйцо» "
         "and «мужик»."),
    Rule("Z7", "Махлёж в залупе: побил не своим козырем, взял не всю стопку, сказал «отбой», не побив.",
         "Cheating in «залупа»: a beat that does not beat under your own trump, a take short of the whole "
         "stack, «отбой» without having beaten."),
    Rule("Z7b", "Побил картой, которая не бьёт под вашим козырем.",
         "Beat with a card that does not beat under your own trump.", True),
    Rule("Z7t", "Взял не всю стопку.", "Took less than the whole stack.", True),
    Rule("Z7o", "Сказал «отбой», не побив.", "Said «отбой» without having just beaten.", True),
)
