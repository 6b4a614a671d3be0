"""The frame every bidding system fills in: the legal calls, what each does and promises, the contract.

A system answers ``interpret(state, seat, call)`` with either a ``Reading`` (the call is
legal: its new value, trump, the cards it shows, and its meaning) or a ``Broken`` naming the
rule the call breaks. The auction engine (``fiftysix.bidding.auction``) does the rest.

The flow the systems share lives here, once: Pass, Double and Redouble; the number forms
(``28H``, ``H28``, ``32NT``, ``33NS``), whose written value is checked before the system
reads the bid (``number_bid``); NS as a void in the suit it refers to (``ns_bid``); bids that
take cards off a suit's ladder (``ladder_bid``); raises to no-trump that promise a void
(``void_bid``). A system supplies only what differs: its forms, its limits on a bid
(``bid_problem``) and the meaning of each call.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from fiftysix.bidding import calls as K
from fiftysix.bidding import promises as P
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.promises import new_cards, own_in_suit, own_note
from fiftysix.bidding.state import Broken, Reading, State
from fiftysix.cards import SUIT_NAMES, Card, Hand
from fiftysix.constraints import TRUE, Constraint
from fiftysix.scoring import Contract

FORM_NAMES = {
    K.SUIT: "number-suit", K.REVERSE: "suit-number", K.NT: "number-NT", K.NS: "NS (Noes)",
    K.PLUS: "plus", K.SUIT_PLUS: "suit-plus", K.PLUS_NT: "plus-NT", K.PLUS_NS: "plus-NS",
    K.X_PLUS: "X-Plus", K.MINUS: "minus", K.PLUS_PASS: "Plus Pass", K.RAISE: "own raise",
    K.FORCED: "forced opening (28-Pass)", K.PASS: "Pass", K.DOUBLE: "Double",
    K.REDOUBLE: "Redouble",
}
LEVELS = (40, 48, 56)

Handler = Callable[[State, int, Call], "Reading | Broken"]
NumberHandler = Callable[[State, int, Call, int], "Reading | Broken"]
"""A number form's handler: the state, the seat, the call and its value (already checked)."""


def strain_word(trump: int | None) -> str:
    return "no-trump" if trump is None else SUIT_NAMES[trump]


def bid_text(st: State) -> str:
    if st.high_call is None:
        return "no bid"
    return f"{st.high_call} ({st.value}) by seat {st.high_seat}"


@dataclass(frozen=True)
class Top:
    """The top of a suit's ladder as a call sees it, with what the caller showed there before.

    ``cards``: the top remaining cards the call is about; ``own``: every card the caller showed
    by earlier calls; ``held``: how many of those are of this suit (exact lengths count on top).
    """

    suit: int
    cards: tuple[Card, ...]
    own: Counter[Card]
    held: int

    @property
    def name(self) -> str:
        return SUIT_NAMES[self.suit]

    @property
    def shows(self) -> tuple[Card, ...]:
        """What the call takes off the ladder (the cards beyond those the caller showed)."""
        return new_cards(self.cards, self.own)

    def meaning(self, label: str, sentence: str,
                promise: Callable[[Counter[Card], int], Constraint]) -> Meaning:
        """The meaning whose constraint is ``promise(own, held)``. Where the cards the caller
        showed before change that constraint, the sentence closes by saying what it asks in all,
        so the words say what the constraint says."""
        c = promise(self.own, self.held)
        note = own_note(self.own, self.suit, c) if c != promise(Counter(), 0) else ""
        return Meaning(label, sentence + note, c)


class System:
    """Base of the registered systems. A subclass sets the class attributes, names its handlers
    (``number_forms`` for the forms with a written value, ``bid_handlers`` for the rest) and
    overrides the rules and words where it differs (``bid_problem``, ``ns_suit``, ``ns_words``,
    ``hand_problem``, ``is_over``, ``contract``)."""

    name: str = ""
    title: str = ""
    source: str = ""
    forms: frozenset[str] = frozenset()
    redouble_ends: bool = True
    max_plus: int = 3
    jump_doubles: bool = False
    """Table option ``doubling by jump`` (seed 003): its default under this system."""
    first_call_pass: str = ""
    """The rule a Pass as the first call breaks (empty: the first caller may pass)."""
    ns_example: str = "33NS"
    """An NS bid with its value, for the message when the value is missing."""
    readings: tuple[str, ...] = ()
    """The readings this implementation chose where RULES.md leaves one open (for the docs)."""
    examples: tuple[tuple[str, str], ...] = ()
    """(auction so far, call) pairs, one per row of the system's call table (for the docs)."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {
            K.PASS: self.pass_call, K.DOUBLE: self.double, K.REDOUBLE: self.redouble}
        self.number_handlers = self.number_forms()
        self.handlers.update({kind: self.number_bid for kind in self.number_handlers})
        self.handlers.update(self.bid_handlers())

    def number_forms(self) -> dict[str, NumberHandler]:
        """The number forms the system reads through ``number_bid``, each with its handler."""
        return {}

    def bid_handlers(self) -> dict[str, Handler]:
        """The handlers of the other bid forms."""
        return {}

    # --- the interface the engine uses ----------------------------------------------------------

    def interpret(self, st: State, seat: int, call: Call) -> Reading | Broken:
        """The call's reading if it is legal now, else the rule it breaks."""
        if call.kind not in self.forms:
            return Broken(f"the {self.name} system has no {FORM_NAMES[call.kind]} call")
        return self.handlers[call.kind](st, seat, call)

    def hand_problem(self, st: State, seat: int, call: Call, reading: Reading, hand: Hand) -> Broken | None:
        """A rule the call breaks given the caller's hand (RULES.md 6: no trump you hold none of)."""
        if (reading.value is not None and reading.trump is not None and call.names_suit
                and hand.suit_length(reading.trump) == 0):
            return Broken(f"you cannot name a trump suit you hold no card of "
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
        doubled = st.doubled
        if st.jump_doubles and self.jump_doubled(st):
            doubled = min(4, doubled * 2)
        return Contract.make(st.table, st.value, st.trump, st.high_seat, doubled)

    @staticmethod
    def jump_doubled(st: State) -> bool:
        """Seed 003: "if the team that won the bidding with its last offer doubled it, e.g. the
        penultimate bid was 28 and the team said 56, the team gets double points": the final
        bid is at least twice the bid before it."""
        return len(st.bids) >= 2 and st.bids[-1][2] >= 2 * st.bids[-2][2]

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
                        for strain in (None, 0, 1, 2, 3):
                            yield Call(kind, v, strain)
            elif kind == K.FORCED:
                yield Call(kind, 28)

    # --- the rules every bid shares ---------------------------------------------------------------

    @staticmethod
    def value_problem(st: State, value: int) -> Broken | None:
        if value > K.MAX_BID:
            return Broken(f"bids stop at {K.MAX_BID}: this call would make {value}")
        if st.value is not None and value <= st.value:
            return Broken(f"a bid must be higher than the standing bid {bid_text(st)}")
        if value < K.MIN_BID:
            return Broken(f"bids start at {K.MIN_BID}")
        return None

    def bid_problem(self, st: State, seat: int, value: int, suit: int | None = None) -> Broken | None:
        """The rule a bid by ``seat`` to ``value`` (naming ``suit``) breaks now, or None.
        The shared rule is the value's; a system adds its own limits here."""
        return self.value_problem(st, value)

    def bid_value(self, st: State, seat: int, call: Call) -> int | Broken:
        """A number bid's value (``28H``, ``H28``, ``32NT``, ``33NS``) if it may be made now,
        else the rule it breaks."""
        if call.value is None:
            return Broken(f"write the value with NS, e.g. {self.ns_example}")
        return self.bid_problem(st, seat, call.value, call.suit) or call.value

    def raise_by(self, st: State, seat: int, k: int) -> int | Broken:
        """The value a suitless call that raises the standing bid by ``k`` reaches (from 27 at
        the opening), if a bid to it may be made now, else the rule it breaks."""
        v = st.floor + k
        return self.bid_problem(st, seat, v) or v

    def suit_needed(self, st: State, k: int, why: str = "{}") -> int | Broken:
        """The k-th most recent distinct suit named, or the rule broken if there is none
        (said in ``why``, whose ``{}`` stands for the shared words)."""
        recent = st.recent_suits()
        if not recent:
            return Broken(why.format("no suit has been bid yet"))
        if k > len(recent):
            return Broken(why.format(f"only {len(recent)} suit(s) have been bid, so there is no"
                                     f" {ordinal(k)} suit"))
        return recent[k - 1]

    # --- the shared handlers -------------------------------------------------------------------

    def number_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        """The frame of the number forms (``28H``, ``H28``, ``32NT``, ``33NS``): the value
        written must be a bid allowed now; then the system's handler of the form reads it."""
        v = self.bid_value(st, seat, call)
        if isinstance(v, Broken):
            return v
        return self.number_handlers[call.kind](st, seat, call, v)

    def ns_bid(self, st: State, seat: int, call: Call, v: int) -> Reading | Broken:
        """Number-NS (``33NS``): a no-trump bid promising no card of the suit it refers to
        (``ns_suit``); where it refers to none yet, a no-trump bid that promises nothing."""
        s = self.ns_suit(st, v)
        if isinstance(s, Broken):
            return s
        if s is None:
            return Reading(lambda: Meaning(*self.ns_words(st, v, None), TRUE), v, None)
        return Reading(lambda: Meaning(*self.ns_words(st, v, SUIT_NAMES[s]), P.void(s)), v, None)

    def ns_suit(self, st: State, v: int) -> int | None | Broken:
        """The suit an NS bid to ``v`` is void in: the last suit bid, or None before any."""
        recent = st.recent_suits()
        return recent[0] if recent else None

    def ns_words(self, st: State, v: int, name: str | None) -> tuple[str, str]:
        """The label and sentence of an NS bid to ``v`` void in the suit ``name`` (None: none)."""
        raise NotImplementedError(f"{self.name} reads NS bids but gives them no words")

    def ladder_bid(self, st: State, seat: int, suit: int, k: int,
                   explain: Callable[[Top, int], Meaning], value: int | None = None,
                   partial: bool = False, shows: bool = True) -> Reading | Broken:
        """The frame of a bid about the top ``k`` remaining cards of ``suit``'s ladder (Plus
        forms, X-Plus, Minus, suit-plus; number-suit in basic and classic): the bid, to
        ``value`` (default: ``k`` above the standing bid), must be allowed now and the ladder
        must hold the cards (``partial``: at least one); ``explain(top, value)`` gives the
        meaning. The call names ``suit`` as trump and, where ``shows``, takes the cards off
        the ladder."""
        v = st.floor + k if value is None else value
        bad = self.bid_problem(st, seat, v, suit)
        if bad:
            return bad
        cards = st.ladder.top(suit, k)  # type: ignore[union-attr]
        if partial and not cards:
            return Broken(f"no {SUIT_NAMES[suit]} are left on the ladder")
        if not partial and len(cards) < k:
            return Broken(f"only {len(cards)} {SUIT_NAMES[suit]} are left on the ladder")
        own = st.own(seat)
        t = Top(suit, cards, own, own_in_suit(own, suit))
        return Reading(lambda: explain(t, v), v, suit, t.shows if shows else (), suit)

    def plus_bid(self, st: State, seat: int, call: Call) -> Reading | Broken:
        """Plus N in a suit (``+1H``), N required: N (1..max_plus) and the call
        (``plus_problem``) must be allowed now; the call raises by N and holds the top N
        remaining cards of the suit (``plus_meaning`` says it in words)."""
        n = call.n
        if n is None:
            return Broken("write Plus with its number, e.g. +1H")
        if n > self.max_plus:
            return Broken(f"plus counts go up to +{self.max_plus}")
        bad = self.plus_problem(st, seat, call)
        if bad:
            return bad
        return self.ladder_bid(st, seat, call.suit, n, lambda t, v: self.plus_meaning(n, t, v))  # type: ignore[arg-type]

    def plus_problem(self, st: State, seat: int, call: Call) -> Broken | None:
        """A rule of the system's own that a Plus call breaks now, before its value is checked."""
        return None

    def plus_meaning(self, n: int, top: Top, v: int) -> Meaning:
        """The meaning of Plus ``n`` to ``v`` on the ladder's ``top`` cards."""
        raise NotImplementedError(f"{self.name} reads Plus calls but gives them no meaning")

    @staticmethod
    def void_bid(v: int, s: int, sentence: Callable[[str], str], label: str = "no {}") -> Reading:
        """A no-trump bid to ``v`` that promises no card of suit ``s`` (NS, Nos, plus-NS):
        ``sentence`` and ``label`` are given the suit's name."""
        return Reading(lambda: Meaning(label.format(SUIT_NAMES[s]), sentence(SUIT_NAMES[s]), P.void(s)),
                       v, None)

    def pass_call(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if self.first_call_pass and not st.records:
            return Broken(self.first_call_pass)
        return Reading(Meaning("pass", "Passes: says nothing about the hand.", TRUE))

    def double(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if st.value is None:
            return Broken("there is no bid to double")
        if st.same_team(seat, st.high_seat):  # type: ignore[arg-type]
            return Broken("only an opponent of the high bidder may double")
        if st.doubled > 1:
            return Broken("the bid is already doubled" if st.doubled == 2 else "the bid is already redoubled")
        return Reading(Meaning(f"double {st.high_call}",
                               f"Doubles {st.high_call} ({st.value} {strain_word(st.trump)}): the"
                               " bidders' stake is doubled if it stands; says nothing about the hand.",
                               TRUE))

    def redouble(self, st: State, seat: int, call: Call) -> Reading | Broken:
        if st.doubled != 2:
            return Broken("only a doubled bid can be redoubled")
        if not st.same_team(seat, st.high_seat):  # type: ignore[arg-type]
            return Broken("only the doubled team may redouble")
        end = " and ends the auction" if self.redouble_ends else ""
        return Reading(Meaning(f"redouble {st.high_call}",
                               f"Redoubles {st.high_call}: the stake is multiplied by 4{end};"
                               " says nothing about the hand.", TRUE))


def nth(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``12th``, ``13th``, ``21st``."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def ordinal(k: int) -> str:
    """``last``, ``second most recent``, ``third most recent``, ``4th most recent``, ..."""
    return {1: "last", 2: "second most recent", 3: "third most recent"}.get(k, f"{nth(k)} most recent")
