"""Play the tables of a bench/bots.py log again with the card bot: the in-play figures of a
card-bot change on the very same auctions.

bench/bots.py scores every table with the card bots' play, but its matches bid every deal
again, so two versions of the bots differ in the auctions as well as in the play, and 40
deals a system leave intervals of +-0.3 stakes. A change to the card bot alone leaves the
auctions as they were: this reads the log (``--log`` of bench/bots.py: system, seed,
auction, which side `default` sat), plays each contract out with the card bot in every seat
(each from its own view and what the calls claim, as bench/bots.py does), and compares the
result table by table with the log's: stakes a deal for `default` in play, the contracts
made, the doubles right, and the difference from the log with a 95% interval over deals.
With the card bot unchanged, every result must come out as logged (a check of the seeding).

    nice .venv/bin/python -m bench.replay /tmp/F_kerala.jsonl --set SAFETY=10
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import statistics
import sys
import time
from pathlib import Path

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.solver import warm_up
from fiftysix.bidding import Auction
from fiftysix.bots import (
    CardBot,
    cardplay,
    play_hand,
)
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import stake


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="bench/bots.py --log files")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a constant of drills/bots/cardplay.py to change for this run (e.g. SAFETY=10)")
    ap.add_argument("--every", type=int, default=1, help="play every k-th table only")
    ap.add_argument("--doubled", action="store_true", help="play the tables with a doubled contract only")
    args = ap.parse_args()
    samples = cardplay.CARD_SAMPLES
    for kv in args.set:
        name, _, value = kv.partition("=")
        if not hasattr(cardplay, name):
            sys.exit(f"drills/bots/cardplay.py has no constant {name}")
        setattr(cardplay, name, type(getattr(cardplay, name))(value))
        if name == "CARD_SAMPLES":
            samples = int(value)
    table = Table.make(args.players)
    warm_up()
    ydeals = dds_deals(40, 2026)
    dds = dds_median(ydeals)
    for path in args.logs:
        rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
        rows = [r for r in rows if not r.get("full") and r.get("stake_play") is not None
                and (not args.doubled or r["contract"].endswith("x"))][::args.every]
        now = collections.defaultdict(list)
        was = collections.defaultdict(list)
        made = [0, 0, 0]  # default's contracts: played, made as logged, made now
        doubles = [0, 0, 0]
        same = 0
        played: dict[tuple, bool] = {}
        c0 = time.process_time()
        for r in rows:
            a = Auction.parse(r["auction"], system=r["system"], table=table)
            c = a.contract
            result = 0
            if c is not None:
                key = (r["seed"], str(c), c.declarer)  # bench/bots.py plays a deal's contract once
                if key not in played:
                    state = play_hand(random_deal(table, r["seed"]), c,
                                      [CardBot(r["seed"], samples)] * table.players, auction=a)
                    played[key] = bool(state.declarers_made())
                ok = played[key]
                sign = 1 if r["ours"] else -1
                result = sign * stake(c.value, ok, c.doubled) * (1 if ok else -1)
                if r["ours"]:
                    made[0] += 1
                    made[1] += bool(r["made_play"])
                    made[2] += ok
                if r.get("by_default"):
                    doubles[0] += 1
                    doubles[1] += not r["made_play"]
                    doubles[2] += not ok
            same += result == r["stake_play"]
            now[r["seed"]].append(result)
            was[r["seed"]].append(r["stake_play"])
        seeds = sorted(now)
        diff = [statistics.fmean(now[s]) - statistics.fmean(was[s]) for s in seeds]
        cpu = time.process_time() - c0
        print(f"{path}: {len(rows)} tables ({len(seeds)} deals), {same} with the logged result;"
              f" {cpu:.0f} s CPU, {cpu / max(1, len(rows)):.2f} s a table ({cpu / max(1, len(rows)) / dds:.0f} DDS)")
        print(f"  stakes a deal in play: logged {interval([statistics.fmean(was[s]) for s in seeds])},"
              f" now {interval([statistics.fmean(now[s]) for s in seeds])}, difference {interval(diff)}")
        print(f"  default's contracts made in play: logged {made[1]}/{made[0]}, now {made[2]}/{made[0]};"
              f" its doubles right in play: logged {doubles[1]}/{doubles[0]}, now {doubles[2]}/{doubles[0]}",
              flush=True)


    dds = (dds + dds_median(ydeals)) / 2
    print(f"DDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals, before and after)")


if __name__ == "__main__":
    main()
