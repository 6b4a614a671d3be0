"""Benchmark of time budgets: how closely ``--max-seconds`` bounds a whole solver command.

``costs --max-seconds`` and ``table --max-seconds`` on hard 4-player 48-card deals (12 cards
each), wall time against the budget.

    .venv/bin/python -m bench.budgets [--deals 4] [--costs 5] [--table 4]

Each command runs in a fresh process (so the wall time includes start-up, loading the
compiled kernels and exit, as a user sees it) and, separately, in this process after
warm-up (the command's own time, which is what the budget governs). Prints each run and
the median and worst ratio of time to budget. No DDS yardstick: a budget is absolute.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from fiftysix.analyser import solver as S
from fiftysix.cards import Table, random_deal
from fiftysix.ui.cli import main


def in_process(argv: list[str]) -> tuple[int, float]:
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        rc = main(argv)
    return rc, time.perf_counter() - t0


def fresh_process(argv: list[str]) -> tuple[int, float]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "fiftysix.ui.cli", *argv], cwd=ROOT, capture_output=True, check=False)
    return done.returncode, time.perf_counter() - t0


def main_() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--costs", type=float, default=5.0, help="costs budget (s)")
    ap.add_argument("--table", type=float, default=4.0, help="table budget (s)")
    args = ap.parse_args()
    S.warm_up()
    tab = Table.make(4, 48)
    ratios: dict[str, list[float]] = {}
    for seed in range(1, args.deals + 1):
        deal = str(random_deal(tab, seed))
        base = ["--players", "4", "--deck", "48", "--deal", deal]
        cases = [(f"costs {t}", ["costs", *base, "--trump", t, "--max-seconds", f"{args.costs:g}"], args.costs)
                 for t in "HSD"] + [("table", ["table", *base, "--max-seconds", f"{args.table:g}"], args.table)]
        for name, argv, budget in cases:
            rc1, own = in_process(argv)
            rc2, wall = fresh_process(argv)
            ratios.setdefault(f"{name.split()[0]} own", []).append(own / budget)
            ratios.setdefault(f"{name.split()[0]} wall", []).append(wall / budget)
            print(f"seed {seed} {name:<8} budget {budget:g}s: command {own:5.1f}s (rc {rc1}),"
                  f" fresh process {wall:5.1f}s (rc {rc2})", flush=True)
    for key, rs in ratios.items():
        print(f"{key:<11} time/budget median {statistics.median(rs):.2f} worst {max(rs):.2f}")


if __name__ == "__main__":
    main_()
