"""Constrained dealing, exact to what a real shuffle gives.

A seat knows its own hand, the cards already played and what the other seats' calls
promise (a ``View``). ``Dealer`` draws the hidden cards from exactly the posterior a real
shuffle gives: every arrangement of the *physical* cards that keeps every promise is
equally likely. The two copies of a kind are two cards, so an assignment of kind counts to
seats weighs ``prod_k multinomial(unseen copies of k; copies per seat)``: a split pair
comes from twice as many shuffles as a pair held together (RULES.md section 8).

No rejection for what it can count: the promises are counted exactly
(``analyser.counting``) and each deal is drawn kind by kind in proportion to the counts.
Only when the count would grow too big (many seats with promises at 8-player tables, many
promises across suits) are some promises moved to a rejection step on top: first those of
the seat most likely to keep them anyway, then the widest. The acceptance rate of that step
is then reported. Promises that cannot all hold are set aside first (``analyser.settle``).

This module is the face of dealing: ``View``, ``Promise``, ``auction_promises``, ``settle``
and ``SetAside`` are imported from here as well as from their own modules.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from fiftysix.analyser.counting import MAX_STATES, Lowering, Node, Programme, TooBig, keeps, name_kinds, need_space
from fiftysix.analyser.settle import SetAside, settle
from fiftysix.analyser.view import Promise, View, auction_promises
from fiftysix.cards import NUM_KINDS, Card, Deal, Hand, Table
from fiftysix.errors import ConstraintError, DealError

__all__ = ["CHUNK", "Dealer", "Promise", "SetAside", "View", "auction_promises", "counts_to_deal",
           "quick_counts", "rejection_counts", "settle"]

CHUNK = 256
"""Deals are drawn in chunks of this many, each from its own slice of the random stream,
so the first k deals of a run do not depend on how many are asked for."""


class Dealer:
    """Draws deals consistent with a ``View``, each as likely as a real shuffle makes it.

    Call promises that cannot all hold are set aside first (``settle``; ``set_aside`` lists
    them with the reason). Raises ConstraintError at once, naming the promises that clash,
    when the view's hard constraints leave no deal.
    ``acceptance_rate`` is None when every promise is counted exactly (no rejection); when
    some promises had to be checked by rejection (``rejected``) it is the share of drawn
    deals kept.
    """

    def __init__(self, view: View, *, max_states: int = MAX_STATES) -> None:
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
        low = Lowering(view)
        self.conj = {s: low.conjuncts(s, view.promises(s)) for s in view.hidden_seats}
        self.rejected: dict[int, list[Node]] = {s: [] for s in view.hidden_seats}
        exact = {s: list(c) for s, c in self.conj.items()}
        while True:
            try:
                if need_space(view, exact) > max_states:
                    raise TooBig()
                prog = Programme(view, self.u, exact, max_states)
                break
            except TooBig:
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

    def _move_to_rejection(self, exact: dict[int, list[Node]]) -> None:
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

    def _free_odds(self, exact: Mapping[int, list[Node]], n: int = 2000) -> dict[int, float]:
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
                ok &= keeps(t, counts)
            out[s] = float(ok.mean())
        return out

    def _widest(self, conj: Mapping[int, list[Node]]) -> tuple[int, Node]:
        best, score = None, -1
        for s, ts in conj.items():
            for t in ts:
                atoms = t.atoms()
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
            conj: dict[int, list[Node]] = {s: [] for s in self.view.hidden_seats}
            for s, t in trial:
                conj[s].append(t)
            try:
                ok = Programme(self.view, self.u, conj, max_states, forward_only=True).feasible
            except TooBig:
                ok = True
            if not ok:
                keep = trial
        parts = [f"seat {s} promised {t.describe()}" for s, t in keep]
        kinds = {tuple(a.kinds) for _, t in keep for a in t.atoms()}
        tail = ""
        if len(kinds) == 1:
            ks = next(iter(kinds))
            n = int(sum(self.u[k] for k in ks))
            tail = f" ({n} {name_kinds(ks, self.table)} are unseen)"
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

    def sample_counts(self, n: int, seed: int | None = 0, max_draws: int | None = None,
                      fewer: bool = False) -> np.ndarray:
        """``n`` deals as kind counts of the hands as dealt, shape (n, players, 32).

        ``fewer``: where promises are checked by rejection, stop after ``max_draws`` draws with
        the deals kept so far (at least one), rather than drawing on until there are ``n``."""
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
        rows = np.arange(CHUNK)[:, None] * NUM_KINDS
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
                # each row's pool cards in kind order, shuffled by its keys, cut among the pool seats
                ends = np.cumsum(groups[:, prog.G - 1], axis=1)
                cards = (np.arange(pool_total)[None, :, None] >= ends[:, None, :]).sum(axis=2)
                cards = np.take_along_axis(cards, np.argsort(shuffle_keys, axis=1, kind="stable"), axis=1)
                for q, s in enumerate(pool):
                    part = (rows + cards[:, cut[q]:cut[q + 1]]).ravel()
                    deals[:, s - 1] += np.bincount(part, minlength=CHUNK * NUM_KINDS).reshape(CHUNK, NUM_KINDS)
            if any(self.rejected.values()):
                ok = np.ones(CHUNK, dtype=bool)
                for s, ts in self.rejected.items():
                    for t in ts:
                        ok &= keeps(t, deals[:, s - 1] - base[s - 1])
                self._drawn += CHUNK
                self._accepted += int(ok.sum())
                deals = deals[ok]
                if self._drawn >= limit and self._accepted == 0:
                    raise ConstraintError(f"no fitting deal in {self._drawn} tries: the promises are too tight "
                                          "to deal by rejection")
            kept.append(deals[: n - got])
            got += len(kept[-1])
            if fewer and self._drawn >= limit and got:
                break
        return np.concatenate(kept) if kept else np.zeros((0, P, NUM_KINDS), dtype=np.int64)

    def sample(self, n: int, seed: int | None = 0) -> list[Deal]:
        """``n`` deals (hands as dealt, played cards included), reproducible from ``seed``."""
        return [counts_to_deal(self.table, c) for c in self.sample_counts(n, seed)]


def counts_to_deal(table: Table, counts: np.ndarray) -> Deal:
    """A deal from kind counts per seat, shape (players, 32)."""
    hands = tuple(Hand(tuple(Card(int(k)) for k in np.repeat(np.arange(NUM_KINDS), counts[s])))
                  for s in range(table.players))
    return Deal(table, hands)


def quick_counts(view: View, n: int, seed: int | None = 0, max_draws: int = 4 * CHUNK) -> np.ndarray | None:
    """``n`` deals by plain rejection, many shuffles at once, or None when fewer than ``n`` of
    ``max_draws`` shuffles keep the promises.

    The same posterior as ``Dealer`` (every arrangement of the physical cards that keeps the
    promises equally likely) for a fraction of its cost where the promises are loose (a card
    of a suit, a void: half the shuffles or more keep them), so callers that need many deals
    quickly try this first and count (``Dealer``) only where it gives up. Raises
    ConstraintError where a promise cannot hold on its own. Seeded; drawn in chunks of
    ``CHUNK``, so the first k deals do not depend on ``n``."""
    rng = np.random.default_rng(seed)
    cards = np.repeat(np.arange(NUM_KINDS), view.unseen())
    need = view.needs()
    hidden = view.hidden_seats
    if len(cards) != sum(need.values()):
        raise DealError(f"{len(cards)} cards are unseen but the other seats hold {sum(need.values())}")
    low = Lowering(view)
    conj = {s: low.conjuncts(s, view.promises(s)) for s in hidden}
    base = view.known_counts()
    cut = np.cumsum([0] + [need[s] for s in hidden])
    rows = np.arange(CHUNK)[:, None] * NUM_KINDS
    kept: list[np.ndarray] = []
    got = drawn = 0
    while got < n and drawn < max_draws:
        dealt = cards[np.argsort(rng.random((CHUNK, len(cards))), axis=1)]
        deals = np.repeat(base[None], CHUNK, axis=0)
        ok = np.ones(CHUNK, dtype=bool)
        for q, s in enumerate(hidden):
            part = np.bincount((rows + dealt[:, cut[q]:cut[q + 1]]).ravel(),
                               minlength=CHUNK * NUM_KINDS).reshape(CHUNK, NUM_KINDS)
            deals[:, s - 1] += part
            for t in conj[s]:
                ok &= keeps(t, part)
        drawn += CHUNK
        kept.append(deals[ok][: n - got])
        got += len(kept[-1])
    if got < n:
        return None
    return np.concatenate(kept) if kept else np.zeros((0, view.table.players, NUM_KINDS), dtype=np.int64)


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
    out: list[np.ndarray] = []
    drawn = 0
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
