"""Subcommands over the double-dummy solver: ``solve``, ``table`` and ``costs``.

``solve``: one position (or a batch of them); ``table``: a deal in every trump and no-trump;
``costs``: the value of every legal card for the seat to move.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from typing import Any

from fiftysix.cards import TOTAL_POINTS, Deal, Table, parse_cards, parse_trump
from fiftysix.errors import FiftySixError, NotationError
from fiftysix.ui.commands.common import (
    MAX_LINE_BYTES,
    MAX_NODES,
    MAX_SECONDS,
    add_table_args,
    arg,
    command,
    run_batch,
    seconds,
    table_from,
    whole,
)
from fiftysix.ui.commands.output import Output, lines


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "solve", cmd_solve, help="double-dummy: maximum points of each team (and makeable?)") as p:
        _add_position_args(p, need_deal=False, scope="the whole solve (each --batch line)")
        p.add_argument("--target", type=arg(whole, "--target", 1, TOTAL_POINTS), default=None,
                       help=f"points the side must take (1..{TOTAL_POINTS})")
        p.add_argument("--side", default=None, help="team for --target: odd, even, 1-4, or a seat number")
        p.add_argument("--batch", default=None, metavar="FILE",
                       help="JSON lines with the same fields as the flags ('-' for stdin); one result line each,"
                            f" an {{\"error\": ...}} line for a bad one (lines up to {MAX_LINE_BYTES // 1024} KB)")

    with command(sub, "table", cmd_table,
                 help="double-dummy: maximum points of each team for each trump and no-trump") as p:
        add_table_args(p)
        p.add_argument("--deal", required=True, help="the hands of seats 1..N")
        p.add_argument("--leader", type=arg(whole, "--leader", 1, 8), default=1,
                       help="seat that leads the first trick (default 1)")
        _add_budget_args(p, "the whole table (all five trumps together)")

    with command(sub, "costs", cmd_costs,
                 help="double-dummy: the value of every legal card for the seat to move") as p:
        _add_position_args(p, need_deal=True, scope="all the cards together")


def _add_budget_args(p: argparse.ArgumentParser, scope: str = "the whole command") -> None:
    p.add_argument("--max-nodes", type=arg(whole, "--max-nodes", 1, MAX_NODES), default=None,
                   help=f"give up after this many search nodes per search (1..{MAX_NODES:.0e})")
    p.add_argument("--max-seconds", type=arg(seconds, "--max-seconds"), default=None,
                   help=f"give up after this many seconds for {scope} (above 0, at most {MAX_SECONDS:g};"
                        " default: no limit)")


def _add_position_args(p: argparse.ArgumentParser, need_deal: bool, scope: str = "the whole command") -> None:
    add_table_args(p)
    p.add_argument("--deal", required=need_deal, default=None,
                   help="the hands of seats 1..N (full, or an ending with equal hands)")
    p.add_argument("--trump", default="NT", help="trump suit S H D C, or NT (default NT)")
    p.add_argument("--leader", type=arg(whole, "--leader", 1, 8), default=1,
                   help="seat that leads the first trick (default 1)")
    p.add_argument("--played", default="", help='cards already played from the opening lead, e.g. "JH 9H"')
    p.add_argument("--points", default=None,
                   help=f"points already won per team, comma-separated (each 0..{TOTAL_POINTS})")
    _add_budget_args(p, scope)


def _position(fields: dict[str, Any], table: Table):
    from fiftysix.analyser.solver import Position
    deal_text = fields.get("deal")
    if not deal_text:
        raise NotationError("give the deal: --deal 'hand1 hand2 ...'")
    if not isinstance(deal_text, str):
        raise NotationError("the deal must be text: 'hand1 hand2 ...'")
    deal = Deal.parse(deal_text, table, partial=True)
    trump = fields.get("trump")
    if trump is not None and not isinstance(trump, str):
        raise NotationError("the trump must be text: S, H, D, C or NT")
    trump = parse_trump(trump or "NT")
    played = fields.get("played") or ""
    if isinstance(played, list) and all(isinstance(x, str) for x in played):
        cards = [c for x in played for c in parse_cards(x)]
    elif isinstance(played, str):
        cards = parse_cards(played)
    else:
        raise NotationError('the cards played must be text such as "JH 9H" (or a list of such texts)')
    leader = whole(fields.get("leader", 1), "--leader", 1, table.players)
    pos = Position.from_deal(deal, trump, leader, cards)
    pts = fields.get("points")
    if pts not in (None, ""):
        items = pts if isinstance(pts, list) else str(pts).replace(" ", "").split(",")
        values = [whole(x, "--points", 0, TOTAL_POINTS) for x in items]
        if len(values) != table.num_teams:
            raise FiftySixError(f"--points needs one number per team ({table.num_teams})")
        if sum(values) + sum(pos.points) + pos.encoded().points_left() > TOTAL_POINTS:
            raise FiftySixError(f"--points: {sum(values)} points already won and the"
                                f" {pos.encoded().points_left()} still to play come to more than {TOTAL_POINTS}")
        pos = Position(pos.table, pos.hands, pos.trump, pos.leader, pos.current,
                       tuple(a + b for a, b in zip(values, pos.points)))
    return pos


def _budget(fields: dict[str, Any], start: float | None = None) -> dict[str, Any]:
    """The search budget of a request; a time budget runs from ``start`` (default now), so
    it bounds everything the command does after that moment."""
    out: dict[str, Any] = {}
    if fields.get("max_nodes") is not None:
        out["max_nodes"] = whole(fields["max_nodes"], "max_nodes", 1, MAX_NODES)
    if fields.get("max_seconds") is not None:
        total = seconds(fields["max_seconds"], "max_seconds")
        spent = 0.0 if start is None else time.perf_counter() - start
        if spent >= total:
            from fiftysix.analyser.solver import BudgetExceeded
            raise BudgetExceeded(f"the time budget of {total:g} s ran out before the search began")
        out["max_seconds"] = total - spent
    return out


def _whole_budget(fields: dict[str, Any], start: float, search):
    """Run ``search(**budget)`` with what is left of the command's budget; running out says
    the budget the user gave, not the part left when the last search began."""
    from fiftysix.analyser.solver import BudgetExceeded
    budget = _budget(fields, start)
    try:
        return search(**budget)
    except BudgetExceeded:
        if "max_seconds" in budget and time.perf_counter() - start >= float(fields["max_seconds"]):
            raise BudgetExceeded(f"the search ran past its time budget of {float(fields['max_seconds']):g} s"
                                 " (for the whole command)") from None
        raise


def _team_dict(table: Table, values: dict[int, int]) -> dict[str, int]:
    return {table.team_name(t): v for t, v in sorted(values.items())}


def solve_fields(fields: dict[str, Any], table: Table) -> dict[str, Any]:
    """One solve request (flags or a batch line) -> its JSON result."""
    start = time.perf_counter()
    from fiftysix.analyser import solver as S
    pos = _position(fields, table)
    target = None
    if fields.get("target") is not None:
        target = whole(fields["target"], "--target", 1, TOTAL_POINTS)
        if fields.get("side") is None:
            raise FiftySixError("--target needs --side (the team that must take the points)")
        if not isinstance(fields["side"], (str, int)) or isinstance(fields["side"], bool):
            raise FiftySixError("--side must be a team name such as odd or even, or a seat number")
        side = table.parse_team(str(fields["side"]))
    out: dict[str, Any] = dict(_team_dict(table, _whole_budget(fields, start, lambda **b: S.max_points(pos, **b))))
    if target is not None:
        out["makeable"] = _whole_budget(fields, start, lambda **b: S.solve(pos, target, side, **b))
    return out


def cmd_solve(args: argparse.Namespace) -> Output | Iterator[Output]:
    table = table_from(args)
    if args.batch is not None:
        return _batch(args, table)
    res = solve_fields(vars(args), table)
    return Output(res, " ".join(f"{k}: {v}" for k, v in res.items()) + "\n")


_BATCH_KEYS = {"players", "deck", "teams", "deal", "trump", "leader", "played", "points", "target", "side",
               "max_nodes", "max_seconds"}


def _batch(args: argparse.Namespace, default_table: Table) -> Iterator[Output]:
    """Read JSON lines; answer each with one JSON line (an ``error`` field for a bad line)."""
    def answer(fields: dict[str, Any]) -> dict[str, Any]:
        table = default_table
        if any(k in fields for k in ("players", "deck", "teams")):
            players = whole(fields.get("players", default_table.players), "players", 4, 8)
            deck = None if fields.get("deck") is None else whole(fields["deck"], "deck", 32, 64)
            teams = fields.get("teams", "alternate")
            if not isinstance(teams, str):
                raise FiftySixError("teams must be alternate or pairs")
            table = Table.make(players, deck, teams)
        return solve_fields(fields, table)
    return run_batch(args.batch, _BATCH_KEYS, answer)


def cmd_table(args: argparse.Namespace) -> Output:
    start = time.perf_counter()
    from fiftysix.analyser import solver as S
    table = table_from(args)
    deal = Deal.parse(args.deal, table, partial=True)
    table.check_seat(args.leader)
    res = _whole_budget(vars(args), start, lambda **b: S.table(deal, args.leader, **b))
    out = {name: _team_dict(table, v) for name, v in res.items()}
    return Output(out, lines(f"{name:>2}: " + "  ".join(f"{k} {x}" for k, x in v.items()) for name, v in out.items()))


def cmd_costs(args: argparse.Namespace) -> Output:
    start = time.perf_counter()
    from fiftysix.analyser import solver as S
    table = table_from(args)
    pos = _position(vars(args), table)
    values = _whole_budget(vars(args), start, lambda **b: S.card_values(pos, **b))
    best = max(values.values())
    team = table.team_name(table.team_of(pos.to_move))
    out = {"seat": pos.to_move, "team": team,
           "cards": {str(c): {"points": v, "cost": best - v} for c, v in values.items()}}
    rows = [f"  {c}  {v}  (cost {best - v})" for c, v in sorted(values.items(), key=lambda cv: -cv[1])]
    return Output(out, lines([f"seat {pos.to_move} ({team}) to play:", *rows]))
