"""One deal of a statistics run: deal it from (seed, index), bid it, solve it, one row per call.

Deal ``i`` of a run depends only on the run's seed and ``i`` (and the bot's tie-breaks on the
same pair), so a chunk of deals gives the same rows on any worker, in any order, on any retry.
The double-dummy table (seat 1 leads, as RULES.md section 4 has it) depends only on the deal,
so a run over several systems solves each deal once and bids it once per system.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass

import pyarrow as pa

from fiftysix.analyser import solver
from fiftysix.bidding import Auction
from fiftysix.bidding.calls import format_calls
from fiftysix.bidding.systems import get_system
from fiftysix.bots import get_bot
from fiftysix.cards import RANKS, SUITS, Deal, Table, random_deal
from fiftysix.errors import FiftySixError

STRAINS = solver.TRUMP_NAMES  # "S", "H", "D", "C", "NT"
LEADER = 1


@dataclass(frozen=True)
class RunSpec:
    """What a run computes: the systems, the table, the deals, the bots, the chunking."""

    systems: tuple[str, ...]
    players: int = 6
    deck: int = 48
    teams: str = "alternate"
    deals: int = 1000
    seed: int = 1
    bots: str = "rules"
    chunk: int = 50

    def __post_init__(self) -> None:
        if not self.systems:
            raise FiftySixError("name at least one bidding system")
        object.__setattr__(self, "systems", tuple(get_system(s).name for s in self.systems))
        Table(self.players, self.deck, self.teams)  # checks the set-up
        get_bot(self.bots)
        if self.deals < 1:
            raise FiftySixError(f"the number of deals must be at least 1, not {self.deals}")
        if self.chunk < 1:
            raise FiftySixError(f"the chunk size must be at least 1 deal, not {self.chunk}")

    @property
    def table(self) -> Table:
        return Table(self.players, self.deck, self.teams)

    @property
    def chunks(self) -> int:
        return -(-self.deals // self.chunk)

    def chunk_range(self, k: int) -> range:
        return range(k * self.chunk, min(self.deals, (k + 1) * self.chunk))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["systems"] = list(self.systems)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> RunSpec:
        return cls(**{**d, "systems": tuple(d["systems"])})


def deal_of(table: Table, seed: int, i: int) -> Deal:
    """Deal ``i`` of the run with ``seed`` (a string seed: the same on every machine)."""
    return random_deal(table, rng=random.Random(f"fiftysix-stats:{seed}:{i}"))


SCHEMA = pa.schema([
    ("system", pa.string()),
    ("deal", pa.int64()),
    ("index", pa.int16()),       # the call's place in the auction, from 1
    ("seat", pa.int8()),
    ("call", pa.string()),       # canonical text, e.g. 28H
    ("form", pa.string()),       # the call's kind, e.g. suit, plus, pass
    ("before", pa.string()),     # the auction before the call ("" for the first call)
    ("value", pa.int8()),        # the standing bid after the call (null: none yet)
    ("strain", pa.string()),     # its trump, S H D C or NT (null: no bid yet)
    ("points", pa.int8()),       # the caller's card points
    ("suit_len", pa.int8()),     # the caller's length in the strain's suit (null at NT / no bid)
    ("suit_top", pa.string()),   # the caller's J 9 A T in that suit, e.g. J9A
    ("jacks", pa.int8()),
    ("nines", pa.int8()),
    ("dd_S", pa.int8()),         # the caller's team's double-dummy points in each strain
    ("dd_H", pa.int8()),
    ("dd_D", pa.int8()),
    ("dd_C", pa.int8()),
    ("dd_NT", pa.int8()),
    ("dd", pa.int8()),           # ... in the strain after the call (null: no bid yet)
    ("contract", pa.string()),   # the final contract, e.g. 40Hx (null: passed out)
    ("declarer", pa.int8()),
    ("declarer_team", pa.int8()),
    ("result", pa.int8()),       # the declaring team's double-dummy points in the contract's strain
    ("made", pa.bool_()),
])


def _hand_features(hand, strain: str | None) -> dict:
    suit = SUITS.index(strain) if strain not in (None, "NT") else None
    held = hand.suit_cards(suit) if suit is not None else ()
    return {
        "points": hand.points,
        "suit_len": len(held) if suit is not None else None,
        "suit_top": "".join(RANKS[c.rank] for c in held if c.rank <= 3) if suit is not None else None,
        "jacks": sum(1 for c in hand if c.rank == 0),
        "nines": sum(1 for c in hand if c.rank == 1),
    }


def auction_rows(system: str, deal: Deal, index: int, auction: Auction, dd: dict[str, dict[int, int]]) -> list[dict]:
    """One row per call of a finished auction, with the deal's double-dummy table ``dd``."""
    table = deal.table
    contract = auction.contract
    final: dict = {"contract": None, "declarer": None, "declarer_team": None, "result": None, "made": None}
    if contract is not None:
        result = dd[STRAINS[4] if contract.trump is None else SUITS[contract.trump]][contract.team]
        final = {"contract": str(contract), "declarer": contract.declarer, "declarer_team": contract.team,
                 "result": result, "made": result >= contract.value}
    rows = []
    records = auction.calls
    for k, rec in enumerate(records):
        team = table.team_of(rec.seat)
        strain = None if rec.value is None else ("NT" if rec.trump is None else SUITS[rec.trump])
        row = {"system": system, "deal": index, "index": rec.index, "seat": rec.seat, "call": str(rec.call),
               "form": rec.call.kind, "before": format_calls([r.call for r in records[:k]]),
               "value": rec.value, "strain": strain, **_hand_features(deal.hand(rec.seat), strain)}
        for s in STRAINS:
            row[f"dd_{s}"] = dd[s][team]
        row["dd"] = dd[strain][team] if strain is not None else None
        row.update(final)
        rows.append(row)
    return rows


def deal_rows(spec: RunSpec, index: int) -> list[dict]:
    """Every row of deal ``index``: solved once, bid once per system of the run."""
    deal = deal_of(spec.table, spec.seed, index)
    dd = solver.table(deal, LEADER, threads=1)
    rows = []
    for system in spec.systems:
        auction = get_bot(spec.bots, f"{spec.seed}:{index}").bid(deal, system)
        rows.extend(auction_rows(system, deal, index, auction, dd))
    return rows


def chunk_table(spec: RunSpec, k: int) -> pa.Table:
    """The rows of chunk ``k`` as an Arrow table (what a worker sends back)."""
    rows = [r for i in spec.chunk_range(k) for r in deal_rows(spec, i)]
    return pa.Table.from_pylist(rows, schema=SCHEMA)
