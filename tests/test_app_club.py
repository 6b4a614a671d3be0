"""A club server in AppTest (ui/club.py): a signed-out visitor reaches no page; each member's
progress, saved hands and working bank are their own; the club library is shared on purpose and
only the owner deletes. Identity comes from st.user alone: the ``?player=`` of local mode is
ignored. The real sign-in, through a real provider in a browser, is tests/test_browser_club.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fiftysix.drills.banks import Bank, load_working_bank, save_working_bank
from fiftysix.drills.library import Library
from fiftysix.drills.progress import ProgressStore
from fiftysix.drills.questions import Question
from fiftysix.records import read_records
from tests.app_harness import APP, CLUB_SECRETS, member, open_page, texts

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "records"
ANN, BOB = member("ann", "Ann Mathew"), member("bob", "Bob Varghese")
ANN_ID, BOB_ID = "oidc:http://idp.test|ann", "oidc:http://idp.test|bob"


def _question(qid: str, call: str) -> Question:
    return Question.from_dict({"id": qid, "type": "which-call", "context": {"system": "international", "players": 6, "auction": ""},
                               "prompt": f"Open {call}?", "choices": [call, "P"], "answers": [call]})


def test_a_signed_out_visitor_gets_the_sign_in_page_and_no_other(tmp_path, monkeypatch):
    ProgressStore(tmp_path / "progress.sqlite3", learner=ANN_ID).record_answer(_question("q1", "28H"), "28H")
    for page in ("progress", "drill", "analyse", "library", "coach"):
        at = open_page(page, tmp_path, monkeypatch, club=CLUB_SECRETS, user={}, query={"player": ANN_ID})
        assert not at.exception, [e.value for e in at.exception]
        assert [b.label for b in at.button] == ["Sign in"]
        assert at.title[0].value == "Test club"
        assert not at.dataframe and not at.metric and "28H" not in texts(at)
        with pytest.raises(ValueError, match=r"Known pages: \['Sign in'\]"):
            at.switch_page(f"ui/pages/{page}.py")  # no other page is there to open, by link or address


def test_a_member_not_on_the_list_is_turned_away(tmp_path, monkeypatch):
    club = {**CLUB_SECRETS, "club": {"name": "Test club", "members": ["@club.test"]}}
    at = open_page("progress", tmp_path, monkeypatch, club=club, user=member("eve", email="eve@elsewhere.test"))
    assert any("not on the club's list" in e.value for e in at.error)
    assert [b.label for b in at.button] == ["Sign out"]
    unverified = {**member("mal"), "email_verified": False}
    at = open_page("progress", tmp_path, monkeypatch, club=club, user=unverified)
    assert any("not on the club's list" in e.value for e in at.error)
    at = open_page("progress", tmp_path, monkeypatch, club=club, user=ANN)
    assert not at.error and "Sign out" in [b.label for b in at.button]


def test_progress_is_each_members_own_whatever_the_address_says(tmp_path, monkeypatch):
    ProgressStore(tmp_path / "progress.sqlite3", learner=ANN_ID).record_answer(_question("q1", "28H"), "28H")
    at = open_page("progress", tmp_path, monkeypatch, club=CLUB_SECRETS, user=ANN)
    assert [m.value for m in at.metric][:1] == ["1"]  # Ann's one answer
    at = open_page("progress", tmp_path, monkeypatch, club=CLUB_SECRETS, user=BOB, query={"player": ANN_ID},
                   player=ANN_ID)
    assert not at.metric and "No answers recorded" in texts(at)
    assert not at.sidebar.text_input  # no name to type in club mode: the sign-in says who it is
    assert "Bob Varghese" in [t.value for t in at.sidebar.text]


def test_the_library_keeps_hands_private_until_shared_and_only_the_owner_deletes(tmp_path, monkeypatch):
    path = tmp_path / "progress.sqlite3"
    records = read_records(str(SAMPLES / "4x8.txt"))
    ann = Library(path, owner=ANN_ID, owner_name="Ann Mathew")
    mine = ann.add(records[:2]).ids
    at = open_page("library", tmp_path, monkeypatch, club=CLUB_SECRETS, user=BOB)
    assert "The library is empty" in texts(at)
    ann.share(mine[:1])
    at = open_page("library", tmp_path, monkeypatch, club=CLUB_SECRETS, user=BOB)
    rows = at.dataframe[0].value
    assert list(rows["#"]) == [mine[0]] and list(rows["by"]) == ["Ann Mathew"]
    at.multiselect(key="lb_pick").set_value([mine[0]]).run()
    assert at.button(key="lb_delete").disabled and at.button(key="lb_unshare").disabled
    at = open_page("library", tmp_path, monkeypatch, club=CLUB_SECRETS, user=ANN)
    assert sorted(at.dataframe[0].value["#"]) == sorted(mine)
    at.multiselect(key="lb_pick").set_value([mine[1]]).run()
    at.button(key="lb_share").click().run()
    assert {e.id for e in Library(path, owner=BOB_ID).search(scope="club")} == set(mine)
    at.multiselect(key="lb_pick").set_value([mine[0]]).run()
    at.button(key="lb_delete").click().run()
    at.button(key="lb_delete_yes").click().run()
    assert [e.id for e in Library(path, owner=BOB_ID).list()] == [mine[1]]


def test_each_coach_has_their_own_working_bank(tmp_path, monkeypatch):
    """The defect of issue 44: Alice adds a 28H question, Bob a 28S one; the file held only 28S,
    and a third user's Coach page opened with Bob's bank."""
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    save_working_bank(Bank("Ann's", "international", (_question("a", "28H"),), "Ann"), owner=ANN_ID)
    save_working_bank(Bank("Bob's", "international", (_question("b", "28S"),), "Bob"), owner=BOB_ID)
    assert [q.answers for q in load_working_bank(owner=ANN_ID).questions] == [("28H",)]
    at = open_page("coach", tmp_path, monkeypatch, club=CLUB_SECRETS, user=ANN)
    assert [q["id"] for q in at.session_state["co_questions"]] == ["a"]
    at = open_page("coach", tmp_path, monkeypatch, club=CLUB_SECRETS, user=member("cat"))
    assert at.session_state["co_questions"] == [] and at.session_state["co_title"] == "My bank"


def test_local_mode_answers_only_this_computer(tmp_path, monkeypatch):
    """Without a club, an app started on another address (every interface: "" or 0.0.0.0) shows
    no page; on 127.0.0.1 (./scripts/app, .streamlit/config.toml) it is the one player's."""
    import streamlit

    from fiftysix.ui.club import is_loopback
    assert [is_loopback(a) for a in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2")] == [True] * 5
    assert [is_loopback(a) for a in ("", "0.0.0.0", "::", "192.168.1.5", "example.org")] == [False] * 5
    real = streamlit.get_option
    for address in ("0.0.0.0", ""):
        monkeypatch.setattr(streamlit, "get_option",
                            lambda key, real=real, a=address: a if key == "server.address" else real(key))
        monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
        at = AppTest.from_file(APP, default_timeout=60).run()
        assert not at.exception and any("does not answer other computers" in e.value for e in at.error)
        assert not at.sidebar.text_input and not at.button
    monkeypatch.setattr(streamlit, "get_option", lambda key: "127.0.0.1" if key == "server.address" else real(key))
    at = open_page("progress", tmp_path, monkeypatch, player="ravi")
    assert not at.error and at.sidebar.text_input(key="player").value == "ravi"


def test_a_club_without_its_sign_in_settings_stays_closed(tmp_path, monkeypatch):
    at = open_page("progress", tmp_path, monkeypatch, club={"club": {"name": "Half set up"}}, user=ANN)
    assert not at.exception and any("no [auth] table" in e.value for e in at.error)
    assert not at.button and not at.metric
    bad = {**CLUB_SECRETS, "club": {"members": "not a list", "coaches": [3]}}
    at = open_page("progress", tmp_path, monkeypatch, club=bad, user=ANN)
    assert any("coaches must be a list" in e.value for e in at.error) and not at.metric
