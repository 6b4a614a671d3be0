"""Drill page, study controls: grading a right answer Hard/Good/Easy, when each idea comes
back, undoing the last answer, and when the next reviews fall due; the schedule checked
against the fsrs package's own Scheduler."""
from __future__ import annotations

import re

from fsrs import Card as FsrsCard
from fsrs import Rating as R
from fsrs import Scheduler as FsrsScheduler

from fiftysix.drills.progress import ProgressStore
from fiftysix.drills.schedule import card_id_for
from tests.app_harness import open_page, texts


def _start(at, length=3):
    at.multiselect(key="dr_types").set_value(["meaning"])
    at.select_slider(key="dr_len").set_value(length)
    at.button(key="dr_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["dr_queue"]


def _answer(at, q, right: bool):
    choice = q.answers[0] if right else next(c for c in q.choices if not q.is_correct(c))
    at.button(key=f"dr_pick_{q.choices.index(choice)}").click().run()
    at.button(key="dr_answer").click().run()
    assert not at.exception, [e.value for e in at.exception]


def _store(tmp_path, who="player"):
    return ProgressStore(tmp_path / "progress.sqlite3", learner=who)


def _snapshot(store):
    return {k: c.to_dict() for k, c in store.cards().items()}, len(store.history())


def test_a_right_answer_is_graded_hard_good_or_easy_with_keys_2_to_4(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    q = _start(at)[0]
    _answer(at, q, right=True)
    grades = {g: at.button(key=f"dr_grade_{g}") for g in ("hard", "good", "easy")}
    assert [b.proto.shortcut for b in grades.values()] == ["2", "3", "4"]
    assert grades["good"].proto.type == "primary"  # Good is the default ...
    assert at.button(key="dr_next").proto.shortcut.lower() == "enter"  # ... and Enter takes it
    for k in range(len(q.choices)):  # the choices gave up their keys 1-4
        assert not at.button(key=f"dr_pick_{k}").proto.shortcut
    # each grade says when the idea would come back, as fsrs's scheduler would have it
    answered_at = _store(tmp_path).reviewed()[-1].at
    ref = FsrsScheduler(enable_fuzzing=False)
    new = FsrsCard(card_id=card_id_for(q.template), due=answered_at)
    for g, rating in (("hard", R.Hard), ("good", R.Good), ("easy", R.Easy)):
        days = (ref.review_card(new, rating, answered_at)[0].due - answered_at)
        label = grades[g].proto.label
        assert label.startswith(f"{g.title()} · in ")  # the key itself shows beside the label
        if days.days >= 2:
            assert f"in {round(days.total_seconds() / 86400)} days" in label
    grades["easy"].click().run()
    assert at.session_state["dr_i"] == 1  # graded, and on to the next question
    store = _store(tmp_path)
    assert list(store.history()["rating"]) == [int(R.Easy)]
    mine = store.cards()[q.template]
    want = FsrsScheduler(enable_fuzzing=True).review_card(new, R.Easy, answered_at)[0]
    exact = ref.review_card(new, R.Easy, answered_at)[0]
    assert (mine.stability, mine.difficulty, mine.state, mine.step) == (want.stability, want.difficulty,
                                                                        want.state, want.step)
    # FSRS's fuzz draws an 8-day wait from 6 to 10 days, rounded from a uniform draw over [6, 11)
    assert 6 <= (mine.due - answered_at).total_seconds() / 86400 <= 11 and (exact.due - answered_at).days == 8


def test_enter_after_a_right_answer_grades_it_good(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    q = _start(at)[0]
    _answer(at, q, right=True)
    at.button(key="dr_next").click().run()
    store = _store(tmp_path)
    assert list(store.history()["rating"]) == [int(R.Good)]
    at_ = store.reviewed()[-1].at
    want = FsrsScheduler().review_card(FsrsCard(card_id=card_id_for(q.template), due=at_), R.Good, at_)[0]
    assert store.cards()[q.template].to_dict() == want.to_dict()  # a learning step: no fuzz


def test_a_wrong_answer_is_again_and_says_when_it_comes_back(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    q = _start(at)[0]
    _answer(at, q, right=False)
    assert not [b for b in at.button if b.key and b.key.startswith("dr_grade_")]
    assert "**Again**: this idea is due again in 1 minute; a later session brings it back." in texts(at)
    assert list(_store(tmp_path).history()["rating"]) == [int(R.Again)]


def test_undo_takes_the_answer_back_and_the_schedule_is_exactly_as_before(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    queue = _start(at, length=3)
    store = _store(tmp_path)
    states = [_snapshot(store)]
    _answer(at, queue[0], right=True)
    at.button(key="dr_grade_easy").click().run()
    states.append(_snapshot(store))
    _answer(at, queue[1], right=False)
    states.append(_snapshot(store))
    assert states[2] != states[1] != states[0]
    undo = at.button(key="dr_undo_feedback")
    assert undo.proto.shortcut.lower() == "u"
    undo.click().run()
    assert _snapshot(store) == states[1]
    assert at.session_state["dr_i"] == 1 and at.session_state["dr_answered"] is None  # asked again
    assert "Your last answer was taken back" in texts(at)
    at.button(key="dr_undo_ask").click().run()  # and the one before, from the next question
    assert _snapshot(store) == states[0] == ({}, 0)
    assert at.session_state["dr_i"] == 0 and at.session_state["dr_results"] == []
    _answer(at, queue[0], right=False)  # answered again, differently
    assert list(store.history()["rating"]) == [int(R.Again)]


def test_the_summary_says_when_each_idea_and_the_next_reviews_come(tmp_path, monkeypatch):
    """Walked in Chromium: after 3 misses the page said "0 idea(s) due" and "come back sooner",
    with no date."""
    at = open_page("drill", tmp_path, monkeypatch)
    queue = _start(at, length=3)
    for q in queue:
        _answer(at, q, right=False)
        at.button(key="dr_next").click().run()
    table = at.dataframe[0].value
    assert all(re.fullmatch(r"in \d+ minutes?, on \w{3} \d\d \w{3} at \d\d:\d\d UTC", v) for v in table["comes back"])
    shown = texts(at)
    assert "0 idea(s) due" not in shown and "come back sooner" not in shown
    assert re.search(r"Nothing is due now\. The next review falls due in \d+ minutes?, on ", shown)
    assert "Missed, so they come back soon: " in shown
    at.button(key="dr_undo_summary").click().run()  # the last answer, from the summary
    assert at.session_state["dr_i"] == len(queue) - 1 and len(_store(tmp_path).history()) == len(queue) - 1
