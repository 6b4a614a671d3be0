"""Bidding: call notation, the ladder, the auction state machine, and call meanings.

    from fiftysix.bidding import parse_call, format_call, Auction, get_system, SYSTEMS
    a = Auction(system="international", table=Table.make(6))
    a.legal_calls(hand); a.apply("28H"); a.is_over; a.contract; a.meaning_of("+1H")
    a.check("28S")  # Broken(rule='a bid must be higher than the standing bid 28H (28) by seat 1')
"""
from __future__ import annotations

from typing import Any

from fiftysix.bidding.auction import Auction
from fiftysix.bidding.calls import Call, format_call, format_calls, parse_call, parse_calls
from fiftysix.bidding.ladder import Ladder
from fiftysix.bidding.meaning import Meaning, fits
from fiftysix.bidding.state import Broken, CallRecord
from fiftysix.bidding.systems import DEFAULT_SYSTEM, SYSTEMS, System, get_system

SYSTEM_NAMES = tuple(SYSTEMS)


def call_table(system: str) -> list[dict[str, Any]]:
    """The system's call table (one row per call form, with an example in context)."""
    from fiftysix.bidding.docs import call_rows
    return call_rows(system)


__all__ = [
    "DEFAULT_SYSTEM",
    "SYSTEMS",
    "SYSTEM_NAMES",
    "Auction",
    "Broken",
    "Call",
    "CallRecord",
    "Ladder",
    "Meaning",
    "System",
    "call_table",
    "fits",
    "format_call",
    "format_calls",
    "get_system",
    "parse_call",
    "parse_calls",
]
