"""Analyse page: a hand's double-dummy table, its makeable estimate, and best play step by step.

The hand is dealt, pasted or entered by seat; the estimate is from one seat's view."""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from fiftysix.analyser.dealer import View
from fiftysix.cards import SUIT_SYMBOLS, SUITS, TRUMPS, Card, Deal, Table, format_trump, parse_trump, random_deal
from fiftysix.errors import FiftySixError
from fiftysix.play import PlayState, trick_number
from fiftysix.scoring import Contract
from fiftysix.ui import heavy, render
from fiftysix.ui.components import (
    chart,
    choice_in_url,
    in_url,
    page_start,
    seat_view,
    show,
    tricks_table,
    user_errors,
    view_hands,
    warm_solver,
    words,
    words_for,
)
from fiftysix.ui.estimate_words import lead_words, makeable_words
from fiftysix.ui.jobs import heavy_job, in_worker, run_cancellable, session_gone
from fiftysix.ui.render import md_text

DEAL_PARAM = "deal"  # a pasted or typed deal, kept in the URL so a reload or a link brings it back
TRUMP_CHOICES = tuple(format_trump(t) for t in TRUMPS)


def trump_label(trump: str) -> str:
    return "NT" if trump == "NT" else f"{SUIT_SYMBOLS[SUITS.index(trump)]} {trump}"


SOLVE_SECONDS = 10.0  # search budget of one click: the whole DD table, one position's cards, a play-out
JOB_SECONDS = SOLVE_SECONDS + 5  # the wall-clock cap of such a job (the search budget ends it first)
ASKED = "an_asked"  # the deal the user asked to solve: a deal from a link or the first visit waits for a click


def asked(deal: Deal) -> bool:
    """Did the user ask for this deal to be solved (a Deal or Use button, or Solve)? A deal
    that came from the page's address alone is not solved until they do."""
    return st.session_state.get(ASKED) == str(deal)


def ask_button(deal: Deal, what: str, key: str) -> None:
    st.caption(f"{what} starts when you ask: a deal opened from a link is not solved by itself.")
    st.button("Solve this deal", key=key, icon=":material/calculate:", on_click=st.session_state.__setitem__,
              args=(ASKED, str(deal)))


@st.cache_resource(show_spinner=False)
def solved() -> dict:
    """The solver's answers kept for the whole server (a deal's table rows per leader, a
    position's card values), by their inputs; at most ``KEEP_SOLVED``, the oldest dropped."""
    return {}


KEEP_SOLVED = 512


def cached(key: tuple, compute: Callable[[], Any]) -> Any:
    """``compute()``'s answer for ``key``, kept in ``solved()`` (an error is not kept)."""
    box = solved()
    if key in box:
        return box[key]
    value = compute()
    while len(box) >= KEEP_SOLVED:
        box.pop(next(iter(box)), None)
    box[key] = value
    return value


def dd_rows(deal_text: str, table: Table, leader: int) -> list[tuple[int, dict[str, int | None]]]:
    """(declaring team, trump -> the most points it takes) with ``leader`` on lead; None where
    the search runs past its budget (the five trumps solved in parallel in a heavy job, kept
    per deal and leader)."""
    return cached(("dd", deal_text, table, leader), lambda: run_cancellable(
        partial(heavy.dd_rows, deal_text, table, leader, SOLVE_SECONDS),
        f"Solving the five trumps with seat {leader} on lead", JOB_SECONDS))


def card_values(deal_text: str, table: Table, trump: str, leader: int, played: tuple[str, ...], label: str,
                seconds: float = SOLVE_SECONDS, job_seconds: float = JOB_SECONDS) -> dict[str, int] | None:
    """What each legal card is worth to the side to move, all cards within ``seconds``; None
    when over budget (a heavy job, kept per position)."""
    return cached(("cards", deal_text, table, trump, leader, played, seconds), lambda: run_cancellable(
        partial(heavy.card_values, deal_text, table, trump, leader, played, seconds), label, job_seconds))


# how the page takes a hand: each mode's code in the URL and the words it is shown by
HAND_MODES = {"deal": "Deal", "paste": "Paste", "seats": "Enter by seat"}


def deal_input(table: Table) -> Deal | None:
    """Deal, paste or enter a hand; the current deal lives in session state as text."""
    mode = choice_in_url(st.segmented_control, "Hand", HAND_MODES, default="deal", required=True, key="an_mode")
    ss = st.session_state
    if ss.get("an_table") != table:
        ss["an_table"] = table
        ss.pop("an_deal", None)
    linked = st.query_params.get(DEAL_PARAM)
    if mode != "deal" and linked and "an_deal" not in ss:  # a reload or a shared link of a typed deal
        try:
            ss["an_deal"] = str(Deal.parse(linked, table, partial=True))
            ss["an_played"] = []
        except FiftySixError as e:
            st.error(f"The deal in the link: {md_text(e)}")
    if mode == "deal":
        c1, c2 = st.columns([1, 3], vertical_alignment="bottom")
        seed = c1.number_input("Seed", min_value=0, max_value=10**9, value=1, step=1, **in_url("an_seed"))
        clicked = c2.button("Deal", icon=":material/playing_cards:", key="an_deal_btn", type="primary")
        if clicked or "an_deal" not in ss:
            ss["an_deal"] = str(random_deal(table, seed=int(seed)))
            ss["an_played"] = []
            if clicked:
                ss[ASKED] = ss["an_deal"]
    elif mode == "paste":
        text = st.text_area("Deal (hands of seats 1..N, S.H.D.C, separated by spaces)",
                            value=ss.get("an_deal", ""), key="an_paste", height=80)
        if st.button("Use this deal", key="an_paste_btn", type="primary"):
            with user_errors():
                ss["an_deal"] = str(Deal.parse(text, table, partial=True))
                ss["an_played"] = []
                ss[ASKED] = ss["an_deal"]
    else:
        current = ss.get("an_deal", "").split()
        cols = st.columns(min(table.players, 4))
        hands = []
        for seat in table.seats:
            default = current[seat - 1] if len(current) == table.players else "..."
            hands.append(cols[(seat - 1) % len(cols)].text_input(f"Seat {seat}", value=default,
                                                                 key=f"an_seat_{seat}"))
        if st.button("Use these hands", key="an_hands_btn", type="primary"):
            with user_errors():
                ss["an_deal"] = str(Deal.parse(" ".join(h.strip() or "..." for h in hands), table,
                                               partial=True))
                ss["an_played"] = []
                ss[ASKED] = ss["an_deal"]
    text = ss.get("an_deal")
    if mode == "deal" or not text:
        st.query_params.pop(DEAL_PARAM, None)  # a dealt hand comes back from its seed
    elif st.query_params.get(DEAL_PARAM) != text:
        st.query_params[DEAL_PARAM] = text
    if not text:
        return None
    try:
        return Deal.parse(text, table, partial=True)
    except FiftySixError as e:
        st.error(md_text(e))
        return None


def show_dd_table(deal: Deal, table: Table) -> None:
    """The double-dummy table the way Bridge Solver Online lays it out: a row per declaring
    team and opening leader, a column per trump, the declaring team's best points in each."""
    head, pop = st.columns([5, 1], vertical_alignment="bottom")
    head.subheader("Double-dummy table")
    words("double-dummy table", "double-dummy", "trump", "no-trump", "lead", "team", "card points", key="an_words_dd",
          where=pop)
    leaders = st.multiselect("Opening leaders", list(table.seats), default=[1], key="an_dd_leaders",
                             format_func=lambda s: f"seat {s}",
                             help="Seat 1 leads by the rules; with the declarer-leads option the declarer "
                                  "leads, so add the declarers' seats. Each leader takes one solve per trump.")
    if not asked(deal):
        ask_button(deal, "The table", "an_dd_go")
        return
    warm_solver()
    ss = st.session_state
    sig = (str(deal), table, tuple(sorted(leaders)))
    if ss.get("an_dd_cancelled") == sig:
        st.info("Solving the table was cancelled.")
        st.button("Solve the table", key="an_dd_resume", on_click=ss.pop, args=("an_dd_cancelled", None))
        return
    rows, slow = [], set()
    total = sum(h.points for h in deal.hands)
    with user_errors():
        cancel = st.empty()
        if leaders:
            cancel.button("Cancel", key="an_dd_cancel", icon=":material/stop:",
                          on_click=ss.__setitem__, args=("an_dd_cancelled", sig))
        bar = st.progress(0.0, text="Solving the five trumps...") if leaders else None
        for k, leader in enumerate(sorted(leaders)):
            done = dd_rows(str(deal), table, leader)
            for team, points in done:
                row: dict[str, object] = {"declarers": f"team {table.team_name(team)}", "leader": f"seat {leader}"}
                for trump in TRUMP_CHOICES:
                    row[trump_label(trump)] = points[trump]
                    if points[trump] is None:
                        slow.add(trump)
                rows.append(row)
            if bar is not None:
                bar.progress((k + 1) / len(leaders), text=f"Solved for {k + 1} of {len(leaders)} leader(s)")
        cancel.empty()
        if bar is not None:
            bar.empty()
        if not rows:
            st.caption("Choose at least one opening leader.")
            return
        st.caption(f"Each row: the most card points the declaring team takes (out of {total}) in each trump, "
                   "every card known and best play by all, with that seat on lead. A bid up to that "
                   "figure makes.")
        st.dataframe(rows, hide_index=True, width="content")
        if slow:
            st.warning(f"{', '.join(t for t in TRUMP_CHOICES if t in slow)}: not solved within {SOLVE_SECONDS:.0f} s "
                       "(big deals can take the solver much longer); step through the play below to solve "
                       "smaller endings.")


UNTIL = {0.05: "±5%", 0.03: "±3%", 0.02: "±2%", None: "all the deals"}  # ± as a player writes it, not +-
LIMITS = (10, 30, 60, 120, 300)  # the time limits a run may have, s (the server's cap: ui.jobs.MAX_JOB_SECONDS)
# The default run: until the 95% interval is within +-5% or 30 s have passed, whichever comes
# first; at 8 players that is a few dozen deals, at 4 a few hundred in a few seconds.
DEFAULT_UNTIL, DEFAULT_LIMIT = 0.05, 30
MAX_EST_DEALS, DEFAULT_DEALS = 2000, 400  # deals a run may ask for, and the default (+-5% needs at most 385)


def progress_text(est, n: int, limit: float) -> str:
    """The progress line of a running estimate: deals in, the interval, the time left."""
    lo, hi = est.interval
    left = "" if est.seconds_left is None else f"; about {est.seconds_left:.0f} s left"
    return (f"{est.deals} of at most {n} deals in; 95% interval {lo:.0%} - {hi:.0%} (±{(hi - lo) / 2:.1%})"
            f"{left} (stops at {limit:.0f} s at the latest)")


def show_estimate(deal: Deal, table: Table, system: str) -> None:
    """Simulate the contract from one seat's knowledge (its hand and, optionally, an auction):
    the first figures appear as the first deals are solved and sharpen live, with the time
    left; a run ends at its interval, its deals or its time limit; Cancel (or Streamlit's
    Stop) keeps the deals solved so far."""
    head, pop = st.columns([5, 1], vertical_alignment="bottom")
    head.subheader("Is it makeable? (one seat's view)")
    words("makeable", "simulation", "95% interval", "contract", "declarer", "double-dummy", "lead", key="an_words_make",
          where=pop)
    with st.form("an_est_form", border=True):
        c1, c2, c3, c4 = st.columns(4)
        value = c1.number_input("Bid", 28, 56, 32, key="an_est_value")
        trump = c2.selectbox("Trump", TRUMP_CHOICES, key="an_est_trump", format_func=trump_label)
        declarer = c3.selectbox("Declarer", list(table.seats), key="an_est_decl", format_func=lambda s: f"seat {s}")
        seat = c4.selectbox("Seen from", list(table.seats), key="an_est_seat", format_func=lambda s: f"seat {s}")
        auction_text = st.text_input(f"Auction heard so far ({system}; optional, its promises shape the deals)",
                                     key="an_est_auction")
        c6, c7, c8, c9 = st.columns(4)
        until = c6.selectbox("Stop at", list(UNTIL), index=list(UNTIL).index(DEFAULT_UNTIL), key="an_est_until",
                             format_func=words_for(UNTIL),
                             help="Stop as soon as the 95% interval is this tight (or at the deals or the "
                                  "time limit, whichever comes first).")
        limit = c7.selectbox("Time limit", LIMITS, index=LIMITS.index(DEFAULT_LIMIT), key="an_est_limit",
                             format_func=lambda x: f"{x} s" if x < 60 else f"{x // 60} min",
                             help="The run stops here whatever else; the figures then cover the deals solved.")
        n = c8.number_input("Deals", 10, MAX_EST_DEALS, DEFAULT_DEALS, step=10, key="an_est_n",
                            help="The most deals to solve: each is solved double-dummy (after every possible "
                                 "lead when the seat is on lead).")
        seed = c9.number_input("Seed", 0, 10**6, 0, key="an_est_seed")
        quick = st.toggle("Only whether it makes (several times faster: no points histogram, no mean points)",
                          key="an_est_quick")
        go_ = st.form_submit_button("Simulate", type="primary")
    key = (str(deal), table, value, trump, declarer, seat, auction_text.strip(), n, until, limit, seed, quick)
    ss = st.session_state
    if go_:
        try:
            contract = Contract.make(table, int(value), parse_trump(trump), int(declarer))
            hand = deal.hand(seat)
            view = (View.from_auction(table, system, seat, hand, auction_text) if auction_text.strip()
                    else View(table, seat, hand))
        except FiftySixError as e:
            st.error(md_text(e))
            return
        ss.pop("an_est", None)
        with user_errors(), heavy_job("Simulating", limit) as job:
            cancel = st.empty()
            cancel.button("Cancel", key="an_est_cancel", icon=":material/stop:",
                          help="Stop solving; the deals solved so far stay on the page.")
            bar = st.progress(0.0, text=f"Dealing and solving (stops at {job.seconds:.0f} s at the latest)...")
            live = st.empty()
            shown: dict[str, Any] = {"at": 0.0, "frac": 0.0, "text": "Dealing and solving..."}

            def on_update(est) -> None:
                ss["an_est"] = (key, est, "cancelled")  # kept if the run is cancelled or stopped
                shown["frac"] = min(1.0, est.deals / int(n))
                shown["text"] = progress_text(est, int(n), job.seconds)
                bar.progress(shown["frac"], text=shown["text"])
                with live.container():
                    show_figures(est)

            def keep_alive() -> None:
                # a Streamlit call every quarter second: where Stop, Cancel or a closed tab get in
                bar.progress(shown["frac"], text=shown["text"])
                if session_gone():
                    st.stop()  # a closed tab: stop solving for nobody

            # in a worker process below the pages; a second of the limit is kept for drawing the answer
            est = in_worker(job, partial(heavy.estimate, view, contract, int(n), int(seed), until,
                                         max(0.1, job.left() - min(1.0, job.seconds / 10)), not quick),
                            on_progress=on_update, tick=keep_alive)
            ss["an_est"] = (key, est, "time" if est.stopped else None)
            cancel.empty()
            bar.empty()
            live.empty()
    got = ss.get("an_est", (None,))
    if got[0] != key:
        st.caption(f"Choose a contract and a seat, then Simulate: a run stops at {UNTIL[until]}, "
                   f"{int(n)} deals or {limit} s, whichever comes first.")
        return
    est, why = got[1], got[2]
    if why == "cancelled":
        st.warning(f"Stopped after {est.deals} of {int(n)} deals: the figures below cover the deals solved "
                   "so far.")
    elif why == "time":
        st.warning(f"Stopped at its time limit after {est.deals} deals ({est.seconds:.0f} s): the figures below "
                   "cover them. For a tighter interval, allow more time.")
    elif until is not None and est.deals < int(n):
        st.caption(f"The 95% interval reached {UNTIL[until]} after {est.deals} deals ({est.seconds:.0f} s).")
    show_figures(est, charts=True)


def show_figures(est, charts: bool = False) -> None:
    """The estimate's share, interval and deal count; with ``charts`` also the points
    histogram and the makeable share and mean points after each lead."""
    lo, hi = est.interval
    c1, c2, c3 = st.columns(3)
    c1.metric("Makeable", f"{est.rate:.0%}", help=makeable_words(est))
    c2.metric("95% interval", f"{lo:.0%} - {hi:.0%}")
    c3.metric("Deals", f"{est.deals}", help=f"{est.seconds:.1f} s")
    for a in est.set_aside:  # promises that cannot hold with the rest (RULES.md 6)
        st.warning(str(a)[0].upper() + str(a)[1:] + ". The deals keep every other promise.")
    if not charts:
        return
    if est.points:
        points_chart(est)
    if est.location:
        seats = sorted(next(iter(est.location.values())))
        with st.expander(f"Where the unseen cards lie over these deals (seen from seat {est.seat})"):
            st.dataframe([{"card": render.card_words(c)} | {f"seat {s}": f"{row[s]:.0%}" for s in seats}
                          for c, row in est.location.items()], hide_index=True)
    if est.leads:
        leads_chart(est)


def points_chart(est) -> None:
    pts = sorted(est.points.items())
    fig = go.Figure(go.Bar(x=[p for p, _ in pts], y=[k for _, k in pts],
                           marker_color=["#1d6b40" if p >= est.contract.value else "#c0392b" for p, _ in pts],
                           hovertemplate="%{x} points: %{y} deals<extra></extra>"))
    fig.add_vline(x=est.contract.value - 0.5, line_dash="dash", annotation_text=f"bid {est.contract.value}")
    fig.update_layout(height=280, xaxis_title="card points", yaxis_title="deals", margin={"t": 20, "b": 10})
    chart(fig, key="an_hist", title=f"Declarers' maximum points over {est.deals} deals ({est.contract})")


def leads_chart(est) -> None:
    """How often the contract makes after each lead, and the declarers' mean points after it."""
    rows = list(est.leads)
    exact = all(r.mean_points == r.mean_points for r in rows)  # NaN when only yes/no was asked
    fig = go.Figure(go.Bar(
        x=[render.card_words(r.card) for r in rows], y=[r.rate for r in rows],
        error_y={"type": "data", "symmetric": False, "array": [r.interval[1] - r.rate for r in rows],
                     "arrayminus": [r.rate - r.interval[0] for r in rows]},
        marker_color=["#c8102e" if r.card.suit in render.RED_SUITS else "#222" for r in rows],
        customdata=[r.mean_points for r in rows],
        hovertemplate="lead %{x}: makes %{y:.0%}"
                      + (", declarers average %{customdata:.1f}" if exact else "") + "<extra></extra>"))
    fig.update_layout(height=280, yaxis_tickformat=".0%", margin={"t": 20, "b": 10})
    chart(fig, key="an_leads", title=f"After each opening lead by seat {est.seat}: how often {est.contract} makes")
    st.caption(lead_words(est))
    st.dataframe([{"lead": render.card_words(r.card), "makes": f"{r.rate:.0%}",
                   "95% interval": f"{r.interval[0]:.0%} - {r.interval[1]:.0%}"}
                  | ({"declarers' average points": round(r.mean_points, 1)} if exact else {}) for r in rows],
                 hide_index=True)


def replay(deal: Deal, trump: str, leader: int, played: list[str]) -> PlayState:
    state = PlayState(deal, parse_trump(trump), leader=leader, early_stop=False)
    for c in played:
        state.play(c)
    return state


@st.fragment
def best_play(deal: Deal, table: Table) -> None:
    """Step through the play card by card, each legal card shown with its double-dummy value."""
    st.subheader("Step through best play")
    ss = st.session_state
    c1, c2 = st.columns(2)
    trump = c1.selectbox("Trump", TRUMP_CHOICES, key="an_bp_trump", format_func=trump_label)
    leader = c2.selectbox("Leader", list(table.seats), key="an_bp_leader", format_func=lambda s: f"seat {s}")
    sig = (str(deal), trump, leader)
    if ss.get("an_bp_sig") != sig:
        ss["an_bp_sig"] = sig
        ss["an_played"] = []
    played: list[str] = ss.setdefault("an_played", [])
    state = replay(deal, trump, leader, played)
    values: dict[str, int] | None = {}
    best: str | None = None
    spot = (sig, tuple(played))
    cancelled = ss.get("an_bp_cancelled") == spot
    waiting = not asked(deal)
    if waiting:
        values = {}
    elif not state.is_over and not cancelled:
        cancel = st.empty()
        cancel.button("Cancel", key="an_bp_cancel", icon=":material/stop:",
                      on_click=ss.__setitem__, args=("an_bp_cancelled", spot))
        with user_errors():
            values = card_values(str(deal), table, trump, leader, tuple(played), "Solving this position")
        cancel.empty()
        best = max(values, key=values.__getitem__) if values else None
    b1, b2, b3, b4 = st.columns(4)
    b1.button("Play best card", icon=":material/play_arrow:", key="an_bp_next", disabled=best is None,
              on_click=played.append, args=(best,))
    b2.button("Back", icon=":material/undo:", key="an_bp_back", disabled=not played, on_click=drop_last, args=(played,))
    b3.button("Restart", icon=":material/first_page:", key="an_bp_restart", disabled=not played,
              on_click=played.clear)
    if b4.button("Play out", icon=":material/last_page:", key="an_bp_all", disabled=best is None):
        cancel = st.empty()
        cancel.button("Cancel", key="an_bp_cancel_all", icon=":material/stop:",
                      on_click=lambda: ss.__setitem__("an_bp_cancelled", (sig, tuple(played))))
        end = time.monotonic() + SOLVE_SECONDS  # one budget for the whole play-out
        while not state.is_over and time.monotonic() < end:
            left = max(0.05, end - time.monotonic())
            v = card_values(str(deal), table, trump, leader, tuple(played), "Playing the hand out", left, left + 5)
            if not v:
                break
            card = max(v, key=lambda c: v[c])
            played.append(card)
            state.play(card)
        cancel.empty()
        st.rerun()  # the step buttons above were drawn for the position before the play-out
    if not state.is_over:
        legal = [str(c) for c in state.legal_cards()]
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        choice = c1.selectbox(f"Or play any legal card for seat {state.to_move}", legal,
                              key=f"an_bp_pick_{len(played)}")
        c2.button("Play it", key="an_bp_play", on_click=played.append, args=(choice,))
    view = seat_view(table, "an_bp_view")
    hands, hidden = view_hands(state, view)
    team_pts = " · ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points))
    show(render.table_html(table, hands, bottom=view or 1, to_move=None if state.is_over else state.to_move,
                           trick=state.current or (state.tricks[-1].plays if state.tricks else ()),
                           center=f"{trick_caption(state)}<br>{team_pts}", hidden=hidden,
                           highlight=[] if best is None else [_card(best)]))
    with st.expander(f"Tricks played ({len(state.tricks)})"):
        tricks_table(state)
    if view is not None and not state.is_over and state.to_move != view:
        values = {}  # the hidden hand's cards and values stay hidden
        st.caption(f"Seat {state.to_move} to play: its hand is hidden in seat {view}'s view.")
    if state.is_over:
        st.success(f"Hand over: {team_pts} card points.")
    elif waiting:
        ask_button(deal, "Best play", "an_bp_go")
    elif cancelled:
        st.info("Solving this position was cancelled.")
        st.button("Solve this position", key="an_bp_resume", on_click=ss.pop, args=("an_bp_cancelled", None))
    elif values is None:
        st.warning(f"This position is too big to solve within {SOLVE_SECONDS:.0f} s: play a card by hand, "
                   "and the solver takes over once the ending is smaller.")
    elif values and best is not None:
        team = table.team_name(table.team_of(state.to_move))
        st.markdown(f"**Seat {state.to_move} to play.** Under each legal card: the card points team "
                    f"{team} takes from here with best play after it (the best card is outlined).")
        show(render.card_values_html({_card(c): v for c, v in values.items()}, _card(best)))


def trick_caption(state: PlayState) -> str:
    """What the middle of the table says: the trick being played, or who won the last one."""
    n = trick_number(state)
    if not state.current and state.tricks:
        last = state.tricks[-1]
        head = f"Trick {len(state.tricks)} won by seat {last.winner} (+{last.points})"
        return head if state.is_over else f"{head}<br>Trick {n} to start"
    return f"Trick {n}"


def drop_last(items: list[str]) -> None:
    """Take back the last card played (a button's on_click)."""
    items.pop()


def _card(text: str) -> Card:
    return Card.parse(text)


settings = page_start("Analyse", "Deal or enter a hand, then see what every trump makes with "
                      "perfect play, and what one seat can expect from what it knows.")
table = settings.table
deal = deal_input(table)
if deal is not None:
    show(render.table_html(table, {s: deal.hand(s) for s in table.seats}))
    with st.expander("Deal in notation"):
        st.code(str(deal), language=None)
    show_dd_table(deal, table)
    show_estimate(deal, table, settings.system)
    best_play(deal, table)
