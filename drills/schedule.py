"""Spaced repetition with FSRS (the ``fsrs`` package): which questions to ask, and when again.

The card is a question *template* (``Question.template``: type, system, table, call family),
not a single question: answering "what does +1H mean?" on one deal reviews the idea for
every deal. Due cards come first, most overdue first; then new cards, at most
``new_per_day`` a day so a new learner is not flooded; cards not yet due wait.
"""
from __future__ import annotations

import hashlib
import random
from datetime import datetime, timezone
from typing import Mapping, Sequence

from fsrs import Card, Rating, ReviewLog, Scheduler, State

from drills.questions import Question

DEFAULT_NEW_PER_DAY = 10
SLOW_SECONDS = 45.0
"""A right answer that took longer than this is rated Hard, not Good."""

__all__ = ["Card", "Rating", "State", "DEFAULT_NEW_PER_DAY", "card_id_for", "new_card", "rating_for",
           "make_scheduler", "review", "plan", "pick_questions", "is_due", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


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


def pick_questions(pool: Sequence[Question], cards: Mapping[str, Card], n: int,
                   now: datetime | None = None, new_today: int = 0,
                   new_per_day: int = DEFAULT_NEW_PER_DAY, seed: int | None = None) -> list[Question]:
    """Up to ``n`` questions from ``pool``, one per template, in ``plan`` order."""
    rng = random.Random(seed)
    by_key: dict[str, list[Question]] = {}
    for q in pool:
        by_key.setdefault(q.template, []).append(q)
    order = plan(list(by_key), cards, now, new_today, new_per_day, limit=n)
    return [rng.choice(by_key[k]) for k in order]
