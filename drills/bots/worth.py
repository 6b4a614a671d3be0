"""What bids say a hand is worth: the samples' bidders hold hands worth their bids.

The dealer deals exactly what calls *promise*; bidders bid on what their hands are *worth*,
which is usually more (a 32 opening promises a card or two, and is made on a hand the
bidder values at 32). Both bots draw a pool of deals and put first those in which every
other seat's bids lie within ``HOLD_SLACK`` of its hand's worth by the rule of thumb
(``drills.bots.rules.hand_worth``, ``value_limit`` for many hands at once).
"""
from __future__ import annotations

import numpy as np

from fiftysix.bidding import Auction
from fiftysix.cards import Table
from drills.bots.base import QUIET_KINDS
from drills.bots.rules import hand_worth, shown_points_of

POOL = 256
"""Deals drawn per decision before the ones used are picked from them (``pick_deals``)."""
HOLD_SLACK = 2
"""A bid counts as what its bidder's hand is worth when the rule of thumb puts that hand
within this many points of it."""

Claim = tuple[int, int, "int | None", int]
"""(seat, value, trump, points its partners had shown before the bid)."""


def bid_claims(auction: Auction, seat: int) -> list[Claim]:
    """What the other seats' bids say of their strength: (seat, value, trump, points its
    partners had shown before it) for each bid another seat made that became the standing bid."""
    out = []
    for i, rec in enumerate(auction.calls):
        if rec.seat == seat or rec.call.kind in QUIET_KINDS or rec.high_seat != rec.seat or rec.value is None:
            continue
        partners = set(auction.table.partners(rec.seat))
        shown = shown_points_of(auction.calls[:i], partners)
        out.append((rec.seat, rec.value, rec.trump, shown))
    return out


def pick_deals(pool: np.ndarray, claims, table: Table, n: int) -> np.ndarray:
    """``n`` of the drawn deals ``pool``: first, in the order drawn, those in which every
    claimed bid lies within ``HOLD_SLACK`` of what the rule of thumb says its bidder's hand is
    worth; then the nearest misses. The dealer knows only what calls promise; bidders bid on
    what their hands are worth, which is usually more."""
    if not claims or len(pool) <= n:
        return pool[:n]
    short = np.zeros(len(pool))
    for s, value, trump, shown in claims:
        short += np.maximum(0.0, value - HOLD_SLACK - hand_worth(pool[:, s - 1], table, s, trump, shown))
    return pool[np.argsort(short, kind="stable")[:n]]
