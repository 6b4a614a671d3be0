"""Issue 46: a coach can trust the bank. Two tabs never lose each other's questions, an edit
keeps what the coach wrote, the labels are true, and no upload or export fails silently."""
from __future__ import annotations

import json
from pathlib import Path

from fiftysix.drills import banks
from fiftysix.drills.progress import ProgressStore
from tests.app_harness import open_page, shown

SUBMIT = "FormSubmitter:co_form-Fill in, check and add"
SAVE = "FormSubmitter:co_form-Fill in, check and save"
RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def _ok(at) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [shown(e.value) for e in at.error]


def _add(at, qtype: str, **fields) -> None:
    """Fill the form's fields (widget name -> value) for a new question and add it."""
    ver = at.session_state["co_ver"]
    at.selectbox(key=f"co_type_{ver}").set_value(qtype)
    for name, value in fields.items():
        if name in ("seat", "about", "low", "high", "deals"):
            at.number_input(key=f"co_{name}_{ver}").set_value(value)
        else:
            (at.text_area if name == "choices" else at.text_input)(key=f"co_{name}_{ver}").input(value)
    at.button(key=SUBMIT).click().run()


def _kept() -> list[dict]:
    bank = banks.load_working_bank()
    return [] if bank is None else [q.to_dict() for q in bank.questions]


def _done(at) -> str:
    return " ".join(shown(x.value) for x in [*at.success, *at.warning])


def test_two_tabs_keep_each_others_questions(tmp_path, monkeypatch):
    """Item 1: two tabs open on the bank each add a question; the kept bank (a reload) holds
    both. Before, each tab saved its whole list and the first tab's question was lost."""
    a = open_page("coach", tmp_path, monkeypatch)
    b = open_page("coach", tmp_path, monkeypatch)
    _add(a, "meaning", call="28H")
    _ok(a)
    _add(b, "meaning", auction="28H P", call="+1H")  # tab b still shows the id q1 in its form
    _ok(b)
    ids = [q["id"] for q in _kept()]
    assert len(ids) == 2 and ids[0] == "q1", ids
    assert [q["data"]["call"] for q in _kept()] == ["28H", "+1H"]
    reload = open_page("coach", tmp_path, monkeypatch)
    assert [q["id"] for q in reload.session_state["co_questions"]] == ids
    # tab a picks up b's question on its next run
    a.run()
    assert [q["id"] for q in a.session_state["co_questions"]] == ids


def test_a_change_made_elsewhere_to_the_same_question_is_refused_clearly(tmp_path, monkeypatch):
    """Item 1: tab a edits q1's explanation; tab b, which read q1 before, deletes it. b's save
    is refused with a clear word and a way to reload; a's edit stays."""
    a = open_page("coach", tmp_path, monkeypatch)
    _add(a, "meaning", call="28H")
    b = open_page("coach", tmp_path, monkeypatch)
    a.button(key="co_edit_btn").click().run()
    ver = a.session_state["co_ver"]
    a.text_input(key=f"co_expl_{ver}").input("Hearts, with the Jack.")
    a.button(key=SAVE).click().run()
    _ok(a)
    b.button(key="co_del_btn").click().run()
    assert any("changed in another tab" in shown(e.value) and "Not saved" in shown(e.value) for e in b.error)
    assert [q["explanation"] for q in _kept()] == ["Hearts, with the Jack."]
    b.button(key="co_reload").click().run()
    assert b.session_state["co_questions"] == _kept()


def test_an_edit_keeps_every_field_it_did_not_touch(tmp_path, monkeypatch):
    """Item 2: editing only the prompt keeps the call family (the idea Drill and Progress use),
    the tags, the data and the choices in the coach's order, for every type of question."""
    at = open_page("coach", tmp_path, monkeypatch)
    _add(at, "meaning", call="28H")
    _add(at, "partner-holds", auction="28H P", about=1, seat=3)
    _add(at, "which-call", id="w1", auction="", call="28H")
    _add(at, "your-call", id="y1", auction="28H", seat=2, hand="JJ9.JAT9.K.")
    _add(at, "makeable", id="m1", auction="28H P P P P P", hand="JJ9.JAT9.K.", low=40, high=60)
    _ok(at)
    made = _kept()
    assert len(made) == 5 and all(q.get("family") for q in made), [q.get("family") for q in made]
    for i, q in enumerate(made):
        at.selectbox(key="co_pick").set_value(i).run()
        at.button(key="co_edit_btn").click().run()
        ver = at.session_state["co_ver"]
        at.text_input(key=f"co_prompt_{ver}").input(f"Edited: {q['prompt']}")
        at.button(key=SAVE).click().run()
        _ok(at)
        after = _kept()[i]
        assert after["prompt"] == f"Edited: {q['prompt']}"
        assert {k: v for k, v in after.items() if k != "prompt"} == {k: v for k, v in q.items() if k != "prompt"}, q["id"]


def test_a_seat_the_engine_changes_is_said(tmp_path, monkeypatch):
    """Item 2: a your-call question entered for seat 1 after 28H is for seat 2 (seat 2 is to
    call): the page says so. Its message also names every right call."""
    at = open_page("coach", tmp_path, monkeypatch)
    _add(at, "your-call", auction="28H", seat=1, hand="JJ9.JAT9.K.")
    assert not at.exception
    q = _kept()[0]
    assert q["context"]["seat"] == 2
    said = _done(at)
    assert "Seat 1 was given, but after 28H seat 2 is to call" in said, said
    assert all(a in said for a in q["answers"]), (q["answers"], said)


def test_the_added_message_lists_every_right_answer_and_warns_when_most_are_right(tmp_path, monkeypatch):
    """Item 3: a makeable question whose interval meets two bands names both; one that meets
    three of the four warns that most choices are right."""
    at = open_page("coach", tmp_path, monkeypatch)
    _add(at, "makeable", id="m1", auction="28H P P P P P", hand="JJ9.JAT9.K.", low=40, high=60)
    said = _done(at)
    assert "25% to 50%" in said and "50% to 75%" in said and at.success and not at.warning, said
    _add(at, "makeable", id="m2", auction="28H P P P P P", hand="JJ9.JAT9.K.", low=20, high=70)
    said = _done(at)
    assert [q["answers"] for q in _kept()][1] == ["under 25%", "25% to 50%", "50% to 75%"]
    assert all(b in said for b in ("under 25%", "25% to 50%", "50% to 75%")), said
    assert at.warning and "3 of the 4 choices count as right" in said, said


def test_drill_and_progress_name_the_bank_by_its_title(tmp_path, monkeypatch):
    """Item 3: after the Coach page, Drill offers the coach's bank by its title (Streamlit had
    forgotten the title's widget key there: "my bank"), and the answers are kept under it."""
    at = open_page("coach", tmp_path, monkeypatch)
    at.text_input(key="co_title").input("Thursday class").run()
    _add(at, "meaning", call="28H")
    _ok(at)
    at.switch_page("ui/pages/drill.py").run()
    at.segmented_control(key="dr_source").set_value("bank").run()
    box = at.selectbox(key="dr_bank")
    assert "The Coach page's bank: Thursday class" in box.options, box.options
    box.set_value("coach")  # a form: sent with the button
    at.button(key="dr_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dr_source_name"] == "Thursday class"
    at.button(key="dr_pick_0").click().run()
    at.button(key="dr_answer").click().run()
    history = ProgressStore(tmp_path / "progress.sqlite3", learner="player").history()
    assert list(history["source"]) == ["Thursday class"]


def test_long_titles_export_under_a_short_readable_name(tmp_path, monkeypatch):
    """Item 4: the file name comes from the title's words, cut short (a 240-character title
    made a name the system refused, and no file was saved)."""
    assert banks.file_stem('Club quiz: week 1, "Plus" calls ♠') == "club-quiz-week-1-plus-calls"
    assert len(banks.file_stem("Week " * 80)) <= 40
    assert banks.file_stem("♠♥♦♣") == "bank"
    at = open_page("coach", tmp_path, monkeypatch)
    at.text_input(key="co_title").input("A very long title " * 15).run()
    _add(at, "meaning", call="28H")
    _ok(at)
    assert len(at.get("download_button")) == 4
    assert any("Saved as a-very-long-title-a-very-long-title-a.json" in shown(c.value) for c in at.caption)


def _bank_file(qid: str) -> bytes:
    return json.dumps({"format": "fiftysix-bank", "version": 1, "title": f"Bank {qid}", "system": "international",
                       "questions": [{"id": qid, "type": "meaning", "context": {"players": 6, "auction": ""},
                                      "data": {"call": "28H"}, "prompt": "What does 28H promise?",
                                      "choices": ["holds a Jack of hearts; at least 4 hearts", "no hearts"],
                                      "answers": ["holds a Jack of hearts; at least 4 hearts"]}]}).encode()


def test_the_same_file_again_after_keep_my_bank_is_asked_about_again(tmp_path, monkeypatch):
    """Item 4: "Keep my bank", then the same file uploaded again: the page asks again (it had
    remembered the file by its name and size and did nothing)."""
    at = open_page("coach", tmp_path, monkeypatch)
    _add(at, "meaning", call="28H")
    at.file_uploader(key="co_upload").upload("club.json", _bank_file("u1")).run()
    assert any("Replace it, or merge" in shown(w.value) for w in at.warning)
    at.button(key="co_keep").click().run()
    assert not any("Replace it, or merge" in shown(w.value) for w in at.warning)
    at.file_uploader(key="co_upload").clear().upload("club.json", _bank_file("u1")).run()
    assert any("Replace it, or merge" in shown(w.value) for w in at.warning)
    at.button(key="co_merge").click().run()
    assert [q["id"] for q in _kept()] == ["q1", "u1"]


def test_a_hand_record_uploaded_as_a_bank_says_what_it_is(tmp_path, monkeypatch):
    """Item 4: a hand-record file on the Coach page is named as one, with where it opens
    (before: a GIFT parser's message)."""
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload("club.txt", (RECORDS / "4x8.txt").read_bytes()).run()
    assert not at.exception
    said = " ".join(shown(e.value) for e in at.error)
    assert "club.txt looks like a hand record" in said and "Review" in said, said
    assert at.session_state["co_questions"] == []
