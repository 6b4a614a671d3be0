"""The Streamlit app: the page router and the shared sidebar, nothing else.

Streamlit runs this file as its main script (``fiftysix app``), or the repository's app.py
calls ``main`` (``streamlit run app.py``, the page tests). The pages are the files of
``fiftysix.ui.pages``, found where the package is installed.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

import streamlit as st

from fiftysix.cards import DEFAULT_DECK
from fiftysix.ui.club import ClubConfigError, club, current_user, is_loopback, sign_in_page
from fiftysix.ui.components import choice_in_url, decks_for, in_url, keep_history, start_warming, system_names

PAGES: dict[str, list[tuple[Any, ...]]] = {
    "Learn": [
        # The first page is served at the app's root; /explain, the address its name suggests,
        # serves it too (the hidden page below), instead of a "Page not found" dialog.
        ("explain", "Explain", ":material/record_voice_over:", {"default": True, "url_path": "start"}),
        ("drill", "Drill", ":material/target:"),
        ("play", "Play", ":material/style:"),
        ("problems", "Problems", ":material/extension:"),
        ("progress", "Progress", ":material/trending_up:"),
        ("glossary", "Glossary", ":material/menu_book:"),
        ("explain", "Explain", ":material/record_voice_over:", {"url_path": "explain", "visibility": "hidden"}),
    ],
    "Analyse": [
        ("analyse", "Analyse", ":material/search:"),
        ("review", "Review", ":material/replay:"),
        ("enter", "Enter a hand", ":material/edit_note:"),
        ("library", "Hand library", ":material/library_books:"),
    ],
    "Teach": [
        ("coach", "Coach", ":material/school:"),
        ("classes", "Class", ":material/groups:"),
        ("rules", "Rules", ":material/gavel:"),
    ],
}
"""Each section's pages: (the module in ui/pages/, its title, its icon[, more st.Page arguments])."""


def page_file(name: str) -> Path:
    """The page module's file (``fiftysix.ui.pages.<name>``): Streamlit runs pages from files on
    disk, which is where pip installs them."""
    return Path(str(files("fiftysix.ui.pages").joinpath(f"{name}.py")))


def new_table_size() -> None:
    """A new number of players gets that table's usual deck (4: 32 cards, 6: 48, 8: 64)."""
    st.session_state["deck"] = DEFAULT_DECK[st.session_state["players"]]


def sidebar(signed_in: bool) -> None:
    """The choices every page shares: system, table, and the player's name, or who is signed in
    to a club server (kept in the page's URL)."""
    with st.sidebar:
        st.markdown("### ♠ ♥ 56 ♦ ♣")
        names = system_names()
        choice_in_url(st.selectbox, "Bidding system", names, key="system")
        players = choice_in_url(st.selectbox, "Players", (4, 6, 8), index=1, on_change=new_table_size, key="players")
        decks = sorted(decks_for(players), key=lambda d: d != DEFAULT_DECK[players])  # the usual deck first
        if st.session_state.get("deck", decks[0]) not in decks:  # only a hand-made URL gets here
            st.session_state["deck"] = DEFAULT_DECK[players]
        # the URL keeps each choice's short code (choice_in_url), so a hand-typed ?deck=48&teams=pairs works
        choice_in_url(st.selectbox, "Cards in the deck", decks, key="deck",
                      help="How many cards are dealt: 4 players use 32 (or 48), 6 use 48, 8 use 64 (or 48).")
        choice_in_url(st.selectbox, "Teams", ("alternate", "pairs"), key="teams",
                      help="alternate: the odd seats (1, 3, 5, ...) play against the even seats. "
                           "pairs: partners sit opposite each other.")
        if not signed_in:
            st.text_input("Player name", value="player", max_chars=40, **in_url("player"),
                          help="Your answers are kept under this name. The page's address keeps your choices: "
                               "bookmark it, or share it.")
        else:
            st.caption("Signed in as")
            member = current_user()
            st.text(member.name if member is not None else "")
            if st.button("Sign out", key="club_sidebar_sign_out", icon=":material/logout:"):
                st.logout()


def main() -> None:
    """One run of the app: configure, let in who may use this server, route to the chosen page,
    draw the sidebar, run the page."""
    st.set_page_config(page_title="56 trainer", page_icon="🃏", layout="wide")
    keep_history()
    # Who may use this server: one local player, or the signed-in members of a club (ui/club.py).
    try:
        the_club = club()
    except ClubConfigError as e:
        st.error(str(e))
        st.stop()
    if the_club is None and not is_loopback(st.get_option("server.address") or ""):
        st.error("This app serves one person on this computer, with no sign-in, so it does not answer other "
                 "computers: start it on 127.0.0.1 (./scripts/app does), or set it up as a club server with "
                 "sign-in (README: Serving a club).")
        st.stop()
    if the_club is not None and current_user() is None:
        st.navigation([st.Page(sign_in_page, title="Sign in", icon=":material/login:")]).run()
        st.stop()
    start_warming(club=the_club is not None)  # the solver's kernels and the heavy jobs' workers, once per server
    pages = {section: [st.Page(page_file(name), title=title, icon=icon, **(more[0] if more else {}))
                       for name, title, icon, *more in entries]
             for section, entries in PAGES.items()}
    # every page in view: collapsed, the list stopped at ten and hid Teach (Rules among them)
    page = st.navigation(pages, expanded=True)
    sidebar(the_club is not None)
    page.run()


if __name__ == "__main__":  # Streamlit runs the main script as __main__
    main()
