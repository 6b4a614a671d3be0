"""Checking a quiz bank against the engine: ``fiftysix bank check``.

Every question is checked on its own and every problem is reported with the question's
id; nothing is accepted or dropped silently. The problem kinds:

* ``format``  - the question (or bank) does not follow docs/banks.md
* ``system``  - no such bidding system
* ``hand``    - a hand that cannot exist (wrong size, a card not in the deck, a third
  copy, or cards other seats' calls have promised)
* ``auction`` - an auction the system does not allow (the message says which call, why)
* ``answer``  - an answer the system disagrees with (or a wrong choice that is right)
* ``unchecked`` - a question the engine cannot check as written (says what is missing)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from fiftysix.bidding import Auction, get_system
from fiftysix.bidding.calls import parse_call, parse_calls
from fiftysix.cards import COPIES, Hand, Table
from fiftysix.constraints import Constraint, Count, fits, from_dict, implied, implies_all, required_parts
from fiftysix.drills.banks import Bank, BankError, header_problems, read_bank_text
from fiftysix.drills.questions import (
    MAKEABLE_BANDS,
    Question,
    QuestionError,
    call_key,
    fold,
    makeable_bands,
    promise_text,
)
from fiftysix.errors import FiftySixError
from fiftysix.textio import InputError
from fiftysix.textio import loads as loads_json

KINDS = ("format", "system", "hand", "auction", "answer", "unchecked")


@dataclass(frozen=True)
class Problem:
    """One problem with one question (``id`` "-" for the bank itself)."""

    id: str
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.id}: {self.kind}: {self.message}"

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "message": self.message}


def check_file(path: str | Path) -> tuple[Bank | None, list[Problem]]:
    """Read and check a bank file; the bank is None when its structure could not be read."""
    text = read_bank_text(path)  # a file that cannot be read at all is a BankError
    try:
        d = loads_json(text, str(path))
    except InputError as e:
        return None, [Problem("-", "format", _strip_prefix(str(e), str(path)))]
    return check_dict(d)


def check_dict(d: Mapping) -> tuple[Bank | None, list[Problem]]:
    """Check a bank dict question by question: structure first, then the engine."""
    problems: list[Problem] = []
    if not isinstance(d, Mapping):
        return None, [Problem("-", "format", "a bank must be a JSON object")]
    problems.extend(Problem("-", "format", msg) for msg in header_problems(d))  # the loader's own rules
    raw = d.get("questions")
    if not isinstance(raw, list):
        return None, problems + [Problem("-", "format", "'questions' must be a list")]
    questions: list[Question] = []
    seen: set[str] = set()
    for i, qd in enumerate(raw):
        raw_id = qd.get("id") if isinstance(qd, Mapping) else None
        qid = raw_id if isinstance(raw_id, str) else f"#{i + 1}"
        try:
            q = Question.from_dict(qd, default_system=d.get("system") if isinstance(d.get("system"), str) else None,
                                   index=i)
        except QuestionError as e:
            problems.append(Problem(qid, "format", _strip_prefix(str(e), qid)))
            continue
        if q.id in seen:
            problems.append(Problem(q.id, "format", "the id is used twice in the bank"))
            continue
        seen.add(q.id)
        questions.append(q)
        problems.extend(check_question(q))
    bank = None
    if not problems or all(p.id != "-" for p in problems):
        try:
            bank = Bank.from_dict({**d, "questions": [q.to_dict() for q in questions]})
        except BankError:
            bank = None
    return bank, problems


def check_bank(bank: Bank) -> list[Problem]:
    """Engine problems of every question of a (structurally valid) bank."""
    out: list[Problem] = []
    for q in bank.questions:
        out.extend(check_question(q))
    return out


def _strip_prefix(msg: str, qid: str) -> str:
    for p in (f"question {qid!r}: ", f"question {qid}: ", f"{qid}: "):
        if msg.startswith(p):
            return msg[len(p):]
    return msg


# --- one question ---------------------------------------------------------------------------------

def check_question(q: Question) -> list[Problem]:
    """Every problem the engine finds with one question."""
    def bad(kind: str, msg: str) -> list[Problem]:
        return [Problem(q.id, kind, msg)]
    c = q.context
    try:
        get_system(c.system)
    except FiftySixError as e:
        return bad("system", str(e))
    table = c.table
    hand = None
    if c.hand is not None:
        hand = Hand.parse(c.hand)
        msg = _impossible_hand(hand, table)
        if msg:
            return bad("hand", msg)
    try:
        calls = parse_calls(c.auction) if c.auction.strip() else []
    except FiftySixError as e:
        return bad("auction", str(e))
    auction = Auction(system=c.system, table=table)
    for i, call in enumerate(calls, start=1):
        seat = auction.to_move
        if auction.is_over:
            return bad("auction", f"call {i} ({call}) comes after the auction has ended")
        rule = auction.check(call, hand if seat == c.seat else None)
        if rule is not None:
            return bad("auction", f"call {i} ({call}) by seat {seat}: {rule}")
        auction.apply(call)
    if hand is not None:
        msg = _conflicts_with_promises(hand, auction, c.seat)
        if msg:
            return bad("hand", msg)
    try:
        checker = _CHECKERS[q.type]
    except KeyError:
        return bad("format", f"unknown type {q.type!r}")
    try:
        found = checker(q, auction, hand)
    except FiftySixError as e:  # e.g. a choice that is not a call where a call is needed
        found = [("format", str(e))]
    return [Problem(q.id, kind, msg) for kind, msg in found]


def _impossible_hand(hand: Hand, table: Table) -> str | None:
    in_deck = set(table.kinds())
    for card in hand:
        if card not in in_deck:
            return f"the hand holds {card}, which is not in the {table.deck}-card deck"
    for kind in set(hand.cards):
        if hand.count(kind) > COPIES:
            return f"the hand holds {hand.count(kind)} copies of {kind}; the deck has {COPIES}"
    if len(hand) != table.hand_size:
        return f"the hand has {len(hand)} cards; this table deals {table.hand_size}"
    return None


def _conflicts_with_promises(hand: Hand, auction: Auction, seat: int) -> str | None:
    """Cards the hand holds that other seats' calls have promised (more than 2 copies in all)."""
    from fiftysix.cards import CARD_NAMES
    need: dict[int, dict[int, int]] = {}  # kind -> seat -> copies that seat promised
    for s, c in auction.seat_constraints().items():
        if s == seat:
            continue
        for part in required_parts(c):
            if len(part.kinds) == 1 and part.lo > 0:
                per = need.setdefault(part.kinds[0], {})
                per[s] = max(per.get(s, 0), min(part.lo, COPIES))
    for kind, per in sorted(need.items()):
        if hand.count(kind) + sum(per.values()) > COPIES:
            who = ", ".join(f"seat {s} ({n})" for s, n in sorted(per.items()))
            return (f"the hand holds {hand.count(kind)} {CARD_NAMES[kind]} but {who} promised"
                    f" {'it' if sum(per.values()) == 1 else 'copies'}: that hand cannot exist after this auction")
    return None


def _compare(q: Question, right: set[str], key, what: str) -> list[tuple[str, str]]:
    """Problems where the question's answers differ from the engine's right set (by ``key``)."""
    out = []
    answers = {key(a) for a in q.answers}
    for a in q.answers:
        if key(a) not in right:
            out.append(("answer", f"the stated answer {a!r} is wrong: {what}"))
    for ch in q.choices:
        if key(ch) in right and key(ch) not in answers:
            out.append(("answer", f"choice {ch!r} is also right but is not among the answers: {what}"))
    return out


def _check_meaning(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    call_text = q.data.get("call")
    if not isinstance(call_text, str):
        return [("unchecked", "a meaning question needs data.call (the call asked about)")]
    try:
        call = parse_call(call_text)
    except FiftySixError as e:
        return [("format", f"data.call: {e}")]
    rule = auction.check(call)
    if rule is not None:
        return [("auction", f"{call} cannot be called after {q.context.auction or 'no calls'}: {rule}")]
    m = auction.meaning_of(call)
    right = {fold(promise_text(m)), fold(m.sentence), fold(m.label)}
    if not any(fold(c) in right for c in q.choices):
        return [("answer", f"no choice gives the system's meaning of {call}: {promise_text(m)!r}")]
    return _compare(q, right, fold, f"the system says {call} promises {promise_text(m)!r}")


def _check_which_call(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    if auction.is_over:
        return [("auction", "the auction is over: there is no call to make")]
    target = q.data.get("meaning")
    if not isinstance(target, str):
        rule = auction.check(q.answers[0])
        if rule is not None:
            return [("answer", f"the stated answer {q.answers[0]} cannot be called here: {rule}")]
        target = promise_text(auction.meaning_of(q.answers[0]))
    right: set[str] = set()
    for ch in q.choices:
        if auction.check(ch) is None:
            m = auction.meaning_of(ch)
            if fold(target) in (fold(promise_text(m)), fold(m.sentence)):
                right.add(call_key(ch) or ch)
    if not right:
        return [("answer", f"no choice is a legal call here that promises {target!r}")]
    return _compare(q, right, lambda t: call_key(t) or t,
                    f"of the choices, {', '.join(sorted(right))} promise {target!r} here")


def _check_your_call(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    if hand is None:
        return [("unchecked", "a your-call question needs context.hand")]
    if auction.is_over:
        return [("auction", "the auction is over: there is no call to make")]
    if auction.to_move != q.context.seat:
        return [("auction", f"seat {auction.to_move} is to call after this auction, not seat {q.context.seat}")]
    right: set[str] = set()
    for ch in q.choices:
        if auction.check(ch, hand) is None and fits(hand, auction.meaning_of(ch, hand).constraint):
            right.add(call_key(ch) or ch)
    out = _compare(q, right, lambda t: call_key(t) or t,
                   f"of the choices, the calls this hand may truthfully make here are"
                   f" {', '.join(sorted(right)) or 'none'}")
    if q.preferred and call_key(q.preferred) not in right:
        out.append(("answer", f"the preferred answer {q.preferred} is not a truthful call with this hand"))
    return out


def _check_partner_holds(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    about = q.data.get("about_seat")
    raw = q.data.get("answer_constraint")
    if not isinstance(about, int) or not 1 <= about <= q.context.players:
        return [("unchecked", "a partner-holds question needs data.about_seat (a seat number)")]
    if not isinstance(raw, Mapping):
        return [("unchecked", "a partner-holds question needs data.answer_constraint to be checked")]
    try:
        claim = from_dict(raw)
    except FiftySixError as e:
        return [("format", f"data.answer_constraint: {e}")]
    promised = auction.seat_constraints().get(about)
    parts = required_parts(promised)
    for cl in required_parts(claim):
        if not implied(cl, parts):
            what = promised.describe() if promised is not None else "nothing"
            return [("answer", f"seat {about} has not promised {cl.describe()!r}; the auction promises: {what}")]
    return _check_statements(q, about, promised, parts)


def _check_statements(q: Question, about: int, promised: Constraint | None,
                      parts: list[Count]) -> list[tuple[str, str]]:
    """With ``data.statements`` (choice -> constraint) and optionally ``data.witness`` (a hand
    the promises allow): a promised statement must be an answer, and a statement the witness
    breaks must not be."""
    statements = q.data.get("statements")
    if statements is None:
        return []
    if not isinstance(statements, Mapping):
        return [("format", "data.statements must map each choice to its constraint")]
    witness = None
    if q.data.get("witness") is not None:
        try:
            witness = Hand.parse(str(q.data["witness"]))
        except FiftySixError as e:
            return [("format", f"data.witness: {e}")]
        if promised is not None and not fits(witness, promised):
            return [("hand", f"the witness hand {witness} breaks seat {about}'s promises")]
    out = []
    answers = {fold(a) for a in q.answers}
    for text, raw in statements.items():
        try:
            c = from_dict(raw)
        except FiftySixError as e:
            out.append(("format", f"data.statements[{text!r}]: {e}"))
            continue
        is_answer = fold(text) in answers
        if not is_answer and implies_all(c, parts):
            out.append(("answer", f"choice {text!r} is promised too (seat {about}'s calls imply it)"
                                  " but is not among the answers"))
        if is_answer and witness is not None and not fits(witness, c):
            out.append(("answer", f"the answer {text!r} is not promised: the hand {witness} keeps every"
                                  f" promise of seat {about} and breaks it"))
    return out


def _check_makeable(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    iv = q.data.get("interval")
    if not (isinstance(iv, list) and len(iv) == 2 and all(isinstance(x, (int, float)) for x in iv)):
        return [("unchecked", "a makeable question needs data.interval [low, high]")]
    lo, hi = iv
    right = set(makeable_bands(lo, hi))
    if not set(q.choices) <= set(MAKEABLE_BANDS):
        return [("unchecked", f"makeable choices must be the bands {', '.join(MAKEABLE_BANDS)}")]
    if not auction.is_over:
        return [("auction", "the auction has not ended: there is no contract yet")]
    return _compare(q, right, lambda t: t, f"the estimate's interval is {lo:.0%} to {hi:.0%}")


def _check_play_problem(q: Question, auction: Auction, hand: Hand | None) -> list[tuple[str, str]]:
    """A play problem's data checked for consistency (no solving: ``fiftysix problems check``
    re-solves every problem of a bank)."""
    from fiftysix.drills.problems import consistency
    return [("answer", m) for m in consistency(q)]


_CHECKERS = {"meaning": _check_meaning, "which-call": _check_which_call, "your-call": _check_your_call,
             "partner-holds": _check_partner_holds, "makeable": _check_makeable,
             "find-card": _check_play_problem, "opening-lead": _check_play_problem}
