"""Random hands and random legal auctions in every system and table size: the state machine
never offers an illegal call, never accepts one, always ends, and yields a valid contract; a
refused call comes with the rule it breaks as a ``Broken``, the same in every answer."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.bidding import SYSTEMS, Auction, Broken
from fiftysix.bidding.calls import BID_KINDS, parse_call
from fiftysix.bidding.state import Reading
from fiftysix.cards import Table, random_deal
from fiftysix.errors import IllegalCallError


def _legal_by_rules(a: Auction, call, hand) -> bool:
    """Independent checks every system shares (RULES.md 6) on a call the engine offers."""
    st_ = a.state
    if call.kind in BID_KINDS:
        rec = a.system.interpret(st_, a.to_move, call)
        assert isinstance(rec, Reading)
        if rec.value is not None:
            if st_.value is not None and rec.value <= st_.value:
                return False
            if rec.value > 56 or rec.value < 28:
                return False
            # RULES.md 6: "You cannot name a trump suit you hold no card of" - except in
            # classic: "In classic even the trump rule gives way: seed 000 allows calls in a
            # suit the caller holds none of."
            if (rec.trump is not None and call.names_suit and hand.suit_length(rec.trump) == 0
                    and a.system.name != "classic"):
                return False
    if call.kind == "double" and (st_.value is None or a.table.team_of(st_.high_seat) == a.table.team_of(a.to_move)):
        return False
    return not (call.kind == "redouble" and (st_.doubled != 2 or a.table.team_of(st_.high_seat) != a.table.team_of(a.to_move)))


@settings(max_examples=45, deadline=None)
@given(system=st.sampled_from(sorted(SYSTEMS)), players=st.sampled_from([4, 6, 8]),
       teams=st.sampled_from(["alternate", "pairs"]), seed=st.integers(0, 10**6))
def test_random_auctions(system, players, teams, seed):
    rng = random.Random(seed)
    table = Table.make(players, teams=teams)
    deal = random_deal(table, rng=rng)
    a = Auction(system, table, deal)
    pass_bias = rng.choice([0.5, 0.7, 0.85])
    steps = 0
    while not a.is_over:
        steps += 1
        assert steps < 400, f"{system}: the auction does not end: {a}"
        seat = a.to_move
        hand = deal.hand(seat)
        legal = a.legal_calls(hand)
        assert legal, f"{system}: no legal call for seat {seat} after {a}"
        assert len(set(legal)) == len(legal)
        for call in legal:
            assert a.check(call, hand) is None
            assert _legal_by_rules(a, call, hand), f"{system}: offered {call} after {a}"
        # an illegal candidate is refused, with the position in the message
        others = [c for c in a.system.candidates(a.state, seat) if c not in set(legal)]
        for call in rng.sample(others, min(3, len(others))):
            n_before = len(a.calls)
            try:
                a.apply(call, hand=hand)  # a refused call leaves the auction unchanged
            except IllegalCallError as e:
                assert f"call {n_before + 1} ({call})" in str(e) and len(a.calls) == n_before
            else:
                raise AssertionError(f"{system}: accepted {call} after {a}")
        passes = [c for c in legal if c.kind == "pass"]
        call = passes[0] if passes and rng.random() < pass_bias else rng.choice(legal)
        a.apply(call)
    assert a.legal_calls() == [] and a.to_move is None
    c = a.contract
    assert c is not None  # none of the five systems leaves an auction without a contract
    assert 28 <= c.value <= 56 and c.doubled in (1, 2, 4)
    assert c.team == table.team_of(c.declarer)
    if a.passed_out:
        assert system == "basic" and (c.value, c.trump, c.declarer) == (28, None, 1)
    else:
        last_bid = [r for r in a.calls if r.counts_as.is_bid][-1]
        assert (c.value, c.declarer) == (last_bid.value, last_bid.seat)
        if c.trump is not None:
            # classic: a deception in a suit held none of may stand (seed 000)
            assert (deal.hand(c.declarer).suit_length(c.trump) > 0 or last_bid.call.kind == "raise"
                    or system == "classic")
    # the auction's text replays to the same result
    b = Auction.parse(str(a), system, table)
    assert b.contract == c


ODD_CALLS = ("NS", "28NS", "+H", "+1H", "+2H", "+5S", "H+", "H+2", "+1NT", "+2NT", "+NS", "+2NS",
             "1+H", "5+C", "-H", "-1C", "+P", "40H^", "41H^", "28-Pass", "29-Pass", "56NT", "S56")


@settings(max_examples=20, deadline=None)
@given(system=st.sampled_from(sorted(SYSTEMS)), players=st.sampled_from([4, 6, 8]),
       seed=st.integers(0, 10**6))
def test_broken_rules_are_values_with_words(system, players, seed):
    """Every call a system reads is either a Reading or a Broken with the rule in words; the
    auction's verdict, its legal calls and its error messages all say the same."""
    rng = random.Random(seed)
    table = Table.make(players)
    deal = random_deal(table, rng=rng)
    a = Auction(system, table, deal)
    odd = [parse_call(t) for t in ODD_CALLS]
    while not a.is_over and len(a.calls) < 30:
        seat = a.to_move
        hand = deal.hand(seat)
        legal = set(a.legal_calls(hand))
        calls = list(dict.fromkeys([*a.system.candidates(a.state, seat), *odd]))
        for call in rng.sample(calls, min(40, len(calls))) + sorted(legal, key=str)[:10]:
            r = a.system.interpret(a.state, seat, call)
            assert isinstance(r, (Reading, Broken)), (system, str(a), call, r)
            verdict = a.check(call, hand)
            assert (verdict is None) == (call in legal), (system, str(a), call, verdict)
            if isinstance(r, Broken):
                assert verdict == r  # the system's rule comes first, the hand's after
            if verdict is None:
                continue
            assert isinstance(verdict, Broken) and verdict.rule and str(verdict) == verdict.rule
            n = len(a.calls)
            with pytest.raises(IllegalCallError) as e:
                a.apply(call, hand)
            assert str(e.value) == f"call {n + 1} ({call}) by seat {seat}: {verdict}"
            assert len(a.calls) == n
        call = rng.choice(sorted(legal, key=str))
        a.apply(call, hand)
    if a.is_over:
        assert a.check(parse_call("P")) == Broken("the auction is over")


@settings(max_examples=10, deadline=None)
@given(system=st.sampled_from(sorted(SYSTEMS)), players=st.sampled_from([4, 6, 8]),
       seed=st.integers(0, 10**6))
def test_a_verdict_agrees_with_the_truthful_calls(system, players, seed):
    """``Auction.verdict`` (the review's and the practice table's question: does this hand keep
    the call's promise?) agrees with the legal-call walk of ``truthful_calls``: a call that
    promises something is kept exactly when it is among the truthful calls, and a broken one
    names the parts it breaks and offers those calls instead."""
    rng = random.Random(seed)
    table = Table.make(players)
    deal = random_deal(table, rng=rng)
    a = Auction(system, table, deal)
    while not a.is_over and len(a.calls) < 30:
        hand = deal.hand(a.to_move)
        truthful = a.truthful_calls(hand)
        legal = a.legal_calls(hand)
        for call in rng.sample(legal, min(6, len(legal))):  # a broken call walks every legal call again
            v = a.verdict(call, hand)
            if v.meaning.promises_nothing:
                assert v.kept is None and not v.broken and not v.truthful
            elif v.kept:
                assert call in truthful and not v.broken and not v.truthful
            else:
                assert call not in truthful and v.broken and list(v.truthful) == truthful
        a.apply(rng.choice(legal), hand)


@settings(max_examples=30, deadline=None)
@given(system=st.sampled_from(sorted(SYSTEMS)), players=st.sampled_from([4, 6, 8]),
       teams=st.sampled_from(["alternate", "pairs"]), seed=st.integers(0, 10**6))
def test_undo_gives_back_the_auction_made_again_from_its_calls(system, players, teams, seed):
    """``Auction.undo`` steps back with no replay; after each step the auction equals one made
    again from the calls that are left (the state the systems read, the legal calls, the meanings)."""
    rng = random.Random(seed)
    table = Table.make(players, teams=teams)
    deal = random_deal(table, rng=rng)
    a = Auction(system, table, deal)
    while not a.is_over and len(a.calls) < 60:
        a.apply(rng.choice(a.legal_calls(deal.hand(a.to_move))))
    while a.calls:
        taken = a.calls[-1]
        assert a.undo() == taken
        again = Auction(system, table, deal)
        again.apply_all(r.call for r in a.calls)
        assert a.state == again.state and a.is_over == again.is_over == False
        seat = a.to_move
        assert seat == taken.seat and a.legal_calls(deal.hand(seat)) == again.legal_calls(deal.hand(seat))
        assert a.seat_constraints() == again.seat_constraints()
    with pytest.raises(IllegalCallError, match="no call to take back"):
        a.undo()
