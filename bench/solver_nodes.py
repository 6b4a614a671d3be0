"""Node counts of the solver on fixed seeded sets: the deterministic yardstick for a search change.

A node count does not move with the machine's load; the CPU time beside it does. Every search
starts from a fresh table; a search past the node cap counts at the cap.

    .venv/bin/python bench/solver_nodes.py [--sets 4x12,6x8,8x8,bridge] [--deals 8] [--cap 30000000]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fiftysix.analyser import bridge
from fiftysix.analyser import solver as S
from fiftysix.cards import Table, random_deal

SETS = {"4x8": (4, 32), "4x12": (4, 48), "6x8": (6, 48), "8x6": (8, 48), "8x8": (8, 64)}


def run(name: str, deals: int, cap: int, table_mb: float, seed: int) -> None:
    solver = S.Solver(table_mb)
    per, capped, values = [], 0, []
    t0 = time.process_time()
    rng = random.Random(seed + len(name) * 7 + sum(map(ord, name)))
    for _ in range(deals):
        solver.clear()
        solver.nodes = 0
        try:
            if name == "bridge":
                text = bridge.random_pbn(rng)
                values.append(bridge.tricks(text, rng.randrange(5), rng.randrange(4), solver=solver,
                                            max_nodes=cap))
            else:
                tab = Table(*SETS[name])
                deal = random_deal(tab, seed=rng.randrange(10 ** 9))
                pos = S.Position(tab, deal.hands, rng.choice((0, 1, 2, 3, None)), 1)
                values.append(S.max_points(pos, max_nodes=cap, solver=solver)[0])
        except S.BudgetExceeded:
            capped += 1
            values.append(None)
        per.append(solver.nodes)
    cpu = time.process_time() - t0
    srt = sorted(per)
    print(f"{name:7s} {deals} deals: nodes total {sum(per) / 1e6:8.2f} M  median {srt[len(srt) // 2] / 1e3:9.1f} k  "
          f"max {max(per) / 1e6:7.2f} M  capped {capped}  cpu {cpu:6.2f} s")
    print(f"        per deal (k): {' '.join(str(n // 1000) for n in per)}")
    print(f"        values: {values}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="4x12,6x8,8x8,bridge")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--cap", type=int, default=30_000_000)
    ap.add_argument("--seed", type=int, default=2026, help="another seed, another fixed set")
    ap.add_argument("--table-mb", type=float, default=S.DEFAULT_TABLE_MB)
    args = ap.parse_args()
    S.warm_up()
    for name in args.sets.split(","):
        run(name, args.deals * (3 if name == "6x8" else 1), args.cap, args.table_mb, args.seed)


if __name__ == "__main__":
    main()
