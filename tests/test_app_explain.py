"""Explain page: type and click an auction; meanings, legal calls, contract and the card grid."""
from __future__ import annotations

import pytest

pytest.importorskip("fiftysix.bidding")
import json  # noqa: E402

from fiftysix.cards import Card, Hand, Table, random_deal  # noqa: E402
from tests.app_harness import open_page, texts  # noqa: E402


def test_typed_auction_shows_each_meaning(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H P +1H").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at)
    # RULES.md 7.1: 28H = a heart Jack and 3+ other hearts; +1H = exactly one heart, the top one.
    assert "Jack of hearts" in shown and "4+ hearts" in shown
    assert "exactly 1 heart" in shown
    assert "Seat 4 to call" in shown
    popovers = at.get("popover")
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
    assert hand == random_deal(Table.make(4), seed=2).hand(2)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    heat = spec["data"][0]
    assert heat["y"] == ["seat 1", "seat 3", "seat 4"]
    # every unseen copy is somewhere: each card's shares add up to 1
    for col in range(len(heat["x"])):
        assert sum(row[col] for row in heat["z"]) == pytest.approx(1.0)
    # the cards seat 2 holds both copies of are not in the grid; the others are
    both = {c for c in hand if hand.count(c) == 2}
    assert len(heat["x"]) == 16 - len(both)
    # seat 1 promised a heart Jack (RULES.md 7.1) and seat 2 holds none: seat 1 has >= 1 of the 2 copies
    assert Card.parse("JH") not in hand
    j = heat["x"].index("J♥")
    assert heat["z"][0][j] >= 0.5
