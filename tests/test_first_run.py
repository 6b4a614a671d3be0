"""A first run: the solver's kernels are prepared once per process, in the background where a
server starts, with progress to show; and preparing them is never charged to a time budget.

Compiling for real takes minutes on a loaded machine, so these tests put a slow stand-in in
front of ``warm_up`` (the real one still runs after it); bench/first_run.py measures a truly
cold start (a fresh clone, an empty numba cache) and checks the budget there too.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fiftysix.analyser import solver
from fiftysix.records import read_records
from tests.test_review import _naive_review_values

ENDINGS = Path(__file__).resolve().parents[1] / "data" / "records" / "endings.txt"

SLOW_FIRST_RUN = """
import sys, time
from fiftysix.analyser import solver
real = solver.warm_up

def slow(on_step=None):  # as a first run's compiling would take
    print("preparing the kernels", file=sys.stderr, flush=True)
    time.sleep(3)
    return real(on_step)

solver.warm_up = slow
from fiftysix.ui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_review_budget_does_not_pay_for_preparing_the_kernels():
    """Issue 43: ``review endings.txt --record 2 --total-seconds 10`` on a fresh install said "not
    solved" (the 4-card ending takes 0.02 s warm). Here preparing takes 3 s, the budget 1 s."""
    r = subprocess.run([sys.executable, "-c", SLOW_FIRST_RUN, "review", str(ENDINGS), "--record", "2",
                        "--total-seconds", "1", "--json"], capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("preparing the kernels") == 1
    out = json.loads(r.stdout)
    want = _naive_review_values(read_records(str(ENDINGS))[1])  # plain minimax, card by card
    assert [(c["before"], c["after"]) for c in out["cards"]] == want
    assert out["dd_start"] == want[0][0] == 28


def test_a_simulate_budget_does_not_pay_for_preparing_the_kernels():
    r = subprocess.run([sys.executable, "-c", SLOW_FIRST_RUN, "simulate", "--players", "4", "--seat", "1",
                        "--hand", "J9A.J9T..JA", "--auction", "28S P", "-n", "4", "--seed", "1",
                        "--max-seconds", "2", "--json"], capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stderr
    assert "preparing the kernels" in r.stderr
    out = json.loads(r.stdout)
    assert out["deals"] == 4 and not out["stopped"]


@pytest.fixture
def cold(monkeypatch):
    """This process's solver as if nothing were prepared yet, with a stand-in ``warm_up`` that
    reports each step and waits at the second for ``gate``."""
    gate = threading.Event()

    def fake(on_step=None):
        for k, what in enumerate(solver.WARM_STEPS):
            if on_step is not None:
                on_step(k, what)
            if k == 1 and not gate.wait(30):
                raise TimeoutError("the test never opened the gate")
        return 0.0

    monkeypatch.setattr(solver, "warm_up", fake)
    monkeypatch.setattr(solver, "_warmed", threading.Event())
    monkeypatch.setattr(solver, "_warming", {"step": 0, "t0": None, "error": None, "thread": None})
    return gate


def _until(check, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end
        time.sleep(0.01)


def test_the_background_warm_up_reports_its_steps_and_callers_wait_for_it(cold):
    assert not solver.is_warm() and solver.warm_progress().fraction == 0.0
    solver.warm_in_background()
    first = solver._warming["thread"]
    _until(lambda: solver.warm_progress().step == 1)
    again = threading.Thread(target=solver.warm_in_background)  # the next page's router, meanwhile
    again.start()
    again.join(5)
    assert not again.is_alive()  # returns at once: a page is never held up by the warm-up it asks for
    assert solver._warming["thread"] is first  # once per process
    now = solver.warm_progress()
    assert (now.what, now.steps, now.ready) == (solver.WARM_STEPS[1], 4, False)
    assert now.fraction == pytest.approx(solver.WARM_SHARES[0])
    waiter = threading.Thread(target=solver.ensure_warm)  # a timed search arriving meanwhile
    waiter.start()
    time.sleep(0.2)
    assert waiter.is_alive()  # it waits for the warm-up instead of starting its clock
    cold.set()
    waiter.join(10)
    first.join(10)
    done = solver.warm_progress()
    assert not waiter.is_alive() and solver.is_warm() and done.ready and done.fraction == 1.0
    assert done.error is None


def test_a_failed_warm_up_is_reported_to_the_page(cold, monkeypatch):
    def broken(on_step=None):
        raise OSError("no space left on device")

    monkeypatch.setattr(solver, "warm_up", broken)
    solver.warm_in_background()
    _until(lambda: solver.warm_progress().error is not None)
    assert isinstance(solver.warm_progress().error, OSError) and not solver.is_warm()
    from fiftysix.errors import FiftySixError
    from fiftysix.ui.components import warm_solver
    with pytest.raises(FiftySixError, match="the solver could not be prepared: no space left on device"):
        warm_solver()


@pytest.mark.slow
def test_a_server_compiles_apart_and_then_loads_the_kernels(monkeypatch):
    """``apart``: a child process compiles (here: loads from numba's cache) and reports its steps;
    then this process loads the kernels, without a lock held meanwhile."""
    monkeypatch.setattr(solver, "_warmed", threading.Event())
    monkeypatch.setattr(solver, "_warming", {"step": 0, "t0": None, "error": None, "thread": None})
    seen = set()
    solver.warm_in_background(apart=True)
    end = time.monotonic() + 300
    while not (now := solver.warm_progress()).ready:
        assert now.error is None and time.monotonic() < end
        seen.add(now.step)
        time.sleep(0.01)
    assert solver.is_warm() and now.fraction == 1.0
    assert solver._warming["step"] == len(solver.WARM_STEPS) - 1  # the last step reached, never back
