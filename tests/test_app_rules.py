"""Rules page: the engine's card, deck and stake tables agree with RULES.md; each system's calls."""
from __future__ import annotations

import re

import pytest

from tests.app_harness import open_page


def test_rules_tables_match_the_rule_text(tmp_path, monkeypatch):
    at = open_page("rules", tmp_path, monkeypatch)
    cards = next(h.value for h in at.html if "Jack · 3" in h.value)
    # RULES.md 2: power J 9 A T K Q 8 7; points J 3, 9 2, A 1, T 1, others 0.
    shown = re.findall(r'<span class="v">(\w+) · (\d)</span>', cards)
    assert shown == [("Jack", "3"), ("Nine", "2"), ("Ace", "1"), ("Ten", "1"), ("King", "0"),
                     ("Queen", "0"), ("Eight", "0"), ("Seven", "0")]
    decks, stakes = at.dataframe[0].value, at.dataframe[1].value
    assert set(zip(decks["players"], decks["deck"], decks["cards each"])) == {
        (4, 32, 8), (4, 48, 12), (6, 48, 8), (8, 64, 8), (8, 48, 6)}
    # RULES.md 5: 28-39 win 1 lose 2; 40-47 2/3; 48-55 3/4; 56 4/5.
    assert list(zip(stakes["bid"], stakes["made: win"], stakes["failed: lose"])) == [
        ("28-39", 1, 2), ("40-47", 2, 3), ("48-55", 3, 4), ("56", 4, 5)]


@pytest.mark.parametrize("system", ["international", "kerala"])
def test_each_system_has_its_call_table(tmp_path, monkeypatch, system):
    pytest.importorskip("fiftysix.bidding")
    at = open_page("rules", tmp_path, monkeypatch)
    at.selectbox(key="rules_system").set_value(system).run()
    assert not at.exception
    calls = at.dataframe[2].value
    assert "28H" in set(calls["call"])
    row = calls[calls["call"] == "28H"].iloc[0]
    assert row["value"] == 28 and row["trump"] == "H"
    if system == "kerala":  # RULES.md 7.2: only number-suit and number-NS bids, plus P, X, XX
        assert not any(c.startswith("+") for c in calls["call"])
