"""Double-dummy solver for 56 (and, through the same kernels, bridge): the typed public API.

Every function takes a ``Position`` (any table set-up, a full deal or an ending, a trick in
progress, points already won) and answers with best play by every seat:

* ``solve(pos, target, side)``: can team ``side`` end with at least ``target`` points?
* ``max_points(pos)``: the points each team ends with.
* ``card_values(pos)``: for the seat to move, the final points of its team after each card.
* ``table(deal)``: maximum points of each team under each trump and no-trump.
* ``max_points_many(positions, side)``: many positions at once, in parallel threads.

Work over many positions runs in ``solver_pool()``, the process's one pool of solvers.

With ``pairs`` teams (3 or 4 teams) a team's value is "that team against all the others".
Every entry point takes an optional ``max_nodes`` / ``max_seconds`` budget; running out
raises ``BudgetExceeded``. A ``stop`` callable, looked at every ``WATCH_POLL`` seconds from a
watcher thread (the search never pauses for it), cancels a search (``Cancelled``) once it
returns True.
"""
from __future__ import annotations

import mmap
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from fiftysix.analyser import _kernels as kernels
from fiftysix.analyser import interrupts
from fiftysix.analyser.encode import Encoded, card_bit, encode, rules_for, work_array
from fiftysix.analyser.pool import NOT_DONE, Pool, Worker
from fiftysix.cards import TRUMPS, Card, Deal, Hand, Table, check_cards, format_trump
from fiftysix.errors import DealError, FiftySixError
from fiftysix.play import PlayState, legal_cards

DEFAULT_TABLE_MB = 48
_ENTRY_BYTES = 16
T = TypeVar("T")
Stop = Callable[[], bool] | None
"""A search's ``stop``: asked as it starts and then every ``WATCH_POLL`` seconds from the
solver's watcher thread (so it must be thread-safe, and cheap); True cancels the search
(Cancelled)."""

WATCH_POLL = 0.05
"""Seconds between two looks of the watcher thread at a running search's ``stop``."""
_STOP_CHUNK = 1 << 62  # tests: nodes between two pauses of a search with a ``stop`` (its own thread looks then)
_HUGE = 2 ** 21  # bytes in a huge page


def _zeroed_table(rows: int, words: int) -> np.ndarray:
    """A zeroed int64 array of ``rows`` x ``words`` for the transposition table, on 2 MB
    pages where the system allows it: the search reads it at random, and with 4 KB pages
    nearly every read also misses the address-translation cache."""
    nbytes = rows * words * 8
    if nbytes < 4 * _HUGE or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros((rows, words), np.int64)
    buf = mmap.mmap(-1, nbytes + _HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zeroed
    try:
        buf.madvise(mmap.MADV_HUGEPAGE)
    except OSError:
        pass
    start = (-np.frombuffer(buf, np.uint8, count=1).ctypes.data) % _HUGE
    return np.frombuffer(buf, np.int64, count=rows * words, offset=start).reshape(rows, words)


class BudgetExceeded(FiftySixError):
    """The node or time budget ran out before the answer was proved."""


MAX_BUDGET_NODES = 2 ** 62


def check_budget(max_nodes: int | None, max_seconds: float | None) -> None:
    """Refuse a budget no search can keep: NaN, infinite, negative or zero seconds, and
    node counts that are not whole numbers 1..2^62 (FiftySixError naming the value)."""
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer))
                                  or not 1 <= max_nodes <= MAX_BUDGET_NODES):
        raise FiftySixError(f"max_nodes must be a whole number 1..2^62, not {max_nodes!r:.40}")
    if max_seconds is not None and (isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float))
                                    or not 0 < max_seconds < float("inf")):
        raise FiftySixError(f"max_seconds must be a finite number of seconds above 0, not {max_seconds!r:.40}")


class Deadline:
    """One time budget shared by every search of a command: each sub-search gets the
    seconds still left (``left()``), so the whole command ends near ``seconds`` after the
    deadline was set, however many searches it runs."""

    def __init__(self, seconds: float | None) -> None:
        check_budget(None, seconds)
        if seconds is not None:
            ensure_warm()  # compiling the kernels is not the command's time
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds

    def left(self) -> float | None:
        """Seconds still left (None: no time budget); BudgetExceeded once none are."""
        if self.end is None:
            return None
        rest = self.end - time.perf_counter()
        if rest <= 0:
            raise self.exceeded()
        return rest

    def exceeded(self) -> BudgetExceeded:
        return BudgetExceeded(f"the search ran past its time budget of {self.seconds:g} s")

    def run(self, search: Callable[..., T], **kw: Any) -> T:
        """``search(max_seconds=<the seconds left>, **kw)``; a sub-search that runs out of
        time reports the whole budget, not the part it was given."""
        try:
            return search(max_seconds=self.left(), **kw)
        except BudgetExceeded:
            if self.end is not None and time.perf_counter() >= self.end:
                raise self.exceeded() from None
            raise

class Cancelled(FiftySixError):
    """The caller's ``stop`` callable asked the search to stop."""


@dataclass(frozen=True)
class Position:
    """A position to solve: remaining hands, trump, the trick in progress, points won.

    ``leader`` is the seat that led (or will lead) the current trick; ``current`` the
    (seat, card) pairs already on the table in it; ``points`` the points won so far per
    team index (default zeros). Hands must all be the same size once the cards on the
    table are counted back.
    """

    table: Table
    hands: tuple[Hand, ...]
    trump: int | None
    leader: int = 1
    current: tuple[tuple[int, Card], ...] = ()
    points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        t = self.table
        object.__setattr__(self, "hands", tuple(h if isinstance(h, Hand) else Hand(tuple(h)) for h in self.hands))
        object.__setattr__(self, "current", tuple((int(s), Card(c)) for s, c in self.current))
        if not self.points:
            object.__setattr__(self, "points", (0,) * t.num_teams)
        object.__setattr__(self, "points", tuple(int(p) for p in self.points))
        t.check_seat(self.leader)
        if len(self.hands) != t.players:
            raise DealError(f"the position has {len(self.hands)} hands; the table has {t.players} seats")
        if self.trump is not None and self.trump not in range(4):
            raise DealError(f"trump must be a suit 0..3 or None for no-trump, not {self.trump}")
        if len(self.current) >= t.players:
            raise DealError(f"a trick in progress holds at most {t.players - 1} cards, not {len(self.current)}")
        for i, (seat, _) in enumerate(self.current):
            want = (self.leader - 1 + i) % t.players + 1
            if seat != want:
                raise DealError(f"card {i + 1} of the trick in progress was played by seat {seat};"
                                f" seat {want} plays it after leader {self.leader}")
        in_deck = set(t.kinds())
        for _, c in self.current:
            if c not in in_deck:
                raise DealError(f"{c} on the table is not in the {t.deck}-card deck")
        # the hands as they were when this trick began: the cards on the table back in them
        before = [Hand(h.cards + tuple(c for s, c in self.current if s == seat)) if self.current else h
                  for seat, h in enumerate(self.hands, start=1)]
        check_cards(t, before)
        if len({len(h) for h in before}) > 1:
            raise DealError("hands must all be the same size (counting the card each seat has played"
                            f" to the trick in progress); sizes are {[len(h) for h in self.hands]}")
        if len(self.points) != t.num_teams:
            raise DealError(f"points won must give one number per team ({t.num_teams})")

    @classmethod
    def from_deal(cls, deal: Deal, trump: int | None, leader: int = 1,
                  played: Iterable[int | str] = ()) -> Position:
        """The position after ``played`` (cards from the opening lead on), checked for legality."""
        state = PlayState(deal, trump, leader=leader, early_stop=False)
        for c in played:
            state.play(c)
        return cls.from_state(state)

    @classmethod
    def from_state(cls, state: PlayState) -> Position:
        """The position a PlayState has reached."""
        return cls(state.table, tuple(state.hands), state.trump, state.trick_leader,
                   tuple(state.current), tuple(state.points))

    @property
    def to_move(self) -> int:
        return (self.leader - 1 + len(self.current)) % self.table.players + 1

    def encoded(self) -> Encoded:
        """The kernel form (built once per position: the position is immutable and was
        checked when it was made, so ``encode`` checks nothing again)."""
        enc = self.__dict__.get("_encoded")
        if enc is None:
            rules = rules_for(self.table)
            hands = [[card_bit(c) for c in h] for h in self.hands]
            enc = encode(rules, hands, self.trump, self.leader - 1,
                         [card_bit(c) for _, c in self.current], self.points)
            object.__setattr__(self, "_encoded", enc)
        return enc

    def legal_cards(self) -> tuple[Card, ...]:
        """The distinct cards the seat to move may play."""
        return legal_cards(self.hands[self.to_move - 1], self.current[0][1].suit if self.current else None)


@dataclass
class Solver:
    """A solver with its own transposition table (kept between calls; at most ``table_mb``).

    Entries stay valid across positions and deals (keys are salted with the rules, trump
    and side), so one solver can serve a whole session. The kernels release the GIL; a lock
    keeps two Python threads from searching one table at once (give each thread its own
    Solver to search in parallel).

    ``shuffle`` (for tests): nonzero, every move list is searched in a random order drawn
    from it, so that a test can check that no answer depends on the move order.
    """

    table_mb: float = DEFAULT_TABLE_MB
    shuffle: int = 0
    _tt: np.ndarray | None = field(default=None, init=False, repr=False)
    nodes: int = field(default=0, init=False)
    # per cards left: the nodes there, then how its trick starts ended (kernels.OC_*), summed
    # over the searches since the last ``reset_counts`` (for the benches)
    counts: np.ndarray = field(default_factory=lambda: np.zeros((kernels.DEPTHS, 1 + kernels.OC_SIZE), np.int64),
                               init=False, repr=False, compare=False)
    epoch: int = field(default=0, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _running: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)  # W of the search now
    # the last ``value`` search's window (kernels.NW_*: its probes started and a hash of their
    # targets, for the tests and benches)
    last_window: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    # the cut-off memory (kernels.O_CUT) the last ``value`` or ``probe`` with ``keep_cuts`` left, until
    # the next ``clear``: the makeable estimate's leads of one deal start from each other's
    _cuts: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 < self.table_mb <= 64 * 1024:
            raise FiftySixError(f"transposition table size must be positive MB, not {self.table_mb}")

    def _table(self, rows: int = 1) -> np.ndarray:
        if self._tt is None or self._tt.shape[0] != rows:
            per_row = self.table_mb * 2 ** 20 / _ENTRY_BYTES / rows
            size = 1 << max(4, int(np.floor(np.log2(per_row))))
            # entry e: key at 2e, value at 2e + 1 (one cache line)
            self._tt = _zeroed_table(rows, 2 * size)
        return self._tt

    def clear(self) -> None:
        """Forget everything the table holds (cheaply: later keys no longer meet old ones, and
        entries of other epochs are free slots). The kernels see the epoch's low 11 bits, so
        every 2,048th clear zeroes the table: an entry that old would otherwise hold its slot
        as if it were new, and a search's nodes would depend on what ran long before."""
        self.epoch += 1
        self._cuts = None
        if self.epoch & 0x7FF == 0 and self._tt is not None:
            self._tt.fill(0)

    def reset_counts(self) -> None:
        """Zero ``nodes`` and ``counts``."""
        self.nodes = 0
        self.counts[:] = 0

    @property
    def trick_starts(self) -> int:
        """Trick starts entered since the last ``reset_counts`` (DDS's node count counts these)."""
        return int(self.counts[:, 1:].sum())

    def _count(self, W: np.ndarray) -> None:
        self.nodes += int(W[kernels.ST_NODES])
        self.counts[:, 0] += W[kernels.O_NDEPTH:kernels.O_NDEPTH + kernels.DEPTHS]
        self.counts[:, 1:] += W[kernels.O_OUTCOME:kernels.O_OUTCOME + kernels.DEPTHS * kernels.OC_SIZE].reshape(
            kernels.DEPTHS, kernels.OC_SIZE)

    def _work(self, enc: Encoded, side: int, window_bound: int | None = None,
              cut_key: int | None = None) -> np.ndarray:
        W = work_array(enc, side)
        if window_bound is not None and W[kernels.O_PTS:kernels.O_PTS + 64].max() > 0:
            W[kernels.P_WINB] = window_bound
        if cut_key is not None:
            W[kernels.P_CUTSET] = cut_key
        W[kernels.P_EPOCH] = self.epoch & 0x7FF
        if self.shuffle:
            W[kernels.P_SHUFFLE] = self.shuffle
        return W

    def _root(self, enc: Encoded, side: int) -> np.ndarray:
        rs = enc.root_state(side)
        rs[kernels.RS_SALT] ^= np.int64((self.epoch * 0x9E3779B97F4A7C15) % (1 << 63))
        return rs

    # --- the kernel drivers -------------------------------------------------------------

    def _load_cuts(self, W: np.ndarray, keep: bool) -> None:
        if keep and self._cuts is not None:
            W[kernels.O_CUT:kernels.O_CUT + kernels.NCUT] = self._cuts

    def _keep_cuts(self, W: np.ndarray, keep: bool) -> None:
        if keep:
            self._cuts = W[kernels.O_CUT:kernels.O_CUT + kernels.NCUT]  # (W is this search's own)

    def probe(self, enc: Encoded, side: int, need: int, max_nodes: int | None = None,
              max_seconds: float | None = None, stop: Stop = None, keep_cuts: bool = False,
              window_bound: int | None = None, cut_key: int | None = None) -> bool:
        """Can team ``side`` win ``need`` more points from ``enc``? ``keep_cuts``, ``window_bound``,
        ``cut_key``: as ``value``'s."""
        check_budget(max_nodes, max_seconds)
        with self._lock:
            tt = self._table()
            rs = self._root(enc, side)
            W = self._work(enc, side, window_bound, cut_key)
            self._load_cuts(W, keep_cuts)
            out = []
            self._running = W
            try:
                _drive(lambda: out.append(kernels.solve_kernel(W, tt[0], rs, need)), W, max_nodes, max_seconds, stop)
            finally:
                self._running = None
                self._count(W)
                self._keep_cuts(W, keep_cuts)
            return bool(out[-1])

    def value(self, enc: Encoded, side: int, lo: int = 0, hi: int | None = None,
              max_nodes: int | None = None, max_seconds: float | None = None,
              guess: int | None = None, stop: Stop = None, gallop: bool = True, keep_cuts: bool = False,
              window_bound: int | None = None, cut_key: int | None = None) -> int:
        """Points team ``side`` wins from ``enc`` on (excluding points already won).
        ``guess``: a likely value (its two proofs come first; any guess gives the same answer).
        ``gallop=False``: from the guess, step one point at a time (bridge, as DDS does).
        ``keep_cuts``: start from the cut-off memory (the card that last cut off, by the
        mover's holding and the trick so far: a move order only) that the last such search
        since ``clear`` left, and leave this one's for the next (for searches of one deal's
        sibling positions; any order gives the same answer).
        ``window_bound``: which bounds a trick start past a probe's window returns, for the
        later probes' table entries (``kernels.P_WINB``: bit 1 its leader's side's cashing when
        the target is reached, bit 2 when out of reach; None: the seats' default,
        ``kernels.window_bound``; tables whose cards are worth points only). Sound either way.
        ``cut_key``: what the cut-off memory's key holds besides the mover's cards
        (``kernels.P_CUTSET``; None: the seats' default, ``kernels.cut_key_parts``): a move
        order only.
        ``stop``: a callable looked at every ``WATCH_POLL`` seconds; True raises Cancelled."""
        check_budget(max_nodes, max_seconds)
        with self._lock:
            tt = self._table()
            rs = self._root(enc, side)
            W = self._work(enc, side, window_bound, cut_key)
            self._load_cuts(W, keep_cuts)
            window = np.zeros(kernels.NW_SIZE, np.int64)
            window[:4] = (lo, rs[kernels.RS_LEFT] if hi is None else hi, -1 if guess is None else max(0, guess),
                          0 if gallop else 1)
            self.last_window = window
            self._running = W
            try:
                _drive(lambda: kernels.value_kernel(W, tt[0], rs, window), W, max_nodes, max_seconds, stop)
            finally:
                self._running = None
                self._count(W)
                self._keep_cuts(W, keep_cuts)
            return int(window[0])

    def interrupt(self) -> None:
        """From another thread: make the search running now stop at its next node and look at
        its ``stop`` callable (which ends it with Cancelled if it says so, else it goes on
        where it was), at once rather than at the watcher's next look; nothing if none runs."""
        W = self._running
        if W is not None:
            _halt(W)


def _halt(W: np.ndarray) -> None:
    """Stop the search on ``W`` at its next node (from another thread): the halt word first,
    so that a budgeted card's search that the limit stops is not taken for past its budget."""
    W[kernels.ST_HALT] = 1
    W[kernels.ST_LIMIT] = 0


@dataclass(eq=False)
class _Watched:
    """A running search the watcher looks after: its work array, ``stop``, deadline (a
    ``perf_counter`` time, or None), and once it was stopped, why (an error ``stop`` raised)."""

    W: np.ndarray
    stop: Stop
    end: float | None
    main: bool = False  # on the main thread of a command (``interrupts.watching``): halted by Ctrl-C
    fired: bool = False
    error: BaseException | None = None


class _Watcher:
    """The process's one thread that looks at every running search's ``stop`` and deadline
    (every ``WATCH_POLL`` seconds, and at each deadline) and halts the search (``_halt``) once
    either says so, again at each look until the search ends (a halt that meets a budgeted
    card's limit being put back is not lost).

    So a search never pauses to look for itself: a pause made the search walk again from the
    root, and the budgeted move order (analyser/_kernels.py, past 10 M nodes) start over, the
    hardest 8 x 8 deals cost 43-45% more nodes with a ``stop`` than without (bench/RESULTS.md,
    "the stop path", 2026-12-06). Searches with neither a ``stop`` nor a time budget are not
    watched."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._items: set[_Watched] = set()
        self._thread: threading.Thread | None = None
        self._wake = float("inf")  # when the thread looks next (inf: it waits for a search)

    def start(self) -> None:
        """Start the thread unless it runs. It keeps the priority of the thread that starts it
        (Linux threads inherit niceness and SCHED_IDLE): the module starts it as it is
        imported, so that it is not a low-priority pool worker's (its first search's) and
        looks on time for every search."""
        with self._cond:
            self._start()

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, daemon=True, name="fiftysix-search-watch")
            self._thread.start()

    def add(self, item: _Watched) -> None:
        with self._cond:
            self._items.add(item)
            if self._thread is None or not self._thread.is_alive():
                self._start()
            elif self._wake > time.perf_counter() + WATCH_POLL or (item.end is not None and item.end < self._wake):
                self._cond.notify()  # (its next look is far off, or this deadline comes before it)

    def remove(self, item: _Watched) -> None:
        with self._cond:
            self._items.discard(item)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._items:
                    self._wake = float("inf")
                    self._cond.wait()
                now = time.perf_counter()
                ends = [x.end for x in self._items if x.end is not None and not x.fired]
                wait = min([WATCH_POLL] + [e - now for e in ends])
                if wait > 0:
                    self._wake = now + wait
                    self._cond.wait(wait)
                items = list(self._items)
            if interrupts.interrupted():  # Ctrl-C: the main thread's search returns, Python's handler runs
                for x in items:
                    if x.main:
                        _halt(x.W)
            for x in items:
                self._look(x)

    @staticmethod
    def _look(x: _Watched) -> None:
        if not x.fired:
            if x.end is not None and time.perf_counter() >= x.end:
                x.fired = True  # (the search's thread sees its time is up)
            elif x.stop is not None:
                try:
                    x.fired = bool(x.stop())
                except BaseException as e:  # noqa: BLE001 - raised again in the search's thread
                    x.error, x.fired = e, True
        if x.fired:
            _halt(x.W)


_watcher = _Watcher()
_watcher.start()
if hasattr(os, "register_at_fork"):
    def _new_watcher() -> None:
        global _watcher
        _watcher = _Watcher()  # a forked child has no watcher thread, and maybe a held lock
    os.register_at_fork(after_in_child=_new_watcher)


def _drive(call: Callable[[], object], W: np.ndarray, max_nodes: int | None, max_seconds: float | None, stop: Stop = None) -> None:
    """Run a kernel call under a node budget (the kernel's limit), a time budget and ``stop``.

    ``stop`` is looked at before the search starts; then the watcher thread looks at it and
    at the deadline while the search runs and halts the search once either says so
    (``_Watcher``): BudgetExceeded past the time budget or the node budget, Cancelled when
    ``stop`` says so. A search halted by ``Solver.interrupt`` whose ``stop`` says go on is
    called again and resumes (the transposition table keeps what was proved, and a value
    search keeps its window and resumes the probe it was stopped in). So a search with a
    ``stop`` or a time budget searches the same nodes as one with neither.
    """
    if max_seconds is not None:
        ensure_warm()  # compiling the kernels is not the search's time
    start = time.perf_counter()
    hard = 2 ** 62 if max_nodes is None else int(max_nodes)
    if stop is not None and stop():
        raise Cancelled("the search was cancelled")
    end = None if max_seconds is None else start + max_seconds
    watched = None
    main = interrupts.active() and threading.current_thread() is threading.main_thread()
    if stop is not None or end is not None or main:
        watched = _Watched(W, stop, end, main)
        _watcher.add(watched)
    try:
        while True:
            limit = hard
            if stop is not None:
                limit = min(limit, int(W[kernels.ST_NODES]) + _STOP_CHUNK)
            W[kernels.ST_LIMIT] = limit
            W[kernels.ST_ABORT] = 0
            if W[kernels.ST_HALT] != 0:
                W[kernels.ST_LIMIT] = 0  # (an interrupt as the search started: it looks at once)
            call()
            if W[kernels.ST_ABORT] == 0:
                return
            if W[kernels.ST_NODES] >= hard:
                raise BudgetExceeded(f"the search ran past its budget of {hard} nodes")
            if end is not None and time.perf_counter() >= end:
                raise BudgetExceeded(f"the search ran past its time budget of {max_seconds:g} s")
            if watched is not None and watched.fired:
                if watched.error is not None:
                    raise watched.error
                raise Cancelled("the search was cancelled")  # (stop said so to the watcher)
            if stop is not None and stop():
                raise Cancelled("the search was cancelled")
            W[kernels.ST_HALT] = 0  # (an interrupt, or a test's pause: the search goes on)
            if watched is not None:
                watched.fired = False
    finally:
        if watched is not None:
            _watcher.remove(watched)


_default: Solver | None = None
_pools: dict[float, Pool[Solver]] = {}
_pool_lock = threading.Lock()


def default_solver() -> Solver:
    """The process-wide solver (one transposition table, reused between calls)."""
    global _default
    if _default is None:
        _default = Solver(float(os.environ.get("FIFTYSIX_SOLVER_MB", DEFAULT_TABLE_MB)))
    return _default


def solver_pool(table_mb: float | None = None) -> Pool[Solver]:
    """The process's pool of solvers (``analyser.pool``) with tables of ``table_mb`` MB
    (default ``FIFTYSIX_SOLVER_MB`` or ``DEFAULT_TABLE_MB``): work over many positions in
    threads, each with its own solver, kept (their tables mapped) between runs. The bots,
    whose searches are small, keep small tables (one pool per size)."""
    mb = float(os.environ.get("FIFTYSIX_SOLVER_MB", DEFAULT_TABLE_MB)) if table_mb is None else float(table_mb)
    with _pool_lock:
        pool = _pools.get(mb)
        if pool is None:
            pool = _pools[mb] = Pool(lambda: Solver(mb), cancelled=(Cancelled,), interrupt=Solver.interrupt)
        return pool


def clear_solvers() -> None:
    """Make the process-wide solvers (the default one and the pool's free ones) forget what
    they hold; later searches start from empty tables."""
    with _pool_lock:
        pools = list(_pools.values())
    for s in ([_default] if _default is not None else []) + [s for p in pools for s in p.idle()]:
        with s._lock:
            s.clear()


def _check_side(pos: Position, side: int) -> int:
    if not 0 <= int(side) < pos.table.num_teams:
        raise FiftySixError(f"no team {side} at this table (teams 0..{pos.table.num_teams - 1})")
    return int(side)


# --- the public API -------------------------------------------------------------------------

def solve(pos: Position, target: int, side: int, *, max_nodes: int | None = None,
          max_seconds: float | None = None, solver: Solver | None = None, stop: Stop = None) -> bool:
    """Can team ``side`` take at least ``target`` points in all (points already won count)?"""
    side = _check_side(pos, side)
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        raise FiftySixError(f"the target must be a whole number of points, not {target!r:.40}")
    return reaches(pos.encoded(), int(target), side, solver=solver or default_solver(), max_nodes=max_nodes,
                   max_seconds=max_seconds, stop=stop)


def reaches(enc: Encoded, target: int, side: int, *, solver: Solver, max_nodes: int | None = None,
            max_seconds: float | None = None, stop: Stop = None, keep_cuts: bool = False,
            window_bound: int | None = None, cut_key: int | None = None) -> bool:
    """``solve`` on a kernel position (nothing checked: the caller's edge did it)."""
    # a need past what is left (or at most nothing) has the same answer as the nearest sane one
    need = max(-1, min(target - enc.won[side], enc.points_left() + 1))
    return solver.probe(enc, side, need, max_nodes, max_seconds, stop, keep_cuts, window_bound, cut_key)


def max_points(pos: Position, side: int | None = None, *, max_nodes: int | None = None,
               max_seconds: float | None = None, solver: Solver | None = None, stop: Stop = None) -> dict[int, int]:
    """Team index -> total points with best play by all (points already won included).

    Two teams: both values come from one search. With ``pairs`` (3-4 teams) each team is
    solved as "that team against all the others"; ``side`` limits the answer to one team.
    """
    s = solver or default_solver()
    enc = pos.encoded()
    left = enc.points_left()
    clock = Deadline(max_seconds)  # one budget for all the teams' searches
    if pos.table.num_teams == 2:
        first = 0 if side is None else _check_side(pos, side)
        v = s.value(enc, first, max_nodes=max_nodes, max_seconds=max_seconds, stop=stop)
        return {first: enc.won[first] + v, 1 - first: enc.won[1 - first] + left - v}
    teams = range(pos.table.num_teams) if side is None else [_check_side(pos, side)]
    return {t: enc.won[t] + clock.run(s.value, enc=enc, side=t, max_nodes=max_nodes, stop=stop) for t in teams}


def card_values(pos: Position, side: int | None = None, *, max_nodes: int | None = None,
                max_seconds: float | None = None, solver: Solver | None = None,
                hint: tuple[Card, int] | None = None, stop: Stop = None) -> dict[Card, int]:
    """For the seat to move: each legal card -> final points of its team (or ``side``) with
    best play after it. A card's cost is the best value minus its value.

    ``hint``: a card and its likely value (say, from the position after it), searched first;
    it only speeds the search up, the answer is the same with any hint or none."""
    s = solver or default_solver()
    clock = Deadline(max_seconds)  # one budget for all the cards, not one per card
    team = pos.table.team_of(pos.to_move) if side is None else _check_side(pos, side)
    enc = pos.encoded()
    cards = list(pos.legal_cards())
    last = None
    if hint is not None and hint[0] in cards:
        cards.remove(hint[0])
        cards.insert(0, hint[0])
        last = int(hint[1])
    got = child_values([enc.play(card_bit(card)) for card in cards], team, solver=s, guess=last,
                       max_nodes=max_nodes, clock=clock, stop=stop)
    out = dict(zip(cards, got))
    return {card: out[card] for card in pos.legal_cards()}


def child_values(children: Sequence[Encoded], team: int, *, solver: Solver, guess: int | None = None,
                 max_nodes: int | None = None, clock: Deadline | None = None, stop: Stop = None) -> list[int]:
    """The final points of ``team`` in each of ``children`` (the positions after each card
    of one seat), searched in order; ``guess``: the first one's likely value. Most cards are
    worth what the card before was (neighbours of a suit above all): that value's two
    proofs come first. ``clock``: one time budget for them all."""
    clock = clock or Deadline(None)
    out, last = [], guess
    for nxt in children:
        g = None if last is None else last - nxt.won[team]
        last = nxt.won[team] + clock.run(solver.value, enc=nxt, side=team, max_nodes=max_nodes, guess=g, stop=stop)
        out.append(last)
    return out


TRUMP_NAMES = tuple(format_trump(t) for t in TRUMPS)


def table(deal: Deal, leader: int = 1, *, max_nodes: int | None = None,
          max_seconds: float | None = None, solver: Solver | None = None,
          threads: int | None = None, stop: Stop = None) -> dict[str, dict[int, int]]:
    """"S","H","D","C","NT" -> team -> maximum points with that trump, ``leader`` leading.

    Without a ``solver`` the five trumps are solved in parallel threads (``threads``, by
    default one per trump up to the number of CPUs), each with its own table; the budget
    applies to each trump. A trump that runs past it raises BudgetExceeded.
    """
    done = table_rows(deal, leader, max_nodes=max_nodes, max_seconds=max_seconds, solver=solver,
                      threads=threads, stop=stop)
    out: dict[str, dict[int, int]] = {}
    for name, row in done.items():
        if row is None:
            raise BudgetExceeded(f"{name}: the search ran past its budget")
        out[name] = row
    return out


def table_rows(deal: Deal, leader: int = 1, *, max_nodes: int | None = None,
               max_seconds: float | None = None, solver: Solver | None = None,
               threads: int | None = None, on_row: Callable[[str, dict[int, int] | None], None] | None = None,
               stop: Stop = None) -> dict[str, dict[int, int] | None]:
    """Like ``table`` but a trump that runs past the budget gives None instead of raising
    (the time budget is one deadline for all five);
    ``on_row(name, row)`` is called (from the calling thread) as each trump is done."""
    names = TRUMP_NAMES
    check_budget(max_nodes, max_seconds)
    clock = Deadline(max_seconds)
    positions = [Position(deal.table, deal.hands, trump, leader) for trump in TRUMPS]

    def one(pos: Position, own: Solver | None, halted: Stop = None) -> dict[int, int] | None:
        look = stop if halted is None else (lambda: halted() or (stop is not None and stop()))
        try:
            return clock.run(max_points, pos=pos, max_nodes=max_nodes, solver=own, stop=look)
        except BudgetExceeded:
            return None

    out: dict[str, dict[int, int] | None] = {}
    workers = min(len(names), os.cpu_count() or 1) if threads is None else max(1, int(threads))
    if solver is not None or workers == 1:
        for name, pos in zip(names, positions):
            out[name] = one(pos, solver or default_solver())
            if on_row is not None:
                on_row(name, out[name])
        return out
    # (a worker's search stops with its run too: the caller left the loop, Ctrl-C say)
    for got in solver_pool().run(lambda w, pos: one(pos, w.resource, w.halted), positions, threads=workers,
                                 stop=stop):
        if got is None:  # only a run with a wait yields None
            continue
        i, row = got
        out[names[i]] = row
        if on_row is not None:
            on_row(names[i], row)
    if len(out) < len(names):  # stopped before every trump was solved
        raise Cancelled("the search was cancelled")
    return {name: out[name] for name in names}


@dataclass(frozen=True)
class DeclarerRow:
    """One row of the double-dummy table read the way Bridge Solver Online lays it out: a
    declaring team and the opening leader, and the most points that team takes in each
    trump with best play by all (None where the search ran past its budget)."""

    team: int
    leader: int
    points: dict[str, int | None]


def declarer_table(deal: Deal, leaders: Sequence[int] = (1,), *, max_nodes: int | None = None,
                   max_seconds: float | None = None, threads: int | None = None,
                   on_leader: Callable[[int, int], None] | None = None, stop: Stop = None) -> list[DeclarerRow]:
    """For each opening leader in ``leaders`` and each team as the declarers: the most points
    the team takes in each of the five trumps (``table_rows`` once per leader; both teams'
    figures come from the same searches). ``on_leader(k, n)`` is called as each leader is done."""
    table = deal.table
    rows: list[DeclarerRow] = []
    for k, leader in enumerate(leaders, start=1):
        table.check_seat(leader)
        done = table_rows(deal, leader, max_nodes=max_nodes, max_seconds=max_seconds, threads=threads, stop=stop)
        for team in range(table.num_teams):
            rows.append(DeclarerRow(team, leader, {name: None if row is None else int(row[team])
                                                   for name, row in done.items()}))
        if on_leader is not None:
            on_leader(k, len(leaders))
    return rows


def max_points_many(positions: Sequence[Position], side: int, *, threads: int | None = None,
                    max_nodes: int | None = None, stop: Stop = None) -> np.ndarray:
    """Total points of team ``side`` with best play, for many positions of one table set-up.

    The positions are handed out in order to ``threads`` workers of ``solver_pool()``, each
    solving from an empty table, so the answers (exact anyway) and node counts do not
    depend on the thread count. ``max_nodes`` bounds the search of each position; if any
    position runs past it the call raises BudgetExceeded. Returns int64[len(positions)]
    (points won so far included).
    """
    if not positions:
        return np.zeros(0, np.int64)
    tab = positions[0].table
    if any(p.table != tab for p in positions):
        raise FiftySixError("max_points_many needs positions of one table set-up")
    side = _check_side(positions[0], side)
    check_budget(max_nodes, None)

    def one(w: Worker[Solver], pos: Position) -> int:
        w.resource.clear()
        enc = pos.encoded()
        return enc.won[side] + w.resource.value(enc, side, max_nodes=max_nodes,
                                                stop=lambda: w.halted() or (stop is not None and stop()))

    got = solver_pool().map(one, positions, threads=threads, stop=stop)
    if any(v is NOT_DONE for v in got):
        raise Cancelled("the search was cancelled")
    return np.array(got, np.int64)


WARM_STEPS = ("the double-dummy search", "exact values", "many positions at once", "the dealer")
"""What ``warm_up`` prepares, in order (the steps a first run's progress names)."""
WARM_SHARES = (0.78, 0.05, 0.10, 0.07)
"""Each step's usual share of a first run's compile time (bench/RESULTS.md, first run), for progress bars."""


def warm_up(on_step: Callable[[int, str], None] | None = None) -> float:
    """Compile (or load from the cache) every kernel; returns the seconds it took.
    ``on_step(k, what)`` is called as step k (0-based) of WARM_STEPS begins."""
    from fiftysix.cards import random_deal
    step = on_step or (lambda k, what: None)
    t0 = time.perf_counter()
    tab = Table.make(4)
    deal = random_deal(tab, seed=1)
    pos = Position.from_deal(deal, 0, played=[deal.hands[0].cards[0]])
    small = Solver(1)
    step(0, WARM_STEPS[0])
    solve(pos, 20, 0, solver=small)
    step(1, WARM_STEPS[1])
    max_points(pos, solver=small)
    step(2, WARM_STEPS[2])
    ending = Position(tab, tuple(Hand(h.cards[:2]) for h in deal.hands), None)
    max_points_many([ending, ending], 0, threads=1)
    step(3, WARM_STEPS[3])
    from fiftysix.analyser.dealer import Dealer, View  # the dealer's counting kernels
    from fiftysix.constraints import Count, Either
    promise = Either((Count((0,), 1), Count((1,), 2)))  # an either/or: the kernels' every part
    Dealer(View(tab, 1, deal.hand(1), {2: promise, 3: Count((8, 9), 1, 3)})).sample_counts(4, 1)
    return time.perf_counter() - t0


@dataclass(frozen=True)
class WarmProgress:
    """Where this process's warm-up stands: step ``step`` (0-based) of ``steps``, named ``what``,
    ``seconds`` since it began; ``ready`` once done; ``error`` if it failed."""

    step: int
    steps: int
    what: str
    seconds: float
    ready: bool
    error: BaseException | None = None

    @property
    def fraction(self) -> float:
        """About how much of the work is done, 0..1 (the steps before this one, by their usual shares)."""
        return 1.0 if self.ready else sum(WARM_SHARES[:self.step])


_warm_lock = threading.Lock()  # held while warm_up runs
_start_lock = threading.Lock()  # held only to start the background thread
_warmed = threading.Event()
_warming: dict[str, Any] = {"step": 0, "t0": None, "error": None, "thread": None}


def _note_step(k: int, what: str) -> None:
    _warming["step"] = max(k, _warming["step"])  # loading after a child's compiling goes over the steps again


def ensure_warm() -> None:
    """``warm_up`` once per process; a caller in another thread meanwhile waits for it.

    Every search and command with a time budget calls this before its clock starts, so
    numba's compiling (a first run) or loading from its cache is never charged to a budget."""
    if _warmed.is_set():
        return
    with _warm_lock:
        if not _warmed.is_set():
            _warming["t0"] = _warming["t0"] or time.monotonic()
            warm_up(_note_step)
            _warmed.set()


def is_warm() -> bool:
    """True once ``ensure_warm`` has finished in this process."""
    return _warmed.is_set()


_COMPILE = ("import os, sys, threading\n"
            "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n"
            "os.nice(10)\n"  # below the server's pages: a page that wants a core gets it first
            "from fiftysix.analyser.solver import warm_up\n"
            "warm_up(lambda k, what: print(k, flush=True))\n")
"""A child process's script: compile the kernels into numba's cache, printing each step, at a
lower priority than the server; it stops when its parent goes (its stdin closes), so a server
stopped early leaves nothing running."""


def _compile_apart() -> None:
    """Compile (or load) the kernels in a child process, so that a first run's compiling holds
    no lock or GIL of this one (the server's pages stay quick meanwhile); its steps are this
    process's progress. Then this process loads them from the cache."""
    import subprocess
    import sys
    with subprocess.Popen([sys.executable, "-c", _COMPILE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip().isdigit():
                _warming["step"] = int(line)
    # whatever the child managed, this process's warm-up finishes the job (or raises its error)


def warm_in_background(apart: bool = False) -> None:
    """Start ``ensure_warm`` in a background thread (once per process) and return at once:
    a server calls this as it starts, so the kernels are ready by the first page that needs
    them; ``warm_progress`` says how far it got. ``apart``: compile in a child process first
    (a server does: numba's compiling holds the GIL for minutes on a first run)."""
    with _start_lock:
        if _warmed.is_set() or _warming["thread"] is not None:
            return

        def run() -> None:
            try:
                if apart:
                    _compile_apart()
                ensure_warm()
            except BaseException as e:  # noqa: BLE001 - handed to whoever waits (warm_progress)
                _warming["error"] = e

        _warming["t0"] = time.monotonic()
        thread = _warming["thread"] = threading.Thread(target=run, daemon=True, name="fiftysix-warm-up")
        thread.start()


def warm_progress() -> WarmProgress:
    """How far this process's warm-up has got (``ready`` at once when it is done)."""
    k = len(WARM_STEPS) if _warmed.is_set() else min(_warming["step"], len(WARM_STEPS) - 1)
    t0 = _warming["t0"]
    return WarmProgress(k, len(WARM_STEPS), WARM_STEPS[min(k, len(WARM_STEPS) - 1)],
                        0.0 if t0 is None else time.monotonic() - t0, _warmed.is_set(), _warming["error"])
