"""Hands bid and played by the bots: where play problems come from (``drills.problems``).

Playing a whole hand with the card bots takes seconds (about 1 s at 4 players, 3-5 s at 6,
10-20 s at 8 on a loaded two-core machine), far more than a problem may take on demand, so
the bots' hands are played ahead of time: ``play_hands`` writes them as hand records, the
project ships a pool of them in data/problems/, and the problem generator looks for
positions in them with the solver while the learner waits.

An opening lead problem needs only the leader's hand and the auction, so more of them come
from deals the bots only bid (``bot_auction``, scripts/problem_data.py ``auctions``): at 8
players the card bots' play is a third to a half of a played hand's time, and the leads'
scoring far more; those deals ship only as the problems they gave.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import overload

from fiftysix import shipped
from fiftysix.bots import CardBot, bid_with, play_hand
from fiftysix.cards import Table, random_deal
from fiftysix.errors import FiftySixError
from fiftysix.records import Record, build_record, format_record, parse_records, read_records

PROBLEMS = "problems"
"""The folder of shipped data (``fiftysix.shipped``) holding the pool of bot-played hands and the
starter problem sets (data/problems/ in the repository)."""
EVENT = "bots' hands for play problems"
AUCTION_EVENT = "bots' auctions for opening leads"
"""The event of a hand bid by the bots and not played (``bot_auction``)."""


def hands_name(table: Table) -> str:
    """The pool file of a table set-up, e.g. ``hands-6x48.txt`` (``-pairs`` for pairs teams)."""
    return f"hands-{table.players}x{table.deck}{'-pairs' if table.teams == 'pairs' else ''}.txt"


def bot_hand(table: Table, system: str, seed: int, bot: str = "default") -> Record:
    """Deal ``seed`` at ``table``, bid by the ``bot`` in every seat and played by the card bot
    (each seat from its own view), until the contract is decided; as a hand record whose
    event names the seed."""
    deal = random_deal(table, seed=seed)
    auction = bid_with(deal, system, bot, seed=seed)
    contract = auction.contract
    if contract is None:
        raise FiftySixError(f"seed {seed}: the auction ended without a contract")
    state = play_hand(deal, contract, [CardBot(seed)] * table.players, auction=auction)
    cards = [str(c) for t in state.tricks for c in t.cards] + [str(c) for _, c in state.current]
    return build_record(table, deal, system, [str(r.call) for r in auction.calls], cards,
                        result=state.points[contract.team], event=f"{EVENT}, seed {seed}, bot {bot}")


def bot_auction(table: Table, system: str, seed: int, bot: str = "default") -> Record:
    """Deal ``seed`` at ``table`` and bid it by the ``bot`` in every seat, with no play: all an
    opening lead problem needs (the leader's hand and the auction; ``problems.lead_problem``),
    at a fraction of ``bot_hand``'s cost (the card bots' play is a third to a half of it)."""
    deal = random_deal(table, seed=seed)
    auction = bid_with(deal, system, bot, seed=seed)
    if auction.contract is None:
        raise FiftySixError(f"seed {seed}: the auction ended without a contract")
    return build_record(table, deal, system, [str(r.call) for r in auction.calls],
                        event=f"{AUCTION_EVENT}, seed {seed}, bot {bot}")


def record_seed(record: Record) -> int | None:
    """The seed a pool hand (or a ``bot_auction``) was dealt from (its event says), or None for another record."""
    if not record.event.startswith((EVENT, AUCTION_EVENT)):
        return None
    try:
        return int(record.event.split("seed ", 1)[1].split(",", 1)[0])
    except (IndexError, ValueError):
        return None


def play_hands(path: str | os.PathLike, table: Table, system: str, seeds: range, bot: str = "default",
               on_hand: Callable[[int, Record], None] | None = None) -> int:
    """Append to ``path`` the bots' hands of the ``seeds`` it does not hold yet (so a run that
    was stopped goes on where it stopped); returns how many were added."""
    p = Path(path)
    have = {record_seed(r) for r in read_records(str(p))} if p.exists() else set()
    added = 0
    for seed in seeds:
        if seed in have:
            continue
        rec = bot_hand(table, system, seed, bot)
        with open(p, "a", encoding="utf-8") as f:  # one whole record a write: a stop loses at most one
            f.write(format_record(rec) + "\n\n")
        added += 1
        if on_hand is not None:
            on_hand(seed, rec)
    return added


class ShippedHands(Sequence[Record]):
    """The hands of a shipped hands file, each parsed the first time it is asked for: a fresh
    server that makes a find-the-card problem reads the few hands it tries, not all of them
    (about 1 ms a hand, so 0.3 s for the 320 at 4 players, and several seconds on a loaded
    machine). The file is cut at each ``[Event`` tag that opens a line after a blank line."""

    def __init__(self, text: str, source: str) -> None:
        text = text.replace("\r\n", "\n")
        cuts = [0] + [m.end() for m in _RECORD_START.finditer(text)] + [len(text)]
        parts = [(a, text[a:b]) for a, b in itertools.pairwise(cuts) if text[a:b].strip()]
        self._texts = [t for _, t in parts]
        self._lines = [text.count("\n", 0, a) for a, _ in parts]  # lines before each: a record says its own line
        self._records: list[Record | None] = [None] * len(self._texts)
        self._source = source
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, i: int) -> Record: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Record, ...]: ...

    def __getitem__(self, i: int | slice) -> Record | tuple[Record, ...]:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(len(self))))
        rec = self._records[i]
        if rec is None:
            (rec,) = parse_records(self._texts[i], self._source)
            rec = dataclasses.replace(rec, line=rec.line + self._lines[i])
            with self._lock:
                self._records[i] = rec
        return rec


_RECORD_START = re.compile(r"\n[ \t]*\n(?=\[Event )")


@functools.lru_cache(maxsize=8)
def shipped_hands(table: Table) -> ShippedHands:
    """The pool of bot-played hands shipped for ``table`` (empty where none is shipped); each
    hand read once a process, when first asked for."""
    f = shipped.data_file(PROBLEMS, hands_name(table))
    return ShippedHands(f.read_text(encoding="utf-8") if f.is_file() else "", hands_name(table))


def iter_positions(record: Record) -> Iterator[int]:
    """How many cards of the record's play come before each position it reached (0 = the opening
    lead), while the contract was still open."""
    state = record.play_state(0)
    for k in range(len(record.play) + 1):
        if state.is_over:
            return
        yield k
        if k < len(record.play):
            state.play(record.cards[k])
