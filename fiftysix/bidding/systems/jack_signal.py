"""The ``jack-signal`` bidding system: the online-table rules of seed 004 (RULES.md 7.3)."""
from __future__ import annotations

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.promises import new_cards, top_label
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.bidding.systems.base import LEVELS, Handler, NumberHandler, System, Top, ordinal
from fiftysix.cards import SUIT_NAMES, Card, Hand
from fiftysix.constraints import conjoin


class JackSignal(System):
    name = "jack-signal"
    title = "Jack-signal (online table)"
    source = "RULES.md 7.3, seed 004"
    forms = frozenset({K.SUIT, K.REVERSE, K.NS, K.PLUS, K.PASS, K.DOUBLE, K.REDOUBLE})
    ns_example = "32NS"
    redouble_ends = True
    first_call_pass = "the first bidder must open at 28 or more"
    readings = (
        "The Jack signal is the table's doing, so where the caller's hand is known it is a"
        " legality rule: 30H needs a Jack of hearts in the hand, H30 needs none.",
        "Own standing bid: the high bidder only gets the turn back after a Double. Then the"
        " bidder may Pass (keep it doubled), raise in the same suit to the next level only"
        " (40 from below 40, 48 from 40-47, 56 from 48-55), or change suit (or bid NS) at any higher value, which cancels the"
        " Double. The high bidder may not say Plus.",
        "Plus N (N = 1..3) is in the suit the caller's partners named most recently (that is"
        " the high bidder's suit when a partner holds the bid); at the opening in any suit"
        " (value 27+N). Plus 1 on a Jack promises a singleton Jack, unless the caller showed"
        " the first Jack of the suit; then it promises both Jacks and nothing about length."
        " Plus 1 on any other card and Plus 2/3 promise the top cards only.",
        "The NS step counts distinct suits: one above the bid = the most recent suit named, two"
        " above = the suit before it, and so on; a step past the suits named is illegal.",
        "A Double does not stop the bidding; a Redouble ends it; otherwise the auction ends when"
        " every other player has passed after the last bid or Double.",
    )
    examples = (
        ("", "30H"), ("", "H30"), ("30C 31H", "32NS"), ("30C 31H", "33NS"), ("", "+1H"),
        ("30H P", "P"), ("28H P", "+1H"), ("28S 29H", "+1S"), ("28H P", "+2H"), ("28H P", "+3H"),
        ("28H", "X"), ("28H X", "XX"), ("28H X P P P P", "40H"), ("28H X P P P P", "29S"),
    )

    def number_forms(self) -> dict[str, NumberHandler]:
        return {K.SUIT: self.suit_bid, K.REVERSE: self.suit_bid, K.NS: self.ns_bid}

    def bid_handlers(self) -> dict[str, Handler]:
        return {K.PLUS: self.plus_bid}

    def bid_problem(self, st: State, seat: int, value: int, suit: int | None = None) -> Broken | None:
        bad = self.value_problem(st, value)
        if bad or st.high_seat != seat:
            return bad
        if suit is not None and suit == st.trump:
            # seed 004: "To raise your own standing bid you must jump to the next level
            # (40, 48 or 56)": the next one above the standing bid, no skipping.
            nxt = next(x for x in LEVELS if x > st.value)  # type: ignore[operator]
            if value != nxt:
                return Broken(f"to raise your own standing bid you must jump to the next level: {nxt}"
                              f" from {st.value} (40 from below 40, 48 from 40-47, 56 from 48-55)")
        return None

    def suit_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        s = call.suit
        assert s is not None
        name = SUIT_NAMES[s]
        if call.kind == K.SUIT:
            jack = (Card.make(s, 0),)
            return Reading(lambda: Meaning(f"Jack of {name}", f"Bids {v} with {name} as trump,"
                                           f" shown as {v}{name[0].upper()}: holds a Jack of {name}.",
                                           P.has_jack(s)), v, s, new_cards(jack, st.own(seat)), s)
        return Reading(lambda: Meaning(f"{name}, no Jack", f"Bids {v} with {name} as trump, shown as"
                                       f" {name[0].upper()}{v}: holds {name} but no Jack of {name}.",
                                       conjoin(P.length(s, 1), P.has_jack(s, False))), v, s, (), s)

    def ns_suit(self, st: State, v: int) -> int | Broken:
        k = v - st.floor
        return self.suit_needed(st, k, f"NS is coded by its step ({k} above the bid): {{}}")

    def ns_words(self, st: State, v: int, name: str | None) -> tuple[str, str]:
        k = v - st.floor
        return f"no {name}", f"Bids {v} NS, {k} above the bid: no card of {name}, the {ordinal(k)} suit called."

    def plus_problem(self, st: State, seat: int, call: Call) -> Broken | None:
        if st.value is None:
            return None
        if st.high_seat == seat:
            return Broken("the high bidder may not say Plus (an own raise jumps to 40, 48 or 56)")
        partner_suit = st.last_suit_of(st.table.partners(seat))
        if partner_suit is None:
            return Broken("Plus is in the suit your partner called last, and no partner has called a suit")
        if call.suit != partner_suit:
            return Broken(f"Plus is in the suit your partner called last ({SUIT_NAMES[partner_suit]})")
        return None

    def plus_meaning(self, n: int, t: Top, v: int) -> Meaning:
        top, own, name, s = t.cards, t.own, t.name, t.suit
        if n == 1 and top[0].rank == 0 and own.get(top[0], 0) == 0:
            return Meaning(top_label(top, True), f"Plus 1 to {v} in {name}: the top remaining"
                           f" card, {P.cards_phrase(top)}, as the only {name[:-1]} in the hand.",
                           conjoin(P.holds_top(top, own), P.length(s, 1, 1)))
        if n == 1 and top[0].rank == 0:
            return Meaning(f"the other Jack of {name}", f"Plus 1 to {v} in {name}: the other"
                           f" Jack of {name}, after showing the first one: holds both Jacks of"
                           f" {name}; says nothing about length.", P.holds_top(top, own))
        what = "the top remaining card" if n == 1 else f"the top {n} remaining cards"
        return t.meaning(f"top {P.short_phrase(top)}", f"Plus {n} to {v} in {name}: {what},"
                         f" {P.cards_phrase(top)}.",
                         lambda own, o: P.holds_top(top, own))

    def hand_problem(self, st: State, seat: int, call: Call, reading: Reading, hand: Hand) -> Broken | None:
        bad = super().hand_problem(st, seat, call, reading, hand)
        if bad or call.suit is None:
            return bad
        has = hand.count(Card.make(call.suit, 0)) > 0
        name = SUIT_NAMES[call.suit]
        if call.kind == K.SUIT and not has:
            return Broken(f"the Jack signal shows this bid as {name[0].upper()}{call.value}: you hold no Jack of {name}")
        if call.kind == K.REVERSE and has:
            return Broken(f"the Jack signal shows this bid as {call.value}{name[0].upper()}: you hold a Jack of {name}")
        return None
