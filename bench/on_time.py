"""Benchmark: does "Is it makeable?" at 8 players answer on time with its defaults (issue 41)?

    .venv/bin/python -m bench.on_time [--hands 3] [--players 8] [--page]

For ``--hands`` seeded hands at ``--players`` players (seat 1 on lead, 32 in spades by seat
2): ``fiftysix simulate`` with its defaults, run as a user runs it (a new process, its start
and the kernels' load from the cache included), and with ``--page`` the Analyse page's
default run through AppTest (the Simulate button, nothing else changed). Each line: the
wall time, the deals solved, the 95% interval's half-width and why the run stopped. The
goal: an answer with its interval within 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from fiftysix.cards import Table, random_deal


def cli_line(players: int, seed: int) -> str:
    t = Table.make(players)
    hand = random_deal(t, seed=seed).hand(1)
    cmd = [sys.executable, "-m", "fiftysix.ui.cli", "simulate", "--players", str(players), "--seat", "1",
           "--hand", str(hand), "--contract", "32S", "--declarer", "2", "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - t0
    if out.returncode:
        return f"  simulate, hand {seed}: failed ({out.stderr.strip()[-200:]})"
    d = json.loads(out.stdout)
    lo, hi = d["interval"]
    why = "time limit" if d["stopped"] else ("interval reached" if d["deals"] < 2000 else "all deals")
    return (f"  simulate, hand {seed}: wall {wall:5.1f} s  {d['deals']:4d} deals  rate {d['rate']:.2f} "
            f"+-{(hi - lo) / 2:.1%}  ({why})")


def page_line(players: int, seed: int) -> str:
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["players"] = players
    at.run()
    at.switch_page("ui/pages/analyse.py").run()
    at.number_input(key="an_seed").set_value(seed)
    at.button(key="an_deal_btn").click().run()  # the deal (its double-dummy table is solved here too)
    t0 = time.perf_counter()
    at.button(key="FormSubmitter:an_est_form-Simulate").click().run()
    wall = time.perf_counter() - t0
    if at.exception:
        return f"  Analyse page, hand {seed}: failed ({at.exception[0].value})"
    m = {x.label: x.value for x in at.metric}
    stopped = any("time limit" in w.value for w in at.warning)
    return (f"  Analyse page, hand {seed}: wall {wall:5.1f} s  {int(m['Deals']):4d} deals  makeable {m['Makeable']} "
            f"95% {m['95% interval']}  ({'time limit' if stopped else 'interval reached'})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--page", action="store_true", help="also the Analyse page's default run")
    args = ap.parse_args()
    os.environ.setdefault("FIFTYSIX_DATA_DIR", tempfile.mkdtemp(prefix="fiftysix-bench-"))
    print(f"on-time benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}; {args.players} players, defaults", flush=True)
    for seed in range(1, args.hands + 1):
        print(cli_line(args.players, seed), flush=True)
    if args.page:
        for seed in range(1, args.hands + 1):
            print(page_line(args.players, seed), flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
