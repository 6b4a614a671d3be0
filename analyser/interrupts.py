"""Ctrl-C during a search on a command's main thread.

Python runs its SIGINT handler (KeyboardInterrupt) on the main thread between two bytecodes,
so a search in the kernels, which run for seconds without any, only heard Ctrl-C once it
ended. While ``watching`` runs (the command line's handlers run inside it), the signal's C
handler also writes its number to a pipe (``signal.set_wakeup_fd``), which the solver's
watcher thread reads (``interrupted``) at each look: it then halts the search running on the
main thread, whose kernel returns at once, and Python's handler runs as it would have.
Nothing else changes: a command with a SIGINT handler of its own keeps it (the halted search
goes on where the handler returns).
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_pipe: list[int] = []  # [read end, write end] while ``watching`` runs


@contextlib.contextmanager
def watching() -> Iterator[None]:
    """On the main thread and where no one else (an event loop) holds the wakeup fd: note
    every signal in a pipe for ``interrupted``, until the block ends. Elsewhere: nothing."""
    if threading.current_thread() is not threading.main_thread() or _pipe:
        yield
        return
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    try:
        old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except ValueError:  # (not the main thread of the main interpreter)
        old = None
    if old != -1:
        if old is not None:
            signal.set_wakeup_fd(old)  # someone else's: left theirs
        os.close(r)
        os.close(w)
        yield
        return
    with _lock:
        _pipe[:] = [r, w]
    try:
        yield
    finally:
        signal.set_wakeup_fd(-1)
        with _lock:
            _pipe.clear()
            os.close(r)
            os.close(w)


def active() -> bool:
    """Whether ``watching`` runs (so a search on the main thread is watched for Ctrl-C)."""
    return bool(_pipe)


def interrupted() -> bool:
    """Whether a SIGINT came since the last call (any thread; once per signal)."""
    with _lock:
        if not _pipe:
            return False
        try:
            data = os.read(_pipe[0], 4096)
        except OSError:  # (nothing came: the pipe is empty)
            return False
    return signal.SIGINT in data
