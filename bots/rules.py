"""The ``rules`` bidding bot: a truthful bidder that judges value by a rule of thumb.

For a hand, a seat and an auction, the bot makes only calls whose promise its hand keeps
(``fits``), so every generated auction tells the truth under the system. Among the truthful
calls it prefers, in order: calls that show Jacks and long suits, support for partner's
suit, and the cheapest value; it never takes the value above what its hand and its
partners' shown cards can plausibly make (``value_limit``), and passes when nothing
truthful fits under that limit. It never doubles. Kept as the baseline the ``default`` bot
(``fiftysix.bots.judge``) is measured against.
"""
from __future__ import annotations

import random

import numpy as np

from fiftysix.bidding import Auction
from fiftysix.bidding.calls import DOUBLE, MAX_BID, PASS, REDOUBLE, Call
from fiftysix.bidding.meaning import promise_text
from fiftysix.bidding.state import Reading
from fiftysix.bots.base import QUIET_KINDS, Choice, bid_auction, decision_seed
from fiftysix.cards import NUM_KINDS, NUM_RANKS, NUM_SUITS, RANK_POINTS, Deal, Hand, Table
from fiftysix.constraints import atoms
from fiftysix.errors import FiftySixError


def shown_points(auction: Auction, seats: tuple[int, ...]) -> int:
    """Card points the given seats' calls promised (single-card promises only), counted once."""
    return shown_points_of(auction.calls, seats)


def shown_points_of(calls, seats) -> int:
    """``shown_points`` of a list of call records (an auction so far)."""
    need: dict[int, int] = {}
    for rec in calls:
        if rec.seat not in seats:
            continue
        for a in atoms(rec.meaning.constraint):
            if len(a.kinds) == 1 and a.lo > 0:
                k = a.kinds[0]
                need[k] = max(need.get(k, 0), min(a.lo, 2))
    return sum(RANK_POINTS[k % 8] * n for k, n in need.items())


def value_limit(hand: Hand, table: Table, seat: int, trump: int | None, auction: Auction,
                shown: int | None = None) -> int:
    """The highest value this hand will bid to with ``trump``: a rough expected team take.

    Own points, plus a share of the rest for each partner (all the points partners' calls
    have shown, ``shown``, computed when not given), plus 2 a card for trump length above
    the average and 1.5 for each trump Jack or Nine; at no-trump 1 for each Jack.
    """
    if shown is None:
        shown = shown_points(auction, table.partners(seat))
    return int(hand_worth(np.array([hand.counts()]), table, seat, trump, shown)[0])


_KIND_POINTS = np.array([RANK_POINTS[k % NUM_RANKS] for k in range(NUM_KINDS)])


def hand_worth(counts: np.ndarray, table: Table, seat: int, trump: int | None, shown: int,
               clip: bool = True) -> np.ndarray:
    """``value_limit`` of many hands at once: ``counts`` (hands, 32 kinds) held in ``seat``;
    ``clip=False``: the rule of thumb's take itself, below 28 too (a hand the rule of thumb
    values at 24 bids 28 at most, one at 29 bids up to 29)."""
    n, partners = table.players, len(table.partners(seat))
    points = counts @ _KIND_POINTS
    team = points + shown + partners * (56 - points - shown) / (n - 1) * 0.85
    if trump is not None:
        held = counts[:, trump * NUM_RANKS:(trump + 1) * NUM_RANKS]
        avg = table.hand_size / NUM_SUITS
        team = team + 2.0 * np.maximum(0.0, held.sum(axis=1) - avg) + 1.5 * (held[:, 0] + held[:, 1])
    else:
        team = team + counts[:, 0::NUM_RANKS].sum(axis=1)
    return np.clip(np.floor(team), 28, 56) if clip else np.floor(team)


def info_score(call: Call, constraint, hand: Hand, partner_suits: set[int]) -> float:
    """How much a truthful call tells: cards it shows (Jacks most), length, support."""
    score = 0.0
    for a in atoms(constraint):
        if a.lo > 0:
            pts = sum(RANK_POINTS[k % 8] for k in a.kinds) / len(a.kinds)
            score += a.lo * (0.5 + pts) if len(a.kinds) <= 4 else 0.4 * a.lo
        if a.hi == 0:
            score += 1.0  # a void is news
    if call.suit is not None and call.suit in partner_suits:
        score += 2.0  # support partner
    if call.suit is not None:
        score += 0.3 * hand.suit_length(call.suit)
    return score


class RulesBot:
    """A truthful bidder. ``aggression`` shifts the value limit (in points); ``seed`` breaks ties.

    The tie-break of each decision is drawn from the seed, the seat and the auction so far, so
    that a call depends on nothing else: until 2026-12-04 one generator ran through every call
    the bot made, and the same bot gave another call at the same point of the same deal once it
    had bid another auction (7 of bench/bots.py's 160 kerala tables of seed 21 came out
    otherwise when their auctions were bid again by a fresh bot)."""

    name = "rules"

    def __init__(self, seed: int | str | None = None, aggression: int = 0) -> None:
        self.seed = 0 if seed is None else seed  # an int, or a text such as "11:0" (stats' jobs)
        self.aggression = aggression

    def _tie_breaks(self, auction: Auction, seat: int) -> random.Random:
        return random.Random(decision_seed(self.seed, seat, auction))

    def options(self, auction: Auction, hand: Hand, max_value: int = MAX_BID) -> list[tuple[Call, Reading, bool]]:
        """Legal calls for this hand up to ``max_value``, with reading and whether the hand keeps it."""
        counts = hand.counts()
        return [(c, r, r.meaning.constraint.holds(counts)) for c, r in auction.readings(hand, max_value)]

    def choose(self, auction: Auction, hand: Hand) -> Choice:
        """The call to make now, with the reason."""
        st = auction.state
        seat, table = st.to_move, auction.table
        partners = set(table.partners(seat))
        shown = shown_points(auction, tuple(partners))
        limits = {t: value_limit(hand, table, seat, t, auction, shown) + self.aggression
                  for t in (None, 0, 1, 2, 3)}
        counts = hand.counts()
        options = auction.readings(hand, max(limits.values()))
        if not any(c.kind == PASS for c, _ in options):  # a forced bid: look at everything
            options = auction.readings(hand)
        if not options:
            raise FiftySixError(f"seat {seat} has no legal call")
        ours = partners | {seat}
        partner_suits = {s for p, s in st.named if p in partners}
        floor = st.value if st.value is not None else 27
        rng = self._tie_breaks(auction, seat)
        scored: list[tuple[float, int, Call, str]] = []
        for c, r in options:
            if r.value is None or c.kind in QUIET_KINDS:
                continue
            lim = limits[r.trump]
            if r.value > lim:
                continue  # do not raise the target without the cards
            if st.high_seat in ours and r.value - floor > 1:
                continue  # our side holds the bid: only cheap calls that show something
            m = r.meaning
            if not m.constraint.holds(counts):
                continue  # never a call whose promise the hand breaks
            info = info_score(c, m.constraint, hand, partner_suits)
            if info <= 0 and st.high_seat in ours:
                continue  # nothing to say over our own side's bid
            score = info - 0.8 * (r.value - floor) + rng.random() * 0.01
            scored.append((score, -r.value, c,
                           f"it tells partners something true ({promise_text(m)}) and stays within"
                           f" the {lim} this hand can support"))
        pass_legal = [(c, r) for c, r in options if c.kind == PASS]
        if scored:
            best = max(scored, key=lambda s: (s[0], s[1]))
            if best[0] > 0 or not pass_legal:
                return Choice(best[2], best[3])
        for c, r in pass_legal:
            if r.meaning.constraint.holds(counts):
                return Choice(c, "nothing true to show within what the hand can make")
        # Pass is not allowed or not true (a forced bid): the cheapest truthful call, else the cheapest
        ok = [(c, r) for c, r in options if c.kind not in (DOUBLE, REDOUBLE) and r.meaning.constraint.holds(counts)]
        pool = ok or options
        c, r = min(pool, key=lambda cr: (cr[1].value or 99, str(cr[0])))
        return Choice(c, "the cheapest call allowed here, since a bid is forced", bool(ok))

    def bid(self, deal: Deal, system: str) -> Auction:
        """Bid a whole deal with this bot in every seat; returns the finished auction."""
        return bid_auction(deal, system, [self] * deal.table.players)


Bot = RulesBot
"""The name this bot had before the bots became a package."""


def bid_deal(deal: Deal, system: str, seed: int | str | None = None) -> Auction:
    """Bid a deal with the ``rules`` bot in every seat (same seed, same auction)."""
    return RulesBot(seed).bid(deal, system)
