"""Coach: build a quiz bank question by question (the engine fills in and checks the answer),
edit it, validate it, download it as JSON, CSV, GIFT or Anki CSV, or upload a bank to edit."""
from __future__ import annotations

import streamlit as st

from fiftysix.errors import FiftySixError
from ui.components import need, page_start, read_upload

FORMAT_FILES = {"json": ("JSON", "application/json", "json"), "csv": ("CSV", "text/csv", "csv"),
                "gift": ("GIFT (Moodle)", "text/plain", "gift"), "anki": ("Anki CSV", "text/csv", "txt")}


def failure(e: Exception) -> str:
    """What went wrong, for the error box: our own errors say it plainly; anything else is
    named by its kind too (it is a defect to report, but the page goes on)."""
    if isinstance(e, FiftySixError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def current_questions() -> list[dict]:
    """The bank being built, as question dicts (kept in session state)."""
    return st.session_state.setdefault("co_questions", [])


def bank_dict(title: str, author: str, system: str) -> dict:
    return {"format": "fiftysix-bank", "version": 1, "title": title or "Untitled bank", "author": author,
            "system": system, "questions": current_questions()}


def engine_tools():
    """The library's bank checker (drills.bankcheck), if it is installed."""
    try:
        import drills.bankcheck as bc
    except ImportError:
        return None
    return bc


def fill_question(d: dict) -> dict:
    """Fill in what the coach left blank (prompt, choices, answers) from the bidding engine."""
    tools = engine_tools()
    if tools is None or not hasattr(tools, "fill_question"):
        if d["choices"] and d["answers"]:
            return d
        raise FiftySixError("the engine cannot fill in questions here: write the choices and the answer")
    return tools.fill_question(d)


def question_form(settings, questions_mod) -> None:
    """One question: the context, then the engine fills in choices and answers (or the coach does)."""
    qs = current_questions()
    editing = st.session_state.get("co_edit")
    base = qs[editing] if editing is not None and editing < len(qs) else {}
    ctx = base.get("context", {})
    t = settings.table
    ver = st.session_state.setdefault("co_ver", 0)  # a new version = a fresh form
    with st.form("co_form", clear_on_submit=False):
        st.markdown(f"**{'Edit question ' + base['id'] if base else 'New question'}** · "
                    f"{settings.system}, {t.players} players")
        c1, c2, c3 = st.columns([2, 1, 3])
        qtype = c1.selectbox("Type", questions_mod.QUESTION_TYPES, key=f"co_type_{ver}",
                             index=questions_mod.QUESTION_TYPES.index(base.get("type", "meaning")),
                             format_func=lambda k: f"{k}: {questions_mod.TYPE_TITLES[k]}")
        seat = c2.number_input("Seat", 1, t.players, int(ctx.get("seat", 1)), key=f"co_seat_{ver}")
        qid = c3.text_input("Id", value=base.get("id", f"q{len(qs) + 1}"), key=f"co_id_{ver}")
        auction = st.text_input("Auction so far (from seat 1)", value=ctx.get("auction", ""), key=f"co_auction_{ver}")
        c4, c5 = st.columns(2)
        hand = c4.text_input("Hand (S.H.D.C; for 'your-call')", value=ctx.get("hand") or "", key=f"co_hand_{ver}")
        call = c5.text_input("Call asked about (for 'meaning')", value=base.get("data", {}).get("call", ""),
                             key=f"co_call_{ver}")
        prompt = st.text_input("Prompt (blank: the engine writes one)", value=base.get("prompt", ""),
                               key=f"co_prompt_{ver}")
        choices = st.text_area("Choices, one per line (blank: the engine fills them in)",
                               value="\n".join(base.get("choices", [])), key=f"co_choices_{ver}", height=110)
        answers = st.text_input("Right answer(s), separated by '|' (blank: the engine decides)",
                                value="|".join(base.get("answers", [])), key=f"co_answers_{ver}")
        explanation = st.text_input("Explanation", value=base.get("explanation", ""), key=f"co_expl_{ver}")
        submitted = st.form_submit_button("Fill in, check and add", type="primary")
    if not submitted:
        return
    context = {"system": settings.system, "players": t.players, "deck": t.deck, "teams": t.teams,
               "seat": int(seat), "auction": " ".join(auction.split())}
    if hand.strip():
        context["hand"] = hand.strip()
    d = {"id": qid.strip(), "type": qtype, "context": context, "prompt": prompt.strip(),
         "choices": [c.strip() for c in choices.splitlines() if c.strip()],
         "answers": [a.strip() for a in answers.split("|") if a.strip()], "explanation": explanation.strip()}
    if call.strip():
        d["data"] = {"call": call.strip()}
    try:
        d = fill_question(d)
        question = questions_mod.Question.from_dict(d, default_system=settings.system)
        tools = engine_tools()
        problems = tools.check_question(question) if tools is not None else []
    except Exception as e:  # noqa: BLE001 - whatever the coach typed, an error box, never a traceback
        st.error(f"Not added: {failure(e)}")
        return
    blocking = [p for p in problems if getattr(p, "kind", "") != "unchecked"]
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
        st.session_state["co_ver"] = ver + 1
        st.success(f"Question {question.id} updated.")
    else:
        qs.append(question.to_dict())
        st.session_state["co_ver"] = ver + 1
        st.success(f"Question {question.id} added: the answer is {question.answer!r}.")


def bank_table(questions_mod) -> None:
    qs = current_questions()
    if not qs:
        st.caption("The bank is empty: add a question above or upload a bank.")
        return
    st.dataframe([{"id": q["id"], "type": q["type"], "auction": q["context"].get("auction", ""),
                   "prompt": q["prompt"], "answer": " | ".join(q["answers"])} for q in qs], hide_index=True)
    c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
    pick = c1.selectbox("Question", range(len(qs)), key="co_pick", format_func=lambda i: qs[i]["id"])
    if c2.button("Edit", key="co_edit_btn"):
        st.session_state["co_edit"] = pick
        st.session_state["co_ver"] = st.session_state.get("co_ver", 0) + 1
        st.rerun()
    if c3.button("Delete", key="co_del_btn"):
        qs.pop(pick)
        st.session_state["co_edit"] = None
        st.rerun()


def export_panel(banks_mod, title: str, author: str, system: str) -> None:
    """Validate the whole bank and offer it in every format."""
    qs = current_questions()
    if not qs:
        return
    try:
        bank = banks_mod.Bank.from_dict(bank_dict(title, author, system), "this bank")
        tools = engine_tools()
        problems = tools.check_bank(bank) if tools is not None else []
    except Exception as e:  # noqa: BLE001
        st.error(failure(e))
        return
    if problems:
        for p in problems:
            st.warning(str(p))
    else:
        st.success(f"The bank is valid: {len(bank.questions)} question(s).")
    cols = st.columns(len(FORMAT_FILES))
    stem = "".join(ch if ch.isalnum() else "-" for ch in (title or "bank").lower()).strip("-") or "bank"
    for col, (fmt, (label, mime, ext)) in zip(cols, FORMAT_FILES.items()):
        col.download_button(label, banks_mod.export_text(bank, fmt), file_name=f"{stem}.{ext}",
                            mime=mime, key=f"co_dl_{fmt}", on_click="ignore", icon=":material/download:")


def upload_panel(banks_mod) -> None:
    up = st.file_uploader("Upload a bank (JSON, CSV, GIFT or Anki CSV)", type=["json", "csv", "gift", "txt"],
                          key="co_upload", max_upload_size=1)
    text = read_upload(up)
    if text is None:
        return
    if st.session_state.get("co_loaded") == (up.name, len(text)):
        return
    try:
        fmt = banks_mod.guess_format(up.name, text)
        bank = banks_mod.import_text(text, fmt, up.name, st.session_state.get("system"))
    except Exception as e:  # noqa: BLE001 - any file a user uploads: an error box, never a traceback
        st.error(f"{up.name} was not loaded: {failure(e)}")
        return
    st.session_state["co_questions"] = [q.to_dict() for q in bank.questions]
    st.session_state["co_title"] = bank.title
    st.session_state["co_author"] = bank.author
    st.session_state["co_loaded"] = (up.name, len(text))
    st.session_state["co_edit"] = None
    st.success(f"Loaded {len(bank.questions)} question(s) from {up.name}.")


settings = page_start("Coach", "Build a quiz bank for your players: write the situation, let the engine "
                      "work out the right answer, then download it for the app, Moodle or Anki.")
questions_mod = need("drills.questions")
banks_mod = need("drills.banks")
with st.expander("Upload a bank to edit", expanded=False):
    upload_panel(banks_mod)
c1, c2 = st.columns(2)
st.session_state.setdefault("co_title", "My bank")
st.session_state.setdefault("co_author", settings.player)
title = c1.text_input("Bank title", key="co_title")
author = c2.text_input("Author", key="co_author")
question_form(settings, questions_mod)
st.subheader(f"The bank ({len(current_questions())} questions)")
bank_table(questions_mod)
export_panel(banks_mod, title, author, settings.system)
