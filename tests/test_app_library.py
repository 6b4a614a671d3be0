"""Hand library page: search by player, system, contract, result and date; open a record in
Review; delete (asked, undoable); export."""
from __future__ import annotations

from pathlib import Path

from fiftysix.drills.library import Library
from fiftysix.records import read_records
from tests.app_harness import open_page, shown

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "records"


def _library(tmp_path) -> tuple[Library, list]:
    lib = Library(tmp_path / "progress.sqlite3")
    files = [SAMPLES / "4x8.txt", SAMPLES / "6x8.txt"]
    lib.import_files(files)
    return lib, [r for f in files for r in read_records(str(f))]


def test_search_open_delete_undo_and_export(tmp_path, monkeypatch):
    lib, records = _library(tmp_path)
    at = open_page("library", tmp_path, monkeypatch)
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.dataframe[0].value) == len(records)
    # by player: the records with that name in some seat (read from the files themselves)
    name = records[0].players[0]
    at.text_input(key="lb_player").input(name.lower()).run()
    want = [r for r in records if any(name.lower() in p.lower() for p in r.players)]
    assert len(at.dataframe[0].value) == len(want)
    at.text_input(key="lb_player").input("").run()
    at.text_input(key="lb_result").input("failed").run()
    assert len(at.dataframe[0].value) == sum(1 for r in records if r.made is False)
    at.text_input(key="lb_result").input("").run()
    at.text_input(key="lb_since").input("2026.11").run()
    assert sorted(at.dataframe[0].value["date"]) == sorted(r.date for r in records if r.date >= "2026.11.01")
    at.text_input(key="lb_since").input("").run()
    at.text_input(key="lb_contract").input(str(records[0].contract)).run()
    rows = at.dataframe[0].value
    assert all(c.startswith(str(records[0].contract)) for c in rows["contract"])
    at.text_input(key="lb_contract").input("").run()
    at.text_input(key="lb_result").input("nonsense").run()
    assert any("cannot read 'nonsense'" in shown(e.value) for e in at.error)
    at.text_input(key="lb_result").input("").run()
    # export: every record matching, or those picked
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [f"Export all {len(records)} matching record(s)"]
    # delete one after asking, then undo
    everything = sorted(lib.list(), key=lambda e: e.id)
    first = lib.list()[0].id
    at.multiselect(key="lb_pick").set_value([first]).run()
    at.button(key="lb_delete").click().run()
    assert lib.count() == len(records)  # asked first
    at.button(key="lb_delete_yes").click().run()
    assert lib.count() == len(records) - 1
    at.button(key="lb_undo_btn").click().run()
    assert lib.count() == len(records)
    # issue 46: undo brings the record back as it was: its number and its source (the file)
    assert sorted(lib.list(), key=lambda e: e.id) == everything
    # open one in Review
    entry = lib.list()[0]
    at.multiselect(key="lb_pick").set_value([entry.id]).run()
    at.button(key="lb_review").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Contract"] == entry.contract

