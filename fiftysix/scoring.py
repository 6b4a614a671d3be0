"""Contracts, the stake table, the result of a hand, and the three match formats.

RULES.md section 5: a contract is a value 28..56, a trump suit or no-trump, and a
declaring team (the final bidder's), possibly doubled (x2) or redoubled (x4). The stake
table turns a made or failed contract into chips / match points; the match formats
(``chips``, ``race``, ``games``) accumulate those. Readings where the rules are open are
written down in ``docs/rules-choices.md``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fiftysix.cards import Table, format_trump, parse_trump
from fiftysix.errors import FiftySixError, NotationError

if TYPE_CHECKING:
    from fiftysix.play import PlayState

MIN_BID = 28
MAX_BID = 56
DOUBLINGS = {1: "", 2: "x", 4: "xx"}
"""Multiplier -> suffix in the canonical contract notation."""

STAKES: tuple[tuple[int, int, int, int], ...] = (
    (28, 39, 1, 2),
    (40, 47, 2, 3),
    (48, 55, 3, 4),
    (56, 56, 4, 5),
)
"""(lowest bid, highest bid, declarers make it: win, declarers fail: lose) - RULES.md 5."""

STARTING_CHIPS = 12
MATCH_FORMATS = ("chips", "race", "games")

_CONTRACT_RE = re.compile(r"^(\d+)\s*(NT|NS|N|[SHDC♠♥♦♣♤♡♢♧])\s*(XX|X|\*\*|\*)?$")


class ScoringError(FiftySixError):
    """A contract, result or match record that does not make sense."""


def _check_bid(value: int) -> None:
    if not isinstance(value, int) or not MIN_BID <= value <= MAX_BID:
        raise ScoringError(f"a bid's value runs from {MIN_BID} to {MAX_BID}, not {value!r}")


def stake_row(value: int) -> tuple[int, int]:
    """(win, lose) for a bid of ``value``, before doubling."""
    _check_bid(value)
    for lo, hi, win, lose in STAKES:
        if lo <= value <= hi:
            return win, lose
    raise AssertionError("the stake table covers 28..56")  # pragma: no cover


def stake(value: int, made: bool, doubled: int = 1) -> int:
    """Chips / match points that change hands: what the declarers win or lose (positive)."""
    if doubled not in DOUBLINGS:
        raise ScoringError(f"doubled must be 1, 2 (doubled) or 4 (redoubled), not {doubled!r}")
    win, lose = stake_row(value)
    return (win if made else lose) * doubled


# --- contracts ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Contract:
    """The final bid: value (the declarers' target), trump (None = no-trump), the final
    bidder's seat, the declaring team's index, and the doubling (1, 2 or 4).

    ``str`` gives the canonical form ``40H``, ``32NT``, ``40Hx`` (doubled), ``40Hxx``.
    """

    value: int
    trump: int | None
    declarer: int = 1
    team: int = 0
    doubled: int = 1

    def __post_init__(self) -> None:
        _check_bid(self.value)
        if self.trump is not None and (not isinstance(self.trump, int) or not 0 <= self.trump < 4):
            raise ScoringError(f"trump must be a suit 0..3 (S H D C) or None for no-trump, not {self.trump!r}")
        if self.doubled not in DOUBLINGS:
            raise ScoringError(f"doubled must be 1, 2 (doubled) or 4 (redoubled), not {self.doubled!r}")
        if not isinstance(self.declarer, int) or self.declarer < 1:
            raise ScoringError(f"the declarer is a seat number from 1, not {self.declarer!r}")
        if not isinstance(self.team, int) or self.team < 0:
            raise ScoringError(f"the declaring team is a team index from 0, not {self.team!r}")

    @classmethod
    def make(cls, table: Table, value: int, trump: int | None, declarer: int = 1,
             doubled: int = 1) -> Contract:
        """A contract at ``table``: the declaring team is the declarer seat's team."""
        table.check_seat(declarer)
        return cls(value, trump, declarer, table.team_of(declarer), doubled)

    @classmethod
    def parse(cls, text: str, table: Table | None = None, declarer: int = 1) -> Contract:
        """Read ``40H``, ``40♥``, ``32nt``, ``32NS``, ``40Hx``, ``40HXX``.

        The seat and team are not part of the notation: give the declarer's seat (and the
        table, so its team is known; without one the team is 0).
        """
        t = (text or "").strip()
        m = _CONTRACT_RE.match(t.upper())
        if not m:
            raise NotationError(f"cannot read {text!r} as a contract: write value, suit or NT,"
                                " then x for doubled or xx for redoubled, e.g. 40H, 32NT, 40Hx")
        value = int(m.group(1))
        trump = parse_trump(m.group(2))
        doubled = {None: 1, "X": 2, "*": 2, "XX": 4, "**": 4}[m.group(3)]
        _check_bid(value)
        if table is not None:
            return cls.make(table, value, trump, declarer, doubled)
        return cls(value, trump, declarer, 0, doubled)

    @property
    def strain(self) -> str:
        """``S``, ``H``, ``D``, ``C`` or ``NT``."""
        return format_trump(self.trump)

    def stake(self, made: bool) -> int:
        """What the declarers win (made) or lose (failed), doubling included, as a positive number."""
        return stake(self.value, made, self.doubled)

    def __str__(self) -> str:
        return f"{self.value}{self.strain}{DOUBLINGS[self.doubled]}"


# --- the result of one hand ---------------------------------------------------------------

RESULT_REASONS = ("made", "failed", "conceded by declarers", "conceded by defenders", "void")


@dataclass(frozen=True)
class HandResult:
    """The outcome of one hand for the declaring team.

    ``score`` is signed for the declarers: +stake when made (or the defenders conceded),
    -stake when failed (or the declarers conceded), 0 for a void hand.
    """

    contract: Contract
    declarer_points: int
    reason: str

    def __post_init__(self) -> None:
        if self.reason not in RESULT_REASONS:
            raise ScoringError(f"unknown result {self.reason!r}: use one of {', '.join(RESULT_REASONS)}")

    @property
    def team(self) -> int:
        return self.contract.team

    @property
    def void(self) -> bool:
        return self.reason == "void"

    @property
    def made(self) -> bool | None:
        """True / False; None for a void hand."""
        if self.void:
            return None
        return self.reason in ("made", "conceded by defenders")

    @property
    def score(self) -> int:
        if self.void:
            return 0
        made = bool(self.made)
        return self.contract.stake(made) if made else -self.contract.stake(made)


def hand_result(contract: Contract, declarer_points: int, *, conceded_by: str | None = None,
                void: bool = False) -> HandResult:
    """Score a hand from the declarers' card points.

    ``conceded_by`` is ``"declarers"`` or ``"defenders"`` (table option ``concede``: the
    conceding side pays what it would pay on losing); ``void`` marks a void hand.
    """
    if not 0 <= declarer_points <= 56:
        raise ScoringError(f"card points run from 0 to 56, not {declarer_points}")
    if void:
        return HandResult(contract, declarer_points, "void")
    if conceded_by is not None:
        if conceded_by not in ("declarers", "defenders"):
            raise ScoringError(f"conceded_by is 'declarers' or 'defenders', not {conceded_by!r}")
        return HandResult(contract, declarer_points, f"conceded by {conceded_by}")
    return HandResult(contract, declarer_points, "made" if declarer_points >= contract.value else "failed")


def result_of_play(state: PlayState, contract: Contract) -> HandResult:
    """Score a finished (or decided) play of a hand under ``contract``."""
    made = state.declarers_made()
    pts = state.points[contract.team]
    if state.conceded_by is not None:
        side = "declarers" if state.conceded_by == contract.team else "defenders"
        return hand_result(contract, pts, conceded_by=side)
    if made is None:
        raise ScoringError("the hand is not decided yet: play on, or give a target and declaring team")
    return HandResult(contract, pts, "made" if made else "failed")


# --- match formats ------------------------------------------------------------------------

@dataclass
class _Match:
    """Shared state: number of teams, the running totals, the hands recorded."""

    teams: int = 2
    totals: list[int] = field(default_factory=list)
    hands: int = 0

    def _start(self, initial: int) -> None:
        if not isinstance(self.teams, int) or self.teams < 2:
            raise ScoringError(f"a match needs at least 2 teams, not {self.teams!r}")
        if not self.totals:
            self.totals = [initial] * self.teams
        elif len(self.totals) != self.teams:
            raise ScoringError(f"{len(self.totals)} totals for {self.teams} teams")

    def _check(self, result: HandResult) -> None:
        if self.is_over:
            raise ScoringError("the match is over: start a new one")
        if not 0 <= result.team < self.teams:
            raise ScoringError(f"declaring team {result.team} does not exist in a {self.teams}-team match")

    @property
    def is_over(self) -> bool:  # pragma: no cover - every format overrides it
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - every format overrides it
        """The format's rule in a few words."""
        raise NotImplementedError

    def _leader(self) -> int | None:
        best = max(self.totals)
        top = [k for k, v in enumerate(self.totals) if v == best]
        return top[0] if len(top) == 1 else None


@dataclass
class ChipsMatch(_Match):
    """``chips``: each team starts with 12; the stake moves between the teams; a team out
    of chips loses. With ``pairs`` (more than two teams) a winning declarer team takes
    the stake from each other team and a losing one pays it to each other team.

    A team never pays more than it holds: a short payer pays the teams after the
    declarers in turn until it is empty (docs/rules-choices.md).
    """

    chips: int = STARTING_CHIPS

    def __post_init__(self) -> None:
        if not isinstance(self.chips, int) or self.chips < 1:
            raise ScoringError(f"each team starts with at least 1 chip, not {self.chips!r}")
        self._start(self.chips)

    def record(self, result: HandResult) -> None:
        """Move the stake of one hand between the teams."""
        self._check(result)
        self.hands += 1
        if result.void:
            return
        amount = abs(result.score)
        decl = result.team
        others = [(decl + k) % self.teams for k in range(1, self.teams)]
        if result.score > 0:
            for t in others:
                paid = min(amount, self.totals[t])
                self.totals[t] -= paid
                self.totals[decl] += paid
        else:
            for t in others:
                paid = min(amount, self.totals[decl])
                self.totals[decl] -= paid
                self.totals[t] += paid

    @property
    def is_over(self) -> bool:
        return any(v <= 0 for v in self.totals)

    def describe(self) -> str:
        return (f"each team starts with {self.chips} chips; the stake moves between the teams and a team out of"
                " chips loses")

    @property
    def losers(self) -> tuple[int, ...]:
        return tuple(k for k, v in enumerate(self.totals) if v <= 0)

    @property
    def winner(self) -> int | None:
        """The team holding the most chips once some team is out; None before, or on a tie."""
        return self._leader() if self.is_over else None


@dataclass
class RaceMatch(_Match):
    """``race``: each hand adds the declarers' score (minus the loss stake on a failure) to
    the declaring team's total; the first team to reach ``goal`` (12 or 24) wins."""

    goal: int = 12

    def __post_init__(self) -> None:
        if not isinstance(self.goal, int) or self.goal < 1:
            raise ScoringError(f"the race is to a positive score such as 12 or 24, not {self.goal!r}")
        self._start(0)

    def record(self, result: HandResult) -> None:
        self._check(result)
        self.hands += 1
        self.totals[result.team] += result.score

    @property
    def is_over(self) -> bool:
        return any(v >= self.goal for v in self.totals)

    def describe(self) -> str:
        return f"each hand's score goes to the declaring team; the first to {self.goal} wins"

    @property
    def winner(self) -> int | None:
        for k, v in enumerate(self.totals):
            if v >= self.goal:
                return k  # only the declaring team's total changes, so at most one gets there
        return None


@dataclass
class GamesMatch(_Match):
    """``games``: a fixed number of games; match points accumulate. A failed contract's
    (negative) score is credited to the other team (each other team with ``pairs``), so
    nobody goes below zero. Void hands do not count as games."""

    games: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or self.games < 1:
            raise ScoringError(f"a match has at least one game, not {self.games!r}")
        self._start(0)

    def record(self, result: HandResult) -> None:
        self._check(result)
        if result.void:
            return
        self.hands += 1
        if result.score > 0:
            self.totals[result.team] += result.score
        else:
            for k in range(self.teams):
                if k != result.team:
                    self.totals[k] -= result.score

    @property
    def is_over(self) -> bool:
        return self.hands >= self.games

    def describe(self) -> str:
        return (f"{self.games} games; a failed contract's stake goes to the other team; the most match points"
                " wins")

    @property
    def winner(self) -> int | None:
        """The team with the most match points after the last game; None before or on a tie."""
        return self._leader() if self.is_over else None


_FORMATS: dict[str, type[ChipsMatch | RaceMatch | GamesMatch]] = {
    "chips": ChipsMatch, "race": RaceMatch, "games": GamesMatch}


def new_match(fmt: str, table: Table | None = None, **options: Any) -> ChipsMatch | RaceMatch | GamesMatch:
    """A fresh match of format ``chips``, ``race`` or ``games`` for ``table``'s teams (``options``: the
    format's own settings, e.g. ``chips=8``, checked by the format)."""
    teams = table.num_teams if table is not None else 2
    if fmt not in _FORMATS:
        raise ScoringError(f"unknown match format {fmt!r}: use {', '.join(MATCH_FORMATS)}")
    try:
        return _FORMATS[fmt](teams=teams, **options)
    except TypeError as e:
        raise ScoringError(f"{fmt}: {e}") from None


# --- a match of hands ---------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchHand:
    """One scored hand of a match: its key, contract, result, and the totals after it."""

    key: str
    contract: str
    declarer: int
    points: int
    reason: str
    score: int  # for the declarers
    totals: tuple[int, ...]


class Match:
    """Hands scored under a match format (``chips``, ``race`` or ``games`` with their usual
    options) at one table; a hand of one key counts once however often it is recorded. The
    format's running score is kept live: each hand is scored once, when it is recorded."""

    def __init__(self, format: str, table: Table) -> None:
        self.format = format
        self.table = table
        self.scoring = new_match(format, table)
        self.hands: list[MatchHand] = []

    def record(self, key: str, result: HandResult) -> bool:
        """Count a finished hand (once per key); False when it was counted before or the match
        is over."""
        if any(h.key == key for h in self.hands) or self.is_over:
            return False
        self.scoring.record(result)
        c = result.contract
        self.hands.append(MatchHand(key, str(c), c.declarer, result.declarer_points, result.reason, result.score,
                                    tuple(self.scoring.totals)))
        return True

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.scoring.totals)

    @property
    def is_over(self) -> bool:
        return self.scoring.is_over

    @property
    def winner(self) -> int | None:
        return self.scoring.winner

    def describe(self) -> str:
        """The format's rule in a few words."""
        return self.scoring.describe()

    def to_text(self) -> str:
        """The match in a few words for a page's address: the format, then each hand as
        key.contract.declarer.points.reason (the scores follow from these)."""
        return " ".join([self.format, *(f"{h.key}.{h.contract}.{h.declarer}.{h.points}."
                                        f"{RESULT_REASONS.index(h.reason)}" for h in self.hands)])

    @classmethod
    def from_text(cls, text: str, table: Table) -> Match:
        """A match at ``table`` from ``to_text``; ScoringError when the text does not read
        (each hand is scored again, so the totals cannot disagree with the hands)."""
        fmt, *hands = text.split() or [""]
        m = cls(fmt, table)
        for item in hands:
            try:
                key, contract, declarer, points, reason = item.split(".")
                c = Contract.parse(contract, table, int(declarer))
                result = HandResult(c, int(points), RESULT_REASONS[int(reason)])
            except (ValueError, IndexError, FiftySixError) as e:
                raise ScoringError(f"a hand of the match cannot be read ({item[:40]!r}): {e}") from None
            wrong = result.reason in ("made", "failed") and (result.reason == "made") != (
                result.declarer_points >= c.value)
            if wrong or not 0 <= result.declarer_points <= 56 or not m.record(key, result):
                raise ScoringError(f"a hand of the match cannot be read ({item[:40]!r})")
        return m

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and (self.format, self.table, self.hands) == (other.format, other.table,
                                                                                       other.hands)

    def __repr__(self) -> str:
        return f"Match.from_text({self.to_text()!r}, {self.table!r})"
