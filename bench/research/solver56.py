"""56's search measured against its single proofs, with a rules constant changed: issue 41 item 2.

Node counts only (exact; the machine's load does not move them). For each of
bench/solver_nodes.py's seeded sets: the whole solve (``max_points``' narrowing) and, with
``--proofs``, each deal's two single proofs instead (at its value v and at v + 1, fresh
tables), beside the whole solves of the same deals: the narrowing's cost against the least
any exact answer needs.

    nice -n 15 .venv/bin/python -m bench.research.solver56 [--sets 4x12,6x8,8x8] [--exact 3]
        [--proofs] [--depths] [--cap 30000000] [--solver-bench] [--only N] [--abucket 128]

``--exact K``: endings of K tricks or fewer are searched with the full window whatever the
target (``encode.EXACT_TRICKS``, 0 in the product), so that their table entries are exact
and serve every later probe. ``--abucket N``: 56's abstract entries per suit-length pattern
(bridge's 128 lever; 4 in the product). Findings go in bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import random

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
    ap.add_argument("--only", type=int, default=-1, help="only this deal of each set (0-based)")
    ap.add_argument("--solver-bench", action="store_true",
                    help="bench/solver.py's deals (12 a set-up, 4 at 8 x 8) instead of solver_nodes' seed-2026 sets")
    args = ap.parse_args()
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
        SN.run(name, deals, args.cap, S.DEFAULT_TABLE_MB, args.seed, args.proofs, args.depths, None)


if __name__ == "__main__":
    main()
