"""Play problems drawn on a page, and the coach's panel that makes one from a hand.

The problem's hands, auction and answer table; the "make a problem of this hand" panel that
the Enter, Review and Play pages share."""
from __future__ import annotations

import os
from functools import partial

import streamlit as st

from fiftysix.bidding import Auction
from fiftysix.cards import Hand
from fiftysix.errors import FiftySixError
from fiftysix.records import Record
from fiftysix.ui import heavy, render
from fiftysix.ui.components import owner, show, user, words_for
from fiftysix.ui.jobs import background_job, run_cancellable
from fiftysix.ui.render import card_words, md_text

SCAN_SECONDS = 20.0
"""How long the coach's panel may search a hand for find-the-card problems."""
POSITION_SECONDS = 3.0
"""... and one position of it."""


# --- problems made ahead ----------------------------------------------------------------------

_larder = None


def larder():
    """The server's problems made ahead (``drills.problem_prep.Larder``), in background places
    of the heavy-job queue (``ui.jobs.background_job``): pages' jobs go first."""
    global _larder
    if _larder is None:
        from fiftysix.drills.problem_prep import Larder
        from fiftysix.drills.problem_sets import STOCK_CAP, ProblemStore, ProblemStoreError
        try:
            index = ProblemStore()
        except ProblemStoreError:
            index = None  # no data file: the leads are scored again after a restart
        _larder = Larder(background_job, index=index, stock_cap=STOCK_CAP if stock_on() else 0)
    return _larder


STOCK_ENV = "FIFTYSIX_PROBLEM_STOCK"
"""``0``: the server fills no stock of opening leads in the background (the tests' servers)."""


def stock_on() -> bool:
    """Whether the server fills its stock of opening leads in the background (``STOCK_ENV``)."""
    return os.environ.get(STOCK_ENV, "1") != "0"


# --- a problem on the page ---------------------------------------------------------------------

def auction_rows(q) -> list[tuple[int, str, str, str]]:
    """The problem's auction as (seat, call, label, meaning) rows; [] when it does not replay."""
    c = q.context
    if not c.auction:
        return []
    try:
        a = Auction.parse(c.auction, c.system, c.table)
    except FiftySixError:
        return []
    return [(r.seat, str(r.call), r.meaning.label, r.meaning.sentence) for r in a.calls]


def draw_problem(q) -> None:
    """The situation: contract, auction and the hands the solver may show (every hand for
    find-the-card, the leader's own for an opening lead), the trick on the table."""
    from fiftysix.drills.problems import FIND_CARD, problem_contract, problem_state
    table = q.context.table
    contract = problem_contract(q)
    rows = auction_rows(q)
    if rows:
        show(render.auction_html(table, rows, mark=len(rows) - 1))
    who = f"by seat {contract.declarer} · {table.team_name(contract.team)} need {contract.value}"
    if q.type == FIND_CARD:
        state = problem_state(q)
        hands = {s: state.hands[s - 1] for s in table.seats}
        mover = state.to_move
        notes = {s: "to play" for s in (mover,)}
        show(render.table_html(table, hands, bottom=mover, to_move=mover, trick=state.current,
                               center=render.contract_html(str(contract), who), notes=notes))
        pts = ", ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points))
        st.caption(f"Points won so far: {pts}. Tricks played: {len(state.tricks)}.")
    else:
        seat = q.context.seat
        hands = {s: (Hand.parse(q.context.hand) if s == seat else None) for s in table.seats}
        show(render.table_html(table, hands, bottom=seat, to_move=seat,
                               center=render.contract_html(str(contract), who)))


def answer_table(q) -> list[dict]:
    """Each choice with what the solver says of it: final points and cost (find-the-card), or
    the side's chance after the lead (opening lead)."""
    from fiftysix.drills.problems import FIND_CARD
    if q.type == FIND_CARD:
        values, costs = q.data.get("values", {}), q.data.get("costs", {})
        rows = [{"card": card_words(c), "right": q.is_correct(c), "declarers end with": values.get(c),
                 "cost (points)": costs.get(c)} for c in q.choices]
        return sorted(rows, key=lambda r: (not r["right"], r["cost (points)"] or 0, r["card"]))
    ours = q.data.get("side_rates", {})
    rows = [{"lead": card_words(c), "right": q.is_correct(c), "your side's chance": ours.get(c)} for c in q.choices]
    return sorted(rows, key=lambda r: (-(r["your side's chance"] or 0), r["lead"]))


# --- the coach's panel -------------------------------------------------------------------------

def add_to_bank(q) -> str:
    """Add a problem to the coach's working bank (the Coach page's, kept in the data folder);
    returns what happened in words."""
    from fiftysix.drills import banks
    who = owner()
    kept = banks.load_working_bank(owner=who)
    bank = kept or banks.Bank("My bank", q.context.system, (), user().name)
    rep = banks.merge_banks(bank, banks.Bank(bank.title, bank.system, (q,)))
    # only the new question is saved, so a Coach page open in another tab loses nothing (and
    # takes it up on its next run)
    banks.save_working_changes(kept, rep.bank, owner=who)
    if rep.added == 0:
        return f"That problem is already in your bank '{rep.bank.title}'."
    return (f"Added to your bank '{rep.bank.title}' ({len(rep.bank.questions)} questions). The Coach page"
            " exports it as JSON, GIFT, Anki or CSV.")


def problem_panel(record: Record, key: str) -> None:
    """For a coach: find the play problems in a hand (every position of its play searched by
    the solver; the opening lead scored by simulation) and add one to the working bank."""
    from fiftysix.analyser.solver import BudgetExceeded, Cancelled
    from fiftysix.drills.problem_sets import default_seconds
    from fiftysix.drills.problems import OPENING_LEAD
    ss = st.session_state
    found_key = f"{key}_problems"
    if record.contract is None:
        st.caption("A play problem needs a contract: finish the auction (or give the contract) first.")
        return
    sig = str(record.deal) + "|" + " ".join(n.token for n in record.play) + "|" + str(record.contract)
    if ss.get(found_key, {}).get("sig") != sig:
        ss[found_key] = {"sig": sig, "problems": []}
    c1, c2 = st.columns(2)
    find = c1.button("Find card problems in the play", key=f"{key}_find", disabled=not record.play,
                     help="The solver looks at every position of the play while the contract was open for one "
                          "where exactly one card (or one group of equal cards) keeps or beats it.")
    lead = c2.button("Make an opening lead problem", key=f"{key}_lead", disabled=not record.deal.is_complete,
                     help="Every lead is scored over deals that fit the leader's hand and the auction "
                          "(a few seconds at 4 and 6 players, longer at 8).")
    if find or lead:
        bar = st.progress(0.0, text="Looking for problems...")
        try:
            if find:
                made = run_cancellable(
                    partial(heavy.scan_problems, record, POSITION_SECONDS, SCAN_SECONDS), "Searching the play",
                    SCAN_SECONDS + 5,
                    on_progress=lambda i, n: bar.progress(i / max(1, n), text=f"Position {i + 1} of {n}"))
            else:
                one = run_cancellable(partial(heavy.lead_problem, record), "Scoring every lead",
                                      default_seconds(record.table, OPENING_LEAD) + 5,
                                      on_progress=lambda d, n: bar.progress(d / n, text=f"Deal {d} of {n}"))
                made = [one] if one is not None else []
        except (BudgetExceeded, Cancelled):
            made = []
            st.info("The search was stopped before it finished.")
        except FiftySixError as e:
            made = []
            st.error(md_text(e))
        bar.empty()
        have = {q["id"] for q in ss[found_key]["problems"]}
        ss[found_key]["problems"] += [q.to_dict() for q in made if q.id not in have]
        if not made:
            st.info("No problem here: " + ("no position had exactly one right card." if find else
                                           "every lead does about as well as the others."))
    problems = ss[found_key]["problems"]
    if not problems:
        return
    from fiftysix.drills.questions import Question
    qs = [Question.from_dict(d) for d in problems]
    labels = {q.id: (f"{'Find the card' if q.type == 'find-card' else 'Opening lead'}, level {q.data['level']}: "
                     f"seat {q.context.seat}, {q.data.get('tricks_left')} tricks left, right: {' / '.join(q.answers)}")
              for q in qs}
    pick = st.selectbox("Problems found", list(labels), format_func=words_for(labels), key=f"{key}_pick")
    q = next(x for x in qs if x.id == pick)
    st.text(q.prompt)
    if st.button("Add this problem to my bank", key=f"{key}_add", icon=":material/add:"):
        try:
            st.success(md_text(add_to_bank(q)))
        except (FiftySixError, OSError) as e:
            st.error(f"The problem could not be added: {md_text(e)}")
