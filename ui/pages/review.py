"""Review page: a played hand stepped through, with each call's promise and each card's cost.

Upload or pick a played hand; step through its auction and play with what each call meant,
the promises broken and what each card cost double-dummy."""
from __future__ import annotations

import re

import streamlit as st

from fiftysix import shipped
from fiftysix.errors import FiftySixError
from fiftysix.records import format_record, parse_record, parse_records
from fiftysix.ui.components import chart, choice_in_url, page_start, read_upload, user_library, warm_solver
from fiftysix.ui.problem_parts import problem_panel
from fiftysix.ui.render import md_text
from fiftysix.ui.review_parts import (
    POSITION_SECONDS,
    VALUE_TITLE,
    auction_panel,
    play_stepper,
    review_of,
    value_chart,
)


def sample_names() -> list[str]:
    """The sample hand-record files shipped in the package (data/records/), smallest table first."""
    def natural(name: str) -> list:  # 4x8 before 4x12: the smallest (quickest) table first
        return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", name)]

    return sorted((f.name for f in shipped.data_files("records", ".txt")), key=natural)


def choose_records() -> list:
    """Records to review: an upload (checked, optionally saved to the library), the library, or samples."""
    opened = st.session_state.get("rv_open")
    sources = (["Opened"] if opened else []) + ["Upload", "Library", "Samples"]
    if st.session_state.get("rv_source") not in sources:
        st.session_state.pop("rv_source", None)
    source = choice_in_url(st.segmented_control, "Hand records", {s: "The hand opened" if s == "Opened" else s
                                                                  for s in sources},
                           default=sources[0], required=True, key="rv_source", code=str.lower)
    if source == "Opened" and opened:
        try:
            return [parse_record(opened, "the hand opened")]
        except FiftySixError as e:
            st.error(md_text(e))
            return []
    if source == "Upload":
        up = st.file_uploader("A hand-record file (.txt, .rec, .pbn or .56)", type=["txt", "rec", "pbn", "56"],
                              key="rv_upload", max_upload_size=1,
                              help="No record to hand? Pick Samples above to review one shipped with the app.")
        text = read_upload(up)
        if up is None or text is None:
            return []
        try:
            found = parse_records(text, up.name)
        except FiftySixError as e:
            st.error(f"{md_text(up.name)} was not loaded: {md_text(e)}")
            return []
        if st.button(f"Save {len(found)} record(s) to the library", key="rv_save"):
            try:
                rep = user_library().add(found, up.name)
                st.success(f"Saved {rep.added} record(s); {rep.duplicates} already there.")
            except FiftySixError as e:
                st.error(md_text(e))
        return found
    if source == "Library":
        try:
            lib = user_library()
            entries = lib.list(limit=500)
        except FiftySixError as e:
            st.error(md_text(e))
            return []
        if not entries:
            st.info("The library is empty: upload a record file and save it.")
            return []
        pick = choice_in_url(st.selectbox, "Record", entries, key="rv_lib_pick", code=lambda e: str(e.id),
                             format_func=lambda e: f"#{e.id} {e.event or 'hand'} {e.date} · {e.contract} · "
                                                   f"{e.players} players")
        return [lib.get(pick.id)]
    names = sample_names()
    if not names:
        st.info("No sample records are installed with this copy.")
        return []
    name = choice_in_url(st.selectbox, "Sample file", names, key="rv_sample")
    try:
        return parse_records(shipped.data_file("records", name).read_text(encoding="utf-8"), name)
    except FiftySixError as e:
        st.error(md_text(e))
        return []


def result_text(record) -> tuple[str, bool]:
    """The recorded result (the declarers' points, made or failed) and whether it was claimed:
    agreed while the play recorded had not decided the hand."""
    if record.result is None:
        return "-", False
    word = "" if record.made is None else (" made" if record.made else " failed")
    claimed = record.contract is not None and (not record.play or not record.play_state().is_over)
    return f"{record.result}{word}", claimed


settings = page_start("Review", "Step through a played hand: what every call meant, which promises "
                      "were broken, and what every card cost with best play.")
shown = choose_records()
if shown:
    source_sig = (st.session_state.get("rv_source"), len(shown), shown[0].line, str(shown[0].deal))
    if st.session_state.get("rv_source_sig") != source_sig:  # a new file: start at its first record
        st.session_state["rv_source_sig"] = source_sig
        st.session_state["rv_file_n"] = st.session_state.get("rv_file_n", 0) + 1
    if len(shown) > 1:
        # a box of its own for each file: the browser keeps a box's labels while its key stays,
        # and showed the last file's first record over this file's (issue 46)
        idx = st.selectbox("Record in the file", range(len(shown)), key=f"rv_pick_{st.session_state['rv_file_n']}",
                           format_func=lambda i: f"{i + 1}. {shown[i].event or 'hand'} "
                                                 f"{shown[i].contract or ''}")
        record = shown[idx]
    else:
        record = shown[0]
    text = format_record(record)
    if st.session_state.get("rv_record_sig") != text:  # a new record: its auction and play from the start
        st.session_state["rv_record_sig"] = text
        for k in ("rv_call", "rv_step"):
            st.session_state.pop(k, None)
    warm_solver()
    try:
        rev = review_of(text)
    except FiftySixError as e:
        st.error(f"This record cannot be reviewed: {md_text(e)}")
        st.stop()
    c1, c2, c3, c4, c5 = st.columns(5)
    c1.metric("Contract", rev.contract or "none",
              help=None if rev.declarer is None else f"by seat {rev.declarer} (team {rev.declaring_team})")
    c2.metric("Double-dummy at the start", "-" if rev.dd_start is None else rev.dd_start)
    if record.played_out:  # every card played: the total at the end is not what scored
        c3.metric("Declarers took (played out)", "-" if rev.actual is None else rev.actual,
                  help="to the last card, played on after the contract was decided; the result counts the "
                       "points they had when it was decided")
    else:
        c3.metric("Declarers took", "-" if rev.actual is None else rev.actual)
    result, claimed = result_text(record)
    c4.metric("Result (claimed)" if claimed else "Result", result,
              help="agreed before the play was over" if claimed else None)
    c5.metric("Broken promises", rev.broken_promises)
    auction_panel(rev, record.table)
    if rev.cards:
        st.subheader("Play")
        play_stepper(record, rev)
        chart(value_chart(rev), key="rv_chart", title=VALUE_TITLE)
        if rev.fate_changes:
            st.markdown("**The contract changed hands:** " + "; ".join(
                f"card {f.index} {f.card} by seat {f.seat} → now {f.now}s" for f in rev.fate_changes))
        if rev.lost_by_team:
            st.caption("Points given away by each team: " +
                       ", ".join(f"{t} {v}" for t, v in rev.lost_by_team.items()))
    if rev.unsolved:
        st.caption(f"{rev.unsolved} position(s) were not solved within {POSITION_SECONDS:.0f} s each.")
    for note in rev.notes:
        st.info(f"Note in the record: {md_text(note)}")
    with st.expander("Make a play problem of this hand (for a coach's bank)"):
        problem_panel(record, "rv_pb")
