"""Hand constraints: the one language in which call meanings are written and deals are drawn.

A constraint is a tree of three node types:

* ``Count(kinds, lo, hi)``: the hand holds between ``lo`` and ``hi`` physical cards whose
  kind is in ``kinds`` (both copies of a kind count). "3+ hearts", "both Jacks of
  hearts", "no spade", "at least 3 Jacks" are all one ``Count``.
* ``All(parts)``: every part holds (``TRUE`` is ``All(())``).
* ``Either(parts)``: at least one part holds (an either/or, e.g. "void in some unbid suit").

Every node carries an optional ``text``, the plain words for it, so ``fits`` can say which
promise a hand breaks. Constraints are immutable and convert to and from JSON dicts.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fiftysix.cards import CARD_NAMES, NUM_KINDS, NUM_RANKS, NUM_SUITS, RANKS, SUIT_NAMES, Card, Hand
from fiftysix.errors import ConstraintError


def _kind_set(kinds: Iterable[int]) -> tuple[int, ...]:
    ks = tuple(sorted({int(k) for k in kinds}))
    for k in ks:
        if not 0 <= k < NUM_KINDS:
            raise ConstraintError(f"card number {k} is not a card kind (0..{NUM_KINDS - 1})")
    return ks


@dataclass(frozen=True)
class Count:
    """Between ``lo`` and ``hi`` cards (copies counted) of the given kinds."""

    kinds: tuple[int, ...]
    lo: int = 0
    hi: int = 99
    text: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", _kind_set(self.kinds))
        if self.lo < 0 or self.hi < self.lo:
            raise ConstraintError(f"count bounds {self.lo}..{self.hi} are empty or negative")

    def holds(self, counts: Sequence[int]) -> bool:
        n = sum(counts[k] for k in self.kinds)
        return self.lo <= n <= self.hi

    def describe(self) -> str:
        return self.text or _default_count_text(self)

    def to_dict(self) -> dict[str, Any]:
        d = {"count": [CARD_NAMES[k] for k in self.kinds], "min": self.lo, "max": self.hi}
        if self.text:
            d["text"] = self.text
        return d


@dataclass(frozen=True)
class All:
    """Every part holds."""

    parts: tuple[Constraint, ...] = ()
    text: str = ""

    def holds(self, counts: Sequence[int]) -> bool:
        return all(p.holds(counts) for p in self.parts)

    def describe(self) -> str:
        if self.text:
            return self.text
        if not self.parts:
            return "nothing"
        # each promise once: two calls that promise the same read "no Jack of spades; at least 4 spades"
        return "; ".join(dict.fromkeys(p.describe() for p in self.parts))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"all": [p.to_dict() for p in self.parts]}
        if self.text:
            d["text"] = self.text
        return d


@dataclass(frozen=True)
class Either:
    """At least one part holds."""

    parts: tuple[Constraint, ...] = ()
    text: str = ""

    def __post_init__(self) -> None:
        if not self.parts:
            raise ConstraintError("an either/or constraint needs at least one choice")

    def holds(self, counts: Sequence[int]) -> bool:
        return any(p.holds(counts) for p in self.parts)

    def describe(self) -> str:
        return self.text or " or ".join(p.describe() for p in self.parts)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"any": [p.to_dict() for p in self.parts]}
        if self.text:
            d["text"] = self.text
        return d


Constraint = Count | All | Either
TRUE = All(())


def _default_count_text(c: Count) -> str:
    ks = c.kinds
    suits = {k // NUM_RANKS for k in ks}
    if len(ks) == 1:
        what = CARD_NAMES[ks[0]]
    elif len(suits) == 1 and len(ks) == NUM_RANKS:
        what = SUIT_NAMES[next(iter(suits))]
        if c.hi == 1 or (c.lo == 1 and c.hi >= 99):  # "at least 1 heart", "exactly 1 heart"
            what = what[:-1]
    elif len({k % NUM_RANKS for k in ks}) == 1 and len(ks) == NUM_SUITS:
        what = RANKS[ks[0] % NUM_RANKS] + "s (any suit)"
    else:
        what = "of " + " ".join(CARD_NAMES[k] for k in ks)
    if c.lo == c.hi:
        return f"exactly {c.lo} {what}"
    if c.hi >= 99:
        return f"at least {c.lo} {what}"
    if c.lo == 0:
        return f"at most {c.hi} {what}"
    return f"{c.lo}-{c.hi} {what}"


# --- building blocks ------------------------------------------------------------------------

def suit_kinds(suit: int) -> tuple[int, ...]:
    return tuple(range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS))


def rank_kinds(rank: int) -> tuple[int, ...]:
    return tuple(s * NUM_RANKS + rank for s in range(NUM_SUITS))


def suit_length(suit: int, lo: int = 0, hi: int = 99, text: str = "") -> Count:
    return Count(suit_kinds(suit), lo, hi, text)


def void(suit: int, text: str = "") -> Count:
    return Count(suit_kinds(suit), 0, 0, text or f"no {SUIT_NAMES[suit]}")


def holds_at_least(card: int, n: int = 1, text: str = "") -> Count:
    return Count((int(card),), n, 99, text)


def holds_cards(cards: Iterable[int], text: str = "") -> Constraint:
    """Holds at least these cards (a multiset: a kind listed twice means both copies)."""
    need: dict[int, int] = {}
    for c in cards:
        need[int(c)] = need.get(int(c), 0) + 1
    parts = tuple(Count((k,), n, 99) for k, n in sorted(need.items()))
    if len(parts) == 1 and text:
        return Count(parts[0].kinds, parts[0].lo, parts[0].hi, text)
    return All(parts, text)


def conjoin(*cs: Constraint, text: str = "") -> Constraint:
    """All of the given constraints, flattening nested text-less Alls and dropping TRUE."""
    parts: list[Constraint] = []
    for c in cs:
        if isinstance(c, All) and not c.text:
            parts.extend(c.parts)
        else:
            parts.append(c)
    if len(parts) == 1 and not text:
        return parts[0]
    return All(tuple(parts), text)


def atoms(c: Constraint) -> list[Count]:
    """Every Count in the tree."""
    if isinstance(c, Count):
        return [c]
    out: list[Count] = []
    for p in c.parts:
        out.extend(atoms(p))
    return out


# --- checking a hand ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Fit:
    """Whether a hand keeps a promise, and the plain words of every part it breaks."""

    ok: bool
    broken: tuple[str, ...] = field(default_factory=tuple)

    def __bool__(self) -> bool:
        return self.ok


def _counts_of(hand: Hand | Sequence[int]) -> Sequence[int]:
    if isinstance(hand, Hand):
        return hand.counts()
    if len(hand) != NUM_KINDS:
        raise ConstraintError(f"hand counts need {NUM_KINDS} entries, got {len(hand)}")
    return hand


def _broken(c: Constraint, counts: Sequence[int]) -> list[str]:
    if c.holds(counts):
        return []
    if isinstance(c, All):
        out: list[str] = []
        for p in c.parts:
            out.extend(_broken(p, counts))
        return out or [c.describe()]
    if isinstance(c, Count):
        held = sum(counts[k] for k in c.kinds)
        return [f"{c.describe()} (holds {held})"]
    return [c.describe()]


def fits(hand: Hand | Sequence[int], c: Constraint) -> Fit:
    """Does ``hand`` keep constraint ``c``? If not, list the parts it breaks."""
    counts = _counts_of(hand)
    broken = _broken(c, counts)
    return Fit(not broken, tuple(broken))


# --- can any hand keep it? ----------------------------------------------------------------------

def _branches(c: Constraint, limit: int = 64) -> list[list[Count]] | None:
    """The constraint as an either/or of plain lists of Counts (None: more than ``limit``)."""
    if isinstance(c, Count):
        return [[c]]
    if isinstance(c, Either):
        out: list[list[Count]] = []
        for p in c.parts:
            b = _branches(p, limit)
            if b is None:
                return None
            out.extend(b)
        return out if len(out) <= limit else None
    acc: list[list[Count]] = [[]]
    for p in c.parts:
        b = _branches(p, limit)
        if b is None or len(acc) * len(b) > limit:
            return None
        acc = [x + y for x in acc for y in b]
    return acc


def satisfiable(c: Constraint, kinds: Iterable[int], size: int, copies: int = 2) -> bool:
    """Can a hand of exactly ``size`` cards, drawn from ``kinds`` with ``copies`` of each,
    keep ``c``? Exact (kinds that every Count treats alike are counted together); a
    constraint with too many either/or choices to list is taken as satisfiable."""
    branches = _branches(c)
    if branches is None:
        return True
    deck = sorted({int(k) for k in kinds})
    for counts in branches:
        # kinds grouped by which Counts they belong to; each group holds 0..copies*len cards
        sets = [set(x.kinds) for x in counts]
        groups: dict[tuple[bool, ...], int] = {}
        for k in deck:  # in card order, so a suit's Counts close early
            sig = tuple(k in ks for ks in sets)
            groups[sig] = groups.get(sig, 0) + copies
        # a Count with no upper bound within the hand only needs its sum up to ``lo``
        cap = [x.lo if x.hi >= size else x.hi for x in counts]
        inside = [tuple(q for q, b in enumerate(sig) if b) for sig in groups]
        last = {q: g for g, ins in enumerate(inside) for q in ins}
        states = {(0,) * (len(counts) + 1)}
        for g, ((sig, top), ins) in enumerate(zip(groups.items(), inside)):
            done = [q for q in ins if last[q] == g]
            nxt = set()
            for st in states:
                for n in range(min(top, size - st[0]) + 1):
                    new = list(st)
                    new[0] += n
                    bad = False
                    for q in ins:
                        v = st[q + 1] + n
                        if v > counts[q].hi:
                            bad = True
                            break
                        new[q + 1] = min(v, cap[q])
                    if bad:
                        break  # more cards only break it further
                    if any(new[q + 1] < counts[q].lo for q in done):
                        continue
                    for q in done:  # closed: forget its sum, so equal states merge
                        new[q + 1] = 0
                    nxt.add(tuple(new))
            states = nxt
        for q, x in enumerate(counts):  # Counts over kinds outside the deck
            if q not in last and x.lo > 0:
                states = set()
        if any(st[0] == size for st in states):
            return True
    return False


# --- JSON ---------------------------------------------------------------------------------------

def to_dict(c: Constraint) -> dict[str, Any]:
    return c.to_dict()


MAX_DEPTH = 32
"""The deepest nesting of ``all`` / ``any`` read from JSON."""


def from_dict(d: Mapping[str, Any]) -> Constraint:
    """Read a constraint from its JSON dict; a malformed one (wrong types, bounds that are
    not whole numbers 0..99, nesting deeper than MAX_DEPTH) raises ConstraintError."""
    return _from_dict(d, 1)


def _from_dict(d: Mapping[str, Any], depth: int) -> Constraint:
    if not isinstance(d, Mapping):
        raise ConstraintError(f"a constraint must be an object, got {type(d).__name__}")
    if depth > MAX_DEPTH:
        raise ConstraintError(f"a constraint nested more than {MAX_DEPTH} levels deep")
    text = d.get("text", "")
    if not isinstance(text, str):
        raise ConstraintError(f"a constraint's 'text' must be text, not {_short(text)}")
    if "count" in d:
        cards = d["count"]
        if not isinstance(cards, list):
            raise ConstraintError(f"'count' must be a list of cards such as [\"JH\", \"9H\"], not {_short(cards)}")
        kinds = []
        for x in cards:
            if isinstance(x, str):
                try:
                    kinds.append(Card.parse(x))
                except ValueError as e:
                    raise ConstraintError(f"bad card {_short(x)} in a constraint: {e}") from None
            elif isinstance(x, int) and not isinstance(x, bool) and 0 <= x < NUM_KINDS:
                kinds.append(Card(x))
            else:
                raise ConstraintError(f"bad card {_short(x)} in a constraint: give a card such as \"JH\"")
        return Count(tuple(kinds), _bound(d, "min", 0), _bound(d, "max", 99), text)
    for key, cls in (("all", All), ("any", Either)):
        if key in d:
            parts = d[key]
            if not isinstance(parts, list):
                raise ConstraintError(f"{key!r} must be a list of constraints, not {_short(parts)}")
            return cls(tuple(_from_dict(p, depth + 1) for p in parts), text)
    raise ConstraintError(f"a constraint needs 'count', 'all' or 'any': got keys {_short(sorted(map(str, d)))}")


def _bound(d: Mapping[str, Any], key: str, default: int) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
        raise ConstraintError(f"a count's {key!r} must be a whole number 0..99, not {_short(v)}")
    return v


def _short(v: object) -> str:
    r = repr(v)
    return r if len(r) <= 40 else r[:37] + "..."


def required_parts(c: Constraint | None) -> list[Count]:
    """The counts a constraint certainly requires (its top-level conjuncts; either/or parts skipped)."""
    if c is None:
        return []
    if isinstance(c, Count):
        return [c]
    if isinstance(c, All):
        out: list[Count] = []
        for p in c.parts:
            out.extend(required_parts(p))
        return out
    return []


def implied(claim: Count, parts: list[Count]) -> bool:
    """Does a conjunction of counts imply ``claim``? (A sound, simple test: may say no wrongly.)"""
    lo_ok = claim.lo == 0 or any(set(p.kinds) <= set(claim.kinds) and p.lo >= claim.lo for p in parts)
    hi_ok = claim.hi >= 99 or any(set(p.kinds) >= set(claim.kinds) and p.hi <= claim.hi for p in parts)
    return lo_ok and hi_ok


def implies_all(c: Constraint, parts: list[Count]) -> bool:
    """Are all of ``c``'s required parts implied by ``parts`` (and has it any)?"""
    need = required_parts(c)
    return bool(need) and all(implied(p, parts) for p in need)
