"""Constrained dealing, exact to what a real shuffle gives.

A seat knows its own hand, the cards already played and what the other seats' calls
promise. ``Dealer`` draws the hidden cards from exactly the posterior a real shuffle
gives: every arrangement of the *physical* cards that keeps every promise is equally
likely. The two copies of a kind are two cards, so an assignment of kind counts to seats
weighs ``prod_k multinomial(unseen copies of k; copies per seat)``: a split pair comes
from twice as many shuffles as a pair held together (RULES.md section 8).

Method (sequential conditional sampling, no rejection for what it can count): the unseen
kinds are taken one at a time; a dynamic programme over states (cards still needed per
constrained seat, clipped partial counts of each promise still open, truth bits of
either/or parts) counts the weighted completions of every state, and a deal is drawn
kind by kind in proportion to those counts. Seats with no promise are merged into one
pool whose cards are then dealt among them by a plain physical shuffle (exact, because
every split of the pool has the same number of shuffles). Only when the state space would
grow too big (many seats with promises at 8-player tables, many promises across suits) are
some promises moved to a rejection step on top: first those of the seat most likely to keep
them anyway, then the widest. The acceptance rate of that step is then reported.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Mapping, Sequence

import numpy as np

from fiftysix.cards import (CARD_NAMES, COPIES, NUM_KINDS, NUM_RANKS, SUIT_NAMES, Card, Deal, Hand,
                            Table)
from fiftysix.constraints import TRUE, All, Constraint, Count, conjoin, suit_kinds
from fiftysix.errors import ConstraintError, DealError

CHUNK = 256
"""Deals are drawn in chunks of this many, each from its own slice of the random stream,
so the first k deals of a run do not depend on how many are asked for."""


# --- what a seat knows ----------------------------------------------------------------------

@dataclass(frozen=True)
class Promise:
    """One call's promise about its caller's hand as dealt (RULES.md 6: it may be a bluff)."""

    seat: int
    index: int          # the call's position in the auction, from 1
    call: str
    label: str
    constraint: Constraint

    def describe(self) -> str:
        return f"seat {self.seat}'s {self.call} (call {self.index}, {self.label})"


@dataclass(frozen=True)
class SetAside:
    """A promise the dealer set aside because it cannot hold with the rest, and why."""

    promise: Promise
    reason: str

    def __str__(self) -> str:
        return f"set aside {self.promise.describe()}: {self.reason}"

    def to_dict(self) -> dict:
        p = self.promise
        return {"seat": p.seat, "index": p.index, "call": p.call, "label": p.label,
                "promise": p.constraint.describe(), "reason": self.reason}


def auction_promises(auction) -> tuple[Promise, ...]:
    """Every call of ``auction`` (a ``fiftysix.bidding.Auction``) that promises something."""
    return tuple(Promise(r.seat, r.index, str(r.call), r.meaning.label, r.meaning.constraint)
                 for r in auction.calls if r.meaning.constraint != TRUE)


@dataclass(frozen=True)
class View:
    """What one seat knows: its hand, the plays so far and every seat's promises.

    ``hand`` is the seat's hand as dealt (its played cards included). ``plays`` lists
    ``(seat, card)`` in playing order from the first trick; ``leader`` led the first trick.
    ``constraints`` maps seats to promises about their hands *as dealt* that must hold;
    ``calls`` lists the auction's promises one call at a time: where they cannot all hold (a
    bluff, a mistake), the dealer sets the fewest of them aside (``settle``). A promise of
    the viewing seat itself is ignored (it knows its hand).
    """

    table: Table
    seat: int
    hand: Hand
    constraints: Mapping[int, Constraint] = field(default_factory=dict)
    plays: tuple[tuple[int, Card], ...] = ()
    leader: int = 1
    calls: tuple[Promise, ...] = ()

    def __post_init__(self) -> None:
        t = self.table
        t.check_seat(self.seat)
        t.check_seat(self.leader)
        object.__setattr__(self, "plays", tuple((int(s), Card(c)) for s, c in self.plays))
        object.__setattr__(self, "constraints", {int(s): c for s, c in dict(self.constraints).items()})
        if len(self.hand) != t.hand_size:
            raise DealError(f"seat {self.seat}'s hand has {len(self.hand)} cards; this table deals {t.hand_size}")
        in_deck = set(t.kinds())
        seen = list(self.hand.counts())
        for c in self.hand:
            if c not in in_deck:
                raise DealError(f"{c} is not in the {t.deck}-card deck")
        for s in self.constraints:
            t.check_seat(s)
        object.__setattr__(self, "calls", tuple(self.calls))
        for p in self.calls:
            t.check_seat(p.seat)
        own = list(self.hand.counts())
        per_seat = {s: 0 for s in t.seats}
        for s, c in self.plays:
            t.check_seat(s)
            if c not in in_deck:
                raise DealError(f"seat {s} played {c}, which is not in the {t.deck}-card deck")
            per_seat[s] += 1
            if per_seat[s] > t.hand_size:
                raise DealError(f"seat {s} has played more than {t.hand_size} cards")
            if s == self.seat:
                own[c] -= 1
                if own[c] < 0:
                    raise DealError(f"seat {s} played {c} but its hand does not hold that many")
            else:
                seen[c] += 1
                if seen[c] > COPIES:
                    raise DealError(f"{c} has been seen {seen[c]} times; the deck has only {COPIES}")

    @classmethod
    def from_auction(cls, table: Table, system: str, seat: int, hand: Hand | str, auction_text: str,
                     played: Sequence[int | str] | str = (), leader: int = 1) -> "View":
        """The view of ``seat`` holding ``hand`` after the auction ``auction_text`` in ``system``.

        ``played`` lists the cards played so far in order (text or cards); the seat of each
        play follows from the trick winners under the auction's contract. ``hand`` may be
        the hand as dealt or what is left of it after the seat's own plays.
        """
        from fiftysix.bidding import Auction  # the bidding package is a peer of this layer's input
        a = Auction.parse(auction_text, system, table)
        trump = getattr(a.contract, "trump", None) if a.contract is not None else None
        return cls.with_plays(table, seat, hand, {}, played, trump, leader, auction_promises(a))

    @classmethod
    def with_plays(cls, table: Table, seat: int, hand: Hand | str,
                   constraints: Mapping[int, Constraint], played: Sequence[int | str] | str,
                   trump: int | None, leader: int = 1, calls: Sequence[Promise] = ()) -> "View":
        """Build a view from a card sequence: seats of the plays follow from trick winners.
        ``constraints`` must hold; ``calls`` are the auction's promises (``auction_promises``)."""
        from fiftysix.cards import parse_cards
        from fiftysix.play import trick_winner
        h = Hand.parse(hand) if isinstance(hand, str) else hand
        cards = parse_cards(played) if isinstance(played, str) else [
            Card.parse(c) if isinstance(c, str) else Card(c) for c in played]
        plays: list[tuple[int, Card]] = []
        lead, trick = leader, []
        for c in cards:
            s = table.next_seat(trick[-1][0]) if trick else lead
            trick.append((s, c))
            plays.append((s, c))
            if len(trick) == table.players:
                lead = trick[trick_winner([x for _, x in trick], trump)][0]
                trick = []
        if len(h) < table.hand_size:  # the hand left: add back the seat's own plays
            h = Hand(h.cards + tuple(c for s, c in plays if s == seat))
        return cls(table, seat, h, constraints, tuple(plays), leader, tuple(calls))

    def promises(self, seat: int) -> Constraint:
        """Everything known about ``seat``'s hand as dealt: its calls' promises and, from
        the play, every suit it showed out of (it then held no more of that suit than it
        had played before that trick)."""
        parts: list[Constraint] = []
        if seat in self.constraints:
            parts.append(self.constraints[seat])
        parts.extend(p.constraint for p in self.calls if p.seat == seat)
        n = self.table.players
        shown: dict[int, int] = {}
        for t0 in range(0, len(self.plays), n):
            trick = self.plays[t0:t0 + n]
            led = trick[0][1].suit
            for s, c in trick[1:]:
                if s == seat and c.suit != led and led not in shown:
                    before = sum(1 for q, x in self.plays[:t0] if q == seat and x.suit == led)
                    shown[led] = before
                    parts.append(Count(suit_kinds(led), 0, before,
                                       f"no more {SUIT_NAMES[led]} than the {before} played before showing out"))
        return conjoin(*parts) if parts else TRUE

    def played_by(self, seat: int) -> tuple[Card, ...]:
        return tuple(c for s, c in self.plays if s == seat)

    @property
    def hidden_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.table.seats if s != self.seat)

    def unseen(self) -> np.ndarray:
        """Unseen copies of each of the 32 kinds (0, 1 or 2)."""
        u = np.zeros(NUM_KINDS, dtype=np.int64)
        for k in self.table.kinds():
            u[k] = COPIES
        u -= np.asarray(self.hand.counts(), dtype=np.int64)
        for s, c in self.plays:
            if s != self.seat:
                u[c] -= 1
        return u

    def known_counts(self) -> np.ndarray:
        """Kind counts known in each seat's hand as dealt, shape (players, 32): the viewing
        seat's whole hand, and the cards the others have played."""
        base = np.zeros((self.table.players, NUM_KINDS), dtype=np.int64)
        base[self.seat - 1] = self.hand.counts()
        for s, c in self.plays:
            if s != self.seat:
                base[s - 1, c] += 1
        return base

    def needs(self) -> dict[int, int]:
        """Cards still unknown in each hidden seat."""
        return {s: self.table.hand_size - len(self.played_by(s)) for s in self.hidden_seats}


# --- promises, rewritten in terms of the dealt (unknown) cards ------------------------------

@dataclass(frozen=True)
class _Atom:
    seat: int
    kinds: tuple[int, ...]  # unseen kinds only
    lo: int                 # bounds on unknown copies the seat gets
    hi: int
    top: int                # most it could get (unseen copies, capped by the cards it needs)
    text: str

    @property
    def has_hi(self) -> bool:
        return self.hi < self.top


def _what(kinds: Sequence[int], table: Table) -> str:
    ks = set(kinds)
    suits = {k // NUM_RANKS for k in ks}
    if len(suits) == 1:
        s = next(iter(suits))
        if ks >= {k for k in table.kinds() if k // NUM_RANKS == s}:
            return SUIT_NAMES[s]
    if len(ks) == 1:
        return CARD_NAMES[next(iter(ks))]
    return "of " + " ".join(CARD_NAMES[k] for k in sorted(ks))


class _Lowering:
    """Rewrites each seat's promise as bounds on its unknown cards and folds constants."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.u = view.unseen()
        self.need = view.needs()
        self.played = {s: np.bincount(np.asarray(view.played_by(s), dtype=np.int64), minlength=NUM_KINDS)
                       for s in view.hidden_seats}

    def atom(self, seat: int, c: Count) -> _Atom | bool | str:
        """An atom, a constant, or (for a broken promise) the reason it cannot hold."""
        kinds = tuple(k for k in c.kinds if self.u[k] > 0)
        p = int(sum(self.played[seat][k] for k in c.kinds))
        unseen = int(sum(self.u[k] for k in kinds))
        top = min(unseen, self.need[seat])
        lo, hi = c.lo - p, c.hi - p
        what = _what(c.kinds, self.view.table)
        if hi < 0:
            return f"seat {seat} promised {c.describe()}, but has already played {p} {what}"
        if lo > unseen:
            return f"seat {seat} promised {c.describe()}" + (f" and has played {p}" if p else "") + \
                f", only {unseen} {what} are unseen"
        if lo > top:
            return f"seat {seat} promised {c.describe()}, but has only {self.need[seat]} unknown cards left"
        if lo <= 0 and hi >= top:
            return True
        return _Atom(seat, kinds, max(lo, 0), min(hi, top), top, c.describe())

    def tree(self, seat: int, c: Constraint):
        """('atom', _Atom) / ('all', parts) / ('any', parts) / ('const', bool)."""
        if isinstance(c, Count):
            a = self.atom(seat, c)
            if isinstance(a, _Atom):
                return ("atom", a)
            return ("const", a is True)
        parts = [self.tree(seat, p) for p in c.parts]
        if isinstance(c, All):
            if any(p == ("const", False) for p in parts):
                return ("const", False)
            parts = [p for p in parts if p[0] != "const"]
            if not parts:
                return ("const", True)
            return parts[0] if len(parts) == 1 else ("all", parts)
        if any(p == ("const", True) for p in parts):
            return ("const", True)
        parts = [p for p in parts if p[0] != "const"]
        if not parts:
            return ("const", False)
        return parts[0] if len(parts) == 1 else ("any", parts)

    def conjuncts(self, seat: int, c: Constraint) -> list[tuple]:
        """The seat's top-level promises: must-hold atoms and either/or trees.

        Raises ConstraintError naming the promise when one cannot hold on its own.
        """
        out: list[tuple] = []

        def walk(node: Constraint) -> None:
            if isinstance(node, All):
                for p in node.parts:
                    walk(p)
                return
            if isinstance(node, Count):
                a = self.atom(seat, node)
                if isinstance(a, str):
                    raise ConstraintError(a)
                if isinstance(a, _Atom):
                    out.append(("atom", a))
                return
            t = self.tree(seat, node)
            if t == ("const", False):
                raise ConstraintError(f"seat {seat} promised {node.describe()}: no choice of it fits the unseen cards")
            if t[0] != "const":
                out.append(t)
        walk(c)
        # merge must-hold atoms over the same cards
        merged: dict[tuple[int, ...], _Atom] = {}
        rest = []
        for t in out:
            if t[0] != "atom":
                rest.append(t)
                continue
            a = t[1]
            if a.kinds in merged:
                b = merged[a.kinds]
                lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
                if lo > hi:
                    raise ConstraintError(f"seat {seat} promised {b.text} and {a.text}")
                merged[a.kinds] = _Atom(seat, a.kinds, lo, hi, a.top, f"{b.text} and {a.text}")
            else:
                merged[a.kinds] = a
        return [("atom", a) for a in merged.values()] + rest


def _tree_atoms(t) -> list[_Atom]:
    if t[0] == "atom":
        return [t[1]]
    if t[0] == "const":
        return []
    return [a for p in t[1] for a in _tree_atoms(p)]


def _tree_eval(t, truth: Mapping[int, np.ndarray], ids: Mapping[int, int], m: int) -> np.ndarray:
    if t[0] == "atom":
        return truth[ids[id(t[1])]]
    if t[0] == "const":
        return np.full(m, t[1])
    vals = [_tree_eval(p, truth, ids, m) for p in t[1]]
    out = vals[0].copy()
    for v in vals[1:]:
        out = (out & v) if t[0] == "all" else (out | v)
    return out


def _describe_tree(t) -> str:
    if t[0] == "atom":
        return t[1].text
    if t[0] == "const":
        return str(t[1])
    sep = "; " if t[0] == "all" else " or "
    return sep.join(_describe_tree(p) for p in t[1])


# --- the counting programme ---------------------------------------------------------------------

class _TooBig(Exception):
    pass


class _Programme:
    """The layered DP over unseen kinds for a fixed set of conjuncts (one per seat list)."""

    def __init__(self, view: View, u: np.ndarray, conj: Mapping[int, list[tuple]],
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
        # atoms and nodes
        self.atoms: list[_Atom] = []
        self.atom_id: dict[int, int] = {}
        self.must: list[bool] = []
        self.nodes: list[tuple] = []  # soft trees
        self.node_atoms: list[list[int]] = []
        for s in self.constrained:
            for t in conj[s]:
                ids = []
                for a in _tree_atoms(t):
                    self.atom_id[id(a)] = len(self.atoms)
                    ids.append(len(self.atoms))
                    self.atoms.append(a)
                    self.must.append(t[0] == "atom")
                if t[0] != "atom":
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
        # layouts: state before layer i
        self.layouts: list[list[tuple[str, int]]] = []
        for i in range(L + 1):
            lay: list[tuple[str, int]] = [("need", g) for g in range(G - 1)]
            for j in range(A):
                if self.first[j] < i <= self.last[j]:
                    lay.append(("count", j))
            for n, ids in enumerate(self.node_atoms):
                if self.node_last[n] >= i:
                    for j in ids:
                        if self.last[j] < i:
                            lay.append(("bit", j))
            self.layouts.append(lay)
        self.radix = [[self._radix(v) for v in lay] for lay in self.layouts]
        self.strides = []
        for rad in self.radix:
            st, acc = [], 1
            for r in rad:
                st.append(acc)
                acc *= r
            if acc >= 2 ** 62:
                raise _TooBig()
            self.strides.append(np.array(st, dtype=np.int64))
        self.pos = [{v: p for p, v in enumerate(lay)} for lay in self.layouts]
        self._forward(max_states)
        if not forward_only and self.feasible:
            self._backward()

    def _radix(self, v: tuple[str, int]) -> int:
        kind, j = v
        if kind == "need":
            return self.group_need[j] + 1
        if kind == "bit":
            return 2
        a = self.atoms[j]
        if self.must[j]:
            return (a.hi if a.has_hi else a.lo) + 1
        return (a.hi + 1 if a.has_hi else a.lo) + 1

    def _decode(self, i: int, codes: np.ndarray) -> np.ndarray:
        rad = np.array(self.radix[i], dtype=np.int64)
        return (codes[:, None] // self.strides[i][None, :]) % rad[None, :] if len(rad) else \
            np.zeros((len(codes), 0), dtype=np.int64)

    def _encode(self, i: int, D: np.ndarray) -> np.ndarray:
        return D @ self.strides[i] if D.shape[1] else np.zeros(len(D), dtype=np.int64)

    def _step(self, i: int, D: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Next-layer digits and validity for states ``D`` dealing pattern ``d`` of kind i."""
        m = len(D)
        pos, nxt = self.pos[i], self.layouts[i + 1]
        valid = np.ones(m, dtype=bool)
        cols: dict[tuple[str, int], np.ndarray] = {}
        need_sum = np.zeros(m, dtype=np.int64)
        for g in range(self.G - 1):
            col = D[:, pos[("need", g)]] - d[g]
            valid &= col >= 0
            cols[("need", g)] = col
            need_sum += col
        valid &= (self.R[i + 1] - need_sum) >= 0
        truth: dict[int, np.ndarray] = {}
        for j, a in enumerate(self.atoms):
            if not self.first[j] <= i <= self.last[j]:
                if ("bit", j) in pos:
                    truth[j] = D[:, pos[("bit", j)]] == 1
                continue
            cur = D[:, pos[("count", j)]] if ("count", j) in pos else np.zeros(m, dtype=np.int64)
            g = self.group_of[a.seat]
            new = cur + (d[g] if self.in_atom[i, j] else 0)
            if self.must[j]:
                if a.has_hi:
                    valid &= new <= a.hi
                else:
                    new = np.minimum(new, a.lo)
                valid &= new + self.rem_after[i, j] >= a.lo
            else:
                new = np.minimum(new, a.hi + 1 if a.has_hi else a.lo)
            if self.last[j] == i:
                if not self.must[j]:
                    truth[j] = (new >= a.lo) & (new <= a.hi)
            else:
                cols[("count", j)] = new
        for n, t in enumerate(self.nodes):
            if self.node_last[n] == i:
                valid &= _tree_eval(t, truth, self.atom_id, m)
        for v in nxt:
            if v[0] == "bit":
                cols[v] = truth[v[1]].astype(np.int64)
        out = np.stack([cols[v] for v in nxt], axis=1) if nxt else np.zeros((m, 0), dtype=np.int64)
        return out, valid

    def _forward(self, max_states: int) -> None:
        init = np.array([[self.group_need[g] for g in range(self.G - 1)]], dtype=np.int64)
        self.states = [self._encode(0, init)]
        self.peak = 1
        for i in range(len(self.kinds)):
            D = self._decode(i, self.states[i])
            pats, _ = self.patterns[self.u[i]]
            nxt = []
            for d in pats:
                nd, ok = self._step(i, D, d)
                nxt.append(self._encode(i + 1, nd[ok]))
            s = np.unique(np.concatenate(nxt)) if nxt else np.zeros(0, dtype=np.int64)
            self.states.append(s)
            self.peak = max(self.peak, len(s))
            if len(s) > max_states:
                raise _TooBig()
            if len(s) == 0:
                break
        self.feasible = len(self.states) == len(self.kinds) + 1 and len(self.states[-1]) > 0

    def _backward(self) -> None:
        L = len(self.kinds)
        f: list[np.ndarray] = [np.zeros(0)] * (L + 1)
        f[L] = np.ones(len(self.states[L]))
        for i in range(L - 1, -1, -1):
            D = self._decode(i, self.states[i])
            acc = np.zeros(len(D))
            pats, w = self.patterns[self.u[i]]
            for d, wt in zip(pats, w):
                nd, ok = self._step(i, D, d)
                idx = np.searchsorted(self.states[i + 1], self._encode(i + 1, nd[ok]))
                acc[ok] += wt * f[i + 1][idx]
            f[i] = acc
        self.f = f
        self.total = float(f[0][0])

    def sample(self, r: np.ndarray) -> np.ndarray:
        """Kind counts per group, shape (m, G, 32), for uniforms ``r`` of shape (L, m)."""
        m = r.shape[1]
        out = np.zeros((m, self.G, NUM_KINDS), dtype=np.int64)
        idx = np.zeros(m, dtype=np.int64)
        for i, k in enumerate(self.kinds):
            D = self._decode(i, self.states[i][idx])
            pats, w = self.patterns[self.u[i]]
            weights = np.zeros((m, len(pats)))
            nidx = np.zeros((m, len(pats)), dtype=np.int64)
            for p, (d, wt) in enumerate(zip(pats, w)):
                nd, ok = self._step(i, D, d)
                j = np.searchsorted(self.states[i + 1], self._encode(i + 1, nd[ok]))
                weights[ok, p] = wt * self.f[i + 1][j]
                nidx[ok, p] = j
            cum = np.cumsum(weights, axis=1)
            pick = (cum <= (r[i] * cum[:, -1])[:, None]).sum(axis=1)
            pick = np.minimum(pick, len(pats) - 1)
            out[:, :, k] = pats[pick]
            idx = nidx[np.arange(m), pick]
        return out


# --- promises that cannot all hold -------------------------------------------------------------

def _need_space(view: View, conj: Mapping[int, list[tuple]]) -> int:
    """How many vectors of cards-still-needed the programme may have to tell apart."""
    need = view.needs()
    sizes = sorted(need[s] + 1 for s, ts in conj.items() if ts)
    if len(sizes) == len(conj):  # no pool: the last seat's need follows from the others
        sizes = sizes[:-1]
    return math.prod(sizes)


SETTLE_DEPTH = 3
"""Up to this many promises are set aside by an exact smallest search; beyond, greedily."""


def settle(view: View, max_states: int = 400_000) -> tuple[View, tuple[SetAside, ...]]:
    """The view with the fewest call promises set aside that lets a deal keep all the rest,
    and what was set aside and why (RULES.md 6: analysis never refuses an auction because its
    promises cannot all hold: a bluff, a mistake).

    The one place where this is decided: ``Dealer`` calls it, so ``sample``, ``simulate``,
    Explain, the drills and everything else built on the dealer agree. First each promise on
    its own against what the viewer sees (its hand, the play, the show-outs); then each seat's
    own promises together (quick to count: one seat at a time); then, when the rest still
    cannot all hold, all of them. Each time the smallest set to drop, found by branching on a
    smallest clashing group (up to ``SETTLE_DEPTH`` promises, later calls tried first; past
    that, later calls are dropped greedily). The hard ``constraints`` of the view are never
    set aside.
    """
    hidden = set(view.hidden_seats)
    items = [p for p in view.calls if p.seat in hidden]
    if not items:
        return view, ()
    low = _Lowering(view)

    def clash(kept: Sequence[Promise]) -> str | None:
        """None when a deal can keep these promises (and the hard facts), else why not."""
        v = replace(view, calls=tuple(kept))
        try:
            conj = {q: low.conjuncts(q, v.promises(q)) for q in v.hidden_seats}
            if _need_space(v, conj) > max_states:
                raise _TooBig()
            ok = _Programme(v, low.u, conj, max_states, forward_only=True).feasible
        except ConstraintError as e:
            return str(e)
        except _TooBig:
            return None  # too big to decide by counting: the dealer's rejection step decides
        return None if ok else "no deal keeps them all"

    if clash(items) is None:
        return view, ()  # the usual case: every promise can hold
    if clash(()) is not None:
        return view, ()  # the hard facts alone clash: the dealer says so
    out: list[SetAside] = []
    kept: list[Promise] = []
    for p in items:
        why = clash([p])
        if why is None:
            kept.append(p)
        else:
            out.append(SetAside(p, f"cannot hold with what seat {view.seat} sees ({why})"))

    def core(group: list[Promise]) -> list[Promise]:
        """A smallest-by-deletion group of promises that cannot all hold (later calls are
        tried out first, so the group keeps the earlier calls a later one contradicts)."""
        keep = list(group)
        for p in sorted(group, key=lambda q: -q.index):
            trial = [x for x in keep if x is not p]
            if clash(trial) is not None:
                keep = trial
        return keep

    def search(group: list[Promise], depth: int) -> list[Promise] | None:
        if clash(group) is None:
            return []
        if depth == 0:
            return None
        for p in sorted(core(group), key=lambda q: -q.index):
            rest = search([x for x in group if x is not p], depth - 1)
            if rest is not None:
                return [p] + rest
        return None

    def smallest(group: list[Promise]) -> list[Promise]:
        """The fewest promises of ``group`` to drop so that the rest can hold."""
        for depth in range(1, SETTLE_DEPTH + 1):
            found = search(group, depth)
            if found is not None:
                return found
        found, chosen = [], []  # many clashes: keep earlier calls first
        for p in group:
            if clash(chosen + [p]) is None:
                chosen.append(p)
            else:
                found.append(p)
        return found

    def drop(found: list[Promise]) -> None:
        for p in found:
            kept.remove(p)
        for p in found:  # say what it clashes with: a smallest group of the calls kept
            mine = [q for q in kept if q.seat == p.seat]
            group = mine if clash(mine + [p]) is not None else kept
            others = [q.describe() for q in core(group + [p]) if q is not p]
            why = ("cannot hold together with " + " and ".join(others)) if others else "cannot hold"
            out.append(SetAside(p, why))

    # a seat's own calls first (one seat's promises alone are quick to count), then all of them
    for q in sorted({p.seat for p in kept}):
        mine = [p for p in kept if p.seat == q]
        if len(mine) > 1 and clash(mine) is not None:
            drop(smallest(mine))
    if clash(kept) is not None:
        drop(smallest(kept))
    out.sort(key=lambda a: a.promise.index)
    own = [p for p in view.calls if p.seat not in hidden]
    return replace(view, calls=tuple(sorted(own + kept, key=lambda q: q.index))), tuple(out)


# --- the dealer ---------------------------------------------------------------------------------------

class Dealer:
    """Draws deals consistent with a ``View``, each as likely as a real shuffle makes it.

    Call promises that cannot all hold are set aside first (``settle``; ``set_aside`` lists
    them with the reason). Raises ConstraintError at once, naming the promises that clash,
    when the view's hard constraints leave no deal.
    ``acceptance_rate`` is None when every promise is counted exactly (no rejection); when
    some promises had to be checked by rejection (``rejected``) it is the share of drawn
    deals kept.
    """

    def __init__(self, view: View, *, max_states: int = 400_000) -> None:
        self.set_aside: tuple[SetAside, ...] = ()
        try:
            self._build(view, max_states, explain=not view.calls)
        except ConstraintError:
            settled, self.set_aside = settle(view, max_states)
            self._build(settled, max_states, explain=True)  # raises again if nothing helped

    def _build(self, view: View, max_states: int, explain: bool) -> None:
        """Lower the view's promises and count them; ConstraintError when no deal fits
        (naming the clashing promises if ``explain``)."""
        self.view = view
        self.table = view.table
        self.u = view.unseen()
        need = view.needs()
        if int(self.u.sum()) != sum(need.values()):
            raise DealError(f"{int(self.u.sum())} cards are unseen but the other seats hold {sum(need.values())}")
        low = _Lowering(view)
        self.conj = {s: low.conjuncts(s, view.promises(s)) for s in view.hidden_seats}
        self.rejected: dict[int, list[tuple]] = {s: [] for s in view.hidden_seats}
        exact = {s: list(c) for s, c in self.conj.items()}
        while True:
            try:
                if self._need_space(exact) > max_states:
                    raise _TooBig()
                prog = _Programme(view, self.u, exact, max_states)
                break
            except _TooBig:
                self._move_to_rejection(exact)
        if not prog.feasible:
            if any(self.rejected.values()):
                raise ConstraintError("these promises are too intricate to deal exactly and their "
                                      "easier part already has no fitting deal")
            raise ConstraintError(self._explain(max_states) if explain else "the promises clash")
        self.prog = prog
        self.states_peak = prog.peak
        self._accepted = 0
        self._drawn = 0

    def _need_space(self, conj: Mapping[int, list[tuple]]) -> int:
        return _need_space(self.view, conj)

    def _move_to_rejection(self, exact: dict[int, list[tuple]]) -> None:
        """Shrink the counted part: with two or more promising seats, hand the promises of
        the seat most likely to keep them anyway to the rejection step (one dimension
        fewer); otherwise the widest single promise."""
        seats = [s for s, ts in exact.items() if ts]
        if len(seats) >= 2:
            odds = self._free_odds(exact)
            s = max(seats, key=lambda q: (odds[q], q))
            self.rejected[s].extend(exact[s])
            exact[s] = []
            return
        s, t = self._widest(exact)
        exact[s].remove(t)
        self.rejected[s].append(t)

    def _free_odds(self, exact: Mapping[int, list[tuple]], n: int = 2000) -> dict[int, float]:
        """Share of unconstrained shuffles in which each seat keeps its own promises."""
        rng = np.random.default_rng(0)
        cards = np.repeat(np.arange(NUM_KINDS), self.u)
        need = self.view.needs()
        hidden = self.view.hidden_seats
        perm = np.argsort(rng.random((n, len(cards))), axis=1)
        out: dict[int, float] = {}
        start = 0
        for s in hidden:
            take = cards[perm[:, start:start + need[s]]]
            start += need[s]
            if not exact[s]:
                continue
            counts = np.zeros((n, NUM_KINDS), dtype=np.int64)
            np.add.at(counts, (np.repeat(np.arange(n), need[s]), take.ravel()), 1)
            ok = np.ones(n, dtype=bool)
            for t in exact[s]:
                ok &= self._check(counts, t)
            out[s] = float(ok.mean())
        return out

    def _widest(self, conj: Mapping[int, list[tuple]]) -> tuple[int, tuple]:
        best, score = None, -1
        for s, ts in conj.items():
            for t in ts:
                atoms = _tree_atoms(t)
                sc = len(atoms) * 100 + sum(len(a.kinds) for a in atoms)
                if sc > score:
                    best, score = (s, t), sc
        if best is None:
            raise ConstraintError("cannot deal for this view: too many unseen cards to count exactly")
        return best

    def _explain(self, max_states: int) -> str:
        """Find a smallest set of promises that cannot all hold (deletion filter)."""
        items = [(s, t) for s, ts in self.conj.items() for t in ts]
        keep = list(items)
        for it in items:
            trial = [x for x in keep if x is not it]
            conj: dict[int, list[tuple]] = {s: [] for s in self.view.hidden_seats}
            for s, t in trial:
                conj[s].append(t)
            try:
                ok = _Programme(self.view, self.u, conj, max_states, forward_only=True).feasible
            except _TooBig:
                ok = True
            if not ok:
                keep = trial
        parts = [f"seat {s} promised {_describe_tree(t)}" for s, t in keep]
        kinds = {tuple(a.kinds) for _, t in keep for a in _tree_atoms(t)}
        tail = ""
        if len(kinds) == 1:
            ks = next(iter(kinds))
            n = int(sum(self.u[k] for k in ks))
            tail = f" ({n} {_what(ks, self.table)} are unseen)"
        return "these promises cannot all hold: " + "; ".join(parts) + tail

    @property
    def acceptance_rate(self) -> float | None:
        if not any(self.rejected.values()):
            return None
        return self._accepted / self._drawn if self._drawn else None

    @property
    def arrangements(self) -> float | None:
        """Number of physical arrangements of the unseen cards that keep every promise
        (None while some promise is checked by rejection)."""
        if any(self.rejected.values()):
            return None
        need = self.view.needs()
        pool = [need[s] for s in self.prog.pool]
        ways = math.factorial(sum(pool)) / math.prod(math.factorial(n) for n in pool) if pool else 1.0
        return self.prog.total * ways

    def sample_counts(self, n: int, seed: int | None = 0, max_draws: int | None = None) -> np.ndarray:
        """``n`` deals as kind counts of the hands as dealt, shape (n, players, 32)."""
        if n < 0:
            raise DealError(f"cannot draw {n} deals")
        rng = np.random.default_rng(seed)
        view, prog = self.view, self.prog
        P = self.table.players
        base = view.known_counts()
        need = view.needs()
        pool = prog.pool
        pool_total = sum(need[s] for s in pool)
        cut = np.cumsum([0] + [need[s] for s in pool])
        kept: list[np.ndarray] = []
        got = 0
        limit = max_draws if max_draws is not None else max(100_000, 1000 * n)
        while got < n:
            r = rng.random((len(prog.kinds), CHUNK))
            shuffle_keys = rng.random((CHUNK, pool_total))
            groups = prog.sample(r)
            deals = np.repeat(base[None], CHUNK, axis=0)
            for s, g in prog.group_of.items():
                deals[:, s - 1] += groups[:, g]
            if pool:
                pc = groups[:, prog.G - 1]
                for j in range(CHUNK):
                    cards = np.repeat(np.arange(NUM_KINDS), pc[j])
                    cards = cards[np.argsort(shuffle_keys[j], kind="stable")]
                    for q, s in enumerate(pool):
                        np.add.at(deals[j, s - 1], cards[cut[q]:cut[q + 1]], 1)
            if any(self.rejected.values()):
                ok = np.ones(CHUNK, dtype=bool)
                for s, ts in self.rejected.items():
                    for t in ts:
                        ok &= self._check(deals[:, s - 1] - base[s - 1], t)
                self._drawn += CHUNK
                self._accepted += int(ok.sum())
                deals = deals[ok]
                if self._drawn >= limit and self._accepted == 0:
                    raise ConstraintError(f"no fitting deal in {self._drawn} tries: the promises are too tight "
                                          "to deal by rejection")
            kept.append(deals[: n - got])
            got += len(kept[-1])
        return np.concatenate(kept) if kept else np.zeros((0, P, NUM_KINDS), dtype=np.int64)

    def _check(self, dealt: np.ndarray, t) -> np.ndarray:
        """Does a conjunct hold for these dealt counts (rows of 32)?"""
        atoms = _tree_atoms(t)
        ids = {id(a): q for q, a in enumerate(atoms)}
        truth = {q: (dealt[:, list(a.kinds)].sum(axis=1) >= a.lo) & (dealt[:, list(a.kinds)].sum(axis=1) <= a.hi)
                 for q, a in enumerate(atoms)}
        return _tree_eval(t, truth, ids, len(dealt))

    def sample(self, n: int, seed: int | None = 0) -> list[Deal]:
        """``n`` deals (hands as dealt, played cards included), reproducible from ``seed``."""
        return [counts_to_deal(self.table, c) for c in self.sample_counts(n, seed)]


def counts_to_deal(table: Table, counts: np.ndarray) -> Deal:
    """A deal from kind counts per seat, shape (players, 32)."""
    hands = tuple(Hand(tuple(Card(k) for k in np.repeat(np.arange(NUM_KINDS), counts[s])))
                  for s in range(table.players))
    return Deal(table, hands)


def rejection_counts(view: View, n: int, seed: int | None = 0, max_draws: int = 10_000_000
                     ) -> tuple[np.ndarray, float]:
    """Plain rejection, the baseline: shuffle the unseen cards, deal, keep deals that fit.

    Returns the kind counts (n, players, 32) and the acceptance rate.
    """
    from fiftysix.constraints import fits
    rng = np.random.default_rng(seed)
    u = view.unseen()
    cards = np.repeat(np.arange(NUM_KINDS), u)
    need = view.needs()
    hidden = view.hidden_seats
    cut = np.cumsum([0] + [need[s] for s in hidden])
    base = view.known_counts()
    promises = {s: view.promises(s) for s in hidden}
    out, drawn = [], 0
    while len(out) < n:
        if drawn >= max_draws:
            raise ConstraintError(f"plain rejection found {len(out)} fitting deals in {drawn} tries")
        drawn += 1
        perm = rng.permutation(cards)
        deal = base.copy()
        for q, s in enumerate(hidden):
            np.add.at(deal[s - 1], perm[cut[q]:cut[q + 1]], 1)
        if all(fits(deal[s - 1].tolist(), promises[s]) for s in hidden):
            out.append(deal)
    return np.array(out).reshape(n, view.table.players, NUM_KINDS), n / max(drawn, 1)
