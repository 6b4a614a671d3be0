"""The hand library: played hands (hand records) kept in the app's SQLite file.

The records live in the same file as the learner's progress (``drills.progress``:
``progress.sqlite3`` under ``$FIFTYSIX_DATA_DIR`` or the user data directory), in tables
of their own (``library_*``). Each record is stored in its canonical text with the
columns a search needs (players, system, contract, result, date).

Each record has an owner. A library opened for one user (``Library(owner=...)``, a club
server's member) reads that user's own records and those shared to the club library
(``share``), and changes or deletes only the user's own; one opened without an owner (one
person on their own computer, the command line) reads and changes every record, as before
records had owners.

An import reads and checks every record of every file first (``fiftysix.records``); only
when all of them are sound are they written, in one transaction, so a bad file leaves
the library exactly as it was. A record already in the library (same canonical text) is
skipped, not doubled.
"""
from __future__ import annotations

import builtins
import hashlib
import os
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fiftysix.drills import store
from fiftysix.errors import FiftySixError
from fiftysix.records import Record, format_record, format_records, parse_record, read_records
from fiftysix.scoring import Contract
from fiftysix.textio import write_atomic

LIBRARY_SCHEMA_VERSION = 2
LOCAL_OWNER = ""
"""The owner of the records of a library used without sign-in (and of those kept before records
had owners)."""
SCOPES = ("mine", "club")
"""What a search of a user's library may keep to: the user's own records, or the club library's."""

_RECORDS = """
CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner TEXT NOT NULL DEFAULT '',
    owner_name TEXT NOT NULL DEFAULT '',
    shared INTEGER NOT NULL DEFAULT 0,
    digest TEXT NOT NULL,
    text TEXT NOT NULL,
    event TEXT NOT NULL,
    date TEXT NOT NULL,
    players INTEGER NOT NULL,
    deck INTEGER NOT NULL,
    teams TEXT NOT NULL,
    system TEXT NOT NULL,
    contract TEXT NOT NULL,
    value INTEGER,
    strain TEXT NOT NULL,
    declarer INTEGER,
    result INTEGER,
    made INTEGER,
    source TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    UNIQUE (owner, digest)
);
"""
_COLUMNS_V1 = ("id, digest, text, event, date, players, deck, teams, system, contract, value, strain, declarer,"
               " result, made, source, imported_at")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS library_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
""" + _RECORDS.format(name="library_records") + """
CREATE INDEX IF NOT EXISTS library_records_date ON library_records (date);
CREATE INDEX IF NOT EXISTS library_records_owner ON library_records (owner, shared);
CREATE TABLE IF NOT EXISTS library_players (
    record_id INTEGER NOT NULL REFERENCES library_records(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (record_id, seat)
);
CREATE INDEX IF NOT EXISTS library_players_name ON library_players (name COLLATE NOCASE);
"""


class LibraryError(FiftySixError):
    """The library file cannot be used, or a search asks for something impossible."""


@dataclass(frozen=True)
class Entry:
    """One stored record and its search columns."""

    id: int
    event: str
    date: str
    players: int
    deck: int
    teams: str
    system: str
    names: tuple[str, ...]
    contract: str
    declarer: int | None
    result: int | None
    made: bool | None
    source: str
    shared: bool = False
    """In the club library: every member of the club sees it."""
    mine: bool = True
    """The library's user owns it (may share, unshare and delete it)."""
    owner_name: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "event": self.event, "date": self.date, "players": self.players,
                "deck": self.deck, "teams": self.teams, "system": self.system, "names": list(self.names),
                "contract": self.contract, "declarer": self.declarer, "result": self.result,
                "made": self.made, "source": self.source, "shared": self.shared}


@dataclass(frozen=True)
class ImportReport:
    files: tuple[str, ...]
    read: int
    added: int
    duplicates: int
    ids: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"files": list(self.files), "read": self.read, "added": self.added,
                "duplicates": self.duplicates, "ids": list(self.ids)}


@dataclass(frozen=True)
class Removed:
    """Records taken out of the library (``Library.cut``), every column kept, to be put back."""

    rows: tuple[dict, ...]
    players: tuple[dict, ...]


def digest(record: Record) -> str:
    """A record's identity in the library: the hash of its canonical text."""
    return hashlib.sha256(format_record(record).encode("utf-8")).hexdigest()


_DATE_RE = re.compile(r"^(\d{4})(?:[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?)?$")


def _date_bound(text: str, upper: bool) -> str:
    """``2026``, ``2026.11``, ``2026-11-29`` -> a YYYY.MM.DD bound for text comparison."""
    m = _DATE_RE.match(text.strip())
    if not m:
        raise LibraryError(f"cannot read {text!r} as a date: write YYYY.MM.DD, YYYY.MM or YYYY")
    y, mo, d = m.groups()
    try:  # a real date: month 1..12, a day the month has
        datetime(int(y), int(mo or 1), int(d or 1))
    except ValueError:
        raise LibraryError(f"{text!r} is not a date: the month is 1..12 and the day must be in the month") from None
    mo = f"{int(mo):02d}" if mo else ("12" if upper else "01")
    d = f"{int(d):02d}" if d else ("31" if upper else "01")
    return f"{y}.{mo}.{d}"


class Library(store.Store):
    """The hand library in a SQLite file (created on first use)."""

    kind = "library"
    error = LibraryError
    foreign_keys = True

    def __init__(self, path: str | os.PathLike | None = None, timeout: float = 30.0, owner: str | None = None,
                 owner_name: str = "") -> None:
        """``owner``: the user whose library this is (None: every record, for one person on their
        own computer); ``owner_name``: what the club library shows as the sharer's name."""
        self.owner = owner
        self.owner_name = owner_name
        super().__init__(path, timeout)

    def _create(self, con: sqlite3.Connection) -> None:
        if con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='library_meta'").fetchone():
            row = con.execute("SELECT value FROM library_meta WHERE key='schema'").fetchone()
            if row is not None and int(row[0]) > LIBRARY_SCHEMA_VERSION:
                raise LibraryError(f"{self.path} holds a hand library from a newer fiftysix (schema {row[0]})")
        if _columns(con) and "owner" not in _columns(con):
            _add_owners(con)
        con.executescript(_SCHEMA)
        con.execute("INSERT OR REPLACE INTO library_meta (key, value) VALUES ('schema', ?)",
                    (str(LIBRARY_SCHEMA_VERSION),))

    @staticmethod
    def _readable(con: sqlite3.Connection) -> bool:
        row = con.execute("SELECT value FROM library_meta WHERE key='schema'").fetchone()
        return row is not None and int(row[0]) <= LIBRARY_SCHEMA_VERSION and "owner" in _columns(con)

    def _visible(self, alias: str = "r") -> tuple[str, list[object]]:
        """The SQL condition for the records this library's user may read."""
        if self.owner is None:
            return "1", []
        return f"({alias}.owner = ? OR {alias}.shared = 1)", [self.owner]

    # --- writing ---------------------------------------------------------------------------

    def add(self, records: Sequence[Record], source: str = "") -> ImportReport:
        """Store records in one transaction (all or none); duplicates are skipped. Each is
        checked first by reading its canonical text back, so a record built in code with an
        illegal auction or play is refused (RecordError) like a bad file."""
        for r in records:
            if parse_record(format_record(r), source or "record") != r:
                raise LibraryError("a record does not read back the same from its text; not stored")
        return self._store([(r, source) for r in records], (source,) if source else ())

    def import_files(self, paths: Iterable[str | os.PathLike]) -> ImportReport:
        """Read and check every record of every file, then store them all, or nothing."""
        items: list[tuple[Record, str]] = []
        files: list[str] = []
        for p in paths:
            name = str(p)
            files.append(name)
            try:
                records = read_records(name)
            except FileNotFoundError:
                raise LibraryError(f"no such file: {name}") from None
            except IsADirectoryError:
                raise LibraryError(f"{name} is a folder, not a record file") from None
            items.extend((r, Path(name).name) for r in records)
        return self._store(items, tuple(files))

    def _store(self, items: list[tuple[Record, str]], files: tuple[str, ...]) -> ImportReport:
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        owner = LOCAL_OWNER if self.owner is None else self.owner
        added: list[int] = []
        dups = 0
        try:
            with self._transaction() as con:
                for record, source in items:
                    text = format_record(record)
                    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
                    if con.execute("SELECT 1 FROM library_records WHERE owner=? AND digest=?",
                                   (owner, key)).fetchone():
                        dups += 1
                        continue
                    c = record.contract
                    made = record.made
                    cur = con.execute(
                        "INSERT INTO library_records (owner, owner_name, digest, text, event, date, players, deck,"
                        " teams, system, contract, value, strain, declarer, result, made, source, imported_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (owner, self.owner_name, key, text, record.event, record.date, record.table.players, record.table.deck,
                         record.table.teams, record.system, str(c) if c else "", c.value if c else None,
                         c.strain if c else "", c.declarer if c else None, record.result,
                         None if made is None else int(made), source, now))
                    rid = int(cur.lastrowid)
                    added.append(rid)
                    for seat, name in enumerate(record.players, start=1):
                        if name:
                            con.execute("INSERT INTO library_players (record_id, seat, name) VALUES (?, ?, ?)",
                                        (rid, seat, name))
        except store.StoreError as e:
            raise LibraryError(str(e)) from None
        return ImportReport(files, len(items), len(added), dups, tuple(added))

    def _own(self, con: sqlite3.Connection, ids: list[int], doing: str) -> None:
        """Refuse (before changing anything) when a record is not there for this user, or is
        someone else's: only its owner may change or delete a record."""
        for i in ids:
            row = con.execute("SELECT owner, shared FROM library_records WHERE id=?", (i,)).fetchone()
            if row is None or (self.owner is not None and row[0] != self.owner and not row[1]):
                raise LibraryError(f"the library has no record {i}")
            if self.owner is not None and row[0] != self.owner:
                raise LibraryError(f"record {i} is not yours: only the member who shared it may {doing} it")

    def delete(self, ids: Iterable[int]) -> int:
        """Remove records by id (all or none; only the owner's); returns how many were removed."""
        return len(self.cut(ids).rows)

    def cut(self, ids: Iterable[int]) -> Removed:
        """Remove records by id and return them whole (their numbers, sources, players), so
        ``put_back`` can restore them exactly as they were."""
        ids = [int(i) for i in ids]
        rows, players = [], []
        with self._transaction() as con:
            self._own(con, ids, "delete")
            for i in ids:
                cur = con.execute("SELECT * FROM library_records WHERE id=?", (int(i),))
                row = cur.fetchone()
                if row is None:
                    continue
                rows.append(dict(zip([c[0] for c in cur.description], row)))
                cur = con.execute("SELECT * FROM library_players WHERE record_id=?", (int(i),))
                players += [dict(zip([c[0] for c in cur.description], r)) for r in cur.fetchall()]
                con.execute("DELETE FROM library_records WHERE id=?", (int(i),))
        return Removed(tuple(rows), tuple(players))

    def put_back(self, removed: Removed) -> int:
        """Restore records taken out by ``cut`` under their own numbers and sources; one whose
        number or text is in the library again meanwhile is skipped. Returns how many came back."""
        n = 0
        with self._transaction() as con:
            for row in removed.rows:
                if con.execute("SELECT 1 FROM library_records WHERE id=? OR (owner=? AND digest=?)",
                               (row["id"], row["owner"], row["digest"])).fetchone():
                    continue
                con.execute(f"INSERT INTO library_records ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                            tuple(row.values()))
                for p in removed.players:
                    if p["record_id"] == row["id"]:
                        con.execute(f"INSERT INTO library_players ({', '.join(p)}) VALUES ({', '.join('?' * len(p))})",
                                    tuple(p.values()))
                n += 1
        return n

    def share(self, ids: Iterable[int], shared: bool = True) -> int:
        """Put the user's records in the club library (``shared``) or take them out of it (all or
        none; only the owner's); returns how many changed."""
        ids = [int(i) for i in ids]
        with self._transaction() as con:
            self._own(con, ids, "share or unshare")
            n = 0
            for i in ids:
                n += con.execute("UPDATE library_records SET shared=? WHERE id=? AND shared!=?",
                                 (int(shared), i, int(shared))).rowcount
        return n

    # --- reading ---------------------------------------------------------------------------

    def search(self, player: str | None = None, system: str | None = None, contract: str | None = None,
               result: str | None = None, since: str | None = None, until: str | None = None,
               players: int | None = None, event: str | None = None, limit: int | None = None,
               scope: str | None = None) -> list[Entry]:
        """Records matching every filter given, oldest date first; of those this user may read,
        and with ``scope`` only the user's own (``mine``) or the club library's (``club``).

        ``player``: part of a player's name (any case). ``contract``: ``40H`` (value and
        strain; ``40Hx`` also the doubling), ``NT``/``H`` (a strain) or ``40`` (a value).
        ``result``: ``made``, ``failed``, or a number of card points (``34``) or at least
        some (``34+``). ``since``/``until``: dates, inclusive (``2026``, ``2026.11``,
        ``2026.11.29``).
        """
        visible, args = self._visible()
        where: list[str] = [visible]
        if scope == "mine" and self.owner is not None:
            where.append("r.owner = ?")
            args.append(self.owner)
        elif scope == "club":
            where.append("r.shared = 1")
        elif scope not in (None, "mine"):
            raise LibraryError(f"cannot keep to {scope!r}: use {' or '.join(SCOPES)}")
        if player:
            where.append("r.id IN (SELECT record_id FROM library_players WHERE name LIKE ? ESCAPE '\\')")
            args.append("%" + _like(player.strip()) + "%")
        if system:
            where.append("r.system = ?")
            args.append(system.strip().lower())
        if players is not None:
            where.append("r.players = ?")
            args.append(int(players))
        if event:
            where.append("r.event LIKE ? ESCAPE '\\'")
            args.append("%" + _like(event.strip()) + "%")
        if contract:
            w, a = _contract_filter(contract)
            where.append(w)
            args.extend(a)
        if result:
            w, a = _result_filter(result)
            where.append(w)
            args.extend(a)
        if since:
            where.append("r.date != '' AND r.date >= ?")
            args.append(_date_bound(since, upper=False))
        if until:
            where.append("r.date != '' AND r.date <= ?")
            args.append(_date_bound(until, upper=True))
        sql = ("SELECT r.id, r.event, r.date, r.players, r.deck, r.teams, r.system, r.contract, r.declarer,"
               " r.result, r.made, r.source, r.shared, r.owner, r.owner_name FROM library_records r")
        sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY r.date, r.id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._connect() as con:
            rows = con.execute(sql, args).fetchall()
            names = self._names(con, [r[0] for r in rows])
        return [Entry(r[0], r[1], r[2], r[3], r[4], r[5], r[6],
                      tuple(names.get(r[0], {}).get(s, "") for s in range(1, r[3] + 1)),
                      r[7], r[8], r[9], None if r[10] is None else bool(r[10]), r[11], bool(r[12]),
                      self.owner is None or r[13] == self.owner, r[14]) for r in rows]

    def list(self, limit: int | None = None, scope: str | None = None) -> list[Entry]:
        return self.search(limit=limit, scope=scope)

    def _names(self, con: sqlite3.Connection, ids: builtins.list[int]) -> dict[int, dict[int, str]]:
        out: dict[int, dict[int, str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            q = ",".join("?" * len(chunk))
            for rid, seat, name in con.execute(
                    f"SELECT record_id, seat, name FROM library_players WHERE record_id IN ({q})", chunk):
                out.setdefault(rid, {})[seat] = name
        return out

    def count(self) -> int:
        visible, args = self._visible("library_records")
        with self._connect() as con:
            return con.execute(f"SELECT COUNT(*) FROM library_records WHERE {visible}", args).fetchone()[0]

    def get(self, record_id: int) -> Record:
        """The record with this id."""
        visible, args = self._visible("library_records")
        with self._connect() as con:
            row = con.execute(f"SELECT text FROM library_records WHERE id=? AND {visible}",
                              [int(record_id), *args]).fetchone()
        if row is None:
            raise LibraryError(f"the library has no record {record_id}")
        return parse_record(row[0], f"library record {record_id}")

    def records(self, ids: Iterable[int]) -> builtins.list[Record]:
        return [self.get(i) for i in ids]

    def export(self, path: str | os.PathLike, ids: Sequence[int] | None = None) -> int:
        """Write records (all of them, or those ids) to a record file; returns how many."""
        if ids is None:
            ids = [e.id for e in self.list()]
        records = self.records(ids)
        text = format_records(records) if records else ""
        try:
            write_atomic(path, text)
        except OSError as e:
            raise LibraryError(f"cannot write {path}: {e.strerror or e}") from None
        return len(records)


def _columns(con: sqlite3.Connection) -> set[str]:
    return {row[1] for row in con.execute("PRAGMA table_info(library_records)")}


def _add_owners(con: sqlite3.Connection) -> None:
    """Give a library from before records had owners its owner columns: every record stays, with
    its id, owned by LOCAL_OWNER and private. SQLite cannot drop the old table's one-copy-per-text
    rule in place, so the table is built anew, in one transaction."""
    con.execute("BEGIN IMMEDIATE")
    try:
        if "owner" not in _columns(con):  # another process may have done it meanwhile
            con.execute(_RECORDS.format(name="library_records_v2"))
            con.execute(f"INSERT INTO library_records_v2 ({_COLUMNS_V1}) SELECT {_COLUMNS_V1} FROM library_records")
            con.execute("DROP TABLE library_records")
            con.execute("ALTER TABLE library_records_v2 RENAME TO library_records")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _contract_filter(text: str) -> tuple[str, list[object]]:
    t = text.strip().upper().replace("NS", "NT")
    if t in ("S", "H", "D", "C", "NT", "N"):
        return "r.strain = ?", ["NT" if t == "N" else t]
    if re.fullmatch(r"[0-9]+", t):
        if len(t) > 2:  # SQLite holds 64-bit integers: a longer number cannot be bound at all
            raise LibraryError(f"cannot read {text!r} as a contract filter: a contract's value is 28 to 56")
        return "r.value = ?", [int(t)]
    try:
        c = Contract.parse(t)
    except FiftySixError:
        raise LibraryError(f"cannot read {text!r} as a contract filter: write 40H, 40Hx, NT, H or 40") from None
    if t.endswith("X"):
        return "r.contract = ?", [str(c)]
    return "(r.value = ? AND r.strain = ?)", [c.value, c.strain]


def _result_filter(text: str) -> tuple[str, list[object]]:
    t = text.strip().lower()
    if t in ("made", "make", "m"):
        return "r.made = 1", []
    if t in ("failed", "fail", "down", "f"):
        return "r.made = 0", []
    m = re.fullmatch(r"(\d{1,2})\s*(\+|-)?", t)
    if m:
        op = {"+": ">=", "-": "<=", None: "="}[m.group(2)]
        return f"r.result {op} ?", [int(m.group(1))]
    raise LibraryError(f"cannot read {text!r} as a result filter: write made, failed, 34, 34+ or 34-")
