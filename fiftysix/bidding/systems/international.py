"""The ``international`` bidding system, the default: seed 001's "International rules" (RULES.md 7.1)."""
from __future__ import annotations

from collections import Counter

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.ladder import Ladder
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.promises import own_in_suit, top_label
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.bidding.systems.base import Handler, NumberHandler, System, Top, ordinal
from fiftysix.cards import RANK_NAMES, SUIT_NAMES, Card
from fiftysix.constraints import TRUE, conjoin


def jump_cards(st: State, suit: int, jump: int) -> tuple[Card, ...]:
    """What a number-suit bid shows, counted on the ladder (RULES.md 7.1).

    A plain step shows a Jack. Seed 001: "+2 over the previous bid for a second Jack, +3 for two
    Jacks and a 9": exactly 2 (3) above shows the suit's first 2 (3) ladder cards that no earlier
    call has shown (fresh suit: both Jacks, both Jacks and a 9; after one Jack was shown: the
    second Jack, the second Jack and a 9). When earlier calls showed all of those, the jump
    shows the top remaining card.
    """
    j = Card.make(suit, 0)
    if jump not in (2, 3):
        return (j,)
    fresh = Ladder.fresh(st.table.deck).remaining(suit)
    shown = Counter(fresh) - Counter(st.ladder.remaining(suit))  # type: ignore[union-attr]
    cards = tuple(sorted((Counter(fresh[:jump]) - shown).elements()))
    return cards or st.ladder.top(suit, 1)  # type: ignore[union-attr]


class International(System):
    name = "international"
    title = "International rules"
    source = "RULES.md 7.1, seed 001"
    forms = frozenset({K.SUIT, K.REVERSE, K.NT, K.NS, K.PLUS, K.SUIT_PLUS, K.PLUS_NT, K.PLUS_NS,
                       K.FORCED, K.PASS, K.DOUBLE, K.REDOUBLE})
    redouble_ends = True
    first_call_pass = "the first bidder must bid (at least 28-Pass)"
    readings = (
        "Number-suit jumps count from the standing bid (27 at the opening) and on the ladder:"
        " exactly 2 above shows the suit's first two ladder cards not yet shown by a call (fresh"
        " suit: both Jacks; after one Jack was shown, by anyone: the second Jack), exactly 3 above"
        " the first three (both Jacks and a 9; after one Jack: the second Jack and a 9); when all"
        " of those were shown, the top remaining card. Any other step shows one Jack. Every"
        " number-suit bid also promises 4+ cards of the suit.",
        "Plus forms count from the top of the ladder after the cards earlier calls showed. A"
        " player who showed cards of the suit before must hold those too: holding the top"
        " remaining card after you showed the first Jack yourself means holding both Jacks,"
        " and the exact lengths of +1H, +2H, H+1, +H, H+ count on top of the cards you showed.",
        "+kNS (and NS, jack-signal's step and classic's Nos) count distinct suits: the k-th most"
        " recent suit named by a call, a suit named twice counting once.",
        "+1NT is 'one more Jack or 9' only over a standing NT or NS bid; over a suit bid, the"
        " forced opening or at the opening it means the same as 32NT. +NT without a number and"
        " +2NT do not exist.",
        "The auction ends when every other player has passed after the last bid or Double;"
        " a Redouble ends it at once. The forced opening makes a passed-out auction impossible.",
        "28-Pass is legal only as the first call; seat 1 may not Pass there.",
    )
    examples = (
        ("", "28H"), ("", "30H"), ("", "31H"), ("28H P", "30H"), ("", "H28"), ("", "+1H"), ("", "+2H"),
        ("28H", "+1H"), ("28H +1H", "+1H"), ("28H", "H+1"), ("28H", "+H"), ("28H", "H+"),
        ("28H", "32NT"), ("28H", "+1NT"), ("28NT", "+1NT"), ("28C 29H", "33NS"),
        ("28C 29H", "+2NS"), ("28H", "+NS"), ("", "28-Pass"), ("28H", "P"), ("28H", "X"),
        ("28H X", "XX"),
    )

    def number_forms(self) -> dict[str, NumberHandler]:
        return {K.SUIT: self.suit_bid, K.REVERSE: self.reverse_bid, K.NT: self.nt_bid,
                K.NS: self.ns_bid}

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.PLUS: self.plus_bid, K.SUIT_PLUS: self.suit_plus_bid, K.PLUS_NT: self.plus_nt_bid,
                K.PLUS_NS: self.plus_ns_bid, K.FORCED: self.forced}

    def forced(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if st.records:
            return Broken("28-Pass is only the forced opening: the first call of the auction")
        if call.value != K.MIN_BID:
            return Broken(f"the forced opening is {K.MIN_BID}-Pass: it always stands at {K.MIN_BID}")
        return Reading(Meaning("forced opening", "The forced opening at 28, no trump: shares"
                               " nothing about the hand.", TRUE), 28, None)

    def suit_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        s = call.suit
        assert s is not None
        jump = v - st.floor
        cards = jump_cards(st, s, jump)
        own = st.own(seat)
        name = SUIT_NAMES[s]
        top = Top(s, cards, own, own_in_suit(own, s))
        ladder = jump in (2, 3)

        def explain() -> Meaning:
            what = P.cards_phrase(cards)
            jumptext = f" (a jump of {jump} over {st.floor})" if ladder else ""
            if ladder and len(st.ladder.remaining(s)) < len(Ladder.fresh(st.table.deck).remaining(s)):  # type: ignore[union-attr]
                jumptext = (f" (a jump of {jump} over {st.floor}, counted on the ladder: the next"
                            " cards after those earlier calls showed)")
            return top.meaning(f"{P.short_phrase(cards)}, 4+ {name}",
                               f"Bids {v} with {name} as trump{jumptext}: holds {what} and 4 or"
                               f" more {name} in all.",
                               # a plain step is "a Jack", not a ladder card: own cards
                               # shown before do not add to it
                               lambda own, o: conjoin(P.holds_top(cards, own if ladder else None),
                                                      P.length(s, max(4, o + len(cards)) if ladder else 4)))
        return Reading(explain, v, s, top.shows, s)

    def reverse_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        s = call.suit
        assert s is not None
        name = SUIT_NAMES[s]
        return Reading(lambda: Meaning(f"no Jack, 4+ {name}",
                                       f"Bids {v} with {name} as trump: no Jack of {name}, but"
                                       f" 4 or more {name}.",
                                       conjoin(P.has_jack(s, False), P.length(s, 4))), v, s, (), s)

    def nt_meaning(self, v: int, how: str) -> Meaning:
        return Meaning("3+ Jacks, no 4-card suit",
                       f"{how} {v} no-trump: 3 or more Jacks, and no suit of 4 or more cards.",
                       conjoin(P.jacks(3), P.no_long_suit(4)))

    def nt_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        return Reading(lambda: self.nt_meaning(v, "Bids"), v, None)

    def ns_suit(self, st: State, v: int) -> int | Broken:
        return self.suit_needed(st, 1, "{}: NS needs a suit to be void in")

    def ns_words(self, st: State, v: int, name: str | None) -> tuple[str, str]:
        return f"no {name}", f"Bids {v} no-trump: no card of {name}, the last suit bid."

    def plus_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s, n = call.suit, call.n
        assert s is not None
        if n is not None and n > self.max_plus:
            return Broken(f"plus counts go up to +{self.max_plus}")
        k = n or 1
        how = "Opens at" if st.is_opening else "Raises to"

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards, t.name
            if n is None:
                return t.meaning(f"2-3 {name} with the {P.short_phrase(top)[0]}",
                                 f"{how} {v} with {name} as trump: 2-3 {name} including the top"
                                 f" remaining card, {P.cards_phrase(top)}.",
                                 lambda own, o: conjoin(P.holds_top(top, own), P.length(s, 2 + o, 3 + o)))
            what = (f"exactly 1 {name[:-1]}: {P.cards_phrase(top)}, the top remaining card" if k == 1
                    else f"exactly {k} {name}: the top {k} remaining, {P.cards_phrase(top)}")
            return t.meaning(top_label(top, True),
                             f"{how} {v} with {name} as trump: {what}.",
                             lambda own, o: conjoin(P.holds_top(top, own), P.length(s, k + o, k + o)))
        return self.ladder_bid(st, seat, s, k, explain)

    def suit_plus_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        s, n = call.suit, call.n
        assert s is not None
        if n not in (None, 1):
            letter = SUIT_NAMES[s][0].upper()
            return Broken(f"the suit-plus form is {letter}+1 or {letter}+ only")
        how = "Opens at" if st.is_opening else "Raises to"

        def explain(t: Top, v: int) -> Meaning:
            top, name = t.cards[0], t.name
            topname = RANK_NAMES[top.rank]
            if n == 1:
                return t.meaning(f"singleton {name[:-1]}, not the {topname}",
                                 f"{how} {v} with {name} as trump: exactly one {name[:-1]}, not the"
                                 f" top remaining card ({topname}): can ruff the second round.",
                                 lambda own, o: conjoin(P.length(s, 1 + o, 1 + o), P.lacks_top(top, own)))
            return t.meaning(f"2-3 {name} without the {topname}",
                             f"{how} {v} with {name} as trump: 2-3 {name} without the top"
                             f" remaining card ({topname}).",
                             lambda own, o: conjoin(P.length(s, 2 + o, 3 + o), P.lacks_top(top, own)))
        return self.ladder_bid(st, seat, s, 1, explain, partial=True, shows=False)

    def plus_nt_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if call.n != 1:
            return Broken("the plus-NT form is +1NT")
        v = self.raise_by(st, seat, 1)
        if isinstance(v, Broken):
            return v
        over_nt = (st.value is not None and st.trump is None and st.high_call is not None
                   and st.high_call.kind != K.FORCED)
        if over_nt:
            return Reading(lambda: Meaning("one more Jack or 9",
                                           f"Raises to {v} no-trump over a no-trump bid: one more"
                                           " Jack or 9 that could win a trick without trumps.",
                                           P.jacks_or_nines(1)), v, None)
        return Reading(lambda: self.nt_meaning(v, "Opens at" if st.is_opening else "Raises to"), v, None)

    def plus_ns_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        v = self.raise_by(st, seat, 1)
        if isinstance(v, Broken):
            return v
        if call.n is None:
            unbid = st.unbid_suits()
            if not unbid:
                return Broken("every suit has been bid, so +NS has no unbid suit to be void in")
            names = ", ".join(SUIT_NAMES[x] for x in unbid)
            return Reading(lambda: Meaning("void in an unbid suit",
                                           f"Raises to {v} no-trump: void in at least one suit nobody"
                                           f" has bid ({names}).", P.void_in_one_of(unbid)), v, None)
        k = call.n
        s = self.suit_needed(st, k)
        if isinstance(s, Broken):
            return s
        return self.void_bid(v, s, lambda name: f"Raises to {v} no-trump: no card of {name}, the"
                             f" {ordinal(k)} suit bid.")
