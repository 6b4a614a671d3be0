"""The ``classic`` bidding system: seed 000's older conventions and worked example (RULES.md 7.4)."""
from __future__ import annotations

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.bidding.systems.base import Handler, NumberHandler, System, Top, nth
from fiftysix.cards import RANK_NAMES, SUIT_NAMES, Hand
from fiftysix.constraints import TRUE, conjoin

PLUS_PASS = Call(K.PLUS_PASS)


def from_last(k: int) -> str:
    """Seed 000's words: the penultimate, third from last, X-th last announcer."""
    return {1: "last", 2: "penultimate", 3: "third from last"}.get(k, f"{nth(k)} from last")


class Classic(System):
    name = "classic"
    title = "Classic conventions"
    source = "RULES.md 7.4, seed 000"
    forms = frozenset({K.SUIT, K.NT, K.NS, K.PLUS, K.X_PLUS, K.MINUS, K.PLUS_NS, K.PLUS_PASS,
                       K.PASS, K.DOUBLE, K.REDOUBLE})
    redouble_ends = False
    max_plus = 4
    readings = (
        "Raise-by-k with a suit (number-suit, k = the bid minus the standing bid, 27 at the"
        " opening): the top k remaining cards of the suit (all that is left if fewer) and 'many"
        " more' = at least 3 other cards of the suit, as the seed's 28 hearts (a Jack and at least"
        " 3 more).",
        "Plus (+H): the top remaining card and 2 or more others. One Plus (1+H) / X-Plus (k+H):"
        " the top k and exactly one more; raises by k. Plus One (+1H): the top card alone."
        " +2H and higher do not exist (write 2+H).",
        "Minus (-H): 3-4 cards without the top remaining card; Minus-X (-kH): exactly k cards"
        " without the top remaining card. Both raise by 1 (the seed's -1C raises 35 to 36;"
        " raising Minus-X by X would add value for holding nothing on top).",
        "Lengths count on top of cards the same player showed earlier in the suit, and holding"
        " the top remaining card after showing the first Jack means holding both.",
        "Nos is written NS and raises by 1: no card of the last suit named; Plus X Nos is +XNS"
        " (X >= 2) and raises by X: no card of the suit of the X-th last announcer, counting every"
        " call that raised the value (Nos, No-Trump and Plus Pass included; RULES.md 7.4); if"
        " that announcer named no suit, Plus X Nos is not available."
        " 33NS, +1NS and +NS are not classic calls.",
        "Plus Pass (+P) raises by 1, names no trump and promises nothing; the caller becomes the"
        " high bidder (all passing after it: no-trump by that team). The first call of the"
        " auction, if a Pass, counts as a Plus Pass at 28, so an auction can never be passed out:"
        " with all passes seat 1's team plays 28 no-trump, as the seed says.",
        "No-Trump (number-NT) at any higher number promises nothing specific.",
        "Deception (seed 000: 'calls of deception'): with a known hand every call stays legal,"
        " a suit the caller holds none of included; the call palette marks the calls whose"
        " promise the hand does not keep.",
        "A Double counts only if everyone passes after it; any higher call clears it. A Redouble"
        " by the doubled team does not end the auction either (the seed does not say it does).",
    )
    examples = (
        ("", "28H"), ("28H +C +1H P 1+H NS 2+D P P -C P -1C", "38S"), ("28H", "+C"),
        ("28H +C", "+1H"), ("28H +C +1H P", "1+H"), ("28H", "2+D"), ("28H +C +1H P 1+H", "NS"),
        ("28H 29C", "+2NS"), ("28H 29C NS", "+2NS"), ("28H +C", "-C"), ("28H +C -C P", "-1C"), ("28H", "40NT"),
        ("28H", "P"), ("28H", "+P"), ("", "P"), ("28H", "X"), ("28H X", "XX"),
    )

    def number_forms(self) -> dict[str, NumberHandler]:
        return {K.NT: self.nt_bid}

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.SUIT: self.suit_bid, K.NS: self.nos, K.PLUS: self.plus_bid, K.X_PLUS: self.x_plus,
                K.MINUS: self.minus, K.PLUS_NS: self.plus_nos, K.PLUS_PASS: self.plus_pass}

    def hand_problem(self, st: State, seat: int, call: Call, reading: Reading, hand: Hand) -> Broken | None:
        """Seed 000: "Every player has the opportunity to represent an announcement, even if
        this player does not have this card (calls of deception)": no call is illegal for the
        hand; ``Auction.palette_marked`` marks the ones whose promise the hand does not keep."""
        return None

    def pass_call(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if not st.records:
            return Reading(Meaning("Plus Pass (first caller)", "The first caller's Pass counts as a"
                                   " Plus Pass: 28, no trump; says nothing about the hand.", TRUE),
                           28, None, counts_as=PLUS_PASS)
        return super().pass_call(st, seat, call)

    def plus_pass(self, st: State, seat: int, call: Call) -> Reading | Broken:
        v = self.raise_by(st, seat, 1)
        if isinstance(v, Broken):
            return v
        return Reading(Meaning("Plus Pass", f"Plus Pass: raises to {v} with no trump; says nothing"
                               " about the hand, and everyone gets a new chance to call.", TRUE),
                       v, None)

    def suit_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        v, s = call.value, call.suit
        assert v is not None and s is not None
        k = v - st.floor

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards, t.name
            how = f"Opens at {v}" if st.is_opening else f"Raises by {k} to {v}"
            return t.meaning(f"top {P.short_phrase(top)} + 3 or more",
                             f"{how} with {name} as trump: the top"
                             f"{'' if len(top) == 1 else ' ' + str(len(top))} remaining"
                             f" {name if len(top) > 1 else name[:-1]} ({P.cards_phrase(top)}) and many"
                             f" more: at least 3 other {name}.",
                             lambda own, o: conjoin(P.holds_top(top, own), P.length(s, o + len(top) + 3)))
        return self.ladder_bid(st, seat, s, k, explain, v, partial=True)

    def plus_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s, n = call.suit, call.n
        assert s is not None
        if n is not None and n > 1:
            letter = SUIT_NAMES[s][0].upper()
            return Broken(f"classic has Plus (+{letter}) and Plus One (+1{letter}) only: write {n}+{letter} (X-Plus)")

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards, t.name
            card = RANK_NAMES[top[0].rank]
            if n == 1:
                return t.meaning(f"Plus One: the {card} alone",
                                 f"Plus One {name}, {v}: the top remaining {name[:-1]}"
                                 f" ({P.cards_phrase(top)}) and no other {name[:-1]}.",
                                 lambda own, o: conjoin(P.holds_top(top, own), P.length(s, o + 1, o + 1)))
            return t.meaning(f"Plus: the {card} + 2 or more",
                             f"Plus {name}, {v}: the top remaining {name[:-1]} ({P.cards_phrase(top)})"
                             f" and at least 2 other {name}.",
                             lambda own, o: conjoin(P.holds_top(top, own), P.length(s, o + 3)))
        return self.ladder_bid(st, seat, s, 1, explain, partial=True)

    def x_plus(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s, k = call.suit, call.n
        assert s is not None and k is not None
        if k > self.max_plus:
            return Broken(f"X-Plus goes up to {self.max_plus}+")
        word = "One" if k == 1 else {2: "Two", 3: "Three"}.get(k, str(k))

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards, t.name
            return t.meaning(f"{word} Plus: {P.short_phrase(top)} + exactly 1",
                             f"{word} Plus {name}, {v}: the top{'' if k == 1 else ' ' + str(k)} remaining"
                             f" {name if k > 1 else name[:-1]}"
                             f" ({P.cards_phrase(top)}) and exactly one other {name[:-1]}.",
                             lambda own, o: conjoin(P.holds_top(top, own), P.length(s, o + k + 1, o + k + 1)))
        return self.ladder_bid(st, seat, s, k, explain)

    def minus(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s, n = call.suit, call.n
        assert s is not None

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards[0], t.name
            card = RANK_NAMES[top.rank]
            if n is None:
                return t.meaning(f"Minus: 3-4 {name}, no {card}",
                                 f"Minus {name}, {v}: 3 to 4 {name} without the top remaining card"
                                 f" ({card}).",
                                 lambda own, o: conjoin(P.length(s, o + 3, o + 4), P.lacks_top(top, own)))
            return t.meaning(f"Minus-{n}: {n} {name if n > 1 else name[:-1]}, no {card}",
                             f"Minus-{n} {name}, {v}: exactly {n} {name if n > 1 else name[:-1]},"
                             f" not the top remaining card ({card}).",
                             lambda own, o: conjoin(P.length(s, o + n, o + n), P.lacks_top(top, own)))
        return self.ladder_bid(st, seat, s, 1, explain, partial=True, shows=False)

    def nos(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if call.value is not None:
            return Broken("classic's Nos is written NS, without a number")
        v = self.raise_by(st, seat, 1)
        if isinstance(v, Broken):
            return v
        s = self.suit_needed(st, 1, "Nos may only be called after its suit was named: {}")
        if isinstance(s, Broken):
            return s
        return self.void_bid(v, s, lambda name: f"Nos, {v}: no card of {name}, the last suit"
                             " announced; no-trump if it stands.", "Nos: no {}")

    def plus_nos(self, st: State, seat: int, call: Call) -> Reading | Broken:
        k = call.n
        if k is None or k == 1:
            return Broken("classic's Nos is written NS; Plus X Nos is +2NS, +3NS, ...")
        v = self.raise_by(st, seat, k)
        if isinstance(v, Broken):
            return v
        # RULES.md 7.4: "none of the X-th last announcer's suit, counting every call that
        # raised the value, suitless ones included". An announcer who named no suit (Nos,
        # No-Trump, Plus Pass) gives the call nothing to refer to, so it is not available.
        if k > len(st.bids):
            return Broken(f"only {len(st.bids)} call(s) have raised the value, so there is no"
                          f" {from_last(k)} announcer")
        who, s, _ = st.bids[-k]
        if s is None:
            return Broken(f"the {from_last(k)} announcer (seat {who}) named no suit, so Plus {k} Nos"
                          " has no suit to refer to")
        return self.void_bid(v, s, lambda name: f"Plus {k} Nos, {v}: no card of {name}, the suit of"
                             f" the {from_last(k)} announcer (seat {who}).", f"Plus {k} Nos: no {{}}")

    def nt_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        return Reading(Meaning("No-Trump", f"No-Trump at {v}: a game without trumps; promises"
                               " nothing specific about the hand.", TRUE), v, None)
