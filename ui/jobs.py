"""Heavy work from a page: a queue with a cap on jobs at once, a wall-clock cap, and a stop.

The entry point is ``heavy_job(label, seconds)``, a context manager every page uses around
work that can hold a core for seconds or more (the makeable estimate, the double-dummy table
and stepper, a review's card costs, the bots' play). It

* refuses a visitor who is not signed in on a club server (``JobRefused``; local mode has
  its one player): a signed-out visitor cannot start heavy work even if a page lets him try;
* waits for a free place: the server runs at most ``max_jobs()`` heavy jobs at once
  (``FIFTYSIX_HEAVY_JOBS``, default 2: one per core of a 2-core machine), at most one per
  browser session; the rest wait in line, first come first served, and the page shows the
  place in the queue, staying at a Streamlit yield point so Stop, Cancel or a closed tab end
  the wait;
* then yields a ``Job`` whose ``stop()`` turns True at the job's wall-clock cap (``seconds``,
  at most ``MAX_JOB_SECONDS``, shown on the page) or once the run is stopped: the work passes
  it to the solver, whose watcher thread looks at it every 50 ms (``solver.WATCH_POLL``).

``background_job(label, seconds)`` is the place for work no page waits for (play problems
made ahead, ``drills.problem_prep``): it runs only while a place is free and no page's job
waits, at most one at a time, and its ``stop()`` turns True as soon as a page's job waits for
a place, so the page gets the core within about a second (the work picks up later).

``run_cancellable(work, label, seconds)`` runs ``work(stop)`` in a worker thread inside a
heavy job, keeping the script thread at a yield point every quarter second (an elapsed-time
note with the cap): when Streamlit stops the run (its Stop button, a rerun asked by a button
such as the page's Cancel, the session closing; a disconnected session is also noticed
there), the exception raised there first tells the worker to stop and waits for it, so the
CPU is free again within about a second.

The work itself runs in one of the server's warm worker processes (``ui.workers``, through
``run_cancellable`` and ``in_worker``): every thread there runs under Linux's SCHED_IDLE policy
(``FIFTYSIX_HEAVY_PRIORITY``: "idle", "low" for niceness +10, "normal"), on a club server in a
cgroup marked ``cpu.idle=1`` where the machine allows it, and holds no lock a page needs, not
even the GIL; the queue above decides which jobs run. With ``FIFTYSIX_HEAVY_WORKERS=thread``
the work runs in the server's own threads as before: its solver threads below the pages
(``pool.worker_priority``), ``run_cancellable``'s own thread, which may run Python for long
while holding the GIL, at the niceness only. bench/load.py measures both; bench/RESULTS.md
has the figures.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

import streamlit as st

from fiftysix.analyser.pool import current_priority, lower_this_thread, worker_priority
from fiftysix.errors import FiftySixError
from fiftysix.ui import workers
from fiftysix.ui.workers import max_jobs

T = TypeVar("T")

MAX_JOB_SECONDS = 300.0
"""No heavy job runs longer than this, whatever a page asks."""
WORKER_NICE = 10
"""The solver threads' niceness in the server, above the server's own (0 is normal; 19 the lowest)."""
PRIORITIES = ("idle", "low", "normal")
"""``FIFTYSIX_HEAVY_PRIORITY``: the heavy jobs' solver threads run under Linux's SCHED_IDLE
("idle", the default: only on CPU time no page wants), at ``WORKER_NICE`` ("low"), or as the
pages do ("normal"); bench/load.py measures each."""


def heavy_priority() -> str:
    """The heavy jobs' priority (``FIFTYSIX_HEAVY_PRIORITY``, one of ``PRIORITIES``; "idle" unless set)."""
    got = os.environ.get("FIFTYSIX_HEAVY_PRIORITY", "idle").strip().lower()
    return got if got in PRIORITIES else "idle"


def heavy_levels() -> tuple[int, bool]:
    """(niceness step, SCHED_IDLE) of a heavy job's solver threads, from ``heavy_priority()``."""
    how = heavy_priority()
    return (0 if how == "normal" else WORKER_NICE), how == "idle"


WAIT_EVERY = 0.25
"""Seconds between two looks at the queue (each a Streamlit yield point)."""


class JobRefused(FiftySixError):
    """This visitor may not start heavy work (signed out of a club server)."""


@dataclass(eq=False)
class Ticket:
    """One job's place: waiting in line, then running."""

    owner: str
    label: str
    running: bool = False
    background: bool = False
    since: float = field(default_factory=time.monotonic)


class JobQueue:
    """At most ``limit()`` tickets run at once, one per owner; the others wait in order."""

    def __init__(self, limit: Callable[[], int] = max_jobs) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._running: list[Ticket] = []
        self._waiting: list[Ticket] = []

    def join(self, owner: str, label: str = "", background: bool = False) -> Ticket:
        """Join the line (and run at once if there is room). A ``background`` ticket runs only
        while no page's ticket waits and no other background ticket runs."""
        t = Ticket(owner, label, background=background)
        with self._lock:
            self._waiting.append(t)
            self._promote()
        return t

    def place(self, t: Ticket) -> int:
        """0 once ``t`` runs; else its place in the line (1 = next)."""
        with self._lock:
            self._promote()
            return 0 if t.running else self._waiting.index(t) + 1

    def leave(self, t: Ticket) -> None:
        with self._lock:
            if t in self._running:
                self._running.remove(t)
            if t in self._waiting:
                self._waiting.remove(t)
            t.running = False
            self._promote()

    def counts(self) -> tuple[int, int]:
        """(pages' jobs running, pages' jobs waiting): background work left out."""
        with self._lock:
            return (sum(not t.background for t in self._running), sum(not t.background for t in self._waiting))

    def pages_waiting(self) -> bool:
        """Whether a page's job waits for a place (background work then gives its place up)."""
        with self._lock:
            return any(not t.background for t in self._waiting)

    def _promote(self) -> None:
        room = self.limit() - len(self._running)
        busy = {r.owner for r in self._running}
        pages_wait = any(not t.background for t in self._waiting)
        for t in sorted(self._waiting, key=lambda t: t.background):  # pages first, background after
            if room <= 0:
                break
            if t.owner in busy:  # one job per session: its next waits for the one running
                continue
            if t.background and (pages_wait or any(r.background for r in self._running)):
                continue  # background work runs alone, and never ahead of a page
            self._waiting.remove(t)
            self._running.append(t)
            t.running = True
            busy.add(t.owner)
            room -= 1


_queue = JobQueue()


def job_queue() -> JobQueue:
    """The server's one queue of heavy jobs."""
    return _queue


@dataclass
class Job:
    """A running heavy job: its label, cap and start; ``stop()`` is True past the cap or once
    the run was stopped (thread-safe: searches in other threads may call it)."""

    label: str
    seconds: float
    start: float = field(default_factory=time.monotonic)
    halt: threading.Event = field(default_factory=threading.Event)
    yields: Callable[[], bool] | None = None
    """Background work: True when it should give its place up (a page's job waits)."""

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        return max(0.0, self.seconds - self.elapsed())

    def timed_out(self) -> bool:
        return self.elapsed() >= self.seconds

    def stop(self) -> bool:
        return self.halt.is_set() or self.timed_out() or (self.yields is not None and self.yields())

    def caption(self) -> str:
        """What the page shows while it runs: the label, the seconds so far and the cap."""
        return f"{self.label} ({self.elapsed():.0f} s; stops at {self.seconds:.0f} s at the latest)"


def session_gone() -> bool:
    """True once this script run's browser session has disconnected (a closed tab): the run
    may go on until Streamlit drops the session, so long work asks this and stops."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists():
        return False  # bare mode or a test harness: no browser session to lose
    return not Runtime.instance().is_active_session(ctx.session_id)


def _owner() -> str:
    """Whose job it is: this browser session (every script run of a tab has the same id)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else f"thread-{threading.get_ident()}"


def _refusal() -> str | None:
    """Why this visitor may not start heavy work (None: it may)."""
    from fiftysix.ui.club import club, current_user
    if club() is not None and current_user() is None:
        return "Sign in to the club to run the solver."
    return None


def wait_text(place: int, running: int) -> str:
    """The page's line while a job waits (its place in the queue)."""
    ahead = "next in line" if place == 1 else f"number {place} in line"
    return (f"Waiting for a free solver: {running} heavy job(s) running on this server, yours is {ahead}. "
            "It starts by itself.")


@contextmanager
def heavy_job(label: str, seconds: float) -> Iterator[Job]:
    """Wait for a place in the server's queue (showing it), then run as a ``Job`` capped at
    ``seconds`` (at most ``MAX_JOB_SECONDS``). JobRefused for a signed-out club visitor."""
    why = _refusal()
    if why is not None:
        raise JobRefused(why)
    q = job_queue()
    ticket = q.join(_owner(), label)
    note = st.empty()
    job = None
    try:
        while (place := q.place(ticket)) > 0:
            note.info(wait_text(place, q.counts()[0]), icon=":material/hourglass_top:")
            if session_gone():
                st.stop()
            time.sleep(WAIT_EVERY)
        note.empty()
        job = Job(label, min(float(seconds), MAX_JOB_SECONDS))
        with worker_priority(*heavy_levels()):  # its solver threads, below every page's script
            yield job
    finally:
        if job is not None:
            job.halt.set()
        q.leave(ticket)
        note.empty()


@contextmanager
def background_job(label: str, seconds: float, owner: str = "background") -> Iterator[Job | None]:
    """A place for work no page waits for, now: a ``Job`` (capped at ``seconds``, at most
    ``MAX_JOB_SECONDS``) whose ``stop()`` also turns True once a page's job waits for a place;
    None when there is no place for it now (a page's job runs or waits, the places are taken,
    or other background work runs): try again later. No Streamlit call: any thread may use it."""
    q = job_queue()
    ticket = q.join(owner, label, background=True)
    if not ticket.running:
        q.leave(ticket)
        yield None
        return
    job = Job(label, min(float(seconds), MAX_JOB_SECONDS), yields=q.pages_waiting)
    try:
        yield job
    finally:
        job.halt.set()
        q.leave(ticket)


def in_worker(job: Job, work: Callable[[Callable[[], bool]], T],
              on_progress: Callable[..., object] | None = None, tick: Callable[[], None] | None = None,
              every: float = 0.25) -> T:
    """``work(stop)`` for this running ``job``: in one of the server's worker processes
    (``ui.workers``: below the pages, kernels warm), its ``stop()`` True at the job's cap or
    once the page stops it; ``workers.progress(...)`` inside it reaches ``on_progress`` and
    ``tick()`` runs every ``every`` seconds, both in this script thread (Streamlit yield points:
    Stop, Cancel or a closed tab end the job there). With ``FIFTYSIX_HEAVY_WORKERS=thread``,
    or for work that cannot be sent to a process (logged once), it runs in this thread as
    before. ``workers.WorkerLost`` (a FiftySixError) where the worker died mid-job."""
    if workers.enabled():
        try:
            return workers.run(work, job.stop, job.left(), on_progress=on_progress, tick=tick, every=every)
        except workers.NotSendable as e:
            _log_once(f"fiftysix: {job.label!r} runs in the server's own thread: {e}")
    return _in_thread(job, work, every, on_progress, tick)


_logged: set[str] = set()


def _log_once(line: str) -> None:
    if line not in _logged:
        _logged.add(line)
        print(line, file=sys.stderr, flush=True)


def run_cancellable(work: Callable[[Callable[[], bool]], T], label: str, seconds: float,
                    every: float = 0.25, on_progress: Callable[..., object] | None = None) -> T:
    """``work(stop)`` inside a heavy job of at most ``seconds`` (``stop()`` turns True at the
    cap or once the run is stopped), showing ``label``, the seconds elapsed and the cap;
    returns its result or raises its error. It runs in a worker process (``in_worker``; what
    it passes to ``workers.progress`` reaches ``on_progress``), or, in thread mode, in a
    thread of the server while this script thread stays at a yield point."""
    with heavy_job(label, seconds) as job:
        if workers.enabled():
            note = st.empty()

            def tick() -> None:
                if session_gone():
                    st.stop()  # nobody to show the answer to: the worker is told to stop
                note.caption(job.caption())

            try:
                return workers.run(work, job.stop, job.left(), on_progress=on_progress, tick=tick, every=every)
            except workers.NotSendable as e:
                _log_once(f"fiftysix: {label!r} runs in the server's own thread: {e}")
            finally:
                note.empty()
        return _in_thread(job, work, every, on_progress)


def _in_thread(job: Job, work: Callable[[Callable[[], bool]], T], every: float,
               on_progress: Callable[..., object] | None, tick: Callable[[], None] | None = None) -> T:
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx
    box: dict = {}
    priority = current_priority()

    def target() -> None:
        # this thread may run Python for long (a problem's scan, a review's loop): niceness
        # only, as a SCHED_IDLE thread holding the GIL would keep the pages waiting on a
        # thread that runs last; the solver threads it starts (kernels, GIL released) go idle
        lower_this_thread((priority[0], False))
        try:
            with worker_priority(*priority), workers.reporting(on_progress):  # and the pool threads it starts
                box["value"] = work(job.stop)
        except BaseException as e:  # noqa: BLE001 (handed to the script thread)
            box["error"] = e

    th = threading.Thread(target=target, daemon=True, name="fiftysix-job")
    add_script_run_ctx(th, get_script_run_ctx(suppress_warning=True))
    note = st.empty()
    th.start()
    try:
        while th.is_alive():
            th.join(every)
            if tick is not None:
                tick()
                continue
            if session_gone():
                st.stop()  # nobody to show the answer to: the finally below stops the worker
            if th.is_alive():
                note.caption(job.caption())
    finally:
        job.halt.set()
        th.join()
        note.empty()
    if "error" in box:
        raise box["error"]
    return box["value"]
