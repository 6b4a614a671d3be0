"""What calls say a hand is worth: the samples' bidders hold hands worth their bids.

The dealer deals exactly what calls *promise*; bidders bid on what their hands are *worth*,
which is usually more (a 32 opening promises a card or two, and is made on a hand the
bidder values at 32), and players pass when their hands are worth little. Both bots draw a
pool of deals and put first those in which every other seat's bids lie within ``HOLD_SLACK``
of its hand's worth by the rule of thumb (``fiftysix.bots.rules.hand_worth``, ``value_limit``
for many hands at once), and every seat that passed over the opponents is worth no more
than ``HOLD_SLACK`` above the cheapest bid it let go. The worth is the rule's estimate itself,
not floored at 28 as a bidding limit is (any hand may bid 28; a 29 is bid on a hand valued at
29), so that a cheap bid claims something too.
"""
from __future__ import annotations

import numpy as np

from fiftysix.bidding import Auction
from fiftysix.bidding.calls import MIN_BID, PASS
from fiftysix.bots.base import QUIET_KINDS
from fiftysix.bots.rules import hand_worth, shown_points_of
from fiftysix.cards import Table

POOL = 256
"""Deals drawn per decision before the ones used are picked from them (``pick_deals``)."""
HOLD_SLACK = 2
"""A bid counts as what its bidder's hand is worth when the rule of thumb puts that hand
within this many points of it."""

PASSES = True
"""Passes claim too: a seat that passed while the opponents held the bid (or before any bid)
is dealt, first, a hand not worth the cheapest bid by more than ``HOLD_SLACK`` in any strain."""
ANY = -1
"""A claim's strain when it covers every strain (a pass)."""

Claim = tuple[int, int, "int | None", int, bool]
"""(seat, value, trump, points its partners had shown before the call, upper): a bid claims
its hand is worth at least ``value`` in ``trump``; a pass (``upper``) that it is worth less than
``value`` (the cheapest bid then) in every strain."""


def bid_claims(auction: Auction, seat: int) -> list[Claim]:
    """What the other seats' calls say of their strength: each bid another seat made that
    became the standing bid, and (``PASSES``) each pass another seat made while the other side
    held the bid or nobody did."""
    out: list[Claim] = []
    table = auction.table
    calls = auction.calls
    for i, rec in enumerate(calls):
        if rec.seat == seat:
            continue
        partners = set(table.partners(rec.seat))
        if rec.call.kind == PASS and rec.counts_as.kind == PASS:
            before = calls[i - 1] if i else None
            if not PASSES or (before is not None and before.high_seat is not None
                              and table.team_of(before.high_seat) == rec.team):
                continue
            cheapest = before.value + 1 if before is not None and before.value is not None else MIN_BID
            out.append((rec.seat, cheapest, ANY, shown_points_of(calls[:i], partners), True))
            continue
        if rec.call.kind in QUIET_KINDS or rec.high_seat != rec.seat or rec.value is None:
            continue
        out.append((rec.seat, rec.value, rec.trump, shown_points_of(calls[:i], partners), False))
    return out


def pick_deals(pool: np.ndarray, claims, table: Table, n: int) -> np.ndarray:
    """``n`` of the drawn deals ``pool``: first, in the order drawn, those in which every
    claim holds within ``HOLD_SLACK`` by the rule of thumb (a bid's hand worth at least its
    value, a pass's worth no more than the cheapest bid in any strain); then the nearest
    misses, by the points they miss by in all."""
    if not claims or len(pool) <= n:
        return pool[:n]
    short = np.zeros(len(pool))
    for s, value, trump, shown, upper in claims:
        hands = pool[:, s - 1]
        if upper:
            best = np.max([hand_worth(hands, table, s, t, shown, clip=False) for t in (None, 0, 1, 2, 3)], axis=0)
            short += np.maximum(0.0, best - (value + HOLD_SLACK))
        else:
            short += np.maximum(0.0, value - HOLD_SLACK - hand_worth(hands, table, s, trump, shown, clip=False))
    return pool[np.argsort(short, kind="stable")[:n]]
