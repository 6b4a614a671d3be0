"""A coach's classes: members joined by code, assignments with a due date, what students did.

A coach starts a class and gives its join code to the students; each joins with the code.
The coach assigns a quiz bank (its questions, drilled on the Drill page) or a set of deals
(each played at the practice table from a set seat, against the same seeded bots for every
student), with a due date. The reports read the answers themselves: a bank's answers are the
progress store's reviews given for the assignment (``ProgressStore.record_answer(...,
assignment=id)``), a deal's is the first finished hand a student played of it.

Everything lives in the one data file (``drills.store``), in tables of its own (``class_*``);
every change is one transaction, and only a class's coach may change the class, its
members' list or its assignments.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime

from fiftysix.cards import Deal, Table
from fiftysix.drills import store
from fiftysix.drills.banks import Bank
from fiftysix.errors import FiftySixError

KINDS = ("bank", "deals")
"""What an assignment gives the students: a quiz bank's questions, or deals to play."""
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""Join codes: no 0/O, 1/I/L or U, so a code read out in a club room is typed right."""
CODE_LENGTH = 8
MAX_NAME = 80
"""The longest class or assignment title kept."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS class_classes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    coach TEXT NOT NULL,
    coach_name TEXT NOT NULL,
    code TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS class_classes_coach ON class_classes (coach);
CREATE TABLE IF NOT EXISTS class_members (
    class_id INTEGER NOT NULL REFERENCES class_classes(id) ON DELETE CASCADE,
    member TEXT NOT NULL,
    name TEXT NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (class_id, member)
);
CREATE INDEX IF NOT EXISTS class_members_member ON class_members (member);
CREATE TABLE IF NOT EXISTS class_assignments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    class_id INTEGER NOT NULL REFERENCES class_classes(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('bank', 'deals')),
    title TEXT NOT NULL,
    due TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS class_deal_results (
    assignment_id INTEGER NOT NULL REFERENCES class_assignments(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    member TEXT NOT NULL,
    auction TEXT NOT NULL,
    contract TEXT NOT NULL,
    declarer INTEGER,
    points INTEGER NOT NULL,
    made INTEGER NOT NULL,
    score INTEGER NOT NULL,
    record TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (assignment_id, deal, member)
);
"""


class ClassError(FiftySixError):
    """A class action that cannot be done (a wrong join code, someone else's class), or a
    data file that cannot hold classes."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def normalise_code(text: str) -> str:
    """A join code as typed (any case, spaces or dashes) in its stored form."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _title(text: str, what: str) -> str:
    t = " ".join(str(text).split())
    if not t:
        raise ClassError(f"give the {what} a name")
    if len(t) > MAX_NAME:
        raise ClassError(f"a {what}'s name is at most {MAX_NAME} characters")
    return t


@dataclass(frozen=True)
class Class:
    id: int
    name: str
    coach: str
    coach_name: str
    code: str

    def show_code(self) -> str:
        """The join code as it is read out: ``ABCD-EFGH``."""
        return f"{self.code[:4]}-{self.code[4:]}"


@dataclass(frozen=True)
class Member:
    member: str
    name: str
    joined_at: str


@dataclass(frozen=True)
class AssignedDeal:
    """One deal of an assignment, and the table the students play it at: every student sits in
    ``seat`` against the ``bot`` seeded with ``seed``, so they all meet the same bots."""

    deal: str
    players: int
    deck: int
    teams: str
    system: str
    seat: int = 1
    seed: int = 1
    bot: str = "default"
    mode: str = "practice"
    """``practice``: the student sees only their own hand; ``learning``: every hand, and hints."""

    @property
    def table(self) -> Table:
        return Table(self.players, self.deck, self.teams)

    @classmethod
    def from_dict(cls, d: Mapping) -> AssignedDeal:
        try:
            out = cls(str(d["deal"]), int(d["players"]), int(d["deck"]), str(d["teams"]), str(d["system"]),
                      int(d.get("seat", 1)), int(d.get("seed", 1)), str(d.get("bot", "default")),
                      str(d.get("mode", "practice")))
            Deal.parse(out.deal, out.table)  # a deal that does not fit its table is refused here
            out.table.check_seat(out.seat)
        except (KeyError, TypeError, ValueError) as e:
            raise ClassError(f"an assigned deal cannot be read: {e}") from None
        return out


@dataclass(frozen=True)
class Assignment:
    id: int
    class_id: int
    kind: str
    title: str
    due: date
    body: Mapping

    @property
    def bank(self) -> Bank:
        """The assigned bank (a ``bank`` assignment)."""
        return Bank.from_dict(self.body, self.title)

    @property
    def deals(self) -> tuple[AssignedDeal, ...]:
        """The assigned deals (a ``deals`` assignment)."""
        return tuple(AssignedDeal.from_dict(d) for d in self.body.get("deals", ()))

    @property
    def size(self) -> int:
        """How many questions or deals it has."""
        return len(self.body.get("questions" if self.kind == "bank" else "deals", ()))

    def overdue(self, today: date | None = None) -> bool:
        return (today or date.today()) > self.due


@dataclass(frozen=True)
class DealResult:
    """What a student did with an assigned deal: the auction, the contract and the result."""

    auction: str
    contract: str
    declarer: int | None
    points: int
    """The declarers' card points when the contract was decided."""
    made: bool
    score: int
    """The stake for the student's team (+ won, - lost)."""
    record: str
    """The whole hand as a hand record (``fiftysix.records``)."""


@dataclass(frozen=True)
class Played:
    member: str
    name: str
    deal: int
    result: DealResult


class ClassStore(store.Store):
    """The classes in the data file (created on first use)."""

    kind = "class"
    error = ClassError
    foreign_keys = True

    def _create(self, con: sqlite3.Connection) -> None:
        con.executescript(_SCHEMA)

    @staticmethod
    def _readable(con: sqlite3.Connection) -> bool:
        con.execute("SELECT 1 FROM class_classes LIMIT 1").fetchall()
        return True

    def _write(self):
        try:
            return self._transaction()
        except store.StoreError as e:
            raise ClassError(str(e)) from None

    # --- classes and members ----------------------------------------------------------------

    def create(self, coach: str, coach_name: str, name: str) -> Class:
        """A new class with a fresh join code."""
        name = _title(name, "class")
        with self._write() as con:
            for _ in range(20):
                code = _new_code()
                if not con.execute("SELECT 1 FROM class_classes WHERE code=?", (code,)).fetchone():
                    break
            cur = con.execute("INSERT INTO class_classes (name, coach, coach_name, code, created_at)"
                              " VALUES (?, ?, ?, ?, ?)", (name, coach, coach_name, code, _now()))
            cid = int(cur.lastrowid)
        return Class(cid, name, coach, coach_name, code)

    def get(self, class_id: int) -> Class:
        with self._connect() as con:
            row = con.execute("SELECT id, name, coach, coach_name, code FROM class_classes WHERE id=?",
                              (int(class_id),)).fetchone()
        if row is None:
            raise ClassError(f"there is no class {class_id}")
        return Class(*row)

    def _coached(self, con: sqlite3.Connection, class_id: int, coach: str) -> None:
        row = con.execute("SELECT coach FROM class_classes WHERE id=?", (int(class_id),)).fetchone()
        if row is None:
            raise ClassError(f"there is no class {class_id}")
        if row[0] != coach:
            raise ClassError("only the class's coach may change it")

    def new_code(self, class_id: int, coach: str) -> str:
        """A fresh join code for the class (the old one stops working); returns it."""
        with self._write() as con:
            self._coached(con, class_id, coach)
            code = _new_code()
            while con.execute("SELECT 1 FROM class_classes WHERE code=?", (code,)).fetchone():
                code = _new_code()
            con.execute("UPDATE class_classes SET code=? WHERE id=?", (code, int(class_id)))
        return code

    def delete(self, class_id: int, coach: str) -> None:
        """Close a class: its members' list, assignments and deal results go (the students'
        own progress stays theirs)."""
        with self._write() as con:
            self._coached(con, class_id, coach)
            con.execute("DELETE FROM class_classes WHERE id=?", (int(class_id),))

    def join(self, code: str, member: str, name: str) -> Class:
        """Join the class with this code (joining twice changes nothing); returns the class."""
        want = normalise_code(code)
        with self._write() as con:
            row = con.execute("SELECT id, name, coach, coach_name, code FROM class_classes WHERE code=?",
                              (want,)).fetchone()
            if row is None:
                raise ClassError(f"no class has the join code {code.strip()!r}: check it with your coach")
            if row[2] == member:
                raise ClassError("you are this class's coach")
            con.execute("INSERT OR IGNORE INTO class_members (class_id, member, name, joined_at) VALUES (?, ?, ?, ?)",
                        (row[0], member, name, _now()))
            con.execute("UPDATE class_members SET name=? WHERE class_id=? AND member=?", (name, row[0], member))
        return Class(*row)

    def leave(self, class_id: int, member: str) -> None:
        with self._write() as con:
            con.execute("DELETE FROM class_members WHERE class_id=? AND member=?", (int(class_id), member))

    def remove(self, class_id: int, coach: str, member: str) -> None:
        """The coach takes a student off the class's list."""
        with self._write() as con:
            self._coached(con, class_id, coach)
            con.execute("DELETE FROM class_members WHERE class_id=? AND member=?", (int(class_id), member))

    def coached_by(self, coach: str) -> list[Class]:
        with self._connect() as con:
            rows = con.execute("SELECT id, name, coach, coach_name, code FROM class_classes WHERE coach=?"
                               " ORDER BY id", (coach,)).fetchall()
        return [Class(*r) for r in rows]

    def joined_by(self, member: str) -> list[Class]:
        with self._connect() as con:
            rows = con.execute("SELECT c.id, c.name, c.coach, c.coach_name, c.code FROM class_classes c"
                               " JOIN class_members m ON m.class_id = c.id WHERE m.member=? ORDER BY c.id",
                               (member,)).fetchall()
        return [Class(*r) for r in rows]

    def members(self, class_id: int) -> list[Member]:
        with self._connect() as con:
            rows = con.execute("SELECT member, name, joined_at FROM class_members WHERE class_id=?"
                               " ORDER BY name COLLATE NOCASE, member", (int(class_id),)).fetchall()
        return [Member(*r) for r in rows]

    # --- assignments ------------------------------------------------------------------------

    def assign_bank(self, class_id: int, coach: str, bank: Bank, due: date, title: str = "") -> Assignment:
        """Assign a bank's questions (a copy: later edits of the coach's bank do not change it)."""
        if not bank.questions:
            raise ClassError("the bank has no questions to assign")
        return self._assign(class_id, coach, "bank", title or bank.title, due, bank.to_dict())

    def assign_deals(self, class_id: int, coach: str, deals: Sequence[AssignedDeal], due: date,
                     title: str) -> Assignment:
        if not deals:
            raise ClassError("choose at least one deal to assign")
        checked = [AssignedDeal.from_dict(asdict(d)) for d in deals]
        return self._assign(class_id, coach, "deals", title, due, {"deals": [asdict(d) for d in checked]})

    def _assign(self, class_id: int, coach: str, kind: str, title: str, due: date, body: dict) -> Assignment:
        title = _title(title, "assignment")
        if not isinstance(due, date):
            raise ClassError("give the assignment a due date")
        with self._write() as con:
            self._coached(con, class_id, coach)
            cur = con.execute("INSERT INTO class_assignments (class_id, kind, title, due, body, created_at)"
                              " VALUES (?, ?, ?, ?, ?, ?)",
                              (int(class_id), kind, title, due.isoformat(), json.dumps(body), _now()))
            aid = int(cur.lastrowid)
        return Assignment(aid, int(class_id), kind, title, due, body)

    def unassign(self, assignment_id: int, coach: str) -> None:
        """Take an assignment back (its answers stay in the students' progress)."""
        with self._write() as con:
            a = self._assignment(con, assignment_id)
            self._coached(con, a.class_id, coach)
            con.execute("DELETE FROM class_assignments WHERE id=?", (a.id,))

    @staticmethod
    def _assignment(con: sqlite3.Connection, assignment_id: int) -> Assignment:
        row = con.execute("SELECT id, class_id, kind, title, due, body FROM class_assignments WHERE id=?",
                          (int(assignment_id),)).fetchone()
        if row is None:
            raise ClassError(f"there is no assignment {assignment_id}")
        return _assignment_of(row)

    def assignment(self, assignment_id: int) -> Assignment:
        with self._connect() as con:
            return self._assignment(con, assignment_id)

    def assignments(self, class_id: int) -> list[Assignment]:
        """A class's assignments, soonest due first."""
        with self._connect() as con:
            rows = con.execute("SELECT id, class_id, kind, title, due, body FROM class_assignments"
                               " WHERE class_id=? ORDER BY due, id", (int(class_id),)).fetchall()
        return [_assignment_of(r) for r in rows]

    def assigned_to(self, member: str, kind: str | None = None) -> list[tuple[Assignment, Class]]:
        """A student's assignments in every class they joined, soonest due first."""
        out = []
        for c in self.joined_by(member):
            out += [(a, c) for a in self.assignments(c.id) if kind in (None, a.kind)]
        return sorted(out, key=lambda ac: (ac[0].due, ac[0].id))

    def _member_of(self, con: sqlite3.Connection, assignment_id: int, member: str) -> Assignment:
        a = self._assignment(con, assignment_id)
        if not con.execute("SELECT 1 FROM class_members WHERE class_id=? AND member=?",
                           (a.class_id, member)).fetchone():
            raise ClassError("this assignment is for another class")
        return a

    def submit_deal(self, assignment_id: int, index: int, member: str, result: DealResult) -> bool:
        """Keep a student's first finished hand of an assigned deal; returns False where one
        was kept already (a second try is practice, as at a club's duplicate)."""
        with self._write() as con:
            a = self._member_of(con, assignment_id, member)
            if a.kind != "deals" or not 0 <= index < a.size:
                raise ClassError(f"assignment {assignment_id} has no deal {index + 1}")
            cur = con.execute(
                "INSERT OR IGNORE INTO class_deal_results (assignment_id, deal, member, auction, contract, declarer,"
                " points, made, score, record, played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (a.id, index, member, result.auction, result.contract, result.declarer, result.points,
                 int(result.made), result.score, result.record, _now()))
            return cur.rowcount == 1

    # --- what the students did -------------------------------------------------------------

    def played(self, assignment_id: int) -> list[Played]:
        """Every kept hand of a deals assignment, by deal then student's name."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT r.member, COALESCE(m.name, r.member), r.deal, r.auction, r.contract, r.declarer, r.points,"
                " r.made, r.score, r.record FROM class_deal_results r JOIN class_assignments a ON a.id = r.assignment_id"
                " LEFT JOIN class_members m ON m.class_id = a.class_id AND m.member = r.member"
                " WHERE r.assignment_id=? ORDER BY r.deal, 2 COLLATE NOCASE", (int(assignment_id),)).fetchall()
        return [Played(r[0], r[1], r[2], DealResult(r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9])) for r in rows]

    def answers(self, assignment_id: int) -> list[dict]:
        """Every answer given for a bank assignment: member, question id, idea (template),
        correct, when; oldest first."""
        with self._connect() as con:
            if not con.execute("SELECT 1 FROM sqlite_master WHERE name='reviews'").fetchone():
                return []
            rows = con.execute("SELECT learner, question_id, template, correct, answered_at FROM reviews"
                               " WHERE assignment=? ORDER BY answered_at, id", (int(assignment_id),)).fetchall()
        return [{"member": r[0], "question": r[1], "idea": r[2], "correct": bool(r[3]), "at": r[4]} for r in rows]

    def bank_report(self, assignment_id: int) -> BankReport:
        a = self.assignment(assignment_id)
        return bank_report(a, self.members(a.class_id), self.answers(a.id))

    def done(self, a: Assignment, member: str) -> int:
        """How many of the assignment's questions or deals the student has done (a question
        counts once answered right; a deal once played to the end)."""
        if a.kind == "bank":
            return len({x["question"] for x in self.answers(a.id) if x["member"] == member and x["correct"]})
        return len({p.deal for p in self.played(a.id) if p.member == member})


def _assignment_of(row) -> Assignment:
    try:
        body = json.loads(row[5])
        due = date.fromisoformat(row[4])
    except ValueError as e:
        raise ClassError(f"assignment {row[0]} cannot be read: {e}") from None
    return Assignment(row[0], row[1], row[2], row[3], due, body)


# --- the coach's report on a bank ------------------------------------------------------------

@dataclass(frozen=True)
class StudentLine:
    member: str
    name: str
    answered: int
    """Answers given (every try)."""
    right: int
    questions_done: int
    """Questions answered right at least once."""
    questions: int
    last: str | None

    @property
    def finished(self) -> bool:
        return self.questions_done >= self.questions


@dataclass(frozen=True)
class IdeaLine:
    question: str
    prompt: str
    idea: str
    answered: int
    missed: int
    students_missed: tuple[str, ...]

    @property
    def miss_rate(self) -> float:
        return self.missed / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class BankReport:
    students: tuple[StudentLine, ...]
    questions: tuple[IdeaLine, ...]
    """Most missed first."""
    ideas: tuple[tuple[str, str, int, int], ...] = ()
    """(student's name, idea, answers, right answers) for each student and idea they answered."""


def bank_report(a: Assignment, members: Sequence[Member], answers: Sequence[Mapping]) -> BankReport:
    """Per student and per question of a bank assignment, from its answers."""
    qs = a.bank.questions
    names = {m.member: m.name for m in members}
    students = []
    for m in members:
        mine = [x for x in answers if x["member"] == m.member]
        students.append(StudentLine(m.member, m.name, len(mine), sum(x["correct"] for x in mine),
                                    len({x["question"] for x in mine if x["correct"]}), len(qs),
                                    mine[-1]["at"] if mine else None))
    lines = []
    for q in qs:
        on = [x for x in answers if x["question"] == q.id]
        missed = [x for x in on if not x["correct"]]
        lines.append(IdeaLine(q.id, q.prompt, q.template, len(on), len(missed),
                              tuple(sorted({names.get(x["member"], x["member"]) for x in missed}))))
    lines.sort(key=lambda line: (-line.missed, -line.miss_rate, line.question))
    idea_of = {q.id: q.template for q in qs}
    cells: dict[tuple[str, str], list[int]] = {}
    for x in answers:
        if x["member"] in names and x["question"] in idea_of:
            cell = cells.setdefault((names[x["member"]], idea_of[x["question"]]), [0, 0])
            cell[0] += 1
            cell[1] += int(x["correct"])
    return BankReport(tuple(students), tuple(lines), tuple((n, i, a, r) for (n, i), (a, r) in sorted(cells.items())))
