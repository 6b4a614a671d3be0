"""The Streamlit app: the page router and the shared sidebar, nothing else."""
from __future__ import annotations

import streamlit as st

from fiftysix.cards import DEFAULT_DECK
from fiftysix.ui.club import ClubConfigError, club, current_user, is_loopback, sign_in_page
from fiftysix.ui.components import decks_for, in_url, system_names

st.set_page_config(page_title="56 trainer", page_icon="🃏", layout="wide")

# Who may use this server: one local player, or the signed-in members of a club (ui/club.py).
try:
    CLUB = club()
except ClubConfigError as e:
    st.error(str(e))
    st.stop()
if CLUB is None and not is_loopback(st.get_option("server.address") or ""):
    st.error("This app serves one person on this computer, with no sign-in, so it does not answer other "
             "computers: start it on 127.0.0.1 (./scripts/app does), or set it up as a club server with "
             "sign-in (README: Serving a club).")
    st.stop()
if CLUB is not None and current_user() is None:
    st.navigation([st.Page(sign_in_page, title="Sign in", icon=":material/login:")]).run()
    st.stop()

PAGES = {
    "Learn": [
        st.Page("ui/pages/explain.py", title="Explain", icon=":material/record_voice_over:", default=True),
        st.Page("ui/pages/drill.py", title="Drill", icon=":material/target:"),
        st.Page("ui/pages/play.py", title="Play", icon=":material/style:"),
        st.Page("ui/pages/progress.py", title="Progress", icon=":material/trending_up:"),
    ],
    "Analyse": [
        st.Page("ui/pages/analyse.py", title="Analyse", icon=":material/search:"),
        st.Page("ui/pages/review.py", title="Review", icon=":material/replay:"),
        st.Page("ui/pages/enter.py", title="Enter a hand", icon=":material/edit_note:"),
        st.Page("ui/pages/library.py", title="Hand library", icon=":material/library_books:"),
    ],
    "Teach": [
        st.Page("ui/pages/coach.py", title="Coach", icon=":material/school:"),
        st.Page("ui/pages/rules.py", title="Rules", icon=":material/gavel:"),
    ],
}
page = st.navigation(PAGES)


def new_table_size() -> None:
    """A new number of players gets that table's usual deck (4: 32 cards, 6: 48, 8: 64)."""
    st.session_state["deck"] = DEFAULT_DECK[st.session_state["players"]]


with st.sidebar:
    st.markdown("### ♠ ♥ 56 ♦ ♣")
    names = system_names()
    st.selectbox("Bidding system", names, **in_url("system"))
    players = st.selectbox("Players", (4, 6, 8), index=1, on_change=new_table_size, **in_url("players"))
    decks = sorted(decks_for(players), key=lambda d: d != DEFAULT_DECK[players])  # the usual deck first
    if st.session_state.get("deck", decks[0]) not in decks:  # only a hand-made URL gets here
        st.session_state["deck"] = DEFAULT_DECK[players]
    st.selectbox("Deck", decks, format_func=lambda d: f"{d} cards", **in_url("deck"))
    st.selectbox("Teams", ("alternate", "pairs"),
                 format_func=lambda t: "odd v even seats" if t == "alternate" else "partners opposite",
                 **in_url("teams"))
    if CLUB is None:
        st.text_input("Player name", value="player", max_chars=40, **in_url("player"),
                      help="Your answers are kept under this name. The page's address keeps your choices: "
                           "bookmark it, or share it.")
    else:
        st.caption("Signed in as")
        st.text(current_user().name)
        if st.button("Sign out", key="club_sidebar_sign_out", icon=":material/logout:"):
            st.logout()

page.run()
