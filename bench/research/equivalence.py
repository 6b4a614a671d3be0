"""Do 56's searched trick starts repeat under the duplicate cards' equivalences? Issue 41, session 7.

Runs one deal's search with a throwaway copy of the kernels (``analyser/_kernels.py`` patched
in memory, written to a scratch folder and imported in its place: the product's file is never
touched) that records every trick start the lookups left to search, when its result is
stored: cards left, leader, rank counts ``kv``, result, window, points left, the nodes of its
subtree and every seat's ``h1`` / ``h2``. The node count is the product's, node for node.

Then replays the stores in order against three tables of unlimited size, and for every
``--sample``-th searched trick start asks whether an earlier store would have decided its
window (the same cards left and leader; bounds merged per key as ``_tt_store`` merges them):

* **exact**: the same position (a lost or replaced exact entry);
* **abstract**: the same key as the kernels' abstract entries at an earlier entry's rank
  counts (the top k distinct cards left per suit with their holders, points and copies, and
  below them how many cards of each points value each seat holds): what the 4-entry buckets
  lost to capacity;
* **merged**, only where abstract did not: the same key once each suit's runs of equal cards
  are merged: distinct cards next to each other among the cards left, all copies of each in
  one seat's hand, of equal points (a seat's K, Q, 8 with no other hand holding a card
  between them, or its two copies of a card beside a third card) are one group of n units,
  and a key's top covers the whole group its lowest relevant card is in. Such positions
  play alike (one seat's units of a group never meet in a trick, and every other card is
  above or below them all), so any entry of one serves the other.

Also how many searched positions hold such a run anywhere. ``--bench N``: bench/solver.py's
deal N of the set-up (its ``max_points`` at the bench's epoch, ``max_seconds``); else
bench/solver_nodes.py's deal ``--only`` of ``--sets`` / ``--seed`` (``Solver.value``).

    nice -n 15 .venv/bin/python -m bench.research.equivalence --sets 8x8 --bench 3 [--sample 20]
    nice -n 15 .venv/bin/python -m bench.research.equivalence --sets 8x8 --seed 2027 --only 0
"""
from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict

import numpy as np

from bench.research.patched import patched_kernels

# (the throwaway record: where the kernels' source is changed, each replacement once)
DUMPREC = 24
PATCH = [
    ("W_SIZE = WORK.size\n",
     'O_DN = WORK.add("O_DN", DEPTHS, "dump: the node count at a searched trick start")\n'
     f"DUMPREC = {DUMPREC}\nDUMPN = 1_000_000\n"
     'O_DUMP = WORK.add("O_DUMP", 1 + DUMPREC * DUMPN, "dump: records of searched trick starts")\n'
     "W_SIZE = WORK.size\n"),
    ("    W[oc + OC_SEARCHED] += 1\n    return np.int64(-1)",
     "    W[oc + OC_SEARCHED] += 1\n    W[O_DN + ncards] = W[ST_NODES]\n    return np.int64(-1)"),
    ("    kv = _kvec(W, rel)\n    _tt_store(T, ix, 2, _xkey(key, seat)",
     "    kv = _kvec(W, rel)\n"
     "    dn = W[O_DUMP]\n"
     "    if dn < DUMPN and W[ST_ABORT] == 0:\n"
     "        do = O_DUMP + 1 + DUMPREC * dn\n"
     "        W[do] = ncards\n        W[do + 1] = seat\n        W[do + 2] = kv\n        W[do + 3] = res\n"
     "        W[do + 4] = a0\n        W[do + 5] = b0\n        W[do + 6] = left\n"
     "        W[do + 7] = W[ST_NODES] - W[O_DN + ncards]\n"
     "        for s_ in range(nseat):\n"
     "            W[do + 8 + s_] = W[O_H1 + s_]\n            W[do + 16 + s_] = W[O_H2 + s_]\n"
     "        W[O_DUMP] = dn + 1\n"
     "    _tt_store(T, ix, 2, _xkey(key, seat)"),
]


def record(args):
    """Run the deal; returns (records, card points, seats, nodes)."""
    K = patched_kernels(PATCH, "fiftysix_equivalence")
    from bench import solver_nodes as SN
    from fiftysix.analyser import solver as S
    from fiftysix.cards import Table, random_deal
    grab = {}
    plain_count = S.Solver._count

    def _count(self, W):
        plain_count(self, W)
        n = int(W[K.O_DUMP])
        grab["rec"] = W[K.O_DUMP + 1:K.O_DUMP + 1 + DUMPREC * n].reshape(n, DUMPREC).copy()
        grab["pts"] = W[K.O_PTS:K.O_PTS + 64].copy()
        grab["nseat"] = int(W[K.P_NSEAT])
    S.Solver._count = _count
    players, deck = SN.SETS[args.sets]
    solver = S.Solver(S.DEFAULT_TABLE_MB)
    if args.bench >= 0:
        # bench/solver.py's deal: its seeds, its warm search, its epoch (three clears a deal)
        tab = Table(players, deck)
        rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
        for _ in range(args.bench + 1):
            deal = random_deal(tab, seed=rng.randrange(10 ** 9))
            trump = rng.choice((0, 1, 2, 3, None))
        pos = S.Position(tab, deal.hands, trump, 1)
        warm = random_deal(tab, seed=0)
        S.solve(S.Position(tab, warm.hands, 0, 1), 28, 0, max_nodes=10 ** 6, solver=solver)
        solver.epoch = 3 * args.bench
        solver.clear()
        solver.nodes = 0
        value = S.max_points(pos, max_seconds=600, solver=solver)[0]
    else:
        enc, side, _ = SN.deals_of(args.sets, args.only + 1, args.seed)[args.only]
        solver.clear()
        value = solver.value(enc, side, max_nodes=args.cap)
    print(f"{args.sets} {'bench deal ' + str(args.bench) if args.bench >= 0 else f'seed {args.seed} deal {args.only}'}:"
          f" value {value}, nodes {solver.nodes:,}, searched trick starts stored {len(grab['rec']):,}")
    return grab["rec"], grab["pts"], grab["nseat"]


class Pos:
    """A recorded position's suits as distinct cards and as merged groups."""

    def __init__(self, r, pts, nseat):
        self.h1 = [int(x) for x in r[8:8 + nseat]]
        self.h2 = [int(x) for x in r[16:16 + nseat]]
        self.nseat = nseat
        self.suits = [self._suit(su, pts) for su in range(4)]
        self.cache = {}

    def _suit(self, su, pts):
        u = 0
        for h in self.h1:
            u |= (h >> (16 * su)) & 0xFFFF
        dist = []
        while u:
            b = u & -u
            u ^= b
            c = 16 * su + b.bit_length() - 1
            hol = tuple((s, 2 if (self.h2[s] >> c) & 1 else 1) for s in range(self.nseat) if (self.h1[s] >> c) & 1)
            dist.append((hol, int(pts[c])))
        groups, where = [], []
        for hol, p in dist:
            if groups and len(hol) == 1 and groups[-1][3] and groups[-1][0] == hol[0][0] and groups[-1][1] == p:
                s, _, n, _ = groups[-1]
                groups[-1] = (s, p, n + hol[0][1], True)
            elif len(hol) == 1:
                groups.append((hol[0][0], p, hol[0][1], True))
            else:
                groups.append((hol, p, 2, False))
            where.append(len(groups))
        return dist, groups, where

    def merges(self):
        return any(len(g) < len(d) for d, g, _ in self.suits)

    def plain(self, kv):
        out = []
        for su in range(4):
            k = (kv >> (5 * su)) & 31
            key = ("p", su, k)
            if key not in self.cache:
                dist = self.suits[su][0]
                units = Counter((s, p) for hol, p in dist[k:] for s, c in hol for _ in range(c))
                self.cache[key] = (tuple(dist[:k]), tuple(sorted(units.items())))
            out.append(self.cache[key])
        return tuple(out)

    def levels(self, kv):
        """Per suit, the groups covering the top k distinct cards of ``kv``."""
        out = []
        for su in range(4):
            dist, _, where = self.suits[su]
            k = min((kv >> (5 * su)) & 31, len(dist))
            out.append(where[k - 1] if k else 0)
        return tuple(out)

    def merged(self, lv):
        out = []
        for su in range(4):
            key = ("m", su, lv[su])
            if key not in self.cache:
                groups = self.suits[su][1]
                units = Counter()
                for g in groups[lv[su]:]:
                    if g[3]:
                        units[(g[0], g[1])] += g[2]
                    else:
                        for s, c in g[0]:
                            units[(s, g[1])] += c
                self.cache[key] = (tuple(groups[:lv[su]]), tuple(sorted(units.items())))
            out.append(self.cache[key])
        return tuple(out)


def replay(rec, pts, nseat, sample):
    def decides(e, a, b):
        return e is not None and (e[0] >= b or e[1] <= a or e[0] == e[1])

    def merge(d, key, lb, ub):
        o = d.get(key)
        if o is None:
            d[key] = [lb, ub]
        else:
            o[0], o[1] = max(o[0], lb), min(o[1], ub)
    exact = {}
    plain = defaultdict(lambda: defaultdict(dict))
    merged = defaultdict(lambda: defaultdict(dict))
    st = defaultdict(lambda: np.zeros(10))
    for i, r in enumerate(rec):
        nc, seat, kv, res, a0, b0, _left, nodes = (int(x) for x in r[:8])
        P = Pos(r, pts, nseat)
        lb, ub = (0, res) if res <= a0 else (res, 10 ** 6) if res >= b0 else (res, res)
        g = (nc, seat)
        xk = (g, tuple(P.h1), tuple(P.h2))
        if i % sample == 0:
            s = st[nc // nseat]
            s[0] += 1
            s[1] += nodes
            s[8] += P.merges()
            if decides(exact.get(xk), a0, b0):
                s[2] += 1
                s[3] += nodes
            if any(decides(d.get(P.plain(k)), a0, b0) for k, d in plain[g].items()):
                s[4] += 1
                s[5] += nodes
            elif any(decides(d.get(P.merged(lv)), a0, b0) for lv, d in merged[g].items()):
                s[6] += 1
                s[7] += nodes
        merge(exact, xk, lb, ub)
        merge(plain[g][kv], P.plain(kv), lb, ub)
        lv = P.levels(kv)
        merge(merged[g][lv], P.merged(lv), lb, ub)
    print(f"every {sample}th searched trick start checked; 'nodes' = the nodes of their subtrees")
    print("tricks left  checked  with a run | decided by an earlier store: exact | abstract | merged only")
    for t in sorted(st, reverse=True):
        s = st[t]
        n, w = max(s[0], 1), max(s[1], 1)
        print(f"{t:11d} {int(s[0]):8d}  {s[8] / n:9.1%} | {s[2] / n:6.1%} ({s[3] / w:5.1%} of nodes) | {s[4] / n:6.1%} "
              f"({s[5] / w:5.1%}) | {s[6] / n:6.1%} ({s[7] / w:5.1%})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="8x8")
    ap.add_argument("--bench", type=int, default=-1, help="bench/solver.py's deal N of the set-up")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", type=int, default=0)
    ap.add_argument("--cap", type=int, default=30_000_000)
    ap.add_argument("--sample", type=int, default=20)
    args = ap.parse_args()
    rec, pts, nseat = record(args)
    replay(rec, pts, nseat, args.sample)


if __name__ == "__main__":
    main()
