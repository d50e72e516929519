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
* :meth:`Belief.follow`: what a public event says that the engine cannot know on the
  belief (who leads when that hangs on hidden hands; a trump a rebuilt belief missed);
* :data:`Belief.LOOKAHEAD` and :meth:`Belief.onto_deck`: an action whose card shows only
  in the event after it (a face-up draw), to be put on top of the deck before it is played;
* :data:`Belief.DEALS` and :meth:`Belief.redeal`: in a game of several deals (T15), an event
  that deals the cards afresh: the belief's hidden slots are filled anew, and the cards the
  seat cannot place are those of the new deal it was not shown.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..engine.game import Game

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
    #: Action kinds whose consequence (the next event) shows a card from the deck.
    LOOKAHEAD: ClassVar[frozenset[str]] = frozenset()
    #: Event types that deal the cards afresh (a game of several deals, T15): :meth:`redeal`.
    DEALS: ClassVar[frozenset[str]] = frozenset()

    def from_view(self, view: dict, rules: dict, seat: int | None) -> tuple[Game, set[int]]:
        """A game consistent with ``view`` (the seat's), and the cards the seat cannot place."""
        raise NotImplementedError

    def lists(self, game: Any) -> list[list[int]]:
        raise NotImplementedError

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        raise NotImplementedError

    def follow(self, game: Any, event: dict) -> None:
        """Make the belief agree with a public ``event`` the engine produced on it too."""

    def redeal(self, game: Any, event: dict, seat: int | None) -> set[int]:
        """A new deal (an event of :data:`DEALS`, as ``seat`` was shown it; the engine dealt
        the belief its own guesses already): make ``game`` agree with the event (the seat's
        own cards, every count) and return the cards the seat cannot place from now on."""
        raise NotImplementedError

    def onto_deck(self, action: tuple, after: dict) -> int | None:
        """The card ``action`` takes from the top of the deck, as the event ``after`` it
        shows (``None``: not shown)."""
        return None
