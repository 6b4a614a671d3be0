"""Analysis that survives a bluff (RULES.md 6): when the auction's promises cannot all hold,
the dealer sets aside the fewest of them, says which and why, and deals from the rest."""
from __future__ import annotations

import json

import pytest

from fiftysix.analyser.dealer import Dealer, View, auction_promises, settle
from fiftysix.bidding import Auction
from fiftysix.cards import Hand, Table, random_deal
from fiftysix.constraints import Count, fits
from fiftysix.errors import ConstraintError

SIX = Table.make(6)
FLAT = "KQ.KQ.KQ.KQ"  # no Jack, Nine, Ace or Ten: it can clash with no promise

# RULES.md 7.4 and seed 000's worked example, in the project's notation
SEED_000 = "28H +C +1H P 1+H NS 2+D P P -C P -1C 38S P 40NT P P P P P"
# Seed 000 on seat 1's three calls:
#   "1. Player makes the following announcement: 28 hearts (he has the jack and at least 3
#    additional cards)"
#   "1st player: "Two Plus Diamonds" (He thus has two jacks of diamonds and one extra card."
#   "1st player: "38 of spades" (... he has the 2 jacks of spades and many additional cards"
# At least 4 hearts + exactly 3 diamonds + at least 2 + 3 spades = 12 cards; a hand holds 8.


def kept_promises_hold(dealer: Dealer, counts) -> None:
    """Every promise the dealer kept holds in every sampled deal (checked with ``fits``)."""
    view = dealer.view
    aside = {a.promise for a in dealer.set_aside}
    for p in view.calls:
        assert p not in aside
    for deal in counts:
        for p in view.calls:
            if p.seat != view.seat:
                assert fits(list(deal[p.seat - 1]), p.constraint).ok, p


def test_seed_000_replays_exactly_and_samples_from_every_seat():
    a = Auction.parse(SEED_000, "classic", SIX)
    assert [r.value for r in a.calls][:15] == [28, 29, 30, 30, 31, 32, 34, 34, 34, 35, 35, 36, 38, 38, 40]
    assert str(a.contract) == "40NT" and a.contract.declarer == 3
    seat1 = [p for p in auction_promises(a) if p.seat == 1]
    assert [p.call for p in seat1] == ["28H", "2+D", "38S"]
    deal = random_deal(SIX, 5)
    for seat in SIX.seats:
        view = View.from_auction(SIX, "classic", seat, deal.hand(seat), SEED_000)
        dealer = Dealer(view)
        counts = dealer.sample_counts(30, seed=seat)
        assert len(counts) == 30
        kept_promises_hold(dealer, counts)
        if seat != 1:  # seat 1's own three calls cannot all hold: one of them is set aside
            assert {p.call for p in (a.promise for a in dealer.set_aside) if p.seat == 1} & {"28H", "2+D", "38S"}
        for x in dealer.set_aside:
            assert x.reason and str(x).startswith("set aside seat ")


@pytest.mark.parametrize("seat", [2, 3, 4, 5, 6])
def test_seed_000_sets_aside_only_the_latest_of_the_clash(seat):
    # with a hand that clashes with nothing, only seat 1's 12 cards are too many: set aside one
    # call. Without 38S: 4 + 3 = 7 cards fit; without 2+D: 4 + 5 = 9 do not; without 28H: 3 + 5
    # = 8 fit. The later of the two that work is 38S (call 13).
    view = View.from_auction(SIX, "classic", seat, Hand.parse(FLAT), SEED_000)
    dealer = Dealer(view)
    assert [(x.promise.seat, x.promise.call) for x in dealer.set_aside] == [(1, "38S")]
    assert "28H" in dealer.set_aside[0].reason
    kept_promises_hold(dealer, dealer.sample_counts(40, seed=1))


def test_the_issues_example_conflict_with_what_the_viewer_sees():
    # seat 2 holds both heart Jacks, so seat 1's 28H and seat 3's +1H (each a Jack of hearts)
    # cannot hold: "seat 3 promised holds a Jack of hearts, only 0 JH are unseen"
    view = View.from_auction(SIX, "international", 2, Hand.parse("K.JJ9.KQ.KQ"), "28H P +1H")
    dealer = Dealer(view)
    assert [x.promise.call for x in dealer.set_aside] == ["28H", "+1H"]
    for x in dealer.set_aside:
        assert "what seat 2 sees" in x.reason and "only 0 JH are unseen" in x.reason
    assert len(dealer.sample(5, seed=2)) == 5


def test_two_separate_clashes_set_aside_two_later_calls():
    # seat 1's +2H: exactly the two heart Jacks; seat 3's 30H: a Jack of hearts (clash A).
    # seat 5's +2S: exactly the two spade Jacks; seat 1's 33S: a Jack of spades (clash B).
    text = "+2H P 30H P +2S P 33S"
    a = Auction.parse(text, "international", SIX)
    assert [r.value for r in a.calls if r.call.is_bid] == [29, 30, 32, 33]
    view = View.from_auction(SIX, "international", 2, Hand.parse(FLAT), text)
    dealer = Dealer(view)
    got = [(x.promise.seat, x.promise.call) for x in dealer.set_aside]
    assert got == [(3, "30H"), (1, "33S")]
    assert "seat 1's +2H" in dealer.set_aside[0].reason
    assert "seat 5's +2S" in dealer.set_aside[1].reason
    kept_promises_hold(dealer, dealer.sample_counts(40, seed=3))


def test_consistent_promises_are_all_kept_and_hard_constraints_still_refuse():
    view = View.from_auction(SIX, "international", 2, Hand.parse(FLAT), "28H P 30H")
    same, aside = settle(view)
    assert aside == () and same == view
    # a constraint given as a must (not a call) is never set aside: the dealer still refuses
    hearts = tuple(range(8, 16))
    hard = View(SIX, 2, Hand.parse(FLAT), {3: Count(hearts, 11, 99)})
    with pytest.raises(ConstraintError, match="seat 3 promised"):
        Dealer(hard)


def test_the_estimate_and_the_command_line_carry_the_list(capsys):
    from fiftysix.analyser.simulate import estimate_from_auction
    from fiftysix.ui.cli import main
    t = Table.make(4)
    est = estimate_from_auction(t, "international", 2, Hand.parse("9AT.9.9AT.9"), "+2H P 30H",
                                n=2, leads=False, points=False)
    assert [x.promise.call for x in est.set_aside] == ["30H"]
    assert est.to_dict()["set_aside"][0]["call"] == "30H"
    code = main(["sample", "--system", "classic", "--seat", "2", "--hand", FLAT, "--auction", SEED_000,
                 "-n", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and len(out.strip().splitlines()) == 2
    assert "set aside seat 1's 38S" in err
    json.loads(out.splitlines()[0])


def test_explain_shows_the_set_aside_list_next_to_the_table_view(tmp_path, monkeypatch):
    from tests.app_harness import open_page
    at = open_page("explain", tmp_path, monkeypatch, system="classic")
    at.text_input(key="ex_text").input(SEED_000).run()
    at.selectbox(key="ex_view_seat").set_value(3).run()
    at.text_input(key="ex_view_hand_3_6_48").input(FLAT).run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("Set aside seat 1's 38S") for w in warnings), warnings
    assert at.get("plotly_chart")  # the grid is drawn from the promises kept
