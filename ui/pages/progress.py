"""Progress: accuracy over time and per call family, due cards, weakest spots."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from fiftysix.drills.schedule import (
    OPTIMISER_MIN_REVIEWS,
    RETENTION_RANGE,
    due_summary,
    long_reviews,
    optimiser_missing,
)
from fiftysix.errors import FiftySixError
from fiftysix.ui.components import chart, choice_in_url, page_start, words
from fiftysix.ui.render import md_text, plot_text


def right_wrong_chart(labels: list[str], right: list[int], answered: list[int]) -> go.Figure:
    """Stacked right / wrong answers per label, the accuracy written on top of each bar."""
    wrong = [a - r for a, r in zip(answered, right)]
    acc = [f"{r / a:.0%}" if a else "" for r, a in zip(right, answered)]
    fig = go.Figure([
        go.Bar(x=labels, y=right, name="right", marker_color="#1d6b40"),
        go.Bar(x=labels, y=wrong, name="wrong", marker_color="#c0392b"),
        go.Scatter(x=labels, y=answered, text=acc, mode="text", textposition="top center",
                   showlegend=False, hoverinfo="skip", textfont={"size": 14}),
    ])
    fig.update_layout(barmode="stack", height=300, margin={"t": 20, "b": 10},
                      yaxis_title="answers", xaxis_type="category",
                      yaxis_range=[0, max(answered) * 1.25 + 0.5 if answered else 1])
    return fig

def forecast_chart(counts: list[int], now) -> go.Figure:
    """Ideas due on each of the coming days, today (with all that is due now) first."""
    from datetime import timedelta
    days = [now + timedelta(days=k) for k in range(len(counts))]
    labels = ["today" if k == 0 else f"{d:%a %d %b}" for k, d in enumerate(days)]
    fig = go.Figure(go.Bar(x=labels, y=counts, marker_color="#1f5fbf",
                           hovertemplate="%{x}: %{y} idea(s) due<extra></extra>"))
    fig.update_layout(height=280, margin={"t": 20, "b": 10}, yaxis_title="ideas due", xaxis_type="category",
                      yaxis={"rangemode": "tozero", "dtick": 1 if max(counts, default=0) < 8 else None})
    return fig


def set_retention(store) -> None:
    """The retention slider's callback: the learner's FSRS desired retention, ideas rescheduled."""
    try:
        store.set_desired_retention(st.session_state["pr_retention"] / 100)
    except FiftySixError as e:
        st.session_state["pr_retention_error"] = str(e)


def schedule_section(store, now) -> None:
    """When reviews fall due over the month, retention so far, the desired retention, and
    FSRS's parameters fitted to the learner's own reviews."""
    head, pop = st.columns([5, 1], vertical_alignment="bottom")
    head.subheader("Your schedule")
    words("FSRS", "idea", "call family", key="pr_words", where=pop)
    cards = store.cards()
    st.caption(due_summary([c.due for c in cards.values()], now))
    counts = store.forecast(30, now)
    chart(forecast_chart(counts, now), key="pr_forecast", title=f"Reviews due in the next {len(counts)} days")
    tuning = store.tuning()
    kept, counted = store.retention()
    c1, c2 = st.columns(2)
    c1.metric("Retention so far", "not yet" if kept is None else f"{kept:.0%}",
              help="Of your answers to ideas you last saw a day or more before, the share you got right "
                   f"({counted} such answers so far).")
    lo, hi = RETENTION_RANGE
    if "pr_retention" not in st.session_state:
        st.session_state["pr_retention"] = round(tuning.desired_retention * 100)
    c2.slider("Desired retention (%)", round(lo * 100), round(hi * 100), key="pr_retention",
              on_change=set_retention, args=(store,),
              help="How likely you want to be to still know an idea when it comes back (FSRS's desired "
                   "retention). Higher means more reviews, sooner; lower means fewer, further apart. "
                   "Changing it reschedules every idea.")
    if err := st.session_state.pop("pr_retention_error", None):
        st.error(md_text(err))
    reviews = store.reviewed()
    apart = len(long_reviews(reviews))
    if tuning.optimised_at is not None:
        st.caption(f"FSRS's parameters were fitted to your own {tuning.optimised_reviews} answers on "
                   f"{tuning.optimised_at:%d %b %Y at %H:%M} UTC.")
    else:
        st.caption("FSRS's default parameters: fitted to many learners, not yet to you. "
                   f"Fitting opens at {OPTIMISER_MIN_REVIEWS} answers to ideas last seen a day or more before; "
                   f"you have {apart}.")
    missing = optimiser_missing()
    ready = apart >= OPTIMISER_MIN_REVIEWS and missing is None
    b1, b2 = st.columns(2)
    if b1.button("Fit FSRS to my answers", key="pr_optimise", icon=":material/tune:", disabled=not ready,
                 help=missing or "The fsrs package's optimiser fits FSRS's parameters to your answers; every "
                                 "idea is then rescheduled with them. It takes up to a minute."):
        try:
            with st.spinner(f"Fitting FSRS's parameters to your {len(reviews)} answers (up to a minute)..."):
                tuning = store.optimise()
            st.success(f"Fitted on {tuning.optimised_at:%d %b %Y at %H:%M} UTC; every idea is rescheduled.")
        except FiftySixError as e:
            st.error(md_text(e))
    if tuning.parameters is not None and b2.button("Back to FSRS's defaults", key="pr_reset_fsrs"):
        store.reset_parameters()
        st.rerun()
    if apart >= OPTIMISER_MIN_REVIEWS and missing:
        st.caption(missing[0].upper() + missing[1:] + ".")


settings = page_start("Progress", "How your drilling is going: accuracy over time and by call family, "
                      "what is due for review, and where you go wrong most.")
try:
    from fiftysix.drills.progress import GENERATED, ProgressStore
    from fiftysix.drills.questions import PROBLEM_IDEA, TYPE_TITLES, family_words, idea_title, problem_title
    from fiftysix.drills.schedule import utcnow, when_words
    store = ProgressStore(learner=settings.user.id)
    history = store.history()
except ImportError:
    st.info("Progress arrives with `drills.progress`.")
    st.stop()
except FiftySixError as e:
    st.error(md_text(e))
    st.stop()

if history.empty:
    st.info(f"No answers recorded for **{md_text(settings.player)}** yet: answer a few questions on the Drill page.")
    st.stop()

now = utcnow()
# a play problem's key is only its id ("problem:fc-4e0d..."): its last review says its kind, level and table
_problems = history[history["template"].str.startswith(PROBLEM_IDEA)].groupby("template").last()
_titles = {key: problem_title(str(r["type"]), str(r["family"]), int(r["players"])) for key, r in _problems.iterrows()}


def title(key: str) -> str:
    """An idea in words: a bidding idea's title, or a play problem's kind, level and table."""
    return _titles.get(key) or idea_title(key)


answered = len(history)
right = int(history["correct"].sum())
c1, c2, c3, c4 = st.columns(4)
c1.metric("Answers", answered)
c2.metric("Accuracy", f"{right / answered:.0%}")
c3.metric("Due now", store.due_count(now))
c4.metric("Ideas met", history["template"].nunique())

freq = choice_in_url(st.segmented_control, "Period", {"D": "day", "W": "week", "M": "month"}, default="D",
                     required=True, key="pr_freq")
over_time = store.accuracy_over_time(freq=freq)
fmt = {"D": "%d %b %Y", "W": "week of %d %b %Y", "M": "%b %Y"}[freq]
chart(right_wrong_chart([p.strftime(fmt) for p in over_time["period"]], list(over_time["right"]),
                        list(over_time["answered"])), key="pr_time", title="Accuracy over time")

GROUPS = {"family": "call family", "type": "question type", "system": "system", "source": "bank"}
by = choice_in_url(st.segmented_control, "Group by", GROUPS, default="family", required=True, key="pr_by")
groups = store.accuracy(by=by)
names = {"type": lambda g: TYPE_TITLES.get(g, g), "family": family_words,
         "source": lambda g: "new deals (the engine)" if g == GENERATED else g}.get(by, str)
chart(right_wrong_chart([plot_text(names(g)) for g in groups[by]], list(groups["right"]), list(groups["answered"])),
      key="pr_groups", title=f"Accuracy per {GROUPS[by]}")

# the two tables one above the other: side by side, the weakest spots' columns were cut off
# at 1400 px (issue 46)
left, right_col = st.container(), st.container()
with left:
    st.subheader("Weakest spots")
    weak = store.accuracy(by="template")
    weak = weak[weak["answered"] >= 1].sort_values(["accuracy", "answered"], ascending=[True, False]).head(8)
    # the Drill asks bidding ideas; a missed play problem comes back on the Problems page
    focus = [t for t in weak[weak["accuracy"] < 1]["template"] if not t.startswith(PROBLEM_IDEA)][:5]
    st.dataframe(weak.assign(template=weak["template"].map(title)).rename(columns={"template": "idea"}),
                 hide_index=True, column_config={"accuracy": st.column_config.ProgressColumn(
                     "accuracy", format="percent", min_value=0.0, max_value=1.0)})
    if st.button("Drill my weak spots now", key="pr_weak", type="primary", icon=":material/target:",
                 disabled=not focus, help="A session of fresh questions on the ideas you miss most."):
        st.session_state["dr_focus"] = focus
        st.session_state.pop("dr_queue", None)
        # switch_page would clear the URL, which Streamlit refuses while widgets are bound to it;
        # an empty mapping switches without clearing, and the bound sidebar writes itself back.
        st.switch_page("ui/pages/drill.py", query_params={})
with right_col:
    st.subheader("Due for review")
    cards = store.cards()
    due = sorted((card.due, key) for key, card in cards.items() if card.due <= now)
    if due:
        st.dataframe([{"idea": title(key), "due since": d.strftime("%Y-%m-%d %H:%M UTC")}
                      for d, key in due], hide_index=True)
    else:
        upcoming = sorted((card.due, key) for key, card in cards.items())[:5]
        st.success("Nothing is due now.")
        if upcoming:
            st.caption("Next up: " + "; ".join(f"{md_text(title(k))} ({when_words(d, now)})" for d, k in upcoming))

schedule_section(store, now)
