"""Duplicate matches between the bidding bots, scored by the stakes, and the bots' timings.

For each system, the same seeded deals are bid twice: ``default`` in the odd seats against
``rules`` in the even seats, then the other way round. Each final contract is scored by the
stake table (RULES.md 5) twice: double-dummy (seat 1 leading), and with the card bot playing
every seat from its own view. Printed per system: ``default``'s stakes per table (mean of
the two tables of each deal, with a 95% interval over deals), the share of its contracts
that make (double-dummy and in play), its doubles that were right (the doubled contract
failed), and the double-dummy optimism: the points the declarers take double-dummy beyond
the target, against the share that makes in play (the gap ``fiftysix.bots.judge.JudgeParams.dd_gap``
corrects for) and the gap fitted to them. ``--full N`` also bids the first N deals with
``default`` in every seat, timing the whole auction; ``--log FILE`` writes one JSON line per
table (auction, contract, double-dummy points, results) for looking at the deals lost.
Timings are CPU seconds of this process (the machine is shared; wall seconds are printed too),
each also in DDS solves: DDS (endplay) solving bench/solver.py's seeded bridge deals is timed
at the start and the end of the run, the yardstick.

    nice .venv/bin/python -m bench.bots --deals 40 --play 20 --full 4 --systems basic
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.solver import Position, max_points, warm_up
from fiftysix.bidding import SYSTEMS
from fiftysix.bidding.calls import DOUBLE
from fiftysix.bots import CardBot, JudgeBot, RulesBot, bid_auction, play_hand
from fiftysix.cards import Table, random_deal
from fiftysix.scoring import stake


class Timed:
    """Wraps a bot's ``choose`` to record CPU and wall seconds per decision."""

    def __init__(self, bot) -> None:
        self.bot, self.cpu, self.wall, self.said = bot, [], [], []
        self.name = bot.name

    def choose(self, *args):
        c0, w0 = time.process_time(), time.perf_counter()
        out = self.bot.choose(*args)
        self.cpu.append(time.process_time() - c0)
        self.wall.append(time.perf_counter() - w0)
        self.said.append(f"{getattr(out, 'call', None) or out.card}: {out.reason}")
        return out


def interval(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - h, m + h


def pct(k: int, n: int) -> str:
    return f"{k}/{n} {100 * k / n:.0f}%" if n else "0/0"


class Tally:
    """One way of scoring (double-dummy or the bots' play): default's contracts and doubles."""

    def __init__(self) -> None:
        self.declared = self.made = self.doubles = self.doubles_right = 0

    def add(self, c, made: bool, sign: int, ours: bool, our_double: bool) -> int:
        """Count one contract; return its stake for default's team (signed)."""
        if ours:
            self.declared += 1
            self.made += made
        if our_double:
            self.doubles += 1
            self.doubles_right += not made
        return sign * stake(c.value, made, c.doubled) * (1 if made else -1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=20, help="deals per system")
    ap.add_argument("--play", type=int, default=8, help="of those, deals also scored with the bots' card play")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--systems", default=",".join(sorted(SYSTEMS)))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--full", type=int, default=0,
                    help="of those, deals also bid with `default` in every seat (timing a whole auction)")
    ap.add_argument("--log", help="write one JSON line per table (auction, contract, results) to this file")
    args = ap.parse_args()
    log = open(args.log, "a", buffering=1) if args.log else None  # noqa: SIM115 - a line at a time: a killed run keeps its rows
    warm_up()
    ydeals = dds_deals(40, 2026)
    dds_before = dds_median(ydeals)
    table = Table.make(args.players)
    judge_cpu, judge_wall, auction_cpu, card_cpu, card_wall = [], [], [], [], []
    full_cpu, full_wall = [], []
    gaps: list[tuple[int, int, bool]] = []  # (DD points - target, target, made in play)
    for system in args.systems.split(","):
        dd, pl = [], []
        tally_dd, tally_pl = Tally(), Tally()
        for i in range(args.deals):
            seed = args.seed * 1_000_003 + i
            deal = random_deal(table, seed)
            judge, rules = Timed(JudgeBot(seed)), RulesBot(seed)
            if i < args.full:
                c0, w0 = time.process_time(), time.perf_counter()
                fa = bid_auction(deal, system, [judge] * table.players)
                full_cpu.append(time.process_time() - c0)
                full_wall.append(time.perf_counter() - w0)
                if log is not None:
                    log.write(json.dumps({"system": system, "seed": seed, "full": True, "auction": str(fa),
                                          "cpu": full_cpu[-1], "wall": full_wall[-1]}) + "\n")
            played_cache: dict[str, bool] = {}
            row_dd, row_pl = [], []
            for default_odd in (True, False):
                bots = [judge if (s % 2 == 1) == default_odd else rules for s in table.seats]
                c0, n0 = time.process_time(), len(judge.cpu)
                a = bid_auction(deal, system, bots)
                auction_cpu.append(time.process_time() - c0)
                c = a.contract
                ours = 0 if default_odd else 1  # default's team index (odd seats are team 0)
                row = {"system": system, "seed": seed, "default_odd": default_odd, "auction": str(a),
                       "auction_cpu": auction_cpu[-1], "judge_cpu": judge.cpu[n0:], "judge_wall": judge.wall[n0:],
                       "judge_said": judge.said[n0:]}
                if c is None:
                    row_dd.append(0)
                    row_pl.append(0)
                    if log is not None:
                        log.write(json.dumps(row | {"contract": "None", "ours": False, "by_default": False,
                                                    "stake_dd": 0, "stake_play": 0 if i < args.play else None}) + "\n")
                    continue
                pts = max_points(Position(table, deal.hands, c.trump, 1), c.team)[c.team]
                ok_dd = pts >= c.value
                sign = 1 if c.team == ours else -1
                doubler = next((r.seat for r in reversed(a.calls) if r.call.kind == DOUBLE), None)
                by_default = c.doubled > 1 and doubler is not None and table.team_of(doubler) == ours
                row_dd.append(tally_dd.add(c, ok_dd, sign, c.team == ours, by_default))
                if i < args.play:
                    key = str(c) + str(c.declarer)
                    if key not in played_cache:
                        cb = Timed(CardBot(seed))
                        state = play_hand(deal, c, [cb] * table.players, auction=a)
                        card_cpu.extend(cb.cpu)
                        card_wall.extend(cb.wall)
                        row |= {"card_cpu": cb.cpu, "card_wall": cb.wall}
                        played_cache[key] = bool(state.declarers_made())
                        gaps.append((pts - c.value, c.value, played_cache[key]))
                    ok_pl = played_cache[key]
                    row_pl.append(tally_pl.add(c, ok_pl, sign, c.team == ours, by_default))
                if log is not None:
                    log.write(json.dumps(row | {
                        "contract": str(c), "declarer": c.declarer, "team": c.team, "ours": c.team == ours,
                        "doubled": c.doubled, "by_default": by_default, "dd_points": int(pts),
                        "made_dd": bool(ok_dd), "made_play": played_cache.get(str(c) + str(c.declarer)),
                        "stake_dd": row_dd[-1], "stake_play": row_pl[-1] if i < args.play else None}) + "\n")
                    log.flush()
            dd.append(statistics.fmean(row_dd))
            if i < args.play:
                pl.append(statistics.fmean(row_pl))
            judge_cpu.extend(judge.cpu)
            judge_wall.extend(judge.wall)
        m, lo, hi = interval(dd)
        line = f"{system:13} dd {m:+.2f} [{lo:+.2f}, {hi:+.2f}] over {len(dd)} deals"
        if pl:
            m, lo, hi = interval(pl)
            line += f" | play {m:+.2f} [{lo:+.2f}, {hi:+.2f}] over {len(pl)}"
        print(line)
        print(f"{'':13} default's contracts make dd {pct(tally_dd.made, tally_dd.declared)}, in play {pct(tally_pl.made, tally_pl.declared)};"
              f" its doubles right dd {pct(tally_dd.doubles_right, tally_dd.doubles)}, in play"
              f" {pct(tally_pl.doubles_right, tally_pl.doubles)}", flush=True)
    if gaps:
        for g in range(6):
            dd_rate = sum(1 for d, _, _ in gaps if d >= g) / len(gaps)
            print(f"dd makes with {g} points to spare: {dd_rate:.0%}", end="; ")
        played = sum(1 for *_, p in gaps if p) / len(gaps)
        print(f"in play: {played:.0%} of {len(gaps)} contracts played")
        fit = min(range(12), key=lambda g: abs(sum(1 for d, _, _ in gaps if d >= g) / len(gaps) - played))
        print(f"fitted gap (points to spare double-dummy whose making share equals the share made in play): {fit}")
    dds = (dds_before + dds_median(ydeals)) / 2
    print(f"DDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals, before and after)")

    def fig(xs: list[float], digits: int = 3) -> str:
        med = statistics.median(xs)
        return f"{med:.{digits}f} s CPU ({med / dds:.0f} DDS)"

    print(f"default bid decision: median {fig(judge_cpu)} (wall {statistics.median(judge_wall):.3f}),"
          f" p90 {statistics.quantiles(judge_cpu, n=10)[-1]:.2f}, max {max(judge_cpu):.2f};"
          f" auction (both bots): median {fig(auction_cpu, 2)}, max {max(auction_cpu):.2f}")
    if full_cpu:
        print(f"all-default auction: median {fig(full_cpu, 2)} (wall {statistics.median(full_wall):.2f}),"
              f" max {max(full_cpu):.2f} (wall {max(full_wall):.2f}) over {len(full_cpu)} auctions;"
              f" over 3 s: {sum(x > 3 for x in full_cpu)} CPU, {sum(x > 3 for x in full_wall)} wall")
    if card_cpu:
        print(f"card decision: median {fig(card_cpu)} (wall {statistics.median(card_wall):.3f}),"
              f" max {max(card_cpu):.2f}")


if __name__ == "__main__":
    main()
