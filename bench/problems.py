"""How long a play problem takes to make on demand, per table, level and kind, against DDS.

``drills.problem_sets.make_problem`` is timed (wall seconds, as the learner waits) for every
table (4, 6, 8 players, the usual deck), every level and a run of seeds, each with its default
limit (2 s for find-the-card; 30, 90 or 240 s for an opening lead at 4, 6 or 8 players); a
problem that did not turn up within the limit counts as a miss. Wall and CPU seconds both: the learner waits the wall time, and on a
shared machine the CPU time says what the work costs. One process makes them all and keeps
what each position gave, as the app's server does (``--cold`` forgets it before each problem). Every problem made is re-solved (``problems.verify``) and must
hold. DDS (endplay) solving bench/solver.py's seeded bridge deals is timed before and after,
and the medians are also given in DDS solves. Issue 45's goal: under 2 s a problem.

    nice .venv/bin/python -m bench.problems --seeds 8 --tables 4,6,8 --leads 4
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.solver import warm_up
from fiftysix.cards import Table
from fiftysix.drills import problem_sets
from fiftysix.drills.problem_hands import shipped_hands
from fiftysix.drills.problem_sets import make_problem
from fiftysix.drills.problems import FIND_CARD, LEAD_LEVELS, LEVELS, OPENING_LEAD, verify


def timed(table: Table, level: int, kind: str, seed: int, cold: bool) -> tuple[float, float, bool, bool]:
    """(wall seconds, CPU seconds, made, holds when re-solved) of one problem made on demand;
    ``cold``: with nothing kept from the problems made before in this process."""
    if cold:
        problem_sets._cards_made.clear()
        problem_sets._positions.clear()
        problem_sets._leads_made.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    q = make_problem(table, level, kind, seed)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    return took, cpu, q is not None, q is None or verify(q) == []


def quantiles(ts: list[float]) -> str:
    ts = sorted(ts)
    p90 = ts[max(0, math.ceil(0.9 * len(ts)) - 1)]  # nearest rank
    return f"median {statistics.median(ts):.2f} s, p90 {p90:.2f} s, max {ts[-1]:.2f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8, help="problems tried per table, kind and level")
    ap.add_argument("--tables", default="4,6,8", help="players, comma-separated")
    ap.add_argument("--leads", type=int, default=3, help="opening lead problems tried per table and level")
    ap.add_argument("--cold", action="store_true",
                    help="forget what the problems made before found (by default a process keeps it, as the app's)")
    args = ap.parse_args()
    warm_up()
    ydeals = dds_deals(40, 2026)
    before = dds_median(ydeals)
    rows = []
    for p in (int(x) for x in args.tables.split(",")):
        table = Table.make(p)
        shipped_hands(table)  # read once, as a page's first problem does
        for kind, levels, seeds in ((FIND_CARD, LEVELS, args.seeds), (OPENING_LEAD, LEAD_LEVELS, args.leads)):
            every: list[float] = []
            cpus: list[float] = []
            for level in levels:
                got = [timed(table, level, kind, 1000 + s, args.cold) for s in range(seeds)]
                if not got:
                    continue
                ts = [t for t, _, _, _ in got]
                every += ts
                cpus += [c for _, c, _, _ in got]
                made = sum(m for _, _, m, _ in got)
                bad = sum(not ok for _, _, _, ok in got)
                rows.append(f"{p}p {kind:12} level {level}: {made}/{len(got)} made, wall {quantiles(ts)}"
                            f"{'' if not bad else f', {bad} FAILED the re-solve'}")
                print(rows[-1], flush=True)
            if every:
                under = sum(t < 2.0 for t in every)
                rows.append(f"{p}p {kind:12} all levels: wall {quantiles(every)} (median"
                            f" {statistics.median(every) / before:.1f} DDS solves); CPU {quantiles(cpus)};"
                            f" {under}/{len(every)} under 2 s wall")
                print(rows[-1], flush=True)
    dds = (before + dds_median(ydeals)) / 2
    print(f"\nDDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals; {before * 1000:.2f} ms before,"
          " the DDS ratios above use it)")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
