"""Streamlit pieces the pages share, so that each page only calls the library and draws.

The sidebar's settings, page start, error boxes, uploads, the warmed solver, hands and tricks
on the table, and what a call is worth.

Pages call the library and draw with these; the HTML itself is in ``ui.render``.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal, TypedDict

import streamlit as st

from fiftysix.analyser import solver
from fiftysix.bidding import SYSTEM_NAMES
from fiftysix.cards import DEFAULT_DECK, TABLE_SETUPS, Table
from fiftysix.drills.library import Library
from fiftysix.errors import FiftySixError
from fiftysix.play import trick_rows
from fiftysix.stats import summary
from fiftysix.ui import render, workers
from fiftysix.ui.club import User, current_user

MAX_UPLOAD_BYTES = 256 * 1024
"""Uploaded files (banks, hand records) larger than this are refused."""


@dataclass(frozen=True)
class Settings:
    """What the sidebar chose: the table and the bidding system; and whose data the page uses."""

    table: Table
    system: str
    user: User

    @property
    def player(self) -> str:
        """The name the pages show for the user."""
        return self.user.name


def system_names() -> tuple[str, ...]:
    """The registered bidding systems, in registration order."""
    return SYSTEM_NAMES


def decks_for(players: int) -> list[int]:
    """The deck sizes a table of ``players`` may use."""
    return sorted(d for p, d in TABLE_SETUPS if p == players)


def words_for(words: Mapping[Any, str]) -> Callable[[Any], str]:
    """A widget's ``format_func`` that shows each option by its words in ``words`` (where it has
    none, the option itself)."""
    return lambda option: words.get(option, str(option))


class InUrl(TypedDict):
    """The widget arguments ``in_url`` gives."""

    key: str
    bind: Literal["query-params"]


def in_url(key: str) -> InUrl:
    """Widget arguments that keep the widget's value in the page's URL as ``?key=value``, so a
    reload restores it and a link can be shared: ``st.selectbox(..., **in_url("system"))``.

    Streamlit's own query-parameter binding: a value in the URL that the widget does not
    accept is dropped, and the widget's default stays out of the URL. Change such a widget's
    value through ``st.session_state``, never through ``st.query_params``. It is for widgets
    whose value is what they show (text, numbers, a toggle): a choice widget keeps its
    choice's short code with ``choice_in_url`` instead.
    """
    return InUrl(key=key, bind="query-params")


MULTI_WIDGETS = ("multiselect",)
"""Choice widgets whose value is a list of options (and pills or a segmented control with
``selection_mode="multi"``)."""


def choice_in_url(widget: Callable[..., Any], label: str, options: Mapping[Any, str] | Sequence[Any], *, key: str,
                  code: Callable[[Any], str] = str, **kwargs: Any) -> Any:
    """A choice widget (``st.selectbox``, ``segmented_control``, ``radio``, ``pills``,
    ``multiselect``, or a column's) whose choice is kept in the page's URL as ``?key=code``, so a
    reload restores it and a link can be shared: ``choice_in_url(st.selectbox, "Bank", {"kerala":
    "Kerala starter bank", ...}, key="dr_bank")``. Returns the widget's value.

    ``options`` are the options, or a mapping of each option to the words it is shown by. The URL
    holds each option's short stable ``code`` (``str`` of the option unless given), never the
    words shown (Streamlit's own binding keeps a choice's shown words in the URL, so a hand-typed
    ``?dr_source=bank`` was ignored): a code, or the words shown, is taken in either case; a
    list's choices come as repeated parameters or one separated by commas. A value in the URL
    that is no choice here is said in one line and dropped. The widget's default stays out of
    the URL. Change such a widget's value through ``st.session_state``.
    """
    opts = list(options)
    shown = (words_for(options) if isinstance(options, Mapping) else kwargs.get("format_func") or str)
    if isinstance(options, Mapping):
        kwargs.setdefault("format_func", shown)
    multi = getattr(widget, "__name__", "") in MULTI_WIDGETS or kwargs.get("selection_mode") == "multi"
    if multi:
        default: Any = list(kwargs.get("default") or [])
    elif "default" in kwargs:
        default = kwargs["default"]
    elif "index" in kwargs:
        default = None if kwargs["index"] is None else opts[kwargs["index"]]
    else:
        default = opts[0] if opts and getattr(widget, "__name__", "") in ("selectbox", "radio") else None
    ss, url = st.session_state, st.query_params
    note = f"fs_url_note_{key}"
    if key not in ss and key in url:
        lookup: dict[str, Any] = {}
        for o in opts:
            lookup.setdefault(str(shown(o)).strip().lower(), o)
        lookup.update({code(o).strip().lower(): o for o in opts})
        asked = [v.strip() for raw in url.get_all(key) for v in (raw.split(",") if multi else [raw])]
        asked = [v for v in asked if v]
        picked = [lookup.get(v.lower()) for v in asked]
        if any(p is None for p in picked) or (not multi and len(picked) != 1):
            # said until this choice is made (the page's first runs in a browser come in twos)
            ss[note] = (f"The address's {key}={','.join(asked)} is not a choice here "
                        f"({', '.join(code(o) for o in opts)}), so it is left out.", default)
            del url[key]
        else:
            ss[key] = picked if multi else picked[0]
    if note in ss:
        st.warning(render.md_text(ss[note][0]))
    value = widget(label, opts, key=key, **kwargs)
    if note in ss and value != ss[note][1]:
        del ss[note]
    want = [code(v) for v in (value or [])] if multi else ([] if value is None else [code(value)])
    if (list(value or []) == default) if multi else value == default:
        if key in url:
            del url[key]
    elif url.get_all(key) != want:
        url[key] = want if multi else want[0]
    return value


def user() -> User:
    """The user this page serves (``ui.club.current_user``). A page runs only for a known user:
    app.py shows a club server's signed-out visitor the sign-in page instead of any page, so
    reaching here without one is a defect, and it stops the page rather than show anyone's data."""
    who = current_user()
    if who is None:
        st.error("Sign in first.")
        st.stop()
    return who


def owner() -> str | None:
    """Whose hands and working bank the page reads and writes: a club member's id, or None for
    the one person using the app on their own computer (everything in the data folder)."""
    who = user()
    return who.id if who.club else None


def user_library():
    """The hand library as this user sees it: their own records and the club library's."""
    return Library(owner=owner(), owner_name=user().name)


def settings() -> Settings:
    """The sidebar's current choices (defaults when a page runs without the sidebar)."""
    ss = st.session_state
    players = int(ss.get("players", 6))
    deck = int(ss.get("deck", DEFAULT_DECK[players]))
    if deck not in decks_for(players):
        deck = DEFAULT_DECK[players]
    teams = ss.get("teams", "alternate")
    return Settings(Table(players, deck, teams), ss.get("system", "international"), user())


def keep_history() -> None:
    """Make browser Back go back (``render.KEEP_HISTORY_JS``); the app calls it first on every run."""
    with st.container(height=1, border=False, key="fs_keep_history"):
        st.html(render.KEEP_HISTORY_JS, unsafe_allow_javascript=True)


def glossary_page() -> Path:
    """The Glossary page's file, where the package is installed (what st.page_link takes)."""
    return Path(str(files("fiftysix.ui.pages").joinpath("glossary.py")))


def words(*names: str, key: str, label: str = "Words", where=None) -> None:
    """A popover that says what these glossary words mean (one line each), with a link to the
    Glossary page: beside a section whose words a beginner may not know. Taps open it too."""
    from fiftysix.glossary import term
    terms = list(dict.fromkeys(term(n) for n in names))
    box = (where or st).popover(label, icon=":material/menu_book:", key=key,
                                help="What the words here mean: " + ", ".join(t.name for t in terms))
    with box:
        for t in terms:
            st.markdown(f"**{render.md_text(t.name)}**: {render.md_text(t.line)}")
        st.page_link(glossary_page(), label="Every word, in the Glossary", icon=":material/menu_book:")


def page_start(title: str, blurb: str = "") -> Settings:
    """Emit the card styles, the page title and a one-line blurb; return the settings."""
    st.html(render.CSS)
    st.title(title)
    if blurb:
        st.caption(blurb)
    return settings()


def chart(fig, *, key: str, title: str) -> None:
    """A Plotly chart as the pages draw one: its title above it as text, which wraps on a phone
    (a Plotly title is one line, cut off at 390 px), and no Plotly tool bar (at a phone's width
    its buttons sat over the title)."""
    st.markdown(f"**{render.md_text(title)}**")
    fig.update_layout(title=None)
    st.plotly_chart(fig, key=key, config={"displayModeBar": False})


def key_hint(text: str, *, key: str) -> None:
    """A caption naming the keyboard's shortcuts; hidden at a phone's width, which has no keyboard
    (``render.CSS`` hides the ``fs_keyhint`` containers there). ``key`` names the container."""
    with st.container(key=f"fs_keyhint_{key}"):
        st.caption(text)


def show(html_text: str) -> None:
    """Draw a piece of ``ui.render`` HTML."""
    st.html(html_text)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a player's bad input (any FiftySixError) into an error box instead of a traceback."""
    try:
        yield
    except FiftySixError as e:
        st.error(render.md_text(e))


def read_upload(upload, *, limit: int = MAX_UPLOAD_BYTES) -> str | None:
    """The text of an uploaded file, or None after showing why it was refused."""
    if upload is None:
        return None
    data = upload.getvalue()
    if len(data) > limit:
        st.error(f"{upload.name} is {len(data) // 1024} KiB; files up to {limit // 1024} KiB are accepted.")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        st.error(f"{upload.name} is not a UTF-8 text file.")
        return None


FIRST_RUN = "Preparing the solver, first run only"
"""What a page says while the solver's kernels are compiled (or loaded from numba's cache)."""


def start_warming(club: bool = False) -> None:
    """Prepare the solver's kernels in the background, once per server process (the router
    calls this on every run; ``fiftysix app`` as the server starts): compiled in a child process,
    so that the pages stay quick meanwhile. Once they are, the heavy jobs' worker processes
    start (``ui.workers``; on a real server: in AppTest a job starts one when it needs it);
    ``club``: this is a club server, whose workers go below the pages in a cpu.idle cgroup where
    the machine allows it."""
    solver.warm_in_background(apart=True)
    workers.configure(club)
    if workers.enabled() and solver.is_warm() and _serving():  # numba's cache is filled: each only loads it
        workers.workers().start()


def _serving() -> bool:
    """Whether a real server runs this script (not a test's AppTest, which starts a worker only
    when a job needs one)."""
    from streamlit.runtime import Runtime
    return Runtime.exists()


def warm_solver() -> None:
    """The solver's kernels ready. On a first run the page says so and shows the warm-up's
    progress while it waits (Stop and leaving the page interrupt the wait)."""
    if solver.is_warm():
        return
    solver.warm_in_background()
    box = st.empty()
    while not (now := solver.warm_progress()).ready:
        if now.error is not None:
            box.empty()
            raise FiftySixError(f"the solver could not be prepared: {now.error}")
        box.progress(now.fraction, text=f"{FIRST_RUN}: {now.what} (step {now.step + 1} of {now.steps},"
                                                f" {now.seconds:.0f} s)")
        time.sleep(0.25)
    box.empty()


def seat_view(table: Table, key: str) -> int | None:
    """Ask whose view to draw: every hand (None) or one seat's, the others face down."""
    seat = st.selectbox("Show", [0, *table.seats], key=key,
                        format_func=lambda s: "every hand" if s == 0 else f"seat {s}'s view (others hidden)")
    return seat or None


def view_hands(state, view: int | None) -> tuple[dict, dict[int, int]]:
    """The hands of a play state as ``render.table_html`` takes them: seat -> Hand, or None
    (face down) for every seat but ``view``; and how many cards each hidden hand holds."""
    hands = {s: state.hands[s - 1] for s in state.table.seats}
    if view is None:
        return hands, {}
    return ({s: h if s == view else None for s, h in hands.items()},
            {s: len(h) for s, h in hands.items() if s != view})


def tricks_table(state) -> None:
    """The tricks played so far, each with its cards by seat, its winner and its points."""
    rows = trick_rows(state)
    if not rows:
        st.caption("No trick has been played yet.")
        return
    table = state.table
    out = []
    for r in rows:
        row = {"trick": r.number, "led by": f"seat {r.leader}"}
        cards = dict(r.plays)
        for s in table.seats:
            row[f"seat {s}"] = str(cards[s]) if s in cards else ""
        row["won by"] = (f"seat {r.winner} (team {table.team_name(r.winning_team)})" if r.done
                         else "in progress")
        row["points"] = r.points
        out.append(row)
    st.dataframe(out, hide_index=True)


def call_worth(system: str, table: Table, before: str, call: str, key: str) -> None:
    """What a call is worth from the shipped statistics (data/stats/): how often the caller's
    team took 28..56 double-dummy with the trump standing after the call (its best trump while
    nothing is bid), a small histogram, and how many deals it rests on. Says so plainly where
    no statistics are shipped for the table, or the call came up too seldom."""
    import plotly.graph_objects as go


    found = summary.call_worth(system, table, before, call)
    if found is None:
        st.caption(f"What a call is worth in points is known for {system} only at 6 players with 48 cards, "
                   "odd seats against even.")
        return
    doc, entry = found
    if entry is None:
        st.caption(f"Too rare to say what it is worth: in {doc['deals']:,} practice deals the computer players "
                   f"made this call here fewer than {doc['min_count']} times.")
        return
    trump = entry["strain"]  # the statistics' field: S H D C, NT, or "best" before any bid
    where = {"NT": "no-trump", "best": "its best trump"}.get(trump) or render.suit_name("SHDC".index(trump))
    shares = dict(zip(doc["thresholds"], entry["share"]))
    context = "opened" if not before.strip() else f"after {before.strip()}"
    how = f"at {where}" if trump in ("NT", "best") else f"with {where} trump"
    st.markdown(f"**What it is worth:** {call} {context}: {entry['count']:,} deals; the caller's team took "
                + ", ".join(f"{t}+ in {shares[t]:.0%}" for t in (28, 32, 40, 48))
                + f" and all 56 in {shares[56]:.0%} {how} (double-dummy).")
    fig = go.Figure(go.Bar(x=doc["bins"], y=entry["hist"], marker_color="#2e7d32",
                           hovertemplate="%{x} points: %{y} deals<extra></extra>"))
    fig.update_layout(height=150, margin={"l": 0, "r": 0, "t": 4, "b": 0}, bargap=0.1,
                      xaxis={"title": None, "tickfont": {"size": 9}}, yaxis={"visible": False})
    st.plotly_chart(fig, key=key, config={"displayModeBar": False})
    st.caption(f"From {entry['count']:,} of {doc['deals']:,} practice deals in which computer players "
               f"({doc['bots']}) bid every seat, each then played with every card known (double-dummy), seat 1 "
               "leading; the points are the caller's team's.")
