"""``basic`` (RULES.md 7.5, seeds 002 and 003)."""
from __future__ import annotations

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.state import Reading, State
from fiftysix.bidding.systems.base import Handler, System, ordinal
from fiftysix.bidding.promises import new_cards, own_in_suit, top_label
from fiftysix.cards import SUIT_NAMES
from fiftysix.constraints import TRUE, conjoin
from fiftysix.scoring import Contract


class Basic(System):
    name = "basic"
    title = "Basic rules"
    source = "RULES.md 7.5, seeds 002 and 003"
    forms = frozenset({K.SUIT, K.REVERSE, K.NT, K.NS, K.PLUS, K.PLUS_NS, K.PASS, K.DOUBLE,
                       K.REDOUBLE})
    redouble_ends = True
    readings = (
        "Number-suit shows the top remaining card(s) of the suit, coded by the jump over the"
        " standing bid (27 at the opening) as in international: 2 above = the top two, 3 above"
        " = the top three, any other step = the top one. No length is promised.",
        "Suit-number: 4+ cards of the suit without its top remaining card.",
        "Number-NT ('strength without a suit'): at least 2 Jacks.",
        "Number-NS: no card of the last suit bid; as an opening (seed 002 lists it among the"
        " four opening forms) it promises nothing.",
        "Plus N suit (N = 1..3, after the first bid, any suit): exactly N cards of the suit, the"
        " top N remaining; raises by N. Plus N Noes (+NNS): no card of the N-th most recent suit"
        " bid; raises by N.",
        "After a Double nobody may bid: the members of the doubled team may Redouble (which ends"
        " the auction) or Pass; once each of them has passed, the auction ends doubled.",
        "All pass with no bid: the auction is passed out and seat 1's team plays 28 no-trump"
        " (the contract's declarer is seat 1).",
    )
    examples = (
        ("", "28H"), ("", "29H"), ("", "H28"), ("", "28NT"), ("28H", "29NS"), ("28H", "+1H"),
        ("28H", "+2S"), ("28C 29H", "+2NS"), ("28H", "P"), ("28H", "X"), ("28H X", "XX"),
    )

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.SUIT: self.suit_bid, K.REVERSE: self.reverse_bid, K.NT: self.nt_bid,
                K.NS: self.ns_bid, K.PLUS: self.plus_bid, K.PLUS_NS: self.plus_ns_bid}

    def bid_problem(self, st: State, value: int) -> str | None:
        if st.doubled > 1:
            return "a Double ends the bidding: only Pass, or a Redouble by the doubled team"
        return self.value_problem(st, value)

    def suit_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        v, s = call.value, call.suit
        assert v is not None and s is not None
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        jump = v - st.floor
        k = jump if jump in (2, 3) else 1
        top = st.ladder.top(s, k)  # type: ignore[union-attr]
        if not top:
            return f"no {SUIT_NAMES[s]} are left on the ladder"
        own = st.own(seat)
        name = SUIT_NAMES[s]
        return Reading(lambda: Meaning(f"top {P.short_phrase(top)}",
                                       f"Bids {v} with {name} as trump: holds the top remaining"
                                       f" {name if len(top) > 1 else 'card'}, {P.cards_phrase(top)}.",
                                       P.holds_top(top, own)), v, s, new_cards(top, own), s)

    def reverse_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        v, s = call.value, call.suit
        assert v is not None and s is not None
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        top = st.ladder.top(s, 1)  # type: ignore[union-attr]
        if not top:
            return f"no {SUIT_NAMES[s]} are left on the ladder"
        own = st.own(seat)
        name = SUIT_NAMES[s]
        return Reading(lambda: Meaning(f"4+ {name}, not the top", f"Bids {v} with {name} as trump:"
                                       f" a strong suit, 4 or more {name}, without the top"
                                       " remaining card.",
                                       conjoin(P.length(s, 4), P.lacks_top(top[0], own))), v, s, (), s)

    def nt_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        v = call.value
        assert v is not None
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        return Reading(lambda: Meaning("2+ Jacks", f"Bids {v} no-trump: strength without a suit,"
                                       " at least 2 Jacks.", P.jacks(2)), v, None)

    def ns_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        v = call.value
        if v is None:
            return "write the value with NS, e.g. 29NS"
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        recent = st.recent_suits()
        if not recent:
            return Reading(Meaning("no-trump opening", f"Opens {v} Noes: a no-trump bid with no"
                                   " suit bid yet; promises nothing.", TRUE), v, None)
        s = recent[0]
        return Reading(lambda: Meaning(f"no {SUIT_NAMES[s]}", f"Bids {v} Noes: no card of"
                                       f" {SUIT_NAMES[s]}, the last suit bid.", P.void(s)), v, None)

    def plus_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        s, n = call.suit, call.n
        assert s is not None
        if n is None:
            return "write Plus with its number, e.g. +1H"
        if n > self.max_plus:
            return f"plus counts go up to +{self.max_plus}"
        if st.value is None:
            return "Plus forms come only after the first bid"
        v = st.floor + n
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        top = st.ladder.top(s, n)  # type: ignore[union-attr]
        if len(top) < n:
            return f"only {len(top)} {SUIT_NAMES[s]} are left on the ladder"
        own = st.own(seat)
        o = own_in_suit(own, s)
        name = SUIT_NAMES[s]
        return Reading(lambda: Meaning(top_label(top, True),
                                       f"Raises by {n} to {v} with {name} as trump: exactly"
                                       + (f" one {name[:-1]}, the top remaining card:" if n == 1 else
                                          f" {n} {name}, the top {n} remaining:")
                                       + f" {P.cards_phrase(top)}.",
                                       conjoin(P.holds_top(top, own), P.length(s, n + o, n + o))),
                       v, s, new_cards(top, own), s)

    def plus_ns_bid(self, st: State, seat: int, call: Call) -> Reading | str:
        n = call.n
        if n is None:
            return "write Plus Noes with its number, e.g. +2NS"
        if st.value is None:
            return "Plus forms come only after the first bid"
        v = st.floor + n
        bad = self.bid_problem(st, v)
        if bad:
            return bad
        s = self.suit_needed(st, n)
        if isinstance(s, str):
            return s
        return Reading(lambda: Meaning(f"no {SUIT_NAMES[s]}", f"Raises by {n} to {v} Noes: no card"
                                       f" of {SUIT_NAMES[s]}, the {ordinal(n)} suit bid.",
                                       P.void(s)), v, None)

    def is_over(self, st: State) -> bool:
        if st.closed:
            return True
        if st.value is None:
            return st.passes >= st.n
        if st.doubled == 2:
            since = st.records[len(st.records) - st.passes:]
            team = st.table.team_of(st.high_seat)  # type: ignore[arg-type]
            passed = {r.seat for r in since}
            if all(s in passed for s in st.table.team_seats(team)):
                return True
        return st.passes >= st.n - 1

    def contract(self, st: State) -> Contract | None:
        if st.value is None:
            return Contract.make(st.table, 28, None, 1, 1)
        return super().contract(st)
