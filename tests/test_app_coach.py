"""Coach page: build a one-question bank (the engine fills in the answer), export it, upload a bank."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("drills.banks")
pytest.importorskip("fiftysix.bidding")
from drills import banks  # noqa: E402
from tests.app_harness import open_page  # noqa: E402

# RULES.md 7.1: a number-suit bid promises a Jack of that suit and 3+ other cards of it (4+ in all).
RULE_WORDS = ("Jack of hearts", "4")


def test_build_and_export_a_one_question_bank(tmp_path, monkeypatch):
    at = open_page("coach", tmp_path, monkeypatch)
    at.text_input(key="co_title").input("Openings").run()
    at.selectbox(key="co_type_0").set_value("meaning")
    at.text_input(key="co_call_0").input("28H")
    at.button(key="FormSubmitter:co_form-Fill in, check and add").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    questions = at.session_state["co_questions"]
    assert len(questions) == 1
    q = questions[0]
    assert q["type"] == "meaning" and q["data"]["call"] == "28H"
    assert all(w in q["answers"][0] for w in RULE_WORDS)
    assert len(q["choices"]) >= 2 and q["answers"][0] in q["choices"]
    assert any(s.value == "The bank is valid: 1 question(s)." for s in at.success)
    labels = sorted(b.label for b in at.download_button)
    assert labels == sorted(["JSON", "CSV", "GIFT (Moodle)", "Anki CSV"])


def test_a_wrong_answer_is_refused(tmp_path, monkeypatch):
    at = open_page("coach", tmp_path, monkeypatch)
    at.selectbox(key="co_type_0").set_value("meaning")
    at.text_input(key="co_call_0").input("28H")
    at.text_area(key="co_choices_0").input("no heart Jack, 4+ hearts\nthe Jack of hearts and 3+ other hearts")
    at.text_input(key="co_answers_0").input("no heart Jack, 4+ hearts")
    at.text_input(key="co_prompt_0").input("What does 28H promise?")
    at.button(key="FormSubmitter:co_form-Fill in, check and add").click().run()
    assert at.session_state["co_questions"] == []
    assert any("Not added" in e.value for e in at.error)


def test_upload_a_bank_and_a_bad_file(tmp_path, monkeypatch):
    bank = {"format": "fiftysix-bank", "version": 1, "title": "Uploaded", "system": "international",
            "questions": [{"id": "u1", "type": "which-call", "context": {"players": 6, "auction": ""},
                           "prompt": "Which call opens?", "choices": ["28H", "P"], "answers": ["28H"]}]}
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload("bad.json", b"{ not json").run()
    assert not at.exception
    assert any("bad.json was not loaded" in e.value for e in at.error)
    assert at.session_state["co_questions"] == []  # nothing changed
    at.file_uploader(key="co_upload").clear().upload("good.json", json.dumps(bank).encode()).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [q["id"] for q in at.session_state["co_questions"]] == ["u1"]
    assert at.session_state["co_title"] == "Uploaded"
    # what the page holds is the same bank
    assert banks.Bank.from_dict({**bank, "questions": at.session_state["co_questions"]}).questions[0].answers == ("28H",)


def test_an_oversized_upload_is_refused(tmp_path, monkeypatch):
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload("huge.json", b" " * (300 * 1024)).run()
    assert not at.exception
    assert any("files up to 256 KiB" in e.value for e in at.error)
    assert at.session_state["co_questions"] == []


def test_any_bad_upload_is_an_error_box_and_never_stalls(tmp_path, monkeypatch):
    """Files that crashed or froze the page (issue 17): the GIFT that made the old reader
    backtrack for hours, bytes that are not UTF-8, JSON nested past any limit, malformed
    headers of the other formats. Each is an error box; the page stays usable."""
    import time
    at = open_page("coach", tmp_path, monkeypatch)
    bad = {"bomb.gift": ("::" + "\\" * 48 + " x}\n").encode() * 50,
           "latin1.json": b'{"title": "\xe9t\xe9"}',
           "deep.json": b"[" * 200_000,
           "header.gift": b'// fiftysix:bank [1]\n::q::x {=a ~b}\n',
           "weights.gift": b"::q::Which? {~%1.2.3%a ~b}\n",
           "anki.txt": b'#separator:comma\n"' + b"x" * 200_000 + b'"\n',
           "rows.csv": b"id,type,prompt,choices,answers\nq,meaning,p,[],[],extra\n"}
    for name, data in bad.items():
        t0 = time.perf_counter()
        at.file_uploader(key="co_upload").clear().upload(name, data).run(timeout=60)
        assert time.perf_counter() - t0 < 30, name
        assert not at.exception, (name, [e.value for e in at.exception])
        assert any(f"{name}" in e.value for e in at.error), (name, [e.value for e in at.error])
        assert at.session_state["co_questions"] == []
