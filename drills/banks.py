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
import html
import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from fiftysix.errors import FiftySixError
from drills.questions import TYPE_TITLES, Question, QuestionError

BANK_FORMAT = "fiftysix-bank"
BANK_VERSION = 1
FORMATS = ("json", "csv", "gift", "anki")


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
    def from_dict(cls, d: Mapping, source: str = "bank") -> "Bank":
        """Read a bank dict, validating every question; errors name the question's id."""
        if not isinstance(d, Mapping):
            raise BankError(f"{source}: a bank must be a JSON object, got {type(d).__name__}")
        if d.get("format", BANK_FORMAT) != BANK_FORMAT:
            raise BankError(f"{source}: format is {d.get('format')!r}, expected {BANK_FORMAT!r}")
        version = d.get("version", BANK_VERSION)
        if not isinstance(version, int) or isinstance(version, bool):
            raise BankError(f"{source}: 'version' must be a whole number")
        if version > BANK_VERSION:
            raise BankError(f"{source}: bank format version {version} is newer than this program"
                            f" reads ({BANK_VERSION}); update fiftysix")
        for key in ("title", "system"):
            if not isinstance(d.get(key), str) or not d[key].strip():
                raise BankError(f"{source}: the bank needs a {key!r} (text)")
        qs = d.get("questions")
        if not isinstance(qs, list):
            raise BankError(f"{source}: 'questions' must be a list")
        questions = []
        for i, qd in enumerate(qs):
            try:
                questions.append(Question.from_dict(qd, default_system=d["system"], index=i))
            except QuestionError as e:
                raise BankError(f"{source}: {e}") from None
        known = {"format", "version", "title", "author", "system", "description", "questions"}
        extra = {k: v for k, v in d.items() if k not in known}
        try:
            return cls(d["title"], d["system"], tuple(questions), str(d.get("author", "")),
                       str(d.get("description", "")), version, extra)
        except BankError as e:
            raise BankError(f"{source}: {e}") from None


# --- JSON files ----------------------------------------------------------------------------

def dumps(bank: Bank) -> str:
    return json.dumps(bank.to_dict(), ensure_ascii=False, indent=2) + "\n"


def loads(text: str, source: str = "bank") -> Bank:
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise BankError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    return Bank.from_dict(d, source)


def load_bank(path: str | os.PathLike) -> Bank:
    """Read a bank from a JSON file (the format of docs/banks.md)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise BankError(f"cannot read {p}: {e.strerror or e}") from None
    return loads(text, str(p))


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.chmod(tmp, _file_mode(p))
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _file_mode(p: Path) -> int:
    """The target's permissions if it exists, else what a plain new file would get."""
    try:
        return p.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def save_bank(bank: Bank, path: str | os.PathLike) -> None:
    """Write a bank as JSON, atomically (readers never see a half-written file)."""
    write_atomic(path, dumps(bank))


# --- the coach's working bank ------------------------------------------------------------------

WORKING_BANK = "coach-bank.json"
"""The bank the Coach page is building, kept in the data folder so a reload keeps it."""


def working_bank_path() -> Path:
    from drills.store import data_dir
    return data_dir() / WORKING_BANK


def save_working_bank(bank: Bank, path: str | os.PathLike | None = None) -> None:
    """Keep the coach's bank being built (atomically), in the data folder by default."""
    save_bank(bank, working_bank_path() if path is None else path)


def load_working_bank(path: str | os.PathLike | None = None) -> Bank | None:
    """The coach's bank being built, or None when there is none yet."""
    p = working_bank_path() if path is None else Path(path)
    if not p.exists():
        return None
    return load_bank(p)


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
    import pandas as pd
    try:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (ValueError, pd.errors.ParserError) as e:
        raise BankError(f"{source}: cannot read CSV: {e}") from None
    missing = [c for c in ("id", "type", "prompt", "choices", "answers") if c not in df.columns]
    if missing:
        raise BankError(f"{source}: missing column(s) {', '.join(missing)}")
    if df.empty:
        raise BankError(f"{source}: no questions")
    first = df.iloc[0]
    system = _cell(first, "bank_system") or _cell(first, "system")
    questions = []
    for i, row in df.iterrows():
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
            raise BankError(f"{source} row {int(i) + 2}: {e}") from None
    return Bank(_cell(first, "bank_title") or "Imported bank", system, tuple(questions),
                _cell(first, "bank_author"), _cell(first, "bank_description"))


def _cell(row: Any, key: str) -> str:
    return str(row[key]) if key in row.index else ""


def _json_cell(row: Any, key: str, qid: str) -> Any:
    try:
        return json.loads(_cell(row, key))
    except json.JSONDecodeError:
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
    if c.hand:
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
    """Read GIFT written by ``to_gift`` exactly; plain multiple-choice GIFT needs ``system``."""
    meta: dict = {}
    questions: list[Question] = []
    pending: dict | None = None
    for block in _gift_blocks(text):
        kind, body = block
        if kind == "bank":
            meta = body
        elif kind == "question":
            pending = body
        else:  # a GIFT question
            try:
                if pending is not None:
                    questions.append(Question.from_dict(pending, default_system=meta.get("system", system)))
                else:
                    questions.append(_plain_gift_question(body, meta.get("system", system), len(questions)))
            except QuestionError as e:
                raise BankError(f"{source}: {e}") from None
            pending = None
    bank_system = meta.get("system") or system
    if not bank_system:
        raise BankError(f"{source}: no system given; say which system the questions are about")
    return Bank(meta.get("title", "Imported bank"), bank_system, tuple(questions), meta.get("author", ""),
                meta.get("description", ""))


def _gift_blocks(text: str) -> Iterable[tuple[str, Any]]:
    """Yield ("bank", dict), ("question", dict) for metadata comments and ("gift", str) per question."""
    buf: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if not buf and s.startswith("//"):
            body = s[2:].strip()
            if body.startswith(_META):
                kind, _, payload = body[len(_META):].partition(" ")
                try:
                    yield kind, json.loads(payload)
                except json.JSONDecodeError:
                    raise BankError(f"GIFT: damaged {_META} comment: {body[:60]}...") from None
            continue
        if not buf and (not s or s.startswith("$CATEGORY")):
            continue
        buf.append(line)
        if re.search(r"(?<!\\)}\s*$", s):
            yield "gift", "\n".join(buf)
            buf = []
    if buf:
        raise BankError("GIFT: a question is not closed with '}'")


def _plain_gift_question(body: str, system: str | None, n: int) -> Question:
    m = re.match(r"\s*(?:::(?P<title>(?:\\.|[^:])*)::)?(?P<text>(?:\\.|[^{])*)\{(?P<ans>.*)\}\s*$", body, re.S)
    if not m:
        raise QuestionError(f"question #{n + 1}: cannot read it as GIFT multiple choice")
    qid = _gift_unescape(m.group("title") or f"q{n + 1}").strip()
    ans = m.group("ans")
    explanation = ""
    if "####" in ans:
        ans, _, explanation = ans.partition("####")
    choices, answers = [], []
    for mark, weight, choice in re.findall(r"([~=])(?:%(-?[\d.]+)%)?((?:\\.|[^~=])*)", ans):
        c = _gift_unescape(re.split(r"(?<!\\)#", choice)[0]).strip()
        choices.append(c)
        if mark == "=" or (weight and float(weight) > 0):
            answers.append(c)
    d = {"id": qid, "type": "meaning", "prompt": _gift_unescape(m.group("text")).strip(),
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
    meta: dict = {}
    body_lines = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") and not body_lines:
            if line.startswith(f"#{_META}bank "):
                try:
                    meta = json.loads(line[len(_META) + 6:])
                except json.JSONDecodeError:
                    raise BankError(f"{source}: damaged #{_META}bank header") from None
            continue
        body_lines.append(line)
    questions = []
    for n, row in enumerate(csv.reader(io.StringIO("".join(body_lines)))):
        if not row:
            continue
        m = re.search(r"<!--" + re.escape(_META) + r"(.*?)-->", row[2] if len(row) > 2 else "", re.S)
        if not m:
            raise BankError(f"{source} row {n + 1}: no fiftysix record in the Back field;"
                            " only Anki files exported by fiftysix can be imported")
        try:
            questions.append(Question.from_dict(json.loads(m.group(1)), default_system=meta.get("system")))
        except (QuestionError, json.JSONDecodeError) as e:
            raise BankError(f"{source} row {n + 1}: {e}") from None
    system = meta.get("system") or (questions[0].context.system if questions else None)
    if not system:
        raise BankError(f"{source}: no questions and no bank header")
    return Bank(meta.get("title", "Imported bank"), system, tuple(questions), meta.get("author", ""),
                meta.get("description", ""))


# --- by format name ---------------------------------------------------------------------------

def export_text(bank: Bank, fmt: str) -> str:
    """The bank in one of FORMATS."""
    writers = {"json": dumps, "csv": to_csv, "gift": to_gift, "anki": to_anki}
    if fmt not in writers:
        raise BankError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    return writers[fmt](bank)


def import_text(text: str, fmt: str, source: str = "bank", system: str | None = None) -> Bank:
    """Read a bank from text in one of FORMATS."""
    if fmt == "json":
        return loads(text, source)
    if fmt == "csv":
        return from_csv(text, source)
    if fmt == "gift":
        return from_gift(text, source, system)
    if fmt == "anki":
        return from_anki(text, source)
    raise BankError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")


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
