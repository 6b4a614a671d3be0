"""Benchmark of the double-dummy solver: times and node counts per table set-up, and bridge.

The same kernels on bridge against DDS (endplay) on the same deals in the same run.

    .venv/bin/python -m bench.solver [--deals 12] [--cap 60] [--bridge 8] [--quick]
        [--setups 4x8,4x12,6x8,8x6,8x8] [--table-mb 48] [--cpu]

Every table set-up (4 x 8, 4 x 12, 6 x 8, 8 x 6, 8 x 8) and bridge, DDS timed in the same
run. One thread, after warm-up (and the table again with the five trumps in parallel threads).
Every solver's transposition table is ``--table-mb`` MB (the bound the app's
``FIFTYSIX_SOLVER_MB`` sets); the peak resident memory of the run is printed at the end.
Each search starts from a fresh transposition table (a new epoch), so a figure never profits from an earlier search of the same deal. ``solve`` is
timed at the deal's value (a proof that it makes) and at value + 1 (a proof that it does
not). A search that runs past ``--cap`` seconds is counted at the cap and reported.
``--cpu`` times every search (DDS's too) in this process's CPU seconds: on a loaded shared
machine wall seconds measure the load as much as the search.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from fiftysix.analyser import bridge
from fiftysix.analyser import solver as S
from fiftysix.analyser.encode import card_bit
from fiftysix.cards import Table, random_deal

PAR_THREADS = min(5, os.cpu_count() or 1)


CLOCK = [time.perf_counter]  # --cpu: this process's CPU seconds instead (a loaded shared machine)


def timed(fn):
    t = CLOCK[0]()
    try:
        out = fn()
        return CLOCK[0]() - t, out, False
    except S.BudgetExceeded:
        return CLOCK[0]() - t, None, True


def _played(deal, trump, n: int):
    """The play state after ``n`` cards, each the first legal card (seat 1 leads)."""
    from fiftysix.play import PlayState
    st = PlayState(deal, trump, leader=1, early_stop=False)
    for _ in range(n):
        st.play(st.legal_cards()[0])
    return st


def stats(xs: list[float]) -> str:
    a = np.array(xs)
    return f"median {np.median(a) * 1e3:9.2f} ms  p95 {np.percentile(a, 95) * 1e3:9.2f} ms  max {a.max() * 1e3:9.2f} ms"


# "players x hand size" -> (players, deck, deals as a multiple of --deals, tables as at most)
SETUPS = {"4x8": (4, 32, 3.0, 3), "4x12": (4, 48, 1.0, 3), "6x8": (6, 48, 1.0, 3),
          "8x6": (8, 48, 1.0, 3), "8x8": (8, 64, 1 / 3, 1)}


def bench_setup(players: int, deck: int, deals: int, cap: float, tables: int, table_mb: float) -> None:
    tab = Table(players, deck)
    # the seeds of the set-ups timed before 4 x 12 and 8 x 6 joined stay as they were
    rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
    solver = S.Solver(table_mb)
    cv_solver = S.Solver(table_mb)
    # an untimed search first, and every page of the table written: a long-lived solver's
    # table (the app's) has its memory mapped; the first deals should not pay the page faults
    warm = random_deal(tab, seed=0)
    timed(lambda: S.solve(S.Position(tab, warm.hands, 0, 1), 28, 0, max_nodes=10 ** 6, solver=solver))
    solver._table()[0][::512] = 0
    cv_solver._table()[0][::512] = 0
    if tables:
        # and the kept per-trump solvers' tables, which the parallel table uses
        timed(lambda: S.table(warm, max_seconds=cap, threads=PAR_THREADS))
    t_solve, t_max, t_table, t_par, n_solve, n_max, capped = [], [], [], [], [], [], 0
    t_cv, t_cv0 = [], []  # card_values, and the same values searched without guesses
    per_deal = []  # max_points against the two probes any exact answer needs (at v and v + 1)
    pairs = []  # those two probes' time per deal: what max_points would cost knowing the value
    for i in range(deals):
        deal = random_deal(tab, seed=rng.randrange(10 ** 9))
        trump = rng.choice((0, 1, 2, 3, None))
        pos = S.Position(tab, deal.hands, trump, 1)
        solver.clear()
        solver.nodes = 0
        dt, res, over = timed(lambda: S.max_points(pos, max_seconds=cap, solver=solver))
        t_max.append(dt)
        n_max.append(solver.nodes)
        capped += over
        if over:
            continue
        v = res[0]
        pair = 0.0
        for target in (v, v + 1):
            solver.clear()
            solver.nodes = 0
            dt, _, over = timed(lambda: S.solve(pos, target, 0, max_seconds=cap, solver=solver))
            t_solve.append(dt)
            n_solve.append(solver.nodes)
            capped += over
            pair += dt
        per_deal.append(t_max[-1] / pair)
        pairs.append(pair)
        if players <= 6 and tab.hand_size <= 8:
            # each legal card's value at the opening lead and at the second trick's second
            # card (a solver of its own: the other figures keep their table history);
            # card_values guesses each card at the value of the one before
            for cards_played in (0, players + 1):
                cpos = S.Position.from_state(_played(deal, trump, cards_played))
                cv_solver.clear()
                dt, _, over = timed(lambda: S.card_values(cpos, max_seconds=cap, solver=cv_solver))
                t_cv.append(dt)
                capped += over
                cv_solver.clear()
                enc = cpos.encoded()
                team = tab.team_of(cpos.to_move)
                dt, _, over = timed(lambda: [cv_solver.value(enc.play(card_bit(c)), team, max_seconds=cap)
                                             for c in cpos.legal_cards()])
                t_cv0.append(dt)
                capped += over
        if i < tables:
            solver.clear()
            dt, seq, over = timed(lambda: S.table(deal, max_seconds=cap, solver=solver))
            t_table.append(dt)
            capped += over
            # the same table with the five trumps in parallel threads (each its own table,
            # cleared: no entries from earlier deals)
            S.clear_solvers()
            dt, par, over = timed(lambda: S.table(deal, max_seconds=cap, threads=PAR_THREADS))
            assert over or seq is None or par == seq
            t_par.append(dt)
            capped += over
    print(f"\n{players} x {tab.hand_size} ({tab.deck} cards), {deals} deals, cap {cap:g} s, capped searches: {capped}")
    if t_solve:
        print(f"  solve      {stats(t_solve)}   nodes median {int(np.median(n_solve))} max {max(n_solve)}")
    print(f"  max_points {stats(t_max)}   nodes median {int(np.median(n_max))} max {max(n_max)}")
    if t_cv:
        print(f"  card_values {stats(t_cv)}   ({len(t_cv)} positions; total {sum(t_cv):.2f} s)")
        print(f"  card_values without guesses {stats(t_cv0)}   (total {sum(t_cv0):.2f} s; ratio of "
              f"totals x{sum(t_cv) / sum(t_cv0):.2f})")
    if t_table:
        print(f"  table      {stats(t_table)}   ({len(t_table)} deals)")
        print(f"  table, {PAR_THREADS} threads {stats(t_par)}   speed-up x{np.median(t_table) / np.median(t_par):.2f}")
    if t_solve:
        print(f"  max_points / solve (medians): {np.median(t_max) / np.median(t_solve):.1f}; per deal, max_points / "
              f"(solve at v + solve at v + 1): median {np.median(per_deal):.2f}, max {max(per_deal):.2f}")
        print(f"  knowing the value, the two proofs alone (solve at v + solve at v + 1): median "
              f"{np.median(pairs) * 1e3:.2f} ms = {np.median(pairs) / np.median(t_solve):.1f}x the solve median")


def bridge_deal(rng: random.Random) -> tuple[str, int, int]:
    """A random bridge deal: its PBN text, the seat on lead and the trump (4: no-trump)."""
    return bridge.random_pbn(rng), rng.randrange(4), rng.randrange(5)


def bench_bridge(deals: int, cap: float, table_mb: float) -> None:
    """fiftysix.analyser.bridge.tricks against DDS (endplay's solve_board) on the same seeded deals."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as BDeal
    from endplay.types import Denom, Player

    rng = random.Random(13)
    solver = S.Solver(table_mb)
    ratios, ours, dds, nodes, agree, capped = [], [], [], [], 0, 0
    for _ in range(deals):
        text, first, trump = bridge_deal(rng)
        deal = BDeal.from_pbn(text)
        deal.first, deal.trump = Player(first), Denom(trump)
        t = CLOCK[0]()
        want = max(tr for _, tr in solve_board(deal, SolveMode.OptimalOne))
        td = CLOCK[0]() - t
        solver.clear()
        solver.nodes = 0
        dt, got, over = timed(lambda: bridge.tricks(text, trump, first, solver=solver, max_seconds=cap))
        capped += over
        agree += (got == want)
        ours.append(dt)
        dds.append(td)
        nodes.append(solver.nodes)
        ratios.append(dt / td)
    print(f"\nbridge full deals, {deals} deals (tricks for the side on lead), cap {cap:g} s")
    print(f"  ours {stats(ours)}   nodes median {int(np.median(nodes))} max {max(nodes)} total {sum(nodes)}")
    print(f"  DDS  {stats(dds)}")
    print(f"  ours/DDS: medians {np.median(ours) / np.median(dds):.1f}x, 90th percentiles "
          f"{np.percentile(ours, 90) / np.percentile(dds, 90):.1f}x, 95th percentiles "
          f"{np.percentile(ours, 95) / np.percentile(dds, 95):.1f}x; per deal median {np.median(ratios):.1f}x "
          f"(geometric mean {math.exp(np.mean(np.log(ratios))):.1f}x); same trick count on {agree}/{deals}; "
          f"capped {capped}")


def cold_compile() -> None:
    """Seconds for warm_up() in a fresh process with an empty numba cache, then with the cache."""
    import tempfile
    code = "from fiftysix.analyser.solver import warm_up; print(warm_up())"
    root = str(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        cold = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                              check=False)
        warm = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                              check=False)
    print(f"warm_up(): cold compile {float(cold.stdout.strip() or 'nan'):.1f} s, from cache {float(warm.stdout.strip() or 'nan'):.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--bridge", type=int, default=6)
    ap.add_argument("--tables", type=int, default=3, help="deals of each set-up timed for table()")
    ap.add_argument("--setups", default=",".join(SETUPS),
                    help=f"table set-ups to time, players x hand size, of {','.join(SETUPS)} ('' for none)")
    ap.add_argument("--table-mb", type=float, default=S.DEFAULT_TABLE_MB,
                    help="transposition table of each solver, MB (the parallel table's five too)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile timing")
    ap.add_argument("--quick", action="store_true", help="fewer deals, for a smoke run")
    ap.add_argument("--cpu", action="store_true",
                    help="time in this process's CPU seconds, not wall seconds (DDS too: both run in this thread)")
    args = ap.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    if args.quick:
        args.deals, args.bridge, args.tables, args.cap = 3, 2, 1, 10.0
    print(f"solver benchmark, {time.strftime('%Y-%m-%d %H:%M')}, one thread, python {sys.version.split()[0]}, "
          f"tables of {args.table_mb:g} MB, "
          f"{'CPU' if args.cpu else 'wall'} seconds, load {os.getloadavg()[0]:.1f}")
    if not args.no_compile:
        cold_compile()
    os.environ["FIFTYSIX_SOLVER_MB"] = str(args.table_mb)  # the parallel table's solvers
    S.warm_up()
    for name in [x.strip().replace(" ", "") for x in args.setups.split(",") if x.strip()]:
        name = {"4": "4x8", "6": "6x8", "8": "8x8"}.get(name, name)  # (the older spelling: players only)
        if name not in SETUPS:
            sys.exit(f"bench/solver.py: unknown set-up {name!r}: use {', '.join(SETUPS)}")
        players, deck, share, most_tables = SETUPS[name]
        bench_setup(players, deck, max(2, round(args.deals * share)), args.cap, min(args.tables, most_tables),
                    args.table_mb)
    if args.bridge:
        bench_bridge(args.bridge, args.cap, args.table_mb)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    huge = ""
    if os.path.exists("/proc/self/smaps_rollup"):
        for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
            if line.startswith("AnonHugePages:"):
                huge = f" ({int(line.split()[1]) / 1024:.0f} MB of it on 2 MB pages)"
    print(f"\npeak resident memory of this process: {peak:.0f} MB{huge}")


if __name__ == "__main__":
    main()
