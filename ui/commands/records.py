"""Subcommands over hand records: ``review`` and ``library import|list|search|export``."""
from __future__ import annotations

import argparse

from fiftysix.drills.library import Library
from fiftysix.errors import FiftySixError
from fiftysix.records import read_records
from fiftysix.ui.commands.common import arg, command, group, seconds, whole
from fiftysix.ui.commands.output import Output, lines


class CommandError(FiftySixError):
    """Bad arguments to a records subcommand."""


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "review", cmd_review,
                 help="review a recorded hand: meanings of the calls, cost of every card") as p:
        p.add_argument("file", help="a hand-record file (docs/records.md; at most 64 MB)")
        p.add_argument("--record", type=arg(whole, "--record", 1, 10 ** 9), default=1,
                       help="which record of the file, from 1 (default 1)")
        p.add_argument("--max-seconds", type=arg(seconds, "--max-seconds", zero_ok=True), default=5.0,
                       help="time budget for each position's double-dummy search (default 5; 0 = no limit);"
                            " positions not solved in time are shown as unknown")
        p.add_argument("--total-seconds", type=arg(seconds, "--total-seconds", zero_ok=True), default=120.0,
                       help="time budget for the whole review (default 120; 0 = no limit); positions left"
                            " when it is spent are shown as unknown")

    lsub = group(sub, "library", help="the hand library: import, list, search and export records",
                 dest="library_command", metavar="ACTION")

    with command(lsub, "import", cmd_import, help="import record files (all records of all files, or nothing)") as p:
        p.add_argument("files", nargs="+", help="hand-record files (each at most 64 MB)")
        _db_arg(p)

    with command(lsub, "list", cmd_list, help="list the records in the library") as p:
        p.add_argument("--limit", type=arg(whole, "--limit", 0, 2 ** 63 - 1), default=None)
        _db_arg(p)

    with command(lsub, "search", cmd_search,
                 help="search the library by player, system, contract, result and date") as p:
        _filter_args(p)
        _db_arg(p)

    with command(lsub, "export", cmd_export, help="write library records to a record file") as p:
        p.add_argument("out", help="the file to write")
        p.add_argument("--id", type=arg(whole, "--id", 1, 2 ** 63 - 1), action="append", dest="ids",
                       help="a record id (repeat); default: all records that match the filters")
        _filter_args(p)
        _db_arg(p)


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help="the library file (default: the app's data file)")


def _filter_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--player", help="part of a player's name")
    p.add_argument("--system", help="bidding system, e.g. international")
    p.add_argument("--contract", help="40H, 40Hx, NT, H, or a value such as 40")
    p.add_argument("--result", help="made, failed, or card points: 34, 34+ (at least), 34- (at most)")
    p.add_argument("--since", help="from this date on (YYYY.MM.DD, YYYY.MM or YYYY)")
    p.add_argument("--until", help="up to this date (YYYY.MM.DD, YYYY.MM or YYYY)")
    p.add_argument("--players", type=int, choices=(4, 6, 8), help="table size")
    p.add_argument("--event", help="part of the event name")
    p.add_argument("--limit", type=arg(whole, "--limit", 0, 2 ** 63 - 1), default=None)


def _filters(args: argparse.Namespace) -> dict:
    return {k: getattr(args, k) for k in ("player", "system", "contract", "result", "since", "until",
                                          "players", "event", "limit")}


def _library(args: argparse.Namespace):
    return Library(args.db)


def cmd_review(args: argparse.Namespace) -> Output:
    from fiftysix.analyser.review import format_review, review
    records = read_records(args.file)
    if not 1 <= args.record <= len(records):
        raise CommandError(f"--record {args.record}: {args.file} holds {len(records)} record(s)")
    if args.max_seconds < 0:
        raise CommandError(f"--max-seconds must be 0 (no limit) or more, not {args.max_seconds}")
    record = records[args.record - 1]
    from fiftysix.bots import get_bot
    r = review(record, max_seconds=args.max_seconds or None, total_seconds=args.total_seconds or None,
               bidder=get_bot())
    return Output(r.to_dict(), lines([format_review(r)]))


def _entry_line(e) -> str:
    names = ", ".join(n for n in e.names if n) or "-"
    contract = f"{e.contract} by {e.declarer}" if e.contract else "no contract"
    result = "" if e.result is None else f" {e.result} {'made' if e.made else 'failed'}"
    return (f"{e.id:>5}  {e.date or '----.--.--'}  {e.players}p {e.system:<13} {contract:<12}{result:<11}"
            f"  {e.event or '-'}  [{names}]")


def _entries(entries) -> Output:
    return Output([e.to_dict() for e in entries], lines([*map(_entry_line, entries), f"{len(entries)} record(s)"]))


def cmd_import(args: argparse.Namespace) -> Output:
    report = _library(args).import_files(args.files)
    return Output(report.to_dict(),
                  f"read {report.read} record(s); added {report.added}, already there {report.duplicates}\n")


def cmd_list(args: argparse.Namespace) -> Output:
    return _entries(_library(args).list(limit=args.limit))


def cmd_search(args: argparse.Namespace) -> Output:
    return _entries(_library(args).search(**_filters(args)))


def cmd_export(args: argparse.Namespace) -> Output:
    lib = _library(args)
    ids = args.ids if args.ids else [e.id for e in lib.search(**_filters(args))]
    n = lib.export(args.out, ids)
    return Output({"file": args.out, "records": n, "ids": ids}, f"wrote {n} record(s) to {args.out}\n")
