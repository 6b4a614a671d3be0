"""The server's queue of heavy jobs: at most a configured number at once, one per session, the
rest in line first come first served; a page waits its turn and then runs."""
from __future__ import annotations

import threading

import pytest

from fiftysix.ui.jobs import JobQueue, job_queue, max_jobs
from tests.app_harness import open_page, texts


def test_at_most_the_limit_run_and_the_rest_wait_in_order():
    q = JobQueue(lambda: 2)
    a, b, c, d = (q.join(o) for o in "abcd")
    assert [q.place(t) for t in (a, b, c, d)] == [0, 0, 1, 2]
    q.leave(b)
    assert [q.place(t) for t in (a, c, d)] == [0, 0, 1]  # c was first in line
    q.leave(a)
    assert q.place(d) == 0 and q.counts() == (2, 0)


def test_one_job_per_session():
    q = JobQueue(lambda: 2)
    first = q.join("tab-1")
    second = q.join("tab-1")  # the same session again: waits for its first job
    other = q.join("tab-2")  # another session passes it
    assert (q.place(first), q.place(second), q.place(other)) == (0, 1, 0)
    q.leave(first)
    assert q.place(second) == 0


def test_a_job_that_leaves_while_waiting_gives_up_its_place():
    q = JobQueue(lambda: 1)
    a, b, c = (q.join(o) for o in "abc")
    q.leave(b)
    assert q.place(c) == 1
    q.leave(a)
    assert q.place(c) == 0


def test_the_limit_is_configured(monkeypatch):
    monkeypatch.setenv("FIFTYSIX_HEAVY_JOBS", "3")
    assert max_jobs() == 3
    monkeypatch.setenv("FIFTYSIX_HEAVY_JOBS", "0")
    assert max_jobs() == 1
    monkeypatch.setenv("FIFTYSIX_HEAVY_JOBS", "many")
    assert max_jobs() == 2
    monkeypatch.delenv("FIFTYSIX_HEAVY_JOBS")
    assert max_jobs() == 2  # two in all by default


def test_a_page_waits_in_line_then_runs(tmp_path, monkeypatch):
    """Two other sessions hold the server's two places: the page's simulation waits in line
    (place 1) and runs once one of them is done."""
    q = job_queue()
    held = [q.join("other-1"), q.join("other-2")]
    seen: list[tuple[int, int]] = []

    def free_one_when_someone_waits() -> None:
        while q.counts()[1] == 0:
            threading.Event().wait(0.05)
        seen.append(q.counts())
        q.leave(held.pop(0))

    try:
        at = open_page("analyse", tmp_path, monkeypatch, players=4)
        at.number_input(key="an_est_n").set_value(20)
        helper = threading.Thread(target=free_one_when_someone_waits, daemon=True)
        helper.start()
        at.button(key="FormSubmitter:an_est_form-Simulate").click().run()
        helper.join(60)
    finally:
        for t in held:
            q.leave(t)
    assert seen == [(2, 1)]  # two running, the page in line
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Deals"] == "20"
    assert "Waiting for a free solver" not in texts(at)  # the note went once it ran
    assert q.counts() == (0, 0)


def test_the_bots_stop_at_their_time_limit_and_go_on_when_asked(tmp_path, monkeypatch):
    """The bots' moves are a heavy job too: at their cap (here the server's, set to 0 s) they
    stop between two moves, the page says so, and they go on from there when asked."""
    from fiftysix.cards import Table, random_deal
    from fiftysix.ui import jobs, workers
    link = {"players": "4", "pl_bot": "rules", "pl_seat": "3", "pl_seed": "5"}
    if workers.enabled():  # a worker ready first: with a cap of 0 s the job would end while it loads
        with workers.workers().borrow() as w:
            assert w.ready.wait(workers.READY_WAIT) and w.alive()
    monkeypatch.setattr(jobs, "MAX_JOB_SECONDS", 0.0)
    at = open_page("play", tmp_path, monkeypatch, query=link)
    table = at.session_state["pl_table"]
    assert len(table.calls) == 0 and not table.your_turn  # seats 1 and 2 have not called
    assert "stopped at their time limit" in texts(at)
    monkeypatch.setattr(jobs, "MAX_JOB_SECONDS", 300.0)
    at.button(key="pl_bots_go_on").click().run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.session_state["pl_table"]
    assert table.your_turn and len(table.calls) == 2
    assert table.deal == random_deal(Table.make(4), seed=5)


def _simulate_and_see_priority(tmp_path, monkeypatch) -> set[tuple[int, int]]:
    """Run the Analyse page's simulation; the (niceness, policy) the kernel reports for each
    thread that solved a deal."""
    import os

    from fiftysix.analyser import simulate
    seen: set[tuple[int, int]] = set()
    solve = simulate._Deals.solve

    def spy(self, w, i):
        tid = threading.get_native_id()
        seen.add((os.getpriority(os.PRIO_PROCESS, tid), os.sched_getscheduler(tid)))
        return solve(self, w, i)

    monkeypatch.setattr(simulate._Deals, "solve", spy)
    at = open_page("analyse", tmp_path, monkeypatch, players=4)
    at.number_input(key="an_est_n").set_value(10)
    at.button(key="FormSubmitter:an_est_form-Simulate").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Deals"] == "10"
    return seen


linux_only = pytest.mark.skipif(not hasattr(threading, "get_native_id") or not hasattr(__import__("os"), "SCHED_IDLE"),
                                reason="threads are scheduled one by one on Linux only")


@linux_only
@pytest.mark.parametrize("priority", ["", "low", "normal"])
def test_a_heavy_jobs_solver_threads_run_below_the_pages(tmp_path, monkeypatch, priority):
    """In the server's own threads (FIFTYSIX_HEAVY_WORKERS=thread; worker processes:
    tests/test_workers.py), a page's heavy job solves under SCHED_IDLE by default (only on
    CPU time no page's script wants); FIFTYSIX_HEAVY_PRIORITY=low gives niceness +10, normal
    the pages' own priority."""
    import os
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    monkeypatch.setenv("FIFTYSIX_HEAVY_PRIORITY", priority)
    monkeypatch.setenv("FIFTYSIX_HEAVY_WORKERS", "thread")
    want = {"": (min(19, base + 10), os.SCHED_IDLE), "low": (min(19, base + 10), os.SCHED_OTHER),
            "normal": (base, os.SCHED_OTHER)}[priority]
    assert _simulate_and_see_priority(tmp_path, monkeypatch) == {want}
    assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER  # this thread is untouched


@linux_only
def test_a_cancellable_jobs_own_thread_is_niced_and_its_solver_threads_idle(monkeypatch):
    """In the server's own threads (FIFTYSIX_HEAVY_WORKERS=thread), run_cancellable's worker
    thread may run Python for long: niceness +10 only (a SCHED_IDLE thread holding the GIL
    would keep the pages waiting); the pool threads it starts go idle."""
    import os

    from fiftysix.analyser.pool import Pool
    from fiftysix.ui.jobs import run_cancellable
    monkeypatch.delenv("FIFTYSIX_HEAVY_PRIORITY", raising=False)
    monkeypatch.setenv("FIFTYSIX_HEAVY_WORKERS", "thread")
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())

    def seen() -> tuple[int, int]:
        tid = threading.get_native_id()
        return os.getpriority(os.PRIO_PROCESS, tid), os.sched_getscheduler(tid)

    def work(stop):
        return seen(), Pool(object).map(lambda w, x: seen(), [0], threads=1)[0]

    own, solver = run_cancellable(work, "Testing", 10)
    assert own == (min(19, base + 10), os.SCHED_OTHER)
    assert solver == (min(19, base + 10), os.SCHED_IDLE)
