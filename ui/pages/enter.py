"""Enter a hand page: a hand you played, entered and saved to the hand library.

The deal seat by seat (click cards or type; the rest at random), the auction with the call
palette, the play card by card, the result; then save it to the hand library, or open it in
Review or Analyse."""
from __future__ import annotations

import datetime as dt
from collections import Counter

import streamlit as st

from fiftysix.bidding import parse_call
from fiftysix.cards import (
    CARD_NAMES,
    COPIES,
    SUIT_SYMBOLS,
    Card,
    Deal,
    Hand,
    Table,
    check_cards,
    complete_deal,
    deck_cards,
    format_trump,
)
from fiftysix.errors import FiftySixError
from fiftysix.hand import AUCTION, OVER, PLAY_ON, HandState, TableOptions
from fiftysix.play import legal_cards
from fiftysix.records import format_record, record_of
from fiftysix.ui import render
from fiftysix.ui.components import page_start, show, tricks_table, user_library
from fiftysix.ui.problem_parts import problem_panel
from fiftysix.ui.render import md_text

QUIET = ("P", "X", "XX")
HAND = "en_state"  # the hand entered: one HandState (deal, calls, cards), live in the session


# --- state ----------------------------------------------------------------------------------

RED_SUITS = (1, 2)  # hearts and diamonds, drawn red as on every other page


def hand_key(seat: int) -> str:
    return f"en_hand_{seat}"


def reset(table: Table) -> None:
    """Start a new hand for this table: empty hands, no calls, no cards."""
    ss = st.session_state
    for s in range(1, 9):
        ss.pop(hand_key(s), None)
    ss.pop(HAND, None)
    ss["en_table"] = table
    ss.pop("en_saved", None)


def hands_entered(table: Table) -> tuple[list[Hand], list[str]]:
    """The hands as typed or clicked so far (unreadable ones empty), and what is wrong."""
    hands, problems = [], []
    for s in table.seats:
        text = st.session_state.get(hand_key(s), "").strip()
        try:
            hands.append(Hand.parse(text) if text else Hand())
        except FiftySixError as e:
            hands.append(Hand())
            problems.append(f"seat {s}: {e}")
    return hands, problems


def add_card(table: Table, seat: int, name: str) -> None:
    """Card button: one copy of the card goes into the seat's hand."""
    hands, _ = hands_entered(table)
    hand, card = hands[seat - 1], Card.parse(name)
    held = sum(h.count(card) for h in hands)
    if len(hand) < table.hand_size and held < COPIES:  # a click on a button drawn before the last one
        st.session_state[hand_key(seat)] = str(Hand(hand.cards + (card,)))
    clear_auction()


def clear_seat(seat: int) -> None:
    st.session_state[hand_key(seat)] = ""
    clear_auction()


def fill_rest(table: Table, seed: int) -> None:
    """Deal every card not yet placed at random to the seats that are short."""
    hands, problems = hands_entered(table)
    try:
        if problems:
            raise FiftySixError(problems[0])
        deal = complete_deal(table, hands, seed=seed)
    except FiftySixError as e:
        st.session_state["en_error"] = str(e)
        return
    for s, h in zip(table.seats, deal.hands):
        st.session_state[hand_key(s)] = str(h)
    clear_auction()


def clear_auction() -> None:
    st.session_state.pop(HAND, None)
    st.session_state.pop("en_saved", None)


def entered() -> HandState | None:
    return st.session_state.get(HAND)


def make_call(call: str, made: int) -> None:
    """Palette button: the call, if no move was made since the button was drawn (a second
    click on a button that has just been redrawn must not make a call for the next seat)."""
    h = entered()
    if h is None or len(h.moves) != made:
        return
    try:
        h.apply(parse_call(call))
    except FiftySixError as e:
        st.session_state["en_error"] = str(e)
    st.session_state.pop("en_saved", None)


def undo_call() -> None:
    """Take back the last call (and every card played after it)."""
    h = entered()
    while h is not None and h.moves:
        if not isinstance(h.undo(), (Card, str)):
            break
    st.session_state.pop("en_saved", None)


def play_card(card: str, played: int) -> None:
    """Card button: the card, if no move was made since the button was drawn. After the
    contract is decided the card plays on (the table played the hand out)."""
    h = entered()
    if h is None or len(h.moves) != played:
        return
    try:
        if h.can_play_on:
            h.play_on()
        h.apply(Card.parse(card))
    except FiftySixError as e:
        st.session_state["en_error"] = str(e)
    st.session_state.pop("en_saved", None)


def undo_card() -> None:
    """Take back the last card (and the playing on, if it was the first card after the decision)."""
    h = entered()
    if h is not None and h.cards:
        h.undo()
        if h.moves and h.moves[-1] == PLAY_ON:
            h.undo()
    st.session_state.pop("en_saved", None)


# --- the sections ---------------------------------------------------------------------------

def deal_section(table: Table) -> Deal | None:
    """The deal by seat: click cards into the chosen seat's hand, or type each hand."""
    ss = st.session_state
    st.subheader("1. The deal")
    hands, problems = hands_entered(table)
    held = Counter(c for h in hands for c in h)
    seat = st.segmented_control("Cards go to", list(table.seats), default=1, key="en_seat", required=True,
                                format_func=lambda s: f"seat {s} ({len(hands[s - 1])})")
    full = len(hands[seat - 1]) >= table.hand_size
    kinds = sorted(set(deck_cards(table.deck)))
    st.caption("Click a card to give it to the seat chosen above; the small number is how many of its "
               "two copies are still free.")
    for suit in range(4):
        row = [k for k in kinds if k.suit == suit]
        cols = st.columns(len(row) + 1)
        cols[0].markdown(f"**{SUIT_SYMBOLS[suit]}**")
        for col, k in zip(cols[1:], row):
            left = COPIES - held[k]
            face = f"{render.face_rank(k)}{SUIT_SYMBOLS[suit]}"
            col.button(f":red[{face}] ·{left}" if suit in RED_SUITS else f"{face} ·{left}", key=f"en_card_{CARD_NAMES[k]}",
                       disabled=left <= 0 or full, on_click=add_card, args=(table, seat, CARD_NAMES[k]),
                       help=f"{k.name}: {left} cop{'y' if left == 1 else 'ies'} left", width="stretch")
    cols = st.columns(min(table.players, 4))
    for s in table.seats:
        with cols[(s - 1) % len(cols)]:
            st.text_input(f"Seat {s} (S.H.D.C)", key=hand_key(s), on_change=clear_auction,
                          placeholder="e.g. JJ9.A.KQ.", help=f"{len(hands[s - 1])} of {table.hand_size} cards")
            st.button("Clear", key=f"en_clear_{s}", on_click=clear_seat, args=(s,))
    c1, c2, c3 = st.columns([1, 2, 2], vertical_alignment="bottom")
    seed = c1.number_input("Seed", 0, 10**9, 1, key="en_seed")
    c2.button("Complete the rest at random", key="en_fill", icon=":material/casino:", on_click=fill_rest,
              args=(table, int(seed)))
    c3.button("Start a new hand", key="en_new", icon=":material/restart_alt:", on_click=reset, args=(table,))
    if ss.get("en_error"):
        st.error(md_text(ss.pop("en_error")))
    for p in problems:
        st.error(md_text(p))
    if problems:
        return None
    try:
        check_cards(table, hands)
        deal = Deal(table, tuple(hands))
        if not deal.is_complete:
            short = [f"seat {s} ({len(h)})" for s, h in zip(table.seats, hands) if len(h) != table.hand_size]
            st.caption(f"Each seat holds {table.hand_size} cards; still short: {', '.join(short)}. Click cards, "
                       "type the hands, or complete the rest at random.")
            return None
        deal.validate()
    except FiftySixError as e:
        st.error(md_text(e))
        return None
    return deal


def hand_state(system: str, deal: Deal, leads: bool) -> HandState:
    """The hand entered for this deal, system and lead rule (a new one when any changed; a new
    lead rule keeps the calls and starts the play again)."""
    ss = st.session_state
    h = entered()
    options = TableOptions(declarer_leads=leads)
    if h is None or h.deal != deal or h.system.name != system:
        h = ss[HAND] = HandState(deal, system, options)
    elif h.options != options:
        h = ss[HAND] = HandState.from_moves(deal, system, options, h.calls)
    return h


def auction_section(table: Table, deal: Deal, h: HandState) -> bool:
    """The auction call by call with the palette of legal calls; True once it is over."""
    st.subheader(f"2. The auction ({h.system.name})")
    auction = h.auction
    assert auction is not None  # a hand entered here is bid before it is played
    show(render.auction_html(table, [(r.seat, str(r.call), r.meaning.label, r.meaning.sentence)
                                     for r in auction.calls]))
    c1, _ = st.columns(2)
    c1.button("Undo the last call", key="en_undo_call", icon=":material/undo:", disabled=not h.calls,
              on_click=undo_call)
    if h.phase != AUCTION:
        c = h.contract
        assert c is not None  # the auction is over with a contract
        st.success(f"The auction is over: {c} by seat {c.declarer} (team {table.team_name(c.team)}).")
        return True
    seat = h.to_move
    assert seat is not None  # the auction goes on
    st.markdown(f"**Seat {seat} to call** (holding {render.hand_text_html(deal.hand(seat))}):",
                unsafe_allow_html=True)
    palette = auction.palette()
    quiet = [(c, m) for c, m in palette if str(c) in QUIET]
    bids = {str(c): m for c, m in palette if str(c) not in QUIET}
    made = len(h.moves)
    cols = st.columns(len(quiet) + 2, vertical_alignment="bottom")
    for col, (call, m) in zip(cols, quiet):
        col.button(str(call), key=f"en_call_{call}", help=f"{m.label}: {m.sentence}", on_click=make_call,
                   args=(str(call), made), width="stretch")
    if bids:
        pick = cols[-2].selectbox(f"Any of the {len(bids)} legal bids", list(bids), key=f"en_bid_{len(h.calls)}",
                                  format_func=lambda b: f"{b}: {bids[b].label}")
        cols[-1].button("Bid", key="en_bid_btn", type="primary", on_click=make_call, args=(pick, made))
    return False


def play_section(table: Table, h: HandState) -> None:
    """The play card by card: click the card the seat to move played; after the contract is
    decided, the cards the table played on (if it did)."""
    st.subheader("3. The play")
    st.toggle("The declarer leads (table option declarer-leads)", key="en_declarer_leads")
    c = h.contract
    state = h.play
    assert c is not None and state is not None  # shown once the auction has a contract
    pts = " · ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points))
    show(render.table_html(table, {s: state.hands[s - 1] for s in table.seats},
                           to_move=None if h.phase == OVER else state.to_move,
                           trick=state.current or (state.tricks[-1].plays if state.tricks else ()),
                           center=f"{render.contract_html(str(c))}<br>{pts}"))
    b1, _ = st.columns(2)
    b1.button("Undo the last card", key="en_undo_card", icon=":material/undo:", disabled=not h.cards,
              on_click=undo_card)
    if h.phase != OVER or h.can_play_on:
        st.markdown(f"**Seat {state.to_move} plays** (click the card; the legal ones are shown):")
        legal = legal_now(h)
        cols = st.columns(max(len(legal), 1))
        for col, card in zip(cols, legal):
            col.button(f"{render.face_rank(card)}{SUIT_SYMBOLS[card.suit]}", key=f"en_play_{card}",
                       on_click=play_card, args=(str(card), len(h.moves)), width="stretch", help=card.name)
    with st.expander(f"Tricks played ({len(state.tricks)})"):
        tricks_table(state)


def legal_now(h: HandState) -> tuple[Card, ...]:
    """The cards the seat to move may play, on after the decision too."""
    if not h.can_play_on:
        moves = h.legal_moves()
        assert isinstance(moves, tuple)  # in the play the legal moves are cards
        return moves
    state = h.play
    assert state is not None and state.to_move is not None
    return legal_cards(state.hands[state.to_move - 1], state.led_suit)


def result_section(h: HandState) -> int | None:
    """The result: the declarers' points when the contract was decided, or the points agreed
    when the play stopped before (a claim)."""
    st.subheader("4. The result")
    if h.phase == AUCTION:
        st.caption("Finish the auction first (or save the deal alone below).")
        return None
    c, state, r = h.contract, h.play, h.result
    assert c is not None and state is not None  # past the auction
    if r is not None:
        word = "made" if r.made else "failed"
        if h.phase == OVER and not h.can_play_on:
            st.success(f"All cards played: the declarers took {r.declarer_points} of {c.value} needed when the "
                       f"contract was decided (after card {h.decided_at}), {word}.")
        else:
            st.success(f"The contract was decided after card {h.decided_at}: the declarers took "
                       f"{r.declarer_points} of {c.value} needed, {word}. If the table played on, enter the rest "
                       "of the cards (the result stays); the record keeps every card.")
        if h.played_on and h.phase != OVER:
            st.caption(f"Played on after the decision: enter every card to the last one, or undo back to card "
                       f"{h.decided_at}, to save the hand.")
        return None
    got = state.points[c.team]
    hi = got + state.points_out
    st.caption(f"The play stopped after {len(state.tricks)} trick(s). Enter the declarers' points agreed at the "
               f"end ({got} to {hi}).")
    return int(st.number_input("Declarers' points at the end (claimed)", got, hi, min(hi, max(got, c.value)),
                               key="en_result"))


def save_section(table: Table, h: HandState, result: int | None) -> None:
    ss = st.session_state
    st.subheader("5. Save it, review it")
    c1, c2 = st.columns(2)
    event = c1.text_input("Event", key="en_event", placeholder="Thursday club")
    date = c2.date_input("Date", value=dt.date.today(), key="en_date")
    names = st.columns(min(table.players, 4))
    players = [names[(s - 1) % len(names)].text_input(f"Player in seat {s}", key=f"en_name_{s}")
               for s in table.seats]
    deal_alone = h.phase == AUCTION  # an unfinished auction: the deal is saved alone
    try:
        record = record_of(HandState(h.deal, h.system) if deal_alone else h, result=result, event=event,
                           date=date.strftime("%Y.%m.%d") if date else "", players=players)
    except FiftySixError as e:
        st.error(f"Not ready to save: {md_text(e)}")
        return
    b1, b2, b3, b4 = st.columns(4)
    if b1.button("Save to the hand library", key="en_save", type="primary", icon=":material/save:"):
        try:
            rep = user_library().add([record], "entered in the app")
            ss["en_saved"] = rep.ids[0] if rep.ids else "already"
        except FiftySixError as e:
            st.error(md_text(e))
    if ss.get("en_saved") == "already":
        st.info("This hand is in the library already.")
    elif ss.get("en_saved"):
        st.success(f"Saved to the hand library as record #{ss['en_saved']}.")
    b2.button("Open in Review", key="en_to_review", icon=":material/replay:", on_click=open_in_review,
              args=(format_record(record),), disabled=record.contract is None)
    b3.button("Open in Analyse", key="en_to_analyse", icon=":material/search:", on_click=open_in_analyse,
              args=(record,))
    b4.download_button("Download the record", format_record(record) + "\n", file_name="hand.txt",
                       mime="text/plain", key="en_download", on_click="ignore", icon=":material/download:")
    with st.expander("Make a play problem of this hand (for a coach's bank)"):
        problem_panel(record, "en_pb")
    if ss.pop("en_go", None):
        st.switch_page(ss.pop("en_go_page"), query_params={})


def open_in_review(text: str) -> None:
    """Send a record to the Review page (it opens there as "Opened")."""
    st.session_state["rv_open"] = text
    st.session_state["rv_source"] = "Opened"
    st.session_state["en_go"], st.session_state["en_go_page"] = True, "ui/pages/review.py"


def open_in_analyse(record) -> None:
    """Send a record's deal (and its contract's trump and leader) to the Analyse page."""
    ss = st.session_state
    t = record.table
    ss["players"], ss["deck"], ss["teams"], ss["system"] = t.players, t.deck, t.teams, record.system
    ss["an_table"] = t
    ss["an_deal"], ss["an_played"], ss["an_mode"] = str(record.deal), [], "Deal"
    if record.contract is not None:
        ss["an_bp_trump"] = format_trump(record.contract.trump)
        ss["an_bp_leader"] = record.leader
    ss["en_go"], ss["en_go_page"] = True, "ui/pages/analyse.py"


settings = page_start("Enter a hand", "Enter a hand you played: the deal, the auction, the play and the "
                      "result. Save it to your hand library, or open it in Review or Analyse.")
table = settings.table
if st.session_state.get("en_table") != table:
    reset(table)
st.caption(f"{table.players} players, {table.deck} cards, system {settings.system} (change them in the sidebar; "
           "a new table starts a new hand).")
deal = deal_section(table)
if deal is not None:
    leads = st.session_state.get("en_declarer_leads", False)
    hand = hand_state(settings.system, deal, leads)
    if st.session_state.get("en_error"):
        st.error(md_text(st.session_state.pop("en_error")))
    if auction_section(table, deal, hand):
        play_section(table, hand)
    else:  # keep the numbering whole: the steps read 1, 2, 4, 5 without it
        st.subheader("3. The play")
        st.caption("Finish the auction first: the play follows its contract.")
    result = result_section(hand)
    save_section(table, hand, result)
