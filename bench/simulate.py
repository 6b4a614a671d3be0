"""Benchmark of the Monte Carlo makeable estimate at the start of play, against DDS.

Issue 19's figures, with DDS (endplay) timed in the same run as the yardstick.

    .venv/bin/python -m bench.simulate [--deals 200] [--threads 2] [--cap 60] [--setups 4,6,8,4x12]

For each table: the full answer (rate with its Wilson interval, points histogram, every
lead's rate and mean points, the card grid) over ``--deals`` deals, seen from the seat on
lead (seat 1) and from a seat not on lead (seat 2); the contract 30 in spades by seat 2.
Wall time, the time to the first estimate (the first ``on_update``), and the yes/no-only
run; and the CPU time of this process over the line, a deal's share of it (steadier than wall
time on a shared machine). DDS solves of full bridge deals (bench/solver.py's, seed 13) are timed before and after each
line and their median is the yardstick: "= k DDS" is the wall time over one DDS solve's mean time (the issue's
goals: 2 s = about 175 DDS solves, 11.4 ms a solve). A line that runs past ``--cap`` s stops
there and says how many deals it solved. Also: the time to generate one "Makeable?" drill
question.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

from fiftysix.analyser import solver as S
from fiftysix.analyser.dealer import View
from fiftysix.analyser.simulate import estimate
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import Contract

DDS_MS_IN_ISSUE = 2000 / 175  # the issue's yardstick: 2 s = about 175 DDS solves


def dds_deals(k: int, seed: int) -> list:
    """bench/solver.py's bridge deals (same seed, same deals) as endplay deals."""
    from endplay.types import Deal as BDeal
    from endplay.types import Denom, Player

    from bench.solver import bridge_deal  # bench/solver.py
    rng = random.Random(seed)
    out = []
    for _ in range(k):
        text, first, trump = bridge_deal(rng)
        d = BDeal.from_pbn(text)
        d.first, d.trump = Player(first), Denom(trump)
        out.append(d)
    return out


def dds_median(deals: list) -> float:
    """Median seconds of one DDS solve (best lead's tricks for the side on lead) over ``deals``
    (the median, as bench/solver.py reports it: the issue's 175 solves in 2 s are its 11-13 ms)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    times = []
    for d in deals:
        t = time.perf_counter()
        solve_board(d, SolveMode.OptimalOne)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def line(name: str, fn, ydeals: list, goal: float | None, deals: int) -> None:
    before = dds_median(ydeals)
    t0, c0 = time.perf_counter(), time.process_time()
    first: list[float] = []
    est = fn(lambda e: first.append(time.perf_counter() - t0) if not first else None)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    dds = (before + dds_median(ydeals)) / 2
    lo, hi = est.interval
    # a capped line: its wall time scaled to all the deals asked for (deals differ: a rough figure)
    whole = wall * deals / max(est.deals, 1) if est.stopped else wall
    g = ""
    if goal is not None:
        want = goal / DDS_MS_IN_ISSUE * 1000
        g = (f"  goal {goal:g} s = {want:.0f} DDS: {'met' if whole / dds <= want else 'NOT met'}"
             f" (x{whole / dds / want:.1f})")
    capped = f" (capped; {deals} deals ~{whole / dds:.0f} DDS)" if est.stopped else ""
    print(f"  {name:34s} {est.deals:4d} deals  wall {wall:7.2f} s  "
          f"first estimate {first[0] if first else float('nan'):5.2f} s  DDS solve {dds * 1e3:5.1f} ms  "
          f"= {wall / dds:6.0f} DDS{capped}{g}  (rate {est.rate:.2f}, {lo:.2f}-{hi:.2f})"
          f"  cpu {cpu:.2f} s = {cpu / max(est.deals, 1) * 1e3:.1f} ms a deal", flush=True)


def bench_table(players: int, deck: int | None, deals: int, threads: int, cap: float, ydeals: list,
                goals: dict) -> None:
    tab = Table.make(players, deck)
    contract = Contract.make(tab, 30, 0, 2)
    print(f"\n{players} x {tab.hand_size} ({tab.deck} cards), {contract} by seat 2, start of play (seat 1 leads), "
          f"{deals} deals, {threads} threads, cap {cap:g} s")
    for seat, where in ((1, "seat 1, on lead"), (2, "seat 2, not on lead")):
        view = View(tab, seat, random_deal(tab, seed=7).hand(seat))
        t_end = []

        def stop(done, n):
            return time.perf_counter() > t_end[0]

        def full(on_update, view=view):
            t_end[:] = [time.perf_counter() + cap]
            return estimate(view, contract, deals, 1, threads=threads, on_update=on_update, should_stop=stop,
                            update_every=0)

        def yes_no(on_update, view=view):
            t_end[:] = [time.perf_counter() + cap]
            return estimate(view, contract, deals, 1, threads=threads, on_update=on_update, should_stop=stop,
                            update_every=0, points=False)
        line(f"{where}, full answer", full, ydeals, goals.get(seat), deals)
        line(f"{where}, yes/no only", yes_no, ydeals, None, deals)


def bench_drill(ydeals: list, k: int, players: list[int]) -> None:
    from fiftysix.drills.generate import Generator
    print("\n'Makeable?' drill questions (international; a yes/no simulation of 100 deals from the declarer's "
          "view): seconds to generate one (the goal for the default mix: under 1 s = "
          f"{1 / DDS_MS_IN_ISSUE * 1000:.0f} DDS)")
    for p in players:
        times = []
        before = dds_median(ydeals)
        for seed in range(k):
            t = time.perf_counter()
            Generator("international", Table.make(p), seed).questions(1, ["makeable"])
            times.append(time.perf_counter() - t)
        dds = (before + dds_median(ydeals)) / 2
        a = np.array(times)
        print(f"  {p} players, {k} questions: median {np.median(a):.2f} s = {np.median(a) / dds:.0f} DDS, "
              f"max {a.max():.2f} s = {a.max() / dds:.0f} DDS; DDS solve {dds * 1e3:.1f} ms", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--cap", type=float, default=60.0, help="seconds at most per line")
    ap.add_argument("--setups", default="4,6,8,4x12")
    ap.add_argument("--yardstick", type=int, default=12, help="DDS deals timed before and after each line")
    ap.add_argument("--drill", type=int, default=5, help="makeable drill questions to time per table (0: skip)")
    ap.add_argument("--drill-players", default="4,6", help="tables for the drill questions, e.g. 4,6,8")
    args = ap.parse_args()
    print(f"simulate benchmark, {time.strftime('%Y-%m-%d %H:%M')}, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    S.warm_up()
    ydeals = dds_deals(args.yardstick, 13)
    goals = {"4": {1: 2.0, 2: 1.0}, "6": {1: 2.0, 2: 1.0}, "8": {1: 5.0, 2: 5.0}, "4x12": {1: 10.0, 2: 10.0}}
    for setup in filter(None, args.setups.split(",")):
        players, _, hand = setup.partition("x")
        deck = None if not hand else int(players) * int(hand)
        bench_table(int(players), deck, args.deals, args.threads, args.cap, ydeals, goals.get(setup, {}))
    if args.drill:
        bench_drill(ydeals, args.drill, [int(x) for x in args.drill_players.split(",")])
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
