"""Node counts of the solver on fixed seeded sets: the deterministic yardstick for a search change.

A node count does not move with the machine's load; the CPU time beside it does. Every search
starts from a fresh table; a search past the node cap counts at the cap.

    .venv/bin/python -m bench.solver_nodes [--sets 4x12,6x8,8x8,bridge] [--deals 8] [--cap 30000000]
        [--proofs] [--depths] [--no-dds]

Besides all nodes, each set's trick starts (entries of a trick's first card, settled ones
included: what DDS's node count counts). The bridge set is solved by DDS (endplay) too, each
search cold, and its trick nodes printed beside ours. ``--proofs``: each deal's two single
proofs instead, at its value v ("makes v") and at v + 1 ("fails v + 1"), each from a fresh
table (DDS: target v and v + 1). ``--depths``: where the nodes go, per tricks left: the share
of all nodes, and how the trick starts there ended (window, bound, exact, abstract and
payoff-similar entry, searched).
"""
from __future__ import annotations

import argparse
import os
import random
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from fiftysix.analyser import _kernels as K
from fiftysix.analyser import bridge
from fiftysix.analyser import solver as S
from fiftysix.cards import Table, random_deal

SETS = {"4x8": (4, 32), "4x12": (4, 48), "6x8": (6, 48), "8x6": (8, 48), "8x8": (8, 64)}
OUTCOMES = ("window", "bound", "exact", "abstract", "payoff", "searched")
EXACT = False  # (--exact) print each deal's exact counts


class DDS:
    """DDS through endplay, its node count (``futureTricks.nodes``: trick starts) per search.
    DDS keeps its table between calls on the same deal; a search of another deal in between
    makes each call cold."""

    def __init__(self) -> None:
        import endplay._dds as dds
        from endplay.types import Deal as BDeal
        self.dds, self.BDeal = dds, BDeal
        self._other = self._deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", 4, 0)

    def _deal(self, text: str, trump: int, first: int):
        from endplay.types import Denom, Player
        d = self.BDeal.from_pbn(text)
        d.first, d.trump = Player(first), Denom(trump)
        return d

    def solve(self, text: str, trump: int, first: int, target: int = -1) -> tuple[int, int, float]:
        """(score, trick nodes, seconds): target -1, the most tricks of the side on lead;
        else its score for that target (the target when reached, else below it)."""
        fut = self.dds.futureTricks()
        self.dds.SolveBoard(self._other._data, -1, 1, 1, fut, 0)
        d = self._deal(text, trump, first)
        fut = self.dds.futureTricks()
        t = time.perf_counter()
        self.dds.SolveBoard(d._data, target, 1, 1, fut, 0)
        return int(fut.score[0]), int(fut.nodes), time.perf_counter() - t


def deals_of(name: str, deals: int, seed: int):
    """The set's deals: (kernel position, side, bridge text/trump/leader or None)."""
    rng = random.Random(seed + len(name) * 7 + sum(map(ord, name)))
    out = []
    for _ in range(deals):
        if name == "bridge":
            text = bridge.random_pbn(rng)
            trump, first = rng.randrange(5), rng.randrange(4)
            out.append((bridge.position(text, trump, first), first % 2, (text, trump, first)))
        else:
            tab = Table(*SETS[name])
            deal = random_deal(tab, seed=rng.randrange(10 ** 9))
            pos = S.Position(tab, deal.hands, rng.choice((0, 1, 2, 3, None)), 1)
            out.append((pos.encoded(), 0, None))
    return out


def run(name: str, deals: int, cap: int, table_mb: float, seed: int, proofs: bool, depths: bool,
        dds: DDS | None) -> None:
    solver = S.Solver(table_mb)
    per, starts, capped, values, dnodes, whole = [], [], 0, [], [], []
    total = np.zeros_like(solver.counts)
    t0 = time.process_time()
    for enc, side, bd in deals_of(name, deals, seed):
        solver.clear()
        solver.reset_counts()
        try:
            if bd is None:
                v = solver.value(enc, side, max_nodes=cap)
            else:  # bridge: as bridge.tricks searches a whole deal
                v = solver.value(enc, side, max_nodes=cap, guess=bridge.first_guess(13, bd[2]), gallop=False)
        except S.BudgetExceeded:
            v = None
        if proofs and v is not None:
            whole.append(solver.nodes)
            solver.reset_counts()
            ok = []
            for target in (v, v + 1):
                solver.clear()
                ok.append(solver.probe(enc, side, target, max_nodes=cap))
            assert ok == [True, False], (name, v, ok)
        values.append(v)
        capped += v is None
        per.append(solver.nodes)
        starts.append(solver.trick_starts)
        total += solver.counts
        if dds is not None and bd is not None and v is not None:
            if proofs:
                dnodes.append(sum(dds.solve(*bd, target=t)[1] for t in (v, v + 1)))
            else:
                score, n, _ = dds.solve(*bd)
                assert score == v, (bd, score, v)
                dnodes.append(n)
    cpu = time.process_time() - t0
    srt = sorted(per)
    what = "proofs at v and v + 1" if proofs else "values"
    print(f"{name:7s} {deals} deals, {what}: nodes total {sum(per) / 1e6:8.2f} M  median {srt[len(srt) // 2] / 1e3:9.1f} k"
          f"  max {max(per) / 1e6:7.2f} M  trick starts {sum(starts) / 1e6:7.3f} M  capped {capped}  cpu {cpu:6.2f} s")
    print(f"        per deal (k): {' '.join(str(n // 1000) for n in per)}")
    if EXACT:
        print(f"        per deal, exact: {' '.join(str(n) for n in per)}; trick starts {' '.join(str(n) for n in starts)}")
    print(f"        trick starts (k): {' '.join(str(n // 1000) for n in starts)}")
    if whole:
        both = [n for n, w in zip(per, values) if w is not None]
        print(f"        the whole solves of these deals (k): {' '.join(str(n // 1000) for n in whole)}; total "
              f"{sum(whole) / 1e6:.2f} M = {sum(whole) / max(sum(both), 1):.2f}x their two proofs (per deal "
              f"{' '.join(f'{a / max(b, 1):.1f}' for a, b in zip(whole, both))})")
    if dnodes:
        print(f"        DDS trick nodes (k): {' '.join(str(n // 1000) for n in dnodes)}; total {sum(dnodes) / 1e6:.3f} M;"
              f" ours / DDS {sum(starts) / sum(dnodes):.2f}x in all, per deal "
              f"{' '.join(f'{a / max(b, 1):.1f}' for a, b in zip(starts, dnodes))}")
    print(f"        values: {values}")
    if depths:
        print_depths(total, SETS[name][0] if name in SETS else 4)


def print_depths(total: np.ndarray, seats: int) -> None:
    """Per tricks left: the share of all nodes, and how its trick starts ended."""
    nodes = total[:, 0]
    allnodes = max(int(nodes.sum()), 1)
    print(f"        {'tricks left':>11s} {'nodes':>6s}  trick starts: " + " / ".join(OUTCOMES))
    for t in range(K.MAX_CARDS // seats, 0, -1):
        lo, hi = (t - 1) * seats + 1, t * seats
        share = nodes[lo:hi + 1].sum() / allnodes
        oc = total[hi, 1:]
        n = int(oc.sum())
        if n == 0 and share == 0:
            continue
        parts = " / ".join(f"{100 * x / max(n, 1):3.0f}%" for x in oc)
        print(f"        {t:11d} {100 * share:5.1f}%  {n:9d}: {parts}")
    last5 = nodes[:5 * seats + 1].sum() / allnodes
    print(f"        nodes in the last 5 tricks: {100 * last5:.1f}%")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="4x12,6x8,8x8,bridge")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--cap", type=int, default=30_000_000)
    ap.add_argument("--seed", type=int, default=2026, help="another seed, another fixed set")
    ap.add_argument("--table-mb", type=float, default=S.DEFAULT_TABLE_MB)
    ap.add_argument("--proofs", action="store_true", help="the two single proofs (v, v + 1) of each deal")
    ap.add_argument("--depths", action="store_true", help="where the nodes go, per tricks left")
    ap.add_argument("--no-dds", action="store_true", help="no DDS figures for the bridge set")
    ap.add_argument("--exact", action="store_true", help="each deal's nodes and trick starts exactly (a pure speed "
                    "change keeps them equal)")
    args = ap.parse_args()
    global EXACT
    EXACT = args.exact
    S.warm_up()
    dds = None if args.no_dds else DDS()
    for name in args.sets.split(","):
        run(name, args.deals * (3 if name == "6x8" else 1), args.cap, args.table_mb, args.seed, args.proofs,
            args.depths, dds)


if __name__ == "__main__":
    main()
