"""Subcommands over the game core: ``deal`` and ``replay``."""
from __future__ import annotations

import argparse

from fiftysix.cards import random_deal
from ui.commands.common import add_json_arg, add_table_args, table_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="deal a random hand for a table, in canonical notation")
    add_table_args(p)
    p.add_argument("--seed", type=int, default=None, help="random seed (same seed, same deal)")
    add_json_arg(p)
    p.set_defaults(handler=cmd_deal)


def cmd_deal(args: argparse.Namespace) -> int:
    from ui.cli import emit
    table = table_from(args)
    deal = random_deal(table, args.seed)
    if args.json:
        emit({"players": table.players, "deck": table.deck, "teams": table.teams,
              "deal": str(deal), "hands": {str(s): str(deal.hand(s)) for s in table.seats}})
    else:
        print(deal)
    return 0
