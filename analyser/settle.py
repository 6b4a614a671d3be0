"""Promises that cannot all hold: which to set aside, fewest first, and why.

An auction may promise more than any deal keeps (a bluff, a mistake: RULES.md 6). Analysis
never refuses it: ``settle`` sets aside the fewest call promises that lets a deal keep all
the rest. The dealer calls it, so everything built on the dealer agrees on what was set aside.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fiftysix.analyser.counting import MAX_STATES, Lowering, Programme, TooBig, need_space
from fiftysix.analyser.view import Promise, View
from fiftysix.errors import ConstraintError


@dataclass(frozen=True)
class SetAside:
    """A promise the dealer set aside because it cannot hold with the rest, and why."""

    promise: Promise
    reason: str

    def __str__(self) -> str:
        return f"set aside {self.promise.describe()}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        p = self.promise
        return {"seat": p.seat, "index": p.index, "call": p.call, "label": p.label,
                "promise": p.constraint.describe(), "reason": self.reason}


SETTLE_DEPTH = 3
"""Up to this many promises are set aside by an exact smallest search; beyond, greedily."""


def settle(view: View, max_states: int = MAX_STATES) -> tuple[View, tuple[SetAside, ...]]:
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
    low = Lowering(view)

    def clash(kept: Sequence[Promise]) -> str | None:
        """None when a deal can keep these promises (and the hard facts), else why not."""
        v = replace(view, calls=tuple(kept))
        try:
            conj = {q: low.conjuncts(q, v.promises(q)) for q in v.hidden_seats}
            if need_space(v, conj) > max_states:
                raise TooBig()
            ok = Programme(v, low.u, conj, max_states, forward_only=True).feasible
        except ConstraintError as e:
            return str(e)
        except TooBig:
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
            few = search(group, depth)
            if few is not None:
                return few
        dropped: list[Promise] = []  # many clashes: keep earlier calls first
        chosen: list[Promise] = []
        for p in group:
            if clash(chosen + [p]) is None:
                chosen.append(p)
            else:
                dropped.append(p)
        return dropped

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
