"""The kernels' move order at a position's root, for the tests of its weights.

``move_order`` fills the work array as a search would at its root (each card's holders
included) and asks ``_gen_moves`` for the seat to move's list, best first."""
from __future__ import annotations

import numpy as np

from fiftysix.analyser import _kernels as kernels
from fiftysix.analyser import solver as S
from fiftysix.analyser.encode import Encoded


def move_order(enc: Encoded, side: int = 0, *, settled: bool = False, **words: int) -> list[int]:
    """``_gen_moves``' cards (card bits), best first, for the seat to move in ``enc``, searched
    by team ``side``; ``words``: work-array words set first (``P_KEEP=0``, say)."""
    W = S.work_array(enc, side)
    for name, value in words.items():
        W[getattr(kernels, name)] = value
    rs = enc.root_state(side)
    seat = int(rs[kernels.RS_SEAT])
    other = 0
    for s_ in range(enc.rules.seats):
        h = int(W[kernels.O_H1 + s_])
        if s_ != seat:
            other |= h
        for c in range(kernels.MAX_CARDS):
            if (h >> c) & 1:
                W[kernels.O_OWN + c] |= 1 << s_  # (each card's holders: the search sets them at its root)
    d = int(rs[kernels.RS_NCARDS])
    n = kernels._gen_moves(W, seat, int(rs[kernels.RS_TLEN]), int(rs[kernels.RS_LSUIT]), int(rs[kernels.RS_WSEAT]),
                           int(rs[kernels.RS_WCARD]), settled, np.int64(other), d, np.int64(rs[kernels.RS_TCARDS]),
                           kernels._ruff_suits(W, seat) if rs[kernels.RS_TLEN] == 0 and W[kernels.P_TRUMP] >= 0 else 0)
    return [int(W[kernels.O_MV + d * kernels.MAX_MOVES + i]) for i in range(n)]


def with_words(monkeypatch, **words: int) -> None:
    """Every search's work array from now on (``solver.work_array``, as patched so far) with
    ``words`` set over it (names of work-array words, ``P_BAFTER=0`` say)."""
    plain = S.work_array

    def work_array(enc: Encoded, side: int) -> np.ndarray:
        W = plain(enc, side).copy()
        for name, value in words.items():
            W[getattr(kernels, name)] = value
        return W

    monkeypatch.setattr(S, "work_array", work_array)
