"""Drill page: start a session, answer a question, get feedback, and see it stored."""
from __future__ import annotations

import pytest

pytest.importorskip("drills.generate")
from drills.progress import ProgressStore  # noqa: E402
from tests.app_harness import open_page, texts  # noqa: E402


def _start(at, types=("meaning",), length=3):
    at.multiselect(key="dr_types").set_value(list(types))
    at.select_slider(key="dr_len").set_value(length)
    at.button(key="dr_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["dr_queue"]


def _answer(at, q, choice):
    """Pick a choice by its button (keys 1-4 in the browser) and press Answer (Enter)."""
    at.button(key=f"dr_pick_{q.choices.index(choice)}").click().run()
    at.button(key="dr_answer").click().run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("pick_right", [True, False])
def test_answer_a_question_gets_feedback_and_is_recorded(tmp_path, monkeypatch, pick_right):
    at = open_page("drill", tmp_path, monkeypatch, player="ravi")
    queue = _start(at)
    assert 1 <= len(queue) <= 3
    q = queue[0]
    assert q.prompt in texts(at)
    wrong = next(c for c in q.choices if c not in q.answers)
    choice = q.answers[0] if pick_right else wrong
    _answer(at, q, choice)
    if pick_right:
        assert [s.value for s in at.success] == [f"Right: {choice}"]
    else:
        assert at.error[0].value.startswith("Not quite. The answer: ")
        assert q.answers[0] in at.error[0].value
    if q.explanation:
        assert q.explanation in [i.value for i in at.info]
    history = ProgressStore(tmp_path / "progress.sqlite3", learner="ravi").history()
    assert list(history["question_id"]) == [q.id]
    assert list(history["correct"]) == [pick_right]


def test_a_session_ends_with_a_summary(tmp_path, monkeypatch):
    at = open_page("drill", tmp_path, monkeypatch)
    queue = _start(at, length=3)
    for q in queue:
        _answer(at, q, q.answers[0])
        at.button(key="dr_next").click().run()
    assert "Session summary" in texts(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score"] == f"{len(queue)} / {len(queue)}"
    assert metrics["Accuracy"] == "100%"
