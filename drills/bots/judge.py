"""The ``default`` bidding bot: truthful calls, value judged by simulation under the stake table.

Every call it makes keeps its promise for its hand (as the ``rules`` bot's do). How high to
go, whether to compete, and whether to double it judges from deals consistent with its
hand and every promise made so far (``analyser.dealer.Dealer``, exact), each solved by
yes/no double-dummy probes: for each strain it could play, the share of deals in which its
team takes each value it could bid, and the share in which the opponents' standing
contract makes. Those shares, put through the rules' stake table (28-39 win 1 lose 2, ...),
give the expected stake of each call; among the calls worth making it prefers the ones that
tell partners most.

Double-dummy values favour the declaring side (it sees every hand); ``DD_GAP`` points,
measured in bench/bots.py against the bots' own card play, are added to every target the
declarers must reach in the samples.
"""
from __future__ import annotations

import time
import zlib
from dataclasses import dataclass

from analyser.dealer import Dealer, View, counts_to_deal
from analyser.solver import BudgetExceeded, Position, Solver
from fiftysix.bidding import Auction, format_call
from fiftysix.bidding.calls import DOUBLE, MAX_BID, PASS, REDOUBLE, Call
from fiftysix.bidding.state import Reading
from fiftysix.cards import SUITS, Hand
from fiftysix.errors import FiftySixError
from fiftysix.scoring import stake_row
from drills.bots.base import QUIET_KINDS, Choice, bid_auction
from drills.bots.rules import RulesBot, info_score, shown_points, value_limit
from drills.questions import promise_text

SAMPLES = 8
"""Deals simulated per decision: enough to tell 30% from 80%, few enough for 0.3 s."""
DD_GAP = 2
"""Points the declaring side takes double-dummy beyond what it takes under the bots' play
(bench/bots.py measures it; RESULTS.md 2026-12-02)."""
PROBE_NODES = 250_000
"""A probe that runs past this many nodes leaves its deal out of that strain's count."""
BACKSTOP_SECONDS = 3.0
"""A decision stops simulating after this many CPU seconds of this process (a backstop:
the sample count and node budgets normally end it far sooner; CPU time, not wall time, so
that a busy machine does not change the call a seed gives)."""
MAX_DRAWS = 4096
"""Where the dealer must reject (many promising seats at 8 players), at most this many
draws; a view it cannot deal within them is judged by the rule of thumb instead."""
DOUBLE_AT = 0.9
"""Double when the opponents' contract fails in at least this share of the deals (judged
without the double-dummy correction: a double must be right, not just likely; bench/bots.py
found 7 of 15 doubles right at 0.75 with the correction)."""
REDOUBLE_AT = 0.75
MAKE_AT = 0.7
"""A bid that does not raise our own side's contract must make at least this often."""
COMPETE_AT = 0.4
"""Over the opponents' bid: the least making share worth competing (the stakes decide)."""
GAIN = 0.15
"""Expected stake a bid must add to be worth bidding with nothing new to show."""
SPAN = 14
"""Bids more than this many points above the standing value are not considered."""
BAND_STARTS = (40, 48, 56)
STRAINS = 2
CHEAP = 2


def strain_name(trump: int | None) -> str:
    return "NT" if trump is None else SUITS[trump]


def expected_stake(p: float, value: int, doubled: int = 1) -> float:
    """The declarers' expected stake when their contract makes with probability ``p``."""
    win, lose = stake_row(value)
    return doubled * (p * win - (1 - p) * lose)


def bid_stake(p: float, value: int) -> float:
    """The expected stake of a new bid: a bid that fails often will be doubled (the
    opponents judge it too), so it is worth the lower of its undoubled and doubled stake."""
    return min(expected_stake(p, value), expected_stake(p, value, 2))


@dataclass
class Judgement:
    """What the samples say from one seat: making shares per (strain, value) for our team,
    and the share in which the opponents' standing contract makes (None: no such contract)."""

    deals: int
    ours: dict[tuple[int | None, int], float]
    theirs: float | None

    def make(self, trump: int | None, value: int) -> float:
        """Making share at ``value``: that of the highest probed value at or below it."""
        below = [v for (t, v) in self.ours if t == trump and v <= value]
        return self.ours[(trump, max(below))] if below else 0.0


def probe_values(bids: list[tuple[Call, Reading]], standing: int | None, trump: int | None
                 ) -> tuple[list[tuple[Call, Reading]], dict[int | None, list[int]]]:
    """The bids worth judging and, per strain, the values to probe.

    Within a band of the stake table a higher value wins nothing more, so per strain only
    the cheapest bids (up to ``CHEAP`` above the cheapest, judged at the cheapest value's
    odds plus the bands' first values are worth a probe; other bids are dropped. Our own
    standing value (``standing``, in ``trump``) is probed too."""
    cheapest: dict[int | None, int] = {}
    for _, r in bids:
        cheapest[r.trump] = min(cheapest.get(r.trump, MAX_BID), r.value)
    values = {t: {v} | {b for b in BAND_STARTS if b > v} for t, v in cheapest.items()}
    kept = [(c, r) for c, r in bids if r.value in values[r.trump] or r.value <= cheapest[r.trump] + CHEAP]
    present = {t: {r.value for _, r in kept if r.trump == t} | {cheapest[t]} for t in cheapest}
    out = {t: sorted(vs & present[t]) for t, vs in values.items()}
    if standing is not None:
        out[trump] = sorted(set(out.get(trump, [])) | {standing})
    return kept, out


class JudgeBot:
    """The ``default`` bidder. ``samples`` deals per decision; ``seed`` fixes them."""

    name = "default"

    def __init__(self, seed: int | None = None, samples: int = SAMPLES, gap: int = DD_GAP) -> None:
        self.seed = 0 if seed is None else int(seed)
        self.samples = samples
        self.gap = gap
        self.rules = RulesBot(seed)
        self.solver = Solver(8)

    # --- simulation -------------------------------------------------------------------------

    def _decision_seed(self, auction: Auction, seat: int) -> int:
        text = f"{self.seed}|{seat}|{auction}".encode()
        return zlib.crc32(text)

    def judge(self, auction: Auction, hand: Hand, values: dict[int | None, list[int]]) -> Judgement:
        """Sample deals from this seat's view and probe, for each strain, which of ``values``
        our team makes, and whether the opponents' standing contract makes."""
        st, table = auction.state, auction.table
        seat = st.to_move
        ours = table.team_of(seat)
        view = View(table, seat, hand, auction.seat_constraints())
        counts = Dealer(view).sample_counts(self.samples, self._decision_seed(auction, seat), MAX_DRAWS)
        self.solver.clear()  # node counts, hence budgets, depend only on this decision
        their_strain = None
        if st.value is not None and not st.same_team(st.high_seat, seat):
            their_strain = (st.trump, table.team_of(st.high_seat), st.value)
        strains = set(values) | ({their_strain[0]} if their_strain else set())
        made: dict[tuple[int | None, int], int] = {}
        solved = {t: 0 for t in values}
        theirs, their_n = 0, 0
        start = time.process_time()
        for i in range(len(counts)):
            if time.process_time() - start > BACKSTOP_SECONDS:
                break
            deal = counts_to_deal(table, counts[i])
            for t in strains:
                pos = Position(table, deal.hands, t, 1)
                enc = pos.encoded()
                try:
                    if t in values:
                        best = self._highest(enc, ours, values[t])
                        solved[t] += 1
                        for v in values[t][:best + 1]:
                            made[(t, v)] = made.get((t, v), 0) + 1
                    if their_strain and t == their_strain[0]:
                        _, team, v0 = their_strain
                        theirs += self._probe(enc, team, v0)
                        their_n += 1
                except BudgetExceeded:
                    continue
        shares = {(t, v): made.get((t, v), 0) / solved[t] for t in values if solved[t] for v in values[t]}
        deals = min([n for n in solved.values() if n] + ([their_n] if their_strain else []), default=0)
        return Judgement(deals, shares, theirs / their_n if their_n else None)

    def _probe(self, enc, side: int, need: int) -> bool:
        if need > MAX_BID:
            return False
        return self.solver.probe(enc, side, need - int(enc.won[side]), PROBE_NODES)

    def _highest(self, enc, side: int, values: list[int]) -> int:
        """Index of the highest of the sorted ``values`` the side makes (gap added), -1 if none."""
        lo, hi = 0, len(values) - 1
        best = -1
        while lo <= hi:
            mid = (lo + hi) // 2
            if self._probe(enc, side, values[mid] + self.gap):
                best, lo = mid, mid + 1
            else:
                hi = mid - 1
        return best

    # --- choosing ---------------------------------------------------------------------------

    def choose(self, auction: Auction, hand: Hand) -> Choice:
        """The call to make now, with the reason."""
        st = auction.state
        seat = st.to_move
        counts = hand.counts()
        floor = st.floor
        options = auction.readings(hand, min(MAX_BID, floor + SPAN))
        true = [(c, r) for c, r in options if r.meaning.constraint.holds(counts)]
        bids = [(c, r) for c, r in true if r.value is not None and c.kind not in QUIET_KINDS]
        passes = [(c, r) for c, r in true if c.kind == PASS]
        doubles = [(c, r) for c, r in true if c.kind in (DOUBLE, REDOUBLE)]
        if not bids and not doubles:
            return self.rules.choose(auction, hand)  # pass, or a forced call the rules bot knows
        bids = self._likely_strains(auction, hand, bids)
        bids, values = probe_values(bids, st.value if st.value is not None and st.same_team(st.high_seat, seat)
                                    else None, st.trump)
        try:
            j = self.judge(auction, hand, values)
        except FiftySixError:
            return self.rules.choose(auction, hand)  # promises too intricate to deal
        return self._decide(auction, hand, j, bids, passes, doubles)

    def _likely_strains(self, auction: Auction, hand: Hand, bids: list[tuple[Call, Reading]]
                        ) -> list[tuple[Call, Reading]]:
        """The bids in the ``STRAINS`` strains this hand suits best by the rule of thumb
        (``value_limit``) and in our own standing strain: probing every strain costs twice
        as much and the others almost never win."""
        st, table = auction.state, auction.table
        seat = st.to_move
        shown = shown_points(auction, table.partners(seat))
        strains = {r.trump for _, r in bids}
        keep = sorted(strains, key=lambda t: (-value_limit(hand, table, seat, t, auction, shown),
                                              -1 if t is None else t))[:STRAINS]
        if st.value is not None and st.same_team(st.high_seat, seat):
            keep.append(st.trump)
        return [(c, r) for c, r in bids if r.trump in keep]

    def _decide(self, auction: Auction, hand: Hand, j: Judgement, bids, passes, doubles) -> Choice:
        st, table = auction.state, auction.table
        seat = st.to_move
        partners = set(table.partners(seat))
        partner_suits = {s for p, s in st.named if p in partners}
        ours_hold = st.value is not None and st.same_team(st.high_seat, seat)
        spoke = any(rec.seat == seat and rec.call.kind not in QUIET_KINDS for rec in auction.calls)
        n = j.deals
        if st.value is None:
            base, base_text = 0.0, "passing leaves the bidding to the others"
        elif ours_hold:
            p0 = j.make(st.trump, st.value)
            base = expected_stake(p0, st.value, st.doubled)
            base_text = f"our {st.value}{strain_name(st.trump)} makes in {p0:.0%} of {n} deals"
        else:
            p0 = j.theirs if j.theirs is not None else 0.5
            base = -expected_stake(p0, st.value, st.doubled)
            base_text = f"their {st.value}{strain_name(st.trump)} makes in {p0:.0%} of {n} deals"
        # doubles: the opponents' contract fails in most deals / ours makes in most
        doubling = None
        for c, r in doubles:
            if c.kind == DOUBLE and not ours_hold and j.theirs is not None and 1 - j.theirs >= DOUBLE_AT:
                ev = -expected_stake(j.theirs, st.value, 2 * st.doubled)
                doubling = (ev, Choice(c, f"their {st.value}{strain_name(st.trump)} fails in {1 - j.theirs:.0%}"
                                          f" of {n} deals consistent with the auction, so doubling doubles what"
                                          f" we win (expected stake {ev:+.2f})"))
            if c.kind == REDOUBLE and ours_hold and j.make(st.trump, st.value) >= REDOUBLE_AT:
                ev = expected_stake(j.make(st.trump, st.value), st.value, 2 * st.doubled)
                doubling = (ev, Choice(c, f"our {st.value}{strain_name(st.trump)} makes in"
                                          f" {j.make(st.trump, st.value):.0%} of {n} deals, so redoubling pays"
                                          f" (expected stake {ev:+.2f})"))
        scored = []
        for c, r in bids:
            p = j.make(r.trump, r.value)
            ev = bid_stake(p, r.value)
            gain = ev - base
            raise_ours = ours_hold and r.trump == st.trump
            if not ours_hold and st.value is not None:
                if p < COMPETE_AT or gain <= 0:
                    continue  # compete or sacrifice only where the stakes say so
            elif p < MAKE_AT and not (raise_ours and gain > 0):
                continue
            elif gain < -GAIN:
                continue  # worse than what we have
            m = r.meaning
            info = info_score(c, m.constraint, hand, partner_suits)
            if ours_hold and gain < GAIN and (spoke or r.value - st.value > 1):
                continue  # our side holds the bid: one cheap call to show something, or a raise that pays
            score = info - 0.8 * (r.value - st.floor) + 4.0 * gain
            text = (f"{promise_text(m)}; {r.value}{strain_name(r.trump)} makes in {p:.0%} of {n} deals"
                    f" consistent with the auction (expected stake {ev:+.2f}, {base_text})")
            scored.append((score, gain, -r.value, format_call(c), c, text))
        if scored:
            best = max(scored, key=lambda s: (s[0], s[1], s[2], s[3]))
            if doubling is not None and doubling[0] >= best[1] + base:
                return doubling[1]  # the double is worth more than the best bid
            if best[0] > 0 or best[1] >= GAIN or not passes:
                return Choice(best[4], best[5])
        if doubling is not None:
            return doubling[1]
        if passes:
            if scored:
                why = f"no bid pays enough more than passing ({base_text})"
            else:
                why = f"no true bid makes often enough ({base_text})"
            return Choice(passes[0][0], why)
        return self.rules.choose(auction, hand)

    def bid(self, deal, system: str) -> Auction:
        """Bid a whole deal with this bot in every seat; returns the finished auction."""
        return bid_auction(deal, system, [self] * deal.table.players)
