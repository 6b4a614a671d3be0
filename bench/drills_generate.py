"""Benchmark of the question generator: its speed in every system and table, each question checked.

Questions for many seeds are checked against the engine (``drills.bankcheck.check_question``:
auction replayed from its text, answers and choices recomputed); it prints the time a question
and the number of problems (should be 0).

    .venv/bin/python -m bench.drills_generate --seeds 60 --per-seed 4
"""
from __future__ import annotations

import argparse
import statistics
import time

from fiftysix.bidding import SYSTEMS
from fiftysix.cards import Table
from fiftysix.drills.bankcheck import check_question
from fiftysix.drills.generate import DEFAULT_TYPES, Generator


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=60)
    ap.add_argument("--per-seed", type=int, default=4)
    args = ap.parse_args()
    total = problems = 0
    seeds = 0
    print(f"{'system':12} {'table':10} {'questions':>9} {'ms/question':>12} {'problems':>8}")
    for system in sorted(SYSTEMS):
        for players, teams in ((4, "alternate"), (6, "alternate"), (8, "alternate"), (6, "pairs")):
            table = Table.make(players, teams=teams)
            times, bad, n = [], 0, 0
            for seed in range(args.seeds):
                t0 = time.perf_counter()
                qs = Generator(system, table, seed).questions(args.per_seed, DEFAULT_TYPES)
                times.append((time.perf_counter() - t0) * 1000 / len(qs))
                for q in qs:
                    found = check_question(q)
                    bad += bool(found)
                    if found:
                        print("  ", found[0])
                n += len(qs)
                seeds += 1
            total += n
            problems += bad
            print(f"{system:12} {players}p {teams:7} {n:9d} {statistics.median(times):12.1f} {bad:8d}")
    print(f"total: {total} questions from {seeds} seeds, {problems} with problems")


if __name__ == "__main__":
    main()
