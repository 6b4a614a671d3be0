"""The whole hand (fiftysix/hand.py), checked against facts found another way: the tricks and
the moment of decision by the plain rules of tests/naive.py, undo against a hand made afresh
from fewer moves, the result against the stake table, the record against its own parser.

RULES.md 4: "The hand stops early as soon as the declaring team has reached its target, or can
no longer reach it."
"""
from __future__ import annotations

import random

import pytest

from fiftysix.bidding import Auction, parse_call
from fiftysix.bots import bid_with
from fiftysix.cards import TABLE_SETUPS, Card, Deal, Table, random_deal
from fiftysix.errors import IllegalCallError, IllegalPlayError, NotationError
from fiftysix.hand import AUCTION, OVER, PLAY, PLAY_ON, HandState, TableOptions, format_move
from fiftysix.records import build_record, format_record, parse_record, record_of
from fiftysix.scoring import STAKES
from tests.naive import naive_card_points, naive_trick_winner

SETUPS = sorted(TABLE_SETUPS)


def _bid(deal, system="international", seed=1) -> HandState:
    """A hand whose auction the rules bots bid (an Auction made apart from the hand's)."""
    auction = bid_with(deal, system, "rules", seed=seed)
    h = HandState(deal, system)
    for r in auction.calls:
        h.apply(r.call)
    assert h.contract == auction.contract
    return h


def _naive_decision(cards: list[str], players: int, teams: list[int], trump: str | None, leader: int,
                    team: int, target: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """By the plain rules: (cards played when the contract was decided, each team's points then,
    each team's points at the end)."""
    points = [0] * (max(teams) + 1)
    decided = None
    for t0 in range(0, len(cards), players):
        trick = cards[t0:t0 + players]
        seats = [(leader - 1 + k) % players + 1 for k in range(players)]
        win = seats[naive_trick_winner(trick, trump)]
        points[teams[win - 1]] += sum(naive_card_points(x) for x in trick)
        leader = win
        left = 56 - sum(points)
        if decided is None and (points[team] >= target or points[team] + left < target):
            decided = (t0 + players, tuple(points))
    assert decided is not None
    return decided[0], decided[1], tuple(points)


@pytest.mark.parametrize("players, deck", SETUPS)
def test_a_hand_played_out_is_decided_where_the_plain_rules_decide_it(players, deck):
    table = Table.make(players, deck)
    rng = random.Random(players * 100 + deck)
    for seed in range(3):
        h = _bid(random_deal(table, seed=seed), seed=seed)
        c = h.contract
        assert h.phase == PLAY and h.to_move == 1 and h.standing_contract() == c
        while h.phase != OVER or h.can_play_on:
            if h.can_play_on:
                h.play_on()
            h.apply(rng.choice(list(h.legal_moves())))
        cards = [str(x) for x in h.cards]
        assert len(cards) == table.players * table.hand_size  # played out: every card
        trump = None if c.trump is None else "SHDC"[c.trump]
        teams = [table.team_of(s) for s in table.seats]
        at, then, end = _naive_decision(cards, players, teams, trump, 1, c.team, c.value)
        assert tuple(h.play.points) == end
        if at < len(cards):
            assert h.decided_at == at and h.played_on and PLAY_ON in h.moves
        else:
            assert not h.played_on and PLAY_ON not in h.moves
        assert h.result.declarer_points == then[c.team]
        made = then[c.team] >= c.value
        win, lose = next((w, l) for lo, hi, w, l in STAKES if lo <= c.value <= hi)
        assert h.result.score == (win if made else -lose) * c.doubled
        assert h.score_for(c.team) == -h.score_for((c.team + 1) % table.num_teams) == h.result.score


def test_undo_gives_the_hand_made_afresh_from_one_move_fewer():
    table = Table.make(4)
    rng = random.Random(3)
    deal = random_deal(table, seed=3)
    h = _bid(deal, seed=3)
    while h.phase != OVER or h.can_play_on:
        if h.can_play_on:
            h.play_on()
        h.apply(rng.choice(list(h.legal_moves())))
    while h.moves:
        before = h.moves
        h.undo()
        fresh = HandState.from_moves(deal, "international", TableOptions(), before[:-1])
        assert h.moves == fresh.moves == before[:-1]
        assert (h.phase, h.to_move, h.decided_at, h.can_play_on) == (fresh.phase, fresh.to_move, fresh.decided_at,
                                                                     fresh.can_play_on)
        if fresh.play is not None:
            assert h.play.points == fresh.play.points and h.play.hands == fresh.play.hands
            assert h.play.plays == fresh.play.plays and set(h.legal_moves()) == set(fresh.legal_moves())
        else:
            assert h.play is None and h.auction.calls == fresh.auction.calls
    assert h.phase == AUCTION and h.to_move == 1
    with pytest.raises(IllegalPlayError):
        h.undo()


def test_moves_are_its_serialized_form_and_bad_moves_change_nothing():
    table = Table.make(6)
    deal = random_deal(table, seed=8)
    h = _bid(deal, seed=8)
    for _ in range(7):
        h.apply(h.legal_moves()[0])
    text = [format_move(m) for m in h.moves]
    back = HandState.from_moves(deal, "international", TableOptions(), text)
    assert back.moves == h.moves and back.play.points == h.play.points
    assert eval(repr(h), {"HandState": HandState, "TableOptions": TableOptions, **_names()}).moves == h.moves
    before = h.moves
    held = h.play.hands[h.to_move - 1]
    not_held = next(k for k in table.kinds() if k not in held)
    with pytest.raises(IllegalPlayError, match="does not hold"):
        h.apply(not_held)
    with pytest.raises(IllegalCallError, match="the auction is over"):
        h.apply(parse_call("P"))
    with pytest.raises(IllegalPlayError, match="not stopped early"):
        h.play_on()
    with pytest.raises(NotationError):
        h.apply("JS")  # text is read at the edge (parse_move), never by apply
    assert h.moves == before
    with pytest.raises(IllegalPlayError, match="auction is not over"):
        HandState(deal).apply(Card.parse("JS"))
    assert h.parse_move(" js ") == Card.parse("JS") and HandState(deal).parse_move("28h") == parse_call("28H")


def _names() -> dict:
    from fiftysix.cards import Hand
    return {"Deal": Deal, "Hand": Hand, "Table": Table}


def test_the_standing_contract_follows_the_auction():
    deal = random_deal(Table.make(4), seed=2)
    h = HandState(deal)
    a = Auction("international", deal.table)
    assert h.standing_contract() is None and h.phase == AUCTION
    for call in bid_with(deal, "international", "rules", seed=2).calls:
        h.apply(call.call)
        a.apply(call.call)
        assert h.standing_contract() == a.standing_contract()
        assert h.to_move == (a.to_move if not a.is_over else 1)  # then seat 1 leads
    assert h.phase == PLAY and h.contract == a.contract


def test_table_options_declarer_leads_and_void_hand():
    table = Table.make(4)
    for seed in range(5):
        deal = random_deal(table, seed=seed)
        calls = [r.call for r in bid_with(deal, "international", "rules", seed=seed).calls]
        leads = HandState.from_moves(deal, "international", TableOptions(declarer_leads=True), calls)
        c = leads.contract
        assert leads.to_move == c.declarer and leads.leader == c.declarer
        assert HandState.from_moves(deal, "international", TableOptions(), calls).to_move == 1
    # void hand: "the defenders hold no trump when the bidding closes" (seats 2 and 4 hold no spade)
    deal = Deal.parse("JJ99AATT... .JJ99AATT.. ..JJ99AATT. ...JJ99AATT", table)
    void = HandState.from_moves(deal, "international", TableOptions(void_hand=True), ["28S", "P", "P", "P"])
    assert void.phase == OVER and void.play is None and void.result.reason == "void" and void.result.score == 0
    played = HandState.from_moves(deal, "international", TableOptions(), ["28S", "P", "P", "P"])
    assert played.phase == PLAY and played.result is None


@pytest.mark.parametrize("players, deck", [(4, 32), (6, 48), (8, 64)])
def test_a_hand_played_to_the_last_card_is_a_record(players, deck):
    """The Enter page's defect: a hand entered and played to the last card could not be saved
    ("card 17 of the play is illegal: ...: the hand is over (target reached)")."""
    table = Table.make(players, deck)
    for seed in range(20):
        h = _bid(random_deal(table, seed=seed), seed=seed)
        while h.phase != OVER or h.can_play_on:
            if h.can_play_on:
                h.play_on()
            h.apply(h.legal_moves()[-1])
        if h.played_on:
            break
    rec = record_of(h, event="Club")
    back = parse_record(format_record(rec))
    assert back == rec and back.played_out and len(back.play) == players * table.hand_size
    assert back.result == h.result.declarer_points and back.hand().moves == h.moves
    # part-way past the decision is no record: every card, or back to the decision
    h.undo()
    with pytest.raises(Exception, match=f"decided after card {h.decided_at}"):
        record_of(h)
    # build_record (the same cards as text) gives the same record
    built = build_record(table, h.deal, "international", [str(c) for c in h.calls],
                         [str(c) for c in back.cards], played_out=True, event="Club")
    assert built == rec
