"""Benchmark of the dealer: constrained deals per second, and the time of a 6-player estimate.

The exact dealer is timed against plain rejection in the same run; the estimate end to end.

    .venv/bin/python -m bench.dealer [--deals 2000] [--points 200] [--yes-no 200] [--tricks 0 4]

Prints medians of repeated runs; nothing here is asserted anywhere.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from fiftysix.analyser.dealer import Dealer, View, rejection_counts
from fiftysix.cards import Card, Table, random_deal
from fiftysix.constraints import All, Count, rank_kinds, suit_kinds, void
from fiftysix.errors import ConstraintError

TYPICAL = "28H P +1H 30S P +1S"  # four informative calls (seats 1, 3, 4, 6)
TIGHT_AUCTION = "28H 29S +1H P 32NT"  # 3+ Jacks and no 4-card suit, on top of three suit calls


def auction_view(text: str, seat: int) -> View:
    """The view of ``seat`` after ``text`` in international, holding a hand that fits it."""
    from fiftysix.bidding import Auction
    t = Table.make(6)
    cons = Auction.parse(text, "international", t).seat_constraints()
    for seed in range(1000):
        v = View(t, seat, random_deal(t, seed).hand(seat), cons)
        try:
            Dealer(v)
            return v
        except ConstraintError:
            continue
    raise SystemExit(f"no hand for seat {seat} fits {text!r}")


def hand_tight_view() -> View:
    """Hand-written tight promises: a singleton Jack, two voids, 5+ clubs, 3+ Nines."""
    t = Table.make(6)
    jh = Card.parse("JH")
    cons = {2: All((Count((jh,), 1, 1), Count(suit_kinds(1), 1, 1))), 3: All((void(0), void(2))),
            4: Count(suit_kinds(3), 5, 99), 5: Count(rank_kinds(1), 3, 99)}
    return View(t, 1, random_deal(t, 5).hand(1), cons)


def median_time(fn, reps: int = 3) -> float:
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def bench_dealer(name: str, view: View, deals: int) -> None:
    setup = median_time(lambda: Dealer(view))
    d = Dealer(view)
    draw = median_time(lambda: d.sample_counts(deals, seed=1))
    free = Dealer(View(view.table, view.seat, view.hand)).arrangements
    share = d.arrangements / free if d.arrangements is not None else float("nan")
    # plain rejection: measure tries per second, then its rate of fitting deals
    want = 20
    t0 = time.perf_counter()
    try:
        _, acc = rejection_counts(view, want, seed=1, max_draws=20_000)
        rej = want / (time.perf_counter() - t0)
        rej_text = f"{rej:9.1f} deals/s (acceptance {acc:.4f})"
    except ConstraintError:
        secs = time.perf_counter() - t0
        rej = 20_000 * share / secs
        rej_text = f"{rej:9.3f} deals/s expected (acceptance {share:.2e}; <{want} fits in 20000 tries, {secs:.1f} s)"
    print(f"{name:<26} exact: setup {setup * 1000:7.1f} ms, {deals / draw:9.0f} deals/s "
          f"(peak {d.states_peak} states, {share:.2e} of shuffles fit)   rejection: {rej_text}"
          f"   speed-up {deals / draw / rej:,.0f}x")


def bench_estimate(n_points: int, n_yes_no: int, played_tricks: int) -> None:
    from fiftysix.analyser.simulate import estimate
    from fiftysix.analyser.solver import warm_up
    from fiftysix.play import PlayState
    from fiftysix.scoring import Contract
    warm_up()
    view = auction_view(TYPICAL, 2)
    t = view.table
    contract = Contract.make(t, 40, 0, 6)
    if played_tricks:  # play some tricks of a deal that fits the view, to bench a mid-play estimate
        deal = Dealer(view).sample(1, seed=99)[0]
        st = PlayState(deal, 0, early_stop=False)
        while len(st.tricks) < played_tricks:
            st.play(st.legal_cards()[0])
        view = View(t, view.seat, view.hand, view.constraints, tuple((s, c) for tr in st.tricks for s, c in tr.plays))
    estimate(view, contract, 2, seed=0, leads=False, threads=1)  # warm this shape
    where = "start of play" if not played_tricks else f"after {played_tricks} tricks"
    head = f"estimate, 6 players, {contract} by seat 6 seen from seat 2, {where}"
    if n_yes_no:
        t0 = time.perf_counter()
        est = estimate(view, contract, n_yes_no, seed=1, leads=False, points=False, threads=1)
        print(f"{head}, {n_yes_no} deals, yes/no only: {time.perf_counter() - t0:.2f} s on 1 thread; rate {est.rate:.2f}")
    if n_points:
        times = {}
        for threads in (1, 2):
            t0 = time.perf_counter()
            est = estimate(view, contract, n_points, seed=1, leads=False, threads=threads)
            times[threads] = time.perf_counter() - t0
        print(f"{head}, {n_points} deals, exact points: 1 thread {times[1]:.2f} s, 2 threads {times[2]:.2f} s "
              f"(x{times[1] / times[2]:.2f}); rate {est.rate:.2f}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--points", type=int, default=200, help="deals for the exact-points estimate (0: skip)")
    p.add_argument("--yes-no", type=int, default=200, help="deals for the yes/no estimate (0: skip)")
    p.add_argument("--skip-dealer", action="store_true")
    p.add_argument("--tricks", type=int, nargs="*", default=[0], help="tricks played before the estimate")
    a = p.parse_args()
    print(f"cores: {os.cpu_count()}")
    from bench.simulate import dds_deals, dds_median  # bench/simulate.py: the DDS yardstick
    ydeals = dds_deals(40, 2026)
    before = dds_median(ydeals)
    if not a.skip_dealer:
        bench_dealer("typical auction (4 calls)", auction_view(TYPICAL, 2), a.deals)
        bench_dealer("tight auction (5 calls)", auction_view(TIGHT_AUCTION, 4), a.deals)
        bench_dealer("tight, written by hand", hand_tight_view(), a.deals)
    for k in a.tricks:
        bench_estimate(a.points, a.yes_no, k)
    dds = (before + dds_median(ydeals)) / 2
    print(f"DDS yardstick: median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals, before and after)")


if __name__ == "__main__":
    main()
