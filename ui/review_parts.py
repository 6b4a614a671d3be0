"""The Review page's parts, shared with the Play page's after-hand panel.

The review of a record (kept per session), the auction call by call against the system, the
play card by card with what each card cost, and the chart of the declarers' double-dummy total.

Widget keys start with ``prefix`` (``rv`` on the Review page), so two pages keep their own
place in the auction and the play.
"""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go
import streamlit as st

from fiftysix.analyser.review import Review
from fiftysix.bots import DEFAULT_BOT
from fiftysix.cards import Card
from fiftysix.ui import heavy, render
from fiftysix.ui.components import seat_view, show, tricks_table, view_hands
from fiftysix.ui.jobs import heavy_job, in_worker
from fiftysix.ui.render import md_text

POSITION_SECONDS = 5.0  # search budget per position; a position over it is shown as unsolved
REVIEW_SECONDS = 60.0  # the whole review of a record: one click never holds the server longer


def review_of(record_text: str, bot: str | None = DEFAULT_BOT) -> Review:
    """The review of a record given in canonical text, kept for the session (positions over
    budget come back unsolved); a progress bar shows the positions solved while it runs.
    ``bot``: the bidding bot asked what the system would have bid at each call (None: none)."""
    done = st.session_state.setdefault("rv_reviews", {})
    key = (record_text, bot)
    if key not in done:
        with heavy_job("Reviewing the hand", REVIEW_SECONDS + 5) as job:
            cap = f"(stops at {REVIEW_SECONDS:.0f} s at the latest)"
            bar = st.progress(0.0, text=f"Solving every card of the play double-dummy {cap}...")

            def tick(k: int, n: int) -> None:
                bar.progress(k / n, text=f"Solving every card of the play double-dummy: {k} of {n} positions {cap}")

            # in a worker process below the pages (ui.workers); the bar moves as positions are solved
            rev = in_worker(job, partial(heavy.review_record, record_text, bot, POSITION_SECONDS, REVIEW_SECONDS),
                            on_progress=tick)
            bar.empty()
        if len(done) >= 32:
            done.pop(next(iter(done)))
        done[key] = rev
    return done[key]


def auction_panel(rev: Review, table, prefix: str = "rv") -> None:
    """The auction call by call: what each call meant, whether the caller's hand kept it, and
    what the system's bot would have called instead."""
    st.subheader("Auction")
    if not rev.calls:
        st.caption("The record has no auction.")
        return
    n = len(rev.calls)
    first_broken = next((c.index for c in rev.calls if c.fits is False), n)
    key = f"{prefix}_call"
    if st.session_state.get(key, 0) > n:
        st.session_state.pop(key)
    k = st.select_slider("Step through the auction", options=list(range(1, n + 1)), value=first_broken,
                         key=key,
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
    if c.system_bid and not c.as_system_bids:
        st.info(f"The system would have bid **{c.system_bid}** here: {c.system_reason}")
    elif c.system_reason and c.as_system_bids:
        st.caption(f"The system's bot makes the same call: {c.system_reason}")
    if c.comment:
        st.caption(f"Comment in the record: {md_text(c.comment)}")
    rows = []
    for x in rev.calls:
        flag = {True: "✔ kept", False: "✘ broken", None: ""}[x.fits]
        rows.append({"#": x.index, "seat": x.seat, "player": x.player, "call": x.call, "label": x.label,
                     "meaning": x.meaning, "promise": flag, "broken": "; ".join(x.broken),
                     "would have told the truth": " ".join(x.truthful),
                     "the system's call": x.system_bid, "why": x.system_reason,
                     "comment": x.comment})
    with st.expander("Every call", expanded=bool(rev.broken_promises)):
        st.dataframe(rows, hide_index=True)
    if rev.broken_promises:
        st.warning(f"{rev.broken_promises} call(s) promised something the caller's hand did not hold.")


VALUE_TITLE = "Declarers' double-dummy total through the play"
"""The title ``value_chart`` is drawn under (``components.chart`` writes it above the chart)."""


def value_chart(rev) -> go.Figure:
    """The declarers' double-dummy total before the play and after every card (its title is
    ``VALUE_TITLE``: draw it with ``components.chart``)."""
    xs = [0] + [c.index for c in rev.cards]
    ys = [rev.dd_start] + [c.after for c in rev.cards]  # None (unsolved) leaves a gap
    labels = ["start"] + [f"{c.card} by seat {c.seat}" + (f" costs {c.cost}" if c.cost else "") for c in rev.cards]
    colours = ["#555"] + ["#c0392b" if c.cost else "#1d6b40" for c in rev.cards]
    sizes = [6] + [6 + 2 * min(c.cost or 0, 6) for c in rev.cards]
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines+markers", line_shape="hv", text=labels,
                               marker={"color": colours, "size": sizes},
                               hovertemplate="%{text}<br>declarers: %{y}<extra></extra>", name="double-dummy"))
    if rev.target is not None:
        fig.add_hline(y=rev.target, line_dash="dash", annotation_text=f"target {rev.target}")
    fig.update_layout(height=320, xaxis_title="cards played", yaxis_title="card points", margin={"t": 10, "b": 10})
    return fig


@st.fragment
def play_stepper(record, rev, prefix: str = "rv", bottom: int = 1) -> None:
    """Card by card: the table as it stands, the card just played and what it cost; the table
    is drawn from seat ``bottom`` (the Play page: the learner's seat) unless a view is chosen."""
    table = record.table
    n = len(record.play)
    key = f"{prefix}_step"
    st.session_state.setdefault(key, 0)
    st.session_state[key] = min(st.session_state[key], n)
    b1, b2, b3, b4 = st.columns(4)
    if b1.button("Start", icon=":material/first_page:", key=f"{prefix}_first", disabled=st.session_state[key] == 0):
        st.session_state[key] = 0
    if b2.button("Back", icon=":material/chevron_left:", key=f"{prefix}_prev", disabled=st.session_state[key] == 0):
        st.session_state[key] -= 1
    if b3.button("Next card", icon=":material/chevron_right:", key=f"{prefix}_next", disabled=st.session_state[key] >= n):
        st.session_state[key] += 1
    if b4.button("End", icon=":material/last_page:", key=f"{prefix}_last", disabled=st.session_state[key] >= n):
        st.session_state[key] = n
    i = st.session_state[key]
    state = record.play_state(upto=i, early_stop=False)
    view = seat_view(table, f"{prefix}_view")
    hands, hidden = view_hands(state, view)
    pts = " · ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points))
    trick = state.current or (state.tricks[-1].plays if state.tricks and i else ())
    won = ""
    if i and not state.current and state.tricks:
        last = state.tricks[-1]
        won = f"<br>Trick {len(state.tricks)} won by seat {last.winner} (+{last.points})"
    center = (f"{render.contract_html(str(record.contract))}<br>{pts}" if record.contract else pts) + won
    show(render.table_html(table, hands, bottom=view or bottom, to_move=None if state.is_over else state.to_move,
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
            st.info(f"Comment in the record: {md_text(c.comment)}")
