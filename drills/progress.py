"""A learner's progress: review history and FSRS card state in one SQLite file.

The file is the shared store of ``drills.store`` (``$FIFTYSIX_DATA_DIR`` or the user data
directory). Every answer is one ``BEGIN IMMEDIATE``
transaction that reads the card, reviews it and writes the card and the review together,
in WAL mode with a busy timeout: two app sessions (threads or processes) answering at
once queue up instead of overwriting each other, so nothing is lost. Each operation opens
its own short connection, so one store object may be shared between threads.

Every review keeps the idea's card as it was before, so the last answer can be taken back
exactly (``undo_last``) or graded again (``regrade_last``). The learner's FSRS settings
(desired retention, parameters optimised from their own reviews, and when) live in the
same file; ``record_review`` schedules any idea by its string key (a bidding question's
template, a play problem's key).

Accuracy per system, per call family, per question type and over time comes back as
pandas DataFrames for the app's charts.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fiftysix.drills import schedule, store
from fiftysix.drills.questions import PROBLEM_IDEA, Question
from fiftysix.drills.schedule import (
    DEFAULT_NEW_PER_DAY,
    DEFAULT_RETENTION,
    Card,
    Rating,
    Reviewed,
    Scheduler,
    new_card,
    pick_questions,
    rating_for,
    utcnow,
)
from fiftysix.errors import FiftySixError

SCHEMA_VERSION = 2
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
    source TEXT NOT NULL DEFAULT 'generated',
    before TEXT
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
CREATE TABLE IF NOT EXISTS scheduling (
    learner TEXT PRIMARY KEY,
    desired_retention REAL NOT NULL,
    parameters TEXT,
    optimised_at TEXT,
    optimised_reviews INTEGER
);
"""
# reviews.before: the idea's cards row before this review, as JSON ({"card": null} for an idea
# met for the first time); NULL where it is unknown (a file from before undo, or the cards were
# rescheduled since), and then the review cannot be taken back.


def _add_column(con: sqlite3.Connection, column: str) -> None:
    """Add a column to ``reviews`` unless another session opening the same new file has just
    added it (a club server's first members at once: the second ALTER TABLE failed with
    "duplicate column name")."""
    try:
        con.execute(f"ALTER TABLE reviews ADD COLUMN {column}")
    except sqlite3.OperationalError as e:
        if "duplicate column name" not in str(e):
            raise


class ProgressError(FiftySixError):
    """The progress file cannot be opened or is not a fiftysix progress file."""


@dataclass(frozen=True)
class Undone:
    """An answer taken back: the idea, the question and when it was answered, its rating."""

    key: str
    question_id: str
    answered_at: datetime
    rating: Rating


@dataclass(frozen=True)
class Tuning:
    """A learner's FSRS settings: desired retention, and the parameters optimised from their
    reviews (None: FSRS's defaults), when and on how many reviews."""

    desired_retention: float = DEFAULT_RETENTION
    parameters: tuple[float, ...] | None = None
    optimised_at: datetime | None = None
    optimised_reviews: int = 0


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
                 timeout: float = 30.0, fuzz: bool = True) -> None:
        self.learner = learner
        self.fuzz = fuzz
        """Whether reviews spread intervals by FSRS's fuzz (off: intervals are reproducible)."""
        super().__init__(path, timeout)

    def _create(self, con: sqlite3.Connection) -> None:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ProgressError(f"{self.path} was written by a newer fiftysix (schema {version})")
        con.executescript(_SCHEMA)
        columns = {row[1] for row in con.execute("PRAGMA table_info(reviews)")}
        if "source" not in columns:  # a file from before answers named their bank
            _add_column(con, "source TEXT NOT NULL DEFAULT 'generated'")
        if "before" not in columns:  # a file from before undo: its reviews cannot be taken back
            _add_column(con, "before TEXT")
        if "assignment" not in columns:  # a class's assignment the answer was given for (drills.classes)
            _add_column(con, "assignment INTEGER")
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @staticmethod
    def _readable(con: sqlite3.Connection) -> bool:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        con.execute("SELECT 1 FROM cards LIMIT 1").fetchall()
        return version in (1, SCHEMA_VERSION)  # schema 1 lacks only undo and the FSRS settings

    # --- the learner's FSRS settings ------------------------------------------------------

    def _tuning(self, con: sqlite3.Connection) -> Tuning:
        if self.read_only and not con.execute("SELECT 1 FROM sqlite_master WHERE name='scheduling'").fetchone():
            return Tuning()  # a schema-1 file that cannot be written (and so not upgraded)
        row = con.execute("SELECT desired_retention, parameters, optimised_at, optimised_reviews FROM scheduling"
                          " WHERE learner=?", (self.learner,)).fetchone()
        if row is None:
            return Tuning()
        return Tuning(row[0], tuple(json.loads(row[1])) if row[1] else None,
                      _parse_stamp(row[2]) if row[2] else None, row[3] or 0)

    def tuning(self) -> Tuning:
        """The learner's desired retention and optimised parameters (defaults if never set)."""
        with self._connect() as con:
            return self._tuning(con)

    def _scheduler_for(self, t: Tuning) -> Scheduler:
        return schedule.make_scheduler(self.fuzz, t.desired_retention, t.parameters)

    def scheduler(self) -> Scheduler:
        """The FSRS scheduler this learner's reviews use (their retention and parameters)."""
        return self._scheduler_for(self.tuning())

    def _set_tuning(self, con: sqlite3.Connection, t: Tuning) -> None:
        con.execute("INSERT OR REPLACE INTO scheduling (learner, desired_retention, parameters, optimised_at,"
                    " optimised_reviews) VALUES (?, ?, ?, ?, ?)",
                    (self.learner, t.desired_retention, json.dumps(list(t.parameters)) if t.parameters else None,
                     _stamp(t.optimised_at) if t.optimised_at else None, t.optimised_reviews))

    def _reschedule(self, con: sqlite3.Connection, scheduler: Scheduler) -> int:
        """Every card replayed from its reviews with ``scheduler`` (fsrs's ``reschedule_card``),
        as if it had always been scheduled so; the reviews can no longer be taken back."""
        logs: dict[str, list] = {}
        for key, at, rating, seconds in con.execute(
                "SELECT template, answered_at, rating, seconds FROM reviews WHERE learner=? ORDER BY id",
                (self.learner,)):
            logs.setdefault(key, []).append(Reviewed(key, _parse_stamp(at), Rating(rating), seconds).log())
        for key, card_json in con.execute("SELECT template, card FROM cards WHERE learner=?",
                                          (self.learner,)).fetchall():
            if key not in logs:
                continue
            card = scheduler.reschedule_card(Card.from_dict(json.loads(card_json)), logs[key])
            con.execute("UPDATE cards SET card=?, due=? WHERE learner=? AND template=?",
                        (json.dumps(card.to_dict()), _stamp(card.due), self.learner, key))
        con.execute("UPDATE reviews SET before=NULL WHERE learner=?", (self.learner,))
        return len(logs)

    def set_desired_retention(self, retention: float, reschedule: bool = True) -> Tuning:
        """Set the chance of still knowing an idea when it comes back (FSRS's desired retention);
        with ``reschedule``, every idea's next review moves as if it had always been so."""
        with self._transaction() as con:
            t = self._tuning(con)
            new = Tuning(float(retention), t.parameters, t.optimised_at, t.optimised_reviews)
            scheduler = self._scheduler_for(new)  # refuses a retention out of range
            self._set_tuning(con, new)
            if reschedule and new.desired_retention != t.desired_retention:
                self._reschedule(con, scheduler)
        return new

    def optimise(self, now: datetime | None = None, reschedule: bool = True) -> Tuning:
        """Fit FSRS's parameters to this learner's reviews (the fsrs package's Optimizer), keep
        them with the time and the number of reviews, and reschedule every idea with them.
        Raises ScheduleError while there are too few reviews or the optimiser's extra is missing."""
        reviews = self.reviewed()
        parameters = schedule.optimise(reviews)
        with self._transaction() as con:
            t = self._tuning(con)
            new = Tuning(t.desired_retention, tuple(parameters), now or utcnow(), len(reviews))
            self._set_tuning(con, new)
            if reschedule:
                self._reschedule(con, self._scheduler_for(new))
        return new

    def reset_parameters(self) -> Tuning:
        """Back to FSRS's default parameters (the desired retention stays), every idea rescheduled."""
        with self._transaction() as con:
            t = self._tuning(con)
            new = Tuning(t.desired_retention)
            self._set_tuning(con, new)
            self._reschedule(con, self._scheduler_for(new))
        return new

    # --- writing ---------------------------------------------------------------------------

    def record_answer(self, question: Question, response: str, correct: bool | None = None,
                      seconds: float | None = None, now: datetime | None = None,
                      rating: Rating | None = None, source: str = GENERATED, assignment: int | None = None) -> Card:
        """Store one answer and review the question's template card; return the new card.

        ``correct`` defaults to marking ``response`` with the question; ``rating`` to
        ``rating_for(correct, seconds)``; ``source`` names where the question came from
        (a bank's title, or ``GENERATED``) for the accuracy per bank; ``assignment`` the class
        assignment it answers (its coach sees it), in the same transaction.
        """
        if correct is None:
            correct = question.is_correct(response)
        c = question.context
        return self.record_review(question.template, rating or rating_for(correct, seconds), now=now,
                                  correct=correct, response=response, question_id=question.id,
                                  kind=question.type, system=c.system, players=c.players,
                                  family=question.family or "-", seconds=seconds, source=source,
                                  assignment=assignment)

    def record_review(self, key: str, rating: Rating, *, now: datetime | None = None, correct: bool | None = None,
                      response: str = "", question_id: str | None = None, kind: str = "-", system: str = "-",
                      players: int = 0, family: str = "-", seconds: float | None = None,
                      source: str = GENERATED, assignment: int | None = None) -> Card:
        """Review the idea ``key`` with ``rating`` at ``now`` and store the review; return the
        idea's new card. Any exercise schedules this way under a string key of its own (a play
        problem's, say); ``kind``, ``system``, ``players`` and ``family`` group the answers in
        the accuracy tables, ``question_id`` (default: the key) names the exercise itself."""
        now = now or utcnow()
        if correct is None:
            correct = rating != Rating.Again
        with self._transaction() as con:
            row = con.execute("SELECT card, reps, lapses, first_seen FROM cards WHERE learner=? AND template=?",
                              (self.learner, key)).fetchone()
            before = _before(row)
            card, _log = self._scheduler_for(self._tuning(con)).review_card(_card_before(key, row, now), rating, now)
            reps, lapses, first_seen = _counts_after(row, rating, now)
            con.execute(
                "INSERT OR REPLACE INTO cards (learner, template, card, due, reps, lapses, first_seen)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.learner, key, json.dumps(card.to_dict()), _stamp(card.due), reps, lapses, first_seen))
            con.execute(
                "INSERT INTO reviews (learner, answered_at, question_id, template, type, system, players,"
                " family, response, correct, rating, seconds, due_after, source, before, assignment)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.learner, _stamp(now), question_id or key, key, kind, system, int(players),
                 family, response, int(bool(correct)), int(rating), seconds, _stamp(card.due),
                 source or GENERATED, before, assignment))
        return card

    def _last(self, con: sqlite3.Connection):
        row = con.execute("SELECT id, template, question_id, answered_at, rating, before FROM reviews"
                          " WHERE learner=? ORDER BY id DESC LIMIT 1", (self.learner,)).fetchone()
        if row is not None and row[5] is None:
            raise ProgressError("the last answer cannot be taken back: it was recorded by an older fiftysix, "
                                "or the schedule was changed since")
        return row

    def _restore(self, con: sqlite3.Connection, key: str, before: str) -> dict:
        """Put the idea's cards row back as ``before`` says; return that state."""
        b = json.loads(before)
        if b["card"] is None:
            con.execute("DELETE FROM cards WHERE learner=? AND template=?", (self.learner, key))
        else:
            con.execute("INSERT OR REPLACE INTO cards (learner, template, card, due, reps, lapses, first_seen)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (self.learner, key, json.dumps(b["card"]), _stamp(Card.from_dict(b["card"]).due),
                         b["reps"], b["lapses"], b["first_seen"]))
        return b

    def undo_last(self) -> Undone | None:
        """Take back the learner's last answer: its review is deleted and its idea's card is put
        back exactly as it was before (a first answer's idea becomes new again). None when
        there is nothing to take back; ProgressError when the last answer cannot be."""
        with self._transaction() as con:
            row = self._last(con)
            if row is None:
                return None
            rid, key, qid, at, rating, before = row
            self._restore(con, key, before)
            con.execute("DELETE FROM reviews WHERE id=?", (rid,))
        return Undone(key, qid, _parse_stamp(at), Rating(rating))

    def regrade_last(self, rating: Rating) -> Card:
        """Grade the learner's last answer again (Hard, Good or Easy for a right answer): the
        idea's card is reviewed anew from its state before, at the same time, as if the
        answer had been graded so at first. Returns the new card."""
        with self._transaction() as con:
            row = self._last(con)
            if row is None:
                raise ProgressError("there is no answer to grade")
            rid, key, _qid, at, _old, before = row
            b = json.loads(before)
            prev = None if b["card"] is None else (json.dumps(b["card"]), b["reps"], b["lapses"], b["first_seen"])
            when = _parse_stamp(at)
            card, _log = self._scheduler_for(self._tuning(con)).review_card(_card_before(key, prev, when), rating, when)
            reps, lapses, first_seen = _counts_after(prev, rating, when)
            con.execute("INSERT OR REPLACE INTO cards (learner, template, card, due, reps, lapses, first_seen)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (self.learner, key, json.dumps(card.to_dict()), _stamp(card.due), reps, lapses, first_seen))
            con.execute("UPDATE reviews SET rating=?, due_after=? WHERE id=?", (int(rating), _stamp(card.due), rid))
        return card

    def last_answer(self) -> tuple[str, Rating, datetime] | None:
        """The idea, rating and new due time of the learner's last answer (None if none)."""
        with self._connect() as con:
            row = con.execute("SELECT template, rating, due_after FROM reviews WHERE learner=? ORDER BY id DESC"
                              " LIMIT 1", (self.learner,)).fetchone()
        return None if row is None else (row[0], Rating(row[1]), _parse_stamp(row[2]))

    # --- reading ---------------------------------------------------------------------------

    def reviewed(self) -> list[Reviewed]:
        """The learner's review log, oldest first: idea key, time, rating, seconds."""
        with self._connect() as con:
            rows = con.execute("SELECT template, answered_at, rating, seconds FROM reviews WHERE learner=?"
                               " ORDER BY id", (self.learner,)).fetchall()
        return [Reviewed(k, _parse_stamp(at), Rating(r), sec) for k, at, r, sec in rows]

    def retention(self) -> tuple[float | None, int]:
        """Retention so far (``schedule.retention``): the share of reviews a day or more after
        the last that were not Again, and how many there were."""
        return schedule.retention(self.reviewed())

    def forecast(self, days: int = 30, now: datetime | None = None) -> list[int]:
        """Ideas due on each of the next ``days`` days, today first (with all that is due now)."""
        return schedule.forecast(self.cards().values(), now or utcnow(), days)

    def upcoming(self, now: datetime | None = None, limit: int | None = None) -> list[tuple[datetime, str]]:
        """(due, idea key) of the ideas not yet due, soonest first."""
        now = now or utcnow()
        with self._connect() as con:
            rows = con.execute("SELECT due, template FROM cards WHERE learner=? AND due>? ORDER BY due, template"
                               + ("" if limit is None else f" LIMIT {int(limit)}"),
                               (self.learner, _stamp(now))).fetchall()
        return [(_parse_stamp(d), k) for d, k in rows]

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
        """How many bidding ideas (templates) the learner met for the first time this UTC day: the
        Drill's "new ideas a day". Play problems, which schedule under ideas of their own, are not
        counted (walked: eight problems solved made the Drill say "18 of 10 new ideas met today")."""
        now = now or utcnow()
        start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        with self._connect() as con:
            return con.execute("SELECT COUNT(*) FROM cards WHERE learner=? AND first_seen>=? AND first_seen<?"
                               " AND substr(template, 1, ?) != ?",
                               (self.learner, _stamp(start), _stamp(start + timedelta(days=1)),
                                len(PROBLEM_IDEA), PROBLEM_IDEA)).fetchone()[0]

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


def _before(row) -> str:
    """The JSON kept with a review: the idea's cards row before it ({"card": null}: new)."""
    if row is None:
        return json.dumps({"card": None})
    return json.dumps({"card": json.loads(row[0]), "reps": row[1], "lapses": row[2], "first_seen": row[3]})


def _card_before(key: str, row, now: datetime) -> Card:
    return new_card(key, now) if row is None else Card.from_dict(json.loads(row[0]))


def _counts_after(row, rating: Rating, now: datetime) -> tuple[int, int, str]:
    """(reps, lapses, first seen) after a review: a lapse is an Again on an idea met before."""
    if row is None:
        return 1, 0, _stamp(now)
    return row[1] + 1, row[2] + int(rating == Rating.Again), row[3]


def _summarise(df, keys: list[str]):
    import pandas as pd
    if df.empty:
        return pd.DataFrame({**{k: [] for k in keys}, "answered": [], "right": [], "accuracy": []})
    g = df.groupby(keys, as_index=False).agg(answered=("correct", "size"), right=("correct", "sum"))
    g["right"] = g["right"].astype(int)
    g["accuracy"] = g["right"] / g["answered"]
    return g.sort_values(keys).reset_index(drop=True)
