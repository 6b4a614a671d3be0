"""Benchmark of the statistics job: deals a second, in one process and on Dask clusters.

In one process, on a local Dask cluster of 1 and 2 workers, and on a scheduler and workers
started by hand on 127.0.0.1 (``dask scheduler``, ``dask worker``), with DDS bridge solves a
second (endplay) timed in the same run as the yardstick.

    .venv/bin/python -m bench.stats [--deals 40] [--chunk 4] [--players 6] [--system all] [--dds 30]

Every configuration runs the same deals (bid in the given systems and solved double-dummy in
all five strains, rows written as Parquet), after a warm-up on other deals, each worker's
transposition table emptied first, so no figure profits from an earlier one. Scaling is the
2-worker rate over the 1-worker rate; the distributed overhead per deal is the 1-worker time
per deal over the in-process time per deal, minus one, in wall time and in CPU time (every
process of the run counted: client, scheduler, nannies, workers). The machine's load is
printed: other work on the cores shows in every wall-time figure, the DDS yardstick included;
CPU time is much less sensitive to it.
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from fiftysix.bidding.systems import SYSTEMS
from fiftysix.stats import job
from fiftysix.stats.deals import RunSpec, chunk_table


def dds_rate(deals: int) -> float:
    """DDS (endplay) bridge solves a second: one trump and leader per deal, one thread."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as BDeal
    from endplay.types import Denom, Player

    from fiftysix.analyser.bridge import random_pbn
    rng = random.Random(13)
    total = 0.0
    for _ in range(deals):
        deal = BDeal.from_pbn(random_pbn(rng))
        deal.first, deal.trump = Player(rng.randrange(4)), Denom(rng.randrange(5))
        t = time.perf_counter()
        solve_board(deal, SolveMode.OptimalOne)
        total += time.perf_counter() - t
    return deals / total


def warm(spec: RunSpec) -> None:
    """Import, compile and touch the solver on other deals; then empty its table."""
    from fiftysix.analyser import solver
    chunk_table(RunSpec(spec.systems, spec.players, spec.deck, spec.teams, 2, spec.seed + 1000, spec.bots, 2), 0)
    solver.default_solver().clear()


def cpu_seconds(pids) -> float:
    """User + system CPU seconds so far of these processes and all their children, each counted once."""
    import psutil
    procs = {}
    for pid in set(pids):
        try:
            proc = psutil.Process(pid)
            for q in [proc] + proc.children(recursive=True):
                procs[q.pid] = q
        except psutil.NoSuchProcess:
            pass
    total = 0.0
    for q in procs.values():
        try:
            t = q.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def serial_rate(spec: RunSpec) -> tuple[float, float, float]:
    """(deals a second, CPU seconds a deal) in this process."""
    warm(spec)
    t, c = time.perf_counter(), time.process_time()
    for k in range(spec.chunks):
        chunk_table(spec, k)
    return spec.deals / (time.perf_counter() - t), (time.process_time() - c) / spec.deals, 0.0


IDLE_SECONDS = 5.0


def cluster_rate(client, spec: RunSpec, pids=()) -> tuple[float, float, float]:
    """(deals a second, CPU seconds a deal of every process involved: this one, the workers, ``pids``,
    and the share of a core those processes use while idle, measured just before)."""
    client.run(warm, spec)
    procs = [os.getpid(), *pids, *client.run(os.getpid).values()]
    c = cpu_seconds(procs)
    time.sleep(IDLE_SECONDS)
    idle = (cpu_seconds(procs) - c) / IDLE_SECONDS
    out = tempfile.mkdtemp(prefix="fiftysix-bench-stats-")
    c = cpu_seconds(procs)
    try:
        report = job.run(spec, out, client=client, progress=False)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return spec.deals / report["seconds"], (cpu_seconds(procs) - c) / spec.deals, idle


def local_rate(spec: RunSpec, workers: int) -> tuple[float, float, float]:
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        return cluster_rate(client, spec)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def by_hand_rates(spec: RunSpec) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Rates with 1 and then 2 ``dask worker`` processes on a ``dask scheduler``, all on 127.0.0.1."""
    from distributed import Client
    dask = str(Path(sys.executable).with_name("dask"))
    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": str(Path(__file__).resolve().parents[1])}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], **quiet)]
    worker = [dask, "worker", addr, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
              "--host", "127.0.0.1"]
    try:
        procs.append(subprocess.Popen(worker, **quiet))
        with Client(addr, timeout=60) as client:
            client.wait_for_workers(1, timeout=120)
            one = cluster_rate(client, spec, [p.pid for p in procs])
            procs.append(subprocess.Popen(worker, **quiet))
            client.wait_for_workers(2, timeout=120)
            two = cluster_rate(client, spec, [p.pid for p in procs])
        return one, two
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--chunk", type=int, default=4)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--system", default="all", help="systems bid on each deal, comma-separated, or all")
    ap.add_argument("--dds", type=int, default=30, help="bridge deals for the DDS yardstick")
    args = ap.parse_args()
    systems = tuple(SYSTEMS) if args.system == "all" else tuple(args.system.split(","))
    deck = {4: 32, 6: 48, 8: 64}[args.players]
    spec = RunSpec(systems, args.players, deck, "alternate", args.deals, 56, "rules", args.chunk)
    print(f"stats benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {args.deals} deals of {args.players} players in chunks of "
          f"{args.chunk}, bid in {len(systems)} system(s), solved in 5 strains")
    dds0 = dds_rate(args.dds)
    print(f"DDS yardstick: {dds0:.1f} bridge solves/s")
    rates = {"one process": serial_rate(spec)}
    for n in (1, 2):
        rates[f"local cluster, {n} worker(s)"] = local_rate(spec, n)
    one, two = by_hand_rates(spec)
    rates["dask scheduler + 1 dask worker"] = one
    rates["dask scheduler + 2 dask workers"] = two
    dds1 = dds_rate(args.dds)
    dds = (dds0 + dds1) / 2
    print(f"DDS yardstick again: {dds1:.1f} bridge solves/s (mean {dds:.1f}); load average {os.getloadavg()[0]:.1f}")
    base, base_cpu, _ = rates["one process"]
    print("  CPU: every process of the run; idle: the share of a core they use with no work (heartbeats,"
          " monitors); busy extra: CPU a deal beyond the one-process CPU once the idle use over the"
          " run's wall time is taken off")
    for name, (r, cpu, idle) in rates.items():
        busy = cpu - idle / r - base_cpu
        print(f"  {name:<34} {r:6.2f} deals/s  {1 / r * 1e3:7.0f} ms/deal  {dds / r:6.1f} DDS solves per deal;"
              f" CPU {cpu * 1e3:6.0f} ms/deal ({(cpu / base_cpu - 1) * 100:+5.1f}%), idle {idle * 100:4.1f}%"
              f" of a core, busy extra {busy * 1e3:+5.0f} ms/deal ({busy / base_cpu * 100:+5.1f}%)")
    for kind, (r1, r2) in {"local": (rates["local cluster, 1 worker(s)"], rates["local cluster, 2 worker(s)"]),
                           "by hand": (one, two)}.items():
        print(f"{kind}: scaling 1 -> 2 workers {r2[0] / r1[0]:.2f}x (goal 1.8x); overhead per deal with 1 worker:"
              f" wall {(base / r1[0] - 1) * 100:+.1f}%, CPU {(r1[1] / base_cpu - 1) * 100:+.1f}% of the"
              " one-process time (goal under 5%)")


if __name__ == "__main__":
    main()
