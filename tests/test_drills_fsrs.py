"""The learner's schedule checked against the fsrs package's own Scheduler (the reference):
grades, undo and regrade, desired retention, rescheduling, previews, the forecast,
retention so far, and optimising the parameters from the learner's own reviews."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating as R
from fsrs import Scheduler as FsrsScheduler

from fiftysix.drills.progress import ProgressError, ProgressStore
from fiftysix.drills.questions import Context, Question
from fiftysix.drills.schedule import (
    OPTIMISER_MIN_REVIEWS,
    Reviewed,
    ScheduleError,
    card_id_for,
    forecast,
    in_words,
    long_reviews,
    make_scheduler,
    new_card,
    optimise,
    preview,
    retention,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
KEY = "meaning/international/6p/plus"


def _q(i: int = 1, family: str = "plus") -> Question:
    return Question(id=f"q{i}", type="meaning", context=Context("international", 6, 48, "alternate", 1, ""),
                    prompt="p?", choices=("right", "wrong"), answers=("right",), family=family)


def _reference(retention: float = 0.9, fuzz: bool = False, parameters=None) -> FsrsScheduler:
    kw = {} if parameters is None else {"parameters": parameters}
    return FsrsScheduler(desired_retention=retention, enable_fuzzing=fuzz, **kw)


def _state(store: ProgressStore) -> tuple:
    """Everything the schedule keeps for a learner, to compare before and after."""
    return ({k: c.to_dict() for k, c in store.cards().items()},
            {k: store.card_stats(k) for k in store.cards()},
            store.new_today(T0), store.due_count(T0 + timedelta(days=400)), len(store.history()))


SESSION = [(R.Good, 0), (R.Good, 10 * 60), (R.Hard, 86400), (R.Again, 5 * 86400), (R.Good, 5 * 86400 + 600),
           (R.Easy, 9 * 86400), (R.Good, 30 * 86400)]


@pytest.mark.parametrize("fuzz", [False, True])
def test_store_reviews_equal_the_fsrs_schedulers_own(tmp_path, fuzz):
    """Grades stored one by one give the card that fsrs's Scheduler gives for the same grades
    at the same times (with fuzz: the same random draws)."""
    store = ProgressStore(tmp_path / "p.sqlite3", fuzz=fuzz)
    store.set_desired_retention(0.85)
    ref = _reference(0.85, fuzz)
    card = FsrsCard(card_id=card_id_for(KEY), due=T0)
    for rating, secs in SESSION:
        at = T0 + timedelta(seconds=secs)
        random.seed(secs)
        mine = store.record_review(KEY, rating, now=at)
        random.seed(secs)
        card, log = ref.review_card(card, rating, at)
        assert mine.to_dict() == card.to_dict()
        assert log.rating == rating
    assert store.cards()[KEY].to_dict() == card.to_dict()
    assert store.card_stats(KEY) == {"reps": len(SESSION), "lapses": 1}


def test_the_exported_log_replays_to_the_stored_card(tmp_path):
    """fsrs's reschedule_card over the review log the store hands out rebuilds each card."""
    store = ProgressStore(tmp_path / "p.sqlite3", fuzz=False)
    keys = [KEY, "your-call/kerala/4p/suit", "problem/find-card/6p/level-2/abc"]
    for k, (rating, _secs) in enumerate(SESSION * 2):  # in time order, one to six days apart
        store.record_review(keys[k % 3], rating, now=T0 + timedelta(days=k * (k + 3) // 4, minutes=k))
    logs = store.reviewed()
    assert [r.key for r in logs] == [keys[k % 3] for k in range(len(SESSION) * 2)]
    for key, card in store.cards().items():
        again = _reference().reschedule_card(FsrsCard(card_id=card_id_for(key)), [r.log() for r in logs
                                                                                  if r.key == key])
        assert again.to_dict() == card.to_dict()


def test_undo_puts_the_card_back_exactly(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    q = _q()
    states = [_state(store)]
    for k, (rating, secs) in enumerate(SESSION[:5]):
        store.record_answer(q, "right" if rating != R.Again else "wrong", rating=rating,
                            now=T0 + timedelta(seconds=secs), seconds=3.0)
        states.append(_state(store))
    assert states[0][0] == {} and states[-1][0] != states[-2][0]
    for k in range(5, 0, -1):
        undone = store.undo_last()
        assert undone.key == q.template and undone.rating == SESSION[k - 1][0]
        assert undone.answered_at == T0 + timedelta(seconds=SESSION[k - 1][1])
        assert _state(store) == states[k - 1]
    assert store.undo_last() is None
    assert store.cards() == {} and store.new_today(T0) == 0  # the first answer's idea is new again


def test_undo_leaves_other_learners_and_other_ideas_alone(tmp_path):
    path = tmp_path / "p.sqlite3"
    mine, theirs = ProgressStore(path, learner="asha"), ProgressStore(path, learner="ben")
    mine.record_review("a", R.Good, now=T0)
    theirs.record_review("a", R.Easy, now=T0 + timedelta(minutes=1))
    before = _state(theirs), mine.cards()["a"].to_dict()
    mine.record_review("b", R.Hard, now=T0 + timedelta(minutes=2))
    mine.undo_last()
    assert (_state(theirs), mine.cards()["a"].to_dict()) == before and "b" not in mine.cards()


def test_regrading_equals_grading_so_at_first(tmp_path):
    """Good by default, then Easy: the same card as grading Easy at the time of the answer."""
    a = ProgressStore(tmp_path / "a.sqlite3", fuzz=False)
    b = ProgressStore(tmp_path / "b.sqlite3", fuzz=False)
    for store in (a, b):
        store.record_review(KEY, R.Good, now=T0)
        store.record_review(KEY, R.Good, now=T0 + timedelta(days=1))
    at = T0 + timedelta(days=4)
    a.record_review(KEY, R.Good, now=at)
    a.regrade_last(R.Easy)
    b.record_review(KEY, R.Easy, now=at)
    assert a.cards()[KEY].to_dict() == b.cards()[KEY].to_dict()
    assert list(a.history()["rating"]) == [int(R.Good), int(R.Good), int(R.Easy)]
    a.regrade_last(R.Hard)
    ref = FsrsCard(card_id=card_id_for(KEY), due=T0)
    for rating, t in ((R.Good, T0), (R.Good, T0 + timedelta(days=1)), (R.Hard, at)):
        ref, _ = _reference().review_card(ref, rating, t)
    assert a.cards()[KEY].to_dict() == ref.to_dict()
    assert a.card_stats(KEY) == {"reps": 3, "lapses": 0}
    a.undo_last()  # undo after a regrade goes back to before the answer, not to the first grade
    assert a.card_stats(KEY) == {"reps": 2, "lapses": 0}


def test_desired_retention_is_fsrs_own_parameter_and_reschedules(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3", fuzz=False)
    for k, (rating, secs) in enumerate(SESSION):
        store.record_review(KEY, rating, now=T0 + timedelta(seconds=secs))
    assert store.scheduler().desired_retention == 0.9
    t = store.set_desired_retention(0.8)
    assert t.desired_retention == 0.8 and store.scheduler().desired_retention == 0.8
    ref = _reference(0.8).reschedule_card(FsrsCard(card_id=card_id_for(KEY)), [r.log() for r in store.reviewed()])
    assert store.cards()[KEY].to_dict() == ref.to_dict()
    longer = _reference(0.9).reschedule_card(FsrsCard(card_id=card_id_for(KEY)),
                                             [r.log() for r in store.reviewed()])
    assert ref.due > longer.due  # a lower retention asks for the idea back later
    with pytest.raises(ProgressError, match="cannot be taken back"):
        store.undo_last()  # the schedule moved since the last answer
    with pytest.raises(ScheduleError, match="outside"):
        store.set_desired_retention(0.5)
    assert store.tuning().desired_retention == 0.8


def test_preview_is_what_each_grade_would_give():
    sched = make_scheduler(fuzz=True, desired_retention=0.9)
    card = new_card(KEY, T0)
    ref = _reference()
    for step in range(4):
        now = card.due
        got = preview(card, KEY, now, sched)
        want = {r: ref.review_card(card, r, now)[0].due for r in R}
        assert got == want
        assert got[R.Again] <= got[R.Hard] <= got[R.Good] <= got[R.Easy]
        card, _ = ref.review_card(card, R.Good, now)
    assert preview(None, KEY, T0)[R.Good] == ref.review_card(FsrsCard(card_id=card_id_for(KEY), due=T0),
                                                               R.Good, T0)[0].due


@pytest.mark.parametrize("delta, words", [
    (timedelta(seconds=5), "now"), (timedelta(minutes=1), "in 1 minute"), (timedelta(minutes=10), "in 10 minutes"),
    (timedelta(minutes=59, seconds=40), "in 1 hour"), (timedelta(hours=5), "in 5 hours"),
    (timedelta(days=1), "in 1 day"), (timedelta(days=3, hours=2), "in 3 days"), (timedelta(days=20), "in 3 weeks"),
    (timedelta(days=95), "in 3 months"), (timedelta(days=800), "in 2 years")])
def test_waits_in_words(delta, words):
    assert in_words(delta) == words


def test_forecast_counts_ideas_per_day_like_a_plain_count():
    rng = random.Random(3)
    now = T0 + timedelta(hours=5)
    cards = []
    for i in range(200):
        c = new_card(str(i), T0)
        c.due = now + timedelta(minutes=rng.randint(-5000, 60 * 24 * 40))
        cards.append(c)
    got = forecast(cards, now, 30)
    for day in range(30):
        start = T0.replace(hour=0) + timedelta(days=day)
        want = sum(1 for c in cards if (c.due < start + timedelta(days=1)) and (day == 0 or c.due >= start))
        assert got[day] == want
    assert sum(got) == sum(1 for c in cards if c.due < T0.replace(hour=0) + timedelta(days=30))


def test_retention_counts_reviews_a_day_or_more_after_the_last():
    d = timedelta(days=1)
    log = [Reviewed("a", T0, R.Good), Reviewed("a", T0 + timedelta(minutes=10), R.Again),  # same day: not counted
           Reviewed("a", T0 + 2 * d, R.Good), Reviewed("b", T0, R.Good), Reviewed("b", T0 + d, R.Again),
           Reviewed("b", T0 + 3 * d, R.Easy), Reviewed("a", T0 + 10 * d, R.Hard)]
    assert [(r.key, r.at) for r in long_reviews(log)] == [("b", T0 + d), ("a", T0 + 2 * d), ("b", T0 + 3 * d),
                                                          ("a", T0 + 10 * d)]
    assert retention(log) == (3 / 4, 4)
    assert retention(log[:2]) == (None, 0)


def _simulated_learner(ideas: int, days: int, seed: int) -> list[tuple[str, datetime, R]]:
    """A learner who reviews each idea when FSRS asks, recalls it with a chance that falls with
    the time since the last review (a forgetting curve of their own), and grades accordingly."""
    rng = random.Random(seed)
    sched = _reference(0.9)
    out = []
    cards = {f"idea{i}": FsrsCard(card_id=card_id_for(f"idea{i}"), due=T0 + timedelta(hours=i)) for i in range(ideas)}
    strength = {k: rng.uniform(2, 20) for k in cards}
    end = T0 + timedelta(days=days)
    while True:
        key, card = min(cards.items(), key=lambda kv: kv[1].due)
        if card.due > end:
            return out
        at = card.due
        gap = 0 if card.last_review is None else (at - card.last_review).total_seconds() / 86400
        recalled = rng.random() < (0.5 if card.last_review is None else 0.97 ** (gap / strength[key] * 10))
        rating = R.Again if not recalled else rng.choice([R.Hard, R.Good, R.Good, R.Good, R.Easy])
        cards[key], _ = sched.review_card(card, rating, at)
        if recalled:
            strength[key] *= 1.3
        out.append((key, at, rating))


def test_the_optimiser_waits_for_enough_reviews(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    for key, at, rating in _simulated_learner(5, 40, 1):
        store.record_review(key, rating, now=at)
    counted = len(long_reviews(store.reviewed()))
    assert 0 < counted < OPTIMISER_MIN_REVIEWS
    with pytest.raises(ScheduleError, match=f"needs {OPTIMISER_MIN_REVIEWS} reviews.*there are {counted}"):
        store.optimise()
    assert store.tuning().parameters is None


@pytest.mark.slow
def test_optimising_fits_fsrs_parameters_to_the_learners_reviews(tmp_path):
    pytest.importorskip("torch", reason="the fsrs optimiser needs PyTorch (pip install 'fiftysix[optimise]')")
    from fsrs import Optimizer
    from fsrs.scheduler import DEFAULT_PARAMETERS
    history = _simulated_learner(80, 200, 2)  # 932 reviews, 639 a day or more apart
    store = ProgressStore(tmp_path / "p.sqlite3", fuzz=False)
    for key, at, rating in history:
        store.record_review(key, rating, now=at, seconds=4.0)
    assert len(long_reviews(store.reviewed())) >= OPTIMISER_MIN_REVIEWS
    when = T0 + timedelta(days=241)
    t = store.optimise(now=when)
    # the reference: fsrs's Optimizer on review logs built here from the simulated history
    from fsrs import ReviewLog
    want = Optimizer([ReviewLog(card_id_for(k), r, at, 4000) for k, at, r in history]).compute_optimal_parameters()
    assert t.parameters == pytest.approx(tuple(want)) and t.parameters != tuple(DEFAULT_PARAMETERS)
    assert t.optimised_at == when and t.optimised_reviews == len(history)
    again = ProgressStore(tmp_path / "p.sqlite3", fuzz=False)
    assert again.tuning() == t and again.scheduler().parameters == pytest.approx(tuple(want))
    ref = _reference(0.9, parameters=want)
    for key, card in again.cards().items():
        logs = [ReviewLog(card_id_for(k), r, at, None) for k, at, r in history if k == key]
        assert card.to_dict() == ref.reschedule_card(FsrsCard(card_id=card_id_for(key)), logs).to_dict()
    after = again.record_review("idea0", R.Good, now=when)
    assert after.to_dict() == ref.review_card(again_card := ref.reschedule_card(
        FsrsCard(card_id=card_id_for("idea0")),
        [ReviewLog(card_id_for(k), r, at, None) for k, at, r in history if k == "idea0"]), R.Good, when)[0].to_dict()
    assert again_card.card_id == card_id_for("idea0")
    again.reset_parameters()
    assert again.tuning().parameters is None and again.tuning().desired_retention == 0.9


def test_optimise_refuses_a_short_log_before_looking_for_torch():
    with pytest.raises(ScheduleError, match="needs"):
        optimise([Reviewed("a", T0, R.Good)])
