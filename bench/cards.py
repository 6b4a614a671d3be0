"""The card bot's time per card on every table set-up, against DDS in the same run.

For each set-up, seeded deals are bid by the ``rules`` bot (international) and played out by
the card bot in every seat, each from its own view and what the calls claim (as the bench of
the bots and the practice table play); every card's CPU seconds are timed (the
machine is shared: CPU, not wall). DDS (endplay) solving bench/solver.py's seeded bridge
deals is timed before and after, and each figure is also given in DDS solves.
Issue 23's goal: a card at most 0.5 s.

    nice .venv/bin/python -m bench.cards --deals 4 --setups 4x8,6x8,8x6,8x8
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.simulate import dds_deals, dds_median
from fiftysix.analyser.dealer import View
from fiftysix.analyser.solver import warm_up
from fiftysix.bots import CardBot, RulesBot, bid_auction
from fiftysix.bots.worth import bid_claims
from fiftysix.cards import Table, random_deal
from fiftysix.play import PlayState


def card_times(players: int, per_hand: int, deals: int) -> list[float]:
    """CPU seconds of every card the bots chose (forced cards included) on ``deals`` deals."""
    table = Table.make(players, players * per_hand)
    out: list[float] = []
    for seed in range(1, deals + 1):
        deal = random_deal(table, seed=seed)
        auction = bid_auction(deal, "international", [RulesBot(seed)] * players)
        c = auction.contract
        if c is None:
            continue
        bots = [CardBot(seed) for _ in range(players)]
        cons = auction.seat_constraints()
        state = PlayState.for_contract(deal, c)
        plays: list = []
        while not state.is_over:
            seat = state.to_move
            view = View(table, seat, deal.hand(seat), cons, tuple(plays), 1)
            t = time.process_time()
            card = bots[seat - 1].choose(view, c, bid_claims(auction, seat)).card
            out.append(time.process_time() - t)
            plays.append((seat, card))
            state.play(card)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4, help="deals per set-up")
    ap.add_argument("--setups", default="4x8,6x8,8x6,8x8", help="players x cards per hand")
    args = ap.parse_args()
    warm_up()
    ydeals = dds_deals(40, 2026)
    before = dds_median(ydeals)
    rows = []
    for s in args.setups.split(","):
        p, h = (int(x) for x in s.split("x"))
        ts = sorted(card_times(p, h, args.deals))
        rows.append((s, ts))
    dds = (before + dds_median(ydeals)) / 2
    print(f"DDS median solve {dds * 1000:.2f} ms (bridge, 40 seeded deals, before and after)")
    for s, ts in rows:
        med, p90, top = statistics.median(ts), ts[int(0.9 * (len(ts) - 1))], ts[-1]
        print(f"{s}: {len(ts)} cards, CPU median {med:.3f} s ({med / dds:.1f} DDS), p90 {p90:.3f} s,"
              f" max {top:.3f} s ({top / dds:.0f} DDS); goal 0.5 s")


if __name__ == "__main__":
    main()
