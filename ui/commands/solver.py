"""Subcommands over the double-dummy solver: ``solve`` (one position or a batch), ``table``
and ``costs``."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fiftysix.cards import Deal, Table, parse_cards
from fiftysix.errors import FiftySixError, NotationError
from ui.commands.common import add_json_arg, add_table_args, parse_trump, table_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="double-dummy: maximum points of each team (and makeable?)")
    _add_position_args(p, need_deal=False)
    p.add_argument("--target", type=int, default=None, help="points the side must take")
    p.add_argument("--side", default=None, help="team for --target: odd, even, 1-4, or a seat number")
    p.add_argument("--batch", default=None, metavar="FILE",
                   help="JSON lines with the same fields as the flags ('-' for stdin); one result line each")
    add_json_arg(p)
    p.set_defaults(handler=cmd_solve)

    p = sub.add_parser("table", help="double-dummy: maximum points of each team for each trump and no-trump")
    add_table_args(p)
    p.add_argument("--deal", required=True, help="the hands of seats 1..N")
    p.add_argument("--leader", type=int, default=1, help="seat that leads the first trick (default 1)")
    _add_budget_args(p)
    add_json_arg(p)
    p.set_defaults(handler=cmd_table)

    p = sub.add_parser("costs", help="double-dummy: the value of every legal card for the seat to move")
    _add_position_args(p, need_deal=True)
    add_json_arg(p)
    p.set_defaults(handler=cmd_costs)


def _add_budget_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-nodes", type=int, default=None, help="give up after this many search nodes")
    p.add_argument("--max-seconds", type=float, default=None, help="give up after this many seconds")


def _add_position_args(p: argparse.ArgumentParser, need_deal: bool) -> None:
    add_table_args(p)
    p.add_argument("--deal", required=need_deal, default=None,
                   help="the hands of seats 1..N (full, or an ending with equal hands)")
    p.add_argument("--trump", default="NT", help="trump suit S H D C, or NT (default NT)")
    p.add_argument("--leader", type=int, default=1, help="seat that leads the first trick (default 1)")
    p.add_argument("--played", default="", help='cards already played from the opening lead, e.g. "JH 9H"')
    p.add_argument("--points", default=None, help="points already won per team, comma-separated")
    _add_budget_args(p)


def _position(fields: dict[str, Any], table: Table):
    from analyser.solver import Position
    deal_text = fields.get("deal")
    if not deal_text:
        raise NotationError("give the deal: --deal 'hand1 hand2 ...'")
    deal = Deal.parse(str(deal_text), table, partial=True)
    trump = parse_trump(str(fields.get("trump") or "NT"))
    played = fields.get("played") or ""
    cards = parse_cards(played) if isinstance(played, str) else [c for x in played for c in parse_cards(str(x))]
    pos = Position.from_deal(deal, trump, int(fields.get("leader") or 1), cards)
    pts = fields.get("points")
    if pts not in (None, ""):
        values = [int(x) for x in str(pts).replace(" ", "").split(",")] if not isinstance(pts, list) else [int(x) for x in pts]
        if len(values) != table.num_teams:
            raise FiftySixError(f"--points needs one number per team ({table.num_teams})")
        pos = Position(pos.table, pos.hands, pos.trump, pos.leader, pos.current,
                       tuple(a + b for a, b in zip(values, pos.points)))
    return pos


def _budget(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if fields.get("max_nodes") is not None:
        out["max_nodes"] = int(fields["max_nodes"])
    if fields.get("max_seconds") is not None:
        out["max_seconds"] = float(fields["max_seconds"])
    return out


def _team_dict(table: Table, values: dict[int, int]) -> dict[str, int]:
    return {table.team_name(t): v for t, v in sorted(values.items())}


def solve_fields(fields: dict[str, Any], table: Table) -> dict[str, Any]:
    """One solve request (flags or a batch line) -> its JSON result."""
    from analyser import solver as S
    pos = _position(fields, table)
    budget = _budget(fields)
    out: dict[str, Any] = dict(_team_dict(table, S.max_points(pos, **budget)))
    if fields.get("target") is not None:
        if fields.get("side") is None:
            raise FiftySixError("--target needs --side (the team that must take the points)")
        side = table.parse_team(fields["side"])
        out["makeable"] = S.solve(pos, int(fields["target"]), side, **budget)
    return out


def cmd_solve(args: argparse.Namespace) -> int:
    from ui.cli import emit
    table = table_from(args)
    if args.batch is not None:
        return _batch(args, table)
    res = solve_fields(vars(args), table)
    if args.json:
        emit(res)
    else:
        print(" ".join(f"{k}: {v}" for k, v in res.items()))
    return 0


_BATCH_KEYS = {"players", "deck", "teams", "deal", "trump", "leader", "played", "points", "target", "side",
               "max_nodes", "max_seconds"}


def _batch(args: argparse.Namespace, default_table: Table) -> int:
    """Read JSON lines; write one JSON result per line (an ``error`` field for a bad line)."""
    stream = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
    try:
        for n, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                fields = json.loads(line)
                if not isinstance(fields, dict):
                    raise FiftySixError("each line must be a JSON object")
                unknown = set(fields) - _BATCH_KEYS
                if unknown:
                    raise FiftySixError(f"unknown field(s) {', '.join(sorted(unknown))}")
                table = default_table
                if any(k in fields for k in ("players", "deck", "teams")):
                    players = int(fields.get("players", default_table.players))
                    table = Table.make(players, fields.get("deck"), fields.get("teams", "alternate"))
                res = solve_fields(fields, table)
            except (FiftySixError, json.JSONDecodeError, ValueError, TypeError) as e:
                res = {"line": n, "error": str(e)}
            print(json.dumps(res), flush=True)
    finally:
        if stream is not sys.stdin:
            stream.close()
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    from analyser import solver as S
    from ui.cli import emit
    table = table_from(args)
    deal = Deal.parse(args.deal, table, partial=True)
    res = S.table(deal, args.leader, **_budget(vars(args)))
    out = {name: _team_dict(table, v) for name, v in res.items()}
    if args.json:
        emit(out)
    else:
        for name, v in out.items():
            print(f"{name:>2}: " + "  ".join(f"{k} {x}" for k, x in v.items()))
    return 0


def cmd_costs(args: argparse.Namespace) -> int:
    from analyser import solver as S
    from ui.cli import emit
    table = table_from(args)
    pos = _position(vars(args), table)
    values = S.card_values(pos, **_budget(vars(args)))
    best = max(values.values())
    team = table.team_name(table.team_of(pos.to_move))
    out = {"seat": pos.to_move, "team": team,
           "cards": {str(c): {"points": v, "cost": best - v} for c, v in values.items()}}
    if args.json:
        emit(out)
    else:
        print(f"seat {pos.to_move} ({team}) to play:")
        for c, v in sorted(values.items(), key=lambda cv: -cv[1]):
            print(f"  {c}  {v}  (cost {best - v})")
    return 0
