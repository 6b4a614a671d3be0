"""Drill: a spaced-repetition quiz over the five question types, with immediate feedback and a
session summary."""
from __future__ import annotations

import time

import streamlit as st

from fiftysix.cards import Hand
from fiftysix.errors import FiftySixError
from ui import render
from ui.components import need, page_start, show

PER_TYPE = 6  # questions generated per type for a session's pool
SLOW_TYPES = ("makeable",)  # fewer of these per pool: each question simulates deals


def make_pool(settings, types: list[str], seed: int) -> list:
    """Generate the question pool type by type, with a progress bar (makeable ones simulate)."""
    from drills.generate import Generator
    t = settings.table
    bar = st.progress(0.0, text="Dealing and bidding practice hands...")
    pool = []
    for i, qtype in enumerate(types):
        bar.progress(i / len(types), text=f"Making '{qtype}' questions...")
        count = 1 if qtype in SLOW_TYPES else PER_TYPE
        pool += Generator(settings.system, t, seed * 10 + i).questions(count, [qtype])
    bar.empty()
    return pool


def start_session(settings, store, types: list[str], length: int, practise: bool) -> None:
    """Pick the session's questions: due ideas first, then new ones (or any, to practise)."""
    ss = st.session_state
    seed = ss.get("dr_sessions", 0) + 1
    ss["dr_sessions"] = seed
    try:
        pool = make_pool(settings, types, seed)
    except FiftySixError as e:
        st.error(f"Could not make questions: {e}")
        return
    picked = pool[:length] if practise else store.next_questions(pool, length, seed=seed)
    ss["dr_queue"] = picked
    ss["dr_i"] = 0
    ss["dr_results"] = []
    ss["dr_answered"] = None
    ss["dr_t0"] = time.time()


def show_context(q) -> None:
    """The situation: table, auction so far (calls as chips) and the learner's hand (cards)."""
    c = q.context
    st.caption(c.describe())
    try:
        from fiftysix.bidding import Auction
        a = Auction.parse(c.auction, c.system, c.table)
        rows = [(r.seat, str(r.call), r.meaning.label, r.meaning.sentence) for r in a.calls]
    except (ImportError, FiftySixError):
        rows = []
    if rows:
        show(render.auction_html(c.table, rows))
    elif c.auction:
        st.code(c.auction, language=None)
    if c.hand:
        hand = Hand.parse(c.hand)
        show(f'<div style="margin:.4em 0 .8em">{render.hand_html(hand)} '
             f'<span style="font:.85em sans-serif;margin-left:1em">seat {c.seat}, {hand.points} points</span></div>')


def ask(q, store, questions_mod) -> None:
    """One question: choices, then feedback with the explanation."""
    ss = st.session_state
    i = ss["dr_i"]
    st.markdown(f"##### Question {i + 1} of {len(ss['dr_queue'])} · {questions_mod.TYPE_TITLES.get(q.type, q.type)}")
    show_context(q)
    st.markdown(f"**{q.prompt}**")
    answered = ss.get("dr_answered")
    choice = st.radio("Your answer", q.choices, index=None, key=f"dr_choice_{i}_{q.id}",
                      disabled=answered is not None, label_visibility="collapsed")
    if answered is None:
        if st.button("Answer", key="dr_answer", type="primary", disabled=choice is None):
            correct = q.is_correct(choice)
            seconds = time.time() - ss.get("dr_t0", time.time())
            try:
                store.record_answer(q, choice, correct=correct, seconds=seconds)
            except FiftySixError as e:
                st.warning(f"Your answer was not saved: {e}")
            ss["dr_answered"] = (choice, correct)
            ss["dr_results"].append({"question": q.id, "type": q.type, "family": q.family or "-",
                                     "your answer": choice, "right": correct, "seconds": round(seconds, 1)})
            st.rerun()
        return
    choice, correct = answered
    right = ", ".join(q.answers)
    if correct:
        st.success(f"Right: {choice}")
    else:
        st.error(f"Not quite. The answer: {right}")
    if q.explanation:
        st.info(q.explanation)
    if st.button("Next question", icon=":material/arrow_forward:", key="dr_next", type="primary"):
        ss["dr_i"] = i + 1
        ss["dr_answered"] = None
        ss["dr_t0"] = time.time()
        st.rerun()


def summary() -> None:
    ss = st.session_state
    results = ss.get("dr_results", [])
    right = sum(r["right"] for r in results)
    st.subheader("Session summary")
    c1, c2, c3 = st.columns(3)
    c1.metric("Score", f"{right} / {len(results)}")
    c2.metric("Accuracy", f"{right / len(results):.0%}" if results else "-")
    c3.metric("Time", f"{sum(r['seconds'] for r in results):.0f} s")
    st.dataframe(results, hide_index=True)
    wrong = [r for r in results if not r["right"]]
    if wrong:
        st.caption("These ideas come back sooner: " + ", ".join(sorted({f"{r['type']} ({r['family']})"
                                                                        for r in wrong})))


settings = page_start("Drill", "Short quizzes that come back at the right time: ideas you miss return "
                      "soon, ideas you know wait longer.")
questions_mod = need("drills.questions")
need("drills.generate")
progress_mod = need("drills.progress")
from drills.generate import default_types, simulator_available  # noqa: E402  (after the availability check)

try:
    store = progress_mod.ProgressStore(learner=settings.player)
except FiftySixError as e:
    st.error(str(e))
    st.stop()

ss = st.session_state
queue = ss.get("dr_queue")
if not queue or ss.get("dr_i", 0) >= len(queue):
    if queue:
        summary()
    with st.form("dr_setup"):
        available = [t for t in questions_mod.QUESTION_TYPES if t != "makeable" or simulator_available()]
        types = st.multiselect("Question types", available, default=list(default_types(settings.table)),
                               key="dr_types", format_func=lambda k: questions_mod.TYPE_TITLES.get(k, k),
                               help="'Makeable?' questions simulate a hundred deals each (about a second at "
                                    "4 and 6 players, much longer at 8).")
        c1, c2 = st.columns(2)
        length = c1.select_slider("Questions", [3, 5, 10, 15, 20], value=5, key="dr_len")
        practise = c2.toggle("Practise anyway (ignore the schedule)", key="dr_practise")
        go = st.form_submit_button("Start a session" if not queue else "Another session", type="primary")
    st.caption(f"{settings.player}: {store.due_count()} idea(s) due for review.")
    if go:
        if not types:
            st.error("Choose at least one question type.")
        else:
            start_session(settings, store, types, length, practise)
            if not ss.get("dr_queue"):
                st.info("Nothing is due and today's new ideas are used up. Come back later, or tick "
                        "'Practise anyway'.")
            else:
                st.rerun()
else:
    ask(queue[ss["dr_i"]], store, questions_mod)
