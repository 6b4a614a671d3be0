"""Drill page: a spaced-repetition quiz over generated questions or a question bank.

Immediate feedback, keyboard shortcuts and a session summary."""
from __future__ import annotations

import math
import secrets
import time
from datetime import timedelta

import streamlit as st

from fiftysix.bidding import Auction
from fiftysix.cards import Hand, Table
from fiftysix.drills import banks, progress, questions
from fiftysix.drills.generate import Generator, default_types
from fiftysix.drills.questions import PROBLEM_IDEA, idea_title, parse_template
from fiftysix.drills.schedule import (
    GRADE_WORDS,
    GRADES,
    Rating,
    due_summary,
    in_words,
    practice_mix,
    preview,
    utcnow,
    when_words,
)
from fiftysix.errors import FiftySixError
from fiftysix.ui import render
from fiftysix.ui.class_parts import drill_assignments
from fiftysix.ui.components import (
    choice_in_url,
    in_url,
    key_hint,
    owner,
    page_start,
    read_upload,
    show,
    words,
)
from fiftysix.ui.render import md_text

PER_TYPE = 6  # questions generated per type for a session's pool (more for long sessions)
SLOW_TYPES = ("makeable",)  # fewer of these per pool: each question simulates deals
LENGTHS = [3, 5, 10, 15, 20]
GENERATED, BANK = "generated", "bank"
COACH_BANK = "coach"  # the Coach page's working bank, as kept in the data folder


def make_pool(settings, types: list[str], seed: int, per_type: int = PER_TYPE, slow: int = 1) -> list:
    """Generate the question pool type by type, with a progress bar (makeable ones simulate):
    ``per_type`` of each type, ``slow`` of each slow one."""
    t = settings.table
    bar = st.progress(0.0, text="Dealing and bidding practice hands...")
    pool = []
    for i, qtype in enumerate(types):
        bar.progress(i / len(types), text=f"Making '{questions.TYPE_TITLES.get(qtype, qtype)}' questions...")
        count = slow if qtype in SLOW_TYPES else per_type
        pool += Generator(settings.system, t, seed * 10 + i).questions(count, [qtype])
    bar.empty()
    return pool


def fresh_questions(ideas: list[str], seed: int) -> list:
    """New questions of these ideas (template keys), each made at its own system and table."""
    by_table: dict[tuple[str, Table], list[str]] = {}
    for key in ideas:
        try:
            _, system, table, _ = parse_template(key)
        except FiftySixError:
            continue
        by_table.setdefault((system, table), []).append(key)
    out = []
    with st.spinner("Making fresh questions of the ideas due..."):
        for (system, table), keys in by_table.items():
            out += Generator(system, table, seed).questions_for(keys)
    return out


def begin(queue: list, source: str, assignment: int | None = None) -> None:
    """Start a session of these questions; ``assignment``: the class assignment they are."""
    ss = st.session_state
    ss["dr_queue"] = queue
    ss["dr_source_name"] = source
    ss["dr_assignment"] = assignment
    ss["dr_i"] = 0
    ss["dr_results"] = []
    ss["dr_answered"] = None
    ss["dr_pick"] = None
    ss["dr_t0"] = time.time()


def start_session(settings, store, pool_source, length: int, new_per_day: int, practise: bool) -> None:
    """Pick the session's questions: due ideas first (as fresh questions), then new ones up to
    the day's limit, then practice to fill the session; or a mix of everything, to practise."""
    seed = secrets.randbelow(10**6)  # a fresh seed: a due idea comes back as a new question
    try:
        source, pool = pool_source(seed)
    except FiftySixError as e:
        st.error(f"Could not make questions: {md_text(e)}")
        return
    if practise:
        seen = store.answered_ids()
        picked = practice_mix(sorted(pool, key=lambda q: q.id in seen), length, seed)
    else:
        picked = store.next_questions(pool, length, new_per_day=new_per_day, seed=seed, fill=True)
    begin(picked, source)


def generated_pool(settings, store, types: list[str], length: int):
    """A pool source for engine questions: fresh questions of the due ideas, then new deals."""

    def make(seed: int):
        t = settings.table
        here = f"/{settings.system}/{t.players}p{'-pairs' if t.teams == 'pairs' else ''}/"
        due = [k for k in store.due_templates() if k.split("/")[0] in types and here in k]
        per_type = max(PER_TYPE, math.ceil(1.5 * length / max(1, len(types))))
        # one slow question where quick types fill the session; where none can, the session's share
        # and a half, as for the quick ones, since the generator can deal a repeat (dropped later).
        # A "Makeable?"-only session of 5 was a session of 1.
        quick = any(k not in SLOW_TYPES for k in types)
        slow = 1 if quick else math.ceil(1.5 * length / max(1, len(types)))
        made = make_pool(settings, types, seed, per_type, slow)
        # new ideas are introduced in pool order: mix the types and families, not type by type
        return GENERATED, fresh_questions(due, seed) + practice_mix(made, len(made), seed)
    return make


def show_context(q) -> None:
    """The situation: table, auction so far (calls as chips) and the learner's hand (cards)."""
    c = q.context
    st.caption(md_text(c.describe()))
    try:
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


def pick(choice: str) -> None:
    st.session_state["dr_pick"] = choice


def submit(q, store) -> None:
    """Mark the picked choice, store the answer (Good if right, Again if wrong; the learner
    may grade a right answer Hard or Easy next) and keep the row for the summary."""
    ss = st.session_state
    choice = ss.get("dr_pick")
    if choice is None:
        ss["dr_nudge"] = True
        return
    if ss.get("dr_answered") is not None:
        return
    correct = q.is_correct(choice)
    seconds = time.time() - ss.get("dr_t0", time.time())
    source = ss.get("dr_source_name", GENERATED)
    now = utcnow()
    saved = False
    try:
        ss["dr_card_before"] = store.cards().get(q.template)
        store.record_answer(q, choice, correct=correct, seconds=seconds, source=source, now=now,
                            rating=Rating.Good if correct else Rating.Again, assignment=ss.get("dr_assignment"))
        saved = True
    except FiftySixError as e:
        ss["dr_save_error"] = str(e)
    ss["dr_answered"] = (choice, correct)
    ss["dr_answered_at"] = now
    ss["dr_results"].append({"#": len(ss["dr_results"]) + 1, "question": q.prompt, "your answer": choice,
                             "right answer": " / ".join(q.answers), "right": correct,
                             "grade": "Good" if correct else "Again", "seconds": round(seconds, 1),
                             "idea": idea_title(q.template), "key": q.template, "saved": saved})


def next_question() -> None:
    ss = st.session_state
    ss["dr_i"] = ss.get("dr_i", 0) + 1
    ss["dr_answered"] = None
    ss["dr_pick"] = None
    ss["dr_t0"] = time.time()


def grade(store, rating) -> None:
    """Grade the right answer just given (Hard, Good or Easy), then go on. Good is what the
    answer was stored with, so it only goes on."""
    ss = st.session_state
    results = ss.get("dr_results") or []
    if rating != Rating.Good and results and results[-1]["saved"]:
        try:
            store.regrade_last(rating)
            results[-1]["grade"] = GRADE_WORDS[rating]
        except FiftySixError as e:
            ss["dr_save_error_next"] = f"The grade was not saved: {e}"
    next_question()


def undo(store) -> None:
    """Take back the last answer of this session: the store puts the idea's schedule back as it
    was, and the question is asked again."""
    ss = st.session_state
    results = ss.get("dr_results") or []
    if not results:
        return
    last = results[-1]
    if last["saved"]:
        try:
            store.undo_last()
        except FiftySixError as e:
            ss["dr_undo_error"] = str(e)
            return
    results.pop()
    if ss.get("dr_answered") is None:  # already on the next question (or the summary): go back
        ss["dr_i"] = max(0, ss.get("dr_i", 0) - 1)
    ss["dr_answered"] = None
    ss["dr_pick"] = None
    ss["dr_t0"] = time.time()
    ss["dr_undone"] = True


def undo_button(store, where: str) -> None:
    """'Undo the last answer' (key U) while this session has one to take back."""
    ss = st.session_state
    if ss.pop("dr_undo_error", None):
        st.warning("The last answer could not be taken back: the schedule was changed since.")
    if ss.get("dr_results"):
        st.button("Undo the last answer", key=f"dr_undo_{where}", icon=":material/undo:", on_click=undo,
                  args=(store,), shortcut="U",
                  help="Takes back your last answer: its grade and the idea's schedule go back exactly as "
                       "they were, and the question is asked again (key U).")


def grade_buttons(q, store) -> None:
    """After a right answer: Hard / Good / Easy (keys 2-4, Enter = Good), each saying when the
    idea would come back; after a wrong one, when it comes back (Again)."""
    ss = st.session_state
    _choice, correct = ss["dr_answered"]
    at = ss.get("dr_answered_at")
    last = ss["dr_i"] + 1 >= len(ss["dr_queue"])
    then = "see the summary" if last else "go on"
    saved = bool(ss.get("dr_results")) and ss["dr_results"][-1]["saved"]
    if not saved or at is None:
        st.button("See the summary" if last else "Next question", icon=":material/arrow_forward:", key="dr_next",
                  type="primary", on_click=next_question, shortcut="Enter")
        return
    try:
        due = preview(ss.get("dr_card_before"), q.template, at, store.scheduler())
    except FiftySixError:
        due = {}
    if not correct:
        when = in_words(due[Rating.Again] - at) if due else "soon"
        st.markdown(f"**Again**: this idea is due again {when}; a later session brings it back.")
        st.button("See the summary" if last else "Next question", icon=":material/arrow_forward:", key="dr_next",
                  type="primary", on_click=next_question, shortcut="Enter")
        key_hint(f"Enter: {then}.", key="dr_again")
        return
    st.markdown("**How well did you know it?** Your grade sets when this idea comes back.")
    cols = st.columns(len(GRADES))
    for col, (k, rating) in zip(cols, enumerate(GRADES, start=2), strict=True):
        when = in_words(due[rating] - at) if due else ""
        col.button(f"{GRADE_WORDS[rating]} · {when}", key=f"dr_grade_{GRADE_WORDS[rating].lower()}",
                   type="primary" if rating == Rating.Good else "secondary", on_click=grade, args=(store, rating),
                   shortcut=str(k), width="stretch",
                   help={Rating.Hard: "Right, but it was a struggle: it comes back sooner.",
                         Rating.Good: "Right, with some thought: the usual wait.",
                         Rating.Easy: "Right at once: it waits longer."}[rating])
    # Enter = Good, as in Anki (a hidden twin of the Good button would be a second widget; the
    # Next button below does the same thing, named for what it does)
    st.button(("See the summary" if last else "Next question") + " (graded Good)", key="dr_next",
              icon=":material/arrow_forward:", on_click=next_question, shortcut="Enter")
    key_hint("Keys: 2 Hard, 3 Good, 4 Easy; Enter grades it Good and goes on; U takes the answer back.", key="dr_grade")


def ask(q, store) -> None:
    """One question: the choices as buttons (keys 1-4), Enter to answer, then the feedback."""
    ss = st.session_state
    i = ss["dr_i"]
    st.markdown(f"##### Question {i + 1} of {len(ss['dr_queue'])} · {questions.TYPE_TITLES.get(q.type, q.type)}")
    if ss.pop("dr_undone", False):
        st.info("Your last answer was taken back: answer it again.")
    if ss.get("dr_save_error_next"):
        st.warning(md_text(ss.pop("dr_save_error_next")))
    show_context(q)
    words("auction", "call", "Plus N", "NS (Noes)", "no-trump", "makeable", "95% interval", "double-dummy", "idea", "FSRS",
          key="dr_words_q")
    st.markdown(f"**{md_text(q.prompt)}**")
    answered = ss.get("dr_answered")
    chosen = ss.get("dr_pick")
    for k, choice in enumerate(q.choices):
        mark = ""
        if answered is not None:
            mark = " ✓" if q.is_correct(choice) else (" ✗" if choice == answered[0] else "")
        # once answered the keys grade the answer, so the choices give up theirs
        st.button(f"{k + 1} · {md_text(choice)}{mark}", key=f"dr_pick_{k}", on_click=pick, args=(choice,),
                  type="primary" if choice == chosen else "secondary", disabled=answered is not None,
                  shortcut=str(k + 1) if k < 9 and answered is None else None, width="stretch")
    if answered is None:
        # never disabled: an Enter pressed right after a key 1-4 must not be lost while the pick
        # is still on its way to the server
        st.button("Answer", key="dr_answer", type="primary", on_click=submit, args=(q, store), shortcut="Enter")
        if ss.pop("dr_nudge", False):
            st.warning("Pick a choice first: click it, or press its number.")
        key_hint("Keys: 1-4 pick a choice, Enter answers.", key="dr_ask")
        undo_button(store, "ask")
        return
    if ss.pop("dr_save_error", None):
        st.warning("Your answer was not saved to your progress.")
    choice, correct = answered
    right = ", ".join(q.answers)
    if correct:
        st.success(f"Right: {md_text(choice)}")
    else:
        st.error(f"Not quite. The answer: {md_text(right)}")
    if q.explanation:
        st.info(md_text(q.explanation))
    grade_buttons(q, store)
    undo_button(store, "feedback")


def summary(store, settings) -> None:
    ss = st.session_state
    results = ss.get("dr_results", [])
    right = sum(r["right"] for r in results)
    st.subheader("Session summary")
    c1, c2, c3 = st.columns(3)
    c1.metric("Score", f"{right} / {len(results)}")
    c2.metric("Accuracy", f"{right / len(results):.0%}" if results else "-")
    c3.metric("Time", f"{sum(r['seconds'] for r in results):.0f} s")
    now = utcnow()
    try:
        cards = bidding_cards(store)
    except FiftySixError:
        cards = {}
    st.info(due_words(settings, cards, now))
    # what a learner looks for first stays on a phone's screen: right or not, when it comes back
    first = ("#", "right", "comes back", "grade")
    rows = [{k: row[k] for k in first} | {k: v for k, v in row.items() if k not in first}
            for row in ({k: v for k, v in r.items() if k not in ("key", "saved")}
                        | {"comes back": when_words(cards[r["key"]].due, now) if r["key"] in cards else "not saved"}
                        for r in results)]
    st.dataframe(rows, hide_index=True, column_config={
        "question": st.column_config.TextColumn(width="large"),
        "right": st.column_config.CheckboxColumn("right?")})
    wrong = sorted({r["key"] for r in results if not r["right"]})
    if wrong:
        st.caption("Missed, so they come back soon: " + "; ".join(
            f"{md_text(next(r['idea'] for r in results if r['key'] == k))} ({when_words(cards[k].due, now)})"
            for k in wrong if k in cards))
    undo_button(store, "summary")


def coach_bank():
    """The Coach page's bank as kept in the data folder (None where there is none, it cannot be
    read, or it has no questions)."""
    try:
        bank = banks.load_working_bank(owner=owner())
    except FiftySixError:
        return None
    return bank if bank is not None and bank.questions else None


def bank_choices() -> dict[str, str]:
    """The banks on offer: the starter banks (by file name) and the coach's bank, by its title."""
    out = {name: f"Starter: {name}" for name in banks.starter_names()}
    bank = coach_bank()
    if bank is not None:
        out[COACH_BANK] = f"The Coach page's bank: {bank.title}"
    return out


def bank_pool(name: str, upload):
    """A pool source for a bank: an uploaded file, the coach's bank, or a starter bank."""
    def make(seed: int):
        if upload is not None:
            text = read_upload(upload)
            if upload is None or text is None:
                raise FiftySixError(f"{upload.name} could not be read")
            fmt = banks.guess_format(upload.name, text)
            bank = banks.import_text(text, fmt, upload.name, st.session_state.get("system"))
        elif name == COACH_BANK:
            bank = coach_bank()
            if bank is None:
                raise FiftySixError("the Coach page's bank is empty or could not be read")
        else:
            bank = banks.load_starter(name)
        asked = [q for q in bank.questions if q.type not in questions.PROBLEM_TYPES]  # play problems: own page
        if not asked:
            raise FiftySixError(f"the bank {bank.title!r} has no bidding questions"
                                + (" (its play problems are asked on the Problems page)" if bank.questions else ""))
        return bank.title, asked
    return make


def setup(settings, store) -> None:
    """The session form: generated questions or a bank, how many, new ideas a day, practise."""
    ss = st.session_state
    words("idea", "FSRS", "call family", "auction", "bidding system", key="dr_words")
    source = choice_in_url(st.segmented_control, "Questions from",
                           {GENERATED: "new deals (the engine)", BANK: "a question bank"}, default=GENERATED,
                           required=True, key="dr_source")
    with st.form("dr_setup"):
        upload = None
        types: list[str] = []
        if source == BANK:
            bank_names = bank_choices()
            default = settings.system if settings.system in bank_names else next(iter(bank_names))
            bank = choice_in_url(st.selectbox, "Bank", bank_names, index=list(bank_names).index(default),
                                 key="dr_bank")
            upload = st.file_uploader("... or your own bank file (JSON, CSV, GIFT, Anki)", key="dr_upload",
                                      type=["json", "csv", "gift", "txt"])
        else:
            types = choice_in_url(st.multiselect, "Question types",
                                  {k: questions.TYPE_TITLES.get(k, k) for k in questions.QUESTION_TYPES},
                                  default=list(default_types(settings.table)),
                                  help="'Makeable?' questions simulate a hundred deals each (about a second at "
                                       "4 and 6 players, much longer at 8).", key="dr_types")
        c1, c2, c3 = st.columns(3)
        length = c1.select_slider("Questions", LENGTHS, value=5, **in_url("dr_len"))
        new_per_day = c2.number_input("New ideas a day", 0, 100, progress.DEFAULT_NEW_PER_DAY, step=5,
                                      **in_url("dr_new"),
                                      help="How many ideas you have not met before a session may bring in "
                                           "each day. The rest of a session is filled with reviews and practice.")
        practise = c3.toggle("Practise anyway (ignore the schedule)", **in_url("dr_practise"),
                             help="A mix of every type and call family, whatever is due.")
        go = st.form_submit_button("Start a session", type="primary", key="dr_go", shortcut="Enter")
    new_today = store.new_today()
    ideas = bidding_cards(store)
    st.caption(f"{md_text(settings.player)}: " + due_words(settings, ideas, utcnow())
               + (f" {new_today} of {new_per_day} new ideas met today." if new_today <= new_per_day else
                  f" {new_today} new ideas met today: the day's limit of {new_per_day} is reached.")
               + " A session that the due and new ideas "
               "leave short is filled with practice questions. The Progress page shows the month ahead and "
               "sets how well you want to remember.")
    if not go:
        return
    if source == GENERATED and not types:
        st.error("Choose at least one question type.")
        return
    make = (generated_pool(settings, store, types, length) if source == GENERATED
            else bank_pool(bank, upload))
    start_session(settings, store, make, length, new_per_day, practise)
    if ss.get("dr_queue"):
        st.rerun()
    elif "dr_queue" in ss:
        st.info(nothing_to_start(settings, ideas, types if source == GENERATED else None, new_per_day))


def bidding_cards(store) -> dict:
    """The learner's bidding ideas and their schedule (play problems schedule on the Problems page)."""
    return {k: c for k, c in store.cards().items() if not k.startswith(PROBLEM_IDEA)}


def table_words(system: str, table: Table) -> str:
    """A table as the pages name it: "kerala, 6 players" (", pairs" where partners sit opposite)."""
    return f"{system}, {table.players} players" + (", pairs" if table.teams == "pairs" else "")


def by_table(settings, ideas: dict) -> tuple[dict, dict[str, dict]]:
    """The ideas of this table (the sidebar's system, players and teams: what a session brings)
    and the others', by the table's words; an idea whose key cannot be read is left out."""
    t = settings.table
    here_table = (settings.system, t.players, t.teams)
    here: dict = {}
    elsewhere: dict[str, dict] = {}
    for key, card in ideas.items():
        try:
            _, system, table, _ = parse_template(key)
        except FiftySixError:
            continue
        if (system, table.players, table.teams) == here_table:
            here[key] = card
        else:
            elsewhere.setdefault(table_words(system, table), {})[key] = card
    return here, elsewhere


def due_words(settings, ideas: dict, now) -> str:
    """When this table's ideas fall due (``due_summary``), and how many are due now at other
    tables, named apart: a session brings only this table's (walked: "17 ideas are due for review
    now" counted every table's, and the session then brought none)."""
    here, elsewhere = by_table(settings, ideas)
    text = (due_summary([c.due for c in here.values()], now) if here or not elsewhere
            else "Nothing is scheduled at this table yet.")
    soon = now + timedelta(seconds=30)  # due now, as due_summary counts it
    others = {w: n for w, cards in sorted(elsewhere.items()) if (n := sum(c.due < soon for c in cards.values()))}
    if others:
        due_here = any(c.due < soon for c in here.values())
        text += (" And " if due_here else " Due now at other tables: ") + "; ".join(
            f"{n}{' more' if due_here else ''} at {w}" for w, n in others.items()) + \
            " (choose that table in the sidebar to review them)."
    return text


def nothing_to_start(settings, ideas: dict, types: list[str] | None, new_per_day: int) -> str:
    """Why a session could not start, and where due ideas wait: at another table or system, or of
    a question type left out (walked: "Nothing is due ... 17 ideas are due for review now")."""
    now = utcnow()
    t = settings.table
    here, elsewhere_cards = by_table(settings, ideas)
    due_here = sum(c.due <= now and (types is None or parse_template(k)[0] in types) for k, c in here.items())
    elsewhere = {w: n for w, cards in elsewhere_cards.items() if (n := sum(c.due <= now for c in cards.values()))}
    text = (f"Nothing is due at this table ({settings.system}, {t.players} players) and today's {new_per_day} "
            "new ideas are used up." if not due_here else
            f"Today's {new_per_day} new ideas are used up.")
    if elsewhere:
        text += (" Due at other tables: " + "; ".join(f"{n} at {w}" for w, n in sorted(elsewhere.items()))
                 + ": choose one in the sidebar to review them.")
    elif not due_here:
        text += " " + due_summary([c.due for c in ideas.values()], now)
    return text + " Raise 'New ideas a day', or tick 'Practise anyway'."


def weak_spots(store) -> None:
    """The Progress page's 'drill my weak spots now': fresh questions of the weakest ideas."""
    ideas = st.session_state.pop("dr_focus")
    questions = fresh_questions(list(ideas), secrets.randbelow(10**6))
    if questions:
        begin(questions, GENERATED)
    else:
        st.warning("No questions of your weakest ideas could be made just now; try a normal session.")


settings = page_start("Drill", "Short quizzes that come back at the right time: ideas you miss return "
                      "soon, ideas you know wait longer.")

try:
    store = progress.ProgressStore(learner=settings.user.id)
except FiftySixError as e:
    st.error(md_text(e))
    st.stop()

ss = st.session_state
if ss.get("dr_focus"):
    weak_spots(store)
queue = ss.get("dr_queue")
if not queue or ss.get("dr_i", 0) >= len(queue):
    if queue:
        summary(store, settings)
    drill_assignments(begin)
    setup(settings, store)
else:
    ask(queue[ss["dr_i"]], store)
