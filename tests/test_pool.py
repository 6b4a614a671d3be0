"""The one pool of solvers: items handed out in order, results by index, errors raised in the
caller's thread, a stop flag that stops handing out and cancels the searches in flight."""
from __future__ import annotations

import threading
import time

import pytest

from fiftysix.analyser import solver as S
from fiftysix.analyser.pool import NOT_DONE, Pool
from fiftysix.cards import Table, random_deal
from tests.kernel_harness import with_words


class Boom(Exception):
    pass


def test_items_are_handed_out_in_order_and_come_back_by_index():
    pool = Pool(object)
    started: list[int] = []
    lock = threading.Lock()

    def fn(w, x):
        with lock:
            started.append(x)
        return x * x

    assert pool.map(fn, list(range(50)), threads=4) == [x * x for x in range(50)]
    assert started == sorted(started) == list(range(50))  # taken one at a time, in order
    assert len(pool.idle()) == 4  # the workers' resources came back to the pool


def test_each_worker_keeps_its_own_resource():
    pool = Pool(list)
    seen: dict[int, set] = {}
    lock = threading.Lock()

    def fn(w, x):
        w.resource.append(x)
        with lock:
            seen.setdefault(id(w.resource), set()).add(threading.get_ident())
        return x

    pool.map(fn, list(range(40)), threads=3)
    assert all(len(threads) == 1 for threads in seen.values())  # a resource is one worker's
    assert sorted(x for r in pool.idle() for x in r) == list(range(40))


def test_an_error_stops_the_others_and_is_raised_in_the_callers_thread():
    pool = Pool(object)
    done: list[int] = []

    def fn(w, x):
        if x == 3:
            raise Boom("item 3")
        if x > 3:
            while not w.halted():  # a long search that looks at the stop flag
                time.sleep(0.001)
        done.append(x)
        return x

    with pytest.raises(Boom, match="item 3"):
        pool.map(fn, list(range(100)), threads=2)
    assert max(done) < 10  # the rest were not handed out
    assert len(pool.idle()) == 2


def test_a_stop_flag_stops_handing_out_and_the_rest_is_not_done():
    pool = Pool(object)
    calls = []
    out = pool.map(lambda w, x: calls.append(x) or x, list(range(30)), threads=1, stop=lambda: len(calls) >= 5)
    assert out[:5] == [0, 1, 2, 3, 4] and out[5:] == [NOT_DONE] * 25


def test_leaving_the_loop_cancels_the_solver_searches_in_flight():
    """A real search stops at its next look at the flag (Cancelled, counted as not done), and
    the pool's solver answers exactly afterwards."""
    t = Table.make(8)
    deal = random_deal(t, 3)
    pos = S.Position(t, deal.hands, 0, 1)
    pool = S.solver_pool(1)
    started = threading.Event()

    def fn(w, p):
        started.set()
        return S.max_points(p, 0, solver=w.resource, stop=w.halted)

    run = pool.run(fn, [pos, pos], threads=2, wait=0.01)
    for item in run:
        if started.is_set():
            break
    run.close()  # returns once both workers have stopped
    small = S.Position(t, tuple(type(h)(h.cards[:2]) for h in deal.hands), 0, 1)
    with pool.lend() as solver:
        assert S.max_points(small, 0, solver=solver) == S.max_points(small, 0, solver=S.Solver(1))


def test_a_cancelled_exception_outside_a_stop_is_an_error():
    pool = Pool(object, cancelled=(S.Cancelled,))

    def fn(w, x):
        raise S.Cancelled("not asked for")

    with pytest.raises(S.Cancelled):
        pool.map(fn, [1, 2], threads=2)


def test_max_points_many_and_table_use_the_pool_and_agree_with_single_solves():
    t = Table.make(4)
    deal = random_deal(t, 8)
    rows = S.table(deal, threads=2)
    single = S.table(deal, solver=S.Solver(4))
    assert rows == single
    positions = [S.Position(t, deal.hands, trump, 1) for trump in (0, 1, 2, 3, None)]
    assert S.max_points_many(positions, 0, threads=2).tolist() == [single[n][0] for n in S.TRUMP_NAMES]


def _searching(solver: S.Solver, flag: threading.Event) -> tuple[threading.Thread, list]:
    """A long search (an 8-player deal's ``max_points``, stop: ``flag``) started in a thread of
    its own: the thread, and the list its value or its Cancelled goes into."""
    t = Table.make(8)
    pos = S.Position(t, random_deal(t, 5).hands, None, 1)
    got: list = []

    def search() -> None:
        try:
            got.append(S.max_points(pos, 0, solver=solver, stop=flag.is_set))
        except S.Cancelled as e:
            got.append(e)

    th = threading.Thread(target=search, daemon=True)
    th.start()
    return th, got


def test_an_interrupt_makes_a_running_search_look_at_its_stop_flag_at_once(monkeypatch):
    """With the watcher's looks at the stop flag a day apart, a cancelled search still stops
    at once: ``Solver.interrupt`` makes it look now (the pool interrupts its workers so)."""
    monkeypatch.setattr(S, "WATCH_POLL", 86400.0)
    time.sleep(2 * 0.05)  # (a look the watcher had planned before comes and goes)
    solver, flag = S.Solver(4), threading.Event()
    th, got = _searching(solver, flag)  # minutes of search
    while solver._running is None and th.is_alive():
        time.sleep(0.001)
    flag.set()
    while th.is_alive():  # (an interrupt that comes just as a chunk starts is lost: again)
        solver.interrupt()
        th.join(0.05)
    assert isinstance(got[0], S.Cancelled)



def test_one_interrupt_stops_a_search_inside_a_budgeted_card(monkeypatch):
    """One ``Solver.interrupt`` stops a search whose budgeted move order is on (from its first
    node here, so that every node is inside some card's budget), with the watcher kept from
    looking (``WATCH_POLL`` a day): only the interrupt can stop it. Before the halt word
    (``kernels.ST_HALT``) the budget took the limit the interrupt set for its own card's (the
    card past its budget, to the back of the list), put its own limit back, and the search
    ran on until its next pause (2^20 nodes later then; never, now that a ``stop`` makes no
    pauses)."""
    from fiftysix.analyser import _kernels as kernels
    with_words(monkeypatch, P_BAFTER=0)
    monkeypatch.setattr(S, "WATCH_POLL", 86400.0)
    time.sleep(2 * 0.05)  # (a look the watcher had planned before comes and goes)
    solver, flag = S.Solver(4), threading.Event()
    th, got = _searching(solver, flag)  # millions of nodes
    while th.is_alive() and (solver._running is None or solver._running[kernels.ST_NODES] < 100_000):
        time.sleep(0.001)
    flag.set()
    solver.interrupt()
    th.join(10)
    assert not th.is_alive() and isinstance(got[0], S.Cancelled), got


def _priority_seen(setup=None) -> tuple[int, int]:
    """(niceness, scheduling policy) the kernel reports for a thread of ``Pool.run``."""
    import os
    seen: list[tuple[int, int]] = []

    def fn(w, x):
        tid = threading.get_native_id()
        seen.append((os.getpriority(os.PRIO_PROCESS, tid), os.sched_getscheduler(tid)))

    Pool(object).map(fn, [0], threads=1)
    return seen[0]


linux_only = pytest.mark.skipif(not hasattr(threading, "get_native_id") or not hasattr(__import__("os"), "SCHED_IDLE"),
                                reason="threads are scheduled one by one on Linux only")


@linux_only
def test_workers_run_below_the_process_within_a_priority_block_only():
    import os

    from fiftysix.analyser.pool import worker_priority
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())  # the main thread's niceness: the server's
    assert _priority_seen() == (base, os.SCHED_OTHER)
    with worker_priority(5):
        assert _priority_seen() == (min(19, base + 5), os.SCHED_OTHER)
        with worker_priority(10, idle=True):
            assert _priority_seen() == (min(19, base + 10), os.SCHED_IDLE)
    assert _priority_seen() == (base, os.SCHED_OTHER)  # the block's end restores the default
    assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER  # the caller's thread is untouched


@linux_only
def test_lowering_a_thread_never_raises_it():
    """A thread already lower keeps its priority: the step is from the process, and a process
    allowed to raise priorities (root) must not put its searches above its pages."""
    import os

    from fiftysix.analyser.pool import lower_this_thread
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    lower = min(19, base + 9)
    got: list[int] = []

    def run() -> None:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, lower)
        lower_this_thread((3, False))
        got.append(os.getpriority(os.PRIO_PROCESS, tid))

    th = threading.Thread(target=run)
    th.start()
    th.join()
    assert got == [lower]


@linux_only
def test_the_search_watcher_keeps_the_process_priority_when_searches_run_idle():
    """The solver's watcher thread (it looks at every search's ``stop`` and deadline) runs at
    the process's priority even when the first searches that use it run in SCHED_IDLE pool
    workers: Linux threads inherit their creator's niceness and policy, and the watcher is
    started as the module is imported, not by its first search (a watcher starved with the
    idle searches would let a normal search's deadline pass unseen)."""
    import os

    from fiftysix.analyser.pool import worker_priority
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    t = Table.make(4)
    positions = [S.Position(t, random_deal(t, k).hands, 0, 1) for k in range(2)]
    with worker_priority(10, idle=True):
        got = S.solver_pool().map(lambda w, pos: S.max_points(pos, 0, solver=w.resource, stop=w.halted,
                                                              max_seconds=60.0)[0], positions, threads=2)
    assert got == [S.max_points(pos, 0, solver=S.Solver(4))[0] for pos in positions]
    th = S._watcher._thread
    assert th is not None and th.is_alive() and th.native_id is not None
    assert (os.getpriority(os.PRIO_PROCESS, th.native_id), os.sched_getscheduler(th.native_id)) == (base,
                                                                                                    os.SCHED_OTHER)
