"""What one seat knows, built from what it was shown: a view, then projected events.

:class:`Knowledge` keeps a **belief**: an engine :class:`~pidor.engine.table.Table` whose
public cards, counts, own hand, mark, window and court are exactly those the seat saw, and
whose hidden slots (the deck, face-down cards, other hands, prikups) hold the cards the
seat cannot place, in some order. It starts from a view (a ``snapshot``'s, or
``Table.view(seat)`` in-process) and is advanced by the engine itself: every public
``action`` event is played on the belief table (``act``), and ``window_closed``, ``call``,
``vote``, ``abstain``, ``verdict`` and ``bito_timeout`` become the table calls that made
them. Before a card is used, it is swapped into place among the unknown cards: the card a
player lays was in his hand, the card drawn face up (P9) was on top of the deck, a card
turned face up lay where the game's belief says (``Belief.placed``), the cards dealt to
this seat are the ones its private events name; in a game of several deals (T15) each new
deal fills the hidden slots afresh. No rule is written twice:
the engine judges the belief as it judges the real table.

Because almost no rule depends on a hidden card (each is judged from the open cards, the
table, the counts and the trump), the belief judges every action as the real table does.
:meth:`Knowledge.visible_violations` is therefore the table's own check on the state before
the action (``tests/test_observe.py`` checks it against the recorded violations of many
cheating games). The exception is a rule that hangs on cards laid face down (``Rule.hidden``:
a set discarded face down that is not one): an action whose cards the seat was not shown
is played with cards the game's belief chooses (:meth:`Belief.hidden`), honest ones where
they can be, so the seat sees such a rule broken only where what it knows proves it; a
court on it tells the belief the rest.

It works the same over TCP (the SDK has snapshots and events only) as in-process: the
events are kept as they come and played when a policy first asks (``visible_violations``,
``determinize``, ``actions``): a policy that never asks pays nothing. A fresh view
(``reset``) rebuilds the belief; so does anything the belief cannot follow (e.g. a view
taken while a call window was open, whose action the view does not show): until then
the seat's knowledge answers as if nothing was seen to break a rule.

What a rebuilt belief forgets: which cards are in the discard pile and which cards others
were seen to take or hold (a view shows counts only); events seen since keep adding.
A hidden payment (P10, D12, seen by neither side) makes the giver's cards unknown: the
seat no longer knows which of them went.
"""

from __future__ import annotations

from typing import Any, Callable

from ..cards import card_code, parse_card
from ..engine.game import ActionError, Game, project
from ..engine.seeds import Rng
from ..engine.table import TABLE_OPTIONS, Court, Table, Timer, Window, known_options
from ..games import part
from .belief import Belief, BeliefLost
from .policy import Observation

__all__ = ["Knowledge", "KnowingSeat"]

def _no_wait(cls: type[Game]) -> dict:
    """The belief's clocks: 0 s, so that a ``tick(0)`` runs whatever the real clock ran out."""
    clocks = {o.name: 0.0 for o in TABLE_OPTIONS + cls.CLOCKS if o.kind == "seconds"}
    return {**clocks, "turn_timeout": None, "tutorial": False}

class Knowledge:
    """One seat's knowledge of the current game (``seat=None``: a spectator's, the public
    knowledge every seat shares). ``feed`` it every event (projected for the seat, or in
    full: it projects them itself); ``reset`` it with a fresh view.
    ``log``: a list of events shared with other seats' knowledge (the driver's: it appends
    each event once for every seat, and nobody calls ``feed``)."""

    __slots__ = ("seat", "rules", "_events", "_done", "_ahead", "_table", "_view", "_unknown", "_cards", "_gave",
                 "_before")

    def __init__(self, seat: int | None, rules: dict, log: list[dict] | None = None) -> None:
        self.seat = seat
        self.rules = rules
        self._events: list[dict] = [] if log is None else log  # as fed (full or projected)
        self._done = 0  # events played on the belief
        self._ahead = 0  # events given to the game's belief ahead of their call (Belief.AHEAD)
        self._table: Table | None = None
        self._view: Any = None  # the view to build the belief from, until it is built
        self._unknown: set[int] = set()
        self._gave: list[int] = []  # the cards this seat paid with, in order (its events do not show them)
        self._before: set[int] | None = None  # the unknown cards before the last action, if it was hidden
        found = part(rules["game"], "belief")
        #: What the game's folder says about where cards lie (``None``: the game has no
        #: belief, so the seat's knowledge answers as if nothing was seen).
        self._cards: Belief | None = None if found is None else found.BELIEF

    # ------------------------------------------------------------------ input

    def reset(self, view: dict | Callable[[], dict], events: list[dict] | None = None) -> None:
        """A fresh view (or a function that gives it, called when the belief is first
        needed): the belief is rebuilt from it. ``events``: this game's events up to the
        view, to keep instead of those kept so far (``None``: keep them); the view already
        shows their effect."""
        if events is not None:
            self._events[:] = events
        self._done = self._ahead = len(self._events)
        self._gave = []
        self._before = None
        self._table, self._view = None, view

    def _build(self) -> None:
        view, self._view = self._view, None
        if self._cards is None:
            return
        try:
            view = view() if callable(view) else view
            game, self._unknown = self._cards.from_view(view, self.rules, self.seat)
            self._table = _belief_table(self.rules, view, game)
        except (KeyError, TypeError, ValueError, IndexError):
            self._table = None

    def feed(self, events: list[dict]) -> None:
        self._events.extend(events)

    def sent(self, action: dict) -> None:
        """The table took ``action`` of this seat: a payment's card is shown to the
        recipient only (P10, D12), so the seat remembers which card it gave."""
        if action.get("type") == "give" and type(action.get("card")) is str:
            self._gave.append(parse_card(action["card"]))

    def unsent(self) -> None:
        """The table refused the last action :meth:`sent` told of (over TCP: ``stale``)."""
        if self._gave:
            self._gave.pop()

    def events(self, start: int = 0) -> list[dict]:
        """This game's events as the seat saw them (projected), from the ``start``-th on."""
        seat = self.seat
        return [project(e, seat) for e in self._events[start:]]

    # ------------------------------------------------------------------ answers

    def belief(self) -> Table | None:
        """The belief table, advanced through every event fed (``None``: lost until the
        next view)."""
        events, seat = self._events, self.seat
        if self._view is not None:
            self._build()
        while self._table is not None and self._done < len(events):
            i = self._done
            e = project(events[i], seat)
            after = None  # (only an action whose card shows in its consequence, and a call, need the event after)
            if self._cards.AHEAD:
                self._look_ahead(i)
            if e["type"] == "call" or e["type"] == "action" and e["action"].get("type") in self._cards.LOOKAHEAD:
                if i + 1 >= len(events):
                    break  # its consequence (e.g. the card drawn, P9) has not come yet
                after = project(events[i + 1], seat)
            try:
                self._play(e, after)
            except (ActionError, BeliefLost, KeyError, TypeError, ValueError, IndexError):
                self._table = None
                break
            self._done = i + 1
        return self._table

    def _look_ahead(self, i: int) -> None:
        """Before event ``i`` is played on the belief: each later event up to the next action
        (the consequences of the calls before it) that the game's belief reads ahead of its
        call (:data:`Belief.AHEAD`: hands counted at a deal's end, T15), once."""
        events, kinds = self._events, self._cards.AHEAD
        k = max(i + 1, self._ahead)
        while k < len(events) and events[k]["type"] != "action":
            if events[k]["type"] in kinds:
                self._cards.ahead(self._table.game, project(events[k], self.seat), self.seat)
            k += 1
        self._ahead = k

    def actions(self) -> list[dict]:
        """Every action the seat's hands could make now (cheats included)."""
        t = self.belief()
        if t is None:
            return []
        game = t.game
        return [game.action_data(a) for a in t.actions(self.seat)]

    def may_wait(self) -> bool:
        t = self.belief()
        return t is not None and t.game is not None and t.game.may_wait(self.seat)

    def obliged(self) -> bool:
        """Whether the table waits on this seat's action now (``True`` when the belief is
        lost: a seat that cannot tell had better act)."""
        t = self.belief()
        return t is None or t.game is None or self.seat in t.game.obliged()

    def visible_violations(self, seat: int, action: dict) -> tuple[str, ...]:
        """The rule ids ``action`` of ``seat`` breaks, judged by the engine on the public
        state in which it is made: the open window's action on the state before it (the
        belief's own window), any other on the state now. ``()`` when the belief is lost
        or the action is one the seat's hands could not make."""
        t = self.belief()
        if t is None or t.game is None:
            return ()
        w = t.window
        if w is not None and w.seat == seat and w.action == action:
            return tuple(w.violations)
        game = t.game
        saved = game.snapshot()
        try:
            parsed = game.parse_action(action)
            self._into_hand(game, seat, parsed)
            return game.check(seat, parsed)
        except (ActionError, BeliefLost):
            return ()
        finally:
            game.restore(saved)

    def determinize(self, rng: Rng) -> Game | None:
        """An engine game consistent with everything the seat has seen: the cards it cannot
        place are dealt at random (``rng``) into the hidden slots (and then weighed by what
        the players said, :meth:`Belief.weigh`), everything else is as seen. ``None`` when
        the belief is lost."""
        t = self.belief()
        if t is None or t.game is None:
            return None
        game = type(t.game).from_data(t.game.to_data())
        slots = [(cards, i) for cards in self._cards.lists(game) for i, c in enumerate(cards) if c in self._unknown]
        deal = [cards[i] for cards, i in slots]
        for k in range(len(deal) - 1, 0, -1):  # Fisher–Yates with the caller's Rng (T10)
            j = rng.below(k + 1)
            deal[k], deal[j] = deal[j], deal[k]
        for (cards, i), c in zip(slots, deal):
            cards[i] = c
        self._cards.weigh(game, rng, slots)
        return game

    # ------------------------------------------------------------------ the belief's moves

    def _play(self, e: dict, after: dict | None) -> None:
        t, kind = self._table, e["type"]
        if kind == "action":
            game = t.game
            seat = e["seat"]
            data = e["action"]
            self._before = None
            if data.get("type") == "give" and "card" not in data:
                if seat == self.seat and self._gave and self._gave[0] in game.hands[seat]:
                    data = {"type": "give", "card": card_code(self._gave.pop(0))}
                else:
                    self._hidden_give(seat)
                    return
            hidden = self._cards.hidden(game, seat, data, self._unknown) if seat != self.seat else None
            if hidden is not None:
                self._play_hidden(seat, hidden)
                return
            action = game.parse_action(data)
            shown = self._cards.revealed(game, action, after) if after is not None else ()
            if shown:
                self._place(game, shown)
            if seat != self.seat:
                self._into_hand(game, seat, action)
            t.act(seat, action, 0.0)
            self._unknown.difference_update(self._cards.from_hand(action))
            self._unknown.difference_update(card for _, card in shown)
        elif kind == "window_closed" or kind == "verdict" or kind == "bito_timeout":
            if kind != "verdict" or t.court is not None:
                self._undone(t.tick(0.0))
        elif kind == "call":
            w = t.window
            if w is not None and not w.violations and after is not None and after["type"] == "court":
                # a rule broken out of this seat's sight (cards laid face down): the court says which
                w.violations = [r["id"] for r in after["rules"]]
            self._undone(t.answer(e["caller"], True, 0.0))  # (a court with no voters decides at once)
        elif kind == "vote":
            self._undone(t.vote(e["seat"], e["guilty"], 0.0))
        elif kind == "abstain":
            self._undone(t.abstain(e["seat"], 0.0))
        else:
            self._reveal(e)

    def _undone(self, events: list[dict]) -> None:
        """A court undid the action: an action hidden from the seat takes back with it what
        the seat stopped knowing (:meth:`_play_hidden`)."""
        if self._before is not None and any(e["type"] == "undo" for e in events):
            self._unknown, self._before = self._before, None

    def _reveal(self, e: dict) -> None:
        """A consequence already played on the belief: put the cards it shows this seat
        where it says (they were unknown: swapped with the belief's guesses), and let the
        game's belief follow what it announces."""
        cards = e.get("cards") if e.get("seat") == self.seat and self.seat is not None else None
        game = self._table.game
        unknown = self._cards.afresh(game, e, self.seat)
        if unknown is not None:  # (a new deal, a deck rebuilt from the table: T15)
            self._unknown = unknown
        elif cards and e["type"] in self._cards.HAND_EVENTS:
            hand = game.hands[self.seat]
            got = [parse_card(c) for c in cards]
            first = len(hand) - len(got)  # the engine put the belief's guesses here, in order
            for i, card in enumerate(got):
                guess = hand[first + i]
                if guess != card:
                    if card not in self._unknown and card not in hand[first:]:
                        raise BeliefLost(f"{card_code(card)} came to this seat, which saw it elsewhere")
                    if card in self._unknown:  # the guess takes the card's hidden place
                        self._unknown.add(guess)
                    self._swap(game, card, guess)
            self._unknown.difference_update(got)
        elif e["type"] == "give" and "card" in e and e.get("to") == self.seat:
            self._unknown.discard(parse_card(e["card"]))
        else:
            for card, cards, i in self._cards.placed(game, e):
                if cards[i] != card:
                    if card not in self._unknown:
                        raise BeliefLost(f"{card_code(card)} was shown, but the seat saw it elsewhere")
                    self._swap(game, card, cards[i])
                self._unknown.discard(card)
            placed = self._cards.follow(game, e)
            if placed:
                self._unknown.difference_update(placed)

    def _play_hidden(self, seat: int, action: tuple) -> None:
        """An action of ``seat`` whose cards this seat was not shown, played with cards the
        game's belief chose (:meth:`Belief.hidden`): which of his cards went is unknown, so
        all of his, and those played, are unknown after it. Its undo point is kept even
        when the belief sees no rule broken: one may be, out of sight (a court says so)."""
        t = self._table
        game = t.game
        self._into_hand(game, seat, action)
        before = game.snapshot()
        t.act(seat, action, 0.0)
        self._before = set(self._unknown)
        self._unknown.update(game.hands[seat])
        self._unknown.update(self._cards.from_hand(action))
        w = t.window
        if w is not None and w.seat == seat and w.snapshot is None:
            w.snapshot = before

    def _hidden_give(self, giver: int) -> None:
        """A payment seen by neither side (P10, D12): some card of the giver's goes; which
        one is unknown, so all of his are."""
        game = self._table.game
        hand = game.hands[giver]
        self._unknown.update(hand)
        action = ("give", hand[-1])
        self._table.act(giver, action, 0.0)

    def _into_hand(self, game: Any, seat: int, action: tuple) -> None:
        """The cards of ``action`` were in ``seat``'s hand: swap them there among the unknown."""
        cards = self._cards.from_hand(action)
        if not cards:  # (an action that takes no card from a hand; a game may have no hands)
            return
        hand = game.hands[seat]
        for card in cards:
            if card in hand:
                continue
            if card not in self._unknown:
                raise BeliefLost(f"seat {seat} played {card_code(card)}, which the seat saw elsewhere")
            spare = next((c for c in reversed(hand) if c in self._unknown and c not in cards), None)
            if spare is None:
                raise BeliefLost(f"seat {seat} has no card the seat cannot place")
            self._swap(game, card, spare)

    def _place(self, game: Any, shown: list[tuple[int, int]]) -> None:
        """Each card shown where the belief holds another (``(held, shown)`` pairs: the top
        of the deck, a play turned face up), swapped into that place."""
        places = [self._where(game, held) for held, _ in shown]
        for (cards, i), (_, card) in zip(places, shown):
            if cards[i] != card:
                if card not in self._unknown:
                    raise BeliefLost(f"{card_code(card)} was shown, but the seat saw it elsewhere")
                other, j = self._where(game, card)
                cards[i], other[j] = card, cards[i]

    def _where(self, game: Any, card: int) -> tuple[list[int], int]:
        for cards in self._cards.lists(game):
            if card in cards:
                return cards, cards.index(card)
        raise BeliefLost(f"cannot find {card_code(card)}")

    def _swap(self, game: Any, a: int, b: int) -> None:
        la = lb = None
        for cards in self._cards.lists(game):
            if la is None and a in cards:
                la = cards
            if lb is None and b in cards:
                lb = cards
        if la is None or lb is None or a == b:
            raise BeliefLost(f"cannot find {card_code(a)} and {card_code(b)}")
        ia, ib = la.index(a), lb.index(b)
        la[ia], lb[ib] = b, a


# ---------------------------------------------------------------------------------------


def _belief_table(rules: dict, view: dict, game: Game) -> Table:
    """A table around ``game`` with the view's public table state and clocks of 0 s."""
    status = view.get("status") or {}
    options = known_options(rules, type(game))
    options.update(_no_wait(type(game)))
    t = Table(options)
    t.game = game
    t.games = status.get("number", 1)
    t.mark = status.get("mark")
    t.honest_only = set(status.get("honest_only") or ())
    t.over = status.get("state") == "over"
    w = status.get("window")
    if w is not None:  # which action it is about, the view does not say: lost at the first call
        t.window = Window(w["seat"], {}, [], list(w["owing"]), 0.0, None, t.mark)
    c = status.get("court")
    if c is not None:
        t.court = Court(c["caller"], c["accused"], c["action"], [r["id"] for r in c["rules"]], {},
                        set(c["voters"]), 0.0, None, t.mark)
    timer = game.timer()
    if timer is not None:
        t.timer = Timer(timer[0], timer[1], 0.0)
    return t


class KnowingSeat(Observation):
    """An observation whose events, and what the seat works out from them, come from the
    seat's own :class:`Knowledge` (``self.knowledge``): the SDK's over TCP, a sealed ``py:``
    entrant's, the driver's (which answers ``actions`` and ``visible_violations`` off the
    table instead)."""

    __slots__ = ()
    knowledge: Knowledge

    @property
    def events(self) -> list[dict]:
        return self.knowledge.events()

    def events_from(self, start: int) -> list[dict]:
        return self.knowledge.events(start)

    def actions(self) -> list[dict]:
        return self.knowledge.actions()

    def visible_violations(self, seat: int, action: dict) -> tuple[str, ...]:
        return self.knowledge.visible_violations(seat, action)

    def determinize(self, rng: Rng) -> Any:
        return self.knowledge.determinize(rng)
