"""«Пень» and «пеньки»'s rulings and violations (S1–S7) with their ru/en texts; ids as in
``shared/RULINGS.md``."""

from __future__ import annotations

from ...engine.rules import Rule

RULES = (
    Rule("S1", "«Пень»: 2–6 игроков, 36 карт, старшинство туз, 10, король, дама, валет, 9–6; каждому пенёк "
               "(две карты рубашкой вверх), затем по четыре карты; карта под колодой — козырь.",
         "«Пень»: 2–6 players, 36 cards ranked ace, ten, king, queen, jack, nine to six; each gets a пенёк "
         "(two cards face down), then four cards; the card under the deck is trump."),
    Rule("S2", "Бьют старшей картой той же масти или козырем некозырную; побив, ходят любой картой сверху: "
               "карты ложатся в одну стопку.",
         "Beat with a higher card of the suit or a trump on a non-trump; having beaten, lead any card on top: "
         "the cards pile up in one stack."),
    Rule("S3", "После хода или взятия добирают до четырёх, пока есть колода; отбился последней картой — "
               "сперва добери, потом ходи.",
         "After a lead or a take, draw up to four while the deck lasts; beaten with your last card: draw "
         "first, then lead."),
    Rule("S4", "Не побил — бери сверху стопки: за туза 6 (в «пеньках» 11), короля 4, даму 3, валета 2, "
               "10–6 по номиналу, или всю стопку, если в ней меньше; следующий бьёт новую верхнюю карту.",
         "Not beating: take from the top of the stack: ace 6 («пеньки» 11), king 4, queen 3, jack 2, ten to "
         "six by face, or the whole stack if smaller; the next player beats the new top card."),
    Rule("S5", "Рука пуста и колоды нет — бери пенёк; нет ничего — вышел; последний с картами — пень; "
               "последние двое вышли разом — ничья; следующую сдаёт пень.",
         "Hand empty and no deck: pick up your пенёк; nothing left: out; the last with cards is the пень; "
         "the last two out together: a draw; the пень deals next."),
    Rule("S6", "«Пеньки»: обычное старшинство, после пеньков сдаётся вся колода, последняя карта сдачи — "
               "козырь, туз — 11 карт, добора нет.",
         "«Пеньки»: ordinary ranking, the whole deck dealt after the пеньки, the last card dealt names trump, "
         "the ace takes 11, no drawing."),
    Rule("S7", "Махлёж в пне: не та карта, меньше карт взял, не столько добрал, раскопки, пенёк раньше времени.",
         "Cheating in «пень»: a card that does not beat, too few taken, a wrong draw, digging, the пенёк too early."),
    Rule("S7b", "Побил картой, которая не бьёт.", "Beat with a card that does not beat it.", True),
    Rule("S7t", "Взял из стопки меньше карт, чем велит карта.", "Took fewer cards than the card says.", True),
    Rule("S7d", "Добрал больше четырёх.", "Drew past four.", True),
    Rule("S7n", "Добрал меньше, чем положено.", "Drew fewer cards than owed.", True),
    Rule("S7m", "Раскопки: взял карты не сверху стопки.", "«Раскопки»: took cards from below the top of the stack.",
         True),
    Rule("S7p", "Взял пенёк, когда на руках есть карты или в колоде есть карты.",
         "Picked up the пенёк while holding cards or while the deck has cards.", True),
)
