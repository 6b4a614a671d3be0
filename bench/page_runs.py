"""The CPU a member's Drill page costs the server per click (issue 44: the members' own page runs).

bench/load.py's member drills a starter bank: pick a choice, answer (saved), next question,
each click one rerun of the app's script (router, sidebar, the Drill page). This runs the same
clicks in one process with Streamlit's AppTest as a signed-in member of a club server, and
reports the CPU time of each kind of rerun (median and p90, in ms) and, with ``--profile``, the
functions that take it (cProfile, cumulative, over the measured reruns).

    .venv/bin/python -m bench.page_runs --questions 40 [--profile 30]

The CPU time is the process's (``time.process_time``) around each ``AppTest.run``: the page's
script plus AppTest's own handling of its messages, which a real server replaces with the
websocket's; compare runs of this bench with each other, not with bench/load.py's wall times.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
CLUB = {
    "auth": {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "x" * 32,
             "client_id": "fiftysix", "client_secret": "s", "server_metadata_url":
             "http://127.0.0.1:9/.well-known/openid-configuration"},
    "club": {"name": "Bench club"},
}
MEMBER = {"is_logged_in": True, "iss": "http://idp.test", "sub": "member01", "name": "Member One",
          "email": "member01@club.test", "email_verified": True}


def start(data: Path) -> AppTest:
    os.environ["FIFTYSIX_DATA_DIR"] = str(data)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.secrets.update(CLUB)
    at.user = dict(MEMBER)
    at.run()
    at.switch_page("ui/pages/drill.py").run()
    at.segmented_control(key="dr_source").set_value("bank").run()
    return at


def timed(at: AppTest, click, into: list[float], prof: cProfile.Profile | None) -> None:
    click()
    t0 = time.process_time()
    if prof is not None:
        prof.enable()
    at.run()
    if prof is not None:
        prof.disable()
    into.append((time.process_time() - t0) * 1000)
    if at.exception:
        raise SystemExit(f"the page failed: {[e.value for e in at.exception]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", type=int, default=40, help="questions answered (after 5 not measured)")
    ap.add_argument("--profile", type=int, default=0, help="print the top N functions by cumulative time")
    args = ap.parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="fiftysix-page-runs-"))
    at = start(data)
    prof = cProfile.Profile() if args.profile else None
    runs: dict[str, list[float]] = {"pick": [], "answer": [], "next": []}
    warm = 5
    done = 0
    while done < args.questions + warm:
        if not any(b.key == "dr_answer" for b in at.button):  # a session's end (or its start): a new one
            at.button(key="dr_go").click().run()
            continue
        p = prof if done >= warm else None
        into = runs if done >= warm else {k: [] for k in runs}
        timed(at, at.button(key=f"dr_pick_{done % 2}").click, into["pick"], p)
        timed(at, at.button(key="dr_answer").click, into["answer"], p)
        timed(at, at.button(key="dr_next").click, into["next"], p)
        done += 1
    for kind, xs in runs.items():
        xs.sort()
        print(f"{kind:7} n={len(xs):3}  CPU median {statistics.median(xs):6.1f} ms  "
              f"p90 {xs[int(0.9 * (len(xs) - 1))]:6.1f} ms")
    allx = [x for xs in runs.values() for x in xs]
    print(f"all     n={len(allx):3}  CPU median {statistics.median(allx):6.1f} ms  mean {statistics.mean(allx):6.1f} ms")
    if prof is not None:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.profile)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
