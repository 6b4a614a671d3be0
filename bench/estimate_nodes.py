"""Node counts of the makeable estimate's searches: the load-free yardstick of a change for
bench/simulate.py's goal line (issue 41: 6 x 8, 200 deals, the full answer, on lead and not).

    .venv/bin/python -m bench.estimate_nodes [--players 6] [--hands 7,8,9,10] [--deals 200]
        [--seats 1,2] [--yes-no] [--top 5]

A hand N is ``random_deal(table, seed=N)``'s hand of the viewing seat (hand 7 is
bench/simulate.py's own); the contract is bench/simulate.py's (30 in spades by seat 2), the
deals ``Dealer(view).sample_counts(deals, 1)``. Each deal is solved as one worker of the
estimate's pool solves it (``_Deals.solve``: a table cleared per deal, the deal's leads in
order sharing it, each lead's guess the lead before, the first lead's this worker's first
value on its last deal), so the counts are the estimate's own, node for node, with one thread.
Per hand and seat: the nodes, the trick starts, CPU seconds (they move with the load), a hash
of every value (a speed change keeps it), and the share of the nodes in the dearest deals.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from fiftysix.analyser import solver as S
from fiftysix.analyser.dealer import Dealer, View
from fiftysix.analyser.pool import Worker
from fiftysix.analyser.simulate import _Deals, _lead_cards
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import Contract


def run(players: int, hand: int, seat: int, deals: int, points: bool, top: int) -> tuple[int, int]:
    """Count one hand's estimate from ``seat``'s view; print its line; (nodes, trick starts)."""
    table = Table.make(players, None)
    contract = Contract.make(table, 30, 0, 2)
    view = View(table, seat, random_deal(table, seed=hand).hand(seat))
    counts = Dealer(view).sample_counts(deals, 1)
    leads = _lead_cards(view, contract.trump)
    job = _Deals(view, contract, leads, points, counts)
    solver = S.Solver()
    worker: Worker[S.Solver] = Worker(solver, lambda: False)
    nodes = np.zeros(deals, dtype=np.int64)
    starts = 0
    digest = hashlib.sha1()
    t0 = time.process_time()
    for i in range(deals):
        solver.reset_counts()
        out = job.solve(worker, i)
        assert out is not None
        value, row = out
        nodes[i] = solver.nodes
        starts += solver.trick_starts
        digest.update(f"{value}:{row};".encode())
    cpu = time.process_time() - t0
    total = int(nodes.sum())
    dear = np.sort(nodes)[::-1][:top]
    where = "on lead" if leads else "not on lead"
    print(f"  hand {hand:3d}, seat {seat} ({where}, {len(leads)} leads): {total / 1e6:8.3f} M nodes, "
          f"{starts / 1e6:7.3f} M trick starts, CPU {cpu:6.2f} s ({cpu / deals * 1e3:5.1f} ms a deal), "
          f"values {digest.hexdigest()[:10]}; dearest {top} deals {dear.sum() / max(total, 1):.1%}, "
          f"median deal {np.median(nodes) / 1e3:.0f} k", flush=True)
    return total, starts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--hands", default="7,8,9,10", help="the viewing seat's hands (random_deal seeds)")
    ap.add_argument("--seats", default="1,2", help="viewing seats: 1 is on lead, 2 is not")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--yes-no", action="store_true", help="the yes/no mode (points=False) instead of points")
    ap.add_argument("--top", type=int, default=5, help="the dearest deals' share of the nodes")
    args = ap.parse_args()
    S.ensure_warm()
    print(f"{args.players} players, 30S by seat 2, {args.deals} deals, "
          f"{'yes/no' if args.yes_no else 'full answer'}; one worker, the estimate's own order")
    for seat in (int(s) for s in args.seats.split(",")):
        tn = ts = 0
        for hand in (int(h) for h in args.hands.split(",")):
            n, s = run(args.players, hand, seat, args.deals, not args.yes_no, args.top)
            tn, ts = tn + n, ts + s
        print(f"  seat {seat} total: {tn / 1e6:.3f} M nodes, {ts / 1e6:.3f} M trick starts", flush=True)


if __name__ == "__main__":
    main()
