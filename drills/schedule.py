"""Spaced repetition with FSRS (the ``fsrs`` package): which questions to ask, and when again.

The card is a question *template* (``Question.template``: type, system, table, call family),
not a single question: answering "what does +1H mean?" on one deal reviews the idea for
every deal. Due cards come first, most overdue first; then new cards, at most
``new_per_day`` a day so a new learner is not flooded; cards not yet due wait.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime

from fsrs import Card, Rating, ReviewLog, Scheduler, State

from fiftysix.drills.questions import Question

DEFAULT_NEW_PER_DAY = 10
SLOW_SECONDS = 45.0
"""A right answer that took longer than this is rated Hard, not Good."""

__all__ = [
    "DEFAULT_NEW_PER_DAY",
    "Card",
    "Rating",
    "State",
    "card_id_for",
    "is_due",
    "make_scheduler",
    "new_card",
    "pick_questions",
    "plan",
    "practice_mix",
    "question_key",
    "rating_for",
    "review",
    "utcnow",
]


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


def make_scheduler(fuzz: bool = True, desired_retention: float = 0.9) -> Scheduler:
    """The FSRS scheduler with default parameters (fuzzing off makes intervals reproducible)."""
    return Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)


_DEFAULT = make_scheduler()


def review(card: Card, rating: Rating, now: datetime | None = None,
           scheduler: Scheduler | None = None) -> tuple[Card, ReviewLog]:
    """Review a card at ``now`` (UTC); returns the updated card and the FSRS review log."""
    return (scheduler or _DEFAULT).review_card(card, rating, now or utcnow())


def is_due(card: Card, now: datetime) -> bool:
    return card.due <= now


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
