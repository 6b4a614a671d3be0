"""Subcommands for play problems: ``problems make|hands|starter|check``."""
from __future__ import annotations

import argparse
import queue
import threading
import time
from collections.abc import Iterator

from fiftysix.bidding import get_system
from fiftysix.drills.banks import load_bank, save_bank
from fiftysix.errors import FiftySixError
from fiftysix.records import read_records
from fiftysix.ui.commands.common import (
    MAX_SEED,
    add_seed_arg,
    add_table_args,
    arg,
    command,
    group,
    seconds,
    table_from,
    whole,
)
from fiftysix.ui.commands.output import Output, lines

KINDS = ("find-card", "opening-lead")


def register(sub: argparse._SubParsersAction) -> None:
    psub = group(sub, "problems", help="graded play problems: make one, play the bots' hands, build a starter set,"
                                       " check a set", dest="problems_command", metavar="ACTION")
    with command(psub, "make", cmd_make, help="a new play problem from the bots' shipped hands") as p:
        add_table_args(p)
        p.add_argument("--level", type=arg(whole, "--level", 1, 5), default=1, help="level 1-5 (default 1)")
        p.add_argument("--kind", choices=KINDS, default="find-card")
        add_seed_arg(p, 0, "which hands are tried first")
        p.add_argument("--max-seconds", type=arg(seconds), default=None,
                       help="give up after this long (default 2 s for find-card; for opening-lead"
                            " 30, 90 or 240 s at 4, 6 or 8 players)")
    with command(psub, "hands", cmd_hands,
                 help="deal, bid and play hands with the bots; append them to a record file (resumable)") as p:
        add_table_args(p)
        p.add_argument("--system", default="international")
        p.add_argument("--bot", default="default", help="bidding bot (default: default)")
        p.add_argument("--first", type=arg(whole, "--first", 0, MAX_SEED), default=1, help="first seed (default 1)")
        p.add_argument("-n", type=arg(whole, "-n", 1, 10_000), default=10, help="hands (seeds) to play (default 10)")
        p.add_argument("-o", "--output", required=True, help="record file to append to")
    with command(psub, "starter", cmd_starter,
                 help="build a verified starter set (a bank) from a file of the bots' hands") as p:
        add_table_args(p)
        p.add_argument("hands", help="hand records played by the bots (problems hands)")
        p.add_argument("--per-level", type=arg(whole, "--per-level", 1, 100), default=6)
        p.add_argument("--leads-per-level", type=arg(whole, "--leads-per-level", 0, 100), default=3)
        p.add_argument("--max-leads-tried", type=arg(whole, "--max-leads-tried", 0, 10_000), default=40)
        add_seed_arg(p, 1, "seed of the opening leads' deals")
        p.add_argument("-o", "--output", required=True, help="bank file to write (JSON)")
    with command(psub, "check", cmd_check, help="re-solve every play problem of a bank; list the ones that fail") as p:
        p.add_argument("bank")


def cmd_make(args: argparse.Namespace) -> Output:
    from fiftysix.drills.problem_sets import make_problem
    t0 = time.perf_counter()
    q = make_problem(table_from(args), args.level, args.kind, args.seed, max_seconds=args.max_seconds)
    took = time.perf_counter() - t0
    if q is None:
        raise FiftySixError(f"no {args.kind} problem of level {args.level} turned up in {took:.1f} s;"
                            " try another --seed or a longer --max-seconds")
    text = lines([f"{q.id} (level {q.data['level']}, made in {took:.1f} s)", q.prompt,
                  "choices: " + " ".join(q.choices), "right: " + " ".join(q.answers), q.explanation])
    return Output({"seconds": took, "problem": q.to_dict()}, text)


def cmd_hands(args: argparse.Namespace) -> Iterator[Output]:
    from fiftysix.drills.problem_hands import play_hands
    get_system(args.system)
    out: list[Output] = []
    t0 = time.perf_counter()

    def done(seed, rec) -> None:
        out.append(Output({"seed": seed, "contract": str(rec.contract), "cards": len(rec.play)},
                          f"seed {seed}: {rec.contract}, {len(rec.play)} cards ({time.perf_counter() - t0:.0f} s)\n"))

    added = play_hands(args.output, table_from(args), args.system, range(args.first, args.first + args.n),
                       args.bot, on_hand=done)
    yield from out
    yield Output({"added": added}, f"{added} hand(s) added to {args.output}\n")


def cmd_starter(args: argparse.Namespace) -> Iterator[Output]:
    """Build the set in a worker thread and report each problem as it is found (the build takes
    minutes to hours at 8 players)."""
    from fiftysix.drills.problem_sets import build_starter_set
    table = table_from(args)
    hands = [r for r in read_records(args.hands) if r.table == table]
    if not hands:
        raise FiftySixError(f"{args.hands} holds no hands for {table}")
    events: queue.Queue = queue.Queue()

    def build() -> None:
        try:
            events.put(("done", build_starter_set(
                table, hands, per_level=args.per_level, leads_per_level=args.leads_per_level, seed=args.seed,
                max_leads_tried=args.max_leads_tried, on_found=lambda q: events.put(("found", q)))))
        except BaseException as e:  # noqa: BLE001  (handed to the command's thread, raised there)
            events.put(("error", e))

    threading.Thread(target=build, daemon=True, name="fiftysix-starter").start()
    t0 = time.perf_counter()
    while True:
        kind, value = events.get()
        if kind == "error":
            raise value
        if kind == "found":
            row = {"id": value.id, "type": value.type, "level": value.data["level"]}
            yield Output(row, f"{value.id}: {value.type} level {value.data['level']}"
                              f" ({time.perf_counter() - t0:.0f} s)\n")
            continue
        bank = value
        break
    save_bank(bank, args.output)
    per: dict[str, int] = {}
    for q in bank.questions:
        key = f"{q.type} level {q.data['level']}"
        per[key] = per.get(key, 0) + 1
    yield Output({"problems": len(bank.questions), "per_level": per},
                 lines([f"{len(bank.questions)} problems written to {args.output}",
                        *(f"  {k}: {v}" for k, v in sorted(per.items()))]))


def cmd_check(args: argparse.Namespace) -> Output:
    from fiftysix.drills.problems import is_problem, verify
    bank = load_bank(args.bank)
    failed = {}
    checked = 0
    for q in bank.questions:
        if is_problem(q):
            checked += 1
            bad = verify(q)
            if bad:
                failed[q.id] = bad
    text = lines([f"{checked} play problem(s) re-solved; {len(failed)} fail",
                  *(f"{qid}: {'; '.join(msgs)}" for qid, msgs in failed.items())])
    return Output({"checked": checked, "failed": failed}, text, status=1 if failed else 0)
