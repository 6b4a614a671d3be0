"""The Class page with the Drill and Play pages on a club server (AppTest): a coach starts a
class, a student joins with its code, the coach assigns questions and a deal; the student drills
and plays them from their own pages; the coach's results show what the student did, read back
from the store and the hand itself."""
from __future__ import annotations

from datetime import date, timedelta

from fiftysix.cards import Table, random_deal
from fiftysix.drills.banks import load_starter
from fiftysix.drills.classes import AssignedDeal, ClassStore
from tests.app_harness import CLUB_SECRETS, member, open_page, texts
from tests.test_app_play import _bid_to_the_end, _hand, _play_to_the_end

ANN, BOB = member("ann", "Ann Mathew"), member("bob", "Bob Varghese")
ANN_ID, BOB_ID = "oidc:http://idp.test|ann", "oidc:http://idp.test|bob"


def _ok(at) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _page(page, tmp_path, monkeypatch, who):
    at = open_page(page, tmp_path, monkeypatch, club=CLUB_SECRETS, user=who)
    _ok(at)
    return at


def test_a_class_from_its_start_to_the_coachs_results_on_a_bank(tmp_path, monkeypatch):
    at = _page("classes", tmp_path, monkeypatch, ANN)
    at.text_input(key="cl_new_name").input("Thursday juniors")
    at.button(key="FormSubmitter:cl_new_form-Start").click().run()
    _ok(at)
    cs = ClassStore(tmp_path / "progress.sqlite3")
    [c] = cs.coached_by(ANN_ID)
    assert c.name == "Thursday juniors" and {m.value for m in at.metric} == {c.show_code()}
    bob = _page("classes", tmp_path, monkeypatch, BOB)
    bob.text_input(key="cl_code").input(c.show_code().lower())
    bob.button(key="FormSubmitter:cl_join_form-Join").click().run()
    _ok(bob)
    assert [m.name for m in cs.members(c.id)] == ["Bob Varghese"]
    assert "Nothing is assigned yet." in texts(bob)
    assert [t.label for t in bob.tabs] == ["Classes I joined", "My classes (coach)"]  # a student's first
    at.run()
    at.radio(key="cl_bank_from").set_value("starter").run()
    at.selectbox(key="cl_starter").set_value("international").run()
    at.text_input(key="cl_title").input("Week 1: openings").run()
    at.button(key="cl_assign").click().run()
    _ok(at)
    [a] = cs.assignments(c.id)
    bank = load_starter("international")
    assert (a.title, a.kind, a.size, a.due) == ("Week 1: openings", "bank", len(bank.questions),
                                                date.today() + timedelta(days=7))
    drill = _page("drill", tmp_path, monkeypatch, BOB)
    assert f"Week 1: openings · Thursday juniors · 0 of {a.size} questions right" in " ".join(
        t.value for t in drill.text)
    drill.button(key=f"dr_asg_{a.id}").click().run()
    _ok(drill)
    q = drill.session_state["dr_queue"][0]
    assert len(drill.session_state["dr_queue"]) == a.size and drill.session_state["dr_assignment"] == a.id
    wrong = next(k for k, ch in enumerate(q.choices) if not q.is_correct(ch))
    drill.button(key=f"dr_pick_{wrong}").click().run()
    drill.button(key="dr_answer").click().run()
    assert not drill.exception and [e.value.startswith("Not quite.") for e in drill.error] == [True]
    assert [(x["member"], x["question"], x["correct"]) for x in cs.answers(a.id)] == [(BOB_ID, q.id, False)]
    at.run()
    student_rows = at.dataframe[0].value
    assert list(student_rows["student"]) == ["Bob Varghese"] and list(student_rows[a.title]) == [f"0/{a.size}"]
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    per_student = frames[("student", "answers", "right", "questions right", "last answer", "status")]
    assert per_student.iloc[0]["answers"] == 1 and per_student.iloc[0]["right"] == "0%"
    missed = frames[("question", "prompt", "idea", "answers", "missed", "missed by")]
    assert list(missed["question"]) == [q.id] and list(missed["missed by"]) == ["Bob Varghese"]


def test_an_assigned_deal_is_played_from_the_play_page_and_shown_to_the_coach(tmp_path, monkeypatch):
    cs = ClassStore(tmp_path / "progress.sqlite3")
    c = cs.create(ANN_ID, "Ann Mathew", "Juniors")
    cs.join(c.code, BOB_ID, "Bob Varghese")
    t = Table.make(4)
    d = AssignedDeal(str(random_deal(t, seed=5)), 4, t.deck, t.teams, "international", seat=2, seed=5, bot="rules")
    a = cs.assign_deals(c.id, ANN_ID, [d], date.today(), "A hand to bid")
    play = _page("play", tmp_path, monkeypatch, BOB)
    play.button(key=f"pl_asg_{a.id}_0").click().run()
    _ok(play)
    hand = _hand(play)
    assert (str(hand.deal), hand.seat, hand.seed, hand.bot, hand.mode) == (d.deal, 2, 5, "rules", "practice")
    _bid_to_the_end(play)
    _play_to_the_end(play)
    hand = _hand(play)
    out = hand.outcome()
    [p] = cs.played(a.id)
    assert (p.name, p.result.auction, p.result.contract, p.result.points, p.result.made) == \
        ("Bob Varghese", " ".join(hand.calls), str(out.contract), out.result.declarer_points, out.made)
    assert any("Handed in to Juniors" in s.value for s in play.success)
    play.run()
    assert not [b for b in play.button if (b.key or "").startswith("pl_asg_")]  # nothing left to play
    coach = _page("classes", tmp_path, monkeypatch, ANN)
    coach.selectbox(key="cl_pick").set_value(a.id).run()
    frames = [d.value for d in coach.dataframe if "auction" in d.value.columns]
    assert [list(f["student"]) for f in frames] == [["Bob Varghese"]]
    assert frames[0].iloc[0]["auction"] == " ".join(hand.calls)
