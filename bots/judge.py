"""The ``default`` bidding bot: truthful calls, value judged by simulation under the stake table.

Every call it makes keeps its promise for its hand (as the ``rules`` bot's do). How high to
go, whether to compete, and whether to double it judges from deals consistent with its
hand and every promise made so far (``analyser.dealer.Dealer``, exact), each solved by
yes/no double-dummy probes: for each strain it could play, the share of deals in which its
team takes each value it could bid, and the share in which the opponents' standing
contract makes. Those shares, put through the rules' stake table (28-39 win 1 lose 2, ...),
give the expected stake of each call; among the calls worth making it prefers the ones that
tell partners most, and it jumps past the cheap bids only when the jump clearly pays (a cheap
bid lets partners show their cards). A decision that would go the other way were its
thresholds a little lower or higher is judged again on twice the deals (from the 16th
call on, only where it could become a double); a double is always judged on all of them.

The dealer deals what calls promise; bidders bid on what their hands are worth. Of a pool of
drawn deals, those in which every other seat's bids match its hand's worth by the rule of
thumb, and its passes over the opponents a hand worth no bid, are judged first
(``fiftysix.bots.worth``). Where the samples alone find no bid worth
making, the rule of thumb's cheap first-band bid is still made when it makes often enough:
partners learn a card, and the samples, which give partners random hands beyond their
promises, undervalue our side (``follow_at``).

Double-dummy values favour the declaring side (it sees every hand); ``dd_gap`` points,
measured in bench/bots.py against the bots' own card play, are added to every target our
side must reach in the samples, and ``compete_gap`` more over the opponents' bid (competing bids
made less often than their samples said). Bidders hold more than they promise: the opponents'
standing contract counts as making when they come within ``base_gap`` points of it. The
tunables are one frozen ``JudgeParams``; where their values come from is in docs/bots.md.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from fiftysix.analyser.dealer import Dealer, View, quick_counts
from fiftysix.analyser.encode import known_after
from fiftysix.analyser.pool import NOT_DONE
from fiftysix.analyser.solver import BudgetExceeded, Solver, ensure_warm, solver_pool
from fiftysix.bidding import Auction, format_call
from fiftysix.bidding.calls import DOUBLE, MAX_BID, PASS, REDOUBLE, Call
from fiftysix.bidding.meaning import promise_text
from fiftysix.bidding.state import Reading, State
from fiftysix.bots.base import QUIET_KINDS, Choice, bid_auction, decision_seed
from fiftysix.bots.rules import RulesBot, info_score, shown_points, value_limit
from fiftysix.bots.worth import POOL, bid_claims, pick_deals
from fiftysix.cards import CARD_NAMES, NUM_RANKS, RANKS, SUIT_NAMES, SUITS, Hand
from fiftysix.constraints import atoms
from fiftysix.errors import ConstraintError, FiftySixError
from fiftysix.scoring import stake_row

BAND_STARTS = (40, 48, 56)
"""The first values of the stake table's bands after 28-39 (RULES.md 5)."""


@dataclass(frozen=True)
class JudgeParams:
    """The ``default`` bot's tunables. Where each value comes from: docs/bots.md (its history)
    and bench/RESULTS.md; bench/rejudge.py tries another with ``dataclasses.replace``."""

    samples: int = 8
    """Deals simulated per decision."""
    extra: int = 8
    """Deals added to a close decision (``close``)."""
    dd_gap: tuple[int, ...] = (1, 12, 10, 10)
    """Points added to every value our side must reach in a sample, by band (28-39, 40-47, 48-55, 56)."""
    compete_gap: int = 1
    """Points more again when the opponents hold the bid."""
    threads: int = 2
    """Threads a decision's deals are solved in, each with its own solver of the solver pool."""
    table_mb: float = 8
    """Each of those solvers' transposition table, MB (a decision's probes are small)."""
    probe_nodes: int = 100_000
    """A probe of ours past this many nodes leaves its value unknown for that deal."""
    backstop_seconds: float = 3.0
    """CPU seconds after which a decision stops simulating."""
    pool: int = POOL
    """Deals drawn per decision before the ones judged are picked from them."""
    deal_states: int = 20_000
    """The dealer counts promises exactly up to this many states, then rejects."""
    max_draws: int = 4096
    """At most this many draws where the dealer must reject."""
    quick_draws: int = 1024
    """Shuffles tried by plain rejection before the dealer counts the promises."""
    double_at: float = 0.8
    """Double when their contract fails (by more than ``their_gap``) in this share of the deals."""
    base_gap: int = 0
    """Their contract counts as making when they come within this many points of it."""
    their_gap: int = 4
    """A double needs them to fail by more than this many points."""
    follow_at: float = 0.4
    """The rule of thumb's cheap first-band bid is made where it makes this often."""
    follow_theirs: float = 0.5
    """...but not over their contract making less often than this."""
    follow_loss: float = 0.5
    """...nor where its expected stake is more than this below passing's."""
    they_double_at: float = 0.8
    """A new bid failing in this share of the deals is valued doubled."""
    redouble_at: float = 0.75
    """Redouble when our doubled contract makes in this share of the deals."""
    make_at: float = 0.7
    """A bid that does not raise our own side's contract must make this often."""
    long_auction: int = 16
    """From this call on, a close decision is judged again only where it could double."""
    close: float = 0.2
    """A decision is close when reading every share threshold this much lower or higher changes it."""
    compete_at: float = 0.6
    """Over the opponents' bid: the least making share worth competing."""
    gain: float = 0.15
    """Expected stake a bid must add with nothing new to show, and a raise of ours at all."""
    span: int = 14
    """Bids more than this many points above the standing value are not considered."""
    strains: int = 2
    """Strains judged besides our standing one: those the hand suits best."""
    switch_gain: float = 0.5
    """Expected stake a new strain over partner's standing bid must add (in the same band)."""
    cheap: int = 2
    """Bids up to this many points above the lowest legal value are cheap; higher ones jump."""
    jump_at: float = 0.85
    """A jump must make this often..."""
    jump_gain: float = 0.5
    """...and add this much expected stake over the best cheap bid (or passing)."""


PARAMS = JudgeParams()
"""The values the ``default`` bot plays with."""


def strain_name(trump: int | None) -> str:
    return "NT" if trump is None else SUITS[trump]


def holding_text(hand: Hand, trump: int | None) -> str:
    """The cards of the hand that matter in ``trump``: "JJ9 of hearts (5 cards)", "two Jacks"."""
    if trump is None:
        jacks = sum(1 for c in hand if c.rank == 0)
        return f"{jacks} Jack{'s' if jacks != 1 else ''}" if jacks else "no Jack"
    held = sorted(hand.suit_cards(trump), key=lambda c: c.rank)
    top = "".join(RANKS[c.rank] for c in held if c.rank <= 3)  # J 9 A T: the cards with points
    name = SUIT_NAMES[trump]
    if not held:
        return f"no {name}"
    return f"{top or 'no honour'} of {name} ({len(held)} card{'s' if len(held) != 1 else ''})"


def partners_text(auction: Auction, seat: int, trump: int | None) -> str:
    """What partners' calls showed in ``trump`` (or their Jacks at no-trump), in words:
    "partner's +1H showing the 9H"; empty when they showed nothing there."""
    table = auction.table
    partners = set(table.partners(seat))
    parts = []
    for rec in auction.calls:
        if rec.seat not in partners or rec.call.kind in QUIET_KINDS:
            continue
        shown = []
        for a in atoms(rec.meaning.constraint):
            if a.lo <= 0:
                continue
            suits = {k // NUM_RANKS for k in a.kinds}
            if len(a.kinds) == 1 and (trump is None or suits == {trump}):
                k = a.kinds[0]
                if trump is None and k % NUM_RANKS != 0:
                    continue
                shown.append(("both " if a.lo >= 2 else "the ") + CARD_NAMES[k])
            elif trump is not None and set(a.kinds) == set(range(trump * NUM_RANKS, (trump + 1) * NUM_RANKS)):
                shown.append(f"{a.lo}+ {SUIT_NAMES[trump]}")
        if shown:
            who = "partner" if len(partners) == 1 else f"seat {rec.seat}"
            parts.append(f"{who}'s {format_call(rec.call)} showing {' and '.join(shown)}")
    return ", ".join(parts)


def reason_prefix(auction: Auction, hand: Hand, trump: int | None) -> str:
    """ "with JJ9 of hearts (4 cards) and partner's +1H showing the 9H" """
    mine = holding_text(hand, trump)
    theirs = partners_text(auction, auction.state.to_move, trump)
    return f"with {mine}" + (f" and {theirs}" if theirs else "")


def band(value: int) -> int:
    """The band of the stake table holding ``value``: 0 for 28-39, 1 for 40-47, ..."""
    return sum(1 for b in BAND_STARTS if value >= b)


def expected_stake(p: float, value: int, doubled: int = 1) -> float:
    """The declarers' expected stake when their contract makes with probability ``p``."""
    win, lose = stake_row(value)
    return doubled * (p * win - (1 - p) * lose)


def bid_stake(p: float, value: int, they_double_at: float = PARAMS.they_double_at) -> float:
    """The expected stake of a new bid: doubled where the opponents would double it, that is
    where it fails in at least ``they_double_at`` of the deals."""
    return expected_stake(p, value, 2 if 1 - p >= they_double_at else 1)


@dataclass
class Judgement:
    """What the samples say from one seat: per (strain, value) the deals in which our team
    makes it and the deals in which that is known (a probe that ran past its budget leaves
    the values near the deal's take unknown, not the ones proved below or above it), and the
    deals in which the opponents' standing contract makes, of those solved for it
    (``their_n`` 0: no such contract)."""

    made: dict[tuple[int | None, int], int]
    known: dict[tuple[int | None, int], int]
    their_made: int = 0
    their_n: int = 0
    their_far: int = 0
    """Deals in which they come within ``THEIR_GAP`` points of their contract (``their_made``:
    within ``base_gap``); counted only for a judgement that may double (else as ``their_made``)."""
    values: dict[int | None, list[int]] | None = None

    @property
    def theirs(self) -> float | None:
        return self.their_made / self.their_n if self.their_n else None

    @property
    def clear_fails(self) -> float | None:
        """Share of deals in which their contract fails by more than ``their_gap`` points."""
        return 1 - self.their_far / self.their_n if self.their_n else None

    def share(self, trump: int | None, value: int) -> tuple[float, int]:
        """Making share at ``value`` and the deals it rests on: those of the highest probed
        value at or below it that some deal answered."""
        below = [v for v in (self.values or {}).get(trump, []) if v <= value and self.known.get((trump, v))]
        if not below:
            return 0.0, 0
        v = max(below)
        return self.made.get((trump, v), 0) / self.known[(trump, v)], self.known[(trump, v)]


def probe_values(bids: list[tuple[Call, Reading]], standing: int | None, trump: int | None,
                 cheap: int = PARAMS.cheap) -> tuple[list[tuple[Call, Reading]], dict[int | None, list[int]]]:
    """The bids worth judging and, per strain, the values to probe.

    Within a band of the stake table a higher value wins nothing more, so per strain only
    the cheapest bids (up to ``cheap`` above the cheapest, judged at the cheapest value's
    odds plus the bands' first values are worth a probe; other bids are dropped. Our own
    standing value (``standing``, in ``trump``) is probed too."""
    cheapest: dict[int | None, int] = {}
    for _, r in bids:
        assert r.value is not None  # a bid
        cheapest[r.trump] = min(cheapest.get(r.trump, MAX_BID), r.value)
    values = {t: {v} | {b for b in BAND_STARTS if b > v} for t, v in cheapest.items()}
    kept = [(c, r) for c, r in bids if r.value in values[r.trump] or _bid_value(r) <= cheapest[r.trump] + cheap]
    present = {t: {r.value for _, r in kept if r.trump == t} | {cheapest[t]} for t in cheapest}
    out = {t: sorted(vs & present[t]) for t, vs in values.items()}
    if standing is not None:
        out[trump] = sorted(set(out.get(trump, [])) | {standing})
    return kept, out


@dataclass(frozen=True)
class Situation:
    """Where a decision stands: the seat, whether our side holds the bid, what partners named,
    and what the standing bid is worth to us (``base``; in words, ``base_text``)."""

    auction: Auction
    hand: Hand
    seat: int
    ours_hold: bool
    partner_suits: set
    spoke: bool
    base: float
    base_text: str

    @classmethod
    def of(cls, auction: Auction, hand: Hand, j: Judgement) -> Situation:
        st, table = auction.state, auction.table
        seat = st.to_move
        partners = set(table.partners(seat))
        ours_hold = _holds(st, seat)
        if st.value is None:
            base, text = 0.0, "passing leaves the bidding to the others"
        elif ours_hold:
            p0, n0 = j.share(st.trump, st.value)
            base = expected_stake(p0, st.value, st.doubled)
            text = f"our {st.value}{strain_name(st.trump)} makes in {p0:.0%} of {n0} deals"
        else:
            p0 = j.theirs if j.theirs is not None else 0.5
            base = -expected_stake(p0, st.value, st.doubled)
            text = f"their {st.value}{strain_name(st.trump)} makes in {p0:.0%} of {j.their_n} deals"
        if st.value is not None and st.doubled > 1:  # what the standing bid is worth says why we run or stay
            text += f", {'doubled' if st.doubled == 2 else 'redoubled'}: worth {base:+.2f} to us"
        return cls(auction, hand, seat, ours_hold, {s for p, s in st.named if p in partners},
                   any(rec.seat == seat and rec.call.kind not in QUIET_KINDS for rec in auction.calls), base, text)


@dataclass(frozen=True)
class Option:
    """A bid worth making by the samples: its share ``p`` of ``n`` deals, expected stake, gain
    over the standing bid (``Situation.base``), score (information, cheapness and gain), and
    whether it jumps past the cheap bids."""

    call: Call
    reading: Reading
    p: float
    n: int
    ev: float
    gain: float
    score: float
    jump: bool

    def rank(self) -> tuple:
        return (self.score, self.gain, -(self.reading.value or 0), format_call(self.call))


def bid_reason(at: Situation, o: Option) -> str:
    """Why a bid: the holding, what partners showed, its share, its promise and its stake."""
    r = o.reading
    return (f"{reason_prefix(at.auction, at.hand, r.trump)}, {r.value}{strain_name(r.trump)} makes in"
            f" {o.p:.0%} of {o.n} deals consistent with the auction; the call says {promise_text(r.meaning)}"
            f" (expected stake {o.ev:+.2f}, {at.base_text})")


def pass_reason(at: Situation, j: Judgement, bids, any_option: bool, make_at: float) -> str:
    """Why a pass: no bid pays enough more than passing, or none makes often enough (the one
    that makes most often named)."""
    if any_option:
        return f"no bid pays enough more than passing ({at.base_text})"
    likeliest = max(((j.share(r.trump, r.value), r) for _, r in bids), key=lambda x: (x[0][0], -x[1].value),
                    default=None)
    if likeliest is None:
        return f"no true bid makes often enough ({at.base_text})"
    (p, n), r = likeliest
    prefix = reason_prefix(at.auction, at.hand, r.trump)
    if p >= make_at:
        return (f"{prefix}, {r.value}{strain_name(r.trump)} would make in {p:.0%} of {n} deals, but no bid pays"
                f" enough more than passing ({at.base_text})")
    return (f"no true bid makes often enough: {prefix}, even {r.value}{strain_name(r.trump)} makes in only"
            f" {p:.0%} of {n} deals ({at.base_text})")


def _holds(st: State, seat: int) -> bool:
    """Whether ``seat``'s side holds the standing bid."""
    return st.high_seat is not None and st.same_team(st.high_seat, seat)


def _bid_value(r: Reading) -> int:
    """A bid's value (a bid's reading always has one)."""
    assert r.value is not None
    return r.value


def _warm_kernels() -> None:
    """Compile (or load) the kernels once per process before any decision is timed: the
    CPU backstop must not count numba's compile time, or a cold process's first call would
    rest on fewer deals than a warm one's and the same seed could give another call."""
    ensure_warm()


class JudgeBot:
    """The ``default`` bidder under ``params``; ``seed`` fixes its deals. ``samples``, ``extra``
    and ``gap`` (one gap for every band, or one a band) replace those of ``params``."""

    name = "default"

    def __init__(self, seed: int | None = None, params: JudgeParams = PARAMS, *, samples: int | None = None,
                 gap: int | tuple[int, ...] | None = None, extra: int | None = None) -> None:
        self.seed = 0 if seed is None else int(seed)
        if isinstance(gap, int):
            gap = (gap,) * len(params.dd_gap)
        if samples is not None:
            params = replace(params, samples=samples)
        if extra is not None:
            params = replace(params, extra=extra)
        if gap is not None:
            params = replace(params, dd_gap=tuple(gap))
        self.params = params
        self.rules = RulesBot(seed)
        _warm_kernels()

    @property
    def samples(self) -> int:
        return self.params.samples

    @property
    def extra(self) -> int:
        return self.params.extra

    @property
    def gap(self) -> tuple[int, ...]:
        return self.params.dd_gap

    # --- simulation -------------------------------------------------------------------------

    def judge(self, auction: Auction, hand: Hand, values: dict[int | None, list[int]],
              doubling: bool = True) -> Judgement:
        """Sample deals from this seat's view and probe, for each strain, which of ``values``
        our team makes, and whether the opponents' standing contract makes (``samples``
        deals; ``more`` adds ``extra`` more when a decision is close); ``doubling``: whether
        a double may be made (only then is the margin by which they fail probed)."""
        st, table, P = auction.state, auction.table, self.params
        seat = st.to_move
        view = View(table, seat, hand, auction.seat_constraints())
        need = self.samples + self.extra
        # plain rejection first where the promises are loose; else counted, and a pool even where
        # the dealer rejects (at most max_draws draws); the card bot, timed per card, pools only
        # where the dealer counts exactly
        seed = decision_seed(self.seed, seat, auction)
        try:
            pool = quick_counts(view, max(P.pool, need), seed, P.quick_draws)
        except ConstraintError:
            pool = None  # a promise that cannot hold: the dealer sets it aside
        if pool is None:
            pool = Dealer(view, max_states=P.deal_states).sample_counts(max(P.pool, need), seed, P.max_draws,
                                                                        fewer=True)
        self._counts = pick_deals(pool, bid_claims(auction, seat), table, need)
        self._their = None
        if st.value is not None and st.high_seat is not None and not st.same_team(st.high_seat, seat):
            self._their = (st.trump, table.team_of(st.high_seat), st.value)
        self._doubling = doubling
        self._table, self._team = table, table.team_of(seat)
        j = Judgement({}, {}, values=values)
        self._start, self._topped = time.process_time(), False
        self._solve(j, 0, min(self.samples, len(self._counts)))
        return j

    def more(self, j: Judgement) -> bool:
        """Solve the rest of the drawn deals into ``j`` (a close decision); False when there
        are none left. A strain in which our side made not even its cheapest value in any of
        the first deals is not solved again: at 0 of ``samples`` it stays hopeless, and on the
        40 all-`default` auctions of bench/bots.py (seed 6) skipping it changed no call and saved
        a fifth of the time."""
        if len(self._counts) <= self.samples or self._topped:
            return False
        self._topped = True
        hopeless = {t for t, vs in (j.values or {}).items() if j.known.get((t, vs[0])) and not j.made.get((t, vs[0]))}
        self._solve(j, self.samples, len(self._counts), skip=hopeless)
        return True

    def _strains(self, values: dict[int | None, list[int]]) -> list[int | None]:
        """The strains a deal is solved in: those of ``values``, then their contract's."""
        out = list(values)
        if self._their and self._their[0] not in values:
            out.append(self._their[0])
        return out

    def _solve(self, j: Judgement, first: int, last: int, skip: AbstractSet[int | None] = frozenset()) -> None:
        """Solve deals ``first``..``last - 1`` into ``j`` in ``params.threads`` threads of the
        solver pool, each with its own solver taking the next (deal, strain) left: a deal's
        strains are solved apart, so that one long deal is shared between the threads. Every (deal, strain) is solved from
        an empty table, so the counts (and the budgets' effects) depend only on the seed,
        whatever the machine."""
        assert j.values is not None  # set by the judgement's first deals
        values = {t: vs for t, vs in j.values.items() if t not in skip}
        units = [(i, t) for i in range(first, last) for t in self._strains(values)]

        def solve(w, unit: tuple[int, int | None]) -> list:
            rows: list = []
            self._solve_strain(*unit, w.resource, values, rows)
            return rows

        found = solver_pool(self.params.table_mb).map(
            solve, units, threads=self.params.threads,
            stop=lambda: time.process_time() - self._start > self.params.backstop_seconds)
        for rows in found:
            if rows is NOT_DONE:  # past the backstop
                continue
            for kind, t, a, b in rows:
                if kind == "ours":
                    for k, v in enumerate(values[t]):
                        if k <= a or k >= b:
                            j.known[(t, v)] = j.known.get((t, v), 0) + 1
                            j.made[(t, v)] = j.made.get((t, v), 0) + (k <= a)
                else:
                    j.their_made += a
                    j.their_far += b
                    j.their_n += 1

    def _solve_deal(self, i: int, solver: Solver, values: dict[int | None, list[int]], out: list) -> None:
        """Solve deal ``i`` (an index into the drawn deals) in every strain (``_solve_strain``)."""
        for t in self._strains(values):
            self._solve_strain(i, t, solver, values, out)

    def _solve_strain(self, i: int, t: int | None, solver: Solver, values: dict[int | None, list[int]],
                      out: list) -> None:
        """Probe deal ``i`` in strain ``t`` with ``solver``, emptied first, at ``values[t]``;
        append ("ours", t, index of the highest value made, index of the lowest value proved
        out of reach) and, in their contract's strain, ("theirs", t, made within ``base_gap``,
        within ``their_gap``) to ``out``. A probe of ours that runs past the budget leaves
        the values between those two unknown for that deal; their contract whose probe does
        counts as making (a close deal: never a reason to double).

        With two teams the points are shared out between them, so every probe asks what our
        side takes (their contract makes within g points exactly when we take at most
        ``left - value + g``): one table's worth of proofs serves both questions, and a
        bound that our bids' probes already proved answers theirs without a search."""
        table, ours, their, P = self._table, self._team, self._their, self.params
        solver.clear()
        enc = known_after(table, t).encode(self._counts[i])  # seat 1 leads
        known = [-1, MAX_BID + 1]  # our side takes at least known[0], less than known[1] (gaps added)
        if t in values:
            out.append(("ours", t, *self._highest(solver, enc, ours, values[t], known,
                                                  P.compete_gap if their else 0)))
        if their and t == their[0]:
            _, team, v0 = their
            try:
                if table.num_teams == 2:
                    left = enc.points_left()
                    near = not self._ask(solver, enc, ours, left - v0 + P.base_gap + 1, known)
                    far = near or (self._doubling and
                                   not self._ask(solver, enc, ours, left - v0 + P.their_gap + 1, known))
                else:
                    near = self._probe(solver, enc, team, v0 - P.base_gap)
                    far = near or (self._doubling and self._probe(solver, enc, team, v0 - P.their_gap))
            except BudgetExceeded:
                near = far = True
            out.append(("theirs", t, int(near), int(far)))

    def _probe(self, solver: Solver, enc, side: int, need: int) -> bool:
        if need > MAX_BID:
            return False
        return solver.probe(enc, side, need - int(enc.won[side]), self.params.probe_nodes)

    def _ask(self, solver: Solver, enc, side: int, need: int, known: list[int]) -> bool:
        """``_probe``, answered from ``known`` (the least points ``side`` was proved to take, the
        least it was proved not to) where it can be, which it keeps up to date."""
        if need <= known[0]:
            return True
        if need >= known[1]:
            return False
        made = self._probe(solver, enc, side, need)
        if made:
            known[0] = need
        else:
            known[1] = need
        return made

    def _highest(self, solver: Solver, enc, side: int, values: list[int], known: list[int] | None = None,
                 extra: int = 0) -> tuple[int, int]:
        """Indices of the highest of the sorted ``values`` the side is proved to make (gap and
        ``extra`` added; -1 if none) and of the lowest it is proved not to (``len(values)`` if
        none), by bisection: a probe that runs past its budget leaves its value unknown, and the
        bisection goes on below it (the cheaper values decide most calls)."""
        known = [-1, MAX_BID + 1] if known is None else known
        lo, hi = 0, len(values) - 1
        best, fail = -1, len(values)
        while lo <= hi:
            mid = (lo + hi) // 2
            try:
                made = self._ask(solver, enc, side, values[mid] + self.gap[band(values[mid])] + extra, known)
            except BudgetExceeded:
                hi = mid - 1
                continue
            if made:
                best, lo = mid, mid + 1
            else:
                fail, hi = mid, mid - 1
        return best, fail

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, auction: Auction, hand: Hand) -> Choice:
        """The call to make now, with the reason."""
        st, P = auction.state, self.params
        seat = st.to_move
        counts = hand.counts()
        options = auction.readings(hand, min(MAX_BID, st.floor + P.span))

        def true(r: Reading) -> bool:  # a meaning is built only for the calls looked at
            return r.meaning.constraint.holds(counts)

        bids = [(c, r) for c, r in options if r.value is not None and c.kind not in QUIET_KINDS]
        passes = [(c, r) for c, r in options if c.kind == PASS and true(r)]
        doubles = [(c, r) for c, r in options if c.kind in (DOUBLE, REDOUBLE) and true(r)]
        ruled = self.rules.choose(auction, hand)
        follow = next(((c, r) for c, r in bids if c == ruled.call and true(r)), None)
        if follow is not None and band(_bid_value(follow[1])) > 0:
            follow = None
        bids = self._likely_strains(auction, hand, bids, true, follow)
        if not bids and not doubles:
            return ruled  # pass, or a forced call the rules bot knows
        bids, values = probe_values(bids, st.value if _holds(st, seat) else None, st.trump, P.cheap)
        if follow is not None:
            values[follow[1].trump] = sorted(set(values.get(follow[1].trump, [])) | {_bid_value(follow[1])})
        try:
            j = self.judge(auction, hand, values, doubling=any(c.kind == DOUBLE for c, _ in doubles))
        except FiftySixError:
            return ruled  # promises too intricate to deal
        at = Situation.of(auction, hand, j)
        args = (at, j, bids, passes, doubles, follow)
        choice = self._decide(*args, final=not P.extra)
        # close: reading the thresholds P.close lower or higher changes the call (such a reading
        # may double, so a double is always judged on all the deals)
        late = P.long_auction and len(auction.calls) >= P.long_auction

        def changes(x: float) -> bool:
            call = self._decide(*args, shift=x).call
            return call != choice.call and (not late or call.kind in (DOUBLE, REDOUBLE))

        if P.extra and any(changes(x) for x in (-P.close, P.close)) and self.more(j):
            choice = self._decide(Situation.of(auction, hand, j), *args[1:], final=True)
        return choice

    def _likely_strains(self, auction: Auction, hand: Hand, bids: list[tuple[Call, Reading]],
                        true: Callable[[Reading], bool],
                        follow: tuple[Call, Reading] | None = None) -> list[tuple[Call, Reading]]:
        """The true bids (``true(reading)``) in the ``strains`` strains with a true bid this
        hand suits best by the rule of thumb (``value_limit``) and in our own standing strain:
        probing every strain costs twice as much and the others almost never win. The strains
        are looked at best first, so the meanings of the others are never built."""
        st, table = auction.state, auction.table
        seat = st.to_move
        shown = shown_points(auction, table.partners(seat))
        strains = {r.trump for _, r in bids}
        order = sorted(strains, key=lambda t: (-value_limit(hand, table, seat, t, auction, shown),
                                               -1 if t is None else t))
        keep: list[int | None] = []
        for t in order:
            if any(true(r) for _, r in bids if r.trump == t):
                keep.append(t)
                if len(keep) == self.params.strains:
                    break
        if _holds(st, seat):
            keep.append(st.trump)
        if follow is not None:
            keep.append(follow[1].trump)
        return [(c, r) for c, r in bids if r.trump in keep and true(r)]

    def _decide(self, at: Situation, j: Judgement, bids, passes, doubles,
                follow: tuple[Call, Reading] | None = None, final: bool = True, shift: float = 0.0) -> Choice:
        """The call these samples give, every share threshold read ``shift`` higher. A double
        is made only on a ``final`` judgement (all the samples)."""
        P = self.params
        doubling = self._doubling_choice(at, j, doubles, final, shift)
        options = self._options(at, j, bids, passes, shift)
        if options:
            best = max(options, key=Option.rank)
            if doubling is not None and doubling[0] >= best.gain + at.base:
                return doubling[1]  # the double is worth more than the best bid
            if best.score > 0 or best.gain >= P.gain or not passes:
                return Choice(best.call, bid_reason(at, best))
        if doubling is not None:
            return doubling[1]
        followed = self._follow(at, j, follow, shift)
        if followed is not None:
            return followed
        if passes:
            return Choice(passes[0][0], pass_reason(at, j, bids, bool(options), P.make_at + shift))
        return self.rules.choose(at.auction, at.hand)

    def _doubling_choice(self, at: Situation, j: Judgement, doubles, final: bool,
                         shift: float) -> tuple[float, Choice] | None:
        """A double where the opponents' contract fails in most deals, a redouble where ours
        makes in most: (expected stake, the call), or None."""
        P, st = self.params, at.auction.state
        doubling = None
        for c, _ in doubles:
            assert st.value is not None  # a double or redouble needs a standing bid
            if c.kind == DOUBLE and not at.ours_hold and j.theirs is not None:
                fails = j.clear_fails
                if fails is not None and fails >= (P.double_at + shift) and final:
                    ev = -expected_stake(j.theirs, st.value, 2 * st.doubled)
                    doubling = (ev, Choice(c, f"their {st.value}{strain_name(st.trump)} fails in {fails:.0%}"
                                              f" of {j.their_n} deals consistent with the auction (by more than"
                                              f" {P.their_gap} points), so doubling doubles what we win"
                                              f" (expected stake {ev:+.2f})"))
            if c.kind == REDOUBLE and at.ours_hold:
                p, n = j.share(st.trump, st.value)
                if p >= (P.redouble_at + shift) and final:
                    ev = expected_stake(p, st.value, 2 * st.doubled)
                    doubling = (ev, Choice(c, f"{reason_prefix(at.auction, at.hand, st.trump)}, our"
                                              f" {st.value}{strain_name(st.trump)} makes in {p:.0%} of"
                                              f" {n} deals, so redoubling pays (expected stake"
                                              f" {ev:+.2f})"))
        return doubling

    def _options(self, at: Situation, j: Judgement, bids, passes, shift: float) -> list[Option]:
        """The bids worth making by these samples, each scored; a jump past the cheap bids
        shuts partners out of the auction, so it must pay ``jump_gain`` more than the best
        cheap bid (or than passing)."""
        P, st = self.params, at.auction.state
        out = []
        for c, r in bids:
            value = _bid_value(r)
            p, n = j.share(r.trump, value)
            ev = bid_stake(p, value, P.they_double_at)
            gain = ev - at.base
            raise_ours = at.ours_hold and r.trump == st.trump
            if not at.ours_hold and st.value is not None:
                if p < (P.compete_at + shift) or gain <= 0:
                    continue  # compete or sacrifice only where the stakes say so
            elif (p < (P.make_at + shift) and not (raise_ours and gain > 0)) or gain < -P.gain:
                continue  # too unsure, or worse than what we have
            if at.ours_hold and gain < P.gain:
                continue  # our side holds the bid: only a raise that pays
            if (at.ours_hold and st.high_seat != at.seat and r.trump != st.trump
                    and (gain < P.switch_gain or band(value) > band(st.value or 0))):
                continue  # partner chose the strain: take it elsewhere only for a clear gain, same band
            jump = value > st.floor + P.cheap
            if jump and p < P.jump_at:
                continue
            info = info_score(c, r.meaning.constraint, at.hand, at.partner_suits)
            score = info - 0.8 * (min(value, st.floor + P.cheap) - st.floor) + 4.0 * gain
            out.append(Option(c, r, p, n, ev, gain, score, jump))
        cheap = max([o.gain for o in out if not o.jump], default=0.0 if passes else float("-inf"))
        return [o for o in out if not o.jump or o.gain >= cheap + P.jump_gain]

    def _follow(self, at: Situation, j: Judgement, follow: tuple[Call, Reading] | None,
                shift: float) -> Choice | None:
        """The rule of thumb's cheap first-band bid, where no bid pays by the samples alone but
        it makes often enough (``follow_at``) and loses little against passing."""
        P = self.params
        if follow is None or at.ours_hold or at.spoke or (j.theirs is not None and j.theirs < P.follow_theirs):
            return None
        c, r = follow
        p, n = j.share(r.trump, _bid_value(r))
        ev = bid_stake(p, _bid_value(r), P.they_double_at)
        if p < (P.follow_at + shift) or (j.theirs is not None and ev < at.base - P.follow_loss):
            return None
        return Choice(c, f"{reason_prefix(at.auction, at.hand, r.trump)}, a cheap {r.value}{strain_name(r.trump)}"
                         f" keeps our side in the auction and tells partners {promise_text(r.meaning)};"
                         f" it makes in {p:.0%} of {n} deals consistent with the auction"
                         f" (expected stake {ev:+.2f}, {at.base_text})")

    def bid(self, deal, system: str) -> Auction:
        """Bid a whole deal with this bot in every seat; returns the finished auction."""
        return bid_auction(deal, system, [self] * deal.table.players)
