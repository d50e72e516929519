"""The durak family's yard variants (``yard-games.ru.txt``, «Дворовые разновидности») as
options of podkidnoy and perevodnoy: V10 «двухкозырной» (``two_trumps``), V11 «с
поджопниками» (``reserve``) and V12 «с проездным» (``pass_card``, perevodnoy only).

A mixin of :class:`pidor.games.durak.engine.DurakGame`. With every option off the state
holds nothing more and the engine plays as it did before them. State:

* ``aside``: V10, the card set aside face down under the trump card (``[]`` without the
  option). It is never drawn: when the last card of the deck is drawn it turns face up
  and its suit is trump for the rest of the game (``trump``); it stays out of play. It has
  turned exactly when the deck is empty.
* ``reserve_size``: V11, the поджопники each player was dealt (0, 2 or 4);
  ``reserves[seat]``: his, face down, unseen by everyone, their owner too, until they come
  up into his hand (when hand and deck are empty, at once); ``raising``: seats who took
  theirs up early (V11p, махлёж): they come up after the action's call window (T8).
* ``pass_cards``: V12, the проездные the host named (card ints; empty without the option);
  ``shown``: the cards shown as проездные (or as such, V12f) that are still in the hand that
  showed them: face up to everyone there (a zone of their own, ``shown.SEAT``), until they
  leave it.
"""

from __future__ import annotations

from typing import Any, Callable

from ...cards import card_code, parse_card
from ...cards import deck as full_deck
from ...engine.game import Action, Event, ImpossibleAction
from ...engine.options import Option

__all__ = ["YardVariants", "YARD_OPTIONS", "PASS_OPTION"]

#: V10 and V11, options of podkidnoy and perevodnoy. Quiet: a game without them logs as
#: before they existed.
YARD_OPTIONS = (
    Option("two_trumps", False, "bool",
           {"en": "V10 «двухкозырной»: a card lies face down under the trump card; when the deck runs out it "
                  "turns and its suit is trump",
            "ru": "V10 «двухкозырной»: под козырем карта рубашкой вверх; кончилась колода — она открывается и "
                  "становится козырем"}, quiet=True),
    Option("reserve", 0, "int",
           {"en": "V11 «с поджопниками»: 2 or 4 cards face down under each player, unseen, taken up when hand "
                  "and deck are empty",
            "ru": "V11 «с поджопниками»: каждому 2 или 4 карты под себя не глядя; берут, когда кончились и "
                  "колода, и рука"}, choices=(0, 2, 4), quiet=True),
)
#: V12, an option of perevodnoy.
PASS_OPTION = Option("pass_card", [], "cards",
                     {"en": "V12 «с проездным»: the card(s) a defender may show to transfer whatever the ranks",
                      "ru": "V12 «с проездным»: карта (карты), показав которую, отбивающийся переводит дальше, "
                            "какие бы ни были ранги"}, quiet=True)


def _impossible(message: str, rule: str) -> ImpossibleAction:
    return ImpossibleAction(message, rule)


def check_yard(out: dict, hand: int) -> None:
    """Refuse, in one line, options that cannot be played together: a проездной that is not
    in the deck (V12), and a deal that leaves no deck (V10, V11: the set-aside card goes
    under the trump card, and the trump card must stay under the deck)."""
    size = out["deck"]
    in_deck = set(full_deck(size))
    for code in out.get("pass_card") or ():
        if parse_card(code) not in in_deck:
            raise ValueError(f"pass_card {code} is not in the {size}-card deck (V12)")
    reserve, aside = out.get("reserve", 0), bool(out.get("two_trumps"))
    if reserve or aside:
        n = out["players"]
        dealt = n * (hand + reserve) + aside
        if dealt >= size:
            what = " and ".join(w for w in (f"reserve={reserve}" if reserve else "", "two_trumps" if aside else "") if w)
            raise ValueError(f"{what} with {n} players deals {dealt} of the {size} cards: the deal must leave a deck "
                             f"(V10, V11); seat fewer players" + (" or take deck=52" if size < 52 else ""))


class YardVariants:
    # What the game class provides (annotations only).
    players: int
    hands: list[list[int]]
    deck: list[int]
    attack: list[int]
    cover: list[int]
    defender: int
    owner: list[int]
    barred: bool
    trump: int
    trump_card: int
    _next_in: Callable[[int], int]

    aside: list[int]
    reserve_size: int
    reserves: list[list[int]]
    raising: list[int]
    pass_cards: frozenset[int]
    shown: list[int]

    # --- the deal and the data -----------------------------------------------------

    def _deal(self, order: list[int], opts: dict, hand: int) -> None:
        """Deal ``order`` (top first): ``hand`` each, one at a time round the table from seat
        0 (D1); then the поджопники the same way (V11); the rest is the deck, its bottom card
        the face-up trump card (D1), and under it, with V10, the set-aside card."""
        n, k = self.players, opts.get("reserve", 0)
        self.aside = order[-1:] if opts.get("two_trumps") else []
        rest = order[:len(order) - len(self.aside)]
        self.trump_card = rest[-1]
        self.trump = self.trump_card // 13
        self.hands = [rest[s:hand * n:n] for s in range(n)]
        self.reserve_size = k
        self.reserves = [rest[hand * n + s:(hand + k) * n:n] for s in range(n)]
        self.raising = []
        self.deck = rest[(hand + k) * n:][::-1]
        self.pass_cards = frozenset(parse_card(c) for c in opts.get("pass_card") or ())
        self.shown = []

    def _yard_data(self) -> dict:
        return {"aside": [card_code(c) for c in self.aside], "reserve": self.reserve_size,
                "reserves": [[card_code(c) for c in r] for r in self.reserves], "raising": list(self.raising),
                "pass_cards": sorted(card_code(c) for c in self.pass_cards),
                "shown": [card_code(c) for c in self.shown]}

    def _yard_from_data(self, data: dict) -> None:
        self.aside = [parse_card(c) for c in data.get("aside") or ()]
        self.reserve_size = data.get("reserve") or 0
        self.reserves = [[parse_card(c) for c in r] for r in data.get("reserves") or [[]] * self.players]
        self.raising = list(data.get("raising") or ())
        self.pass_cards = frozenset(parse_card(c) for c in data.get("pass_cards") or ())
        self.shown = [parse_card(c) for c in data.get("shown") or ()]
        if self.aside and not self.deck:  # V10: turned when the deck ran out
            self.trump = self.aside[0] // 13

    # --- what is seen ----------------------------------------------------------------

    def _view_yard(self, view: dict) -> None:
        """V10 ``second_trump``: ``None`` while face down, the card once turned; V11
        ``reserve``: the поджопники per seat, as counts (``raising``: seats whose come up
        early once the call window closes); V12 ``pass_card``: the проездные, and ``shown``:
        per seat, the cards it showed as such and still holds."""
        if self.aside:
            view["second_trump"] = None if self.deck else card_code(self.aside[0])
        if self.reserve_size:
            view["reserve"] = [len(r) for r in self.reserves]
            if self.raising:
                view["raising"] = list(self.raising)
        if self.pass_cards:
            view["pass_card"] = sorted(card_code(c) for c in self.pass_cards)
            view["shown"] = [[card_code(c) for c in hand if c in self.shown] for hand in self.hands]

    def _hidden_yard(self, hidden: set[int]) -> None:
        """V10: the set-aside card until it turns; V11: every поджопник, from its owner too;
        not V12's cards shown to all (face up in the hand that showed them)."""
        if self.aside and self.deck:
            hidden.update(self.aside)
        for r in self.reserves:
            hidden.update(r)
        hidden.difference_update(self.shown)

    def _zones_yard(self, zones: dict[str, list[int]]) -> None:
        if self.aside:
            zones["aside"] = list(self.aside)
        if self.reserve_size:
            for s, r in enumerate(self.reserves):
                zones[f"reserve.{s}"] = list(r)
        if self.pass_cards:  # a hand's cards shown to all (V12) lie face up in a zone of their own
            for s, hand in enumerate(self.hands):
                zones[f"hand.{s}"] = [c for c in hand if c not in self.shown]
                zones[f"shown.{s}"] = [c for c in hand if c in self.shown]

    # --- V11: the поджопники ------------------------------------------------------------

    def _check_reserve(self, seat: int) -> list[str]:
        """Taking your поджопники up: they come up by themselves once hand and deck are
        empty; taking them earlier is махлёж (V11p)."""
        if not self.reserves[seat]:
            raise _impossible("you have no поджопники" if self.reserve_size else
                              "this table plays without поджопники", "V11")
        if seat in self.raising:
            raise _impossible("your поджопники are coming up already", "V11")
        return [] if not self.hands[seat] and not self.deck else ["V11p"]

    def _honest_reserve(self, seat: int) -> bool:
        return not self.hands[seat] and not self.deck and bool(self.reserves[seat]) and seat not in self.raising

    def _take_up(self, seat: int, events: list[Event]) -> None:
        """V11: the seat's поджопники into his hand, in their order; he alone sees them."""
        cards, self.reserves[seat] = self.reserves[seat], []
        self.hands[seat].extend(cards)
        events.append({"type": "reserve", "seat": seat, "count": len(cards),
                       "_private": {seat: {"cards": [card_code(c) for c in cards]}}})

    def _raise(self, events: list[Event]) -> None:
        """The early take-ups (V11p) whose call windows closed uncalled (T8)."""
        for seat in self.raising:
            self._take_up(seat, events)
        self.raising = []

    # --- V10: the second trump --------------------------------------------------------

    def _turn_trump(self, events: list[Event]) -> None:
        """The deck has just run out: the set-aside card turns and names the trump (V10).
        Drawing waits for the bout to end (D8, T8), so no card on the table was laid under
        the old trump."""
        card = self.aside[0]
        self.trump = card // 13
        events.append({"type": "trump_turned", "card": card_code(card), "trump": "cdhs"[self.trump]})

    # --- V12: the проездной -----------------------------------------------------------

    def _check_show(self, card: int) -> list[str]:
        """The defender shows ``card`` as a проездной (it stays in his hand) and the attack
        passes to the next player, whatever the ranks. As a transfer (D7, D10): махлёж once a
        card is covered (D7c) or when the new defender holds fewer cards than the table's
        attacking cards (D7n); a card that is no проездной is махлёж too (V12f), shown to all."""
        if not self.pass_cards:
            raise _impossible("this table plays without a проездной", "V12")
        nxt = self._next_in(self.defender)
        if nxt == self.defender:
            raise _impossible("nobody to transfer to", "D7")
        v = []
        if card not in self.pass_cards:
            v.append("V12f")
        if any(c >= 0 for c in self.cover):
            v.append("D7c")
        if len(self.hands[self.owner[nxt]]) < len(self.attack):
            v.append("D7n")
        if self.barred:
            v.append("V9t")
        return v

    def _show(self, card: int) -> None:
        """The card shown is seen by all; it stays in the hand (V12)."""
        if card not in self.shown:
            self.shown.append(card)

    def _unshow(self, card: int) -> None:
        """A shown card left the hand: laid on the table."""
        if card in self.shown:
            self.shown.remove(card)

    def _unshow_hand(self, seat: int) -> None:
        """The seat paid a card for the mark, seen by the recipient only: nobody else knows
        whether it was a card he had shown, so none of his is shown any more."""
        hand = self.hands[seat]
        self.shown = [c for c in self.shown if c not in hand]

    def _honest_shows(self, hand: list[int], held_next: int) -> list[Action]:
        """The honest shows of a defender whose next player holds ``held_next`` cards (the
        caller knows no card is covered and the bout is not barred)."""
        if held_next < len(self.attack):
            return []
        return [("show", c) for c in hand if c in self.pass_cards]
