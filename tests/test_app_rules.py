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
    at = open_page("rules", tmp_path, monkeypatch)
    at.selectbox(key="rules_system").set_value(system).run()
    assert not at.exception
    calls = at.dataframe[2].value
    assert "28H" in set(calls["call"])
    row = calls[calls["call"] == "28H"].iloc[0]
    assert row["value"] == 28 and row["trump"] == "H"
    if system == "kerala":  # RULES.md 7.2: only number-suit and number-NS bids, plus P, X, XX
        assert not any(c.startswith("+") for c in calls["call"])


def test_the_rules_guide_is_the_projects_own_and_shown(tmp_path, monkeypatch):
    from pathlib import Path

    import fiftysix.ui.pages  # noqa: F401
    guide = Path(__file__).resolve().parents[1] / "docs" / "guide.md"
    at = open_page("rules", tmp_path, monkeypatch)
    shown = "\n".join(m.value for m in at.markdown)
    assert "was not found" not in shown and not at.error
    for heading in ("The deal and the auction", "The play", "The score", "The bidding systems"):
        assert heading in shown
    # the guide's own words on following suit and trumps (RULES.md 4: follow suit if you can;
    # no duty to trump; the highest trump wins)
    assert "**Follow suit**" in shown and "You do not have to trump" in shown
    # walked again in Chromium: the ranks table read "J 9 A T K Q" (RULES.md 2: J 9 A T K Q 8 7, T the
    # Ten); the guide says 10, as on the cards, and says where the letters T and S.H.D.C come in
    assert "| 6 | 48 | J 9 A 10 K Q | 8 |" in shown and "J 9 A T K Q |" not in shown
    assert "Ten is T: JJ9.A.KQ.9T" in shown
    for system in ("international", "kerala", "jack-signal", "classic", "basic"):
        assert f"### {system}" in guide.read_text(encoding="utf-8")


def test_the_rules_page_reads_nothing_outside_the_project(monkeypatch, tmp_path):
    import builtins
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    outside: list[str] = []
    real_open = builtins.open

    def watch(file, *args, **kwargs):
        p = Path(str(file)).resolve() if isinstance(file, (str, Path)) else None
        if p is not None and p.suffix == ".md" and root not in p.parents:
            outside.append(str(p))
        return real_open(file, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", watch)
    at = open_page("rules", tmp_path, monkeypatch)
    assert not at.exception and outside == []


@pytest.mark.parametrize("system", ["international", "kerala", "jack-signal", "classic", "basic"])
def test_the_rules_page_speaks_plainly(tmp_path, monkeypatch, system):
    at = open_page("rules", tmp_path, monkeypatch)
    at.selectbox(key="rules_system").set_value(system).run()
    shown = "\n".join(str(m.value) for m in at.markdown) + "\n".join(str(c.value) for c in at.caption)
    calls = at.dataframe[2].value.to_string()
    for text in (shown, calls):
        assert "RULES.md" not in text and not re.search(r"\bseeds? \d{3}", text)
        assert not re.search(r"\b\d+-th\b", text) and "top 1 remaining" not in text


def test_ordinals_and_counts_in_words():
    from fiftysix.bidding import Auction
    from fiftysix.bidding.systems.base import ordinal
    from fiftysix.cards import Table
    from fiftysix.errors import FiftySixError
    assert [ordinal(k) for k in (1, 2, 3, 5, 11, 21, 22)] == [
        "last", "second most recent", "third most recent", "5th most recent", "11th most recent",
        "21st most recent", "22nd most recent"]
    with pytest.raises(FiftySixError) as e:
        Auction.parse("28H P 30NS", "jack-signal", Table.make(6))
    assert "no second most recent suit" in str(e.value) and "2-th" not in str(e.value)


def test_plus_one_speaks_of_the_top_remaining_card():
    from fiftysix.bidding import Auction
    from fiftysix.cards import Table
    # RULES.md 7.3: Plus 1 = the top remaining ladder card; after both Jacks are shown, a Nine.
    a = Auction.parse("28H P +2H P +1H", "jack-signal", Table.make(6))
    sentence = a.calls[-1].meaning.sentence
    assert "the top remaining card, a Nine of hearts" in sentence and "top 1" not in sentence
