"""What would a bound for the weak side save where the strong side leads? Issue 41, session 9.

An oracle in a throwaway copy of the kernels (``analyser/_kernels.py`` patched in memory, written
to a scratch folder and imported in its place, as bench/research/equivalence.py does: the
product's file is never touched): at each trick start that ``_start`` leaves to search, with
``lo``..``hi`` cards left, led by the strong side (the side other than ``--weak``'s), the
position is solved exactly (a full window, in a second table: the main one is halved for every
run of this tool, the baseline included; the oracle's own nodes are not counted) and returned as
the weak side's bound ``m - 1`` points short of the truth when that still settles the window in
the weak side's favour (the weak side reaches its target; ``m = 1``: a perfect bound). The cards
it rests on are those of the exact search, as a bound's ``W[P_QM]``. So the node counts say what
a sound sure-points bound for the side not on lead, within ``m`` points of the truth, would save.

Runs: ``--what goal``: bench/solver.py's 8 x 8 deal 3 (``max_points`` at the bench's epoch; the
weak side is the maximising one, 8 of 56); ``--what estimate``: bench/estimate_nodes.py's hand
``--hand``, seat 1 on lead, its first ``--deals`` deals (the weak side is the defenders, the
minimising one). ``--specs "m,lo,hi;..."``; ``1,99,0`` never fires: the halved table's baseline.

    nice -n 15 .venv/bin/python -m bench.research.weak_oracle --what goal --specs "1,99,0;1,32,40;2,32,40"
    nice -n 15 .venv/bin/python -m bench.research.weak_oracle --what estimate --hand 7 --deals 50 \\
        --specs "1,99,0;1,24,42;4,24,42"
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.research.patched import patched_kernels

# (the oracle's control words: the depth rows' spare row, 65, of ``O_OUTCOME``: m, hi, the second
# table's offset, the count of settled trick starts, lo, the weak side's ``O_ISMAX`` value)
ORC = "(O_OUTCOME + OC_SIZE * 65)"
PATCH = [
    ("@intrinsic\ndef _ptr(typingctx, arr):",
     "@intrinsic\ndef _padd(typingctx, p, n):\n    sig = p(p, n)\n\n    def codegen(context, builder, signature, args):\n"
     "        return builder.gep(args[0], [args[1]])\n\n    return sig, codegen\n\n\n"
     "@intrinsic\ndef _ptr(typingctx, arr):"),
    ("        beta = W[o + TS_BETA]\n    a0 = alpha\n",
     "        beta = W[o + TS_BETA]\n"
     f"        fo = {ORC}\n"
     "        if W[fo] > 0 and ncards <= W[fo + 1] and ncards >= W[fo + 4] and W[O_ISMAX + seat] != W[fo + 5]:\n"
     "            om = W[fo]\n            W[fo] = 0\n"
     "            sv = np.zeros(TS_SIZE, np.int64)\n"
     "            for k_ in range(TS_SIZE):\n                sv[k_] = W[o + k_]\n"
     "            sn = W[ST_NODES]\n            sl = W[ST_LIMIT]\n            W[ST_LIMIT] = np.int64(1) << 60\n"
     "            tv = _ab(W, _padd(T, W[fo + 2]), np.int64(-1), left + 1, seat, tlen, lsuit, wseat, wcard,"
     " tpts, tcards, left, key, ncards)\n"
     "            W[ST_NODES] = sn\n            W[ST_LIMIT] = sl\n            W[fo] = om\n"
     "            for k_ in range(TS_SIZE):\n                W[o + k_] = sv[k_]\n"
     "            if W[fo + 5] == 1 and tv - (om - 1) >= beta:\n"
     "                W[fo + 3] += 1\n                return tv - (om - 1)\n"
     "            if W[fo + 5] == 0 and tv + (om - 1) <= alpha:\n"
     "                W[fo + 3] += 1\n                return tv + (om - 1)\n"
     "    a0 = alpha\n"),
]
SETUP = ("    _setup(W, T.shape[0])\n",
         f"    if W[{ORC}] != 0:\n        _setup(W, T.shape[0] // 2)\n        W[{ORC} + 2] = T.shape[0] // 2\n"
         "    else:\n        _setup(W, T.shape[0])\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--what", choices=("goal", "estimate"), default="goal")
    ap.add_argument("--hand", type=int, default=7)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--specs", default="1,99,0;1,32,40")
    args = ap.parse_args()
    K = patched_kernels([*PATCH, (*SETUP, 2)], "fiftysix_weak_oracle")
    from fiftysix.analyser import solver as S
    fo = K.O_OUTCOME + K.OC_SIZE * 65
    cfg: dict[str, int] = {}
    fired = [0]
    plain_work = S.Solver._work
    plain_count = S.Solver._count

    def _work(self, enc, side, window_bound=None):
        W = plain_work(self, enc, side, window_bound)
        W[fo], W[fo + 1], W[fo + 4], W[fo + 5] = cfg["m"], cfg["hi"], cfg["lo"], cfg["weak"]
        return W

    def _count(self, W):
        plain_count(self, W)
        fired[0] += int(W[fo + 3])

    S.Solver._work = _work  # type: ignore[method-assign]
    S.Solver._count = _count  # type: ignore[method-assign]

    def goal() -> tuple[str, int]:
        from bench import solver_nodes as SN
        from fiftysix.cards import Table, random_deal
        players, deck = SN.SETS["8x8"]
        tab = Table(players, deck)
        rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
        for _ in range(4):
            deal = random_deal(tab, seed=rng.randrange(10 ** 9))
            trump = rng.choice((0, 1, 2, 3, None))
        solver = S.Solver(S.DEFAULT_TABLE_MB)
        warm = random_deal(tab, seed=0)
        S.solve(S.Position(tab, warm.hands, 0, 1), 28, 0, max_nodes=10 ** 6, solver=solver)
        solver.epoch = 9
        solver.clear()
        solver.nodes = 0
        value = S.max_points(S.Position(tab, deal.hands, trump, 1), max_seconds=6000, solver=solver)[0]
        return str(value), solver.nodes

    def estimate() -> tuple[str, int]:
        from bench import estimate_nodes as EN
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            nodes, _ = EN.run(6, args.hand, 1, args.deals, True, 5)
        return out.getvalue().split("values ")[1][:10], nodes

    for spec in args.specs.split(";"):
        m, lo, hi = (int(x) for x in spec.split(","))
        cfg.update(m=m, lo=lo, hi=hi, weak=1 if args.what == "goal" else 0)
        fired[0] = 0
        t0 = time.time()
        value, nodes = goal() if args.what == "goal" else estimate()
        print(f"{args.what}: m = {m}, {lo}-{hi} cards left: value {value}, {nodes:,} nodes, "
              f"{fired[0]:,} trick starts settled by the oracle ({time.time() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
