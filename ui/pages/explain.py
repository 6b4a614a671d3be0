"""Explain page: an auction call by call, with what each call means and what the table knows.

Type or click an auction; every call with its meaning, the legal next calls with what each
would mean now, the contract, and what the table knows about every unseen card."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from fiftysix import bidding, glossary
from fiftysix.analyser.dealer import Dealer, View
from fiftysix.analyser.simulate import holding_odds
from fiftysix.cards import CARD_NAMES, SUIT_SYMBOLS, Hand, Table, random_deal
from fiftysix.constraints import fits
from fiftysix.errors import FiftySixError
from fiftysix.ui import render
from fiftysix.ui.components import call_worth, choice_in_url, in_url, page_start, show, warm_solver, words
from fiftysix.ui.render import md_text

PALETTE_BUTTONS = 16  # buttons per call family (cheapest first); every call is in 'Any legal call'
# Colours for a chance: pale for rare, amber around a half, deep green for certain.
CHANCE_SCALE = [[0.0, "#f7f7f2"], [0.1, "#fdf1c7"], [0.25, "#fbd46d"], [0.5, "#f39c34"], [0.75, "#4fa35a"],
                [0.99, "#1d6b40"], [1.0, "#0b3d20"]]


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
        text += f"\n\n*What the simulation takes it to promise:* {promise}"
    return text


def add_call(call: str) -> None:
    """Palette button callback: append a call to the auction text."""
    text = st.session_state.get("ex_text", "")
    st.session_state["ex_text"] = (text + " " + call).strip()


def undo_call() -> None:
    st.session_state["ex_text"] = " ".join(st.session_state.get("ex_text", "").split()[:-1])


def clear_calls() -> None:
    st.session_state["ex_text"] = ""


def add_picked() -> None:
    """'Any legal call' callback: append the picked call, then empty the box for the next one."""
    call = st.session_state.get("ex_any")
    if call:
        add_call(call)
    st.session_state["ex_any"] = None


QUIET = ("pass", "double", "redouble", "forced")


def example_auction(bidding, system: str, table: Table) -> str:
    """A short legal auction of this system for the input box's hint: an opening bid, a pass
    and a bid of another form, hearts preferred, each call legal by the engine."""
    auction = bidding.Auction(system=system, table=table)
    calls: list[bidding.Call] = []
    for step in range(3):
        legal = list(auction.legal_calls())
        bids = [c for c in legal if str(c.kind) not in QUIET]
        if step == 1:
            pick = [c for c in legal if str(c) == "P"] or bids
        elif step == 2:
            pick = [c for c in bids if c.kind != calls[0].kind] or bids
        else:
            pick = bids
        if not pick:
            break
        call = min(pick, key=lambda c: (c.kind != "suit", "H" not in str(c)))
        auction.apply(call)
        calls.append(call)
    return " ".join(str(c) for c in calls)


def auction_grid(table: Table, records) -> None:
    """The auction by seat, one row per round; each call opens its meaning in a popover."""
    n = table.players
    grid = st.container(key=f"{render.KEEP_ROWS}_auction")  # a phone keeps the seats side by side
    heads = grid.columns(n)
    for i, col in enumerate(heads):
        colour = render.TEAM_COLOURS[table.team_of(i + 1) % len(render.TEAM_COLOURS)]
        col.html(f'<div style="font:600 .85em sans-serif;border-bottom:3px solid {colour}">Seat {i + 1}'
                 f'<span class="fs-wide"> · {table.team_name(table.team_of(i + 1))}</span></div>')
    if not records:
        st.caption("No calls yet: type an auction above or click a call in the palette below.")
        return
    cols = None
    for k, rec in enumerate(records):
        seat = int(rec.seat)
        if cols is None or seat == 1 or k == 0:
            cols = grid.columns(n)
        m = rec.meaning
        with cols[seat - 1].popover(popover_label(str(rec.call)), key=f"ex_pop_{k}", width="stretch"):
            st.markdown(meaning_md(m.label, m.sentence, m.constraint))
            call_worth(settings.system, table, " ".join(str(r.call) for r in records[:k]), str(rec.call),
                       key=f"ex_worth_{k}")
            value = rec.value
            if value:
                st.caption(f"Bid stands at {value}" +
                           (f", trump {render.suit_name(rec.trump)}" if rec.trump is not None
                            else ""))


def palette(auction) -> None:
    """The legal next calls by family, each with what it would mean now; a click makes the call."""
    calls = list(auction.legal_calls())
    st.subheader(f"Seat {auction.to_move} to call: {len(calls)} legal calls")
    st.selectbox("Any legal call", [str(c) for c in calls], index=None, key="ex_any", on_change=add_picked,
                 placeholder="Pick or type any legal call, e.g. 40H", format_func=lambda t: (
                     f"{t} · {auction.meaning_of(bidding.parse_call(t)).label}"))
    families: dict[str, list[tuple[str, bidding.Meaning]]] = {}
    for c in calls:
        families.setdefault(c.kind, []).append((str(c), auction.meaning_of(c)))
    quiet: list[str] = [f for f in ("pass", "double", "redouble", "forced") if f in families]
    bids = [f for f in families if f not in quiet]
    row = st.container(key=f"{render.WRAP_ROWS}_quiet").columns(max(1, len(quiet)) + 3)
    for i, fam in enumerate(quiet):
        for text, m in families[fam]:
            row[i].button(popover_label(text), key=f"ex_call_{text}", help=f"{m.label}: {m.sentence}",
                          on_click=add_call, args=(text,), width="stretch")
    if quiet:  # hover shows a meaning; a phone has no hover, so the meanings open on a tap too
        meanings(st.columns([1, 3])[0], [item for f in quiet for item in families[f]], "ex_mean_quiet")
    if bids:
        tabs = st.tabs([f"{glossary.family(f).title} ({len(families[f])})" for f in bids])
        for fam, tab in zip(bids, tabs, strict=True):
            with tab:
                fam_words = glossary.family(fam)
                head, pop = st.columns([5, 1], vertical_alignment="center")
                head.caption(f"{fam_words.example}: {fam_words.line}")
                meanings(pop, families[fam], f"ex_mean_{fam}")
                cols = st.container(key=f"{render.WRAP_ROWS}_{fam}").columns(8)  # a phone: 4 a row
                shown = families[fam][:PALETTE_BUTTONS]
                for i, (text, m) in enumerate(shown):
                    cols[i % 8].button(popover_label(text), key=f"ex_call_{text}",
                                       help=f"{m.label}: {m.sentence}", on_click=add_call, args=(text,),
                                       width="stretch")
                if len(families[fam]) > len(shown):
                    st.caption(f"... and {len(families[fam]) - len(shown)} higher ones: pick them in "
                               "'Any legal call' above.")
    with st.expander("Every legal call and what it would mean now"):
        st.dataframe([{"call": t, "family": glossary.family(f).title, "label": m.label, "meaning": m.sentence}
                      for f, items in families.items() for t, m in items], hide_index=True)


def meanings(where, items, key: str) -> None:
    """A popover listing what each of these calls would mean now (a tap opens it on a phone)."""
    with where.popover("Meanings", icon=":material/info:", key=key, width="stretch",
                       help="What each of these calls would mean now"):
        for text, m in items[:PALETTE_BUTTONS]:
            st.markdown(f"**{popover_label(text)}** {md_text(m.label)}: {md_text(m.sentence)}")


@st.cache_data(show_spinner="Dealing thousands of hands that fit the auction...", max_entries=64)
def card_grid(table: Table, system: str, auction_text: str, seat: int, hand: str,
              n: int, seed: int) -> tuple[list[int], list[str], list[list[float]], list[list[float]], list[str]]:
    """(hidden seats, unseen card names, the chance each seat holds at least one unseen copy
    of each card, the copies it holds on average) over ``n`` deals that fit what ``seat`` knows,
    and the promises set aside because they could not hold with the rest (RULES.md 6)."""
    view = View.from_auction(table, system, seat, Hand.parse(hand), auction_text)
    dealer = Dealer(view)
    odds = holding_odds(view, dealer.sample_counts(n, seed=seed))
    kinds = sorted(odds)
    seats = list(view.hidden_seats)
    return (seats, [CARD_NAMES[k] for k in kinds], [[odds[k][s][0] for k in kinds] for s in seats],
            [[odds[k][s][1] for k in kinds] for s in seats], [str(a) for a in dealer.set_aside])


def fitting_hand(table: Table, seat: int, promise, tries: int = 6000) -> str | None:
    """A random hand for ``seat`` that keeps what its calls promised (None if none turns up)."""
    for k in range(tries):
        hand = random_deal(table, seed=seat + 1000 * k).hand(seat)
        if promise is None or fits(hand, promise):
            return str(hand)
    return None


def view_seat_label(choice: int) -> str:
    # The first choice's words never change: the browser keeps showing the label a selected
    # option had when it was picked, so a seat number in it went stale as the auction moved on.
    # The hand box beside it names the seat.
    return "the auction's seat" if choice == 0 else f"seat {choice}"


def table_knows(table: Table, system: str, auction, auto_seat: int) -> None:
    """The cards a seat cannot see, and where they lie given every call: seen from the seat
    the auction is at (or one picked), holding a hand that keeps that seat's own calls."""
    head, pop = st.columns([5, 1], vertical_alignment="bottom")
    head.subheader("What the table knows")
    words("simulation", "seat", "bluff", "card notation", key="ex_words_knows", where=pop)
    auction_text = " ".join(str(r.call) for r in auction.calls)
    c1, c2 = st.columns([1, 3])
    choice = choice_in_url(c1.selectbox, "From the view of", {s: view_seat_label(s) for s in [0, *table.seats]},
                           persist_state="session", key="ex_view_seat",
                           help="The auction's seat: the seat to call, or the declarer once the auction is over. "
                                "The hand box beside names it.")
    seat = auto_seat if choice == 0 else choice
    promise = auction.seat_constraints().get(seat)
    hand_key = f"ex_view_hand_{seat}_{table.players}_{table.deck}"
    dealt = st.session_state.setdefault("ex_dealt", {})
    current = st.session_state.get(hand_key)
    if current is None or (current == dealt.get(hand_key) and not _fits(current, promise)):
        new = fitting_hand(table, seat, promise)  # a dealt hand follows its seat's calls
        if new is not None:
            st.session_state[hand_key] = dealt[hand_key] = new
        elif current is None:
            st.session_state[hand_key] = ""
    hand_text = c2.text_input(f"Seat {seat}'s hand (S.H.D.C): deal one, or type the hand you hold",
                              key=hand_key, persist_state="session")
    try:
        hand = Hand.parse(hand_text)
    except FiftySixError as e:
        st.error(f"Seat {seat}'s hand: {md_text(e)}")
        return
    show(render.hand_html(hand))
    if not _fits(hand_text, promise):
        st.warning(f"This hand does not keep seat {seat}'s own calls, which promise: {promise.describe()}.")
    warm_solver()  # the dealer's kernels: on a first run, the page says it is preparing them
    try:
        seats, names, odds, copies, set_aside = card_grid(table, system, auction_text,
                                               seat, str(hand), 2000, 7)
    except FiftySixError as e:
        st.error(md_text(e))
        return
    labels = [f"{'10' if n[0] == 'T' else n[0]}{SUIT_SYMBOLS['SHDC'.index(n[1])]}" for n in names]
    ticks = [f'<span style="color:{"#c8102e" if n[1] in "HD" else "#111"}">{lab}</span>'
             for n, lab in zip(names, labels)]
    # the cards down the side and the seats across: at most seven columns, so each cell's figures
    # stay readable at a phone's width (walked: 24 card columns in 390 px ran the figures together)
    z = [list(col) for col in zip(*odds, strict=True)]
    per_card = [list(col) for col in zip(*copies, strict=True)]
    text = [[f"{p:.0%}<br>{e:.1f}" for p, e in zip(prow, erow)] for prow, erow in zip(z, per_card)]
    fig = go.Figure(go.Heatmap(z=z, x=[f"seat {s}" for s in seats], y=labels, zmin=0, zmax=1,
                               colorscale=CHANCE_SCALE, customdata=per_card, text=text, texttemplate="%{text}",
                               textfont={"size": 11},
                               colorbar={"title": "holds one", "tickformat": ".0%", "orientation": "h",
                                         "y": -0.02, "yanchor": "top", "thickness": 12, "len": 1},
                               hovertemplate="%{x} holds at least one %{y}: %{z:.0%}; on average "
                                             "%{customdata:.2f} copies<extra></extra>"))
    st.caption(f"Seen from seat {seat}: for each card seat {seat} cannot see (down the side), the chance that "
               "each seat (across) holds at least one copy (100% = certain) and, below it, the copies it holds on "
               "average. Over 2,000 deals that fit every call so far, each as likely as a real shuffle makes it.")
    for line in set_aside:  # promises that cannot hold with the rest: a bluff or a mistake
        st.warning(line[0].upper() + line[1:] + ". The deals keep every other promise.")
    fig.update_layout(height=110 + 32 * len(names), margin={"l": 10, "r": 10, "t": 30, "b": 60})
    fig.update_xaxes(side="top", tickfont={"size": 13})
    fig.update_yaxes(tickmode="array", tickvals=labels, ticktext=ticks, tickfont={"size": 14},
                     autorange="reversed")  # the first card on top, spades down to clubs
    st.plotly_chart(fig, key="ex_grid", config={"displayModeBar": False})


def _fits(hand_text: str, promise) -> bool:
    try:
        return promise is None or bool(fits(Hand.parse(hand_text), promise))
    except FiftySixError:
        return False


def readable_prefix(bidding, text: str, system: str, table: Table):
    """The auction of the longest run of leading calls that reads, for the page to go on with."""
    words = text.split()
    for k in range(len(words) - 1, -1, -1):
        try:
            return bidding.Auction.parse(" ".join(words[:k]), system, table), k
        except FiftySixError:
            continue
    return bidding.Auction.parse("", system, table), 0


settings = page_start("Explain", "Type an auction or click calls: every call's meaning, what each legal "
                      "next call would mean, and what the table now knows.")
table = settings.table
words("auction", "call", "bid", "Plus N", "NS (Noes)", "no-trump", "pass", "double", "redouble", "call family",
      "seat", "team", "bidding system", key="ex_words")
c1, c2, c3 = st.columns([6, 1, 1], vertical_alignment="bottom")
c1.text_input(f"Auction ({settings.system}), calls from seat 1, e.g. "
              f"{example_auction(bidding, settings.system, table)}", **in_url("ex_text"))
c2.button("Undo", key="ex_undo", on_click=undo_call, width="stretch")
c3.button("Clear", key="ex_clear", on_click=clear_calls, width="stretch")
broken = False
try:
    auction = bidding.Auction.parse(st.session_state.get("ex_text", ""), settings.system, table)
except FiftySixError as e:
    auction, k = readable_prefix(bidding, st.session_state.get("ex_text", ""), settings.system, table)
    st.error(f"{md_text(e)}. Shown below: the first {k} call(s), which read.")
    broken = True

auction_grid(table, list(auction.calls))
if auction.contract is not None and auction.is_over:
    c = auction.contract
    show(render.contract_html(str(c), f"by seat {c.declarer}, team {table.team_name(table.team_of(c.declarer))}"))
    st.success(f"The auction is over: the contract is {c}.")
elif not auction.is_over:
    if not broken:
        palette(auction)
else:
    st.info("Everyone passed: no contract.")
if auction.is_over:
    auto = auction.contract.declarer if auction.contract is not None else 1
else:
    auto = auction.to_move or 1
table_knows(table, settings.system, auction, auto)
