"""Between fiftysix objects and the solver kernels' arrays: rule tables and root states.

The kernels know nothing of 56: they read the rules as tables (``Rules``): the seats and
their teams, each card bit's suit and points, and the points a trick is worth by itself.
``rules_for(table)`` gives the tables of a 56 set-up; ``bridge_rules()`` those of bridge
(52 cards, one copy, one point a trick), which lets the same kernels be checked and timed
against DDS.

A card is bit ``suit * 16 + rank`` of an int64 (rank 0 the strongest of its suit).
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from fiftysix.analyser import _kernels as kernels
from fiftysix.cards import NUM_KINDS, RANK_POINTS, Table
from fiftysix.play import trick_winner

BITS_PER_SUIT = 16
NO_TRUMP = -1
EXACT_TRICKS = 0
"""Endings of this many tricks are solved exactly whatever the search window."""

SUIT_MASKS = np.array([((1 << BITS_PER_SUIT) - 1) << (BITS_PER_SUIT * s) for s in range(4)],
                      dtype=np.uint64).astype(np.int64)


@dataclass(frozen=True, eq=False)
class Rules:
    """The rules as the kernels read them."""

    name: str
    seats: int
    team: tuple[int, ...]          # team index of each seat (0-based seats)
    num_teams: int
    kind_suit: np.ndarray          # int64[MAX_CARDS]: suit of each card bit, -1 where no card
    kind_points: np.ndarray        # int64[MAX_CARDS]
    copies: int                    # copies of each card in the deck
    trick_points: int              # points a trick is worth besides its cards
    # entries of an abstract-table bucket (one per fully abstracted position: for bridge, per
    # suit-length pattern and leader, as DDS keeps up to 125): bridge's rank-abstracted positions
    # recur far more than 56's, whose card points keep them apart (56 3% slower with 8; bridge
    # nodes -47% with 32, -60% with 128 against 8, no fewer with 256: bench/RESULTS.md)
    abstract_bucket: int = 4

    def ismax(self, side: int) -> np.ndarray:
        """1 for the seats of team ``side``, 0 for everyone else."""
        return np.array([1 if t == side else 0 for t in self.team], dtype=np.int64)

    def salt(self, trump: int, side: int) -> int:
        """Transposition-table salt: positions under other rules, trump or side never meet."""
        text = f"{self.name}|{trump}|{side}|{self.team}".encode()
        lo = zlib.crc32(text)
        hi = zlib.crc32(text[::-1] + b"#")
        v = (hi << 32) | lo
        return v - (1 << 64) if v >= 1 << 63 else v


def card_bit(card: int) -> int:
    """The kernel bit of a 56 card kind."""
    c = int(card)
    return (c // 8) * BITS_PER_SUIT + c % 8


@cache
def rules_for(table: Table) -> Rules:
    """The rule tables of a 56 table set-up."""
    suit = np.full(kernels.MAX_CARDS, -1, dtype=np.int64)
    pts = np.zeros(kernels.MAX_CARDS, dtype=np.int64)
    for c in table.kinds():
        b = card_bit(c)
        suit[b] = c.suit
        pts[b] = RANK_POINTS[c.rank]
    team = tuple(table.team_of(s) for s in table.seats)
    name = f"56/{table.players}/{table.deck}/{table.teams}"
    return Rules(name, table.players, team, table.num_teams, suit, pts, 2, 0)


@cache
def bridge_rules() -> Rules:
    """Bridge: 4 seats (N E S W = 0..3), N-S team 0, 52 cards, one point a trick.

    Card bit ``suit * 16 + rank`` with rank 0 = ace .. 12 = two; suits S H D C = 0..3.
    """
    suit = np.full(kernels.MAX_CARDS, -1, dtype=np.int64)
    for s in range(4):
        for r in range(13):
            suit[s * BITS_PER_SUIT + r] = s
    return Rules("bridge", 4, (0, 1, 0, 1), 2, suit, np.zeros(kernels.MAX_CARDS, dtype=np.int64), 1, 1, abstract_bucket=128)


@dataclass(frozen=True, eq=False)
class Encoded:
    """A position as kernel arrays (seats 0-based)."""

    rules: Rules
    h1: np.ndarray
    h2: np.ndarray
    trump: int                          # suit or NO_TRUMP
    leader: int                         # leader of the current trick
    trick: tuple[int, ...]              # card bits on the table, in playing order
    won: tuple[int, ...]                # points won so far per team

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.seats

    @property
    def ncards(self) -> int:
        return sum(_popcount(int(a)) + _popcount(int(b)) for a, b in zip(self.h1, self.h2))

    def points_left(self) -> int:
        """Points not yet won: cards in hands, cards on the table, and trick points to come
        (counted once per position: it is immutable)."""
        left = self.__dict__.get("_left")
        if left is None:
            left = self.__dict__["_left"] = self._points_left()
        return left

    def _points_left(self) -> int:
        r = self.rules
        pts = sum(int(r.kind_points[b]) for b in self.trick)
        for s in range(r.seats):
            for b in _bits(int(self.h1[s])):
                pts += int(r.kind_points[b])
            for b in _bits(int(self.h2[s])):
                pts += int(r.kind_points[b])
        tricks = (self.ncards + len(self.trick)) // r.seats
        return pts + tricks * r.trick_points

    def root_state(self, side: int) -> np.ndarray:
        """The kernels' ``rs`` array for a search by team ``side`` (a fresh copy; built once
        per side, the position being immutable)."""
        cache: dict[int, np.ndarray] = self.__dict__.setdefault("_root_states", {})
        rs = cache.get(side)
        if rs is None:
            rs = cache[side] = self._root_state(side)
        return rs.copy()

    def _root_state(self, side: int) -> np.ndarray:
        r = self.rules
        rs = np.zeros(kernels.RS_SIZE, dtype=np.int64)
        rs[kernels.RS_SEAT] = self.to_move
        rs[kernels.RS_TLEN] = len(self.trick)
        rs[kernels.RS_LSUIT] = r.kind_suit[self.trick[0]] if self.trick else -1
        wseat, wcard, tcards, tpts = -1, -1, 0, 0
        for i, b in enumerate(self.trick):
            seat = (self.leader + i) % r.seats
            if i == 0 or _beats(b, wcard, r.kind_suit, self.trump):
                wseat, wcard = seat, b
            tcards |= 1 << b
            tpts += int(r.kind_points[b])
        rs[kernels.RS_WSEAT] = wseat
        rs[kernels.RS_WCARD] = wcard
        rs[kernels.RS_TPTS] = tpts
        rs[kernels.RS_TCARDS] = np.array([tcards], dtype=np.uint64).astype(np.int64)[0]
        rs[kernels.RS_LEFT] = self.points_left()
        rs[kernels.RS_NCARDS] = self.ncards
        rs[kernels.RS_SALT] = r.salt(self.trump, side)
        return rs

    def play(self, bit: int) -> Encoded:
        """The position after the seat to move plays ``bit`` (legality is the caller's job)."""
        r = self.rules
        seat = self.to_move
        h1, h2 = self.h1.copy(), self.h2.copy()
        m = np.array([1 << bit], dtype=np.uint64).astype(np.int64)[0]
        if h2[seat] & m:
            h2[seat] ^= m
        else:
            h1[seat] ^= m
        trick = self.trick + (bit,)
        if len(trick) < r.seats:
            return Encoded(r, h1, h2, self.trump, self.leader, trick, self.won)
        win, wcard = self.leader, trick[0]
        for i, b in enumerate(trick[1:], start=1):
            if _beats(b, wcard, r.kind_suit, self.trump):
                win, wcard = (self.leader + i) % r.seats, b
        won = list(self.won)
        won[r.team[win]] += sum(int(r.kind_points[b]) for b in trick) + r.trick_points
        return Encoded(r, h1, h2, self.trump, win, (), tuple(won))


def _popcount(x: int) -> int:
    return (x & ((1 << 64) - 1)).bit_count()


def _bits(x: int) -> list[int]:
    x &= (1 << 64) - 1
    out = []
    while x:
        b = x & -x
        out.append(b.bit_length() - 1)
        x ^= b
    return out


def _beats(b: int, wcard: int, kind_suit: np.ndarray, trump: int) -> bool:
    if kind_suit[b] == kind_suit[wcard]:
        return b < wcard
    return bool(kind_suit[b] == trump)


def _mask(bits: Iterable[int]) -> int:
    m = 0
    for b in bits:
        m |= 1 << b
    return m


def encode(rules: Rules, hands: Sequence[Sequence[int]], trump: int | None, leader: int,
           trick: Sequence[int] = (), won: Sequence[int] = ()) -> Encoded:
    """A kernel position from card bits per seat (0-based ``leader``).

    ``hands`` are what each seat still holds (a bit twice for both copies); ``trick`` the
    bits already played to the current trick from ``leader`` on. Nothing is checked here:
    the edges check a position once, before it is encoded (``solver.Position`` for 56,
    ``bridge.position`` for bridge).
    """
    n = rules.seats
    h1 = np.zeros(n, dtype=np.int64)
    h2 = np.zeros(n, dtype=np.int64)
    for seat, hand in enumerate(hands):
        m1 = m2 = 0
        for b in hand:
            if m1 >> b & 1:
                m2 |= 1 << b
            else:
                m1 |= 1 << b
        h1[seat] = np.array([m1], dtype=np.uint64).astype(np.int64)[0]
        h2[seat] = np.array([m2], dtype=np.uint64).astype(np.int64)[0]
    w = tuple(int(x) for x in won) if won else (0,) * rules.num_teams
    return Encoded(rules, h1, h2, NO_TRUMP if trump is None else int(trump), leader,
                   tuple(int(b) for b in trick), w)


_KIND_BITS = np.array([1 << card_bit(k) for k in range(NUM_KINDS)], dtype=np.uint64)
_KIND_POINTS = np.array([RANK_POINTS[k % 8] for k in range(NUM_KINDS)], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Known:
    """What every deal drawn for one view shares once the cards played so far are on the
    table: the rules, trump, the current trick's leader (0-based) and cards, the points won,
    and how many copies of each kind each seat has played (shape (seats, 32)).

    ``encode(counts)`` is the road from the dealer to the kernels: a dealt deal's kind counts
    (the hands as dealt) straight to the kernels' position after those plays, with no card
    made and nothing checked (the dealer deals only what the view allows, so every play is
    legal in every deal). ``known_after`` builds one from a view's plays."""

    table: Table
    rules: Rules
    trump: int
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    played: np.ndarray
    plays: tuple[tuple[int, int], ...]  # (seat 1-based, kind) in playing order

    @property
    def to_move(self) -> int:
        """The seat to play next, 1-based."""
        return (self.leader + len(self.trick)) % self.rules.seats + 1

    def then(self, card: int) -> Known:
        """The same after the seat to move plays ``card`` (a kind)."""
        return known_after(self.table, None if self.trump == NO_TRUMP else self.trump,
                           self.plays + ((self.to_move, int(card)),), self.plays[0][0] if self.plays else self.leader + 1)

    def encode(self, counts: np.ndarray) -> Encoded:
        """The kernels' position of the deal whose hands as dealt are ``counts`` (kind counts,
        shape (seats, 32), as the dealer draws them)."""
        c = np.asarray(counts) - self.played
        h1 = ((c >= 1).astype(np.uint64) @ _KIND_BITS).view(np.int64)
        h2 = ((c >= 2).astype(np.uint64) @ _KIND_BITS).view(np.int64)
        enc = Encoded(self.rules, h1, h2, self.trump, self.leader, self.trick, self.won)
        r = self.rules
        ncards = int(c.sum())
        enc.__dict__["_left"] = (int((c @ _KIND_POINTS).sum()) + sum(int(r.kind_points[b]) for b in self.trick)
                                 + (ncards + len(self.trick)) // r.seats * r.trick_points)
        return enc


def known_after(table: Table, trump: int | None, plays: Sequence[tuple[int, int]] = (), leader: int = 1) -> Known:
    """The ``Known`` part of every deal of a table after ``plays`` ((seat, card) from the first
    lead by ``leader``, 1-based), trick winners by the game's own rule (``fiftysix.play``)."""
    rules = rules_for(table)
    played = np.zeros((table.players, NUM_KINDS), dtype=np.int64)
    won = [0] * table.num_teams
    plays = tuple((int(s), int(c)) for s, c in plays)
    done = len(plays) - len(plays) % table.players
    lead = leader
    for t0 in range(0, done, table.players):
        trick = plays[t0:t0 + table.players]
        winner = trick[trick_winner([c for _, c in trick], trump)][0]
        won[table.team_of(winner)] += sum(RANK_POINTS[c % 8] for _, c in trick)
        lead = winner
    for s, c in plays:
        played[s - 1, c] += 1
    return Known(table, rules, NO_TRUMP if trump is None else int(trump), lead - 1,
                 tuple(card_bit(c) for _, c in plays[done:]), tuple(won), played, plays)


def work_array(enc: Encoded, side: int) -> np.ndarray:
    """The kernels' work array ``W`` for a search by team ``side`` (node limit unset)."""
    W = _work_template(enc.rules, side).copy()
    n = enc.rules.seats
    W[kernels.O_H1:kernels.O_H1 + n] = enc.h1
    W[kernels.O_H2:kernels.O_H2 + n] = enc.h2
    W[kernels.P_TRUMP] = enc.trump
    return W


@lru_cache(maxsize=64)
def _work_template(r: Rules, side: int) -> np.ndarray:
    """The part of ``W`` that depends only on the rules and the side (built once)."""
    W = np.zeros(kernels.W_SIZE, dtype=np.int64)
    n = r.seats
    W[kernels.O_ISMAX:kernels.O_ISMAX + n] = r.ismax(side)
    W[kernels.O_SUIT:kernels.O_SUIT + 64] = r.kind_suit
    W[kernels.O_PTS:kernels.O_PTS + 64] = r.kind_points
    W[kernels.O_SMASK:kernels.O_SMASK + 4] = SUIT_MASKS
    W[kernels.P_NSEAT] = n
    W[kernels.P_BONUS] = r.trick_points
    W[kernels.P_ABUCKET] = r.abstract_bucket
    W[kernels.ST_LIMIT] = 2 ** 62
    W[kernels.P_EXACT] = EXACT_TRICKS * n
    W[kernels.P_BUDGET], W[kernels.P_BGROW], W[kernels.P_BCARDS] = kernels.budget_order(n)
    W[kernels.P_BAFTER] = kernels.BUDGET_AFTER
    pts = r.kind_points[r.kind_suit >= 0]
    # (bridge, no card points: a winner thrown on a teammate's trick gives nothing anyway)
    W[kernels.P_KEEP] = kernels.keep_weight(n) if pts.max(initial=0) > 0 else 0
    W[kernels.P_MAXPTS] = pts.max(initial=0)
    W[kernels.P_TOWARD] = kernels.toward_weight(n)
    W[kernels.P_WINB] = kernels.window_bound(n) if pts.max(initial=0) > 0 else 0
    W[kernels.P_NDIV], W[kernels.P_NAFTER] = kernels.narrow_order(n)
    W[kernels.P_NMID] = kernels.narrow_middle(n)
    W[kernels.P_RORD], W[kernels.P_RSHARE] = kernels.root_order(n)
    W[kernels.P_CUTSET] = kernels.cut_key_parts(n) if pts.max(initial=0) > 0 else 0
    # (bridge, no card points at 4 seats: DDS's lead weights)
    W[kernels.P_DDSLEAD] = int(n == 4 and pts.max(initial=0) == 0)
    # (and each card held once: _quick counts with bits)
    W[kernels.P_BRIDGE] = int(n == 4 and pts.max(initial=0) == 0 and r.copies == 1)
    # payoff-similar table entries need card points 0..3 (some above 0) and 32 seat-suit groups at most
    W[kernels.P_PAYOFF] = int(pts.max(initial=0) > 0 and pts.max() <= 3 and pts.min() >= 0 and n * 4 <= 32)
    for p in range(4):
        W[kernels.O_PM + p] = np.array([_mask(np.flatnonzero((r.kind_suit >= 0) & (r.kind_points == p)).tolist())],
                                 dtype=np.uint64).astype(np.int64)[0]
    W.flags.writeable = False
    return W
