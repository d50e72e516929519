"""What a game's folder tells a seat's knowledge (:class:`~.observe.Knowledge`) about where
cards lie: the base class of every game's ``belief.py`` (OpenSpiel's
``ResampleFromInfostate``, split into what differs per game).

A belief is an engine game whose public cards and counts are exactly those a seat saw, and
whose hidden slots hold the cards the seat cannot place, in some order. The knowledge
plays every public action on it with the engine itself and swaps cards into place as they
show; a game's :class:`Belief` says

* :meth:`Belief.from_view`: how to build such a game from the seat's view;
* :meth:`Belief.lists`: the lists of the game's state in which cards lie (hidden or not);
* :meth:`Belief.from_hand`: which cards an action takes from the actor's hand;
* :data:`Belief.HAND_EVENTS`: events whose private ``cards`` came into the seat's hand (at
  its end, in order: a draw, a prikup);
* :meth:`Belief.placed`: the cards a public event turns face up where they lie (a card set
  aside face down, turned);
* :meth:`Belief.follow`: what a public event says that the engine cannot know on the
  belief (who leads when that hangs on hidden hands; a trump a rebuilt belief missed; a
  card turned face up), and which cards it has thereby put in place;
* :data:`Belief.LOOKAHEAD` and :meth:`Belief.revealed`: an action whose cards show only in
  the event after it (a face-up draw: :meth:`Belief.onto_deck`; a play turned face up), to
  be put in place before it is played;
* :meth:`Belief.hidden`: another seat's action whose cards this seat was not shown (laid
  face down): the engine action the belief plays for it;
* :meth:`Belief.weigh`: a deal of the unplaced cards reshaped by what the players said of
  them (a searching policy's determinization).
* :data:`Belief.AHEAD` and :meth:`Belief.ahead`: events that show what the engine reads as
  it plays the table call that made them (the hands a deal's end counts; a deal's cards and
  a random card taken from a hand, as this seat saw them; a deal T13 voided), given to the
  belief before it plays that call (a game of several deals, T15);
* :meth:`Belief.afresh`: an event after which the cards lie afresh where the seat did not
  see them go (a new deal, a deck rebuilt from the table: T15).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..engine.game import Game
from ..engine.seeds import Rng

__all__ = ["Belief", "BeliefLost", "fill"]


class BeliefLost(Exception):
    """The events do not fit the belief (it was built from a view that left something out)."""


def fill(slots: int, pool: list[int]) -> list[int]:
    """The first ``slots`` cards of ``pool``, taken out of it (a hidden zone of a view)."""
    if slots > len(pool):
        raise ValueError("the view shows more hidden cards than there are")
    out = pool[:slots]
    del pool[:slots]
    return out


class Belief:
    """The per-game part of a seat's knowledge (a game's ``belief.py`` sets ``BELIEF``,
    an instance of a subclass)."""

    #: Event types whose private ``cards`` came into the seat's hand.
    HAND_EVENTS: ClassVar[frozenset[str]] = frozenset()
    #: Action kinds whose consequence (the next event) shows hidden cards.
    LOOKAHEAD: ClassVar[frozenset[str]] = frozenset()
    #: Event types :meth:`ahead` reads: each is given to it before the belief plays the
    #: table call that made it (any event up to the next action may be of that call).
    AHEAD: ClassVar[frozenset[str]] = frozenset()

    def from_view(self, view: dict, rules: dict, seat: int | None) -> tuple[Game, set[int]]:
        """A game consistent with ``view`` (the seat's), and the cards the seat cannot place."""
        raise NotImplementedError

    def lists(self, game: Any) -> list[list[int]]:
        raise NotImplementedError

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        raise NotImplementedError

    def placed(self, game: Any, event: dict) -> list[tuple[int, list[int], int]]:
        """The cards a public ``event`` shows where they lie on the belief: ``(card, the
        list of the game's state that holds it, its index there)``; the knowledge swaps
        each into its place, among the cards the seat cannot place, before :meth:`follow`."""
        return []

    def follow(self, game: Any, event: dict) -> set[int] | None:
        """Make the belief agree with a public ``event`` the engine produced on it too (after
        the cards it shows where they lie were put in place: :meth:`placed`); the cards it put
        in place itself (no longer unknown to the seat), if any."""

    def ahead(self, game: Any, event: dict, seat: int | None) -> None:
        """Prepare ``game`` for a table call with what its ``event`` (of :data:`AHEAD`, as
        ``seat`` sees it) shows that the engine will read as it plays the call: the cards of
        hands counted at a deal's end, before the belief counts its guesses. Called once per
        event, before the action or the answer that made it is played on the belief."""

    def afresh(self, game: Any, event: dict, seat: int | None) -> set[int] | None:
        """After ``event`` (played on the belief) the cards lie afresh where ``seat`` did not
        see them go (a new deal; the table shuffled into a deck): the cards it cannot place
        from now on, or ``None`` for any other event."""
        return None

    def onto_deck(self, action: tuple, after: dict) -> int | None:
        """The card ``action`` takes from the top of the deck, as the event ``after`` it
        shows (``None``: not shown)."""
        return None

    def revealed(self, game: Any, action: tuple, after: dict) -> list[tuple[int, int]]:
        """The hidden cards that the event ``after`` ``action`` shows, each as ``(the card
        the belief holds in its place, the card shown)``, before ``action`` is played. By
        default the card it takes from the top of the deck (:meth:`onto_deck`)."""
        card = self.onto_deck(action, after)
        return [] if card is None or not game.deck else [(game.deck[-1], card)]

    def weigh(self, game: Any, rng: Rng, hidden: list[tuple[list[int], int]]) -> None:
        """Reshape a deal of the cards the seat cannot place, dealt at random into their
        ``hidden`` places (``(list, index)``), by what the players said of them (a claim
        about cards laid face down), swapping cards among those places only. By default
        nothing: every deal is as likely."""

    def hidden(self, game: Any, seat: int, data: dict, unknown: set[int]) -> tuple | None:
        """The engine action to play on the belief for ``data``, an action of ``seat``
        (another seat) whose cards this seat was not shown; ``None``: ``data`` shows them.
        The action may name any card of ``seat``'s hand, and cards of ``unknown`` in place
        of as many of his that are in ``unknown`` too (which of his went, the seat cannot
        tell: after it his hand is unknown). For a rule that hangs on the hidden cards it
        names cards that keep the action honest if any can (a rule it then breaks, the seat
        sees broken)."""
        return None
