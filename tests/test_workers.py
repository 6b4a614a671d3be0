"""Heavy jobs in worker processes (ui/workers.py): the same answers as in the server's own
thread, progress back to the page, Cancel and the cap stop them, a worker killed mid-job is a
clear error and the next job gets a fresh one, and the workers run below the pages."""
from __future__ import annotations

import os
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from fiftysix.analyser import simulate, solver
from fiftysix.analyser.dealer import View
from fiftysix.cards import Table, random_deal
from fiftysix.errors import FiftySixError
from fiftysix.scoring import Contract
from fiftysix.ui import heavy, workers
from tests.app_harness import open_page

# --- work a worker process runs: module-level, so that it travels by name -----------------


def count_until_stopped(stop) -> tuple[int, float]:
    """Say it started, then spin until ``stop()``; how many looks it took and for how long (the
    worker's clock, read before saying so: a worker at idle priority may wait for a core
    between the two, and the page's half second counts from the message)."""
    t0, k = time.monotonic(), 0
    workers.progress("started")
    while not stop():
        k += 1
        time.sleep(0.01)
    return k, time.monotonic() - t0


def report_pid_then_wait(stop) -> None:
    workers.progress(os.getpid())
    while not stop():
        time.sleep(0.05)


def fails(stop) -> None:
    raise FiftySixError("this deal is not for this table")


def priorities(stop) -> tuple[tuple[int, int], tuple[int, int], int]:
    """(niceness, policy) of this thread and of a solver pool thread, and the process id."""
    from fiftysix.analyser.pool import Pool

    def seen(*_):
        tid = threading.get_native_id()
        return os.getpriority(os.PRIO_PROCESS, tid), os.sched_getscheduler(tid)

    return seen(), Pool(object).map(seen, [0], threads=1)[0], os.getpid()


def never() -> bool:
    return False


def whoami(stop) -> int:
    return os.getpid()


# --- the tests --------------------------------------------------------------------------------


def test_a_double_dummy_table_in_a_worker_is_the_one_solved_here():
    """The five trumps of a 6-player deal, solved in a worker process and by the solver in this
    process (``solver.table``, no worker, no pool), give the same points."""
    table = Table.make(6)
    deal = random_deal(table, seed=21)
    got = workers.run(partial(heavy.dd_rows, str(deal), table, 1, 60.0), never, 120)
    here = solver.table(deal, leader=1, threads=1)  # trump -> team -> points, searched in this process
    assert {team for team, _ in got} == {0, 1}
    for team, points in got:
        assert points == {trump: here[trump][team] for trump in points}, team


def test_an_estimate_in_a_worker_is_the_one_made_here_and_reports_progress():
    """The makeable estimate is exact per deal and seeded: the worker's answer equals the one
    made in this process, and its live updates reach the page's callback."""
    table = Table.make(4)
    deal = random_deal(table, seed=7)
    view, contract = View(table, 1, deal.hand(1)), Contract.make(table, 28, 0, 1)
    seen = []
    got = workers.run(partial(heavy.estimate, view, contract, 40, 3, None, 60.0, True), never, 120,
                      on_progress=seen.append)
    here = simulate.estimate(view, contract, 40, 3, until=None, max_seconds=60.0, points=True)
    assert (got.deals, got.makes, got.points) == (here.deals, here.makes, here.points) and got.deals == 40
    assert all(isinstance(e, simulate.Estimate) and e.deals <= got.deals for e in seen)  # live figures, if any


def test_cancel_stops_the_job_in_the_worker():
    """The page's stop (its Cancel, half a second after the job started) turns the worker's
    ``stop()`` True within moments."""
    started: list[float] = []
    k, took = workers.run(count_until_stopped, lambda: bool(started) and time.monotonic() - started[0] > 0.5, 60,
                          on_progress=lambda _: started.append(time.monotonic()))
    assert started and k > 0 and 0.4 < took < 5


def test_the_cap_stops_the_job_in_the_worker():
    """At the job's wall-clock cap (2 s, from the job's start in the worker: loading the work's
    module counts) the worker's ``stop()`` turns True by itself."""
    t0 = time.monotonic()
    k, took = workers.run(count_until_stopped, never, 2.0)
    wall = time.monotonic() - t0
    assert wall > 1.9 and took < 2.5 and k > 0  # nothing but the cap stopped it, at the cap


def test_an_error_in_the_worker_is_raised_to_the_page():
    with pytest.raises(FiftySixError, match="not for this table"):
        workers.run(fails, never, 30)


def test_a_worker_killed_mid_job_is_a_clear_error_and_the_next_job_works():
    """kill -9 of the worker while it runs a job: the page gets WorkerLost (a FiftySixError,
    which the pages show in an error box), and the next job runs in a fresh worker."""
    pids = []

    def kill_it(pid):
        pids.append(pid)
        os.kill(pid, 9)

    with pytest.raises(workers.WorkerLost, match="stopped in the middle of this job"):
        workers.run(report_pid_then_wait, never, 60, on_progress=kill_it)
    assert isinstance(workers.WorkerLost("x"), FiftySixError)
    pid = workers.run(whoami, never, 30)
    assert pid != pids[0] and pid in workers.workers().pids()


def test_a_job_takes_a_ready_worker_before_one_still_loading():
    """With one worker ready and another just started (still loading the kernels), a job gets
    the ready one (before, the last started: a page waited for its load, or with a small cap
    ran out of time "while the solver was still being prepared")."""
    size = [1]
    pool = workers.Workers(lambda: size[0])
    try:
        pool.start()
        with pool.borrow() as first:
            assert first.ready.wait(workers.READY_WAIT) and first.alive()
        size[0] = 2
        pool.start()  # a second worker, loading
        assert len(pool.pids()) == 2
        with pool.borrow() as w:
            assert w.ready.is_set()  # (the first, unless the second loaded meanwhile)
    finally:
        pool.close()


def test_work_that_cannot_travel_is_refused_by_name():
    with pytest.raises(workers.NotSendable):
        workers.run(lambda stop: 1, never, 10)


linux_only = pytest.mark.skipif(not hasattr(threading, "get_native_id") or not hasattr(os, "SCHED_IDLE"),
                                reason="threads are scheduled one by one on Linux only")


@linux_only
@pytest.mark.parametrize("priority", ["", "low", "normal"])
def test_a_workers_threads_run_below_the_pages(monkeypatch, priority):
    """By default every thread of a worker (its own, the solver pool's) runs under SCHED_IDLE
    at niceness +10; FIFTYSIX_HEAVY_PRIORITY=low gives niceness +10 only, normal none."""
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    monkeypatch.setenv("FIFTYSIX_HEAVY_PRIORITY", priority)
    workers.workers().close()  # fresh workers read the setting
    try:
        own, pool_thread, pid = workers.run(priorities, never, 60)
    finally:
        workers.workers().close()
    want = {"": (min(19, base + 10), os.SCHED_IDLE), "low": (min(19, base + 10), os.SCHED_OTHER),
            "normal": (base, os.SCHED_OTHER)}[priority]
    assert own == want and pool_thread == want
    assert pid != os.getpid()
    assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER  # the server is untouched


def test_a_club_servers_workers_go_into_a_cpu_idle_cgroup_where_the_machine_allows(monkeypatch):
    """FIFTYSIX_HEAVY_CGROUP=on (a club server's default): where a cgroup with cpu.idle can be
    made under the server's own, the worker is in it and cpu.idle is 1; where not, the words
    say where the jobs run instead and why."""
    monkeypatch.setenv("FIFTYSIX_HEAVY_CGROUP", "on")
    workers.workers().close()
    try:
        with workers.workers().borrow() as w:  # moved there once its kernels are loaded
            assert w.ready.wait(workers.READY_WAIT) and w.alive()
            pid = w.proc.pid
        path, words = workers.idle_group()
        if path is None:
            assert "no cgroup with cpu.idle could be made" in words
        else:
            assert (Path(path) / "cpu.idle").read_text().strip() == "1"
            assert str(pid) in (Path(path) / "cgroup.procs").read_text().split()
            assert "cpu.idle cgroup" in workers.placement()
    finally:
        workers.workers().close()
        monkeypatch.setenv("FIFTYSIX_HEAVY_CGROUP", "off")


def test_the_analyse_pages_estimate_runs_in_a_worker(tmp_path, monkeypatch):
    """The page's simulation is solved in a worker process: a spy on this process's solver
    sees nothing, and the page shows the deals solved there."""
    monkeypatch.setattr(simulate._Deals, "solve", lambda *a, **kw: pytest.fail("solved in the server's process"))
    at = open_page("analyse", tmp_path, monkeypatch, players=4)
    at.number_input(key="an_est_n").set_value(10)
    at.button(key="FormSubmitter:an_est_form-Simulate").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Deals"] == "10"


def test_the_groups_of_killed_servers_are_removed_and_a_live_ones_kept(tmp_path):
    """A server killed outright leaves its empty workers' cgroup behind (its name ends with the
    server's process id): the next server removes those whose process is gone, no other."""
    import subprocess
    import sys
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()  # a process id that has ended
    alive = str(os.getppid())
    for pid in (gone, alive, str(os.getpid())):
        (tmp_path / f"{workers.CGROUP_NAME}-{pid}").mkdir()
    (tmp_path / "other-group").mkdir()
    workers._clear_stale(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["other-group", f"{workers.CGROUP_NAME}-{alive}", f"{workers.CGROUP_NAME}-{os.getpid()}"])
