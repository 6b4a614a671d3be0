"""Coach page: a quiz bank built question by question, the engine filling in and checking each.

Edit it, validate it, download it as JSON, CSV, GIFT or Anki CSV, or upload a bank to edit.
The bank being built is kept in the data folder, so a reload keeps it; each change is saved
as a change (questions keyed by id), so two tabs on the same bank never lose each other's work."""
from __future__ import annotations

import copy
import re

import streamlit as st

from fiftysix.cards import Table
from fiftysix.drills import bankcheck, banks, questions
from fiftysix.drills.generate import Generator
from fiftysix.errors import FiftySixError
from fiftysix.ui.components import owner, page_start, read_upload
from fiftysix.ui.render import md_text

FORMAT_FILES = {"json": ("JSON", "application/json", "json"), "csv": ("CSV", "text/csv", "csv"),
                "gift": ("GIFT (Moodle)", "text/plain", "gift"), "anki": ("Anki CSV", "text/csv", "txt")}
HEADER = {"co_title": "title", "co_author": "author"}
# The header's text boxes (widget keys) and the bank fields they edit. The values live in
# ``co_header`` too: Streamlit forgets a widget's key on other pages.


def failure(e: Exception) -> str:
    """What went wrong, for the error box: our own errors say it plainly; anything else is
    named by its kind too (it is a defect to report, but the page goes on)."""
    if isinstance(e, FiftySixError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def current_questions() -> list[dict]:
    """The bank being built, as question dicts (kept in session state and in the data folder)."""
    return st.session_state.setdefault("co_questions", [])


def header() -> dict:
    """The bank's title, author and system as this page holds them."""
    return st.session_state.setdefault("co_header", {"title": "My bank", "author": "", "system": "international"})


def bank_dict(title: str, author: str, system: str) -> dict:
    return {"format": "fiftysix-bank", "version": 1, "title": title or "Untitled bank", "author": author,
            "system": system, "questions": current_questions()}


def page_bank():
    """The bank as this page holds it now."""
    h = header()
    return banks.Bank.from_dict(bank_dict(h["title"], h["author"], h["system"]), "the bank")


def adopt(bank) -> None:
    """Hold ``bank`` (as kept in the data folder) as this page's bank and its last-read copy;
    the header's text boxes show its fields from the next run on."""
    ss = st.session_state
    ss["co_questions"] = [q.to_dict() for q in bank.questions]
    ss["co_base"] = bank.to_dict()
    ss["co_header"] = {"title": bank.title, "author": bank.author, "system": bank.system}
    ss["co_header_sync"] = True


def restore(settings) -> None:
    """Each run: take up the bank as kept in the data folder when it changed there (another
    tab kept a change) and this page holds no change of its own; the first run of a session
    starts a new bank where none is kept."""
    ss = st.session_state
    try:
        kept = banks.load_working_bank(owner=owner())
    except FiftySixError as e:
        if not ss.get("co_restored"):
            st.warning(f"The bank kept from last time could not be read ({md_text(e)}); starting a new one.")
        kept = None
    first = not ss.get("co_restored")
    ss["co_restored"] = True
    if kept is None:
        if first:
            ss["co_header"] = {"title": "My bank", "author": settings.player, "system": settings.system}
            ss["co_header_sync"] = True
        return
    if first or (kept.to_dict() != ss.get("co_base") and unchanged()):
        adopt(kept)


def unchanged() -> bool:
    """Whether this page holds nothing it has not kept."""
    base = st.session_state.get("co_base")
    if base is None:
        return not current_questions()
    h = header()
    return base["questions"] == current_questions() and all(base.get(k, "") == h[k] for k in h)


def sync_header_boxes() -> None:
    """Before the text boxes are drawn: show the header's fields in them (after a load, or on
    coming back to the page, when Streamlit has forgotten the boxes' keys)."""
    ss = st.session_state
    h = header()
    sync = ss.pop("co_header_sync", False)
    for key, name in HEADER.items():
        if sync or key not in ss:
            ss[key] = h[name]


def header_edited() -> None:
    ss = st.session_state
    h = header()
    for key, name in HEADER.items():
        h[name] = ss.get(key, h[name])
    keep()


def keep() -> bool:
    """Save what this page changed in the kept bank (``drills.banks.save_working_changes``),
    then hold the bank as kept, with whatever another tab kept meanwhile. False (and a
    message) when it was refused or could not be written."""
    ss = st.session_state
    try:
        before = None if ss.get("co_base") is None else banks.Bank.from_dict(ss["co_base"], "the kept bank")
        rep = banks.save_working_changes(before, page_bank(), owner=owner())
    except banks.BankConflict as e:
        ss["co_conflict"] = str(e)
        return False
    except (FiftySixError, OSError) as e:
        ss["co_keep_error"] = f"The bank could not be kept in the data folder: {e}"
        return False
    adopt(rep.bank)
    ss.pop("co_conflict", None)
    if rep.from_elsewhere:
        ss["co_elsewhere"] = (f"The bank was changed in another tab or window too: it now holds "
                              f"{len(rep.bank.questions)} question(s), with the changes made there "
                              f"({', '.join(rep.from_elsewhere)}).")
    return True


def reload_kept() -> None:
    """Drop this page's refused change and take up the bank as kept."""
    ss = st.session_state
    ss.pop("co_conflict", None)
    ss["co_edit"] = None
    ss["co_ver"] = ss.get("co_ver", 0) + 1
    kept = banks.load_working_bank(owner=owner())
    if kept is not None:
        adopt(kept)


def save_notices() -> None:
    ss = st.session_state
    if ss.get("co_keep_error"):
        st.error(md_text(ss.pop("co_keep_error")))
    if ss.get("co_elsewhere"):
        st.info(md_text(ss.pop("co_elsewhere")))
    if ss.get("co_conflict"):
        st.error(f"Not saved: {md_text(ss['co_conflict'])}. Load the bank as it is kept now (this page's last "
                 "change is dropped), then make the change again.")
        st.button("Load the bank as kept", key="co_reload", icon=":material/refresh:", on_click=reload_kept)


def editing_question() -> dict:
    """The question being edited ({} when the form adds a new one)."""
    qid = st.session_state.get("co_edit")
    return next((q for q in current_questions() if q["id"] == qid), {}) if qid is not None else {}


def form_start(base: dict, settings) -> dict:
    """What the form shows at first: the question's own fields (or a new question's defaults)."""
    ctx = base.get("context", {})
    data = base.get("data", {})
    if base:
        table = {"system": ctx.get("system") or header()["system"], "players": int(ctx.get("players", 6)),
                 "deck": int(ctx.get("deck", 48)), "teams": ctx.get("teams", "alternate")}
    else:
        t = settings.table
        table = {"system": settings.system, "players": t.players, "deck": t.deck, "teams": t.teams}
    iv = data.get("interval") or [None, None]
    # a new question starts as the type last added: a coach writes a run of one kind
    return {**table, "type": base.get("type", st.session_state.get("co_last_type", "meaning")),
            "seat": min(int(ctx.get("seat", 1)), table["players"]),
            "id": base.get("id", f"q{len(current_questions()) + 1}"), "auction": ctx.get("auction", ""),
            "hand": ctx.get("hand") or "", "call": data.get("call", ""), "about": int(data.get("about_seat", 0)),
            "low": None if iv[0] is None else round(100 * iv[0]), "high": None if iv[1] is None else round(100 * iv[1]),
            "deals": int(data.get("deals", 30)), "prompt": base.get("prompt", ""),
            "choices": "\n".join(base.get("choices", [])), "answers": "|".join(base.get("answers", [])),
            "explanation": base.get("explanation", "")}


SITUATION = ("type", "seat", "auction", "hand", "call", "about", "low", "high", "deals")
# The form's fields that set the question's situation: change one and the engine works the
# question out again; change none and only the text the coach edited changes.


def question_form(settings) -> None:
    """One question: the context, then the engine fills in choices and answers (or the coach does).
    A question being edited keeps its own context (system and table), whatever the sidebar says,
    and every field the coach did not touch."""
    ss = st.session_state
    base = editing_question()
    start = form_start(base, settings)
    system, players, deck, teams = start["system"], start["players"], start["deck"], start["teams"]
    ver = ss.setdefault("co_ver", 0)  # a new version = a fresh form
    # one slot for the last question's message, drawn on every run: the form below keeps its
    # place, so the browser never shows a stale copy of it while the engine works
    slot = st.empty()
    if ss.get("co_done"):
        kind, text = ss.pop("co_done")
        (slot.warning if kind == "warning" else slot.success)(text)
    with st.form("co_form", clear_on_submit=False):
        st.markdown(f"**{'Edit question ' + md_text(base['id']) if base else 'New question'}** · "
                    f"{md_text(system)}, {players} players, {deck} cards, {teams} teams"
                    + (" (the question's own context)" if base else " (from the sidebar)"))
        c1, c2, c3 = st.columns([2, 1, 3])
        qtype = c1.selectbox("Type", questions.QUESTION_TYPES, key=f"co_type_{ver}",
                             index=questions.QUESTION_TYPES.index(start["type"]),
                             format_func=lambda k: f"{k}: {questions.TYPE_TITLES[k]}")
        seat = c2.number_input("Seat", 1, players, start["seat"], key=f"co_seat_{ver}",
                               help="the learner's seat (for meaning, which-call and your-call: the seat to call)")
        qid = c3.text_input("Id", value=start["id"], key=f"co_id_{ver}")
        auction = st.text_input("Auction so far (from seat 1; for makeable: the whole auction)",
                                value=start["auction"], key=f"co_auction_{ver}")
        c4, c5 = st.columns(2)
        hand = c4.text_input("Hand (S.H.D.C; for 'your-call' and 'makeable')", value=start["hand"],
                             key=f"co_hand_{ver}")
        call = c5.text_input("Call asked about (for 'meaning' and 'which-call')", value=start["call"],
                             key=f"co_call_{ver}")
        c6, c7, c8, c9 = st.columns(4)
        about = c6.number_input("About seat (partner-holds)", 0, players, start["about"],
                                key=f"co_about_{ver}", help="the seat whose promises are asked about (0: none)")
        low = c7.number_input("Makes at least (%)", 0, 100, start["low"],
                              key=f"co_low_{ver}", help="makeable: the estimate's 95% interval, low end; "
                                                        "blank: the engine simulates")
        high = c8.number_input("Makes at most (%)", 0, 100, start["high"],
                               key=f"co_high_{ver}", help="makeable: the interval's high end")
        deals = c9.number_input("Deals to simulate", 10, 500, start["deals"], step=10,
                                key=f"co_deals_{ver}", help="makeable without an interval: the engine's sample")
        prompt = st.text_input("Prompt (blank: the engine writes one)", value=start["prompt"],
                               key=f"co_prompt_{ver}")
        choices = st.text_area("Choices, one per line (blank: the engine fills them in)",
                               value=start["choices"], key=f"co_choices_{ver}", height=110)
        answers = st.text_input("Right answer(s), separated by '|' (blank: the engine decides)",
                                value=start["answers"], key=f"co_answers_{ver}")
        explanation = st.text_input("Explanation", value=start["explanation"], key=f"co_expl_{ver}")
        st.caption("makeable: the contract and declarer are the auction's; partner-holds: the engine offers "
                   "statements such as 'holds a Jack of hearts' or 'at least 4 spades'.")
        submitted = st.form_submit_button("Fill in, check and add" if not base else "Fill in, check and save",
                                          type="primary")
    if base and st.button("Cancel the edit", key="co_cancel"):
        ss["co_edit"] = None
        ss["co_ver"] = ver + 1
        st.rerun()
    if not submitted:
        return
    now = {"type": qtype, "seat": int(seat), "auction": " ".join(auction.split()), "hand": hand.strip(),
           "call": call.strip(), "about": int(about), "low": low, "high": high, "deals": int(deals)}
    moved = not base or any(now[k] != (" ".join(start[k].split()) if k == "auction" else start[k])
                            for k in SITUATION)
    context = {"system": system, "players": players, "deck": deck, "teams": teams,
               "seat": now["seat"], "auction": now["auction"]}
    if now["hand"]:
        context["hand"] = now["hand"]
    d = copy.deepcopy(base)  # an edit keeps every field the form does not show (tags, family, data...)
    d.update({"id": qid.strip(), "type": qtype, "context": context, "prompt": prompt.strip(),
              "choices": [c.strip() for c in choices.splitlines() if c.strip()],
              "answers": [a.strip() for a in answers.split("|") if a.strip()], "explanation": explanation.strip()})
    if moved:  # a new situation: what the engine worked out for the old one goes
        d.pop("family", None)
        new_data = {}
        if now["call"]:
            new_data["call"] = now["call"]
        if qtype == "partner-holds" and now["about"]:
            new_data["about_seat"] = now["about"]
        if qtype == "makeable":
            if low is not None and high is not None:
                new_data["interval"] = [low / 100, high / 100]
            new_data["deals"] = now["deals"]
        d["data"] = new_data
        if not d["data"]:
            d.pop("data")
    if d.get("preferred") is not None and d["preferred"] not in d["answers"]:
        d.pop("preferred")
    try:
        with st.spinner("The engine fills in and checks the question..."):
            if not moved and d["prompt"] and d["choices"] and d["answers"]:
                question = questions.Question.from_dict(d, default_system=system)  # text edits only
            else:
                question = Generator(system, Table(players, deck, teams)).fill(d)
            problems = bankcheck.check_question(question)
    except Exception as e:  # noqa: BLE001 - whatever the coach typed, an error box, never a traceback
        st.error(f"Not {'saved' if base else 'added'}: {md_text(failure(e))}")
        return
    blocking = [p for p in problems if p.kind != "unchecked"]
    for p in problems:
        (st.error if p in blocking else st.warning)(md_text(p))
    if blocking:
        st.error(f"Not {'saved' if base else 'added'}: the engine disagrees (see above).")
        return
    qs = current_questions()
    taken = {q["id"] for q in qs if q is not base}
    renamed = ""
    if not base and question.id in taken and re.fullmatch(r"q\d+", question.id):
        # the form's own numbering, taken meanwhile (another tab added a question): the next free one
        fresh = next(f"q{n}" for n in range(len(qs) + 1, len(qs) + len(taken) + 2) if f"q{n}" not in taken)
        renamed = f" (the id {question.id} was taken meanwhile)"
        question = questions.Question.from_dict({**question.to_dict(), "id": fresh}, default_system=system)
    if question.id in taken:
        st.error(f"Not {'saved' if base else 'added'}: the id {md_text(question.id)} is already in the bank.")
        return
    kept_qs = list(qs)
    if base:
        qs[qs.index(base)] = question.to_dict()
    else:
        qs.append(question.to_dict())
    if not keep():
        ss["co_questions"] = kept_qs  # refused: the page holds what it held before
        st.rerun()
    if not base:
        ss["co_last_type"] = question.type
    ss["co_edit"] = None
    ss["co_ver"] = ver + 1
    kind, text = done_message(question, base, int(seat), problems)
    ss["co_done"] = (kind, text + md_text(renamed))
    st.rerun()  # a fresh, empty form


def done_message(question, base: dict, seat: int, problems) -> tuple[str, str]:
    """What the page says after a question is added or saved: every right answer, and what
    the coach should know (a seat the engine had to change, most choices right)."""
    q = question
    kind = "success"
    right = [a + (" (the system's call)" if a == q.preferred and len(q.answers) > 1 else "") for a in q.answers]
    said = (f"the right answer is {right[0]}" if len(right) == 1
            else f"{len(right)} answers count as right: {', '.join(right[:-1])} and {right[-1]}")
    parts = [f"Question {q.id} {'saved' if base else 'added'}: {said}."]
    if q.type == "makeable" and "set_aside" in q.data:  # the engine simulated it
        lo, hi = q.data["interval"]
        parts.append(f"The engine's estimate: {q.data['estimate']:.0%} ({lo:.0%} to {hi:.0%} over "
                     f"{q.data['deals']} deals).")
    if 2 * len(q.answers) > len(q.choices):
        kind = "warning"
        fix = (" Simulate more deals (raise 'Deals to simulate') or give a narrower interval." if q.type == "makeable"
               else " Write choices that are wrong, or fewer right ones.")
        parts.append(f"{len(q.answers)} of the {len(q.choices)} choices count as right, so a guess is right more often "
                     f"than not.{fix}")
    if seat != q.context.seat:
        kind = "warning"
        after = f"after {q.context.auction}" if q.context.auction else "at the start of the auction"
        parts.append(f"Seat {seat} was given, but {after} seat {q.context.seat} is to call: the question is for "
                     f"seat {q.context.seat}.")
    parts += [f"({p})" for p in problems]
    return kind, md_text(" ".join(parts))


def delete_question(qid: str) -> None:
    ss = st.session_state
    qs = current_questions()
    index = next((i for i, q in enumerate(qs) if q["id"] == qid), None)
    if index is None:
        return
    removed = qs.pop(index)
    ss["co_edit"] = None
    if keep():
        ss["co_undo"] = (index, removed)
    else:
        qs.insert(index, removed)


def undo_delete() -> None:
    index, q = st.session_state.pop("co_undo")
    qs = current_questions()
    if any(x["id"] == q["id"] for x in qs):
        st.session_state["co_undo_error"] = f"{q['id']} is back already under that id"
        return
    qs.insert(min(index, len(qs)), q)
    if not keep():
        qs.remove(q)
        st.session_state["co_undo"] = (index, q)


def start_edit(qid: str) -> None:
    st.session_state["co_edit"] = qid
    st.session_state["co_ver"] = st.session_state.get("co_ver", 0) + 1


def bank_table() -> None:
    qs = current_questions()
    undo = st.session_state.get("co_undo")
    if undo is not None:
        st.button(f"Undo: put question {md_text(undo[1]['id'])} back", key="co_undo_btn", icon=":material/undo:",
                  on_click=undo_delete)
    if st.session_state.get("co_undo_error"):
        st.error(md_text(st.session_state.pop("co_undo_error")))
    if not qs:
        st.caption("The bank is empty: add a question above or upload a bank.")
        return
    # The answer sits before the long prompt, and the prompt's width is capped, so that a
    # wide bank keeps its answers on screen (at 1400 px they had scrolled off).
    st.dataframe([{"id": q["id"], "type": q["type"], "answer": " | ".join(q["answers"]),
                   "prompt": q["prompt"], "auction": q["context"].get("auction", ""),
                   "system": q["context"].get("system", ""), "players": q["context"].get("players", "")}
                  for q in qs], hide_index=True,
                 column_config={"prompt": st.column_config.TextColumn("prompt", width="large"),
                                "answer": st.column_config.TextColumn("answer", width="medium")})
    c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
    ids = [q["id"] for q in qs]
    pick = c1.selectbox("Question", range(len(ids)), key="co_pick", format_func=lambda i: ids[i])
    qid = ids[min(pick or 0, len(ids) - 1)]
    c2.button("Edit", key="co_edit_btn", on_click=start_edit, args=(qid,),
              disabled=qs[min(pick or 0, len(ids) - 1)]["type"] in questions.PROBLEM_TYPES,
              help="A play problem is made and checked by the engine (Problems, Enter, Review and Play "
                   "pages); delete it and make another instead of editing it.")
    c3.button("Delete", key="co_del_btn", on_click=delete_question, args=(qid,))


def bank_problems(bank) -> tuple[list, list]:
    """The engine's problems with a bank: the blocking ones (errors) and the rest (unchecked)."""
    problems = bankcheck.check_bank(bank)
    return [p for p in problems if p.kind != "unchecked"], [p for p in problems if p.kind == "unchecked"]


def export_panel() -> None:
    """Validate the whole bank; offer it in every format only when the engine finds no error."""
    qs = current_questions()
    if not qs:
        return
    try:
        bank = page_bank()
        errors, notes = bank_problems(bank)
    except Exception as e:  # noqa: BLE001
        st.error(md_text(failure(e)))
        return
    for p in notes:
        st.warning(md_text(p))
    if errors:
        for p in errors:
            st.error(md_text(p))
        st.error(f"The bank has {len(errors)} error(s): edit or delete those questions before exporting it.")
        return
    st.success(f"The bank is valid: {len(bank.questions)} question(s).")
    cols = st.columns(len(FORMAT_FILES))
    stem = banks.file_stem(bank.title)
    for col, (fmt, (label, mime, ext)) in zip(cols, FORMAT_FILES.items()):
        col.download_button(label, banks.export_text(bank, fmt), file_name=f"{stem}.{ext}",
                            mime=mime, key=f"co_dl_{fmt}", on_click="ignore", icon=":material/download:")
    st.caption(f"Saved as {stem}.json, .csv, .gift or .txt (Anki).")


def take_bank(bank, how: str, name: str) -> None:
    """Replace the bank being built with ``bank``, or merge ``bank`` into it."""
    ss = st.session_state
    before = (list(current_questions()), dict(header()))
    if how == "replace":
        ss["co_questions"] = [q.to_dict() for q in bank.questions]
        ss["co_header"] = {"title": bank.title, "author": bank.author, "system": bank.system}
        message = f"Replaced the bank with {len(bank.questions)} question(s) from {name}."
    else:
        rep = banks.merge_banks(page_bank(), bank)
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
    if keep():
        ss["co_message"] = ("warning" if errors else "success", message)
    else:
        ss["co_questions"], ss["co_header"] = before


def show_message() -> None:
    kind, text = st.session_state.pop("co_message")
    (st.warning if kind == "warning" else st.success)(md_text(text))


def not_a_bank(name: str, text: str, e: Exception) -> str:
    """Why an upload is not a bank, in words: a hand record says so and where it opens."""
    if banks.is_hand_record(text):
        return (f"{name} looks like a hand record, not a quiz bank. Open it on the Review page (Hand records: "
                "Upload) to step through it, or add it to the Hand library.")
    return f"{name} was not loaded: {failure(e)}"


def upload_panel() -> None:
    """Read an uploaded bank; say what the engine finds wrong with it; ask before it replaces
    the bank being built (or merge it in)."""
    ss = st.session_state
    up = st.file_uploader("Upload a bank (JSON, CSV, GIFT or Anki CSV)", type=["json", "csv", "gift", "txt"],
                          key="co_upload", max_upload_size=1)
    if ss.get("co_message"):
        show_message()
    text = read_upload(up)
    if up is None or text is None:
        return
    if ss.get("co_loaded") != up.file_id:  # each upload once, the same file again too
        ss["co_loaded"] = up.file_id
        try:
            fmt = banks.guess_format(up.name, text)
            bank = banks.import_text(text, fmt, up.name, ss.get("system"))
        except Exception as e:  # noqa: BLE001 - any file a user uploads: an error box, never a traceback
            ss.pop("co_pending", None)
            st.error(md_text(not_a_bank(up.name, text, e)))
            return
        if not current_questions():
            take_bank(bank, "replace", up.name)
            if ss.get("co_message"):
                show_message()
        else:
            ss["co_pending"] = (up.name, bank)
    pending = ss.get("co_pending")
    if pending is not None:
        name, bank = pending
        st.warning(f"{md_text(name)} holds {len(bank.questions)} question(s); the bank you are building holds "
                   f"{len(current_questions())}. Replace it, or merge the upload into it?")
        c1, c2, c3 = st.columns(3)
        c1.button("Replace my bank", key="co_replace", on_click=take_bank, args=(bank, "replace", name))
        c2.button("Merge into my bank", key="co_merge", on_click=take_bank, args=(bank, "merge", name))
        if c3.button("Keep my bank", key="co_keep"):
            ss.pop("co_pending", None)
            st.rerun()


settings = page_start("Coach", "Build a quiz bank for your players: write the situation, let the engine "
                      "work out the right answer, then download it for the app, Moodle or Anki.")
restore(settings)
save_notices()
with st.expander("Upload a bank to edit", expanded=st.session_state.get("co_pending") is not None):
    upload_panel()
sync_header_boxes()
c1, c2 = st.columns(2)
c1.text_input("Bank title", key="co_title", on_change=header_edited)
c2.text_input("Author", key="co_author", on_change=header_edited)
question_form(settings)
n = len(current_questions())
st.subheader(f"The bank ({n} question{'' if n == 1 else 's'})")
bank_table()
export_panel()
