"""Problems page: graded play problems at five levels, with a score per level.

Find the card (every hand shown, one card keeps or beats the contract) and the opening lead
(your hand and the auction, scored by simulation). Missed problems come back through the
same schedule as the bidding ideas."""
from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from functools import partial

import pandas as pd
import streamlit as st

from fiftysix.analyser.solver import BudgetExceeded, Cancelled
from fiftysix.cards import Table
from fiftysix.drills import problem_sets as sets
from fiftysix.drills.problem_prep import ahead_of, checked
from fiftysix.drills.problems import (
    FIND_CARD,
    LEAD_MARGIN,
    LEVELS,
    OPENING_LEAD,
    PROBLEM_TYPES,
    consistency,
    level_of,
)
from fiftysix.drills.progress import ProgressStore
from fiftysix.drills.questions import Question
from fiftysix.drills.schedule import GRADE_WORDS, GRADES, in_words, preview
from fiftysix.errors import FiftySixError
from fiftysix.ui import heavy
from fiftysix.ui.components import key_hint, page_start, warm_solver, words, words_for
from fiftysix.ui.jobs import run_cancellable
from fiftysix.ui.problem_parts import add_to_bank, answer_table, draw_problem, larder, stock_on
from fiftysix.ui.render import card_words, md_text

KIND_WORDS = {FIND_CARD: "Find the card", OPENING_LEAD: "Opening lead"}
JOB_SLACK = 5.0  # seconds the heavy job's cap allows past the problem's own limit (which ends the search)
WATCH_EVERY = 1.0  # seconds between two looks at a problem being made ahead


@st.cache_resource(show_spinner=False)
def starter(players: int, deck: int, teams: str) -> list[Question]:
    return sets.starter_problems(Table(players, deck, teams))


def levels_panel(scores, opened) -> None:
    rows = []
    for lv in LEVELS:
        s = scores[lv]
        rows.append({"level": lv, "open": lv in opened, "solved": f"{s.solved} of {s.tried}",
                     "right": f"{s.share:.0%}" if s.answers else "-", "done": s.mostly_solved})
    # walked at 390 px: six columns scrolled sideways for the last one; five narrow ones fit (310 px)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
        "level": st.column_config.NumberColumn("level", width=45),
        "open": st.column_config.CheckboxColumn("open", help="You may play this level's problems now.", width=50),
        "solved": st.column_config.TextColumn("solved", help="Problems solved, of those tried.", width=65),
        "right": st.column_config.TextColumn("right", help="The share of your answers that were right.", width=50),
        "done": st.column_config.CheckboxColumn("mostly solved", help="Enough solved to open the next level.",
                                                width=100)})
    open_now = ", ".join(str(lv) for lv in LEVELS if lv in opened)
    st.caption(f"Open now: level{'s' if len(opened) > 1 else ''} {open_now}. Level 1 is always open; each next "
               "level opens once the level below is mostly solved: "
               f"{sets.UNLOCK_SOLVED} problems solved and {sets.UNLOCK_SHARE:.0%} of its answers right. "
               "A level grows with the tricks left, the cards that look alike and how far the right card is "
               "from the one a beginner would play.")


def set_problem(q: Question | None) -> None:
    ss = st.session_state
    ss["pr_q"] = None if q is None else q.to_dict()
    ss["pr_answer"] = None
    ss["pr_graded"] = None
    ss["pr_answered_at"] = None
    ss["pr_t0"] = time.time()
    if q is not None:
        ss.setdefault("pr_seen", [])
        ss["pr_seen"].append(q.id)


def next_problem(known, store, level: int, kinds) -> bool:
    """Set the next problem from those known (due first, then new at this level); False if none."""
    q = sets.pick_problem(known, store.cards(), level, kinds, seed=secrets.randbelow(10**6),
                          skip=st.session_state.get("pr_seen", []))
    set_problem(q)
    return q is not None


def make_new(table, level: int, kind: str, kept, known) -> None:
    """Have the engine make a new problem now (progress, Cancel, a time limit)."""
    ss = st.session_state
    warm_solver()
    larder().close()  # the page makes it now: no search made ahead competes (what they found is kept)
    cancel = st.empty()
    cancel.button("Cancel", key="pr_cancel", icon=":material/stop:")
    bar = st.progress(0.0, text="Looking for a problem in the bots' hands...")
    skip = {q.id for q in known}
    limit = sets.default_seconds(table, kind)  # read here, in the server: the worker is told it
    try:
        q = run_cancellable(partial(heavy.make_problem, table, level, kind, secrets.randbelow(10**6),
                                    frozenset(skip), kept, limit), "Making a problem", limit + JOB_SLACK,
                            on_progress=lambda f, words: bar.progress(f, text=words))
    except (Cancelled, BudgetExceeded):
        q = None
    except FiftySixError as e:
        st.error(md_text(e))
        q = None
    finally:
        cancel.empty()
        bar.empty()
    if q is None:
        ss["pr_note"] = "No new problem turned up in time; try again (another set of hands is tried each time)."
        return
    bad = checked(q)
    if bad:
        ss["pr_note"] = "The problem made did not hold when checked again, so it is not shown: " + "; ".join(bad)
        return
    show_new(q, kept)


def show_new(q: Question, kept) -> None:
    """A problem the engine made (and checked) becomes the one shown, kept so that it can come back."""
    try:
        kept.add(q)
    except FiftySixError as e:
        st.session_state["pr_note"] = f"The problem could not be kept for later ({e}); it is shown all the same."
    set_problem(q)


def kinds_at(level: int, kinds) -> list[str]:
    return [k for k in kinds if k != OPENING_LEAD or level in sets.LEAD_LEVELS]


def prepare_ahead(table, level: int, kinds, known, store) -> None:
    """While the learner works on a problem: for each kind with at most ``ahead_of`` known
    problems of this level left that the learner has not met (2; 8 for leads at 6 and 8
    players, which take long to make), have the server make the next ones ahead (in the
    background; the larder keeps ``depth_of`` ready)."""
    if not sets.has_hands(table):
        return
    seen = set(st.session_state.get("pr_seen", []))
    cards = store.cards()
    skip = {q.id for q in known} | seen
    for kind in kinds_at(level, kinds):
        left = [q for q in known if q.type == kind and level_of(q) == level and q.id not in seen
                and q.template not in cards]
        if len(left) <= ahead_of(table, kind):
            larder().want(table, kind, level, skip)
            if kind == OPENING_LEAD:  # and every hand's lead, for the levels to come (once a server)
                larder().survey(table)


def take_ahead(table, level: int, kinds, known, kept) -> bool:
    """Show a problem made ahead, if one of the kinds asked is ready (the other kind than the
    last one first); False if none is."""
    ss = st.session_state
    skip = {q.id for q in known} | set(ss.get("pr_seen", []))
    order = sorted(kinds_at(level, kinds), key=lambda k: k == ss.get("pr_last_kind"))
    for kind in order:
        q = larder().take(table, kind, level, skip)
        if q is not None:
            show_new(q, kept)
            return True
    return False


def take_stock(table, level: int, kinds, known, kept) -> bool:
    """Show an opening lead from the server's stock (``ProblemStore.stocked``: leads the engine
    made in the background for every learner here) that this learner has not met, if one of
    this level is there and its data holds together; False if none is."""
    if OPENING_LEAD not in kinds_at(level, kinds):
        return False
    skip = {q.id for q in known} | set(st.session_state.get("pr_seen", []))
    while (q := kept.stocked(table, level, skip)) is not None:
        if not consistency(q):
            show_new(q, kept)
            return True
        skip.add(q.id)  # a stored problem whose data does not hold together is never shown
    return False


def fill_on_visit(table) -> None:
    """From the first visit to this page at a table, the server fills its stock of opening
    leads in the background (below every page's work), so that a learner past the shipped ones
    finds new ones at once. ``FIFTYSIX_PROBLEM_STOCK=0`` turns it off."""
    if stock_on() and sets.has_hands(table):
        larder().survey(table)


@st.fragment(run_every=WATCH_EVERY)
def watch_ahead(table, level: int, kind: str, kinds) -> None:
    """How the problem made ahead is going (refreshed every second); the page moves on to it
    as soon as it is ready."""
    if any(larder().ready(table, k, level) for k in kinds_at(level, kinds)):
        st.rerun(scope="app")
    wish = larder().progress(table, kind, level)
    if wish is None:
        return
    if wish.done:
        st.caption(f"The engine stopped making a problem ahead ({md_text(wish.note)}).")
        return
    st.progress(min(0.99, wish.fraction), text=f"The engine is making one ahead: {md_text(wish.words)} "
                f"({time.monotonic() - wish.started:.0f} s so far)")


def show_note() -> None:
    """What the page has to say since its last run (shown once, on the run that stays)."""
    if note := st.session_state.pop("pr_note", None):
        st.info(md_text(note))


def answer(q: Question, store, choice: str) -> None:
    ss = st.session_state
    if ss.get("pr_answer") is not None:
        return
    correct = q.is_correct(choice)
    seconds = time.time() - ss.get("pr_t0", time.time())
    ss["pr_answer"] = (choice, correct)
    try:
        ss["pr_before"] = store.cards().get(q.template)  # for when each grade would bring it back
        card = store.record_answer(q, choice, correct=correct, seconds=seconds, source=sets.SOURCE)
        ss["pr_due"], ss["pr_answered_at"] = card.due, card.last_review
    except FiftySixError as e:
        ss["pr_note"] = f"Your answer was not saved to your progress ({e})."


def grade(store, rating) -> None:
    try:
        card = store.regrade_last(rating)
        st.session_state["pr_due"] = card.due
        st.session_state["pr_graded"] = GRADE_WORDS[rating]
    except FiftySixError as e:
        st.session_state["pr_note"] = str(e)


def ask(q: Question, store) -> None:
    ss = st.session_state
    st.markdown(f"##### {KIND_WORDS[q.type]} · level {level_of(q)}")
    draw_problem(q)
    st.text(card_words(q.prompt))
    given = ss.get("pr_answer")
    ss["pr_last_kind"] = q.type
    cols = st.columns(min(len(q.choices), 8))
    for i, c in enumerate(q.choices):
        mark = ""
        if given is not None:
            mark = " ✓" if q.is_correct(c) else (" ✗" if c == given[0] else "")
        # once answered the keys grade the answer (2-4, as on the Drill), so the cards give up theirs
        cols[i % len(cols)].button(f"{md_text(card_words(c))}{mark}", key=f"pr_card_{i}", on_click=answer, args=(q, store, c),
                                   disabled=given is not None, width="stretch",
                                   shortcut=str(i + 1) if i < 9 and given is None else None)
    if given is None:
        st.caption("Pick a card.")
        key_hint(f"Keys: 1-{min(len(q.choices), 9)} pick a card.", key="pr_pick")
        return
    choice, correct = given
    if correct:
        st.success(f"Right: {md_text(card_words(choice))}.")
    else:
        st.error(f"Not quite: {md_text(card_words(choice))} is wrong. "
                 f"Right: {md_text(' / '.join(map(card_words, q.answers)))}.")
    st.text(card_words(q.explanation))  # A♠ and 10♦, as on the cards, not the notation's AS and TD
    if q.type == OPENING_LEAD:
        st.caption(f"Each lead was tried on the same {len(q.data.get('layouts', []))} deals, every card known "
                   f"after the lead (double-dummy); leads within {LEAD_MARGIN:.0%} of the best count as right.")
    rows = answer_table(q)
    st.dataframe(pd.DataFrame(rows), hide_index=True, column_config={
        "right": st.column_config.CheckboxColumn("right?"),
        "your side's chance": st.column_config.NumberColumn(format="percent")})
    at = ss.get("pr_answered_at")
    if correct:
        # walked: the Drill says when each grade brings an idea back; here the grades said nothing
        try:
            due_by = preview(ss.get("pr_before"), q.template, at, store.scheduler()) if at is not None else {}
        except FiftySixError:
            due_by = {}
        st.caption("How hard was it? Your grade sets when this problem comes back.")
        key_hint("Keys: 2 Hard, 3 Good, 4 Easy.", key="pr_grade")
        g = st.columns(len(GRADES))
        for k, (col, rating) in enumerate(zip(g, GRADES), start=2):
            when = f" · {in_words(due_by[rating] - at)}" if at is not None and rating in due_by else ""
            col.button(GRADE_WORDS[rating] + when, key=f"pr_grade_{int(rating)}", on_click=grade,
                       args=(store, rating), disabled=ss.get("pr_graded") is not None, width="stretch",
                       shortcut=str(k) if ss.get("pr_graded") is None else None)
    due = ss.get("pr_due")
    if due is not None:
        st.caption(f"This problem comes back {in_words(due - datetime.now(UTC))}.")
    c1, c2 = st.columns(2)
    c1.button("Next problem", key="pr_next", type="primary", icon=":material/arrow_forward:",
              on_click=ss.__setitem__, args=("pr_q", None), shortcut="Enter")
    if c2.button("Add to my bank (for a coach)", key="pr_bank", icon=":material/add:"):
        try:
            st.success(md_text(add_to_bank(q)))
        except (FiftySixError, OSError) as e:
            st.error(f"The problem could not be added: {md_text(e)}")


settings = page_start("Play problems", "Find the card that keeps (or beats) the contract, and the best opening "
                      "lead: five levels, checked by the solver. Problems you miss come back.")
table = settings.table
# the words a problem is told in (walked in Chromium: "Seat 4 to play (defenders)" and no glossary at hand)
words("trick", "lead", "contract", "declarer", "defenders", "target", "card points", "double-dummy", key="pr_words")
try:
    store = ProgressStore(learner=settings.user.id)
    kept = sets.ProblemStore()
except FiftySixError as e:
    st.error(md_text(e))
    st.stop()

ss = st.session_state
fill_on_visit(table)
known = starter(table.players, table.deck, table.teams) + kept.problems(table)
scores = sets.level_scores(store.history(), table)
opened = sets.open_levels(scores)
with st.expander("Levels and scores", expanded=False):
    levels_panel(scores, opened)

if ss.get("pr_level") not in opened:  # a level that closed again (its share fell): the highest open one
    ss.pop("pr_level", None)
c1, c2 = st.columns([1, 2])
level = c1.selectbox("Level", [lv for lv in LEVELS if lv in opened], index=len(opened) - 1, key="pr_level",
                     on_change=ss.__setitem__, args=("pr_q", None))  # another level: a problem of it
kinds = c2.pills("Problems", list(PROBLEM_TYPES), format_func=words_for(KIND_WORDS), selection_mode="multi",
                 default=list(PROBLEM_TYPES), key="pr_kinds") or list(PROBLEM_TYPES)
here = scores[level]
score = (f"Level {level}: {here.solved} problem(s) solved of {here.tried} tried, "
         f"{here.share:.0%} of {here.answers} answer(s) right." if here.answers else f"Level {level}: no answers yet.")
if len(opened) < len(LEVELS):
    score += (f" Level {len(opened) + 1} opens when level {len(opened)} is mostly solved "
              f"({sets.UNLOCK_SOLVED} solved, {sets.UNLOCK_SHARE:.0%} right).")
st.caption(score)
q = Question.from_dict(ss["pr_q"]) if ss.get("pr_q") else None
if q is not None and (q.context.players, q.context.deck, q.context.teams) != (table.players, table.deck, table.teams):
    q = None  # the sidebar moved to another table
if q is not None and q.type not in kinds and ss.get("pr_answer") is None:
    q = None  # walked: with only "Opening lead" chosen, the unanswered "Find the card" problem stayed
if q is not None and (bad := consistency(q)):  # never a problem whose data does not hold together
    ss["pr_note"] = "That problem's data does not hold together, so it is not shown: " + "; ".join(bad)
    ss["pr_q"], q = None, None
if q is None:
    if not known and not sets.has_hands(table):
        st.info("Play problems exist for 4, 6 and 8 players with the usual deck and odd-v-even teams; "
                "choose one of those in the sidebar.")
        st.stop()
    if next_problem(known, store, level, kinds) or (sets.has_hands(table) and (
            take_ahead(table, level, kinds, known, kept) or take_stock(table, level, kinds, known, kept))):
        st.rerun()
    show_note()
    first_lead = sets.LEAD_LEVELS[0]
    if set(kinds) == {OPENING_LEAD} and level not in sets.LEAD_LEVELS:
        # walked: "You have met every problem of level 1" where level 1 has no opening leads at all
        st.info(f"Opening lead problems run from level {first_lead} to {sets.LEAD_LEVELS[-1]}: "
                + (f"choose level {first_lead} above." if first_lead in opened else
                   f"level {first_lead} opens once level {first_lead - 1} is mostly solved. Meanwhile, choose "
                   "'Find the card'."))
        st.stop()
    st.info(f"You have met every problem of level {level} kept here, and none is due again yet. "
            "The engine can make a new one from the bots' hands.")
    kind = st.radio("Kind", list(kinds), format_func=words_for(KIND_WORDS), horizontal=True, key="pr_make_kind")
    if kind == OPENING_LEAD and level not in sets.LEAD_LEVELS:
        st.caption(f"Opening lead problems run from level {sets.LEAD_LEVELS[0]} to {sets.LEAD_LEVELS[-1]}.")
    else:
        if sets.has_hands(table):
            prepare_ahead(table, level, kinds, known, store)
            watch_ahead(table, level, kind, kinds)
        if st.button("Make a new problem now", key="pr_make", type="primary"):
            make_new(table, level, kind, kept, known)
            st.rerun()
else:
    show_note()
    ask(q, store)
    prepare_ahead(table, level, kinds, known, store)
