"""Spaced repetition with FSRS (the ``fsrs`` package): which questions to ask, and when again.

The card is an *idea*, named by a string key: for a bidding question its template
(``Question.template``: type, system, table, call family), not a single question, so
answering "what does +1H mean?" on one deal reviews the idea for every deal; any other
kind of exercise (a play problem) schedules under a key of its own the same way. Due cards
come first, most overdue first; then new cards, at most ``new_per_day`` a day so a new
learner is not flooded; cards not yet due wait.

Also here: what each grade would bring (``preview``), an interval in words (``in_words``),
the reviews due on each coming day (``forecast``), retention so far (``retention``), and
optimising FSRS's parameters from a learner's own reviews (``optimise``).
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, ReviewLog, Scheduler, State
from fsrs.scheduler import DEFAULT_PARAMETERS

from fiftysix.drills.questions import Question
from fiftysix.errors import FiftySixError

DEFAULT_NEW_PER_DAY = 10
SLOW_SECONDS = 45.0
"""A right answer that took longer than this is rated Hard, not Good."""

DEFAULT_RETENTION = 0.9
"""FSRS's desired retention unless the learner sets another: the chance of still knowing an
idea when it comes back."""
RETENTION_RANGE = (0.70, 0.97)
"""The desired retentions a learner may set (FSRS works between these; outside them the
reviews come either hardly ever or all the time)."""
OPTIMISER_MIN_REVIEWS = 512
"""Reviews made a day or more after the last one of the same idea that the fsrs optimiser
needs before it moves from the default parameters (its mini-batch size)."""
GRADES = (Rating.Hard, Rating.Good, Rating.Easy)
"""What a right answer may be graded; a wrong answer is always Again."""
GRADE_WORDS = {Rating.Again: "Again", Rating.Hard: "Hard", Rating.Good: "Good", Rating.Easy: "Easy"}

__all__ = [
    "DEFAULT_NEW_PER_DAY",
    "DEFAULT_RETENTION",
    "GRADES",
    "GRADE_WORDS",
    "OPTIMISER_MIN_REVIEWS",
    "RETENTION_RANGE",
    "Card",
    "Rating",
    "ReviewLog",
    "Reviewed",
    "ScheduleError",
    "Scheduler",
    "State",
    "card_id_for",
    "due_summary",
    "forecast",
    "in_words",
    "is_due",
    "long_reviews",
    "make_scheduler",
    "new_card",
    "optimise",
    "optimiser_missing",
    "pick_questions",
    "plan",
    "practice_mix",
    "preview",
    "question_key",
    "rating_for",
    "retention",
    "review",
    "utcnow",
    "when_words",
]


class ScheduleError(FiftySixError):
    """A schedule setting out of range, or the optimiser cannot run (the message says why)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def card_id_for(key: str) -> int:
    """A stable positive card id for a template key (fsrs ids are ints)."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=7).digest(), "big")


def new_card(key: str, now: datetime | None = None) -> Card:
    """A fresh FSRS card for a template key, due now."""
    return Card(card_id=card_id_for(key), due=now or utcnow())


def rating_for(correct: bool, seconds: float | None = None) -> Rating:
    """Rate an answer: wrong = Again; right but slow = Hard; right = Good."""
    if not correct:
        return Rating.Again
    if seconds is not None and seconds > SLOW_SECONDS:
        return Rating.Hard
    return Rating.Good


def make_scheduler(fuzz: bool = True, desired_retention: float = DEFAULT_RETENTION,
                   parameters: Sequence[float] | None = None) -> Scheduler:
    """The FSRS scheduler: FSRS's default parameters unless ``parameters`` (an optimised
    set) are given; fuzzing spreads out ideas met together (off makes intervals reproducible)."""
    lo, hi = RETENTION_RANGE
    if not lo <= desired_retention <= hi:
        raise ScheduleError(f"desired retention {desired_retention:.0%} is outside {lo:.0%} to {hi:.0%}")
    return Scheduler(parameters=tuple(parameters) if parameters is not None else DEFAULT_PARAMETERS,
                     desired_retention=desired_retention, enable_fuzzing=fuzz)


_DEFAULT = make_scheduler()


def review(card: Card, rating: Rating, now: datetime | None = None,
           scheduler: Scheduler | None = None) -> tuple[Card, ReviewLog]:
    """Review a card at ``now`` (UTC); returns the updated card and the FSRS review log."""
    return (scheduler or _DEFAULT).review_card(card, rating, now or utcnow())


def is_due(card: Card, now: datetime) -> bool:
    return card.due <= now


def preview(card: Card | None, key: str, now: datetime, scheduler: Scheduler | None = None,
            ratings: Iterable[Rating] = tuple(Rating)) -> dict[Rating, datetime]:
    """When the idea ``key`` would come back after each rating at ``now``: the due time each
    grade gives (``card`` is the idea's card before the review, None for an idea not met yet).
    Without fuzz, so it is the interval FSRS means; the review itself may move it a day or two."""
    s = scheduler or _DEFAULT
    plain = Scheduler(parameters=s.parameters, desired_retention=s.desired_retention,
                      learning_steps=s.learning_steps, relearning_steps=s.relearning_steps,
                      maximum_interval=s.maximum_interval, enable_fuzzing=False)
    before = card if card is not None else new_card(key, now)
    return {r: plain.review_card(before, r, now)[0].due for r in ratings}


def in_words(delta: timedelta) -> str:
    """A wait in words, rounded as a learner reads it: "now", "in 10 minutes", "in 3 hours",
    "in 1 day", "in 3 days", "in 5 weeks", "in 4 months", "in 2 years"."""
    s = delta.total_seconds()
    if s < 30:
        return "now"

    def n(x: float, unit: str) -> str:
        k = max(1, round(x))
        return f"in {k} {unit}{'' if k == 1 else 's'}"
    if s < 3600 - 30:
        return n(s / 60, "minute")
    if s < 86400 - 1800:
        return n(s / 3600, "hour")
    days = s / 86400
    if days < 14:
        return n(days, "day")
    if days < 60:
        return n(days / 7, "week")
    if days < 365:
        return n(days / 30.4, "month")
    return n(days / 365.25, "year")


def when_words(due: datetime, now: datetime) -> str:
    """When an idea comes back, for a learner: "now", or "in 3 days, on Thu 05 Mar at 09:00 UTC"."""
    if due - now < timedelta(seconds=30):
        return "now"
    return f"{in_words(due - now)}, on {due.astimezone(UTC):%a %d %b at %H:%M} UTC"


def due_summary(dues: Iterable[datetime], now: datetime) -> str:
    """When the learner's next reviews fall due, in words: how many are due now, when the next
    one falls due, and how many more within a day and a week. Never a bare "0 due"."""
    dues = sorted(dues)
    if not dues:
        return "Nothing is scheduled yet: each idea you answer comes back when FSRS says."
    # what falls due within half a minute is due now, as ``when_words`` says: else the sentence
    # read "2 ideas are due for review now. After that, the next review falls due now"
    soon = now + timedelta(seconds=30)
    now_n = sum(d < soon for d in dues)
    later = [d for d in dues if d >= soon]
    out = []
    if now_n:
        out.append(f"{now_n} idea{'s are' if now_n > 1 else ' is'} due for review now.")
    if later:
        day = sum(d <= now + timedelta(days=1) for d in later)
        week = sum(d <= now + timedelta(days=7) for d in later)
        lead = "After that, the next review" if now_n else "Nothing is due now. The next review"
        text = f"{lead} falls due {when_words(later[0], now)}"
        counts = [f"{k} within {span}" for k, span in ((day, "a day"), (week, "a week")) if k > 1]
        if week == day and len(counts) == 2:
            counts = counts[:1]
        out.append(text + ("; " + " and ".join(counts) if counts else "") + ".")
    return " ".join(out)


def forecast(cards: Iterable[Card], now: datetime, days: int = 30) -> list[int]:
    """How many ideas fall due on each of the next ``days`` UTC days: item 0 is today
    (with every idea already due), item 1 tomorrow, ...; ideas due later are left out."""
    start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    out = [0] * days
    for card in cards:
        k = max(0, (card.due - start).days)
        if k < days:
            out[k] += 1
    return out


@dataclass(frozen=True)
class Reviewed:
    """One review as the learner's log keeps it: the idea's key, when, the rating, how long."""

    key: str
    at: datetime
    rating: Rating
    seconds: float | None = None

    def log(self) -> ReviewLog:
        """The review as the fsrs package's ReviewLog (for its optimiser and ``reschedule_card``)."""
        ms = None if self.seconds is None else round(self.seconds * 1000)
        return ReviewLog(card_id=card_id_for(self.key), rating=self.rating, review_datetime=self.at,
                         review_duration=ms)


def long_reviews(reviews: Iterable[Reviewed]) -> list[Reviewed]:
    """The reviews made a whole day or more after the idea's previous review: the ones that
    test memory (not the same-day steps of learning), as FSRS's optimiser counts them."""
    last: dict[str, datetime] = {}
    out = []
    for r in sorted(reviews, key=lambda r: r.at):
        prev = last.get(r.key)
        if prev is not None and (r.at - prev).days > 0:
            out.append(r)
        last[r.key] = r.at
    return out


def retention(reviews: Iterable[Reviewed]) -> tuple[float | None, int]:
    """Retention so far: of the reviews made a day or more after the idea's previous review,
    the share not rated Again, and how many such reviews there were (None for none)."""
    long = long_reviews(reviews)
    if not long:
        return None, 0
    return sum(r.rating != Rating.Again for r in long) / len(long), len(long)


def optimiser_missing() -> str | None:
    """Why the fsrs optimiser cannot run here (its extra is not installed), or None."""
    try:
        import torch  # noqa: F401  (the fsrs optimiser's own dependency)
    except ImportError:
        return ("optimising needs PyTorch, the fsrs optimiser's extra: "
                "pip install 'fiftysix[optimise]' (or 'fsrs[optimizer]')")
    return None


def optimise(reviews: Sequence[Reviewed]) -> list[float]:
    """FSRS parameters fitted to these reviews by the fsrs package's own Optimizer.

    Raises ScheduleError where there are fewer than ``OPTIMISER_MIN_REVIEWS`` reviews a day
    or more after the last (the optimiser would only hand back its defaults) or where its
    extra is missing. Takes seconds to a minute on a few thousand reviews."""
    counted = len(long_reviews(reviews))
    if counted < OPTIMISER_MIN_REVIEWS:
        raise ScheduleError(f"optimising needs {OPTIMISER_MIN_REVIEWS} reviews made a day or more after the "
                            f"last review of the same idea; there are {counted} so far")
    why = optimiser_missing()
    if why:
        raise ScheduleError(why)
    from fsrs import Optimizer
    return [float(p) for p in Optimizer([r.log() for r in reviews]).compute_optimal_parameters()]


def plan(keys: Sequence[str], cards: Mapping[str, Card], now: datetime | None = None,
         new_today: int = 0, new_per_day: int = DEFAULT_NEW_PER_DAY, limit: int | None = None) -> list[str]:
    """Order the template keys to study now.

    ``keys`` are the templates on offer (in the order new ones should be introduced);
    ``cards`` the learner's cards; ``new_today`` how many new templates they already began
    today. Due cards first (earliest due first), then at most ``new_per_day - new_today``
    new ones; cards not yet due are left out.
    """
    now = now or utcnow()
    offered = list(dict.fromkeys(keys))
    due = sorted((k for k in offered if k in cards and is_due(cards[k], now)),
                 key=lambda k: (cards[k].due, k))
    room = max(0, new_per_day - new_today)
    new = [k for k in offered if k not in cards][:room]
    out = due + new
    return out if limit is None else out[:limit]


def question_key(q: Question) -> tuple:
    """What makes two questions the same question for a learner: type, prompt and situation."""
    c = q.context
    return (q.type, q.prompt, c.system, c.players, c.deck, c.teams, c.seat, c.auction, c.hand)


def pick_questions(pool: Sequence[Question], cards: Mapping[str, Card], n: int,
                   now: datetime | None = None, new_today: int = 0,
                   new_per_day: int = DEFAULT_NEW_PER_DAY, seed: int | None = None,
                   seen: Collection[str] = (), fill: bool = False) -> list[Question]:
    """Up to ``n`` questions from ``pool``, one per template, in ``plan`` order.

    Within a template, a question whose id is not in ``seen`` (the ids the learner already
    answered) is preferred, so a due idea comes back as a fresh question when the pool has
    one. With ``fill``, a session that the due and new ideas leave short is filled with
    practice: ideas not due yet (soonest due first), then more questions of the ideas
    already picked, mixed by ``practice_mix``; never the same question twice.
    """
    rng = random.Random(seed)
    by_key: dict[str, list[Question]] = {}
    for q in pool:
        by_key.setdefault(q.template, []).append(q)
    order = plan(list(by_key), cards, now, new_today, new_per_day, limit=n)
    seen = set(seen)
    out: list[Question] = []
    for k in order:
        fresh = [q for q in by_key[k] if q.id not in seen] or by_key[k]
        out.append(rng.choice(fresh))
    if fill and len(out) < n:
        taken = {question_key(q) for q in out}
        rest = [q for q in pool if question_key(q) not in taken and q.template not in order
                and q.template in cards]
        rest.sort(key=lambda q: cards[q.template].due)
        later = [q for q in pool if question_key(q) not in taken and q.template in order]
        out += practice_mix(rest + later, n - len(out), seed, avoid=taken)
    return out


def practice_mix(pool: Sequence[Question], n: int, seed: int | None = None,
                 avoid: Collection[tuple] = ()) -> list[Question]:
    """Up to ``n`` questions for practice, ignoring the schedule: the types in turn, and
    within a type the call families in turn, so that every type and family appears before
    any repeats; within a family the pool's order is kept; the same question (by
    ``question_key``) is never asked twice, nor one in ``avoid``."""
    rng = random.Random(seed)
    taken = set(avoid)
    groups: dict[str, dict[str, list[Question]]] = {}
    for q in pool:
        key = question_key(q)
        if key in taken:
            continue
        taken.add(key)
        groups.setdefault(q.type, {}).setdefault(q.family or "-", []).append(q)
    types = list(groups)
    rng.shuffle(types)
    family_turns = {}
    for t in types:
        fams = list(groups[t])
        rng.shuffle(fams)
        family_turns[t] = fams
    out: list[Question] = []
    while len(out) < n and any(family_turns.values()):
        for t in types:
            fams = family_turns[t]
            if not fams or len(out) >= n:
                continue
            fam = fams.pop(0)
            out.append(groups[t][fam].pop(0))
            if groups[t][fam]:
                fams.append(fam)
    return out
