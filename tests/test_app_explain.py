"""Explain page: type and click an auction; meanings, legal calls, contract and the card grid."""
from __future__ import annotations

import json

import pytest

from fiftysix.cards import Card, Hand, Table, random_deal
from tests.app_harness import open_page, texts


def test_typed_auction_shows_each_meaning(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P +1H").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at)
    # RULES.md 7.1: 28H = a heart Jack and 3+ other hearts; +1H = exactly one heart, the top one.
    assert "Jack of hearts" in shown and "4+ hearts" in shown
    assert "exactly 1 heart" in shown
    assert "Seat 4 to call" in shown
    popovers = [p for p in at.get("popover") if p.proto.popover.label not in ("Words", "Meanings")]
    assert [p.proto.popover.label for p in popovers] == ["28:red[H]", "P", "+1:red[H]"]
    assert "exactly 1 heart" in "".join(m.value for m in popovers[2].markdown)


def test_clicking_calls_builds_the_auction_to_a_contract(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch, players=4)
    at.text_input(key="ex_text").input("28H").run()
    for _ in range(3):
        at.button(key="ex_call_P").click().run()
    assert at.session_state["ex_text"] == "28H P P P"
    assert any("the contract is 28H" in s.value for s in at.success)
    assert "fs-contract" in texts(at)


def test_bad_auction_is_an_error_message(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H 27S").run()
    assert not at.exception
    assert at.error


def test_card_grid_from_a_seat(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch, players=4)
    at.text_input(key="ex_text").input("28H").run()
    at.selectbox(key="ex_view_seat").set_value(2).run()
    assert not at.exception, [e.value for e in at.exception]
    hand = Hand.parse(at.session_state["ex_view_hand_2_4_32"])
    assert hand == random_deal(Table.make(4), seed=2).hand(2)  # seat 2 has not called: any hand fits
    assert "Seen from seat 2" in texts(at)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    heat = spec["data"][0]
    # walked again in Chromium: at a phone's width 16-24 card columns ran the figures together; the
    # cards run down the side, the (at most seven) seats across, seat 1 on the left
    assert heat["x"] == ["seat 1", "seat 3", "seat 4"]
    # plotly draws a heatmap's first row at the bottom: the axis runs downwards, spades first
    assert spec["layout"]["yaxis"]["autorange"] == "reversed"
    copies = heat["customdata"]
    # every unseen copy is somewhere: each card's expected copies add up to its unseen copies
    for row, name in enumerate(heat["y"]):
        unseen = 2 - sum(1 for c in hand if f"{c}" == _card_of(name))
        assert sum(copies[row]) == pytest.approx(unseen)
        for p, e in zip(heat["z"][row], copies[row]):  # P(at least one) <= E[copies] <= 2 P(at least one)
            assert p - 1e-9 <= e <= 2 * p + 1e-9
    # the cards seat 2 holds both copies of are not in the grid; the others are
    both = {c for c in hand if hand.count(c) == 2}
    assert len(heat["y"]) == 16 - len(both)
    # RULES.md 7.1: 28H promises a Jack of hearts. Seat 2 holds none, so seat 1 certainly holds
    # one: the grid shows 100%, not the 50% share of two copies.
    assert Card.parse("JH") not in hand
    j = heat["y"].index("J♥")
    assert heat["z"][j][0] == 1.0 and heat["text"][j][0].startswith("100%")
    # the colour scale tells 20% and 100% apart clearly
    scale = {round(v, 2): c for v, c in heat["colorscale"]}
    assert scale[1.0] != scale.get(0.25) and len(heat["colorscale"]) >= 5


def _card_of(label: str) -> str:
    rank = "T" if label.startswith("10") else label[0]
    return rank + "SHDC"["♠♥♦♣".index(label[-1])]


def test_the_view_follows_the_auction_with_a_hand_that_keeps_its_calls(tmp_path, monkeypatch):
    from fiftysix.bidding import Auction
    from fiftysix.constraints import fits
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P +2H").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Seen from seat 4" in texts(at)  # the seat to call
    at.text_input(key="ex_text").input("28H P +2H P P P P P").run()  # over: the declarer, seat 3
    assert "Seen from seat 3" in texts(at)
    hand = Hand.parse(at.session_state["ex_view_hand_3_6_48"])
    promise = Auction.parse("28H P +2H", "international", Table.make(6)).seat_constraints()[3]
    assert fits(hand, promise)  # RULES.md 7.1: +2H = exactly 2 hearts, the top 2 remaining
    assert sum(1 for c in hand if c.suit == 1) == 2
    assert not at.warning


def test_an_auction_error_keeps_the_seat_and_hand(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P").run()
    at.selectbox(key="ex_view_seat").set_value(5).run()
    at.text_input(key="ex_view_hand_5_6_48").input("JJ9.A.KQ.9T").run()
    at.text_input(key="ex_text").input("28H P 27S").run()  # illegal: lower than 28
    assert not at.exception
    assert at.error and "the first 2 call(s)" in at.error[0].value
    assert at.selectbox(key="ex_view_seat").value == 5
    assert at.text_input(key="ex_view_hand_5_6_48").value == "JJ9.A.KQ.9T"
    assert "Seen from seat 5" in texts(at)
    at.text_input(key="ex_text").input("28H P +1H").run()  # fixed: still seat 5 and that hand
    assert at.selectbox(key="ex_view_seat").value == 5
    assert at.text_input(key="ex_view_hand_5_6_48").value == "JJ9.A.KQ.9T"


@pytest.mark.parametrize("system", ["international", "kerala", "jack-signal", "classic", "basic"])
def test_each_system_shows_a_legal_example(tmp_path, monkeypatch, system):
    from fiftysix.bidding import Auction
    at = open_page("explain", tmp_path, monkeypatch, system=system)
    label = at.text_input(key="ex_text").label
    example = label.split("e.g. ")[1]
    Auction.parse(example, system, Table.make(6))  # raises if illegal in this system
    assert len(example.split()) == 3


def test_any_legal_call_can_be_picked_not_only_the_cheapest(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P").run()
    assert any(o.startswith("40H · ") for o in at.selectbox(key="ex_any").options)  # beyond the 16 buttons
    at.selectbox(key="ex_any").set_value("40H").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["ex_text"] == "28H P 40H"
    assert at.selectbox(key="ex_any").value is None  # ready for the next call


def test_meanings_speak_of_the_simulation_not_the_dealer(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P +1H").run()
    shown = texts(at) + "".join(m.value for p in at.get("popover") for m in p.markdown)
    assert "dealer reads" not in shown


def test_view_seat_choice_keeps_its_words_as_the_auction_moves(tmp_path, monkeypatch):
    # Walked in Chromium: after typing "28H P +1H" the box still read "the seat to call (seat 1)"
    # beside "Seat 4's hand", because the browser keeps the label the picked option had when it
    # was drawn. So the labels must not change with the auction; the hand box names the seat.
    at = open_page("explain", tmp_path, monkeypatch)
    before = list(at.selectbox(key="ex_view_seat").options)
    at.text_input(key="ex_text").input("28H P +1H").run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(at.selectbox(key="ex_view_seat").options) == before
    assert "Seen from seat 4" in texts(at)  # RULES.md: seat 4 is next to call after three calls
    assert any(t.label.startswith("Seat 4's hand") for t in at.text_input)
