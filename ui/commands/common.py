"""Argument helpers shared by the subcommands: table options and reading deals."""
from __future__ import annotations

import argparse

from fiftysix.cards import Table, parse_suit


def add_table_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=6, choices=(4, 6, 8), help="table size (default 6)")
    p.add_argument("--deck", type=int, default=None, choices=(32, 48, 64),
                   help="deck size (default: 32 for 4 players, 48 for 6, 64 for 8)")
    p.add_argument("--teams", default="alternate", choices=("alternate", "pairs"))


def add_json_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def table_from(args: argparse.Namespace) -> Table:
    return Table.make(args.players, args.deck, args.teams)


def parse_trump(text: str) -> int | None:
    """A suit letter or symbol, or NT / N / NS / none for no-trump."""
    if text.strip().upper() in ("NT", "N", "NS", "NONE", "NOTRUMP", "NO-TRUMP"):
        return None
    return parse_suit(text)
