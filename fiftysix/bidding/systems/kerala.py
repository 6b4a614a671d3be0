"""The ``kerala`` bidding system: seed 001's "Kerala rules" (RULES.md 7.2)."""
from __future__ import annotations

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.bidding.systems.base import LEVELS, Handler, NumberHandler, System, strain_word
from fiftysix.cards import SUIT_NAMES
from fiftysix.constraints import TRUE


def forced_seat(st: State) -> int:
    """The last player of the opening team in the first round (3 of 4, 5 of 6, 7 of 8)."""
    return max(st.table.team_seats(st.table.team_of(1)))


class Kerala(System):
    name = "kerala"
    title = "Kerala tournament rules"
    source = "RULES.md 7.2, seed 001"
    forms = frozenset({K.SUIT, K.NS, K.RAISE, K.PASS, K.DOUBLE, K.REDOUBLE})
    ns_example = "30NS"
    redouble_ends = False
    readings = (
        "A number-suit bid promises at least one card of the suit (it proposes that trump).",
        "NS means 'no card of the last suit bid'; before any suit is bid (the forced 28NS, or an"
        " NS opening) it promises nothing.",
        "The forced bidder is the highest-numbered seat of seat 1's team in the first round"
        " (3 of 4, 5 of 6, 7 of 8 with alternating teams). The call is recorded as written (P)"
        " and counts as 28NS.",
        "The high bidder may not overbid their own bid with an ordinary bid: only the own raise."
        " An NS bid may be raised too (40NS^). The raise clears a Double like any higher bid.",
        "The turn comes back to the high bidder when the others have all passed their bid,"
        " unless the bid can no longer be raised (already raised, or nothing of 40/48/56 above it);"
        " after a Double the usual rule holds: every other player passes after the last call.",
        "A Redouble does not end the auction; a higher bid clears Double and Redouble.",
    )
    examples = (
        ("", "28H"), ("28H", "29NS"), ("P P P P", "P"), ("28H P P P P P", "40H^"),
        ("28H", "P"), ("28H", "X"), ("28H X", "XX"),
    )

    def number_forms(self) -> dict[str, NumberHandler]:
        return {K.SUIT: self.suit_bid, K.NS: self.ns_bid}

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.RAISE: self.own_raise}

    def pass_call(self, st: State, seat: int, call: Call) -> Reading | Broken:
        f = forced_seat(st)
        if st.value is None and seat == f and len(st.records) == f - 1:
            return Reading(Meaning("forced 28NS", f"Everyone before passed, so seat {seat} must bid:"
                                   " the Pass counts as 28NS and promises nothing.", TRUE),
                           28, None, counts_as=Call(K.NS, 28))
        return super().pass_call(st, seat, call)

    def bid_problem(self, st: State, seat: int, value: int, suit: int | None = None) -> Broken | None:
        if st.raised:
            return Broken("after an own raise nobody may bid higher: only Pass, Double or Redouble")
        if st.high_seat == seat:
            return Broken("the high bidder may only raise their own bid (to 40, 48 or 56, same suit)")
        return self.value_problem(st, value)

    def suit_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        s = call.suit
        assert s is not None
        name = SUIT_NAMES[s]
        return Reading(lambda: Meaning(f"proposes {name}", f"Bids {v} proposing {name} as trump:"
                                       f" holds at least one {name[:-1]}.", P.length(s, 1)),
                       v, s, (), s)

    def ns_words(self, st: State, v: int, name: str | None) -> tuple[str, str]:
        if name is None:
            return "no-trump bid", f"Bids {v} NS with no suit bid yet: a no-trump bid that promises nothing."
        return f"no {name}", f"Bids {v} NS: no card of {name}, the suit just bid; no-trump if final."

    def own_raise(self, st: State, seat: int, call: Call) -> Reading | Broken:
        v = call.value
        assert v is not None
        if st.value is None or st.high_seat != seat:
            return Broken("only the high bidder may raise their own bid")
        if st.raised:
            return Broken("the own raise is allowed only once")
        if v not in LEVELS:
            return Broken("an own raise goes to 40, 48 or 56")
        if call.suit != st.trump:
            return Broken(f"an own raise keeps the suit of the bid ({strain_word(st.trump)})")
        bad = self.value_problem(st, v)
        if bad:
            return bad
        return Reading(lambda: Meaning(f"own raise to {v}", f"Raises their own bid to {v} in"
                                       f" {strain_word(st.trump)}: nobody may bid higher now;"
                                       " promises nothing new.", TRUE), v, st.trump)

    def can_raise(self, st: State) -> bool:
        return not st.raised and st.value is not None and any(lv > st.value for lv in LEVELS)

    def is_over(self, st: State) -> bool:
        if st.value is None:
            return False
        if st.passes < st.n - 1:
            return False
        last = st.records[-st.passes - 1]
        if last.counts_as.is_bid and last.seat == st.high_seat and self.can_raise(st):
            return st.passes >= st.n  # the turn comes back to the high bidder
        return True
