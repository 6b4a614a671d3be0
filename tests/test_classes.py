"""A coach's classes (drills.classes): joining by code, who may change what, assignments with a
due date, and the coach's reports checked against the answers the test itself gave."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from fiftysix.cards import Table, random_deal
from fiftysix.drills.banks import load_starter
from fiftysix.drills.classes import CODE_ALPHABET, AssignedDeal, ClassError, ClassStore, DealResult
from fiftysix.drills.progress import ProgressStore

DUE = date(2026, 12, 13)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "progress.sqlite3"


def test_students_join_with_the_code_and_only_the_coach_changes_the_class(path: Path):
    cs = ClassStore(path)
    c = cs.create("coach", "Ravi", "  Thursday   juniors ")
    assert c.name == "Thursday juniors" and len(c.code) == 8 and set(c.code) <= set(CODE_ALPHABET)
    typed = c.show_code().lower().replace("-", " - ")  # read out in the club room, typed any way
    assert cs.join(typed, "ann", "Ann").id == c.id
    cs.join(c.code, "ann", "Ann M.")  # twice: still one member, the newer name
    cs.join(c.code, "bob", "Bob")
    assert [(m.member, m.name) for m in cs.members(c.id)] == [("ann", "Ann M."), ("bob", "Bob")]
    assert [k.id for k in cs.joined_by("ann")] == [c.id] and cs.coached_by("coach") == [c]
    with pytest.raises(ClassError, match="no class has the join code"):
        cs.join("ZZZZ-ZZZZ", "eve", "Eve")
    with pytest.raises(ClassError, match="coach"):
        cs.join(c.code, "coach", "Ravi")
    for not_coach in (lambda: cs.remove(c.id, "ann", "bob"), lambda: cs.new_code(c.id, "ann"),
                      lambda: cs.delete(c.id, "bob"), lambda: cs.assign_bank(c.id, "ann", _bank(), DUE)):
        with pytest.raises(ClassError, match="only the class's coach"):
            not_coach()
    old = c.code
    new = cs.new_code(c.id, "coach")
    assert new != old
    with pytest.raises(ClassError, match="no class has the join code"):
        cs.join(old, "eve", "Eve")
    cs.remove(c.id, "coach", "bob")
    cs.leave(c.id, "ann")
    assert cs.members(c.id) == [] and cs.joined_by("ann") == []
    with pytest.raises(ClassError, match="give the class a name"):
        cs.create("coach", "Ravi", "   ")


def _bank():
    return load_starter("international")


def test_a_bank_assignment_reports_each_student_and_the_questions_missed_most(path: Path):
    cs = ClassStore(path)
    c = cs.create("coach", "Ravi", "Juniors")
    for who in ("ann", "bob", "cat"):
        cs.join(c.code, who, who.title())
    bank = _bank()
    a = cs.assign_bank(c.id, "coach", bank, DUE, "Week 1: openings")
    other = cs.assign_bank(c.id, "coach", bank, date(2026, 12, 20), "Week 2")
    q1, q2, q3 = bank.questions[:3]
    wrong = {q.id: next(ch for ch in q.choices if not q.is_correct(ch)) for q in (q1, q2, q3)}
    given = [("ann", q1, True), ("ann", q2, True), ("ann", q3, False), ("ann", q3, True),
             ("bob", q1, False), ("bob", q3, False), ("cat", q2, True)]
    for who, q, right in given:
        ProgressStore(path, learner=who).record_answer(q, q.answers[0] if right else wrong[q.id], assignment=a.id)
    ProgressStore(path, learner="bob").record_answer(q1, q1.answers[0])  # not for the assignment
    ProgressStore(path, learner="bob").record_answer(q2, q2.answers[0], assignment=other.id)
    rep = cs.bank_report(a.id)
    by = {s.member: s for s in rep.students}
    n = len(bank.questions)
    assert [(by[w].answered, by[w].right, by[w].questions_done, by[w].questions) for w in ("ann", "bob", "cat")] == \
        [(4, 3, 3, n), (2, 0, 0, n), (1, 1, 1, n)]
    assert [(x.question, x.answered, x.missed, x.students_missed) for x in rep.questions[:3]] == \
        [(q3.id, 3, 2, ("Ann", "Bob")), (q1.id, 2, 1, ("Bob",)), (q2.id, 2, 0, ())]
    assert all(x.answered == 0 for x in rep.questions[3:])
    assert cs.done(a, "ann") == 3 and cs.done(a, "bob") == 0 and cs.done(other, "bob") == 1
    assert [x[0].title for x in cs.assigned_to("bob")] == ["Week 1: openings", "Week 2"]
    assert a.overdue(date(2026, 12, 14)) and not a.overdue(DUE)


def _result(points: int, made: bool) -> DealResult:
    return DealResult("28H P P P", "28H", 1, points, made, 2 if made else -2, "[Event \"x\"]")


def test_deals_keep_each_students_first_finished_hand_side_by_side(path: Path):
    cs = ClassStore(path)
    c = cs.create("coach", "Ravi", "Juniors")
    cs.join(c.code, "ann", "Ann")
    cs.join(c.code, "bob", "Bob")
    t = Table(4, 32, "alternate")
    deals = [AssignedDeal(str(random_deal(t, seed=s)), 4, 32, "alternate", "international", seat=2, seed=s)
             for s in (1, 2)]
    a = cs.assign_deals(c.id, "coach", deals, DUE, "Two hands")
    assert a.deals == tuple(deals) and cs.assignment(a.id).deals == tuple(deals)
    assert cs.submit_deal(a.id, 0, "bob", _result(30, True))
    assert not cs.submit_deal(a.id, 0, "bob", _result(10, False))  # a second try is practice
    assert cs.submit_deal(a.id, 0, "ann", _result(20, False))
    assert cs.submit_deal(a.id, 1, "ann", _result(40, True))
    with pytest.raises(ClassError, match="another class"):
        cs.submit_deal(a.id, 0, "eve", _result(30, True))
    with pytest.raises(ClassError, match="no deal 3"):
        cs.submit_deal(a.id, 2, "ann", _result(30, True))
    rows = [(p.deal, p.name, p.result.points, p.result.made) for p in cs.played(a.id)]
    assert rows == [(0, "Ann", 20, False), (0, "Bob", 30, True), (1, "Ann", 40, True)]
    assert cs.done(a, "ann") == 2 and cs.done(a, "bob") == 1
    with pytest.raises(ClassError, match="cannot be read"):
        cs.assign_deals(c.id, "coach", [AssignedDeal("JJ.A", 4, 32, "alternate", "international")], DUE, "bad")
    cs.delete(c.id, "coach")  # the class, its members, assignments and results go together
    assert cs.joined_by("ann") == [] and cs.played(a.id) == []
    with pytest.raises(ClassError, match="no assignment"):
        cs.assignment(a.id)
