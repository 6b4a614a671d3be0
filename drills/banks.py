"""Quiz banks: the versioned JSON format (docs/banks.md), atomic saving, and conversions.

A bank is a title, an author, a default system and a list of questions
(``drills.questions.Question``). Loading validates the structure and names the question
at fault; checking a bank against the bidding engine lives in ``drills.bankcheck``.
Conversions: JSON (the format itself), CSV (one row per question, via pandas), Moodle
GIFT, and an Anki-importable CSV. The GIFT and Anki exports carry each question's full
record in a comment Moodle and Anki do not show, so importing them gives the same bank.
"""
from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fiftysix import shipped, textio
from fiftysix.drills.questions import TYPE_TITLES, Question, QuestionError
from fiftysix.errors import FiftySixError
from fiftysix.textio import MAX_TEXT_BYTES, InputError, read_text, size_text
from fiftysix.textio import loads as loads_json

BANK_FORMAT = "fiftysix-bank"
BANK_VERSION = 1
FORMATS = ("json", "csv", "gift", "anki")
MAX_BANK_BYTES = MAX_TEXT_BYTES
"""The largest bank file read, in any format."""


class BankError(FiftySixError):
    """A bank that cannot be read or written; the message names the file and the question."""


@dataclass(frozen=True)
class Bank:
    """A coach's (or the generator's) set of questions."""

    title: str
    system: str
    questions: tuple[Question, ...] = ()
    author: str = ""
    description: str = ""
    version: int = BANK_VERSION
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = header_problems({"title": self.title, "system": self.system, "author": self.author,
                                    "description": self.description, "version": self.version})
        if problems:
            raise BankError(problems[0])
        seen: set[str] = set()
        for q in self.questions:
            if q.id in seen:
                raise BankError(f"question {q.id!r}: the id is used twice in the bank")
            seen.add(q.id)

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise BankError(f"the bank has no question {qid!r}")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"format": BANK_FORMAT, "version": self.version, "title": self.title,
                             "author": self.author, "system": self.system}
        if self.description:
            d["description"] = self.description
        d.update(self.extra)
        d["questions"] = [q.to_dict() for q in self.questions]
        return d

    @classmethod
    def from_dict(cls, d: Mapping, source: str = "bank") -> Bank:
        """Read a bank dict, validating every question; errors name the question's id."""
        if not isinstance(d, Mapping):
            raise BankError(f"{source}: a bank must be a JSON object, got {type(d).__name__}")
        problems = header_problems(d)
        if problems:
            raise BankError(f"{source}: {problems[0]}")
        qs = d.get("questions")
        if not isinstance(qs, list):
            raise BankError(f"{source}: 'questions' must be a list")
        questions = []
        for i, qd in enumerate(qs):
            try:
                questions.append(Question.from_dict(qd, default_system=d["system"], index=i))
            except QuestionError as e:
                raise BankError(f"{source}: {e}") from None
        extra = {k: v for k, v in d.items() if k not in HEADER_KEYS}
        try:
            return cls(d["title"], d["system"], tuple(questions), d.get("author", ""),
                       d.get("description", ""), d.get("version", BANK_VERSION), extra)
        except BankError as e:
            raise BankError(f"{source}: {e}") from None


HEADER_KEYS = ("format", "version", "title", "author", "system", "description", "questions")


def header_problems(d: Mapping) -> list[str]:
    """What is wrong with a bank's header fields (all but the questions): the one definition
    the loader, the checker (``drills.bankcheck``) and every importer use."""
    out = []
    if d.get("format", BANK_FORMAT) != BANK_FORMAT:
        out.append(f"format is {_short(d.get('format'))}, expected {BANK_FORMAT!r}")
    version = d.get("version", BANK_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        out.append(f"'version' must be a whole number from 1, not {_short(version)}")
    elif version > BANK_VERSION:
        out.append(f"bank format version {version} is newer than this program reads ({BANK_VERSION});"
                   " update fiftysix")
    for key in ("title", "system"):
        if not isinstance(d.get(key), str) or not d[key].strip():
            out.append(f"the bank needs a {key!r} (text)")
    for key in ("author", "description"):
        if not isinstance(d.get(key, ""), str):
            out.append(f"the bank's {key!r} must be text, not {_short(d.get(key))}")
    for key in ("title", "system", "author", "description"):
        v = d.get(key)
        if isinstance(v, str) and any(ord(ch) < 32 and ch not in "\t\n" for ch in v):
            out.append(f"the bank's {key!r} holds a control character")
    return out


def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


# --- JSON files ----------------------------------------------------------------------------

def dumps(bank: Bank) -> str:
    return json.dumps(bank.to_dict(), ensure_ascii=False, indent=2) + "\n"


def loads(text: str, source: str = "bank") -> Bank:
    try:
        d = loads_json(text, source)
    except InputError as e:
        raise BankError(str(e)) from None
    return Bank.from_dict(d, source)


def load_bank(path: str | os.PathLike) -> Bank:
    """Read a bank from a JSON file (the format of docs/banks.md)."""
    return loads(read_bank_text(path), str(path))


def read_bank_text(path: str | os.PathLike) -> str:
    """A bank file's text: UTF-8, at most MAX_BANK_BYTES (BankError otherwise)."""
    try:
        return read_text(path, MAX_BANK_BYTES)
    except InputError as e:
        raise BankError(str(e)) from None


def starter_names() -> list[str]:
    """The starter banks shipped with the project (one per bidding system, generated, then
    checked by the engine), by name: ``kerala`` for data/banks/kerala.json."""
    return [f.name.removesuffix(".json") for f in shipped.data_files("banks", ".json")]


def load_starter(name: str) -> Bank:
    """A shipped starter bank by name (BankError when there is none of that name)."""
    f = shipped.data_file("banks", f"{name}.json")
    if name not in starter_names():
        raise BankError(f"there is no starter bank {name!r} (there are: {', '.join(starter_names())})")
    return loads(f.read_text(encoding="utf-8"), f"starter bank {name}")


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically (``fiftysix.textio.write_atomic``); BankError
    naming ``path`` when it cannot be written."""
    try:
        textio.write_atomic(path, text)
    except OSError as e:
        raise BankError(f"cannot write {path}: {e.strerror or e}") from None


def save_bank(bank: Bank, path: str | os.PathLike) -> None:
    """Write a bank as JSON, atomically (readers never see a half-written file)."""
    write_atomic(path, dumps(bank))


# --- the coach's working bank ------------------------------------------------------------------

WORKING_BANK = "coach-bank.json"
"""The bank the Coach page is building, kept in the data folder so a reload keeps it."""
WORKING_BANKS = "coach-banks"
"""The folder of a club server's working banks: one file per coach."""


def working_bank_path(owner: str | None = None) -> Path:
    """Where the working bank of ``owner`` (a club member's id) is kept; None: the one person
    using the app on their own computer."""
    from fiftysix.drills.store import data_dir
    if owner is None:
        return data_dir() / WORKING_BANK
    # a hash names the file: an id is the provider's text, never a path
    return data_dir() / WORKING_BANKS / (hashlib.sha256(owner.encode("utf-8")).hexdigest()[:32] + ".json")


def save_working_bank(bank: Bank, path: str | os.PathLike | None = None, owner: str | None = None) -> None:
    """Keep the coach's bank being built (atomically), in the data folder by default."""
    p = working_bank_path(owner) if path is None else Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    save_bank(bank, p)


def load_working_bank(path: str | os.PathLike | None = None, owner: str | None = None) -> Bank | None:
    """The coach's bank being built, or None when there is none yet."""
    p = working_bank_path(owner) if path is None else Path(path)
    if not p.exists():
        return None
    return load_bank(p)


class BankConflict(BankError):
    """A save refused: the kept bank changed elsewhere (another tab) in the same place this
    page changed it. ``ids`` names the questions."""

    def __init__(self, message: str, ids: tuple[str, ...] = ()):
        super().__init__(message)
        self.ids = ids


@dataclass(frozen=True)
class SaveReport:
    """What a save of the working bank did: the bank as kept now, and what came from elsewhere."""

    bank: Bank
    from_elsewhere: tuple[str, ...] = ()
    """Ids of questions added, changed or removed elsewhere (another tab) that the kept bank holds."""


_SAVE_LOCK = threading.Lock()


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the working bank's lock: one save at a time, across threads (sessions of one
    server) and, where the system has ``fcntl``, across processes."""
    with _SAVE_LOCK:
        try:
            import fcntl
        except ImportError:  # Windows: the server is one process, the thread lock is enough
            yield
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_name(path.name + ".lock"), "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)


def save_working_changes(before: Bank | None, after: Bank, path: str | os.PathLike | None = None,
                         owner: str | None = None) -> SaveReport:
    """Keep what one page (a tab) changed in the working bank, and nothing else.

    ``before`` is the bank as that page last read or kept it, ``after`` as it holds it now. The
    kept file is read again under a lock and only the differences are applied to it, questions
    keyed by id: added ones go after the question that precedes them in ``after``, changed ones
    are replaced in place, removed ones are removed; a header field (title, author, system,
    description) is written only where the page changed it. Whatever another tab kept
    meanwhile stays. Where the other tab changed the same question (or took the same new id)
    differently, nothing is written: BankConflict names the questions. ``path`` and ``owner`` as
    for ``save_working_bank``.
    """
    p = working_bank_path(owner) if path is None else Path(path)
    with _locked(p):
        kept = load_working_bank(p)
        old = {q.id: q for q in (before.questions if before else ())}
        new = {q.id: q for q in after.questions}
        now = {q.id: q for q in (kept.questions if kept else ())}
        clashes = []
        for qid in old.keys() | new.keys():
            mine, was, theirs = new.get(qid), old.get(qid), now.get(qid)
            if mine != was and theirs != was and theirs != mine:
                clashes.append(qid)
        if clashes:
            clash_ids = tuple(sorted(clashes))
            raise BankConflict(f"question(s) {', '.join(clash_ids)} were changed in another tab or window since"
                               " this page read the bank; nothing was saved", clash_ids)
        out = [q for q in (kept.questions if kept else ()) if not (q.id in old and q.id not in new)]
        out = [new[q.id] if q.id in new and new[q.id] != old.get(q.id) else q for q in out]
        ids = [q.id for q in out]
        for i, q in enumerate(after.questions):
            if q.id in ids:
                continue
            before_ids = [x.id for x in after.questions[:i] if x.id in ids]
            at = ids.index(before_ids[-1]) + 1 if before_ids else 0
            out.insert(at, q)
            ids.insert(at, q.id)
        header = {}
        for key in ("title", "author", "system", "description"):
            mine, was = getattr(after, key), getattr(before, key) if before else None
            header[key] = mine if kept is None or mine != was else getattr(kept, key)
        merged = replace(kept or after, questions=tuple(out), **header)
        save_bank(merged, p)
    elsewhere = tuple(qid for qid in (now.keys() | old.keys()) if now.get(qid) != old.get(qid)
                      and new.get(qid) == old.get(qid))
    return SaveReport(merged, tuple(sorted(elsewhere)))


def is_hand_record(text: str) -> bool:
    """Whether ``text`` reads as a hand-record file (fiftysix.records), not a quiz bank."""
    from fiftysix.records import parse_records
    try:
        return bool(parse_records(text))
    except FiftySixError:
        return False


def file_stem(title: str, limit: int = 40) -> str:
    """A short, readable file name (no suffix) for a bank's title: its words (letters and
    digits) in lower case, joined by ``-``, cut at a word within ``limit`` characters; "bank" where none is left."""
    words = re.findall(r"[^\W_]+", title.casefold())
    stem = ""
    for w in words:
        nxt = f"{stem}-{w}" if stem else w
        if len(nxt) > limit:
            break
        stem = nxt
    return stem or (words[0][:limit] if words else "bank")


@dataclass(frozen=True)
class MergeReport:
    """What merging one bank into another did."""

    bank: Bank
    added: int
    same: int
    renamed: dict[str, str]


def merge_banks(base: Bank, other: Bank) -> MergeReport:
    """``base`` with the questions of ``other`` added after its own: a question identical to
    one already there (whatever its id) is skipped; one whose id is taken by a different question is added
    under a fresh id (``id-2``, ``id-3``...). ``base``'s title, author and system stay."""
    def content(q: Question) -> str:  # a question's identity: everything but its id
        return json.dumps({k: v for k, v in q.to_dict().items() if k != "id"}, sort_keys=True)

    have = {q.id: q for q in base.questions}
    texts = {content(q) for q in base.questions}
    out = list(base.questions)
    renamed: dict[str, str] = {}
    same = 0
    for q in other.questions:
        if content(q) in texts:
            same += 1
            continue
        qid = q.id
        if qid in have:
            k = 2
            while f"{q.id}-{k}" in have:
                k += 1
            qid = f"{q.id}-{k}"
            renamed[q.id] = qid
            q = Question.from_dict({**q.to_dict(), "id": qid}, default_system=q.context.system)
        have[qid] = q
        texts.add(content(q))
        out.append(q)
    return MergeReport(replace(base, questions=tuple(out)), len(out) - len(base.questions), same, renamed)


# --- CSV (pandas) ---------------------------------------------------------------------------

CSV_COLUMNS = ("id", "type", "system", "players", "deck", "teams", "seat", "auction", "hand",
               "prompt", "choices", "answers", "preferred", "explanation", "tags", "family", "data",
               "bank_title", "bank_author", "bank_system", "bank_description")
"""Lists (choices, answers, tags) and ``data`` are JSON in their cell; bank fields repeat per row."""


def to_csv(bank: Bank) -> str:
    import pandas as pd
    rows = []
    for q in bank.questions:
        c = q.context
        rows.append({
            "id": q.id, "type": q.type, "system": c.system, "players": c.players, "deck": c.deck,
            "teams": c.teams, "seat": c.seat, "auction": c.auction, "hand": c.hand or "",
            "prompt": q.prompt, "choices": json.dumps(list(q.choices), ensure_ascii=False),
            "answers": json.dumps(list(q.answers), ensure_ascii=False), "preferred": q.preferred or "",
            "explanation": q.explanation, "tags": json.dumps(list(q.tags), ensure_ascii=False),
            "family": q.family, "data": json.dumps(dict(q.data), ensure_ascii=False) if q.data else "",
            "bank_title": bank.title, "bank_author": bank.author, "bank_system": bank.system,
            "bank_description": bank.description,
        })
    df = pd.DataFrame(rows, columns=list(CSV_COLUMNS))
    return df.to_csv(index=False, lineterminator="\n")


def from_csv(text: str, source: str = "CSV") -> Bank:
    import warnings

    import pandas as pd
    try:
        with warnings.catch_warnings():
            # a row longer than the header is refused (pandas would drop or shift its cells)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, index_col=False)
    except pd.errors.ParserWarning:
        raise BankError(f"{source}: a row has more fields than the header") from None
    except (ValueError, pd.errors.ParserError, csv.Error) as e:
        raise BankError(f"{source}: cannot read CSV: {' '.join(str(e).split())}") from None
    missing = [c for c in ("id", "type", "prompt", "choices", "answers") if c not in df.columns]
    if missing:
        raise BankError(f"{source}: missing column(s) {', '.join(missing)}")
    if df.empty:
        raise BankError(f"{source}: no questions")
    first = df.iloc[0]
    system = _cell(first, "bank_system") or _cell(first, "system")
    questions = []
    for i, (_, row) in enumerate(df.iterrows()):
        qid = _cell(row, "id") or f"#{i + 1}"
        try:
            d: dict[str, Any] = {
                "id": _cell(row, "id"), "type": _cell(row, "type"), "prompt": _cell(row, "prompt"),
                "context": {k: _cell(row, k) for k in ("system", "players", "deck", "teams", "seat", "auction")
                            if _cell(row, k)},
                "choices": _json_cell(row, "choices", qid), "answers": _json_cell(row, "answers", qid),
                "explanation": _cell(row, "explanation"),
                "tags": _json_cell(row, "tags", qid) if _cell(row, "tags") else [],
                "family": _cell(row, "family"),
            }
            if _cell(row, "hand"):
                d["context"]["hand"] = _cell(row, "hand")
            if _cell(row, "preferred"):
                d["preferred"] = _cell(row, "preferred")
            if _cell(row, "data"):
                d["data"] = _json_cell(row, "data", qid)
            questions.append(Question.from_dict(d, default_system=system))
        except QuestionError as e:
            raise BankError(f"{source} row {i + 2}: {e}") from None
    meta = {"title": _cell(first, "bank_title") or "Imported bank", "system": system,
            "author": _cell(first, "bank_author"), "description": _cell(first, "bank_description")}
    return _bank_from_meta(meta, None, questions, source)


def _cell(row: Any, key: str) -> str:
    return str(row[key]) if key in row.index else ""


def _json_cell(row: Any, key: str, qid: str) -> Any:
    try:
        return loads_json(_cell(row, key), f"question {qid!r}: column {key!r}")
    except InputError:
        raise BankError(f"question {qid!r}: column {key!r} must hold a JSON list, e.g. [\"28H\", \"H28\"]") from None


# --- Moodle GIFT ----------------------------------------------------------------------------

_GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")
_META = "fiftysix:"


def _gift_escape(text: str) -> str:
    return _GIFT_SPECIAL.sub(r"\\\1", text).replace("\n", "\\n")


def _gift_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def question_text(q: Question) -> str:
    """The question as a person reads it outside the app: context, hand, prompt."""
    c = q.context
    lines = [f"{TYPE_TITLES.get(q.type, q.type)} ({c.describe()})"]
    if c.auction:
        lines.append(f"Auction so far: {c.auction}")
    if q.type == "find-card":  # every hand is part of the question
        from fiftysix.drills.problems import position_lines
        lines.extend(position_lines(q))
    elif c.hand:
        lines.append(f"Hand: {c.hand}")
    lines.append(q.prompt)
    return "\n".join(lines)


def to_gift(bank: Bank) -> str:
    """Moodle GIFT: one multiple-choice question per bank question, in a category per bank."""
    out = [f"// {bank.title}" + (f" by {bank.author}" if bank.author else ""),
           f"// {_META}bank {json.dumps(_bank_meta(bank), ensure_ascii=False)}",
           f"$CATEGORY: {bank.title}", ""]
    for q in bank.questions:
        out.append(f"// {_META}question {json.dumps(q.to_dict(), ensure_ascii=False)}")
        answers = [a for a in q.choices if q.is_correct(a)]
        parts = []
        for choice in q.choices:
            if len(answers) == 1:
                mark = "=" if choice in answers else "~"
            else:
                mark = f"~%{_gift_weight(len(answers))}%" if choice in answers else "~%-100%"
            parts.append(f"\t{mark}{_gift_escape(choice)}")
        feedback = f"\t####{_gift_escape(q.explanation)}" if q.explanation else ""
        out.append(f"::{_gift_escape(q.id)}::{_gift_escape(question_text(q))} {{")
        out.extend(parts)
        if feedback:
            out.append(feedback)
        out.append("}")
        out.append("")
    return "\n".join(out)


def _gift_weight(n: int) -> str:
    w = 100 / n
    return f"{w:.5f}".rstrip("0").rstrip(".")


def _bank_meta(bank: Bank) -> dict:
    return {"title": bank.title, "author": bank.author, "system": bank.system,
            "description": bank.description, "version": bank.version}


def from_gift(text: str, source: str = "GIFT", system: str | None = None) -> Bank:
    """Read GIFT written by ``to_gift`` exactly; plain multiple-choice GIFT needs ``system``.

    The reading is a single left-to-right scan (no backtracking patterns), so its work grows
    with the text's length whatever the text holds.
    """
    meta: Mapping = {}
    questions: list[Question] = []
    pending: Mapping | None = None
    for kind, body in _gift_blocks(text, source):
        if kind == "bank":
            meta = body
        elif kind == "question":
            pending = body
        else:  # a GIFT question
            try:
                if pending is not None:
                    questions.append(Question.from_dict(pending, default_system=_text_meta(meta, "system") or system))
                else:
                    questions.append(_plain_gift_question(body, _text_meta(meta, "system") or system,
                                                          len(questions)))
            except QuestionError as e:
                raise BankError(f"{source}: {e}") from None
            pending = None
    return _bank_from_meta(meta, system, questions, source)


def _text_meta(meta: Mapping, key: str) -> str | None:
    v = meta.get(key)
    return v if isinstance(v, str) and v.strip() else None


def _bank_from_meta(meta: Mapping, system: str | None, questions: list[Question], source: str) -> Bank:
    """The bank of an imported file: its header's fields (checked like a JSON bank's) and questions."""
    d = {"format": BANK_FORMAT, "version": meta.get("version", BANK_VERSION),
         "title": meta.get("title", "Imported bank"), "system": meta.get("system") or system,
         "author": meta.get("author", ""), "description": meta.get("description", "")}
    if not d["system"]:
        raise BankError(f"{source}: no system given; say which system the questions are about")
    problems = header_problems(d)
    if problems:
        raise BankError(f"{source}: the bank header: {problems[0]}")
    return Bank(d["title"], d["system"], tuple(questions), d["author"], d["description"], d["version"])


def _meta_comment(body: str, source: str) -> tuple[str, Mapping]:
    """``fiftysix:bank {...}`` or ``fiftysix:question {...}`` -> (kind, the object)."""
    kind, _, payload = body[len(_META):].partition(" ")
    if kind not in ("bank", "question"):
        raise BankError(f"{source}: unknown {_META} line {_META}{kind[:40]!r}: expected {_META}bank"
                        f" or {_META}question")
    try:
        value = loads_json(payload, f"{source}: the {_META}{kind} record")
    except InputError as e:
        raise BankError(str(e)) from None
    if not isinstance(value, Mapping):
        raise BankError(f"{source}: the {_META}{kind} record must be a JSON object, got {type(value).__name__}")
    return kind, value


def _gift_blocks(text: str, source: str = "GIFT") -> Iterable[tuple[str, Any]]:
    """Yield ("bank", dict), ("question", dict) for metadata comments and ("gift", str) per question."""
    buf: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if not buf and s.startswith("//"):
            body = s[2:].strip()
            if body.startswith(_META):
                yield _meta_comment(body, source)
            continue
        if not buf and (not s or s.startswith("$CATEGORY")):
            continue
        buf.append(line)
        if s.endswith("}") and not _escaped_at(s, len(s) - 1):
            yield "gift", "\n".join(buf)
            buf = []
    if buf:
        raise BankError(f"{source}: a question is not closed with '}}'")


def _escaped_at(text: str, i: int) -> bool:
    """Is ``text[i]`` escaped (an odd run of backslashes before it)?"""
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def _find(text: str, token: str, start: int = 0) -> int:
    """The index of the first unescaped ``token`` at or after ``start``, or -1 (one linear scan)."""
    i, n = start, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if text.startswith(token, i):
            return i
        i += 1
    return -1


def _split_marks(text: str) -> list[str]:
    """Split an answer list before each unescaped ``~`` or ``=``; the first piece is what precedes."""
    parts, start, i, n = [], 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "~=":
            parts.append(text[start:i])
            start = i
        i += 1
    parts.append(text[start:])
    return parts


_WEIGHT = re.compile(r"-?[0-9]{1,3}(?:\.[0-9]{1,5})?")


def _plain_gift_question(body: str, system: str | None, n: int) -> Question:
    where = f"question #{n + 1}"
    rest = body.strip()
    title = ""
    if rest.startswith("::"):
        end = _find(rest, "::", 2)
        if end < 0:
            raise QuestionError(f"{where}: the title opened with :: is not closed with ::")
        title, rest = rest[2:end], rest[end + 2:]
    brace = _find(rest, "{")
    if brace < 0 or not rest.endswith("}") or _escaped_at(rest, len(rest) - 1):
        raise QuestionError(f"{where}: cannot read it as GIFT multiple choice (text {{answers}})")
    prompt, ans = rest[:brace], rest[brace + 1:-1]
    qid = _gift_unescape(title or f"q{n + 1}").strip()
    explanation = ""
    cut = _find(ans, "####")
    if cut >= 0:
        ans, explanation = ans[:cut], ans[cut + 4:]
    pieces = _split_marks(ans)
    if pieces[0].strip():
        raise QuestionError(f"{where}: text before the first answer mark (~ or =): {pieces[0].strip()[:40]!r}")
    choices, answers = [], []
    for piece in pieces[1:]:
        mark, choice = piece[0], piece[1:]
        weight = None
        if choice.startswith("%"):
            close = choice.find("%", 1)
            weight = choice[1:close] if close > 0 else choice[1:]
            if close < 0 or not _WEIGHT.fullmatch(weight):
                raise QuestionError(f"{where}: answer weight %{weight[:20]}% is not a percentage such as %50%")
            choice = choice[close + 1:]
        feedback = _find(choice, "#")
        c = _gift_unescape(choice if feedback < 0 else choice[:feedback]).strip()
        choices.append(c)
        if mark == "=" or (weight is not None and float(weight) > 0):
            answers.append(c)
    d = {"id": qid, "type": "meaning", "prompt": _gift_unescape(prompt).strip(),
         "choices": choices, "answers": answers, "explanation": _gift_unescape(explanation).strip(),
         "context": {"system": system} if system else {}}
    return Question.from_dict(d, default_system=system)


# --- Anki ------------------------------------------------------------------------------------

def to_anki(bank: Bank) -> str:
    """Anki text import (Basic note type): guid, Front, Back, Tags, with file headers.

    Anki reads the ``#`` headers (2.1.55+); the Back field ends with an HTML comment that
    holds the question's record, which Anki keeps but does not show.
    """
    buf = io.StringIO()
    buf.write("#separator:comma\n#html:true\n#notetype:Basic\n")
    buf.write(f"#deck:{bank.title}\n#guid column:1\n#tags column:4\n")
    buf.write(f"#{_META}bank {json.dumps(_bank_meta(bank), ensure_ascii=False)}\n")
    w = csv.writer(buf, lineterminator="\n")
    for q in bank.questions:
        front = "<br>".join(html.escape(line) for line in question_text(q).split("\n"))
        front += "<ol type=\"a\">" + "".join(f"<li>{html.escape(c)}</li>" for c in q.choices) + "</ol>"
        right = [c for c in q.choices if q.is_correct(c)]
        back = "<b>" + html.escape(" / ".join(right)) + "</b>"
        if q.preferred and len(right) > 1:
            back += f" (best: {html.escape(q.preferred)})"
        if q.explanation:
            back += "<br>" + html.escape(q.explanation).replace("\n", "<br>")
        record = json.dumps(q.to_dict(), ensure_ascii=True).replace("--", "-\\u002d")
        back += f"<!--{_META}{record}-->"
        tags = " ".join(t.replace(" ", "_") for t in (*q.tags, q.type, q.context.system))
        w.writerow([q.id, front, back, tags])
    return buf.getvalue()


def from_anki(text: str, source: str = "Anki CSV") -> Bank:
    meta: Mapping[str, Any] = {}
    body_lines: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") and not body_lines:
            if line.startswith(f"#{_META}"):
                _, meta = _meta_comment(line[1:].strip(), source)
                if _ != "bank":
                    raise BankError(f"{source}: a #{_META}question line belongs in a note's Back field")
            continue
        body_lines.append(line)
    questions = []
    marker = f"<!--{_META}"
    try:
        rows = list(csv.reader(io.StringIO("".join(body_lines))))
    except csv.Error as e:
        raise BankError(f"{source}: cannot read the CSV: {e}") from None
    for n, row in enumerate(rows):
        if not row:
            continue
        back = row[2] if len(row) > 2 else ""
        start = back.find(marker)
        end = back.find("-->", start + len(marker)) if start >= 0 else -1
        if end < 0:
            raise BankError(f"{source} row {n + 1}: no fiftysix record in the Back field;"
                            " only Anki files exported by fiftysix can be imported")
        try:
            record = loads_json(back[start + len(marker):end], f"{source} row {n + 1}")
            questions.append(Question.from_dict(record, default_system=_text_meta(meta, "system")))
        except InputError as e:
            raise BankError(str(e)) from None
        except QuestionError as e:
            raise BankError(f"{source} row {n + 1}: {e}") from None
    system = _text_meta(meta, "system") or (questions[0].context.system if questions else None)
    if not system:
        raise BankError(f"{source}: no questions and no bank header")
    return _bank_from_meta(meta, system, questions, source)


# --- by format name ---------------------------------------------------------------------------

def export_text(bank: Bank, fmt: str) -> str:
    """The bank in one of FORMATS."""
    writers = {"json": dumps, "csv": to_csv, "gift": to_gift, "anki": to_anki}
    if fmt not in writers:
        raise BankError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    return writers[fmt](bank)


def import_text(text: str, fmt: str, source: str = "bank", system: str | None = None) -> Bank:
    """Read a bank from text in one of FORMATS (at most MAX_BANK_BYTES of UTF-8)."""
    readers = {"json": lambda: loads(text, source), "csv": lambda: from_csv(text, source),
               "gift": lambda: from_gift(text, source, system), "anki": lambda: from_anki(text, source)}
    if fmt not in readers:
        raise BankError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BANK_BYTES:
        raise BankError(f"{source}: the file is {size_text(size)}; at most {size_text(MAX_BANK_BYTES)} is read")
    return readers[fmt]()


def guess_format(path: str | os.PathLike, text: str | None = None) -> str:
    """Format from the file name (.json .csv .gift .txt) and, for CSV, the Anki headers."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".gift",):
        return "gift"
    if text is not None and text.startswith("#separator:"):
        return "anki"
    if suffix in (".csv", ".tsv"):
        return "csv"
    if suffix == ".txt":
        return "anki" if text is not None and text.startswith("#") else "gift"
    raise BankError(f"cannot tell the format of {path}: use .json, .csv, .gift or give --format")
