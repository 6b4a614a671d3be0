"""Spaced repetition: FSRS reviews, due-first ordering, the cap on new cards."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from drills.questions import Context, Question
from drills.schedule import (Rating, State, card_id_for, make_scheduler, new_card, pick_questions, plan,
                             rating_for, review)

NOW = datetime(2026, 1, 10, 12, 0, tzinfo=timezone.utc)
SCHED = make_scheduler(fuzz=False)


def _card(key: str, due: datetime):
    c = new_card(key, NOW - timedelta(days=30))
    c.due = due
    return c


def test_plan_puts_due_cards_first_most_overdue_first_and_leaves_out_the_rest():
    cards = {"late": _card("late", NOW - timedelta(days=3)),
             "just": _card("just", NOW - timedelta(minutes=1)),
             "now": _card("now", NOW),
             "later": _card("later", NOW + timedelta(hours=2))}
    keys = ["new1", "later", "just", "new2", "now", "late", "new3"]
    assert plan(keys, cards, NOW, new_today=0, new_per_day=2) == ["late", "just", "now", "new1", "new2"]


def test_new_cards_are_capped_per_day():
    keys = [f"t{i}" for i in range(30)]
    assert plan(keys, {}, NOW, new_today=0, new_per_day=10) == keys[:10]
    assert plan(keys, {}, NOW, new_today=7, new_per_day=10) == keys[:3]
    assert plan(keys, {}, NOW, new_today=12, new_per_day=10) == []
    assert plan(keys, {}, NOW, new_per_day=10, limit=4) == keys[:4]


def test_ratings_from_answers():
    assert rating_for(False) == Rating.Again and rating_for(False, 2.0) == Rating.Again
    assert rating_for(True, 3.0) == Rating.Good and rating_for(True) == Rating.Good
    assert rating_for(True, 120.0) == Rating.Hard


def test_fsrs_reviews_space_right_answers_out_and_bring_wrong_ones_back():
    card = new_card("k", NOW)
    assert card.card_id == card_id_for("k") == card_id_for("k") != card_id_for("k2")
    t = NOW
    intervals = []
    for _ in range(4):  # answered right each time it comes due: the gaps grow
        card, log = review(card, Rating.Good, t, SCHED)
        assert log.rating == Rating.Good
        intervals.append(card.due - t)
        t = card.due
    assert card.state == State.Review
    assert intervals == sorted(intervals) and intervals[-1] >= timedelta(days=3)
    lapsed, _ = review(card, Rating.Again, t, SCHED)
    assert lapsed.state == State.Relearning and lapsed.due - t <= timedelta(minutes=10)


def _question(i: int, template_family: str) -> Question:
    return Question(f"q{i}", "meaning", Context("international", 6, 48, "alternate", 1, ""), "p?",
                    ("a", "b"), ("a",), family=template_family)


def test_pick_questions_gives_one_question_per_template_in_plan_order():
    pool = [_question(i, fam) for i, fam in enumerate(["x", "y", "x", "z", "y", "w"])]
    t = {fam: _question(0, fam).template for fam in "xyzw"}
    cards = {t["z"]: _card(t["z"], NOW - timedelta(days=1)), t["w"]: _card(t["w"], NOW + timedelta(days=1))}
    got = pick_questions(pool, cards, n=10, now=NOW, new_today=0, new_per_day=1, seed=3)
    assert [q.template for q in got] == [t["z"], t["x"]]  # due z, then one new (x, first offered)
    assert got[1].id in ("q0", "q2")
