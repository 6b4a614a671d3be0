"""A club server under load, on loopback: members drilling and saving while heavy jobs run.

Starts a real OpenID Connect provider (oidc-provider-mock) and ``streamlit run app.py`` as a
club server with a fresh data folder, signs ``--sessions`` members in through the provider,
and for ``--seconds`` has each drill the starter bank over Streamlit's websocket protocol (the
browser's own messages: bench/club_client.py), every answer saved; meanwhile ``--heavy`` tabs
keep "Is it makeable?" running on 2,000 deals at 8 players, and a probe tab reloads a light
page (Rules) once a second. Reported:

* answers lost: answers the page confirmed (its "Right"/"Not quite" after the save) that are
  not in the data file afterwards; the goal is 0;
* the light page's median and p95 time, idle (before any load) and under load, and their ratio
  (the goal: p95 under load within 2x of idle);
* with ``--cycle N``: the heavy tabs start jobs only in alternate spans of N seconds, and the
  light page's times are also given split by the heavy jobs running while each was taken
  (with / without, the same members, the same run: the heavy jobs' own cost);
* with ``--heavy-process same|own``: the heavy jobs run outside the server instead
  (bench/heavy_process.py), in its scheduling group or in one of niceness 19, to tell what
  the pages pay for the jobs' CPU apart from what they pay for sharing the server's process;
* the machine: CPU used by other processes, the server, its child processes (the heavy jobs'
  workers, ui/workers.py) and this bench (the members' browsers), in cores, idle, under load (with and without heavy jobs) and idle again after,
  and the load average: on a shared box the idle figure is only fair next to these;
* the server's memory (resident set) over the run: start, peak, end; and with its worker
  processes added;
* with ``--kill``: the server is killed with SIGKILL while the members answer, and the answers
  confirmed before it are counted in the file again (lost: 0), which then passes SQLite's
  integrity check.

    .venv/bin/python -m bench.load --sessions 20 --seconds 300 --heavy 2 --think 5 --cycle 60 --kill

The server runs in a session of its own (Linux shares the CPU between autogroups as between
programs, so the members' browsers here do not take the server's share). Run it at normal
priority: under ``nice`` the server and the other sessions' jobs trade places, and the
heavy jobs' priority (``FIFTYSIX_HEAVY_PRIORITY``, passed on to the server) is relative to it.

Loopback only; every loop is bounded by ``--seconds`` and the process stops by itself.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from websockets.exceptions import ConnectionClosed

from bench.club_client import ClientError, Tab, sign_in

GONE = (ClientError, OSError, TimeoutError, ConnectionClosed)
"""What a member's tab meets when a page fails or the server goes away."""

BANK = {"dr_source": ["a question bank"]}
"""The Drill page's "Questions from": a question bank (the sidebar's system's starter bank)."""
SECRETS = """
[auth]
redirect_uri = "{app}/oauth2callback"
cookie_secret = "load-test-cookie-secret-0123456789abcdef"
client_id = "fiftysix-load"
client_secret = "fiftysix-load-secret"
server_metadata_url = "{idp}/.well-known/openid-configuration"

[club]
name = "Load test club"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def start_server(folder: Path, idp: str, data: Path, own_group: bool = False) -> tuple[subprocess.Popen, str]:
    """``streamlit run app.py`` as a club server; with ``own_group``, in a session of its own,
    so that Linux's scheduler (autogroups) shares the CPU between it and the members'
    browsers (this process) as between two programs, as when the browsers are elsewhere."""
    port = free_port()
    app = f"http://127.0.0.1:{port}"
    secrets = folder / "secrets.toml"
    secrets.write_text(SECRETS.format(app=app, idp=idp))
    log = open(folder / f"streamlit-{port}.log", "w")  # noqa: SIM115 - the server writes it until it stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
         "--secrets.files", str(secrets)],
        cwd=ROOT, env={**os.environ, "FIFTYSIX_DATA_DIR": str(data)}, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=own_group)
    deadline = time.time() + 90
    while True:
        try:
            with urllib.request.urlopen(app + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc, app
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit(f"streamlit did not start (see {log.name})")
        time.sleep(0.5)


class Member(threading.Thread):
    """One signed-in member drilling until ``stop``: each answer confirmed on the page counts."""

    def __init__(self, app: str, cookies: dict, stop: threading.Event, seed: int, think: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.app, self.cookies, self.stop = app, cookies, stop
        self.think = think
        self.rng = random.Random(seed)
        self.confirmed = 0
        self.errors: list[str] = []
        self.times: list[float] = []

    def run(self) -> None:
        while not self.stop.is_set():
            tab = None
            try:  # a page that fails or hangs is an error, and the member starts over in a new tab
                tab = Tab(self.app, self.cookies)
                while not self.stop.is_set():
                    self.session(tab)
            except GONE as e:
                if not self.stop.is_set():
                    self.errors.append(f"{type(e).__name__}: {e}")
            finally:
                if tab is not None:
                    with contextlib.suppress(*GONE):
                        tab.close()

    def session(self, tab: Tab) -> None:
        """A session of the bank's questions: pick a choice, answer (saved), next."""
        page = tab.set(tab.open("drill"), BANK)
        page = tab.click("Start a session", page, BANK)
        while not self.stop.is_set() and page.has("Question "):
            self.stop.wait(self.rng.uniform(0.5, 1.5) * self.think)  # reading the question
            pick = tab.click(f"dr_pick_{self.rng.randrange(2)}", page)
            page = tab.click("dr_answer", pick)
            self.times.append(page.seconds)
            if (page.has("Right:") or page.has("Not quite")) and not page.has("was not saved"):
                self.confirmed += 1
            elif page.has("was not saved"):
                self.errors.append("an answer was not saved")
            page = tab.click("dr_next", page)


class InFlight:
    """How many heavy jobs the tabs have running now (from their click to the page's answer)."""

    def __init__(self) -> None:
        self.n = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def one(self):
        with self._lock:
            self.n += 1
        try:
            yield
        finally:
            with self._lock:
                self.n -= 1


class Heavy(threading.Thread):
    """A tab that keeps a heavy job going: "Is it makeable?" on 2,000 deals at 8 players, started
    again as soon as it ends (by its own end, its time cap, or the server's queue), while
    ``gate`` is set (always, without one)."""

    def __init__(self, app: str, cookies: dict, stop: threading.Event, gate: threading.Event | None = None,
                 inflight: InFlight | None = None) -> None:
        super().__init__(daemon=True)
        self.app, self.cookies, self.stop = app, cookies, stop
        self.gate, self.inflight = gate, inflight or InFlight()
        self.runs = 0
        self.seconds: list[float] = []
        self.spans: list[tuple[float, float]] = []
        self.deals: list[int] = []  # deals solved by each run (its page's "after N deals")
        self.errors: list[str] = []
        self.tab: Tab | None = None

    def halt(self) -> None:
        """Close the tab: the server stops the job it runs (a closed tab stops its heavy work)."""
        if self.tab is not None:
            with contextlib.suppress(*GONE):
                self.tab.close()

    def run(self) -> None:
        try:
            tab = self.tab = Tab(self.app, self.cookies, timeout=900)
            page = tab.open("analyse", "players=8")
            while not self.stop.is_set():
                if self.gate is not None and not self.gate.is_set():
                    self.stop.wait(0.2)
                    continue
                t0 = time.time()
                with self.inflight.one():
                    page = tab.click("Simulate", page, {"an_est_n": 2000, "an_est_seed": self.runs})
                self.seconds.append(page.seconds)
                self.spans.append((t0, time.time()))
                self.deals.extend(int(m[1]) for t in page.texts[-40:] if (m := re.search(r"after (\d+) deals", t)))
                self.runs += 1
            tab.close()
        except GONE as e:
            if not self.stop.is_set():
                self.errors.append(f"{type(e).__name__}: {e}")


def probe(app: str, cookies: dict, stop: threading.Event, times: list[float], every: float = 1.0,
          inflight: InFlight | None = None, tags: list[tuple[int, int, float]] | None = None) -> None:
    """Reload the light page every ``every`` seconds; with ``tags``, each time's heavy jobs in
    flight when it was asked for and when it came back."""
    tab = Tab(app, cookies)
    try:
        while not stop.is_set():
            before, t0 = inflight.n if inflight is not None else 0, time.time()
            times.append(tab.open("rules").seconds)
            if tags is not None:
                tags.append((before, inflight.n if inflight is not None else 0, t0))
            stop.wait(every)
    finally:
        tab.close()


class Machine:
    """The box's load while the bench runs: CPU used by other processes (neither the server
    nor this bench), in cores, between two marks, and the load average."""

    def __init__(self, server: int) -> None:
        self.server = server
        self.last = self._now()

    @staticmethod
    def _ticks(pid: int | str, children: bool = False) -> int:
        """utime + stime of a process; with ``children``, those of its children that ended too."""
        try:
            f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return int(f[11]) + int(f[12]) + (int(f[13]) + int(f[14]) if children else 0)
        except (OSError, IndexError, ValueError):
            return 0

    def _workers(self) -> int:
        """CPU ticks of the server's child processes (its heavy jobs' workers, the solver's
        warm-up), the live ones and those that ended."""
        return self._ticks(self.server, children=True) - self._ticks(self.server) + sum(
            self._ticks(c, children=True) for c in descendants(self.server))

    def _now(self) -> tuple[float, int, int, int, int]:
        try:
            cpu = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
            busy = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
        except (OSError, ValueError, IndexError):
            busy = 0
        return time.monotonic(), busy, self._ticks(self.server), self._ticks("self"), self._workers()

    def mark(self, into: dict[str, float] | None = None) -> dict[str, float]:
        """Since the last mark: cores used by other processes, by the server, by its worker
        processes (the heavy jobs) and by this bench (the members' browsers); with ``into``, the
        CPU seconds are also added there."""
        now = self._now()
        (t0, b0, s0, c0, w0), (t1, b1, s1, c1, w1) = self.last, now
        self.last = now
        hz, dt = os.sysconf("SC_CLK_TCK"), max(1e-9, t1 - t0)
        got = {"others": (b1 - b0 - (s1 - s0) - (c1 - c0) - (w1 - w0)) / hz, "server": (s1 - s0) / hz,
               "workers": (w1 - w0) / hz, "bench": (c1 - c0) / hz}
        if into is not None:
            for k, v in got.items():
                into[k] = into.get(k, 0.0) + v
            into["seconds"] = into.get("seconds", 0.0) + dt
        return {f"{k}_cores": round(v / dt, 2) for k, v in got.items()} | {"load1": round(os.getloadavg()[0], 1)}

    @staticmethod
    def cores(acc: dict[str, float]) -> dict[str, float]:
        """Cores used over the spans added up in ``acc`` (see ``mark``)."""
        dt = max(1e-9, acc.get("seconds", 0.0))
        return {f"{k}_cores": round(acc.get(k, 0.0) / dt, 2) for k in ("others", "server", "workers", "bench")} | {
            "seconds": round(dt)}


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid`` (children, their children, ...)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            kids = [int(x) for t in Path(f"/proc/{p}/task").iterdir()
                    for x in (t / "children").read_text().split()]
        except (OSError, ValueError):
            kids = []
        out += kids
        todo += kids
    return out


def idle_times(app: str, cookies: dict, n: int) -> list[float]:
    """The light page's times with nothing else asked of the server (``n`` loads)."""
    out: list[float] = []
    tab = Tab(app, cookies)
    try:
        for _ in range(n):
            out.append(tab.open("rules").seconds)
            time.sleep(0.2)
    finally:
        tab.close()
    return out


def stored(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT learner, COUNT(*) FROM reviews GROUP BY learner").fetchall())


def lost(members: list[Member], ids: list[str], db: Path) -> int:
    rows = stored(db)
    return sum(max(0, m.confirmed - rows.get(i, 0)) for m, i in zip(members, ids))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--heavy", type=int, default=2)
    ap.add_argument("--idle-probes", type=int, default=20)
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds a member reads each question before answering (0: clicks without a pause)")
    ap.add_argument("--cycle", type=float, default=0,
                    help="heavy tabs start jobs only in alternate spans of this many seconds (0: all the time); "
                         "the light page's times are then split by the heavy jobs running when they were taken")
    ap.add_argument("--heavy-process", choices=("same", "own"),
                    help="instead of heavy tabs, run --heavy heavy jobs in processes of their own (bench/heavy_process.py): "
                         "'same' in the server's scheduling group (the server then shares this bench's session), "
                         "'own' each in an autogroup of niceness 19; with --cycle they are paused in alternate spans")
    ap.add_argument("--kill", action="store_true", help="end by killing the server mid-save (SIGKILL)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--trace", type=Path, help="write each light-page time and heavy job's span here (JSON)")
    args = ap.parse_args(argv)
    import oidc_provider_mock

    folder = Path(tempfile.mkdtemp(prefix="fiftysix-load-"))
    data = folder / "data"
    with oidc_provider_mock.run_server_in_thread(port=free_port()) as idp_server:
        idp = f"http://127.0.0.1:{idp_server.server_port}"
        proc, app = start_server(folder, idp, data, own_group=args.heavy_process != "same")
        out: dict = {"sessions": args.sessions, "seconds": args.seconds, "heavy": args.heavy, "think": args.think}
        try:
            t0 = time.time()
            prober = sign_in(app, "probe@club.test")
            warm = Tab(app, prober)  # first runs import and compile: not part of the idle figure
            for page, query in (("rules", ""), ("drill", ""), ("analyse", "players=8")):
                shown = warm.open(page, query)  # modules imported, kernels compiled: once per server
                if page == "drill":
                    warm.click("Start a session", warm.set(shown, BANK), BANK)
            warm.close()
            machine = Machine(proc.pid)
            idle = idle_times(app, prober, args.idle_probes)
            out["machine_idle"] = machine.mark()
            out["rss_start_mib"] = rss_mib(proc.pid)
            out["rss_with_workers_start_mib"] = round(
                (rss_mib(proc.pid) or 0) + sum(rss_mib(c) or 0.0 for c in descendants(proc.pid)), 1)
            ids, cookies = [], []
            for k in range(args.sessions):
                who = f"member{k:02d}@club.test"
                cookies.append(sign_in(app, who))
                ids.append(who)
            out["sign_in_seconds"] = round(time.time() - t0, 1)
            stop = threading.Event()
            gate, inflight = threading.Event(), InFlight()
            gate.set()
            heavy = [Heavy(app, sign_in(app, f"heavy{k}@club.test"), stop, gate if args.cycle else None, inflight)
                     for k in range(0 if args.heavy_process else args.heavy)]
            outside = [subprocess.Popen([sys.executable, "-m", "bench.heavy_process", "--seconds", str(args.seconds + 60),
                                         "--seed", str(k)] + (["--own-group"] if args.heavy_process == "own" else []),
                                        cwd=ROOT) for k in range(args.heavy if args.heavy_process else 0)]
            inflight.n = len(outside)
            for h in heavy:
                h.start()
            time.sleep(2 if args.heavy else 0)
            members = [Member(app, c, stop, k, args.think) for k, c in enumerate(cookies)]
            loaded: list[float] = []
            tags: list[tuple[int, int, float]] = []
            rss: list[float] = []
            rss_all: list[float] = []  # the server and its worker processes
            loads: list[float] = []
            pt = threading.Thread(target=probe, args=(app, prober, stop, loaded, 1.0, inflight, tags), daemon=True)
            for m in members:
                m.start()
            pt.start()
            machine.mark()
            begin = time.time()
            end = begin + args.seconds
            spans: dict[bool, dict[str, float]] = {True: {}, False: {}}  # heavy jobs running or not
            while time.time() < end:
                r = rss_mib(proc.pid)
                if r is not None:
                    rss.append(r)
                    rss_all.append(r + sum(rss_mib(c) or 0.0 for c in descendants(proc.pid)))
                loads.append(os.getloadavg()[0])
                if args.cycle and args.heavy:
                    if int((time.time() - begin) // args.cycle) % 2 == 0:
                        gate.set()
                    else:
                        gate.clear()
                    if outside and gate.is_set() != (inflight.n > 0):
                        for p in outside:
                            os.kill(p.pid, signal.SIGCONT if gate.is_set() else signal.SIGSTOP)
                        inflight.n = len(outside) if gate.is_set() else 0
                running = inflight.n > 0
                time.sleep(1)
                machine.mark(spans[running and inflight.n > 0])
            out["machine_load"] = Machine.cores({k: spans[True].get(k, 0) + spans[False].get(k, 0)
                                                 for k in ("others", "server", "workers", "bench", "seconds")})
            out["machine_load"]["load1_mean"] = round(sum(loads) / max(1, len(loads)), 1)
            if args.cycle and args.heavy:
                out["machine_with_heavy"], out["machine_no_heavy"] = Machine.cores(spans[True]), Machine.cores(spans[False])
            stop.set()
            for h in heavy:
                h.halt()
            for p in outside:
                os.kill(p.pid, signal.SIGCONT)
                p.terminate()
                p.wait(timeout=30)
            for t in [*members, pt, *heavy]:
                t.join(timeout=150)
            machine.mark()
            idle_after = idle_times(app, prober, args.idle_probes)
            out["machine_idle_after"] = machine.mark()
            db = data / "progress.sqlite3"
            full_ids = {i: next((k for k in stored(db) if k.endswith("|" + i)), "") for i in ids}
            out.update({
                "answers_confirmed": sum(m.confirmed for m in members),
                "answers_stored": sum(stored(db).get(full_ids[i], 0) for i in ids),
                "answers_lost": lost(members, [full_ids[i] for i in ids], db),
                "answer_p50_s": round(pct([t for m in members for t in m.times], 0.5), 3),
                "answer_p95_s": round(pct([t for m in members for t in m.times], 0.95), 3),
                "light_idle_p50_s": round(pct(idle, 0.5), 3), "light_idle_p95_s": round(pct(idle, 0.95), 3),
                "light_load_p50_s": round(pct(loaded, 0.5), 3), "light_load_p95_s": round(pct(loaded, 0.95), 3),
                "light_probes": len(loaded),
                "light_idle_after_p50_s": round(pct(idle_after, 0.5), 3),
                "light_idle_after_p95_s": round(pct(idle_after, 0.95), 3),
                "heavy_runs_finished": sum(h.runs for h in heavy),
                "heavy_run_seconds": [round(x, 1) for h in heavy for x in h.seconds][:20],
                "heavy_deals_per_run": [d for h in heavy for d in h.deals][:20],
                "rss_peak_mib": round(max(rss), 1) if rss else None,
                "rss_end_mib": round(rss[-1], 1) if rss else None,
                "rss_with_workers_peak_mib": round(max(rss_all), 1) if rss_all else None,
                "rss_with_workers_end_mib": round(rss_all[-1], 1) if rss_all else None,
                "workers": len(descendants(proc.pid)),
                "errors": [e for t in [*members, *heavy] for e in t.errors][:10],
            })
            out["light_p95_ratio"] = round(out["light_load_p95_s"] / out["light_idle_p95_s"], 2)
            if args.cycle and args.heavy:  # the same run's times split by the heavy jobs running meanwhile
                with_ = [x for x, (a, b) in zip(loaded, [t[:2] for t in tags]) if a and b]
                without = [x for x, (a, b) in zip(loaded, [t[:2] for t in tags]) if not a and not b]
                out.update({
                    "light_with_heavy_p50_s": round(pct(with_, 0.5), 3),
                    "light_with_heavy_p95_s": round(pct(with_, 0.95), 3), "light_with_heavy_probes": len(with_),
                    "light_no_heavy_p50_s": round(pct(without, 0.5), 3),
                    "light_no_heavy_p95_s": round(pct(without, 0.95), 3), "light_no_heavy_probes": len(without),
                })
            if args.trace:
                args.trace.write_text(json.dumps({
                    "start": begin, "light": [[t[2] - begin, x, t[0], t[1]] for x, t in zip(loaded, tags)],
                    "heavy": [[a - begin, b - begin] for h in heavy for a, b in h.spans]}))
            if args.kill:
                out.update(kill_mid_save(app, proc, cookies, ids, full_ids, db))
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for k, v in out.items():
            print(f"{k:24} {v}")
    return 0 if out.get("answers_lost", 1) == 0 and out.get("kill_answers_lost", 0) == 0 else 1


def kill_mid_save(app: str, proc: subprocess.Popen, cookies: list[dict], ids: list[str], full_ids: dict,
                  db: Path) -> dict:
    """The members drill again; after a few seconds of answers the server gets SIGKILL."""
    before = stored(db)
    stop = threading.Event()
    members = [Member(app, c, stop, 100 + k) for k, c in enumerate(cookies)]
    for m in members:
        m.start()
    deadline = time.time() + 60
    while sum(m.confirmed for m in members) < 3 * len(members) and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(random.uniform(0.0, 0.5))  # somewhere in the middle of saves
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    stop.set()
    for m in members:
        m.join(timeout=30)
    after = stored(db)
    with sqlite3.connect(db) as con:
        check = con.execute("PRAGMA integrity_check").fetchone()[0]
    confirmed = {full_ids[i]: m.confirmed for m, i in zip(members, ids)}
    return {"kill_answers_confirmed": sum(confirmed.values()),
            "kill_answers_stored": sum(after.get(k, 0) - before.get(k, 0) for k in confirmed),
            "kill_answers_lost": sum(max(0, n - (after.get(k, 0) - before.get(k, 0))) for k, n in confirmed.items()),
            "kill_integrity": check}


if __name__ == "__main__":
    sys.exit(main())
