"""The bidding bot: every call legal and truthful (its hand keeps the promise), sensible values."""
from __future__ import annotations

import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.bidding import SYSTEMS, Auction
from fiftysix.bidding.calls import FORCED, PASS
from fiftysix.bots import Bot, bid_deal
from fiftysix.cards import Card, Deal, Hand, Table, deck_cards, random_deal
from fiftysix.constraints import fits

TABLES = [(4, "alternate"), (6, "alternate"), (8, "alternate"), (6, "pairs")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SYSTEMS)), st.sampled_from(TABLES), st.integers(0, 10**6))
def test_every_bot_call_is_legal_and_keeps_its_promise(system, tbl, seed):
    players, teams = tbl
    deal = random_deal(Table.make(players, teams=teams), seed)
    auction = bid_deal(deal, system, seed)
    assert auction.is_over and auction.contract is not None
    # replay independently: each call legal for the caller's hand at that point, and the
    # hand fits the meaning the engine gives the call there
    replay = Auction(system=system, table=deal.table)
    for rec in auction.calls:
        hand = deal.hand(rec.seat)
        assert replay.to_move == rec.seat
        assert replay.check(rec.call, hand) is None, (str(replay), rec.call)
        meaning = replay.meaning_of(rec.call, hand)
        assert fits(hand, meaning.constraint), (system, seed, str(replay), rec.call, meaning.sentence)
        replay.apply(rec.call, hand)
    assert str(replay) == str(auction)


def test_the_same_seed_gives_the_same_auction():
    deal = random_deal(Table.make(6), 5)
    assert str(bid_deal(deal, "international", 1)) == str(bid_deal(deal, "international", 1))


def _deal_with(table: Table, seat: int, hand: Hand, seed: int) -> Deal:
    rest = deck_cards(table.deck)
    for c in hand:
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    n = table.hand_size
    hands, k = [], 0
    for s in table.seats:
        if s == seat:
            hands.append(hand)
        else:
            hands.append(Hand(tuple(rest[k:k + n])))
            k += n
    return Deal(table, tuple(hands))


def test_a_hand_without_points_never_raises_the_target():
    table = Table.make(6)
    weak = Hand.parse("KQ.KQ.KKQ.Q")  # no J, 9, A or T: no card points at all
    for system in sorted(SYSTEMS):
        for seed in range(8):
            for seat in (1, 2, 4):
                a = bid_deal(_deal_with(table, seat, weak, seed), system, seed)
                for rec in a.calls:
                    if rec.seat == seat and rec.call.kind not in (PASS, FORCED):
                        # at most the minimum opening (e.g. a forced first bid), never a raise
                        assert rec.value == 28, (system, seed, seat, str(a), rec.call)


def test_the_bot_shows_its_jacks_when_it_opens():
    # both Jacks of hearts and length: the opening call should promise a heart Jack
    table = Table.make(6)
    strong = Hand.parse("J.JJ9AT.A.9")
    for system in sorted(SYSTEMS):
        opened = 0
        for seed in range(6):
            a = Auction(system=system, table=table)
            choice = Bot(seed).choose(a, strong)
            if choice.call.kind in (PASS, FORCED):
                continue
            opened += 1
            m = a.meaning_of(choice.call, strong)
            kinds = {k for part in _counts(m.constraint) if part.lo > 0 for k in part.kinds}
            assert Card.parse("JH") in kinds or Card.parse("JS") in kinds, (system, choice.call, m.sentence)
        assert opened, system


def _counts(c):
    from fiftysix.constraints import atoms
    return atoms(c)


def test_contracts_are_plausible():
    values = []
    for seed in range(40):
        a = bid_deal(random_deal(Table.make(6), seed), "international", seed)
        values.append(a.contract.value)
    assert 28 <= min(values) and max(values) <= 48
    assert 29 <= statistics.median(values) <= 40
