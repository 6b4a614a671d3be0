"""One pool of solvers: work mapped over threads in order, with a cancel flag, errors raised.

Every place that solves many positions at once (the makeable estimate, the judge's samples,
the double-dummy table's five trumps, ``max_points_many``) hands its items to ``Pool.run``
or ``Pool.map``. Each worker thread holds a resource of its own (a ``Solver``: its
transposition table is its alone) borrowed from the pool and given back afterwards, so the
tables stay mapped between runs. Items are handed out in order, one at a time, to whichever
worker is free; the answers are exact, so they do not depend on the number of threads.

Stopping: ``stop()`` is looked at before each item is handed out and every ``POLL`` seconds
while the caller waits (from the workers and the caller: it must be thread-safe, and should
be cheap); once it is True, or the caller leaves ``run``'s loop, no further item starts,
each worker's ``halted()`` turns True and the pool interrupts the searches in flight, which
then look at it at once (``Solver.interrupt``). An item whose search was cancelled that way
is simply not done. Any other error in a worker stops the others and is raised again in the caller's
thread.

The pool knows nothing of solvers: ``solver.solver_pool()`` is the process-wide pool of
``Solver`` objects (this module sits below ``solver`` so that ``solver.table`` can use it).
"""
from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

R = TypeVar("R")
T = TypeVar("T")

POLL = 0.1
"""Seconds between two looks at ``stop`` from the caller's thread while no result comes."""
NOT_DONE: Any = None
"""What ``Pool.map`` gives for an item that was not done (stopped before it finished)."""

_nice = 0
_idle = False
_scoped: ContextVar[tuple[int, bool] | None] = ContextVar("fiftysix_worker_priority", default=None)


def set_worker_nice(nice: int, idle: bool = False) -> None:
    """The process's default for worker threads started from now on (``worker_priority``
    overrides it for one piece of work): ``nice`` steps below the process's priority (0: the
    same; more, so that a server's pages get a core before the searches do), and with
    ``idle`` Linux's SCHED_IDLE policy, below every niceness: such a thread takes only CPU
    time no normal thread of its group wants (a page's script that wakes up takes the core
    from it at once). Linux schedules threads one by one; elsewhere this does nothing."""
    global _nice, _idle
    _nice = max(0, min(19, int(nice)))
    _idle = bool(idle)


@contextmanager
def worker_priority(nice: int, idle: bool = False) -> Iterator[None]:
    """Within this block (this thread's context), worker threads started by ``Pool.run``
    run at this priority (see ``set_worker_nice``); the process's default again after it."""
    token = _scoped.set((max(0, min(19, int(nice))), bool(idle)))
    try:
        yield
    finally:
        _scoped.reset(token)


def current_priority() -> tuple[int, bool]:
    """(niceness step, SCHED_IDLE) that worker threads started now get."""
    got = _scoped.get()
    return (_nice, _idle) if got is None else got


def worker_niceness(step: int | None = None) -> int | None:
    """The niceness ``lower_this_thread`` gives a thread: the process's own (its main
    thread's) plus the step (default ``current_priority``'s), at most 19; None where threads
    cannot be reniced or the step is 0."""
    step = current_priority()[0] if step is None else step
    if not (step and hasattr(os, "getpriority") and hasattr(threading, "get_native_id")):
        return None
    try:
        return min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + step)
    except OSError:
        return None


def lower_this_thread(priority: tuple[int, bool] | None = None) -> None:
    """Lower the calling thread to ``priority`` (default: ``current_priority()``): its
    niceness to ``worker_niceness`` and, where asked, SCHED_IDLE; never raising it. The step
    is from the process, so that a server started with ``nice`` keeps its searches below its
    pages (a process allowed to raise priorities, as root is, would otherwise put them above)."""
    if not hasattr(threading, "get_native_id"):
        return
    step, idle = current_priority() if priority is None else priority
    tid = threading.get_native_id()
    want = worker_niceness(step)
    try:
        if want is not None and os.getpriority(os.PRIO_PROCESS, tid) < want:
            os.setpriority(os.PRIO_PROCESS, tid, want)
    except OSError:
        pass  # not allowed here: run at the priority it has
    if idle and hasattr(os, "SCHED_IDLE"):
        try:  # lowering a thread's own policy needs no privilege
            os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            pass


@dataclass
class Worker(Generic[R]):
    """What ``fn`` gets with each item: the worker's own resource, the run's stop flag, and a
    dict the worker keeps from item to item (a hint from its last item, say)."""

    resource: R
    halted: Callable[[], bool]
    memo: dict[str, Any] = field(default_factory=dict)


class Pool(Generic[R]):
    """Resources made by ``make()`` (kept between runs) and the threads that use them.

    ``cancelled``: the exception types a search raises when it was stopped; one raised
    while the run is stopping means "not done", not an error. ``interrupt(resource)``: called
    from another thread when the run stops, to make the resource's search look at its stop
    flag at once rather than at its next regular look.
    """

    def __init__(self, make: Callable[[], R], cancelled: tuple[type[BaseException], ...] = (),
                 interrupt: Callable[[R], None] | None = None) -> None:
        self._make = make
        self._cancelled = cancelled
        self._interrupt = interrupt
        self._free: list[R] = []
        self._lock = threading.Lock()

    def borrow(self, k: int) -> list[R]:
        """``k`` resources for one run (made where too few are free)."""
        with self._lock:
            out = [self._free.pop() for _ in range(min(k, len(self._free)))]
        return out + [self._make() for _ in range(k - len(out))]

    def give_back(self, items: Iterable[R]) -> None:
        with self._lock:
            self._free.extend(items)

    @contextmanager
    def lend(self) -> Iterator[R]:
        """One resource for work in the caller's own thread, given back afterwards."""
        (r,) = self.borrow(1)
        try:
            yield r
        finally:
            self.give_back([r])

    def idle(self) -> list[R]:
        """The resources not lent out now."""
        with self._lock:
            return list(self._free)

    @staticmethod
    def workers(threads: int | None, items: int) -> int:
        """Threads for ``items`` items: ``threads`` (default one per CPU), at least 1, at most ``items``."""
        want = (os.cpu_count() or 1) if threads is None else int(threads)
        return max(1, min(want, items))

    def run(self, fn: Callable[[Worker[R], T], Any], items: Sequence[T], *, threads: int | None = None,
            stop: Callable[[], bool] | None = None, wait: float | None = None
            ) -> Generator[tuple[int, Any] | None, None, None]:
        """``fn(worker, item)`` for each item in worker threads; yields ``(index, result)`` as
        each is done, and, with ``wait``, None whenever ``wait`` seconds pass without one (the
        caller's thread may then look at a clock or a Stop button). Leaving the loop early
        stops the workers (their searches are cancelled) and waits for them."""
        n = len(items)
        if n == 0:
            return
        k = self.workers(threads, n)
        halt = threading.Event()
        results: queue.Queue[tuple[int, Any] | None] = queue.Queue()  # (-1, error); None: a worker is done
        nxt = iter(range(n))
        take = threading.Lock()

        priority = current_priority()  # the caller's (a heavy job's), for its workers

        def work(w: Worker[R]) -> None:
            lower_this_thread(priority)
            try:
                while not halt.is_set():
                    if stop is not None and stop():
                        halt_all()
                        return
                    with take:
                        i = next(nxt, None)
                    if i is None:
                        return
                    try:
                        got = fn(w, items[i])
                    except self._cancelled:
                        if halt.is_set() or (stop is not None and stop()):
                            halt_all()
                            return
                        raise
                    results.put((i, got))
            except BaseException as e:  # noqa: BLE001 (raised again in the caller's thread)
                halt_all()
                results.put((-1, e))
            finally:
                results.put(None)  # this worker is done

        resources = self.borrow(k)

        def halt_all() -> None:
            halt.set()
            if self._interrupt is not None:
                for r in resources:
                    self._interrupt(r)
        threads_ = [threading.Thread(target=work, args=(Worker(r, halt.is_set),), daemon=True,
                                     name="fiftysix-solver") for r in resources]
        live = k
        try:
            for th in threads_:
                th.start()
            while live:
                try:
                    item = results.get(timeout=POLL if wait is None else wait)
                except queue.Empty:
                    if stop is not None and not halt.is_set() and stop():
                        halt_all()  # the searches in flight stop now, not at their next item
                    if wait is not None:
                        yield None
                    continue
                if item is None:
                    live -= 1
                elif item[0] < 0:
                    raise item[1]
                else:
                    yield item
        finally:
            halt_all()
            for th in threads_:
                th.join()
            self.give_back(resources)

    def map(self, fn: Callable[[Worker[R], T], Any], items: Sequence[T], *, threads: int | None = None,
            stop: Callable[[], bool] | None = None) -> list[Any]:
        """``fn(worker, item)`` for each item, in worker threads; the results in the items'
        order, ``NOT_DONE`` for an item that was stopped before it finished."""
        out = [NOT_DONE] * len(items)
        for i, got in self.run(fn, items, threads=threads, stop=stop):  # type: ignore[misc]
            out[i] = got
        return out
