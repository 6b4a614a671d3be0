from __future__ import annotations

import pytest

from fiftysix.cards import Card, Deal, Hand, Table, random_deal
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
