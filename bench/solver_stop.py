"""What a search's ``stop`` callable and time budget cost in nodes: the same searches three ways.

    .venv/bin/python -m bench.solver_stop [--setups 8x8,4x12] [--deals 12] [--estimate 12]

For bench/solver.py's deals (the same seeds, trumps and order: its 8 x 8 set's first 4 are
issue 41's goal deals) each deal's ``Solver.value`` for team 0, from a fresh table each time:
**none** (no budget, no stop), **seconds** (``max_seconds`` an hour), **stop** (a ``stop``
callable that never says stop, as the app's jobs and the solver pool pass). Node counts are
exact whatever the load; the CPU seconds beside them are this process's. ``--estimate K``:
the makeable estimate at 8 players (bench/simulate.py's 8-player line, seat 1 on lead, 30S by
seat 2) over its first K deals in one thread, its searches' nodes summed: each search paused
every 2^20 nodes to look at its ``stop`` (the pool's ``halted``), as every search with a
``stop`` did before cf9bb17 (``_STOP_CHUNK``, now for tests only), and as it runs now.
``--card-values 8x8``: each deal's ``card_values`` at the opening lead with a ``stop``, the
same two ways.
"""
from __future__ import annotations

import argparse
import os
import random
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from fiftysix.analyser import solver as S
from fiftysix.cards import Table, random_deal

SETS = {"8x8": (8, 64), "4x12": (4, 48), "6x8": (6, 48)}


def deals_of(players: int, deck: int, k: int) -> list[tuple[object, int | None]]:
    """bench/solver.py's first ``k`` deals of the set-up (its seed rule, its draws)."""
    tab = Table(players, deck)
    rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
    out = []
    for _ in range(k):
        deal = random_deal(tab, seed=rng.randrange(10 ** 9))
        out.append((deal, rng.choice((0, 1, 2, 3, None))))
    return out


def one(pos: S.Position, how: str, table_mb: float) -> tuple[int, int, float]:
    """(value, nodes, CPU seconds) of team 0's value, searched ``how``."""
    s = S.Solver(table_mb)
    s.clear()
    enc = pos.encoded()
    kw = {"none": {}, "seconds": {"max_seconds": 3600.0}, "stop": {"stop": lambda: False}}[how]
    t = time.process_time()
    v = s.value(enc, 0, **kw)
    return v, s.nodes, time.process_time() - t


def bench_set(name: str, k: int, table_mb: float) -> None:
    players, deck = SETS[name]
    n = k
    ways = ("none", "seconds", "stop")
    tot = {w: 0 for w in ways}
    print(f"\n{name}: bench/solver.py's first {n} deals, team 0's value from a fresh table, nodes (CPU s)")
    for i, (deal, trump) in enumerate(deals_of(players, deck, n)):
        pos = S.Position(deal.table, deal.hands, trump, 1)
        got = {w: one(pos, w, table_mb) for w in ways}
        vals = {g[0] for g in got.values()}
        assert len(vals) == 1, got
        for w in ways:
            tot[w] += got[w][1]
        print(f"  deal {i:2d}: value {got['none'][0]:3d}  " + "  ".join(
            f"{w} {got[w][1]:>11,d} ({got[w][2]:6.2f})" for w in ways)
            + f"  stop/none {got['stop'][1] / got['none'][1]:.3f}", flush=True)
    print("  total: " + "  ".join(f"{w} {tot[w]:,d}" for w in ways)
          + f"  seconds/none {tot['seconds'] / tot['none']:.4f}  stop/none {tot['stop'] / tot['none']:.4f}")


def bench_card_values(name: str, k: int, table_mb: float) -> None:
    """Each deal's ``card_values`` at the opening lead with a ``stop`` (the Analyse page's and
    the Play page's path): each search paused every 2^20 nodes as before cf9bb17, and as now."""
    players, deck = SETS[name]
    print(f"\n{name}: card values at the opening lead (each card's search in turn, one table, guesses), "
          "with a stop: nodes paused every 2^20 / as it runs (CPU s)")
    plain = S._STOP_CHUNK
    tot = [0, 0]
    for i, (deal, trump) in enumerate(deals_of(players, deck, k)):
        pos = S.Position(deal.table, deal.hands, trump, 1)
        got = []
        for j, chunk in enumerate((1 << 20, plain)):
            S._STOP_CHUNK = chunk
            try:
                s = S.Solver(table_mb)
                s.clear()
                t = time.process_time()
                vals = S.card_values(pos, solver=s, stop=lambda: False)
                got.append((vals, s.nodes, time.process_time() - t))
            finally:
                S._STOP_CHUNK = plain
            tot[j] += s.nodes
        assert got[0][0] == got[1][0], got
        print(f"  deal {i:2d}: {got[0][1]:>12,d} ({got[0][2]:6.2f}) / {got[1][1]:>12,d} ({got[1][2]:6.2f})"
              f"  {got[1][1] / max(got[0][1], 1):.3f}", flush=True)
    print(f"  total: {tot[0]:,d} / {tot[1]:,d}  {tot[1] / max(tot[0], 1):.4f}")


def bench_estimate(k: int) -> None:
    from fiftysix.analyser.dealer import View
    from fiftysix.analyser.simulate import estimate
    from fiftysix.scoring import Contract
    tab = Table.make(8)
    contract = Contract.make(tab, 30, 0, 2)
    view = View(tab, 1, random_deal(tab, seed=7).hand(1))
    print(f"\n8 x 8 estimate, seat 1 on lead, {contract} by seat 2, its first {k} deals, one thread: "
          "the pool's searches' nodes")
    plain = S._STOP_CHUNK
    for label, chunk in (("paused every 2^20 nodes", 1 << 20), ("as it runs", plain)):
        S._STOP_CHUNK = chunk
        try:
            for s in S.solver_pool().idle():
                s.reset_counts()
            t, c = time.perf_counter(), time.process_time()
            est = estimate(view, contract, k, 1, threads=1)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            nodes = sum(s.nodes for s in S.solver_pool().idle())
        finally:
            S._STOP_CHUNK = plain
        print(f"  {label:24s}: {est.deals} deals, {est.makes} make, nodes {nodes:,d}, wall {wall:.2f} s, "
              f"CPU {cpu:.2f} s, load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--setups", default="8x8,4x12")
    ap.add_argument("--deals", type=int, default=12, help="deals a set (8 x 8: its first this many)")
    ap.add_argument("--estimate", type=int, default=0, help="the 8 x 8 estimate's first K deals (0: skip)")
    ap.add_argument("--card-values", default="", help="sets whose deals' card values at the lead to count")
    ap.add_argument("--table-mb", type=float, default=S.DEFAULT_TABLE_MB)
    args = ap.parse_args()
    print(f"solver_stop, {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
    S.ensure_warm()
    for name in filter(None, args.setups.split(",")):
        bench_set(name, args.deals, args.table_mb)
    for name in filter(None, args.card_values.split(",")):
        bench_card_values(name, args.deals, args.table_mb)
    if args.estimate:
        bench_estimate(args.estimate)


if __name__ == "__main__":
    main()
