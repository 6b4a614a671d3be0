"""Play problems made ahead: while a learner works on one problem, the server makes the next.

An opening lead at 6 or 8 players is a simulation over ``LEAD_DEALS`` deals for every hand
tried (tens of seconds on a loaded machine), far past the 2 s a learner should wait. So the
Problems page asks a ``Larder`` to ``want`` the next problem of its table, kind and level while
the learner thinks; one thread a wish makes it with ``problem_sets.make_problem`` in a
background place of the server's heavy-job queue (``slot``: it runs only while no page's job
waits, and gives its place up within about a second when one does; what the solver found
stays in the process's caches, so the work picks up where it stopped). "Next problem" then
``take``s it at once, or shows the preparation's ``progress`` until it is ready. What scoring
each hand's opening lead gave is kept in the data file (``index``), so a server scores each of
the bots' hands once: the wait shrinks as the server runs, and a restart keeps it. Once a
learner visits the Problems page at a table, ``survey`` scores every hand's lead in the
background (after the wishes, which go first) and then fills the server's *stock* of opening
leads (``problem_sets.fill_stock``): deals the bots bid, each lead scored kept in the data file
at its level, whatever level was short, until each level holds ``STOCK_CAP``. Every learner of
the server draws from it (``ProblemStore.stocked``; each never meets one twice), so a lead at 6
or 8 players, which costs tens of seconds to make, is made once for the whole server, long
before a learner runs out of shipped ones.

A problem goes into the larder only once ``checked`` holds: the same gate a problem made while
the learner waits goes through (its data replays and agrees with itself, and a find-the-card
problem is re-solved by a solver of its own). Bounded: ``DEPTH`` problems ready a wish
(``DEPTHS`` where one takes long), each wish ends after ``WISH_SECONDS`` or ``TRIES`` empty
searches, and ``cancel``/``close`` stop it.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Protocol

from fiftysix.analyser.pool import lower_this_thread
from fiftysix.analyser.solver import BudgetExceeded, Cancelled, Solver
from fiftysix.cards import Table
from fiftysix.drills.problem_sets import (
    STOCK_CAP,
    ProblemStore,
    default_seconds,
    fill_stock,
    make_problem,
    score_leads,
)
from fiftysix.drills.problems import FIND_CARD, LEAD_LEVELS, OPENING_LEAD, consistency, verify
from fiftysix.drills.questions import Question
from fiftysix.errors import FiftySixError

DEPTH = 1
"""Problems kept ready for each table, kind and level ..."""
DEPTHS = {(6, OPENING_LEAD): 3, (8, OPENING_LEAD): 3}
"""... but more where making one takes long: by (players, kind). An opening lead at 6 or 8
players costs 17-50 s on a loaded server against about 10 s of a learner's thinking, so with
one ready every second new lead kept the learner waiting (bench/RESULTS.md, issue 45 part 2).
The wish making them still runs only in background places that give way to pages."""
AHEAD = 2
"""The Problems page starts making the next problem of a kind and level ahead once this many
known ones are left that the learner has not met ..."""
AHEAD_BY = {(6, OPENING_LEAD): 8, (8, OPENING_LEAD): 8}
"""... or, where making one takes long, this many (by players, kind): early enough that the
larder fills its ``DEPTHS`` while the learner works through the shipped ones."""
WISH_SECONDS = 600.0
"""A wish ends after this long (waiting for a place included) with or without a problem."""
TRIES = 3
"""... or after this many searches in a row that found nothing new."""
SURVEY = "lead-survey"
"""The key's kind of the background scoring of every hand's lead (``Larder.survey``)."""
SCORED, STOCKED = "every hand scored", "the stock is full"
"""How a survey ends when it has done all it can: without a stock to fill, or with it filled."""
SURVEY_SECONDS = 3600.0
"""A survey ends after this long (it starts again when a page asks)."""
AHEAD_SECONDS = {FIND_CARD: 30.0}
"""How long one search made ahead may take, by kind (none waits for it, so a find-the-card
search gets more than the 2 s of one made while the learner waits: at 8 players a position
with 3 or more tricks left can take a second or more to solve); other kinds: their default."""
IDLE_WAIT = 0.5
"""Seconds between two looks for a background place while none is free."""

Key = tuple[int, int, str, str, int]
"""(players, deck, teams, kind, level)."""


class Place(Protocol):
    """A place to run in: ``stop()`` turns True when the work should give it up."""

    def stop(self) -> bool: ...


Slot = Callable[[str, float], AbstractContextManager[Place | None]]
"""``slot(label, seconds)``: a context giving a place to run (an object with ``stop()``), or None
when there is none now (``ui.jobs.background_job``)."""


def key_of(table: Table, kind: str, level: int) -> Key:
    return table.players, table.deck, table.teams, kind, level


def ahead_of(table: Table, kind: str) -> int:
    """How many known problems of ``kind`` left to meet at ``table`` start the making ahead."""
    return AHEAD_BY.get((table.players, kind), AHEAD)


def checked(q: Question, solver: Solver | None = None) -> list[str]:
    """What is wrong with a problem before a learner sees it (empty: show it): its data replays
    and agrees with itself (``consistency``) and, for find-the-card, the solver re-solves every
    card (``verify``, a fresh transposition table). An opening lead's rates are the solver's
    own from the simulation; ``verify`` re-solves them in the tests and the bank command."""
    bad = consistency(q)
    if not bad and q.type == FIND_CARD:
        bad = verify(q, solver or Solver(16, shuffle=1))
    return bad


def _no_slot(label: str, seconds: float) -> AbstractContextManager[Place | None]:
    return nullcontext(_Always())


def _either(a: Callable[[], bool], b: Callable[[], bool]) -> Callable[[], bool]:
    return lambda: a() or b()


class _Always:
    def stop(self) -> bool:
        return False


@dataclass
class Wish:
    """The preparation of one table, kind and level: its progress, what it found, why it ended."""

    key: Key
    skip: set[str]
    fraction: float = 0.0
    words: str = "waiting for a free place on the server"
    started: float = field(default_factory=time.monotonic)
    done: bool = False
    note: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def report(self, fraction: float, words: str) -> None:
        self.fraction, self.words = fraction, words


class Larder:
    """Problems made ahead, for every learner of the server: ``want`` starts a preparation
    (one thread a table, kind and level; none while ``depth_of`` are ready), ``take`` hands one
    over, ``progress`` says how a preparation goes."""

    def __init__(self, slot: Slot | None = None, depth: int = DEPTH, seconds: float = WISH_SECONDS,
                 check: Callable[[Question], list[str]] = checked, index: ProblemStore | None = None,
                 depths: Mapping[tuple[int, str], int] | None = None, stock_cap: int = STOCK_CAP) -> None:
        self.slot = slot or _no_slot
        self.index = index
        """Where what scoring each hand's opening lead gave is kept (``make_problem``'s ``index``),
        with the server's stock of lead problems."""
        self.stock_cap = stock_cap
        """The survey goes on to fill the stock until each lead level holds this many (0: it does not)."""
        self.depth, self.seconds, self.check = depth, seconds, check
        self.depths = dict(DEPTHS if depths is None else depths)
        """Deeper larders by (players, kind) (``DEPTHS``); ``depth`` for the rest."""
        self._lock = threading.Lock()
        self._ready: dict[Key, list[Question]] = {}
        self._wishes: dict[Key, Wish] = {}
        self.rejected: list[tuple[str, list[str]]] = []
        """Problems the check turned down (id, why): none is ever handed out."""

    def want(self, table: Table, kind: str, level: int, skip: Iterable[str] = ()) -> bool:
        """Start making a problem of ``kind`` at ``level`` for ``table`` (not one of ``skip``, the
        problems the learner knows) unless one is ready or being made; True if one is ready."""
        if kind == OPENING_LEAD and level not in LEAD_LEVELS:
            return False
        key = key_of(table, kind, level)
        skip = set(skip)
        with self._lock:
            ready = [q for q in self._ready.get(key, []) if q.id not in skip]
            if len(ready) >= self.depth_of(key):
                return True
            wish = self._wishes.get(key)
            if wish is not None and not wish.done:
                wish.skip |= skip  # the learner's problems, for the searches still to come
                return bool(ready)
            wish = Wish(key, skip)
            self._wishes[key] = wish
        wish.thread = threading.Thread(target=self._prepare, args=(table, kind, level, wish), daemon=True,
                                       name=f"fiftysix-prepare-{table.players}-{kind}-{level}")
        wish.thread.start()
        return bool(ready)

    def depth_of(self, key: Key) -> int:
        """How many problems of ``key`` are kept ready."""
        return max(self.depth, self.depths.get((key[0], key[3]), self.depth))

    def survey(self, table: Table) -> None:
        """Start scoring the opening lead of every bots' hand of ``table`` in the background
        (``problem_sets.score_leads``; once a server, the scores being kept in the ``index``),
        then filling the server's stock of lead problems with deals the bots bid
        (``problem_sets.fill_stock``, up to ``stock_cap`` a level), so that a lead problem of
        any level is found at once later, by every learner of the server. It gives way to
        pages and to every ``want``; nothing happens if it runs or has finished (a stock that
        learners drew from since it was filled is filled again)."""
        key = (table.players, table.deck, table.teams, SURVEY, 0)
        with self._lock:
            wish = self._wishes.get(key)
        if wish is not None and wish.done and wish.note == STOCKED and not self._short(table):
            return  # filled, and no learner drew from it since
        with self._lock:
            wish = self._wishes.get(key)
            if wish is not None and (not wish.done or wish.note == SCORED):
                return
            wish = self._wishes[key] = Wish(key, set())
        wish.thread = threading.Thread(target=self._survey, args=(table, wish), daemon=True,
                                       name=f"fiftysix-survey-{table.players}")
        wish.thread.start()

    def _short(self, table: Table) -> bool:
        """Whether the stock at ``table`` lacks problems no learner was shown at some lead level."""
        if self.index is None or self.stock_cap <= 0:
            return False
        return min(self.index.stock_counts(table, unused=True).values()) < self.stock_cap

    def _wanting(self) -> bool:
        with self._lock:
            return any(not w.done and w.key[3] != SURVEY for w in self._wishes.values())

    def _survey(self, table: Table, wish: Wish) -> None:
        lower_this_thread()
        end = wish.started + SURVEY_SECONDS
        try:
            while not wish.cancel.is_set() and time.monotonic() < end:
                if self._wanting():  # a learner waits for a problem: that search goes first
                    wish.words = "waiting while a problem is made ahead"
                    wish.cancel.wait(IDLE_WAIT)
                    continue
                with self.slot(f"Scoring the bots' leads ahead ({table.players} players)", 60.0) as job:
                    if job is None:
                        wish.words = "waiting for a free place on the server (pages go first)"
                        wish.cancel.wait(IDLE_WAIT)
                        continue
                    halt = _either(_either(wish.cancel.is_set, job.stop), self._wanting)
                    done, total = score_leads(table, stop=halt, on_progress=wish.report, index=self.index)
                    full = done == total and (self.index is None or self.stock_cap <= 0 or fill_stock(
                        table, self.index, cap=self.stock_cap, stop=halt, on_progress=wish.report))
                if full:
                    wish.note = SCORED if self.index is None or self.stock_cap <= 0 else STOCKED
                    return
            wish.note = "cancelled" if wish.cancel.is_set() else "out of time"
        except FiftySixError as e:
            wish.note = f"stopped: {e}"
        finally:
            wish.done = True

    def take(self, table: Table, kind: str, level: int, skip: Iterable[str] = ()) -> Question | None:
        """A ready problem of ``kind`` at ``level`` for ``table`` that is not one of ``skip`` (and
        goes from the larder), or None."""
        skip = set(skip)
        with self._lock:
            ready = self._ready.get(key_of(table, kind, level), [])
            for i, q in enumerate(ready):
                if q.id not in skip:
                    return ready.pop(i)
        return None

    def progress(self, table: Table, kind: str, level: int) -> Wish | None:
        """The preparation of ``kind`` at ``level`` for ``table`` (None: none was asked)."""
        with self._lock:
            return self._wishes.get(key_of(table, kind, level))

    def ready(self, table: Table, kind: str, level: int) -> int:
        with self._lock:
            return len(self._ready.get(key_of(table, kind, level), []))

    def cancel(self, table: Table, kind: str, level: int, wait: bool = True) -> None:
        """Stop the preparation of ``kind`` at ``level`` (a page makes one itself, say)."""
        with self._lock:
            wish = self._wishes.get(key_of(table, kind, level))
        if wish is not None:
            wish.cancel.set()
            if wait and wish.thread is not None and wish.thread is not threading.current_thread():
                wish.thread.join()

    def close(self) -> None:
        """Stop every preparation and wait for them (the problems ready stay; a later ``want``
        starts again, and what the solver found is kept in the process's caches)."""
        with self._lock:
            wishes = list(self._wishes.values())
        for w in wishes:
            w.cancel.set()
        for w in wishes:
            if w.thread is not None and w.thread is not threading.current_thread():
                w.thread.join()

    # --- the preparing thread ----------------------------------------------------------------

    def _prepare(self, table: Table, kind: str, level: int, wish: Wish) -> None:
        lower_this_thread()  # the server's solver niceness: its pages' scripts go first
        end = wish.started + self.seconds
        empty = 0
        rng = random.Random()
        try:
            while not wish.cancel.is_set() and time.monotonic() < end and empty < TRIES:
                with self._lock:
                    have = {q.id for q in self._ready.get(wish.key, [])}
                    if len([i for i in have if i not in wish.skip]) >= self.depth_of(wish.key):
                        wish.note = "ready"
                        return
                    skip = wish.skip | have | {i for i, _ in self.rejected}
                limit = min(AHEAD_SECONDS.get(kind, default_seconds(table, kind)), max(1.0, end - time.monotonic()))
                with self.slot(f"Making a problem ahead ({table.players} players, {kind}, level {level})",
                               limit + 5) as job:
                    if job is None:
                        wish.words = "waiting for a free place on the server (pages go first)"
                        wish.cancel.wait(IDLE_WAIT)
                        continue
                    try:
                        q = make_problem(table, level, kind, rng.randrange(10**6), skip=skip, max_seconds=limit,
                                         stop=_either(wish.cancel.is_set, job.stop), on_progress=wish.report,
                                         index=self.index)
                    except (Cancelled, BudgetExceeded):
                        continue  # gave its place to a page (or was cancelled): what it found is kept
                if q is None:
                    empty += 1
                    continue
                bad = self.check(q)
                with self._lock:
                    if bad:
                        self.rejected.append((q.id, bad))
                        empty += 1
                        continue
                    self._ready.setdefault(wish.key, []).append(q)
                empty = 0
            wish.note = ("cancelled" if wish.cancel.is_set() else
                         "no new problem turned up" if empty >= TRIES else "out of time")
        except FiftySixError as e:
            wish.note = f"stopped: {e}"
        finally:
            wish.done = True
