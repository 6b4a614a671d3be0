"""The auction as a state machine: whose turn, the legal calls, a call applied, the contract.

The auction's end and final contract too; the rules of each system come from its registered
``System``.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fiftysix.bidding import calls as K
from fiftysix.bidding.calls import Call, parse_call, parse_calls
from fiftysix.bidding.meaning import Meaning
from fiftysix.bidding.state import Broken, CallRecord, Reading, State
from fiftysix.bidding.systems import get_system
from fiftysix.bidding.systems.base import System
from fiftysix.cards import Deal, Hand, Table
from fiftysix.constraints import TRUE, Constraint, conjoin, fits, satisfiable
from fiftysix.errors import IllegalCallError
from fiftysix.scoring import Contract


def _hands_map(hands: Deal | Mapping[int, Hand] | Sequence[Hand] | None) -> dict[int, Hand]:
    if hands is None:
        return {}
    if isinstance(hands, Deal):
        return {s: h for s, h in enumerate(hands.hands, start=1)}
    if isinstance(hands, Mapping):
        return {int(s): h for s, h in hands.items() if h is not None}
    return {s: h for s, h in enumerate(hands, start=1) if h is not None}


@dataclass(frozen=True)
class Verdict:
    """A call measured against the caller's hand (``Auction.verdict``)."""

    meaning: Meaning
    kept: bool | None
    """None where the call promises nothing."""
    broken: tuple[str, ...] = ()
    """The parts of the promise the hand breaks."""
    truthful: tuple[Call, ...] = ()
    """Where it breaks: the calls the hand could truthfully have made instead."""


class Auction:
    """One auction under a system at a table.

    ``hands`` (a Deal, or hands by seat) is optional: where a caller's hand is known, calls
    are checked against it too (no naming a trump suit you hold none of, and the like).
    ``jump_doubles``: table option "doubling by jump" (seed 003: a final bid that doubles the
    bid before it, 28 then 56, scores double); None takes the system's default (on in basic).
    """

    def __init__(self, system: str | System = "international", table: Table | None = None,
                 hands: Deal | Mapping[int, Hand] | Sequence[Hand] | None = None,
                 jump_doubles: bool | None = None) -> None:
        self.system = get_system(system) if isinstance(system, str) else system
        self.table = table if table is not None else Table.make(6)
        self.hands = _hands_map(hands)
        self._st = State(self.table)
        self._st.jump_doubles = self.system.jump_doubles if jump_doubles is None else bool(jump_doubles)
        self._before: list[UndoPoint] = []  # the state's fields before each call, for ``undo``

    @classmethod
    def parse(cls, text: str, system: str | System = "international", table: Table | None = None,
              hands: Deal | Mapping[int, Hand] | Sequence[Hand] | None = None,
              jump_doubles: bool | None = None) -> Auction:
        """Replay an auction written as calls from seat 1 (``28H P +1H X P P P P``)."""
        a = cls(system, table, hands, jump_doubles)
        for call in parse_calls(text):
            a.apply(call)
        return a

    def copy(self) -> Auction:
        return copy.deepcopy(self)

    # --- where we are ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The state the system reads (do not change it)."""
        return self._st

    @property
    def is_over(self) -> bool:
        return self.system.is_over(self._st)

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; None once the auction is over."""
        return None if self.is_over else self._st.to_move

    @property
    def calls(self) -> list[CallRecord]:
        return list(self._st.records)

    @property
    def value(self) -> int | None:
        """The standing bid's value (None before any bid)."""
        return self._st.value

    @property
    def trump(self) -> int | None:
        return self._st.trump

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over; None while it runs, or when the
        system leaves a passed-out auction without a contract (none of the five does)."""
        if not self.is_over:
            return None
        return self.system.contract(self._st)

    @property
    def passed_out(self) -> bool:
        """Over without any bid having been made (basic: seat 1's team then plays 28 no-trump)."""
        return self.is_over and all(r.call.kind == K.PASS and r.counts_as.kind == K.PASS
                                    for r in self._st.records)

    def __str__(self) -> str:
        return K.format_calls([r.call for r in self._st.records])

    def __repr__(self) -> str:
        t = self.table
        return (f"Auction.parse({str(self)!r}, {self.system.name!r}, "
                f"Table({t.players}, {t.deck}, {t.teams!r}))")

    # --- the rules -----------------------------------------------------------------------------

    def _hand(self, seat: int, hand: Hand | None) -> Hand | None:
        return hand if hand is not None else self.hands.get(seat)

    def _read(self, call: Call, hand: Hand | None) -> Reading | Broken:
        st = self._st
        if self.is_over:
            return Broken("the auction is over")
        seat = st.to_move
        r = self.system.interpret(st, seat, call)
        if isinstance(r, Broken):
            return r
        h = self._hand(seat, hand)
        if h is not None:
            bad = self.system.hand_problem(st, seat, call, r, h)
            if bad:
                return bad
        return self._noting_contradictions(seat, r)

    def _noting_contradictions(self, seat: int, r: Reading) -> Reading:
        """The reading whose sentence also says so when no hand keeps both its promise and
        the caller's own earlier promises (a bluff, or a change of mind); the promise itself
        stays as the system gives it (the dealer sets aside what cannot hold)."""
        earlier = [x for x in self._st.records if x.seat == seat and x.meaning.constraint != TRUE]
        if not earlier:
            return r
        base = r.explain
        t = self.table

        def ok(*cs: Constraint) -> bool:
            return satisfiable(conjoin(*cs), t.kinds(), t.hand_size)

        def explain() -> Meaning:
            m = base() if callable(base) else base
            c = m.constraint
            if c == TRUE or not ok(c) or ok(*(x.meaning.constraint for x in earlier), c):
                return m
            clash = [x for x in earlier if not ok(x.meaning.constraint, c)]
            if not clash:
                if not ok(*(x.meaning.constraint for x in earlier)):
                    return m  # the earlier calls already contradict each other
                clash = earlier
            what = " and ".join(f"{x.call} (call {x.index}: {x.meaning.constraint.describe()})"
                                for x in clash)
            return Meaning(m.label, f"{m.sentence} This contradicts the caller's own earlier"
                           f" {what}: no hand keeps both.", c)
        return replace(r, explain=explain)

    def check(self, call: Call | str, hand: Hand | None = None) -> Broken | None:
        """None if ``call`` is legal now, else the rule it breaks (``str`` of it: the words)."""
        c = parse_call(call) if isinstance(call, str) else call
        r = self._read(c, hand)
        return r if isinstance(r, Broken) else None

    def is_legal(self, call: Call | str, hand: Hand | None = None) -> bool:
        return self.check(call, hand) is None

    def readings(self, hand: Hand | None = None, max_value: int = K.MAX_BID) -> list[tuple[Call, Reading]]:
        """The legal next calls (for ``hand``, or the hand stored for the seat to move) up to
        ``max_value``, each with its reading, in the system's order. Bids written above
        ``max_value`` are skipped before they are read (reading is the slow part); a reading's
        ``value`` is None for calls that leave the standing bid as it is. The sentences do not
        carry the note on a clash with the caller's earlier calls (``meaning_of`` adds it)."""
        if self.is_over:
            return []
        st, system = self._st, self.system
        seat = st.to_move
        h = self._hand(seat, hand)
        out, seen = [], set()
        for c in system.candidates(st, seat):
            if c in seen or (c.value is not None and c.value > max_value and c.kind != K.PASS):
                continue
            seen.add(c)
            r = system.interpret(st, seat, c)
            if isinstance(r, Broken) or (h is not None and system.hand_problem(st, seat, c, r, h)):
                continue
            if r.value is not None and r.value > max_value and c.kind != K.PASS:
                continue
            out.append((c, r))
        return out

    def legal_calls(self, hand: Hand | None = None) -> list[Call]:
        """Every legal next call (Pass, Double, Redouble first, then bids by value)."""
        return [c for c, _ in _in_call_order(self.readings(hand))]

    def truthful_calls(self, hand: Hand) -> list[Call]:
        """The legal next calls that promise something and whose promise ``hand`` keeps, in
        the order of ``legal_calls``."""
        return [c for c, r in _in_call_order(self.readings(hand))
                if not r.meaning.promises_nothing and fits(hand, r.meaning.constraint).ok]

    def verdict(self, call: Call | str, hand: Hand) -> Verdict:
        """``call`` made now with ``hand``: its meaning, whether the hand keeps its promise,
        the parts it breaks and, when it breaks, the calls the hand could truthfully have
        made (IllegalCallError for an illegal call)."""
        meaning = self.meaning_of(call, hand)
        if meaning.promises_nothing:
            return Verdict(meaning, None)
        f = fits(hand, meaning.constraint)
        return Verdict(meaning, f.ok, tuple(f.broken), () if f.ok else tuple(self.truthful_calls(hand)))

    def standing_contract(self) -> Contract | None:
        """The contract as it stands: the final one once the auction is over; while it runs,
        the standing bid (value, trump, bidder, doubling); None before any bid."""
        if self.is_over:
            return self.contract
        st = self._st
        if st.value is None or st.high_seat is None:
            return None
        return Contract.make(self.table, st.value, st.trump, st.high_seat, st.doubled)

    def palette_readings(self, hand: Hand | None = None) -> list[tuple[Call, Reading]]:
        """The legal next calls in the order of ``legal_calls``, each with its reading as
        ``meaning_of`` gives it (the sentence notes a clash with the caller's earlier calls):
        every candidate is read once."""
        if self.is_over:
            return []
        seat = self._st.to_move
        return [(c, self._noting_contradictions(seat, r)) for c, r in _in_call_order(self.readings(hand))]

    def palette(self, hand: Hand | None = None) -> list[tuple[Call, Meaning]]:
        """The legal next calls with the meaning each would have now."""
        return [(c, r.meaning) for c, r in self.palette_readings(hand)]

    def palette_marked(self, hand: Hand) -> list[tuple[Call, Meaning, bool]]:
        """The legal next calls for ``hand`` with their meanings, each marked whether the hand
        keeps its promise (False: a deception, e.g. a classic call in a suit held none of)."""
        return [(c, m, fits(hand, m.constraint).ok) for c, m in self.palette(hand)]

    def meaning_of(self, call: Call | str, hand: Hand | None = None) -> Meaning:
        """The meaning ``call`` would have if the player to move made it now."""
        return self._legal(call, hand)[1].meaning

    def _legal(self, call: Call | str, hand: Hand | None) -> tuple[Call, Reading]:
        """The call and its reading; raise IllegalCallError naming its position, the call and
        the rule it breaks."""
        c = parse_call(call) if isinstance(call, str) else call
        r = self._read(c, hand)
        if isinstance(r, Broken):
            n = len(self._st.records) + 1
            who = "" if self.is_over else f" by seat {self._st.to_move}"
            raise IllegalCallError(f"call {n} ({c}){who}: {r}")
        return c, r

    def apply(self, call: Call | str, hand: Hand | None = None) -> CallRecord:
        """Make the next call; raise IllegalCallError naming its position, the call and the rule."""
        c, r = self._legal(call, hand)
        st = self._st
        self._before.append(_undo_point(st))
        seat = st.to_move
        meaning = r.meaning
        counts_as = r.counts_as or c
        if r.value is not None:  # a bid (or a call that counts as one)
            st.value, st.trump, st.high_seat, st.high_call = r.value, r.trump, seat, counts_as
            st.doubled, st.doubled_by = 1, None
            st.passes = 0
            st.last_active = seat
            if r.shows:
                st.ladder = st.ladder.show(r.shows)  # type: ignore[union-attr]
                st.shown[seat] = st.own(seat) + Counter(r.shows)
            if r.names is not None:
                st.named.append((seat, r.names))
            st.bids.append((seat, r.names, r.value))
            if c.kind == K.RAISE:
                st.raised = True
        elif c.kind == K.DOUBLE:
            st.doubled, st.doubled_by, st.passes, st.last_active = 2, seat, 0, seat
        elif c.kind == K.REDOUBLE:
            st.doubled, st.passes, st.last_active = 4, 0, seat
            if self.system.redouble_ends:
                st.closed = True
        else:
            st.passes += 1
        rec = CallRecord(len(st.records) + 1, seat, self.table.team_of(seat), c, counts_as,
                         st.value, st.trump, st.high_seat, st.doubled, meaning)
        st.records.append(rec)
        return rec

    def undo(self) -> CallRecord:
        """Take back the last call (IllegalCallError when there is none): the state is exactly
        as it was before that call, with no replay. Returns the call taken back."""
        if not self._st.records:
            raise IllegalCallError("there is no call to take back")
        st, point = self._st, self._before.pop()
        rec = st.records.pop()
        (st.value, st.trump, st.high_seat, st.high_call, st.doubled, st.doubled_by, st.ladder, shown,
         named, bids, st.raised, st.passes, st.closed, st.last_active) = point
        st.shown = dict(shown)
        del st.named[named:], st.bids[bids:]
        return rec

    def apply_all(self, calls: Iterable[Call | str]) -> None:
        for c in calls:
            self.apply(c)

    # --- what the calls promise ----------------------------------------------------------------------

    def seat_constraints(self) -> dict[int, Constraint]:
        """Everything each seat's calls promise, conjoined (TRUE for a seat that promised nothing)."""
        per: dict[int, list[Constraint]] = {s: [] for s in self.table.seats}
        for r in self._st.records:
            if r.meaning.constraint != TRUE:
                per[r.seat].append(r.meaning.constraint)
        return {s: (conjoin(*cs) if cs else TRUE) for s, cs in per.items()}


UndoPoint = tuple[Any, ...]
"""What ``_undo_point`` keeps of a state (its fields in a fixed order)."""


def _undo_point(st: State) -> UndoPoint:
    """What a call may change in ``st``, as it is now (``shown``'s counters are replaced, never
    changed in place, and ``named`` and ``bids`` only grow: their lengths are enough)."""
    return (st.value, st.trump, st.high_seat, st.high_call, st.doubled, st.doubled_by, st.ladder, dict(st.shown),
            len(st.named), len(st.bids), st.raised, st.passes, st.closed, st.last_active)


_QUIET_ORDER = {K.PASS: 0, K.DOUBLE: 1, K.REDOUBLE: 2}


def _in_call_order(pairs: list[tuple[Call, Reading]]) -> list[tuple[Call, Reading]]:
    """Pass, Double, Redouble first, then bids by value (ties by notation)."""
    return sorted(pairs, key=lambda cr: (_QUIET_ORDER.get(cr[0].kind, 3), cr[1].value or 0, str(cr[0])))
