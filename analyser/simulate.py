"""Makeability estimates by Perfect Information Monte Carlo (RULES.md section 8).

``estimate(view, contract, n, seed)`` deals ``n`` hidden layouts with ``Dealer`` (exactly as
a real shuffle would, given everything the viewing seat knows), solves each double-dummy
and reports: the share on which the declaring team reaches the bid (with a 95% Wilson
interval), the distribution of its maximum points, for a seat on lead the same after each
possible lead, and where each unseen card lies (the "what the table knows" grid).
"""
from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyser.dealer import Dealer, View, counts_to_deal
from fiftysix.cards import CARD_NAMES, NUM_KINDS, Card, Hand, Table
from fiftysix.errors import FiftySixError
from fiftysix.scoring import Contract

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


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

    def to_dict(self) -> dict:
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

    def to_dict(self) -> dict:
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
        }


def location_grid(view: View, counts: np.ndarray) -> dict[Card, dict[int, float]]:
    """For every unseen kind: the share of its unseen copies found in each hidden seat."""
    u = view.unseen()
    out: dict[Card, dict[int, float]] = {}
    for k in range(NUM_KINDS):
        if u[k] == 0 or len(counts) == 0:
            continue
        row = {}
        for s in view.hidden_seats:
            played = view.played_by(s).count(k)
            row[s] = float((counts[:, s - 1, k] - played).mean() / u[k])
        out[Card(k)] = row
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
    from fiftysix.play import trick_winner
    n = view.table.players
    if len(view.plays) % n:
        return False
    if not view.plays:
        return view.leader == view.seat
    last = view.plays[-n:]
    return last[trick_winner([c for _, c in last], trump)][0] == view.seat


def estimate(view: View, contract: Contract, n: int = 200, seed: int | None = 0, *,
             leads: bool = True, threads: int | None = None, batch: int = 50,
             progress: bool = False, should_stop: Callable[[int, int], bool] | None = None,
             dealer: Dealer | None = None, points: bool = True) -> Estimate:
    """Estimate how often ``contract`` is makeable double-dummy from ``view``'s knowledge.

    Deals come from ``Dealer(view)`` (pass one in to reuse it). ``leads``: when the viewing
    seat is on lead, also solve after each of its possible leads. Deals are solved in
    batches of ``batch`` (numba threads over the deals of a batch; results do not depend on
    ``threads``); ``progress`` shows a tqdm bar; ``should_stop(done, n)`` returning True, or
    Ctrl-C, stops early and the estimate covers the deals solved so far.

    ``points=False`` asks only "does the contract make?" (a yes/no search per deal, often
    tens of times faster than exact maximum points, one thread): the points histogram is
    then empty and the lead rows carry no mean points.
    """
    from analyser.solver import Position
    t0 = time.perf_counter()
    table = view.table
    if n < 1:
        raise FiftySixError(f"simulate at least one deal, not {n}")
    if not 0 <= contract.team < table.num_teams:
        raise FiftySixError(f"no team {contract.team} at this table")
    dealer = dealer or Dealer(view)
    counts = dealer.sample_counts(n, seed)
    played = [c for _, c in view.plays]
    lead_cards = _lead_cards(view, contract.trump) if leads else ()
    side, target = contract.team, contract.value
    best = np.zeros(n, dtype=np.int64)
    after = np.zeros((len(lead_cards), n), dtype=np.int64)
    done, stopped = 0, False
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=n, unit="deal", desc="simulating")
    try:
        while done < n:
            if should_stop is not None and should_stop(done, n):
                stopped = True
                break
            hi = min(n, done + batch)
            deals = [counts_to_deal(table, counts[i]) for i in range(done, hi)]
            positions = [Position.from_deal(d, contract.trump, view.leader, played) for d in deals]
            if lead_cards:
                kids = [Position.from_deal(d, contract.trump, view.leader, played + [c])
                        for c in lead_cards for d in deals]
                vals = _values(kids, side, target, points, threads).reshape(len(lead_cards), hi - done)
                after[:, done:hi] = vals
                mover_side = table.team_of(view.seat) == side
                best[done:hi] = vals.max(axis=0) if mover_side else vals.min(axis=0)
            else:
                best[done:hi] = _values(positions, side, target, points, threads)
            done = hi
            if bar is not None:
                bar.update(len(deals))
    except KeyboardInterrupt:
        stopped = True
    finally:
        if bar is not None:
            bar.close()
    best, after, counts = best[:done], after[:, :done], counts[:done]
    rows = tuple(LeadRow(c, int((after[i] >= target).sum()), done,
                         float(after[i].mean()) if done and points else float("nan"))
                 for i, c in enumerate(lead_cards))
    rows = tuple(sorted(rows, key=lambda r: (-r.rate, -np.nan_to_num(r.mean_points), int(r.card))))
    hist = dict(Counter(best.tolist())) if points else {}
    return Estimate(table, contract, done, int((best >= target).sum()), hist,
                    rows, location_grid(view, counts), dealer.acceptance_rate, stopped,
                    time.perf_counter() - t0, view.seat)


def _values(positions: list, side: int, target: int, points: bool, threads: int | None) -> np.ndarray:
    """The side's final points in each position, or (``points=False``) ``target`` where it
    reaches the target and ``target - 1`` where it does not."""
    from analyser.solver import max_points_many, solve
    if points:
        return max_points_many(positions, side, threads=threads)
    return np.array([target if solve(p, target, side) else target - 1 for p in positions], dtype=np.int64)


def _lead_cards(view: View, trump: int | None) -> tuple[Card, ...]:
    """The distinct cards the viewing seat may lead now; () when it is not on lead."""
    if not on_lead(view, trump):
        return ()
    left = list(view.hand.cards)
    for c in view.played_by(view.seat):
        left.remove(c)
    return tuple(dict.fromkeys(Hand(tuple(left)).cards))


def contract_from_auction(auction) -> Contract:
    """The auction's contract, or while it runs the standing bid as a contract."""
    if auction.contract is not None:
        return auction.contract
    st = auction.state
    if st.value is None or st.high_seat is None:
        raise FiftySixError("no bid has been made yet: give a contract to simulate")
    return Contract.make(auction.table, st.value, st.trump, st.high_seat, st.doubled)


def estimate_from_auction(table: Table, system: str, seat: int, hand: Hand | str, auction_text: str,
                          contract: Contract | None = None, n: int = 200, seed: int | None = 0,
                          played: str | list = (), **kw) -> Estimate:
    """``estimate`` for the view of ``seat`` holding ``hand`` after ``auction_text``; the
    contract defaults to the auction's (or its standing bid)."""
    from fiftysix.bidding import Auction
    a = Auction.parse(auction_text, system, table)
    c = contract or contract_from_auction(a)
    view = View.with_plays(table, seat, hand, a.seat_constraints(), played, c.trump)
    return estimate(view, c, n, seed, **kw)
