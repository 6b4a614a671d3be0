"""Coach page: a quiz bank built question by question, the engine filling in and checking each.

Edit it, validate it, download it as JSON, CSV, GIFT or Anki CSV, or upload a bank to edit.
The bank being built is kept in the data folder, so a reload keeps it."""
from __future__ import annotations

import streamlit as st

from fiftysix.cards import Table
from fiftysix.drills import bankcheck, banks, questions
from fiftysix.drills.generate import Generator
from fiftysix.errors import FiftySixError
from fiftysix.ui.components import owner, page_start, read_upload

FORMAT_FILES = {"json": ("JSON", "application/json", "json"), "csv": ("CSV", "text/csv", "csv"),
                "gift": ("GIFT (Moodle)", "text/plain", "gift"), "anki": ("Anki CSV", "text/csv", "txt")}


def failure(e: Exception) -> str:
    """What went wrong, for the error box: our own errors say it plainly; anything else is
    named by its kind too (it is a defect to report, but the page goes on)."""
    if isinstance(e, FiftySixError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def current_questions() -> list[dict]:
    """The bank being built, as question dicts (kept in session state and in the data folder)."""
    return st.session_state.setdefault("co_questions", [])


def bank_dict(title: str, author: str, system: str) -> dict:
    return {"format": "fiftysix-bank", "version": 1, "title": title or "Untitled bank", "author": author,
            "system": system, "questions": current_questions()}


def restore(banks_mod, settings) -> None:
    """Once a session: take up the bank the coach was building (from the data folder)."""
    ss = st.session_state
    if ss.get("co_restored"):
        return
    ss["co_restored"] = True
    try:
        bank = banks_mod.load_working_bank(owner=owner())
    except FiftySixError as e:
        st.warning(f"The bank kept from last time could not be read ({e}); starting a new one.")
        bank = None
    if bank is None:
        ss.setdefault("co_title", "My bank")
        ss.setdefault("co_author", settings.player)
        ss.setdefault("co_system", settings.system)
        return
    ss["co_questions"] = [q.to_dict() for q in bank.questions]
    ss["co_title"], ss["co_author"], ss["co_system"] = bank.title, bank.author, bank.system


def keep(banks_mod) -> None:
    """Write the bank being built to the data folder (atomically)."""
    ss = st.session_state
    try:
        bank = banks_mod.Bank.from_dict(bank_dict(ss.get("co_title", ""), ss.get("co_author", ""),
                                                  ss.get("co_system", "international")), "the bank")
        banks_mod.save_working_bank(bank, owner=owner())
    except (FiftySixError, OSError) as e:
        st.error(f"The bank could not be kept in the data folder: {e}")


def question_form(settings, questions_mod, banks_mod) -> None:
    """One question: the context, then the engine fills in choices and answers (or the coach does).
    A question being edited keeps its own context (system and table), whatever the sidebar says."""
    qs = current_questions()
    editing = st.session_state.get("co_edit")
    base = qs[editing] if editing is not None and editing < len(qs) else {}
    ctx = base.get("context", {})
    data = base.get("data", {})
    system = ctx.get("system") or st.session_state.get("co_system") or settings.system
    if base:
        players, deck, teams = int(ctx.get("players", 6)), int(ctx.get("deck", 48)), ctx.get("teams", "alternate")
    else:
        t = settings.table
        system, players, deck, teams = settings.system, t.players, t.deck, t.teams
    ver = st.session_state.setdefault("co_ver", 0)  # a new version = a fresh form
    if st.session_state.get("co_done"):
        st.success(st.session_state.pop("co_done"))
    with st.form("co_form", clear_on_submit=False):
        st.markdown(f"**{'Edit question ' + base['id'] if base else 'New question'}** · "
                    f"{system}, {players} players, {deck} cards, {teams} teams"
                    + (" (the question's own context)" if base else " (from the sidebar)"))
        c1, c2, c3 = st.columns([2, 1, 3])
        qtype = c1.selectbox("Type", questions_mod.QUESTION_TYPES, key=f"co_type_{ver}",
                             index=questions_mod.QUESTION_TYPES.index(base.get("type", "meaning")),
                             format_func=lambda k: f"{k}: {questions_mod.TYPE_TITLES[k]}")
        seat = c2.number_input("Seat", 1, players, min(int(ctx.get("seat", 1)), players), key=f"co_seat_{ver}",
                               help="the learner's seat (the seat to call for meaning, which-call, your-call)")
        qid = c3.text_input("Id", value=base.get("id", f"q{len(qs) + 1}"), key=f"co_id_{ver}")
        auction = st.text_input("Auction so far (from seat 1; for makeable: the whole auction)",
                                value=ctx.get("auction", ""), key=f"co_auction_{ver}")
        c4, c5 = st.columns(2)
        hand = c4.text_input("Hand (S.H.D.C; for 'your-call' and 'makeable')", value=ctx.get("hand") or "",
                             key=f"co_hand_{ver}")
        call = c5.text_input("Call asked about (for 'meaning' and 'which-call')", value=data.get("call", ""),
                             key=f"co_call_{ver}")
        c6, c7, c8, c9 = st.columns(4)
        about = c6.number_input("About seat (partner-holds)", 0, players, int(data.get("about_seat", 0)),
                                key=f"co_about_{ver}", help="the seat whose promises are asked about (0: none)")
        iv = data.get("interval") or [None, None]
        low = c7.number_input("Makes at least (%)", 0, 100, None if iv[0] is None else round(100 * iv[0]),
                              key=f"co_low_{ver}", help="makeable: the estimate's 95% interval, low end; "
                                                        "blank: the engine simulates")
        high = c8.number_input("Makes at most (%)", 0, 100, None if iv[1] is None else round(100 * iv[1]),
                               key=f"co_high_{ver}", help="makeable: the interval's high end")
        deals = c9.number_input("Deals to simulate", 10, 500, int(data.get("deals", 30)), step=10,
                                key=f"co_deals_{ver}", help="makeable without an interval: the engine's sample")
        prompt = st.text_input("Prompt (blank: the engine writes one)", value=base.get("prompt", ""),
                               key=f"co_prompt_{ver}")
        choices = st.text_area("Choices, one per line (blank: the engine fills them in)",
                               value="\n".join(base.get("choices", [])), key=f"co_choices_{ver}", height=110)
        answers = st.text_input("Right answer(s), separated by '|' (blank: the engine decides)",
                                value="|".join(base.get("answers", [])), key=f"co_answers_{ver}")
        explanation = st.text_input("Explanation", value=base.get("explanation", ""), key=f"co_expl_{ver}")
        st.caption("makeable: the contract and declarer are the auction's; partner-holds: the engine offers "
                   "statements such as 'holds a Jack of hearts' or 'at least 4 spades'.")
        submitted = st.form_submit_button("Fill in, check and add" if not base else "Fill in, check and save",
                                          type="primary")
    if base and st.button("Cancel the edit", key="co_cancel"):
        st.session_state["co_edit"] = None
        st.session_state["co_ver"] = ver + 1
        st.rerun()
    if not submitted:
        return
    context = {"system": system, "players": players, "deck": deck, "teams": teams,
               "seat": int(seat), "auction": " ".join(auction.split())}
    if hand.strip():
        context["hand"] = hand.strip()
    d = {"id": qid.strip(), "type": qtype, "context": context, "prompt": prompt.strip(),
         "choices": [c.strip() for c in choices.splitlines() if c.strip()],
         "answers": [a.strip() for a in answers.split("|") if a.strip()], "explanation": explanation.strip()}
    new_data = {}
    if call.strip():
        new_data["call"] = call.strip()
    if qtype == "partner-holds" and about:
        new_data["about_seat"] = int(about)
    if qtype == "makeable":
        if low is not None and high is not None:
            new_data["interval"] = [low / 100, high / 100]
        new_data["deals"] = int(deals)
    if new_data:
        d["data"] = new_data
    try:
        with st.spinner("The engine fills in and checks the question..."):
            question = Generator(system, Table(players, deck, teams)).fill(d)
            problems = bankcheck.check_question(question)
    except Exception as e:  # noqa: BLE001 - whatever the coach typed, an error box, never a traceback
        st.error(f"Not added: {failure(e)}")
        return
    blocking = [p for p in problems if p.kind != "unchecked"]
    for p in problems:
        (st.error if p in blocking else st.warning)(str(p))
    if blocking:
        st.error("Not added: the engine disagrees (see above).")
        return
    others = [q for i, q in enumerate(qs) if i != editing]
    if any(q["id"] == question.id for q in others):
        st.error(f"Not added: the id {question.id!r} is already in the bank.")
        return
    if editing is not None and editing < len(qs):
        qs[editing] = question.to_dict()
        st.session_state["co_edit"] = None
        done = f"Question {question.id} updated."
    else:
        qs.append(question.to_dict())
        done = f"Question {question.id} added: the answer is {question.answer!r}."
    st.session_state["co_ver"] = ver + 1
    st.session_state["co_done"] = done + "".join(f" ({p})" for p in problems)
    keep(banks_mod)
    st.rerun()  # a fresh, empty form


def delete_question(banks_mod, index: int) -> None:
    qs = current_questions()
    st.session_state["co_undo"] = (index, qs.pop(index))
    st.session_state["co_edit"] = None
    keep(banks_mod)


def undo_delete(banks_mod) -> None:
    index, q = st.session_state.pop("co_undo")
    qs = current_questions()
    if any(x["id"] == q["id"] for x in qs):
        st.session_state["co_undo_error"] = f"{q['id']} is back already under that id"
        return
    qs.insert(min(index, len(qs)), q)
    keep(banks_mod)


def bank_table(banks_mod) -> None:
    qs = current_questions()
    undo = st.session_state.get("co_undo")
    if undo is not None:
        st.button(f"Undo: put question {undo[1]['id']} back", key="co_undo_btn", icon=":material/undo:",
                  on_click=undo_delete, args=(banks_mod,))
    if st.session_state.get("co_undo_error"):
        st.error(st.session_state.pop("co_undo_error"))
    if not qs:
        st.caption("The bank is empty: add a question above or upload a bank.")
        return
    st.dataframe([{"id": q["id"], "type": q["type"], "system": q["context"].get("system", ""),
                   "players": q["context"].get("players", ""), "auction": q["context"].get("auction", ""),
                   "prompt": q["prompt"], "answer": " | ".join(q["answers"])} for q in qs], hide_index=True)
    c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
    pick = c1.selectbox("Question", range(len(qs)), key="co_pick", format_func=lambda i: qs[i]["id"])
    if c2.button("Edit", key="co_edit_btn"):
        st.session_state["co_edit"] = pick
        st.session_state["co_ver"] = st.session_state.get("co_ver", 0) + 1
        st.rerun()
    c3.button("Delete", key="co_del_btn", on_click=delete_question, args=(banks_mod, pick))


def bank_problems(bank) -> tuple[list, list]:
    """The engine's problems with a bank: the blocking ones (errors) and the rest (unchecked)."""
    problems = bankcheck.check_bank(bank)
    return [p for p in problems if p.kind != "unchecked"], [p for p in problems if p.kind == "unchecked"]


def export_panel(banks_mod, title: str, author: str, system: str) -> None:
    """Validate the whole bank; offer it in every format only when the engine finds no error."""
    qs = current_questions()
    if not qs:
        return
    try:
        bank = banks_mod.Bank.from_dict(bank_dict(title, author, system), "this bank")
        errors, notes = bank_problems(bank)
    except Exception as e:  # noqa: BLE001
        st.error(failure(e))
        return
    for p in notes:
        st.warning(str(p))
    if errors:
        for p in errors:
            st.error(str(p))
        st.error(f"The bank has {len(errors)} error(s): edit or delete those questions before exporting it.")
        return
    st.success(f"The bank is valid: {len(bank.questions)} question(s).")
    cols = st.columns(len(FORMAT_FILES))
    stem = "".join(ch if ch.isalnum() else "-" for ch in (title or "bank").lower()).strip("-") or "bank"
    for col, (fmt, (label, mime, ext)) in zip(cols, FORMAT_FILES.items()):
        col.download_button(label, banks_mod.export_text(bank, fmt), file_name=f"{stem}.{ext}",
                            mime=mime, key=f"co_dl_{fmt}", on_click="ignore", icon=":material/download:")


def take_bank(banks_mod, bank, how: str, name: str) -> None:
    """Replace the bank being built with ``bank``, or merge ``bank`` into it."""
    ss = st.session_state
    if how == "replace":
        ss["co_questions"] = [q.to_dict() for q in bank.questions]
        ss["co_title"], ss["co_author"], ss["co_system"] = bank.title, bank.author, bank.system
        message = f"Replaced the bank with {len(bank.questions)} question(s) from {name}."
    else:
        base = banks_mod.Bank.from_dict(bank_dict(ss.get("co_title", ""), ss.get("co_author", ""),
                                                  ss.get("co_system", bank.system)), "the bank")
        rep = banks_mod.merge_banks(base, bank)
        ss["co_questions"] = [q.to_dict() for q in rep.bank.questions]
        message = (f"Merged {name}: {rep.added} question(s) added, {rep.same} already there"
                   + (f", renamed {', '.join(f'{a} -> {b}' for a, b in rep.renamed.items())}" if rep.renamed else "")
                   + ".")
    errors, _ = bank_problems(bank)
    if errors:  # the bank is taken up to be mended, not "loaded" as if it were sound
        message = (f"{message} The engine finds {len(errors)} error(s) in it (listed below the bank): "
                   "mend or delete those questions before exporting.")
    ss["co_edit"] = None
    ss["co_ver"] = ss.get("co_ver", 0) + 1
    ss.pop("co_pending", None)
    ss["co_message"] = ("warning" if errors else "success", message)
    keep(banks_mod)


def show_message() -> None:
    kind, text = st.session_state.pop("co_message")
    (st.warning if kind == "warning" else st.success)(text)


def upload_panel(banks_mod) -> None:
    """Read an uploaded bank; say what the engine finds wrong with it; ask before it replaces
    the bank being built (or merge it in)."""
    ss = st.session_state
    up = st.file_uploader("Upload a bank (JSON, CSV, GIFT or Anki CSV)", type=["json", "csv", "gift", "txt"],
                          key="co_upload", max_upload_size=1)
    if ss.get("co_message"):
        show_message()
    text = read_upload(up)
    if text is None:
        return
    if ss.get("co_loaded") != (up.name, len(text)):
        ss["co_loaded"] = (up.name, len(text))
        try:
            fmt = banks_mod.guess_format(up.name, text)
            bank = banks_mod.import_text(text, fmt, up.name, ss.get("system"))
        except Exception as e:  # noqa: BLE001 - any file a user uploads: an error box, never a traceback
            ss.pop("co_pending", None)
            st.error(f"{up.name} was not loaded: {failure(e)}")
            return
        if not current_questions():
            take_bank(banks_mod, bank, "replace", up.name)
            show_message()
        else:
            ss["co_pending"] = (up.name, bank)
    pending = ss.get("co_pending")
    if pending is not None:
        name, bank = pending
        st.warning(f"{name} holds {len(bank.questions)} question(s); the bank you are building holds "
                   f"{len(current_questions())}. Replace it, or merge the upload into it?")
        c1, c2, c3 = st.columns(3)
        c1.button("Replace my bank", key="co_replace", on_click=take_bank, args=(banks_mod, bank, "replace", name))
        c2.button("Merge into my bank", key="co_merge", on_click=take_bank, args=(banks_mod, bank, "merge", name))
        if c3.button("Keep my bank", key="co_keep"):
            ss.pop("co_pending", None)
            st.rerun()


settings = page_start("Coach", "Build a quiz bank for your players: write the situation, let the engine "
                      "work out the right answer, then download it for the app, Moodle or Anki.")
questions_mod = questions
banks_mod = banks
restore(banks_mod, settings)
with st.expander("Upload a bank to edit", expanded=st.session_state.get("co_pending") is not None):
    upload_panel(banks_mod)
c1, c2 = st.columns(2)
title = c1.text_input("Bank title", key="co_title", on_change=keep, args=(banks_mod,))
author = c2.text_input("Author", key="co_author", on_change=keep, args=(banks_mod,))
question_form(settings, questions_mod, banks_mod)
st.subheader(f"The bank ({len(current_questions())} questions)")
bank_table(banks_mod)
export_panel(banks_mod, title, author, st.session_state.get("co_system", settings.system))
