"""Analyse: enter, paste or deal a hand; the double-dummy table; the makeable estimate from one
seat's view; step through best play."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from fiftysix.cards import SUITS, SUIT_SYMBOLS, Card, Deal, Table, random_deal
from fiftysix.errors import FiftySixError
from fiftysix.play import PlayState, trick_number
from ui import render
from ui.components import have, page_start, seat_view, show, tricks_table, user_errors, view_hands, warm_solver

STRAINS = ("S", "H", "D", "C", "NT")
TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": None}


def strain_label(strain: str) -> str:
    return "NT" if strain == "NT" else f"{SUIT_SYMBOLS[SUITS.index(strain)]} {strain}"


def table_of(key: tuple[int, int, str]) -> Table:
    return Table(*key)


SOLVE_SECONDS = 10.0  # search budget per trump (DD table) and per position (best play)


@st.cache_data(show_spinner=False, max_entries=256)
def dd_rows(deal_text: str, table_key: tuple[int, int, str], leader: int) -> list[tuple[int, dict[str, int | None]]]:
    """(declaring team, trump -> the most points it takes) with ``leader`` on lead; None where
    the search runs past its budget (the five trumps solved in parallel, cached per deal and leader)."""
    solver = warm_solver()
    deal = Deal.parse(deal_text, table_of(table_key), partial=True)
    return [(r.team, r.points) for r in solver.declarer_table(deal, (leader,), max_seconds=SOLVE_SECONDS)]


@st.cache_data(show_spinner=False, max_entries=512)
def card_values(deal_text: str, table_key: tuple[int, int, str], strain: str, leader: int,
                played: tuple[str, ...]) -> dict[str, int] | None:
    """What each legal card is worth to the side to move; None when over budget (cached per position)."""
    solver = warm_solver()
    deal = Deal.parse(deal_text, table_of(table_key), partial=True)
    pos = solver.Position.from_deal(deal, TRUMPS[strain], leader=leader,
                                    played=tuple(Card.parse(c) for c in played))
    try:
        return {str(c): int(v) for c, v in solver.card_values(pos, max_seconds=SOLVE_SECONDS).items()}
    except solver.BudgetExceeded:
        return None


def deal_input(table: Table) -> Deal | None:
    """Deal, paste or enter a hand; the current deal lives in session state as text."""
    mode = st.segmented_control("Hand", ["Deal", "Paste", "Enter by seat"], default="Deal",
                                key="an_mode", required=True)
    ss = st.session_state
    key = (table.players, table.deck, table.teams)
    if ss.get("an_table") != key:
        ss["an_table"] = key
        ss.pop("an_deal", None)
    if mode == "Deal":
        c1, c2 = st.columns([1, 3], vertical_alignment="bottom")
        seed = c1.number_input("Seed", min_value=0, max_value=10**9, value=1, step=1, key="an_seed")
        if c2.button("Deal", icon=":material/playing_cards:", key="an_deal_btn", type="primary") or "an_deal" not in ss:
            ss["an_deal"] = str(random_deal(table, seed=int(seed)))
            ss["an_played"] = []
    elif mode == "Paste":
        text = st.text_area("Deal (hands of seats 1..N, S.H.D.C, separated by spaces)",
                            value=ss.get("an_deal", ""), key="an_paste", height=80)
        if st.button("Use this deal", key="an_paste_btn", type="primary"):
            with user_errors():
                ss["an_deal"] = str(Deal.parse(text, table, partial=True))
                ss["an_played"] = []
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
    text = ss.get("an_deal")
    if not text:
        return None
    try:
        return Deal.parse(text, table, partial=True)
    except FiftySixError as e:
        st.error(str(e))
        return None


def show_dd_table(deal: Deal, table: Table) -> None:
    """The double-dummy table the way Bridge Solver Online lays it out: a row per declaring
    team and opening leader, a column per trump, the declaring team's best points in each."""
    st.subheader("Double-dummy table")
    leaders = st.multiselect("Opening leaders", list(table.seats), default=[1], key="an_dd_leaders",
                             format_func=lambda s: f"seat {s}",
                             help="Seat 1 leads by the rules; with the declarer-leads option the declarer "
                                  "leads, so add the declarers' seats. Each leader takes one solve per trump.")
    key = (table.players, table.deck, table.teams)
    warm_solver()
    rows, slow = [], set()
    total = sum(h.points for h in deal.hands)
    with user_errors():
        bar = st.progress(0.0, text="Solving the five trumps...") if leaders else None
        for k, leader in enumerate(sorted(leaders)):
            for team, points in dd_rows(str(deal), key, leader):
                row = {"declarers": f"team {table.team_name(team)}", "leader": f"seat {leader}"}
                for strain in STRAINS:
                    row[strain_label(strain)] = points[strain]
                    if points[strain] is None:
                        slow.add(strain)
                rows.append(row)
            bar.progress((k + 1) / len(leaders), text=f"Solved for {k + 1} of {len(leaders)} leader(s)")
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
            st.warning(f"{', '.join(s for s in STRAINS if s in slow)}: not solved within {SOLVE_SECONDS:.0f} s "
                       "(big deals can take the solver much longer); step through the play below to solve "
                       "smaller endings.")


def show_estimate(deal: Deal, table: Table, system: str) -> None:
    """Simulate the contract from one seat's knowledge (its hand and, optionally, an auction)."""
    st.subheader("Is it makeable? (one seat's view)")
    if not have("analyser.simulate"):
        st.info("The makeable estimate arrives with `analyser.simulate`.")
        return
    from analyser import simulate
    from analyser.dealer import View
    from fiftysix.scoring import Contract
    with st.form("an_est_form", border=True):
        c1, c2, c3, c4 = st.columns(4)
        value = c1.number_input("Bid", 28, 56, 32, key="an_est_value")
        strain = c2.selectbox("Trump", STRAINS, key="an_est_trump", format_func=strain_label)
        declarer = c3.selectbox("Declarer", list(table.seats), key="an_est_decl", format_func=lambda s: f"seat {s}")
        seat = c4.selectbox("Seen from", list(table.seats), key="an_est_seat", format_func=lambda s: f"seat {s}")
        c5, c6, c7 = st.columns([3, 1, 1])
        auction_text = c5.text_input(f"Auction heard so far ({system}; optional, its promises shape the deals)",
                                     key="an_est_auction")
        n = c6.number_input("Deals", 10, 2000, 50, step=10, key="an_est_n",
                            help="Each deal is solved double-dummy (after every possible lead when the "
                                 "seat is on lead): about a second a deal for 6 players.")
        seed = c7.number_input("Seed", 0, 10**6, 0, key="an_est_seed")
        go_ = st.form_submit_button("Simulate", type="primary")
    key = (str(deal), table, value, strain, declarer, seat, auction_text.strip(), n, seed)
    ss = st.session_state
    if go_:
        try:
            contract = Contract.make(table, int(value), TRUMPS[strain], int(declarer))
            hand = deal.hand(seat)
            view = (View.from_auction(table, system, seat, hand, auction_text) if auction_text.strip()
                    else View(table, seat, hand))
            bar = st.progress(0.0, text="Dealing and solving...")

            def tick(done: int, total: int) -> bool:
                bar.progress(done / total, text=f"Solved {done} of {total} deals...")
                return False

            est = simulate.estimate(view, contract, int(n), int(seed), should_stop=tick, batch=10)
            bar.empty()
            ss["an_est"] = (key, est)
        except FiftySixError as e:
            st.error(str(e))
            return
    if ss.get("an_est", (None,))[0] != key:
        st.caption("Choose a contract and a seat, then Simulate.")
        return
    est = ss["an_est"][1]
    lo, hi = est.interval
    c1, c2, c3 = st.columns(3)
    c1.metric("Makeable", f"{est.rate:.0%}", help="share of deals on which the declarers reach the bid "
              "double-dummy")
    c2.metric("95% interval", f"{lo:.0%} - {hi:.0%}")
    c3.metric("Deals", f"{est.deals}", help=f"{est.seconds:.1f} s")
    pts = sorted(est.points.items())
    fig = go.Figure(go.Bar(x=[p for p, _ in pts], y=[k for _, k in pts],
                           marker_color=["#1d6b40" if p >= est.contract.value else "#c0392b" for p, _ in pts],
                           hovertemplate="%{x} points: %{y} deals<extra></extra>"))
    fig.add_vline(x=est.contract.value - 0.5, line_dash="dash", annotation_text=f"bid {est.contract.value}")
    fig.update_layout(title=f"Declarers' maximum points over {est.deals} deals ({est.contract})", height=300,
                      xaxis_title="card points", yaxis_title="deals", margin=dict(t=40, b=10))
    st.plotly_chart(fig, key="an_hist")
    if est.leads:
        rows = list(est.leads)
        fig = go.Figure(go.Bar(
            x=[r.card.symbol() for r in rows], y=[r.rate for r in rows],
            error_y=dict(type="data", symmetric=False, array=[r.interval[1] - r.rate for r in rows],
                         arrayminus=[r.rate - r.interval[0] for r in rows]),
            marker_color=["#c8102e" if r.card.suit in render.RED_SUITS else "#222" for r in rows],
            customdata=[r.mean_points for r in rows],
            hovertemplate="lead %{x}: makes %{y:.0%}, declarers average %{customdata:.1f}<extra></extra>"))
        fig.update_layout(title=f"After each opening lead by seat {est.seat}: how often {est.contract} makes",
                          height=300, yaxis_tickformat=".0%", margin=dict(t=40, b=10))
        st.plotly_chart(fig, key="an_leads")
        st.dataframe([{"lead": str(r.card), "makes": f"{r.rate:.0%}",
                       "95% interval": f"{r.interval[0]:.0%} - {r.interval[1]:.0%}",
                       "declarers' average points": round(r.mean_points, 1)} for r in rows], hide_index=True)


def replay(deal: Deal, strain: str, leader: int, played: list[str]) -> PlayState:
    state = PlayState(deal, TRUMPS[strain], leader=leader, early_stop=False)
    for c in played:
        state.play(c)
    return state


@st.fragment
def best_play(deal: Deal, table: Table) -> None:
    """Step through the play card by card, each legal card shown with its double-dummy value."""
    st.subheader("Step through best play")
    ss = st.session_state
    c1, c2 = st.columns(2)
    strain = c1.selectbox("Trump", STRAINS, key="an_bp_trump", format_func=strain_label)
    leader = c2.selectbox("Leader", list(table.seats), key="an_bp_leader", format_func=lambda s: f"seat {s}")
    sig = (str(deal), strain, leader)
    if ss.get("an_bp_sig") != sig:
        ss["an_bp_sig"] = sig
        ss["an_played"] = []
    played: list[str] = ss.setdefault("an_played", [])
    state = replay(deal, strain, leader, played)
    values: dict[str, int] | None = {}
    best: str | None = None
    key = (table.players, table.deck, table.teams)
    if not state.is_over:
        with st.spinner("Solving this position..."):
            values = card_values(str(deal), key, strain, leader, tuple(played))
        best = max(values, key=lambda c: values[c]) if values else None
    b1, b2, b3, b4 = st.columns(4)
    b1.button("Play best card", icon=":material/play_arrow:", key="an_bp_next", disabled=best is None,
              on_click=played.append, args=(best,))
    b2.button("Back", icon=":material/undo:", key="an_bp_back", disabled=not played, on_click=played.pop)
    b3.button("Restart", icon=":material/first_page:", key="an_bp_restart", disabled=not played,
              on_click=played.clear)
    if b4.button("Play out", icon=":material/last_page:", key="an_bp_all", disabled=best is None):
        with st.spinner("Playing the hand out..."):
            while not state.is_over:
                v = card_values(str(deal), key, strain, leader, tuple(played))
                if not v:
                    break
                card = max(v, key=lambda c: v[c])
                played.append(card)
                state.play(card)
            values = {} if state.is_over else card_values(str(deal), key, strain, leader, tuple(played))
            best = max(values, key=lambda c: values[c]) if values else None
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
    elif values is None:
        st.warning(f"This position is too big to solve within {SOLVE_SECONDS:.0f} s: play a card by hand, "
                   "and the solver takes over once the ending is smaller.")
    elif values:
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
    if not have("analyser.solver"):
        st.info("The double-dummy solver (`analyser.solver`) is not available yet.")
    else:
        show_dd_table(deal, table)
        show_estimate(deal, table, settings.system)
        best_play(deal, table)
