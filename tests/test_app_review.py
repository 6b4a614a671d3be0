"""Review page: upload a played hand, see its broken promise, step through the play, save it."""
from __future__ import annotations

import re

from fiftysix.bidding import Auction
from fiftysix.cards import Card, Table, random_deal
from fiftysix.drills.library import Library
from fiftysix.play import PlayState
from fiftysix.records import Noted, Record, format_record, read_records
from tests.app_harness import open_page, shown, texts

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
                    auction=tuple(Noted(x) for x in ["28H", "P", "P", "P"]), contract=contract,
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
    [fig] = at.get("plotly_chart")
    # its title is text above it (a Plotly title is one line, cut off on a phone) and no tool bar
    assert "double-dummy total" not in fig.proto.spec and '"displayModeBar": false' in fig.proto.config
    assert any(m.value.replace("\\", "").endswith("double-dummy total through the play**") for m in at.markdown)
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
    assert any(shown(e.value).startswith("bad.txt was not loaded") for e in at.error)
    assert not at.metric
    assert Library(tmp_path / "progress.sqlite3").count() == 0


def _samples(at, name: str):
    at.segmented_control(key="rv_source").set_value("Samples").run()
    at.selectbox(key="rv_sample").set_value(name).run()
    assert not at.exception, [e.value for e in at.exception]


def _sample_paths():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "data" / "records"
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() not in (".md", ".json"))


def test_result_and_what_the_system_would_have_bid(tmp_path, monkeypatch):
    """Issue 22 #15: the recorded result (made, failed, claimed) and the bot's "the system
    would have bid X because ..." are shown."""
    text, _ = _record_text()
    at = open_page("review", tmp_path, monkeypatch)
    at.file_uploader(key="rv_upload").upload("club.txt", text.encode(), "text/plain").run()
    metrics = {m.label: m.value for m in at.metric}
    record = __import__("fiftysix.records", fromlist=["parse_record"]).parse_record(text)
    took = record.play_state().points[record.contract.team]
    assert metrics["Result"] == f"{took} {'made' if took >= 28 else 'failed'}"
    calls = at.dataframe[0].value
    suggestion = calls["the system's call"].iloc[0]
    assert suggestion and suggestion != "28H" and calls["why"].iloc[0]
    # what the system would have bid is a call whose promise seat 1's hand keeps
    from fiftysix.constraints import fits
    auction = Auction("international", TABLE)
    assert fits(record.deal.hand(1), auction.meaning_of(suggestion).constraint).ok
    assert any(f"The system would have bid **{suggestion}**" in i.value for i in at.info)
    # a claim: an ending whose result was agreed without play
    _samples(at, "endings.txt")
    _picker(at).set_value(5).run()
    assert {m.label: m.value for m in at.metric}["Result (claimed)"] == "7 failed"


def _picker(at):
    """The "Record in the file" box (a box of its own for each file opened)."""
    return next(b for b in at.selectbox if b.label == "Record in the file")


def test_picker_and_slider_start_over_with_each_record_and_file(tmp_path, monkeypatch):
    """Issue 22 #16: the auction slider and the record picker do not keep their position from
    one record or file to the next. #17: the record's notes are labelled."""
    at = open_page("review", tmp_path, monkeypatch)
    _samples(at, "4x8.txt")
    first_default = at.select_slider(key="rv_call").value
    at.select_slider(key="rv_call").set_value(1).run()
    at.button(key="rv_next").click().run()
    assert at.session_state["rv_step"] == 1
    _picker(at).set_value(1).run()
    record2 = read_records(str(next(p for p in _sample_paths() if p.name == "4x8.txt")))[1]
    n = len(record2.auction)
    assert at.select_slider(key="rv_call").value == n  # its default: no broken promise, the last call
    assert at.session_state["rv_step"] == 0
    assert any(shown(i.value).startswith("Note in the record: Double-dummy") for i in at.info)
    _samples(at, "endings.txt")
    assert _picker(at).value == 0
    assert first_default  # the first file's slider had a default of its own


def test_upload_box_names_every_file_type_it_takes(tmp_path, monkeypatch):
    # Walked in Chromium: the box said "(.txt)" while it takes .rec, .pbn and .56 records too.
    at = open_page("review", tmp_path, monkeypatch)
    assert not at.exception
    box = at.get("file_uploader")[0].proto
    for ext in box.type:
        assert ext.lstrip(".") in box.label, (ext, box.label)
    assert "Samples" in box.help  # the way to a record for a newcomer without one


def test_a_played_out_record_is_stepped_through_to_the_last_card(tmp_path, monkeypatch):
    # the Play page's "Play it out": every card kept, the result the points when it was decided
    deal = random_deal(TABLE, seed=0)
    contract = Auction.parse("28H P P P", "international", TABLE).contract
    stop = PlayState(deal, contract.trump, leader=1, target=contract.value, declarer_team=contract.team)
    full = PlayState(deal, contract.trump, leader=1, early_stop=False)
    play = []
    while not full.is_over:
        card = full.legal_cards()[0]
        full.play(card)
        if not stop.is_over:
            stop.play(card)
        play.append(str(card))
    assert stop.cards_left  # decided before the last card
    record = Record(table=TABLE, deal=deal, system="international",
                    auction=tuple(Noted(x) for x in ["28H", "P", "P", "P"]), contract=contract,
                    play=tuple(Noted(c) for c in play), result=stop.points[contract.team], played_out=True)
    at = open_page("review", tmp_path, monkeypatch)
    at.file_uploader(key="rv_upload").upload("out.txt", format_record(record).encode(), "text/plain").run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Declarers took (played out)"] == str(full.points[contract.team])
    made = stop.points[contract.team] >= contract.value
    assert metrics["Result"] == f"{stop.points[contract.team]} {'made' if made else 'failed'}"
    at.button(key="rv_last").click().run()
    assert not at.exception
    assert f"Card {len(play)} (trick 8)" in texts(at) and len(play) == 32
