"""Heavy solver work from a page that Stop, Cancel and a closed tab actually stop.

Streamlit can only interrupt a script run at its own calls ("yield points"): a run blocked in
a long search would keep its core busy after Stop. ``run_cancellable`` runs the work in a
worker thread and keeps the script thread at a yield point every quarter second (an elapsed-
time note); when Streamlit stops the run (its Stop button, a rerun asked by a button such as
the page's Cancel, the session closing; a disconnected session is also noticed there), the
exception raised there first tells the worker to stop (the solver looks at the flag every million nodes or so) and waits for it, so the
CPU is free again within about a second, and the same session cannot start a second heavy
job while the first still runs.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

T = TypeVar("T")


def session_gone() -> bool:
    """True once this script run's browser session has disconnected (a closed tab): the run
    may go on until Streamlit drops the session, so long work asks this and stops."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists():
        return False  # bare mode or a test harness: no browser session to lose
    return not Runtime.instance().is_active_session(ctx.session_id)


def run_cancellable(work: Callable[[Callable[[], bool]], T], label: str, every: float = 0.25) -> T:
    """``work(stop)`` in a worker thread (``stop()`` turns True once the run is stopped),
    showing ``label`` and the seconds elapsed; returns its result or raises its error."""
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx
    halt = threading.Event()
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = work(halt.is_set)
        except BaseException as e:  # handed to the script thread
            box["error"] = e

    th = threading.Thread(target=target, daemon=True, name="fiftysix-job")
    add_script_run_ctx(th, get_script_run_ctx(suppress_warning=True))
    note = st.empty()
    t0 = time.monotonic()
    th.start()
    try:
        while th.is_alive():
            th.join(every)
            if session_gone():
                st.stop()  # nobody to show the answer to: the finally below stops the worker
            if th.is_alive():
                note.caption(f"{label} ({time.monotonic() - t0:.0f} s)")
    finally:
        halt.set()
        th.join()
        note.empty()
    if "error" in box:
        raise box["error"]
    return box["value"]
