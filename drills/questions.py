"""Quiz questions: one dataclass for generated questions and coaches' questions alike.

A question carries its whole context (system, table, the seat asked about, the auction so
far, the learner's hand where it matters), the prompt, the choices, every right answer,
the preferred one, an explanation and tags. ``to_dict`` / ``from_dict`` give the JSON form
used by quiz banks (docs/banks.md); ``from_dict`` reports a malformed question by its id.

The five question types (their ``type`` strings):

* ``meaning``        - what does this call mean? (``data["call"]`` is the call asked about)
* ``which-call``     - which call shows this holding?
* ``your-call``      - your hand and the auction: what does the system bid?
* ``partner-holds``  - what must a seat hold? (``data["about_seat"]``)
* ``makeable``       - will the contract make? graded against a Monte Carlo estimate
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fiftysix import glossary
from fiftysix.bidding.calls import format_call, parse_call
from fiftysix.bidding.meaning import promise_text  # noqa: F401  (re-exported for the quiz modules)
from fiftysix.cards import DEFAULT_DECK, Card, Hand, Table
from fiftysix.errors import FiftySixError

QUESTION_TYPES = ("meaning", "which-call", "your-call", "partner-holds", "makeable")
PROBLEM_TYPES = ("find-card", "opening-lead")
"""The play problems' types (``drills.problems``): a card to pick, scheduled one problem each."""
PROBLEM_IDEA = "problem:"
"""The scheduling key of a play problem is this and its id: each problem is its own idea."""
TYPE_TITLES = {
    "meaning": "What does this call mean?",
    "which-call": "Which call shows this?",
    "your-call": "Your call",
    "partner-holds": "What must they hold?",
    "makeable": "Makeable?",
    "find-card": "Find the card",
    "opening-lead": "Opening lead",
}
CALL_CHOICE_TYPES = ("which-call", "your-call")
"""Types whose choices are calls (compared in canonical call notation)."""
MAKEABLE_BANDS = ("under 25%", "25% to 50%", "50% to 75%", "75% or more")
"""The choices of a ``makeable`` question: how often the contract makes."""
_BAND_EDGES = ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))
MAX_CHOICES = 26
"""The most choices a question may have (answered by letter a..z)."""


def makeable_bands(lo: float, hi: float) -> tuple[str, ...]:
    """The bands that overlap the estimate's interval [lo, hi]: each counts as right."""
    return tuple(b for b, (a, z) in zip(MAKEABLE_BANDS, _BAND_EDGES) if a <= hi and lo <= z)


def parse_template(key: str) -> tuple[str, str, Table, str]:
    """A ``Question.template`` key read back: (type, system, table, family); the table has
    the usual deck for its size (the key does not name the deck)."""
    try:
        qtype, system, table, family = key.split("/", 3)
        players = int(table.split("p", 1)[0])
        return qtype, system, Table.make(players, None, "pairs" if table.endswith("-pairs") else "alternate"), family
    except (ValueError, FiftySixError):
        raise QuestionError(f"{key!r} is not a question idea (type/system/table/family)") from None


def _family_words() -> dict[str, str]:
    """Each call family (the keys questions carry) as the Glossary and the Explain page name it, with an
    example call: "Number then suit (28H)", not the code's "suit" or "number-suit"."""
    out = {kind.replace("_", "-"): f"{fam.title} ({fam.example})" for kind, fam in glossary.FAMILIES.items()}
    return out | {"contract": "the contract", "-": "mixed"}


FAMILY_WORDS = _family_words()
"""A question's call family (``Question.family``) in a player's words, for titles and charts."""


def family_words(family: str) -> str:
    """A question's family in a player's words: a call family, or a play problem's level (``level-2``
    is "Play problems, level 2")."""
    if family.startswith("level-") and family[len("level-"):].isdigit():
        return f"Play problems, level {family[len('level-'):]}"
    return FAMILY_WORDS.get(family, family)


def problem_title(kind: str, family: str, players: int) -> str:
    """A play problem's idea in words, from what its review keeps: "Play problem: Find the card,
    level 2 · 6 players" (its key holds only the problem's id)."""
    level = family[len("level-"):] if family.startswith("level-") else ""
    return (f"Play problem: {TYPE_TITLES.get(kind, kind)}" + (f", level {level}" if level else "")
            + (f" · {players} players" if players else ""))


def idea_title(key: str) -> str:
    """A question idea (template key) in words, e.g. "Your call: Plus N (+1H) · international,
    6 players"."""
    if key.startswith(PROBLEM_IDEA):
        return f"Play problem {key[len(PROBLEM_IDEA):]}"
    try:
        qtype, system, table, family = parse_template(key)
    except QuestionError:
        return key
    where = f"{system}, {table.players} players{', pairs' if table.teams == 'pairs' else ''}"
    return f"{TYPE_TITLES.get(qtype, qtype).rstrip('?')}: {FAMILY_WORDS.get(family, family)} · {where}"


class QuestionError(FiftySixError):
    """A question that is malformed: the message names the question's id."""


@dataclass(frozen=True)
class Context:
    """Where a question stands: system, table, the seat asked about, auction, hand."""

    system: str
    players: int = 6
    deck: int = 48
    teams: str = "alternate"
    seat: int = 1
    auction: str = ""
    hand: str | None = None

    @property
    def table(self) -> Table:
        return Table(self.players, self.deck, self.teams)

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"system": self.system, "players": self.players, "deck": self.deck,
                             "teams": self.teams, "seat": self.seat, "auction": self.auction}
        if self.hand is not None:
            d["hand"] = self.hand
        return d

    @classmethod
    def from_dict(cls, d: Mapping, default_system: str | None = None) -> Context:
        """Read a context; ``deck`` defaults from the table size, ``system`` from the bank."""
        if not isinstance(d, Mapping):
            raise QuestionError(f"context must be an object, got {type(d).__name__}")
        system = d.get("system", default_system)
        if not system or not isinstance(system, str):
            raise QuestionError("context has no system (give one in the question or the bank)")
        players = _int_field(d, "players", 6)
        deck = _int_field(d, "deck", DEFAULT_DECK.get(players, 48))
        seat = _int_field(d, "seat", 1)
        auction = d.get("auction", "") or ""
        if not isinstance(auction, str):
            raise QuestionError("context auction must be text, e.g. '28H P +1H'")
        hand = d.get("hand")
        if hand is not None and not isinstance(hand, str):
            raise QuestionError("context hand must be text in S.H.D.C form, e.g. 'JJ9.A.KQ.'")
        return cls(system, players, deck, str(d.get("teams", "alternate")), seat,
                   " ".join(auction.split()), hand)

    def check_table(self) -> Table:
        """The table, with the seat and hand notation checked (cards, not legality)."""
        table = self.table
        table.check_seat(self.seat)
        if self.hand is not None:
            Hand.parse(self.hand)
        return table

    def describe(self) -> str:
        """One line for people: system, table, seat."""
        return (f"{self.system}, {self.players} players ({self.deck}-card deck"
                f"{', pairs' if self.teams == 'pairs' else ''}), seat {self.seat}")


def _int_field(d: Mapping, key: str, default: int) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise QuestionError(f"context {key} must be a whole number, got {v!r}")
    try:
        return int(v)
    except ValueError:
        raise QuestionError(f"context {key} must be a whole number, got {v!r}") from None


@dataclass(frozen=True, kw_only=True)
class Question:
    """One quiz question. ``answers`` holds every right choice; ``preferred`` the best one.
    Made with keyword arguments (``Question(id=..., type=..., ...)``) or read by ``from_dict``."""

    id: str
    type: str
    context: Context
    prompt: str
    choices: tuple[str, ...]
    answers: tuple[str, ...]
    explanation: str = ""
    tags: tuple[str, ...] = ()
    preferred: str | None = None
    family: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def answer(self) -> str:
        """The preferred answer (the first right one when none is preferred)."""
        return self.preferred or self.answers[0]

    @property
    def template(self) -> str:
        """The scheduling key: question type, system, table and call family.

        Questions that drill the same idea in the same setting share a template, so the
        scheduler reviews the idea, not one random deal. A play problem is its own idea
        (``problem:<id>``): a missed problem comes back as itself.
        """
        if self.type in PROBLEM_TYPES:
            return PROBLEM_IDEA + self.id
        c = self.context
        return f"{self.type}/{c.system}/{c.players}p{'-pairs' if c.teams == 'pairs' else ''}/{self.family or '-'}"

    def is_correct(self, response: str) -> bool:
        """Whether ``response`` (a choice's text, a call in any accepted spelling) is right."""
        return _normalise(response, self) in {_normalise(a, self) for a in self.answers}

    def choice_for(self, response: str) -> str | None:
        """The choice a response names: its text, or its number 1..n, or its letter a..z."""
        r = response.strip()
        if r.isdigit() and 1 <= int(r) <= len(self.choices):
            return self.choices[int(r) - 1]
        if len(r) == 1 and r.isalpha() and len(self.choices) <= 26 and not _looks_like_call(r):
            i = ord(r.lower()) - ord("a")
            if 0 <= i < len(self.choices):
                return self.choices[i]
        key = _normalise(r, self)
        for c in self.choices:
            if _normalise(c, self) == key:
                return c
        return None

    def validate(self) -> None:
        """Check the structure (not the engine): raise QuestionError naming the id."""
        try:
            if not self.id:
                raise QuestionError("a question needs a non-empty id")
            if self.type not in QUESTION_TYPES + PROBLEM_TYPES:
                raise QuestionError(f"unknown type {self.type!r}: use one of"
                                    f" {', '.join(QUESTION_TYPES + PROBLEM_TYPES)}")
            if not self.prompt.strip():
                raise QuestionError("the prompt is empty")
            if len(self.choices) < 2:
                raise QuestionError("a question needs at least two choices")
            if len(self.choices) > MAX_CHOICES:
                raise QuestionError(f"a question has at most {MAX_CHOICES} choices (a to z), not {len(self.choices)}")
            if self.type in CALL_CHOICE_TYPES:
                for c in self.choices:
                    if call_key(c) is None:
                        raise QuestionError(f"choice {c!r} is not a call")
            if len({_normalise(c, self) for c in self.choices}) != len(self.choices):
                raise QuestionError("two choices are the same")
            if not self.answers:
                raise QuestionError("no answer given")
            keys = {_normalise(c, self) for c in self.choices}
            for a in self.answers:
                if _normalise(a, self) not in keys:
                    raise QuestionError(f"answer {a!r} is not one of the choices")
            if self.preferred is not None and not self.is_correct(self.preferred):
                raise QuestionError(f"preferred answer {self.preferred!r} is not among the answers")
            self.context.check_table()
        except QuestionError as e:
            raise QuestionError(f"question {self.id!r}: {e}") from None
        except FiftySixError as e:
            raise QuestionError(f"question {self.id!r}: {e}") from None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "id": self.id, "type": self.type, "context": self.context.to_dict(),
            "prompt": self.prompt, "choices": list(self.choices), "answers": list(self.answers),
        }
        if self.preferred is not None:
            d["preferred"] = self.preferred
        d["explanation"] = self.explanation
        d["tags"] = list(self.tags)
        if self.family:
            d["family"] = self.family
        if self.data:
            d["data"] = dict(self.data)
        return d

    @classmethod
    def from_dict(cls, d: Mapping, default_system: str | None = None, index: int | None = None) -> Question:
        """Read and validate a question dict; errors name its id (or its position)."""
        where = f"question {d.get('id')!r}" if isinstance(d, Mapping) and d.get("id") else (
            f"question #{index + 1}" if index is not None else "question")
        if not isinstance(d, Mapping):
            raise QuestionError(f"{where}: must be an object, got {type(d).__name__}")
        try:
            qid = d.get("id")
            if not isinstance(qid, str) or not qid.strip():
                raise QuestionError("needs an 'id' (text)")
            for key in ("type", "prompt"):
                if not isinstance(d.get(key), str):
                    raise QuestionError(f"needs {key!r} (text)")
            choices = _str_list(d, "choices")
            if "answers" in d:
                answers = _str_list(d, "answers")
            elif isinstance(d.get("answer"), str):
                answers = [d["answer"]]
            else:
                raise QuestionError("needs 'answers' (a list of the right choices) or 'answer'")
            tags = _str_list(d, "tags") if "tags" in d else []
            preferred = d.get("preferred")
            if preferred is not None and not isinstance(preferred, str):
                raise QuestionError("'preferred' must be text")
            data = d.get("data", {})
            if not isinstance(data, Mapping):
                raise QuestionError("'data' must be an object")
            q = cls(id=qid, type=d["type"], context=Context.from_dict(d.get("context", {}), default_system),
                    prompt=d["prompt"], choices=tuple(choices), answers=tuple(answers),
                    explanation=str(d.get("explanation", "")), tags=tuple(tags), preferred=preferred,
                    family=str(d.get("family", "")), data=dict(data))
        except QuestionError as e:
            raise QuestionError(f"{where}: {e}") from None
        q.validate()
        return q


def _str_list(d: Mapping, key: str) -> list[str]:
    v = d.get(key)
    if not isinstance(v, Sequence) or isinstance(v, str) or not all(isinstance(x, str) for x in v):
        raise QuestionError(f"{key!r} must be a list of text")
    return list(v)


def _looks_like_call(text: str) -> bool:
    return text.strip().upper() in ("P", "X", "XX")


def fold(text: str) -> str:
    """Text as choices are compared: runs of spaces made one, case folded."""
    return " ".join(text.split()).casefold()


def call_key(text: str) -> str | None:
    """A choice read as a call, in canonical notation; None where it is not a call."""
    try:
        return format_call(parse_call(text))
    except FiftySixError:
        return None


def _normalise(text: str, q: Question) -> str:
    """Canonical comparison key: calls and cards in canonical notation, other text case- and
    space-folded."""
    if q.type in PROBLEM_TYPES:
        try:
            return str(Card.parse(text.strip()))
        except FiftySixError:
            return fold(text)
    if q.type in CALL_CHOICE_TYPES:
        t = " ".join(text.split())
        key = call_key(t)
        return key if key is not None else t.upper().replace(" ", "")  # not a call: compare as text
    return fold(text)
