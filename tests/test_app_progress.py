"""Progress page: with answers stored, the metrics, charts and weakest spots reflect them."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from fiftysix.drills.progress import ProgressStore
from fiftysix.drills.questions import Question
from tests.app_harness import open_page, texts


def _question(qid: str, family: str) -> Question:
    return Question.from_dict({
        "id": qid, "type": "meaning", "family": family,
        "context": {"system": "international", "players": 6, "auction": "28H"},
        "prompt": "What does 28H promise?", "choices": ["a heart Jack and 3+ other hearts", "no heart Jack"],
        "answers": ["a heart Jack and 3+ other hearts"], "explanation": "number-suit"})


def test_progress_shows_stored_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    store = ProgressStore(learner="asha")
    t0 = datetime(2026, 1, 5, 12, tzinfo=UTC)
    number, plus = _question("q1", "number-suit"), _question("q2", "plus-one")
    # number-suit: 3 of 3 right; plus-one: 1 of 3 right -> the weakest spot.
    for i in range(3):
        store.record_answer(number, number.answer, now=t0 + timedelta(minutes=i))
        store.record_answer(plus, plus.answer if i == 0 else "no heart Jack", now=t0 + timedelta(minutes=i))
    at = open_page("progress", tmp_path, monkeypatch, player="asha")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Answers"] == "6"
    assert metrics["Accuracy"] == "67%"  # 4 of 6
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    spec = json.loads(charts[1].proto.spec)  # per call family: right and wrong answers
    right = dict(zip(spec["data"][0]["x"], spec["data"][0]["y"]))
    wrong = dict(zip(spec["data"][1]["x"], spec["data"][1]["y"]))
    assert right == {"number-suit": 3, "plus-one": 1} and wrong == {"number-suit": 0, "plus-one": 2}
    days = json.loads(charts[0].proto.spec)["data"][0]
    assert days["x"] == ["05 Jan 2026"] and days["y"] == [4]
    weakest = at.dataframe[0].value
    assert "plus-one" in weakest.iloc[0, 0]
    assert weakest["accuracy"].iloc[0] == pytest.approx(1 / 3)


def test_progress_for_a_new_player_says_so(tmp_path, monkeypatch):
    at = open_page("progress", tmp_path, monkeypatch, player="newcomer")
    assert "No answers recorded for **newcomer**" in texts(at)


def test_drill_my_weak_spots_now(tmp_path, monkeypatch):
    from fiftysix.cards import Table
    from fiftysix.drills.generate import Generator
    from fiftysix.drills.questions import idea_title
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    store = ProgressStore(learner="asha")
    made = Generator("international", Table.make(6), 2).questions(9, ["meaning", "which-call", "your-call"])
    by_idea = {q.template: q for q in made}
    ideas = list(by_idea)[:3]
    assert len(ideas) == 3
    t0 = datetime(2026, 1, 5, 12, tzinfo=UTC)
    for i, key in enumerate(ideas):  # the first two ideas answered wrongly, the third rightly
        q = by_idea[key]
        store.record_answer(q, q.answer if i == 2 else "wrong", correct=i == 2, now=t0)
    at = open_page("progress", tmp_path, monkeypatch, player="asha")
    weakest = at.dataframe[0].value
    assert list(weakest["idea"][:2]) in ([idea_title(ideas[0]), idea_title(ideas[1])],
                                         [idea_title(ideas[1]), idea_title(ideas[0])])
    assert "/international/" not in texts(at) + weakest.to_string()  # ideas in words, not keys
    at.button(key="pr_weak").click().run()
    assert not at.exception, [e.value for e in at.exception]
    queue = at.session_state["dr_queue"]
    assert queue and {q.template for q in queue} <= set(ideas[:2])  # only the ideas missed
    assert not {q.id for q in queue} & {q.id for q in made}  # as fresh questions
    assert "Question 1 of" in texts(at)
