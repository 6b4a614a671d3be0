"""The ``basic`` bidding system: the plain calls of seeds 002 and 003 (RULES.md 7.5)."""
from __future__ import annotations

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.promises import top_label
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.bidding.systems.base import Handler, NumberHandler, System, Top, ordinal
from fiftysix.constraints import TRUE, conjoin
from fiftysix.scoring import Contract


class Basic(System):
    name = "basic"
    title = "Basic rules"
    source = "RULES.md 7.5, seeds 002 and 003"
    forms = frozenset({K.SUIT, K.REVERSE, K.NT, K.NS, K.PLUS, K.PLUS_NS, K.PASS, K.DOUBLE,
                       K.REDOUBLE})
    ns_example = "29NS"
    redouble_ends = True
    max_plus = K.MAX_COUNT
    jump_doubles = True
    readings = (
        "Number-suit holds the top remaining card of the suit (seed 003: 'the highest card(s)';"
        " 28 diamonds = the Jack of diamonds). The jump size carries no scale and no length is"
        " promised: an opening 29H holds the top heart, not both Jacks.",
        "Suit-number: 'a strong hand in that suit, but not the highest card' (seed 003): the"
        " promise is a card of the suit without its top remaining card; 'strong' gives no"
        " number, so no length is promised.",
        "Number-NT: 'usually a strong hand without a particular suit; perhaps a few Jacks'"
        " (seed 003): a preference, not a promise, so it promises nothing.",
        "Number-NS: no card of the last suit bid; as an opening (seed 002 lists it among the"
        " four opening forms) it promises nothing.",
        "Plus N suit (after the first bid, any suit): exactly N cards of the suit, the top N"
        " remaining; raises by N. N has no limit but the ladder (seed 002 sets none): +4S over"
        " 28D is exactly the top four spades, 32S. Plus N Noes (+NNS): no card of the N-th most"
        " recent suit bid; raises by N.",
        "After a Double nobody may bid: the members of the doubled team may Redouble (which ends"
        " the auction) or Pass; once each of them has passed, the auction ends doubled.",
        "All pass with no bid: the auction is passed out and seat 1's team plays 28 no-trump"
        " (the contract's declarer is seat 1).",
        "Doubling by jump (seed 003, a table option on by default here): a final bid that doubles"
        " the bid before it (28 then 56) scores double, as a Double does: the contract shows"
        " doubled 2 (and redoubled 4 if it was also doubled).",
    )
    examples = (
        ("", "28H"), ("", "29H"), ("", "H28"), ("", "28NT"), ("28H", "29NS"), ("28H", "+1H"),
        ("28H", "+2S"), ("28D", "+4S"), ("28C 29H", "+2NS"), ("28H", "P"), ("28H", "X"), ("28H X", "XX"),
    )

    def number_forms(self) -> dict[str, NumberHandler]:
        return {K.NT: self.nt_bid, K.NS: self.ns_bid}

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.SUIT: self.suit_bid, K.REVERSE: self.reverse_bid, K.PLUS: self.plus_bid,
                K.PLUS_NS: self.plus_ns_bid}

    def bid_problem(self, st: State, seat: int, value: int, suit: int | None = None) -> Broken | None:
        if st.doubled > 1:
            return Broken("a Double ends the bidding: only Pass, or a Redouble by the doubled team")
        return self.value_problem(st, value)

    def suit_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s = call.suit
        assert call.value is not None and s is not None

        # seed 003: "Zahl und Farbe bedeutet, dass Sie die hoechste(n) Karte(n) der Farbe haben"
        # - the top card; the jump carries no scale (RULES.md 7.5: no stronger than the texts).
        def explain(t: Top, v: int) -> Meaning:
            return t.meaning(f"top {P.short_phrase(t.cards)}",
                             f"Bids {v} with {t.name} as trump: holds the top remaining"
                             f" {t.name[:-1]}, {P.cards_phrase(t.cards)}.",
                             lambda own, o: P.holds_top(t.cards, own))
        return self.ladder_bid(st, seat, s, 1, explain, call.value, partial=True)

    def reverse_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s = call.suit
        assert call.value is not None and s is not None

        def explain(t: Top, v: int) -> Meaning:
            return Meaning(f"{t.name}, not the top", f"Bids {v} with {t.name} as trump:"
                           f" a strong hand in {t.name} without the top remaining card"
                           f" ({P.cards_phrase(t.cards[:1])}); the length is not promised.",
                           conjoin(P.length(s, 1), P.lacks_top(t.cards[0], t.own)))
        return self.ladder_bid(st, seat, s, 1, explain, call.value, partial=True, shows=False)

    def nt_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        return Reading(Meaning("strength without a suit", f"Bids {v} no-trump: usually a strong hand"
                               " without a particular suit, perhaps a few Jacks; a habit, not a"
                               " promise.", TRUE), v, None)

    def ns_words(self, st: State, v: int, name: str | None) -> tuple[str, str]:
        if name is None:
            return "no-trump opening", f"Opens {v} Noes: a no-trump bid with no suit bid yet; promises nothing."
        return f"no {name}", f"Bids {v} Noes: no card of {name}, the last suit bid."

    def plus_problem(self, st: State, seat: int, call: Call) -> Broken | None:
        if st.value is None:
            return Broken("Plus forms come only after the first bid")
        return None

    def plus_meaning(self, n: int, t: Top, v: int) -> Meaning:
        top, name, s = t.cards, t.name, t.suit
        what = (f" one {name[:-1]}, the top remaining card:" if n == 1 else
                f" {n} {name}, the top {n} remaining:")
        return t.meaning(top_label(top, True),
                         f"Raises by {n} to {v} with {name} as trump: exactly"
                         f"{what} {P.cards_phrase(top)}.",
                         lambda own, o: conjoin(P.holds_top(top, own), P.length(s, n + o, n + o)))

    def plus_ns_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        n = call.n
        if n is None:
            return Broken("write Plus Noes with its number, e.g. +2NS")
        bad = self.plus_problem(st, seat, call)
        if bad:
            return bad
        v = self.raise_by(st, seat, n)
        if isinstance(v, Broken):
            return v
        s = self.suit_needed(st, n)
        if isinstance(s, Broken):
            return s
        return self.void_bid(v, s, lambda name: f"Raises by {n} to {v} Noes: no card of {name},"
                             f" the {ordinal(n)} suit bid.")

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

