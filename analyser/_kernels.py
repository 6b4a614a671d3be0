"""Numba kernels of the double-dummy solver: arrays and scalars in, arrays and scalars out.

Cards are bits of an int64 (bit ``suit * 16 + rank``, rank 0 the strongest); a seat's hand is
two masks, ``h1`` (one copy or more) and ``h2`` (two copies). The search is a fail-soft
alpha-beta on the points the maximising side wins, with a transposition table ``T`` and one
work array ``W`` laid out by the table ``WORK`` below. The design, and why: docs/solver.md.

Every kernel is in this one file: numba's cache cannot see changes in jitted functions
imported from another module (their callers would run stale compiled code).
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# root state ``rs`` (int64)
RS_SEAT, RS_TLEN, RS_LSUIT, RS_WSEAT, RS_WCARD, RS_TPTS, RS_TCARDS, RS_LEFT, RS_NCARDS, RS_SALT = range(10)
RS_SIZE = 10


class Layout:
    """The regions of an int64 work array, each right after the one before, in the order they
    are added: the table of (name, first word, words, what it holds)."""

    def __init__(self) -> None:
        self.regions: list[tuple[str, int, int, str]] = []
        self.size = 0

    def add(self, name: str, words: int, what: str) -> int:
        """Append a region of ``words`` words; returns its first word."""
        start = self.size
        self.regions.append((name, start, words, what))
        self.size += words
        return start

    def __str__(self) -> str:
        return "\n".join(f"{start:6d} {words:6d}  {name or '(unused)':13s} {what}"
                         for name, start, words, what in self.regions)


MAX_SEATS = 8    # seats at a table
MAX_CARDS = 64   # card bits: 4 suits of 16
MAX_MOVES = 16   # a move list (one card per kind: a hand holds at most 16 kinds)
DEPTHS = 66      # per depth, indexed by cards left (0..64; one spare)
TRICKS = MAX_CARDS // 4 + 1  # per trick start, indexed by tricks left (0..16)

# a trick start's parts of the abstract keys (``O_HP``, ``O_HB``): per suit a block of
# ``HP_SUIT`` words, the part for the top k distinct cards at word k (k < ``HP_X``), then
# the state ``_apart`` extends them from (set up by its first call at a trick start: HP_DONE 0)
HP_X = 27        # the suit's cards in hands not yet in a part (bits)
HP_SMALL = 28    # the hash sum of the cards below the parts so far (``O_HB``: its points-blind sum)
HP_HASH = 29     # the running hash of the parts' (holder, points, copy tie) codes
HP_DONE = 30     # the parts computed so far (the largest k)
HP_N = 31        # the suit's distinct cards left
HP_SUIT = 32
HSTRIDE = 4 * HP_SUIT

# what ``_start`` leaves for the search and ``_start_store`` (``O_START``): per cards left a
# block of ``TS_SIZE`` words
TS_BASE = 0      # the abstract keys' base (salt and leader)
TS_ABUCKET = 1   # the abstract bucket's first entry
TS_EXACT = 2     # the exact entry's bucket
TS_PBUCKET = 3   # the payoff bucket's first word in ``T`` (-1: none)
TS_PKEY = 4      # the payoff bucket's points-blind fully abstracted key
TS_ALPHA = 5     # the window to search (opened to the full range for short endings)
TS_BETA = 6
TS_SIZE = 7

# how a trick start with two or more tricks left ended (``O_OUTCOME``): per tricks left a
# block of ``OC_SIZE`` counts
OC_WINDOW = 0    # the window was already decided (target reached or out of reach)
OC_BOUND = 1     # a bound (``_quick``, ``_trump_run``) decided it
OC_EXACT = 2     # the exact entry decided it
OC_ABSTRACT = 3  # an abstract entry decided it
OC_PAYOFF = 4    # a payoff-similar entry decided it
OC_SEARCHED = 5  # its cards were searched (two-trick endings: solved outright)
OC_SIZE = 6

NCUT = 16384     # cut-off memory slots (4,096 gave 3-11% more nodes on 6 x 8; 32,768 no fewer)

# Everything a search reads and writes, except the table, lives in one int64 work array
# ``W``, so that a recursive call passes two arrays, not twenty. ``O_``: a region of
# several words; ``P_``: one word of the position or the search's set-up; ``ST_``: the
# search's node count and limit.
WORK = Layout()
O_H1 = WORK.add("O_H1", MAX_SEATS, "per seat: the cards it holds one copy or more of")
O_H2 = WORK.add("O_H2", MAX_SEATS, "per seat: the cards it holds two copies of")
O_ISMAX = WORK.add("O_ISMAX", MAX_SEATS, "per seat: 1 on the maximising side")
O_SUIT = WORK.add("O_SUIT", MAX_CARDS, "per card: its suit, -1 for no card (the kernels use bit >> 4)")
O_PTS = WORK.add("O_PTS", MAX_CARDS, "per card: its points")
O_SMASK = WORK.add("O_SMASK", 4, "per suit: its cards' bits")
P_NSEAT = WORK.add("P_NSEAT", 1, "seats")
P_TRUMP = WORK.add("P_TRUMP", 1, "the trump suit, -1 for none")
P_BONUS = WORK.add("P_BONUS", 1, "the points for winning a trick")
P_TMASK = WORK.add("P_TMASK", 1, "the exact and abstract entries' index mask (entries - 1)")
ST_NODES = WORK.add("ST_NODES", 1, "nodes searched")
ST_LIMIT = WORK.add("ST_LIMIT", 1, "the node limit")
ST_ABORT = WORK.add("ST_ABORT", 1, "1: the limit stopped the search (its answer means nothing, nothing stored)")
ST_HALT = WORK.add("ST_HALT", 1, "1: another thread stopped the search (with ST_LIMIT 0): no budget's card may take it")
P_EXACT = WORK.add("P_EXACT", 1, "endings of at most this many cards are solved exactly whatever the window")
O_MV = WORK.add("O_MV", (MAX_CARDS + 1) * MAX_MOVES, "per depth: the move list")
O_SC = WORK.add("O_SC", (MAX_CARDS + 1) * MAX_MOVES, "per depth: each move's order score, then its result")
O_PM = WORK.add("O_PM", 4, "per points 0..3: the cards worth that")
O_REL = WORK.add("O_REL", DEPTHS, "per depth: the cards whose ranks decided the value returned")
O_SKIP = WORK.add("O_SKIP", DEPTHS, "per depth: the cards tried once for an equivalence class")
P_QM = WORK.add("P_QM", 1, "the cards the last _quick / _trump_run bound used")
P_QFIRST = WORK.add("P_QFIRST", 1, "the suit the last _quick counted the other seats' cards of (-1: none)")
O_TLEN = WORK.add("O_TLEN", MAX_SEATS, "scratch of the cashing bounds: per seat, its cards of a suit")
O_TMIN = WORK.add("O_TMIN", MAX_SEATS, "scratch of _quick: per seat, its cheapest card of a suit")
O_TSIG = WORK.add("O_TSIG", 2, "scratch: a position's top cards' points under rank counts, 2 bits a kind, 32 bits a suit")
P_BAFTER = WORK.add("P_BAFTER", 1, "budgeted move order only once the search has counted this many nodes")
P_BFROM = WORK.add("P_BFROM", 1, "budgeted move order at nodes with at least this many cards left (set by _probe)")
O_HP = WORK.add("O_HP", TRICKS * HSTRIDE, "per trick start: the suits' parts of the abstract keys (HP_*)")
O_T2C = WORK.add("O_T2C", 2 * MAX_SEATS, "two-trick ending: per seat its two cards")
O_T2F = WORK.add("O_T2F", MAX_SEATS, "two-trick ending: per seat the card it keeps for the last trick")
P_T2REL = WORK.add("P_T2REL", 1, "two-trick ending: the cards whose ranks decided it")
P_T2LEAF = WORK.add("P_T2LEAF", 1, "two-trick ending: the same for the last leaf")
P_BUDGET = WORK.add("P_BUDGET", 1, "budgeted move order: a card's first budget in nodes (0: off)")
P_BGROW = WORK.add("P_BGROW", 1, "budgeted move order: the budget's growth once every card left passed it")
P_BCARDS = WORK.add("P_BCARDS", 1, "budgeted move order: at a search's first this many cards")
P_KEEP = WORK.add("P_KEEP", 1, "move order: following, a card topping its suit goes this much later (KEEP_W)")
P_TOWARD = WORK.add("P_TOWARD", 1, "lead order: a low card whose suit's top card a teammate holds goes this much earlier")
P_DDSLEAD = WORK.add("P_DDSLEAD", 1, "move order: 1: DDS's weights of leads, discards and second hand in trumps (bridge)")
P_NDIV = WORK.add("P_NDIV", 1, "the narrowing: past P_NAFTER nodes, a window over 5 wide is probed 1 / this of the way up")
P_NAFTER = WORK.add("P_NAFTER", 1, "the narrowing: before this many nodes, a third of the way up (NARROW_DIV)")
P_NMID = WORK.add("P_NMID", 1, "the narrowing: not 0: past this many nodes, a window over 5 wide is probed half way "
                   "until both sides were proved")
# the two-trick ending's search state, per level (the leader, then each following seat with a
# choice of cards, the last seat's excepted)
O_T2SEAT = WORK.add("O_T2SEAT", MAX_SEATS, "per level: the seat to play")
O_T2NOPT = WORK.add("O_T2NOPT", MAX_SEATS, "per level: its options (1 or 2)")
O_T2NEXT = WORK.add("O_T2NEXT", MAX_SEATS, "per level: the options tried")
O_T2FIRST = WORK.add("O_T2FIRST", MAX_SEATS, "per level: the option tried first")
O_T2WSEAT = WORK.add("O_T2WSEAT", MAX_SEATS, "per level: the trick's winner before the seat plays")
O_T2WCARD = WORK.add("O_T2WCARD", MAX_SEATS, "per level: its winning card")
O_T2TPTS = WORK.add("O_T2TPTS", MAX_SEATS, "per level: the trick's points so far")
O_T2ALPHA = WORK.add("O_T2ALPHA", MAX_SEATS, "per level: the window")
O_T2BETA = WORK.add("O_T2BETA", MAX_SEATS, "per level: the window")
O_T2BEST = WORK.add("O_T2BEST", MAX_SEATS, "per level: the best result so far")
O_T2REL = WORK.add("O_T2REL", MAX_SEATS, "per level: the cards whose ranks decided it")
P_EPOCH = WORK.add("P_EPOCH", 1, "the search's epoch (table entries of other epochs are free slots)")
P_SALT = WORK.add("P_SALT", 1, "the search's salt (rules, trump, side, epoch): abstract keys start from it")
O_ACC = WORK.add("O_ACC", 4, "per suit: the sum of the small-card hash words of the cards in hands (move by move)")
P_ABUCKET = WORK.add("P_ABUCKET", 1, "entries of an abstract bucket, 4 or 128 (the least recently stored goes first)")
P_PAYOFF = WORK.add("P_PAYOFF", 1, "1: payoff-similar entries are kept (card points 0..3, at most 32 seat-suit groups)")
P_PBASE = WORK.add("P_PBASE", 1, "where the payoff-similar entries start in T (words), 0 when off")
P_PMASK = WORK.add("P_PMASK", 1, "their buckets - 1")
O_ACCB = WORK.add("O_ACCB", 4, "per suit: like O_ACC without the cards' points (who holds how many)")
O_HB = WORK.add("O_HB", TRICKS * HSTRIDE, "per trick start: like O_HP, the suits' parts of the points-blind keys")
O_SIG = WORK.add("O_SIG", 4, "scratch: a position's small-card points, 8 bits per seat and suit")
O_CUT = WORK.add("O_CUT", NCUT, "the card that last cut off, by the mover's holding and the trick so far")
P_BRIDGE = WORK.add("P_BRIDGE", 1, "1: 4 seats, each card held once, no card worth points (bridge): _quick's bit counts")
P_SHUFFLE = WORK.add("P_SHUFFLE", 1, "tests only: nonzero, a random state that shuffles every move list")
O_START = WORK.add("O_START", TS_SIZE * DEPTHS, "per cards left at a trick start: what _start leaves (TS_*)")
P_SIGKV = WORK.add("P_SIGKV", 1, "the rank counts whose small-card points O_SIG holds (-1: none), one lookup long")
P_WINB = WORK.add("P_WINB", 1, "a trick start past the window led by the side it favours returns its cashing: "
                   "bit 1 when the target is reached, bit 2 when out of reach (window_bound)")
O_OWN = WORK.add("O_OWN", MAX_CARDS, "per card: the seats holding it (a bit per seat), move by move")
# what the search did, for the benches (bench/solver_nodes.py): counts only, no decision reads them
O_NDEPTH = WORK.add("O_NDEPTH", DEPTHS, "per cards left: the nodes counted there (ST_NODES is their sum)")
O_OUTCOME = WORK.add("O_OUTCOME", DEPTHS * OC_SIZE, "per cards left: how the trick starts there ended (OC_*)")
P_MAXPTS = WORK.add("P_MAXPTS", 1, "the most points a card is worth (an upper bound will do)")
# (set by _start and _start_store on entry; the helpers that read it, _akey0, _exact's _topk,
# _tops, _kvec, _sig, _shift, _trump_run, _entry_quick, _opp_trick and _later_tricks, are called
# only from those two: called elsewhere they would read another trick start's cards)
P_INH = WORK.add("P_INH", 1, "the cards in hands (_in_hands) at the trick start _start or _start_store works on")
# (kept move by move by ``_flip``, set by ``_probe``: the two words are adjacent, ``_flip``
# toggles one of them by index)
P_ALL = WORK.add("P_ALL", 1, "the cards some seat holds (one bit per kind), move by move")
P_TWICE = WORK.add("P_TWICE", 1, "the cards two seats hold a copy of (O_H1 of both), move by move")
assert P_TWICE == P_ALL + 1
# the narrowing's root order (``root_order``): each probe's root tries its moves by the nodes each
# took in the last probe that searched it, most first (the cut-off memory's card still first)
P_RORD = WORK.add("P_RORD", 1, "not 0: once the search has counted this many nodes, the root's moves by O_RCOST, "
                   "most first (root_order)")
P_ROOTN = WORK.add("P_ROOTN", 1, "the root's cards left (set by _probe: the one node with that many)")
P_PROBE = WORK.add("P_PROBE", 1, "the probes started on this work array (set by _probe)")
P_RBEST = WORK.add("P_RBEST", 1, "the card that last cut off at the root, plus 1 (0: none): first in the root order")
P_RSHARE = WORK.add("P_RSHARE", 1, "the root order sorts only when a card's cost is this percentage of the last probe's "
                    "nodes or more (root_order)")
P_PSTART = WORK.add("P_PSTART", 1, "the node count when the probe now searched started (set by _probe)")
P_PLAST = WORK.add("P_PLAST", 1, "the nodes the probe before it took (set by _probe)")
O_RCOST = WORK.add("O_RCOST", MAX_CARDS, "per card at the root: the nodes its subtree took in the last probe that searched it")
O_RPROBE = WORK.add("O_RPROBE", MAX_CARDS, "per card at the root: that probe (P_PROBE)")
P_CUTSET = WORK.add("P_CUTSET", 1, "the cut-off memory's key parts (cut_key_parts): bit 1 a following seat's "
                    "settled trick, bit 2 a trick start's suits each side can ruff, bit 4 a later ruff")
W_SIZE = WORK.size

# budgeted move order (``_ab``): in a search past BUDGET_AFTER nodes, at its first
# BUDGET_CARDS cards, each card is first searched within BUDGET nodes, growing BUDGET_GROW
# times once every card left has passed it, and unbudgeted past BUDGET_CAP
BUDGET = 10_000
BUDGET_AFTER = 10_000_000
BUDGET_CARDS = 4
BUDGET_GROW = 1024
BUDGET_CAP = 1 << 40
# per seats, the (BUDGET, BUDGET_GROW, BUDGET_CARDS) where they differ from the above: at 8 seats
# a first budget of 50,000 (bench/solver.py's 12 8 x 8 deals -27% in nodes, its two past 10 M
# -46% and -7%; 30,000-100,000 all cut the total, 10,000 and 300,000 did not: bench/RESULTS.md)
BUDGET_BY_SEATS: dict[int, tuple[int, int, int]] = {8: (50_000, BUDGET_GROW, BUDGET_CARDS)}


def budget_order(seats: int) -> tuple[int, int, int]:
    """The budgeted move order's first budget, growth and cards at a table of ``seats``."""
    return BUDGET_BY_SEATS.get(seats, (BUDGET, BUDGET_GROW, BUDGET_CARDS))


# a card that no other hand can beat in its suit (a winner to keep) goes this much later than
# its points would put it: thrown on a trick a teammate's card holds (no opponent still to play
# can beat it), and taking a trick that a card no later opponent can beat but not a top card
# of its suit takes too (KEEP_W; off at 8 seats and without card points, see bench/RESULTS.md)
KEEP_W = 30
KEEP_BY_SEATS: dict[int, int] = {8: 0}


def keep_weight(seats: int) -> int:
    """The move order's later place for a winner thrown on a teammate's trick at ``seats``."""
    return KEEP_BY_SEATS.get(seats, KEEP_W)


# a trick start whose window is already decided (the target reached, or out of reach), led by
# the side the window favours, returns that side's cashing (``_quick``), not just the target,
# so that the entries above it keep a bound past the probe's target (fail-soft values were the
# target itself at 97% of the hardest 8 x 8 deal's searched trick starts, their exact values
# mostly points above it). Bit 1: the maximising side's lower bound (target reached), bit 2:
# its upper bound (out of reach). Per seats: at 8 seats the lower bound (the hardest 8 x 8 deal
# -3.5% nodes; 4 seats moved both ways, 6 seats about even: bench/RESULTS.md, session 7)
WINDOW_BOUND_BY_SEATS: dict[int, int] = {8: 1}


def window_bound(seats: int) -> int:
    """Which bounds a decided trick start returns at ``seats`` (``P_WINB``: bit 1 lower, bit 2 upper)."""
    return WINDOW_BOUND_BY_SEATS.get(seats, 0)


# leading a card below its suit's top card when a teammate holds the top card (a lead towards
# it) goes this much earlier than the other low leads (TOWARD_W); at 6 seats 30, under a side
# suit only a teammate can ruff (MATE_W): fewer nodes on 6 x 8 (bench/RESULTS.md, session 5)
TOWARD_W = 50
TOWARD_BY_SEATS: dict[int, int] = {6: 30}


def toward_weight(seats: int) -> int:
    """The lead order's earlier place for a low lead towards a teammate's top card at ``seats``."""
    return TOWARD_BY_SEATS.get(seats, TOWARD_W)


# the narrowing (``_narrow``): while the window is more than 5 points wide, the next probe goes
# a third of the way up from its lower end (NARROW_DIV); at 8 seats, once the search has
# counted 2 M nodes, half way (its probes then cost millions each: fewer of them pays more
# than a cheap side; the hardest of bench/solver.py's 4 8 x 8 deals -19%, the other 8 x 8
# deals measured the same or fewer; halving from the first probe grew the seed-set 8 x 8
# deals up to +17%, and 6 x 8 +2% to +9%: bench/RESULTS.md, session 6)
NARROW_DIV = 3
# a value search's window (``value_kernel``): lo, hi, guess, one-point steps, then (from
# NW_MID, a window of NW_SIZE words or more) the narrowing's state kept between calls, so that
# a search stopped by the node limit resumes the probe it was in (target, its first node, the
# last costs of each side, the gallop) and chunks do not change the probes: the probe stopped
# (0: none), the node count at its start, the last "at least" and "less than" costs, the
# gallop's step, its last direction, bracketed, then the probes started and a hash of their
# targets (for tests)
NW_MID = 4
NW_N0 = 5
NW_UP = 6
NW_DOWN = 7
NW_STEP = 8
NW_LAST = 9
NW_BRACKETED = 10
NW_PROBES = 11
NW_TRACE = 12
NW_SIZE = 13
NARROW_BY_SEATS: dict[int, tuple[int, int]] = {8: (2, 2_000_000)}


def narrow_order(seats: int) -> tuple[int, int]:
    """The narrowing's probe at ``seats``: 1 / (the first) of the way up a wide window once
    the search has counted (the second) nodes, a third of the way before."""
    return NARROW_BY_SEATS.get(seats, (NARROW_DIV, 0))


# per seats (P_NMID), once the search has counted this many nodes, a window over 5 points
# wide is probed half way until both an "at least" and a "less than" were proved, then as
# NARROW_BY_SEATS says; none: never. At 8 seats from the first node: with the narrowing
# resumable (chunks no longer move the probes), bench/solver.py's 12 8 x 8 deals and the
# seed sets 2026-2029 of bench/solver_nodes.py 149.1 -> 116.3 M nodes (-22%; seeds 2026 and
# 2028 +5% and +12%, 2027 and 2029 -10% and -18%): bench/RESULTS.md, session 6
NARROW_MID_BY_SEATS: dict[int, int] = {8: 1}


# per seats (P_RORD, P_RSHARE): once the search has counted (the first) nodes, the root of each of
# the narrowing's probes tries its moves in the order of the nodes each took in the last probe
# that searched it, most first, when one of them took (the second) percent of the last probe's
# nodes or more; the card that last cut off at the root goes first, then the cut-off memory's
# card as before. A failing probe whose refutations went mostly to one card points at the best
# move, and a move tried first that loses costs a whole sub-proof: the hardest of bench/solver.py's
# 8 x 8 deals took 24.8-37.7 M nodes over 8 hash salts, 19.7-23.7 M with it (bench/RESULTS.md,
# session 8). A single probe (``solve_kernel``, a fresh work array) has no costs: unchanged.
# 90% since session 9 (with the 8-seat cut key, P_CUTSET 6): the goal deal over 8 salts 165.6 ->
# 163.1 M nodes (its worst salt 21.88 -> 21.63 M; the bench's salt 19.24 -> 19.21 M), the 12 8 x 8
# deals 53.35 -> 53.32 M, seeds 2026 / 2027 node for node (bench/RESULTS.md, session 9, tree8)
ROOT_ORDER_BY_SEATS: dict[int, tuple[int, int]] = {8: (500_000, 90)}


# per seats (P_CUTSET): what the cut-off memory's key holds besides the mover's cards. Bit 1: a
# following seat's card is kept apart for a trick already settled (no opponent of its winner can
# still beat it) and one still open (the move order treats the two apart: a card thrown on a
# teammate's sure trick, a card that tries to win); bit 2: a lead's for the side suits each side
# can ruff (the lead order weighs them). A card that cut off in one is a poor first try in the
# other. Bit 1 at 6 seats: the estimate's searches (bench/estimate_nodes.py, 6 x 8, hands 7-10 on
# lead) 424.8 -> 419.7 M nodes, not on lead (hands 7-8) 67.9 -> 67.2 M; bench/solver.py's 6 x 8
# max_points median deal 89.4 -> 84.1 k (both bits: 6 x 8 seed 2027 +1.4%). Both bits at 4 seats:
# solver_nodes 4 x 12 seeds 2026 / 2027 -6.0% / -5.3%, bench/solver.py's 4 x 12 median deal -10.4%
# (its largest +1.9%). Bit 2 alone at 8 seats: the 8 x 8 goal deal 22.40 -> 21.22 M nodes (over 8
# hash salts 171.7 -> 167.6 M), 8 x 8 seeds 2026 / 2027 -2.0% / -5.0% (bit 1 there: the goal deal
# +10%, both bits +31% over the salts). Bit 4 (a following seat's key: whether an opponent still
# to play can ruff, in a trick still open) with bit 2 at 8 seats: the goal deal 21.22 -> 19.24 M
# (8 salts 167.6 -> 165.7 M), the 8-player estimate -3.9%; all three at 4 seats: solver_nodes
# 4 x 12 seed 2026 both capped deals solved (25.3 and 17.7 M), seed 2027 +1.4%, bench/solver.py's
# 4 x 12 median deal -10.6% and its largest -2.6% (bits 1 and 2 alone there: +1.9%). Tables whose
# cards are worth points only (encode: bridge keeps its DDS order). bench/RESULTS.md, session 9
CUT_KEY_BY_SEATS: dict[int, int] = {4: 7, 6: 1, 8: 6}


def cut_key_parts(seats: int) -> int:
    """The cut-off memory's key parts at ``seats`` (P_CUTSET bits: 1 settled tricks, 2 ruffable suits,
    4 a later ruff)."""
    return CUT_KEY_BY_SEATS.get(seats, 0)


def root_order(seats: int) -> tuple[int, int]:
    """(nodes, percent): the narrowing's root order at ``seats`` (P_RORD, P_RSHARE; (0, 0): off)."""
    return ROOT_ORDER_BY_SEATS.get(seats, (0, 0))


def narrow_middle(seats: int) -> int:
    """The nodes after which the narrowing probes half way until both sides were proved
    (P_NMID, at least 1), or 0 (never)."""
    after = NARROW_MID_BY_SEATS.get(seats)
    return 0 if after is None else max(int(after), 1)


RUFF_W = 60                # lead order with trumps: a side suit an opponent can ruff goes this much later
MATE_W = 60                # and one only the leader's teammates can ruff this much earlier (DDS: -12, +17; 30 and 35 first: see RESULTS)
PBUCKET = 127              # payoff-similar entries per bucket (64: 4 x 12 nodes +1-10%, 8 x 8 +2-4%; 16: 6 x 8 +10% more)
PFETCH = 4                 # cache lines of a bucket's heads fetched ahead by a lookup (16 entries)
# a payoff bucket (``_pt_store``): a word of its state (``PB_*``: the newest entry, the entries,
# the epoch they belong to), one unused, then the entries' heads, two words each (key, value
# word: the value word also holds 8 bits (from ``PV_KB``) of the points-blind fully abstracted key
# that chose the bucket, so that a scan compares heads only), then their tails, ``PE_TAIL``
# words each: the small cards' points (``O_SIG``'s 4 words), the top cards' points
# (``O_TSIG``'s 2 words); a tail is read only where the key matched. The entries are a ring,
# newest first: a store writes one entry (the oldest goes when the bucket is full) and moves none
PE_SIG, PE_TOP, PE_TAIL = 0, 4, 6
PE_SIZE = 2 + PE_TAIL      # words an entry
PB_WORDS = PE_SIZE * (PBUCKET + 1)
PB_TAILS = 2 * (PBUCKET + 1)  # where the tails start in a bucket
PB_CNT, PB_EPOCH = 10, 21  # the state word: the newest entry's place (bits 0-9), the entries, the epoch
PV_KB = 55                 # the value word's bits of the bucket key
_NOBOUND = -(1 << 40)      # a move's result slot: skipped without a bound of its own

# hash multipliers
GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # 2^64 / the golden ratio (odd): spreads a small count
SEAT_MUL = np.int64(0x2545F4914F6CDD1D)            # a seat's (the leader's, the mover's) share of a key
FNV_PRIME = np.int64(1099511628211)                # chains a suit's top-card codes
PSALT = np.int64(0x61C8864680B583EB)  # salts the points-blind keys (payoff-similar entries)
# small-card hash words (``O_ACC``, the abstract keys): per (seat, suit, points) a random odd
# word at ``seat << 6 | suit << 4 | points``; points 0's word serves the points-blind sums
_ZT = (np.random.default_rng(56).integers(-2 ** 62, 2 ** 62, 8 * 64) | 1).astype(np.int64)
# exact position keys: per (copies held - 1, seat, card) a random word at
# ``(8 * (copies - 1) + seat) << 6 | card``; a position's key is the XOR over what each seat
# holds, kept up to date move by move
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
    return _mix(key ^ ((seat + 1) * SEAT_MUL)) | 1


@njit(cache=True, inline="always")
def _in_hands(W):
    """Every card some seat still holds (one bit per kind): kept move by move."""
    return W[P_ALL]


@njit(cache=True, inline="always")
def _others(W, seat):
    """The cards the seats other than ``seat`` hold (one bit per kind): those held by no one
    else out of the cards in hands, and those it holds that a second seat holds too."""
    h = W[O_H1 + seat]
    return (W[P_ALL] & ~h) | (W[P_TWICE] & h)


@njit(cache=True)
def _apart(W, g, su, kk):
    """Extend suit ``su``'s parts of the abstract keys (at ``W[g + k]``) up to k = ``kk``:
    the holders, points and copy ties of the top k distinct cards left, in power order,
    and the multiset of (holder, points) of the cards below them (an additive hash, so that
    only how many cards of each points value each seat holds there counts), from the state
    at ``W[g + HP_X:]``. With payoff-similar entries on, the points-blind parts as well
    (``W[g + O_HB - O_HP + k]``: the top cards' holders and copy ties without their points,
    the small cards only as how many each seat holds; their running hash at ``HP_HASH`` of
    that block)."""
    n = W[g + HP_N]
    blind = W[P_PAYOFF] != 0
    gb = g + (O_HB - O_HP)
    if W[g + HP_DONE] == 0:
        # (the state at this trick start, set here rather than by ``_akey0``: the cards in
        # hands and the running sums are the same again when the store comes)
        x = W[P_INH] & W[O_SMASK + su]
        small = W[O_ACC + su]
        hp = np.int64(1000 + su)
        smallb = W[O_ACCB + su]
        hpb = np.int64(2000 + su)
    else:
        x = W[g + HP_X]
        small = W[g + HP_SMALL]
        hp = W[g + HP_HASH]
        smallb = W[gb + HP_SMALL]
        hpb = W[gb + HP_HASH]
    for k in range(W[g + HP_DONE] + 1, kk + 1):
        b = x & -x
        x ^= b
        c = _ctz(b)
        p = W[O_PTS + c]
        first = np.int64(-1)
        second = np.int64(-1)
        fb = np.int64(-1)
        sb = np.int64(-1)
        own = W[O_OWN + c]
        while own != 0:
            s = _ctz(own)
            own &= own - 1
            two = (W[O_H2 + s] & b) != 0
            cb = s | (64 if two else 0)
            code = cb | (p << 3)
            if fb < 0:
                fb = cb
                first = code
            else:
                sb = cb | 128
                second = code | 128
            zi = (s << 6) | (su << 4)
            zz = _ZT[zi | (p & 15)]
            if two:
                zz += zz
            small -= zz
            if blind:
                zb = _ZT[zi]
                if two:
                    zb += zb
                smallb -= zb
        hp = (hp ^ first) * FNV_PRIME
        if second >= 0:
            hp = (hp ^ second) * FNV_PRIME
        W[g + k] = _mix(hp * GOLDEN + (small if k < n else np.int64(0)) + k * GOLDEN + su)
        if blind:
            hpb = (hpb ^ fb) * FNV_PRIME
            if sb >= 0:
                hpb = (hpb ^ sb) * FNV_PRIME
            W[gb + k] = _mix(hpb * GOLDEN + (smallb if k < n else np.int64(0)) + k * GOLDEN + su + 64)
    W[gb + HP_SMALL] = smallb
    W[gb + HP_HASH] = hpb
    W[g + HP_X] = x
    W[g + HP_SMALL] = small
    W[g + HP_HASH] = hp
    W[g + HP_DONE] = kk


@njit(cache=True, inline="always")
def _keyat(W, kv, base, d, off):
    """Key of the position abstracted to the top ``k`` distinct cards per suit (5 bits each
    of ``kv``), from the suits' parts at ``W[O_HP + off:]``; needs ``_akey0`` first at this
    trick start (tricks left ``d``), then computes each suit's parts only as far as some
    key asks."""
    o = O_HP + d * HSTRIDE
    k = base
    for su in range(4):
        g = o + HP_SUIT * su
        kk = (kv >> (5 * su)) & 31
        if kk > W[g + HP_N]:
            kk = W[g + HP_N]
        if kk > W[g + HP_DONE]:
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
    return _mix(np.int64(1000 + su) * GOLDEN + acc + su)


@njit(cache=True, inline="always")
def _akey0(W, base, d):
    """The fully abstracted key (``_akey`` with k = 0), from the running per-suit sums of
    the small-card hash words; sets up the parts ``_akey`` extends at this trick start."""
    o = O_HP + d * HSTRIDE
    u = W[P_INH]
    k = base
    for su in range(4):
        g = o + HP_SUIT * su
        us = u & W[O_SMASK + su]
        p0 = _part0(su, W[O_ACC + su])
        W[g] = p0
        if W[P_PAYOFF] != 0:
            W[g + (O_HB - O_HP)] = _part0(su + 64, W[O_ACCB + su])
        # (``_apart`` sets up the rest of the state the first time it extends the parts)
        W[g + HP_DONE] = 0
        W[g + HP_N] = _popc(us)
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
    (8 bits each, ``_hist``), into ``W[O_SIG:O_SIG + 4]``, and the top cards' points, 2 bits
    each in power order, 32 bits a suit, into ``W[O_TSIG:O_TSIG + 2]``; False if a count
    does not fit."""
    nseat = W[P_NSEAT]
    u = W[P_INH]
    # (the top cards' words kept in registers, written once; the small cards' added to W in
    # place, a word a seat pair: a choice among four registers cost more)
    ts0 = np.int64(0)
    ts1 = np.int64(0)
    for w in range(4):
        W[O_SIG + w] = 0
    pm1 = W[O_PM + 1]
    pm2 = W[O_PM + 2]
    pm3 = W[O_PM + 3]
    for su in range(4):
        x = u & W[O_SMASK + su]
        kk = (kv >> (5 * su)) & 31
        i = 0
        t = np.int64(0)
        while x != 0 and i < kk:
            b = x & -x
            x ^= b
            t |= (W[O_PTS + _ctz(b)] & 3) << (2 * i)
            i += 1
        if su == 0:
            ts0 |= t
        elif su == 1:
            ts0 |= t << 32
        elif su == 2:
            ts1 |= t
        else:
            ts1 |= t << 32
        # the cards below the top kk (``_below``): only those worth points count
        small = x & (pm1 | pm2 | pm3)
        if small == 0:
            continue
        s1 = small & pm1
        s2 = small & pm2
        s3 = small & pm3
        if _popc(s1) <= 3 and _popc(s2) <= 3 and _popc(s3) <= 1:
            # (no seat can hold more copies than a field counts, two a kind: each card's
            # holders add their copies to their fields, no seat scanned for none)
            while small != 0:
                b = small & -small
                small ^= b
                c = _ctz(b)
                sh = 8 * su + 3 * (W[O_PTS + c] - 1)
                own = W[O_OWN + c]
                while own != 0:
                    s = _ctz(own)
                    own &= own - 1
                    W[O_SIG + (s >> 1)] += (np.int64(2) if (W[O_H2 + s] & b) != 0 else np.int64(1)) << (
                        sh + 32 * (s & 1))
            continue
        for s in range(nseat):
            h1 = W[O_H1 + s]
            if (small & h1) == 0:
                continue
            h2 = W[O_H2 + s] & h1
            a1 = _popc(h1 & s1) + _popc(h2 & s1)
            a2 = _popc(h1 & s2) + _popc(h2 & s2)
            a3 = _popc(h1 & s3) + _popc(h2 & s3)
            if a1 > 7 or a2 > 7 or a3 > 3:
                return False
            W[O_SIG + (s >> 1)] |= (a1 | (a2 << 3) | (a3 << 6)) << (8 * (((s & 1) << 2) + su))
    W[O_TSIG] = ts0
    W[O_TSIG + 1] = ts1
    return True


@njit(cache=True)
def _shift(W, T, o, kv):
    """How far the bounds of the payoff-similar entry whose tail is at ``T[o]`` move for this
    position: its small cards (same seats, suits and numbers, other points) matched to the entry's
    lowest to lowest in each seat and suit, its top cards (same holders and copy ties in
    the same power order, other points) each to the entry's card of its place; any line
    keeps its trick winners and the maximising side's points change by the points its
    tricks gain or lose. Returns ``down | up << 16``: this position's value is at least
    lb - down, at most ub + up. Per seat and suit, matched that way, the small cards worth
    t points or more (t = 1, 2, 3) that the entry has over this position each lose one
    point, and the other way round; a top card worth d points less (more) than the
    entry's loses (gains) d for each copy in hands."""
    if W[P_SIGKV] != kv:
        W[P_SIGKV] = kv if _sig(W, kv) else -2 - kv
    if W[P_SIGKV] != kv:
        # (a count past the signature's fields: no use of the entry)
        return np.int64(0xFFFF | (0xFFFF << 16))
    down = np.int64(0)
    up = np.int64(0)
    # (the (seat, suit) bytes that differ only; those of seats past the table's are 0 in both)
    for wi in range(4):
        ge = T[o + PE_SIG + wi]
        hw = W[O_SIG + wi]
        diff = ge ^ hw
        while diff != 0:
            sh = _ctz(diff) & 56
            diff &= ~(np.int64(255) << sh)
            g = (ge >> sh) & 255
            h = (hw >> sh) & 255
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
    # the top cards, matched by power order (the key holds their holders and copy ties)
    if T[o + PE_TOP] != W[O_TSIG] or T[o + PE_TOP + 1] != W[O_TSIG + 1]:
        u = W[P_INH]
        for su in range(4):
            x = u & W[O_SMASK + su]
            kk = (kv >> (5 * su)) & 31
            i = 0
            while x != 0 and i < kk:
                b = x & -x
                x ^= b
                c = _ctz(b)
                sh_ = 32 * (su & 1) + 2 * i
                pe = (T[o + PE_TOP + (su >> 1)] >> sh_) & 3
                ph = (W[O_TSIG + (su >> 1)] >> sh_) & 3
                if pe != ph:
                    own = W[O_OWN + c]
                    cop = _popc(own)
                    if cop == 1 and (W[O_H2 + _ctz(own)] & b) != 0:
                        cop = 2
                    if pe > ph:
                        down += (pe - ph) * cop
                    else:
                        up += (ph - pe) * cop
                i += 1
    return down | (up << 16)


@njit(cache=True, inline="always")
def _pt_same(T, o, t, k, kv, W):
    """Is the payoff entry with head ``T[o]`` and tail ``T[t]`` of this very position (key,
    rank counts and points)?"""
    return T[o] == k and _v_kv(T[o + 1]) == kv and T[t + PE_SIG] == W[O_SIG] and T[
        t + PE_SIG + 1] == W[O_SIG + 1] and T[t + PE_SIG + 2] == W[O_SIG + 2] and T[
        t + PE_SIG + 3] == W[O_SIG + 3] and T[t + PE_TOP] == W[O_TSIG] and T[t + PE_TOP + 1] == W[O_TSIG + 1]


@njit(cache=True)
def _pt_store(T, o, k, kb, res, a0, b0, ncards, kv, left, ep, W):
    """Record a search result in the payoff-similar bucket at ``T[o]`` (its state word, then
    ``PBUCKET`` entries: heads of key and value, the value word holding bits of the fully
    abstracted points-blind key ``kb`` that chose the bucket; tails of the small cards' points
    ``W[O_SIG:O_SIG + 4]`` and the top cards' points ``W[O_TSIG:O_TSIG + 2]``) as its newest
    entry; an entry of the same position (key, rank counts and points) is updated where it
    is, its bounds kept too."""
    m = T[o]
    cnt = (m >> PB_CNT) & 1023 if (m >> PB_EPOCH) == ep else np.int64(0)
    hd = m & 1023
    lb = np.int64(0)
    ub = min(left, np.int64(255))
    # (the ring newest first: from the newest to its end, then from its start; no wrap a step)
    e = np.int64(-1)
    n1 = min(cnt, PBUCKET - hd)
    for i in range(hd, hd + n1):
        if _pt_same(T, o + 2 + 2 * i, o + PB_TAILS + PE_TAIL * i, k, kv, W):
            e = i
            break
    if e < 0:
        for i in range(cnt - n1):
            if _pt_same(T, o + 2 + 2 * i, o + PB_TAILS + PE_TAIL * i, k, kv, W):
                e = i
                break
    if e >= 0:
        # (it becomes the newest: its old place is left empty)
        x = o + 2 + 2 * e
        v = T[x + 1]
        lb = _v_lb(v)
        ub = _v_ub(v)
        T[x] = 0
        T[x + 1] = 0
    hd = hd - 1 if hd > 0 else np.int64(PBUCKET - 1)
    if cnt < PBUCKET:
        cnt += 1
    T[o] = hd | (cnt << PB_CNT) | (ep << PB_EPOCH)
    x = o + 2 + 2 * hd
    T[x] = k
    T[x + 1] = _pack(lb, ub, res, a0, b0, ncards, kv, ep) | (((kb >> 40) & 255) << PV_KB)
    t = o + PB_TAILS + PE_TAIL * hd
    for i in range(4):
        T[t + PE_SIG + i] = W[O_SIG + i]
    T[t + PE_TOP] = W[O_TSIG]
    T[t + PE_TOP + 1] = W[O_TSIG + 1]


@njit(cache=True)
def _kvec(W, rel):
    """Per suit, how many distinct cards left from the top down to the lowest of ``rel``."""
    u = W[P_INH]
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
    u = W[P_INH]
    m = np.int64(0)
    for su in range(4):
        kk = (kv >> (5 * su)) & 31
        if kk == 0:
            continue
        x = u & W[O_SMASK + su]
        if kk >= _popc(x):
            # (all the suit's cards left)
            m |= x
            continue
        while kk > 0:
            b = x & -x
            x ^= b
            m |= b
            kk -= 1
    return m


@njit(cache=True, inline="always")
def _tops(W):
    """Per suit, 2 bits at ``2 * suit``: the first seat holding the suit's best card left
    (seat & 3; 0 for a suit with no card left). Positions whose abstract keys meet have the
    same, in every suit whose top card the key covers (an abstract entry's ``V_TOP`` bits)."""
    u = W[P_INH]
    t = np.int64(0)
    for su in range(4):
        x = u & W[O_SMASK + su]
        if x != 0:
            t |= (_ctz(W[O_OWN + _ctz(x)]) & 3) << (2 * su)
    return t


@njit(cache=True, inline="always")
def _kvmask(kv):
    """The ``_tops`` bits of the suits rank counts ``kv`` cover (count 1 or more)."""
    m = np.int64(0)
    for su in range(4):
        if ((kv >> (5 * su)) & 31) != 0:
            m |= np.int64(3) << (2 * su)
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


@njit(cache=True, inline="always")
def _quick_seats(W, seat, nseat, trump, tmask):
    """``_quick``'s look at the other seats: their cards together, the opponents holding
    trumps (a bit per seat), and False where a partner holds nothing but trumps (it must
    ruff a side-suit lead and takes the lead)."""
    side = W[O_ISMAX + seat]
    u = np.int64(0)
    opp_tr = np.int64(0)
    many = True
    for s in range(nseat):
        if s != seat:
            h = W[O_H1 + s]
            u |= h
            if W[O_ISMAX + s] != side:
                if (h & tmask) != 0:
                    opp_tr |= np.int64(1) << s
            elif trump >= 0 and h != 0 and (h & ~tmask) == 0:
                many = False
    return u, opp_tr, many


@njit(cache=True, inline="always")
def _quick_bridge(W, seat, pend, firsts):
    """``_quick`` where each card is held once and none is worth points (bridge,
    ``P_BRIDGE``): the same bound, the same cards in ``W[P_QM]`` and the same first suit,
    counted a suit at a time with bit counts (no cheapest cards to add: they are all 0)."""
    trump = W[P_TRUMP]
    bonus = W[P_BONUS]
    tmask = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    u, opp_tr, many = _quick_seats(W, seat, 4, trump, tmask)
    mine = W[O_H1 + seat]
    qm = np.int64(0)
    trump_r = 0
    side_r = 0
    side_own = np.int64(0)
    for su in range(4):
        sm = W[O_SMASK + su]
        x = mine & sm
        if x == 0:
            continue
        others = u & sm
        # the leader's cards above every other seat's (all of them when none holds the suit)
        k = _popc(x & ((others & -others) - 1)) if others != 0 else _popc(x)
        if k == 0:
            continue
        most = 0
        rounds_safe = 99
        for s in range(4):
            if s == seat:
                continue
            n = _popc(W[O_H1 + s] & sm)
            if n > most:
                most = n
            if su != trump and (opp_tr >> s) & 1:
                n -= (pend >> s) & 1
                if n < rounds_safe:
                    rounds_safe = n
        r = max(min(k, rounds_safe), 0)
        y = x
        for _ in range(min(r, most)):
            qm |= y & -y
            y &= y - 1
        if su == trump:
            trump_r = r
        else:
            side_r += r
            if r * bonus > side_own:
                side_own = r * bonus
    W[P_QM] = qm
    if many:
        W[P_QFIRST] = -1
        return (trump_r + side_r) * bonus
    W[P_QFIRST] = trump if firsts != 15 else -1
    return trump_r * bonus + side_own


@njit(cache=True)
def _quick(W, seat, pend, firsts):
    """Points the leader's side surely wins by cashing top cards: its top trumps and the top
    cards of the other suits, as many rounds of each as every opponent holding trumps must
    follow (so none can ruff); when a partner holds nothing but trumps (it would have to
    ruff and take the lead) only the best single other suit counts. A lower bound.

    ``pend`` marks (bit per seat) the seats still to play a card to the trick in progress
    when the bound is for the trick after it (``seat`` wins this one): each of them may
    still lose one card of any suit, so its suit lengths count one less.

    What the other seats must add (their cheapest card of the suit while they still hold
    it) is counted only for the suit cashed first: during the first suit a seat may
    discard cards of the next. ``firsts`` (a bit per suit; 15: any) are the suits that may
    be cashed first.
    """
    if W[P_BRIDGE] != 0:
        return _quick_bridge(W, seat, pend, firsts)
    mine = W[O_H1 + seat]
    if firsts == 15:
        # (no suit whose best card left the leader holds: nothing to cash, 0 and no cards
        # used, as below; the other seats' cards from the move-by-move masks, which hold
        # here: only bridge's _bridge_follow calls _quick with a card taken out of a hand)
        o = _others(W, seat)
        top = False
        for su in range(4):
            sm = W[O_SMASK + su]
            x = mine & sm
            if x != 0 and (o & sm & ((x & -x) - 1)) == 0:
                top = True
                break
        if not top:
            W[P_QM] = 0
            W[P_QFIRST] = -1
            return np.int64(0)
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    bonus = W[P_BONUS]
    tmask = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    if trump >= 0:
        u, opp_tr, many = _quick_seats(W, seat, nseat, trump, tmask)
    else:
        # (no trumps: none to ruff, no partner holding only trumps; the other seats' cards as
        # in the look above)
        u = _others(W, seat)
        opp_tr = np.int64(0)
        many = True
    qm = np.int64(0)
    trump_own = np.int64(0)
    trump_all = np.int64(0)
    side_own = np.int64(0)
    side_all = np.int64(0)
    side_sum = np.int64(0)
    side_extra = np.int64(0)
    extra_su = np.int64(-1)
    trump_r = 0
    side_r = 0
    own_r = 0
    for su in range(4):
        sm = W[O_SMASK + su]
        x = mine & sm
        others = u & sm
        if x == 0 or (others & ((x & -x) - 1)) != 0:
            # no card of the suit, or none above every other seat's
            continue
        # per other seat: how many cards of the suit it surely still holds, and its cheapest
        # (``W[O_TLEN + s]``, ``W[O_TMIN + s]``); no opponent holding trumps may run out
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
            W[O_TLEN + s] = n
            W[O_TMIN + s] = _minpts(W, f) if f != 0 else np.int64(0)
            if su != trump and (opp_tr >> s) & 1 and n < rounds_safe:
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
                    if s != seat and W[O_TLEN + s] >= r:
                        extra += W[O_TMIN + s]
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
            if extra > side_extra and (firsts >> su) & 1:
                side_extra = extra
                extra_su = su
            if own > side_own:
                side_own = own
                own_r = r
            if own + extra > side_all:
                side_all = own + extra
    W[P_QM] = qm
    # or: in all the tricks cashed every other seat plays a card, at least its cheapest ones
    first = np.int64(-1)
    if many:
        # the leader keeps the lead while cashing: every side suit's top cards add up
        rounds = trump_r + side_r
        tx = trump_all - trump_own if trump >= 0 and (firsts >> trump) & 1 else np.int64(0)
        best = trump_own + side_sum + max(tx, side_extra)
        if tx > 0 and tx >= side_extra:
            first = trump
        elif side_extra > 0:
            first = extra_su
        own = trump_own + side_sum
    elif firsts != 15:
        # (the first suit is then the trump suit: see ``_entry_quick``)
        rounds = trump_r + own_r
        best = trump_all + side_own
        first = trump
        own = trump_own + side_own
    else:
        rounds = trump_r + own_r
        best = max(trump_all + side_own, side_all + trump_own)
        own = trump_own + side_own
    W[P_QFIRST] = first
    if rounds > 0:
        for s in range(nseat):
            if s != seat:
                own += _cheapest(W, s, rounds, W[O_H1 + s])
        if own > best:
            best = own
            W[P_QFIRST] = -1
    return best


@njit(cache=True)
def _entry_quick(W, seat):
    """Points the leader's side surely wins by leading a suit to a teammate's best card and
    cashing that teammate's top cards (``_quick`` from the teammate, that suit first): the
    leader holds a card of the suit, the teammate holds its best card and no other seat a
    copy, and no seat void in the suit holds a trump (none can ruff it, none must). A lower
    bound, -1 when no teammate has such an entry; ``W[P_QM]`` gets the cards it used (DDS's
    QuickTricks crosses to partner's winners the same way)."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    side = W[O_ISMAX + seat]
    mine = W[O_H1 + seat]
    tm = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    u = W[P_INH]
    # per teammate: the suits that reach it (4 bits each)
    entries = np.int64(0)
    for su in range(4):
        sm = W[O_SMASK + su]
        if (mine & sm) == 0:
            continue
        x = u & sm
        top = x & -x
        own = W[O_OWN + _ctz(top)]
        if (own & (own - 1)) != 0:
            continue
        t = _ctz(own)
        if t == seat or W[O_ISMAX + t] != side:
            continue
        if su != trump and tm != 0:
            ruff = False
            for s in range(nseat):
                h = W[O_H1 + s]
                if (h & sm) == 0 and (h & tm) != 0:
                    ruff = True
            if ruff:
                continue
        entries |= np.int64(1) << (4 * t + su)
    best = np.int64(-1)
    qm = np.int64(0)
    while entries != 0:
        t = _ctz(entries) >> 2
        firsts = (entries >> (4 * t)) & 15
        entries &= ~(np.int64(15) << (4 * t))
        q = _quick(W, t, np.int64(0), firsts)
        if q > best:
            best = q
            # the entry's best card: of the suit whose other cards were counted, else any
            su = W[P_QFIRST] if W[P_QFIRST] >= 0 else _ctz(firsts)
            x = u & W[O_SMASK + su]
            qm = W[P_QM] | (x & -x)
    W[P_QM] = qm
    return best


@njit(cache=True)
def _opp_trick(W, seat):
    """Points the leader's opponents surely win in this trick: every suit the leader holds
    has its best card in opponents' hands alone, and no teammate of the leader void in it
    holds a trump, so whatever is led an opponent wins the trick with that card. At least,
    for the cheapest suit to lead: the trick's bonus, that card's points, the leader's
    cheapest card of the suit and each other seat's cheapest card it may play. -1 when some
    suit of the leader's has no such card; ``W[P_QM]`` gets those best cards."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    side = W[O_ISMAX + seat]
    mine = W[O_H1 + seat]
    tm = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    u = W[P_INH]
    worst = np.int64(1 << 30)
    qm = np.int64(0)
    for su in range(4):
        sm = W[O_SMASK + su]
        f = mine & sm
        if f == 0:
            continue
        x = u & sm
        top = x & -x
        c = _ctz(top)
        own = W[O_OWN + c]
        if (own >> seat) & 1:
            return np.int64(-1)
        h = _ctz(own)
        pts = W[P_BONUS] + W[O_PTS + c] + _minpts(W, f)
        for s in range(nseat):
            if s == seat:
                continue
            hs = W[O_H1 + s]
            if W[O_ISMAX + s] == side:
                if (own >> s) & 1:
                    return np.int64(-1)
                if su != trump and (hs & sm) == 0 and (hs & tm) != 0:
                    return np.int64(-1)
            if s != h:
                fs = hs & sm
                pts += _minpts(W, fs if fs != 0 else hs)
        qm |= top
        if pts < worst:
            worst = pts
    W[P_QM] = qm
    return worst


@njit(cache=True)
def _later_tricks(W, seat, ncards):
    """No card worth points and one copy of each card (bridge). No trump left (no-trump, or
    its trumps all played):
    the leader's side cannot take every trick left when the suits whose best card it holds
    have fewer cards in its longest hand of each, together, than there are tricks left (as
    long as it wins every trick it keeps the lead, and it can only lead those suits: DDS's
    LaterTricks). Returns the cards whose ranks that rests on (the opponents' best cards of
    the suits others still hold), -1 when it does not apply. Trumps left: see below (it
    rests on the holders of the two or three best trumps: that card is returned)."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    u = W[P_INH]
    if (u & ~W[O_PM]) != 0:
        # (a card worth points)
        return np.int64(-1)
    if _popc(u) != ncards:
        # (two copies of a card in hands: the one played first wins)
        return np.int64(-1)
    side = W[O_ISMAX + seat]
    if trump >= 0 and (u & W[O_SMASK + trump]) != 0:
        # trumps left, the leader's side holding the best (DDS's LaterTricks): the other
        # side's second-best trump, its holder with another trump, wins a trick when the best
        # sits on that holder's right (it plays after the best, and keeps its small trump for
        # it), or on its left with the third-best trump also on the other side (both are
        # never caught in the best's trick; playing either without it wins)
        x = u & W[O_SMASK + trump]
        b1 = x & -x
        h1 = _ctz(W[O_OWN + _ctz(b1)])
        if W[O_ISMAX + h1] != side or nseat != 4:
            return np.int64(-1)
        x ^= b1
        if x == 0:
            return np.int64(-1)
        b2 = x & -x
        h2 = _ctz(W[O_OWN + _ctz(b2)])
        if W[O_ISMAX + h2] == side or _popc(W[O_H1 + h2] & W[O_SMASK + trump]) < 2:
            return np.int64(-1)
        if h1 == (h2 + 3) % 4:
            return b2
        x ^= b2
        if x == 0:
            return np.int64(-1)
        b3 = x & -x
        if W[O_ISMAX + _ctz(W[O_OWN + _ctz(b3)])] == side:
            return np.int64(-1)
        return b3
    tot = 0
    qm = np.int64(0)
    for su in range(4):
        x = u & W[O_SMASK + su]
        if x == 0:
            continue
        top = x & -x
        h = _ctz(W[O_OWN + _ctz(top)])
        if W[O_ISMAX + h] == side:
            m = 0
            for s in range(nseat):
                if W[O_ISMAX + s] == side:
                    m = max(m, _popc(W[O_H1 + s] & W[O_SMASK + su]))
            tot += m
        elif (x & ~top) != 0:
            qm |= top
    if tot > 0 and tot < ncards // nseat:
        return qm
    return np.int64(-1)


@njit(cache=True)
def _trump_run(W):
    """The run of top trumps one team holds every remaining copy of: whenever one is played
    it is the best trump of its trick, so that trick goes to the team. Returns
    ``2 * points + team`` (team 1 = the maximising side; the other team's run is empty)."""
    trump = W[P_TRUMP]
    W[P_QM] = 0
    if trump < 0:
        return np.int64(0)
    nseat = W[P_NSEAT]
    u = W[P_INH]
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
    W[P_QM] = run
    if run == 0:
        return np.int64(0)
    # the run takes at least as many tricks as one seat holds run cards (``most``: they go
    # to different tricks); in those tricks each other seat plays ``most`` cards, all but
    # its own run cards (counted above) adding at least its cheapest other cards' points
    most = 0
    for s in range(nseat):
        k = _popc(W[O_H1 + s] & run) + _popc(W[O_H2 + s] & run)
        W[O_TLEN + s] = k
        if k > most:
            most = k
    if most == 1 and (run & (run - 1)) != 0 and nseat == 4 and (u & ~W[O_PM]) == 0:
        # (bridge: the two best trumps in partners' hands, one of them holding another
        # trump: they never fall in one trick, whoever leads trumps: DDS's LaterTricks)
        long = 0
        copies = 0
        for s in range(nseat):
            if W[O_ISMAX + s] == side:
                long = max(long, _popc(W[O_H1 + s] & W[O_SMASK + trump]))
            copies += _popc(W[O_H1 + s]) + _popc(W[O_H2 + s])
        if long > 1 and copies == _popc(u):
            most = 2
    pts += most * W[P_BONUS]
    for s in range(nseat):
        if most > W[O_TLEN + s]:
            pts += _cheapest(W, s, most - W[O_TLEN + s], W[O_H1 + s] & ~run)
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


@njit(cache=True)
def _second_wins(W, seat, lsuit, wcard):
    """Second hand (bridge: ``P_BRIDGE``): does its side surely take this trick? Either it
    can ruff (it or its partner, last to play, void in the suit led with a trump) and the
    third hand cannot (it holds the suit or no trump), or its side's best card of the suit
    beats the card led and every card of the third hand's, which cannot ruff (DDS's
    QuickTricksSecondHand, its first trick). Returns the cards whose ranks that rests on
    (that best card; none for a ruff), -1 when it does not hold."""
    trump = W[P_TRUMP]
    sm = W[O_SMASK + lsuit]
    tm = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    lho = seat + 1 if seat < 3 else 0
    pa = lho + 1 if lho < 3 else 0
    hm = W[O_H1 + seat]
    hp = W[O_H1 + pa]
    hl = W[O_H1 + lho]
    lho_ruffs = (hl & sm) == 0 and (hl & tm) != 0
    if lsuit != trump and tm != 0 and (((hm & sm) == 0 and (hm & tm) != 0) or ((hp & sm) == 0 and (hp & tm) != 0)):
        return np.int64(-1) if lho_ruffs else np.int64(0)
    x = (hm | hp) & sm
    if x == 0 or lho_ruffs:
        return np.int64(-1)
    top = x & -x
    if (top & ((np.int64(1) << wcard) - 1)) == 0 or ((hl & sm) & (top - 1)) != 0:
        # (the card led, or a card of the third hand's, is higher)
        return np.int64(-1)
    return top


@njit(cache=True)
def _mover_takes(W, seat, tlen, lsuit, wcard, ncards):
    """Third or fourth hand (bridge: ``P_BRIDGE``): does its own best card surely take this
    trick? Its best card of the suit led over the card winning so far (of that suit), or,
    void in it, its best trump (over a trump winning so far); third hand, over every card the
    fourth hand can play too (no higher card of the suit; void in it, no trump, or only lower
    trumps against a ruff). Returns that card, -1 when it does not hold; ``W[O_REL + ncards]``
    gets the cards whose ranks that rests on (that card, where it was compared with another)."""
    trump = W[P_TRUMP]
    sm = W[O_SMASK + lsuit]
    tm = W[O_SMASK + trump] if trump >= 0 else np.int64(0)
    h = W[O_H1 + seat]
    f = h & sm
    wb = np.int64(1) << wcard
    ruff = False
    if f != 0:
        cb = f & -f
        if (wcard >> 4) != lsuit or (cb & (wb - 1)) == 0:
            return np.int64(-1)
        rel = cb
    elif lsuit != trump and (h & tm) != 0:
        cb = (h & tm) & -(h & tm)
        ruff = True
        rel = np.int64(0)
        if (wcard >> 4) == trump:
            if (cb & (wb - 1)) == 0:
                return np.int64(-1)
            rel = cb
    else:
        return np.int64(-1)
    if tlen == 3:
        W[O_REL + ncards] = rel
        return _ctz(cb)
    n = seat + 1 if seat < 3 else 0
    hn = W[O_H1 + n]
    fn = hn & sm
    if not ruff:
        if fn != 0:
            if (fn & (cb - 1)) != 0:
                return np.int64(-1)
        elif lsuit != trump and (hn & tm) != 0:
            return np.int64(-1)
    elif fn == 0 and (hn & tm) != 0:
        if (hn & tm & (cb - 1)) != 0:
            return np.int64(-1)
        rel = cb
    W[O_REL + ncards] = rel
    return _ctz(cb)


@njit(cache=True)
def _bridge_follow(W, alpha, beta, seat, tlen, lsuit, wcard, tpts, left, ncards):
    """Bridge's following hands (``P_BRIDGE``): the value when the side to play surely takes
    this trick and that decides the window, else -1. Second hand: one trick enough for its side
    and ``_second_wins`` (4 tricks or more left: cut 3 tricks from the end, the two-trick
    endings below, solved outright and stored for every later window, go unvisited, and seed
    2027's bridge set takes 21% more trick starts). Third or fourth hand: its own best card
    (``_mover_takes``, any depth: seed 2027's set does not grow there); the fourth hand then
    leads the next trick, and its cashable cards there count too (not the third's: seed 2027
    +19%)."""
    v = tpts + W[P_BONUS]
    mx = W[O_ISMAX + seat] == 1
    one = beta <= v if mx else left - v <= alpha
    if tlen == 1:
        if one and ncards > 12:
            q = _second_wins(W, seat, lsuit, wcard)
            if q >= 0:
                W[O_REL + ncards] = q
                return v if mx else left - v
        return np.int64(-1)
    if one:
        if _mover_takes(W, seat, tlen, lsuit, wcard, ncards) >= 0:
            return v if mx else left - v
        W[O_REL + ncards] = 0
    elif tlen == 3 and ncards > 4:
        c = _mover_takes(W, seat, tlen, lsuit, wcard, ncards)
        if c >= 0:
            cb = np.int64(1) << c
            W[O_H1 + seat] ^= cb
            v += _quick(W, seat, np.int64(0), np.int64(15))
            W[O_H1 + seat] ^= cb
            if (beta <= v if mx else left - v <= alpha):
                W[O_REL + ncards] |= W[P_QM]
                return v if mx else left - v
        W[O_REL + ncards] = 0
    return np.int64(-1)


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
def _t2_leaf(W, wseat, wcard, tpk, lsuit, total):
    """Value of a two-trick ending once its first trick is complete (``wseat`` won it with
    ``wcard``; ``tpk`` packs its points (low 20 bits), its cards of the led suit (bits 20-27)
    and its trumps of another suit (bits 28 up); ``total`` the points of every card left): the
    last trick follows by force, ``W[O_T2F + t]`` the card seat t keeps for it."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    bonus = W[P_BONUS]
    tpts = tpk & 0xFFFFF
    rel = np.int64(0)
    same = (tpk >> 20) & 0xFF if (wcard >> 4) == lsuit else tpk >> 28
    if same > 1:
        rel |= np.int64(1) << wcard
    v = tpts + bonus if W[O_ISMAX + wseat] == 1 else np.int64(0)
    ws = wseat
    wc = W[O_T2F + wseat]
    same = 1
    t = wseat
    for _ in range(nseat - 1):
        t += 1
        if t == nseat:
            t = 0
        c = W[O_T2F + t]
        if (c >> 4) == (wc >> 4):
            same += 1
            if c < wc:
                ws = t
                wc = c
        elif (c >> 4) == trump:
            ws = t
            wc = c
    if same > 1:
        rel |= np.int64(1) << wc
    W[P_T2LEAF] = rel
    if W[O_ISMAX + ws] == 1:
        v += total - tpts + bonus
    return v


@njit(cache=True, inline="always")
def _t2_follow(W, s, c, tp, ws, wc, lsuit, trump):
    """The two-trick ending's first trick after seat ``s`` follows with card ``c``: its points
    word ``tp`` (the card's points; 1 << 20 for a card of the suit led, 1 << 28 for a trump),
    and the winning seat and card ``ws``, ``wc``."""
    tp += W[O_PTS + c]
    if (c >> 4) == lsuit:
        tp += np.int64(1) << 20
    elif (c >> 4) == trump:
        tp += np.int64(1) << 28
    if _beats(W, c, wc, trump):
        return tp, s, c
    return tp, ws, wc


@njit(cache=True)
def _two_tricks(W, seat, alpha, beta):
    """Fail-soft value of a two-trick ending with ``seat`` to lead (every seat holds two
    cards), solved outright by alpha-beta over the first trick (the last one follows by
    force), without recursion; ``W[P_T2REL]`` gets the cards whose ranks decided it."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    total = np.int64(0)
    for t in range(nseat):
        h1 = W[O_H1 + t]
        a = _ctz(h1)
        b = a if W[O_H2 + t] != 0 else _ctz(h1 & (h1 - 1))
        W[O_T2C + 2 * t] = a
        W[O_T2C + 2 * t + 1] = b
        total += W[O_PTS + a] + W[O_PTS + b]
    # the search state per level i in ``W[O_T2SEAT + i]`` ... ``W[O_T2REL + i]``: the leader's,
    # then one per following seat with a choice of cards, but the last seat
    last = seat - 1 if seat > 0 else nseat - 1
    lsuit = np.int64(-1)
    i = 0
    W[O_T2SEAT] = seat
    W[O_T2WSEAT] = -1
    W[O_T2WCARD] = -1
    W[O_T2TPTS] = 0
    W[O_T2ALPHA] = alpha
    W[O_T2BETA] = beta
    fresh = True
    while True:
        s = W[O_T2SEAT + i]
        if fresh:
            # set up level i: the seat's playable cards, the likelier good one first
            # (a following seat gets a level only with a choice of cards: see below)
            a = W[O_T2C + 2 * s]
            b = W[O_T2C + 2 * s + 1]
            na = 2
            first = 0
            if i == 0:
                if a == b:
                    na = 1
            else:
                wc = W[O_T2WCARD + i]
                wa = _beats(W, a, wc, trump)
                wb = _beats(W, b, wc, trump)
                ours = W[O_ISMAX + W[O_T2WSEAT + i]] == W[O_ISMAX + s]
                if wa != wb and not ours:
                    first = 0 if wa else 1
                elif ours == (W[O_PTS + b] > W[O_PTS + a]):
                    first = 1
            W[O_T2NOPT + i] = na
            W[O_T2NEXT + i] = 0
            W[O_T2FIRST + i] = first
            W[O_T2BEST + i] = -1 if W[O_ISMAX + s] == 1 else 1 << 30
            W[O_T2REL + i] = 0
            fresh = False
        if W[O_T2NEXT + i] < W[O_T2NOPT + i] and W[O_T2ALPHA + i] < W[O_T2BETA + i]:
            j = W[O_T2NEXT + i] ^ W[O_T2FIRST + i]
            W[O_T2NEXT + i] += 1
            c = W[O_T2C + 2 * s + j]
            W[O_T2F + s] = W[O_T2C + 2 * s + 1 - j]
            ws = W[O_T2WSEAT + i]
            wc = W[O_T2WCARD + i]
            if i == 0:
                lsuit = c >> 4
                ws = s
                wc = c
                tp = W[O_T2TPTS + i] + W[O_PTS + c] + (np.int64(1) << 20)
            else:
                tp, ws, wc = _t2_follow(W, s, c, W[O_T2TPTS + i], ws, wc, lsuit, trump)
            nxt = s + 1
            if nxt == nseat:
                nxt = 0
            # a following seat with one card it may play (two copies of one card, or one card
            # of the suit led) plays it here: a level of one option would pass its line's
            # value and deciding cards through unchanged
            while nxt != last:
                a = W[O_T2C + 2 * nxt]
                b = W[O_T2C + 2 * nxt + 1]
                if a != b:
                    if ((a >> 4) == lsuit) == ((b >> 4) == lsuit):
                        break
                    if (b >> 4) == lsuit:
                        W[O_T2C + 2 * nxt] = b
                        W[O_T2C + 2 * nxt + 1] = a
                        a, b = b, a
                W[O_T2F + nxt] = b
                tp, ws, wc = _t2_follow(W, nxt, a, tp, ws, wc, lsuit, trump)
                nxt += 1
                if nxt == nseat:
                    nxt = 0
            if nxt != last:
                i += 1
                W[O_T2SEAT + i] = nxt
                W[O_T2WSEAT + i] = ws
                W[O_T2WCARD + i] = wc
                W[O_T2TPTS + i] = tp
                W[O_T2ALPHA + i] = W[O_T2ALPHA + i - 1]
                W[O_T2BETA + i] = W[O_T2BETA + i - 1]
                fresh = True
                continue
            # the trick's last seat (``nxt``): its one or two cards end the trick, each line's
            # value follows by force, so they are tried here, the window in locals (the same
            # order, cut-offs and cards that decided it as a level of its own)
            a = W[O_T2C + 2 * nxt]
            b = W[O_T2C + 2 * nxt + 1]
            na = 2
            first = 0
            if a == b:
                na = 1
            elif ((a >> 4) == lsuit) != ((b >> 4) == lsuit):
                na = 1
                if (b >> 4) == lsuit:
                    W[O_T2C + 2 * nxt] = b
                    W[O_T2C + 2 * nxt + 1] = a
                    a, b = b, a
            else:
                wa = _beats(W, a, wc, trump)
                wb = _beats(W, b, wc, trump)
                ours = W[O_ISMAX + ws] == W[O_ISMAX + nxt]
                if wa != wb and not ours:
                    first = 0 if wa else 1
                elif ours == (W[O_PTS + b] > W[O_PTS + a]):
                    first = 1
            lmax = W[O_ISMAX + nxt] == 1
            al = W[O_T2ALPHA + i]
            be = W[O_T2BETA + i]
            r = np.int64(-1) if lmax else np.int64(1 << 30)
            crel = np.int64(0)
            for k in range(na):
                if k > 0 and al >= be:
                    break
                if (k ^ first) == 0:
                    c2 = a
                    W[O_T2F + nxt] = b
                else:
                    c2 = b
                    W[O_T2F + nxt] = a
                tp2 = tp + W[O_PTS + c2]
                ws2 = ws
                wc2 = wc
                if (c2 >> 4) == lsuit:
                    tp2 += np.int64(1) << 20
                elif (c2 >> 4) == trump:
                    tp2 += np.int64(1) << 28
                if _beats(W, c2, wc, trump):
                    ws2 = nxt
                    wc2 = c2
                r2 = _t2_leaf(W, ws2, wc2, tp2, lsuit, total)
                crel2 = W[P_T2LEAF]
                if lmax:
                    if r2 > r:
                        r = r2
                        if r2 > al:
                            al = r2
                elif r2 < r:
                    r = r2
                    if r2 < be:
                        be = r2
                if al >= be:
                    crel = crel2
                else:
                    crel |= crel2
        else:
            r = W[O_T2BEST + i]
            crel = W[O_T2REL + i]
            if i == 0:
                W[P_T2REL] = crel
                return r
            i -= 1
            s = W[O_T2SEAT + i]
        if W[O_ISMAX + s] == 1:
            if r > W[O_T2BEST + i]:
                W[O_T2BEST + i] = r
                if r > W[O_T2ALPHA + i]:
                    W[O_T2ALPHA + i] = r
        elif r < W[O_T2BEST + i]:
            W[O_T2BEST + i] = r
            if r < W[O_T2BETA + i]:
                W[O_T2BETA + i] = r
        if W[O_T2ALPHA + i] >= W[O_T2BETA + i]:
            # a cut-off rests on this line alone
            W[O_T2REL + i] = crel
        else:
            W[O_T2REL + i] |= crel


@njit(cache=True, inline="always")
def _gt(a, b):
    """DDS's ``a > b`` of two rank sets of one suit (its bits: the better card higher): ``a``'s
    best card beats every card of ``b`` (ours: the better card is the lower bit)."""
    return a != 0 and (b == 0 or _ctz(a) < _ctz(b))


@njit(cache=True)
def _dds_lead(W, seat, su, c, us, nleft):
    """DDS's weight of leading card ``c`` of suit ``su`` (its Moves.cpp, ``WeightAllocNT0`` and
    ``WeightAllocTrump0``, without its best-move bonuses: ours put the cut-off card first):
    ``us`` the suit's cards in hands, ``nleft`` the tricks left."""
    trump = W[P_TRUMP]
    lho = (seat + 1) & 3
    pa = (seat + 2) & 3
    rho = (seat + 3) & 3
    m = W[O_SMASK + su]
    me_s = W[O_H1 + seat] & m
    l_s = W[O_H1 + lho] & m
    p_s = W[O_H1 + pa] & m
    r_s = W[O_H1 + rho] & m
    len_me = _popc(me_s)
    len_l = _popc(l_s)
    len_p = _popc(p_s)
    len_r = _popc(r_s)
    b = np.int64(1) << c
    w1 = us & -us
    h1 = _ctz(W[O_OWN + _ctz(w1)])
    x = us ^ w1
    w2 = x & -x
    h2 = _ctz(W[O_OWN + _ctz(w2)]) if w2 != 0 else np.int64(-1)
    x ^= w2
    w3 = x & -x
    h3 = _ctz(W[O_OWN + _ctz(w3)]) if w3 != 0 else np.int64(-1)
    rrank = _popc(us & (b - 1)) + 1
    below = us & ~((b << 1) - 1)
    seq = below != 0 and (W[O_H1 + seat] & below & -below) != 0
    c_l = (nleft + 1 if len_l == 0 else len_l) << 2
    c_r = (nleft + 1 if len_r == 0 else len_r) << 2
    if trump < 0:
        d = -(((c_l + c_r) << 5) // 19)
        if len_p == 0:
            d -= 9
        if b == w1 or _gt(p_s, l_s | r_s):
            if h2 == rho:
                if len_r != 1:
                    d -= 1
            elif h2 == lho:
                d += 22 if len_l != 1 else 16
            if (h2 != lho or len_l == 1) and (h2 != rho or len_r == 1):
                return d + 45 + rrank
            return d + 18 + rrank
        if h1 == rho or h2 == rho:
            if len_r != 1:
                d -= 10
        elif h1 == lho and h2 == pa:
            if len_p != 1:
                d += 31
        if h2 == pa and h3 == pa:
            d += 35
        elif (h2 == seat and h3 == pa and len_p > 1) or (h2 == pa and h3 == seat and len_p > 1):
            d += 25
        if (len_l == 1 and h1 == lho) or (len_r == 1 and h1 == rho):
            return d + 28 + rrank
        if h1 == seat:
            return d - 17 + rrank
        if not seq:
            return d + 12 + rrank
        if b == w2:
            return d + 48
        return d + 29 - rrank
    tm = W[O_SMASK + trump]
    t_l = W[O_H1 + lho] & tm
    t_p = W[O_H1 + pa] & tm
    t_r = W[O_H1 + rho] & tm
    side = su != trump
    d = -(((c_l + c_r) << 5) // 13)
    if side and ((len_l == 0 and t_l != 0) or (len_r == 0 and t_r != 0)):
        d -= 12
    if side and len_p == 0 and t_p != 0 and len_r > 0:
        d += 17
    if h1 == rho or h2 == rho:
        if len_r != 1:
            d -= 12
    elif h1 == lho and h2 == pa:
        if len_p != 1:
            d += 27
    if side and len_me == 1 and (W[O_H1 + seat] & tm) != 0 and len_p > 1 and h1 == pa:
        d += 19
    win = False
    if b == w1:
        if side:
            if len_p != 0 or t_p == 0:
                win = (len_l != 0 or t_l == 0) and (len_r != 0 or t_r == 0)
            else:
                win = (len_l != 0 or _gt(t_p, t_l)) and (len_r != 0 or _gt(t_p, t_r))
        else:
            win = True
    elif _gt(p_s, l_s | r_s):
        win = (not side) or ((len_l != 0 or t_l == 0) and (len_r != 0 or t_r == 0))
    elif side and len_p == 0 and t_p != 0:
        vl = len_l == 0 and t_l != 0
        vr = len_r == 0 and t_r != 0
        if vl and vr:
            win = _gt(t_p, t_l | t_r)
        elif vl:
            win = _gt(t_p, t_l)
        elif vr:
            win = _gt(t_p, t_r)
        else:
            win = True
    if win:
        if (len_l == 1 and h1 == lho) or (len_r == 1 and h1 == rho):
            return d + 35 + rrank
        if h1 == seat:
            if h2 == pa:
                return d + 48 + rrank
            if b == w1:
                return d + 31
            return d - 3 + rrank
        if h1 == pa:
            return d + 42 + rrank if h2 == seat else d + 28 + rrank
        if seq and b == w2:
            return d + 40
        if seq:
            return d + 22 + rrank
        return d + 11 + rrank
    if h2 == pa and h3 == pa:
        d += 20
    elif (h2 == seat and h3 == pa and len_p > 1) or (h2 == pa and h3 == seat and len_p > 1):
        d += 13
    if (len_l == 1 and h1 == lho) or (len_r == 1 and h1 == rho):
        return d + rrank + 2
    if h1 == seat:
        if h2 == pa:
            return d + 33 + rrank
        if b == w1:
            return d + 38
        return d - 14 + rrank
    if h1 == pa:
        return d + 34 + rrank
    if seq and b == w2:
        return d + 35
    return d + 17 - (14 - (c & 15))


@njit(cache=True)
def _dds_second(W, seat, c, lsuit, wcard, us):
    """DDS's weight of second hand's card ``c`` of the suit led in a trump contract (its
    ``WeightAllocTrumpNotvoid1``: whether its side can win the trick, by this card, by its
    partner's best card of the suit or its partner's ruff; then low cards under the third
    hand's, cheap winners, sequences): ``wcard`` the card led, ``us`` the suit's cards in
    hands. (Its no-trump sister, ``WeightAllocNTNotvoid1``, gave more nodes: RESULTS.md.)"""
    trump = W[P_TRUMP]
    m = W[O_SMASK + lsuit]
    tm = W[O_SMASK + trump]
    third = (seat + 1) & 3
    pd = (seat + 2) & 3
    lead = (seat + 3) & 3
    t3 = W[O_H1 + third] & m
    tp = W[O_H1 + pd] & m
    b = np.int64(1) << c
    rrank = _popc(us & (b - 1)) + 1
    rank = 14 - (c & 15)
    beats_led = c < wcard
    over3 = t3 == 0 or c < _ctz(t3)
    pd_led = tp != 0 and _ctz(tp) < wcard
    pd_over3 = tp != 0 and (t3 == 0 or _ctz(tp) < _ctz(t3))
    led_over = wcard < (_ctz(tp) if tp != 0 else 64) and (t3 == 0 or wcard < _ctz(t3)) and wcard < c
    len3t = _popc(W[O_H1 + third] & tm)
    lenpt = _popc(W[O_H1 + pd] & tm)
    win = False
    if lsuit == trump:
        win = (pd_led and pd_over3) or (beats_led and over3)
    elif beats_led and over3:
        win = t3 != 0 or len3t == 0 or (tp == 0 and lenpt != 0 and _gt(W[O_H1 + pd] & tm, W[O_H1 + third] & tm))
    elif pd_led and pd_over3:
        win = t3 != 0 or len3t == 0
    elif led_over:
        if tp == 0 and lenpt != 0:
            win = t3 != 0 or len3t == 0 or _gt(W[O_H1 + pd] & tm, W[O_H1 + third] & tm)
    elif tp == 0 and lenpt != 0:
        win = True
    low3 = 63 - _clz(t3) if t3 != 0 else np.int64(-1)
    lowp = 63 - _clz(tp) if tp != 0 else np.int64(-1)
    below = us & ~((b << 1) - 1)
    seq = below != 0 and (W[O_H1 + seat] & below & -below) != 0
    if win:
        if low3 >= 0 and low3 < c:
            return 40 + rrank
        if pd_led and _gt(W[O_H1 + lead] & m, tp):
            return 41 + rrank
        if beats_led:
            if tp != 0 and _ctz(tp) < c:
                return 78 - rank
            if over3:
                return 73 - rank
            if seq:
                return 62 - rank
            return 49 - rank
        if tp != 0:
            return 47 - rank
        return 40 - rank
    if (low3 >= 0 and low3 < c) or (lowp >= 0 and lowp < c):
        return -9 + rrank
    if not beats_led:
        return -16 + rrank
    if seq:
        return 22 - rank
    return 10 - rank


@njit(cache=True, inline="always")
def _low_class(legal, lo_bit, alive):
    """The card of ``legal`` above ``lo_bit`` (a bit index; better cards are lower bits) that
    DDS's ``RankForcesAce`` names: the class (cards of ``legal`` with no card of ``alive``
    between) holding the cheapest such card, as its best card (the one ``_gen_moves`` tries);
    -1 for none."""
    cand = legal & ((np.int64(1) << lo_bit) - 1)
    if cand == 0:
        return np.int64(-1)
    lo = 63 - _clz(cand)
    above = alive & ((np.int64(1) << lo) - 1)
    top = 63 - _clz(above) if above != 0 else np.int64(-1)
    rest = legal & ~((np.int64(1) << (top + 1)) - 1)
    return _ctz(rest)


@njit(cache=True)
def _dds_third(W, seat, c, lsuit, wseat, wcard, legal, foreign, tcards):
    """DDS's weight of third hand's card ``c`` of the suit led in a trump contract (its
    ``WeightAllocTrumpNotvoid2`` with ``RankForcesAce``): low cards when partner wins, when
    second hand ruffed or when ours are too low to matter; else the cheapest card that wins
    the trick first; else low, with a bonus for the cheapest card that forces out the fourth
    hand's best (above its second group) or beats second hand's card. ``legal`` the hand's
    cards of the suit, ``foreign`` the other hands' cards, ``tcards`` the trick's. (Its
    no-trump sister, ``WeightAllocNTNotvoid2``, gave more nodes: bench/RESULTS.md.)"""
    m = W[O_SMASK + lsuit]
    pd = (seat + 2) & 3
    rank = 14 - (c & 15)
    if (wcard >> 4) != lsuit:
        return -rank  # (second hand ruffed)
    f4 = W[O_H1 + ((seat + 1) & 3)] & m
    max4 = _ctz(f4) if f4 != 0 else np.int64(64)
    top3 = _ctz(legal)
    pwin = wseat == pd
    too_low = (f4 != 0 and top3 > 63 - _clz(f4)) or top3 > wcard
    w = -rank
    if lsuit != W[P_TRUMP] and pwin:
        if f4 == 0 or wcard < max4 or too_low:
            return -rank
        if top3 < max4:
            return 58 - rank if c < max4 else -rank
    elif lsuit != W[P_TRUMP]:
        if f4 == 0:
            return 20 - rank if c < wcard else -rank
        if too_low:
            return -rank
        if top3 < max4:
            return 58 - rank if c < wcard and c < max4 else -rank
        if c < wcard and c < max4:
            w = 60 - rank
    else:
        if (pwin and wcard < max4) or too_low:
            return -rank
        if top3 < max4:
            return 58 - rank if c < max4 and c < wcard else -rank
    # RankForcesAce: the fourth hand's second group (below a card in play elsewhere)
    alive = (foreign | W[O_H1 + seat] | tcards) & m
    t4 = f4 & -f4
    sep = alive & ~f4 & ~((t4 << 1) - 1)
    if sep != 0:
        nb = sep & -sep
        sec = f4 & ~((nb << 1) - 1)
        if sec != 0:
            k = np.int64(-1)
            others = (foreign | tcards) & m
            if _ctz(sec) < wcard:
                k = _low_class(legal, _ctz(sec), others)
            elif not pwin:
                k = _low_class(legal, wcard, others)
            if k == c:
                w += 20
    return w


@njit(cache=True, inline="always")
def _ruff_suits(W, seat):
    """At a trick start with a trump suit: the side suits (a bit each) an opponent of
    ``seat`` can ruff (void there, trumps left), and 4 bits up those only its teammates can."""
    trump = W[P_TRUMP]
    tm = W[O_SMASK + trump]
    my = W[O_ISMAX + seat]
    opp = np.int64(0)
    mate = np.int64(0)
    for s in range(W[P_NSEAT]):
        h = W[O_H1 + s]
        if s == seat or (h & tm) == 0:
            continue
        for su in range(4):
            if su != trump and (h & W[O_SMASK + su]) == 0:
                if W[O_ISMAX + s] == my:
                    mate |= 1 << su
                else:
                    opp |= 1 << su
    return opp | (mate << 4)


@njit(cache=True)
def _gen_moves(W, seat, tlen, lsuit, wseat, wcard, settled, foreign, d, tcards, ruffs):
    """Fill the move list of depth ``d`` with the legal cards of ``seat``, one per
    equivalence class, best first; returns how many. ``settled``: no opponent of the
    side winning the trick so far can still beat its card; ``foreign``: the cards the
    other seats hold; ``ruffs``: at a trick start with trumps, ``_ruff_suits`` (else 0)."""
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
    # (``_ruff_suits``: ``ruffs``)
    opp_ruff = ruffs & 15
    mate_ruff = ruffs >> 4
    # following: what the opponents still to play in this trick hold that may beat a card
    # (their cards of the suit led; the trumps of those void in it)
    later_led = np.int64(0)
    later_ruff = np.int64(0)
    if tlen > 0 and not settled:
        # (settled: a card of the mover's wins only for the winner's side, where whether it is
        # safe does not count; an opponent of that side holds no card that wins)
        s = seat
        for _ in range(nseat - tlen - 1):
            s += 1
            if s == nseat:
                s = 0
            if W[O_ISMAX + s] != my:
                h = W[O_H1 + s]
                f = h & W[O_SMASK + lsuit]
                if f != 0:
                    later_led |= f
                elif trump >= 0:
                    later_ruff |= h & W[O_SMASK + trump]
    foreign_or_mine = foreign | hand
    nleft = _popc(hand)
    rest = legal
    while rest != 0:
        # (the suits of the legal cards only, in order)
        su = _ctz(rest) >> 4
        x = rest & W[O_SMASK + su]
        rest ^= x
        prev = -1
        # (bridge) a discard: as DDS orders them (its WeightAlloc*Void*), the low cards of
        # the longer suits first, not from a king and one (the king second best) nor a
        # singleton top card; a card more in the suit weighs 6.4, more than DDS's 1.5-2.8
        # (bench/RESULTS.md: fewer nodes)
        dsc = np.int64(0)
        if x != 0 and tlen > 0 and su != lsuit and su != trump and W[P_DDSLEAD] != 0:
            ln = _popc(x)
            dsc = (ln << 6) // 10
            us = (foreign | hand) & W[O_SMASK + su]
            top = us & -us
            if ln == 1 and (x & top) != 0:
                dsc -= 6
            elif ln == 2 and (x & (us ^ top) & -(us ^ top)) != 0:
                dsc -= 5
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
            weak = (c & 15) + dsc
            if tlen == 1 and su == lsuit and trump >= 0 and W[P_DDSLEAD] != 0:
                s_ = _dds_second(W, seat, c, lsuit, wcard, foreign_or_mine & W[O_SMASK + su])
            elif tlen == 2 and su == lsuit and trump >= 0 and W[P_DDSLEAD] != 0:
                s_ = _dds_third(W, seat, c, lsuit, wseat, wcard, legal, foreign, tcards)
            elif tlen == 0 and W[P_DDSLEAD] != 0:
                s_ = _dds_lead(W, seat, su, c, foreign_or_mine & W[O_SMASK + su], nleft)
            elif tlen == 0:
                above = foreign & W[O_SMASK + su] & (b - 1)
                if above == 0:
                    s_ = 100 + 8 * p + (20 if su == trump else 0)
                else:
                    s_ = -8 * p + weak
                    tb = above & -above
                    s = _ctz(W[O_OWN + _ctz(tb)] & ~(np.int64(1) << seat))
                    if W[O_ISMAX + s] == my:
                        s_ += W[P_TOWARD]
                if (opp_ruff >> su) & 1:
                    # (a top card an opponent ruffs is no winner)
                    s_ = -8 * p + weak - RUFF_W if above == 0 else s_ - RUFF_W
                elif (mate_ruff >> su) & 1:
                    s_ += MATE_W
            else:
                win = _beats(W, c, wcard, trump)
                # a winning card no opponent still to play can beat (a card of the suit led:
                # none holds a better one, none void in it holds a trump, unless trumps were
                # led; a ruff: none void in the suit led holds a better trump). Ties go to
                # the card played first. DDS's second and third hands play such a card first.
                if su == lsuit:
                    safe = win and (later_led & (b - 1)) == 0 and later_ruff == 0
                else:
                    safe = win and (later_ruff & (b - 1)) == 0
                if partner_holds:
                    if win:
                        s_ = 8 * p - 20 - weak
                    else:
                        s_ = 40 + 8 * p + weak
                        if (foreign & W[O_SMASK + su] & (b - 1)) == 0:
                            # (a winner of its suit: points thrown now, a trick lost later)
                            s_ -= W[P_KEEP]
                elif partner_wins:
                    if safe:
                        # (the partner's card is not safe: overtake it with one that is)
                        s_ = 60 + 8 * p + weak
                        if (foreign & W[O_SMASK + su] & (b - 1)) == 0:
                            s_ -= W[P_KEEP]
                    elif win:
                        s_ = 8 * p - 20 - weak
                    else:
                        s_ = 10 - 8 * p + weak
                else:
                    if safe:
                        s_ = 100 + 8 * p + weak
                        if (foreign & W[O_SMASK + su] & (b - 1)) == 0:
                            # (a top card: win with one that is safe in this trick only, keep it)
                            s_ -= W[P_KEEP]
                    elif win:
                        s_ = 60 + 8 * p + weak
                    else:
                        s_ = -8 * p + weak
                if su == trump and su != lsuit and not win and W[P_DDSLEAD] != 0:
                    # (bridge) an underruff goes after the discards, as DDS's WeightAllocTrumpVoid2/3
                    s_ -= 40
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


# a table entry's value word (``_pack``): its lower bound (8 bits from bit 0), upper bound,
# size (cards left), rank counts (20 bits: 5 a suit) and epoch (11)
V_UB, V_SIZE, V_KV, V_EPOCH = 8, 16, 24, 44
V_TOP = 55  # (abstract entries) 8 bits: the holders of the top cards its rank counts cover (``_tops``)


@njit(cache=True, inline="always")
def _v_lb(v):
    return v & 255


@njit(cache=True, inline="always")
def _v_ub(v):
    return (v >> V_UB) & 255


@njit(cache=True, inline="always")
def _v_size(v):
    return (v >> V_SIZE) & 255


@njit(cache=True, inline="always")
def _v_kv(v):
    return (v >> V_KV) & 0xFFFFF


@njit(cache=True, inline="always")
def _v_epoch(v):
    return (v >> V_EPOCH) & 0x7FF


@njit(cache=True, inline="always")
def _pack(lb, ub, res, a0, b0, ncards, kv, ep):
    """An entry's value word: its bounds ``lb``/``ub`` narrowed by the fail-soft result
    ``res`` of a search with window (a0, b0), size, rank counts and epoch."""
    if res >= b0:
        if res > lb:
            lb = res
    elif res <= a0:
        if res < ub:
            ub = res
    else:
        lb = res
        ub = res
    return lb | (ub << V_UB) | (ncards << V_SIZE) | (kv << V_KV) | (ep << V_EPOCH)


@njit(cache=True)
def _tt_store(T, i0, nslots, k, kv, merge_kv, res, a0, b0, ncards, left, ep):
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
        lb = _v_lb(v)
        ub = _v_ub(v)
        if merge_kv:
            ko = _v_kv(v)
            m = np.int64(0)
            for su in range(4):
                x = max((ko >> (5 * su)) & 31, (kv >> (5 * su)) & 31)
                m |= x << (5 * su)
            kv = m
    else:
        e = i0
        dmin = np.int64(1 << 30)
        for j in range(i0, i0 + nslots):
            dj = _v_size(T[2 * (j) + 1]) if T[2 * (j)] != 0 and _v_epoch(T[2 * (j) + 1]) == ep else np.int64(-1)
            if dj < dmin:
                dmin = dj
                e = j
        T[2 * (e)] = k
        lb = np.int64(0)
        ub = min(left, np.int64(255))
    T[2 * (e) + 1] = _pack(lb, ub, res, a0, b0, ncards, kv, ep)


@njit(cache=True)
def _tt_store_lru(T, i0, nslots, k, kv, res, a0, b0, ncards, left, ep, tops):
    """Record a search result under abstract key ``k`` at the front of the bucket of
    ``nslots`` at ``i0`` (its entries all share the fully abstracted position, so they are
    kept in the order they were last stored; the last one goes); ``tops``: the position's
    ``_tops`` (the entry keeps those of the suits ``kv`` covers, a lookup's cheap check)."""
    e = i0 + nslots - 1
    for j in range(i0, i0 + nslots):
        tk = T[2 * (j)]
        if tk == k:
            e = j
            break
        if tk == 0:
            # (no abstract key after a bucket's first empty slot: the stores fill it from
            # the front and the shift below moves an empty slot only further back)
            break
    v = T[2 * (e) + 1] if T[2 * (e)] == k else np.int64(-1)
    for j in range(e, i0, -1):
        T[2 * (j)] = T[2 * (j - 1)]
        T[2 * (j) + 1] = T[2 * (j - 1) + 1]
    if v >= 0 and _v_kv(v) == kv:
        lb = _v_lb(v)
        ub = _v_ub(v)
    else:
        lb = np.int64(0)
        ub = min(left, np.int64(255))
    T[2 * (i0)] = k
    T[2 * (i0) + 1] = _pack(lb, ub, res, a0, b0, ncards, kv, ep) | ((tops & _kvmask(kv)) << V_TOP)


@njit(cache=True, inline="always")
def _exact(W, T, ix, kx, alpha, beta, ncards):
    """The exact entry of this trick start (key ``kx``, at entry ``ix``): the value it
    decides for the window, else -1."""
    for e in range(ix, ix + 2):
        if T[2 * e] == kx:
            v = T[2 * e + 1]
            lb = _v_lb(v)
            ub = _v_ub(v)
            if lb >= beta or lb == ub or ub <= alpha:
                W[O_REL + ncards] = _topk(W, _v_kv(v))
                return lb if lb >= beta or lb == ub else ub
            return np.int64(-1)
    return np.int64(-1)


@njit(cache=True)
def _start(W, T, alpha, beta, seat, left, key, ncards):
    """A trick start's table lookups and bounds (two or more tricks left): the value when
    they decide it (points: never negative), else -1, with what the search and its store need at
    ``W[O_START + TS_SIZE * ncards:]`` (``TS_*``: the abstract keys' base, the abstract
    bucket, the exact entry, the payoff bucket and its key, the window). Out of ``_ab`` so that its
    calls' return slots are not set up at every node of the search (numba zeroes two per
    call site at each entry)."""
    nseat = W[P_NSEAT]
    # (the cards in hands, once: the helpers below read them)
    u = _in_hands(W)
    W[P_INH] = u
    pb = np.int64(-1)
    kb = np.int64(0)
    # the exact position: its key is kept up to date move by move (no hashing); its
    # entry, fetched since the trick's last card, is read after the bounds below (its
    # memory latency overlaps them), except before a two-trick ending
    kx = _xkey(key, seat)
    ix = kx & W[P_TMASK] & ~np.int64(1)
    al0 = alpha
    be0 = beta
    oc = O_OUTCOME + OC_SIZE * ncards
    if ncards == 2 * nseat:
        hit = _exact(W, T, ix, kx, alpha, beta, ncards)
        if hit >= 0:
            W[oc + OC_EXACT] += 1
            return hit
        W[oc + OC_SEARCHED] += 1
        # two-trick endings are solved outright
        v = _two_tricks(W, seat, alpha, beta)
        rel = W[P_T2REL]
        W[O_REL + ncards] = rel
        _tt_store(T, ix, 2, kx, _kvec(W, rel), True, v, alpha, beta, ncards, left, W[P_EPOCH])
        return v
    if ncards <= W[P_EXACT]:
        alpha = np.int64(-1)
        beta = left + 1
    # then the position abstracted to the top cards that decided a stored result
    base = W[P_SALT] ^ ((seat + 1) * SEAT_MUL)
    # (tricks left, once: a division in the lookups' loops is not hoisted out of them)
    dd = ncards // nseat
    i0 = _akey0(W, base, dd) & W[P_TMASK] & ~(W[P_ABUCKET] - 1)
    for j in range(min(W[P_ABUCKET] // 4, 4)):
        # (the first lines: a lookup scans about 48 entries of bridge's 128)
        _prefetch(T, 2 * i0 + 8 * j)
    if W[P_PAYOFF] != 0 and ncards >= 3 * nseat:
        # and the bucket of payoff-similar entries (the small cards' points left out)
        g = O_HB + dd * HSTRIDE
        kb = _mix((base ^ PSALT) + W[g] + W[g + HP_SUIT] + W[g + 2 * HP_SUIT] + W[g + 3 * HP_SUIT])
        pb = W[P_PBASE] + PB_WORDS * (kb & W[P_PMASK])
        for j in range(PFETCH):
            _prefetch(T, pb + 8 * j)
    # bounds: the leader's cashable cards (for its side), then a team's run of top
    # trumps (every copy in its hands: for the leader's side or against it)
    for which in range(2):
        if which == 0:
            q = _quick(W, seat, np.int64(0), np.int64(15))
            team = W[O_ISMAX + seat]
        else:
            tr = _trump_run(W)
            q = tr >> 1
            team = tr & 1
        if team == 1:
            if q >= beta:
                W[O_REL + ncards] = W[P_QM]
                W[oc + OC_BOUND] += 1
                return q
        elif left - q <= alpha:
            W[O_REL + ncards] = W[P_QM]
            W[oc + OC_BOUND] += 1
            return left - q
    # a teammate's winners reached through the suit led, and the trick the opponents surely take
    side = W[O_ISMAX + seat]
    q = _entry_quick(W, seat)
    if q >= 0 and (q >= beta if side == 1 else left - q <= alpha):
        W[O_REL + ncards] = W[P_QM]
        W[oc + OC_BOUND] += 1
        return q if side == 1 else left - q
    # (one trick holds at most the bonus and each seat's card worth the most)
    most = W[P_BONUS]
    for p in range(3, 0, -1):
        if (u & W[O_PM + p]) != 0:
            most += nseat * p
            break
    q = _opp_trick(W, seat) if (left - most <= alpha if side == 1 else most >= beta) else np.int64(-1)
    if q >= 0 and (left - q <= alpha if side == 1 else q >= beta):
        W[O_REL + ncards] = W[P_QM]
        W[oc + OC_BOUND] += 1
        return left - q if side == 1 else q
    # (its first test here: in 56 a card worth points is nearly always left, no call)
    q = _later_tricks(W, seat, ncards) if (u & ~W[O_PM]) == 0 else np.int64(-1)
    if q >= 0:
        # (the leader's side takes fewer than all the tricks left: DDS's LaterTricks)
        if side == 1 and left - W[P_BONUS] <= alpha:
            W[O_REL + ncards] = q
            W[oc + OC_BOUND] += 1
            return left - W[P_BONUS]
        if side == 0 and W[P_BONUS] >= beta:
            W[O_REL + ncards] = q
            W[oc + OC_BOUND] += 1
            return W[P_BONUS]
    hit = _exact(W, T, ix, kx, al0, be0, ncards)
    if hit >= 0:
        W[oc + OC_EXACT] += 1
        return hit
    lkv = np.int64(-1)
    lk = np.int64(0)
    kv = np.int64(0)
    got = np.int64(0)
    found = np.int64(0)
    ep = W[P_EPOCH]
    tops = _tops(W)
    for e in range(i0, i0 + W[P_ABUCKET]):
        tk = T[2 * (e)]
        v = T[2 * (e) + 1]
        if tk == 0 or _v_epoch(v) != ep:
            # (the bucket's entries of this epoch are all in front: ``_tt_store_lru``)
            break
        if _v_size(v) == ncards:
            lb = _v_lb(v)
            ub = _v_ub(v)
            if lb < beta and lb != ub and ub > alpha:
                # (bounds that decide nothing in this window: no key to compute)
                continue
            kv = _v_kv(v)
            if (((v >> V_TOP) ^ tops) & _kvmask(kv)) != 0:
                # (the holder of a top card the entry covers differs: no key to compute)
                continue
            if kv != lkv:
                # (each rank counts' key once per lookup)
                lkv = kv
                lk = _akey(W, kv, base, dd)
            if lk == tk:
                if lb >= beta or lb == ub:
                    got = lb
                    found = 1
                    W[oc + OC_ABSTRACT] += 1
                    break
                if ub <= alpha:
                    got = ub
                    found = 1
                    W[oc + OC_ABSTRACT] += 1
                    break
    if found == 0 and pb >= 0:
        # an entry of a payoff-similar position: its bounds moved by what the small
        # cards' points can change (this position's small-card points computed once per
        # rank counts)
        W[P_SIGKV] = -1
        lkv = np.int64(-1)
        kbv = ((kb >> 40) & 255) << PV_KB
        m = T[pb]
        cnt = (m >> PB_CNT) & 1023 if (m >> PB_EPOCH) == W[P_EPOCH] else np.int64(0)
        j = (m & 1023) - 1
        for _ in range(cnt):
            # (newest first)
            j += 1
            if j == PBUCKET:
                j = 0
            tk = T[pb + 2 + 2 * j]
            v = T[pb + 3 + 2 * j]
            if (v & ((np.int64(255) << PV_KB) | (np.int64(255) << V_SIZE))) != (kbv | (ncards << V_SIZE)):
                # (another position's bucket, or another size: the cheap check first)
                continue
            if _v_lb(v) < beta and _v_ub(v) > alpha:
                # (bounds that no shift makes decide this window: no key, no shift to compute)
                continue
            kv = _v_kv(v)
            if kv != lkv:
                lkv = kv
                lk = _bkey(W, kv, base ^ PSALT, dd)
            if lk != tk:
                continue
            sh = _shift(W, T, pb + PB_TAILS + PE_TAIL * j, kv)
            lb = _v_lb(v) - (sh & 0xFFFF)
            if lb >= beta:
                got = lb
                found = 1
                W[oc + OC_PAYOFF] += 1
                break
            ub = _v_ub(v) + (sh >> 16)
            if ub <= alpha:
                got = ub
                found = 1
                W[oc + OC_PAYOFF] += 1
                break
    if found != 0:
        # (an abstract or payoff entry decided it: one call site for the cards that did)
        W[O_REL + ncards] = _topk(W, kv)
        return got
    o = O_START + TS_SIZE * ncards
    W[o + TS_BASE] = base
    W[o + TS_ABUCKET] = i0
    W[o + TS_EXACT] = ix
    W[o + TS_PBUCKET] = pb
    W[o + TS_PKEY] = kb
    W[o + TS_ALPHA] = alpha
    W[o + TS_BETA] = beta
    W[oc + OC_SEARCHED] += 1
    return np.int64(-1)


@njit(cache=True)
def _start_store(W, T, res, a0, b0, rel, seat, left, key, ncards):
    """Record a trick start's result: the exact entry, the abstract bucket and the payoff
    bucket (``_start`` left their places at ``W[O_START + TS_SIZE * ncards:]``)."""
    nseat = W[P_NSEAT]
    o = O_START + TS_SIZE * ncards
    base = W[o + TS_BASE]
    i0 = W[o + TS_ABUCKET]
    ix = W[o + TS_EXACT]
    pb = W[o + TS_PBUCKET]
    kb = W[o + TS_PKEY]
    W[P_INH] = _in_hands(W)
    kv = _kvec(W, rel)
    _tt_store(T, ix, 2, _xkey(key, seat), kv, True, res, a0, b0, ncards, left, W[P_EPOCH])
    ka = _akey(W, kv, base, ncards // nseat)
    _tt_store_lru(T, i0, W[P_ABUCKET], ka, kv, res, a0, b0, ncards, left, W[P_EPOCH], _tops(W))
    if pb >= 0 and _sig(W, kv):
        _pt_store(T, pb, _bkey(W, kv, base ^ PSALT, ncards // nseat), kb, res, a0, b0, ncards, kv, left,
                  W[P_EPOCH], W)


@njit(cache=True, inline="always")
def _settled_bound(W, alpha, beta, seat, tlen, lsuit, wseat, wcard, tpts, left, ncards):
    """Is the trick in progress settled (no opponent of the winner still to play can beat
    it)? Then the points it surely brings (its cards so far and the cheapest card each seat
    still to play must add), and when its winner, the next leader, is fixed too, that
    leader's cashable cards in the next trick, may decide the window. Returns (settled,
    decided, value)."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
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
    if not settled:
        return False, False, np.int64(0)
    if not (fixed and nseat == 4 and ncards > nseat - tlen):
        # (no cashing bound follows: when even the costliest cards still to come decide
        # nothing, the cheapest are not looked for)
        most = tpts + W[P_BONUS] + (nseat - tlen) * W[P_MAXPTS]
        if (most < beta) if wside == 1 else (left - most > alpha):
            W[O_REL + ncards] = 0
            return True, False, np.int64(0)
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
            return True, True, sure
    elif left - sure <= alpha:
        return True, True, left - sure
    if fixed and nseat == 4 and ncards > nseat - tlen:
        # the next trick's leader is known: add its cashable top cards (at 4 seats;
        # with 6 or 8 it saves fewer nodes than its time: 6 x 8 +2% to +6% nodes
        # without it, -4% to -6% time)
        sure += _quick(W, wseat, pend, np.int64(15))
        W[O_REL + ncards] = wb | W[P_QM]
        if wside == 1:
            if sure >= beta:
                return True, True, sure
        elif left - sure <= alpha:
            return True, True, left - sure
    W[O_REL + ncards] = 0
    return True, False, np.int64(0)


@njit(cache=True, inline="always")
def _cut_key(W, seat, tlen, lsuit, wseat, wcard, other, settled, ruffs):
    """The cut-off memory's key of this node (low 8 bits clear, for the card): at a trick
    start the mover's hand; when following, the led suit's cards still out and the
    mover's own, and the card winning so far and its side; else the mover's hand and the
    card winning so far. With ``P_CUTSET`` (``cut_key_parts``): a trick start's suits that
    each side can ruff (``ruffs``) too, a following seat's whether the trick is ``settled``,
    and one following suit in a trick still open whether an opponent still to play can ruff."""
    if tlen == 0:
        ckey = W[O_H1 + seat] * GOLDEN ^ W[O_H2 + seat]
        if (W[P_CUTSET] & 2) != 0:
            ckey ^= (ruffs + 1) * PSALT
    else:
        f = W[O_H1 + seat] & W[O_SMASK + lsuit]
        if f != 0:
            ckey = ((other | W[O_H1 + seat]) & W[O_SMASK + lsuit]) * GOLDEN ^ (f << 1)
        else:
            ckey = W[O_H1 + seat] * GOLDEN ^ W[O_H2 + seat]
        ckey ^= (wcard + 1) * GOLDEN ^ (W[O_ISMAX + wseat] << 7)
        if settled and (W[P_CUTSET] & 1) != 0:
            ckey ^= PSALT
        if (W[P_CUTSET] & 4) != 0 and not settled and W[P_TRUMP] >= 0 and f != 0:
            nseat = W[P_NSEAT]
            tm = W[O_SMASK + W[P_TRUMP]]
            s = seat
            for _ in range(nseat - tlen - 1):
                s += 1
                if s == nseat:
                    s = 0
                h = W[O_H1 + s]
                if W[O_ISMAX + s] != W[O_ISMAX + seat] and (h & W[O_SMASK + lsuit]) == 0 and (h & tm) != 0:
                    ckey ^= GOLDEN * 3
                    break
    return _mix(ckey ^ (seat + 8 * tlen + 1) * SEAT_MUL) & ~np.int64(255)


@njit(cache=True, inline="always")
def _to_front(W, mvo, n, best):
    """Move card ``best``, if in the move list at ``W[mvo:mvo + n]``, to its front."""
    for j in range(n):
        if W[mvo + j] == best:
            for i in range(j, 0, -1):
                W[mvo + i] = W[mvo + i - 1]
            W[mvo] = best
            break


@njit(cache=True, inline="always")
def _by_cost(W, mvo, n):
    """Sort the move list at ``W[mvo:mvo + n]`` by ``W[O_RCOST + card]``, most first (stable:
    cards of equal cost keep the generator's order), when one card's cost is at least
    ``W[P_RSHARE]`` percent of the last probe's nodes (else it is left as it is)."""
    most = np.int64(0)
    for i in range(n):
        most = max(most, W[O_RCOST + W[mvo + i]])
    if most * 100 < W[P_PLAST] * W[P_RSHARE]:
        return
    for i in range(1, n):
        x = W[mvo + i]
        k = i
        while k > 0 and W[O_RCOST + W[mvo + k - 1]] < W[O_RCOST + x]:
            W[mvo + k] = W[mvo + k - 1]
            k -= 1
        W[mvo + k] = x


@njit(cache=True, inline="always")
def _tried_once(W, j, c, mvo, sco, rel, other, settled, seat, tlen, wseat, wcard, my, alpha, beta, res):
    """May move j (card ``c``) be skipped for a card of its suit already tried? Returns
    (skipped, res, rel), the node's result and rank relevance updated.

    A card plays like one of its suit already tried when both are weaker than every card
    of the suit the lines searched so far depend on, or when they are neighbours (no other
    hand holds a copy of either or a card between them, and both or neither take the
    trick): only their points differ, and those move between two tricks (this one and the
    one the other card goes to). Of equal points it gives the same result; else it is
    skipped when the tried card's bound clears the window by what the difference can
    change."""
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
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
    return skipped, res, rel


@njit(cache=True, inline="always")
def _flip(W, seat, c, two, key):
    """Take card ``c`` out of ``seat``'s hand, or put it back (the same flips): its
    second copy when ``two``, else its only one and the card's holders (``W[O_OWN:]``).
    Returns the position's exact key ``key`` flipped the same way."""
    b = np.int64(1) << c
    if two:
        W[O_H2 + seat] ^= b
        # (the index masked: known not negative, no wrap-around select)
        return key ^ _ZH[(((8 + seat) << 6) | c) & 1023]
    W[O_H1 + seat] ^= b
    sb = np.int64(1) << seat
    o = W[O_OWN + c]
    W[O_OWN + c] = o ^ sb
    # (the card's other copy: with another seat, then the card was or becomes held twice;
    # gone, then the card leaves or comes back to the hands)
    W[P_ALL + ((o & ~sb) != 0)] ^= b
    return key ^ _ZH[((seat << 6) | c) & 1023]


@njit(cache=True, inline="always")
def _relevant_once(W, rel, other, seat, d):
    """A card tried once for its class (``W[O_SKIP + d]``) matters only if the card tried
    for it does: ``rel`` with those cards added."""
    sk = W[O_SKIP + d]
    u = other | W[O_H1 + seat]
    while sk != 0:
        b = sk & -sk
        sk ^= b
        above = u & W[O_SMASK + (_ctz(b) >> 4)] & (b - 1)
        if above != 0 and (rel & (np.int64(1) << (63 - _clz(above)))) != 0:
            rel |= b
    return rel


@njit(cache=True)
def _ab(W, T, alpha, beta, seat, tlen, lsuit, wseat, wcard, tpts, tcards, left, key, ncards):
    """Fail-soft alpha-beta on the points the maximising side wins from here.

    Returns ``v``: at most ``alpha`` means "at most v", at least ``beta`` means "at least
    v", in between it is exact. A zero window (target - 1, target) asks "can the side
    win target?". Endings of at most ``W[P_EXACT]`` cards are solved exactly whatever the
    window, so that their table entries serve every later target. Its phases are
    ``inline="always"`` helpers (no call sites of their own: see docs/solver.md).
    """
    W[O_REL + ncards] = 0
    if beta <= 0 or alpha >= left:
        if tlen == 0:
            W[O_OUTCOME + OC_SIZE * ncards + OC_WINDOW] += 1
            want = 1 if beta <= 0 else 0
            if W[O_ISMAX + seat] == want and ncards >= 2 * W[P_NSEAT] and (W[P_WINB] & (2 - want)) != 0:
                # what the side the window favours surely wins still when it leads
                # (``window_bound``): the entries above keep more than the target, for the
                # narrowing's later probes
                q = _quick(W, seat, np.int64(0), np.int64(15))
                if q > 0:
                    W[O_REL + ncards] = W[P_QM]
                    return q if beta <= 0 else left - q
        return np.int64(0) if beta <= 0 else left
    W[ST_NODES] += 1
    W[O_NDEPTH + ncards] += 1
    if W[ST_NODES] > W[ST_LIMIT]:
        W[ST_ABORT] = 1
        return np.int64(0)
    nseat = W[P_NSEAT]
    trump = W[P_TRUMP]
    settled = False
    if tlen > 0:
        settled, decided, v = _settled_bound(W, alpha, beta, seat, tlen, lsuit, wseat, wcard, tpts, left, ncards)
        if decided:
            return v
        if W[P_BRIDGE] != 0:
            # bridge: does the side to play surely take this trick? (one call site: numba
            # zeroes a call's return slots at every entry of ``_ab``, 56's too)
            v = _bridge_follow(W, alpha, beta, seat, tlen, lsuit, wcard, tpts, left, ncards)
            if v >= 0:
                return v
    if tlen == 0:
        if ncards == nseat:
            W[O_OUTCOME + OC_SIZE * ncards + OC_SEARCHED] += 1
            return _last_trick(W, seat)
        v = _start(W, T, alpha, beta, seat, left, key, ncards)
        if v >= 0:
            return v
        o = O_START + TS_SIZE * ncards
        alpha = W[o + TS_ALPHA]
        beta = W[o + TS_BETA]
    a0 = alpha
    b0 = beta
    d = ncards
    mvo = O_MV + d * MAX_MOVES
    other = np.int64(0)
    ckey = np.int64(0)
    legal = W[O_H1 + seat]
    if tlen > 0 and (legal & W[O_SMASK + lsuit]) != 0:
        legal &= W[O_SMASK + lsuit]
    if (legal & (legal - 1)) == 0:
        # one kind of card to play (as _gen_moves has it): no order, no class skipped, no
        # cut-off memory, so neither the other seats' cards nor the memory's key are needed
        n = 1
        W[mvo] = _ctz(legal)
        W[O_SKIP + d] = 0
    else:
        other = _others(W, seat)
        # the card that cut off last time the mover held these cards in this trick (tried
        # first: the best card a table entry recorded, of a search for another window, did
        # worse): its slot is fetched now, while the moves are generated
        ruffs = _ruff_suits(W, seat) if tlen == 0 and trump >= 0 else np.int64(0)
        ckey = _cut_key(W, seat, tlen, lsuit, wseat, wcard, other, settled, ruffs)
        _prefetch(W, O_CUT + ((ckey >> 8) & (NCUT - 1)))
        n = _gen_moves(W, seat, tlen, lsuit, wseat, wcard, settled, other, d, tcards, ruffs)
        if n > 1 and ncards == W[P_ROOTN] and W[P_RORD] != 0 and W[ST_NODES] >= W[P_RORD]:
            _by_cost(W, mvo, n)
            if W[P_RBEST] > 0:
                _to_front(W, mvo, n, W[P_RBEST] - 1)
        if n > 1:
            e = W[O_CUT + ((ckey >> 8) & (NCUT - 1))]
            if (e & ~np.int64(255)) == ckey:
                _to_front(W, mvo, n, e & 255)
    my = W[O_ISMAX + seat] == 1
    res = np.int64(-1) if my else np.int64(1000)
    rel = np.int64(0)
    nxt = seat + 1
    if nxt == nseat:
        nxt = 0
    sco = O_SC + d * MAX_MOVES
    # high in a big search, each card first within a budget of nodes: a card whose subtree
    # passes it goes to the back of the list (the table keeps what was proved under it), the
    # budget growing once every card left has passed it, so that a cheap cut-off is found
    # before a costly line is proved (the tail's proofs went 63-82% to a few first cards
    # high in the tree that lost: bench/RESULTS.md)
    bud = W[P_BUDGET] if n > 1 and ncards >= W[P_BFROM] and W[ST_NODES] > W[P_BAFTER] else np.int64(0)
    passed = 0
    j = 0
    while j < n:
        c = W[mvo + j]
        if j > 0:
            skipped, res, rel = _tried_once(W, j, c, mvo, sco, rel, other, settled, seat, tlen, wseat, wcard, my,
                                            alpha, beta, res)
            if skipped:
                j += 1
                continue
        lim = W[ST_LIMIT]
        if bud > 0:
            W[ST_LIMIT] = min(lim, W[ST_NODES] + bud)
        n0 = W[ST_NODES]
        b = np.int64(1) << c
        two = (W[O_H2 + seat] & b) != 0
        ck = _flip(W, seat, c, two, key)
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
            if ncards > nseat + 1:
                # the trick start's exact entry, read by ``_start`` after its bounds: fetched
                # now, its memory latency overlaps them
                _prefetch(T, 2 * (_xkey(ck, ws) & W[P_TMASK] & ~np.int64(1)))
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
        _flip(W, seat, c, two, key)
        if ncards == W[P_ROOTN]:
            # (the root: what this card cost, for the next probe's order)
            if W[O_RPROBE + c] != W[P_PROBE]:
                W[O_RPROBE + c] = W[P_PROBE]
                W[O_RCOST + c] = 0
            W[O_RCOST + c] += W[ST_NODES] - n0
        W[O_ACC + (c >> 4)] += za
        W[O_ACCB + (c >> 4)] += zb
        if bud > 0:
            W[ST_LIMIT] = lim
            if W[ST_HALT] != 0:
                # another thread stopped the search while the card was searched: the limit it
                # set stands (restoring ours would lose it), and an abort is not the budget's
                W[ST_LIMIT] = 0
            elif W[ST_ABORT] != 0 and W[ST_NODES] <= lim:
                # past its budget: to the back of the list
                W[ST_ABORT] = 0
                for i in range(j, n - 1):
                    W[mvo + i] = W[mvo + i + 1]
                    W[sco + i] = W[sco + i + 1]
                W[mvo + n - 1] = c
                passed += 1
                if passed >= n - j:
                    passed = 0
                    bud *= W[P_BGROW]
                    if bud > BUDGET_CAP:
                        bud = 0
                continue
            passed = 0
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
        else:
            if r < res:
                res = r
                if r < beta:
                    beta = r
        if alpha >= beta:
            # a cut-off rests on this card's line alone
            rel = crel
            if n > 1:
                W[O_CUT + ((ckey >> 8) & (NCUT - 1))] = ckey | c
                if ncards == W[P_ROOTN]:
                    W[P_RBEST] = c + 1
            break
        j += 1
    if W[O_SKIP + d] != 0:
        rel = _relevant_once(W, rel, other, seat, d)
    W[O_REL + ncards] = rel
    if tlen == 0:
        _start_store(W, T, res, a0, b0, rel, seat, left, key, ncards)
    return res


@njit(cache=True)
def _probe(W, T, rs, target):
    """One fail-soft search from a root state ``rs``."""
    key = rs[RS_SALT]
    W[P_SALT] = key
    W[P_BFROM] = rs[RS_NCARDS] - (W[P_BCARDS] - 1)
    W[P_ROOTN] = rs[RS_NCARDS]
    W[P_PROBE] += 1
    W[P_PLAST] = W[ST_NODES] - W[P_PSTART]
    W[P_PSTART] = W[ST_NODES]
    for su in range(4):
        W[O_ACC + su] = 0
        W[O_ACCB + su] = 0
    for s in range(W[P_NSEAT]):
        for copy in range(2):
            x = W[O_H1 + s] if copy == 0 else W[O_H2 + s]
            while x != 0:
                b = x & -x
                x ^= b
                c = _ctz(b)
                W[O_ACC + (c >> 4)] += _ZT[(s << 6) | (c & 48) | (W[O_PTS + c] & 15)]
                W[O_ACCB + (c >> 4)] += _ZT[(s << 6) | (c & 48)]
    for c in range(MAX_CARDS):
        W[O_OWN + c] = 0
    W[P_ALL] = 0
    W[P_TWICE] = 0
    for s in range(W[P_NSEAT]):
        x = W[O_H1 + s]
        while x != 0:
            b = x & -x
            x ^= b
            W[P_TWICE] |= W[P_ALL] & b
            W[P_ALL] |= b
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
    if W[P_PAYOFF] != 0 and ne >= 2 * PB_WORDS:
        W[P_TMASK] = ne // 2 - 1
        W[P_PBASE] = ne
        nb = ne // PB_WORDS
        pm = np.int64(1)
        while pm * 2 <= nb:
            pm *= 2
        W[P_PMASK] = pm - 1
    else:
        W[P_PAYOFF] = 0
        W[P_TMASK] = ne - 1
    if W[P_ABUCKET] > W[P_TMASK] + 1:
        # (a table smaller than one abstract bucket)
        W[P_ABUCKET] = W[P_TMASK] + 1


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
    90 deals: nodes -9%). With a guess (``window[2]``, -1 for none) the first probe is "at
    least the guess", and then, as in MTD(f), the next probe steps from the bound just
    proved in the same direction, one point, then 2, 4, ... while the proofs keep going
    the same way (a gallop), until the window holds the value between a success and a
    failure; then as without a guess. When the guess is the value: its two proofs and
    nothing else; off by a few points, a few near proofs (a guess 3 points off still saves
    16-29% of the nodes against no guess on the seed-2026 sets, bench/RESULTS.md).
    ``window[3]`` (optional) not 0: from the guess, step one point at a time, never a gallop
    (DDS's search for a value; bridge's scores are a few tricks wide). ``W[P_NMID]`` not 0:
    a window over 5 wide is probed half way until both sides were proved. Stopped by the
    node limit, it keeps its state in ``window[NW_MID:]`` (when that long) and resumes."""
    lo = window[0]
    hi = window[1]
    g = window[2] if window.shape[0] > 2 else np.int64(-1)
    one = window.shape[0] > 3 and window[3] != 0
    keep = window.shape[0] >= NW_SIZE
    mid = (lo + hi + 1) // 2
    bracketed = g < 0
    if g >= 0:
        mid = min(max(g, lo + 1), hi)
    up_cost = np.int64(0)
    down_cost = np.int64(0)
    step = np.int64(1)
    last = np.int64(-1)
    n0 = W[ST_NODES]
    if keep and window[NW_MID] > 0:
        # resume the probe a node limit stopped, with the costs and the gallop as they were
        mid = window[NW_MID]
        n0 = window[NW_N0]
        up_cost = window[NW_UP]
        down_cost = window[NW_DOWN]
        step = window[NW_STEP]
        last = window[NW_LAST]
        bracketed = window[NW_BRACKETED] != 0
    while lo < hi:
        if keep and window[NW_MID] != mid:
            window[NW_PROBES] += 1
            window[NW_TRACE] = (window[NW_TRACE] * 61 + mid) % 1000000007
        r = _probe(W, T, rs, mid)
        if W[ST_ABORT] != 0:
            if keep:
                window[NW_MID] = mid
                window[NW_N0] = n0
                window[NW_UP] = up_cost
                window[NW_DOWN] = down_cost
                window[NW_STEP] = step
                window[NW_LAST] = last
                window[NW_BRACKETED] = 1 if bracketed else 0
            break
        if keep:
            window[NW_MID] = 0
        up = np.int64(1) if r >= mid else np.int64(0)
        if up == 1:
            lo = r
            up_cost = W[ST_NODES] - n0
        else:
            hi = r
            down_cost = W[ST_NODES] - n0
        n0 = W[ST_NODES]
        window[0] = lo
        window[1] = hi
        if lo >= hi:
            break
        if not bracketed:
            if last >= 0 and last != up:
                bracketed = True
            else:
                step = step * 2 if last == up and not one else np.int64(1)
                last = up
                mid = lo + step if up == 1 else hi - step + 1
                mid = min(max(mid, lo + 1), hi)
                continue
        if window.shape[0] > 2:
            window[2] = -1
        if hi - lo > 5:
            div = max(W[P_NDIV], 2) if W[ST_NODES] > W[P_NAFTER] else np.int64(NARROW_DIV)
            if W[P_NMID] != 0 and W[ST_NODES] >= W[P_NMID] and (up_cost == 0 or down_cost == 0):
                div = np.int64(2)
            mid = lo + max((hi - lo + 1) // div, 1)
        elif down_cost >= up_cost:
            mid = lo + 1
        else:
            mid = hi


@njit(cache=True, nogil=True)
def value_kernel(W, T, rs, window):
    """Narrow ``window`` = [lo, hi] or [lo, hi, guess] (lo known makeable, hi an upper
    bound, guess -1 for none) to the exact value.

    On return ``window[0] == window[1]`` is the value, unless the abort flag says the node
    limit stopped it; the window then holds what was proved so far and a later call resumes:
    with ``NW_SIZE`` words or more, the probe it was in, so that a search's probes do not
    depend on where the limits fell (before, a resumed search probed the middle of the window
    left: the hardest of bench/solver.py's 4 8 x 8 deals took 42.06 M nodes searched whole,
    21.33 M stopped once at 65,536 nodes and 33.45 M stopped every million).
    """
    _setup(W, T.shape[0])
    _narrow(_ptr(W), _ptr(T), rs, window)
