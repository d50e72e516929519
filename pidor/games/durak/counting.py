"""Card counting in podkidnoy and perevodnoy: what a seat saw of the cards, from the events
it was shown (:class:`CardCount`), and the exact endgame position it gives once the deck is
empty and two players remain (:func:`endgame_position`, for :mod:`.endgame`)."""

from __future__ import annotations

from ...cards import card_code, parse_card
from ...cards import deck as full_deck
from .endgame import ATTACK, DEFEND, mask

__all__ = ["CardCount", "endgame_position", "endgame_action", "endgame_move"]


class CardCount:
    """The cards a seat has seen go out of play: the discard (every «бито» table, D5) and
    the card set aside under the trump (V10, once turned); and the cards each seat took
    (D6) and has not played since; made afresh for each game (a policy's tactics are) and at
    ``game_start``. ``sure`` is ``False`` once a card went back from the table (an undo,
    D11): then the counts are not trusted. (The endgame checks them against the hands'
    sizes anyway: a seat that missed a bout finds a card too many unseen.)"""

    __slots__ = ("discard", "aside", "took", "table", "sure")

    def __init__(self) -> None:
        self.discard: set[int] = set()
        self.aside: set[int] = set()
        self.took: dict[int, set[int]] = {}
        self.table: list[int] = []
        self.sure = True

    def see(self, event: dict) -> None:
        kind = event["type"]
        if kind == "action":
            a = event["action"]
            card = a.get("card")
            t = a["type"]
            if card is None or t == "give" or t == "show":
                return
            c = parse_card(card)
            if t in ("attack", "cover", "transfer"):
                self.table.append(c)
                took = self.took.get(event["seat"])
                if took:
                    took.discard(c)
        elif kind == "bout_over":
            if event["outcome"] == "take":
                self.took.setdefault(event["defender"], set()).update(self.table)
            else:
                self.discard.update(self.table)
            self.table = []
        elif kind == "game_start":
            self.__init__()
        elif kind == "trump_turned":
            self.aside.add(parse_card(event["card"]))
        elif kind == "undo":
            self.sure = False


def endgame_position(view: dict, count: CardCount) -> tuple | None:
    """The endgame position (:mod:`.endgame`) of the seat's view, from the side of the seat
    to move, when the deck is empty or holds only the trump card (D1), two players remain,
    the seat knows the other's hand and the table is the plain game's (no teams, поджопники,
    проездные or V10 trump still to turn, no payment due, the bout not barred from
    transfer); else ``None``."""
    deck = view["deck"]
    if deck and (deck > 1 or "second_trump" in view):  # (V10: the trump turns when it is drawn)
        return None
    if (not count.sure or view.get("teams") or view.get("reserve") or view.get("pass_card")
            or view["payments"] or view.get("barred") or view["phase"] != "bout" or view["game"] == "simple"):
        return None
    seat = view["seat"]
    alive = [s for s in range(view["players"]) if s not in view["out"]]
    if len(alive) != 2 or seat not in alive:
        return None
    other = alive[0] if alive[1] == seat else alive[1]
    hand = [parse_card(c) for c in view["hand"]]
    table = view["table"]
    on_table = [parse_card(c) for pair in table for c in pair if c is not None]
    gone = count.discard | count.aside
    last = mask([parse_card(view["trump_card"])]) if deck else 0  # D1: the trump card, face up
    if deck:
        gone = gone | {parse_card(view["trump_card"])}
    unseen = set(full_deck(view["deck_size"])) - gone - set(hand) - set(on_table)
    if len(unseen) != view["hands"][other]:
        return None  # the count does not add up: not sure of his hand
    uncovered = mask(parse_card(a) for a, c in table if c is None)
    d = view["defender"]
    if seat == d:
        if not uncovered:
            return None  # all covered: the defender waits (D5)
        A, D, kind = mask(unseen), mask(hand), DEFEND
    else:
        A, D, kind = mask(hand), mask(unseen), ATTACK
    return (A, D, uncovered, mask(on_table), view["limit"], kind, last)


def endgame_action(move: tuple, view: dict) -> dict | None:
    """The wire action of an endgame move (``None``: wait, the attacker's pass while the
    defender has cards to cover)."""
    kind = move[0]
    if kind == "pass":
        return None if any(c is None for _, c in view["table"]) else {"type": "bito"}
    if kind == "cover":
        target = next(i for i, (a, _) in enumerate(view["table"]) if parse_card(a) == move[2])
        return {"type": "cover", "card": card_code(move[1]), "target": target}
    if len(move) > 1:
        return {"type": kind, "card": card_code(move[1])}
    return {"type": kind}


def endgame_move(action: dict | None, view: dict) -> tuple:
    """The endgame move of a wire action (``None``: the attacker's pass, as waiting is)."""
    if action is None:
        return ("pass",)
    kind = action["type"]
    if kind == "bito":
        return ("pass",)
    if kind == "cover":
        return ("cover", parse_card(action["card"]), parse_card(view["table"][action["target"]][0]))
    return (kind, parse_card(action["card"])) if "card" in action else (kind,)
