from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.cards import (
    SUITS,
    TABLE_SETUPS,
    TOTAL_POINTS,
    Card,
    Deal,
    Hand,
    Table,
    deck_kinds,
    parse_cards,
    random_deal,
)
from fiftysix.errors import DealError, IllegalPlayError
from fiftysix.play import (
    PlayState,
    is_void_hand,
    legal_cards,
    opening_leader,
    played_by_seat,
    trick_number,
    trick_rows,
    trick_winner,
    who_played,
)
from tests.naive import naive_legal_cards, naive_trick_points, naive_trick_winner

H, S, D, C = 1, 0, 2, 3


def win(text: str, trump: int | None) -> int:
    return trick_winner(parse_cards(text), trump)


# --- trick winner: the rule texts' cases ----------------------------------------------

def test_two_identical_cards_first_played_wins():
    assert win("AS AS KS QS", H) == 0
    assert win("KS AS AS QS", None) == 1
    assert win("QS JH JH 7S", H) == 1          # identical trumps: the first one
    assert win("JD JD JD JD", None) == 0       # (four copies cannot happen, the rule still holds)


def test_discard_of_higher_card_of_another_suit_loses():
    assert win("QS JD 9C KS", H) == 3          # J and 9 of side suits do not beat the led suit
    assert win("7S JD JC JH", None) == 0       # no-trump: nothing beats the only card of the suit led


def test_trump_beats_led_suit_and_highest_trump_wins():
    assert win("JS 7H QS", H) == 1
    assert win("JS 7H 9H AH", H) == 2
    assert win("7H JS AS", H) == 0             # trump led: side suit cards cannot win


def test_no_trump_tricks_go_to_highest_of_led_suit():
    assert win("KD JH 9D AD", None) == 2          # JH is another suit; 9D beats A and K
    assert win("TD AD KD", None) == 1
    assert win("TD 8D 7D", None) == 0


def test_power_is_not_points():
    assert win("QC KC", None) == 1             # both score 0, K still beats Q
    assert win("TC AC", None) == 1


cards_st = st.integers(0, 31).map(Card)


@settings(max_examples=300, deadline=None)
@given(st.lists(cards_st, min_size=1, max_size=8), st.sampled_from([None, 0, 1, 2, 3]))
def test_trick_winner_matches_naive(cards, trump):
    names = [str(c) for c in cards]
    assert trick_winner(cards, trump) == naive_trick_winner(names, None if trump is None else SUITS[trump])


@settings(max_examples=200, deadline=None)
@given(st.lists(cards_st, min_size=1, max_size=12), st.sampled_from([None, 0, 1, 2, 3]))
def test_legal_cards_match_naive(cards, led):
    hand = Hand(tuple(cards[:]))
    got = {str(c) for c in legal_cards(hand, led)}
    assert len(got) == len(legal_cards(hand, led))  # distinct kinds
    assert got == naive_legal_cards([str(c) for c in cards], None if led is None else SUITS[led])


# --- the state machine ------------------------------------------------------------------

ENDING = "J.9.. T.A.. A.T.. 9.J.."  # 4 players, 2 cards each, 14 points


def ending_state(**kw) -> PlayState:
    return PlayState(Deal.parse(ENDING, Table.make(4), partial=True), None, **kw)


def test_turns_follow_playing_order_and_winner_leads():
    s = ending_state(leader=3)
    assert s.to_move == 3
    s.play("AS")
    assert s.to_move == 4
    s.play("9S")
    s.play("JS")
    assert s.to_move == 2
    trick = s.play("TS")
    assert (trick.leader, trick.winner, trick.points) == (3, 1, 7)
    assert s.to_move == 1 and s.points == [7, 0]


def test_follow_suit_and_void():
    s = ending_state()
    assert s.legal_cards() == (Card.parse("JS"), Card.parse("9H"))
    s.play("JS")
    assert s.legal_cards() == (Card.parse("TS"),)
    with pytest.raises(IllegalPlayError, match=r"AH: seat 2 must follow suit in spades \(holds TS\)"):
        s.play("AH")
    with pytest.raises(IllegalPlayError, match="JC: seat 2 does not hold"):
        s.play("JC")
    # a seat void in the led suit may play anything, with no duty to trump
    t = PlayState(Deal.parse("J.9.. .AT.. A.T.. 9.J..", Table.make(4), partial=True), C)
    t.play("JS")
    assert {str(c) for c in t.legal_cards()} == {"AH", "TH"}


def test_full_play_of_ending_and_played_by_seat():
    s = ending_state()
    tricks = s.play_all(["JS", "TS", "AS", "9S", "9H", "AH", "TH", "JH"])
    assert [(t.winner, t.points) for t in tricks] == [(1, 7), (4, 7)]
    assert s.points == [7, 7] and s.stop_reason == "all cards" and s.legal_cards() == ()
    assert [str(c) for c in played_by_seat(s)[4]] == ["9S", "JH"]
    with pytest.raises(IllegalPlayError, match="the hand is over"):
        s.play("JS")


@pytest.mark.parametrize("target, over", [(7, "target reached"), (8, None)])
def test_early_stop_target_reached_both_sides(target, over):
    s = ending_state(target=target, declarer_team=0)
    s.play_all(["JS", "TS", "AS", "9S"])                       # odd takes 7
    assert s.stop_reason == over
    assert s.declarers_made() is (True if over else None)


@pytest.mark.parametrize("target, over", [(7, None), (8, "target out of reach")])
def test_early_stop_out_of_reach_both_sides(target, over):
    s = ending_state(target=target, declarer_team=1)
    s.play_all(["JS", "TS", "AS", "9S"])                       # even took 0, 7 points still out
    assert s.stop_reason == over
    assert s.declarers_made() is (False if over else None)


def test_no_early_stop_mid_trick_and_when_switched_off():
    s = ending_state(target=7, declarer_team=0)
    s.play_all(["JS", "TS", "AS"])
    assert not s.is_over
    s2 = ending_state(target=7, declarer_team=0, early_stop=False)
    s2.play_all(["JS", "TS", "AS", "9S"])
    assert not s2.is_over and s2.declarers_made() is True


def test_target_needs_declarer_team():
    with pytest.raises(IllegalPlayError):
        ending_state(target=7)


def test_declarer_leads_option():
    t = Table.make(6)
    assert opening_leader(t) == 1
    assert opening_leader(t, declarer=4, declarer_leads=True) == 4
    assert opening_leader(t, declarer=4) == 1
    with pytest.raises(DealError):
        opening_leader(t, declarer=7, declarer_leads=True)
    with pytest.raises(IllegalPlayError):
        opening_leader(t, declarer_leads=True)
    s = PlayState(random_deal(t, 1), H, leader=opening_leader(t, 4, True))
    assert s.to_move == 4


def test_void_hand():
    t = Table.make(4)
    deal = Deal.parse("J.9.. T.A.. A.T.. 9.J..", t, partial=True)
    assert not is_void_hand(deal, H, declarer_team=0)           # even seats hold hearts
    assert is_void_hand(Deal.parse("J.9.. T..A. A.T.. 9..J.", t, partial=True), H, declarer_team=0)
    assert not is_void_hand(Deal.parse("J.9.. T..A. A.T.. 9..J.", t, partial=True), H, declarer_team=1)
    assert not is_void_hand(deal, None, declarer_team=0)        # no-trump is never void
    # pairs at 6: the declarers are seats 1 and 4; every other seat is a defender
    p = Table.make(6, teams="pairs")
    hands = ["J.9", "T.T", "A.A", "9.J", "K.K", "Q.Q"]
    d = Deal.parse(" ".join(h + ".." for h in hands), p, partial=True)
    assert not is_void_hand(d, H, declarer_team=0)
    d2 = Deal.parse("J.9.. T..T. A..A. 9.J.. K..K. Q..Q.", p, partial=True)
    assert is_void_hand(d2, H, declarer_team=0)


def test_concede():
    s = ending_state(target=10, declarer_team=0)
    s.play("JS")
    s.concede(1)
    assert s.stop_reason == "conceded" and s.declarers_made() is True
    with pytest.raises(IllegalPlayError, match="already over"):
        s.concede(0)
    s2 = ending_state(target=10, declarer_team=0)
    s2.concede(0)
    assert s2.declarers_made() is False
    with pytest.raises(IllegalPlayError):
        ending_state().concede(2)


# --- random playouts against the naive reference ----------------------------------------

def _playout(deal: Deal, trump: int | None, rng: random.Random, target: int | None = None,
             declarer: int | None = None, leader: int = 1) -> None:
    table = deal.table
    s = PlayState(deal, trump, leader=leader, target=target, declarer_team=declarer)
    total = sum(h.points for h in deal.hands)
    names = {seat: [str(c) for c in deal.hand(seat)] for seat in table.seats}
    tsuit = None if trump is None else SUITS[trump]
    played: Counter[str] = Counter()
    pts = [0] * table.num_teams
    n_tricks = 0
    lead = leader
    while True:
        # the naive early-stop rule, checked at every trick boundary
        if target is not None:
            out = total - sum(pts)
            if pts[declarer] >= target or pts[declarer] + out < target:
                assert s.is_over and s.stop_reason in ("target reached", "target out of reach", "all cards")
                break
        if sum(len(v) for v in names.values()) == 0:
            assert s.stop_reason == "all cards"
            break
        assert not s.is_over
        cards: list[str] = []
        seat = lead
        for _ in range(table.players):
            assert s.to_move == seat
            led = cards[0][1] if cards else None
            legal = naive_legal_cards(names[seat], led)
            assert {str(c) for c in s.legal_cards()} == legal
            card = rng.choice(sorted(legal))
            s.play(card)
            names[seat].remove(card)
            cards.append(card)
            seat = seat % table.players + 1
        n_tricks += 1
        w = (lead - 1 + naive_trick_winner(cards, tsuit)) % table.players + 1
        trick = s.tricks[-1]
        assert trick.winner == w and trick.points == naive_trick_points(cards)
        pts[table.team_of(w)] += trick.points
        played.update(cards)
        lead = w
    assert s.points == pts
    if s.stop_reason == "all cards":
        assert sum(s.points) == total
        assert played == Counter(str(c) for h in deal.hands for c in h)
        assert n_tricks == len(deal.hands[0])
    else:
        assert sum(s.points) + s.points_out == total


SETUPS = [(p, d, teams) for (p, d) in sorted(TABLE_SETUPS) for teams in ("alternate", "pairs")]


@pytest.mark.parametrize("players, deck, teams", SETUPS)
def test_random_playouts_complete_deals(players, deck, teams):
    table = Table(players, deck, teams)
    rng = random.Random(players * 1000 + deck + len(teams))
    for i in range(300):
        deal = random_deal(table, rng=rng)
        assert sum(h.points for h in deal.hands) == TOTAL_POINTS
        _playout(deal, rng.choice([None, 0, 1, 2, 3]), rng, leader=rng.randint(1, players))


@pytest.mark.parametrize("players, deck, teams", SETUPS)
def test_random_playouts_endings_and_early_stop(players, deck, teams):
    table = Table(players, deck, teams)
    rng = random.Random(7 * players + deck)
    for i in range(100):
        full = random_deal(table, rng=rng)
        k = rng.randint(1, table.hand_size)
        hands = [Hand(tuple(rng.sample(list(h.cards), k))) for h in full.hands]
        deal = Deal.parse(" ".join(str(h) for h in hands), table, partial=True)
        _playout(deal, rng.choice([None, 0, 1, 2, 3]), rng)
        decl = rng.randrange(table.num_teams)
        _playout(full, rng.choice([None, 0, 1, 2, 3]), rng, target=rng.randint(28, 56), declarer=decl)


def test_every_kind_of_every_deck_wins_against_naive_in_pairs():
    """Every pair of card kinds in every order, each trump: exact agreement with naive."""
    kinds = deck_kinds(64)
    for trump in (None, 0, 1, 2, 3):
        tsuit = None if trump is None else SUITS[trump]
        for a in kinds:
            for b in kinds:
                assert trick_winner([a, b], trump) == naive_trick_winner([str(a), str(b)], tsuit)


def test_trick_rows_and_number_name_each_winner():
    """The list of tricks a player reads: each finished trick with its winner (RULES.md: the
    highest trump, else the highest card of the suit led) and points, then the one in progress."""
    table = Table.make(4)
    deal = random_deal(table, seed=7)
    state = PlayState(deal, 1, leader=1, early_stop=False)
    assert trick_number(state) == 1 and trick_rows(state) == []
    played = []
    while len(played) < 6:
        card = state.legal_cards()[-1]
        played.append(str(card))
        state.play(card)
    rows = trick_rows(state)
    assert [r.number for r in rows] == [1, 2] and rows[1].winner is None and not rows[1].done
    first = [str(c) for _, c in rows[0].plays]
    assert first == played[:4]
    winner_seat = 1 + naive_trick_winner(first, "H")  # seat 1 led the first trick
    assert rows[0].winner == winner_seat and rows[0].winning_team == table.team_of(winner_seat)
    assert rows[0].points == naive_trick_points(first)
    assert rows[1].leader == winner_seat and trick_number(state) == 2
    while not state.is_over:
        state.play(state.legal_cards()[0])
    assert trick_number(state) == len(state.tricks) == 8
    assert sum(r.points for r in trick_rows(state)) == 56


@pytest.mark.parametrize("players, deck, teams", SETUPS)
def test_who_played_each_card_follows_the_state_machine(players, deck, teams):
    # RULES.md 4: play goes round the table and the winner of a trick leads the next; a
    # random legal play by PlayState is the reference for every prefix of it
    table = Table(players, deck, teams)
    rng = random.Random(31 * players + deck)
    for _ in range(20):
        deal = random_deal(table, rng=rng)
        trump, leader = rng.choice([None, 0, 1, 2, 3]), rng.randint(1, players)
        state = PlayState(deal, trump, leader=leader, early_stop=False)
        seen: list[tuple[int, Card]] = []
        while not state.is_over:
            assert who_played(table, [c for _, c in seen], trump, leader) == (tuple(seen), state.to_move)
            seat, card = state.to_move, rng.choice(state.legal_cards())
            state.play(card)
            seen.append((seat, card))
        assert who_played(table, [c for _, c in seen], trump, leader)[0] == tuple(seen)
