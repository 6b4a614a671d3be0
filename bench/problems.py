"""How long a play problem takes to make on demand, per table, level and kind, against DDS.

``drills.problem_sets.make_problem`` is timed (wall seconds, as the learner waits) for every
table (4, 6, 8 players, the usual deck), every level and a run of seeds, each with its default
limit (2 s for find-the-card; 30, 90 or 240 s for an opening lead at 4, 6 or 8 players); a
problem that did not turn up within the limit counts as a miss. Wall and CPU seconds both: the learner waits the wall time, and on a
shared machine the CPU time says what the work costs. One process makes them all and keeps
what each position gave, as the app's server does (``--cold`` forgets it before each problem). Every problem made is re-solved (``problems.verify``) and must
hold. DDS (endplay) solving bench/solver.py's seeded bridge deals is timed before and after,
and the medians are also given in DDS solves. Issue 45's goal: under 2 s a problem.

    nice .venv/bin/python -m bench.problems --seeds 8 --tables 4,6,8 --leads 4

A problem made on demand is one the shipped set does not hold (its ids are skipped).
``--no-index`` searches every position of every hand, as before the shipped index of positions
(``problem_sets.shipped_positions``), to compare in the same run.

``--learner THINK`` times the learner's wait instead: a fresh server (an empty data file, no
problem kept in memory, the shipped set read afresh) for each table, and a learner who meets
every shipped problem of each kind and level, then ``--problems`` new ones, ``THINK`` seconds on
each from the moment the server makes the next one ahead (``drills.problem_prep.Larder`` in a
background place of the heavy-job queue, as the page asks once two known ones are left); the
wait is from "Next problem" (or the first ask) to a problem handed over (up to ``--give-up``
seconds: a miss). ``--page`` also times the
page itself: an AppTest click on "Next problem" with a problem ready, to the next one drawn.
Every problem handed over is re-solved (``problems.verify``) at the end and must hold.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.solver import warm_up
from fiftysix.cards import Table
from fiftysix.drills import problem_sets
from fiftysix.drills.problem_hands import shipped_hands
from fiftysix.drills.problem_sets import make_problem
from fiftysix.drills.problems import FIND_CARD, LEAD_LEVELS, LEVELS, OPENING_LEAD, level_of, verify
from fiftysix.drills.questions import Question

_handed: set[str] = set()


def timed(table: Table, level: int, kind: str, seed: int, cold: bool) -> tuple[float, float, bool, bool]:
    """(wall seconds, CPU seconds, made, holds when re-solved) of one problem made on demand;
    ``cold``: with nothing kept from the problems made before in this process."""
    if cold:
        problem_sets._cards_made.clear()
        problem_sets._positions.clear()
        problem_sets._leads_made.clear()
        problem_sets._lead_scoring.clear()
        problem_sets._lead_levels.clear()
    skip = {q.id for q in problem_sets.starter_problems(table)} | _handed  # the shipped set is used up
    t0, c0 = time.perf_counter(), time.process_time()
    q = make_problem(table, level, kind, seed, skip=skip)
    if q is not None:
        _handed.add(q.id)  # met by the learner: the next request makes another
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    return took, cpu, q is not None, q is None or verify(q) == []


def quantiles(ts: list[float]) -> str:
    ts = sorted(ts)
    p90 = ts[max(0, math.ceil(0.9 * len(ts)) - 1)]  # nearest rank
    return f"median {statistics.median(ts):.2f} s, p90 {p90:.2f} s, max {ts[-1]:.2f} s"


FIRST_MAKE = """
import sys, time
from fiftysix.analyser.solver import warm_up
warm_up()
from fiftysix import shipped
from fiftysix.cards import Table
from fiftysix.drills import problem_hands, problem_sets
from fiftysix.records import parse_records
table, eager = Table.make(int(sys.argv[1])), sys.argv[2] == "eager"
skip = {q.id for q in problem_sets.starter_problems(table)}
t0 = time.perf_counter()
if eager:  # as before: every hand of the file parsed on the first call
    name = problem_hands.hands_name(table)
    hands = tuple(parse_records(shipped.data_file(problem_hands.PROBLEMS, name).read_text(encoding="utf-8"), name))
    problem_sets.shipped_hands = lambda t: hands
q = problem_sets.make_problem(table, 1, skip=skip, seed=int(sys.argv[3]))
print(time.perf_counter() - t0, q is not None)
"""


def first_make(players: int, runs: int) -> str:
    """A fresh server's first "Make a new problem now" (find the card, level 1, past the shipped
    set), the shipped hands read included, in ``runs`` fresh processes each: every hand parsed
    at once (as before) against each read when first asked for; the kernels warm beforehand."""
    import subprocess
    import sys
    got: dict[str, list[float]] = {"eager": [], "lazy": []}
    for r in range(runs):
        for how in ("eager", "lazy"):  # alternated, so that the load falls on both alike
            out = subprocess.run([sys.executable, "-c", FIRST_MAKE, str(players), how, str(r)],
                                 capture_output=True, text=True, check=True).stdout.split()
            got[how].append(float(out[0]))
    return (f"{players}p fresh server's first make (hands read included): every hand parsed at once"
            f" {quantiles(got['eager'])}; each hand when asked for {quantiles(got['lazy'])}")


def learner_waits(table: Table, think: float, problems: int, give_up: float, data: Path,
                  kinds: Sequence[str], survey: bool = True, levels: Sequence[int] = (), every: bool = False,
                  stock: bool = True, head_start: float = 0.0
                  ) -> tuple[float, list[tuple[str, int, list[float | None], list[Question], int]]]:
    """(seconds to read the shipped set, [(kind, level, each wait in seconds or None for a
    miss, the new problems handed over, how many of the waits were shipped problems)]) of a
    learner at a fresh server for ``table`` (its data file under ``data``): at each kind and
    level the learner meets every shipped problem (picked as the page picks them, at once),
    then ``problems`` new ones. From the moment ``ahead_of`` or fewer shipped ones are left the
    server makes the next ahead (as the page asks), and the learner thinks ``think`` seconds
    on each problem (``every``: on every problem, the shipped ones too); the wait is from "Next
    problem" to a problem handed over. ``stock``: as the page does, the server fills its stock of
    opening leads in the background from the learner's first visit (``head_start`` seconds
    before the first problem) and the learner takes a lead from it when none is known or ready."""
    from datetime import UTC, datetime

    from fiftysix.drills.problem_prep import Larder, ahead_of
    from fiftysix.drills.problem_sets import ProblemStore, pick_problem, starter_problems
    from fiftysix.ui.jobs import background_job
    for cache in (problem_sets._cards_made, problem_sets._positions, problem_sets._leads_made,
                  problem_sets._lead_scoring, problem_sets._lead_levels):
        cache.clear()
    problem_sets._starter.cache_clear()
    problem_sets.shipped_leads.cache_clear()
    if hasattr(problem_sets.shipped_positions, "cache_clear"):
        problem_sets.shipped_positions.cache_clear()
    t0 = time.perf_counter()
    shipped = starter_problems(table)  # a fresh server's first page reads the set (and the leads' scores)
    problem_sets.shipped_leads(table)
    problem_sets.shipped_positions(table)
    read = time.perf_counter() - t0
    server = ProblemStore(data / f"server-{table.players}.db")
    larder = Larder(background_job, index=server, stock_cap=problem_sets.STOCK_CAP if stock else 0)
    skip = {q.id for q in shipped}
    out = []
    if stock:
        larder.survey(table)  # the first visit to the page at this table
        time.sleep(head_start)
    try:
        for kind in kinds:
            for level in (LEVELS if kind == FIND_CARD else LEAD_LEVELS):
                if levels and level not in levels:
                    continue
                known = [q for q in shipped if q.type == kind and level_of(q) == level]
                seen: set[str] = set()
                waits: list[float | None] = []
                got: list[Question] = []
                while len(got) < problems:
                    left = [q for q in known if q.id not in seen]
                    if len(left) <= ahead_of(table, kind):  # the page asks the server for the next one ahead
                        larder.want(table, kind, level, skip | seen)
                        if kind == OPENING_LEAD and survey:
                            larder.survey(table)
                        if not every:
                            time.sleep(think)  # the learner works on the problem shown
                    if every and (seen or waits):
                        time.sleep(think)
                    t0 = time.perf_counter()
                    q = pick_problem(known, {}, level, (kind,), now=datetime.now(UTC), seed=len(seen), skip=seen)
                    while q is None and time.perf_counter() - t0 < give_up:
                        q = larder.take(table, kind, level, skip | seen)
                        if q is None and stock and kind == OPENING_LEAD:  # the page's take_stock
                            q = server.stocked(table, level, skip | seen)
                        wish = larder.progress(table, kind, level)
                        if q is None and wish is not None and wish.done and not larder.ready(table, kind, level):
                            larder.want(table, kind, level, skip | seen)  # the page asks again, as its Next does
                        if q is None:
                            time.sleep(0.02)
                        elif q.id not in skip:
                            got.append(q)
                    waits.append(None if q is None else time.perf_counter() - t0)
                    if q is None:
                        break
                    seen.add(q.id)
                print(f"{table.players}p {kind:12} level {level}: {len(known)} shipped; waits "
                      + " ".join("miss" if w is None else f"{w:.2f}" for w in waits), flush=True)
                out.append((kind, level, waits, got, len(known)))
    finally:
        larder.close()
    return read, out


def page_next(players: int, runs: int, ahead: bool) -> list[float]:
    """Seconds of an AppTest click on "Next problem" to the next problem drawn (the page's two
    script runs: pick it, then draw it), the problem answered first. ``ahead``: the learner
    has met every shipped level-1 problem, so each next one is a problem made ahead (waited
    for before the click); else the next is a shipped one (the same two runs, no larder)."""
    import os
    import tempfile

    from streamlit.testing.v1 import AppTest

    from fiftysix.drills import progress
    from fiftysix.ui import problem_parts
    app = str(Path(__file__).resolve().parents[1] / "app.py")
    out = []
    table = Table.make(players)
    with tempfile.TemporaryDirectory() as d:
        os.environ["FIFTYSIX_DATA_DIR"] = d
        problem_parts._larder = None
        if ahead:
            store = progress.ProgressStore(learner="bench")
            for q in problem_sets.starter_problems(table):
                if level_of(q) == 1:
                    store.record_answer(q, q.answer)
        at = AppTest.from_file(app, default_timeout=300)
        at.session_state["players"], at.session_state["deck"] = players, table.deck
        at.session_state["player"], at.session_state["pr_level"], at.session_state["pr_kinds"] = "bench", 1, [FIND_CARD]
        at.run()
        at.switch_page("ui/pages/problems.py").run()

        def until_ready() -> None:
            t0 = time.perf_counter()
            while ahead and not problem_parts.larder().ready(table, FIND_CARD, 1):
                if time.perf_counter() - t0 > 120:
                    raise SystemExit(f"no level-1 problem made ahead at {players} players in 120 s")
                time.sleep(0.05)
        for _ in range(runs + 1):
            until_ready()
            if at.session_state["pr_q"] is None:
                at.run()
            qid = at.session_state["pr_q"]["id"]
            at.button(key="pr_card_0").click().run()  # answer it, then Next
            until_ready()
            t0 = time.perf_counter()
            at.button(key="pr_next").click().run()
            took = time.perf_counter() - t0
            assert at.session_state["pr_q"] is not None and at.session_state["pr_q"]["id"] != qid
            out.append(took)
        problem_parts.larder().close()
    return out[1:]  # the first click also loads the page's modules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8, help="problems tried per table, kind and level")
    ap.add_argument("--tables", default="4,6,8", help="players, comma-separated")
    ap.add_argument("--leads", type=int, default=3, help="opening lead problems tried per table and level")
    ap.add_argument("--cold", action="store_true",
                    help="forget what the problems made before found (by default a process keeps it, as the app's)")
    ap.add_argument("--learner", type=float, default=None, metavar="THINK",
                    help="time the learner's wait instead, THINK seconds spent on each problem")
    ap.add_argument("--problems", type=int, default=3, help="with --learner: new problems a kind and level")
    ap.add_argument("--give-up", type=float, default=300.0, help="with --learner: a wait this long is a miss")
    ap.add_argument("--kinds", default=f"{FIND_CARD},{OPENING_LEAD}", help="with --learner: kinds, comma-separated")
    ap.add_argument("--levels", default="", help="with --learner: only these levels, comma-separated")
    ap.add_argument("--no-survey", action="store_true", help="with --learner: no background survey of the leads")
    ap.add_argument("--every", action="store_true", help="with --learner: think THINK seconds on every problem,"
                    " the shipped ones too (else only once the server makes the next ones ahead)")
    ap.add_argument("--no-stock", action="store_true", help="with --learner: no stock of leads filled from the"
                    " first visit (as before session 5)")
    ap.add_argument("--head-start", type=float, default=0.0, help="with --learner: seconds the stock fills"
                    " between the first visit and the first problem")
    ap.add_argument("--page", type=int, default=0, help="also time this many page clicks on Next per table")
    ap.add_argument("--peek", type=int, default=problem_sets.PEEK_DEALS,
                    help="deals of each hand's first look at its lead (0: no first look, each hand scored in full)")
    ap.add_argument("--first-make", type=int, default=0, metavar="RUNS",
                    help="only time a fresh server's first make, hands read at once against lazily, RUNS processes each")
    ap.add_argument("--no-index", action="store_true",
                    help="search every position of every hand, as before the shipped index of positions")
    args = ap.parse_args()
    if args.first_make:
        for p in (int(x) for x in args.tables.split(",")):
            print(first_make(p, args.first_make), flush=True)
        return
    problem_sets.PEEK_DEALS = args.peek
    if args.no_index:
        problem_sets.shipped_positions = lambda table: {}  # type: ignore[assignment]
    warm_up()
    load0 = " ".join(f"{x:.2f}" for x in os.getloadavg())
    ydeals = dds_deals(40, 2026)
    before = dds_median(ydeals)
    rows = []
    if args.learner is not None:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            for p in (int(x) for x in args.tables.split(",")):
                table = Table.make(p)
                shipped_hands(table)
                t_table = time.perf_counter()
                read, found = learner_waits(table, args.learner, args.problems, args.give_up, Path(d),
                                            args.kinds.split(","), not args.no_survey,
                                            [int(x) for x in args.levels.split(",") if x], args.every,
                                            not args.no_stock, args.head_start)
                stocked = problem_sets.ProblemStore(Path(d) / f"server-{p}.db").stock_counts(table)
                rows.append(f"{p}p the learner's visit took {time.perf_counter() - t_table:.0f} s; the server's stock"
                            f" of leads at the end, by level: {stocked}")
                print(rows[-1], flush=True)
                rows.append(f"{p}p a fresh server reads the shipped set, the leads' scores and the positions' index"
                            f" in {read:.2f} s")
                print(rows[-1], flush=True)
                for kind in args.kinds.split(","):
                    every = [(lv, waits, n) for k, lv, waits, _, n in found if k == kind]
                    got = [q for k, _, _, qs, _ in found if k == kind for q in qs]
                    if not every:
                        continue
                    for lv, waits, n in every:
                        firsts = [w for w in waits[:n] if w is not None]
                        new = waits[n:]
                        done = [w for w in new if w is not None]
                        rows.append(f"{p}p {kind:12} level {lv}: {n} shipped, first wait {waits[0] or 0:.3f} s,"
                                    f" max over the shipped {max(firsts, default=0):.3f} s; new {len(done)}/{len(new)}"
                                    f" handed over{', ' + quantiles(done) if done else ''};"
                                    f" {sum(w < 2.0 for w in done)}/{len(new)} under 2 s")
                        print(rows[-1], flush=True)
                    ws = [w for _, waits, _ in every for w in waits]
                    done = [w for w in ws if w is not None]
                    bad = sum(verify(q) != [] for q in got)
                    rows.append(f"{p}p {kind:12} learner's wait (think {args.learner:.0f} s), every problem asked:"
                                f" {len(done)}/{len(ws)} handed over, {quantiles(done) if done else '-'};"
                                f" {sum(w < 2.0 for w in done)}/{len(ws)} under 2 s"
                                f"{'' if not bad else f', {bad} FAILED the re-solve'}")
                    print(rows[-1], flush=True)
                for ahead in (((True, False) if p == 4 else (False,)) if args.page else ()):  # 6, 8: no new level 1
                    ts = page_next(p, args.page, ahead)
                    rows.append(f"{p}p page click on Next, the next problem {'made ahead' if ahead else 'shipped'}:"
                                f" {quantiles(ts)}")
                    print(rows[-1], flush=True)
        dds = (before + dds_median(ydeals)) / 2
        print(f"\nDDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals; {before * 1000:.2f} ms before);"
              f" load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}; load before {load0}")
        for r in rows:
            print(r)
        return
    for p in (int(x) for x in args.tables.split(",")):
        table = Table.make(p)
        shipped_hands(table)  # read once, as a page's first problem does
        for kind, levels, seeds in ((FIND_CARD, LEVELS, args.seeds), (OPENING_LEAD, LEAD_LEVELS, args.leads)):
            every: list[float] = []
            cpus: list[float] = []
            for level in levels:
                got = [timed(table, level, kind, 1000 + s, args.cold) for s in range(seeds)]
                if not got:
                    continue
                ts = [t for t, _, _, _ in got]
                every += ts
                cpus += [c for _, c, _, _ in got]
                made = sum(m for _, _, m, _ in got)
                bad = sum(not ok for _, _, _, ok in got)
                rows.append(f"{p}p {kind:12} level {level}: {made}/{len(got)} made, wall {quantiles(ts)}"
                            f"{'' if not bad else f', {bad} FAILED the re-solve'}")
                print(rows[-1], flush=True)
            if every:
                under = sum(t < 2.0 for t in every)
                rows.append(f"{p}p {kind:12} all levels: wall {quantiles(every)} (median"
                            f" {statistics.median(every) / before:.1f} DDS solves); CPU {quantiles(cpus)};"
                            f" {under}/{len(every)} under 2 s wall")
                print(rows[-1], flush=True)
    dds = (before + dds_median(ydeals)) / 2
    print(f"\nDDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals; {before * 1000:.2f} ms before,"
          " the DDS ratios above use it)")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
