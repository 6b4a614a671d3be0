"""The bots: bidding bots registered by name, and the card-playing bot.

    from drills.bots import get_bot, bid_with, CardBot, play_hand
    auction = bid_with(deal, "international", "default", seed=1)   # or one name per seat
    state = play_hand(deal, auction.contract, [CardBot(1)] * 6, auction.seat_constraints())

``rules`` is the rule-of-thumb bidder kept as the baseline; ``default`` judges value by
simulation (``drills.bots.judge``). ``Bot`` and ``bid_deal`` remain the ``rules`` bot's
names from before the bots became a package.
"""
from __future__ import annotations

from typing import Sequence

from fiftysix.bidding import Auction
from fiftysix.cards import Deal
from fiftysix.errors import FiftySixError
from drills.bots.base import MAX_CALLS, QUIET_KINDS, BiddingBot, Choice, bid_auction
from drills.bots.cardplay import CardBot, CardChoice, play_hand
from drills.bots.judge import JudgeBot
from drills.bots.rules import Bot, RulesBot, bid_deal, readings, shown_points, value_limit

BIDDING_BOTS = {"default": JudgeBot, "rules": RulesBot}
"""Bidding bots by name."""
DEFAULT_BOT = "default"


def get_bot(name: str = DEFAULT_BOT, seed: int | None = None) -> BiddingBot:
    """A new bidding bot of the given name, seeded."""
    key = str(name).strip().lower()
    if key not in BIDDING_BOTS:
        raise FiftySixError(f"no bot named {name!r}: choose one of {', '.join(sorted(BIDDING_BOTS))}")
    return BIDDING_BOTS[key](seed)


def seat_bots(names: str | Sequence[str], players: int, seed: int | None = None) -> list[BiddingBot]:
    """One bot per seat from one name (every seat) or a name per seat (in seat order).

    Seats with the same name share one bot (its choices depend only on the seed and what
    the seat knows, so sharing changes nothing but saves its solver)."""
    if isinstance(names, str):
        names = [n for n in names.split(",")] if "," in names else [names]
    names = [str(n).strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise FiftySixError(f"give one bot name for every seat or one per seat: {len(names)} names"
                            f" for {players} seats")
    made: dict[str, BiddingBot] = {}
    return [made.setdefault(n.lower(), get_bot(n, seed)) for n in names]


def bid_with(deal: Deal, system: str, names: str | Sequence[str] = DEFAULT_BOT, seed: int | None = None,
             on_call=None) -> Auction:
    """Bid ``deal`` with the named bots (one name, or one per seat); same seed, same auction."""
    return bid_auction(deal, system, seat_bots(names, deal.table.players, seed), on_call)


__all__ = ["BIDDING_BOTS", "DEFAULT_BOT", "MAX_CALLS", "QUIET_KINDS", "BiddingBot", "Bot", "CardBot",
           "CardChoice", "Choice", "JudgeBot", "RulesBot", "bid_auction", "bid_deal", "bid_with",
           "get_bot", "play_hand", "readings", "seat_bots", "shown_points", "value_limit"]
