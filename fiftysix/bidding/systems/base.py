"""The frame every bidding system fills in: which call forms exist, when each is legal, what
it does to the standing bid and what it promises; when the auction ends and its contract.

A system answers ``interpret(state, seat, call)`` with either a ``Reading`` (the call is
legal: its new value, trump, the cards it shows, and its meaning) or a string naming the
rule the call breaks. The auction engine (``fiftysix.bidding.auction``) does the rest.
"""
from __future__ import annotations

from typing import Callable, Iterator

from fiftysix.bidding import calls as K
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.state import Reading, State
from fiftysix.cards import SUIT_NAMES, Hand
from fiftysix.constraints import TRUE
from fiftysix.scoring import Contract

FORM_NAMES = {
    K.SUIT: "number-suit", K.REVERSE: "suit-number", K.NT: "number-NT", K.NS: "NS (Noes)",
    K.PLUS: "plus", K.SUIT_PLUS: "suit-plus", K.PLUS_NT: "plus-NT", K.PLUS_NS: "plus-NS",
    K.X_PLUS: "X-Plus", K.MINUS: "minus", K.PLUS_PASS: "Plus Pass", K.RAISE: "own raise",
    K.FORCED: "forced opening (28-Pass)", K.PASS: "Pass", K.DOUBLE: "Double",
    K.REDOUBLE: "Redouble",
}
LEVELS = (40, 48, 56)

Handler = Callable[[State, int, Call], "Reading | str"]


def strain_word(trump: int | None) -> str:
    return "no-trump" if trump is None else SUIT_NAMES[trump]


def bid_text(st: State) -> str:
    if st.high_call is None:
        return "no bid"
    return f"{st.high_call} ({st.value}) by seat {st.high_seat}"


class System:
    """Base of the registered systems. Subclasses set the class attributes and handlers."""

    name: str = ""
    title: str = ""
    source: str = ""
    forms: frozenset[str] = frozenset()
    redouble_ends: bool = True
    max_plus: int = 3
    readings: tuple[str, ...] = ()
    """The readings this implementation chose where RULES.md leaves one open (for the docs)."""
    examples: tuple[tuple[str, str], ...] = ()
    """(auction so far, call) pairs, one per row of the system's call table (for the docs)."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {
            K.PASS: self.pass_call, K.DOUBLE: self.double, K.REDOUBLE: self.redouble}
        self.handlers.update(self.bid_handlers())

    def bid_handlers(self) -> dict[str, Handler]:
        return {}

    # --- the interface the engine uses ----------------------------------------------------------

    def interpret(self, st: State, seat: int, call: Call) -> Reading | str:
        """The call's reading if it is legal now, else the rule it breaks."""
        if call.kind not in self.forms:
            return f"the {self.name} system has no {FORM_NAMES[call.kind]} call"
        return self.handlers[call.kind](st, seat, call)

    def hand_problem(self, st: State, seat: int, call: Call, reading: Reading, hand: Hand) -> str | None:
        """A rule the call breaks given the caller's hand (RULES.md 6: no trump you hold none of)."""
        if reading.value is not None and reading.trump is not None and call.names_suit:
            if hand.suit_length(reading.trump) == 0:
                return (f"you cannot name a trump suit you hold no card of "
                        f"(the hand holds no {SUIT_NAMES[reading.trump]})")
        return None

    def is_over(self, st: State) -> bool:
        if st.closed:
            return True
        return st.value is not None and st.passes >= st.n - 1

    def contract(self, st: State) -> Contract | None:
        """The final contract of a finished auction (None: passed out with no contract)."""
        if st.value is None or st.high_seat is None:
            return None
        return Contract.make(st.table, st.value, st.trump, st.high_seat, st.doubled)

    def candidates(self, st: State, seat: int) -> Iterator[Call]:
        """Every call of the system's forms that could be legal now (a superset)."""
        lo = st.floor + 1
        values = range(lo, K.MAX_BID + 1)
        yield K.PASS_CALL
        yield K.DOUBLE_CALL
        yield K.REDOUBLE_CALL
        counts = range(1, self.max_plus + 1)
        for kind in sorted(self.forms):
            if kind in (K.SUIT, K.REVERSE):
                for v in values:
                    for s in range(4):
                        yield Call(kind, v, s)
            elif kind == K.NT:
                for v in values:
                    yield Call(kind, v)
            elif kind == K.NS:
                yield Call(kind)
                for v in values:
                    yield Call(kind, v)
            elif kind in (K.PLUS, K.SUIT_PLUS, K.MINUS):
                for s in range(4):
                    yield Call(kind, None, s)
                    for n in counts:
                        yield Call(kind, None, s, n)
            elif kind == K.X_PLUS:
                for s in range(4):
                    for n in counts:
                        yield Call(kind, None, s, n)
            elif kind in (K.PLUS_NT, K.PLUS_NS):
                yield Call(kind)
                for n in counts:
                    yield Call(kind, None, None, n)
            elif kind == K.PLUS_PASS:
                yield Call(kind)
            elif kind == K.RAISE:
                for v in LEVELS:
                    if v >= lo:
                        for s in (None, 0, 1, 2, 3):
                            yield Call(kind, v, s)
            elif kind == K.FORCED:
                yield Call(kind, 28)

    # --- shared pieces ---------------------------------------------------------------------------

    @staticmethod
    def value_problem(st: State, value: int) -> str | None:
        if value > K.MAX_BID:
            return f"bids stop at {K.MAX_BID}: this call would make {value}"
        if st.value is not None and value <= st.value:
            return f"a bid must be higher than the standing bid {bid_text(st)}"
        if value < K.MIN_BID:
            return f"bids start at {K.MIN_BID}"
        return None

    def pass_call(self, st: State, seat: int, call: Call) -> Reading | str:
        return Reading(Meaning("pass", "Passes: says nothing about the hand.", TRUE))

    def double(self, st: State, seat: int, call: Call) -> Reading | str:
        if st.value is None:
            return "there is no bid to double"
        if st.same_team(seat, st.high_seat):  # type: ignore[arg-type]
            return "only an opponent of the high bidder may double"
        if st.doubled > 1:
            return "the bid is already doubled" if st.doubled == 2 else "the bid is already redoubled"
        return Reading(Meaning(f"double {st.high_call}",
                               f"Doubles {st.high_call} ({st.value} {strain_word(st.trump)}): the"
                               " bidders' stake is doubled if it stands; says nothing about the hand.",
                               TRUE))

    def redouble(self, st: State, seat: int, call: Call) -> Reading | str:
        if st.doubled != 2:
            return "only a doubled bid can be redoubled"
        if not st.same_team(seat, st.high_seat):  # type: ignore[arg-type]
            return "only the doubled team may redouble"
        end = " and ends the auction" if self.redouble_ends else ""
        return Reading(Meaning(f"redouble {st.high_call}",
                               f"Redoubles {st.high_call}: the stake is multiplied by 4{end};"
                               " says nothing about the hand.", TRUE))

    def suit_needed(self, st: State, k: int) -> int | str:
        """The k-th most recent distinct suit named, or the rule broken if there is none."""
        recent = st.recent_suits()
        if not recent:
            return "no suit has been bid yet"
        if k > len(recent):
            return f"only {len(recent)} suit(s) have been bid, so there is no {k}-th most recent one"
        return recent[k - 1]


def ordinal(k: int) -> str:
    return {1: "last", 2: "second most recent", 3: "third most recent"}.get(k, f"{k}-th most recent")
