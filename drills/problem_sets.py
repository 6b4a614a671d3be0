"""Play problems for a learner: the starter sets, problems made on demand, levels and scores.

* The starter sets (data/problems/problems-<players>.json, in the bank format) were made by
  the engine from the bots' hands and verified by the solver when they were made
  (scripts/problem_data.py); beside them, what scoring each shipped hand's opening lead gave
  (data/problems/leads-<players>.json, ``shipped_leads``), so a fresh server scores no
  shipped hand's lead unless it holds a problem of the level asked.
* ``make_problem`` makes a new problem while the learner waits: it looks for one of the
  wanted kind and level in the shipped bots' hands (``drills.problem_hands``), with progress,
  a stop and a time limit. For find-the-card it solves only the positions that the shipped
  index (data/problems/positions-<players>.json, ``shipped_positions``) names for that level,
  each solved afresh before it is handed over: at 8 players one problem of level 4 lies among
  about 360 positions that could be one, so scanning for it took far past the 2 s. A problem once shown is kept (``ProblemStore``) so that, missed, it
  can come back.
* Past the shipped hands, opening leads come from deals the bots bid (``next_auction``); every
  lead the server scores, at whatever level, goes into its stock in the data file
  (``ProblemStore.stock``, filled in the background from a learner's first visit by
  ``fill_stock``), which ``make_problem`` and the page draw from before they make one.
* Answers go to the progress store under the idea ``problem:<id>`` (``Question.template``), so
  missed problems come back through the same FSRS schedule as the bidding ideas.
* ``level_scores`` gives a learner's score per level; level 1 is open, and each next level
  opens once the one below is mostly solved (``UNLOCK_SOLVED`` problems, ``UNLOCK_SHARE`` right).
"""
from __future__ import annotations

import functools
import hashlib
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

from fiftysix import shipped
from fiftysix.analyser.solver import BudgetExceeded, Cancelled, Deadline
from fiftysix.cards import Table
from fiftysix.drills import store
from fiftysix.drills.banks import Bank, loads
from fiftysix.drills.problem_hands import PROBLEMS, shipped_hands
from fiftysix.drills.problems import (
    FIND_CARD,
    LEAD_LEVELS,
    LEVEL_OF_SCORE,
    LEVELS,
    OPENING_LEAD,
    PROBLEM_TYPES,
    Budget,
    LeadScoring,
    ProblemError,
    find_card_at,
    lead_problem,
    level_of,
    levels_at,
    open_positions,
    scan_record,
    tricks_left_after,
)
from fiftysix.drills.questions import Question
from fiftysix.errors import FiftySixError
from fiftysix.records import Record

UNLOCK_SOLVED = 5
"""Problems of a level a learner must have solved before the next level opens."""
UNLOCK_SHARE = 0.7
"""... and the share of their answers at that level that must be right."""
MAKE_SECONDS = 2.0
"""How long ``make_problem`` may look for a find-the-card problem by default."""
LEAD_SECONDS = {4: 30.0, 6: 90.0, 8: 240.0}
"""How long it may take for an opening lead, by table size: each hand tried is a simulation over
``LEAD_DEALS`` deals (about 0.5 s at 4 players, 3-15 s at 6 and 15-90 s at 8 on a loaded
two-core machine), and only some hands give a problem of the level asked."""
SOURCE = "play problems"
"""The ``source`` of the answers the Problems page stores."""


def starter_name(table: Table) -> str:
    return f"problems-{table.players}x{table.deck}{'-pairs' if table.teams == 'pairs' else ''}.json"


def leads_name(table: Table) -> str:
    """The file of the shipped hands' opening leads, scored (``shipped_leads``)."""
    return "leads-" + starter_name(table).removeprefix("problems-")


@functools.lru_cache(maxsize=8)
def _starter(table: Table) -> tuple[Question, ...]:
    f = shipped.data_file(PROBLEMS, starter_name(table))
    return tuple(loads(f.read_text(encoding="utf-8"), starter_name(table)).questions) if f.is_file() else ()


def starter_problems(table: Table) -> list[Question]:
    """The shipped, solver-verified problems for ``table`` (empty where none ship); read once a process."""
    return list(_starter(table))


KEY_CHARS = 16
"""The leads' scores file names each hand by the first this many hex digits of its ``lead_key``."""


def _shipped_json(name: str, version_key: str, version: int) -> dict | None:
    """The shipped data file ``name`` of data/problems/ as a JSON object, or None where none
    ships, it does not read as one, or it was made with another ``version`` (its ``version_key``)."""
    f = shipped.data_file(PROBLEMS, name)
    if not f.is_file():
        return None
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or int(data.get(version_key, -1)) != version:
            return None
    except (ValueError, TypeError):
        return None
    return data


@functools.lru_cache(maxsize=8)
def shipped_leads(table: Table) -> dict[str, Question | None | int]:
    """What scoring the opening lead of each bots' hand shipped for ``table`` gave, shipped with
    it (data/problems/leads-<table>.json, made by scripts/problem_data.py), by the first
    ``KEY_CHARS`` digits of the hand's ``lead_key``: the problem (one of the starter set's),
    None (the hand's lead is no problem), or the level of a problem the starter set does not
    hold (kept small: the hand is scored again only when a problem of that level is wanted).
    So a fresh server runs no simulation for a shipped hand's lead unless it gives a problem
    of the level asked. Empty where none ship or the file was made with another ``LEAD_SEED``."""
    data = _shipped_json(leads_name(table), "lead_seed", LEAD_SEED)
    if data is None:
        return {}
    try:
        scores = dict(data["scores"])
    except (ValueError, TypeError, KeyError):
        return {}
    problems = {q.id: q for q in _starter(table) if q.type == OPENING_LEAD}
    out: dict[str, Question | None | int] = {}
    for k, v in scores.items():
        if v is None or (isinstance(v, int) and v in LEAD_LEVELS):
            out[str(k)] = v
        elif isinstance(v, str) and v in problems:
            out[str(k)] = problems[v]
    return out


# --- problems kept for a learner --------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS problems (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    players INTEGER NOT NULL,
    deck INTEGER NOT NULL,
    teams TEXT NOT NULL,
    level INTEGER NOT NULL,
    question TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lead_stock (
    id TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    deck INTEGER NOT NULL,
    teams TEXT NOT NULL,
    level INTEGER NOT NULL,
    question TEXT NOT NULL,
    made_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lead_stock_level ON lead_stock (players, deck, teams, level);
CREATE TABLE IF NOT EXISTS lead_auctions (
    players INTEGER NOT NULL,
    deck INTEGER NOT NULL,
    teams TEXT NOT NULL,
    seed INTEGER NOT NULL,
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (players, deck, teams, seed)
);
CREATE TABLE IF NOT EXISTS scored_leads (
    key TEXT PRIMARY KEY,
    players INTEGER NOT NULL,
    deck INTEGER NOT NULL,
    teams TEXT NOT NULL,
    question TEXT,
    scored_at TEXT NOT NULL
);
"""


class ProblemStoreError(FiftySixError):
    """The problems kept in the data file cannot be read or written."""


class ProblemStore(store.Store):
    """Problems made on demand, kept in the app's data file so that a missed one can come back."""

    kind = "problems"
    error = ProblemStoreError

    def _create(self, con: sqlite3.Connection) -> None:
        con.executescript(_SCHEMA)

    @staticmethod
    def _readable(con: sqlite3.Connection) -> bool:
        con.execute("SELECT 1 FROM problems LIMIT 1").fetchall()
        return True

    def add(self, q: Question) -> None:
        """Keep a problem (once: a problem already kept stays as it was)."""
        c = q.context
        with self._transaction() as con:
            con.execute("INSERT OR IGNORE INTO problems (id, type, players, deck, teams, level, question, added_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (q.id, q.type, c.players, c.deck, c.teams, level_of(q), json.dumps(q.to_dict()),
                         datetime.now(UTC).isoformat()))

    def scored_lead(self, key: str) -> tuple[bool, Question | None]:
        """(whether the bots' hand of ``key`` had its opening lead scored, the problem it gave or None)."""
        try:
            with self._connect() as con:
                row = con.execute("SELECT question FROM scored_leads WHERE key=?", (key,)).fetchone()
        except ProblemStoreError:
            return False, None  # an unreadable index is no index: the lead is scored again
        if row is None:
            return False, None
        try:
            return True, (Question.from_dict(json.loads(row[0])) if row[0] is not None else None)
        except (FiftySixError, ValueError):
            return False, None

    def keep_scored_lead(self, key: str, table: Table, q: Question | None) -> None:
        """Remember what scoring the opening lead of the bots' hand of ``key`` gave (a problem or None)."""
        with self._transaction() as con:
            con.execute("INSERT OR REPLACE INTO scored_leads (key, players, deck, teams, question, scored_at)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (key, table.players, table.deck, table.teams,
                         None if q is None else json.dumps(q.to_dict()), datetime.now(UTC).isoformat()))

    # --- the stock of opening leads: every lead problem the server made, for every learner ---

    def stock(self, q: Question) -> None:
        """Keep an opening lead problem the server made (from any hand, at any level) in the
        stock every learner of the server draws from (once: one already kept stays)."""
        c = q.context
        with self._transaction() as con:
            con.execute("INSERT OR IGNORE INTO lead_stock (id, players, deck, teams, level, question, made_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (q.id, c.players, c.deck, c.teams, level_of(q), json.dumps(q.to_dict()),
                         datetime.now(UTC).isoformat()))

    def stocked(self, table: Table, level: int, skip: Iterable[str] = ()) -> Question | None:
        """The oldest problem of the stock at ``table`` and ``level`` whose id is not in ``skip``
        (and that reads back as a problem of that table and level), or None. A row that does
        not read back (a damaged or hand-edited file) is passed over, never shown."""
        skip = set(skip)
        try:
            with self._connect() as con:
                rows = con.execute("SELECT id, question FROM lead_stock WHERE players=? AND deck=? AND teams=?"
                                   " AND level=? ORDER BY made_at, id",
                                   (table.players, table.deck, table.teams, level)).fetchall()
        except ProblemStoreError:
            return None  # an unreadable stock is an empty one: the engine makes the problem
        for qid, text in rows:
            if qid in skip:
                continue
            try:
                q = Question.from_dict(json.loads(text))
            except (FiftySixError, ValueError, TypeError, AttributeError):
                continue
            c = q.context
            if (q.id == qid and q.type == OPENING_LEAD and (c.players, c.deck, c.teams) ==
                    (table.players, table.deck, table.teams) and level_of(q) == level):
                return q
        return None

    def stock_counts(self, table: Table, unused: bool = False) -> dict[int, int]:
        """How many opening lead problems the stock holds at ``table``, by level (``unused``:
        only those no learner of the server was shown yet, which are not in ``problems``)."""
        out = dict.fromkeys(LEAD_LEVELS, 0)
        fresh = " AND id NOT IN (SELECT id FROM problems)" if unused else ""
        try:
            with self._connect() as con:
                rows = con.execute("SELECT level, COUNT(*) FROM lead_stock WHERE players=? AND deck=? AND teams=?"
                                   f"{fresh} GROUP BY level", (table.players, table.deck, table.teams)).fetchall()
        except ProblemStoreError:
            return out
        for lv, n in rows:
            if lv in out:
                out[lv] = int(n)
        return out

    def claim_auction(self, table: Table, first: int) -> int:
        """The seed of the next deal the bots bid for a lead at ``table`` on this server (from
        ``first``), claimed in one transaction, so that no two processes of the server (nor a
        restart) bid and score the same deal again."""
        with self._transaction() as con:
            (top,) = con.execute("SELECT MAX(seed) FROM lead_auctions WHERE players=? AND deck=? AND teams=?",
                                 (table.players, table.deck, table.teams)).fetchone()
            seed = max(first, (top or 0) + 1)
            con.execute("INSERT INTO lead_auctions (players, deck, teams, seed, claimed_at) VALUES (?, ?, ?, ?, ?)",
                        (table.players, table.deck, table.teams, seed, datetime.now(UTC).isoformat()))
        return seed

    def problems(self, table: Table | None = None) -> list[Question]:
        """The problems kept (for ``table`` only, when given), oldest first."""
        sql = "SELECT question FROM problems"
        args: tuple[object, ...] = ()
        if table is not None:
            sql, args = sql + " WHERE players=? AND deck=? AND teams=?", (table.players, table.deck, table.teams)
        with self._connect() as con:
            rows = con.execute(sql + " ORDER BY added_at, id", args).fetchall()
        out = []
        for (text,) in rows:
            try:
                out.append(Question.from_dict(json.loads(text)))
            except (FiftySixError, ValueError):
                continue  # a problem this version cannot read is skipped, not fatal
        return out


# --- levels and scores --------------------------------------------------------------------------

@dataclass(frozen=True)
class LevelScore:
    """A learner's record at one level: problems tried and solved (right at least once),
    answers and right answers."""

    level: int
    tried: int = 0
    solved: int = 0
    answers: int = 0
    right: int = 0

    @property
    def share(self) -> float:
        return self.right / self.answers if self.answers else 0.0

    @property
    def mostly_solved(self) -> bool:
        """Enough to open the next level: ``UNLOCK_SOLVED`` problems solved, ``UNLOCK_SHARE`` right."""
        return self.solved >= UNLOCK_SOLVED and self.share >= UNLOCK_SHARE


def level_scores(history, table: Table) -> dict[int, LevelScore]:
    """Each level's score from a learner's review history (``ProgressStore.history()``),
    counting the play problems at this table's size."""
    out = {lv: LevelScore(lv) for lv in LEVELS}
    if history is None or len(history) == 0:
        return out
    df = history[history["type"].isin(PROBLEM_TYPES) & (history["players"] == table.players)]
    for lv in LEVELS:
        rows = df[df["family"] == f"level-{lv}"]
        if rows.empty:
            continue
        solved = rows[rows["correct"]]["question_id"].nunique()
        out[lv] = LevelScore(lv, int(rows["question_id"].nunique()), int(solved), len(rows),
                             int(rows["correct"].sum()))
    return out


def open_levels(scores: Mapping[int, LevelScore]) -> list[int]:
    """The levels open to the learner: level 1, and each level whose level below is mostly solved."""
    out = [LEVELS[0]]
    for lv in LEVELS[1:]:
        if not scores[lv - 1].mostly_solved:
            break
        out.append(lv)
    return out


# --- what to ask next ---------------------------------------------------------------------------

def due_problems(cards: Mapping, known: Iterable[Question], now: datetime | None = None) -> list[Question]:
    """The known problems whose idea is due in the learner's FSRS ``cards``, most overdue first."""
    now = now or datetime.now(UTC)
    due = [q for q in known if q.template in cards and cards[q.template].due <= now]
    return sorted(due, key=lambda q: (cards[q.template].due, q.id))


def pick_problem(known: Sequence[Question], cards: Mapping, level: int, kinds: Sequence[str] = PROBLEM_TYPES,
                 now: datetime | None = None, seed: int | None = None,
                 skip: Iterable[str] = ()) -> Question | None:
    """The next problem from those ``known``: a due one of the learner's open ``level`` or below
    first, else one of ``level`` never answered (a random one, by ``seed``); None when there is none."""
    skip = set(skip)
    pool = [q for q in known if q.type in kinds and q.id not in skip]
    due = [q for q in due_problems(cards, pool, now) if level_of(q) <= level]
    if due:
        return due[0]
    fresh = [q for q in pool if level_of(q) == level and q.template not in cards]
    return random.Random(seed).choice(fresh) if fresh else None


# --- made on demand -----------------------------------------------------------------------------

def default_seconds(table: Table, kind: str) -> float:
    """How long ``make_problem`` looks for a problem of ``kind`` at ``table`` unless told."""
    return MAKE_SECONDS if kind == FIND_CARD else LEAD_SECONDS.get(table.players, max(LEAD_SECONDS.values()))


def has_hands(table: Table) -> bool:
    """Whether bots' hands ship for ``table``, so that problems can be made there on demand."""
    return bool(shipped_hands(table))


Progress = Callable[[float, str], object]


def make_problem(table: Table, level: int, kind: str = FIND_CARD, seed: int = 0, *,
                 skip: Iterable[str] = (), max_seconds: float | None = None,
                 stop: Callable[[], bool] | None = None, on_progress: Progress | None = None,
                 index: ProblemStore | None = None) -> Question | None:
    """A new problem of ``kind`` at ``level`` from the bots' hands shipped for ``table`` (the
    hands tried in an order drawn from ``seed``; problems whose id is in ``skip`` are passed
    over). None when none turned up within ``max_seconds`` (default ``MAKE_SECONDS`` for
    find-the-card, ``LEAD_SECONDS`` of its table size for an opening lead); Cancelled when ``stop()`` says so.
    ``on_progress(fraction, words)`` is called as it goes. ``index``: a store that keeps what
    scoring each hand's opening lead gave, so that a server scores each hand once, not once a
    process (``lead_key``)."""
    if level not in LEVELS:
        raise ProblemError(f"levels run from {LEVELS[0]} to {LEVELS[-1]}, not {level}")
    if kind not in PROBLEM_TYPES:
        raise ProblemError(f"unknown kind of problem {kind!r}: use {' or '.join(PROBLEM_TYPES)}")
    if kind == OPENING_LEAD and level not in LEAD_LEVELS:
        raise ProblemError(f"opening lead problems run from level {LEAD_LEVELS[0]} to {LEAD_LEVELS[-1]}")
    hands = shipped_hands(table)
    if not hands:
        raise ProblemError(f"no bots' hands are shipped for {table.players} players with {table.deck} cards"
                           f"{' and pairs' if table.teams == 'pairs' else ''}: play problems exist for"
                           " 4, 6 and 8 players with the usual deck")
    order = list(range(len(hands)))
    random.Random(seed).shuffle(order)
    limit = max_seconds if max_seconds is not None else default_seconds(table, kind)
    clock = Deadline(limit)
    skip = set(skip)
    report = on_progress or (lambda f, w: None)
    t0 = time.perf_counter()
    if kind == OPENING_LEAD:
        return _find_lead(table, hands, order, level, skip, clock, stop, report, index)
    for n, i in enumerate(order):
        if stop is not None and stop():
            raise Cancelled("making a problem was cancelled")
        if clock.end is not None and time.perf_counter() >= clock.end:
            return None
        rec = hands[i]
        share = (time.perf_counter() - t0) / limit
        report(min(0.99, share), f"looking in the bots' hand {n + 1} ({rec.contract})")
        try:
            q = _find_in_hand(table, i, rec, level, skip, Budget(per_position=limit / 4, deadline=clock, stop=stop),
                              limit / 8)
            if q is not None:
                return q
        except BudgetExceeded:
            if _past(clock):
                return None
    return None


PEEK_DEALS = 16
"""An opening lead is first scored on this many of its deals; a hand whose lead does not look
like a problem of the level asked there is put aside (its deals kept) and finished only once
the other hands have had their look (0: every hand is scored in full in turn)."""


def _find_lead(table: Table, hands: Sequence, order: Sequence[int], level: int, skip: set[str], clock: Deadline,
               stop: Callable[[], bool] | None, report: Progress, index: ProblemStore | None) -> Question | None:
    """An opening lead problem of ``level`` from the bots' ``hands`` (tried in ``order``): hands
    whose lead was scored before (in this process or the ``index``) first, then a look at each
    other hand's first ``PEEK_DEALS`` deals, every deal scored kept; the hands whose look
    agrees with the level asked are finished first, the others after. Every problem it
    returns was scored on all its deals, whatever the look said."""
    t0 = time.perf_counter()
    limit = (clock.end - t0) if clock.end is not None else None
    halt = (lambda: stop is not None and stop() or _past(clock))

    def progress(words: str) -> None:
        report(min(0.99, (time.perf_counter() - t0) / limit) if limit else 0.0, words)

    def wanted(q: Question | None) -> bool:
        return q is not None and q.id not in skip and level_of(q) == level

    if index is not None and (q := index.stocked(table, level, skip)) is not None:
        return q  # made before on this server (for any learner, at any time): at once
    for i in order:  # what is known already costs nothing
        key = (table, i)
        _recall_lead(table, i, hands[i], index)
        if key in _leads_made and wanted(_leads_made[key]):
            return _leads_made[key]
    # a hand known to give a problem of another level is not scored; one known to give this level first
    todo = [i for i in order if (table, i) not in _leads_made and _lead_levels.get((table, i), level) == level]
    todo.sort(key=lambda i: (table, i) not in _lead_levels)
    later: list[int] = []
    for first in (True, False):  # a look at every hand, finishing those that look right; then the rest
        for n, i in enumerate(todo if first else later):
            if halt():
                if stop is not None and stop():
                    raise Cancelled("making a problem was cancelled")
                return None
            rec = hands[i]
            scoring = _lead_scoring.get((table, i)) or _lead_scoring.setdefault(
                (table, i), LeadScoring(rec, seed=LEAD_SEED))
            if first and PEEK_DEALS and (table, i) not in _lead_levels:
                if len(scoring.made) < PEEK_DEALS:
                    progress(f"a first look at the lead of the bots' hand {n + 1} ({rec.contract})")
                    if not scoring.run(stop=halt, upto=PEEK_DEALS):
                        continue  # stopped: the top of the loop says how
                if not scoring.done and scoring.guess() != level:
                    later.append(i)
                    continue
            words = f"scoring each lead of the bots' hand {n + 1} ({rec.contract})"
            progress(words)
            if not scoring.run(stop=halt, on_deal=partial(_deal_done, progress, words)):
                continue
            q = _leads_made[(table, i)] = scoring.problem()
            _lead_scoring.pop((table, i), None)
            _keep(index, rec, table, q)
            if wanted(q):
                return q
    if not hands:
        return None
    return _lead_from_auctions(table, hands[0].system, level, wanted, halt, stop, progress, index)


AUCTION_FIRST = 1_000_000
"""The first seed of the deals a server has the bots bid for a new opening lead problem once
the shipped hands give none of the level asked (the shipped data's bid-only deals, made by
scripts/problem_data.py, use seeds from 1001 on)."""
AUCTION_TRIES = 200
"""Bid-only deals kept in memory a table, each with what scoring its lead gave."""
_auction_made: dict[Table, dict[int, Question | None]] = {}
_auction_next: dict[Table, int] = {}
_auction_scoring: dict[Table, tuple[int, Record, LeadScoring]] = {}
_auction_lock = threading.Lock()
"""Guards the auction seeds counted in memory and the scoring taken up later (the page's
search made ahead and the background stock may both bid deals)."""


def _lead_from_auctions(table: Table, system: str, level: int, wanted: Callable[[Question | None], bool],
                        halt: Callable[[], bool], stop: Callable[[], bool] | None,
                        progress: Callable[[str], None], index: ProblemStore | None) -> Question | None:
    """Past every shipped hand: a new opening lead problem of ``level`` from a deal the bots
    only bid (``next_auction``, one deal after another, so a scoring stopped by the limit is
    taken up by the next request). Each deal scored is kept (in memory, and in the ``index``
    with its problem in the server's stock), so a later request for another level finds it at
    once. None at the limit; Cancelled when ``stop()`` says so."""
    made = _auction_made.setdefault(table, {})
    for q in made.values():
        if wanted(q):
            return q
    while True:
        finished, q = next_auction(table, system, {level}, halt, progress, index)
        if not finished:
            if stop is not None and stop():
                raise Cancelled("making a problem was cancelled")
            return None
        if wanted(q):
            return q


def next_auction(table: Table, system: str, levels: set[int], halt: Callable[[], bool],
                 progress: Callable[[str], None], index: ProblemStore | None) -> tuple[bool, Question | None]:
    """Have the bots bid one more deal for an opening lead at ``table`` and score its lead:
    (True, the problem or None) once done; (False, None) when ``halt()`` stopped it (the
    scoring is taken up by the next call). The seeds run from ``AUCTION_FIRST``, claimed in the
    ``index`` when there is one (so a restart or another process of the server goes on with the
    next deal, not the same ones again), else counted in memory. A deal whose kinds of lead
    cannot give any of ``levels`` is passed over unscored (exact, as scripts/problem_data.py):
    (True, None). A lead scored is kept (``_keep``: its problem, of whatever level, in the stock)."""
    from fiftysix.analyser.solver import Position
    from fiftysix.drills.problem_hands import bot_auction
    from fiftysix.drills.problems import LEAD_TRICKS, card_groups, level_for
    made = _auction_made.setdefault(table, {})
    if halt():
        return False, None
    with _auction_lock:
        pending = _auction_scoring.pop(table, None)
    if pending is not None:
        seed, rec, scoring = pending
    else:
        seed = _claim(table, index)
        progress(f"the bots bid a new deal (seed {seed})")
        try:
            rec = bot_auction(table, system, seed)
        except FiftySixError:
            return True, None  # passed out: the next deal
        assert rec.contract is not None
        if index is not None:
            known, q = index.scored_lead(lead_key(rec))
            if known:
                _keep_auction(made, seed, q)
                _keep(index, rec, table, q)
                return True, q
        groups = len(card_groups(Position(table, tuple(rec.deal.hands), rec.contract.trump, rec.leader)))
        reach = {level_for(LEAD_TRICKS, alike, far) for alike in range(1, groups + 1) for far in (0, 1, 2)}
        if not reach & levels:
            return True, None  # too few kinds of lead for these levels: not scored
        scoring = LeadScoring(rec, seed=LEAD_SEED)
    words = f"scoring each lead of a deal the bots bid ({rec.contract}, seed {seed})"
    progress(words)
    if not scoring.run(stop=halt, on_deal=partial(_deal_done, progress, words)):
        with _auction_lock:
            _auction_scoring.setdefault(table, (seed, rec, scoring))  # taken up next time
        return False, None
    q = scoring.problem()
    _keep_auction(made, seed, q)
    _keep(index, rec, table, q)
    return True, q


STOCK_CAP = 40
"""The server fills its stock of opening leads in the background (``fill_stock``) until every
lead level holds this many problems at a table (a lead scored past the cap still goes in)."""


def fill_stock(table: Table, index: ProblemStore, *, cap: int = STOCK_CAP, stop: Callable[[], bool] | None = None,
               on_progress: Progress | None = None) -> bool:
    """Fill the server's stock of opening lead problems at ``table`` (``ProblemStore.stocked``,
    which every learner draws from) with leads of deals the bots bid (``next_auction``), until
    every lead level holds ``cap`` that no learner was shown yet: True then (or where nothing can be kept: no hands, a file
    that cannot be written); False when ``stop()`` ends it first (taken up by the next call).
    Every lead scored goes into the stock, whatever its level; a deal whose kinds of lead can
    give none of the levels still short is passed over unscored."""
    hands = shipped_hands(table)
    if not hands or index.read_only or cap <= 0:
        return True
    report = on_progress or (lambda f, w: None)
    halt = stop or (lambda: False)
    while True:
        counts = index.stock_counts(table, unused=True)
        short = {lv for lv in LEAD_LEVELS if counts[lv] < cap}
        if not short:
            return True
        share = sum(min(cap, n) for n in counts.values()) / (cap * len(LEAD_LEVELS))
        held = ", ".join(f"level {lv}: {counts[lv]}" for lv in LEAD_LEVELS)
        finished, _ = next_auction(table, hands[0].system, short, halt,
                                   partial(_stock_words, report, share, held), index)
        if not finished:
            return False


def _stock_words(report: Progress, share: float, held: str, words: str) -> None:
    report(share, f"{words} (in stock: {held})")


def _claim(table: Table, index: ProblemStore | None) -> int:
    """The next auction seed (``next_auction``)."""
    if index is not None:
        try:
            return index.claim_auction(table, AUCTION_FIRST)
        except ProblemStoreError:
            pass  # a file that cannot be written: counted in memory
    with _auction_lock:
        seed = _auction_next.get(table, AUCTION_FIRST)
        _auction_next[table] = seed + 1
    return seed


def _keep_auction(made: dict[int, Question | None], seed: int, q: Question | None) -> None:
    made[seed] = q
    while len(made) > AUCTION_TRIES:  # the oldest first
        made.pop(next(iter(made)))


def score_leads(table: Table, *, stop: Callable[[], bool] | None = None, on_progress: Progress | None = None,
                index: ProblemStore | None = None) -> tuple[int, int]:
    """Score the opening lead of every bots' hand shipped for ``table`` not scored yet (in this
    process or the ``index``), so that later requests for a lead problem at any level find
    it at once; ``stop()`` ends it between deals (the deals done are kept). Returns (hands
    scored by now, hands)."""
    hands = shipped_hands(table)
    report = on_progress or (lambda f, w: None)
    done = 0
    for i, rec in enumerate(hands):
        key = (table, i)
        _recall_lead(table, i, rec, index)
        if key in _leads_made or key in _lead_levels:  # known, or known to give a problem of its level
            done += 1
            continue
        if stop is not None and stop():
            break
        report(done / len(hands), f"scoring the lead of the bots' hand {i + 1} of {len(hands)}")
        scoring = _lead_scoring.get(key) or _lead_scoring.setdefault(key, LeadScoring(rec, seed=LEAD_SEED))
        if not scoring.run(stop=stop):
            break
        q = _leads_made[key] = scoring.problem()
        _lead_scoring.pop(key, None)
        done += 1
        _keep(index, rec, table, q)
    return done, len(hands)


def _keep(index: ProblemStore | None, rec, table: Table, q: Question | None) -> None:
    """What scoring the lead of ``rec`` gave, kept in the ``index``: the score (so the hand is not
    scored again) and a problem, whatever its level, in the server's stock (so no scoring is
    wasted: a learner at any level may draw it). Not kept where the file cannot be written."""
    if index is None:
        return
    try:
        index.keep_scored_lead(lead_key(rec), table, q)
        if q is not None:
            index.stock(q)
    except ProblemStoreError:
        pass  # not kept: scored again after a restart


def _recall_lead(table: Table, i: int, rec, index: ProblemStore | None) -> None:
    """Put what scoring the lead of the bots' hand ``i`` gave into ``_leads_made`` when it is
    known: shipped with the hands (``shipped_leads``; or only its level, into ``_lead_levels``),
    or kept in the ``index``."""
    key = (table, i)
    if key in _leads_made:
        return
    if key not in _lead_levels:
        k = lead_key(rec)
        shipped_scores = shipped_leads(table)
        got = shipped_scores.get(k[:KEY_CHARS], _UNKNOWN)
        if isinstance(got, int):
            _lead_levels[key] = got  # and on to the index: a server that scored it has the problem
        elif got is not _UNKNOWN:
            _leads_made[key] = got  # type: ignore[assignment]
            return
    if index is not None:
        known, made = index.scored_lead(lead_key(rec))
        if known:
            _leads_made[key] = made


_UNKNOWN = object()
_lead_levels: dict[tuple[Table, int], int] = {}
"""The hands whose lead is known (shipped) to give a problem of this level, not shipped itself."""


def _deal_done(progress: Callable[[str], None], words: str, done: int, total: int) -> None:
    progress(f"{words}: deal {done} of {total}")


_lead_scoring: dict[tuple[Table, int], LeadScoring] = {}
"""The hands whose lead is being scored, with the deals done so far (kept when a search stops)."""

_cards_made: dict[tuple[Table, int, int], Question | None] = {}
"""What each position of the bots' hands gave (a problem or None), found once a process."""


def _find_in_hand(table: Table, i: int, rec, level: int, skip: set[str], budget: Budget,
                  line_seconds: float) -> Question | None:
    """A find-the-card problem of ``level`` in the bots' hand ``i``: where the shipped index
    (``shipped_positions``) lists the hand, only its positions of that level whose problem is
    not skipped (not those the index's scan could not solve in its 20 s a position: no search
    made here has that long); else every position, the latest first (fewer tricks left:
    quicker to solve). Each position tried is solved afresh (``find_card_at``);
    one that runs past its budget is passed over."""
    if (table, i) not in _hand_keys:
        _hand_keys[(table, i)] = position_key(rec)[:KEY_CHARS]
    known = shipped_positions(table).get(_hand_keys[(table, i)])
    if known is not None:
        ks = [k for k, lv, pid in known.found if lv == level and pid not in skip]
    else:
        if (table, i, -1) not in _cards_made:
            _cards_made[(table, i, -1)] = None  # the hand's open positions, listed once
            _positions[(table, i)] = list(reversed(open_positions(rec)))
        ks = _positions[(table, i)]
    for k in ks:
        if level not in levels_at(tricks_left_after(rec, k)):
            continue
        key = (table, i, k)
        if key not in _cards_made:
            try:
                _cards_made[key] = find_card_at(rec, k, budget, line_seconds=line_seconds)
            except BudgetExceeded:
                if _past(budget.deadline):
                    raise
                continue
        q = _cards_made[key]
        if q is not None and level_of(q) == level and q.id not in skip:
            return q
    return None


_positions: dict[tuple[Table, int], list[int]] = {}
_hand_keys: dict[tuple[Table, int], str] = {}
"""Each bots' hand's ``position_key`` (its first ``KEY_CHARS`` digits), worked out once a process."""


CARDS_SCORING = 1
"""The version of how a find-the-card problem is found and graded: a change to the levels or to
what counts as one problem makes a shipped index of positions (``position_key``) count as absent."""


def position_key(rec) -> str:
    """The key under which the shipped index of positions (``shipped_positions``) names a bots'
    hand: the hand, its auction and play, and how problems are found and graded."""
    from fiftysix.records import format_record
    return hashlib.sha256("|".join(map(str, ("positions", format_record(rec), LEVEL_OF_SCORE,
                                             CARDS_SCORING))).encode()).hexdigest()


def positions_name(table: Table) -> str:
    """The file of the shipped index of positions (``shipped_positions``)."""
    return "positions-" + starter_name(table).removeprefix("problems-")


@dataclass(frozen=True)
class HandPositions:
    """What a whole scan of a bots' hand found (``scripts/problem_data.py scan``): each position
    that is a find-the-card problem as (cards played before it, its level, the problem's id),
    and the positions the scan could not solve within its time (``slow``); every other open
    position of the hand is no problem."""

    found: tuple[tuple[int, int, str], ...] = ()
    slow: tuple[int, ...] = ()


@functools.lru_cache(maxsize=8)
def shipped_positions(table: Table) -> dict[str, HandPositions]:
    """The index of the find-the-card problems in the bots' hands shipped for ``table``
    (data/problems/positions-<table>.json), by the first ``KEY_CHARS`` digits of each hand's
    ``position_key``: so a server looking for a problem of a level solves only the positions
    known to give one (each again, in full, before it is handed over), not every position of
    every hand. Empty where none ships or it was made for other levels (the search then tries
    every position)."""
    data = _shipped_json(positions_name(table), "scoring", CARDS_SCORING)
    if data is None:
        return {}
    try:
        out = {}
        for k, v in dict(data["hands"]).items():
            found = tuple((int(a), int(b), str(c)) for a, b, c in v.get("found", ()))
            out[str(k)] = HandPositions(found, tuple(int(x) for x in v.get("slow", ())))
        return out
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}


SCORING = 1
"""The version of how an opening lead is scored and graded: a change to ``LEAD_DEALS``, the
margins or the levels makes the leads kept in a store (``lead_key``) count as not scored."""


def lead_key(rec) -> str:
    """The key under which a store keeps what scoring the opening lead of a bots' hand gave:
    the hand, its auction and play, and how leads are scored."""
    from fiftysix.drills.problems import LEAD_DEALS, LEAD_MARGIN, LEAD_SPREAD
    from fiftysix.records import format_record
    return hashlib.sha256("|".join(map(str, (format_record(rec), LEAD_SEED, LEAD_DEALS, LEAD_MARGIN, LEAD_SPREAD,
                                             LEVEL_OF_SCORE, SCORING))).encode()).hexdigest()


LEAD_SEED = 1
"""The seed of the deals an opening lead of the bots' hands is scored on, so that a hand's lead
problem is one problem, scored once a process (``_leads_made``)."""
_leads_made: dict[tuple[Table, int], Question | None] = {}


def _past(clock: Deadline | None) -> bool:
    return clock is not None and clock.end is not None and time.perf_counter() >= clock.end


# --- the starter sets ---------------------------------------------------------------------------

PER_LEVEL = 6
"""Find-the-card problems a starter set holds at each level (where the hands give that many)."""
LEADS_PER_LEVEL = 3
"""Opening lead problems it holds at each level an opening lead can have."""


def build_starter_set(table: Table, hands: Sequence, *, per_level: int = PER_LEVEL,
                      leads_per_level: int = LEADS_PER_LEVEL, seed: int = 1, max_leads_tried: int = 40,
                      position_seconds: float = 20.0, check: Callable[[Question], list[str]] | None = None,
                      on_found: Callable[[Question], None] | None = None) -> Bank:
    """A starter set for ``table`` from bots' ``hands`` (hand records): up to ``per_level``
    find-the-card problems at each level, one a hand where a level has room (so the set
    spreads over many deals), and up to ``leads_per_level`` opening leads at each level an
    opening lead can reach (at most ``max_leads_tried`` simulations). Every problem is checked
    by ``check`` (a re-solve: ``problems.verify`` with a solver of its own by default) before it
    goes in; one that fails stops the build (ProblemError), as the engine disagrees with itself."""
    from fiftysix.analyser.solver import Solver
    from fiftysix.drills.problems import verify
    checker = check or (lambda q: verify(q, Solver(16, shuffle=seed)))
    chosen: dict[int, list[Question]] = {lv: [] for lv in LEVELS}
    leads: dict[int, list[Question]] = {lv: [] for lv in LEAD_LEVELS}

    def take(q: Question, into: list[Question]) -> None:
        bad = checker(q)
        if bad:
            raise ProblemError(f"problem {q.id} does not hold when solved again: {'; '.join(bad)}")
        into.append(q)
        if on_found is not None:
            on_found(q)

    budget = Budget(per_position=position_seconds)
    for rec in hands:
        if all(len(v) >= per_level for v in chosen.values()):
            break
        wanted = [lv for lv in LEVELS if len(chosen[lv]) < per_level]
        for q in scan_record(rec, budget, levels=wanted):
            lv = level_of(q)
            if len(chosen[lv]) < per_level and not any(p.data["source"] == q.data["source"] for p in chosen[lv]):
                take(q, chosen[lv])
    for tried, rec in enumerate(hands):
        if tried >= max_leads_tried or all(len(v) >= leads_per_level for v in leads.values()):
            break
        lead = lead_problem(rec, seed=seed)
        if lead is not None and len(leads[level_of(lead)]) < leads_per_level:
            take(lead, leads[level_of(lead)])
    found = [q for lv in LEVELS for q in chosen[lv] + leads.get(lv, [])]
    return Bank(f"Play problems, {table.players} players", hands[0].system if hands else "international",
                tuple(found), "fiftysix generator",
                f"Made from the bots' hands ({table.players} players, {table.deck} cards) and checked by the solver.")
