"""Words a beginner understands (issue 45.3): the glossary, the Words popovers, the Explain page's
families named as a player would, calls that explain themselves on a tap, the statistics'
sentence said as a player would, and the Analyse headline set against the per-lead figures."""
from __future__ import annotations

import re

import pytest

from fiftysix import glossary
from fiftysix.bidding import calls as K
from fiftysix.cards import Table, random_deal
from fiftysix.ui import render
from tests.app_harness import open_page, texts

ISSUE_WORDS = ("NS", "Noes", "no-trump", "Plus N", "double-dummy", "stake", "tables", "call families")


@pytest.mark.parametrize("word", ISSUE_WORDS)
def test_the_issues_words_are_in_the_glossary(word):
    t = glossary.term(word)
    assert len(t.line.split()) >= 8  # a sentence, not a label
    assert glossary.term(word.upper()) is t and t in glossary.find(word[:3])


def test_an_unknown_word_is_a_clear_error():
    with pytest.raises(glossary.GlossaryError, match="'zugzwang' is not in the glossary"):
        glossary.term("zugzwang")


def test_every_family_of_calls_has_a_players_name_and_one_line():
    assert set(glossary.FAMILIES) == set(K.KINDS)
    for kind, fam in glossary.FAMILIES.items():
        if kind not in (K.PASS, K.DOUBLE, K.REDOUBLE, K.MINUS):  # words already, in the code too
            assert fam.title.lower() not in (kind, kind.replace("_", "-"))  # words, not the code's names
        assert K.parse_call(fam.example).kind == kind  # the example is a call of the family
        assert fam.line.endswith(".") and "\n" not in fam.line


def test_explain_tabs_are_named_as_a_player_would_with_one_line_each(tmp_path, monkeypatch):
    """Walked in Chromium: the tabs said `plus-ns`, `suit-plus`, `reverse`."""
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H").run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [t.label for t in at.tabs]
    names = [re.sub(r" \(\d+\)$", "", lab) for lab in labels]
    assert "Plus Noes" in names and "Suit plus" in names and "Suit then number" in names
    assert not {"plus-ns", "suit-plus", "reverse", "suit", "plus"} & set(names)
    for tab, name in zip(at.tabs, names, strict=True):
        fam = next(f for f in glossary.FAMILIES.values() if f.title == name)
        assert next(c.value for c in tab.caption) == f"{fam.example}: {fam.line}"


def test_palette_meanings_open_on_a_tap(tmp_path, monkeypatch):
    """A phone has no hover: each family's calls and the pass/double row have a Meanings popover."""
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input("28H").run()
    pops = {p.proto.popover.label: p for p in at.get("popover")}
    assert "Meanings" in pops
    from fiftysix.bidding import Auction
    auction = Auction.parse("28H", "international", Table.make(6))
    shown = "\n".join(m.value for p in at.get("popover") if p.proto.popover.label == "Meanings" for m in p.markdown)
    for call in ("P", "X", "+1H", "H+1", "+1NS"):
        m = auction.meaning_of(K.parse_call(call))
        assert render.md_text(m.sentence) in shown, call


def test_a_call_in_an_auction_explains_itself_on_hover_and_on_tap():
    chip = render.call_chip_html("+1H", "singleton Jack of hearts", "exactly 1 heart, the top one")
    assert 'title="singleton Jack of hearts - exactly 1 heart, the top one"' in chip  # hover
    m = re.fullmatch(r'<details class="fs-calltip"><summary>(.*)</summary><span class="fs-tip" role="tooltip">(.*)'
                     r"</span></details>", chip)
    assert m and 'data-call="+1H"' in m.group(1)  # a tap on the chip opens ...
    assert m.group(2) == "<b>singleton Jack of hearts</b>: exactly 1 heart, the top one"  # ... its meaning
    assert "<details" not in render.call_chip_html("P")  # nothing to open, nothing to tap
    assert "&lt;b&gt;" in render.call_chip_html("28H", "<b>", "x")  # the words are text


def test_the_words_popover_defines_the_terms_on_the_page(tmp_path, monkeypatch):
    at = open_page("explain", tmp_path, monkeypatch)
    pop = next(p for p in at.get("popover") if p.proto.popover.label == "Words")
    shown = "\n".join(m.value for m in pop.markdown)
    for word in ("NS (Noes)", "no-trump", "Plus N", "call family"):
        assert render.md_text(glossary.term(word).line) in shown


def test_the_glossary_page_lists_every_word_and_finds_one(tmp_path, monkeypatch):
    at = open_page("glossary", tmp_path, monkeypatch)
    shown = texts(at)
    for t in glossary.TERMS.values():
        assert t.line in shown
    table = at.dataframe[0].value
    assert list(table["family"]) == [f.title for f in glossary.FAMILIES.values()]
    at.text_input(key="gl_q").input("noes").run()
    assert [m.value for m in at.markdown if m.value.startswith("####")] == ["#### NS \\(Noes\\)"]


def test_a_rare_call_is_said_as_a_player_would(tmp_path, monkeypatch):
    """Walked in Chromium: "Not in the shipped statistics: in 1,280 deals bid by the bots this call
    came up here fewer than 10 times" is a developer's sentence."""
    from fiftysix.stats.summary import call_worth
    table = Table.make(6)
    rare = next(c for c in ("56S", "55D", "54C", "50H") if (f := call_worth("international", table, "28H", c))
                and f[1] is None)
    at = open_page("explain", tmp_path, monkeypatch)
    at.text_input(key="ex_text").input(f"28H {rare}").run()
    shown = texts(at)
    assert "shipped statistics" not in shown and " bots " not in shown
    assert re.search(r"Too rare to say what it is worth: in [\d,]+ practice deals the computer players made "
                     r"this call here fewer than \d+ times\.", shown)


@pytest.mark.parametrize("auction, leader_declares", [("28-Pass 29H P P P", False), ("28H P P P", True)])
def test_the_makeable_headline_is_explained_against_each_lead(auction, leader_declares):
    """Walked in Chromium: "Makeable 44%" stood above every lead's figure (36% at most) with no word
    why. The words say which way the headline differs, and the simulation agrees."""
    from fiftysix.analyser.simulate import estimate_from_auction
    from fiftysix.ui.estimate_words import lead_words, makeable_words
    table = Table.make(4)
    est = estimate_from_auction(table, "international", 1, random_deal(table, seed=3).hand(1), auction, n=40,
                                seed=1, points=False)
    assert (table.team_of(1) == est.contract.team) == leader_declares and est.leads
    rates = [r.rate for r in est.leads]
    words = lead_words(est)
    if leader_declares:  # the leader picks, deal by deal, the lead best for the declarers
        assert est.rate >= max(rates) and "at least as high as the best single lead" in words
    else:
        assert est.rate <= min(rates) and "no higher than the lowest single lead" in words
    assert f"Makeable {est.rate:.0%}" in words and "every card known" in words
    assert "fixes one lead for every deal" in makeable_words(est)


@pytest.mark.parametrize("page, needed", [
    # walked again in Chromium: the hand boxes (S.H.D.C, "JJ9.A.KQ.9T") and the guide's "J 9 A T" had no word
    ("rules", ("stake", "NS (Noes)", "no-trump", "Plus N", "declarer", "card notation")),
    ("explain", ("card notation", "Plus N", "NS (Noes)")),
    # walked again in Chromium: Analyse shows "95% interval" beside its Makeable figure, with no word on it
    ("analyse", ("double-dummy", "double-dummy table", "makeable", "95% interval")),
    ("progress", ("FSRS", "idea")),
    ("drill", ("idea", "FSRS", "call family")),
    # walked again in Chromium: a problem says "Seat 4 to play (defenders)" and "double-dummy", with no Words
    ("problems", ("defenders", "declarer", "double-dummy", "trick", "lead")),
])
def test_each_page_has_its_words_at_hand(tmp_path, monkeypatch, page, needed):
    if page == "progress":  # the schedule shows once there is an answer
        from fiftysix.drills.progress import ProgressStore
        from fiftysix.drills.schedule import Rating
        monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
        ProgressStore(learner="player").record_review("meaning/international/6p/plus", Rating.Good)
    at = open_page(page, tmp_path, monkeypatch, **({"players": 4} if page == "analyse" else {}))
    shown = "\n".join(m.value for p in at.get("popover") if p.proto.popover.label == "Words" for m in p.markdown)
    for word in needed:
        assert render.md_text(glossary.term(word).line) in shown, (page, word)
