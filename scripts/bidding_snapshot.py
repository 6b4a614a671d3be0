"""Print every system's answers on random auctions, one JSON line each, to compare two trees.

For a refactor of the bidding package: run it on the old tree and on the new one and diff the
outputs; any change of a meaning, a legal/illegal verdict or the words of a broken rule shows.

    python scripts/bidding_snapshot.py --repo /path/to/old > old.jsonl
    python scripts/bidding_snapshot.py > new.jsonl && cmp old.jsonl new.jsonl

At each step of each random auction it records, for every call the system could make (and
a fixed set of calls of every form, most of them illegal somewhere): what the system reads
(the rule broken, or the reading's value, trump, cards shown, suit named and meaning), the
verdict with the caller's hand, the meaning with the note on the caller's earlier calls, and
the legal calls; at the end the contract.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ODD = ("NS", "28NS", "+H", "+1H", "+2H", "+4H", "+5S", "H+", "H+1", "H+2", "+1NT", "+2NT", "+NT",
       "+NS", "+1NS", "+2NS", "+3NS", "+5NS", "1+H", "3+D", "5+C", "-H", "-1C", "-3S", "+P",
       "40H^", "48NS^", "56S^", "41H^", "28-Pass", "29-Pass", "P", "X", "XX", "28H", "H28", "30NT",
       "56C", "56NS", "56NT", "S56")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repo", help="the tree whose fiftysix package to read (default: this one)")
    p.add_argument("--auctions", type=int, default=6, help="random auctions per system and table")
    p.add_argument("--seed", type=int, default=56)
    args = p.parse_args(argv)
    root = Path(args.repo).resolve() if args.repo else Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    import fiftysix
    from fiftysix.bidding import SYSTEMS, Auction
    from fiftysix.bidding.calls import parse_call
    from fiftysix.bidding.state import Reading
    from fiftysix.cards import Table, random_deal
    from fiftysix.errors import FiftySixError
    print(f"reading {fiftysix.__file__}", file=sys.stderr)
    odd = [parse_call(t) for t in ODD]
    out = sys.stdout

    def reading(r: object) -> object:
        if not isinstance(r, Reading):
            return ["broken", str(r)]
        m = r.meaning
        return [r.value, r.trump, [int(c) for c in r.shows], r.names,
                None if r.counts_as is None else str(r.counts_as),
                m.label, m.sentence, m.constraint.to_dict()]

    for name in sorted(SYSTEMS):
        for players in (4, 6, 8):
            for teams in ("alternate", "pairs"):
                table = Table.make(players, teams=teams)
                for i in range(args.auctions):
                    rng = random.Random(f"{args.seed}-{name}-{players}-{teams}-{i}")
                    deal = random_deal(table, rng=rng)
                    a = Auction(name, table, deal)
                    bias = rng.choice([0.4, 0.6, 0.8])
                    while not a.is_over and len(a.calls) < 60:
                        seat = a.to_move
                        hand = deal.hand(seat)
                        calls = list(dict.fromkeys([*a.system.candidates(a.state, seat), *odd]))
                        rows = []
                        for c in calls:
                            r = a.system.interpret(a.state, seat, c)
                            row = [str(c), reading(r), str(a.check(c, hand)), str(a.check(c))]
                            if a.check(c) is None:
                                row.append(a.meaning_of(c).sentence)
                            rows.append(row)
                        legal = [str(c) for c in a.legal_calls(hand)]
                        json.dump({"system": name, "table": [players, teams], "auction": str(a),
                                   "legal": legal, "calls": rows}, out)
                        out.write("\n")
                        quiet = [c for c in legal if c == "P"]
                        a.apply(quiet[0] if quiet and rng.random() < bias else rng.choice(legal))
                    try:
                        contract = str(a.contract)
                    except FiftySixError as e:
                        contract = f"error: {e}"
                    json.dump({"system": name, "auction": str(a), "over": a.is_over,
                               "contract": contract}, out)
                    out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
