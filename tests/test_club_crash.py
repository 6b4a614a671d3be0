"""A club server killed with SIGKILL while members save answers loses no answer it confirmed.

A real server (``streamlit run app.py`` as a club, a real OpenID Connect provider on loopback)
and members drilling over Streamlit's own websocket protocol (bench/club_client.py); the
server is killed once every member has had answers confirmed on the page, in the middle of
further saves. Every confirmed answer is in the data file afterwards, the file passes SQLite's
integrity check, and each member's cards agree with their reviews (an answer's card and
review are one transaction: a review without its card, or a card without its review, would
show here). bench/load.py does the same at the end of its 20-member run.
"""
from __future__ import annotations

import logging
import os
import signal
import sqlite3
import threading
import time

import pytest

oidc_mock = pytest.importorskip("oidc_provider_mock", reason="needs oidc-provider-mock (pip install -e '.[test]')")

from bench.club_client import sign_in
from bench.load import Member, free_port, start_server, stored

pytestmark = pytest.mark.slow
MEMBERS = 3


def test_a_server_killed_mid_save_keeps_every_confirmed_answer(tmp_path):
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    data = tmp_path / "data"
    with oidc_mock.run_server_in_thread(port=free_port()) as idp:
        proc, app = start_server(tmp_path, f"http://127.0.0.1:{idp.server_port}", data)
        try:
            who = [f"m{k}@club.test" for k in range(MEMBERS)]
            stop = threading.Event()
            members = [Member(app, sign_in(app, w), stop, k) for k, w in enumerate(who)]
            for m in members:
                m.start()
            deadline = time.time() + 240
            while min(m.confirmed for m in members) < 3 and time.time() < deadline:
                assert not any(m.errors for m in members), [m.errors for m in members]
                time.sleep(0.05)
            assert min(m.confirmed for m in members) >= 3, "the members could not drill"
            os.kill(proc.pid, signal.SIGKILL)  # while the others' next answers are on their way
            proc.wait()
            stop.set()
            for m in members:
                m.join(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    db = data / "progress.sqlite3"
    rows = stored(db)
    for m, w in zip(members, who):
        [learner] = [k for k in rows if k.endswith("|" + w)]
        assert rows[learner] >= m.confirmed  # a review per confirmed answer, or more (one saved as it died)
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        reps = dict(con.execute("SELECT learner, SUM(reps) FROM cards GROUP BY learner").fetchall())
    assert reps == rows
