"""The ladder: per suit, the cards that earlier calls have not shown, in power order.

The order is J J 9 9 A A T T K K Q Q [8 8 7 7]; "top remaining" is the first card left on it.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fiftysix.cards import CARD_NAMES, COPIES, DECK_RANKS, NUM_SUITS, Card


@dataclass(frozen=True)
class Ladder:
    """What is left of each suit's ladder (each kind listed once per copy not yet shown)."""

    rungs: tuple[tuple[Card, ...], ...]

    @classmethod
    def fresh(cls, deck: int = 48) -> Ladder:
        ranks = DECK_RANKS[deck]
        return cls(tuple(tuple(Card.make(s, r) for r in range(ranks) for _ in range(COPIES))
                         for s in range(NUM_SUITS)))

    def remaining(self, suit: int) -> tuple[Card, ...]:
        return self.rungs[suit]

    def top(self, suit: int, k: int = 1) -> tuple[Card, ...]:
        """The first ``k`` cards left in the suit (fewer if the ladder is that short)."""
        return self.rungs[suit][:k]

    def show(self, cards: Iterable[int]) -> Ladder:
        """The ladder after these cards were shown (a card no longer on it is ignored)."""
        rungs = [list(r) for r in self.rungs]
        for c in cards:
            c = Card(c)
            if c in rungs[c.suit]:
                rungs[c.suit].remove(c)
        return Ladder(tuple(tuple(r) for r in rungs))

    def __str__(self) -> str:
        return " | ".join(" ".join(CARD_NAMES[c][0] for c in r) for r in self.rungs)
