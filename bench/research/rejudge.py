"""Judge the `default` calls of a bench/bots.py log again with a change, bid on, and score.

bench/bots.py bids every deal afresh, so two versions of the bidding bot differ on every
table, and 80 deals a system leave intervals of +-0.2 stakes: a change worth +0.05 cannot be
seen. This reads the log (``--log`` of bench/bots.py: system, seed, auction, which side
`default` sat) and, table by table, asks `default` again at each of its decisions with the
change made (``--set name=value``, a field of ``fiftysix.bots.judge.JudgeParams``, given to the
bots as ``dataclasses.replace(PARAMS, name=value)``).
At the first call that differs, the auction is bid on from there by the same bots (the
changed `default` in its seats, `rules` in the others) and the new contract is scored
double-dummy (seat 1 leading) and, with ``--play``, with the card bot in every seat. Tables
whose calls all stay as they were keep their logged results. Printed per log: the tables
changed, stakes a deal for `default` before and after with the difference's 95% interval
over deals, its contracts made and its doubles right. With no change, every call must come
out as logged (a check of the seeding).

    nice .venv/bin/python -m bench.rejudge /tmp/s19/k.jsonl --set compete_at=0.5 --play
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import math
import statistics
import sys
import time
from pathlib import Path

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.solver import Position, max_points, warm_up
from fiftysix.bidding import Auction
from fiftysix.bidding.calls import DOUBLE
from fiftysix.bots import CardBot, JudgeBot, RulesBot, play_hand
from fiftysix.bots.judge import PARAMS, JudgeParams
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import stake

WHERE = {
    "all": lambda st, seat: True,
    "theirs": lambda st, seat: st.value is not None and not st.same_team(st.high_seat, seat),
    "ours": lambda st, seat: st.value is not None and st.same_team(st.high_seat, seat),
    "open": lambda st, seat: st.value is None,
}


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return f"{m:+.3f} [{m - h:+.2f}, {m + h:+.2f}]"


def params_with(settings: list[str]) -> JudgeParams:
    """The judge's parameters with each ``name=value`` replaced (``judge.NAME=value``, the old
    spelling of a module constant, reads as its field)."""
    fields = {f.name for f in dataclasses.fields(JudgeParams)}
    new = {}
    for kv in settings:
        name, _, value = kv.partition("=")
        name = name.rpartition(".")[2].lower()
        if name not in fields:
            sys.exit(f"JudgeParams has no field {name!r}: one of {', '.join(sorted(fields))}")
        old = getattr(PARAMS, name)
        if isinstance(old, tuple):
            new[name] = tuple(int(x) for x in value.split(","))
        elif isinstance(old, bool):
            new[name] = value.lower() in ("1", "true", "yes")
        else:
            new[name] = type(old)(value)
    return dataclasses.replace(PARAMS, **new)


def result(deal, seed: int, a: Auction, ours: int, play: bool) -> tuple[float, float | None, dict]:
    """(stake double-dummy, stake in play or None) for `default`'s team, and what happened."""
    c = a.contract
    if c is None:
        return 0, 0 if play else None, {"ours": False, "made_dd": None, "made_play": None, "by_default": False}
    table = deal.table
    pts = max_points(Position(table, deal.hands, c.trump, 1), c.team)[c.team]
    sign = 1 if c.team == ours else -1
    doubler = next((r.seat for r in reversed(a.calls) if r.call.kind == DOUBLE), None)
    info = {"ours": c.team == ours, "made_dd": pts >= c.value, "made_play": None,
            "by_default": c.doubled > 1 and doubler is not None and table.team_of(doubler) == ours}

    def signed(ok: bool) -> float:
        return sign * stake(c.value, ok, c.doubled) * (1 if ok else -1)

    out_pl = None
    if play:
        bots = [CardBot(seed)] * table.players  # as bench/bots.py seeds them
        info["made_play"] = bool(play_hand(deal, c, bots, auction=a).declarers_made())
        out_pl = signed(info["made_play"])
    return signed(info["made_dd"]), out_pl, info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="bench/bots.py --log files")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a field of fiftysix.bots.judge.JudgeParams (e.g. compete_at=0.5)")
    ap.add_argument("--where", choices=sorted(WHERE), default="all",
                    help="judge again only the decisions over their bid, our bid, or no bid")
    ap.add_argument("--play", action="store_true", help="score the changed tables with the card bots' play too")
    args = ap.parse_args()
    params = params_with(args.set)
    table = Table.make(args.players)
    warm_up()
    ydeals = dds_deals(40, 2026)
    dds = dds_median(ydeals)
    where = WHERE[args.where]
    for path in args.logs:
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
        rows = [r for r in rows if not r.get("full")]
        was_dd, now_dd = collections.defaultdict(list), collections.defaultdict(list)
        was_pl, now_pl = collections.defaultdict(list), collections.defaultdict(list)
        tally = collections.Counter()
        c0 = time.process_time()
        for r in rows:
            seed = r["seed"]
            deal = random_deal(table, seed)
            logged = Auction.parse(r["auction"], system=r["system"], table=table)
            odd = r["default_odd"]
            judge, rules = JudgeBot(seed, params), RulesBot(seed)
            bots = [judge if (s % 2 == 1) == odd else rules for s in table.seats]
            ours = 0 if odd else 1
            a = Auction(system=r["system"], table=table)
            changed = False
            for rec in logged.calls:
                seat = a.to_move
                if bots[seat - 1] is judge and where(a.state, seat):
                    call = judge.choose(a, deal.hand(seat)).call
                    if call != rec.call:
                        changed = True
                        a.apply(call)
                        break
                a.apply(rec.call)
            was_dd[seed].append(r["stake_dd"])
            if r.get("stake_play") is not None:
                was_pl[seed].append(r["stake_play"])
            if not changed:
                now_dd[seed].append(r["stake_dd"])
                if r.get("stake_play") is not None:
                    now_pl[seed].append(r["stake_play"])
                before = {k: r.get(k) for k in ("ours", "made_dd", "made_play", "by_default")}
                after = before
            else:
                tally["changed"] += 1
                while not a.is_over:
                    seat = a.to_move
                    a.apply(bots[seat - 1].choose(a, deal.hand(seat)).call)
                s_dd, s_pl, after = result(deal, seed, a, ours, args.play and r.get("stake_play") is not None)
                before = {k: r.get(k) for k in ("ours", "made_dd", "made_play", "by_default")}
                now_dd[seed].append(s_dd)
                if s_pl is not None:
                    now_pl[seed].append(s_pl)
                elif r.get("stake_play") is not None:
                    now_pl[seed].append(r["stake_play"])  # not played again: as logged
                print(f"  {r['system']} {seed} {'odd' if odd else 'even'}: {r['contract']} -> {a.contract}"
                      f" dd {r['stake_dd']:+.0f} -> {s_dd:+.0f}"
                      + (f", play {r['stake_play']:+.0f} -> {s_pl:+.0f}" if s_pl is not None else ""), flush=True)
            for tag, info in (("was", before), ("now", after)):
                if info["ours"]:
                    tally[f"{tag} declared"] += 1
                    tally[f"{tag} made dd"] += bool(info["made_dd"])
                    tally[f"{tag} made play"] += bool(info["made_play"])
                if info["by_default"]:
                    tally[f"{tag} doubles"] += 1
                    tally[f"{tag} doubles right"] += not info["made_dd"]
        seeds = sorted(was_dd)
        cpu = time.process_time() - c0
        print(f"{path}: {len(rows)} tables, {tally['changed']} changed; {cpu:.0f} s CPU"
              f" ({cpu / max(1, len(rows)) / dds:.0f} DDS a table)")
        for name, was, now in (("double-dummy", was_dd, now_dd), ("in play", was_pl, now_pl)):
            ks = [s for s in seeds if was[s]]
            if not ks:
                continue
            diff = [statistics.fmean(now[s]) - statistics.fmean(was[s]) for s in ks]
            print(f"  stakes a deal {name}: was {interval([statistics.fmean(was[s]) for s in ks])},"
                  f" now {interval([statistics.fmean(now[s]) for s in ks])}, difference {interval(diff)}")
        print(f"  default's contracts: declared {tally['was declared']} -> {tally['now declared']}, made dd"
              f" {tally['was made dd']} -> {tally['now made dd']}; doubles {tally['was doubles']} -> {tally['now doubles']},"
              f" right dd {tally['was doubles right']} -> {tally['now doubles right']}", flush=True)
    dds = (dds + dds_median(ydeals)) / 2
    print(f"DDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals, before and after)")


if __name__ == "__main__":
    main()
