"""Summaries of a statistics run per call and context, and the small files the app ships.

For each call made after a given auction (its context), in a system: how many deals it came
up in, and the share of them in which the caller's team takes at least 28, 32, 40, 48 and 56
points double-dummy in the strain standing after the call (its best strain while nothing is
bid yet), with 95% Wilson intervals, and a histogram of those points.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from fiftysix import shipped
from fiftysix.bidding.calls import format_calls, parse_calls
from fiftysix.bidding.systems import get_system
from fiftysix.cards import Table
from fiftysix.stats.deals import STRAINS
from fiftysix.stats.job import read_run

THRESHOLDS = (28, 32, 40, 48, 56)
BIN = 4  # histogram bins of 4 points: 0-3, 4-7, ..., 52-55, then 56 alone
BINS = 56 // BIN + 1
SHIP_MIN_COUNT = 10  # contexts seen fewer times are left out of the shipped files


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def histogram(points: np.ndarray) -> list[int]:
    """Counts of points in bins of BIN (the last bin is 56 alone)."""
    return np.bincount(np.minimum(points // BIN, BINS - 1), minlength=BINS).astype(int).tolist()


def bin_labels() -> list[str]:
    return [f"{b * BIN}-{b * BIN + BIN - 1}" for b in range(BINS - 1)] + ["56"]


def _canonical(auction: str) -> str:
    return format_calls(parse_calls(auction)) if auction.strip() else ""


def summarise(out: str | Path, *, system: str | None = None, call: str | None = None,
              after: str | None = None, min_count: int = 1) -> dict:
    """The summary of the run in ``out``, per system, context and call (filters optional)."""
    spec, rows, deals = read_run(out)
    df = rows.to_pandas()
    if system is not None:
        name = get_system(system).name
        df = df[df["system"] == name]
    if call is not None:
        df = df[df["call"] == _canonical(call)]
    if after is not None:
        df = df[df["before"] == _canonical(after)]
    best = df[[f"dd_{s}" for s in STRAINS]].max(axis=1)
    df = df.assign(pts=df["dd"].fillna(best).astype(int), shown=df["strain"].fillna("best"))
    groups = []
    for (sys_name, before, c, strain), g in df.groupby(["system", "before", "call", "shown"], sort=False):
        n = len(g)
        if n < min_count:
            continue
        pts = g["pts"].to_numpy()
        made = [int((pts >= t).sum()) for t in THRESHOLDS]
        groups.append({"system": sys_name, "after": before, "call": c, "form": g["form"].iloc[0],
                       "strain": strain, "count": n, "mean": round(float(pts.mean()), 2),
                       "share": [round(m / n, 4) for m in made],
                       "interval": [[round(x, 4) for x in wilson(m, n)] for m in made],
                       "hist": histogram(pts)})
    groups.sort(key=lambda g: (-g["count"], g["system"], g["after"], g["call"]))
    out_d = {"out": str(out), "deals": deals, "of": spec.deals, "seed": spec.seed, "bots": spec.bots,
             "table": {"players": spec.players, "deck": spec.deck, "teams": spec.teams},
             "thresholds": list(THRESHOLDS), "bins": bin_labels(), "groups": groups}
    if call is not None and len(df):
        out_d["histogram"] = histogram(df["pts"].to_numpy())
    return out_d


def _context(after: str) -> str:
    return "(opening)" if after == "" else after


def format_summary(summary: dict, top: int = 25) -> str:
    """The summary as text: one line per call and context, then the histogram if one call."""
    t = summary["table"]
    lines = [f"{summary['deals']} of {summary['of']} deals done (seed {summary['seed']}, bot {summary['bots']},"
             f" {t['players']} players, {t['deck']} cards, teams {t['teams']}); points = the caller's team's"
             " double-dummy take in the strain after the call"]
    groups = summary["groups"]
    if not groups:
        return "\n".join(lines + ["no call matches"])
    width = max(9, *(len(_context(g["after"])) for g in groups[:top]))
    lines.append(f"{'system':<13} {'after':<{width}} {'call':<6} {'n':>6} {'strain':<6} {'mean':>5} "
                 + " ".join(f"{f'{x}+':>13}" for x in summary["thresholds"]))
    for g in groups[:top]:
        cells = " ".join(f"{p:>5.0%} {f'{lo:.0%}-{hi:.0%}':>7}" for p, (lo, hi) in zip(g["share"], g["interval"]))
        lines.append(f"{g['system']:<13} {_context(g['after']):<{width}} {g['call']:<6} {g['count']:>6} "
                     f"{g['strain']:<6} {g['mean']:>5.1f} {cells}")
    if len(groups) > top:
        lines.append(f"... {len(groups) - top} more (--top, or --json for all)")
    if "histogram" in summary:
        hist = summary["histogram"]
        most = max(hist) or 1
        lines.append("points histogram of the selected calls:")
        for label, n in zip(summary["bins"], hist):
            lines.append(f"  {label:>5} {n:>6} {'#' * round(40 * n / most)}")
    return "\n".join(lines)


# --- the shipped summaries the app reads ---------------------------------------------------

def shipped_name(system: str, table: Table) -> str:
    return f"{get_system(system).name}-{table.players}x{table.deck}-{table.teams}.json"


def ship(out: str | Path, dest: str | Path, min_count: int = SHIP_MIN_COUNT) -> list[Path]:
    """Write one small summary file per system of the run in ``out`` into ``dest`` (the
    repository's data/stats/ for the files the package ships: scripts/build-stats)."""
    summary = summarise(out, min_count=min_count)
    spec, _, _ = read_run(out)
    table = Table(spec.players, spec.deck, spec.teams)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for system in spec.systems:
        groups = {f"{g['after']}|{g['call']}": {k: g[k] for k in ("strain", "count", "share", "hist")}
                  for g in summary["groups"] if g["system"] == system}
        doc = {"system": system, "table": summary["table"], "deals": summary["deals"], "seed": spec.seed,
               "bots": spec.bots, "min_count": min_count, "thresholds": list(THRESHOLDS),
               "bins": bin_labels(), "made_by": "scripts/build-stats", "calls": groups}
        path = dest / shipped_name(system, table)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n")
        tmp.replace(path)
        written.append(path)
    return written


@lru_cache(maxsize=32)
def load_shipped(system: str, players: int, deck: int, teams: str) -> dict | None:
    """The shipped summary for a system at a table set-up, or None when none is shipped."""
    f = shipped.data_file("stats", shipped_name(system, Table(players, deck, teams)))
    if not f.is_file():
        return None
    return json.loads(f.read_text(encoding="utf-8"))


def call_worth(system: str, table: Table, before: str, call: str) -> tuple[dict, dict | None] | None:
    """(the shipped file, the entry for ``call`` after ``before`` or None); None if nothing shipped."""
    doc = load_shipped(get_system(system).name, table.players, table.deck, table.teams)
    if doc is None:
        return None
    return doc, doc["calls"].get(f"{_canonical(before)}|{_canonical(call)}")


def main(argv: list[str] | None = None) -> int:
    import sys
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m fiftysix.stats.summary RUN_DIR DEST", file=sys.stderr)
        return 2
    for path in ship(args[0], args[1]):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
