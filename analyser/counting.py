"""Counting the deals that keep a set of promises: the dealer's engine.

Each hidden seat's promises about its hand as dealt are first rewritten (``Lowering``) as
bounds on the cards it has not shown yet: an ``Atom`` says "this seat gets lo..hi of the
unseen copies of these kinds"; either/or promises become ``AllOf`` / ``AnyOf`` trees of
atoms. A seat's promises are a list of such conjuncts: bare atoms must hold, trees are
checked where their last card kind has been dealt.

``Programme`` then counts: the unseen kinds are taken one at a time, and a dynamic
programme over states (cards still needed per constrained seat, clipped partial counts of
each atom still open, truth bits of atoms an open either/or still needs) counts the
weighted completions of every state (each layer's step for all its states and patterns at
once in ``analyser._count_kernels``). A kind with two unseen copies split between two seats
weighs twice a pair held together (two physical cards, RULES.md section 8). Seats with no
promise form one pool, dealt among themselves afterwards by a plain shuffle. ``sample``
draws kind by kind in proportion to those counts.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from fiftysix.analyser._count_kernels import (
    A_COLS,
    OP_ALL,
    OP_ANY,
    OP_ATOM,
    OP_MUST,
    layer_codes,
    unique_moves,
    weigh_back,
)
from fiftysix.analyser.view import View
from fiftysix.cards import CARD_NAMES, NUM_KINDS, NUM_RANKS, SUIT_NAMES, Table
from fiftysix.constraints import All, Constraint, Count
from fiftysix.errors import ConstraintError, DealError

# --- promises as bounds on the unseen cards ---------------------------------------------------


@dataclass(frozen=True, eq=False)
class Atom:
    """Seat ``seat`` is dealt ``lo``..``hi`` of the unseen copies of ``kinds``."""

    seat: int
    kinds: tuple[int, ...]  # unseen kinds only
    lo: int                 # bounds on unknown copies the seat gets
    hi: int
    top: int                # most it could get (unseen copies, capped by the cards it needs)
    text: str

    @property
    def has_hi(self) -> bool:
        return self.hi < self.top

    def atoms(self) -> tuple[Atom, ...]:
        return (self,)

    def holds(self, truth: Mapping[Atom, np.ndarray]) -> np.ndarray:
        """Which rows keep this promise, given each atom's truth per row."""
        return truth[self]

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True, eq=False)
class _Group:
    """Parts joined by ``&`` (AllOf) or ``|`` (AnyOf); the subclass names the join."""

    parts: tuple[Node, ...]
    both = True
    joiner = "; "

    def atoms(self) -> tuple[Atom, ...]:
        return tuple(a for p in self.parts for a in p.atoms())

    def holds(self, truth: Mapping[Atom, np.ndarray]) -> np.ndarray:
        out = self.parts[0].holds(truth).copy()
        for p in self.parts[1:]:
            if self.both:
                out &= p.holds(truth)
            else:
                out |= p.holds(truth)
        return out

    def describe(self) -> str:
        return self.joiner.join(p.describe() for p in self.parts)


class AllOf(_Group):
    """Every part holds."""


class AnyOf(_Group):
    """At least one part holds."""

    both = False
    joiner = " or "


Node = Atom | AllOf | AnyOf


def keeps(t: Node, dealt: np.ndarray) -> np.ndarray:
    """Which rows of ``dealt`` (copies of each of the 32 kinds dealt beyond what is known,
    one row a hand) keep the promise ``t``."""
    truth = {}
    for a in t.atoms():
        got = dealt[:, list(a.kinds)].sum(axis=1)
        truth[a] = (got >= a.lo) & (got <= a.hi)
    return t.holds(truth)


def name_kinds(kinds: Sequence[int], table: Table) -> str:
    """The kinds as a player says them: a suit's name, one card's name, or a list."""
    ks = set(kinds)
    suits = {k // NUM_RANKS for k in ks}
    if len(suits) == 1:
        s = next(iter(suits))
        if ks >= {k for k in table.kinds() if k // NUM_RANKS == s}:
            return SUIT_NAMES[s]
    if len(ks) == 1:
        return CARD_NAMES[next(iter(ks))]
    return "of " + " ".join(CARD_NAMES[k] for k in sorted(ks))


class Lowering:
    """Rewrites each seat's promise as bounds on its unknown cards and folds constants."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.u = view.unseen()
        self.need = view.needs()
        self.played = {s: np.bincount(np.asarray(view.played_by(s), dtype=np.int64), minlength=NUM_KINDS)
                       for s in view.hidden_seats}

    def atom(self, seat: int, c: Count) -> Atom | bool:
        """An atom, or True when the count holds whatever is dealt. Raises ConstraintError,
        saying why, when it cannot hold."""
        kinds = tuple(k for k in c.kinds if self.u[k] > 0)
        p = int(sum(self.played[seat][k] for k in c.kinds))
        unseen = int(sum(self.u[k] for k in kinds))
        top = min(unseen, self.need[seat])
        lo, hi = c.lo - p, c.hi - p
        what = name_kinds(c.kinds, self.view.table)
        if hi < 0:
            raise ConstraintError(f"seat {seat} promised {c.describe()}, but has already played {p} {what}")
        if lo > unseen:
            raise ConstraintError(f"seat {seat} promised {c.describe()}" + (f" and has played {p}" if p else "")
                                  + f", only {unseen} {what} are unseen")
        if lo > top:
            raise ConstraintError(f"seat {seat} promised {c.describe()}, but has only {self.need[seat]}"
                                  " unknown cards left")
        if lo <= 0 and hi >= top:
            return True
        return Atom(seat, kinds, max(lo, 0), min(hi, top), top, c.describe())

    def tree(self, seat: int, c: Constraint) -> Node | bool:
        """The promise as a tree of atoms, or the constant it folds to."""
        if isinstance(c, Count):
            try:
                return self.atom(seat, c)
            except ConstraintError:
                return False
        parts = [self.tree(seat, p) for p in c.parts]
        both = isinstance(c, All)
        if (not both) in parts:  # a False part of All, a True part of an either/or
            return not both
        nodes = tuple(p for p in parts if not isinstance(p, bool))
        if not nodes:
            return both
        if len(nodes) == 1:
            return nodes[0]
        return AllOf(nodes) if both else AnyOf(nodes)

    def conjuncts(self, seat: int, c: Constraint) -> list[Node]:
        """The seat's top-level promises: must-hold atoms, then either/or trees.

        Raises ConstraintError naming the promise when one cannot hold on its own.
        """
        out: list[Node] = []

        def walk(node: Constraint) -> None:
            if isinstance(node, All):
                for p in node.parts:
                    walk(p)
                return
            if isinstance(node, Count):
                a = self.atom(seat, node)
                if isinstance(a, Atom):
                    out.append(a)
                return
            t = self.tree(seat, node)
            if t is False:
                raise ConstraintError(f"seat {seat} promised {node.describe()}: no choice of it fits the unseen cards")
            if t is not True:
                out.append(t)
        walk(c)
        # merge must-hold atoms over the same cards
        merged: dict[tuple[int, ...], Atom] = {}
        rest = []
        for t in out:
            if not isinstance(t, Atom):
                rest.append(t)
                continue
            if t.kinds in merged:
                b = merged[t.kinds]
                lo, hi = max(t.lo, b.lo), min(t.hi, b.hi)
                if lo > hi:
                    raise ConstraintError(f"seat {seat} promised {b.text} and {t.text}")
                merged[t.kinds] = Atom(seat, t.kinds, lo, hi, t.top, f"{b.text} and {t.text}")
            else:
                merged[t.kinds] = t
        return list(merged.values()) + rest


def need_space(view: View, conj: Mapping[int, list[Node]]) -> int:
    """How many vectors of cards-still-needed the programme may have to tell apart."""
    need = view.needs()
    sizes = sorted(need[s] + 1 for s, ts in conj.items() if ts)
    if len(sizes) == len(conj):  # no pool: the last seat's need follows from the others
        sizes = sizes[:-1]
    return math.prod(sizes)


# --- the counting programme ---------------------------------------------------------------------

MAX_STATES = 400_000
"""The most states one layer of the programme may hold before promises go to rejection."""
KEEP_MOVES = 4_000_000
"""The forward pass keeps each layer's moves (state and pattern to next state) while all of
them together stay under this many entries (16 MB): the backward pass and every draw then
look them up instead of working each layer out again (two 32-call all-`default` classic
auctions under cProfile, 2026-12-02: the dealer's draws 1.95 s -> 0.25 s, its counting 2.68 s
-> 1.97 s; the same deals)."""


class TooBig(Exception):
    """The programme would need more states than it was allowed."""


@dataclass(frozen=True)
class Layout:
    """The digits of a state before one layer (one unseen kind): the cards still needed by
    each group but the last, the clipped running count of each atom begun and not finished,
    and the truth bit of each finished atom that an unfinished either/or still needs."""

    groups: int                 # need digits come first, one per group but the last
    counts: tuple[int, ...]     # atom of each count digit, after the need digits
    bits: tuple[int, ...]       # atom of each truth-bit digit, after the count digits
    radix: np.ndarray
    strides: np.ndarray
    count_at: dict[int, int] = field(init=False)  # atom -> its count digit
    bit_at: dict[int, int] = field(init=False)    # atom -> its truth-bit digit

    def __post_init__(self) -> None:
        first_bit = self.groups + len(self.counts)
        object.__setattr__(self, "count_at", {j: self.groups + q for q, j in enumerate(self.counts)})
        object.__setattr__(self, "bit_at", {j: first_bit + q for q, j in enumerate(self.bits)})

    def encode(self, D: np.ndarray) -> np.ndarray:
        return D @ self.strides if D.shape[1] else np.zeros(len(D), dtype=np.int64)


class Programme:
    """The layered count over unseen kinds for a fixed set of conjuncts (a list per seat)."""

    def __init__(self, view: View, u: np.ndarray, conj: Mapping[int, list[Node]],
                 max_states: int, forward_only: bool = False) -> None:
        self.view = view
        hidden = view.hidden_seats
        need = view.needs()
        self.constrained = [s for s in hidden if conj.get(s)]
        self.pool = [s for s in hidden if not conj.get(s)]
        groups = list(self.constrained) + ([tuple(self.pool)] if self.pool else [])
        self.G = G = len(groups)
        self.group_need = [need[s] for s in self.constrained] + ([sum(need[s] for s in self.pool)] if self.pool else [])
        self.group_of = {s: g for g, s in enumerate(self.constrained)}
        self.kinds = [int(k) for k in np.nonzero(u)[0]]
        self.u = [int(u[k]) for k in self.kinds]
        L = len(self.kinds)
        self.R = [sum(self.u[i:]) for i in range(L + 1)]  # unseen cards left before layer i
        if sum(self.group_need) != self.R[0]:
            raise DealError(f"{self.R[0]} cards are unseen but the hidden seats need {sum(self.group_need)}")
        layer_of = {k: i for i, k in enumerate(self.kinds)}
        # atoms, and the either/or trees over them
        self.atoms: list[Atom] = []
        self.must: list[bool] = []
        self.nodes: list[Node] = []
        self.node_atoms: list[list[int]] = []
        for s in self.constrained:
            for t in conj[s]:
                ids = []
                for a in t.atoms():
                    ids.append(len(self.atoms))
                    self.atoms.append(a)
                    self.must.append(isinstance(t, Atom))
                if not isinstance(t, Atom):
                    self.nodes.append(t)
                    self.node_atoms.append(ids)
        A = len(self.atoms)
        self.first = [min(layer_of[k] for k in a.kinds) for a in self.atoms]
        self.last = [max(layer_of[k] for k in a.kinds) for a in self.atoms]
        self.node_last = [max(self.last[j] for j in ids) for ids in self.node_atoms]
        self.in_atom = np.zeros((L, max(A, 1)), dtype=bool)
        for j, a in enumerate(self.atoms):
            for k in a.kinds:
                self.in_atom[layer_of[k], j] = True
        # copies of each atom's kinds in layers after i
        self.rem_after = np.zeros((L, max(A, 1)), dtype=np.int64)
        for j, a in enumerate(self.atoms):
            for i in range(L):
                self.rem_after[i, j] = sum(self.u[layer_of[k]] for k in a.kinds if layer_of[k] > i)
        # patterns per copy count
        self.patterns: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for c in set(self.u):
            pats = [d for d in product(range(c + 1), repeat=G) if sum(d) == c]
            w = [math.factorial(c) / math.prod(math.factorial(x) for x in d) for d in pats]
            self.patterns[c] = (np.array(pats, dtype=np.int64).reshape(len(pats), G), np.array(w))
        self.layouts = [self._layout(i) for i in range(L + 1)]
        self.plans: list[tuple[object, ...] | None] = [None] * L
        self.moves: list[np.ndarray | None] = [None] * L
        """Per layer, where kept: the next state's index for each state and pattern, -1 where
        the pattern breaks a promise (``KEEP_MOVES``)."""
        self._forward(max_states)
        if not forward_only and self.feasible:
            self._backward()

    def _layout(self, i: int) -> Layout:
        """The digits of a state before layer ``i``."""
        counts = tuple(j for j in range(len(self.atoms)) if self.first[j] < i <= self.last[j])
        bits = tuple(j for n, ids in enumerate(self.node_atoms) if self.node_last[n] >= i
                     for j in ids if self.last[j] < i)
        radix = [self.group_need[g] + 1 for g in range(self.G - 1)]
        for j in counts:
            a = self.atoms[j]
            if self.must[j]:
                radix.append((a.hi if a.has_hi else a.lo) + 1)
            else:
                radix.append((a.hi + 1 if a.has_hi else a.lo) + 1)
        radix += [2] * len(bits)
        strides, acc = [], 1
        for r in radix:
            strides.append(acc)
            acc *= r
        if acc >= 2 ** 62:
            raise TooBig()
        return Layout(self.G - 1, counts, bits, np.array(radix, dtype=np.int64), np.array(strides, dtype=np.int64))

    def _plan(self, i: int) -> tuple[object, ...]:
        """Layer i's work as the kernel's arrays (``analyser._count_kernels.layer_codes``)."""
        here, nxt = self.layouts[i], self.layouts[i + 1]
        rows = [(j, self.last[j] == i, self.must[j], a.has_hi, a.lo, a.hi, self.group_of[a.seat],
                 self.in_atom[i, j], self.rem_after[i, j], here.count_at.get(j, -1))
                for j, a in enumerate(self.atoms) if self.first[j] <= i <= self.last[j]]
        plan = np.array(rows, dtype=np.int64).reshape(-1, A_COLS)
        here_bits = np.array([(j, here.bit_at[j]) for j in here.bits], dtype=np.int64).reshape(-1, 2)
        out_count = np.array([(j, nxt.count_at[j]) for j in nxt.counts], dtype=np.int64).reshape(-1, 2)
        out_bit = np.array([(j, nxt.bit_at[j]) for j in nxt.bits], dtype=np.int64).reshape(-1, 2)
        index = {id(a): j for j, a in enumerate(self.atoms)}
        tree: list[tuple[int, int]] = []

        def emit(t: Node) -> None:
            if isinstance(t, Atom):
                tree.append((OP_ATOM, index[id(t)]))
                return
            for part in t.parts:
                emit(part)
            tree.append((OP_ALL if t.both else OP_ANY, len(t.parts)))
        for n, t in enumerate(self.nodes):
            if self.node_last[n] == i:
                emit(t)
                tree.append((OP_MUST, 0))
        return (here.strides, here.radix, nxt.strides, self.patterns[self.u[i]][0], self.G - 1, self.R[i + 1],
                len(self.atoms), plan, here_bits, out_count, out_bit, np.array(tree, dtype=np.int64).reshape(-1, 2))

    def _codes(self, i: int, codes: np.ndarray) -> np.ndarray:
        """The next layer's code of each state ``codes`` of layer i under each pattern, shape
        (m, patterns); -1 where the pattern breaks a promise."""
        plan = self.plans[i]
        if plan is None:
            plan = self.plans[i] = self._plan(i)
        out: np.ndarray = layer_codes(codes, *plan)
        return out

    def _forward(self, max_states: int) -> None:
        init = np.array([[self.group_need[g] for g in range(self.G - 1)]], dtype=np.int64)
        self.states = [self.layouts[0].encode(init)]
        self.peak = 1
        kept = 0
        for i in range(len(self.kinds)):
            s, moves = unique_moves(self._codes(i, self.states[i]))
            self.states.append(s)
            self.peak = max(self.peak, len(s))
            if len(s) > max_states:
                raise TooBig()
            if len(s) == 0:
                break
            kept += moves.size
            if kept <= KEEP_MOVES:
                self.moves[i] = moves
        self.feasible = len(self.states) == len(self.kinds) + 1 and len(self.states[-1]) > 0

    def _moves(self, i: int, idx: np.ndarray | None = None) -> np.ndarray:
        """For the states ``idx`` of layer i (all when None): the next state's index under each
        pattern, shape (m, patterns), -1 where the pattern breaks a promise."""
        moves = self.moves[i]
        if moves is not None:
            return moves if idx is None else moves[idx]
        nc = self._codes(i, self.states[i] if idx is None else self.states[i][idx])
        return np.where(nc >= 0, np.searchsorted(self.states[i + 1], nc), -1)

    def _backward(self) -> None:
        L = len(self.kinds)
        f: list[np.ndarray] = [np.zeros(0)] * (L + 1)
        f[L] = np.ones(len(self.states[L]))
        for i in range(L - 1, -1, -1):
            f[i] = weigh_back(self._moves(i), self.patterns[self.u[i]][1], f[i + 1])
        self.f = f
        self.total = float(f[0][0])

    def sample(self, r: np.ndarray) -> np.ndarray:
        """Kind counts per group, shape (m, G, 32), for uniforms ``r`` of shape (L, m)."""
        m = r.shape[1]
        out = np.zeros((m, self.G, NUM_KINDS), dtype=np.int64)
        idx = np.zeros(m, dtype=np.int64)
        for i, k in enumerate(self.kinds):
            pats, w = self.patterns[self.u[i]]
            nidx = self._moves(i, idx)
            weights = np.where(nidx >= 0, w[None, :] * self.f[i + 1][nidx], 0.0)
            cum = np.cumsum(weights, axis=1)
            pick = (cum <= (r[i] * cum[:, -1])[:, None]).sum(axis=1)
            pick = np.minimum(pick, len(pats) - 1)
            out[:, :, k] = pats[pick]
            idx = nidx[np.arange(m), pick]
        return out
