"""Make the shipped play problems (data/problems/) again from the bots' shipped hands, with a seed.

    .venv/bin/python scripts/problem_data.py [--tables 4,6,8] [--work build/problem-data] STAGE...

Stages, each resumable (what a stage found is appended to files under ``--work``, one hand a
line, so a run that was stopped goes on where it stopped; the files are a cache of the
engine's own answers, which are deterministic):

* ``leads``: every shipped hand's opening lead scored (``problems.lead_problem`` on
  ``LEAD_DEALS`` deals drawn with ``problem_sets.LEAD_SEED``): the problem it gives, or none.
* ``auctions``: more opening leads where the shipped hands give fewer than ``--leads-per-level``
  at a level: deals from seed ``--auction-seed`` on, bid by the bots and *not played*
  (``problem_hands.bot_auction``: a lead needs only the leader's hand and the auction), each
  lead scored as in ``leads``, until every level has ``--leads-per-level`` (or ``--auctions``
  deals were bid). A hand whose lead takes over ``--lead-seconds`` to score is left out; with
  ``--peek N`` a hand is finished only when its first N deals say a level still short (every
  problem kept is scored on all its deals all the same). These
  hands do not ship: only the problems they give (in the starter set, after the shipped hands').
* ``cards``: the hands searched for find-the-card problems (``problems.scan_record``), in the
  hands' order, until every level has ``--per-level`` problems from distinct positions (at most
  ``--per-hand`` a hand at a level), positions of levels still short only.
* ``scan``: every open position of every shipped hand tried for a find-the-card problem of any
  level (``--position-seconds`` a position; one past it is listed as slow): the index of
  positions ``write`` ships (``positions-<table>.json``), which a server searches first. In
  the hands ``cards`` did not reach, ``cards`` takes its problems from here.
* ``check``: every problem chosen re-solved by a solver of its own (``problems.verify`` with a
  fresh ``Solver``): find-the-card in another move order (``shuffle=--seed``), an opening lead
  on its 40 stored deals, in another move order at 4 players and in the solver's own at 6
  and 8 (a shuffled search of whole deals of 48 or 64 cards takes 1-2 minutes a lead, the
  scoring itself 1-40 s); one that fails stops the run.
* ``write``: the starter set ``problems-<table>.json`` (the find-the-card problems chosen and
  every opening lead problem the hands give) and the leads' scores ``leads-<table>.json`` (each
  hand's ``lead_key`` and the problem it gave, or null), so that a server never scores a
  shipped hand's lead again. Only checked problems go in.

The hands themselves come from ``fiftysix problems hands`` (seeds 1..N); ``--seed`` is the seed
of the check's move order. Run ``leads cards check write`` for everything.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

from fiftysix.analyser.solver import BudgetExceeded, Position, Solver, warm_up
from fiftysix.cards import Table
from fiftysix.drills.banks import Bank, save_bank
from fiftysix.drills.problem_hands import bot_auction, record_seed, shipped_hands
from fiftysix.drills.problem_sets import (
    CARDS_SCORING,
    KEY_CHARS,
    LEAD_SEED,
    lead_key,
    leads_name,
    position_key,
    positions_name,
    starter_name,
)
from fiftysix.drills.problems import (
    FIND_CARD,
    LEAD_LEVELS,
    LEAD_TRICKS,
    LEVELS,
    Budget,
    LeadScoring,
    card_groups,
    find_card_at,
    lead_problem,
    level_for,
    level_of,
    levels_at,
    open_positions,
    scan_record,
    tricks_left_after,
    verify,
)
from fiftysix.drills.questions import Question
from fiftysix.errors import FiftySixError

DATA = Path(__file__).resolve().parents[1] / "data" / "problems"


def _lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a stop
    return out


def _append(path: Path, row: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")


def _tag(table: Table) -> str:
    return starter_name(table).removeprefix("problems-").removesuffix(".json")


def stage_leads(table: Table, work: Path, limit: float | None, backwards: bool = False) -> None:
    path = work / f"leads-{_tag(table)}.jsonl"
    hands = shipped_hands(table)
    t_all = time.perf_counter()
    for i in (reversed if backwards else iter)(range(len(hands))):
        rec = hands[i]
        key = lead_key(rec)
        if key in {r["key"] for r in _lines(path)}:  # read again: another run may share the work
            continue
        if _out_of_time(table, "leads", t_all, limit):
            return
        t0 = time.perf_counter()
        q = lead_problem(rec, seed=LEAD_SEED)
        took = time.perf_counter() - t0
        _append(path, {"key": key, "seed": record_seed(rec), "problem": None if q is None else q.to_dict(),
                       "seconds": round(took, 2)})
        print(f"{table.players}p lead of hand {i + 1}/{len(hands)}: "
              f"{'-' if q is None else f'level {level_of(q)}'} ({took:.1f} s)", flush=True)


def _auction_leads(table: Table, work: Path) -> list[Question]:
    """The opening lead problems of the bots' auctions (``auctions``), in the seeds' order."""
    rows = sorted(_lines(work / f"auctions-{_tag(table)}.jsonl"), key=lambda r: r["seed"])
    return [Question.from_dict(r["problem"]) for r in rows if r.get("problem")]


def _lead_counts(table: Table, work: Path, leads_per_level: int) -> dict[int, int]:
    """The opening leads a level the starter set would hold: the shipped hands' (at most
    ``leads_per_level``) and the auctions'."""
    have = dict.fromkeys(LEAD_LEVELS, 0)
    for _, q in _leads(table, work):
        if q is not None:
            have[level_of(q)] = min(leads_per_level, have[level_of(q)] + 1)
    for q in _auction_leads(table, work):
        have[level_of(q)] += 1
    return have


def _out_of_time(table: Table, stage: str, start: float, limit: float | None) -> bool:
    """Whether a stage begun at ``start`` ran past its ``limit`` (seconds; None: no limit), said
    in one line when it did."""
    if limit is None or time.perf_counter() - start <= limit:
        return False
    print(f"{table.players}p {stage}: stopped at the time limit", flush=True)
    return True


def _past(end: float) -> bool:
    return time.perf_counter() > end


def stage_auctions(table: Table, work: Path, system: str, first: int, most: int, leads_per_level: int,
                   lead_seconds: float, limit: float | None, peek: int = 0) -> None:
    path = work / f"auctions-{_tag(table)}.jsonl"
    t_all = time.perf_counter()
    for seed in range(first, first + most):
        have = _lead_counts(table, work, leads_per_level)
        if all(n >= leads_per_level for n in have.values()):
            print(f"{table.players}p auctions: every lead level has {leads_per_level} ({have})", flush=True)
            return
        if seed in {r["seed"] for r in _lines(path)}:  # read again: another run may share the work
            continue
        if _out_of_time(table, "auctions", t_all, limit):
            return
        t0 = time.perf_counter()
        row: dict = {"seed": seed, "problem": None}
        try:
            rec = bot_auction(table, system, seed)
            row["bid_seconds"] = round(time.perf_counter() - t0, 2)
            stop = partial(_past, time.perf_counter() + lead_seconds)
            short = [lv for lv in LEAD_LEVELS if have[lv] < leads_per_level]
            assert rec.contract is not None
            groups = len(card_groups(Position(table, tuple(rec.deal.hands), rec.contract.trump, rec.leader)))
            reach = {level_for(LEAD_TRICKS, alike, far) for alike in range(1, groups + 1) for far in (0, 1, 2)}
            scoring = LeadScoring(rec, seed=LEAD_SEED)
            if not reach & set(short):  # exact: with this few kinds of lead no short level can come
                row["left_out"] = f"{groups} kinds of lead: only levels {sorted(reach)}, not one of {short}"
                words = f"{groups} kinds of lead: left"
            elif peek and scoring.run(stop=stop, upto=peek) and scoring.guess() not in short:
                row["left_out"] = f"its first {peek} deals say level {scoring.guess()}, not one of {short}"
                words = f"peek says {scoring.guess()}: left"
            elif not scoring.run(stop=stop):
                raise BudgetExceeded("stopped")
            else:
                q = scoring.problem()
                row["problem"] = None if q is None else q.to_dict()
                words = "-" if q is None else f"level {level_of(q)}"
        except BudgetExceeded:
            row["left_out"] = f"its lead took over {lead_seconds:g} s to score"
            words = "left out (slow)"
        except FiftySixError as e:
            row["left_out"] = str(e)
            words = f"left out ({e})"
        row["seconds"] = round(time.perf_counter() - t0, 2)
        _append(path, row)
        print(f"{table.players}p auction seed {seed}: {words} (bid {row.get('bid_seconds', 0):.1f} s, "
              f"all {row['seconds']:.1f} s); leads a level {have}", flush=True)


def _cards(table: Table, work: Path) -> list[Question]:
    """The find-the-card problems found in the hands' order: by ``cards`` (levels still short),
    and by ``scan`` (every level) in the hands ``cards`` did not reach."""
    rows = {r["seed"]: r for r in _lines(work / f"cards-{_tag(table)}.jsonl")}
    scanned = {r["seed"]: r for r in _lines(work / f"scan-{_tag(table)}.jsonl")}
    out = []
    for rec in shipped_hands(table):
        r = rows.get(record_seed(rec)) or scanned.get(record_seed(rec))
        out += [Question.from_dict(d) for d in (r["problems"] if r else ())]
    return out


def stage_scan(table: Table, work: Path, seconds: float, limit: float | None, backwards: bool = False) -> None:
    """Every open position of every shipped hand tried (``problems.find_card_at``): the index of
    positions a server searches first (``problem_sets.shipped_positions``)."""
    path = work / f"scan-{_tag(table)}.jsonl"
    hands = shipped_hands(table)
    t_all = time.perf_counter()
    for i in (reversed if backwards else iter)(range(len(hands))):
        rec = hands[i]
        if record_seed(rec) in {r["seed"] for r in _lines(path)}:  # read again: another run may share the work
            continue
        if _out_of_time(table, "scan", t_all, limit):
            return
        t0 = time.perf_counter()
        found, slow, problems = [], [], []
        for k in open_positions(rec):
            try:
                q = find_card_at(rec, k, Budget(per_position=seconds))
            except BudgetExceeded:
                slow.append(k)
                continue
            if q is not None:
                found.append([k, level_of(q), q.id])
                problems.append(q.to_dict())
        took = time.perf_counter() - t0
        _append(path, {"seed": record_seed(rec), "key": position_key(rec)[:KEY_CHARS], "found": found, "slow": slow,
                       "problems": problems, "seconds": round(took, 2)})
        print(f"{table.players}p scan of hand {i + 1}/{len(hands)}: levels {sorted(lv for _, lv, _ in found)}"
              f"{f', {len(slow)} slow' if slow else ''} ({took:.1f} s)", flush=True)


def choose_cards(found: list[Question], per_level: int, per_hand: int) -> dict[int, list[Question]]:
    """Up to ``per_level`` problems a level, spread over the hands: first one a hand, then a
    second, ... up to ``per_hand`` (in the order found: the hands' order)."""
    chosen: dict[int, list[Question]] = {lv: [] for lv in LEVELS}
    for round_ in range(1, per_hand + 1):
        for q in found:
            lv = level_of(q)
            have = chosen[lv]
            if len(have) >= per_level or q in have:
                continue
            if sum(p.data["source"] == q.data["source"] for p in have) < round_:
                have.append(q)
    return chosen


def stage_cards(table: Table, work: Path, per_level: int, per_hand: int, seconds: float,
                limit: float | None) -> None:
    path = work / f"cards-{_tag(table)}.jsonl"
    scanned = {r["seed"] for r in _lines(path)} | {r["seed"] for r in _lines(work / f"scan-{_tag(table)}.jsonl")}
    t_all = time.perf_counter()
    for i, rec in enumerate(shipped_hands(table)):
        chosen = choose_cards(_cards(table, work), per_level, per_hand)
        short = [lv for lv in LEVELS if len(chosen[lv]) < per_level]
        if not short:
            break
        seed = record_seed(rec)
        if seed in scanned:
            continue
        if _out_of_time(table, "cards", t_all, limit):
            return
        ks = [k for k in open_positions(rec) if levels_at(tricks_left_after(rec, k)) & set(short)]
        t0 = time.perf_counter()
        qs = scan_record(rec, Budget(per_position=seconds), levels=short, positions=ks)
        took = time.perf_counter() - t0
        _append(path, {"seed": seed, "problems": [q.to_dict() for q in qs], "seconds": round(took, 2)})
        print(f"{table.players}p cards in hand {i + 1} (seed {seed}): levels "
              f"{sorted(level_of(q) for q in qs)} ({took:.1f} s); short: {short}", flush=True)


def _leads(table: Table, work: Path) -> list[tuple[str, Question | None]]:
    """(lead_key, the problem or None) of each shipped hand whose lead is scored, in the hands' order."""
    scored = {r["key"]: r["problem"] for r in _lines(work / f"leads-{_tag(table)}.jsonl")}
    out = []
    for rec in shipped_hands(table):
        k = lead_key(rec)
        if k in scored:
            out.append((k, None if scored[k] is None else Question.from_dict(scored[k])))
    return out


def chosen_problems(table: Table, work: Path, per_level: int, per_hand: int, leads_per_level: int) -> list[Question]:
    """The find-the-card problems chosen (``choose_cards``) and the first ``leads_per_level``
    opening leads a level in the hands' order."""
    cards = choose_cards(_cards(table, work), per_level, per_hand)
    leads: list[Question] = []
    for q in [q for _, q in _leads(table, work) if q is not None] + _auction_leads(table, work):
        if sum(level_of(p) == level_of(q) for p in leads) < leads_per_level:
            leads.append(q)
    by_id: dict[str, Question] = {}
    for q in [q for lv in LEVELS for q in cards[lv]] + sorted(leads, key=lambda q: (level_of(q), q.id)):
        by_id.setdefault(q.id, q)
    return list(by_id.values())


def stage_check(table: Table, work: Path, per_level: int, per_hand: int, leads_per_level: int, seed: int,
                limit: float | None) -> None:
    path = work / f"checked-{_tag(table)}.jsonl"
    done = {r["id"] for r in _lines(path)}
    t_all = time.perf_counter()
    for q in chosen_problems(table, work, per_level, per_hand, leads_per_level):
        if q.id in done or q.id in {r["id"] for r in _lines(path)}:  # read again: another run may share the work
            continue
        if _out_of_time(table, "check", t_all, limit):
            return
        t0 = time.perf_counter()
        shuffle = seed if q.type == FIND_CARD or table.players < 6 else 0
        bad = verify(q, Solver(16, shuffle=shuffle))
        _append(path, {"id": q.id, "bad": bad, "shuffle": shuffle, "seconds": round(time.perf_counter() - t0, 2)})
        print(f"{table.players}p check {q.id} ({q.type} level {level_of(q)}): "
              f"{'holds' if not bad else 'FAILS: ' + '; '.join(bad)} ({time.perf_counter() - t0:.1f} s)", flush=True)
        if bad:
            raise SystemExit(f"problem {q.id} does not hold when solved again")


def stage_write(table: Table, work: Path, per_level: int, per_hand: int, leads_per_level: int, out: Path) -> None:
    ok = {r["id"] for r in _lines(work / f"checked-{_tag(table)}.jsonl") if not r["bad"]}
    chosen = {q.id for q in chosen_problems(table, work, per_level, per_hand, leads_per_level)}
    qs = [q for q in chosen_problems(table, work, per_level, per_hand, leads_per_level) if q.id in ok]
    bank = Bank(f"Play problems, {table.players} players", shipped_hands(table)[0].system, tuple(qs),
                "fiftysix generator",
                f"Made from the bots' hands ({table.players} players, {table.deck} cards) and checked by the solver.")
    save_bank(bank, out / starter_name(table))
    # each hand: the problem shipped, None (no problem), or the level of a problem not shipped; a
    # hand whose problem was chosen but did not pass the check is left out (a server scores it again)
    shipped = {q.id for q in qs}
    scores: dict[str, str | int | None] = {}
    for k, q in _leads(table, work):
        if q is None:
            scores[k[:KEY_CHARS]] = None
        elif q.id in shipped:
            scores[k[:KEY_CHARS]] = q.id
        elif q.id not in chosen:
            scores[k[:KEY_CHARS]] = level_of(q)
    text = json.dumps({"lead_seed": LEAD_SEED, "scores": scores}, separators=(",", ":"))
    (out / leads_name(table)).write_text(text.replace(',"', ',\n"') + "\n", encoding="utf-8")
    scans = {r["seed"]: r for r in _lines(work / f"scan-{_tag(table)}.jsonl")}
    index = {}
    for rec in shipped_hands(table):
        r = scans.get(record_seed(rec))
        if r is not None:
            assert r["key"] == position_key(rec)[:KEY_CHARS], f"hand {record_seed(rec)} changed since its scan"
            index[r["key"]] = {"found": r["found"], **({"slow": r["slow"]} if r["slow"] else {})}
    if index:
        text = json.dumps({"scoring": CARDS_SCORING, "hands": index}, separators=(",", ":"))
        (out / positions_name(table)).write_text(text.replace('},"', '},\n"') + "\n", encoding="utf-8")
    per: dict[str, int] = {}
    for q in qs:
        k = f"{q.type} {level_of(q)}"
        per[k] = per.get(k, 0) + 1
    print(f"{table.players}p: {len(qs)} problems written ({dict(sorted(per.items()))}); {len(scores)} of "
          f"{len(shipped_hands(table))} hands' leads scored, {len(index)} hands' positions", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stages", nargs="+", choices=("leads", "auctions", "cards", "scan", "check", "write"))
    ap.add_argument("--tables", default="4,6,8")
    ap.add_argument("--work", default="build/problem-data", help="folder of what each stage found (resumable)")
    ap.add_argument("--out", default=str(DATA), help="folder the sets are written to")
    ap.add_argument("--per-level", type=int, default=20, help="find-the-card problems a level")
    ap.add_argument("--leads-per-level", type=int, default=20, help="opening leads a level (the other hands' leads"
                    " ship as their level only)")
    ap.add_argument("--auction-seed", type=int, default=1001, help="auctions: the first deal's seed")
    ap.add_argument("--auctions", type=int, default=1000, help="auctions: at most this many deals bid")
    ap.add_argument("--lead-seconds", type=float, default=90.0, help="auctions: a hand whose lead takes longer"
                    " to score is left out")
    ap.add_argument("--peek", type=int, default=0, help="auctions: score a hand's first PEEK deals first and"
                    " finish it only when they say a level still short (0: finish every hand)")
    ap.add_argument("--per-hand", type=int, default=2, help="... at most this many from one hand at a level")
    ap.add_argument("--position-seconds", type=float, default=20.0, help="a find-the-card position's search limit")
    ap.add_argument("--seed", type=int, default=1, help="the check's move order")
    ap.add_argument("--backwards", action="store_true", help="leads: the hands from the last (a second run"
                    " sharing the work)")
    ap.add_argument("--limit", type=float, default=None, help="stop a stage after this many seconds (resumable)")
    args = ap.parse_args(argv)
    work, out = Path(args.work), Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    warm_up()
    for p in (int(x) for x in args.tables.split(",")):
        table = Table.make(p)
        for stage in args.stages:
            t0 = time.perf_counter()
            if stage == "leads":
                stage_leads(table, work, args.limit, args.backwards)
            elif stage == "auctions":
                stage_auctions(table, work, shipped_hands(table)[0].system, args.auction_seed, args.auctions,
                               args.leads_per_level, args.lead_seconds, args.limit, args.peek)
            elif stage == "cards":
                stage_cards(table, work, args.per_level, args.per_hand, args.position_seconds, args.limit)
            elif stage == "scan":
                stage_scan(table, work, args.position_seconds, args.limit, args.backwards)
            elif stage == "check":
                stage_check(table, work, args.per_level, args.per_hand, args.leads_per_level, args.seed, args.limit)
            else:
                stage_write(table, work, args.per_level, args.per_hand, args.leads_per_level, out)
            print(f"{p}p {stage}: {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
