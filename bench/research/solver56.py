"""56's search measured against its single proofs, with a rules constant changed: issue 41 item 2.

Node counts only (exact; the machine's load does not move them). For each of
bench/solver_nodes.py's seeded sets: the whole solve (``max_points``' narrowing) and, with
``--proofs``, each deal's two single proofs instead (at its value v and at v + 1, fresh
tables), beside the whole solves of the same deals: the narrowing's cost against the least
any exact answer needs.

    nice -n 15 .venv/bin/python -m bench.research.solver56 [--sets 4x12,6x8,8x8] [--exact 3]
        [--proofs] [--depths] [--cap 30000000] [--solver-bench] [--only N] [--abucket 128]
        [--probes [--brief] [--narrow 0.5,3,5] [--skip 4,7]] [--tricks 128]
        [--guess-errors 0,1,-1,3,-3] [--leads] [--plies]

``--exact K``: endings of K tricks or fewer are searched with the full window whatever the
target (``encode.EXACT_TRICKS``, 0 in the product), so that their table entries are exact
and serve every later probe. ``--abucket N``: 56's abstract entries per suit-length pattern
(bridge's 128 lever; 4 in the product). ``--probes``: ``max_points``' narrowing replayed one
probe at a time from Python (each probe's target, fail-soft result and nodes), its parameters
changed with ``--narrow`` (no kernel change needed). ``--solver-bench``: bench/solver.py's
deals instead. ``--tricks N``: each deal searched for tricks as well (every card worth nothing,
a trick worth one, abstract buckets of N): the same deal's bridge-like structure against 56's
card points. ``--guess-errors E,...``: each deal's whole solve given a guess off its value by
E points (an oracle: how good a guess must be), against no guess. ``--leads``: every opening
lead's value (``child_values``, as ``card_values`` and the estimate on lead ask them: each
lead's guess the value of the lead before, one table a deal). ``--plies``: each deal's two proofs,
the nodes at each card of a trick (where in a trick the tree grows, and which side's seats try
more than one card). Findings go in bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bench import solver_nodes as SN
from fiftysix.analyser import _kernels as K
from fiftysix.analyser import encode
from fiftysix.analyser import solver as S
from fiftysix.cards import Table, random_deal


def bench_solver_deals(name: str, deals: int, seed: int):
    """bench/solver.py's deals of set-up ``name`` (its seeds; ``seed`` unused), as solver_nodes' sets."""
    players, deck = SN.SETS[name]
    tab = Table(players, deck)
    rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
    out = []
    for _ in range(deals):
        deal = random_deal(tab, seed=rng.randrange(10 ** 9))
        trump = rng.choice((0, 1, 2, 3, None))
        out.append((S.Position(tab, deal.hands, trump, 1).encoded(), 0, None))
    return out


NARROW = {"first": 0.5, "part": 3, "steps": 5}  # the kernels' _narrow: the middle, then a third up, steps within 5


def narrowed(solver: S.Solver, enc, side: int, cap: int) -> tuple[int, list[tuple[int, int, int]]]:
    """``max_points``' narrowing (the kernels' ``_narrow``, no guess) replayed one probe at a
    time from Python, on one work array and one table as the kernel keeps them: the value and
    each probe's (target, fail-soft result, nodes)."""
    tt = solver._table()
    rs = solver._root(enc, side)
    W = solver._work(enc, side)
    W[K.ST_LIMIT] = cap
    lo, hi = 0, int(rs[K.RS_LEFT])
    up = down = 0
    mid = lo + int(NARROW["first"] * (hi - lo) + 0.5)
    probes = []
    while lo < hi:
        n0 = int(W[K.ST_NODES])
        w = np.array([mid - 1, mid], np.int64)
        K.value_kernel(W, tt[0], rs, w)
        if W[K.ST_ABORT]:
            raise S.BudgetExceeded("cap")
        cost = int(W[K.ST_NODES]) - n0
        r = int(w[0]) if w[0] >= mid else int(w[1])
        probes.append((mid, r, cost))
        if r >= mid:
            lo, up = r, cost
        else:
            hi, down = r, cost
        if hi - lo > NARROW["steps"]:
            mid = lo + max((hi - lo + 1) // NARROW["part"], 1)
        elif down >= up:
            mid = lo + 1
        else:
            mid = hi
    return lo, probes


def tricks_value(solver: S.Solver, enc, side: int, cap: int, abucket: int) -> tuple[int, int, int]:
    """The same deal searched for tricks (every card worth 0, a trick worth 1: its bridge-like
    structure, 56's ranks and two copies kept), fresh table: (tricks, nodes, trick starts)."""
    solver.clear()
    tt = solver._table()
    rs = solver._root(enc, side)
    W = solver._work(enc, side)
    W[K.O_PTS:K.O_PTS + K.MAX_CARDS] = 0
    W[K.O_PM] = -1
    W[K.O_PM + 1:K.O_PM + 4] = 0
    W[K.P_BONUS] = 1
    W[K.P_MAXPTS] = 0
    W[K.P_PAYOFF] = 0
    W[K.P_ABUCKET] = abucket
    W[K.ST_LIMIT] = cap
    tricks = int(rs[K.RS_NCARDS]) // int(W[K.P_NSEAT])
    rs[K.RS_LEFT] = tricks
    rs[K.RS_TPTS] = 0
    window = np.array([0, tricks], np.int64)
    K.value_kernel(W, tt[0], rs, window)
    if W[K.ST_ABORT]:
        raise S.BudgetExceeded("cap")
    starts = int(W[K.O_OUTCOME:K.O_OUTCOME + K.DEPTHS * K.OC_SIZE].sum())
    return int(window[0]), int(W[K.ST_NODES]), starts


def fresh_value(solver: S.Solver, enc, side: int, cap: int) -> int | None:
    """The deal's value from a fresh table and fresh counters (``solver.nodes`` then holds its
    search), or None past ``cap`` nodes."""
    solver.clear()
    solver.reset_counts()
    try:
        return solver.value(enc, side, max_nodes=cap)
    except S.BudgetExceeded:
        return None


def tricks_report(name: str, deals: list, cap: int, abucket: int) -> None:
    """Per deal: the points search's nodes against the same deal's tricks search."""
    solver = S.Solver()
    pn = tn = ps = ts = 0
    rows = []
    for i, (enc, side, _) in enumerate(deals):
        v = fresh_value(solver, enc, side, cap)
        if v is None:
            rows.append(f"{i}: capped")
            continue
        pts_nodes, pts_starts = solver.nodes, solver.trick_starts
        try:
            t, n, st = tricks_value(solver, enc, side, cap, abucket)
        except S.BudgetExceeded:
            rows.append(f"{i}: tricks capped")
            continue
        pn += pts_nodes
        ps += pts_starts
        tn += n
        ts += st
        rows.append(f"{i}: {v} pts {pts_nodes // 1000} k / {t} tricks {n // 1000} k")
    print(f"{name}: points against tricks (abstract bucket {abucket} for tricks), per deal: " + "; ".join(rows))
    print(f"  in all: points {pn / 1e6:.2f} M nodes ({ps / 1e6:.3f} M trick starts), tricks {tn / 1e6:.2f} M "
          f"({ts / 1e6:.3f} M): points / tricks {pn / max(tn, 1):.1f}x nodes, {ps / max(ts, 1):.1f}x trick starts")


def probes_report(name: str, deals: list, cap: int, brief: bool = False) -> None:
    """Per deal: the narrowing's probes, and their nodes against the two proofs alone."""
    solver = S.Solver()
    tw = tp = 0
    print(f"{name}: the narrowing's probes (target: result, k nodes; '>=' a success), then the two proofs")
    for i, d in enumerate(deals):
        if d is None:
            continue
        enc, side, _ = d
        solver.clear()
        solver.reset_counts()
        try:
            v, probes = narrowed(solver, enc, side, cap)
        except S.BudgetExceeded:
            print(f"  deal {i}: capped")
            continue
        solver.clear()
        solver.reset_counts()
        assert solver.value(enc, side, max_nodes=cap) == v
        # (the same probes from another epoch: the hash layout moves with it, so the nodes may
        # differ a little, never the value)
        real = solver.nodes
        whole = sum(p[2] for p in probes)
        pr = []
        if brief:
            tw += whole
            print(f"  deal {i}: v {v} whole {whole // 1000} k: " + " ".join(
                f"{t}:{'>=' if r >= t else '<='}{r},{c // 1000}" for t, r, c in probes))
            continue
        for t in (v, v + 1):
            solver.clear()
            solver.reset_counts()
            solver.probe(enc, side, t, max_nodes=cap)
            pr.append(solver.nodes)
        near = sum(c for t, _, c in probes if abs(t - v) <= 1 or t == v + 1)
        tw += whole
        tp += sum(pr)
        seq = " ".join(f"{t}:{'>=' if r >= t else '<='}{r},{c // 1000}" for t, r, c in probes)
        print(f"  deal {i}: v {v}  whole {whole // 1000} k ({real // 1000} k in Solver.value) = "
              f"{whole / max(sum(pr), 1):.2f}x the proofs "
              f"({pr[0] // 1000} + {pr[1] // 1000} k); probes at v-1..v+1 {near // 1000} k;  {seq}")
    if brief:
        print(f"  in all: whole {tw / 1e6:.3f} M (narrowing {NARROW})")
        return
    print(f"  in all: whole {tw / 1e6:.2f} M = {tw / max(tp, 1):.2f}x the two proofs ({tp / 1e6:.2f} M)")


def guess_report(name: str, deals: list, cap: int, errors: list[int]) -> None:
    """Whole solves with a guess at v + e (v the deal's value) against none: nodes."""
    solver = S.Solver()
    base = 0
    tot = dict.fromkeys(errors, 0)
    skipped = 0
    for enc, side, _ in deals:
        solver.clear()
        solver.reset_counts()
        try:
            v = solver.value(enc, side, max_nodes=cap)
        except S.BudgetExceeded:
            skipped += 1
            continue
        base += solver.nodes
        for e in errors:
            solver.clear()
            solver.reset_counts()
            assert solver.value(enc, side, guess=min(max(v + e, 0), enc.points_left()), max_nodes=10 * cap) == v
            tot[e] += solver.nodes
    print(f"{name}: no guess {base / 1e6:.2f} M nodes ({skipped} deals capped, left out); a guess off by e: "
          + "  ".join(f"{e:+d}: {tot[e] / 1e6:.2f} M ({tot[e] / max(base, 1):.2f})" for e in errors), flush=True)


def leads_report(name: str, deals: list, cap: int) -> None:
    """Every opening lead's value of each deal, chained as ``card_values`` does: nodes."""
    solver = S.Solver()
    total = leads = skipped = 0
    t0 = time.process_time()
    for enc, side, _ in deals:
        seat = enc.to_move
        kids = [enc.play(b) for b in range(K.MAX_CARDS) if (int(enc.h1[seat]) >> b) & 1]
        solver.clear()
        solver.reset_counts()
        try:
            S.child_values(kids, side, solver=solver, max_nodes=cap)
        except S.BudgetExceeded:
            skipped += 1
            continue
        total += solver.nodes
        leads += len(kids)
    print(f"{name}: every opening lead's value, {leads} leads: {total / 1e6:.2f} M nodes ({skipped} deals past the "
          f"cap a lead, left out); cpu {time.process_time() - t0:.2f} s", flush=True)


def plies_report(name: str, deals: list, cap: int) -> None:
    """Per deal, each of its two proofs (v, v + 1, fresh tables): the nodes at each card of a
    trick (0: the trick starts) at 6..2 tricks left, and the cards each seat's node tried on
    average (the next card's nodes over its own: a seat of the side that fails tries every
    card its equivalences leave)."""
    solver = S.Solver()
    for i, (enc, side, _) in enumerate(deals):
        v = fresh_value(solver, enc, side, cap)
        if v is None:
            print(f"{name} deal {i}: capped")
            continue
        n = enc.rules.seats
        for target in (v, v + 1):
            solver.clear()
            solver.reset_counts()
            ok = solver.probe(enc, side, target, max_nodes=cap)
            nd = solver.counts[:, 0]
            print(f"{name} deal {i}, proof at {target} ({'makes' if ok else 'fails'}): {solver.nodes / 1e6:.2f} M nodes")
            for t in range(6, 1, -1):
                row = [int(nd[t * n - k]) for k in range(n)]
                if not any(row):
                    continue
                tried = " ".join(f"{row[k + 1] / max(row[k], 1):.2f}" for k in range(1, n - 1))
                print(f"  {t} tricks left: nodes per card of the trick {' '.join(f'{x / 1e3:.0f}k' for x in row)};"
                      f" cards tried by seats 2..{n - 1} of the trick: {tried}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="4x12,6x8,8x8")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--cap", type=int, default=30_000_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--exact", type=int, default=encode.EXACT_TRICKS,
                    help="endings of this many tricks searched with the full window (the product: 0)")
    ap.add_argument("--proofs", action="store_true", help="also each deal's two single proofs")
    ap.add_argument("--depths", action="store_true")
    ap.add_argument("--abucket", type=int, default=0,
                    help="abstract entries per suit-length pattern for 56 (a power of two; the product: 4)")
    ap.add_argument("--plies", action="store_true",
                    help="each deal's two proofs: the nodes at each card of a trick, 6..2 tricks left")
    ap.add_argument("--probes", action="store_true", help="the narrowing's probes one by one, per deal")
    ap.add_argument("--narrow", default="0.5,3,5",
                    help="with --probes: the first probe's place in the window, the part of the window "
                         "stepped up after it, the width below which it steps by one (the kernels': 0.5,3,5)")
    ap.add_argument("--tricks", type=int, default=0, metavar="ABUCKET",
                    help="the same deals searched for tricks instead of points, with this abstract bucket")
    ap.add_argument("--guess-errors", default="", help="whole solves given a guess off the value by these points")
    ap.add_argument("--leads", action="store_true", help="every opening lead's value, chained as card_values")
    ap.add_argument("--brief", action="store_true", help="with --probes: no proofs, the probes only")
    ap.add_argument("--skip", default="", help="deals to leave out, e.g. 4,7 (4 x 12's capped deals)")
    ap.add_argument("--only", type=int, default=-1, help="only this deal of each set (0-based)")
    ap.add_argument("--solver-bench", action="store_true",
                    help="bench/solver.py's deals (12 a set-up, 4 at 8 x 8) instead of solver_nodes' seed-2026 sets")
    args = ap.parse_args()
    f, part, steps = args.narrow.split(",")
    NARROW.update(first=float(f), part=int(part), steps=int(steps))
    pick = SN.deals_of
    if args.solver_bench:
        pick = bench_solver_deals
    if args.only >= 0:
        SN.deals_of = lambda name, deals, seed: pick(name, args.only + 1, seed)[args.only:]
    else:
        SN.deals_of = pick
    if args.abucket:
        plain = S.work_array

        def work_array(enc, side):
            W = plain(enc, side)
            if enc.rules.name != "bridge":
                W[K.P_ABUCKET] = args.abucket
            return W
        S.work_array = work_array
    encode.EXACT_TRICKS = args.exact
    encode._work_template.cache_clear()
    S.warm_up()
    print(f"exact endings of {args.exact} tricks or fewer; node cap {args.cap:,}")
    for name in args.sets.split(","):
        deals = args.deals * (3 if name == "6x8" else 1)
        if args.solver_bench:
            deals = 4 if name == "8x8" else 12
        if args.only >= 0:
            deals = 1
        if args.guess_errors:
            guess_report(name, SN.deals_of(name, deals, args.seed), args.cap,
                         [int(x) for x in args.guess_errors.split(",")])
            continue
        if args.leads:
            leads_report(name, SN.deals_of(name, deals, args.seed), args.cap)
            continue
        if args.plies:
            plies_report(name, SN.deals_of(name, deals, args.seed), args.cap)
            continue
        if args.tricks:
            tricks_report(name, SN.deals_of(name, deals, args.seed), args.cap, args.tricks)
            continue
        if args.probes:
            skip = {int(x) for x in args.skip.split(",") if x}
            probes_report(name, [d if i not in skip else None for i, d in enumerate(SN.deals_of(name, deals, args.seed))],
                          args.cap, args.brief)
            continue
        SN.run(name, deals, args.cap, S.DEFAULT_TABLE_MB, args.seed, args.proofs, args.depths, None)


if __name__ == "__main__":
    main()
