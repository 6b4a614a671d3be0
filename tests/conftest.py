"""Fixtures the test modules share: the app served on a free port for a browser, and the browser.

Tests marked ``browser`` drive the app in headless Chromium; they are also ``slow`` (left out of
the quick loop, ``pytest -m "not slow"``), as are the tests listed in tests/slow_tests.txt and are skipped, with the reason, where Chromium or its
driver is missing (``.ci/run`` installs Debian's packages). The helpers that drive the page
are in tests/browser_harness.py; the AppTest set-up in tests/app_harness.py.
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from tests.app_harness import free_port, serving

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("FIFTYSIX_PROBLEM_STOCK", "0")
"""The app's Problems page fills a stock of opening leads in the background from its first
visit: off in the tests' servers and AppTests (tests/test_problem_prep.py tests the stock)."""
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


SLOW = frozenset(line.strip() for line in (ROOT / "tests" / "slow_tests.txt").read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#"))
"""The tests measured slow (tests/slow_tests.txt): out of the quick loop, in the full suite."""

SHARED_SERVERS = ("tests/test_stats.py",)
"""Modules whose tests share a module-scoped server besides the browser modules (a Dask cluster)."""

LONGEST_FIRST = ("tests/test_package.py::test_the_wheel_installs_and_serves_the_app_from_anywhere",
                 "tests/test_browser_coach.py", "tests/test_browser.py", "tests/test_browser_club.py",
                 "tests/test_browser_learner.py", "tests/test_stats.py", "tests/test_browser_newcomer.py",
                 "tests/test_browser_play.py", "tests/test_club_crash.py")
"""The longest units of work (a test, or a module that shares a server), longest first, as
measured in full runs (bench/RESULTS.md, "The suite"): the full run hands them out first (then
the other slow tests, then the rest), so that no long unit starts near the end while the other
workers sit idle. The order only changes when tests start, never what runs."""


def _start_rank(item: pytest.Item) -> int:
    for k, first in enumerate(LONGEST_FIRST):
        if item.nodeid == first or item.nodeid.split("::")[0] == first:
            return k
    return len(LONGEST_FIRST) + (0 if item.get_closest_marker("slow") else 1)


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER))
    for item in items:
        browser = item.get_closest_marker("browser") is not None
        if browser or item.nodeid.split("::")[0] in SHARED_SERVERS:
            # with pytest-xdist's --dist loadgroup (./scripts/test), a module whose tests share a
            # server runs on one worker, so the server starts once; other tests go one by one
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        if browser or item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)
            if missing:
                item.add_marker(pytest.mark.skip(reason=f"the browser tests need {CHROMIUM} and {DRIVER} (apt-get "
                                                        "install chromium chromium-driver; .ci/run installs them)"))
    if getattr(config.option, "loadgroup", False):  # a worker of ./scripts/test's run (--no-loadscope-reorder)
        items.sort(key=_start_rank)  # stable: collection order within a rank


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    """On the controller of ``--dist loadgroup``: a module that shares a server must reach the
    scheduler as one group, or each of its tests starts a server and a Chromium on any worker;
    with pytest 9.2, pytest-xdist 3.8 groups nothing (pytest-xdist#1386). Stop and say so."""
    if node.config.getvalue("dist") == "loadgroup":
        lost = [i for i in ids if "@" not in i and i.startswith(("tests/test_browser", *SHARED_SERVERS))]
        if lost:
            pytest.exit(f"pytest-xdist did not group {lost[0]} with its module: see the pytest bound in "
                        "pyproject.toml", returncode=2)


@pytest.fixture(autouse=True)
def _no_workers_log_left_over():
    """The heavy-job pool logs one line from a thread once its first worker has loaded the
    kernels (up to a cold compile's half minute after it started). Where a test ends with
    that line still to come, close the pool (its workers start again on demand, and the
    process logs no second line): left running, the line lands in a later test's captured
    stderr and breaks a test that counts its error lines (CI, 2026-12-06: test_stats; once a
    module, 2026-12-07: test_stats' own Explain page test started the pool, and the line
    came three tests later in the same module)."""
    yield
    workers = sys.modules.get("fiftysix.ui.workers")
    if workers is not None and any(t.name == workers.LOG_THREAD and t.is_alive() for t in threading.enumerate()):
        workers.workers().close()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh data folder (``FIFTYSIX_DATA_DIR``) for the module's app server."""
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory, data_dir: Path):
    """``streamlit run app.py`` on a free loopback port with a fresh data folder; stopped afterwards."""
    from tests.browser_harness import SHOTS
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    (SHOTS / "failure.png").unlink(missing_ok=True)
    env = {**os.environ, "FIFTYSIX_DATA_DIR": str(data_dir)}
    with serving(cmd, port, tmp_path_factory.mktemp("log") / "streamlit.log", ROOT, env, timeout=120) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium with a profile of its own, quit afterwards."""
    from tests.browser_harness import chromium
    drv, profile = chromium()
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
