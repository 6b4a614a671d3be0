"""Numba kernels of the double-dummy solver: arrays and scalars in, arrays and scalars out.

Cards are bits of an int64: bit ``suit * 16 + rank`` with rank 0 the strongest card of the
suit, so inside one suit a lower bit beats a higher one. A seat's hand is two masks:
``h1`` (holds at least one copy of the card) and ``h2`` (holds a second copy).

The search answers one question: can the maximising side win at least ``target`` more
points from this position? It is a fail-soft alpha-beta, asked with a zero window: the
returned ``v`` proves "at least v" when ``v >= target`` and "at most v" otherwise. The
transposition table keeps, per trick-start position, a lower and an upper bound on the
points the maximising side wins from there, reused across targets and across deals. Each
position has an exact key, kept up to date move by move (the XOR of a random word per
seat, card and copies held, salted with rules, trump, side and epoch), looked up first at
no hashing cost; then an abstract key (below) that also meets positions differing only in
which of two interchangeable cards went earlier. Two-trick endings are solved outright
(``_two_tricks``: alpha-beta over the first trick, the last follows by force). Further
cut-offs: points already sure from a settled trick (its cards so far plus the
cheapest card each seat still to play must add), and when the next leader is fixed too,
that leader's cashable top cards in the next trick; at trick starts the leader's cashable
top cards and either side's run of top trumps (it holds every copy left, so each wins
its trick). Equivalent cards (adjacent in power among the cards still in hands, equal
points, no other copy elsewhere, and, during a trick, the same effect on who wins it) are
tried once; so is a card weaker than every card of its suit that the lines searched so far
depended on, when a card of its suit and points was already tried (as DDS does). Such
cards of different points (or neighbours of different points) differ only in where their
points go: the points of the two cards swap between this trick and the later one the
other card is played to, so the result moves by at most their difference, and only one
way once this trick's side is settled. A card is skipped when the fail-soft bound of the
card tried for it clears the window by that margin (56's card points made most small
cards unlike each other: 6 x 8 nodes -25%, then -30% more with the one-sided margin).

Move order: the best card a table entry records, else the card that last cut off when the
mover held the same cards in the same kind of trick (a cut-off memory in ``W[O_CUT:]``,
keyed at a trick start by the mover's hand, when following by the led suit's cards still
out, the mover's own and the card winning so far; as bridge-solver keeps one), else a
heuristic order (with a trump suit, leads weighted as DDS weights them: a side suit an
opponent can ruff later, its top card no winner; one a teammate can ruff earlier: nodes
-4% to -29% on the fixed sets). Choosing the same card in similar positions also makes lines meet in the
table far more often. A cut-off's rank relevance is that of the cutting line alone.
Table reads miss the CPU caches, so the last card of a trick prefetches the exact entries
of the trick starts it can lead to, and a trick start reads its exact entry only after its
bounds and fetches its abstract and payoff buckets (the fully abstracted keys follow from
``W[O_ACC:]`` and ``W[O_ACCB:]``, per-suit sums kept move by move) while it does other work.
The search passes ``W`` and ``T`` on as data pointers (``_ptr``): array arguments cost two
reference-count calls each per call. A trick start's lookups, bounds and stores are
functions of their own (``_start``, ``_start_store``): numba sets up a return slot and an
error slot for every call site at each entry of a function, so every call site kept out of
``_ab`` saves two stores at each of its nodes.

Partition search: every search result carries the set of cards whose ranks decided it
(``W[O_REL + depth]``: trick winners that beat a card of their suit, the winning card of a
settled trick, the cards of a ``_quick`` or ``_trump_run`` bound, a card tried once for its
equivalence class when the card tried for it matters). A trick-start entry then holds, per
suit, how many of the top cards left it depends on (``k``, 5 bits per suit of its value); the
cards below them are "small": only how many of each points value each seat holds there
counts (they never decide a trick in the searched tree, so any position that agrees on the
top k cards and on those counts has the same bounds). Each suit's part of an abstract key
is computed only as far down as some probed or stored entry's k asks (``_apart``). Each
result is stored twice: under the exact key (two-entry bucket) and under its abstract key in a bucket of 4 entries (8
for bridge: ``W[P_ABUCKET]``) chosen by the fully abstracted position (k = 0), kept in
the order entries were last stored, where a lookup tries every entry's own k.

Payoff-similar entries (after Furtak and Buro's payoff similarity for Skat): two positions
that agree on the top k cards of each suit (holders, points, copy ties) and on how many
small cards each seat holds in each suit, and differ only in those small cards' points,
play alike: any line of one maps to a line of the other (each seat's small cards of a
suit matched lowest points to lowest) with the same trick winners, since no small card
decides a trick in the searched tree, so the maximising side's points differ by at most
what its tricks gain or lose: this position's value is at least lb - down and at most
ub + up (``_shift``). With 56's card points (K and Q none, A and 10 one, 9 two, J three)
most trick starts differ from one searched before only so. Such entries (three or more
tricks left) take the upper half of the table: buckets of ``PBUCKET`` entries of 8 words
(key, value, the small cards' points per seat and suit), chosen by the points-blind fully
abstracted key (``W[O_ACCB:]``, kept move by move); 6 x 8 nodes -42% to -45%, 4 x 8 -32%.
A bucket mostly holds variants of one fully abstracted position (other rank counts, other
small-card points), so it holds 16 (with 8: 6 x 8 nodes +9%); a lookup computes each
rank counts' key and small-card points once, and an entry that does not cut off still
lends its best card to the move order.

Everything a search reads and writes, except the table, lives in one int64 work array
``W`` (offsets below), so that a recursive call passes two arrays, not twenty.
``W[ST_NODES]`` counts nodes, ``W[ST_LIMIT]`` is the limit, ``W[ST_ABORT]`` is set to 1
when the limit stopped the search (its answer is then meaningless and nothing is stored).
The table is one int64 array ``T``: entry e's key at ``T[2e]`` and next to it (one cache line
for both) its value at ``T[2e + 1]``: lower bound, upper bound, depth and best lead (8 bits
each), the per-suit rank counts ``k`` (20 bits) and the search epoch (11 bits).
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

# root state ``rs`` (int64)
RS_SEAT, RS_TLEN, RS_LSUIT, RS_WSEAT, RS_WCARD, RS_TPTS, RS_TCARDS, RS_LEFT, RS_NCARDS, RS_SALT = range(10)
RS_SIZE = 10

# work array ``W``
MAX_MOVES = 16
O_H1 = 0
O_H2 = 8
O_ISMAX = 16
O_SUIT = 24
O_PTS = 88
O_SMASK = 152
P_NSEAT = 156
P_TRUMP = P_NSEAT + 1
P_BONUS = P_NSEAT + 2
P_TMASK = P_NSEAT + 3
P_EXACT = P_NSEAT + 7
ST_NODES = P_NSEAT + 4
ST_LIMIT = P_NSEAT + 5
ST_ABORT = P_NSEAT + 6
O_MV = P_NSEAT + 8
O_SC = O_MV + 65 * MAX_MOVES
O_PM = O_SC + 65 * MAX_MOVES
O_REL = O_PM + 4            # per depth: cards whose ranks decided the value returned
O_SKIP = O_REL + 66         # per depth: cards tried once for an equivalence class
O_QM = O_SKIP + 66          # scratch: cards used by the last _quick / _trump_run bound
O_TMP = O_QM + 1            # scratch for the cashable-cards bound (per seat lengths, cheapest cards)
HSTRIDE = 4 * 32            # per trick start: per suit, for k = 0..26, the suit's part of the key (and its state)
O_HP = O_TMP + 20
O_T2 = O_HP + 17 * HSTRIDE  # two-trick endings: per seat its two cards, the card it plays first, cards that decided
O_T2S = O_T2 + 32          # two-trick endings: per level of the first trick, its search state
P_EPOCH = O_T2S + 88         # the search's epoch (table entries of other epochs are free slots)
P_SALT = P_EPOCH + 1        # the search's salt (rules, trump, side, epoch): abstract keys start from it
O_ACC = P_SALT + 1          # per suit: the sum of the small-card hash words of every card in hands (kept move by move)
P_ABUCKET = O_ACC + 4      # entries of an abstract-key bucket, 4 or 8 (least recently stored goes first)
P_PAYOFF = P_ABUCKET + 1   # 1: payoff-similar entries are kept (card points 0..3, at most 32 seat-suit groups)
P_PBASE = P_PAYOFF + 1     # where the payoff-similar entries start in ``T`` (words), 0 when off
P_PMASK = P_PBASE + 1      # their buckets - 1
O_ACCB = P_PMASK + 1       # per suit: like ``O_ACC`` without the cards' points (only who holds how many)
O_HB = O_ACCB + 4          # per trick start: like ``O_HP``, the suits' parts of the points-blind keys
O_SIG = O_HB + 17 * HSTRIDE  # scratch: a position's small-card points per seat and suit (4 words)
RUFF_W = 60                # lead order with trumps: a side suit an opponent can ruff goes this much later
MATE_W = 60                # and one only the leader's teammates can ruff this much earlier (DDS: -12, +17; 30 and 35 first: see RESULTS)
PSALT = np.int64(0x61C8864680B583EB)  # salts the points-blind keys (payoff-similar entries)
PBUCKET = 16               # payoff-similar entries per bucket (8: 6 x 8 nodes +9%, time +6%; 4: +10% more)
O_CUT = O_SIG + 4          # the card that last cut off, by the mover's own holding and the trick so far
NCUT = 16384               # slots (4,096 gave 3-11% more nodes on 6 x 8; 32,768 no fewer)
_NOBOUND = -(1 << 40)          # a move's result slot: skipped without a bound of its own
P_SHUFFLE = O_CUT + NCUT   # tests only: nonzero, a random state that shuffles every move list
O_START = P_SHUFFLE + 1    # per trick start (8 words by cards left): what ``_start`` leaves for the search
P_SIGKV = O_START + 8 * 66  # the rank counts whose small-card points ``W[O_SIG:]`` holds (-1: none), one lookup long
O_OWN = P_SIGKV + 1        # per card: the seats holding it (a bit per seat), kept move by move
W_SIZE = O_OWN + 64
_ZT = (np.random.default_rng(56).integers(-2 ** 62, 2 ** 62, 8 * 64) | 1).astype(np.int64)
# exact position keys: per (copies held - 1, seat, card) a random word; a position's key is the
# XOR over what each seat holds, kept up to date move by move
_ZH = np.random.default_rng(57).integers(-2 ** 62, 2 ** 62, 2 * 8 * 64).astype(np.int64)


@intrinsic
def _ctz(typingctx, x):
    """Index of the lowest set bit (x != 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _popc(typingctx, x):
    """Number of set bits."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _clz(typingctx, x):
    """Number of leading zero bits (x != 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to start fetching ``arr[idx]`` into cache (a hint: no effect on results)."""
    sig = types.void(arr, types.int64)

    def codegen(context, builder, signature, args):
        if isinstance(signature.args[0], types.CPointer):
            data = args[0]
        else:
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p, ir.IntType(32), ir.IntType(32), ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(builder.gep(data, [args[1]]), i8p), ir.Constant(ir.IntType(32), 0),
                          ir.Constant(ir.IntType(32), 3), ir.Constant(ir.IntType(32), 1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _ptr(typingctx, arr):
    """The address of ``arr``'s data, for the search to pass instead of the array: a pointer
    argument costs no reference counting (the arrays' were 9% of the search's time). Only
    for the length of a kernel call, while the caller holds ``arr``."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True, inline="always")
def _mix(k):
    k ^= (k >> 31) & np.int64(0x1FFFFFFFF)
    k *= np.int64(-4658895280553007687)
    k ^= (k >> 29) & np.int64(0x7FFFFFFFF)
    return k


@njit(cache=True, inline="always")
def _xkey(key, seat):
    """The exact table key of a trick start: the position's running key and its leader."""
    return _mix(key ^ ((seat + 1) * np.int64(0x2545F4914F6CDD1D))) | 1


@njit(cache=True, inline="always")
def _in_hands(W):
    """Every card some seat still holds (one bit per kind)."""
    u = np.int64(0)
    for s in range(W[P_NSEAT]):
        u |= W[O_H1 + s]
    return u


@njit(cache=True)
def _apart(W, g, su, kk):
    """Extend suit ``su``'s parts of the abstract keys (at ``W[g + k]``) up to k = ``kk``:
    the holders, points and copy ties of the top k distinct cards left, in power order,
    and the multiset of (holder, points) of the cards below them (an additive hash, so that
    only how many cards of each points value each seat holds there counts). The running
    state after ``W[g + 30]`` parts sits at ``W[g + 27..29]``, the number of distinct cards
    left at ``W[g + 31]``. With payoff-similar entries on, the points-blind parts as well
    (``W[g + O_HB - O_HP + k]``: the small cards only as how many each seat holds)."""
    nseat = W[P_NSEAT]
    n = W[g + 31]
    x = W[g + 27]
    small = W[g + 28]
    hp = W[g + 29]
    blind = W[P_PAYOFF] != 0
    gb = g + (O_HB - O_HP)
    smallb = W[gb + 28]
    for k in range(W[g + 30] + 1, kk + 1):
        b = x & -x
        x ^= b
        c = _ctz(b)
        p = W[O_PTS + c]
        first = np.int64(-1)
        second = np.int64(-1)
        own = W[O_OWN + c]
        while own != 0:
            s = _ctz(own)
            own &= own - 1
            code = s | (p << 3)
            zz = _ZT[(s << 6) | (su << 4) | (p & 15)]
            if (W[O_H2 + s] & b) != 0:
                code |= 64
                zz += zz
            if first < 0:
                first = code
            else:
                second = code | 128
            small -= zz
            if blind:
                zb = _ZT[(s << 6) | (su << 4)]
                if (W[O_H2 + s] & b) != 0:
                    zb += zb
                smallb -= zb
        hp = (hp ^ first) * np.int64(1099511628211)
        if second >= 0:
            hp = (hp ^ second) * np.int64(1099511628211)
        W[g + k] = _mix(hp * np.int64(-7046029254386353131) + (small if k < n else np.int64(0)) + k * np.int64(
            0x9E3779B97F4A7C15 - (1 << 64)) + su)
        if blind:
            W[gb + k] = _mix(hp * np.int64(-7046029254386353131) + (smallb if k < n else np.int64(0)) + k * np.int64(
                0x9E3779B97F4A7C15 - (1 << 64)) + su + 64)
    W[gb + 28] = smallb
    W[g + 27] = x
    W[g + 28] = small
    W[g + 29] = hp
    W[g + 30] = kk


@njit(cache=True, inline="always")
def _keyat(W, kv, base, d, off):
    """Key of the position abstracted to the top ``k`` distinct cards per suit (5 bits each
    of ``kv``), from the suits' parts at ``W[O_HP + off:]``; needs ``_akey0`` first at this
    trick start (tricks left ``d``), then computes each suit's parts only as far as some
    key asks."""
    o = O_HP + d * HSTRIDE
    k = base
    for su in range(4):
        g = o + 32 * su
        kk = (kv >> (5 * su)) & 31
        if kk > W[g + 31]:
            kk = W[g + 31]
        if kk > W[g + 30]:
            _apart(W, g, su, kk)
        k += W[g + off + kk]
    k = _mix(k)
    if k == 0:
        k = 1
    return k


@njit(cache=True, inline="always")
def _akey(W, kv, base, d):
    """The abstract key (see ``_keyat``)."""
    return _keyat(W, kv, base, d, 0)


@njit(cache=True, inline="always")
def _bkey(W, kv, base, d):
    """``_akey`` with the small cards' points left out (payoff-similar positions meet)."""
    return _keyat(W, kv, base, d, O_HB - O_HP)


@njit(cache=True, inline="always")
def _part0(su, acc):
    """A suit's part of the fully abstracted key, from its running small-card sum ``acc``."""
    return _mix(np.int64(1000 + su) * np.int64(-7046029254386353131) + acc + su)


@njit(cache=True, inline="always")
def _akey0(W, base, d):
    """The fully abstracted key (``_akey`` with k = 0), from the running per-suit sums of
    the small-card hash words; sets up the parts ``_akey`` extends at this trick start."""
    o = O_HP + d * HSTRIDE
    u = _in_hands(W)
    k = base
    for su in range(4):
        g = o + 32 * su
        us = u & W[O_SMASK + su]
        p0 = _part0(su, W[O_ACC + su])
        W[g] = p0
        if W[P_PAYOFF] != 0:
            W[g + (O_HB - O_HP)] = _part0(su + 64, W[O_ACCB + su])
            W[g + (O_HB - O_HP) + 28] = W[O_ACCB + su]
        W[g + 27] = us
        W[g + 28] = W[O_ACC + su]
        W[g + 29] = 1000 + su
        W[g + 30] = 0
        W[g + 31] = _popc(us)
        k += p0
    k = _mix(k)
    if k == 0:
        k = 1
    return k


@njit(cache=True, inline="always")
def _below(W, u, su, kk):
    """The cards of suit ``su`` of ``u`` (the cards in hands) below its top ``kk`` distinct ones."""
    x = u & W[O_SMASK + su]
    for _ in range(kk):
        x &= x - 1
    return x


@njit(cache=True, inline="always")
def _hist(W, s, m):
    """Seat ``s``'s cards of mask ``m`` by points: how many worth 1, 2 and 3 (copies counted),
    as ``a1 | a2 << 3 | a3 << 6``; -1 past 7, 7 or 3."""
    a1 = _popc(m & W[O_PM + 1]) + _popc(W[O_H2 + s] & m & W[O_PM + 1])
    a2 = _popc(m & W[O_PM + 2]) + _popc(W[O_H2 + s] & m & W[O_PM + 2])
    a3 = _popc(m & W[O_PM + 3]) + _popc(W[O_H2 + s] & m & W[O_PM + 3])
    if a1 > 7 or a2 > 7 or a3 > 3:
        return np.int64(-1)
    return a1 | (a2 << 3) | (a3 << 6)


@njit(cache=True)
def _sig(W, kv):
    """The small cards' points of this position under rank counts ``kv``, per seat and suit
    (8 bits each, ``_hist``), into ``W[O_SIG:O_SIG + 4]``; False if a count does not fit."""
    nseat = W[P_NSEAT]
    for i in range(4):
        W[O_SIG + i] = 0
    u = _in_hands(W)
    for su in range(4):
        small = _below(W, u, su, (kv >> (5 * su)) & 31)
        if small == 0:
            continue
        for s in range(nseat):
            m = small & W[O_H1 + s]
            if m != 0:
                h = _hist(W, s, m)
                if h < 0:
                    return False
                gi = s * 4 + su
                W[O_SIG + (gi >> 3)] |= h << (8 * (gi & 7))
    return True


@njit(cache=True)
def _shift(W, T, o, kv):
    """How far the bounds of the payoff-similar entry at ``T[o]`` move for this position:
    its small cards (same seats, suits and numbers, other points) matched to the entry's
    lowest to lowest in each seat and suit; any line keeps its trick winners and the
    maximising side's points change by the points its tricks gain or lose. Returns
    ``down | up << 16``: this position's value is at least lb - down, at most ub + up.
    Per seat and suit, matched that way, the cards worth t points or more (t = 1, 2, 3)
    that the entry has over this position each lose one point, and the other way round."""
    if W[P_SIGKV] != kv:
        W[P_SIGKV] = kv if _sig(W, kv) else -2 - kv
    if W[P_SIGKV] != kv:
        # (a count past the signature's fields: no use of the entry)
        return np.int64(0xFFFF | (0xFFFF << 16))
    down = np.int64(0)
    up = np.int64(0)
    for gi in range(W[P_NSEAT] * 4):
        g = (T[o + 2 + (gi >> 3)] >> (8 * (gi & 7))) & 255
        h = (W[O_SIG + (gi >> 3)] >> (8 * (gi & 7))) & 255
        if g == h:
            continue
        # cards worth 3, at least 2, at least 1: the entry's minus this position's
        d = ((g >> 6) & 3) - ((h >> 6) & 3)
        for t in range(3):
            if d > 0:
                down += d
            else:
                up -= d
            if t == 0:
                d += ((g >> 3) & 7) - ((h >> 3) & 7)
            elif t == 1:
                d += (g & 7) - (h & 7)
    return down | (up << 16)


@njit(cache=True)
def _pt_store(T, o, k, kb, res, a0, b0, cut, ncards, kv, left, ep, W):
    """Record a search result in the payoff-similar bucket at ``T[o]`` (``PBUCKET`` entries
    of 8 words: key, value, the small cards' points ``W[O_SIG:O_SIG + 4]``, the fully
    abstracted points-blind key ``kb`` that chose the bucket), at its front; an entry of
    the same position (key, rank counts and points) keeps its bounds too."""
    e = PBUCKET - 1
    for j in range(PBUCKET):
        x = o + 8 * j
        if T[x] == k and ((T[x + 1] >> 32) & 0xFFFFF) == kv and T[x + 2] == W[O_SIG] and T[
                x + 3] == W[O_SIG + 1] and T[x + 4] == W[O_SIG + 2] and T[x + 5] == W[O_SIG + 3]:
            e = j
            break
    x = o + 8 * e
    same = T[x] == k and ((T[x + 1] >> 32) & 0xFFFFF) == kv and T[x + 2] == W[O_SIG] and T[
        x + 3] == W[O_SIG + 1] and T[x + 4] == W[O_SIG + 2] and T[x + 5] == W[O_SIG + 3]
    lb = np.int64(0)
    ub = min(left, np.int64(255))
    bb = np.int64(0)
    if same:
        v = T[x + 1]
        lb = v & 255
        ub = (v >> 8) & 255
        bb = (v >> 24) & 255
    for j in range(e, 0, -1):
        for i in range(7):
            T[o + 8 * j + i] = T[o + 8 * (j - 1) + i]
    T[o] = k
    T[o + 6] = kb
    T[o + 1] = _pack(lb, ub, bb, res, a0, b0, cut, ncards, kv, ep)
    for i in range(4):
        T[o + 2 + i] = W[O_SIG + i]


@njit(cache=True)
def _kvec(W, rel):
    """Per suit, how many distinct cards left from the top down to the lowest of ``rel``."""
    u = _in_hands(W)
    kv = np.int64(0)
    for su in range(4):
        sm = W[O_SMASK + su]
        r = rel & u & sm
        if r != 0:
            lo = np.int64(63) - _clz(r)
            below = (np.int64(2) << lo) - 1 if lo < 62 else np.int64(-1)
            kv |= np.int64(_popc(u & sm & below)) << (5 * su)
    return kv


@njit(cache=True)
def _topk(W, kv):
    """The top ``k`` distinct cards left per suit (the cards a table entry's ranks cover)."""
    u = _in_hands(W)
    m = np.int64(0)
    for su in range(4):
        kk = (kv >> (5 * su)) & 31
        x = u & W[O_SMASK + su]
        while x != 0 and kk > 0:
            b = x & -x
            x ^= b
            m |= b
            kk -= 1
    return m


@njit(cache=True, inline="always")
def _cheapest(W, s, k, h):
    """A lower bound on the points of any ``k`` cards of seat ``s`` among the cards of mask
    ``h`` (copies counted; cards worth more than 3 points count as none)."""
    tot = np.int64(0)
    for p in range(4):
        if k <= 0:
            break
        m = h & W[O_PM + p]
        if m != 0:
            n = _popc(m) + _popc(W[O_H2 + s] & m)
            if n > k:
                n = k
            tot += n * p
            k -= n
    return tot


@njit(cache=True)
def _quick(W, seat, pend):
    """Points the leader's side surely wins by cashing top cards: its top trumps and the top
    cards of the other suits, as many rounds of each as every opponent holding trumps must
    follow (so none can ruff); when a partner holds nothing but trumps (it would have to
    ruff and take the lead) only the best single other suit counts. A lower bound.

    ``pend`` marks (bit per seat) the seats still to play a card to the trick in progress
    when the bound is for the trick after it (``seat`` wins this one): each of them may
    still lose one card of any suit, so its suit lengths count one less.

    What the other seats must add (their cheapest card of the suit while they still hold
    it) is counted only for the suit cashed first: during the first suit a seat may
    discard cards of the next.
    """
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    bonus = W[P_BONUS]
    side = W[O_ISMAX + seat]
    u = np.int64(0)
    for s in range(nseat):
        if s != seat:
            u |= W[O_H1 + s]
    mine = W[O_H1 + seat]
    tmask = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    qm = np.int64(0)
    trump_own = np.int64(0)
    trump_all = np.int64(0)
    side_own = np.int64(0)
    side_all = np.int64(0)
    side_sum = np.int64(0)
    side_extra = np.int64(0)
    trump_r = 0
    side_r = 0
    own_r = 0
    # a partner of the leader holding only trumps must ruff a side-suit lead and takes the lead
    many = True
    if trump >= 0:
        for s in range(nseat):
            if s != seat and W[O_ISMAX + s] == side:
                h = W[O_H1 + s]
                if h != 0 and (h & ~tmask) == 0:
                    many = False
    for su in range(4):
        sm = W[O_SMASK + su]
        x = mine & sm
        others = u & sm
        if x == 0 or (others & ((x & -x) - 1)) != 0:
            # no card of the suit, or none above every other seat's
            continue
        # per other seat: how many cards of the suit it surely still holds, and its cheapest
        # (``W[O_TMP + s]``, ``W[O_TMP + 8 + s]``); no opponent holding trumps may run out
        # while the suit is cashed; once every other seat is out of the suit, the leader's
        # cards win whatever their rank
        rounds_safe = 99
        most = 0
        for s in range(nseat):
            if s == seat:
                continue
            f = W[O_H1 + s] & sm
            n = _popc(f) + _popc(W[O_H2 + s] & sm)
            if n > most:
                most = n
            n -= (pend >> s) & 1
            W[O_TMP + s] = n
            W[O_TMP + 8 + s] = _minpts(W, f) if f != 0 else np.int64(0)
            if su != trump and (W[O_H1 + s] & tmask) != 0 and W[O_ISMAX + s] != side and n < rounds_safe:
                rounds_safe = n
        own = np.int64(0)
        extra = np.int64(0)
        r = 0
        while x != 0 and r < rounds_safe:
            b = x & -x
            if (others & (b - 1)) != 0:
                break
            c = _ctz(b)
            copies = 2 if (W[O_H2 + seat] & b) != 0 else 1
            if r < most:
                qm |= b
            for _ in range(copies):
                if r >= rounds_safe:
                    break
                r += 1
                own += W[O_PTS + c] + bonus
                for s in range(nseat):
                    if s != seat and W[O_TMP + s] >= r:
                        extra += W[O_TMP + 8 + s]
            if (others & b) != 0:
                break
            x ^= b
        if su == trump:
            trump_own = own
            trump_all = own + extra
            trump_r = r
        else:
            side_sum += own
            side_r += r
            if extra > side_extra:
                side_extra = extra
            if own > side_own:
                side_own = own
                own_r = r
            if own + extra > side_all:
                side_all = own + extra
    W[O_QM] = qm
    # or: in all the tricks cashed every other seat plays a card, at least its cheapest ones
    if many:
        # the leader keeps the lead while cashing: every side suit's top cards add up
        rounds = trump_r + side_r
        best = trump_own + side_sum + max(trump_all - trump_own, side_extra)
        own = trump_own + side_sum
    else:
        rounds = trump_r + own_r
        best = max(trump_all + side_own, side_all + trump_own)
        own = trump_own + side_own
    if rounds > 0:
        for s in range(nseat):
            if s != seat:
                own += _cheapest(W, s, rounds, W[O_H1 + s])
        if own > best:
            best = own
    return best


@njit(cache=True)
def _trump_run(W):
    """The run of top trumps one team holds every remaining copy of: whenever one is played
    it is the best trump of its trick, so that trick goes to the team. Returns
    ``2 * points + team`` (team 1 = the maximising side; the other team's run is empty)."""
    trump = W[P_TRUMP]
    W[O_QM] = 0
    if trump < 0:
        return np.int64(0)
    nseat = W[P_NSEAT]
    u = _in_hands(W)
    x = u & W[O_SMASK + trump]
    run = np.int64(0)
    side = np.int64(-1)
    pts = np.int64(0)
    while x != 0:
        b = x & -x
        x ^= b
        c = _ctz(b)
        own = W[O_OWN + c]
        ok = True
        m = own
        while m != 0:
            s = _ctz(m)
            m &= m - 1
            if side < 0:
                side = W[O_ISMAX + s]
            elif W[O_ISMAX + s] != side:
                ok = False
                break
        if not ok:
            break
        run |= b
        while own != 0:
            s = _ctz(own)
            own &= own - 1
            pts += W[O_PTS + c] * (2 if (W[O_H2 + s] & b) != 0 else 1)
    W[O_QM] = run
    if run == 0:
        return np.int64(0)
    # the run takes at least as many tricks as one seat holds run cards (``most``: they go
    # to different tricks); in those tricks each other seat plays ``most`` cards, all but
    # its own run cards (counted above) adding at least its cheapest other cards' points
    most = 0
    for s in range(nseat):
        k = _popc(W[O_H1 + s] & run) + _popc(W[O_H2 + s] & run)
        W[O_TMP + s] = k
        if k > most:
            most = k
    pts += most * W[P_BONUS]
    for s in range(nseat):
        if most > W[O_TMP + s]:
            pts += _cheapest(W, s, most - W[O_TMP + s], W[O_H1 + s] & ~run)
    return 2 * pts + side


@njit(cache=True, inline="always")
def _minpts(W, m):
    """Fewest points among the cards of mask ``m`` (m != 0); ``W[O_PM + p]`` masks the cards worth p."""
    for p in range(4):
        if (m & W[O_PM + p]) != 0:
            return np.int64(p)
    best = np.int64(1 << 30)
    while m != 0:
        b = m & -m
        m ^= b
        pp = W[O_PTS + _ctz(b)]
        if pp < best:
            best = pp
    return best


@njit(cache=True, inline="always")
def _beats(W, c, wcard, trump):
    """Does card ``c`` played now take the trick from ``wcard``? (Equal cards: first stays.)"""
    if (c >> 4) == (wcard >> 4):
        return c < wcard
    return (c >> 4) == trump


@njit(cache=True)
def _last_trick(W, seat):
    """Points the maximising side wins from a last trick (every hand holds one card)."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    ws = seat
    wc = _ctz(W[O_H1 + seat])
    pts = W[O_PTS + wc] + W[P_BONUS]
    s = seat
    for _ in range(nseat - 1):
        s += 1
        if s == nseat:
            s = 0
        c = _ctz(W[O_H1 + s])
        pts += W[O_PTS + c]
        if _beats(W, c, wc, trump):
            ws = s
            wc = c
    wb = np.int64(1) << wc
    same = 0
    s = seat
    for _ in range(nseat):
        if (W[O_H1 + s] & W[O_SMASK + (wc >> 4)]) != 0:
            same += 1
        s += 1
        if s == nseat:
            s = 0
    if same > 1:
        W[O_REL + nseat] = wb
    return pts if W[O_ISMAX + ws] == 1 else np.int64(0)


@njit(cache=True, inline="always")
def _t2_leaf(W, wseat, wcard, tpts):
    """Value of a two-trick ending once its first trick is complete (``wseat`` won it with
    ``wcard``, ``tpts`` points in it): the last trick follows by force."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    bonus = W[P_BONUS]
    rel = np.int64(0)
    same = 0
    for t in range(nseat):
        if (W[O_T2 + 2 * t + W[O_T2 + 16 + t]] >> 4) == (wcard >> 4):
            same += 1
    if same > 1:
        rel |= np.int64(1) << wcard
    v = tpts + bonus if W[O_ISMAX + wseat] == 1 else np.int64(0)
    ws = wseat
    wc = W[O_T2 + 2 * wseat + 1 - W[O_T2 + 16 + wseat]]
    pts = W[O_PTS + wc] + bonus
    same = 1
    t = wseat
    for _ in range(nseat - 1):
        t += 1
        if t == nseat:
            t = 0
        c = W[O_T2 + 2 * t + 1 - W[O_T2 + 16 + t]]
        pts += W[O_PTS + c]
        if (c >> 4) == (wc >> 4):
            same += 1
        if _beats(W, c, wc, trump):
            ws = t
            wc = c
    if same > 1:
        rel |= np.int64(1) << wc
    W[O_T2 + 25] = rel
    if W[O_ISMAX + ws] == 1:
        v += pts
    return v


@njit(cache=True)
def _two_tricks(W, seat, alpha, beta):
    """Fail-soft value of a two-trick ending with ``seat`` to lead (every seat holds two
    cards), solved outright by alpha-beta over the first trick (the last one follows by
    force), without recursion; ``W[O_T2 + 24]`` gets the cards whose ranks decided it."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    for t in range(nseat):
        h1 = W[O_H1 + t]
        a = _ctz(h1)
        W[O_T2 + 2 * t] = a
        W[O_T2 + 2 * t + 1] = a if W[O_H2 + t] != 0 else _ctz(h1 & (h1 - 1))
    # per level i (cards played so far): seat, options, next option, first option, trick
    # winner / winning card / points before the seat plays, window, best so far
    S_ = O_T2S
    NA = O_T2S + 8
    JJ = O_T2S + 16
    FI = O_T2S + 24
    WS = O_T2S + 32
    WC = O_T2S + 40
    TP = O_T2S + 48
    AL = O_T2S + 56
    BE = O_T2S + 64
    RS = O_T2S + 72
    RL = O_T2S + 80
    lsuit = np.int64(-1)
    i = 0
    W[S_] = seat
    W[WS] = -1
    W[WC] = -1
    W[TP] = 0
    W[AL] = alpha
    W[BE] = beta
    fresh = True
    while True:
        s = W[S_ + i]
        if fresh:
            # set up level i: the seat's playable cards, the likelier good one first
            a = W[O_T2 + 2 * s]
            b = W[O_T2 + 2 * s + 1]
            na = 2
            first = 0
            if a == b:
                na = 1
            elif i > 0 and ((a >> 4) == lsuit) != ((b >> 4) == lsuit):
                na = 1
                if (b >> 4) == lsuit:
                    W[O_T2 + 2 * s] = b
                    W[O_T2 + 2 * s + 1] = a
            elif i > 0:
                wc = W[WC + i]
                wa = _beats(W, a, wc, trump)
                wb = _beats(W, b, wc, trump)
                ours = W[O_ISMAX + W[WS + i]] == W[O_ISMAX + s]
                if wa != wb and not ours:
                    first = 0 if wa else 1
                elif ours == (W[O_PTS + b] > W[O_PTS + a]):
                    first = 1
            W[NA + i] = na
            W[JJ + i] = 0
            W[FI + i] = first
            W[RS + i] = -1 if W[O_ISMAX + s] == 1 else 1 << 30
            W[RL + i] = 0
            fresh = False
        if W[JJ + i] < W[NA + i] and W[AL + i] < W[BE + i]:
            j = W[JJ + i] ^ W[FI + i]
            W[JJ + i] += 1
            W[O_T2 + 16 + s] = j
            c = W[O_T2 + 2 * s + j]
            ws = W[WS + i]
            wc = W[WC + i]
            if i == 0:
                lsuit = c >> 4
                ws = s
                wc = c
            elif _beats(W, c, wc, trump):
                ws = s
                wc = c
            tp = W[TP + i] + W[O_PTS + c]
            if i + 1 < nseat:
                nxt = s + 1
                if nxt == nseat:
                    nxt = 0
                i += 1
                W[S_ + i] = nxt
                W[WS + i] = ws
                W[WC + i] = wc
                W[TP + i] = tp
                W[AL + i] = W[AL + i - 1]
                W[BE + i] = W[BE + i - 1]
                fresh = True
                continue
            r = _t2_leaf(W, ws, wc, tp)
            crel = W[O_T2 + 25]
        else:
            r = W[RS + i]
            crel = W[RL + i]
            if i == 0:
                W[O_T2 + 24] = crel
                return r
            i -= 1
            s = W[S_ + i]
        if W[O_ISMAX + s] == 1:
            if r > W[RS + i]:
                W[RS + i] = r
                if r > W[AL + i]:
                    W[AL + i] = r
        elif r < W[RS + i]:
            W[RS + i] = r
            if r < W[BE + i]:
                W[BE + i] = r
        if W[AL + i] >= W[BE + i]:
            # a cut-off rests on this line alone
            W[RL + i] = crel
        else:
            W[RL + i] |= crel


@njit(cache=True)
def _gen_moves(W, seat, tlen, lsuit, wseat, wcard, settled, foreign, d):
    """Fill the move list of depth ``d`` with the legal cards of ``seat``, one per
    equivalence class, best first; returns how many. ``settled``: no opponent of the
    side winning the trick so far can still beat its card; ``foreign``: the cards the
    other seats hold."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    hand = W[O_H1 + seat]
    legal = hand
    if tlen > 0:
        f = hand & W[O_SMASK + lsuit]
        if f != 0:
            legal = f
    if (legal & (legal - 1)) == 0:
        # one kind of card to play: nothing to order
        W[O_MV + d * MAX_MOVES] = _ctz(legal)
        W[O_SKIP + d] = 0
        return 1
    # cards on the table matter for equivalence only through who wins this trick
    my = W[O_ISMAX + seat]
    partner_wins = tlen > 0 and W[O_ISMAX + wseat] == my
    partner_holds = partner_wins and settled
    mvo = O_MV + d * MAX_MOVES
    sco = O_SC + d * MAX_MOVES
    n = 0
    skip = np.int64(0)
    # leads with a trump suit: the suits (bits) an opponent can ruff, and those the
    # leader's partner can ruff (void there, trumps left), as DDS weights its leads
    opp_ruff = 0
    mate_ruff = 0
    if tlen == 0 and trump >= 0:
        tm = W[O_SMASK + trump]
        for s in range(nseat):
            h = W[O_H1 + s]
            if s == seat or (h & tm) == 0:
                continue
            for su in range(4):
                if su != trump and (h & W[O_SMASK + su]) == 0:
                    if W[O_ISMAX + s] == my:
                        mate_ruff |= 1 << su
                    else:
                        opp_ruff |= 1 << su
    for su in range(4):
        x = legal & W[O_SMASK + su]
        prev = -1
        while x != 0:
            b = x & -x
            x ^= b
            c = _ctz(b)
            p = W[O_PTS + c]
            if prev >= 0 and p == W[O_PTS + prev] and (foreign & b) == 0 and (
                    tlen == 0 or _beats(W, c, wcard, trump) == _beats(W, prev, wcard, trump)):
                pb = np.int64(1) << prev
                between = (b - 1) & ~((pb << 1) - 1)
                if (foreign & (pb | between)) == 0:
                    skip |= b
                    prev = c
                    continue
            prev = c
            weak = c & 15
            if tlen == 0:
                above = foreign & W[O_SMASK + su] & (b - 1)
                if above == 0:
                    s_ = 100 + 8 * p + (20 if su == trump else 0)
                else:
                    s_ = -8 * p + weak
                    tb = above & -above
                    s = _ctz(W[O_OWN + _ctz(tb)] & ~(np.int64(1) << seat))
                    if W[O_ISMAX + s] == my:
                        s_ += 50
                if (opp_ruff >> su) & 1:
                    # (a top card an opponent ruffs is no winner)
                    s_ = -8 * p + weak - RUFF_W if above == 0 else s_ - RUFF_W
                elif (mate_ruff >> su) & 1:
                    s_ += MATE_W
            else:
                win = _beats(W, c, wcard, trump)
                if partner_holds:
                    if win:
                        s_ = 8 * p - 20 - weak
                    else:
                        s_ = 40 + 8 * p + weak
                elif partner_wins:
                    if win:
                        s_ = 8 * p - 20 - weak
                    else:
                        s_ = 10 - 8 * p + weak
                else:
                    if win:
                        s_ = 60 + 8 * p + weak
                    else:
                        s_ = -8 * p + weak
            j = n
            while j > 0 and W[sco + j - 1] < s_:
                W[sco + j] = W[sco + j - 1]
                W[mvo + j] = W[mvo + j - 1]
                j -= 1
            W[sco + j] = s_
            W[mvo + j] = c
            n += 1
    W[O_SKIP + d] = skip
    if W[P_SHUFFLE] != 0:
        # (tests only) the moves in a random order: no answer may depend on the order
        st = W[P_SHUFFLE]
        for i in range(n - 1, 0, -1):
            st ^= st << 13
            st ^= (st >> 7) & np.int64(0x01FFFFFFFFFFFFFF)
            st ^= st << 17
            k = (st & np.int64(0x7FFFFFFF)) % (i + 1)
            c = W[mvo + i]
            W[mvo + i] = W[mvo + k]
            W[mvo + k] = c
        W[P_SHUFFLE] = st
    return n


@njit(cache=True, inline="always")
def _pack(lb, ub, bb, res, a0, b0, cut, ncards, kv, ep):
    """An entry's value word: its bounds ``lb``/``ub`` narrowed by the fail-soft result
    ``res`` of a search with window (a0, b0), best move, size, rank counts and epoch."""
    if res >= b0:
        if res > lb:
            lb = res
    elif res <= a0:
        if res < ub:
            ub = res
    else:
        lb = res
        ub = res
    if cut >= 0:
        bb = cut + 1
    return lb | (ub << 8) | (ncards << 16) | (bb << 24) | (kv << 32) | (ep << 52)


@njit(cache=True)
def _tt_store(T, i0, nslots, k, kv, merge_kv, res, a0, b0, cut, ncards, left, ep):
    """Record a search result (fail-soft ``res`` of window a0, b0) under key ``k`` in the
    bucket of ``nslots`` at ``i0``; ``kv`` the ranks it depends on. With ``merge_kv`` an
    existing entry keeps, per suit, the larger rank count of the two (sound for both).
    A new key takes the slot of an entry from another epoch (an earlier, cleared search)
    or else of the shallowest entry."""
    e = -1
    for j in range(i0, i0 + nslots):
        if T[2 * (j)] == k:
            e = j
            break
    if e >= 0:
        v = T[2 * (e) + 1]
        lb = v & 255
        ub = (v >> 8) & 255
        bb = (v >> 24) & 255
        if merge_kv:
            ko = (v >> 32) & 0xFFFFF
            m = np.int64(0)
            for su in range(4):
                x = max((ko >> (5 * su)) & 31, (kv >> (5 * su)) & 31)
                m |= x << (5 * su)
            kv = m
    else:
        e = i0
        dmin = np.int64(1 << 30)
        for j in range(i0, i0 + nslots):
            dj = (T[2 * (j) + 1] >> 16) & 255 if T[2 * (j)] != 0 and ((T[2 * (j) + 1] >> 52) & 0x7FF) == ep else np.int64(-1)
            if dj < dmin:
                dmin = dj
                e = j
        T[2 * (e)] = k
        lb = np.int64(0)
        ub = min(left, np.int64(255))
        bb = np.int64(0)
    T[2 * (e) + 1] = _pack(lb, ub, bb, res, a0, b0, cut, ncards, kv, ep)


@njit(cache=True)
def _tt_store_lru(T, i0, nslots, k, kv, res, a0, b0, cut, ncards, left, ep):
    """Record a search result under abstract key ``k`` at the front of the bucket of
    ``nslots`` at ``i0`` (its entries all share the fully abstracted position, so they are
    kept in the order they were last stored; the last one goes)."""
    e = i0 + nslots - 1
    for j in range(i0, i0 + nslots):
        if T[2 * (j)] == k:
            e = j
            break
    v = T[2 * (e) + 1] if T[2 * (e)] == k else np.int64(-1)
    for j in range(e, i0, -1):
        T[2 * (j)] = T[2 * (j - 1)]
        T[2 * (j) + 1] = T[2 * (j - 1) + 1]
    if v >= 0 and ((v >> 32) & 0xFFFFF) == kv:
        lb = v & 255
        ub = (v >> 8) & 255
        bb = (v >> 24) & 255
    else:
        lb = np.int64(0)
        ub = min(left, np.int64(255))
        bb = np.int64(0)
    T[2 * (i0)] = k
    T[2 * (i0) + 1] = _pack(lb, ub, bb, res, a0, b0, cut, ncards, kv, ep)


@njit(cache=True, inline="always")
def _exact(W, T, ix, kx, alpha, beta, ncards):
    """The exact entry of this trick start (key ``kx``, at entry ``ix``): the value it
    decides for the window, else -1; and its best lead (-1: none)."""
    for e in range(ix, ix + 2):
        if T[2 * e] == kx:
            v = T[2 * e + 1]
            lb = v & 255
            ub = (v >> 8) & 255
            if lb >= beta or lb == ub or ub <= alpha:
                W[O_REL + ncards] = _topk(W, (v >> 32) & 0xFFFFF)
                return (lb if lb >= beta or lb == ub else ub), np.int64(-1)
            return np.int64(-1), ((v >> 24) & 255) - 1
    return np.int64(-1), np.int64(-1)


@njit(cache=True)
def _start(W, T, alpha, beta, seat, left, key, ncards):
    """A trick start's table lookups and bounds (two or more tricks left): the value when
    they decide it (points: never negative), else -1, with what the search and its store need at
    ``W[O_START + 8 * ncards:]`` (best lead, the abstract key's base, the abstract bucket,
    the exact entry, the payoff bucket and its key, the window). Out of ``_ab`` so that its
    calls' return slots are not set up at every node of the search (numba zeroes two per
    call site at each entry)."""
    nseat = W[P_NSEAT]
    best = -1
    pb = np.int64(-1)
    kb = np.int64(0)
    # the exact position: its key is kept up to date move by move (no hashing); its
    # entry, fetched since the trick's last card, is read after the bounds below (its
    # memory latency overlaps them), except before a two-trick ending
    kx = _xkey(key, seat)
    ix = kx & W[P_TMASK] & ~np.int64(1)
    al0 = alpha
    be0 = beta
    if ncards == 2 * nseat:
        hit, best = _exact(W, T, ix, kx, alpha, beta, ncards)
        if hit >= 0:
            return hit
        # two-trick endings are solved outright
        v = _two_tricks(W, seat, alpha, beta)
        rel = W[O_T2 + 24]
        W[O_REL + ncards] = rel
        _tt_store(T, ix, 2, kx, _kvec(W, rel), True, v, alpha, beta, np.int64(-1), ncards, left,
                  W[P_EPOCH])
        return v
    if ncards <= W[P_EXACT]:
        alpha = np.int64(-1)
        beta = left + 1
    # then the position abstracted to the top cards that decided a stored result
    base = W[P_SALT] ^ ((seat + 1) * np.int64(0x2545F4914F6CDD1D))
    i0 = _akey0(W, base, ncards // nseat) & W[P_TMASK] & ~(W[P_ABUCKET] - 1)
    _prefetch(T, 2 * i0)
    if W[P_ABUCKET] > 4:
        _prefetch(T, 2 * i0 + 8)
    if W[P_PAYOFF] != 0 and ncards >= 3 * nseat:
        # and the bucket of payoff-similar entries (the small cards' points left out)
        g = O_HB + (ncards // nseat) * HSTRIDE
        kb = _mix((base ^ PSALT) + W[g] + W[g + 32] + W[g + 64] + W[g + 96])
        pb = W[P_PBASE] + 8 * PBUCKET * (kb & W[P_PMASK])
        for j in range(PBUCKET):
            _prefetch(T, pb + 8 * j)
    # bounds: the leader's cashable cards (for its side), then a team's run of top
    # trumps (every copy in its hands: for the leader's side or against it)
    for which in range(2):
        if which == 0:
            q = _quick(W, seat, np.int64(0))
            team = W[O_ISMAX + seat]
        else:
            tr = _trump_run(W)
            q = tr >> 1
            team = tr & 1
        if team == 1:
            if q >= beta:
                W[O_REL + ncards] = W[O_QM]
                return q
        elif left - q <= alpha:
            W[O_REL + ncards] = W[O_QM]
            return left - q
    hit, best = _exact(W, T, ix, kx, al0, be0, ncards)
    if hit >= 0:
        return hit
    lkv = np.int64(-1)
    lk = np.int64(0)
    for e in range(i0, i0 + W[P_ABUCKET]):
        tk = T[2 * (e)]
        v = T[2 * (e) + 1]
        if tk != 0 and ((v >> 16) & 255) == ncards:
            kv = (v >> 32) & 0xFFFFF
            if kv != lkv:
                # (each rank counts' key once per lookup)
                lkv = kv
                lk = _akey(W, kv, base, ncards // nseat)
            if lk == tk:
                lb = v & 255
                ub = (v >> 8) & 255
                if lb >= beta or lb == ub:
                    W[O_REL + ncards] = _topk(W, kv)
                    return lb
                if ub <= alpha:
                    W[O_REL + ncards] = _topk(W, kv)
                    return ub
                if best < 0 and ((v >> 24) & 255) > 0 and (W[O_H1 + seat] >> (((v >> 24) & 255) - 1)) & 1:
                    # (an entry of another position with the same abstraction: its best
                    # card may not be in this hand)
                    best = ((v >> 24) & 255) - 1
    if pb >= 0:
        # an entry of a payoff-similar position: its bounds moved by what the small
        # cards' points can change (this position's small-card points computed once per
        # rank counts)
        W[P_SIGKV] = -1
        lkv = np.int64(-1)
        for j in range(PBUCKET):
            o = pb + 8 * j
            tk = T[o]
            if tk == 0:
                break
            v = T[o + 1]
            if T[o + 6] != kb or ((v >> 16) & 255) != ncards:
                # (another position's bucket: the cheap check first)
                continue
            kv = (v >> 32) & 0xFFFFF
            if kv != lkv:
                lkv = kv
                lk = _bkey(W, kv, base ^ PSALT, ncards // nseat)
            if lk != tk:
                continue
            sh = _shift(W, T, o, kv)
            lb = (v & 255) - (sh & 0xFFFF)
            if lb >= beta:
                W[O_REL + ncards] = _topk(W, kv)
                return lb
            ub = ((v >> 8) & 255) + (sh >> 16)
            if ub <= alpha:
                W[O_REL + ncards] = _topk(W, kv)
                return ub
            if best < 0 and ((v >> 24) & 255) > 0 and (W[O_H1 + seat] >> (((v >> 24) & 255) - 1)) & 1:
                # (the best card of a position that plays alike, when this hand holds it)
                best = ((v >> 24) & 255) - 1
    o = O_START + 8 * ncards
    W[o] = best
    W[o + 1] = base
    W[o + 2] = i0
    W[o + 3] = ix
    W[o + 4] = pb
    W[o + 5] = kb
    W[o + 6] = alpha
    W[o + 7] = beta
    return np.int64(-1)


@njit(cache=True)
def _start_store(W, T, res, a0, b0, cut, rel, seat, left, key, ncards):
    """Record a trick start's result: the exact entry, the abstract bucket and the payoff
    bucket (``_start`` left their places at ``W[O_START + 8 * ncards:]``)."""
    nseat = W[P_NSEAT]
    o = O_START + 8 * ncards
    base = W[o + 1]
    i0 = W[o + 2]
    ix = W[o + 3]
    pb = W[o + 4]
    kb = W[o + 5]
    kv = _kvec(W, rel)
    _tt_store(T, ix, 2, _xkey(key, seat), kv, True, res, a0, b0, cut, ncards, left, W[P_EPOCH])
    ka = _akey(W, kv, base, ncards // nseat)
    _tt_store_lru(T, i0, W[P_ABUCKET], ka, kv, res, a0, b0, cut, ncards, left, W[P_EPOCH])
    if pb >= 0 and _sig(W, kv):
        _pt_store(T, pb, _bkey(W, kv, base ^ PSALT, ncards // nseat), kb, res, a0, b0, cut,
                  ncards, kv, left, W[P_EPOCH], W)


@njit(cache=True)
def _ab(W, T, alpha, beta, seat, tlen, lsuit, wseat, wcard, tpts, tcards, left, key, ncards):
    """Fail-soft alpha-beta on the points the maximising side wins from here.

    Returns ``v``: at most ``alpha`` means "at most v", at least ``beta`` means "at least
    v", in between it is exact. A zero window (target - 1, target) asks "can the side
    win target?". Endings of at most ``W[P_EXACT]`` cards are solved exactly whatever the
    window, so that their table entries serve every later target.
    """
    W[O_REL + ncards] = 0
    if beta <= 0:
        return np.int64(0)
    if alpha >= left:
        return left
    W[ST_NODES] += 1
    if W[ST_NODES] > W[ST_LIMIT]:
        W[ST_ABORT] = 1
        return np.int64(0)
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    if tlen + 1 == nseat and ncards > nseat + 1:
        # the last card of a trick: start fetching the exact table entries of the trick
        # starts it can lead to, so that the memory latency overlaps the work below (their
        # abstract buckets too: 6 x 8 time +2% to +3%, too many fetches in flight)
        hand = W[O_H1 + seat]
        x = hand & W[O_SMASK + lsuit]
        if x == 0:
            x = hand
        while x != 0:
            b = x & -x
            x ^= b
            c = _ctz(b)
            ck = key ^ _ZH[((8 + seat) << 6) | c] if (W[O_H2 + seat] & b) != 0 else key ^ _ZH[(seat << 6) | c]
            ws = seat if _beats(W, c, wcard, trump) else wseat
            _prefetch(T, 2 * (_xkey(ck, ws) & W[P_TMASK] & ~np.int64(1)))
    settled = False
    if tlen > 0:
        # is the trick in progress settled? (no opponent of the winner still to play can beat it)
        wside = W[O_ISMAX + wseat]
        wb = np.int64(1) << wcard
        settled = True
        fixed = True
        forced = np.int64(0)
        pend = np.int64(0)
        s = seat
        for _ in range(nseat - tlen):
            pend |= np.int64(1) << s
            h = W[O_H1 + s]
            f = h & W[O_SMASK + lsuit]
            over = False
            if f != 0:
                over = (wcard >> 4) == lsuit and (f & (wb - 1)) != 0
            elif trump >= 0:
                t = h & W[O_SMASK + trump]
                over = t != 0 and ((wcard >> 4) != trump or (t & (wb - 1)) != 0)
            if over:
                if W[O_ISMAX + s] != wside:
                    settled = False
                    break
                # a partner of the winner may still take over: the side is sure, the next leader not
                fixed = False
            s += 1
            if s == nseat:
                s = 0
        if settled:
            s = seat
            for _ in range(nseat - tlen):
                h = W[O_H1 + s]
                f = h & W[O_SMASK + lsuit]
                forced += _minpts(W, f if f != 0 else h)
                s += 1
                if s == nseat:
                    s = 0
            sure = tpts + W[P_BONUS] + forced
            W[O_REL + ncards] = wb
            if wside == 1:
                if sure >= beta:
                    return sure
            elif left - sure <= alpha:
                return left - sure
            if fixed and nseat == 4 and ncards > nseat - tlen:
                # the next trick's leader is known: add its cashable top cards (at 4 seats;
                # with 6 or 8 it saves fewer nodes than its time: 6 x 8 +2% to +6% nodes
                # without it, -4% to -6% time)
                sure += _quick(W, wseat, pend)
                W[O_REL + ncards] = wb | W[O_QM]
                if wside == 1:
                    if sure >= beta:
                        return sure
                elif left - sure <= alpha:
                    return left - sure
            W[O_REL + ncards] = 0
    best = -1
    if tlen == 0:
        if ncards == nseat:
            return _last_trick(W, seat)
        v = _start(W, T, alpha, beta, seat, left, key, ncards)
        if v >= 0:
            return v
        best = W[O_START + 8 * ncards]
        alpha = W[O_START + 8 * ncards + 6]
        beta = W[O_START + 8 * ncards + 7]
    a0 = alpha
    b0 = beta
    d = ncards
    other = np.int64(0)
    for s_ in range(nseat):
        if s_ != seat:
            other |= W[O_H1 + s_]
    # the card that cut off last time the mover held these cards in this trick: its slot
    # is fetched now, while the moves are generated
    if tlen == 0:
        ckey = W[O_H1 + seat] * np.int64(-7046029254386353131) ^ W[O_H2 + seat]
    else:
        f = W[O_H1 + seat] & W[O_SMASK + lsuit]
        if f != 0:
            ckey = ((other | W[O_H1 + seat]) & W[O_SMASK + lsuit]) * np.int64(-7046029254386353131) ^ (f << 1)
        else:
            ckey = W[O_H1 + seat] * np.int64(-7046029254386353131) ^ W[O_H2 + seat]
        ckey ^= (wcard + 1) * np.int64(0x9E3779B97F4A7C15 - (1 << 64)) ^ (W[O_ISMAX + wseat] << 7)
    ckey = _mix(ckey ^ (seat + 8 * tlen + 1) * np.int64(0x2545F4914F6CDD1D)) & ~np.int64(255)
    _prefetch(W, O_CUT + ((ckey >> 8) & (NCUT - 1)))
    n = _gen_moves(W, seat, tlen, lsuit, wseat, wcard, settled, other, d)
    mvo = O_MV + d * MAX_MOVES
    if n > 1:
        if best < 0:
            e = W[O_CUT + ((ckey >> 8) & (NCUT - 1))]
            if (e & ~np.int64(255)) == ckey:
                best = e & 255
    if best >= 0:
        for j in range(n):
            if W[mvo + j] == best:
                for i in range(j, 0, -1):
                    W[mvo + i] = W[mvo + i - 1]
                W[mvo] = best
                break
    my = W[O_ISMAX + seat] == 1
    res = np.int64(-1) if my else np.int64(1000)
    rel = np.int64(0)
    cut = -1
    nxt = seat + 1
    if nxt == nseat:
        nxt = 0
    sco = O_SC + d * MAX_MOVES
    for j in range(n):
        c = W[mvo + j]
        if j > 0:
            # a card plays like one of its suit already tried when both are weaker than
            # every card of the suit the lines searched so far depend on, or when they are
            # neighbours (no other hand holds a copy of either or a card between them, and
            # both or neither take the trick): only their points differ, and those move
            # between two tricks (this one and the one the other card goes to). Of equal
            # points it gives the same result; else skip it when the tried card's bound
            # clears the window by what the difference can change
            su_ = c >> 4
            rs = rel & W[O_SMASK + su_]
            low = np.int64(63) - _clz(rs) if rs != 0 else np.int64(-1)
            pc = W[O_PTS + c]
            skipped = False
            for i in range(j):
                x = W[mvo + i]
                rx = W[sco + i]
                if (x >> 4) != su_ or rx == _NOBOUND:
                    continue
                px = W[O_PTS + x]
                near = np.int64(0)
                if c <= low or x <= low:
                    hb = np.int64(1) << min(x, c)
                    lb_ = np.int64(1) << max(x, c)
                    span = ((lb_ << 1) - hb) & ~(hb | lb_)
                    if (other & span) != 0 or (other & (hb | lb_)) != 0 or (
                            tlen > 0 and _beats(W, c, wcard, trump) != _beats(W, x, wcard, trump)):
                        continue
                    near = lb_
                elif px == pc:
                    skipped = True
                    W[sco + j] = rx
                    break
                # the maximising side gains (pc - px) x (it wins this trick - it wins
                # the trick the other card goes to): either way in general, one way
                # only once this trick's side is settled
                up = px - pc if px > pc else pc - px
                dn = up
                now = np.int64(-1)
                if settled:
                    now = W[O_ISMAX + wseat]
                elif tlen + 1 == nseat:
                    # the trick's last card: who takes it is known with either card
                    bx = _beats(W, x, wcard, trump)
                    if bx == _beats(W, c, wcard, trump):
                        now = W[O_ISMAX + seat] if bx else W[O_ISMAX + wseat]
                if now == 1:
                    up = max(pc - px, 0)
                    dn = max(px - pc, 0)
                elif now == 0:
                    up = max(px - pc, 0)
                    dn = max(pc - px, 0)
                if my:
                    if rx + up <= alpha:
                        skipped = True
                        res = max(res, rx + up)
                elif rx - dn >= beta:
                    skipped = True
                    res = min(res, rx - dn)
                if skipped:
                    W[sco + j] = _NOBOUND
                    # (neighbours stay so only while the weaker one's rank is kept)
                    rel |= near
                    break
            if skipped:
                continue
        b = np.int64(1) << c
        two = (W[O_H2 + seat] & b) != 0
        if two:
            W[O_H2 + seat] ^= b
            ck = key ^ _ZH[((8 + seat) << 6) | c]
        else:
            W[O_H1 + seat] ^= b
            W[O_OWN + c] ^= np.int64(1) << seat
            ck = key ^ _ZH[(seat << 6) | c]
        p = W[O_PTS + c]
        za = _ZT[(seat << 6) | (c & 48) | (p & 15)]
        zb = _ZT[(seat << 6) | (c & 48)]
        W[O_ACC + (c >> 4)] -= za
        W[O_ACCB + (c >> 4)] -= zb
        ws = wseat
        wc = wcard
        ls = lsuit
        if tlen == 0:
            ws = seat
            wc = c
            ls = c >> 4
        elif _beats(W, c, wcard, trump):
            ws = seat
            wc = c
        if tlen + 1 == nseat:
            tp = tpts + p + W[P_BONUS]
            if W[O_ISMAX + ws] == 1:
                r = tp + _ab(W, T, np.int64(alpha - tp), np.int64(beta - tp), np.int64(ws), np.int64(0),
                             np.int64(-1), np.int64(-1), np.int64(-1), np.int64(0), np.int64(0),
                             np.int64(left - tp), np.int64(ck), np.int64(ncards - 1))
            else:
                r = _ab(W, T, np.int64(alpha), np.int64(beta), np.int64(ws), np.int64(0), np.int64(-1),
                        np.int64(-1), np.int64(-1), np.int64(0), np.int64(0), np.int64(left - tp),
                        np.int64(ck), np.int64(ncards - 1))
        else:
            nt = tcards | b
            if (tcards & b) != 0:
                nt |= np.int64(-9223372036854775807 - 1)
            r = _ab(W, T, np.int64(alpha), np.int64(beta), np.int64(nxt), np.int64(tlen + 1), np.int64(ls),
                    np.int64(ws), np.int64(wc), np.int64(tpts + p), np.int64(nt), np.int64(left),
                    np.int64(ck), np.int64(ncards - 1))
        if two:
            W[O_H2 + seat] |= b
        else:
            W[O_H1 + seat] |= b
            W[O_OWN + c] ^= np.int64(1) << seat
        W[O_ACC + (c >> 4)] += za
        W[O_ACCB + (c >> 4)] += zb
        if W[ST_ABORT] != 0:
            return np.int64(0)
        W[sco + j] = r
        crel = W[O_REL + ncards - 1]
        if tlen + 1 == nseat:
            wbit = np.int64(1) << wc
            if ((tcards | b) & W[O_SMASK + (wc >> 4)] & ~wbit) != 0 or (tcards & b) != 0 or tcards < 0:
                crel |= wbit
        rel |= crel
        if my:
            if r > res:
                res = r
                if r > alpha:
                    alpha = r
                    cut = c
        else:
            if r < res:
                res = r
                if r < beta:
                    beta = r
                    cut = c
        if alpha >= beta:
            # a cut-off rests on this card's line alone
            rel = crel
            if n > 1:
                W[O_CUT + ((ckey >> 8) & (NCUT - 1))] = ckey | c
            break
    sk = W[O_SKIP + d]
    if sk != 0:
        # a card tried once for its class matters only if the card tried for it does
        u = other | W[O_H1 + seat]
        while sk != 0:
            b = sk & -sk
            sk ^= b
            above = u & W[O_SMASK + (_ctz(b) >> 4)] & (b - 1)
            if above != 0 and (rel & (np.int64(1) << (63 - _clz(above)))) != 0:
                rel |= b
    W[O_REL + ncards] = rel
    if tlen == 0:
        _start_store(W, T, res, a0, b0, cut, rel, seat, left, key, ncards)
    return res


@njit(cache=True)
def _probe(W, T, rs, target):
    """One fail-soft search from a root state ``rs``."""
    key = rs[RS_SALT]
    W[P_SALT] = key
    for su in range(4):
        W[O_ACC + su] = 0
        W[O_ACCB + su] = 0
    for s in range(W[P_NSEAT]):
        for copy in range(2):
            x = W[O_H1 + s + 8 * copy]
            while x != 0:
                b = x & -x
                x ^= b
                c = _ctz(b)
                W[O_ACC + (c >> 4)] += _ZT[(s << 6) | (c & 48) | (W[O_PTS + c] & 15)]
                W[O_ACCB + (c >> 4)] += _ZT[(s << 6) | (c & 48)]
    for c in range(64):
        W[O_OWN + c] = 0
    for s in range(W[P_NSEAT]):
        x = W[O_H1 + s]
        while x != 0:
            b = x & -x
            x ^= b
            W[O_OWN + _ctz(b)] |= np.int64(1) << s
            key ^= _ZH[(s << 6) | _ctz(b)]
        x = W[O_H2 + s]
        while x != 0:
            b = x & -x
            x ^= b
            key ^= _ZH[((8 + s) << 6) | _ctz(b)]
    return _ab(W, T, np.int64(target - 1), np.int64(target), rs[RS_SEAT], rs[RS_TLEN], rs[RS_LSUIT], rs[RS_WSEAT],
               rs[RS_WCARD], rs[RS_TPTS], rs[RS_TCARDS], rs[RS_LEFT], np.int64(key), rs[RS_NCARDS])


@njit(cache=True, inline="always")
def _setup(W, nwords):
    """Lay out a table of ``nwords`` words: with payoff-similar entries, the lower half for
    the exact and abstract entries, the upper half for buckets of payoff entries."""
    ne = nwords // 2
    if W[P_PAYOFF] != 0 and ne >= 256:
        W[P_TMASK] = ne // 2 - 1
        W[P_PBASE] = ne
        W[P_PMASK] = ne // (8 * PBUCKET) - 1
    else:
        W[P_PAYOFF] = 0
        W[P_TMASK] = ne - 1


@njit(cache=True, nogil=True)
def solve_kernel(W, T, rs, target):
    """Yes/no: can the maximising side win ``target`` more points from ``rs``? Check the abort flag."""
    _setup(W, T.shape[0])
    return _probe(_ptr(W), _ptr(T), rs, target) >= target


@njit(cache=True)
def _narrow(W, T, rs, window):
    """Probe until ``window`` closes: first its middle, then a third of the way up from
    the lower end (on the 6 x 8 sets measured, a probe above the value, proving "less
    than", mostly cost more than one below it: nodes -11% to -13% against halving every
    time). Once at most 5 points wide, step by one from the end whose last proof was the
    cheaper: near the value a deal's proofs of "at least" and of "less than" often differ
    in cost by 10x or more, and stepping from the cheap end leaves one costly proof (6 x 8,
    90 deals: nodes -9%). With a guess (``window[2]``, -1 for none) the first probes are
    "at least the guess" and then "at least one more": when the guess is the value, the two
    proofs any exact answer needs and nothing else."""
    lo = window[0]
    hi = window[1]
    g = window[2] if window.shape[0] > 2 else np.int64(-1)
    mid = (lo + hi + 1) // 2
    if g >= 0:
        mid = min(max(g, lo + 1), hi)
    up_cost = np.int64(0)
    down_cost = np.int64(0)
    while lo < hi:
        n0 = W[ST_NODES]
        r = _probe(W, T, rs, mid)
        if W[ST_ABORT] != 0:
            break
        if r >= mid:
            lo = r
            up_cost = W[ST_NODES] - n0
        else:
            hi = r
            down_cost = W[ST_NODES] - n0
        window[0] = lo
        window[1] = hi
        if g >= 0:
            # the guess is used once: after "at least the guess", "at least one more"
            window[2] = -1
            g = -1
            if r >= mid:
                mid = lo + 1
                continue
        if hi - lo > 5:
            mid = lo + max((hi - lo + 1) // 3, 1)
        elif down_cost >= up_cost:
            mid = lo + 1
        else:
            mid = hi


@njit(cache=True, nogil=True)
def value_kernel(W, T, rs, window):
    """Narrow ``window`` = [lo, hi] or [lo, hi, guess] (lo known makeable, hi an upper
    bound, guess -1 for none) to the exact value.

    On return ``window[0] == window[1]`` is the value, unless the abort flag says the node
    limit stopped it; the window then holds what was proved so far and a later call resumes.
    """
    _setup(W, T.shape[0])
    _narrow(_ptr(W), _ptr(T), rs, window)


@njit(cache=True, parallel=True)
def value_many_kernel(WS, T, RS, out):
    """Exact values of many positions (``WS[i]`` their work arrays, ``RS[i]`` root states).

    Positions are split into contiguous groups, one per table row (``T[g]``), so answers
    do not depend on how threads are scheduled. ``out[i]`` is -1 where the node limit
    (``WS[i][ST_LIMIT]``) stopped the search.
    """
    npos = WS.shape[0]
    ng = T.shape[0]
    for g in prange(ng):
        a = (npos * g) // ng
        z = (npos * (g + 1)) // ng
        for i in range(a, z):
            W = WS[i]
            _setup(W, T.shape[1])
            window = np.zeros(2, np.int64)
            window[1] = RS[i, RS_LEFT]
            _narrow(_ptr(W), _ptr(T[g]), RS[i], window)
            out[i] = window[0] if W[ST_ABORT] == 0 else -1
