"""«Пьяница»'s rulings and violations (W1–W6) with their ru/en texts; ids as in
``shared/RULINGS.md``."""

from __future__ import annotations

from ...engine.rules import Rule

RULES = (
    Rule("W1", "Двое; 36 карт или 52. Сдаётся вся колода: у каждого своя колода рубашкой вверх, в неё никто не смотрит.",
         "Two players; 36 cards, or 52. The whole deck is dealt: each player's cards are his own face-down deck "
         "that nobody looks at."),
    Rule("W2", "Бой: оба открывают верхнюю карту своей колоды (кто первым — по жребию); старше по рангу — выиграл, "
               "масть не важна; равные — «спорная»: открывают ещё, пока одна не окажется старше.",
         "A battle: each flips the top card of his deck (who first is drawn by lot); the higher rank wins, suits do "
         "not matter; equal ranks are a dispute: flip again until one card is higher."),
    Rule("W2a", "Когда одна карта старше, забрать может любой, засчитывается первый; пока на столе решённый бой, "
                "никто не открывает.",
         "When one card is higher, either player may collect, the first collect counts; nobody flips while a "
         "decided battle lies on the table."),
    Rule("W2b", "Честный порядок: сначала решившая пара (карта победителя, под неё побеждённая), потом прежние, "
                "последние сначала, — всё под низ колоды победителя.",
         "The honest order: the deciding pair first (the winner's card, then the loser's), then the earlier flips, "
         "latest first, all under the winner's deck."),
    Rule("W3", "Кончились карты в споре — тянешь случайную карту из колоды противника (после его хода) и открываешь; "
               "кончились у обоих — ничья.",
         "Out of cards in a dispute: draw a random card from your opponent's deck (after his flip) and flip it; "
         "both out: a draw."),
    Rule("W4", "Нечего открыть вне спора — проиграл и получил метку.",
         "No card to flip outside a dispute: you lose and get the mark."),
    Rule("W4a", "Четыре туза: у кого в конце боя все четыре туза, тот выиграл (кроме «рубашкой вниз» и «душу тянуть»).",
         "Four aces: whoever holds all four aces at the end of a battle wins (not with face_down_dispute or "
         "six_beats_ace)."),
    Rule("W5", "Махлёж в пьянице: забрал чужой или нерешённый бой, не в том порядке, не под низ, открыл не верхнюю карту.",
         "Cheating in «пьяница»: collecting a battle you did not win, in another order, anywhere but under the "
         "deck, flipping any card but the top one."),
    Rule("W5g", "Забрал карты, когда твоя карта младше, или в нерешённом споре.",
         "Collected when your card was lower, or in an undecided dispute.", True),
    Rule("W5o", "Забрал карты не в честном порядке (W2b).", "Collected in another order than the honest one (W2b).",
         True),
    Rule("W5t", "Положил выигранные карты не под низ колоды.", "Put won cards anywhere but under the deck.", True),
    Rule("W5b", "Открыл не верхнюю карту колоды.", "Flipped a card that is not the top one of the deck.", True),
    Rule("W6", "Варианты: «рубашкой вниз» (в споре сначала карта не в счёт, потом решающая), «душу тянуть» "
               "(младшая бьёт туза), с перетасовкой выигранных карт.",
         "Options: face_down_dispute (in a dispute a card that does not count, then one that decides), "
         "six_beats_ace (the lowest rank beats the ace), reshuffle (won cards are shuffled in when a deck runs out)."),
)
