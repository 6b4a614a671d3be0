"""Review page: upload a played hand, see its broken promise, step through the play, save it."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("analyser.review")
pytest.importorskip("drills.library")
from drills.library import Library  # noqa: E402
from fiftysix.bidding import Auction  # noqa: E402
from fiftysix.cards import Card, Table, random_deal  # noqa: E402
from fiftysix.play import PlayState  # noqa: E402
from fiftysix.records import Noted, Record, format_record  # noqa: E402
from tests.app_harness import open_page, texts  # noqa: E402

TABLE = Table.make(4)


def _record_text() -> tuple[str, list[str]]:
    """Seat 1 opens 28H without the heart Jack (a broken promise); everyone plays their first legal card."""
    deal = random_deal(TABLE, seed=0)
    assert Card.parse("JH") not in deal.hand(1) and deal.hand(1).suit_length(1) > 0
    contract = Auction.parse("28H P P P", "international", TABLE).contract
    state = PlayState(deal, contract.trump, leader=1, target=contract.value, declarer_team=contract.team)
    play = []
    while not state.is_over:
        card = state.legal_cards()[0]
        state.play(card)
        play.append(str(card))
    record = Record(table=TABLE, deal=deal, event="Club night", system="international",
                    auction=tuple(Noted(x) for x in "28H P P P".split()), contract=contract,
                    play=tuple(Noted(c) for c in play))
    return format_record(record), play


def test_upload_review_step_and_save(tmp_path, monkeypatch):
    text, play = _record_text()
    at = open_page("review", tmp_path, monkeypatch)
    at.file_uploader(key="rv_upload").upload("club.txt", text.encode(), "text/plain").run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Contract"] == "28H"
    assert metrics["Broken promises"] == "1"
    calls = at.dataframe[0].value
    assert list(calls["call"]) == ["28H", "P", "P", "P"]
    assert calls["promise"].iloc[0] == "✘ broken" and "Jack of hearts" in calls["broken"].iloc[0]
    # the auction opens at the first broken promise: seat 1's 28H without the heart Jack
    assert "Broken promise: " in at.error[0].value and "Jack of hearts" in at.error[0].value
    at.select_slider(key="rv_call").set_value(4).run()
    assert not at.error and "**Seat 4** **P**: pass." in texts(at)
    at.button(key="rv_next").click().run()
    assert f"plays **{play[0]}**" in texts(at)
    felt = next(h.value for h in at.html if "fs-felt" in h.value)
    assert len(re.findall(r'data-card="', felt)) == 32  # 31 in hands, 1 on the table
    assert len(at.get("plotly_chart")) == 1
    at.button(key="rv_save").click().run()
    assert Library(tmp_path / "progress.sqlite3").count() == 1
    at.segmented_control(key="rv_source").set_value("Library").run()  # pick it back from the library
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Contract"] == "28H"
    assert "Club night" in at.selectbox(key="rv_lib_pick").format_func(at.selectbox(key="rv_lib_pick").value)


def test_a_bad_file_shows_an_error_and_stores_nothing(tmp_path, monkeypatch):
    text, _ = _record_text()
    bad = text.replace("JS 9S AS JS", "JS 9S AS QQ")
    at = open_page("review", tmp_path, monkeypatch)
    at.file_uploader(key="rv_upload").upload("bad.txt", bad.encode(), "text/plain").run()
    assert not at.exception
    assert any(e.value.startswith("bad.txt was not loaded") for e in at.error)
    assert not at.metric
    assert Library(tmp_path / "progress.sqlite3").count() == 0
