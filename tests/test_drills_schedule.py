"""Spaced repetition: FSRS reviews, due-first ordering, the cap on new cards."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fiftysix.drills.questions import Context, Question
from fiftysix.drills.schedule import (
    Rating,
    State,
    card_id_for,
    due_summary,
    make_scheduler,
    new_card,
    pick_questions,
    plan,
    practice_mix,
    question_key,
    rating_for,
    review,
)

NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
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
    return Question(id=f"q{i}", type="meaning", context=Context("international", 6, 48, "alternate", 1, ""),
                    prompt="p?", choices=("a", "b"), answers=("a",), family=template_family)


def test_pick_questions_gives_one_question_per_template_in_plan_order():
    pool = [_question(i, fam) for i, fam in enumerate(["x", "y", "x", "z", "y", "w"])]
    t = {fam: _question(0, fam).template for fam in "xyzw"}
    cards = {t["z"]: _card(t["z"], NOW - timedelta(days=1)), t["w"]: _card(t["w"], NOW + timedelta(days=1))}
    got = pick_questions(pool, cards, n=10, now=NOW, new_today=0, new_per_day=1, seed=3)
    assert [q.template for q in got] == [t["z"], t["x"]]  # due z, then one new (x, first offered)
    assert got[1].id in ("q0", "q2")


def _q(i: int, qtype: str, family: str, prompt: str | None = None) -> Question:
    return Question(id=f"id{i}", type=qtype, context=Context("international", 6, 48, "alternate", 1, ""),
                    prompt=prompt or f"prompt {i}?", choices=("a", "b"), answers=("a",), family=family)


def test_fill_tops_a_session_up_with_practice_but_keeps_the_new_idea_limit():
    # 3 ideas, 4 different questions each; a learner who has met none of them.
    pool = [_q(10 * k + i, "meaning", fam) for k, fam in enumerate("xyz") for i in range(4)]
    short = pick_questions(pool, {}, n=6, now=NOW, new_per_day=2, seed=1)
    assert len(short) == 2  # without fill: only the 2 new ideas the day allows
    full = pick_questions(pool, {}, n=6, now=NOW, new_per_day=2, seed=1, fill=True)
    assert len(full) == 6
    assert {q.family for q in full} == {short[0].family, short[1].family}  # no third new idea
    assert len({q.id for q in full}) == 6  # never the same question twice


def test_fill_practises_ideas_not_due_yet_soonest_first():
    pool = [_q(1, "meaning", "x"), _q(2, "meaning", "y"), _q(3, "meaning", "z")]
    t = {q.family: q.template for q in pool}
    cards = {t["x"]: _card(t["x"], NOW + timedelta(days=5)), t["y"]: _card(t["y"], NOW + timedelta(days=1))}
    got = pick_questions(pool, cards, n=2, now=NOW, new_per_day=0, seed=0, fill=True)
    assert [q.family for q in got] == ["y", "x"]  # nothing due, no new idea allowed: practice
    assert pick_questions(pool, cards, n=2, now=NOW, new_per_day=0, seed=0) == []


def test_a_due_idea_comes_back_as_a_question_not_answered_before():
    old, fresh = _q(1, "meaning", "x", "seat 1 calls 28H"), _q(2, "meaning", "x", "seat 3 calls +1S")
    cards = {old.template: _card(old.template, NOW - timedelta(hours=1))}
    for seed in range(20):
        got = pick_questions([old, fresh], cards, n=1, now=NOW, seed=seed, seen={"id1"})
        assert got == [fresh]


def test_practice_mixes_types_and_families_and_drops_repeats():
    # The pool in blocks, as a generator makes it: all of one type, then the next.
    pool = [_q(i, "meaning", "plus" if i < 6 else "suit") for i in range(8)]
    pool += [_q(20 + i, "your-call", "pass") for i in range(4)]
    pool += [_q(40, "which-call", "ns"), _q(41, "which-call", "ns", prompt="prompt 40?")]  # 41 repeats 40
    got = practice_mix(pool, 6, seed=5)
    assert {q.type for q in got[:3]} == {"meaning", "your-call", "which-call"}
    meanings = [q.family for q in got if q.type == "meaning"]
    assert set(meanings[:2]) == {"plus", "suit"}  # a type's families take turns
    everything = practice_mix(pool, 100, seed=5)
    assert len(everything) == len(pool) - 1  # the repeated prompt is asked once
    assert len({question_key(q) for q in everything}) == len(everything)


def test_the_due_summary_never_says_the_next_review_falls_due_now():
    """Walked in Chromium after a session with misses: "2 ideas are due for review now. After that,
    the next review falls due now" (an idea due in 10 seconds was not due yet, but read as "now")."""
    dues = [NOW - timedelta(minutes=1), NOW + timedelta(seconds=10), NOW + timedelta(hours=3)]
    text = due_summary(dues, NOW)
    assert text.startswith("2 ideas are due for review now. After that, the next review falls due in 3 hours, on ")
    assert "due now;" not in text and "falls due now" not in text
    # one that falls due in a minute is "in 1 minute", and not due now
    assert due_summary([NOW + timedelta(seconds=60)], NOW).startswith(
        "Nothing is due now. The next review falls due in 1 minute, on ")
