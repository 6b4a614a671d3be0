"""The cost of a node: instructions per node of the kernels, per kernel function, under callgrind.

Wall and CPU time move with the load of a shared machine; instruction counts do not. This
runs fixed `max_points` searches (bench/solver.py's 6 x 8 and 8 x 8 deals, a fresh table
each) under valgrind's callgrind with instrumentation switched on only after the kernels are
loaded, and attributes the instructions executed in the numba kernels (JIT code, which has no
symbols for valgrind) to the kernel functions by their addresses.

    .venv/bin/python -m bench.solver_cost [--sets 6:0-11,8:0-2] [--out /tmp/solver_cost]

A set is ``players:deals``, ``players x hand size:deals`` (``4x12:0-2``) or ``estHAND[sSEAT]:deals`` (``est7:0-9``: bench/estimate_nodes.py's searches; deal numbers of bench/solver.py's seeded sequence, ``a-b`` or
``a,b``). Prints the nodes, the kernels' instructions, instructions per node, and each kernel
function's own instructions (``calls`` from callgrind's call counts). A search change that
keeps node counts equal is a pure speed change: compare instructions per node. Needs valgrind
(about a minute for the default sets, mostly loading the kernels under valgrind).
``--listing _ab,_gen_moves`` writes each named kernel function's instructions (objdump of the
code as the searching process ran it) with each one's executions a node, to find the costly
blocks inside a function. ``--inner`` is the process valgrind runs (the searches themselves).
"""
from __future__ import annotations

import argparse
import bisect
import collections
import glob
import os
import random
import re
import subprocess
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def _deals(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _sets(text: str) -> list[tuple[int, int, list[int]]]:
    # "6:0-11,8:0-2" or "6:0,1,2,8:0": a new set starts at each "players:"; "bridge:0-3" (players 0):
    # bench/solver_nodes.py's bridge deals (seed 2026), searched as bridge.tricks searches a deal;
    # "4x12:0-2": players x hand size, bench/solver.py's set-up of that name (hand size 0: the table's own);
    # "est7:0-9" / "est7s2:0-9" (players -1, hand 10 x hand + seat): bench/estimate_nodes.py's 6 x 8
    # estimate of hand 7 from seat 1 (on lead; default) or 2, its deals 0-9 solved as one worker does
    out: list[tuple[int, int, list[int]]] = []
    head = r"(?:\d+(?:x\d+)?|bridge|est\d+(?:s\d)?)"
    for m in re.finditer(rf"({head}):([\d,\-]+?)(?=,{head}:|$)", text):
        if m.group(1).startswith("est"):
            hand, _, seat = m.group(1)[3:].partition("s")
            out.append((-1, 10 * int(hand) + int(seat or 1), _deals(m.group(2))))
            continue
        players, _, hand = m.group(1).partition("x")
        out.append((0 if players == "bridge" else int(players), int(hand or 0), _deals(m.group(2))))
    return out


def _estimate(hand: int, seat: int, keep: list[int]) -> int:
    """bench/estimate_nodes.py's searches of one hand and seat (6 x 8, 200 deals drawn), deals
    0 to max(keep) solved in order as one worker solves them; the nodes of all of them (``keep``
    is taken as that range: a deal's first guess comes from the deal before)."""
    from fiftysix.analyser import solver as S
    from fiftysix.analyser.dealer import Dealer, View
    from fiftysix.analyser.pool import Worker
    from fiftysix.analyser.simulate import _Deals, _lead_cards
    from fiftysix.cards import Table, random_deal
    from fiftysix.scoring import Contract

    table = Table.make(6, None)
    contract = Contract.make(table, 30, 0, 2)
    view = View(table, seat, random_deal(table, seed=hand).hand(seat))
    job = _Deals(view, contract, _lead_cards(view, contract.trump), True, Dealer(view).sample_counts(200, 1))
    solver = S.Solver()
    worker: Worker[S.Solver] = Worker(solver, lambda: False)
    total = 0
    for i in range(max(keep) + 1):
        solver.reset_counts()
        assert job.solve(worker, i) is not None
        total += solver.nodes
    return total


def inner(sets: list[tuple[int, int, list[int]]], out: str) -> None:
    """The searches (run under valgrind): the kernels loaded uninstrumented, then measured."""
    from fiftysix.analyser import _kernels as K
    from fiftysix.analyser import solver as S
    from fiftysix.cards import Table, random_deal

    # (no time budget: a search with one searches the same tree as without, and the clock of
    # a run under valgrind would be no measure of one)
    def run(players: int, hand: int, keep: list[int]) -> int:
        if players < 0:
            return _estimate(hand // 10, hand % 10, keep)
        if not players:
            from bench.solver_nodes import deals_of
            from fiftysix.analyser import bridge

            solver = S.Solver(48)
            total = 0
            for i, (enc, side, bd) in enumerate(deals_of("bridge", max(keep) + 1, 2026)):
                if i in keep:
                    solver.clear()
                    solver.nodes = 0
                    solver.value(enc, side, guess=bridge.first_guess(13, bd[2]), gallop=False)
                    total += solver.nodes
            return total
        deck = players * hand if hand else Table.make(players).deck
        tab = Table(players, deck)
        # bench/solver.py's seeds: a set-up with another deck than the table's own is seeded apart
        rng = random.Random(56 + players + (0 if deck == Table.make(players).deck else 1000 * deck))
        solver = S.Solver(48)
        total = 0
        for i in range(max(keep) + 1):
            deal = random_deal(tab, seed=rng.randrange(10 ** 9))
            trump = rng.choice((0, 1, 2, 3, None))
            if i in keep:
                solver.clear()
                solver.nodes = 0
                S.max_points(S.Position(tab, deal.hands, trump, 1), solver=solver)
                total += solver.nodes
        return total

    run(6, 0, [11])  # loads the kernels
    # (whichever driver kernel the searches compiled: every kernel shares numba's one engine)
    kern = K.solve_kernel if K.solve_kernel.overloads else K.value_kernel
    engine = kern.overloads[next(iter(kern.overloads))].library._codegen._engine
    with open(out + ".map", "w") as f:
        f.writelines(f"{engine.get_function_address(name)} {name}\n" for name in engine._defined_symbols)
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=False, capture_output=True)
    for players, hand, keep in sets:
        print("NODES", players, run(players, hand, keep), flush=True)
        # each set's counts dumped apart (``--callgrind-out-file``'s name with ``.1``, ``.2``, ...)
        subprocess.run(["callgrind_control", "-d", str(os.getpid())], check=False, capture_output=True)
    # the kernel functions' code as this process runs it (for ``--listing``: compiled under
    # valgrind, the code can differ from the same kernels' outside it)
    import ctypes

    starts = sorted(a for a in (engine.get_function_address(n) for n in engine._defined_symbols) if a)
    with open(out + ".code", "w") as f:
        for name in engine._defined_symbols:
            a = engine.get_function_address(name)
            if a and re.search(r"_kernels\d+\w+?B\d+v", name) and name.startswith("_ZN8fiftysix"):
                i = bisect.bisect_right(starts, a)
                size = min(starts[i] - a if i < len(starts) else 65536, 65536)
                f.write(f"{a} {name} {ctypes.string_at(a, size).hex()}\n")


def attribute(cg: str, symbols: str) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """Each kernel function's own instructions and calls, from callgrind's output."""
    spans: list[tuple[int, str]] = []
    with open(symbols) as f:
        lines = f.read().splitlines()
    for line in lines:
        a, name = line.split(None, 1)
        m = re.search(r"_kernels\d+(\w+?)B\d+v", name)
        if m and int(a) and not name.startswith(("cpython", "cfunc")):
            spans.append((int(a), m.group(1)))
    spans.sort()
    starts = [a for a, _ in spans]
    own: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    names: dict[str, str] = {}
    pos, after_call, callee = 0, False, ""
    with open(cg) as f:
        text = f.read().splitlines()
    for line in text:
        m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3).strip().split("'")[0]  # (name'2: a recursion level)
            if m.group(1):
                callee = names.get(m.group(2), "")
            continue
        if line.startswith("calls="):
            after_call = True
            if callee.startswith("0x"):
                i = bisect.bisect_right(starts, int(callee, 16)) - 1
                if i >= 0 and starts[i] == int(callee, 16):
                    calls[spans[i][1]] += int(line[6:].split()[0])
            continue
        if not line or line[0] not in "0123456789+-*":
            continue
        tok = line.split()
        p = tok[0]
        if p.startswith("0x"):
            pos = int(p, 16)
        elif p[0] in "+-":
            pos += int(p)
        if after_call:
            after_call = False
            continue
        if len(tok) >= 3:
            i = bisect.bisect_right(starts, pos) - 1
            if i >= 0 and pos - starts[i] < 65536:
                own[spans[i][1]] += int(tok[2])
    return own, calls


def listing(out: str, func: str, nodes: int) -> str:
    """Kernel function ``func``'s instructions (objdump) with each one's executions a node."""
    counts: collections.Counter[int] = collections.Counter()
    base, code = 0, b""
    with open(out + ".code") as f:
        for line in f:
            a, name, hexcode = line.split()
            if re.search(rf"_kernels\d+{func}B\d+v", name):
                base, code = int(a), bytes.fromhex(hexcode)
    if not code:
        return f"no kernel function {func}"
    for cg in [out + ".cg"] + glob.glob(out + ".cg.*"):
        pos, after_call = 0, False
        with open(cg) as f:
            for line in f:
                if line.startswith("calls="):
                    after_call = True
                    continue
                if not line or line[0] not in "0123456789+-*":
                    continue
                tok = line.split()
                if tok[0].startswith("0x"):
                    pos = int(tok[0], 16)
                elif tok[0][0] in "+-":
                    pos += int(tok[0])
                if after_call:
                    after_call = False
                    continue
                if len(tok) >= 3 and base <= pos < base + len(code):
                    counts[pos - base] += int(tok[2])
    with open(out + ".bin", "wb") as f:
        f.write(code)
    dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel", out + ".bin"],
                         capture_output=True, text=True, check=False).stdout
    lines = [f"{func}: {sum(counts.values()) / nodes:.1f} instructions a node; each instruction's executions a node"]
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)", line)
        if m and m.group(2).strip():
            lines.append(f"{counts.get(int(m.group(1), 16), 0) / nodes:8.3f} {m.group(1):>6}: {m.group(2)}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="6:0-11,8:0-2", help="players:deals, e.g. 6:0-11,8:0-2")
    ap.add_argument("--out", default="/tmp/solver_cost", help="prefix of callgrind's files")
    ap.add_argument("--listing", default="", help="kernel functions (_ab,_gen_moves) whose instructions to list with "
                    "their executions a node, in OUT.FUNC.txt")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sets = _sets(args.sets)
    if args.inner:
        inner(sets, args.out)
        return
    for f in glob.glob(args.out + ".cg*"):
        os.remove(f)
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-instr=yes", f"--callgrind-out-file={args.out}.cg",
           sys.executable, "-m", "bench.solver_cost", "--inner", "--sets", args.sets, "--out", args.out]
    # (a fixed string hash: the cards' bits and so the loops' lengths must not move between runs)
    run = subprocess.run(cmd, capture_output=True, text=True, check=False, env=dict(os.environ, PYTHONHASHSEED="0"))
    with open(args.out + ".txt", "w") as f:
        f.write(run.stdout)
    nodes = sum(int(line.split()[2]) for line in run.stdout.splitlines() if line.startswith("NODES"))
    if run.returncode != 0 or not nodes:
        sys.exit(f"bench/solver_cost.py: the run failed: {run.stderr[-2000:]}")
    parts = sorted(glob.glob(args.out + ".cg.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    set_nodes = [int(line.split()[2]) for line in run.stdout.splitlines() if line.startswith("NODES")]
    own, calls = attribute(args.out + ".cg", args.out + ".map")
    for f in parts:
        o, c = attribute(f, args.out + ".map")
        own += o
        calls += c
    total = sum(own.values())
    print(f"solver cost, {time.strftime('%Y-%m-%d %H:%M')}, sets {args.sets}: {nodes:,} nodes, "
          f"kernels {total:,} instructions = {total / nodes:.1f} a node")
    print(run.stdout.strip())
    if len(parts) == len(sets) > 1:
        for (players, hand, _), f, n in zip(sets, parts, set_nodes):
            ir = sum(attribute(f, args.out + ".map")[0].values())
            what = ("bridge" if not players else f"estimate hand {hand // 10} seat {hand % 10}" if players < 0
                    else f"{players} x {hand or 8}")
            print(f"  set {what}: {n:,} nodes, {ir / max(n, 1):.1f} instructions a node")
    for name, ir in own.most_common():
        c = calls.get(name, 0)
        per_call = f"{ir / c:8.0f} a call" if c else ""
        print(f"  {name:16s} {ir / nodes:8.1f} a node {100 * ir / total:5.1f}%  calls {c:>10,d} {per_call}")
    for func in filter(None, args.listing.split(",")):
        with open(f"{args.out}.{func}.txt", "w") as f:
            f.write(listing(args.out, func, nodes) + "\n")
        print(f"  listing of {func}: {args.out}.{func}.txt")


if __name__ == "__main__":
    main()
