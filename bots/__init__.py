"""The bots: bidding bots registered by name, and the card-playing bot.

    from fiftysix.bots import get_bot, bid_with, CardBot, play_hand
    auction = bid_with(deal, "international", "default", seed=1)   # or one name per seat
    state = play_hand(deal, auction.contract, [CardBot(1)] * 6, auction.seat_constraints())

``rules`` is the rule-of-thumb bidder kept as the baseline; ``default`` judges value by
simulation (``fiftysix.bots.judge``). ``Bot`` and ``bid_deal`` remain the ``rules`` bot's
names from before the bots became a package.
"""
from __future__ import annotations

from collections.abc import Sequence

from fiftysix.bidding import Auction
from fiftysix.bots.base import MAX_CALLS, QUIET_KINDS, BiddingBot, Choice, bid_auction
from fiftysix.bots.cardplay import CardBot, CardChoice, play_hand
from fiftysix.bots.judge import JudgeBot
from fiftysix.bots.rules import Bot, RulesBot, bid_deal, shown_points, value_limit
from fiftysix.cards import Deal
from fiftysix.errors import FiftySixError

BIDDING_BOTS = {"default": JudgeBot, "rules": RulesBot}
"""Bidding bots by name."""
DEFAULT_BOT = "default"


def _make(registry: dict, name: str, seed: int | str | None, what: str):
    key = str(name).strip().lower()
    if key not in registry:
        raise FiftySixError(f"unknown {what} {name!r}: choose one of {', '.join(sorted(registry))}")
    return registry[key](seed)


def get_bot(name: str = DEFAULT_BOT, seed: int | str | None = None) -> BiddingBot:
    """A new bidding bot of the given name, seeded."""
    return _make(BIDDING_BOTS, name, seed, "bot")


def _per_seat(names: str | Sequence[str], players: int) -> list[str]:
    if isinstance(names, str):
        names = names.split(",")
    names = [str(n).strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise FiftySixError(f"give one bot name for every seat or one per seat: {len(names)} names"
                            f" for {players} seats")
    return names


def seat_bots(names: str | Sequence[str], players: int, seed: int | str | None = None) -> list[BiddingBot]:
    """One bot per seat from one name (every seat) or a name per seat (in seat order).

    Seats with the same name share one bot (its choices depend only on the seed and what
    the seat knows, so sharing changes nothing but saves its solver)."""
    made: dict[str, BiddingBot] = {}
    for n in _per_seat(names, players):
        if n.lower() not in made:
            made[n.lower()] = get_bot(n, seed)
    return [made[n.lower()] for n in _per_seat(names, players)]


CARD_BOTS = {"default": CardBot}
"""Card-playing bots by name."""


def card_bots(names: str | Sequence[str], players: int, seed: int | str | None = None) -> list[CardBot]:
    """One card bot per seat from one name (every seat) or a name per seat."""
    return [_make(CARD_BOTS, n, seed, "card bot") for n in _per_seat(names, players)]


def bid_with(deal: Deal, system: str, names: str | Sequence[str] = DEFAULT_BOT, seed: int | str | None = None,
             on_call=None) -> Auction:
    """Bid ``deal`` with the named bots (one name, or one per seat); same seed, same auction."""
    return bid_auction(deal, system, seat_bots(names, deal.table.players, seed), on_call)


__all__ = [
    "BIDDING_BOTS",
    "CARD_BOTS",
    "DEFAULT_BOT",
    "MAX_CALLS",
    "QUIET_KINDS",
    "BiddingBot",
    "Bot",
    "CardBot",
    "CardChoice",
    "Choice",
    "JudgeBot",
    "RulesBot",
    "bid_auction",
    "bid_deal",
    "bid_with",
    "card_bots",
    "get_bot",
    "play_hand",
    "seat_bots",
    "shown_points",
    "value_limit",
]
