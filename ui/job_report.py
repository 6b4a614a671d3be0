"""How a heavy job tells its page how it goes: ``progress(...)``, wherever the job runs.

The work of a heavy job (``ui.heavy``) calls ``progress(...)`` with picklable values; in a
worker process (``ui.workers``) they travel to the page's ``on_progress``, in the server's own
thread they go to it directly (``reporting``), and with neither they go nowhere.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

_report: ContextVar[Callable[..., object] | None] = ContextVar("fiftysix_job_report", default=None)


def progress(*args: Any) -> None:
    """Tell the page how the job goes (picklable values): from a worker process to the
    page's ``on_progress``; in the server's own thread straight to it; nowhere if none."""
    f = _report.get()
    if f is not None:
        f(*args)


@contextlib.contextmanager
def reporting(to: Callable[..., object] | None) -> Iterator[None]:
    """Within this block (this thread's context), ``progress(...)`` calls ``to(...)``."""
    token = _report.set(to)
    try:
        yield
    finally:
        _report.reset(token)
