"""A heavy job outside the server: "Is it makeable?" on 2,000 deals at 8 players, again and again.

    .venv/bin/python -m bench.heavy_process [--own-group] [--seconds 600]

bench/load.py starts it (``--heavy-process``) to see what the server's pages pay for a heavy
job's CPU when the job runs in a process of its own: its solver threads run under SCHED_IDLE,
as the server's do; with ``--own-group`` the process also leaves the caller's session for one
of its own, whose autogroup gets niceness 19 (Linux shares the CPU between autogroups first,
and a thread's priority counts only inside its group). It stops by itself after ``--seconds``.
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from fiftysix.analyser import pool
from fiftysix.analyser import solver as S
from fiftysix.analyser.dealer import View
from fiftysix.analyser.simulate import estimate
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import Contract


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--own-group", action="store_true")
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.own_group:
        os.setsid()
        try:
            Path("/proc/self/autogroup").write_text("19")
        except OSError:
            pass  # no autogroups here: the session alone
    pool.set_worker_nice(10, idle=True)
    S.warm_up()
    table = Table.make(8)
    view = View(table, 1, random_deal(table, seed=100 + args.seed).hand(1))
    contract = Contract.make(table, 32, 0, 2)
    end, k = time.time() + args.seconds, 0
    while time.time() < end:
        estimate(view, contract, 2000, k, threads=2, max_seconds=min(30, max(1, end - time.time())))
        k += 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
