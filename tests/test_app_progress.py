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
    assert [c.key for c in charts] == ["pr_time", "pr_groups", "pr_forecast"]
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


def test_the_schedule_section_forecasts_the_month_and_sets_fsrs_retention(tmp_path, monkeypatch):
    """The forecast counts each idea once on the day it falls due (a plain count of the store's
    cards); the retention slider sets FSRS's own desired_retention and reschedules."""
    from fsrs import Card as FsrsCard
    from fsrs import Scheduler as FsrsScheduler

    from fiftysix.drills.schedule import Rating, card_id_for, utcnow
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    store = ProgressStore(learner="asha")
    now = utcnow()
    for i in range(6):  # six ideas, each answered right twice, days apart: they fall due over the month
        key = f"meaning/international/6p/f{i}"
        store.record_review(key, Rating.Good, now=now - timedelta(days=20 + i))
        store.record_review(key, Rating.Good if i else Rating.Again, now=now - timedelta(days=3 + i))
    at = open_page("progress", tmp_path, monkeypatch, player="asha")
    spec = json.loads(next(c for c in at.get("plotly_chart") if "ideas due" in c.proto.spec).proto.spec)
    assert "**Reviews due in the next 30 days**" in [m.value for m in at.markdown]  # its title, above it
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    want = [sum(1 for c in store.cards().values()
                if (c.due < start + timedelta(days=d + 1)) and (d == 0 or c.due >= start + timedelta(days=d)))
            for d in range(30)]
    assert spec["data"][0]["y"] == want and sum(want) >= 1 and spec["data"][0]["x"][0] == "today"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Retention so far"] == f"{5 / 6:.0%}"  # 5 of the 6 later answers right
    assert "Fitting opens at 512 answers" in texts(at) and "you have 6" in texts(at)
    assert at.button(key="pr_optimise").disabled
    assert at.slider(key="pr_retention").value == 90
    at.slider(key="pr_retention").set_value(80).run()
    assert not at.exception
    again = ProgressStore(learner="asha")
    assert again.tuning().desired_retention == 0.8
    key = "meaning/international/6p/f1"
    ref = FsrsScheduler(desired_retention=0.8).reschedule_card(
        FsrsCard(card_id=card_id_for(key)), [r.log() for r in again.reviewed() if r.key == key])
    mine = again.cards()[key]
    assert (mine.stability, mine.difficulty) == (ref.stability, ref.difficulty)


def test_play_problems_are_named_by_kind_level_and_table(tmp_path, monkeypatch):
    """Walked in Chromium after some play problems: the Progress page listed "Play problem
    fc-4e0d4e728080" (the id) as an idea due, and a call-family bar named "level-1"."""
    from fiftysix.cards import Table
    from fiftysix.drills.problem_sets import starter_problems
    from fiftysix.drills.problems import level_of
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    store = ProgressStore(learner="asha")
    q = next(p for p in starter_problems(Table.make(4)) if level_of(p) == 1 and p.type == "find-card")
    wrong = next(c for c in q.choices if c not in q.answers)
    store.record_answer(q, wrong, now=datetime.now(UTC) - timedelta(hours=2))  # missed: due again by now
    bid = _question("q1", "plus")
    store.record_answer(bid, bid.answer, now=datetime.now(UTC) - timedelta(hours=2))
    at = open_page("progress", tmp_path, monkeypatch, player="asha")
    want = "Play problem: Find the card, level 1 · 4 players"
    tables = [d.value for d in at.dataframe]
    due = next(t for t in tables if "due since" in t.columns)
    assert want in list(due["idea"]) and not any(q.id in str(i) for i in due["idea"])
    weak = next(t for t in tables if "accuracy" in t.columns)
    assert want in list(weak["idea"])
    spec = json.loads(at.get("plotly_chart")[1].proto.spec)  # accuracy per call family
    assert set(spec["data"][0]["x"]) == {"Play problems, level 1", "Plus N (+1H)"}
    # the Drill asks bidding ideas only: a missed problem alone is no weak spot for it to drill
    assert at.button(key="pr_weak").disabled
