"""Subcommands over the statistics job: ``stats run`` (a Dask batch) and ``stats show`` (summaries)."""
from __future__ import annotations

import argparse

from fiftysix.bidding.systems import SYSTEMS
from fiftysix.errors import FiftySixError
from fiftysix.ui.commands.common import add_table_args, command, group, table_from
from fiftysix.ui.commands.output import Output, lines


def register(sub: argparse._SubParsersAction) -> None:
    ss = group(sub, "stats", help="what every call is worth: bid and solve many deals, summarise per call",
               dest="stats_command", metavar="STATS_COMMAND")
    with command(ss, "run", cmd_run,
                 help="deal, bid and solve double-dummy DEALS deals on a Dask cluster; Parquet out") as p:
        p.add_argument("--system", required=True,
                       help="bidding system, several joined by commas (each deal is solved once), or 'all'")
        add_table_args(p)
        p.add_argument("-n", "--deals", type=int, required=True, help="number of deals")
        p.add_argument("--seed", type=int, default=1, help="deal i depends only on the seed and i (default 1)")
        p.add_argument("--bots", default="rules",
                       help="the bidding bot in every seat: rules (default, the fast baseline) or default"
                            " (judges by simulation, much slower)")
        p.add_argument("--cluster", default=None, metavar="ADDRESS",
                       help="a running Dask scheduler, e.g. tcp://HOST:8786 (default: a local cluster)")
        p.add_argument("--workers", type=int, default=None,
                       help="worker processes of the local cluster (default one per core)")
        p.add_argument("--dashboard", default=None, metavar="HOST:PORT",
                       help="where the local cluster's Dask dashboard listens (default 127.0.0.1 on a free"
                            " port: this machine only; e.g. 0.0.0.0:8787 shows it to the network)")
        p.add_argument("--chunk", type=int, default=50, help="deals per task and per output file (default 50)")
        p.add_argument("--resume", action="store_true", help="finish a stopped run in OUT: skip finished chunks")
        p.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to reach --cluster (default 10)")
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                       help="progress bar on stderr (default on)")
        p.add_argument("-o", "--out", required=True, help="output directory (a Parquet dataset)")
    with command(ss, "show", cmd_show,
                 help="summarise a run: per call and context, how often the team takes 28..56") as p:
        p.add_argument("out", help="the run's output directory")
        p.add_argument("--system", default=None, help="only this system (a run may hold several)")
        p.add_argument("--call", default=None, help="only this call, e.g. 28H; prints its points histogram")
        p.add_argument("--after", default=None, help='only after this auction, e.g. "28H P" ("" = opening calls)')
        p.add_argument("--min-count", type=int, default=1, help="leave out call contexts seen fewer times")
        p.add_argument("--top", type=int, default=25, help="lines of text out (default 25; JSON has all)")


def _systems(text: str) -> tuple[str, ...]:
    if text.strip().lower() == "all":
        return tuple(SYSTEMS)
    return tuple(s for s in (t.strip() for t in text.split(",")) if s)


def cmd_run(args: argparse.Namespace) -> Output:
    from fiftysix.stats.deals import RunSpec
    from fiftysix.stats.job import DASHBOARD, run
    if args.workers is not None and args.workers < 1:
        raise FiftySixError(f"--workers must be at least 1, not {args.workers}")
    table = table_from(args)
    spec = RunSpec(_systems(args.system), table.players, table.deck, table.teams, args.deals, args.seed,
                   args.bots, args.chunk)
    report = run(spec, args.out, cluster=args.cluster, workers=args.workers, resume=args.resume,
                 progress=args.progress, connect_timeout=args.connect_timeout,
                 dashboard=args.dashboard or DASHBOARD)
    redone = f", {report['redone']} damaged chunk(s) redone" if report.get("redone") else ""
    rate = f", {report['deals_run'] / report['seconds']:.2f} deals/s" if report["seconds"] else ""
    text = (f"{report['out']}: {report['written']} chunk(s) written ({report['rows']} rows), "
            f"{report['skipped']} already done{redone}, {report['seconds']:.1f} s on {report['workers']} worker(s){rate}")
    return Output(report, lines([text]))


def cmd_show(args: argparse.Namespace) -> Output:
    from fiftysix.stats.summary import format_summary, summarise
    summary = summarise(args.out, system=args.system, call=args.call, after=args.after,
                        min_count=args.min_count)
    return Output(summary, lines([format_summary(summary, args.top)]))
