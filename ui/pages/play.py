"""Play: sit at a table with the bots, bid your hand and play it out, then see what you did.

The hand lives in ``drills.practice`` (a ``PracticeTable``, held live in the session: ``pt``
below); this page only draws it and turns clicks into its moves. The URL keeps the seat, the deal (its seed, a library record or a
deal written out), the bots and the mode, so a reload or a shared link opens the same table;
it also keeps the learner's moves with the hand's key (``pl_moves``), so a reload or a second
tab picks the hand up where it was (the bots, seeded, move as before); moves that no longer
replay leave the hand to start again from its first call.
"""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import replace
from functools import partial
from urllib.parse import urlencode

import streamlit as st

from fiftysix.analyser.review import Review
from fiftysix.bots import BIDDING_BOTS, DEFAULT_BOT
from fiftysix.cards import SUIT_SYMBOLS, TOTAL_POINTS, Deal, Hand, Table, complete_deal, random_deal
from fiftysix.drills import banks, practice
from fiftysix.drills.progress import ProgressStore
from fiftysix.errors import FiftySixError
from fiftysix.hand import AUCTION, OVER, PLAY
from fiftysix.play import trick_rows
from fiftysix.records import format_record, parse_records
from fiftysix.scoring import MATCH_FORMATS, Match
from fiftysix.ui import heavy, render
from fiftysix.ui.class_parts import hand_in, play_assignments
from fiftysix.ui.components import (
    chart,
    choice_in_url,
    in_url,
    page_start,
    read_upload,
    show,
    tricks_table,
    user,
    user_library,
    warm_solver,
)
from fiftysix.ui.jobs import heavy_job, in_worker, run_cancellable
from fiftysix.ui.problem_parts import problem_panel
from fiftysix.ui.render import md_text
from fiftysix.ui.review_parts import VALUE_TITLE, auction_panel, play_stepper, review_of, value_chart

HAND, MATCH = "pl_table", "pl_match_state"  # the practice table and the match, live in the session
MATCH_URL = "pl_mt"  # the match in the address (``Match.to_text``), so a reload keeps the score
MOVES = "pl_moves"  # the URL's record of the learner's moves: the hand's key, then the calls and cards
QUIET = ("P", "X", "XX")
FIGURE_WIDTH = 160  # pixels: the play's figures, two a line on a phone
CALL_WIDTH, CARD_WIDTH = 76, 56  # pixels: the buttons of a row wrap: a 390 px phone shows 4 calls, 5 cards a line
NEAR = 2  # bids up to this many points above the standing bid get a button each; the rest are in a list
DD_SECONDS = 20.0
BOTS_SECONDS = 60.0  # the bots' moves of one turn stop here (each call and card has its own budget too)
CARD_SECONDS = 3.0  # learning mode: the search for the cost of the learner's last card
BIDDING_BOTS_SEE = ("Each bot sees only its own hand and calls by the system: its reason says what the call tells "
                    "its partners (the promise of that call) and how high its hand lets it go.")
CARD_BOTS_SEE = ("The card bots do not peek: each one deals the hidden cards many times in ways that fit its own hand, "
                 "the cards played and what every call promised, tries its cards on those deals, and plays the one "
                 "that makes (or beats) the contract in the most of them: \"makes after it in 5 of 8 deals\" means that "
                 "card made it in 5 of the 8 deals it tried.")
SOURCES = ("seed", "library", "written")  # shown as they are: a widget's URL value is its option as shown


# --- the hand in the session ------------------------------------------------------------------

def stored() -> practice.PracticeTable | None:
    """The table kept in this session (None if there is none)."""
    return st.session_state.get(HAND)


def keep(pt: practice.PracticeTable) -> None:
    """Keep the table in the session, and the learner's moves in the URL (with the hand's key),
    so that a reload picks the hand up where it was."""
    st.session_state[HAND] = pt
    moves = pt.your_moves()
    text = " ".join([pt.key, *moves])
    if not moves:
        st.query_params.pop(MOVES, None)
    elif st.query_params.get(MOVES) != text:
        st.query_params[MOVES] = text


def resumed(wanted: practice.PracticeTable) -> practice.PracticeTable | None:
    """The hand of this table as the URL's moves leave it (a reload, a second tab), or None."""
    key, *moves = (st.query_params.get(MOVES) or "").split() or [""]
    if key != wanted.key or not moves:
        return None
    try:
        with st.spinner("Picking the hand up where it was..."):
            return wanted.replayed(moves)
    except FiftySixError as e:
        st.info(f"The hand in the address could not be picked up ({md_text(e)}); it starts again.")
        return None


def note_error(text: str) -> None:
    st.session_state["pl_error"] = text


def on_call(call: str, made: int) -> None:
    """A palette button: the learner's call, if no call was made since it was drawn."""
    pt = stored()
    if pt is None or len(pt.state.moves) != made:
        return
    try:
        fb = pt.your_call(call)
    except FiftySixError as e:
        note_error(f"{call}: {e}")
        return
    keep(pt)
    remember_drill(pt, fb.index)


def on_card(card: str, played: int) -> None:
    """A card button: the learner's card, if no card was played since it was drawn; an
    illegal card is refused with the reason and the hand stays as it was."""
    pt = stored()
    if pt is None or len(pt.state.moves) != played:
        return
    try:
        pt.your_card(card)
    except FiftySixError as e:
        note_error(f"{card} cannot be played: {e}")
        return
    keep(pt)


def on_play_out() -> None:
    pt = stored()
    if pt is not None and pt.can_play_out:
        pt.play_it_out()
        keep(pt)


def on_hint(what: str) -> None:
    pt = stored()
    if pt is None:
        return
    try:
        h = pt.hint() if what == "call" else pt.card_hint()
    except FiftySixError as e:
        note_error(str(e))
        return
    st.session_state["pl_hint"] = (pt.key, what, h.index, h.move, h.reason)


def remember_drill(pt: practice.PracticeTable, index: int) -> None:
    """Store the learner's call as a drill answer (a miss comes back in the Drill page)."""
    try:
        store = ProgressStore(learner=user().id)
        if pt.record_drills(store, only={index}):
            st.session_state["pl_drilled"] = st.session_state.get("pl_drilled", 0) + 1
    except FiftySixError as e:
        st.session_state["pl_drill_error"] = str(e)


def restart() -> None:
    st.session_state.pop(HAND, None)
    st.query_params.pop(MOVES, None)


def next_hand() -> None:
    """The next seeded deal (a deal from elsewhere moves on to seeded deals)."""
    ss = st.session_state
    ss["pl_seed"] = int(ss.get("pl_seed", 1)) + 1
    ss["pl_from"] = "seed"
    ss.pop(HAND, None)


def random_seed() -> None:
    st.session_state["pl_seed"] = secrets.randbelow(10**6)
    st.session_state.pop(HAND, None)


def new_match() -> None:
    st.session_state.pop(MATCH, None)
    st.query_params.pop(MATCH_URL, None)


def match_kept(table: Table) -> Match | None:
    """The match of this session, or the one the address keeps (a reload, a second tab)."""
    ss = st.session_state
    if ss.get(MATCH) is not None:
        return ss[MATCH]
    try:
        if st.query_params.get(MATCH_URL):
            m = ss[MATCH] = Match.from_text(st.query_params[MATCH_URL], table)
            return m
    except FiftySixError:
        st.query_params.pop(MATCH_URL, None)
    return None


# --- choosing the table -------------------------------------------------------------------------

def choose(settings) -> tuple[Table, str, Deal | None, str, int]:
    """The deal and its table and system from the page's choices: (table, system, deal or None
    for a seeded deal, words for where it came from, seed)."""
    table, system = settings.table, settings.system
    c1, c2, c3 = st.columns([2, 1, 1])
    source = choice_in_url(c1.segmented_control, "Deal from", SOURCES, default="seed", required=True, key="pl_from",
                                  help="seed: a deal dealt from the seed; library: a hand you saved; written: a "
                                       "deal written out (a coach's link, a record file, a bank question)")
    seed = int(c2.number_input("Seed", 0, 10**9, 1, **in_url("pl_seed"),
                               help="The same seed gives the same deal and the same bots' calls and cards."))
    c3.button("Random deal", icon=":material/casino:", key="pl_random", on_click=random_seed,
              disabled=source != "seed", width="stretch")
    if source == "library":
        try:
            lib = user_library()
            entries = lib.list(limit=500)
        except FiftySixError as e:
            st.error(md_text(e))
            return table, system, None, "", seed
        if not entries:
            st.info("The hand library is empty: save a hand here, or add one on the Enter a hand page.")
            st.stop()
        names = {e.id: f"#{e.id} {e.event or 'hand'} {e.date} · {e.contract} · {e.players} players · {e.system}"
                 for e in entries}
        pick = choice_in_url(st.selectbox, "Record", names, key="pl_lib")
        record = lib.get(pick)
        return record.table, record.system, record.deal, f"library record #{pick}", seed
    if source == "written":
        text = st.text_input(f"The deal, seat 1 to {table.players} (S.H.D.C each, e.g. JJ9.A.KQ.T9A ...)",
                             **in_url("pl_deal"), help="A coach can send this page's address: it holds the deal, "
                                                       "the table, the system and the seat.")
        with st.expander("... or take the deal from a record file or a bank question"):
            coach_upload(table)
        if not text.strip():
            st.info("Write the deal above (one hand per seat), or take it from a file.")
            st.stop()
        try:
            return table, system, Deal.parse(text, table), "a deal written out", seed
        except FiftySixError as e:
            st.error(f"The deal cannot be used: {md_text(e)}")
            st.stop()
    return table, system, None, f"seed {seed}", seed


def coach_upload(table: Table) -> None:
    """A record file (its first record's deal, table and system) or a bank with a question that
    gives a hand (that seat's hand, the others dealt at random from the seed)."""
    up = st.file_uploader("A record file or a question bank", type=["txt", "rec", "pbn", "56", "json"],
                          key="pl_upload", max_upload_size=1)
    text = read_upload(up)
    if up is None or text is None:
        return
    ss = st.session_state
    try:
        if up.name.lower().endswith(".json"):
            bank = banks.import_text(text, "json", up.name, ss.get("system"))
            qs = [q for q in bank.questions if q.context.hand]
            if not qs:
                st.warning(f"No question of {md_text(up.name)} gives a hand.")
                return
            q = st.selectbox("Question", qs, format_func=lambda q: f"{q.id}: {q.prompt[:60]}", key="pl_bank_q")
            t = q.context.table
            hands = [Hand() for _ in t.seats]
            hands[q.context.seat - 1] = Hand.parse(q.context.hand or "")
            deal = complete_deal(t, hands, seed=int(ss.get("pl_seed", 1)))
            use = {"deal": deal, "system": q.context.system, "seat": q.context.seat}
            st.caption(f"You sit in seat {q.context.seat} with this question's hand; the other hands are dealt at "
                       "random from the seed, and the auction starts afresh.")
        else:
            records = parse_records(text, up.name)
            r = st.selectbox("Record", records, key="pl_rec_pick",
                             format_func=lambda r: f"{r.event or 'hand'} {r.contract or ''} ({r.table.players} players)")
            use = {"deal": r.deal, "system": r.system, "seat": ss.get("pl_seat", 1)}
    except FiftySixError as e:
        st.error(f"{md_text(up.name)}: {md_text(e)}")
        return
    st.button("Sit down at this deal", key="pl_use", type="primary", on_click=use_deal, kwargs=use)


def use_deal(deal: Deal, system: str, seat: int) -> None:
    ss = st.session_state
    t = deal.table
    ss["players"], ss["deck"], ss["teams"], ss["system"] = t.players, t.deck, t.teams, system
    ss["pl_deal"], ss["pl_from"] = str(deal), "written"
    ss["pl_seat"] = seat if seat in t.seats else 1
    ss.pop(HAND, None)


# --- drawing ----------------------------------------------------------------------------------

def felt(pt: practice.PracticeTable, state=None, centre: str = "") -> None:
    """The table from the learner's seat: every hand in learning mode, only the learner's in
    practice; the trick on the table (or the last one taken)."""
    t = pt.table
    learning = pt.mode == "learning"
    if state is None:
        hands = {s: pt.deal.hand(s) if learning or s == pt.seat else None for s in t.seats}
        hidden = {}
        trick = ()
        to_move = pt.auction.to_move
    else:
        hands = {s: state.hands[s - 1] if learning or s == pt.seat else None for s in t.seats}
        hidden = {s: len(state.hands[s - 1]) for s in t.seats}
        trick = state.current or (state.tricks[-1].plays if state.tricks else ())
        to_move = None if state.is_over else state.to_move
    notes = {pt.seat: "<b>you</b>"}
    show(render.table_html(t, hands, bottom=pt.seat, to_move=to_move, trick=trick, center=centre,
                           notes=notes, hidden=hidden))
    if state is not None and not state.is_over:
        st.caption(trick_words(pt, state))


def seat_words(pt: practice.PracticeTable, seat: int) -> str:
    return "you" if seat == pt.seat else f"seat {seat}"


def seating(pt: practice.PracticeTable) -> str:
    """Where the learner sits and with whom, in words (a newcomer at 6 or 8 seats needs it)."""
    t = pt.table
    mates = [s for s in t.team_seats(pt.your_team) if s != pt.seat]
    return (f"You sit in seat {pt.seat}, team {t.team_name(pt.your_team)}: your partner"
            f"{'s are seats ' if len(mates) > 1 else ' is seat '}{', '.join(map(str, mates))}. "
            f"Seat 1 calls first, then the seats in turn round the table.")


def trick_words(pt: practice.PracticeTable, state) -> str:
    """The trick on the table in words: who played which card, and who is to play."""
    n = len(state.tricks) + 1
    turn = "your turn" if state.to_move == pt.seat else f"seat {state.to_move} to play"
    if not state.current:
        return f"Trick {n}: {seat_words(pt, state.to_move)} to lead" + (" (your turn)." if
                                                                          state.to_move == pt.seat else ".")
    cards = ", ".join(f"{seat_words(pt, seat)} {render.face_rank(card)}{SUIT_SYMBOLS[card.suit]}"
                      for seat, card in state.current)
    return f"Trick {n} so far: {cards}; {turn}."


def targets(pt: practice.PracticeTable, c) -> str:
    """What each side needs: the declarers their bid, the defenders enough to stop them."""
    t = pt.table
    yours = c.team == pt.your_team
    beat = TOTAL_POINTS - c.value + 1
    return (f"Team {t.team_name(c.team)} ({'your team' if yours else 'the opponents'}) must take {c.value} of the "
            f"{TOTAL_POINTS} card points; {'the opponents need' if yours else 'your team needs'} {beat} to beat it.")


def auction_grid(pt: practice.PracticeTable) -> None:
    a = pt.auction
    show(render.auction_html(pt.table, [(r.seat, str(r.call), r.meaning.label, r.meaning.sentence)
                                          for r in a.calls]))
    bots = [(i + 1, r.seat, str(r.call), why) for i, (r, why) in enumerate(zip(a.calls, pt.call_reasons)) if why]
    if bots:
        with st.expander("Why the bots called as they did"):
            st.caption(BIDDING_BOTS_SEE)
            for i, seat, call, why in bots:
                st.markdown(f"{i}. Seat {seat} **{call}**: {why}")


def feedback_box(fb: practice.Feedback) -> None:
    """What the learner's call told the table, at once."""
    head = f"**Your call {fb.call}** ({fb.label}): {fb.meaning}"
    if fb.kept is False:
        body = (f"{head}\n\n**Broken promise:** your hand breaks " + "; ".join(fb.broken) + "."
                + (f"\n\nCalls that keep their promise here: {' '.join(fb.truthful[:12])}" if fb.truthful else ""))
        st.error(body)
    elif fb.kept:
        st.success(f"{head}\n\nYour hand keeps this promise.")
    else:
        st.info(f"{head}\n\nIt promises nothing about your hand.")
    if fb.same_as_bot:
        st.caption(f"The system's bot makes the same call: {fb.bot_reason}")
    else:
        st.warning(f"The system's bot would call **{fb.bot_call}**: {fb.bot_reason}")
    st.caption(f"What your partners now know about your hand: {fb.partners_know}.")


def hint_box(pt: practice.PracticeTable, what: str) -> None:
    h = st.session_state.get("pl_hint")
    n = len(pt.call_reasons) + 1 if what == "call" else len(pt.card_reasons) + 1
    if h and h[0] == pt.key and h[1] == what and h[2] == n:
        st.info(f"Hint: the {'system' if what == 'call' else 'card'} bot would {'call' if what == 'call' else 'play'}"
                f" **{h[3]}**: {h[4]}")
    else:
        st.button("Hint: what would the bot do?", key=f"pl_hint_{what}", icon=":material/lightbulb:",
                  on_click=on_hint, args=(what,))


def palette(pt: practice.PracticeTable) -> None:
    """Every legal call with its meaning (hover a button; the list shows each one's label)."""
    a = pt.auction
    learning = pt.mode == "learning"
    calls = pt.palette()
    made = len(pt.state.moves)
    st.markdown(f"**Your call, seat {pt.seat}** (holding {render.hand_text_html(pt.deal.hand(pt.seat))}):",
                unsafe_allow_html=True)

    def face(p: practice.PaletteCall) -> str:
        marked = learning and p.keeps and not p.promises_nothing
        return ("✓ " + call_label(p.call, coloured=False)) if marked else call_label(p.call)

    def tip(p: practice.PaletteCall) -> str:
        keeps = ("  \nYour hand keeps this promise." if p.keeps else "  \nYour hand does not keep this promise."
                 ) if learning else ""
        return f"**{p.call}: {p.label}.** {p.meaning}  \nPromises: {p.promise}.{keeps}"

    standing = a.value or 27
    quiet = [p for p in calls if p.call in QUIET]
    near = [p for p in calls if p.call not in QUIET and (p.value or 0) <= standing + NEAR]
    rest = [p for p in calls if p.call not in QUIET and p not in near]
    rows: list[tuple[str, list[practice.PaletteCall]]] = [("", quiet)] if quiet else []
    for v in sorted({p.value or 0 for p in near}):
        rows.append((str(v), [p for p in near if (p.value or 0) == v]))
    for label, group in rows:
        # a row that wraps: on a phone the calls flow over a few lines instead of one a line
        if label:
            st.markdown(f"**{label}**")
        row = st.container(horizontal=True, gap="small", key=f"pl_calls_{label or 'quiet'}")
        for p in group:
            row.button(face(p), key=f"pl_call_{p.call}", help=tip(p), on_click=on_call, args=(p.call, made),
                       width=CALL_WIDTH,
                       type="primary" if learning and p.keeps and not p.promises_nothing else "secondary")
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    names = {p.call: p for p in rest + quiet + near}  # the higher bids first: they have no button
    pick = c1.selectbox(f"Every legal call ({len(names)}; {len(rest)} higher bids only here): pick one to read it",
                        list(names), key=f"pl_more_{made}", index=None, placeholder="pick a call to read it",
                        format_func=lambda c: f"{'✓ ' if learning and names[c].keeps and not names[c].promises_nothing else ''}"
                                              f"{c}: {names[c].label}")
    # nothing is picked until the learner picks: "Call it" never makes a call they did not choose
    c2.button("Call it", key="pl_more_btn", on_click=on_call, args=(pick, made), width="stretch",
              disabled=pick is None)
    if pick is not None:
        st.caption(tip(names[pick]))
    st.caption("Hover a call's button, or pick it in the list (on a phone), to read what it would promise now."
               + (" ✓ marks the calls your hand keeps." if learning else ""))
    if learning:
        hint_box(pt, "call")


def call_label(call: str, coloured: bool = True) -> str:
    """A call for a button: its canonical text with a red suit letter red (``coloured``; a
    primary button's green would swallow red, so it gets the plain letter)."""
    return "".join(f":red[{x}]" if coloured and x in ("H", "D") else x for x in render.call_pieces(call))


def bidding(pt: practice.PracticeTable) -> None:
    a = pt.auction
    standing = a.standing_contract()
    t = pt.table
    centre = ("no bid yet" if standing is None else
              f"{render.contract_html(str(standing), f'seat {standing.declarer}, team {t.team_name(standing.team)}')}")
    felt(pt, centre=centre + f"<br>Seat {a.to_move} to call")
    st.caption(seating(pt) + (" The highest bid so far is " + f"{standing} by {seat_words(pt, standing.declarer)} "
                                f"({'your team' if standing.team == pt.your_team else 'the opponents'})."
                                if standing is not None else " No one has bid yet."))
    auction_grid(pt)
    if pt.feedback:  # the learner's last call, until the next one
        feedback_box(pt.feedback[-1])
    if a.to_move == pt.seat:
        palette(pt)
    with st.expander(f"Your calls so far ({len(pt.feedback)})"):
        calls_table(pt)


def calls_table(pt: practice.PracticeTable) -> None:
    rows = [{"#": f.index, "your call": f.call, "meaning": f.label,
             "promise": {True: "✔ kept", False: "✘ broken", None: ""}[f.kept], "broken": "; ".join(f.broken),
             "the system's call": f.bot_call, "why": f.bot_reason} for f in pt.feedback]
    if rows:
        st.dataframe(rows, hide_index=True)
    else:
        st.caption("You have not called yet.")


def points_line(pt: practice.PracticeTable, state) -> str:
    t = pt.table
    return " · ".join(f"{t.team_name(k)}{' (you)' if k == pt.your_team else ''} {p}"
                      for k, p in enumerate(state.points))


def playing(pt: practice.PracticeTable) -> None:
    c = pt.decided_contract
    state = pt.play
    t = pt.table
    centre = (f"{render.contract_html(str(c), f'seat {c.declarer}, team {t.team_name(c.team)}')}"
              f"<br>{points_line(pt, state)}")
    felt(pt, state, centre)
    # a wrapping row: columns would stack the four figures one a screen line on a phone,
    # between the table and the learner's cards
    row = st.container(horizontal=True, gap="medium", key="pl_figures")
    row.metric("Contract", str(c), help=f"by seat {c.declarer} (team {t.team_name(c.team)}): they need {c.value}",
              width=FIGURE_WIDTH)
    row.metric("Declarers have", f"{state.points[c.team]} of {c.value}", width=FIGURE_WIDTH,
              help="the card points the declaring team has won, and the points it needs")
    row.metric("Defenders have", f"{sum(state.points) - state.points[c.team]} of {TOTAL_POINTS - c.value + 1}",
              help="the card points the other side has won, and the points that beat the contract", width=FIGURE_WIDTH)
    row.metric("Trick", f"{min(len(state.tricks) + 1, t.hand_size)} of {t.hand_size}", width=FIGURE_WIDTH)
    rows = trick_rows(state)
    done = [r for r in rows if r.done]
    if done and not state.current:
        last = done[-1]
        team = "" if last.winning_team is None else f" (team {t.team_name(last.winning_team)})"
        st.caption(f"Trick {last.number} won by seat {last.winner}{team}, "
                   f"+{last.points} points.")
    if pt.mode == "learning":
        last_card_cost(pt)
    if not state.is_over and state.to_move == pt.seat:
        cards_row(pt, state)
    with st.expander(f"Tricks played ({len(state.tricks)})", expanded=False):
        tricks_table(state)
    bots = [(i + 1, why) for i, why in enumerate(pt.card_reasons) if why]
    if bots:
        with st.expander("Why the bots played as they did"):
            st.caption(CARD_BOTS_SEE)
            for i, why in bots[-2 * t.players:]:
                st.markdown(f"Card {i} **{pt.cards[i - 1]}**: {why}")


def last_card_cost(pt: practice.PracticeTable) -> None:
    """Learning mode: what the learner's last card cost with best play (kept per card)."""
    mine = [i for i, (seat, _) in enumerate(pt.play.plays, start=1) if seat == pt.seat]
    if not mine:
        return
    i = mine[-1]
    costs = st.session_state.setdefault("pl_costs", {})
    if (pt.key, i) not in costs:
        warm_solver()
        try:
            costs[(pt.key, i)] = run_cancellable(partial(heavy.card_cost, pt, i, CARD_SECONDS),
                                                 "Working out what your last card cost with best play",
                                                 CARD_SECONDS + 5)
        except FiftySixError:
            costs[(pt.key, i)] = None
    got = costs[(pt.key, i)]
    if got is None:
        st.caption(f"Your last card, {pt.cards[i - 1]}: not solved within {CARD_SECONDS:.0f} s.")
    elif got.cost:
        st.warning(f"Your last card, **{got.card}**, cost your team {got.cost} point(s) with best play; "
                   f"best was {' '.join(got.best)}.")
    else:
        st.caption(f"Your last card, {got.card}, was a best card (double-dummy).")


def cards_row(pt: practice.PracticeTable, state) -> None:
    """The learner's hand as buttons: the legal cards can be clicked, the others are greyed."""
    legal = set(state.legal_cards())
    mine = list(dict.fromkeys(state.hands[pt.seat - 1].cards))
    led = state.led_suit
    st.markdown("**Your card**" + ("" if led is None else f" (follow {render.suit_name(led)} if you can)") + ":")
    row = st.container(horizontal=True, gap="small", key="pl_cards")  # wraps on a phone
    for card in mine:
        face = f"{render.face_rank(card)}{SUIT_SYMBOLS[card.suit]}"
        # red only where it can be played: red text kept a card that must not be played looking live
        row.button(f":red[{face}]" if card.suit in (1, 2) and card in legal else face, key=f"pl_card_{card}", on_click=on_card,
                   args=(str(card), len(pt.state.moves)), disabled=card not in legal, width=CARD_WIDTH,
                   help=card.name + ("" if card in legal else " (you must follow suit)"))
    if pt.mode == "learning":
        hint_box(pt, "card")


# --- after the hand ---------------------------------------------------------------------------

def after(pt: practice.PracticeTable, player: str) -> None:
    out = pt.outcome()
    c = out.contract
    state = pt.play
    t = pt.table
    last = state.tricks[-1].plays if state.tricks else ()
    show(render.table_html(t, {s: pt.deal.hand(s) for s in t.seats}, bottom=pt.seat, trick=last,
                           center=f"{render.contract_html(str(c))}<br>{points_line(pt, state)}",
                           notes={pt.seat: "<b>you</b>"}))
    st.caption("Every hand as it was dealt, and the last trick.")
    word = "made" if out.made else "failed"
    st.subheader("After the hand")
    yours = "your team" if c.team == pt.your_team else "the opponents"
    msg = (f"{c} by seat {c.declarer} ({yours}): the declarers took {out.result.declarer_points} of the "
           f"{TOTAL_POINTS} card points and needed {c.value}: {word}. Stake {out.stake}: your team "
           f"{'wins' if out.your_score > 0 else 'loses'} {abs(out.your_score)}.")
    (st.success if out.your_score > 0 else st.warning)(msg)  # a red box reads as a fault of the app
    m = st.columns(4)
    m[0].metric("Contract", str(c))
    m[1].metric("Declarers took", out.result.declarer_points, help="when the contract was decided")
    m[2].metric("Result", word)
    m[3].metric("Your team", f"{out.your_score:+d}")
    if pt.can_play_out:
        st.button("Play it out", key="pl_play_out", icon=":material/play_arrow:", on_click=on_play_out,
                  help="The contract is decided; play the remaining cards anyway (the result stays; the saved "
                       "record keeps every card).")
    elif pt.played_out:
        st.caption("Played out to the last card: " + points_line(pt, state) + " card points in all.")
    hand_in(pt)
    match_panel(pt, out)
    dd_panel(pt)
    review_panel(pt, player)


def match_panel(pt: practice.PracticeTable, out: practice.Outcome) -> None:
    ss = st.session_state
    t = pt.table
    fmt = st.session_state.get("pl_match", "chips")
    m = match_kept(t)
    if m is None or m.format != fmt or m.table != t:
        m = Match(fmt, t)
    m.record(pt.key, out.result)
    ss[MATCH] = m
    if st.query_params.get(MATCH_URL) != m.to_text():
        st.query_params[MATCH_URL] = m.to_text()
    st.subheader(f"The match ({m.format})")
    st.caption(m.describe())
    cols = st.columns(t.num_teams + 1)
    for k, v in enumerate(m.totals):
        cols[k].metric(f"Team {t.team_name(k)}" + (" (you)" if k == pt.your_team else ""), v)
    cols[-1].metric("Hands", len(m.hands))
    if m.is_over:
        w = m.winner
        st.success("The match is over: " + ("a tie." if w is None else
                                            f"team {t.team_name(w)}{' (yours)' if w == pt.your_team else ''} wins."))
    rows = [{"hand": i + 1, "contract": f"{h.contract} by seat {h.declarer}", "declarers took": h.points,
             "result": h.reason, "declarers' score": h.score,
             **{f"team {t.team_name(k)}": v for k, v in enumerate(h.totals)}} for i, h in enumerate(m.hands)]
    st.dataframe(rows, hide_index=True)
    b1, b2 = st.columns(2)
    b1.button("Next hand", key="pl_next", type="primary", icon=":material/skip_next:", on_click=next_hand)
    b2.button("New match", key="pl_new_match", icon=":material/restart_alt:", on_click=new_match)


def match_line(pt: practice.PracticeTable) -> None:
    """The match's running score, one line, while a hand is played."""
    m = match_kept(pt.table)
    if m is None or not m.hands or m.table != pt.table:
        return
    t = pt.table
    st.caption(f"Match ({m.format}) after {len(m.hands)} hand(s): " + " · ".join(
        f"team {t.team_name(k)}{' (you)' if k == pt.your_team else ''} {v}" for k, v in enumerate(m.totals)))


def dd_panel(pt: practice.PracticeTable) -> None:
    """The double-dummy value at the start and each team's best contract (kept per hand)."""
    ss = st.session_state
    t = pt.table
    cache = ss.setdefault("pl_dd", {})
    if pt.key not in cache:
        warm_solver()
        try:
            cache[pt.key] = run_cancellable(partial(heavy.double_dummy, pt, DD_SECONDS),
                                            "Solving the deal double-dummy", DD_SECONDS + 5)
        except FiftySixError as e:
            st.warning(f"The double-dummy figures are not available: {md_text(e)}")
            return
    dd = cache[pt.key]
    st.subheader("With best play")
    if dd.declarers is None:
        st.caption(f"The declarers' best total was not solved within {DD_SECONDS:.0f} s.")
    else:
        st.markdown(f"Double-dummy at the start, the declarers could take **{dd.declarers}** points "
                    f"(target {dd.target}: {'makeable' if dd.declarers >= dd.target else 'not makeable'}).")
    rows = []
    for b in dd.best:
        rows.append({"team": t.team_name(b.team) + (" (you)" if b.team == pt.your_team else ""),
                     "best strain": b.strain or "?", "points with best play": b.points,
                     "best contract": b.contract or ("under 28 in every strain" if b.points is not None else "?"),
                     "stake if made": b.stake})
    st.dataframe(rows, hide_index=True)
    st.caption("Best play by every seat, each seeing every hand, seat 1 leading; a team's best contract is the "
               "highest bid that makes in its best strain.")


def review_panel(pt: practice.PracticeTable, player: str) -> None:
    """The Review page's parts on this hand, and saving it to the library."""
    ss = st.session_state
    try:
        record = pt.to_record(date=dt.date.today().strftime("%Y.%m.%d"), player=player)
    except FiftySixError as e:
        st.error(f"This hand cannot be written as a record: {md_text(e)}")
        return
    text = format_record(record)
    if ss.get("pl_record_sig") != pt.key:  # a new hand: its review from the start
        ss["pl_record_sig"] = pt.key
        for k in ("plr_call", "plr_step"):
            ss.pop(k, None)
    with st.expander("Make a play problem of this hand (for a coach's bank)"):
        problem_panel(record, "pl_pb")
    st.subheader("Save it")
    b1, b2 = st.columns(2)
    # kept by the record's text: a hand saved, then played out, is a new record to save
    saved = ss.get("pl_saved")
    saved = saved if saved and saved[0] == text else None
    if b1.button("Save to the hand library", key="pl_save", type="primary", icon=":material/save:"):
        try:
            rep = user_library().add([record], "practice table")
            if saved is None or saved[1] is None:  # a second click keeps the number the first one gave
                saved = ss["pl_saved"] = (text, rep.ids[0] if rep.ids else None)
        except FiftySixError as e:
            st.error(md_text(e))
    b2.download_button("Download the record", text + "\n", file_name="practice-hand.txt", mime="text/plain",
                       key="pl_download", on_click="ignore", icon=":material/download:")
    if saved:
        st.success(f"Saved to the hand library as record #{saved[1]}." if saved[1] else
                   "This hand is in the hand library already.")
    st.subheader("Review")
    warm_solver()
    try:
        rev = review_of(text, bot=None)  # what the system bids is known: the table asked its bot
    except FiftySixError as e:
        st.error(f"This hand cannot be reviewed: {md_text(e)}")
        return
    auction_panel(with_table_bids(rev, pt), pt.table, prefix="plr")
    mine = [x for x in rev.cards if x.seat == pt.seat]
    if mine:
        lost = sum(x.cost or 0 for x in mine)
        st.markdown(f"**Your cards** cost {lost} point(s) against best play in all.")
        st.dataframe([{"card": x.index, "trick": x.trick, "you played": x.card,
                       "cost": "?" if x.cost is None else x.cost, "best": " ".join(x.best)} for x in mine],
                     hide_index=True)
    if rev.cards:
        play_stepper(record, rev, prefix="plr", bottom=pt.seat)
        chart(value_chart(rev), key="pl_chart", title=VALUE_TITLE)


def with_table_bids(rev: Review, pt: practice.PracticeTable) -> Review:
    """The review with what the table's bot called (the bots' calls) or would have called (the
    learner's calls, from the feedback) at each call."""
    said = {f.index: (f.bot_call, f.bot_reason) for f in pt.feedback}
    said.update({i: (call, why) for i, (call, why) in enumerate(zip(pt.calls, pt.call_reasons), start=1) if why})
    return replace(rev, calls=tuple(replace(c, system_bid=said[c.index][0], system_reason=said[c.index][1])
                                    if c.index in said else c for c in rev.calls))


def share_link(pt: practice.PracticeTable) -> None:
    """The query that opens this deal at this seat anywhere (a coach sends it to a class)."""
    t = pt.table
    params = {"players": t.players, "deck": f"{t.deck} cards",  # the sidebar's values as it shows them
              "teams": "odd v even seats" if t.teams == "alternate" else "partners opposite",
              "system": pt.system, "pl_from": "written", "pl_deal": str(pt.deal), "pl_seat": pt.seat,
              "pl_seed": pt.seed, "pl_bot": pt.bot, "pl_mode": pt.mode}
    with st.expander("Send this deal"):
        st.code("play?" + urlencode(params), language=None)
        st.caption("Put this after the app's address (…/play?…): it opens this deal, written out, at this table "
                   "and seat with the same bots, whatever seed or library it came from.")


# --- the page ---------------------------------------------------------------------------------

settings = page_start("Play", "Sit at a table with the bots: bid your hand, play it, then see what you did "
                      "against the system and against best play.")
ss = st.session_state
play_assignments()
table, system, deal, source, seed = choose(settings)
c1, c2, c3, c4 = st.columns(4)
seat = choice_in_url(c1.selectbox, "Your seat", list(table.seats), key="pl_seat",
                    help="Seat 1 calls first and leads; " + ", ".join(
                        f"team {table.team_name(k)}: seats {' '.join(map(str, table.team_seats(k)))}"
                        for k in range(table.num_teams)))
bot = choice_in_url(c2.selectbox, "Bots", sorted(BIDDING_BOTS), index=sorted(BIDDING_BOTS).index(DEFAULT_BOT), key="pl_bot",
                   help="default: judges each call by simulating deals (a moment per call); rules: the rule of "
                        "thumb (instant)")
mode = choice_in_url(c3.segmented_control, "Mode", practice.MODES, default="learning", required=True, key="pl_mode",
                            help="learning: every hand face up, hints, ✓ on the calls your hand keeps; practice: "
                                 "only your hand")
choice_in_url(c4.selectbox, "Match", MATCH_FORMATS, key="pl_match",
             help="chips: 12 each, the stake moves; race: first to 12; games: 6 games")
st.caption(f"{table.players} players, {table.deck} cards, teams {table.teams}, system {system}; "
           f"deal: {source}. The page's address holds the table: bookmark it, or send it to a class.")

pt = stored()
dealt = deal if deal is not None else random_deal(table, seed=seed)
if pt is None or pt.key != practice.table_key(system, seat, dealt, seed, bot):
    try:
        wanted = practice.new_table(table, system, seat, seed=seed, deal=deal, bot=bot, mode=mode, source=source)
    except FiftySixError as e:
        st.error(md_text(e))
        st.stop()
    pt = resumed(wanted) or wanted
    keep(pt)
if pt.mode != mode:
    pt.mode = mode
    keep(pt)
if ss.get("pl_error"):
    st.error(md_text(ss.pop("pl_error")))
if ss.pop("pl_drill_error", None):
    st.warning("Your calls could not be kept for the Drill page (the progress file cannot be written).")
phase = pt.phase
if phase != OVER and not pt.your_turn:
    warm_solver()  # the bots search: on a first run the page says it is preparing the solver
    try:
        label = "The bots are " + ("calling" if phase == AUCTION else "playing")
        with heavy_job(label, BOTS_SECONDS) as job, st.spinner(f"{label} (for {BOTS_SECONDS:.0f} s at most)..."):
            pt = in_worker(job, partial(heavy.bots_move, pt))  # the worker's copy moved: it comes back
    except FiftySixError as e:
        st.error(f"The bots could not go on: {md_text(e)}")
        st.stop()
    keep(pt)
    phase = pt.phase
    if phase != OVER and not pt.your_turn:  # stopped at the time limit: they go on when asked
        st.warning(f"The bots stopped at their time limit of {BOTS_SECONDS:.0f} s.")
        st.button("Let the bots go on", key="pl_bots_go_on", icon=":material/play_arrow:")
        st.stop()
st.button("Start this hand again", key="pl_restart", icon=":material/replay:", on_click=restart)
match_line(pt)
if phase == AUCTION:
    bidding(pt)
elif phase == PLAY:
    c = pt.decided_contract
    st.markdown(f"**The auction is over:** {c} by {seat_words(pt, c.declarer)}. {targets(pt, c)} "
                f"Seat {pt.state.leader} leads.")
    with st.expander("The auction", expanded=False):
        auction_grid(pt)
        calls_table(pt)
    if pt.feedback and not pt.cards:
        feedback_box(pt.feedback[-1])
    playing(pt)
else:
    with st.expander("The auction"):
        auction_grid(pt)
    after(pt, settings.player)
share_link(pt)
if ss.get("pl_drilled"):
    st.caption(f"{ss['pl_drilled']} of your calls this session went to your drills: the misses come back on "
               "the Drill page.")
