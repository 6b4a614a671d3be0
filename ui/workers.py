"""Heavy jobs in warm worker processes below the pages.

A club server's pages all run in one Python process under one GIL; a heavy job (the
makeable estimate, a double-dummy table, a review, the bots' moves) in that process shares
its scheduling group with the pages however low its threads are set (bench/RESULTS.md: a
thread's SCHED_IDLE counts only inside its group). So the server hands each heavy job to a
worker process of its own (``run``): ``max_jobs()`` of them (``ui.jobs``' queue decides
which jobs run), started once, their kernels loaded from numba's cache (``solver.ensure_warm``
at start, a few seconds), kept warm between jobs. A worker

* runs every thread it has under Linux's SCHED_IDLE policy (``FIFTYSIX_HEAVY_PRIORITY``:
  "idle", the default; "low" for niceness +10; "normal");
* is moved, where the machine allows it, into a CPU cgroup marked ``cpu.idle=1``, a group that
  yields to every other at once: cgroup v2, in the server's own (delegated) subtree, or the
  cgroup v1 ``cpu`` hierarchy; where neither is writable it stays in the server's group, and
  ``placement()`` (logged once as the workers start) says so;
* gets ``work(stop)``: any picklable callable (a module-level function, a ``functools.partial``
  of one; never a page module's function, as importing a page runs it), with ``stop()`` True
  once the page stops the job or at the job's cap; what ``progress(...)`` is called with inside
  it goes back to the page (``on_progress``), and so does the result or the error raised.

A worker that dies mid-job (killed, out of memory) ends that job with ``WorkerLost``, a clear
error for the page's error box; the next job gets a fresh worker. A worker that does not stop
within ``STOP_GRACE`` seconds of being told (or of its cap) is killed and replaced.

``FIFTYSIX_HEAVY_WORKERS=thread`` runs the jobs in a thread of the server instead, as before
(``run`` then calls ``work`` in the calling thread; ``ui.jobs.run_cancellable`` does that).

This module imports no Streamlit: the worker processes start from it (``python -m
fiftysix.ui.workers``).
"""
from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from fiftysix.errors import FiftySixError
from fiftysix.ui import job_report

T = TypeVar("T")

STOP_GRACE = 10.0
"""Seconds a worker has to come back after being told to stop (or after its cap) before it is killed."""
READY_WAIT = 180.0
"""Seconds a new worker may take to load the kernels (a first run compiles them: a minute or two)."""
CGROUP_NAME = "fiftysix-heavy"
"""The cgroup the workers go into (one per server: its name ends with the server's process id)."""
LOG_THREAD = "fiftysix-workers-log"
"""The thread that logs where the heavy jobs run, once the first worker is ready."""


class WorkerLost(FiftySixError):
    """The worker process running a job ended before the job did."""


class NotSendable(Exception):
    """This work cannot be sent to a worker process (a lambda, a page's own function)."""


def enabled() -> bool:
    """Whether heavy jobs run in worker processes (``FIFTYSIX_HEAVY_WORKERS``: "process", the
    default, or "thread" for the server's own threads, as before)."""
    return os.environ.get("FIFTYSIX_HEAVY_WORKERS", "process").strip().lower() != "thread"


# -- what the work calls: ``progress`` (ui/job_report.py, re-exported here) -------------------

progress = job_report.progress
reporting = job_report.reporting


# -- the worker process --------------------------------------------------------------------

def _send(out: IO[bytes], lock: threading.Lock, msg: tuple) -> None:
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    with lock:
        out.write(len(data).to_bytes(8, "little"))
        out.write(data)
        out.flush()


def _recv(inp: IO[bytes]) -> tuple | None:
    head = inp.read(8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "little")
    data = inp.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)


def lower_this_process() -> str:
    """The worker's own priority, from ``FIFTYSIX_HEAVY_PRIORITY``: its main thread gets
    niceness +10 ("low") and SCHED_IDLE ("idle", the default), and every thread it starts
    afterwards (the solver's pool) inherits them; "normal" leaves it as started. A thread of
    this process holding the GIL keeps only this process's other threads waiting, never a page.
    What it got, in words."""
    how = os.environ.get("FIFTYSIX_HEAVY_PRIORITY", "idle").strip().lower()
    from fiftysix.analyser import pool
    if how == "normal":
        return "normal priority"
    with contextlib.suppress(OSError):  # the calling thread (Linux); threads started later inherit it
        os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10))
    idle = how != "low" and hasattr(os, "SCHED_IDLE")
    pool.set_worker_nice(0, idle=idle)
    if idle:
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "SCHED_IDLE"
        except OSError:
            pass
    return "niceness +10"


def serve() -> int:
    """A worker's life: load the kernels, say ready, then run jobs one at a time until the
    server closes the pipe. Messages are pickles with a length in front; the server's
    stdin is the way in, a copy of stdout the way out (stdout itself goes to stderr, so that
    nothing a library prints can spoil a message)."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    inp = sys.stdin.buffer
    lock = threading.Lock()
    from fiftysix.analyser import solver
    solver.ensure_warm()  # at the priority it was started with: a few seconds, once
    import fiftysix.ui.heavy  # noqa: F401 - the pages' work, loaded before the worker goes below them
    how = lower_this_process()
    _send(out, lock, ("ready", os.getpid(), how))
    jobs: queue.Queue = queue.Queue()
    stopped: set[int] = set()  # the jobs told to stop (a stop may come before its job starts)
    gone = threading.Event()

    def read() -> None:
        while (msg := _recv(inp)) is not None:
            if msg[0] == "stop":
                stopped.add(msg[1])
            else:
                jobs.put(msg)
        gone.set()
        jobs.put(None)  # the server is gone

    threading.Thread(target=read, daemon=True, name="fiftysix-worker-inbox").start()
    while (msg := jobs.get()) is not None:
        _, jid, payload, seconds = msg
        end = time.monotonic() + seconds

        def stop(jid: int = jid, end: float = end) -> bool:
            return jid in stopped or gone.is_set() or time.monotonic() >= end

        def report(*args: Any, jid: int = jid) -> None:
            _send(out, lock, ("progress", jid, args))

        try:
            work = pickle.loads(payload)
            with reporting(report):
                value = work(stop)
            reply: tuple = ("done", jid, value)
        except BaseException as e:  # noqa: BLE001 (handed to the page)
            reply = ("error", jid, e)
        try:
            _send(out, lock, reply)
        except (pickle.PicklingError, TypeError, AttributeError) as e:  # an answer that cannot travel
            _send(out, lock, ("error", jid, FiftySixError(f"the job's answer could not be sent back: {e}")))
        stopped.discard(jid)
    return 0


# -- placing the workers below the pages ---------------------------------------------------

def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, file system type, super options) of each cgroup mount."""
    out = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            parts, rest = left.split(), right.split()
            if len(rest) >= 3 and rest[0] in ("cgroup", "cgroup2"):
                out.append((parts[4], rest[0], rest[2]))
    return out


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup paths: "" for v2, each v1 controller's name for v1."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if not names:
                out[""] = path
            for n in names.split(","):
                out.setdefault(n, path)
    return out


def _write(path: Path, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _clear_stale(parent: Path) -> None:
    """Remove the workers' groups that servers killed outright left behind (empty, their server
    gone): their names end with the server's process id."""
    for old in parent.glob(f"{CGROUP_NAME}-*"):
        pid = old.name.rsplit("-", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            with contextlib.suppress(OSError):
                old.rmdir()


def _idle_group_v2() -> Path:
    """A cpu.idle=1 cgroup under this server's own v2 cgroup (making the server's cgroup a
    parent: the server moves into a leaf beside it, as v2 allows no process in a cgroup whose
    controllers are handed down). OSError when the subtree is not ours to write."""
    mount = next((m for m, kind, _ in _mounts() if kind == "cgroup2"), None)
    own = _own_cgroups().get("")
    if mount is None or own is None:
        raise OSError("no cgroup v2 here")
    base = Path(mount) / own.lstrip("/")
    if "cpu" not in (base / "cgroup.controllers").read_text().split():
        raise OSError(f"the cpu controller is not handed down to {base}")
    heavy = base / f"{CGROUP_NAME}-{os.getpid()}"
    _clear_stale(base)
    if "cpu" not in (base / "cgroup.subtree_control").read_text().split():
        leaf = base / f"fiftysix-server-{os.getpid()}"
        leaf.mkdir(exist_ok=True)
        _write(leaf / "cgroup.procs", str(os.getpid()))
        _write(base / "cgroup.subtree_control", "+cpu")
    heavy.mkdir(exist_ok=True)
    _write(heavy / "cpu.idle", "1")
    return heavy


def _idle_group_v1() -> Path:
    """A cpu.idle=1 cgroup under this server's own cgroup of the v1 ``cpu`` hierarchy."""
    mount = next((m for m, kind, opts in _mounts() if kind == "cgroup" and "cpu" in opts.split(",")), None)
    own = _own_cgroups().get("cpu")
    if mount is None or own is None:
        raise OSError("no cgroup v1 cpu hierarchy here")
    heavy = Path(mount) / own.lstrip("/") / f"{CGROUP_NAME}-{os.getpid()}"
    _clear_stale(heavy.parent)
    heavy.mkdir(exist_ok=True)
    _write(heavy / "cpu.idle", "1")
    return heavy


_group: dict[str, Any] = {}
_club = {"on": False}


def configure(club: bool) -> None:
    """Whether this server is a club server (the cgroup is for club servers unless set)."""
    _club["on"] = bool(club)


def idle_group_wanted() -> bool:
    """Whether the workers go into a cpu.idle cgroup: ``FIFTYSIX_HEAVY_CGROUP`` "on", "off", or
    "auto" (the default): on a club server, where the pages of many members must come first;
    not for one local user, whose own jobs should not wait for every other program on the
    computer, nor in the tests."""
    how = os.environ.get("FIFTYSIX_HEAVY_CGROUP", "auto").strip().lower()
    return how == "on" or (how != "off" and _club["on"])


def idle_group() -> tuple[Path | None, str]:
    """The cpu.idle cgroup the workers go into (None: none could be made), and in words where
    the workers run; tried once per server."""
    if "path" not in _group:
        why = []
        for kind, make in (("cgroup v2", _idle_group_v2), ("cgroup v1", _idle_group_v1)):
            try:
                path = make()
            except OSError as e:
                why.append(f"{kind}: {e.strerror or e}")
                continue
            _group.update(path=path, words=f"in the cpu.idle cgroup {path} ({kind})")
            atexit.register(_remove_group, path)
            break
        else:
            _group.update(path=None, words="in the server's own scheduling group (no cgroup with cpu.idle could "
                                           "be made: " + "; ".join(why) + ")")
    return _group["path"], _group["words"]


def _remove_group(path: Path) -> None:
    _pool.close()
    for _ in range(20):  # the killed workers leave it within moments
        try:
            path.rmdir()
            return
        except OSError:
            time.sleep(0.05)


def place(pid: int) -> str:
    """Move process ``pid`` into the idle cgroup where there is one; where it runs, in words."""
    path, words = idle_group()
    if path is not None:
        try:
            _write(path / "cgroup.procs", str(pid))
        except OSError as e:
            return f"in the server's own scheduling group (moving it into {path} failed: {e.strerror or e})"
    return words


# -- the server's side ---------------------------------------------------------------------

class Worker:
    """One worker process and the thread that reads its messages into ``inbox``."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "fiftysix.ui.workers"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        self.where = "starting"
        self.inbox: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        self.how = ""
        self.gone = False
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True, name=f"fiftysix-worker-{self.proc.pid}").start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            while (msg := _recv(self.proc.stdout)) is not None:
                if msg[0] == "ready":  # kernels loaded: now below the pages
                    self.how = msg[2]
                    self.where = place(self.proc.pid) if idle_group_wanted() else (
                        "in the server's own scheduling group (FIFTYSIX_HEAVY_CGROUP: not on a local server)")
                    self.ready.set()
                else:
                    self.inbox.put(msg)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError) as e:
            self.inbox.put(("broken", repr(e)))
        self.gone = True
        self.ready.set()
        self.inbox.put(("gone",))

    def alive(self) -> bool:
        return not self.gone and self.proc.poll() is None

    def send(self, msg: tuple) -> None:
        assert self.proc.stdin is not None
        try:
            _send(self.proc.stdin, self._lock, msg)
        except (OSError, ValueError) as e:
            raise WorkerLost(f"the solver's worker process could not be reached ({e})") from None

    def kill(self, why: str = "") -> None:
        if why and self.alive():
            print(f"fiftysix: heavy-job worker {self.proc.pid} ended: {why}", file=sys.stderr, flush=True)
        with contextlib.suppress(OSError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)


class Workers:
    """The server's warm worker processes: one per running job, started ahead."""

    def __init__(self, size: Callable[[], int]) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._free: list[Worker] = []
        self._busy: list[Worker] = []
        self._logged = False

    def start(self) -> None:
        """Start workers up to ``size()`` (at once; each loads the kernels on its own)."""
        with self._lock:
            self._free = [w for w in self._free if w.alive()]
            while len(self._free) + len(self._busy) < self.size():
                self._free.append(Worker())
            if not self._logged and self._free:
                self._logged = True
                threading.Thread(target=self._log, args=(self._free[0],), daemon=True, name=LOG_THREAD).start()

    def _log(self, w: Worker) -> None:
        """One line in the server's log once the first worker is ready: where the jobs run."""
        if w.ready.wait(READY_WAIT) and w.alive():
            print(f"fiftysix: heavy jobs run in {self.size()} worker processes ({w.how}), {w.where}",
                  file=sys.stderr, flush=True)

    @contextlib.contextmanager
    def borrow(self) -> Iterator[Worker]:
        with self._lock:
            self._free = [w for w in self._free if w.alive()]
            # a worker whose kernels are loaded first: a job should not wait for one still loading
            ready = [w for w in self._free if w.ready.is_set()]
            if self._free:
                w = (ready or self._free)[-1]
                self._free.remove(w)
            else:
                w = Worker()
            self._busy.append(w)
        try:
            yield w
        finally:
            with self._lock:
                self._busy.remove(w)
                if w.alive():
                    self._free.append(w)

    def pids(self) -> list[int]:
        with self._lock:
            return [w.proc.pid for w in self._free + self._busy if w.alive()]

    def close(self) -> None:
        with self._lock:
            for w in self._free + self._busy:
                w.kill()
            self._free, self._busy = [], []


def max_jobs() -> int:
    """Heavy jobs the server runs at once (``FIFTYSIX_HEAVY_JOBS``, default 2, at least 1): the
    queue's cap (``ui.jobs``), and so the number of workers."""
    try:
        return max(1, int(os.environ.get("FIFTYSIX_HEAVY_JOBS", "2")))
    except ValueError:
        return 2


_pool = Workers(max_jobs)


def workers() -> Workers:
    """The server's one set of worker processes."""
    return _pool


def placement() -> str:
    """Where heavy jobs run, in words (the server logs it as the first worker is ready)."""
    if not enabled():
        return "heavy jobs run in the server's own threads (FIFTYSIX_HEAVY_WORKERS=thread)"
    if not idle_group_wanted():
        return "heavy jobs run in worker processes under SCHED_IDLE, in the server's own scheduling group"
    return f"heavy jobs run in worker processes under SCHED_IDLE, {idle_group()[1]}"


def run(work: Callable[[Callable[[], bool]], T], stop: Callable[[], bool], seconds: float,
        on_progress: Callable[..., object] | None = None, tick: Callable[[], None] | None = None,
        every: float = 0.25) -> T:
    """``work(stop)`` in a worker process, its ``stop()`` True at ``seconds`` or once the
    caller's ``stop()`` is; ``progress(...)`` calls inside it reach ``on_progress``; ``tick()``
    is called every ``every`` seconds meanwhile (the page's yield point: an exception raised
    there stops the job, and is raised again once the worker is free). The work's result, or
    its error raised here; ``WorkerLost`` where the worker died."""
    try:
        payload = pickle.dumps(work, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as e:
        raise NotSendable(f"the work cannot be sent to a worker process ({e})") from None
    with _pool.borrow() as w:
        start = time.monotonic()
        while not w.ready.wait(every):
            if tick is not None:
                tick()
            if time.monotonic() - start > READY_WAIT:
                w.kill("not ready in time")
                raise WorkerLost("the solver's worker process did not start in time")
            if stop():
                raise WorkerLost("the job's time ran out while the solver was still being prepared")
        if not w.alive():
            raise WorkerLost("the solver's worker process could not start (see the server's log)")
        jid = next(_ids)
        start = time.monotonic()  # the cap counts from the job's start, not the worker's
        w.send(("job", jid, payload, float(seconds)))
        told = False
        finished = False
        try:
            while True:
                try:
                    msg = w.inbox.get(timeout=every)
                except queue.Empty:
                    msg = None
                if msg is None or msg[0] == "progress":
                    if msg is not None and msg[1] == jid and on_progress is not None:
                        on_progress(*msg[2])
                    if tick is not None:
                        tick()
                    if not told and stop():
                        w.send(("stop", jid))
                        told = True
                    if time.monotonic() - start > seconds + STOP_GRACE:
                        w.kill(f"its job did not stop within {STOP_GRACE:.0f} s of its cap")
                        finished = True
                        raise WorkerLost(f"the job did not stop at its time limit of {seconds:.0f} s, so its "
                                         "worker process was ended")
                    continue
                if msg[0] in ("done", "error") and msg[1] == jid:
                    finished = True
                    if msg[0] == "error":
                        raise msg[2]
                    return msg[2]
                if msg[0] in ("gone", "broken"):
                    finished = True
                    w.kill()
                    print(f"fiftysix: heavy-job worker {w.proc.pid} stopped in the middle of a job (exit status "
                          f"{w.proc.returncode})", file=sys.stderr, flush=True)
                    raise WorkerLost("the solver's worker process stopped in the middle of this job (killed, or "
                                     "out of memory); nothing was saved from it. Run it again: a fresh worker "
                                     "takes the next job.")
        finally:
            if not finished:  # the page was stopped: the worker stops too, and is free for the next job
                _drain(w, jid, told)


def _drain(w: Worker, jid: int, told: bool) -> None:
    if not told:
        with contextlib.suppress(WorkerLost):
            w.send(("stop", jid))
    end = time.monotonic() + STOP_GRACE
    while time.monotonic() < end:
        try:
            msg = w.inbox.get(timeout=0.1)
        except queue.Empty:
            continue
        if msg[0] in ("gone", "broken") or (msg[0] in ("done", "error") and msg[1] == jid):
            return
    w.kill(f"its job did not stop within {STOP_GRACE:.0f} s of being told")


_ids = itertools.count(1)


if __name__ == "__main__":  # the worker process: run as the package's module, not as __main__, so that
    from fiftysix.ui.workers import serve as _serve  # the work's ``progress`` calls reach this loop
    raise SystemExit(_serve())
