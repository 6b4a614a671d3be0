"""What every bot shares: the ``Choice`` a bidding bot makes and bidding a deal seat by seat."""
from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from fiftysix.bidding import Auction
from fiftysix.bidding.calls import DOUBLE, FORCED, PASS, REDOUBLE, Call
from fiftysix.cards import Deal, Hand
from fiftysix.errors import FiftySixError

MAX_CALLS = 400
"""A safety stop: no real auction is this long."""
QUIET_KINDS = (PASS, DOUBLE, REDOUBLE, FORCED)


def decision_seed(seed: object, seat: int, auction: Auction) -> int:
    """A decision's own seed: from the bot's seed, the seat and the auction so far only, so that
    a bot's call does not depend on what it decided before."""
    return zlib.crc32(f"{seed}|{seat}|{auction}".encode())


@dataclass(frozen=True)
class Choice:
    """The bot's call and the reason in words (used by explanations)."""

    call: Call
    reason: str
    truthful: bool = True


class BiddingBot(Protocol):
    """A bidding bot: its registered ``name`` and a call for a hand at a point of an auction."""

    name: str

    def choose(self, auction: Auction, hand: Hand) -> Choice: ...

    def bid(self, deal: Deal, system: str) -> Auction:
        """The whole auction of ``deal`` in ``system``, this bot in every seat."""
        ...


def bid_auction(deal: Deal, system: str, bots: Sequence[BiddingBot],
                on_call=None) -> Auction:
    """Bid ``deal`` with ``bots[s - 1]`` in seat s; returns the finished auction.

    ``on_call(seat, choice)`` is called after each call (the command line keeps the reasons).
    """
    if len(bots) != deal.table.players:
        raise FiftySixError(f"give one bot per seat: {len(bots)} for {deal.table.players} seats")
    auction = Auction(system=system, table=deal.table)
    for _ in range(MAX_CALLS):
        if auction.is_over:
            return auction
        seat = auction.to_move
        assert seat is not None  # the auction is not over
        choice = bots[seat - 1].choose(auction, deal.hand(seat))
        auction.apply(choice.call)
        if on_call is not None:
            on_call(seat, choice)
    raise FiftySixError(f"the auction did not end after {MAX_CALLS} calls")
