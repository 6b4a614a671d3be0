"""Explain: type or click an auction; every call with its meaning, the legal next calls with what
each would mean now, the contract, and what the table knows about every unseen card."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from fiftysix.cards import CARD_NAMES, SUIT_SYMBOLS, Hand, Table, random_deal
from fiftysix.errors import FiftySixError
from ui import render
from ui.components import call_worth, need, page_start, show

PALETTE_BUTTONS = 16  # buttons per call family (cheapest first); every call is in the table


def popover_label(call: str) -> str:
    """A call for a button label: the canonical text with red suit letters (markdown)."""
    out = []
    for piece in render.call_pieces(call):
        out.append(f":red[{piece}]" if piece in ("H", "D") else piece)
    return "".join(out)


def meaning_md(label: str, sentence: str, constraint) -> str:
    promise = constraint.describe() if constraint is not None else ""
    text = f"**{label}**\n\n{sentence}"
    if promise and promise not in sentence:
        text += f"\n\n*Promise as the dealer reads it:* {promise}"
    return text


def add_call(call: str) -> None:
    """Palette button callback: append a call to the auction text."""
    text = st.session_state.get("ex_text", "")
    st.session_state["ex_text"] = (text + " " + call).strip()


def undo_call() -> None:
    st.session_state["ex_text"] = " ".join(st.session_state.get("ex_text", "").split()[:-1])


def clear_calls() -> None:
    st.session_state["ex_text"] = ""


def auction_grid(table: Table, records) -> None:
    """The auction by seat, one row per round; each call opens its meaning in a popover."""
    n = table.players
    heads = st.columns(n)
    for i, col in enumerate(heads):
        colour = render.TEAM_COLOURS[table.team_of(i + 1) % len(render.TEAM_COLOURS)]
        col.html(f'<div style="font:600 .85em sans-serif;border-bottom:3px solid {colour}">Seat {i + 1}'
                 f' · {table.team_name(table.team_of(i + 1))}</div>')
    if not records:
        st.caption("No calls yet: type an auction above or click a call in the palette below.")
        return
    cols = None
    for k, rec in enumerate(records):
        seat = int(rec.seat)
        if cols is None or seat == 1 or k == 0:
            cols = st.columns(n)
        m = rec.meaning
        with cols[seat - 1].popover(popover_label(str(rec.call)), key=f"ex_pop_{k}", width="stretch"):
            st.markdown(meaning_md(m.label, m.sentence, m.constraint))
            call_worth(settings.system, table, " ".join(str(r.call) for r in records[:k]), str(rec.call),
                       key=f"ex_worth_{k}")
            value = getattr(rec, "value", None)
            if value:
                st.caption(f"Bid stands at {value}" +
                           (f", trump {render.suit_name(rec.trump)}" if getattr(rec, "trump", None) is not None
                            else ""))


def palette(auction) -> None:
    """The legal next calls by family, each with what it would mean now; a click makes the call."""
    calls = list(auction.legal_calls())
    st.subheader(f"Seat {auction.to_move} to call: {len(calls)} legal calls")
    families: dict[str, list[tuple[str, object]]] = {}
    for c in calls:
        families.setdefault(str(getattr(c, "kind", "call")).replace("_", "-"), []).append(
            (str(c), auction.meaning_of(c)))
    quiet = [f for f in ("pass", "double", "redouble", "forced") if f in families]
    bids = [f for f in families if f not in quiet]
    row = st.columns(max(1, len(quiet)) + 3)
    for i, fam in enumerate(quiet):
        for text, m in families[fam]:
            row[i].button(popover_label(text), key=f"ex_call_{text}", help=f"{m.label}: {m.sentence}",
                          on_click=add_call, args=(text,), width="stretch")
    if bids:
        for fam, tab in zip(bids, st.tabs([f"{f} ({len(families[f])})" for f in bids])):
            with tab:
                cols = st.columns(8)
                shown = families[fam][:PALETTE_BUTTONS]
                for i, (text, m) in enumerate(shown):
                    cols[i % 8].button(popover_label(text), key=f"ex_call_{text}",
                                       help=f"{m.label}: {m.sentence}", on_click=add_call, args=(text,),
                                       width="stretch")
                if len(families[fam]) > len(shown):
                    st.caption(f"... and {len(families[fam]) - len(shown)} higher ones in the table below.")
    with st.expander("Every legal call and what it would mean now"):
        st.dataframe([{"call": t, "family": f, "label": m.label, "meaning": m.sentence}
                      for f, items in families.items() for t, m in items], hide_index=True)


@st.cache_data(show_spinner="Dealing thousands of hands that fit the auction...", max_entries=64)
def card_grid(table_key: tuple[int, int, str], system: str, auction_text: str, seat: int, hand: str,
              n: int, seed: int) -> tuple[list[int], list[str], list[list[float]]]:
    """(hidden seats, unseen card names, share of each card's unseen copies in each seat) over
    ``n`` deals that fit what ``seat`` knows."""
    from analyser.dealer import Dealer, View
    from analyser.simulate import location_grid
    table = Table(*table_key)
    view = View.from_auction(table, system, seat, Hand.parse(hand), auction_text)
    grid = location_grid(view, Dealer(view).sample_counts(n, seed=seed))
    kinds = sorted(grid)
    seats = list(view.hidden_seats)
    return seats, [CARD_NAMES[k] for k in kinds], [[grid[k][s] for k in kinds] for s in seats]


def table_knows(table: Table, system: str, auction_text: str, default_seat: int) -> None:
    st.subheader("What the table knows")
    c1, c2 = st.columns([1, 3])
    seat = c1.selectbox("From the view of", list(table.seats), index=default_seat - 1, key="ex_view_seat",
                        format_func=lambda s: f"seat {s}")
    hand_key = f"ex_view_hand_{seat}_{table.players}_{table.deck}"
    if hand_key not in st.session_state:
        st.session_state[hand_key] = str(random_deal(table, seed=seat).hand(seat))
    hand_text = c2.text_input(f"Seat {seat}'s hand (S.H.D.C)", key=hand_key)
    try:
        hand = Hand.parse(hand_text)
        show(render.hand_html(hand))
        seats, names, grid = card_grid((table.players, table.deck, table.teams), system, auction_text, seat,
                                       str(hand), 2000, 7)
    except FiftySixError as e:
        st.error(str(e))
        return
    labels = [f"{'10' if n[0] == 'T' else n[0]}{SUIT_SYMBOLS['SHDC'.index(n[1])]}" for n in names]
    ticks = [f'<span style="color:{"#c8102e" if n[1] in "HD" else "#111"}">{lab}</span>'
             for n, lab in zip(names, labels)]
    fig = go.Figure(go.Heatmap(z=grid, x=labels, y=[f"seat {s}" for s in seats], zmin=0, zmax=1,
                               colorscale="Greens", text=[[f"{p:.0%}" for p in row] for row in grid],
                               texttemplate="%{text}", hovertemplate="%{x}: %{z:.0%} of the unseen copies in %{y}<extra></extra>"))
    st.caption(f"Where each card seat {seat} cannot see lies: the share of its unseen copies in each seat, "
               "over 2,000 deals that fit every call so far, each as likely as a real shuffle makes it.")
    fig.update_layout(height=110 + 45 * len(seats), margin=dict(l=10, r=10, t=40, b=10))
    fig.update_xaxes(side="top", tickmode="array", tickvals=labels, ticktext=ticks, tickfont=dict(size=14))
    st.plotly_chart(fig, key="ex_grid", config={"displayModeBar": False})


settings = page_start("Explain", "Type an auction or click calls: every call's meaning, what each legal "
                      "next call would mean, and what the table now knows.")
bidding = need("fiftysix.bidding")
table = settings.table
st.session_state.setdefault("ex_text", "")
c1, c2, c3 = st.columns([6, 1, 1], vertical_alignment="bottom")
c1.text_input(f"Auction ({settings.system}), calls from seat 1, e.g. 28H P +1H", key="ex_text")
c2.button("Undo", key="ex_undo", on_click=undo_call, width="stretch")
c3.button("Clear", key="ex_clear", on_click=clear_calls, width="stretch")
try:
    auction = bidding.Auction.parse(st.session_state["ex_text"], settings.system, table)
except FiftySixError as e:
    st.error(str(e))
    st.stop()

auction_grid(table, list(auction.calls))
if auction.contract is not None and auction.is_over:
    c = auction.contract
    show(render.contract_html(str(c), f"by seat {c.declarer}, team {table.team_name(table.team_of(c.declarer))}"))
    st.success(f"The auction is over: the contract is {c}.")
elif not auction.is_over:
    palette(auction)
else:
    st.info("Everyone passed: no contract.")
table_knows(table, settings.system, " ".join(str(r.call) for r in auction.calls),
            1 if auction.is_over else auction.to_move)
