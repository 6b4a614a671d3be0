"""A student's class assignments on the Drill and Play pages, and handing in an assigned deal.

The Class page (ui/pages/classes.py) is the coach's side; these are the student's: the open
assignments with their due dates, a button that starts one, and, at the end of an assigned
deal played as assigned, its result sent to the class (the first try only).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date

import streamlit as st

from fiftysix.drills import practice as P
from fiftysix.drills.classes import AssignedDeal, Assignment, Class, ClassStore, DealResult
from fiftysix.errors import FiftySixError
from fiftysix.records import format_record
from fiftysix.ui.components import user


def due_words(a: Assignment, today: date | None = None) -> str:
    """``due today``, ``due in 3 days (Fri 11 Dec)``, ``3 days overdue``."""
    days = (a.due - (today or date.today())).days
    when = a.due.strftime("%a %d %b")
    if days == 0:
        return f"due today ({when})"
    if days > 0:
        return f"due in {days} day{'s' if days != 1 else ''} ({when})"
    return f"{-days} day{'s' if days != -1 else ''} overdue ({when})"


def _store() -> ClassStore | None:
    try:
        return ClassStore()
    except FiftySixError as e:
        st.warning(f"Your class assignments cannot be shown: {e}")
        return None


def _open(kind: str) -> list[tuple[Assignment, Class, int]]:
    """The user's assignments of this kind that are not done yet: (assignment, class, done)."""
    cs = _store()
    if cs is None:
        return []
    me = user().id
    out = []
    for a, c in cs.assigned_to(me, kind):
        done = cs.done(a, me)
        if done < a.size:
            out.append((a, c, done))
    return out


def drill_assignments(start: Callable[[list, str, int], None]) -> None:
    """The Drill page's list of open bank assignments; ``start(questions, title, id)`` begins one
    (the questions not yet answered right first)."""
    items = _open("bank")
    if not items:
        return
    with st.container(border=True):
        st.markdown("**Your class assignments**")
        for a, c, done in items:
            cols = st.columns([4, 1])
            cols[0].text(f"{a.title} · {c.name} · {done} of {a.size} questions right · {due_words(a)}")
            cols[1].button("Drill it", key=f"dr_asg_{a.id}", icon=":material/assignment:", on_click=_drill,
                           args=(a.id, start), width="stretch")


def _drill(assignment_id: int, start: Callable[[list, str, int], None]) -> None:
    cs = ClassStore()
    a = cs.assignment(assignment_id)
    me = user().id
    right = {x["question"] for x in cs.answers(a.id) if x["member"] == me and x["correct"]}
    qs = list(a.bank.questions)
    start([q for q in qs if q.id not in right] + [q for q in qs if q.id in right], a.title, a.id)


def play_assignments() -> None:
    """The Play page's list of assigned deals not played yet, each with a button that sits the
    student at it as assigned."""
    items = _open("deals")
    if not items:
        return
    cs = ClassStore()
    me = user().id
    with st.container(border=True):
        st.markdown("**Your class assignments**")
        for a, c, done in items:
            played = {p.deal for p in cs.played(a.id) if p.member == me}
            st.text(f"{a.title} · {c.name} · {done} of {a.size} deals played · {due_words(a)}")
            cols = st.columns(min(6, a.size))
            for i, d in enumerate(a.deals):
                if i not in played:
                    cols[i % len(cols)].button(f"Deal {i + 1}", key=f"pl_asg_{a.id}_{i}", icon=":material/style:",
                                               on_click=sit_at, args=(d,))


def sit_at(d: AssignedDeal) -> None:
    """Set the Play page's table, deal, seat, bots and mode to an assigned deal's."""
    ss = st.session_state
    ss["players"], ss["deck"], ss["teams"], ss["system"] = d.players, d.deck, d.teams, d.system
    ss["pl_from"], ss["pl_deal"], ss["pl_seat"] = "written", d.deal, d.seat
    ss["pl_seed"], ss["pl_bot"], ss["pl_mode"] = d.seed, d.bot, d.mode
    ss.pop("pl_table", None)


def _matches(d: AssignedDeal, pt: P.PracticeTable) -> bool:
    return (d.table == pt.table and d.system == pt.system and d.seat == pt.seat and d.seed == pt.seed
            and d.bot == pt.bot and d.deal == str(pt.deal))


def hand_in(pt: P.PracticeTable) -> None:
    """At the end of a hand: where it is an assigned deal played as assigned, send the first try's
    auction, contract and result to the class, and say so."""
    cs = _store()
    if cs is None:
        return
    me = user()
    for a, c in cs.assigned_to(me.id, "deals"):
        for i, d in enumerate(a.deals):
            if not _matches(d, pt):
                continue
            if d.mode != pt.mode:
                st.info(f"This is deal {i + 1} of {a.title} ({c.name}), assigned in {d.mode} mode: play it in "
                        f"{d.mode} mode to hand it in.")
                continue
            out = pt.outcome()
            record = format_record(pt.to_record(event=f"{c.name}: {a.title}, deal {i + 1}", player=me.name))
            result = DealResult(" ".join(pt.calls), str(out.contract), out.contract.declarer,
                                out.result.declarer_points, out.made, out.your_score, record)
            try:
                sent = cs.submit_deal(a.id, i, me.id, result)
            except FiftySixError as e:
                st.warning(f"This hand could not be sent to {c.name}: {e}")
                continue
            st.success(f"Handed in to {c.name}: deal {i + 1} of {a.title}." if sent else
                       f"Your first try at deal {i + 1} of {a.title} is the one {c.name} sees; this one is practice.")
