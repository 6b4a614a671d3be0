"""What one seat knows: its hand, the cards played so far, and every seat's promises.

A ``View`` is the input of the dealer (``analyser.dealer``): the hidden cards are dealt
from exactly what it allows. ``Promise`` is one call's promise, kept call by call so that
promises which cannot all hold can be set aside one at a time (``analyser.settle``).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from fiftysix.cards import COPIES, NUM_KINDS, SUIT_NAMES, Card, Hand, Table, parse_cards
from fiftysix.constraints import TRUE, Constraint, Count, conjoin, suit_kinds
from fiftysix.errors import DealError
from fiftysix.play import who_played

if TYPE_CHECKING:
    from fiftysix.bidding import Auction


@dataclass(frozen=True)
class Promise:
    """One call's promise about its caller's hand as dealt (RULES.md 6: it may be a bluff)."""

    seat: int
    index: int          # the call's position in the auction, from 1
    call: str
    label: str
    constraint: Constraint

    def describe(self) -> str:
        return f"seat {self.seat}'s {self.call} (call {self.index}, {self.label})"


def auction_promises(auction: Auction) -> tuple[Promise, ...]:
    """Every call of ``auction`` (a ``fiftysix.bidding.Auction``) that promises something."""
    return tuple(Promise(r.seat, r.index, str(r.call), r.meaning.label, r.meaning.constraint)
                 for r in auction.calls if r.meaning.constraint != TRUE)


@dataclass(frozen=True)
class View:
    """What one seat knows: its hand, the plays so far and every seat's promises.

    ``hand`` is the seat's hand as dealt (its played cards included). ``plays`` lists
    ``(seat, card)`` in playing order from the first trick; ``leader`` led the first trick.
    ``constraints`` maps seats to promises about their hands *as dealt* that must hold;
    ``calls`` lists the auction's promises one call at a time: where they cannot all hold (a
    bluff, a mistake), the dealer sets the fewest of them aside (``settle``). A promise of
    the viewing seat itself is ignored (it knows its hand).
    """

    table: Table
    seat: int
    hand: Hand
    constraints: Mapping[int, Constraint] = field(default_factory=dict)
    plays: tuple[tuple[int, Card], ...] = ()
    leader: int = 1
    calls: tuple[Promise, ...] = ()

    def __post_init__(self) -> None:
        t = self.table
        t.check_seat(self.seat)
        t.check_seat(self.leader)
        object.__setattr__(self, "plays", tuple((int(s), Card(c)) for s, c in self.plays))
        object.__setattr__(self, "constraints", {int(s): c for s, c in dict(self.constraints).items()})
        if len(self.hand) != t.hand_size:
            raise DealError(f"seat {self.seat}'s hand has {len(self.hand)} cards; this table deals {t.hand_size}")
        in_deck = set(t.kinds())
        seen = list(self.hand.counts())
        for c in self.hand:
            if c not in in_deck:
                raise DealError(f"{c} is not in the {t.deck}-card deck")
        for s in self.constraints:
            t.check_seat(s)
        object.__setattr__(self, "calls", tuple(self.calls))
        for p in self.calls:
            t.check_seat(p.seat)
        own = list(self.hand.counts())
        per_seat = {s: 0 for s in t.seats}
        for s, c in self.plays:
            t.check_seat(s)
            if c not in in_deck:
                raise DealError(f"seat {s} played {c}, which is not in the {t.deck}-card deck")
            per_seat[s] += 1
            if per_seat[s] > t.hand_size:
                raise DealError(f"seat {s} has played more than {t.hand_size} cards")
            if s == self.seat:
                own[c] -= 1
                if own[c] < 0:
                    raise DealError(f"seat {s} played {c} but its hand does not hold that many")
            else:
                seen[c] += 1
                if seen[c] > COPIES:
                    raise DealError(f"{c} has been seen {seen[c]} times; the deck has only {COPIES}")

    @classmethod
    def from_auction(cls, table: Table, system: str, seat: int, hand: Hand | str, auction: Auction | str,
                     played: Sequence[int | str] | str = (), leader: int = 1,
                     trump: int | None | str = "contract") -> View:
        """The view of ``seat`` holding ``hand`` after ``auction`` (an Auction, or its text in
        ``system``).

        ``played`` lists the cards played so far in order (text or cards); the seat of each
        play follows from the trick winners under ``trump``: the auction's contract unless
        another is given. ``hand`` may be the hand as dealt or what is left of it after the
        seat's own plays.
        """
        from fiftysix.bidding import Auction  # the bidding package is a peer of this layer's input
        a = Auction.parse(auction, system, table) if isinstance(auction, str) else auction
        if isinstance(trump, str):  # "contract": the auction's
            trump = a.contract.trump if a.contract is not None else None
        return cls.with_plays(table, seat, hand, {}, played, trump, leader, auction_promises(a))

    @classmethod
    def with_plays(cls, table: Table, seat: int, hand: Hand | str,
                   constraints: Mapping[int, Constraint], played: Sequence[int | str] | str,
                   trump: int | None, leader: int = 1, calls: Sequence[Promise] = ()) -> View:
        """Build a view from a card sequence: seats of the plays follow from trick winners.
        ``constraints`` must hold; ``calls`` are the auction's promises (``auction_promises``)."""
        h = Hand.parse(hand) if isinstance(hand, str) else hand
        cards = parse_cards(played) if isinstance(played, str) else [
            Card.parse(c) if isinstance(c, str) else Card(c) for c in played]
        plays, _ = who_played(table, cards, trump, leader)
        if len(h) < table.hand_size:  # the hand left: add back the seat's own plays
            h = Hand(h.cards + tuple(c for s, c in plays if s == seat))
        return cls(table, seat, h, constraints, tuple(plays), leader, tuple(calls))

    def promises(self, seat: int) -> Constraint:
        """Everything known about ``seat``'s hand as dealt: its calls' promises and, from
        the play, every suit it showed out of (it then held no more of that suit than it
        had played before that trick)."""
        parts: list[Constraint] = []
        if seat in self.constraints:
            parts.append(self.constraints[seat])
        parts.extend(p.constraint for p in self.calls if p.seat == seat)
        n = self.table.players
        shown: dict[int, int] = {}
        for t0 in range(0, len(self.plays), n):
            trick = self.plays[t0:t0 + n]
            led = trick[0][1].suit
            for s, c in trick[1:]:
                if s == seat and c.suit != led and led not in shown:
                    before = sum(1 for q, x in self.plays[:t0] if q == seat and x.suit == led)
                    shown[led] = before
                    parts.append(Count(suit_kinds(led), 0, before,
                                       f"no more {SUIT_NAMES[led]} than the {before} played before showing out"))
        return conjoin(*parts) if parts else TRUE

    def next_to_play(self, trump: int | None) -> int:
        """The seat to play next under ``trump`` (each trick's winner leads the next)."""
        return who_played(self.table, [c for _, c in self.plays], trump, self.leader)[1]

    def played_by(self, seat: int) -> tuple[Card, ...]:
        return tuple(c for s, c in self.plays if s == seat)

    @property
    def hidden_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.table.seats if s != self.seat)

    def unseen(self) -> np.ndarray:
        """Unseen copies of each of the 32 kinds (0, 1 or 2)."""
        u = np.zeros(NUM_KINDS, dtype=np.int64)
        for k in self.table.kinds():
            u[k] = COPIES
        u -= np.asarray(self.hand.counts(), dtype=np.int64)
        for s, c in self.plays:
            if s != self.seat:
                u[c] -= 1
        return u

    def known_counts(self) -> np.ndarray:
        """Kind counts known in each seat's hand as dealt, shape (players, 32): the viewing
        seat's whole hand, and the cards the others have played."""
        base = np.zeros((self.table.players, NUM_KINDS), dtype=np.int64)
        base[self.seat - 1] = self.hand.counts()
        for s, c in self.plays:
            if s != self.seat:
                base[s - 1, c] += 1
        return base

    def needs(self) -> dict[int, int]:
        """Cards still unknown in each hidden seat."""
        return {s: self.table.hand_size - len(self.played_by(s)) for s in self.hidden_seats}
