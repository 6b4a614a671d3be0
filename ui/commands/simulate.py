"""Subcommands over the Monte Carlo engine: ``sample`` (constrained deals) and ``simulate``."""
from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Iterator

from fiftysix.bidding import Auction
from fiftysix.cards import Hand
from fiftysix.constraints import conjoin, from_dict
from fiftysix.errors import ConstraintError, FiftySixError
from fiftysix.scoring import Contract
from fiftysix.textio import InputError
from fiftysix.textio import loads as loads_json
from fiftysix.ui.commands.common import (
    MAX_DEALS,
    MAX_SECONDS,
    MAX_THREADS,
    add_seed_arg,
    add_table_args,
    arg,
    command,
    seconds,
    table_from,
    whole,
)
from fiftysix.ui.commands.output import Output, lines

SIMULATE_SECONDS = 30.0
"""The default time budget of ``simulate``: with ``SIMULATE_UNTIL`` an answer with its interval
within half a minute at any table (issue 41); ``--max-seconds`` and ``-n`` ask for more."""
SIMULATE_UNTIL = 0.05
"""The default interval to reach (a half-width) when neither ``-n`` nor ``--until-interval`` is given."""


def _add_view_args(p: argparse.ArgumentParser) -> None:
    add_table_args(p)
    p.add_argument("--system", default="international",
                   help="bidding system whose meanings the auction's calls carry (default international)")
    p.add_argument("--seat", type=arg(whole, "--seat", 1, 8), default=1,
                   help="the seat whose knowledge is used (default 1)")
    p.add_argument("--hand", required=True, help="that seat's hand as dealt, e.g. JJ9.A.KQ.T9A")
    p.add_argument("--auction", default="", help='calls so far from seat 1, e.g. "28H P +1H P"')
    p.add_argument("--played", default="", help='cards played so far in order, e.g. "JH 9H AH TH ..."')
    p.add_argument("--constraint", action="append", default=[], metavar="SEAT:JSON",
                   help='an extra promise for a seat in the constraint language, e.g. '
                        '\'3:{"count": ["JH"], "min": 1}\' (repeatable)')
    p.add_argument("-n", type=arg(whole, "-n", 1, MAX_DEALS), default=None,
                   help=f"number of deals (at most {MAX_DEALS}); for simulate: alone, exactly this many"
                        " (within --max-seconds), with --until-interval the most; by default up to 2000 until"
                        f" the interval is within +-{SIMULATE_UNTIL * 100:.0f}%%")
    add_seed_arg(p, 1, "random seed (same seed, same deals)")


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "sample", cmd_sample,
                 help="deal the hidden cards consistently with what one seat knows") as p:
        _add_view_args(p)
    with command(sub, "simulate", cmd_simulate,
                 help="estimate how often a contract is makeable (double-dummy Monte Carlo)") as p:
        _add_view_args(p)
        p.add_argument("--contract", default=None, help="e.g. 40S (default: the auction's contract or standing bid)")
        p.add_argument("--declarer", default=None,
                       help="declaring team (odd, even, 1-4, ...) or seat; needed with --contract")
        p.add_argument("--threads", type=arg(whole, "--threads", 1, MAX_THREADS), default=None,
                       help="solver threads (default: all)")
        p.add_argument("--max-seconds", type=arg(seconds, "--max-seconds"), default=SIMULATE_SECONDS,
                       help=f"time budget for the whole simulation (default {SIMULATE_SECONDS:g}, at most"
                            f" {MAX_SECONDS:g}); when it runs out the estimate covers the deals solved so far")
        p.add_argument("--no-leads", action="store_true", help="skip the table of opening leads")
        p.add_argument("--no-points", action="store_true",
                       help="only ask whether the contract makes (much faster; no points histogram)")
        p.add_argument("--until-interval", type=float, default=None, metavar="HALF_WIDTH",
                       help="stop once the 95%% interval is within +-HALF_WIDTH (e.g. 0.03 for +-3%%); "
                            f"-n is then the most deals to solve (default 2000); default {SIMULATE_UNTIL:g}"
                            " unless -n is given; 0: solve all -n deals")
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show a progress bar on stderr with the interval and the time left"
                            " (default: when stderr is a terminal)")


def _extra_constraints(items: list[str]) -> dict:
    out: dict = {}
    for item in items:
        seat, _, text = item.partition(":")
        if not seat.strip().isdigit() or not text.strip():
            raise ConstraintError(f"cannot read {item!r}: write SEAT:JSON, e.g. 3:{{\"count\": [\"JH\"], \"min\": 1}}")
        try:
            d = loads_json(text, f"constraint for seat {seat}")
        except InputError as e:
            raise ConstraintError(str(e)) from None
        out.setdefault(int(seat), []).append(from_dict(d))
    return out


def _view_and_auction(args: argparse.Namespace, trump_from_contract=None):
    """The viewing seat's View (auction meanings, extra promises, plays) and the Auction."""
    from fiftysix.analyser.dealer import View
    table = table_from(args)
    table.check_seat(args.seat)
    hand = Hand.parse(args.hand)
    auction = None
    cons: dict = {}
    calls: tuple = ()
    if args.auction.strip():
        from fiftysix.analyser.dealer import auction_promises
        auction = Auction.parse(args.auction, args.system, table)
        calls = auction_promises(auction)  # soft: the dealer sets aside what cannot hold
    for s, cs in _extra_constraints(args.constraint).items():
        table.check_seat(s)
        cons.setdefault(s, []).extend(cs)
    merged = {s: conjoin(*cs) for s, cs in cons.items() if cs}
    trump = trump_from_contract(auction) if trump_from_contract else (auction.trump if auction else None)
    view = View.with_plays(table, args.seat, hand, merged, args.played, trump, calls=calls)
    return view, auction


def cmd_sample(args: argparse.Namespace) -> Iterator[Output]:
    """The deals one by one (a JSON line each with --json); then, on stderr, the rejection
    step's acceptance rate and one line per promise the dealer set aside (RULES.md 6)."""
    from fiftysix.analyser.dealer import Dealer, counts_to_deal
    view, _ = _view_and_auction(args)
    dealer = Dealer(view)
    counts = dealer.sample_counts(200 if args.n is None else args.n, args.seed)
    for i, c in enumerate(counts):
        deal = counts_to_deal(view.table, c)
        yield Output({"index": i, "deal": str(deal)}, f"{deal}\n")
    rate = [] if dealer.acceptance_rate is None else [f"acceptance rate {dealer.acceptance_rate:.3f}"]
    yield Output(None, "", stderr=lines([*rate, *map(str, dealer.set_aside)]))


def _contract(args: argparse.Namespace, auction):
    from fiftysix.analyser.simulate import contract_from_auction
    table = table_from(args)
    if args.contract is None:
        if auction is None:
            raise FiftySixError("give --contract (and --declarer) or an --auction with a bid")
        return contract_from_auction(auction)
    if args.declarer is None:
        if auction is not None and auction.state.high_seat is not None:
            return Contract.parse(args.contract, table, auction.state.high_seat)
        raise FiftySixError("--contract needs --declarer (a team such as odd/even, or a seat)")
    d = args.declarer.strip()
    if d.isdigit() and int(d) in table.seats:
        seat = int(d)
    else:
        seat = table.team_seats(table.parse_team(d))[0]
    return Contract.parse(args.contract, table, seat)


def cmd_simulate(args: argparse.Namespace) -> Output:
    warm_from = time.perf_counter()
    from fiftysix.analyser.simulate import estimate  # numba and the kernels: loading them is not the budget's
    from fiftysix.analyser.solver import ensure_warm
    ensure_warm()  # compiling (or loading) the kernels is not the --max-seconds budget's time
    start = time.perf_counter()
    warming = start - warm_from
    holder: dict = {}

    def trump_of(auction):
        holder["contract"] = _contract(args, auction)
        return holder["contract"].trump

    view, _ = _view_and_auction(args, trump_of)
    contract = holder["contract"]
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    until = args.until_interval
    if until is None and args.n is None:
        until = SIMULATE_UNTIL
    elif until == 0:
        until = None  # every one of the -n deals
    n = args.n if args.n is not None else (2000 if until is not None else 200)
    # the budget counts from the command's start (``main`` notes it), as the user waits from there,
    # but not the kernels' compiling or loading (issue 43); it keeps a tenth (a second at most)
    # for what comes after the solving (the summary, the exit)
    spent = time.perf_counter() - getattr(args, "started", start) - warming
    budget = max(0.001, args.max_seconds - spent - min(1.0, args.max_seconds / 10))
    interrupted = threading.Event()

    def on_sigint(signum, frame) -> None:  # Ctrl-C: stop, and print what the solved deals say
        interrupted.set()

    old = signal.signal(signal.SIGINT, on_sigint) if threading.current_thread() is threading.main_thread() else None
    try:
        est = estimate(view, contract, n, args.seed, leads=not args.no_leads, threads=args.threads,
                       progress=progress, points=not args.no_points, until=until, max_seconds=budget,
                       should_stop=lambda done, total: interrupted.is_set())
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)
    lo, hi = est.interval
    team = view.table.team_name(contract.team)
    rows = [f"{contract} by {team} (seat {contract.declarer}), seen from seat {view.seat}: "
            f"makeable on {est.makes}/{est.deals} deals = {est.rate:.1%} (95% {lo:.1%}-{hi:.1%})"
            + (" [interrupted: the deals solved so far]" if interrupted.is_set() else
               f" [time limit: the deals solved in {args.max_seconds:g} s; --max-seconds gives more]"
               if est.stopped else "")
            + (f" [interval within +-{until:.1%} after {est.deals} deals]" if until is not None and est.deals < n
               and not est.stopped else "")]
    rows += map(str, est.set_aside)  # the promises the dealer set aside (RULES.md 6)
    if est.points:
        rows.append("declarers' points: " + "  ".join(f"{k}:{v}" for k, v in sorted(est.points.items())))
    if est.leads:
        rows.append("after each lead (makes, declarers' mean points): " + "  ".join(
            f"{r.card} {r.rate:.0%}" + ("" if r.mean_points != r.mean_points else f" {r.mean_points:.1f}")
            for r in est.leads))
    rows.append("where the unseen cards are (share of copies per seat):")
    seats = view.hidden_seats
    rows.append("      " + " ".join(f"{s:>5}" for s in seats))
    for card, row in est.location.items():
        rows.append(f"  {card!s:<3} " + " ".join(f"{row[s]:>5.2f}" for s in seats))
    if est.acceptance_rate is not None:
        rows.append(f"acceptance rate of the rejection step: {est.acceptance_rate:.3f}")
    return Output(est.to_dict(), lines(rows), status=130 if interrupted.is_set() else 0)
