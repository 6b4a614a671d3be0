"""What the subcommands share: table options, limits on numbers, and batches of JSON lines."""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, SupportsInt

from fiftysix.cards import Table
from fiftysix.errors import FiftySixError
from fiftysix.textio import decode
from fiftysix.textio import loads as loads_json
from fiftysix.ui.commands.output import Output


def add_table_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=6, choices=(4, 6, 8), help="table size (default 6)")
    p.add_argument("--deck", type=int, default=None, choices=(32, 48, 64),
                   help="deck size (default: 32 for 4 players, 48 for 6, 64 for 8)")
    p.add_argument("--teams", default="alternate", choices=("alternate", "pairs"))


@contextmanager
def command(sub: argparse._SubParsersAction, name: str, handler: Callable[[argparse.Namespace], Any],
            help: str) -> Iterator[argparse.ArgumentParser]:
    """Register the subcommand ``name``: the ``with`` block adds its own arguments to the parser
    it is given; then ``--json`` is added (last, so it ends every ``--help``) and ``handler``
    is set to answer it."""
    p = sub.add_parser(name, help=help)
    yield p
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=handler)


def group(sub: argparse._SubParsersAction, name: str, help: str, dest: str,
          metavar: str) -> argparse._SubParsersAction:
    """Register ``name`` as a group of subcommands and return its subparsers; the group alone
    (no subcommand) prints its help."""
    p = sub.add_parser(name, help=help)
    p.set_defaults(handler=lambda args: Output(None, p.format_help()))
    return p.add_subparsers(dest=dest, metavar=metavar)


def table_from(args: argparse.Namespace) -> Table:
    return Table.make(args.players, args.deck, args.teams)


# --- limits on numbers: one definition for flags and batch lines -------------------------------

MAX_SECONDS = 24 * 3600.0
"""The largest time budget (seconds) any command accepts."""
MAX_NODES = 10 ** 15
"""The largest node budget a search accepts."""
MAX_SEED = 2 ** 32 - 1
"""Seeds are 0..MAX_SEED."""
MAX_DEALS = 100_000
"""The largest -n of ``sample`` and ``simulate`` (the deals are held in memory at once)."""
MAX_QUESTIONS = 1000
"""The largest -n of ``quiz`` and of ``bank make`` (per table size)."""
MAX_THREADS = 256


class LimitError(FiftySixError):
    """A number outside what a command accepts."""


def whole(value: object, name: str, lo: int, hi: int) -> int:
    """``value`` (an int, or text of one) as an int in lo..hi, else LimitError naming ``name``."""
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise LimitError(f"{name} must be a whole number {lo}..{hi}, not {value!r}")
    try:
        if isinstance(value, str):
            n = int(value.strip())
        elif isinstance(value, SupportsInt):
            n = int(value)
        else:
            raise TypeError(value)
    except (ValueError, TypeError, OverflowError):
        raise LimitError(f"{name} must be a whole number {lo}..{hi}, not {str(value)[:40]!r}") from None
    if not lo <= n <= hi:
        raise LimitError(f"{name} must be {lo}..{hi}, not {n if abs(n) < 10 ** 30 else 'a number that large'}")
    return n


def seconds(value: object, name: str = "--max-seconds", zero_ok: bool = False, hi: float = MAX_SECONDS) -> float:
    """A finite number of seconds, above 0 (or 0 itself with ``zero_ok``) and at most ``hi``."""
    if isinstance(value, bool):
        raise LimitError(f"{name} must be a number of seconds, not {value!r}")
    try:
        x = float(str(value).strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (ValueError, TypeError, OverflowError):
        raise LimitError(f"{name} must be a number of seconds, not {str(value)[:40]!r}") from None
    if not math.isfinite(x) or x > hi or x < 0 or (x == 0 and not zero_ok):
        raise LimitError(f"{name} must be {'0 (no limit) or ' if zero_ok else ''}more than 0 and at most"
                         f" {hi:g} seconds, not {str(value)[:40]}")
    return x


def arg(check, *a, **kw):
    """An argparse ``type=`` that runs ``check(text, *a, **kw)``; its message becomes the usage error."""
    def parse(text: str):
        try:
            return check(text, *a, **kw)
        except LimitError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = a[0] if a else "value"
    return parse


def add_seed_arg(p: argparse.ArgumentParser, default: int | None, help: str) -> None:
    p.add_argument("--seed", type=arg(whole, "--seed", 0, MAX_SEED), default=default,
                   help=f"{help} (0..{MAX_SEED})")


# --- batches of JSON lines: every line answered ---------------------------------------------

MAX_LINE_BYTES = 64 * 1024
"""The longest line a ``--batch`` reads; a longer one gets an error line."""


def run_batch(path: str, keys: set[str], answer: Callable[[dict[str, Any]], dict[str, Any]]) -> Iterator[Output]:
    """Read JSON lines from ``path`` ('-': stdin) and answer each with one JSON line, as it is
    read: ``answer``'s result for a good line, ``{"line": n, "error": ...}`` for a line that is
    not UTF-8, not a JSON object, too long, has a field not in ``keys``, or asks for something
    impossible; the next line is read as usual."""
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as e:
        raise FiftySixError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        n = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            n += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                    raw = stream.readline(MAX_LINE_BYTES + 1)
                yield Output({"line": n, "error": f"the line is longer than {MAX_LINE_BYTES} bytes"})
                continue
            if not raw.strip():
                continue
            yield Output(_batch_line(raw, n, keys, answer))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _batch_line(raw: bytes, n: int, keys: set[str], answer) -> dict[str, Any]:
    try:
        fields = loads_json(decode(raw, f"line {n}"), f"line {n}")
        if not isinstance(fields, dict):
            raise FiftySixError("each line must be a JSON object")
        unknown = set(fields) - keys
        if unknown:
            raise FiftySixError(f"unknown field(s) {', '.join(sorted(unknown))[:200]}")
        return answer(fields)
    except FiftySixError as e:
        return {"line": n, "error": str(e).removeprefix(f"line {n}: ")}
    except (ValueError, TypeError, OverflowError, RecursionError) as e:  # a last guard: still one line
        return {"line": n, "error": f"cannot answer this line: {e}"}
