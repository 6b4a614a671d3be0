"""Subcommands over the bots: ``bid`` and ``play``.

``bid``: a deal bid by the named bots (or a batch of deals); ``play``: a hand played out by the
card bots, each from its own view.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from fiftysix.bidding import DEFAULT_SYSTEM, SYSTEMS, format_call
from fiftysix.cards import Deal, Table
from fiftysix.errors import FiftySixError, NotationError
from fiftysix.play import is_void_hand
from fiftysix.scoring import Contract
from fiftysix.ui.commands.common import (
    MAX_SEED,
    add_seed_arg,
    add_table_args,
    arg,
    command,
    run_batch,
    table_from,
    whole,
)
from fiftysix.ui.commands.output import Output, lines


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "bid", cmd_bid,
                 help="bid a deal with the bots: every call with its seat, bot and reason") as p:
        p.add_argument("--system", default=DEFAULT_SYSTEM, help=f"bidding system (default {DEFAULT_SYSTEM})")
        add_table_args(p)
        p.add_argument("--deal", default=None, help="the hands of seats 1..N")
        p.add_argument("--bots", default="default",
                       help="one bot name for every seat, or one per seat in seat order: default, rules")
        add_seed_arg(p, 0, "random seed (same seed, same auction)")
        p.add_argument("--void-hand", action="store_true",
                       help="table option: no contract when the defenders hold no trump")
        p.add_argument("--batch", default=None, metavar="FILE",
                       help="JSON lines with the same fields as the flags ('-' for stdin); one result line each")

    with command(sub, "play", cmd_play,
                 help="the card bots play a hand out, each seeing only its own cards") as p:
        add_table_args(p)
        p.add_argument("--deal", required=True, help="the hands of seats 1..N")
        p.add_argument("--contract", required=True, help="the contract, e.g. 40H, 32NT, 40Hx")
        p.add_argument("--declarer", type=arg(whole, "--declarer", 1, 8), required=True,
                       help="the declaring seat (final bidder)")
        p.add_argument("--bots", default="default", help="card bot name for every seat, or one per seat: default")
        add_seed_arg(p, 0, "random seed (same seed, same play)")


def contract_dict(table: Table, contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return {"value": contract.value, "trump": contract.strain, "declarer": contract.declarer,
            "team": table.team_name(contract.team), "doubled": contract.doubled}


_BID_KEYS = {"system", "players", "deck", "teams", "deal", "bots", "seed", "void_hand"}


def bid_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """One bid request (flags or a batch line) -> its JSON result."""
    from fiftysix.bots import bid_auction, seat_bots
    system = str(fields.get("system") or DEFAULT_SYSTEM)
    if system not in SYSTEMS:
        raise FiftySixError(f"unknown system {system!r}: choose one of {', '.join(sorted(SYSTEMS))}")
    players = whole(fields.get("players") or 6, "players", 4, 8)
    deck = None if fields.get("deck") is None else whole(fields["deck"], "deck", 32, 64)
    teams = fields.get("teams") or "alternate"
    if not isinstance(teams, str):
        raise FiftySixError("teams must be alternate or pairs")
    table = Table.make(players, deck, teams)
    if not fields.get("deal"):
        raise NotationError("give the deal: --deal 'hand1 hand2 ...'")
    deal = Deal.parse(str(fields["deal"]), table)
    names = fields.get("bots") or "default"
    if not isinstance(names, (str, list)):
        raise FiftySixError("bots is a name or a list of names")
    seed = whole(fields.get("seed") or 0, "seed", 0, MAX_SEED)
    calls: list[dict[str, Any]] = []
    bots = seat_bots(names, players, seed)

    def note(seat: int, choice) -> None:
        calls.append({"seat": seat, "call": format_call(choice.call), "bot": bots[seat - 1].name,
                      "reason": choice.reason})

    auction = bid_auction(deal, system, bots, note)
    contract = auction.contract
    void = bool(contract is not None and fields.get("void_hand")
                and is_void_hand(deal, contract.trump, contract.team))
    return {"system": system, "auction": str(auction), "calls": calls,
            "contract": None if void else contract_dict(table, contract), "void": void}


def cmd_bid(args: argparse.Namespace) -> Output | Iterator[Output]:
    if args.batch is not None:
        return _batch(args)
    res = bid_fields(vars(args))
    k = res["contract"]
    return Output(res, lines([
        *(f"seat {c['seat']} ({c['bot']}): {c['call']} - {c['reason']}" for c in res["calls"]),
        "contract: " + ("none" if k is None else
                        f"{k['value']}{k['trump']}{'x' * (k['doubled'] // 2)} by seat {k['declarer']}"
                        f" (team {k['team']})")]))


def _batch(args: argparse.Namespace) -> Iterator[Output]:
    """Read JSON lines; answer each with one JSON line (an ``error`` field for a bad line)."""
    return run_batch(args.batch, _BID_KEYS, bid_fields)


def cmd_play(args: argparse.Namespace) -> Output:
    from fiftysix.bots import card_bots, play_hand
    table = table_from(args)
    deal = Deal.parse(args.deal, table)
    table.check_seat(args.declarer)
    contract = Contract.parse(args.contract, table, args.declarer)
    state = play_hand(deal, contract, card_bots(args.bots, table.players, args.seed))
    out: dict[str, Any] = {
        "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner,
                    "points": t.points} for t in state.tricks],
        "points": {table.team_name(k): state.points[k] for k in range(table.num_teams)},
        "made": bool(state.declarers_made()),
    }
    return Output(out, lines([
        *(f"trick {i}: seat {t['leader']} leads {' '.join(t['cards'])} -> seat {t['winner']}"
          f" wins {t['points']}" for i, t in enumerate(out["tricks"], start=1)),
        "points: " + ", ".join(f"{k} {v}" for k, v in out["points"].items()),
        f"{contract} by seat {contract.declarer}: {'made' if out['made'] else 'failed'}"]))
