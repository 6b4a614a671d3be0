"""The ``fiftysix`` command: argparse subcommands, plain text or ``--json`` out.

Each group of subcommands lives in ``ui/commands/<name>.py`` with a ``register(subparsers)``
function that registers each subcommand with ``common.command`` (its arguments, then
``--json``, and its ``handler``). A handler prints nothing: it returns an
``Output`` (its data and its text form), or a stream of them, and ``main`` writes the data as
JSON with ``--json``, else the text (``ui/commands/output.py``). Errors a user can cause
(``FiftySixError``) become one line on stderr and exit status 2; so does any other error that
escapes a handler (a last guard: nothing ends in a traceback); Ctrl-C is exit status 130.

Why some imports sit inside handlers: a command module imports at its top everything but
what loads numba (the analyser, the bots, the drills that solve) or Dask (the stats job).
Importing those costs seconds (numba's start, the compiled kernels' cache), which ``fiftysix
calls 28H`` or ``fiftysix --help`` must not pay; so only a handler that solves imports them,
when it runs. Everywhere else in the project (the pages included) modules import plainly.
"""
from __future__ import annotations

import argparse
import importlib
import re
import sqlite3
import sys
import time
from collections.abc import Sequence

from fiftysix import __version__
from fiftysix.analyser import interrupts
from fiftysix.errors import FiftySixError
from fiftysix.ui.commands.output import write

COMMAND_MODULES = [
    "fiftysix.ui.commands.game",
    "fiftysix.ui.commands.bidding",
    "fiftysix.ui.commands.records",
    "fiftysix.ui.commands.simulate",
    "fiftysix.ui.commands.solver",
    "fiftysix.ui.commands.drills",
    "fiftysix.ui.commands.stats",
    "fiftysix.ui.commands.bots",
    "fiftysix.ui.commands.problems",
    "fiftysix.ui.commands.app",
]

EXTRAS = {"streamlit": "app", "plotly": "app", "dask": "stats", "distributed": "stats", "pyarrow": "stats"}
"""The optional dependencies, by the extra that installs them (pyproject's optional-dependencies)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        m = re.match(r"argument (\S+): (\S+) ", message)
        if m and m.group(1).split("/")[-1] == m.group(2):  # "argument -n: -n must be ..." says -n once
            message = message[len("argument ") + len(m.group(1)) + 2:]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="fiftysix", description="Trainer and hand analyser for 56.")
    parser.add_argument("--version", action="version", version=f"fiftysix {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()  # handlers with a time budget count from here (``args.started``)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # a usage error (its line already printed) or --help
        return e.code if isinstance(e.code, int) else 2
    args.started = started
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        with interrupts.watching():  # Ctrl-C reaches a search in the kernels at once
            return write(args.handler(args), getattr(args, "json", False))
    except FiftySixError as e:
        print(f"fiftysix {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return 0
    except ModuleNotFoundError as e:  # an optional dependency this command needs
        root = (e.name or "").partition(".")[0]
        extra = f": pip install 'fiftysix[{EXTRAS[root]}]'" if root in EXTRAS else ""
        print(f"fiftysix {args.command}: error: this needs {root or e}, which is not installed{extra}",
              file=sys.stderr)
        return 2
    except OSError as e:
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"fiftysix {args.command}: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, AttributeError, KeyError, RecursionError, OverflowError, MemoryError,
            sqlite3.Error) as e:
        # a last guard, so that no input ends in a traceback; the parsers and stores raise
        # FiftySixError themselves (tests/test_fuzz.py hunts for inputs that reach here)
        print(f"fiftysix {args.command}: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fiftysix {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
