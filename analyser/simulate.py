"""Makeability estimates by Perfect Information Monte Carlo (RULES.md section 8).

``estimate(view, contract, n, seed)`` deals ``n`` hidden layouts with ``Dealer`` (exactly as
a real shuffle would, given everything the viewing seat knows), solves each double-dummy
and reports: the share on which the declaring team reaches the bid (with a 95% Wilson
interval), the distribution of its maximum points, for a seat on lead the same after each
possible lead, and where each unseen card lies (the "what the table knows" grid).
"""
from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fiftysix.analyser.dealer import Dealer
from fiftysix.analyser.encode import Encoded, known_after
from fiftysix.analyser.pool import Pool, Worker
from fiftysix.analyser.settle import SetAside
from fiftysix.analyser.solver import Cancelled, Solver, reaches, solver_pool
from fiftysix.analyser.view import View
from fiftysix.cards import CARD_NAMES, NUM_KINDS, Card, Hand, Table
from fiftysix.errors import FiftySixError
from fiftysix.play import legal_cards
from fiftysix.scoring import Contract

if TYPE_CHECKING:
    from fiftysix.bidding import Auction

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # at no successes (all) the bound is exactly 0 (1); rounding left 3.5e-18 above a rate of 0
    return (0.0 if k == 0 else max(0.0, mid - half), 1.0 if k == n else min(1.0, mid + half))


class _Share:
    """A count of made contracts out of ``deals``, with its rate and Wilson interval."""

    makes: int
    deals: int

    @property
    def rate(self) -> float:
        return self.makes / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.makes, self.deals)


@dataclass(frozen=True)
class LeadRow(_Share):
    """Makeability after one possible lead by the seat on lead."""

    card: Card
    makes: int
    deals: int
    mean_points: float

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"card": str(self.card), "makes": self.makes, "deals": self.deals, "rate": self.rate,
                "interval": [lo, hi], "mean_points": None if math.isnan(self.mean_points) else self.mean_points}


@dataclass(frozen=True)
class Estimate(_Share):
    """The result of a simulation; ``to_dict`` gives its JSON form."""

    table: Table
    contract: Contract
    deals: int
    makes: int
    points: dict[int, int]              # declaring team's maximum points -> deals
    leads: tuple[LeadRow, ...]          # empty unless the viewing seat is on lead
    location: dict[Card, dict[int, float]]  # unseen kind -> seat -> share of its unseen copies there
    acceptance_rate: float | None       # None: every promise was dealt exactly, no rejection
    stopped: bool = False               # the run was stopped before all deals were solved
    seconds: float = 0.0
    seat: int = 1
    set_aside: tuple[SetAside, ...] = ()  # call promises that could not hold with the rest
    seconds_left: float | None = None   # a partial estimate: about how long the run still needs

    def to_dict(self) -> dict[str, Any]:
        c = self.contract
        lo, hi = self.interval
        return {
            "contract": str(c), "value": c.value, "trump": c.strain, "declarer": c.declarer,
            "declaring_team": self.table.team_name(c.team), "seat": self.seat,
            "deals": self.deals, "makes": self.makes, "rate": self.rate, "interval": [lo, hi],
            "points": {str(k): v for k, v in sorted(self.points.items())},
            "leads": [r.to_dict() for r in self.leads],
            "location": {CARD_NAMES[k]: {str(s): p for s, p in row.items()} for k, row in self.location.items()},
            "acceptance_rate": self.acceptance_rate, "stopped": self.stopped, "seconds": self.seconds,
            "set_aside": [a.to_dict() for a in self.set_aside],
            **({} if self.seconds_left is None else {"seconds_left": self.seconds_left}),
        }


def location_grid(view: View, counts: np.ndarray) -> dict[Card, dict[int, float]]:
    """For every unseen kind: the share of its unseen copies found in each hidden seat."""
    u = view.unseen()
    out: dict[Card, dict[int, float]] = {}
    n = len(counts)
    if n == 0:
        return out
    # one sum over the deals for every seat and kind (called after every deal of a run: the
    # loop of per-kind means it replaces took 1 ms an update, a quarter of a second a run);
    # integer sums are exact, so each share is the same float as the mean it replaces
    seats = view.hidden_seats
    played = np.zeros((len(seats), NUM_KINDS), dtype=np.int64)
    for i, s in enumerate(seats):
        for c in view.played_by(s):
            played[i, c] += 1
    held = counts[:, [s - 1 for s in seats], :].sum(axis=0) - n * played
    for k in np.flatnonzero(u).tolist():
        out[Card(k)] = {s: float(held[i, k] / n / u[k]) for i, s in enumerate(seats)}
    return out


def holding_odds(view: View, counts: np.ndarray) -> dict[Card, dict[int, tuple[float, float]]]:
    """For every unseen kind and hidden seat: (the chance the seat holds at least one unseen
    copy, the unseen copies it holds on average), over the sampled deals ``counts``."""
    u = view.unseen()
    out: dict[Card, dict[int, tuple[float, float]]] = {}
    for k in range(NUM_KINDS):
        if u[k] == 0 or len(counts) == 0:
            continue
        row = {}
        for s in view.hidden_seats:
            held = counts[:, s - 1, k] - view.played_by(s).count(k)
            row[s] = (float((held >= 1).mean()), float(held.mean()))
        out[Card(k)] = row
    return out


def on_lead(view: View, trump: int | None) -> bool:
    """Is the viewing seat about to lead to a new trick (under this trump)?"""
    return len(view.plays) % view.table.players == 0 and view.next_to_play(trump) == view.seat


MIN_UNTIL = 20  # deals before an ``until`` interval may end the run (a few deals give wide, erratic intervals)


def halfwidth(makes: int, deals: int) -> float:
    """Half the width of the 95% Wilson interval of ``makes`` out of ``deals``."""
    lo, hi = wilson(makes, deals)
    return (hi - lo) / 2


def deals_for(makes: int, done: int, half_width: float) -> int:
    """About how many deals the 95% interval needs to be ``half_width`` wide at the rate seen
    so far (``makes`` of ``done``, smoothed by a made and a failed deal so that 0 of 5 does
    not promise a zero-width interval): z^2 p (1 - p) / h^2, and never under ``MIN_UNTIL``."""
    p = (makes + 1) / (done + 2)
    return max(MIN_UNTIL, math.ceil(Z95 * Z95 * p * (1 - p) / (half_width * half_width)))


def seconds_left(makes: int, done: int, elapsed: float, n: int, until: float | None = None,
                 max_seconds: float | None = None) -> float | None:
    """About how many seconds a run still needs, at the pace so far (``done`` deals solved in
    ``elapsed`` seconds): to ``n`` deals, or to the deals the interval ``until`` needs if
    fewer, and never past ``max_seconds``; None before the first deal (no pace yet)."""
    if done <= 0 or elapsed <= 0:
        return None if max_seconds is None else max(0.0, max_seconds - elapsed)
    want = n if until is None else min(n, deals_for(makes, done, until))
    left = max(0, want - done) * elapsed / done
    return left if max_seconds is None else max(0.0, min(left, max_seconds - elapsed))


def estimate(view: View, contract: Contract, n: int = 200, seed: int | None = 0, *,
             leads: bool = True, threads: int | None = None, progress: bool = False,
             should_stop: Callable[[int, int], bool] | None = None, dealer: Dealer | None = None,
             points: bool = True, until: float | None = None, max_seconds: float | None = None,
             on_update: Callable[[Estimate], object] | None = None, update_every: float = 0.1) -> Estimate:
    """Estimate how often ``contract`` is makeable double-dummy from ``view``'s knowledge.

    Deals come from ``Dealer(view)`` (pass one in to reuse it), ``n`` of them, drawn up front
    from ``seed``, and go straight from the dealer's counts to the kernels (``encode.Known``).
    ``leads``: when the viewing seat is on lead, every deal is solved after each of its
    possible leads (one pass per deal sharing a transposition table and the cut-off
    memory, each lead's value searched first at the value of the lead before). ``threads`` workers of the solver pool
    (default: one per CPU) each solve whole deals, but once every deal has been handed out an
    idle worker takes the last leads of a deal still in progress; answers are exact, so they
    do not depend on ``threads``.

    Stopping: ``until`` (a half-width such as 0.03) ends the run once the first k deals' 95%
    interval is at most that wide (k >= ``MIN_UNTIL``); ``max_seconds`` ends it after that
    many seconds of wall time; ``should_stop(done, n)`` is asked as each deal completes the
    first ``done`` deals (the estimate then covers exactly those) and between deals; Ctrl-C
    stops too. A stopped run covers the deals solved so far and frees the CPU within about a
    second (the pool interrupts the searches in flight). ``on_update(partial)`` is
    called from this thread as deals come in (at most every ``update_every`` seconds, and at
    once for the first deal), each partial estimate with ``seconds_left``; ``progress`` shows
    a tqdm bar with the interval and the time left.

    ``points=False`` asks only "does the contract make?" (a yes/no search per deal and lead,
    several times faster than exact points): the histogram is then empty and the lead rows
    carry no mean points.
    """
    t0 = time.perf_counter()
    table = view.table
    if n < 1:
        raise FiftySixError(f"simulate at least one deal, not {n}")
    if not 0 <= contract.team < table.num_teams:
        raise FiftySixError(f"no team {contract.team} at this table")
    if until is not None and not (math.isfinite(until) and 0 < until < 0.5):
        raise FiftySixError(f"the interval to reach must be a half-width between 0 and 0.5, not {until}")
    if max_seconds is not None and not (math.isfinite(max_seconds) and max_seconds > 0):
        raise FiftySixError(f"the time budget must be a number of seconds above 0, not {max_seconds}")
    dealer = dealer or Dealer(view)
    counts = dealer.sample_counts(n, seed)
    lead_cards = _lead_cards(view, contract.trump) if leads else ()
    target = contract.value
    best = np.zeros(n, dtype=np.int64)
    after = np.zeros((len(lead_cards), n), dtype=np.int64)
    solved = np.zeros(n, dtype=bool)
    deals = _Deals(view, contract, lead_cards, points, counts)
    end = None if max_seconds is None else t0 + max_seconds

    def out_of_time() -> bool:
        return end is not None and time.perf_counter() >= end

    def result(mask: np.ndarray, stopped: bool, left: float | None = None) -> Estimate:
        return _summary(view, contract, dealer, lead_cards, points, best[mask], after[:, mask], counts[mask],
                        stopped, time.perf_counter() - t0, left)

    def time_left() -> float | None:
        k = int(solved.sum())
        return seconds_left(int((best[solved] >= target).sum()), k, time.perf_counter() - t0, n, until,
                            max_seconds)

    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=n, unit="deal", desc="simulating")
    prefix, cut, stopped, last = 0, None, False, None
    k = Pool.workers(threads, n)
    helpers = k - 1 if lead_cards else 0  # items past the deals: idle workers take the last deals' leads
    run = solver_pool().run(deals.solve, range(n + helpers), threads=k, stop=out_of_time, wait=0.05)
    try:
        for item in run:
            if item is not None and item[1] is None:
                continue  # a helper has finished
            if item is not None:
                i, (value, row) = item
                best[i], after[:, i], solved[i] = value, row, True
                if bar is not None:
                    bar.update(1)
                while prefix < n and solved[prefix] and cut is None:
                    prefix += 1
                    if should_stop is not None and should_stop(prefix, n):
                        cut, stopped = prefix, prefix < n
                    elif (until is not None and MIN_UNTIL <= prefix < n
                          and halfwidth(int((best[:prefix] >= target).sum()), prefix) <= until):
                        cut = prefix
                if cut is not None:
                    break
            elif (should_stop is not None and should_stop(prefix, n)) or out_of_time():
                stopped = True
                break
            now = time.perf_counter()
            if item is not None and (bar is not None or on_update is not None) and (
                    last is None or now - last >= update_every or prefix == n):
                last = now
                left = time_left()
                if bar is not None:
                    k = int(solved.sum())
                    bar.set_postfix_str(f"+-{halfwidth(int((best[solved] >= target).sum()), k):.1%}"
                                        + ("" if left is None else f", ~{left:.0f} s left"))
                if on_update is not None:
                    on_update(result(solved.copy(), False, left))
    except KeyboardInterrupt:
        stopped = True
    finally:
        run.close()  # stops the workers still searching and waits for them
        if bar is not None:
            bar.close()
    if cut is not None:
        mask = np.zeros(n, dtype=bool)
        mask[:cut] = True
    else:
        mask = solved
        stopped = stopped or not solved.all()
    return result(mask, stopped)


def _summary(view: View, contract: Contract, dealer: Dealer, lead_cards: tuple[Card, ...], points: bool,
             best: np.ndarray, after: np.ndarray, counts: np.ndarray, stopped: bool,
             seconds: float, left: float | None = None) -> Estimate:
    """The Estimate over the deals given (their best values, values after each lead, counts)."""
    done, target = len(best), contract.value
    rows = tuple(LeadRow(c, int((after[i] >= target).sum()), done,
                         float(after[i].mean()) if done and points else float("nan"))
                 for i, c in enumerate(lead_cards))
    rows = tuple(sorted(rows, key=lambda r: (-r.rate, -np.nan_to_num(r.mean_points), int(r.card))))
    hist = dict(Counter(best.tolist())) if points else {}
    return Estimate(view.table, contract, done, int((best >= target).sum()), hist,
                    rows, location_grid(view, counts), dealer.acceptance_rate, stopped, seconds, view.seat,
                    dealer.set_aside, left)


# the estimate's value searches (each lead's, or the deal's not on lead) narrow by many probes
# of one position and its siblings: a trick start past a probe's window returns its leader's
# side's cashing (``Solver.value``'s ``window_bound``, both bounds), so that the entries it
# leaves decide more of the later probes' windows. bench/simulate.py's 6 x 8 line, 200 deals,
# nodes (bench/RESULTS.md, session 8): on lead, hands 7-10, -1.2% (429.97 -> 424.84 M); not on
# lead, hands 7 and 8, -1.1%; 4 x 8 on lead -1.0%. Per seats: at 8 the seats' default (the
# lower bound) stays, both bounds there were +3.3% on lead. (``max_points``' default at 6
# seats, none, was measured even on its single searches.)
WINDOW_BOUND_BY_SEATS: dict[int, int] = {4: 3, 6: 3}

# and the cut-off memory's key holds a lead's ruffable suits too (``Solver.value``'s ``cut_key``:
# both of ``kernels.cut_key_parts``' parts, where ``max_points`` has the settled tricks only at 6
# seats: its 6 x 8 seed sets moved both ways). bench/estimate_nodes.py, 6 x 8 (bench/RESULTS.md,
# session 9): on lead, hands 7-10, 419.7 -> 411.4 M nodes; not on lead, hands 7-8, 67.2 -> 64.8 M
CUT_KEY_BY_SEATS: dict[int, int] = {6: 3}


class _Open:
    """One deal's leads while its worker solves them in order from the first; once no deal is
    left to hand out, the run's idle workers take its last unclaimed leads (``_Deals.help``)."""

    def __init__(self, kids: list[Encoded]) -> None:
        self.kids = kids
        self.claimed = [False] * len(kids)
        self.values: list[int | None] = [None] * len(kids)
        self.latest: int | None = None  # the value the owner found last: a helper's guess

    def unclaimed(self) -> int:
        return self.claimed.count(False)


class _Deals:
    """The deals of one run and how each is solved: the dealer's counts straight to the
    kernels (``Known.encode``), one deal per item of the solver pool.

    On lead, items ``n`` and after are helpers: the pool hands them out only once every deal
    has been handed out, and a helper solves the last unclaimed leads of the deals still in
    progress (from the back; the deal's worker goes on from the front), so that at the end
    of a run no thread idles while one deal's leads wait (a deal's cost is heavy-tailed: on
    bench/simulate.py's 6 x 8 line one deal of 200 holds 5% of the nodes). Until then every
    deal is solved exactly as by one worker alone, its leads sharing a table."""

    def __init__(self, view: View, contract: Contract, lead_cards: tuple[Card, ...], points: bool,
                 counts: np.ndarray) -> None:
        self.contract, self.lead_cards, self.points, self.counts = contract, lead_cards, points, counts
        self.known = known_after(view.table, contract.trump, view.plays, view.leader)
        self.after = [self.known.then(c) for c in lead_cards]  # the position after each lead
        self.mover_side = view.table.team_of(view.seat) == contract.team
        self.window_bound = WINDOW_BOUND_BY_SEATS.get(view.table.players)
        self.cut_key = CUT_KEY_BY_SEATS.get(view.table.players)
        self._cond = threading.Condition()
        self._open: dict[int, _Open] = {}  # deal -> its leads, while its worker solves them

    def _lead(self, solver: Solver, kid: Encoded, guess: int | None, stop: Callable[[], bool]) -> int:
        """The declaring side's value after one lead (its total; with ``points`` False the
        target if it reaches it, else one less); ``guess``: a likely total."""
        side, target = self.contract.team, self.contract.value
        if self.points:
            g = None if guess is None else guess - kid.won[side]
            # (the deal's leads share the table and the cut-off memory: bench/RESULTS.md)
            return kid.won[side] + solver.value(kid, side, guess=g, stop=stop, keep_cuts=True,
                                                window_bound=self.window_bound, cut_key=self.cut_key)
        return target if reaches(kid, target, side, solver=solver, stop=stop, keep_cuts=True,
                                 window_bound=self.window_bound, cut_key=self.cut_key) else target - 1

    def solve(self, w: Worker[Solver], i: int) -> tuple[int, list[int]] | None:
        """Deal ``i``: the declaring side's value with best play, and its value after each lead
        (None for a helper item, ``i`` past the deals)."""
        if i >= len(self.counts):
            self.help(w)
            return None
        solver, stop = w.resource, w.halted
        solver.clear()  # a table kept across deals saved no nodes (they share only one hand)
        side, target = self.contract.team, self.contract.value
        if not self.lead_cards:
            enc = self.known.encode(self.counts[i])
            if self.points:
                return enc.won[side] + solver.value(enc, side, stop=stop, window_bound=self.window_bound,
                                                    cut_key=self.cut_key), []
            return (target if reaches(enc, target, side, solver=solver, stop=stop, window_bound=self.window_bound,
                                      cut_key=self.cut_key) else target - 1), []
        deal = _Open([k.encode(self.counts[i]) for k in self.after])
        # the first lead's guess: this worker's value after the first lead on its last deal;
        # each later lead's: the value after the lead before (most alike: a suit's neighbours)
        last = w.memo.get("first") if self.points else None
        with self._cond:
            self._open[i] = deal
        try:
            while True:
                with self._cond:
                    j = deal.claimed.index(False) if not all(deal.claimed) else -1
                    if j < 0:
                        if None not in deal.values:
                            break
                        if stop():
                            raise Cancelled("the search was cancelled")
                        self._cond.wait(0.05)  # a helper is solving this deal's last leads
                        continue
                    deal.claimed[j] = True
                last = self._lead(solver, deal.kids[j], last, stop)
                with self._cond:
                    deal.values[j] = deal.latest = last
                    self._cond.notify_all()
        finally:
            with self._cond:
                self._open.pop(i, None)
        row = [int(v) for v in deal.values if v is not None]
        if self.points:
            w.memo["first"] = row[0]
        return (max(row) if self.mover_side else min(row)), row

    def help(self, w: Worker[Solver]) -> None:
        """Solve the last unclaimed leads of the deals in progress (the one with the most
        first) until none is left, each with this worker's own table."""
        solver, cur = w.resource, None
        while True:
            with self._cond:
                todo = [d for d in self._open.values() if d.unclaimed()]
                if not todo:
                    return
                deal = max(todo, key=lambda d: d.unclaimed())
                j = len(deal.claimed) - 1 - deal.claimed[::-1].index(False)
                deal.claimed[j] = True
                guess = deal.latest
            if deal is not cur:
                solver.clear()  # the leads of one deal share this table, as with its worker
                cur = deal
            try:
                v = self._lead(solver, deal.kids[j], guess, w.halted)
            except BaseException:
                with self._cond:
                    deal.claimed[j] = False  # the deal's worker solves it after all
                    self._cond.notify_all()
                raise
            with self._cond:
                deal.values[j] = v
                self._cond.notify_all()


def _lead_cards(view: View, trump: int | None) -> tuple[Card, ...]:
    """The distinct cards the viewing seat may lead now; () when it is not on lead."""
    if not on_lead(view, trump):
        return ()
    left = list(view.hand.cards)
    for c in view.played_by(view.seat):
        left.remove(c)
    return legal_cards(Hand(tuple(left)), None)


def contract_from_auction(auction: Auction) -> Contract:
    """The auction's contract, or while it runs the standing bid as a contract."""
    contract = auction.standing_contract()
    if contract is None:
        raise FiftySixError("no bid has been made yet: give a contract to simulate")
    return contract


def estimate_from_auction(table: Table, system: str, seat: int, hand: Hand | str, auction_text: str,
                          contract: Contract | None = None, n: int = 200, seed: int | None = 0,
                          played: Sequence[int | str] | str = (), **kw: Any) -> Estimate:
    """``estimate`` for the view of ``seat`` holding ``hand`` after ``auction_text``; the
    contract defaults to the auction's (or its standing bid)."""
    from fiftysix.bidding import Auction
    a = Auction.parse(auction_text, system, table)
    c = contract or contract_from_auction(a)
    view = View.from_auction(table, system, seat, hand, a, played, trump=c.trump)
    return estimate(view, c, n, seed, **kw)
