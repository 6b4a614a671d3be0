"""Review page: a played hand stepped through, with each call's promise and each card's cost.

Upload or pick a played hand; step through its auction and play with what each call meant,
the promises broken and what each card cost double-dummy."""
from __future__ import annotations

import re
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from drills.system_bids import system_bids
from fiftysix.cards import Card
from drills import library
from fiftysix import records
from fiftysix.errors import FiftySixError
from ui import render
from ui.components import in_url, page_start, read_upload, seat_view, show, tricks_table, view_hands, warm_solver

RECORDS = Path(__file__).resolve().parents[2] / "data" / "records"


def sample_files() -> list[Path]:
    """The sample hand-record files shipped in data/records/."""
    if not RECORDS.is_dir():
        return []
    def natural(p: Path) -> list:  # 4x8 before 4x12: the smallest (quickest) table first
        return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p.name)]

    return sorted((p for p in RECORDS.rglob("*") if p.is_file() and p.suffix.lower() not in (".md", ".json")),
                  key=natural)


POSITION_SECONDS = 5.0  # search budget per position; a position over it is shown as unsolved
REVIEW_SECONDS = 60.0  # the whole review of a record: one click never holds the server longer


def review_of(record_text: str):
    """The review of a record given in canonical text, kept for the session (positions over
    budget come back unsolved); a progress bar shows the positions solved while it runs."""
    from analyser.review import review
    from fiftysix.records import parse_record
    done = st.session_state.setdefault("rv_reviews", {})
    if record_text not in done:
        bar = st.progress(0.0, text="Solving every card of the play double-dummy...")

        def tick(k: int, n: int) -> None:
            bar.progress(k / n, text=f"Solving every card of the play double-dummy: {k} of {n} positions")

        rev = review(parse_record(record_text), max_seconds=POSITION_SECONDS, on_progress=tick,
                     total_seconds=REVIEW_SECONDS)
        bar.empty()
        if len(done) >= 32:
            done.pop(next(iter(done)))
        done[record_text] = rev
    return done[record_text]


def choose_records(records_mod, library_mod) -> list:
    """Records to review: an upload (checked, optionally saved to the library), the library, or samples."""
    opened = st.session_state.get("rv_open")
    sources = (["Opened"] if opened else []) + ["Upload", "Library", "Samples"]
    if st.session_state.get("rv_source") not in sources:
        st.session_state.pop("rv_source", None)
    source = st.segmented_control("Hand records", sources, default=sources[0], required=True,
                                  format_func=lambda s: "The hand opened" if s == "Opened" else s,
                                  **in_url("rv_source"))
    if source == "Opened":
        try:
            return [records_mod.parse_record(opened, "the hand opened")]
        except FiftySixError as e:
            st.error(str(e))
            return []
    if source == "Upload":
        up = st.file_uploader("A hand-record file (.txt, .rec, .pbn or .56)", type=["txt", "rec", "pbn", "56"],
                              key="rv_upload", max_upload_size=1,
                              help="No record to hand? Pick Samples above to review one shipped with the app.")
        text = read_upload(up)
        if text is None:
            return []
        try:
            records = records_mod.parse_records(text, up.name)
        except FiftySixError as e:
            st.error(f"{up.name} was not loaded: {e}")
            return []
        if st.button(f"Save {len(records)} record(s) to the library", key="rv_save"):
            try:
                rep = library_mod.Library().add(records, up.name)
                st.success(f"Saved {rep.added} record(s); {rep.duplicates} already there.")
            except FiftySixError as e:
                st.error(str(e))
        return records
    if source == "Library":
        try:
            lib = library_mod.Library()
            entries = lib.list(limit=500)
        except FiftySixError as e:
            st.error(str(e))
            return []
        if not entries:
            st.info("The library is empty: upload a record file and save it.")
            return []
        pick = st.selectbox("Record", entries, **in_url("rv_lib_pick"),
                            format_func=lambda e: f"#{e.id} {e.event or 'hand'} {e.date} · {e.contract} · "
                                                  f"{e.players} players")
        return [lib.get(pick.id)]
    files = sample_files()
    if not files:
        st.info("No sample records are installed under data/.")
        return []
    path = st.selectbox("Sample file", files, format_func=lambda p: p.name, **in_url("rv_sample"))
    try:
        return records_mod.parse_records(path.read_text(encoding="utf-8"), path.name)
    except FiftySixError as e:
        st.error(str(e))
        return []


def auction_panel(rev, table, bids: dict) -> None:
    """The auction call by call: what each call meant, whether the caller's hand kept it, and
    what the system's bot would have called instead (``bids``: call index -> SystemBid)."""
    st.subheader("Auction")
    if not rev.calls:
        st.caption("The record has no auction.")
        return
    n = len(rev.calls)
    first_broken = next((c.index for c in rev.calls if c.fits is False), n)
    if st.session_state.get("rv_call", 0) > n:
        st.session_state.pop("rv_call")
    k = st.select_slider("Step through the auction", options=list(range(1, n + 1)), value=first_broken,
                         key="rv_call",
                         format_func=lambda i: f"{i}. {rev.calls[i - 1].call}") if n > 1 else 1
    show(render.auction_html(table, [(c.seat, c.call, c.label, c.meaning) for c in rev.calls[:k]], mark=k - 1))
    c = rev.calls[k - 1]
    who = f"**Seat {c.seat}**" + ("" if c.player == f"seat {c.seat}" else f" ({c.player})")
    text = f"{who} **{c.call}**: {c.label}. {c.meaning}"
    if c.fits is False:
        st.error(text + "\n\nBroken promise: " + "; ".join(c.broken) +
                 (f"\n\nCalls that would have told the truth: {' '.join(c.truthful[:12])}" if c.truthful else ""))
    elif c.fits:
        st.success(text + "\n\nThe hand kept this promise.")
    else:
        st.info(text)
    bot = bids.get(c.index)
    if bot is not None and bot.system and not bot.same:
        st.info(f"The system would have bid **{bot.system}** here: {bot.reason}")
    elif bot is not None and bot.same:
        st.caption(f"The system's bot makes the same call: {bot.reason}")
    if c.comment:
        st.caption(f"Comment in the record: {c.comment}")
    rows = []
    for x in rev.calls:
        flag = {True: "✔ kept", False: "✘ broken", None: ""}[x.fits]
        b = bids.get(x.index)
        rows.append({"#": x.index, "seat": x.seat, "player": x.player, "call": x.call, "label": x.label,
                     "meaning": x.meaning, "promise": flag, "broken": "; ".join(x.broken),
                     "would have told the truth": " ".join(x.truthful),
                     "the system's call": "" if b is None else b.system, "why": "" if b is None else b.reason,
                     "comment": x.comment})
    with st.expander("Every call", expanded=bool(rev.broken_promises)):
        st.dataframe(rows, hide_index=True)
    if rev.broken_promises:
        st.warning(f"{rev.broken_promises} call(s) promised something the caller's hand did not hold.")


def value_chart(rev) -> go.Figure:
    """The declarers' double-dummy total before the play and after every card."""
    xs = [0] + [c.index for c in rev.cards]
    ys = [rev.dd_start] + [c.after for c in rev.cards]  # None (unsolved) leaves a gap
    labels = ["start"] + [f"{c.card} by seat {c.seat}" + (f" costs {c.cost}" if c.cost else "") for c in rev.cards]
    colours = ["#555"] + ["#c0392b" if c.cost else "#1d6b40" for c in rev.cards]
    sizes = [6] + [6 + 2 * min(c.cost or 0, 6) for c in rev.cards]
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines+markers", line_shape="hv", text=labels,
                               marker=dict(color=colours, size=sizes),
                               hovertemplate="%{text}<br>declarers: %{y}<extra></extra>", name="double-dummy"))
    if rev.target is not None:
        fig.add_hline(y=rev.target, line_dash="dash", annotation_text=f"target {rev.target}")
    fig.update_layout(title="Declarers' double-dummy total through the play", height=320,
                      xaxis_title="cards played", yaxis_title="card points", margin=dict(t=40, b=10))
    return fig


@st.fragment
def play_stepper(record, rev) -> None:
    """Card by card: the table as it stands, the card just played and what it cost."""
    table = record.table
    n = len(record.play)
    key = "rv_step"
    st.session_state.setdefault(key, 0)
    st.session_state[key] = min(st.session_state[key], n)
    b1, b2, b3, b4 = st.columns(4)
    if b1.button("Start", icon=":material/first_page:", key="rv_first", disabled=st.session_state[key] == 0):
        st.session_state[key] = 0
    if b2.button("Back", icon=":material/chevron_left:", key="rv_prev", disabled=st.session_state[key] == 0):
        st.session_state[key] -= 1
    if b3.button("Next card", icon=":material/chevron_right:", key="rv_next", disabled=st.session_state[key] >= n):
        st.session_state[key] += 1
    if b4.button("End", icon=":material/last_page:", key="rv_last", disabled=st.session_state[key] >= n):
        st.session_state[key] = n
    i = st.session_state[key]
    state = record.play_state(upto=i, early_stop=False)
    view = seat_view(table, "rv_view")
    hands, hidden = view_hands(state, view)
    pts = " · ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points))
    trick = state.current or (state.tricks[-1].plays if state.tricks and i else ())
    won = ""
    if i and not state.current and state.tricks:
        last = state.tricks[-1]
        won = f"<br>Trick {len(state.tricks)} won by seat {last.winner} (+{last.points})"
    center = (f"{render.contract_html(str(record.contract))}<br>{pts}" if record.contract else pts) + won
    show(render.table_html(table, hands, bottom=view or 1, to_move=None if state.is_over else state.to_move,
                           trick=trick, center=center, hidden=hidden))
    with st.expander(f"Tricks played ({len(state.tricks)})"):
        tricks_table(state)
    if i == 0:
        if rev.dd_start is None:
            st.markdown(f"**Before the opening lead**: the declarers' best total (target {rev.target}) was not "
                        f"solved within {POSITION_SECONDS:.0f} s; step on to where the solver takes over.")
        else:
            st.markdown(f"**Before the opening lead** the declarers can take {rev.dd_start} points with best "
                        f"play (target {rev.target}).")
    else:
        c = rev.cards[i - 1]
        side = "declarer" if c.declarer_side else "defender"
        verdict = ("was not solved within the time limit" if c.cost is None
                   else f"costs **{c.cost}** point(s): best was {' '.join(c.best)}" if c.cost
                   else "is a best card")
        who = f"seat {c.seat}" + ("" if c.player == f"seat {c.seat}" else f" ({c.player})")
        st.markdown(f"Card {i} (trick {c.trick}): {who}, {side}, plays "
                    f"**{c.card}**, which {verdict}. Declarers' double-dummy total "
                    f"{'?' if c.before is None else c.before} → {'?' if c.after is None else c.after}.")
        show(render.card_html(Card.parse(c.card), big=True, highlight=bool(c.cost)))
        if c.comment:
            st.info(f"Comment in the record: {c.comment}")


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
records_mod = records
library_mod = library
records = choose_records(records_mod, library_mod)
if records:
    source_sig = (st.session_state.get("rv_source"), len(records), records[0].line, str(records[0].deal))
    if st.session_state.get("rv_source_sig") != source_sig:  # a new file: start at its first record
        st.session_state["rv_source_sig"] = source_sig
        st.session_state.pop("rv_pick", None)
    if len(records) > 1:
        idx = st.selectbox("Record in the file", range(len(records)), key="rv_pick",
                           format_func=lambda i: f"{i + 1}. {records[i].event or 'hand'} "
                                                 f"{records[i].contract or ''}")
        record = records[idx]
    else:
        record = records[0]
    text = records_mod.format_record(record)
    if st.session_state.get("rv_record_sig") != text:  # a new record: its auction and play from the start
        st.session_state["rv_record_sig"] = text
        for k in ("rv_call", "rv_step"):
            st.session_state.pop(k, None)
    warm_solver()
    try:
        rev = review_of(text)
        bids = {b.index: b for b in system_bids(record)}
    except FiftySixError as e:
        st.error(f"This record cannot be reviewed: {e}")
        st.stop()
    c1, c2, c3, c4, c5 = st.columns(5)
    c1.metric("Contract", rev.contract or "none",
              help=None if rev.declarer is None else f"by seat {rev.declarer} (team {rev.declaring_team})")
    c2.metric("Double-dummy at the start", "-" if rev.dd_start is None else rev.dd_start)
    c3.metric("Declarers took", "-" if rev.actual is None else rev.actual)
    result, claimed = result_text(record)
    c4.metric("Result (claimed)" if claimed else "Result", result,
              help="agreed before the play was over" if claimed else None)
    c5.metric("Broken promises", rev.broken_promises)
    auction_panel(rev, record.table, bids)
    if rev.cards:
        st.subheader("Play")
        play_stepper(record, rev)
        st.plotly_chart(value_chart(rev), key="rv_chart")
        if rev.fate_changes:
            st.markdown("**The contract changed hands:** " + "; ".join(
                f"card {f.index} {f.card} by seat {f.seat} → now {f.now}s" for f in rev.fate_changes))
        if rev.lost_by_team:
            st.caption("Points given away by each team: " +
                       ", ".join(f"{t} {v}" for t, v in rev.lost_by_team.items()))
    if rev.unsolved:
        st.caption(f"{rev.unsolved} position(s) were not solved within {POSITION_SECONDS:.0f} s each.")
    for note in rev.notes:
        st.info(f"Note in the record: {note}")
