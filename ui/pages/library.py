"""Hand library page: the hands saved, searched, opened in Review, deleted or exported.

Search by player, system, contract, result and date: what the command line's
``fiftysix library`` does. On a club server each member's hands are their own; a member
shares a hand to the club library on purpose, and only its owner may unshare or delete it."""
from __future__ import annotations

import streamlit as st

from fiftysix.drills.library import Library
from fiftysix.errors import FiftySixError
from fiftysix.records import format_record, format_records, parse_records
from fiftysix.ui.components import page_start, read_upload, system_names, user, user_library, words_for
from fiftysix.ui.render import md_text


def entry_row(e) -> dict:
    return {"#": e.id, "date": e.date, "event": e.event, "players": e.players, "system": e.system,
            "contract": e.contract + (f" by {e.declarer}" if e.declarer else ""),
            "result": "" if e.result is None else f"{e.result} {'made' if e.made else 'failed'}",
            "names": ", ".join(n for n in e.names if n), "source": e.source,
            **({"club library": "shared" if e.shared else "", "by": "you" if e.mine else e.owner_name}
               if user().club else {})}


def filters() -> dict:
    scope = None
    if user().club:
        scope = st.segmented_control("Hands", ["all", "mine", "club"], default="all", required=True, key="lb_scope",
                                     format_func=words_for({"all": "mine and the club's", "mine": "only mine",
                                                  "club": "the club library"}))
    c1, c2, c3 = st.columns(3)
    player = c1.text_input("Player", key="lb_player", placeholder="part of a name")
    system = c2.selectbox("System", [None, *system_names()], key="lb_system",
                          format_func=lambda s: "any" if s is None else s)
    contract = c3.text_input("Contract", key="lb_contract", placeholder="40H, NT, H or 40")
    c4, c5, c6 = st.columns(3)
    result = c4.text_input("Result", key="lb_result", placeholder="made, failed, 34, 34+")
    since = c5.text_input("From date", key="lb_since", placeholder="2026.11")
    until = c6.text_input("To date", key="lb_until", placeholder="2026.12.31")
    return {"player": player or None, "system": system, "contract": contract or None, "result": result or None,
            "since": since or None, "until": until or None, "scope": None if scope == "all" else scope}


def open_in_review(lib: Library, record_id: int) -> None:
    st.session_state["rv_open"] = format_record(lib.get(record_id))
    st.session_state["rv_source"] = "Opened"
    st.session_state["lb_go"] = True


def delete(lib: Library, ids: list[int]) -> None:
    """Delete records, keeping them whole so the deletion can be undone."""
    try:
        removed = lib.cut(ids)
    except FiftySixError as e:
        st.session_state["lb_refused"] = str(e)
        return
    st.session_state["lb_undo"] = removed
    st.session_state["lb_message"] = f"Deleted {len(removed.rows)} record(s)."
    st.session_state.pop("lb_pick", None)


def share(lib: Library, ids: list[int], shared: bool) -> None:
    try:
        n = lib.share(ids, shared)
    except FiftySixError as e:
        st.session_state["lb_refused"] = str(e)
        return
    st.session_state["lb_message"] = (f"Shared {n} record(s) to the club library." if shared
                                      else f"Took {n} record(s) out of the club library.")


def undo(lib: Library) -> None:
    """Put the deleted records back under their own numbers and sources."""
    removed = st.session_state.pop("lb_undo", None)
    if removed is None:
        return
    try:
        n = lib.put_back(removed)
    except FiftySixError as e:
        st.session_state["lb_undo"] = removed
        st.session_state["lb_message"] = f"Could not put the records back: {e}"
        return
    st.session_state["lb_message"] = f"Put back {n} record(s)" + (
        f"; {len(removed.rows) - n} were in the library again already." if n < len(removed.rows) else ".")


def import_panel(lib: Library) -> None:
    up = st.file_uploader("Add a record file to the library", type=["txt", "rec", "pbn", "56"], key="lb_upload",
                          max_upload_size=1)
    text = read_upload(up)
    if up is None or text is None:
        return
    if st.button(f"Add the records of {md_text(up.name)}", key="lb_import"):
        try:
            rep = lib.add(parse_records(text, up.name), up.name)
            st.success(f"Added {rep.added} record(s); {rep.duplicates} already there.")
        except FiftySixError as e:
            st.error(f"{md_text(up.name)} was not added: {md_text(e)}")


page_start("Hand library", "The hands you saved: search them, open one in Review, export or delete them.")
try:
    lib = user_library()
except FiftySixError as e:
    st.error(md_text(e))
    st.stop()
with st.expander("Add hands from a record file"):
    import_panel(lib)
if st.session_state.get("lb_message"):
    st.success(md_text(st.session_state.pop("lb_message")))
if st.session_state.get("lb_refused"):
    st.error(md_text(st.session_state.pop("lb_refused")))
if st.session_state.get("lb_undo") is not None and st.session_state["lb_undo"].rows:
    st.button(f"Undo: put the {len(st.session_state['lb_undo'].rows)} deleted record(s) back", key="lb_undo_btn",
              icon=":material/undo:", on_click=undo, args=(lib,))
total = lib.count()
if not total:
    st.info("The library is empty: enter a hand you played (Enter a hand), or save one from Review.")
    st.stop()
try:
    entries = lib.search(**filters())
except FiftySixError as e:
    st.error(md_text(e))
    st.stop()
st.caption(f"{len(entries)} of {total} record(s) match.")
if not entries:
    st.stop()
st.dataframe([entry_row(e) for e in entries], hide_index=True)
by_id = {e.id: e for e in entries}
picked = st.multiselect("Records", list(by_id), key="lb_pick",
                        format_func=lambda i: f"#{i} {by_id[i].event or 'hand'} {by_id[i].date} {by_id[i].contract}")
chosen = picked or list(by_id)
c1, c2, c3 = st.columns(3)
c1.button("Open in Review", key="lb_review", icon=":material/replay:", disabled=len(picked) != 1,
          on_click=open_in_review, args=(lib, picked[0] if picked else 0),
          help="pick one record above")
c2.download_button(f"Export {'the ' + str(len(picked)) + ' picked' if picked else 'all ' + str(len(chosen)) + ' matching'}"
                   " record(s)", format_records(lib.records(chosen)), file_name="hands.txt", mime="text/plain",
                   key="lb_export", on_click="ignore", icon=":material/download:")
theirs = [i for i in picked if not by_id[i].mine]
if c3.button("Delete", key="lb_delete", icon=":material/delete:", disabled=not picked or bool(theirs),
             help="pick records above" if not theirs else "only your own records: the club's are their owners' to delete"):
    st.session_state["lb_confirm"] = list(picked)
if user().club:
    s1, s2 = st.columns(2)
    s1.button("Share to the club library", key="lb_share", icon=":material/group:", disabled=not picked or bool(theirs),
              on_click=share, args=(lib, list(picked), True), help="every member of the club will see them")
    s2.button("Make private", key="lb_unshare", icon=":material/lock:", disabled=not picked or bool(theirs),
              on_click=share, args=(lib, list(picked), False))
if st.session_state.get("lb_confirm"):
    ids = st.session_state["lb_confirm"]
    st.warning(f"Delete {len(ids)} record(s) from the library?")
    d1, d2 = st.columns(2)
    if d1.button("Yes, delete", key="lb_delete_yes", type="primary"):
        st.session_state.pop("lb_confirm")
        delete(lib, ids)
        st.rerun()
    if d2.button("No, keep them", key="lb_delete_no"):
        st.session_state.pop("lb_confirm")
        st.rerun()
if st.session_state.pop("lb_go", None):
    st.switch_page("ui/pages/review.py", query_params={})
