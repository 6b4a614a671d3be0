"""The numba kernels of the dealer's counting programme, one layer at a time.

``analyser.counting.Programme`` steps every state of a layer through every pattern at once
(``layer_codes``), keeps the distinct next states (``unique_moves``) and counts back
(``weigh_back``).

A state is an int64 code, digit k being ``(code // strides[k]) % radix[k]``: first the cards
still needed by each group but the last, then the clipped running counts of the atoms open
across the layer, then the truth bits of the finished atoms an open either/or still needs.
``Programme._plan`` lays one layer's work out as the plain arrays below. Self-contained: it
imports no jitted function from another module (numba's cache would not see it change).
"""
from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # 2^64 / the golden ratio (odd): a multiplicative hash

# columns of the plan: one row per atom open at the layer (its first kind at or before it, its last at or after)
A_ATOM, A_FIN, A_MUST, A_HAS_HI, A_LO, A_HI, A_GROUP, A_IN, A_REM, A_HERE_COUNT = range(10)
A_COLS = 10
# tree programme: (op, arg) rows, postfix; a node's value is pushed, every finished node must hold
OP_ATOM, OP_ALL, OP_ANY, OP_MUST = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def layer_codes(codes, here_strides, here_radix, next_strides, pats, groups, r_next, atoms, plan,
                here_bits, out_count, out_bit, tree):
    """The next layer's code of each state ``codes[s]`` dealt each pattern ``pats[p]`` (the
    copies of this kind per group), or -1 where the pattern breaks a promise; shape (m, P).

    ``groups``: the groups whose needs are digits (all but the last); ``r_next``: unseen cards
    left after this layer; ``atoms``: how many atoms the programme has; ``plan``: one row per
    atom open at this layer (columns ``A_*``); ``here_bits``, ``out_count`` and ``out_bit``:
    (atom, digit) pairs of this layout's truth bits and the next layout's count and truth-bit
    digits; ``tree``: the either/or promises that end at this layer, postfix (``OP_*``)."""
    m = codes.shape[0]
    P = pats.shape[0]
    n = plan.shape[0]
    out = np.empty((m, P), dtype=np.int64)
    cur = np.zeros(max(n, 1), dtype=np.int64)
    new = np.zeros(max(atoms, 1), dtype=np.int64)
    truth = np.zeros(max(atoms, 1), dtype=np.bool_)
    stack = np.zeros(max(tree.shape[0], 1), dtype=np.bool_)
    needs = np.zeros(max(groups, 1), dtype=np.int64)
    for s in range(m):
        c = codes[s]
        for g in range(groups):
            needs[g] = (c // here_strides[g]) % here_radix[g]
        for q in range(n):
            k = plan[q, A_HERE_COUNT]
            cur[q] = (c // here_strides[k]) % here_radix[k] if k >= 0 else 0
        for q in range(here_bits.shape[0]):
            k = here_bits[q, 1]
            truth[here_bits[q, 0]] = (c // here_strides[k]) % here_radix[k] == 1
        for p in range(P):
            ok = True
            code = 0
            left = 0
            for g in range(groups):
                x = needs[g] - pats[p, g]
                if x < 0:
                    ok = False
                left += x
                code += x * next_strides[g]
            if r_next - left < 0:
                ok = False
            if ok:
                for q in range(n):
                    x = cur[q]
                    if plan[q, A_IN] != 0:
                        x += pats[p, plan[q, A_GROUP]]
                    lo = plan[q, A_LO]
                    hi = plan[q, A_HI]
                    if plan[q, A_MUST] != 0:
                        if plan[q, A_HAS_HI] != 0:
                            if x > hi:
                                ok = False
                                break
                        elif x > lo:
                            x = lo
                        if x + plan[q, A_REM] < lo:
                            ok = False
                            break
                    else:
                        top = hi + 1 if plan[q, A_HAS_HI] != 0 else lo
                        if x > top:
                            x = top
                        if plan[q, A_FIN] != 0:
                            truth[plan[q, A_ATOM]] = lo <= x <= hi
                    new[plan[q, A_ATOM]] = x
            if ok and tree.shape[0]:
                sp = 0
                for q in range(tree.shape[0]):
                    op = tree[q, 0]
                    arg = tree[q, 1]
                    if op == OP_ATOM:
                        stack[sp] = truth[arg]
                        sp += 1
                    elif op == OP_MUST:
                        sp -= 1
                        if not stack[sp]:
                            ok = False
                            break
                    else:
                        v = stack[sp - arg]
                        for r in range(sp - arg + 1, sp):
                            if op == OP_ALL:
                                v = v and stack[r]
                            else:
                                v = v or stack[r]
                        sp -= arg
                        stack[sp] = v
                        sp += 1
            if not ok:
                out[s, p] = -1
                continue
            for q in range(out_count.shape[0]):
                code += new[out_count[q, 0]] * next_strides[out_count[q, 1]]
            for q in range(out_bit.shape[0]):
                if truth[out_bit[q, 0]]:
                    code += next_strides[out_bit[q, 1]]
            out[s, p] = code
    return out


@njit(cache=True, nogil=True)
def unique_moves(nc):
    """The sorted distinct codes of ``nc`` (shape (m, P), -1 where a pattern breaks a promise)
    and each entry's index among them (-1 where -1): ``np.unique`` and ``np.searchsorted`` in
    one hashed pass and a sort of the distinct codes only."""
    m, P = nc.shape
    bits = 4
    while (1 << bits) < 2 * m * P:
        bits += 1
    size = 1 << bits
    mask = size - 1
    keys = np.full(size, -1, dtype=np.int64)
    slot = np.empty((m, P), dtype=np.int64)
    found = np.empty(m * P, dtype=np.int64)  # slots in first-seen order
    k = 0
    for s in range(m):
        for p in range(P):
            c = nc[s, p]
            if c < 0:
                slot[s, p] = -1
                continue
            h = ((c * GOLDEN) >> (64 - bits)) & mask  # the product's top bits
            while keys[h] != -1 and keys[h] != c:
                h = (h + 1) & mask
            if keys[h] == -1:
                keys[h] = c
                found[k] = h
                k += 1
            slot[s, p] = h
    codes = np.empty(k, dtype=np.int64)
    for q in range(k):
        codes[q] = keys[found[q]]
    order = np.argsort(codes)
    rank = np.empty(size, dtype=np.int32)
    states = np.empty(k, dtype=np.int64)
    for r in range(k):
        q = order[r]
        states[r] = codes[q]
        rank[found[q]] = r
    moves = np.empty((m, P), dtype=np.int32)
    for s in range(m):
        for p in range(P):
            h = slot[s, p]
            moves[s, p] = rank[h] if h >= 0 else -1
    return states, moves


@njit(cache=True, nogil=True)
def weigh_back(moves, weights, f_next):
    """Each state's weighted count of completions: the sum over the patterns it may deal of
    the pattern's weight times the count of the state it leads to."""
    m, P = moves.shape
    out = np.zeros(m)
    for s in range(m):
        acc = 0.0
        for p in range(P):
            q = moves[s, p]
            if q >= 0:
                acc += weights[p] * f_next[q]
        out[s] = acc
    return out
