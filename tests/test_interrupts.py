"""Ctrl-C reaches a search on the command line's main thread at once (analyser/interrupts.py):
before, Python's handler waited for the kernels to return, seconds later."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

HARD_8X8 = "Q.K.9KQ.ATQ TQ.JJ9Q.J.T 9K.A.K.9KQ8 9ATK.977.7. A887.A.9A8. JJ.TK8..J98 7.TQ.T7.JK7 .8.JATQ8.A7"
"""bench/solver.py's hardest 8 x 8 deal (spades): `fiftysix solve` searches 32.7 M nodes on it."""

CHILD = """
import json, os, signal, sys, threading, time
from fiftysix.analyser import solver as S
from fiftysix.ui.cli import main
S.ensure_warm()
s = S.default_solver()
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal: a job started in the
# background of a shell (CI's runner, for one) inherits SIGINT ignored, and Python then keeps it so

def ctrl_c():  # once the search runs, and a fifth of a second into it
    while s._running is None:
        time.sleep(0.01)
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=ctrl_c, daemon=True).start()
rc = main(["solve", "--players", "8", "--deal", sys.argv[1], "--trump", "S", "--json"])
print(json.dumps({"rc": rc, "nodes": s.nodes}))
"""


@pytest.mark.slow
def test_ctrl_c_stops_a_command_line_search_at_once():
    """``fiftysix solve`` on the hardest 8 x 8 deal, SIGINT 0.2 s into its search: the command
    says "interrupted" and exits 130 having searched a small part of the tree (before, the
    signal waited for the whole solve, 32.7 M nodes, then the same exit)."""
    out = subprocess.run([sys.executable, "-c", CHILD, HARD_8X8], check=False, capture_output=True, text=True,
                         timeout=300)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["rc"] == 130 and "fiftysix solve: interrupted" in out.stderr, out.stderr[-2000:]
    assert 0 < got["nodes"] < 8_000_000, got


def test_watching_leaves_the_wakeup_fd_as_it_found_it():
    """The pipe is the command's only while it runs: another's wakeup fd (an event loop's) is
    left alone, and none is left behind."""
    import os
    import signal

    from fiftysix.analyser import interrupts
    assert signal.set_wakeup_fd(-1) == -1
    with interrupts.watching():
        assert interrupts.active()
    assert not interrupts.active() and signal.set_wakeup_fd(-1) == -1
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        signal.set_wakeup_fd(w)
        with interrupts.watching():
            assert not interrupts.active()
        assert signal.set_wakeup_fd(-1) == w
    finally:
        os.close(r)
        os.close(w)
