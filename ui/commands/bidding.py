"""Subcommands over the bidding engine: ``explain``, ``calls`` and ``fits``."""
from __future__ import annotations

import argparse

from fiftysix.bidding import SYSTEMS, Auction, fits
from fiftysix.cards import Deal, Hand, format_trump
from fiftysix.errors import NotationError
from fiftysix.ui.commands.common import add_table_args, command, table_from
from fiftysix.ui.commands.output import Output, lines


def register(sub: argparse._SubParsersAction) -> None:
    names = list(SYSTEMS)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--system", default="international", help=f"bidding system: {', '.join(names)}")
        p.add_argument("--jump-doubles", action=argparse.BooleanOptionalAction, default=None,
                       help="table option 'doubling by jump' (seed 003): a final bid that doubles the"
                            " bid before it (28 then 56) scores double (default: on in basic only)")
        add_table_args(p)

    with command(sub, "explain", cmd_explain, help="explain every call of an auction: value, trump, meaning") as p:
        p.add_argument("auction", help='calls from seat 1, e.g. "28H P +1H X P 31NS"')
        p.add_argument("--deal", default=None, help="the deal, to check calls against the hands")
        common(p)

    with command(sub, "calls", cmd_calls, help="every legal next call with its meaning (the call palette)") as p:
        p.add_argument("--auction", default="", help="the calls so far (default: none)")
        p.add_argument("--hand", default=None, help="the caller's hand, e.g. JJ9.A.KQ.")
        common(p)

    with command(sub, "fits", cmd_fits, help="does a hand keep the promise of the auction's last call?") as p:
        p.add_argument("--auction", required=True, help="the calls so far; the last one is checked")
        p.add_argument("--hand", required=True, help="the hand to check, e.g. JJ9.A.KQ.")
        common(p)


def _strain(trump: int | None, value: int | None) -> str | None:
    if value is None:
        return None
    return format_trump(trump)


def _record(rec, table) -> dict:
    return {"index": rec.index, "seat": rec.seat, "team": table.team_name(rec.team),
            "call": str(rec.call), "counts_as": str(rec.counts_as), "value": rec.value,
            "trump": _strain(rec.trump, rec.value), "doubled": rec.doubled,
            "label": rec.meaning.label, "meaning": rec.meaning.sentence,
            "constraints": rec.meaning.constraint.to_dict(),
            "constraints_text": rec.meaning.constraint.describe()}


def _contract(a) -> dict | None:
    c = a.contract
    if c is None:
        return None
    return {"contract": str(c), "value": c.value, "trump": _strain(c.trump, c.value),
            "declarer": c.declarer, "team": a.table.team_name(c.team), "doubled": c.doubled,
            "passed_out": a.passed_out}


def _auction(args: argparse.Namespace, text: str, hands=None):
    return Auction.parse(text or "", args.system, table_from(args), hands,
                         getattr(args, "jump_doubles", None))


def cmd_explain(args: argparse.Namespace) -> Output:
    table = table_from(args)
    deal = Deal.parse(args.deal, table, partial=True) if args.deal else None
    a = _auction(args, args.auction, deal)
    out = {"system": a.system.name, "players": table.players,
           "calls": [_record(r, table) for r in a.calls], "over": a.is_over,
           "to_move": a.to_move, "contract": _contract(a)}
    rows = [f"{r['index']:>2}. seat {r['seat']} ({r['team']}) {r['call']:<8} -> "
            f"{r['value'] or '-'} {r['trump'] or ''}: {r['meaning']}" for r in out["calls"]]
    if a.is_over:
        c = out["contract"]
        rows.append(f"auction over: {c['contract']} by seat {c['declarer']} (team {c['team']})" if c else
                    "auction over: no contract")
    else:
        rows.append(f"seat {a.to_move} to call")
    return Output(out, lines(rows))


def cmd_calls(args: argparse.Namespace) -> Output:
    a = _auction(args, args.auction)
    hand = Hand.parse(args.hand) if args.hand else None
    marked = (a.palette_marked(hand) if hand is not None
              else [(c, m, None) for c, m in a.palette()])
    rows = [{"call": str(c), "label": m.label, "meaning": m.sentence,
             "constraints": m.constraint.to_dict(), **({} if keeps is None else {"keeps": keeps})}
            for c, m, keeps in marked]
    text = ["the auction is over: no calls"] if a.is_over else []
    text += [f"{r['call']:<8} {r['label']}: {r['meaning']}"
             + (" [deception: this hand does not keep it]" if r.get("keeps") is False else "") for r in rows]
    return Output({"system": a.system.name, "to_move": a.to_move, "over": a.is_over, "calls": rows}, lines(text))


def cmd_fits(args: argparse.Namespace) -> Output:
    a = _auction(args, args.auction)
    if not a.calls:
        raise NotationError("the auction is empty: give at least one call to check")
    hand = Hand.parse(args.hand)
    last = a.calls[-1]
    f = fits(hand, last.meaning)
    out = {"call": str(last.call), "seat": last.seat, "label": last.meaning.label,
           "meaning": last.meaning.sentence, "hand": str(hand), "fits": f.ok, "broken": list(f.broken)}
    head = f"{hand} {'keeps' if f.ok else 'breaks'} the promise of {last.call} ({last.meaning.label})"
    return Output(out, lines([head, *(f"  breaks: {b}" for b in f.broken)]))
