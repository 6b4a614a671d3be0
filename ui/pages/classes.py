"""Class page: a coach's classes and their results; a student's classes and what is due.

A coach starts a class (a join code), sees its students, assigns and reads what each student
did; a student joins with the code and sees what is assigned and when it is due.

Everything is kept by ``drills.classes``; the Drill and Play pages show a student's open
assignments and hand them in (ui/class_parts.py).
"""
from __future__ import annotations

from datetime import date, timedelta

import streamlit as st

from fiftysix.bots import BIDDING_BOTS, DEFAULT_BOT
from fiftysix.cards import Deal, random_deal
from fiftysix.drills import banks
from fiftysix.drills.classes import AssignedDeal, Assignment, Class, ClassError, ClassStore
from fiftysix.drills.practice import MODES
from fiftysix.drills.questions import idea_title
from fiftysix.errors import FiftySixError
from fiftysix.ui import render
from fiftysix.ui.class_parts import due_words
from fiftysix.ui.club import club
from fiftysix.ui.components import owner, page_start, read_upload, show, user, user_library, words_for
from fiftysix.ui.render import md_text

DUE_IN = 7  # days: a new assignment is due a week on, unless the coach says otherwise
MAX_DEALS = 12


def said(kind: str, text: str) -> None:
    """Keep a message for the next run (a button's callback cannot draw)."""
    st.session_state["cl_said"] = (kind, text)


def tell() -> None:
    kind, text = st.session_state.pop("cl_said", (None, ""))
    if kind:
        getattr(st, kind)(md_text(text))  # class and people's names: as typed


# --- a student's side -------------------------------------------------------------------------

def join(cs: ClassStore) -> None:
    code = st.session_state.get("cl_code", "")
    me = user()
    try:
        c = cs.join(code, me.id, me.name)
    except FiftySixError as e:
        said("error", str(e))
        return
    st.session_state["cl_code"] = ""
    said("success", f"You joined {c.name} (coach: {c.coach_name}).")


def leave(cs: ClassStore, class_id: int) -> None:
    cs.leave(class_id, user().id)
    said("success", "You left the class.")


def student(cs: ClassStore) -> None:
    me = user()
    with st.form("cl_join_form", border=False):
        c1, c2 = st.columns([3, 1])
        c1.text_input("Join a class with its code", key="cl_code", placeholder="ABCD-EFGH", max_chars=20)
        c2.form_submit_button("Join", type="primary", on_click=join, args=(cs,), width="stretch")
    classes = cs.joined_by(me.id)
    if not classes:
        st.caption("You are in no class yet: ask your coach for the class's join code.")
        return
    for c in classes:
        with st.container(border=True):
            st.markdown("**Class**")
            st.text(f"{c.name} · coach {c.coach_name}")
            rows = []
            for a in cs.assignments(c.id):
                done = cs.done(a, me.id)
                rows.append({"assignment": a.title, "what": "questions (Drill page)" if a.kind == "bank"
                             else "deals (Play page)", "done": f"{done} of {a.size}",
                             "due": due_words(a) if done < a.size else "done"})
            if rows:
                st.dataframe(rows, hide_index=True)
            else:
                st.caption("Nothing is assigned yet.")
            st.button("Leave this class", key=f"cl_leave_{c.id}", on_click=leave, args=(cs, c.id))


# --- a coach's side ---------------------------------------------------------------------------

def create(cs: ClassStore) -> None:
    me = user()
    try:
        c = cs.create(me.id, me.name, st.session_state.get("cl_new_name", ""))
    except FiftySixError as e:
        said("error", str(e))
        return
    st.session_state["cl_class"] = c.id
    st.session_state["cl_new_name"] = ""
    said("success", f"Class started: give your students its join code, {c.show_code()}.")


def act(fn, *args, done: str = "") -> None:
    """Run a store change from a button; keep its message (or its error) for the page."""
    try:
        fn(*args)
    except FiftySixError as e:
        said("error", str(e))
        return
    if done:
        said("success", done)


def students_tab(cs: ClassStore, c: Class, work: list[Assignment]) -> None:
    members = cs.members(c.id)
    if not members:
        st.info(f"No student has joined yet. The join code is {c.show_code()}: students type it on this page.")
        return
    rows = []
    for m in members:
        row = {"student": m.name, "joined": m.joined_at[:10]}
        for a in work:
            done = cs.done(a, m.member)
            row[a.title] = f"{done}/{a.size}" + (" (late)" if done < a.size and a.overdue() else "")
        rows.append(row)
    st.dataframe(rows, hide_index=True)
    names = {m.member: m.name for m in members}
    c1, c2 = st.columns([3, 1])
    who = c1.selectbox("Student", list(names), format_func=words_for(names), key="cl_remove_who")
    c2.button("Take off the list", key="cl_remove", on_click=act, width="stretch",
              args=(cs.remove, c.id, user().id, who), kwargs={"done": "Taken off the class's list."})


def bank_to_assign() -> banks.Bank | None:
    """The bank to assign: the coach's working bank, a starter bank, or a file."""
    source = st.radio("Bank", ["mine", "starter", "file"], horizontal=True, key="cl_bank_from",
                      format_func=words_for({"mine": "my working bank (Coach page)", "starter": "a starter bank",
                                   "file": "a bank file"}))
    try:
        if source == "mine":
            bank = banks.load_working_bank(owner=owner())
            if bank is None or not bank.questions:
                st.info("Your working bank is empty: build one on the Coach page, or choose another.")
                return None
            return bank
        if source == "starter":
            name = st.selectbox("Starter bank", banks.starter_names(), key="cl_starter")
            return banks.load_starter(name)
        up = st.file_uploader("Bank file (JSON, CSV, GIFT, Anki)", type=["json", "csv", "gift", "txt"],
                              key="cl_bank_file")
        text = read_upload(up)
        if up is None or text is None:
            return None
        return banks.import_text(text, banks.guess_format(up.name, text), up.name,
                                     st.session_state.get("system"))
    except FiftySixError as e:
        st.error(f"The bank cannot be used: {md_text(e)}")
        return None


def deals_to_assign(settings) -> list[AssignedDeal]:
    """The deals to assign: records from the coach's hand library, or deals dealt from a seed at
    the sidebar's table; the seat, bots and mode every student plays them with."""
    source = st.radio("Deals", ["seed", "library"], horizontal=True, key="cl_deals_from",
                      format_func=words_for({"seed": "dealt from a seed (the sidebar's table)",
                                   "library": "hands from my library"}))
    c1, c2, c3 = st.columns(3)
    seat = int(c1.number_input("Students sit in seat", 1, 8, 1, key="cl_seat"))
    bot = c2.selectbox("Bots", sorted(BIDDING_BOTS), index=sorted(BIDDING_BOTS).index(DEFAULT_BOT), key="cl_bot")
    mode = c3.selectbox("Mode", list(MODES), index=list(MODES).index("practice"), key="cl_mode",
                        help="practice: each student sees only their own hand; learning: every hand and hints")
    found: list[tuple[Deal, str]] = []
    if source == "seed":
        d1, d2 = st.columns(2)
        n = int(d1.number_input("How many deals", 1, MAX_DEALS, 4, key="cl_n"))
        first = int(d2.number_input("First seed", 0, 10**9, 1, key="cl_first"))
        found = [(random_deal(settings.table, seed=first + i), settings.system) for i in range(n)]
    else:
        lib = user_library()
        entries = lib.list(limit=500)
        if not entries:
            st.info("Your hand library is empty: save hands on the Play or Enter a hand page first.")
            return []
        names = {e.id: f"#{e.id} {e.event or 'hand'} {e.date} · {e.contract} · {e.players} players" for e in entries}
        ids = st.multiselect("Hands", list(names), format_func=words_for(names), key="cl_lib_ids",
                             max_selections=MAX_DEALS)
        found = [(r.deal, r.system) for r in lib.records(ids)]
    out = []
    for k, (deal, system) in enumerate(found):
        t = deal.table
        out.append(AssignedDeal(str(deal), t.players, t.deck, t.teams, system, seat=seat if seat in t.seats else 1,
                                seed=k + 1, bot=bot, mode=mode))
    return out


def assign_tab(cs: ClassStore, c: Class, settings) -> None:
    kind = st.segmented_control("Assign", ["bank", "deals"], default="bank", required=True, key="cl_kind",
                                format_func=words_for({"bank": "questions to drill", "deals": "deals to play"}))
    c1, c2 = st.columns([3, 1])
    title = c1.text_input("Title", key="cl_title", max_chars=80, placeholder="Week 3: responding to 28")
    due = c2.date_input("Due", value=date.today() + timedelta(days=DUE_IN), min_value=date.today(), key="cl_due")
    me = user().id
    if kind == "bank":
        bank = bank_to_assign()
        if bank is None:
            return
        st.caption(f"{len(bank.questions)} question(s) from the bank {md_text(repr(bank.title))}; the class gets a copy.")
        if st.button("Assign these questions", key="cl_assign", type="primary"):
            act(cs.assign_bank, c.id, me, bank, due, title or bank.title, done="Assigned.")
            st.rerun()
        return
    deals = deals_to_assign(settings)
    if not deals:
        return
    st.caption(f"{len(deals)} deal(s); every student plays them from seat {deals[0].seat} against the same "
               f"{deals[0].bot} bots, in {deals[0].mode} mode.")
    if st.button("Assign these deals", key="cl_assign", type="primary", disabled=not title.strip(),
                 help=None if title.strip() else "give the assignment a title"):
        act(cs.assign_deals, c.id, me, deals, due, title, done="Assigned.")
        st.rerun()


def bank_results(cs: ClassStore, a: Assignment) -> None:
    rep = cs.bank_report(a.id)
    st.markdown("**Per student**")
    st.dataframe([{"student": s.name, "answers": s.answered,
                   "right": f"{s.right / s.answered:.0%}" if s.answered else "-",
                   "questions right": f"{s.questions_done} of {s.questions}",
                   "last answer": (s.last or "")[:16].replace("T", " "),
                   "status": "done" if s.finished else ("late" if a.overdue() else "to do")}
                  for s in rep.students], hide_index=True)
    st.markdown("**Missed most**")
    st.dataframe([{"question": q.question, "prompt": q.prompt, "idea": idea_title(q.idea), "answers": q.answered,
                   "missed": q.missed, "missed by": ", ".join(q.students_missed)}
                  for q in rep.questions if q.answered], hide_index=True,
                 column_config={"prompt": st.column_config.TextColumn(width="large")})
    if rep.ideas:
        st.markdown("**Per student and idea** (right of answered)")
        grid: dict[str, dict[str, str]] = {}
        for name, idea, answered, right in rep.ideas:
            grid.setdefault(name, {"student": name})[idea_title(idea)] = f"{right}/{answered}"
        st.dataframe(list(grid.values()), hide_index=True)


def deal_results(cs: ClassStore, a: Assignment) -> None:
    played = cs.played(a.id)
    members = cs.members(a.class_id)
    for i, d in enumerate(a.deals):
        st.markdown(f"**Deal {i + 1}**")
        t = d.table
        deal = Deal.parse(d.deal, t)
        show(render.table_html(t, {s: deal.hand(s) for s in t.seats}, bottom=d.seat,
                               notes={d.seat: "<b>students</b>"}))
        rows = [{"student": p.name, "auction": p.result.auction, "contract": p.result.contract,
                 "by seat": p.result.declarer, "declarers took": p.result.points,
                 "result": "made" if p.result.made else "failed", "score": p.result.score}
                for p in played if p.deal == i]
        if rows:
            st.dataframe(rows, hide_index=True, column_config={"auction": st.column_config.TextColumn(width="large")})
        waiting = sorted({m.name for m in members} - {p.name for p in played if p.deal == i})
        if waiting:
            st.text("Not played yet: " + ", ".join(waiting))


def assignments_tab(cs: ClassStore, c: Class, work: list[Assignment]) -> None:
    if not work:
        st.info("Nothing is assigned yet (the Assign tab).")
        return
    by_id = {a.id: a for a in work}
    pick = st.selectbox("Assignment", list(by_id), key="cl_pick",
                        format_func=lambda i: f"{by_id[i].title} · {due_words(by_id[i])}")
    a = by_id[pick]
    if a.kind == "bank":
        bank_results(cs, a)
    else:
        deal_results(cs, a)
    st.button("Take this assignment back", key="cl_unassign", icon=":material/delete:", on_click=act,
              args=(cs.unassign, a.id, user().id), kwargs={"done": "Taken back."})


def due_tab(cs: ClassStore, c: Class, work: list[Assignment]) -> None:
    members = cs.members(c.id)
    rows = []
    for a in work:
        behind = [m.name for m in members if cs.done(a, m.member) < a.size]
        rows.append({"assignment": a.title, "due": due_words(a), "done": f"{len(members) - len(behind)} of "
                     f"{len(members)}", "not done yet": ", ".join(behind)})
    if rows:
        st.dataframe(rows, hide_index=True, column_config={"not done yet": st.column_config.TextColumn(width="large")})
    else:
        st.info("Nothing is assigned yet.")


def coach(cs: ClassStore, settings) -> None:
    me = user()
    with st.form("cl_new_form", border=False):
        c1, c2 = st.columns([3, 1])
        c1.text_input("Start a class", key="cl_new_name", max_chars=80, placeholder="Thursday juniors")
        c2.form_submit_button("Start", on_click=create, args=(cs,), width="stretch")
    mine = {c.id: c for c in cs.coached_by(me.id)}
    if not mine:
        return
    cid = st.selectbox("Class", list(mine), format_func=lambda i: mine[i].name, key="cl_class")
    c = mine[cid]
    c1, c2, c3 = st.columns([2, 1, 1])
    c1.metric("Join code", c.show_code(), help="Students type it on this page to join the class.")
    c2.button("New join code", key="cl_new_code", on_click=act, args=(cs.new_code, c.id, me.id),
              kwargs={"done": "A new join code: the old one no longer lets anyone join."})
    if c3.button("Close the class", key="cl_close"):
        st.session_state["cl_confirm_close"] = c.id
    if st.session_state.get("cl_confirm_close") == c.id:
        st.warning("Close the class? Its list, assignments and results go; the students keep their own progress.")
        y, n = st.columns(2)
        if y.button("Yes, close it", key="cl_close_yes", type="primary"):
            st.session_state.pop("cl_confirm_close")
            act(cs.delete, c.id, me.id, done="The class is closed.")
            st.rerun()
        if n.button("No", key="cl_close_no"):
            st.session_state.pop("cl_confirm_close")
            st.rerun()
    work = cs.assignments(c.id)
    t1, t2, t3, t4 = st.tabs(["Students", "What is due", "Results", "Assign"])
    with t1:
        students_tab(cs, c, work)
    with t2:
        due_tab(cs, c, work)
    with t3:
        assignments_tab(cs, c, work)
    with t4:
        assign_tab(cs, c, settings)


settings = page_start("Class", "A coach's class: students join with a code; the coach assigns questions or "
                      "deals with a due date and sees what each student did.")
try:
    store = ClassStore()
except (ClassError, FiftySixError) as e:
    st.error(md_text(e))
    st.stop()
tell()
the_club = club()
if the_club is None:
    st.caption("On this computer every player name in the sidebar is a student of its own; on a club server "
               "(README: Serving a club) each member signs in on their own device.")
may_coach = the_club is None or the_club.may_coach(user())
if may_coach:  # a coach's classes first for a coach, the classes joined first for a student
    coaching = bool(store.coached_by(user().id))
    names = ["My classes (coach)", "Classes I joined"]
    tabs = dict(zip(names if coaching else names[::-1], st.tabs(names if coaching else names[::-1])))
    with tabs["My classes (coach)"]:
        coach(store, settings)
    with tabs["Classes I joined"]:
        student(store)
else:
    student(store)
