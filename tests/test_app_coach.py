"""Coach page: build a one-question bank (the engine fills in the answer), export it, upload a bank."""
from __future__ import annotations

import json

from fiftysix.drills import banks
from tests.app_harness import open_page, shown

# RULES.md 7.1: a number-suit bid promises a Jack of that suit and 3+ other cards of it (4+ in all).
RULE_WORDS = ("Jack of hearts", "4")


def test_build_and_export_a_one_question_bank(tmp_path, monkeypatch):
    at = open_page("coach", tmp_path, monkeypatch)
    at.text_input(key="co_title").input("Openings").run()
    at.selectbox(key="co_type_0").set_value("meaning")
    at.text_input(key="co_call_0").input("28H")
    at.button(key="FormSubmitter:co_form-Fill in, check and add").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [shown(e.value) for e in at.error]
    questions = at.session_state["co_questions"]
    assert len(questions) == 1
    q = questions[0]
    assert q["type"] == "meaning" and q["data"]["call"] == "28H"
    assert all(w in q["answers"][0] for w in RULE_WORDS)
    assert len(q["choices"]) >= 2 and q["answers"][0] in q["choices"]
    assert any(shown(s.value) == "The bank is valid: 1 question(s)." for s in at.success)
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
    assert any("Not added" in shown(e.value) for e in at.error)


def test_upload_a_bank_and_a_bad_file(tmp_path, monkeypatch):
    bank = {"format": "fiftysix-bank", "version": 1, "title": "Uploaded", "system": "international",
            "questions": [{"id": "u1", "type": "which-call", "context": {"players": 6, "auction": ""},
                           "prompt": "Which call opens?", "choices": ["28H", "P"], "answers": ["28H"]}]}
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload("bad.json", b"{ not json").run()
    assert not at.exception
    assert any("bad.json was not loaded" in shown(e.value) for e in at.error)
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
    assert any("files up to 256 KiB" in shown(e.value) for e in at.error)
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
        assert any(f"{name}" in shown(e.value) for e in at.error), (name, [shown(e.value) for e in at.error])
        assert at.session_state["co_questions"] == []


SUBMIT = "FormSubmitter:co_form-Fill in, check and add"
SAVE = "FormSubmitter:co_form-Fill in, check and save"


def _add_meaning(at, call: str = "28H", ver: int = 0):
    at.selectbox(key=f"co_type_{ver}").set_value("meaning")
    at.text_input(key=f"co_call_{ver}").input(call)
    at.button(key=SUBMIT).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_editing_keeps_the_questions_own_context(tmp_path, monkeypatch):
    """Issue 22 #18: a question of another system or table is edited in its own context, not
    the sidebar's."""
    at = open_page("coach", tmp_path, monkeypatch, system="kerala", players=4)
    _add_meaning(at, "28D")
    assert not at.error, [shown(e.value) for e in at.error]
    at.session_state["system"] = "international"
    at.session_state["players"] = 6
    at.run()
    at.button(key="co_edit_btn").click().run()
    ver = at.session_state["co_ver"]
    at.text_input(key=f"co_expl_{ver}").input("Kerala's diamond opening.")
    at.button(key=SAVE).click().run()
    assert not at.exception and not at.error, [shown(e.value) for e in at.error]
    q = at.session_state["co_questions"][0]
    assert (q["context"]["system"], q["context"]["players"], q["context"]["deck"]) == ("kerala", 4, 32)
    assert q["explanation"] == "Kerala's diamond opening."


def test_partner_holds_and_makeable_questions_from_the_form(tmp_path, monkeypatch):
    """Issue 22 #19: the form builds complete partner-holds (about seat) and makeable (contract,
    declarer, estimate) questions."""
    at = open_page("coach", tmp_path, monkeypatch)
    at.selectbox(key="co_type_0").set_value("partner-holds")
    at.text_input(key="co_auction_0").input("28H P")
    at.number_input(key="co_about_0").set_value(1)
    at.number_input(key="co_seat_0").set_value(3)
    at.button(key=SUBMIT).click().run()
    assert not at.exception and not at.error, [shown(e.value) for e in at.error]
    q = at.session_state["co_questions"][0]
    assert q["data"]["about_seat"] == 1 and len(q["choices"]) == 4
    # RULES.md 7.1: 28H promises the Jack of hearts and 4+ hearts; that is the answer
    assert q["answers"][0] in ("holds a Jack of hearts", "at least 4 hearts")
    assert all(c not in ("holds a Jack of hearts", "at least 4 hearts") for c in q["choices"]
               if c not in q["answers"])
    ver = at.session_state["co_ver"]
    at.selectbox(key=f"co_type_{ver}").set_value("makeable")
    at.text_input(key=f"co_id_{ver}").input("m1")
    at.text_input(key=f"co_auction_{ver}").input("28H P P P P P")
    at.text_input(key=f"co_hand_{ver}").input("JJ9.JAT9.K.")
    at.number_input(key=f"co_low_{ver}").set_value(40)
    at.number_input(key=f"co_high_{ver}").set_value(60)
    at.button(key=SUBMIT).click().run()
    assert not at.exception and not at.error, [shown(e.value) for e in at.error]
    m = at.session_state["co_questions"][1]
    assert m["data"]["contract"] == "28H" and m["data"]["declarer"] == 1
    assert m["data"]["interval"] == [0.4, 0.6]
    # the bands that overlap 40%..60% are right, the others not
    assert sorted(m["answers"]) == ["25% to 50%", "50% to 75%"]
    assert m["choices"] == ["under 25%", "25% to 50%", "50% to 75%", "75% or more"]


def test_engine_writes_the_prompt_when_choices_are_given(tmp_path, monkeypatch):
    """Issue 22 #19: "blank: the engine writes one" is accepted when the coach gives choices;
    the coach's choices are kept and the engine marks the right one."""
    at = open_page("coach", tmp_path, monkeypatch)
    at.selectbox(key="co_type_0").set_value("meaning")
    at.text_input(key="co_call_0").input("28H")
    right = "holds a Jack of hearts; at least 4 hearts"
    at.text_area(key="co_choices_0").input(f"no hearts\n{right}\nat least 3 Jacks")
    at.button(key=SUBMIT).click().run()
    assert not at.exception and not at.error, [shown(e.value) for e in at.error]
    q = at.session_state["co_questions"][0]
    assert q["prompt"] and "28H" in q["prompt"]
    assert q["choices"] == ["no hearts", right, "at least 3 Jacks"] and q["answers"] == [right]


def _bank(qid: str, answer: str) -> bytes:
    return json.dumps({"format": "fiftysix-bank", "version": 1, "title": f"Bank {qid}", "system": "international",
                       "questions": [{"id": qid, "type": "meaning",
                                      "context": {"players": 6, "auction": ""}, "data": {"call": "28H"},
                                      "prompt": "What does 28H promise?",
                                      "choices": ["holds a Jack of hearts; at least 4 hearts", "no hearts"],
                                      "answers": [answer]}]}).encode()


def test_a_bank_with_errors_is_not_loaded_as_sound_nor_exported(tmp_path, monkeypatch):
    """Issue 22 #20: a bank the engine finds wrong says so, and cannot be exported."""
    at = open_page("coach", tmp_path, monkeypatch)
    at.file_uploader(key="co_upload").upload("wrong.json", _bank("w1", "no hearts")).run()
    assert not at.exception
    assert not any("Loaded" in s.value or "Replaced" in shown(s.value) for s in at.success)
    assert any("The engine finds 2 error(s)" in shown(w.value) for w in at.warning)
    assert not at.download_button
    assert any("before exporting" in shown(e.value) for e in at.error)


def test_upload_asks_before_replacing_merges_and_the_bank_survives_a_reload(tmp_path, monkeypatch):
    """Issue 22 #20: an upload asks before it replaces the bank, can be merged in, and the bank
    is kept in the data folder so a reload (a new session) keeps it; Delete can be undone."""
    at = open_page("coach", tmp_path, monkeypatch)
    _add_meaning(at)
    assert [q["id"] for q in at.session_state["co_questions"]] == ["q1"]
    right = "holds a Jack of hearts; at least 4 hearts"
    at.file_uploader(key="co_upload").upload("other.json", _bank("u1", right)).run()
    assert [q["id"] for q in at.session_state["co_questions"]] == ["q1"]  # not replaced yet
    assert any("Replace it, or merge" in shown(w.value) for w in at.warning)
    at.button(key="co_merge").click().run()
    assert [q["id"] for q in at.session_state["co_questions"]] == ["q1", "u1"]
    # a new session (a reload) finds the same bank
    again = open_page("coach", tmp_path, monkeypatch)
    assert [q["id"] for q in again.session_state["co_questions"]] == ["q1", "u1"]
    again.selectbox(key="co_pick").set_value(0).run()
    again.button(key="co_del_btn").click().run()
    assert [q["id"] for q in again.session_state["co_questions"]] == ["u1"]
    assert [q["id"] for q in open_page("coach", tmp_path, monkeypatch).session_state["co_questions"]] == ["u1"]
    again.button(key="co_undo_btn").click().run()
    assert [q["id"] for q in again.session_state["co_questions"]] == ["q1", "u1"]
    # replacing, once asked
    again.file_uploader(key="co_upload").upload("third.json", _bank("t1", right)).run()
    again.button(key="co_replace").click().run()
    assert [q["id"] for q in again.session_state["co_questions"]] == ["t1"]
