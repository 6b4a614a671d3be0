"""The auction's state as the systems read it, and what a call does to it or the rule it breaks.

A legal call gives a ``Reading`` (what it does to the state); a refused one a ``Broken``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from fiftysix.bidding.calls import Call
from fiftysix.bidding.ladder import Ladder
from fiftysix.bidding.meaning import Meaning
from fiftysix.cards import Card, Table

_NOTHING: Counter[Card] = Counter()


@dataclass(frozen=True)
class Broken:
    """The rule a call breaks, in the words a player reads (``str`` gives them).

    What a system answers instead of a ``Reading`` when a call is not legal now; it is a value,
    not an exception, because the legal-call walk asks about hundreds of calls that are not.
    """

    rule: str

    def __str__(self) -> str:
        return self.rule


@dataclass(frozen=True)
class Reading:
    """What one call does and promises, computed before it is applied.

    ``value``/``trump``: the new standing bid (``value`` None: the bid does not change, as for
    Pass, Double, Redouble). ``shows``: cards taken off the ladder. ``names``: the suit the call
    names (for "the last suit bid"). ``counts_as``: what the call counts as when that differs
    (kerala's forced Pass = 28NS, classic's first Pass = Plus Pass).
    """

    explain: Meaning | Callable[[], Meaning]
    value: int | None = None
    trump: int | None = None
    shows: tuple[Card, ...] = ()
    names: int | None = None
    counts_as: Call | None = None

    @cached_property
    def meaning(self) -> Meaning:
        """The meaning (built only when first asked for: legality checks do not need it)."""
        return self.explain() if callable(self.explain) else self.explain


@dataclass(frozen=True)
class CallRecord:
    """One call of the auction, with the standing bid after it and its meaning."""

    index: int          # 1-based position in the auction
    seat: int
    team: int
    call: Call
    counts_as: Call
    value: int | None   # standing bid after the call (None: no bid yet)
    trump: int | None   # trump after the call (None: no-trump or no bid yet)
    high_seat: int | None
    doubled: int        # 1, 2 (doubled) or 4 (redoubled) after the call
    meaning: Meaning


@dataclass
class State:
    """Everything the systems need to know about the auction so far."""

    table: Table
    records: list[CallRecord] = field(default_factory=list)
    value: int | None = None
    trump: int | None = None
    high_seat: int | None = None
    high_call: Call | None = None
    doubled: int = 1
    doubled_by: int | None = None
    ladder: Ladder | None = None
    shown: dict[int, Counter[Card]] = field(default_factory=dict)
    named: list[tuple[int, int]] = field(default_factory=list)  # (seat, suit) in call order
    bids: list[tuple[int, int | None, int]] = field(default_factory=list)
    """Every call that raised the value, in order: (seat, suit it named or None, value after)."""
    raised: bool = False
    passes: int = 0            # consecutive passes since the last other call
    closed: bool = False       # ended at once (e.g. a redouble where that ends the auction)
    last_active: int | None = None  # seat of the last call that was not a Pass
    jump_doubles: bool = False  # table option: a final bid doubling the one before scores x2

    def __post_init__(self) -> None:
        if self.ladder is None:
            self.ladder = Ladder.fresh(self.table.deck)

    @property
    def n(self) -> int:
        return self.table.players

    @property
    def to_move(self) -> int:
        return len(self.records) % self.table.players + 1

    @property
    def is_opening(self) -> bool:
        """No bid has been made yet."""
        return self.value is None

    @property
    def floor(self) -> int:
        """The standing value, or 27 before any bid (plus forms count from 27)."""
        return 27 if self.value is None else self.value

    def own(self, seat: int) -> Counter[Card]:
        """The cards ``seat`` showed by its calls so far (read only: shared when none)."""
        return self.shown.get(seat, _NOTHING)

    def same_team(self, a: int, b: int) -> bool:
        return self.table.team_of(a) == self.table.team_of(b)

    def recent_suits(self) -> list[int]:
        """Distinct suits named so far, most recent first."""
        out: list[int] = []
        for _, s in reversed(self.named):
            if s not in out:
                out.append(s)
        return out

    def last_suit_of(self, seats: tuple[int, ...]) -> int | None:
        """The suit most recently named by any of these seats."""
        for seat, s in reversed(self.named):
            if seat in seats:
                return s
        return None

    def unbid_suits(self) -> list[int]:
        named = {s for _, s in self.named}
        return [s for s in range(4) if s not in named]
