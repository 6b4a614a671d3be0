"""A learner's progress: review history and FSRS card state in one SQLite file.

The file is the shared store of ``drills.store`` (``$FIFTYSIX_DATA_DIR`` or the user data
directory). Every answer is one ``BEGIN IMMEDIATE``
transaction that reads the card, reviews it and writes the card and the review together,
in WAL mode with a busy timeout: two app sessions (threads or processes) answering at
once queue up instead of overwriting each other, so nothing is lost. Each operation opens
its own short connection, so one store object may be shared between threads.

Accuracy per system, per call family, per question type and over time comes back as
pandas DataFrames for the app's charts.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from fiftysix.drills import store
from fiftysix.drills.questions import Question
from fiftysix.drills.schedule import (
    DEFAULT_NEW_PER_DAY,
    Card,
    Rating,
    new_card,
    pick_questions,
    rating_for,
    review,
    utcnow,
)
from fiftysix.errors import FiftySixError

SCHEMA_VERSION = 1
GROUPINGS = ("system", "family", "type", "players", "template", "question_id", "source")
GENERATED = "generated"
"""The ``source`` of an answer to a generated question; a bank's answers carry its title."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    question_id TEXT NOT NULL,
    template TEXT NOT NULL,
    type TEXT NOT NULL,
    system TEXT NOT NULL,
    players INTEGER NOT NULL,
    family TEXT NOT NULL,
    response TEXT NOT NULL,
    correct INTEGER NOT NULL,
    rating INTEGER NOT NULL,
    seconds REAL,
    due_after TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'generated'
);
CREATE INDEX IF NOT EXISTS reviews_learner_time ON reviews (learner, answered_at);
CREATE TABLE IF NOT EXISTS cards (
    learner TEXT NOT NULL,
    template TEXT NOT NULL,
    card TEXT NOT NULL,
    due TEXT NOT NULL,
    reps INTEGER NOT NULL,
    lapses INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    PRIMARY KEY (learner, template)
);
"""


class ProgressError(FiftySixError):
    """The progress file cannot be opened or is not a fiftysix progress file."""




def _stamp(t: datetime) -> str:
    """Fixed-width UTC text, so that text order is time order."""
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_stamp(s: str) -> datetime:
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


class ProgressStore(store.Store):
    """One learner's reviews and cards in a SQLite file (created on first use)."""

    kind = "progress"
    error = ProgressError

    def __init__(self, path: str | os.PathLike | None = None, learner: str = "default",
                 timeout: float = 30.0) -> None:
        self.learner = learner
        super().__init__(path, timeout)

    def _create(self, con: sqlite3.Connection) -> None:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ProgressError(f"{self.path} was written by a newer fiftysix (schema {version})")
        con.executescript(_SCHEMA)
        columns = {row[1] for row in con.execute("PRAGMA table_info(reviews)")}
        if "source" not in columns:  # a file from before answers named their bank
            con.execute("ALTER TABLE reviews ADD COLUMN source TEXT NOT NULL DEFAULT 'generated'")
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @staticmethod
    def _readable(con: sqlite3.Connection) -> bool:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        con.execute("SELECT 1 FROM cards LIMIT 1").fetchall()
        return version == SCHEMA_VERSION

    # --- writing ---------------------------------------------------------------------------

    def record_answer(self, question: Question, response: str, correct: bool | None = None,
                      seconds: float | None = None, now: datetime | None = None,
                      rating: Rating | None = None, source: str = GENERATED) -> Card:
        """Store one answer and review the question's template card; return the new card.

        ``correct`` defaults to marking ``response`` with the question; ``rating`` to
        ``rating_for(correct, seconds)``; ``source`` names where the question came from
        (a bank's title, or ``GENERATED``) for the accuracy per bank.
        """
        now = now or utcnow()
        if correct is None:
            correct = question.is_correct(response)
        rating = rating or rating_for(correct, seconds)
        key = question.template
        with self._transaction() as con:
            row = con.execute("SELECT card, reps, lapses, first_seen FROM cards WHERE learner=? AND template=?",
                              (self.learner, key)).fetchone()
            if row is None:
                card, reps, lapses, first_seen = new_card(key, now), 0, 0, _stamp(now)
            else:
                card, reps, lapses, first_seen = Card.from_dict(json.loads(row[0])), row[1], row[2], row[3]
            card, _log = review(card, rating, now)
            reps += 1
            lapses += int(rating == Rating.Again and row is not None)
            con.execute(
                "INSERT OR REPLACE INTO cards (learner, template, card, due, reps, lapses, first_seen)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.learner, key, json.dumps(card.to_dict()), _stamp(card.due), reps, lapses, first_seen))
            c = question.context
            con.execute(
                "INSERT INTO reviews (learner, answered_at, question_id, template, type, system, players,"
                " family, response, correct, rating, seconds, due_after, source)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.learner, _stamp(now), question.id, key, question.type, c.system, c.players,
                 question.family or "-", response, int(bool(correct)), int(rating), seconds, _stamp(card.due),
                 source or GENERATED))
        return card

    # --- reading ---------------------------------------------------------------------------

    def cards(self) -> dict[str, Card]:
        """The learner's FSRS cards by template key."""
        with self._connect() as con:
            rows = con.execute("SELECT template, card FROM cards WHERE learner=?", (self.learner,)).fetchall()
        return {k: Card.from_dict(json.loads(v)) for k, v in rows}

    def card_stats(self, template: str) -> Mapping[str, int] | None:
        """``{"reps": .., "lapses": ..}`` for a template, or None if never answered."""
        with self._connect() as con:
            row = con.execute("SELECT reps, lapses FROM cards WHERE learner=? AND template=?",
                              (self.learner, template)).fetchone()
        return None if row is None else {"reps": row[0], "lapses": row[1]}

    def new_today(self, now: datetime | None = None) -> int:
        """How many templates the learner met for the first time this UTC day."""
        now = now or utcnow()
        start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        with self._connect() as con:
            return con.execute("SELECT COUNT(*) FROM cards WHERE learner=? AND first_seen>=? AND first_seen<?",
                               (self.learner, _stamp(start), _stamp(start + timedelta(days=1)))).fetchone()[0]

    def due_count(self, now: datetime | None = None) -> int:
        with self._connect() as con:
            return con.execute("SELECT COUNT(*) FROM cards WHERE learner=? AND due<=?",
                               (self.learner, _stamp(now or utcnow()))).fetchone()[0]

    def due_templates(self, now: datetime | None = None) -> list[str]:
        """The learner's templates due now, most overdue first."""
        with self._connect() as con:
            rows = con.execute("SELECT template FROM cards WHERE learner=? AND due<=? ORDER BY due, template",
                               (self.learner, _stamp(now or utcnow()))).fetchall()
        return [r[0] for r in rows]

    def answered_ids(self) -> set[str]:
        """The ids of every question the learner has answered."""
        with self._connect() as con:
            rows = con.execute("SELECT DISTINCT question_id FROM reviews WHERE learner=?",
                               (self.learner,)).fetchall()
        return {r[0] for r in rows}

    def next_questions(self, pool: Sequence[Question], n: int, now: datetime | None = None,
                       new_per_day: int = DEFAULT_NEW_PER_DAY, seed: int | None = None,
                       fill: bool = False) -> list[Question]:
        """What to ask next from ``pool``: due templates first (as questions not answered
        before where the pool has one), then a capped number of new ones; with ``fill``, then
        practice questions up to ``n`` (see ``schedule.pick_questions``)."""
        now = now or utcnow()
        return pick_questions(pool, self.cards(), n, now, self.new_today(now), new_per_day, seed,
                              seen=self.answered_ids(), fill=fill)

    def history(self):
        """Every review of this learner as a DataFrame (``answered_at`` as UTC datetimes)."""
        import pandas as pd
        with self._connect() as con:
            df = pd.read_sql_query(
                "SELECT answered_at, question_id, template, type, system, players, family, response,"
                " correct, rating, seconds, due_after, source FROM reviews WHERE learner=? ORDER BY answered_at, id",
                con, params=(self.learner,))
        df["answered_at"] = pd.to_datetime(df["answered_at"], format="%Y-%m-%dT%H:%M:%S.%fZ", utc=True)
        df["due_after"] = pd.to_datetime(df["due_after"], format="%Y-%m-%dT%H:%M:%S.%fZ", utc=True)
        df["correct"] = df["correct"].astype(bool)
        return df

    def accuracy(self, by: str | Sequence[str] = "system"):
        """Answers, right answers and accuracy (0..1) per group: system, family, type, ..."""
        keys = [by] if isinstance(by, str) else list(by)
        for k in keys:
            if k not in GROUPINGS:
                raise ProgressError(f"cannot group by {k!r}: use {', '.join(GROUPINGS)}")
        return _summarise(self.history(), keys)

    def accuracy_over_time(self, freq: str = "D", by: str | None = None):
        """Accuracy per period (``freq``: "D" day, "W" week, "M" month), optionally per group."""
        import pandas as pd
        if by is not None and by not in GROUPINGS:
            raise ProgressError(f"cannot group by {by!r}: use {', '.join(GROUPINGS)}")
        if freq not in ("D", "W", "M"):
            raise ProgressError(f"unknown period {freq!r}: use D (day), W (week) or M (month)")
        df = self.history()
        df["period"] = df["answered_at"].dt.tz_localize(None).dt.to_period(freq).dt.start_time
        out = _summarise(df, ["period"] + ([by] if by else []))
        out["period"] = pd.to_datetime(out["period"])
        return out


def _summarise(df, keys: list[str]):
    import pandas as pd
    if df.empty:
        return pd.DataFrame({**{k: [] for k in keys}, "answered": [], "right": [], "accuracy": []})
    g = df.groupby(keys, as_index=False).agg(answered=("correct", "size"), right=("correct", "sum"))
    g["right"] = g["right"].astype(int)
    g["accuracy"] = g["right"] / g["answered"]
    return g.sort_values(keys).reset_index(drop=True)
