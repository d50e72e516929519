"""What a seat of the durak family can rebuild from its view (:class:`pidor.bots.belief.Belief`).

The yard variants' face-down cards are unknown cards in known slots: V10's set-aside card
(until it turns: the ``trump_turned`` event places it) and V11's поджопники (every seat's,
the seat's own too, until they come up into a hand: the ``reserve`` event names them to
their owner)."""

from __future__ import annotations

from typing import Any

from ...bots.belief import Belief, fill
from ...cards import card_code, parse_card
from ...cards import deck as full_deck
from .. import game_class

__all__ = ["BELIEF"]


class DurakBelief(Belief):
    HAND_EVENTS = frozenset({"draw", "reserve"})

    def lists(self, g: Any) -> list[list[int]]:
        return [g.deck, g.discard, g.attack, g.cover, *g.hands, g.aside, *g.reserves]

    def from_hand(self, action: tuple) -> tuple[int, ...]:
        """The cards ``action`` takes from the actor's hand (simple durak leads several, V2),
        or shows from it to all (a проездной stays in the hand, V12)."""
        if action[0] == "lead":
            return tuple(action[1])
        return (action[1],) if action[0] in ("attack", "cover", "transfer", "give", "show") else ()

    def placed(self, game: Any, event: dict) -> list[tuple[int, list[int], int]]:
        """V10: the set-aside card turned where it lay."""
        if event["type"] == "trump_turned":
            return [(parse_card(event["card"]), game.aside, 0)]
        return []

    def follow(self, game: Any, event: dict) -> None:
        """Who leads may hang on hidden hands (V4 «пятки»: the attack passes on from whoever
        holds no pair), and the trump on the card set aside (V10): the belief follows what
        the table announced."""
        if event["type"] == "trump_turned":
            game.trump = game.aside[0] // 13
            return
        if event["type"] != "bout" or "attacker" not in event:
            return
        owner = game.owner

        def place(s: int) -> int:
            return s if owner[s] == s else owner.index(s)

        # (V6: the event names the seats that play the places; a seat that plays for
        # several keeps the belief's place while it agrees with the event)
        if owner[game.attacker] != event["attacker"]:
            game.attacker = place(event["attacker"])
        if owner[game.defender] != event["defender"]:
            game.defender = place(event["defender"])
        game.limit = event["limit"]
        if "passed" in event:
            game.passed, game.forced = list(event["passed"]), event["forced"]

    def from_view(self, v: dict, rules: dict, seat: int | None) -> tuple[Any, set[int]]:
        n, size = v["players"], v["deck_size"]
        hand = [parse_card(c) for c in v.get("hand") or []]
        attack = [parse_card(a) for a, _ in v["table"]]
        cover = [-1 if c is None else parse_card(c) for _, c in v["table"]]
        trump_card = None if v["trump_card"] is None else parse_card(v["trump_card"])
        # V10: the card set aside under the trump card, face down until the deck runs out
        turned = v.get("second_trump")
        aside = [parse_card(turned)] if turned else []
        # V12: cards shown to all stay in the hands that showed them
        shown = [[parse_card(c) for c in cs] for cs in v.get("shown") or [[]] * n]
        seen = {*hand, *attack, *(c for c in cover if c >= 0), *aside, *(c for cs in shown for c in cs)} | (
            {trump_card} if trump_card is not None else set())
        pool = [c for c in full_deck(size) if c not in seen]
        if trump_card is None:  # drawn already: only its suit is on show; any card of it will do
            trump_suit = "cdhs".index(v["trump"])
            trump_card = next(c for c in [*pool, *hand, *attack, *cover] if c >= 0 and c // 13 == trump_suit)
        unknown = set(pool)
        hands = [hand if s == seat else shown[s] + fill(k - len(shown[s]), pool) for s, k in enumerate(v["hands"])]
        discard = fill(v["discard"], pool)
        deck_top_first = fill(v["deck"] - 1, pool) + [trump_card] if v["deck"] else []
        if "second_trump" in v and not turned:
            aside = fill(1, pool)
        reserves = [fill(k, pool) for k in v.get("reserve") or [0] * n]  # V11: nobody's are seen
        if pool:
            raise ValueError("the view leaves cards unplaced")
        code = card_code
        cls = game_class(v["game"])
        # V6: with teams, a seat whose partner went out plays his place too (``plays_for``);
        # the view names the seats that play the attacker's and the defender's places.
        owner = list(v.get("plays_for") or range(n))

        def place(s: int) -> int:
            return s if owner[s] == s else owner.index(s)

        data = {
            "game": v["game"], "version": cls.version, "players": n, "deck_size": size,
            "hard": v["hard"], "teams": v.get("teams"), "cap": size if rules.get("no_limit") else cls.HAND,
            "owner": owner, "epaulettes": [False] * n, "barred": bool(v.get("barred")),
            "trump_card": code(trump_card), "first": place(v["attacker"]),
            "deck": [code(c) for c in deck_top_first], "hands": [[code(c) for c in h] for h in hands],
            "discard": [code(c) for c in discard], "attack": [code(c) for c in attack],
            "cover": [None if c < 0 else code(c) for c in cover],
            "attacker": place(v["attacker"]), "defender": place(v["defender"]), "limit": v["limit"],
            "bito": [s in v["bito"] for s in range(n)], "out": [s in v["out"] for s in range(n)],
            "order": list(v["out"]), "ended": "bito" if v["phase"] == "draw" else None,
            "payments": [[p["from"], p["to"]] for p in v["payments"]], "token": 0, "result": v["result"],
            # simple durak (V2-V4): its lead variant; the quiet bouts before a draw are not shown
            "lead": v.get("lead"), "passed": list(v.get("passed") or ()), "forced": bool(v.get("forced")),
            "quiet": 0,
            "limits": {k: rules[k] for k in ("repeat_limit", "quiet_limit", "unit_limit") if k in rules},
            # the yard variants (V10-V12)
            "aside": [code(c) for c in aside], "reserve": rules.get("reserve") or 0,
            "reserves": [[code(c) for c in r] for r in reserves], "raising": list(v.get("raising") or ()),
            "pass_cards": list(v.get("pass_card") or ()),
            "shown": [card_code(c) for cs in shown for c in cs],
        }
        return cls.from_data(data), unknown



BELIEF = DurakBelief()
