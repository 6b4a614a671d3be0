"""Make the shipped play problems (data/problems/) again from the bots' shipped hands, with a seed.

    .venv/bin/python scripts/problem_data.py [--tables 4,6,8] [--work build/problem-data] STAGE...

Stages, each resumable (what a stage found is appended to files under ``--work``, one hand a
line, so a run that was stopped goes on where it stopped; the files are a cache of the
engine's own answers, which are deterministic):

* ``leads``: every shipped hand's opening lead scored (``problems.lead_problem`` on
  ``LEAD_DEALS`` deals drawn with ``problem_sets.LEAD_SEED``): the problem it gives, or none.
* ``cards``: the hands searched for find-the-card problems (``problems.scan_record``), in the
  hands' order, until every level has ``--per-level`` problems from distinct positions (at most
  ``--per-hand`` a hand at a level), positions of levels still short only.
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
from pathlib import Path

from fiftysix.analyser.solver import Solver, warm_up
from fiftysix.cards import Table
from fiftysix.drills.banks import Bank, save_bank
from fiftysix.drills.problem_hands import record_seed, shipped_hands
from fiftysix.drills.problem_sets import KEY_CHARS, LEAD_SEED, lead_key, leads_name, starter_name
from fiftysix.drills.problems import (
    FIND_CARD,
    LEVELS,
    Budget,
    lead_problem,
    level_of,
    levels_at,
    open_positions,
    scan_record,
    tricks_left_after,
    verify,
)
from fiftysix.drills.questions import Question

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
        if limit is not None and time.perf_counter() - t_all > limit:
            print(f"{table.players}p leads: stopped at the time limit", flush=True)
            return
        t0 = time.perf_counter()
        q = lead_problem(rec, seed=LEAD_SEED)
        took = time.perf_counter() - t0
        _append(path, {"key": key, "seed": record_seed(rec), "problem": None if q is None else q.to_dict(),
                       "seconds": round(took, 2)})
        print(f"{table.players}p lead of hand {i + 1}/{len(hands)}: "
              f"{'-' if q is None else f'level {level_of(q)}'} ({took:.1f} s)", flush=True)


def _cards(table: Table, work: Path) -> list[Question]:
    return [Question.from_dict(d) for r in _lines(work / f"cards-{_tag(table)}.jsonl") for d in r["problems"]]


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
    scanned = {r["seed"] for r in _lines(path)}
    t_all = time.perf_counter()
    for i, rec in enumerate(shipped_hands(table)):
        chosen = choose_cards(_cards(table, work), per_level, per_hand)
        short = [lv for lv in LEVELS if len(chosen[lv]) < per_level]
        if not short:
            break
        seed = record_seed(rec)
        if seed in scanned:
            continue
        if limit is not None and time.perf_counter() - t_all > limit:
            print(f"{table.players}p cards: stopped at the time limit", flush=True)
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
    for _, q in _leads(table, work):
        if q is not None and sum(level_of(p) == level_of(q) for p in leads) < leads_per_level:
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
        if limit is not None and time.perf_counter() - t_all > limit:
            print(f"{table.players}p check: stopped at the time limit", flush=True)
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
    per: dict[str, int] = {}
    for q in qs:
        k = f"{q.type} {level_of(q)}"
        per[k] = per.get(k, 0) + 1
    print(f"{table.players}p: {len(qs)} problems written ({dict(sorted(per.items()))}); {len(scores)} of "
          f"{len(shipped_hands(table))} hands' leads scored", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stages", nargs="+", choices=("leads", "cards", "check", "write"))
    ap.add_argument("--tables", default="4,6,8")
    ap.add_argument("--work", default="build/problem-data", help="folder of what each stage found (resumable)")
    ap.add_argument("--out", default=str(DATA), help="folder the sets are written to")
    ap.add_argument("--per-level", type=int, default=12, help="find-the-card problems a level")
    ap.add_argument("--leads-per-level", type=int, default=20, help="opening leads a level (the other hands' leads"
                    " ship as their level only)")
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
            elif stage == "cards":
                stage_cards(table, work, args.per_level, args.per_hand, args.position_seconds, args.limit)
            elif stage == "check":
                stage_check(table, work, args.per_level, args.per_hand, args.leads_per_level, args.seed, args.limit)
            else:
                stage_write(table, work, args.per_level, args.per_hand, args.leads_per_level, out)
            print(f"{p}p {stage}: {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
