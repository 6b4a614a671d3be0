"""Benchmark: how long a light page takes while other sessions run heavy jobs (issue 44).

    .venv/bin/python -m bench.heavy_pages [--page drill] [--runs 7] [--jobs 3] [--players 8]

One server process, as Streamlit runs it: the light page is run through AppTest (its script
in a thread of this process, like a session's), while ``--jobs`` threads each run what a
session's "Is it makeable?" runs (an estimate at ``--players`` players, 2 solver threads,
seen from the seat on lead), over and over until the page's runs are done. Three set-ups,
each timed the same way (the median of ``--runs`` page runs after one untimed):

* idle: no heavy job;
* every job at once: each heavy job starts at once, its solver threads at normal priority
  (the server before issue 44);
* the queue: at most ``FIFTYSIX_HEAVY_JOBS`` (2) jobs run, the rest wait in line
  (``ui.jobs.JobQueue``), their solver threads at the server's lower priority
  (``ui.jobs.heavy_levels``: SCHED_IDLE unless ``FIFTYSIX_HEAVY_PRIORITY`` says otherwise).

Whether the kernels release the GIL is fixed when they are compiled: to time kernels that
hold it, run this script with ``PYTHONPATH`` pointing at a copy of the tree whose
``analyser/_kernels.py`` and ``_count_kernels.py`` lack ``nogil=True`` (bench/RESULTS.md
says how the figures there were made). The line ``kernels release the GIL`` says which.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fiftysix.analyser import _count_kernels, _kernels
from fiftysix.analyser import pool as pool_mod
from fiftysix.analyser import solver as S
from fiftysix.analyser.dealer import View
from fiftysix.analyser.simulate import estimate
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import Contract
from fiftysix.ui.jobs import JobQueue, heavy_levels, max_jobs

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def releases_gil() -> bool:
    """Do the search kernels release the GIL (as compiled in this tree)?"""
    return bool(_kernels.value_kernel.targetoptions.get("nogil")) and bool(
        _count_kernels.weigh_back.targetoptions.get("nogil"))


def page_times(page: str, runs: int) -> list[float]:
    """Seconds of ``runs`` runs of ``page`` (after one untimed run), each a fresh session."""
    out = []
    for k in range(runs + 1):
        at = AppTest.from_file(APP, default_timeout=300)
        at.run()
        t0 = time.perf_counter()
        at.switch_page(f"ui/pages/{page}.py").run()
        dt = time.perf_counter() - t0
        if at.exception:
            raise SystemExit(f"the {page} page failed: {at.exception[0].value}")
        if k:
            out.append(dt)
    return out


def heavy(k: int, players: int, queue: JobQueue | None, done: threading.Event, solved: list[int]) -> None:
    """Heavy job ``k``: an estimate at ``players`` players, again and again until ``done``."""
    t = Table.make(players)
    view = View(t, 1, random_deal(t, seed=100 + k).hand(1))
    contract = Contract.make(t, 32, 0, 2)
    seed = 0
    while not done.is_set():
        ticket = None if queue is None else queue.join(f"session-{k}")
        try:
            while queue is not None and queue.place(ticket) and not done.is_set():
                time.sleep(0.1)
            if done.is_set():
                return
            est = estimate(view, contract, 400, seed, threads=2, should_stop=lambda a, b: done.is_set(),
                           max_seconds=30)
            solved[k] += est.deals
            seed += 1
        finally:
            if ticket is not None:
                queue.leave(ticket)


def measure(name: str, page: str, runs: int, jobs: int, players: int, queued: bool) -> None:
    done = threading.Event()
    solved = [0] * jobs
    pool_mod.set_worker_nice(*(heavy_levels() if queued else (0, False)))
    q = JobQueue(max_jobs) if queued else None
    threads = [threading.Thread(target=heavy, args=(k, players, q, done, solved), daemon=True) for k in range(jobs)]
    for th in threads:
        th.start()
    if threads:
        time.sleep(3)  # the jobs deal and start solving
    t0 = time.perf_counter()
    try:
        times = page_times(page, runs)
    finally:
        done.set()
        for th in threads:
            th.join()
    wall = time.perf_counter() - t0
    rate = f"; heavy jobs solved {sum(solved) / wall:.1f} deals/s" if jobs else ""
    print(f"  {name:34s} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, max {max(times):.2f},"
          f" {len(times)} runs){rate}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--page", default="drill", help="the light page (a module of ui/pages)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--players", type=int, default=8)
    args = ap.parse_args()
    os.environ.setdefault("FIFTYSIX_DATA_DIR", tempfile.mkdtemp(prefix="fiftysix-bench-"))
    print(f"heavy pages benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}; kernels release the GIL: {releases_gil()}; the {args.page} page "
          f"with {args.jobs} heavy jobs at {args.players} players; at most {max_jobs()} at once in the queue")
    S.warm_up()
    measure("idle", args.page, args.runs, 0, args.players, False)
    measure(f"{args.jobs} heavy jobs, every job at once", args.page, args.runs, args.jobs, args.players, False)
    measure(f"{args.jobs} heavy jobs, the queue", args.page, args.runs, args.jobs, args.players, True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
