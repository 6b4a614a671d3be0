from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.cards import (
    DEFAULT_DECK,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TABLE_SETUPS,
    TRUMPS,
    Card,
    Deal,
    Hand,
    Table,
    deck_cards,
    deck_kinds,
    format_cards,
    format_trump,
    parse_cards,
    parse_trump,
    random_deal,
)
from fiftysix.errors import DealError, NotationError


def test_card_parse_lenient_and_canonical():
    assert str(Card.parse("10h")) == "TH"
    assert str(Card.parse("J♥")) == "JH"
    assert Card.parse("9S").points == 2 and Card.parse("KS").points == 0


def test_random_deal_is_seeded_and_complete():
    t = Table.make(6)
    a, b = random_deal(t, 7), random_deal(t, 7)
    assert str(a) == str(b)
    assert Deal.parse(str(a), t) == a
    assert sum(h.points for h in a.hands) == 56


def test_third_copy_names_card_and_seats():
    t = Table.make(4)
    with pytest.raises(DealError, match=r"JS appears 3 times \(seats 1, 3\)"):
        Deal.parse("JJ... .J.. J... .9..", t, partial=True)


def test_unknown_rank_names_seat():
    with pytest.raises(NotationError, match="seat 2"):
        Deal.parse("J... X... J... J...", Table.make(4), partial=True)


# --- notation round trips (hypothesis) ----------------------------------------------------

kinds = st.integers(0, 31).map(Card)


def loose_rank(r: str, draw) -> str:
    if r == "T":
        return draw(st.sampled_from(["T", "t", "10"]))
    return draw(st.sampled_from([r, r.lower()]))


@st.composite
def loose_card(draw):
    c = draw(kinds)
    suit = draw(st.sampled_from([SUITS[c.suit], SUITS[c.suit].lower(), SUIT_SYMBOLS[c.suit]]))
    pad = draw(st.sampled_from(["", " "]))
    return c, pad + loose_rank(RANKS[c.rank], draw) + suit + pad


@settings(max_examples=200, deadline=None)
@given(loose_card())
def test_card_round_trip_and_lenient(pair):
    card, text = pair
    assert Card.parse(text) == card
    assert Card.parse(str(card)) == card and str(Card.parse(str(card))) == str(card)
    assert eval(repr(card)) == card
    assert Card.parse(card.symbol()) == card


@st.composite
def hands(draw, max_size=16):
    counts = draw(st.lists(st.integers(0, 2), min_size=32, max_size=32))
    cards = [Card(k) for k, n in enumerate(counts) for _ in range(n)]
    return Hand(tuple(draw(st.permutations(cards))[:max_size]))


@st.composite
def loose_hand(draw):
    hand = draw(hands())
    groups = []
    for s in range(4):
        ranks = [loose_rank(RANKS[c.rank], draw) for c in hand.suit_cards(s)]
        ranks = draw(st.permutations(ranks))
        groups.append("".join(ranks) or draw(st.sampled_from(["", "-"])))
    return hand, ".".join(groups)


@settings(max_examples=200, deadline=None)
@given(loose_hand())
def test_hand_round_trip_and_lenient(pair):
    hand, text = pair
    assert Hand.parse(text) == hand
    canon = str(hand)
    assert Hand.parse(canon) == hand and str(Hand.parse(canon)) == canon
    assert eval(repr(hand)) == hand
    # canonical: groups in S.H.D.C, ranks strongest first, nothing but ranks and dots
    for s, group in enumerate(canon.split(".")):
        assert group == "".join(sorted(group, key=RANKS.index))
        assert len(group) == hand.suit_length(s)


SETUP_LIST = sorted(TABLE_SETUPS)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SETUP_LIST), st.sampled_from(["alternate", "pairs"]), st.integers(0, 10**9),
       st.sampled_from([" ", "  ", ", ", ","]))
def test_deal_round_trip(setup, teams, seed, sep):
    table = Table(setup[0], setup[1], teams)
    deal = random_deal(table, seed)
    text = str(deal)
    assert Deal.parse(text, table) == deal and str(Deal.parse(text, table)) == text
    assert Deal.parse(sep.join(text.split(" ")).lower(), table) == deal
    assert eval(repr(deal)) == deal
    # exactly the deck, each kind twice
    assert sorted(c for h in deal.hands for c in h) == sorted(deck_cards(table.deck))
    # an ending cut from it: same size hands, a partial deal
    k = seed % table.hand_size
    part = Deal(table, tuple(Hand(h.cards[:k]) for h in deal.hands))
    assert Deal.parse(str(part), table, partial=True) == part
    assert part.is_complete is (k == table.hand_size)


def test_seeded_dealing_every_setup():
    for (players, deck), size in TABLE_SETUPS.items():
        t = Table(players, deck)
        a = random_deal(t, 123)
        assert a == random_deal(t, 123) and a != random_deal(t, 124)
        assert all(len(h) == size for h in a.hands) and players * size == deck
        assert random_deal(t, rng=random.Random(5)) == random_deal(t, rng=random.Random(5))


# --- suits, ranks, decks, tables ----------------------------------------------------------

def test_power_and_points_tables():
    assert [Card.parse(r + "S").points for r in "J9ATKQ87"] == [3, 2, 1, 1, 0, 0, 0, 0]
    assert [Card.parse(r + "S").rank for r in "J9ATKQ87"] == list(range(8))
    for deck in (32, 48, 64):
        cards = deck_cards(deck)
        assert len(cards) == deck and sum(c.points for c in cards) == 56
        assert len(deck_kinds(deck)) == deck // 2
    assert {str(c)[0] for c in deck_kinds(32)} == set("J9AT")
    assert {str(c)[0] for c in deck_kinds(48)} == set("J9ATKQ")
    assert Card.parse("JH").name == "Jack of hearts"
    assert format_cards(parse_cards("jh, 10s 9♦")) == "JH TS 9D"


def test_table_setups_defaults_and_options():
    assert {p: Table.make(p).deck for p in (4, 6, 8)} == DEFAULT_DECK == {4: 32, 6: 48, 8: 64}
    assert [Table.make(p).hand_size for p in (4, 6, 8)] == [8, 8, 8]
    assert Table(4, 48).hand_size == 12 and Table(8, 48).hand_size == 6
    with pytest.raises(DealError, match="6-player table uses a deck of 48 cards, not 32"):
        Table(6, 32)
    with pytest.raises(DealError, match="4, 6 or 8 players"):
        Table.make(5)
    with pytest.raises(DealError, match="unknown teams"):
        Table(6, 48, "trios")
    with pytest.raises(DealError, match="unknown deck"):
        deck_kinds(52)


def test_teams_alternate_and_pairs():
    t = Table.make(6)
    assert t.team_seats(0) == (1, 3, 5) and t.team_seats(1) == (2, 4, 6)
    assert t.team_name(0) == "odd" and t.parse_team("even") == 1 and t.parse_team("3") == 0
    p = Table.make(8, teams="pairs")
    assert p.num_teams == 4
    assert [p.team_seats(k) for k in range(4)] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert p.team_name(2) == "3-7" and p.parse_team("3-7") == 2 and p.partners(6) == (2,)
    assert Table.make(4, teams="pairs").team_seats(0) == (1, 3)
    with pytest.raises(DealError, match="unknown team"):
        t.parse_team("north")
    with pytest.raises(DealError, match="seat 7 does not exist"):
        t.team_of(7)


# --- every error case ----------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("", "cannot read '' as a card"),
    ("J", "cannot read"),
    ("JX", "unknown suit 'X'"),
    ("XH", "unknown rank 'X'"),
    ("11H", "unknown rank '11'"),
])
def test_card_errors(text, message):
    with pytest.raises(NotationError, match=message):
        Card.parse(text)
    with pytest.raises(NotationError):
        Card(32)


@pytest.mark.parametrize("text, message", [
    ("", "has 1 suit group"),
    ("JJ.9.A", "has 3 suit group"),
    ("J.9.A.T.K", "has 5 suit group"),
    ("JX...", "unknown rank 'X' in spades"),
    ("..1.", "unknown rank '1' in diamonds"),
])
def test_hand_errors(text, message):
    with pytest.raises(NotationError, match=message):
        Hand.parse(text)


T4, T6 = Table.make(4), Table.make(6)
FULL6 = str(random_deal(T6, 3))


def _swap_in(deal: str, seat: int, hand: str) -> str:
    parts = deal.split()
    parts[seat - 1] = hand
    return " ".join(parts)


@pytest.mark.parametrize("text, table, partial, error, message", [
    ("", T6, False, NotationError, "empty deal"),
    ("   ", T6, True, NotationError, "empty deal"),
    ("J... J... J...", T4, True, DealError, "3 hand\\(s\\); a 4-player table needs 4"),
    ("J... 9... A... T... K...", T4, True, DealError, "5 hand"),
    ("JJ... 9... ... ...", T4, True, DealError, "seat 2 holds 1 cards but seat 1 holds 2"),
    ("JJ... .J.. J... .9..", T4, True, DealError, r"JS appears 3 times \(seats 1, 3\)"),
    ("JJ... J.... ... ...", T4, True, NotationError, "seat 2: hand 'J....' has 5 suit group"),
    ("J.K.. 9... A... T...", T4, True, DealError, "seat 1: KH is not in the 32-card deck"),
    ("7... 9... A... T... K... Q...", T6, True, DealError, "seat 1: .*not in the 48-card deck"),
    ("J... 9... A... T.X..", T4, True, NotationError, "seat 4: hand 'T.X..': unknown rank 'X' in hearts"),
    ("J... 9... A... T...", T4, False, DealError, "seat 1 holds 1 cards; this table deals 8 each"),
])
def test_deal_errors(text, table, partial, error, message):
    with pytest.raises(error, match=message):
        Deal.parse(text, table, partial=partial)


def test_deal_errors_on_complete_deals():
    hands = FULL6.split()
    # a 7 in a 48-card deal, in place of one of seat 3's cards
    bad = _swap_in(FULL6, 3, str(Hand.parse(hands[2]).without(Hand.parse(hands[2]).cards[0])))
    with pytest.raises(DealError, match="seat 3 holds 7 cards"):
        Deal.parse(bad, T6)
    h3 = Hand.parse(hands[2])
    seven = Hand(h3.cards[1:] + (Card.parse("7C"),))
    with pytest.raises(DealError, match="seat 3: 7C is not in the 48-card deck"):
        Deal.parse(_swap_in(FULL6, 3, str(seven)), T6)
    # a third copy: seat 2 gets another copy of one of seat 1's cards
    card = Hand.parse(hands[0]).cards[0]
    h2 = Hand.parse(hands[1])
    third = Hand(h2.cards[1:] + (card,))
    with pytest.raises(DealError, match=f"{card} appears 3 times \\(seats [0-9, ]*\\); the deck has only 2"):
        Deal.parse(_swap_in(FULL6, 2, str(third)), T6)


def test_errors_are_value_errors_with_one_line():
    for exc in (NotationError, DealError):
        assert issubclass(exc, ValueError)
    with pytest.raises(NotationError) as info:
        Deal.parse("J... 9... A... T.X..", T4, partial=True)
    assert "\n" not in str(info.value)


def test_complete_deal_keeps_the_hands_given_and_deals_the_rest():
    """'Complete the rest at random': the cards given stay where they are, every seat ends with
    the table's hand size, and together the hands are exactly the deck (each card twice)."""
    from collections import Counter

    from fiftysix.cards import complete_deal, deck_cards
    table = Table.make(6)
    given = [Hand.parse("JJ9.A.."), Hand(), Hand.parse("...KQ"), Hand(), Hand(), Hand()]
    deal = complete_deal(table, given, seed=4)
    assert all(len(h) == table.hand_size for h in deal.hands)
    assert Counter(c for h in deal.hands for c in h) == Counter(deck_cards(table.deck))
    for mine, full in zip(given, deal.hands):
        assert not Counter(mine.cards) - Counter(full.cards)
    assert complete_deal(table, given, seed=4) == deal and complete_deal(table, given, seed=5) != deal
    with pytest.raises(DealError, match="JS appears 3 times"):
        complete_deal(table, [Hand.parse("JJ..."), Hand.parse("J..."), *[Hand()] * 4])
    with pytest.raises(DealError, match="seat 1 holds 9 cards"):
        complete_deal(table, [Hand.parse("JJ99AATTK..."), *[Hand()] * 5])


@given(st.sampled_from([0, 1, 2, 3, None]),
       st.sampled_from(["{}", " {} ", "{}".lower()]), st.booleans())
def test_trump_round_trip_and_lenient(trump, spacing, symbol):
    """RULES.md 3: a trump is one of the four suits or no-trump; every trump prints as one
    canonical form (S H D C NT) and reads back from it, or from a symbol, lower case or a
    no-trump word."""
    text = format_trump(trump)
    assert text in ("S", "H", "D", "C", "NT") and parse_trump(text) == trump
    loose = SUIT_SYMBOLS[trump] if (symbol and trump is not None) else text.lower()
    assert parse_trump(spacing.format(loose)) == trump
    assert TRUMPS.index(trump) == (4 if trump is None else trump)


@pytest.mark.parametrize("word", ["NT", "nt", "N", "NS", "none", "no-trump", "NoTrump"])
def test_no_trump_words(word):
    assert parse_trump(word) is None


@pytest.mark.parametrize("text", ["X", "", "10", "hearts", "NTT"])
def test_bad_trump_is_one_clear_error(text):
    with pytest.raises(NotationError, match="unknown trump"):
        parse_trump(text)
